/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: basic and extended statistics (MAC counters, events, recovery).
 */
#include "gaudi_stats.h"

#include <cstdio>
#include <iterator>

#include "base/gaudi_mac_stats.h"
#include "gaudi_adapter.h"
#include "gaudi_rx.h"
#include "gaudi_tx.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {
/* A MAC counter of the port: the hardware's, plus what resets of the sibling's took. */
uint64_t mac_rx(const gaudi_port *port, const Port &hw, RxStat s)
{
	return port->mac_rx_base[size_t(s)] + hw.rx_stat(s);
}
uint64_t mac_tx(const gaudi_port *port, const Port &hw, TxStat s)
{
	return port->mac_tx_base[size_t(s)] + hw.tx_stat(s);
}
} /* namespace */

void gaudi_mac_stats_reset(gaudi_port *port)
{
	gaudi_adapter *ad = port->adapter;
	/* Under ports_lock: the sibling is not closed meanwhile (gaudi_intr.cpp). A reader of the
	 * sibling's counters between the two steps sees them twice for that moment. */
	rte_spinlock_lock(&ad->ports_lock);
	gaudi_port *sib = gaudi_adapter_port(ad, port->hw.id() ^ 1);
	if (sib != nullptr) {
		for (unsigned i = 0; i < unsigned(RxStat::count); i++)
			sib->mac_rx_base[i] += sib->hw.rx_stat(RxStat(i));
		for (unsigned i = 0; i < unsigned(TxStat::count); i++)
			sib->mac_tx_base[i] += sib->hw.tx_stat(TxStat(i));
	}
	port->mac_rx_base = {};
	port->mac_tx_base = {};
	port->hw.stats_reset();
	rte_spinlock_unlock(&ad->ports_lock);
}

int gaudi_stats_get(rte_eth_dev *dev, rte_eth_stats *st, gaudi_queue_stats *qs)
{
	const Port &hw = gaudi_hw(dev); /* secondary-safe: queue counters are shared memory */
	const gaudi_stats_base &base = gaudi_priv(dev)->stats_base;
	auto *rxq = gaudi_rxq0(dev);
	auto *txq = gaudi_txq0(dev);
	/* Released queues' counts (base) and the live queue's: like the MAC counters, the port's
	 * counters run from the last stats_reset, whatever queue set-ups came between. */
	st->ipackets = base.ipackets + (rxq ? rxq->packets : 0);
	st->ibytes = base.ibytes + (rxq ? rxq->bytes : 0);
	st->ierrors = base.ierrors + (rxq ? rxq->errors : 0);
	/* opackets: frames tx_burst handed to the NIC. Those the MAC then dropped (no carrier,
	 * TX disabled: if_out_errors) are in oerrors too. Taking them out of opackets made it
	 * fall back while frames were in flight (the MAC counts a drop after tx_burst counted
	 * the frame, on another CPU with engine=thread), and consumers of the counters take a
	 * decrease for a reset (found by review). */
	st->opackets = base.opackets + (txq ? txq->packets : 0);
	st->obytes = base.obytes + (txq ? txq->bytes : 0);
	if (qs) { /* one queue pair: its counters are the port's (taken before the MAC's below) */
		qs->q_ipackets[0] = st->ipackets;
		qs->q_ibytes[0] = st->ibytes;
		qs->q_errors[0] = st->ierrors;
		qs->q_opackets[0] = st->opackets;
		qs->q_obytes[0] = st->obytes;
	}
	const gaudi_port *port = gaudi_priv(dev);
	st->oerrors =
		base.oerrors + (txq ? txq->errors : 0) + mac_tx(port, hw, TxStat::if_out_errors);
	/* Frames the MAC refused: too long, runts, FCS, and other receive errors. */
	st->ierrors += mac_rx(port, hw, RxStat::frame_too_long_errors) +
		       mac_rx(port, hw, RxStat::ether_stats_undersize_pkts) +
		       mac_rx(port, hw, RxStat::frame_check_sequence_errors) +
		       mac_rx(port, hw, RxStat::if_in_errors);
	/* Frames the RX path had no room for (CQ full). */
	st->imissed = mac_rx(port, hw, RxStat::ether_stats_drop_events);
	return 0;
}

void gaudi_stats_base_add_rxq(gaudi_port *port, const gaudi_rxq *rxq)
{
	gaudi_stats_base &b = port->stats_base;
	b.ipackets += rxq->packets;
	b.ibytes += rxq->bytes;
	b.ierrors += rxq->errors;
}

void gaudi_stats_base_add_txq(gaudi_port *port, const gaudi_txq *txq)
{
	gaudi_stats_base &b = port->stats_base;
	b.opackets += txq->packets;
	b.obytes += txq->bytes;
	b.oerrors += txq->errors;
}

int gaudi_stats_reset(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	port->stats_base = {};
	if (auto *rxq = gaudi_rxq0(dev)) {
		rxq->packets = rxq->bytes = rxq->errors = rxq->cqe_not_valid = rxq->filtered =
			rxq->attached = 0;
	}
	if (auto *txq = gaudi_txq0(dev)) {
		txq->packets = txq->bytes = txq->errors = txq->db_busy = 0;
	}
	gaudi_mac_stats_reset(port);
	return 0;
}

/* ---- extended statistics ---- */

namespace {

/* MAC counters as xstats: mac_<rx|tx>_<what>, in gaudi_mac_stats.h order. */
constexpr const char *kRxNames[] = {
	"mac_rx_octets",
	"mac_rx_good_octets",
	"mac_rx_alignment_errors",
	"mac_rx_pause_frames",
	"mac_rx_frame_too_long_errors",
	"mac_rx_in_range_length_errors",
	"mac_rx_good_frames",
	"mac_rx_fcs_errors",
	"mac_rx_vlan_frames",
	"mac_rx_errors",
	"mac_rx_unicast_packets",
	"mac_rx_multicast_packets",
	"mac_rx_broadcast_packets",
	"mac_rx_drop_events",
	"mac_rx_packets",
	"mac_rx_undersize_packets",
	"mac_rx_size_64_packets",
	"mac_rx_size_65_to_127_packets",
	"mac_rx_size_128_to_255_packets",
	"mac_rx_size_256_to_511_packets",
	"mac_rx_size_512_to_1023_packets",
	"mac_rx_size_1024_to_1518_packets",
	"mac_rx_size_1519_to_max_packets",
	"mac_rx_oversize_packets",
	"mac_rx_jabbers",
	"mac_rx_fragments",
	"mac_rx_pfc_prio0_pause_frames",
	"mac_rx_pfc_prio1_pause_frames",
	"mac_rx_pfc_prio2_pause_frames",
	"mac_rx_pfc_prio3_pause_frames",
	"mac_rx_pfc_prio4_pause_frames",
	"mac_rx_pfc_prio5_pause_frames",
	"mac_rx_pfc_prio6_pause_frames",
	"mac_rx_pfc_prio7_pause_frames",
	"mac_rx_control_frames",
};
static_assert(std::size(kRxNames) == size_t(RxStat::count));

constexpr const char *kTxNames[] = {
	"mac_tx_octets",
	"mac_tx_good_octets",
	"mac_tx_pause_frames",
	"mac_tx_good_frames",
	"mac_tx_vlan_frames",
	"mac_tx_errors",
	"mac_tx_unicast_packets",
	"mac_tx_multicast_packets",
	"mac_tx_broadcast_packets",
	"mac_tx_size_64_packets",
	"mac_tx_size_65_to_127_packets",
	"mac_tx_size_128_to_255_packets",
	"mac_tx_size_256_to_511_packets",
	"mac_tx_size_512_to_1023_packets",
	"mac_tx_size_1024_to_1518_packets",
	"mac_tx_size_1519_to_max_packets",
	"mac_tx_pfc_prio0_pause_frames",
	"mac_tx_pfc_prio1_pause_frames",
	"mac_tx_pfc_prio2_pause_frames",
	"mac_tx_pfc_prio3_pause_frames",
	"mac_tx_pfc_prio4_pause_frames",
	"mac_tx_pfc_prio5_pause_frames",
	"mac_tx_pfc_prio6_pause_frames",
	"mac_tx_pfc_prio7_pause_frames",
	"mac_tx_control_frames",
	"mac_tx_packets",
};
static_assert(std::size(kTxNames) == size_t(TxStat::count));

/* Port-level counters: RS-FEC, doorbells lost to FIFO overruns, event-queue events. */
enum PortX : unsigned {
	fec_corrected,
	fec_uncorrected,
	db_fifo_overruns,
	ev_cq_overrun,
	ev_db_overrun,
	ev_qp_err,
	ev_link,
	/* [faults] gaudi_recovery.h */
	rec_db_rerings,
	rec_qp_recoveries,
	rec_tx_fault_drops,
	rec_link_down,
	rec_link_up,
	rec_tx_watchdog,
	rec_reset_events,
	rec_eq_error_resets,
	phy_fw_tuned,
	phy_reconfigs,
	wire_drops,
	port_x_count
};
constexpr const char *kPortNames[] = {
	"rx_fec_corrected_codewords",
	"rx_fec_uncorrected_codewords",
	"tx_doorbell_fifo_overruns",
	"rx_cq_overrun_events",
	"tx_doorbell_fifo_overrun_events",
	"qp_error_events",
	"link_status_events",
	"recovery_db_rerings",
	"recovery_qp_resets",
	"recovery_tx_fault_drops",
	"recovery_link_down_events",
	"recovery_link_up_events",
	"recovery_tx_watchdog",
	"recovery_reset_events",
	"recovery_eq_error_resets",
	"phy_fw_tuned",	 /* [phy] 1 once the PHY F/W tuned both lanes (gaudi_phy_port.h) */
	"phy_reconfigs", /* [phy] power-ups after a tuning timeout or a lost PCS link */
	"tx_wire_drops", /* [faults] frames sent and lost on the model's wire (fault wire_drop) */
};
static_assert(std::size(kPortNames) == port_x_count);

/* Driver counters of queue 0 the basic per-queue stats do not carry. */
constexpr const char *kQueueNames[] = {
	"rx_q0_cqe_not_valid", "rx_q0_address_filtered",
	"rx_q0_attached",   /* frames handed out in their slot (devarg rx_copy_max) */
	"rx_q0_slots_held", /* slots attached mbufs hold now (a gauge) */
	"tx_q0_errors",	       "tx_q0_doorbell_busy",
};

constexpr unsigned kNbMac = unsigned(RxStat::count) + unsigned(TxStat::count);
constexpr unsigned kNbXstats = kNbMac + port_x_count + std::size(kQueueNames);

uint64_t port_x(const gaudi_port *port, const Port &hw, unsigned i)
{
	switch (i) {
	case fec_corrected:
		return hw.fec_corrected();
	case fec_uncorrected:
		return hw.fec_uncorrected();
	case db_fifo_overruns:
		return port->rec.db_lost;
	case ev_cq_overrun:
		return port->ev_cq_overrun;
	case ev_db_overrun:
		return port->ev_db_overrun;
	case ev_qp_err:
		return port->ev_qp_err;
	case ev_link:
		return port->ev_link;
	case rec_db_rerings:
		return port->rec.db_rerings;
	case rec_qp_recoveries:
		return port->rec.qp_recoveries;
	case rec_tx_fault_drops:
		return port->rec.tx_fault_drops;
	case rec_link_down:
		return port->rec.link_down;
	case rec_link_up:
		return port->rec.link_up;
	case rec_tx_watchdog:
		return port->rec.tx_watchdog;
	case rec_reset_events:
		return port->rec.reset_events;
	case rec_eq_error_resets:
		return port->rec.eq_error_resets;
	case phy_fw_tuned:
		return port->phy.tuned ? 1 : 0;
	case phy_reconfigs:
		return port->phy.reconfigs;
	case wire_drops:
		/* the model lives in the primary (as faults_injected, gaudi_recovery.cpp) */
		if (rte_eal_process_type() != RTE_PROC_PRIMARY || port->adapter == nullptr)
			return 0;
		return port->adapter->backend->wire_drops(port->hw.id());
	default:
		return 0;
	}
}

} /* namespace */

int gaudi_xstats_get_names(rte_eth_dev *dev, rte_eth_xstat_name *names, unsigned n)
{
	(void)dev;
	if (names == nullptr || n < kNbXstats)
		return kNbXstats;
	unsigned k = 0;
	for (const char *s : kRxNames)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s", s);
	for (const char *s : kTxNames)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s", s);
	for (const char *s : kPortNames)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s", s);
	for (const char *s : kQueueNames)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s", s);
	return kNbXstats;
}

int gaudi_xstats_get(rte_eth_dev *dev, rte_eth_xstat *xs, unsigned n)
{
	if (xs == nullptr || n < kNbXstats)
		return kNbXstats;
	gaudi_port *port = gaudi_priv(dev);
	const Port &hw = gaudi_hw(dev); /* secondary-safe */
	unsigned k = 0;
	for (unsigned i = 0; i < unsigned(RxStat::count); i++, k++)
		xs[k] = {k, mac_rx(port, hw, RxStat(i))};
	for (unsigned i = 0; i < unsigned(TxStat::count); i++, k++)
		xs[k] = {k, mac_tx(port, hw, TxStat(i))};
	for (unsigned i = 0; i < port_x_count; i++, k++)
		xs[k] = {k, port_x(port, hw, i)};
	gaudi_rxq *rxq = gaudi_rxq0(dev);
	gaudi_txq *txq = gaudi_txq0(dev);
	xs[k] = {k, rxq ? rxq->cqe_not_valid : 0};
	k++;
	xs[k] = {k, rxq ? rxq->filtered : 0};
	k++;
	xs[k] = {k, rxq ? rxq->attached : 0};
	k++;
	xs[k] = {k, rxq ? gaudi_rx_ring_held(rxq->ring) : 0};
	k++;
	xs[k] = {k, txq ? txq->errors : 0};
	k++;
	xs[k] = {k, txq ? txq->db_busy : 0};
	k++;
	return kNbXstats;
}

int gaudi_xstats_reset(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	/* Basic stats and MAC counters (stats_reset), then what only xstats show. The device's
	 * overrun registers are not cleared by software, and the FEC totals (the device's
	 * clear-on-read counters accumulated, as hbl_cn does) keep counting. */
	int rc = dev->dev_ops->stats_reset(dev);
	port->ev_cq_overrun = port->ev_db_overrun = port->ev_qp_err = port->ev_link = 0;
	/* The recovery and PHY counters are the driver's own too (rte_pmd_gaudi_get_recovery_stats
	 * reads the same ones). Like the event counters above, cleared without their writers'
	 * locks: an application may reset from an LSC callback, and a reset racing an increment
	 * loses at most that increment. */
	gaudi_recovery &r = port->rec;
	r.db_lost = r.db_rerings = r.qp_recoveries = r.tx_fault_drops = 0;
	r.link_down = r.link_up = r.tx_watchdog = r.reset_events = r.eq_error_resets = 0;
	port->phy.reconfigs = 0;
	return rc;
}
