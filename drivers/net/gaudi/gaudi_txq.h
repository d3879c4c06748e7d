/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: TX queue control (setup, release, start, stop, info). The datapath on the queue
 * is gaudi_tx.
 */
#pragma once

#include <ethdev_driver.h>

#include "gaudi_tx.h"

int gaudi_tx_queue_setup(rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc, unsigned int socket,
			 const rte_eth_txconf *conf);
void gaudi_txq_release(rte_eth_dev *dev, uint16_t qid);
int gaudi_tx_queue_start(rte_eth_dev *dev, uint16_t qid);
int gaudi_tx_queue_stop(rte_eth_dev *dev, uint16_t qid);
void gaudi_txq_info_get(rte_eth_dev *dev, uint16_t qid, rte_eth_txq_info *qinfo);

/* Port start/stop (gaudi_trigger.cpp): bounce buffers for the current MTU, hardware start/stop. */
int gaudi_txq_alloc_bounce(rte_eth_dev *dev, gaudi_txq *txq);
int gaudi_txq_hw_start(rte_eth_dev *dev, gaudi_txq *txq);
/* gaudi_txq_hw_start in two steps, for the port start: the engine block with the ring
 * (before the MAC, as hbl_cn's port config), then the raw QP context (after it, as hbl_en's
 * port open). */
void gaudi_txq_hw_config(rte_eth_dev *dev, gaudi_txq *txq);
int gaudi_txq_hw_activate(rte_eth_dev *dev, gaudi_txq *txq);
void gaudi_txq_hw_stop(rte_eth_dev *dev, gaudi_txq *txq);
