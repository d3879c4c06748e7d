/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: recovery from device faults (doorbell FIFO overrun, CQ overrun, QP errors, link
 * flaps, a stuck TX engine). See doc/guides/nics/gaudi.rst, "Fault injection and recovery".
 * This file: accounting, link events, reset requests (state: struct gaudi_recovery in
 * gaudi_adapter.h). The TX queue's part (re-ring, QP restart): gaudi_tx.h gaudi_tx_recover;
 * the watchdog: gaudi_watchdog.h. Locking: gaudi_watchdog.h.
 */
#pragma once

#include <cstdint>
#include <string>

struct gaudi_adapter;
struct gaudi_port;
struct gaudi_eq_found;
struct rte_eth_dev;

/* Probe: counters' baselines, watchdog period. */
void gaudi_rec_init(gaudi_port *port, uint32_t watchdog_ms);
/* EQ consumer hooks, under eq_lock. */
void gaudi_rec_db_overrun(gaudi_port *port);
void gaudi_rec_cq_overrun(gaudi_port *port);
void gaudi_rec_link_event(gaudi_port *port, uint32_t status);
/* The same for a LINK_STATUS event read from NIC port hw's event queue by its adapter (the odd
 * port's queue when no started ethdev consumes it, gaudi_intr.cpp). */
void gaudi_rec_link_event_hw(gaudi_adapter *ad, unsigned hw, uint32_t status);
/* The device CPU's events (its CPU event queue, polled from the watchdog's alarm): a NIC SW
 * error event of a macro has each of its ports with QPC INTERRUPT_CAUSE bit 10 (the event
 * queue's error) cleared and reset [gaudi2_cn.c gaudi2_cn_sw_err_event]. */
void gaudi_rec_fw_events(gaudi_adapter *ad);
/* Ask the application to reset the port (RTE_ETH_EVENT_INTR_RESET, from the interrupt
 * thread), once until the next start. */
void gaudi_rec_request_reset(gaudi_port *port, const char *why);
/* Cancel a reset request not yet delivered (dev_stop). */
void gaudi_rec_cancel_reset(rte_eth_dev *dev);
/* What the event queue found besides TX completions (gaudi_eq_found): link events, QP errors,
 * overruns, counted and acted on. Under eq_lock. */
void gaudi_rec_found(gaudi_port *port, const gaudi_eq_found &f);
/* At most a few recovery log lines per port and second (a fault storm would flood the
 * console; the counters keep the exact numbers). */
bool gaudi_rec_log_ok(gaudi_port *port);
