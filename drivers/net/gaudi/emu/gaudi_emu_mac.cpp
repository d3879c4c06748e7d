/* SPDX-License-Identifier: BSD-3-Clause
 * Model of the MAC side of a NIC macro: MAC_128 (COMMAND_CONFIG, FRM_LENGTH, MAC_ADDR, pause
 * quanta), MAC_PCS (CONTROL1 reset and loopback, STATUS1), PRT0_MAC_CORE (FEC91_CFG,
 * REC_STS0), MAC_GLOB_STAT (counters, DATA_HI latch, STATN_CONFIG / STATN_CONTROL clears),
 * link state and LINK_STATUS events. Sources: nic0_mac_ch0_mac_{128,pcs}_regs.h,
 * prt0_mac_core_regs.h, nic0_mac_glob_stat_*_regs.h and their masks, gaudi2_cn.c.
 */
#include "gaudi_emu_impl.h"

#include <rte_alarm.h> /* [faults] link flaps */
#include <rte_cycles.h>

namespace gaudi::emu {

using namespace detail;

const uint64_t *detail::stat_counter(const SharedNic &s, uint32_t off, uint32_t *hi_off)
{
	uint32_t o = off % kMacroStride;
	uint32_t stat = reg::MAC_GLOB_STAT_CONTROL_BASE;
	if (o < stat || o >= stat + kBlockSize)
		return nullptr;
	unsigned even = off / kMacroStride * kPortsPerMacro;
	uint32_t r = o - stat;
	*hi_off = off - r + reg::MAC_GLOB_STAT_CONTROL_DATA_HI;
	for (unsigned sl = 0; sl < kPortsPerMacro; sl++) {
		unsigned p = even + sl;
		if (p >= s.nports)
			break;
		if (r >= reg::stat_rx(sl) && r < reg::stat_rx(sl) + 4 * uint32_t(RxStat::count))
			return &s.rx_stats[p][(r - reg::stat_rx(sl)) / 4];
		if (r >= reg::stat_tx(sl) && r < reg::stat_tx(sl) + 4 * uint32_t(TxStat::count))
			return &s.tx_stats[p][(r - reg::stat_tx(sl)) / 4];
	}
	return nullptr;
}

void Device::Impl::on_mac_write(const RegAddr &a, uint32_t off, uint32_t val, uint32_t old)
{
	unsigned p = a.port;
	(void)old;
	switch (a.block) {
	case Block::mac_ch:
		if (a.r == reg::MAC_PCS_CONTROL1) {
			/* FLD_RESET self-clears (clause 45): hbl_cn polls it back to 0. */
			wr(off, val & ~reg::MAC_PCS_CONTROL1_FLD_RESET.mask());
			if (val & reg::MAC_PCS_CONTROL1_FLD_RESET.mask()) { /* [seq_check] */
				ports_[p].pcs_reset_lanes.fetch_or(1u << a.lane);
				seq_update(p);
			}
			if (a.lane == 0)
				update_link(p);
		} else if (a.r == kMac128InCh + reg::MAC_128_COMMAND_CONFIG && a.lane == 0) {
			update_link(p);
		}
		break;
	case Block::mac_core:
		if (a.r == reg::MAC_CORE_MAC_FEC91_CFG)
			for (unsigned s = 0; s < kPortsPerMacro; s++)
				if (p + s < cfg_.nports)
					update_link(p + s);
		break;
	case Block::mac_stat:
		if (a.r == reg::MAC_GLOB_STAT_CONTROL_STATN_CONFIG &&
		    (val & reg::MAC_GLOB_STAT_CONTROL_STATN_CONFIG_F_RESET.mask())) {
			/* F_RESET clears every counter set of the macro, then self-clears. */
			for (unsigned s = 0; s < kPortsPerMacro; s++)
				if (p + s < cfg_.nports)
					stats_reset(p + s);
			wr(off, val & ~reg::MAC_GLOB_STAT_CONTROL_STATN_CONFIG_F_RESET.mask());
		} else if (a.r == reg::MAC_GLOB_STAT_CONTROL_STATN_CONTROL) {
			/* CMDCLEARRX/TX clear the sets PORTMASK selects ([choice] bit 0 = lane 0 =
			 * even port, bit 2 = lane 2 = odd port), then the command bits self-clear. */
			uint32_t pm = reg::MAC_GLOB_STAT_CONTROL_STATN_CONTROL_PORTMASK.get(val);
			uint32_t cmd = reg::MAC_GLOB_STAT_CONTROL_STATN_CONTROL_CMDCLEARRX.mask() |
				       reg::MAC_GLOB_STAT_CONTROL_STATN_CONTROL_CMDCLEARTX.mask();
			if (val & cmd)
				for (unsigned s = 0; s < kPortsPerMacro; s++)
					if ((pm & reg::stat_portmask(s)) && p + s < cfg_.nports)
						stats_reset(p + s);
			wr(off, val & ~cmd);
		}
		break;
	default:
		break;
	}
}

/* One XOFF from port from's MAC to port to's: a PAUSE frame, or in PFC mode a PFC frame with
 * the 4 priorities' classes set (Gaudi2 pauses them together [gaudi2_cn_dcbnl.c]). Counted on both
 * sides; the frame itself is not put in the CQ or capture. */
void Device::Impl::count_pause(unsigned from, unsigned to, bool pfc)
{
	uint64_t *tx = ports_[from].tx.stats.data(), *rx = ports_[to].rx.stats.data();
	if (!pfc) {
		bump_shared(tx[size_t(TxStat::pause_mac_ctrl_frames_transmitted)]);
		bump_shared(rx[size_t(RxStat::pause_mac_ctrl_frames_received)]);
		return;
	}
	for (unsigned c = 0; c < 4; c++) {
		bump_shared(tx[size_t(TxStat::cbfc_pause_frames_transmitted_0) + c]);
		bump_shared(rx[size_t(RxStat::cbfc_pause_frames_received_0) + c]);
	}
}

bool Device::Impl::cabled(unsigned p) const
{
	switch (cfg_.wire) {
	case Wire::pair:
		return (p ^ 1) < cfg_.nports;
	case Wire::loopback:
	case Wire::pcap:
	case Wire::tap: /* [wires tap/udp] */
		return true;
	case Wire::udp: /* [wires tap/udp] a port without udp_local/udp_remote is not cabled */
		return ports_[p].net != nullptr;
	}
	return false;
}

bool Device::Impl::mac_enabled(unsigned p) const
{
	uint32_t cmd = rd(reg::mac_128(p, 0) + reg::MAC_128_COMMAND_CONFIG);
	return (cmd & reg::CMD_TX_ENA) && (cmd & reg::CMD_RX_ENA);
}

bool Device::Impl::pcs_loopback(unsigned p) const
{
	return rd(reg::mac_pcs(p, 0) + reg::MAC_PCS_CONTROL1) &
	       reg::MAC_PCS_CONTROL1_LOOPBACK.mask();
}

/* MAC_FEC91_CFG.FEC91_ENA_IN: one bit per lane of the macro, both of the port's for RS-FEC. */
bool Device::Impl::rs_fec_on(unsigned p) const
{
	uint32_t bits = reg::MAC_CORE_MAC_FEC91_CFG_FEC91_ENA_IN.put(reg::lane_bits(p));
	return (rd(reg::mac_core(p) + reg::MAC_CORE_MAC_FEC91_CFG) & bits) == bits;
}

bool Device::Impl::pcs_speed(unsigned p, hw::Speed *out) const
{
	for (hw::Speed s : {hw::Speed::g100, hw::Speed::g50, hw::Speed::g25}) {
		bool all = true;
		for (unsigned l = 0; all && l < kLanesPerPort; l++) {
			uint32_t pcs = reg::mac_pcs(p, l);
			all = reg::MAC_PCS_VENDOR_VL_INTVL_MARKER_COUNTER.get(
				      rd(pcs + reg::MAC_PCS_VENDOR_VL_INTVL)) ==
				      hw::marker_counter(s) &&
			      rd(pcs + reg::MAC_PCS_VENDOR_PCS_MODE) == hw::pcs_mode(s) &&
			      rd(pcs + reg::pcs_vl(0, 0)) == hw::vl0_m01(s) &&
			      rd(pcs + reg::pcs_vl(1, 0)) == hw::vl1_m01(s);
		}
		if (all) {
			*out = s;
			return true;
		}
	}
	return false;
}

/* A change on one end of a pair cable can change the link of both ends. */
void Device::Impl::update_link(unsigned p)
{
	update_link_one(p);
	if (cfg_.wire == Wire::pair && (p ^ 1) < cfg_.nports)
		update_link_one(p ^ 1);
}

/* Link = cabled and MAC TX+RX enabled (and [phy] the SerDes up), or PCS loopback. [model] On
 * a pair cable the far end must have its MAC enabled too, and both ends must agree on RS-FEC
 * (a FEC mismatch never locks, as on real links). Changes raise LINK_STATUS events and show in MAC_CORE
 * MAC_REC_STS0.REC_LINK_STS (the port's lanes) and PCS STATUS1.PCS_RECEIVE_LINK. */
void Device::Impl::update_link_one(unsigned p)
{
	SpinGuard g(ctrl_lock_);
	bool loop = pcs_loopback(p);
	bool up = loop || (cabled(p) && mac_enabled(p));
	/* [phy] With the PHY modelled, the SerDes of both ends must be brought up right. */
	if (up && !loop && cfg_.phy_link && !phy_link_ok(p))
		up = false;
	if (up && !loop && cfg_.wire == Wire::pair) {
		/* [model] A far end in PCS loopback sends nothing on the line: no signal. */
		unsigned f = p ^ 1;
		up = mac_enabled(f) && rs_fec_on(p) == rs_fec_on(f) && !pcs_loopback(f) &&
		     (!cfg_.phy_link || phy_link_ok(f));
		/* [model] Both ends' PCS at one speed (else no alignment lock), as on real
		 * links; a PCS set up for no speed is the seq_check's (mac_speed). */
		hw::Speed sp, sf;
		if (up && pcs_speed(p, &sp) && pcs_speed(f, &sf) && sp != sf)
			up = false;
	}
	/* [phy] The SerDes lanes run the data rate of the PCS's speed [hbl_cn_phy.c
	 * get_data_rate]: PAM4 (NIC_DR_50) at 100G and 50G, NRZ (NIC_DR_25) at 25G; a PCS fed
	 * at another rate never locks. */
	hw::Speed ps;
	if (up && !loop && cfg_.phy_link && pcs_speed(p, &ps))
		for (unsigned l = 0; l < kLanesPerPort; l++)
			up = up && serdes_[p].lane_pam4[l] == (ps != hw::Speed::g25);
	if (up && forced_down(p)) /* [faults] link_flap */
		up = false;
	if (up == ports_[p].link)
		return;
	__atomic_store_n(&ports_[p].link, up, __ATOMIC_RELAXED); /* TX reads it unlocked */
	uint32_t sts = reg::mac_core(p) + reg::MAC_CORE_MAC_REC_STS0;
	uint32_t bits = reg::MAC_CORE_MAC_REC_STS0_REC_LINK_STS.put(reg::lane_bits(p));
	wr(sts, up ? (rd(sts) | bits) : (rd(sts) & ~bits));
	uint32_t link = reg::MAC_PCS_STATUS1_PCS_RECEIVE_LINK.mask();
	for (unsigned l = 0; l < kLanesPerPort; l++) {
		uint32_t s1 = reg::mac_pcs(p, l) + reg::MAC_PCS_STATUS1;
		wr(s1, up ? (rd(s1) | link) : (rd(s1) & ~link));
	}
	/* Link events of both ports of a macro arrive on the odd port's EQ (hardware bug, hbl_cn
	 * SW-42306: "link events for both even and odd ports arrive only on the odd port"). */
	/* [choice] d2[3:0] (status) carries REC_LINK_STS, a bit per lane of the macro, so the
	 * one EQ tells which port's link is up. */
	unsigned eq_port = (p | 1) < cfg_.nports ? (p | 1) : p;
	post_eq(eq_port, EqeType::link_status, uint32_t(rte_rdtsc()),
		reg::MAC_CORE_MAC_REC_STS0_REC_LINK_STS.get(rd(sts)));
}

/* ---- [faults] link flaps: the link goes down now (both ends of a pair cable) and comes back
 * after ms; EAL alarms post the LINK_STATUS events, outside the engine's locks. ---- */

bool Device::Impl::forced_down(unsigned p) const
{
	return ports_[p].fault.link_down.load(std::memory_order_relaxed);
}

void Device::Impl::start_link_flap(unsigned p, uint32_t ms)
{
	unsigned ends[2] = {p, p ^ 1};
	unsigned n = cfg_.wire == Wire::pair && (p ^ 1) < cfg_.nports ? 2 : 1;
	for (unsigned i = 0; i < n; i++) {
		FaultState &fs = ports_[ends[i]].fault;
		{
			SpinGuard g(fs.lock);
			fs.link_down.store(true, std::memory_order_relaxed);
			fs.rearm();
		}
		rte_eal_alarm_cancel(link_flap_cb, &fs); /* a flap in progress is extended */
		rte_eal_alarm_set(uint64_t(ms) * 1000, link_flap_cb, &fs);
	}
	rte_eal_alarm_set(1, link_down_cb, &ports_[p].fault);
}

void Device::Impl::link_down_cb(void *arg)
{
	auto *fs = static_cast<FaultState *>(arg);
	static_cast<Impl *>(fs->owner)->update_link(fs->port);
}

void Device::Impl::link_flap_cb(void *arg)
{
	auto *fs = static_cast<FaultState *>(arg);
	{
		SpinGuard g(fs->lock);
		fs->link_down.store(false, std::memory_order_relaxed);
		fs->rearm();
	}
	static_cast<Impl *>(fs->owner)->update_link_one(fs->port);
}

void Device::Impl::stats_reset(unsigned p)
{
	PortModel &pm = ports_[p];
	SpinGuard gt(pm.tx.lock);
	SpinGuard gr(pm.rx.lock);
	for (auto &c : pm.tx.stats)
		std::atomic_ref<uint64_t>(c).store(0, std::memory_order_relaxed);
	for (auto &c : pm.rx.stats)
		std::atomic_ref<uint64_t>(c).store(0, std::memory_order_relaxed);
}

} /* namespace gaudi::emu */
