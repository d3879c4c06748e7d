/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: RX queue control (setup, release, start, stop, info). The datapath on the queue
 * is gaudi_rx.
 */
#pragma once

#include <ethdev_driver.h>

#include "gaudi_rx.h"

int gaudi_rx_queue_setup(rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc, unsigned int socket,
			 const rte_eth_rxconf *conf, rte_mempool *mp);
void gaudi_rxq_release(rte_eth_dev *dev, uint16_t qid);
int gaudi_rx_queue_start(rte_eth_dev *dev, uint16_t qid);
int gaudi_rx_queue_stop(rte_eth_dev *dev, uint16_t qid);
void gaudi_rxq_info_get(rte_eth_dev *dev, uint16_t qid, rte_eth_rxq_info *qinfo);

/* Port start/stop (gaudi_trigger.cpp): ring memory for the current MTU, hardware start/stop. */
int gaudi_rxq_alloc_ring(rte_eth_dev *dev, gaudi_rxq *rxq);
int gaudi_rxq_hw_start(rte_eth_dev *dev, gaudi_rxq *rxq);
/* gaudi_rxq_hw_start in two steps, for the port start: the engine block with the ring
 * (before the MAC, as hbl_cn's port config), then the raw QP context (after it, as hbl_en's
 * port open). */
int gaudi_rxq_hw_config(rte_eth_dev *dev, gaudi_rxq *rxq);
int gaudi_rxq_hw_activate(rte_eth_dev *dev, gaudi_rxq *rxq);
void gaudi_rxq_hw_stop(rte_eth_dev *dev, gaudi_rxq *rxq);
