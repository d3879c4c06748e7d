/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: recovery from device faults, TX watchdog, and the public API of rte_pmd_gaudi.h
 * (fault injection on net_gaudi_emu, recovery counters). See gaudi_recovery.h.
 */
#include "gaudi_recovery.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <string>

#include <ethdev_driver.h>
#include <rte_alarm.h>
#include <rte_cycles.h>

#include "gaudi_bringup.h"
#include "gaudi_eq.h"
#include "gaudi_ethdev.h"
#include "gaudi_logs.h"
#include "gaudi_rxtx.h"
#include "rte_pmd_gaudi.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

constexpr uint32_t kWdPeriodMs = 100;

rte_eth_dev *dev_of(const gaudi_port *port) { return &rte_eth_devices[port->port_id]; }

gaudi_txq *txq_of(rte_eth_dev *dev)
{
	if (dev->data->tx_queues == nullptr || dev->data->nb_tx_queues == 0)
		return nullptr;
	return static_cast<gaudi_txq *>(dev->data->tx_queues[0]);
}

const char *syndrome_name(uint32_t s)
{
	switch (QpErrSyndrome(s)) {
	case QpErrSyndrome::req_db_qp_not_valid: return "requester doorbell: QP not valid";
	case QpErrSyndrome::pi_exceeds_last_index: return "PI exceeds last index";
	case QpErrSyndrome::wqe_index_mismatch: return "WQE index != execution index";
	case QpErrSyndrome::raw_wqe_size_unsupported: return "raw WQE size not supported";
	case QpErrSyndrome::raw_wqe_opcode_unsupported: return "raw WQE opcode not supported";
	case QpErrSyndrome::wqe_dma_fault: return "WQE local address DMA fault";
	case QpErrSyndrome::raw_above_max_size: return "raw frame above the TXE maximum size";
	case QpErrSyndrome::raw_below_min_size: return "raw frame below the TXE minimum size (187)";
	case QpErrSyndrome::wqe_se_not_raw: return "WQE SE not raw";
	}
	switch (s >> 6) {
	case 0: return "rx packet error";
	case 1: return "QPC error";
	default: return "tx packet error";
	}
}

void reset_cb(void *arg)
{
	auto *dev = static_cast<rte_eth_dev *>(arg);
	rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_RESET, nullptr);
}

/* At most kLogPerSec recovery log lines per port and second: under a fault storm (e.g. the
 * random fault mode) a line per event would flood the application's console. The counters
 * (xstats) keep the exact numbers; a suppressed count is printed with the next line. */
constexpr uint32_t kLogPerSec = 10;
bool rec_log_ok(gaudi_port *port)
{
	gaudi_recovery &r = port->rec;
	uint64_t now = rte_get_timer_cycles();
	if (now - r.log_tsc >= rte_get_timer_hz()) {
		if (r.log_suppressed != 0)
			GAUDI_LOG(WARNING, "port %u: %u recovery log lines suppressed (see xstats)",
				  port->port_id, r.log_suppressed);
		r.log_tsc = now;
		r.log_lines = 0;
		r.log_suppressed = 0;
	}
	if (r.log_lines >= kLogPerSec) {
		r.log_suppressed++;
		return false;
	}
	r.log_lines++;
	return true;
}

/* Ring the doorbell with the queue's current PI, if the FIFO has room (else later). */
bool rering(gaudi_txq *txq)
{
	gaudi_port *port = txq->port;
	if (gaudi_db_full(port))
		return false;
	port->db_pushed++;
	port->hw.ring_doorbell(txq->pi & txq->mask);
	return true;
}

/* The raw QP stopped at a WQE with a QP error: restart the queue in place. */
void qp_recover(gaudi_txq *txq)
{
	gaudi_port *port = txq->port;
	uint32_t syn = port->last_qp_syndrome;
	if ((syn >> 6) == 0) {
		/* Responder (RX) class: the frame is lost and counted (ierrors); RX goes on. */
		if (rec_log_ok(port))
			GAUDI_LOG(WARNING, "port %u: RX QP error 0x%02x (%s): frame dropped", port->port_id,
			  syn, syndrome_name(syn));
		return;
	}
	qpc::ReqImage img;
	img.set(qpc::REQ_EXECUTION_IDX, 0);
	img.set(qpc::REQ_ERROR, 0);
	img.set(qpc::REQ_VALID, 0);
	if (!port->hw.qpc_read_req(&img)) {
		gaudi_rec_request_reset(port, "QPC gateway read failed after a QP error");
		return;
	}
	if (!img.get(qpc::REQ_ERROR) || !img.get(qpc::REQ_VALID))
		return; /* already restarted (one event per error) or the queue is stopping */
	/* EXECUTION_IDX is a ring index: back to the queue's free-running numbering. */
	uint32_t exec = gaudi_txq_unring(txq, img.get(qpc::REQ_EXECUTION_IDX));
	uint32_t outstanding = (txq->pi - txq->ci) & WQ_IDX_MASK;
	uint32_t done = (exec - txq->ci) & WQ_IDX_MASK;
	if (done > outstanding) {
		GAUDI_LOG(ERR, "port %u: TX QP error 0x%02x (%s): execution index %u outside the "
			  "ring [%u, %u]", port->port_id, syn, syndrome_name(syn), exec, txq->ci, txq->pi);
		gaudi_rec_request_reset(port, "inconsistent execution index");
		return;
	}
	/* WQEs before the execution index were sent: only the burst's last WQE solicits a
	 * completion, so complete them here. */
	if (done != 0)
		gaudi_tx_complete(txq, (exec - 1) & WQ_IDX_MASK);
	bool dropped = false;
	if ((syn >> 6) >= 2 && exec != txq->pi) {
		/* A tx-packet-class error is the WQE at the execution index: drop it (its frame
		 * was not sent) and restart after it, so nothing is sent twice. */
		uint32_t slot = exec & txq->mask;
		rte_mbuf *m = txq->sw_ring[slot];
		/* tx_burst counted the frame as sent; it is counted once, in oerrors. Its length:
		 * the mbuf's, or a bounced frame's WQE size, or for a padded one the length its
		 * bounce slot keeps (bounce_dirty). Saturating: a stats reset may come between. */
		const uint32_t size = txq->wq[slot].size;
		const uint64_t len = m != nullptr	 ? m->pkt_len
				     : size > kTxPadSize ? size
							 : txq->bounce_dirty[slot];
		txq->packets -= std::min<uint64_t>(txq->packets, 1);
		txq->bytes -= std::min(txq->bytes, len);
		rte_pktmbuf_free(m);
		txq->sw_ring[slot] = nullptr;
		txq->errors++;
		port->rec.tx_fault_drops++;
		exec = (exec + 1) & WQ_IDX_MASK;
		txq->ci = exec;
		dropped = true;
	}
	if (!port->hw.tx_resume(exec & txq->mask)) {
		gaudi_rec_request_reset(port, "QPC gateway did not answer the QP restart");
		return;
	}
	port->rec.qp_recoveries++;
	if (exec != txq->pi && !rering(txq))
		port->rec.db_rering = true;
	if (rec_log_ok(port))
		GAUDI_LOG(ERR, "port %u: TX QP error 0x%02x (%s): %s, queue restarted at WQE %u "
			  "(%" PRIu64 " recoveries)", port->port_id, syn, syndrome_name(syn),
			  dropped ? "faulting frame dropped (oerrors)" : "no frame lost", exec,
			  port->rec.qp_recoveries);
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
	if (txq != nullptr && txq->started && rte_spinlock_trylock(&port->eq_lock)) {
		/* tx_burst is not running (it holds eq_lock). */
		uint32_t hw_pi = __atomic_load_n(port->mem.eq_pi, __ATOMIC_ACQUIRE);
		/* The datapath consumed nothing for a whole period but recovery work waits (its
		 * application may not call tx_burst again until the frames it holds go out). */
		if (hw_pi != port->eq_ci && port->eq_ci == r.wd_eq_ci &&
		    eq_has_recovery_work(port, hw_pi))
			gaudi_eq_poll_locked(port, txq);
		if (port->rec.db_rering || port->qp_err_pending)
			gaudi_rec_tx_slow(txq);
		/* Stall: WQEs outstanding, every event consumed, no doorbell consumed, no completion,
		 * for watchdog_ms, and the TX not paused by the peer's flow control (a legitimate
		 * wait for XON, however long the peer keeps its CQ full). */
		uint32_t db_ci = __atomic_load_n(port->mem.db_ci, __ATOMIC_ACQUIRE);
		hw_pi = __atomic_load_n(port->mem.eq_pi, __ATOMIC_ACQUIRE);
		bool stalled = txq->pi != txq->ci && port->eq_ci == hw_pi && hw_pi == r.wd_hw_eq_pi &&
			       txq->ci == r.wd_txq_ci && db_ci == r.wd_db_ci && !port->hw.tx_paused();
		r.wd_stalled_ms = stalled ? r.wd_stalled_ms + kWdPeriodMs : 0;
		if (r.watchdog_ms != 0 && r.wd_stalled_ms >= r.watchdog_ms && !r.reset_requested) {
			r.tx_watchdog++;
			GAUDI_LOG(ERR, "port %u: TX watchdog: %u WQEs outstanding, no progress for %u ms "
				  "(doorbells %u pushed, %u consumed): TX engine stuck, port reset needed",
				  port->port_id, (txq->pi - txq->ci) & WQ_IDX_MASK, r.wd_stalled_ms,
				  port->db_pushed, db_ci);
			gaudi_rec_request_reset(port, "TX watchdog");
		}
		r.wd_eq_ci = port->eq_ci;
		r.wd_hw_eq_pi = hw_pi;
		r.wd_txq_ci = txq->ci;
		r.wd_db_ci = db_ci;
		rte_spinlock_unlock(&port->eq_lock);
	}
	gaudi_rec_fw_events(port->adapter);
	if (rte_eal_alarm_set(kWdPeriodMs * 1000, wd_tick, dev) != 0)
		r.wd_active = false;
}

gaudi_port *gaudi_port_of(uint16_t port_id)
{
	if (!rte_eth_dev_is_valid_port(port_id))
		return nullptr;
	rte_eth_dev *dev = &rte_eth_devices[port_id];
	if (dev->device == nullptr || dev->device->driver == nullptr ||
	    (strcmp(dev->device->driver->name, "net_gaudi_emu") != 0 &&
	     strcmp(dev->device->driver->name, "net_gaudi") != 0))
		return nullptr;
	return static_cast<gaudi_port *>(dev->data->dev_private);
}

} // namespace

void gaudi_rec_init(gaudi_port *port, uint32_t watchdog_ms)
{
	port->rec.watchdog_ms = watchdog_ms;
}

void gaudi_rec_start(rte_eth_dev *dev)
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

void gaudi_rec_stop(rte_eth_dev *dev)
{
	auto *port = static_cast<gaudi_port *>(dev->data->dev_private);
	/* First thing in dev_stop: the link-down the stop causes is not a link lost. */
	__atomic_store_n(&port->rec.link_watch, false, __ATOMIC_RELEASE);
	port->rec.wd_active = false;
	rte_eal_alarm_cancel(wd_tick, dev);
	rte_eal_alarm_cancel(reset_cb, dev);
}

void gaudi_rec_db_overrun(gaudi_port *port)
{
	/* One DB_FIFO_OVERRUN event per doorbell the FIFO refused [gaudi2_en.c counts them as
	 * tx_dropped]: it never reaches the CI. */
	uint32_t lost = 1;
	port->db_pushed -= lost;
	port->rec.db_lost += lost;
	port->rec.db_rering = true;
}

void gaudi_rec_cq_overrun(gaudi_port *port)
{
	uint64_t now = rte_get_timer_cycles();
	if (port->rec.cq_log_tsc != 0 && now - port->rec.cq_log_tsc < rte_get_timer_hz())
		return; /* one line per second at most */
	port->rec.cq_log_tsc = now;
	GAUDI_LOG(WARNING, "port %u: RX CQ overrun: the NIC dropped frames (counted in imissed, "
		  "%" PRIu64 " overrun episodes); poll the RX queue faster or use a larger ring",
		  port->port_id, port->ev_cq_overrun);
}

/* A LINK_STATUS event of the macro (it arrives on the odd port's EQ for both ports, hbl_cn
 * SW-42306): its status holds the link bit of each lane of the macro [choice of the model,
 * gaudi_emu_mac.cpp]. The event is counted (link_status_events) on each port of this NIC whose
 * link it shows changed, whichever queue it came from; a change while the port runs, after
 * its first link-up, is a link lost or regained (recovery_link_*, gaudi_recovery.h). */
void gaudi_rec_link_event(gaudi_port *port, uint32_t status)
{
	gaudi_rec_link_event_hw(port->adapter, port->hw.id(), status);
}

void gaudi_rec_link_event_hw(gaudi_adapter *ad, unsigned eq_hw, uint32_t status)
{
	unsigned even = eq_hw & ~1u;
	for (unsigned hw = even; hw < even + kPortsPerMacro; hw++) {
		gaudi_port *p = gaudi_adapter_port(ad, hw);
		if (p == nullptr)
			continue;
		gaudi_recovery &r = p->rec;
		bool up = status & (1u << reg::mac_lane(hw, 0));
		if (up == __atomic_load_n(&r.link_seen, __ATOMIC_RELAXED))
			continue;
		__atomic_store_n(&r.link_seen, up, __ATOMIC_RELAXED);
		p->ev_link++;
		if (up)
			r.link_ups++;
		if (!__atomic_load_n(&r.link_watch, __ATOMIC_ACQUIRE))
			continue;
		if (up && r.link_had)
			r.link_up++;
		else if (!up && r.link_had)
			r.link_down++;
		r.link_had = r.link_had || up;
	}
}

void gaudi_rec_tx_slow(gaudi_txq *txq)
{
	gaudi_port *port = txq->port;
	if (port->qp_err_pending) {
		port->qp_err_pending = false;
		qp_recover(txq);
	}
	if (port->rec.db_rering && rering(txq)) {
		port->rec.db_rering = false;
		port->rec.db_rerings++;
		if (rec_log_ok(port))
			GAUDI_LOG(WARNING, "port %u: doorbell FIFO overrun: %" PRIu64 " doorbell(s) "
				  "lost, rang again at PI %u, no frame lost", port->port_id,
				  port->rec.db_lost, txq->pi);
	}
}

void gaudi_rec_fw_events(gaudi_adapter *ad)
{
	if (ad == nullptr || !ad->fw || !ad->fw->host)
		return;
	fw::EqEntry ev[8];
	unsigned n;
	while ((n = ad->fw->host->take_events(ev, std::size(ev))) != 0) {
		for (unsigned i = 0; i < n; i++) {
			uint32_t type = fw::kEqCtlEventType.get(ev[i].ctl);
			uint32_t off = type - fw::kEventNic0SwError;
			if (type < fw::kEventNic0SwError || off % fw::kEventNicSwErrorStride != 0 ||
			    off / fw::kEventNicSwErrorStride >= kMacros) {
				GAUDI_LOG(DEBUG, "%s: firmware event %u not handled", ad->name, type);
				continue;
			}
			unsigned macro = off / fw::kEventNicSwErrorStride;
			for (unsigned hw = macro * kPortsPerMacro; hw < (macro + 1) * kPortsPerMacro;
			     hw++) {
				gaudi_port *p = gaudi_adapter_port(ad, hw);
				/* "eqe interrupts are mapped to MSI except interrupt on error event
				 * queue which is handled here, in such case port reset is required"
				 * [gaudi2_cn_sw_err_event]. */
				if (p == nullptr ||
				    !(p->hw.intr_cause() & reg::intr_bit(reg::INTR_EQ_ERR)))
					continue;
				p->hw.intr_clear(reg::INTR_EQ_ERR);
				p->rec.eq_error_resets++;
				GAUDI_LOG(ERR,
					  "port %u: event queue error (QPC INTERRUPT_CAUSE 0x400): events "
					  "were lost",
					  p->port_id);
				if (p->started)
					gaudi_rec_request_reset(p, "event queue error");
			}
		}
	}
}

void gaudi_rec_request_reset(gaudi_port *port, const char *why)
{
	if (port->rec.reset_requested)
		return;
	port->rec.reset_requested = true;
	port->rec.reset_events++;
	GAUDI_LOG(ERR, "port %u: %s: raising RTE_ETH_EVENT_INTR_RESET (call rte_eth_dev_reset, "
		  "then configure and start the port again)", port->port_id, why);
	rte_eal_alarm_set(1, reset_cb, dev_of(port));
}

/* ---- rte_pmd_gaudi.h ---- */

namespace {
int inject(uint16_t port_id, rte_pmd_gaudi_fault kind, uint64_t after, uint32_t arg)
{
	gaudi_port *port = gaudi_port_of(port_id);
	if (port == nullptr)
		return -ENODEV;
	/* A secondary's dev_private points at the primary's adapter: only the primary injects. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY || port->adapter == nullptr)
		return -ENOTSUP;
	gaudi::Backend &be = *port->adapter->backend;
	std::string err;
	int rc = be.inject_fault(port->hw.id(), unsigned(kind), after, arg, &err);
	if (rc != 0) {
		if (!err.empty())
			GAUDI_LOG(ERR, "port %u: inject %s: %s", port_id,
				  be.fault_kind_name(unsigned(kind)), err.c_str());
		return rc;
	}
	GAUDI_LOG(INFO, "port %u: fault %s armed (arg %u, after %" PRIu64 " frames)", port_id,
		  be.fault_kind_name(unsigned(kind)), arg, after);
	return 0;
}
} // namespace

extern "C" {

int rte_pmd_gaudi_inject_fault(uint16_t port_id, enum rte_pmd_gaudi_fault kind, uint32_t arg)
{
	return inject(port_id, kind, 0, arg);
}

int rte_pmd_gaudi_inject_fault_after(uint16_t port_id, enum rte_pmd_gaudi_fault kind,
				     uint64_t after_frames, uint32_t arg)
{
	return inject(port_id, kind, after_frames, arg);
}

int rte_pmd_gaudi_get_recovery_stats(uint16_t port_id, struct rte_pmd_gaudi_recovery_stats *st)
{
	gaudi_port *port = gaudi_port_of(port_id);
	if (port == nullptr)
		return -ENODEV;
	if (st == nullptr)
		return -EINVAL;
	*st = {};
	const gaudi_recovery &r = port->rec;
	st->db_fifo_overruns = r.db_lost;
	st->db_rerings = r.db_rerings;
	st->cq_overrun_events = port->ev_cq_overrun;
	st->qp_errors = port->ev_qp_err;
	st->qp_recoveries = r.qp_recoveries;
	st->tx_fault_drops = r.tx_fault_drops;
	st->link_down_events = r.link_down;
	st->link_up_events = r.link_up;
	st->tx_watchdog = r.tx_watchdog;
	st->reset_events = r.reset_events;
	st->eq_error_resets = r.eq_error_resets;
	st->last_qp_syndrome = port->last_qp_syndrome;
	if (rte_eal_process_type() == RTE_PROC_PRIMARY && port->adapter != nullptr)
		st->faults_injected = port->adapter->backend->faults_injected(port->hw.id());
	return 0;
}

} /* extern "C" */
