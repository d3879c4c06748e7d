/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: the TX watchdog (gaudi_watchdog.cpp).
 *
 * Locking: everything that touches the TX queue runs under the queue's lock (gaudi_txq::lock),
 * which tx_burst holds for the whole burst; the watchdog takes it too, then the port's eq_lock
 * (trylocks: it skips a tick the datapath is running), so it can finish a recovery the datapath
 * would otherwise only do on its next burst.
 */
#pragma once

struct rte_eth_dev;

/* dev_start (after the queues started): link watch on, the watchdog's alarm armed. */
void gaudi_watchdog_start(rte_eth_dev *dev);
/* dev_stop (first thing): link watch off, the alarm and a pending reset request cancelled. */
void gaudi_watchdog_stop(rte_eth_dev *dev);
