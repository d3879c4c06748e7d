/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: RX and TX queue control (setup, release, start, stop, info) and the
 * port's DMA memory zones. The datapath on these queues is gaudi_rxtx.
 */
#pragma once

#include <ethdev_driver.h>

#include "gaudi_ethdev.h"

/* A memzone of the port named gaudi_<port>_<what><q> (an old one of that name is freed first).
 * Rings the device walks by index must be IOVA-contiguous; with IOVA as PA and 2 MB pages that
 * only holds within one page, so a ring up to 2 MB is aligned to its own size (gaudi_ring_align)
 * to sit in a single page. */
const rte_memzone *gaudi_dma_zone(const rte_eth_dev *dev, const char *what, uint16_t q, size_t len,
				  int socket, unsigned flags = RTE_MEMZONE_IOVA_CONTIG,
				  size_t align = gaudi::hw::kRingAlign);
size_t gaudi_ring_align(size_t len);

int gaudi_rx_queue_setup(rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc, unsigned int socket,
			 const rte_eth_rxconf *conf, rte_mempool *mp);
int gaudi_tx_queue_setup(rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc, unsigned int socket,
			 const rte_eth_txconf *conf);
void gaudi_rxq_release(rte_eth_dev *dev, uint16_t qid);
void gaudi_txq_release(rte_eth_dev *dev, uint16_t qid);
int gaudi_rx_queue_start(rte_eth_dev *dev, uint16_t qid);
int gaudi_rx_queue_stop(rte_eth_dev *dev, uint16_t qid);
int gaudi_tx_queue_start(rte_eth_dev *dev, uint16_t qid);
int gaudi_tx_queue_stop(rte_eth_dev *dev, uint16_t qid);
void gaudi_rxq_info_get(rte_eth_dev *dev, uint16_t qid, rte_eth_rxq_info *qinfo);
void gaudi_txq_info_get(rte_eth_dev *dev, uint16_t qid, rte_eth_txq_info *qinfo);

/* Port start/stop (gaudi_ethdev.cpp): ring memory for the current MTU, hardware start/stop. */
int gaudi_rxq_alloc_ring(rte_eth_dev *dev, gaudi_rxq *rxq);
int gaudi_txq_alloc_bounce(rte_eth_dev *dev, gaudi_txq *txq);
int gaudi_rxq_hw_start(rte_eth_dev *dev, gaudi_rxq *rxq);
void gaudi_rxq_hw_stop(rte_eth_dev *dev, gaudi_rxq *rxq);
int gaudi_txq_hw_start(rte_eth_dev *dev, gaudi_txq *txq);
void gaudi_txq_hw_stop(rte_eth_dev *dev, gaudi_txq *txq);
