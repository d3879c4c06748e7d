/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: the port's event queue (EQ), its one owner. The EQ carries TX completions
 * (to the TX queue), link, QP error and overrun events (to gaudi_recovery) [gaudi2_cn_eq.c].
 */
#pragma once

#include "gaudi_ethdev.h"

struct gaudi_txq;

/* Reserve the EQ and its PI / doorbell-FIFO CI shadows (gaudi_port_mem), at probe. */
int gaudi_port_mem_alloc(rte_eth_dev *dev);
/* IOVA of the doorbell FIFO CI shadow (mem.db_ci) the hardware writes. */
uint64_t gaudi_db_ci_iova(const gaudi_port *port);
/* Empty the EQ and program it (dev_start, under eq_lock). */
void gaudi_port_eq_start(gaudi_port *port);
/* Drain the port's event queue: TX completions go to txq; other events are counted. Returns
 * without waiting if another thread is draining it. */
void gaudi_eq_poll(gaudi_port *port, gaudi_txq *txq);
/* The same with eq_lock held by the caller. */
void gaudi_eq_poll_locked(gaudi_port *port, gaudi_txq *txq);
/* Report QP errors once, from the control path (one clear log line each). */
void gaudi_eq_report_events(gaudi_port *port);
