/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: the TX watchdog, an EAL alarm per started port: it finishes a recovery the
 * datapath would only do on its next burst, and asks for a port reset when the TX engine makes
 * no progress (gaudi_recovery.h, doc/guides/nics/gaudi.rst "Fault injection and recovery").
 */
#include "gaudi_watchdog.h"

#include <cinttypes>

#include <ethdev_driver.h>
#include <rte_alarm.h>

#include "gaudi_logs.h"
#include "gaudi_recovery.h"
#include "gaudi_tx.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

constexpr uint32_t kWdPeriodMs = 100;

gaudi_txq *txq_of(rte_eth_dev *dev)
{
	if (dev->data->tx_queues == nullptr || dev->data->nb_tx_queues == 0)
		return nullptr;
	return static_cast<gaudi_txq *>(dev->data->tx_queues[0]);
}

/* Events the datapath must act on are waiting in the EQ, unconsumed. Under eq_lock. */
bool eq_has_recovery_work(gaudi_port *port, uint32_t hw_pi)
{
	const uint32_t mask = (1u << kEqLog2) - 1;
	/* The consumer may be ahead of the PI shadow (it follows the valid bits): nothing then. */
	if (((hw_pi - port->eq_ci) & EQ_IDX_MASK) > mask + 1)
		return false;
	for (uint32_t ci = port->eq_ci; ci != hw_pi; ci = (ci + 1) & EQ_IDX_MASK) {
		uint32_t d0 = __atomic_load_n(&port->mem.eq[ci & mask].d0, __ATOMIC_ACQUIRE);
		if (!(d0 & EQE_VALID))
			break;
		EqeType t = EqeType(d0 & EQE_TYPE_MASK);
		if (t == EqeType::qp_err || t == EqeType::db_fifo_overrun)
			return true;
	}
	return false;
}

/* EAL alarm, every kWdPeriodMs while the port is started. */
void wd_tick(void *arg)
{
	auto *dev = static_cast<rte_eth_dev *>(arg);
	auto *port = static_cast<gaudi_port *>(dev->data->dev_private);
	gaudi_recovery &r = port->rec;
	if (!r.wd_active)
		return;
	gaudi_txq *txq = txq_of(dev);
	if (txq != nullptr && txq->started && rte_spinlock_trylock(&txq->lock)) {
		/* tx_burst is not running (it holds the queue's lock). */
		if (!rte_spinlock_trylock(&port->eq_lock)) { /* the port stops or changes hands */
			rte_spinlock_unlock(&txq->lock);
			goto rearm;
		}
		uint32_t hw_pi = __atomic_load_n(port->mem.eq_pi, __ATOMIC_ACQUIRE);
		/* The datapath consumed nothing for a whole period but recovery work waits (its
		 * application may not call tx_burst again until the frames it holds go out). */
		if (hw_pi != port->eq_ci && port->eq_ci == r.wd_eq_ci &&
		    eq_has_recovery_work(port, hw_pi))
			gaudi_port_events_locked(port, txq);
		if (port->rec.db_rering || port->qp_err_pending)
			gaudi_tx_recover(txq);
		/* Stall: WQEs outstanding, every event consumed, no doorbell consumed, no completion,
		 * for watchdog_ms, and the TX not paused by the peer's flow control (a legitimate
		 * wait for XON, however long the peer keeps its CQ full). */
		uint32_t db_ci = __atomic_load_n(port->mem.db_ci, __ATOMIC_ACQUIRE);
		hw_pi = __atomic_load_n(port->mem.eq_pi, __ATOMIC_ACQUIRE);
		bool stalled = txq->pi != txq->ci && port->eq_ci == hw_pi &&
			       hw_pi == r.wd_hw_eq_pi && txq->ci == r.wd_txq_ci &&
			       db_ci == r.wd_db_ci && !port->hw.tx_paused();
		r.wd_stalled_ms = stalled ? r.wd_stalled_ms + kWdPeriodMs : 0;
		if (r.watchdog_ms != 0 && r.wd_stalled_ms >= r.watchdog_ms && !r.reset_requested) {
			r.tx_watchdog++;
			PMD_DRV_LOG(
				ERR,
				"port %u: TX watchdog: %u WQEs outstanding, no progress for %u ms "
				"(doorbells %u pushed, %u consumed): TX engine stuck, port reset "
				"needed",
				port->port_id, (txq->pi - txq->ci) & WQ_IDX_MASK, r.wd_stalled_ms,
				port->db_pushed, db_ci);
			gaudi_rec_request_reset(port, "TX watchdog");
		}
		r.wd_eq_ci = port->eq_ci;
		r.wd_hw_eq_pi = hw_pi;
		r.wd_txq_ci = txq->ci;
		r.wd_db_ci = db_ci;
		rte_spinlock_unlock(&port->eq_lock);
		rte_spinlock_unlock(&txq->lock);
	}
rearm:
	gaudi_rec_fw_events(port->adapter);
	if (rte_eal_alarm_set(kWdPeriodMs * 1000, wd_tick, dev) != 0)
		r.wd_active = false;
}

} /* namespace */

void gaudi_watchdog_start(rte_eth_dev *dev)
{
	auto *port = static_cast<gaudi_port *>(dev->data->dev_private);
	gaudi_recovery &r = port->rec;
	r.reset_requested = false;
	r.db_rering = false;
	r.wd_stalled_ms = 0;
	r.wd_eq_ci = r.wd_txq_ci = r.wd_db_ci = r.wd_hw_eq_pi = UINT32_MAX;
	/* The port's MAC is still off (dev_start enables it after this), so its link is down:
	 * the link-down of the last stop may never have been consumed (the queue that carried it
	 * is reprogrammed empty when its consumer changes). */
	__atomic_store_n(&r.link_seen, false, __ATOMIC_RELAXED);
	__atomic_store_n(&r.link_had, false, __ATOMIC_RELAXED);
	__atomic_store_n(&r.link_watch, true, __ATOMIC_RELEASE);
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return;
	r.wd_active = rte_eal_alarm_set(kWdPeriodMs * 1000, wd_tick, dev) == 0;
}

void gaudi_watchdog_stop(rte_eth_dev *dev)
{
	auto *port = static_cast<gaudi_port *>(dev->data->dev_private);
	/* First thing in dev_stop: the link-down the stop causes is not a link lost. */
	__atomic_store_n(&port->rec.link_watch, false, __ATOMIC_RELEASE);
	port->rec.wd_active = false;
	rte_eal_alarm_cancel(wd_tick, dev);
	gaudi_rec_cancel_reset(dev);
}
