/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: what the port does on device faults (accounting, link events, reset requests)
 * and the public API of rte_pmd_gaudi.h (fault injection on net_gaudi_emu, recovery counters).
 * See gaudi_recovery.h; the TX queue's part is in gaudi_tx.cpp, the watchdog gaudi_watchdog.cpp.
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
#include "gaudi_adapter.h"
#include "gaudi_eq.h"
#include "gaudi_logs.h"
#include "rte_pmd_gaudi.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

rte_eth_dev *dev_of(const gaudi_port *port)
{
	return &rte_eth_devices[port->port_id];
}

void reset_cb(void *arg)
{
	auto *dev = static_cast<rte_eth_dev *>(arg);
	rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_RESET, nullptr);
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

} /* namespace */

/* At most kLogPerSec recovery log lines per port and second: under a fault storm (e.g. the
 * random fault mode) a line per event would flood the application's console. The counters
 * (xstats) keep the exact numbers; a suppressed count is printed with the next line. */
constexpr uint32_t kLogPerSec = 10;
bool gaudi_rec_log_ok(gaudi_port *port)
{
	gaudi_recovery &r = port->rec;
	uint64_t now = rte_get_timer_cycles();
	if (now - r.log_tsc >= rte_get_timer_hz()) {
		if (r.log_suppressed != 0)
			PMD_DRV_LOG(WARNING,
				    "port %u: %u recovery log lines suppressed (see xstats)",
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

void gaudi_rec_init(gaudi_port *port, uint32_t watchdog_ms)
{
	port->rec.watchdog_ms = watchdog_ms;
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
	PMD_DRV_LOG(WARNING,
		    "port %u: RX CQ overrun: the NIC dropped frames (counted in imissed, "
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

void gaudi_rec_found(gaudi_port *port, const gaudi_eq_found &f)
{
	for (unsigned i = 0; i < f.n_link; i++)
		gaudi_rec_link_event(port, f.link[i]);
	if (f.qp_errs != 0) {
		port->ev_qp_err += f.qp_errs;
		port->last_qp_syndrome = f.qp_syndrome;
		port->qp_err_pending = true;
	}
	for (uint32_t i = 0; i < f.db_overruns; i++) {
		port->ev_db_overrun++;
		gaudi_rec_db_overrun(port); /* ring again */
	}
	for (uint32_t i = 0; i < f.cq_overruns; i++) {
		port->ev_cq_overrun++;
		gaudi_rec_cq_overrun(port); /* log, rate-limited */
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
				PMD_DRV_LOG(DEBUG, "%s: firmware event %u not handled", ad->name,
					    type);
				continue;
			}
			unsigned macro = off / fw::kEventNicSwErrorStride;
			for (unsigned hw = macro * kPortsPerMacro;
			     hw < (macro + 1) * kPortsPerMacro; hw++) {
				gaudi_port *p = gaudi_adapter_port(ad, hw);
				/* "eqe interrupts are mapped to MSI except interrupt on error event
				 * queue which is handled here, in such case port reset is required"
				 * [gaudi2_cn_sw_err_event]. */
				if (p == nullptr ||
				    !(p->hw.intr_cause() & reg::intr_bit(reg::INTR_EQ_ERR)))
					continue;
				p->hw.intr_clear(reg::INTR_EQ_ERR);
				p->rec.eq_error_resets++;
				PMD_DRV_LOG(
					ERR,
					"port %u: event queue error (QPC INTERRUPT_CAUSE 0x400): "
					"events "
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
	PMD_DRV_LOG(ERR,
		    "port %u: %s: raising RTE_ETH_EVENT_INTR_RESET (call rte_eth_dev_reset, "
		    "then configure and start the port again)",
		    port->port_id, why);
	rte_eal_alarm_set(1, reset_cb, dev_of(port));
}

void gaudi_rec_cancel_reset(rte_eth_dev *dev)
{
	rte_eal_alarm_cancel(reset_cb, dev);
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
			PMD_DRV_LOG(ERR, "port %u: inject %s: %s", port_id,
				    be.fault_kind_name(unsigned(kind)), err.c_str());
		return rc;
	}
	PMD_DRV_LOG(INFO, "port %u: fault %s armed (arg %u, after %" PRIu64 " frames)", port_id,
		    be.fault_kind_name(unsigned(kind)), arg, after);
	return 0;
}
} /* namespace */

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
