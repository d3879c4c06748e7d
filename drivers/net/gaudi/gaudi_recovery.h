/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: recovery from device faults (doorbell FIFO overrun, CQ overrun, QP errors, link
 * flaps, a stuck TX engine) and the TX watchdog. See doc/guides/nics/gaudi.rst, "Fault
 * injection and recovery".
 *
 * Locking: everything that touches the TX queue runs under gaudi_port::eq_lock, which
 * tx_burst holds for the whole burst; the watchdog (an EAL alarm) takes it too, so it can
 * finish a recovery the datapath would otherwise only do on its next burst.
 */
#pragma once

#include <cstdint>
#include <string>

struct gaudi_adapter;
struct gaudi_port;
struct gaudi_txq;
struct rte_eth_dev;

/* Per-port recovery state and counters, in gaudi_port (shared memory, zeroed at probe). */
struct gaudi_recovery {
	uint64_t db_lost;          /* doorbells the device dropped */
	uint64_t db_rerings;
	uint64_t qp_recoveries;
	uint64_t tx_fault_drops;
	uint64_t link_down;
	uint64_t link_up;
	uint64_t link_ups;         /* every link-up of the port (NIC_STATUS port_toggle_cnt) */
	uint64_t tx_watchdog;
	uint64_t reset_events;
	uint64_t eq_error_resets;  /* QPC cause 0x400 (EQ error) found, port reset requested */
	uint64_t cq_log_tsc;       /* last CQ overrun log line (rate limit) */
	uint64_t log_tsc;          /* start of the current recovery-log second */
	uint32_t log_lines;        /* recovery log lines in that second */
	uint32_t log_suppressed;   /* lines not printed over the limit */
	bool db_rering;            /* a doorbell was lost: ring the current PI again */
	bool link_seen;            /* link state of the last LINK_STATUS event for this port */
	/* link_down / link_up count the link lost and regained while the port runs: from the
	 * port's first link-up after dev_start (its own, or the peer's start, is not counted)
	 * until dev_stop begins (its own link-down is not counted either). */
	bool link_watch;           /* between dev_start and dev_stop */
	bool link_had;             /* the link was up since dev_start */
	bool reset_requested;      /* INTR_RESET raised, until the next start */
	/* Watchdog (alarm) state. */
	bool wd_active;
	uint32_t watchdog_ms;      /* stall time before a reset is requested; 0 = off */
	uint32_t wd_stalled_ms;
	uint32_t wd_eq_ci, wd_txq_ci, wd_db_ci, wd_hw_eq_pi;
};

/* Probe: counters' baselines, watchdog period. */
void gaudi_rec_init(gaudi_port *port, uint32_t watchdog_ms);
/* dev_start (after the queues started) / dev_stop (first thing). */
void gaudi_rec_start(rte_eth_dev *dev);
void gaudi_rec_stop(rte_eth_dev *dev);
/* EQ consumer hooks, under eq_lock. */
void gaudi_rec_db_overrun(gaudi_port *port);
void gaudi_rec_cq_overrun(gaudi_port *port);
void gaudi_rec_link_event(gaudi_port *port, uint32_t status);
/* The same for a LINK_STATUS event read from NIC port hw's event queue by its adapter (the odd
 * port's queue when no started ethdev consumes it, gaudi_intr.cpp). */
void gaudi_rec_link_event_hw(gaudi_adapter *ad, unsigned hw, uint32_t status);
/* Work a fault left for the TX queue: re-ring a lost doorbell, restart the QP after a QP
 * error. Under eq_lock (tx_burst, watchdog). Cheap test first. */
void gaudi_rec_tx_slow(gaudi_txq *txq);
/* The device CPU's events (its CPU event queue, polled from the watchdog's alarm): a NIC SW
 * error event of a macro has each of its ports with QPC INTERRUPT_CAUSE bit 10 (the event
 * queue's error) cleared and reset [gaudi2_cn.c gaudi2_cn_sw_err_event]. */
void gaudi_rec_fw_events(gaudi_adapter *ad);
/* Ask the application to reset the port (RTE_ETH_EVENT_INTR_RESET, from the interrupt
 * thread), once until the next start. */
void gaudi_rec_request_reset(gaudi_port *port, const char *why);
