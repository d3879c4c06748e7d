/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: the port's event queue (EQ), its one owner. The EQ carries TX completions, link,
 * QP error and overrun events [gaudi2_cn_eq.c]. The consumer only reads: it hands back what it
 * found (gaudi_eq_found) and its caller acts on it (gaudi_tx.h gaudi_port_events), so the EQ
 * calls nothing above it.
 */
#pragma once

#include <cstdint>

#include "gaudi_adapter.h"

/* What one pass of the consumer found, in the order the device posted it where order counts. */
struct gaudi_eq_found {
	/* LINK_STATUS statuses, oldest first: each may change a port's link (gaudi_recovery). */
	static constexpr unsigned kLinkMax = 8;
	uint32_t link[kLinkMax];
	unsigned n_link = 0;
	/* The ring index of the newest RAW_TX_COMP (its d2): every WQE up to it completed. */
	uint32_t tx_comp = 0;
	bool has_tx_comp = false;
	uint32_t qp_errs = 0; /* QP_ERR events, and the syndrome of the last one */
	uint32_t qp_syndrome = 0;
	uint32_t db_overruns = 0; /* DB_FIFO_OVERRUN events: one doorbell lost each */
	uint32_t cq_overruns = 0; /* COMP_ERR (RX CQ overrun) events */
	/* The pass stopped with events left (link[] full): the caller acts, then polls again. */
	bool more = false;
};

/* Reserve the EQ and its PI / doorbell-FIFO CI shadows (gaudi_port_mem), at probe. */
int gaudi_port_mem_alloc(rte_eth_dev *dev);
/* IOVA of the doorbell FIFO CI shadow (mem.db_ci) the hardware writes. */
uint64_t gaudi_db_ci_iova(const gaudi_port *port);
/* Empty the EQ and program it (dev_start, under eq_lock). */
void gaudi_port_eq_start(gaudi_port *port);
/* Consume the port's EQ, at most one lap, under eq_lock: what it held goes to *found. */
void gaudi_eq_poll_locked(gaudi_port *port, gaudi_eq_found *found);
/* Report QP errors once, from the control path (one clear log line each). */
void gaudi_eq_report_events(gaudi_port *port);
