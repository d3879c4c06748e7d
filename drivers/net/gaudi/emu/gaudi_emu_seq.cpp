/* SPDX-License-Identifier: BSD-3-Clause
 * [seq_check] The model holds the driver to the public bring-up sequence: frames move only once
 * the steps silicon needs for traffic were done (the digest's ESSENTIAL-FOR-TRAFFIC list,
 * checked in gaudi2_cn.c / gaudi2_cn_eq.c). Each step's registers are read when one of them is
 * written (seq_on_write) into a per-port mask of missing steps; the datapath tests that mask
 * once per doorbell, RX batch or event, never per frame. [trace] The register trace.
 */
#include "gaudi_emu_impl.h"

#include <cerrno>
#include <cstring>

#include <rte_branch_prediction.h>
#include <rte_log.h>

namespace gaudi::emu {

using namespace detail;

namespace {
/* Step, what is missing, and the public function that does it. */
struct SeqRow {
	SeqStep step;
	const char *name; /* as the enum spells it */
	const char *text;
};
constexpr SeqRow kSeqRows[] = {
	{SeqStep::rxb_credits, "rxb_credits",
	 "RXB MAX_STATIC_CREDITS not programmed (gaudi2_cn_config_hw_rxb)"},
	{SeqStep::rxb_drop_threshold, "rxb_drop_threshold",
	 "RXB DROP_THRESHOLD is 0 (gaudi2_cn_config_hw_rxb; 0 is "
	 "gaudi2_cn_stop_traffic_macro's)"},
	{SeqStep::txb_tdm, "txb_tdm",
	 "TXB TDM_PORT_ARB_MASK not programmed for the port's speed "
	 "(gaudi2_cn_config_hw_txb)"},
	{SeqStep::txs, "txs",
	 "TXS BASE_ADDRESS / free list not set up (gaudi2_cn_config_port_hw_txs)"},
	{SeqStep::qpc_req_base, "qpc_req_base",
	 "QPC REQ_BASE_ADDRESS not programmed "
	 "(gaudi2_cn_config_port_hw_qpc)"},
	{SeqStep::qpc_res_base, "qpc_res_base",
	 "QPC RES_BASE_ADDRESS not programmed "
	 "(gaudi2_cn_config_port_hw_qpc)"},
	{SeqStep::db_fifo_axuser, "db_fifo_axuser",
	 "QPC AXUSER_DB_FIFO HB_WR_OVRD_LO not the MMU bypass "
	 "(gaudi2_cn_config_port_hw_qpc)"},
	{SeqStep::ev_que_axuser, "ev_que_axuser",
	 "QPC AXUSER_EV_QUE_LBW_INTR HB_WR_OVRD_LO not the MMU bypass "
	 "(gaudi2_cn_eq_hw_config)"},
	{SeqStep::cq_axuser, "cq_axuser",
	 "RXE AXUSER_CQ0 HB_WR_OVRD_LO not the MMU bypass "
	 "(gaudi2_cn_config_port_hw_rxe)"},
	{SeqStep::rxe_aruser, "rxe_aruser",
	 "RXE ARUSER_MMU_BP not set (gaudi2_cn_config_port_hw_rxe)"},
	{SeqStep::txe_wqe_user, "txe_wqe_user",
	 "TXE WQE_USER_CFG MMU_BYPASS not set "
	 "(gaudi2_cn_config_port_hw_txe)"},
	{SeqStep::mac_reset, "mac_reset",
	 "MAC channel not reset: PCS CONTROL1 FLD_RESET not written "
	 "(gaudi2_cn_hw_mac_ch_reset)"},
	{SeqStep::mac_fifo, "mac_fifo",
	 "MAC_128 TX_FIFO_SECTIONS / RX_FIFO_SECTIONS are 0 "
	 "(gaudi2_cn_hw_mac_port_config)"},
	{SeqStep::mac_speed, "mac_speed",
	 "MAC not set up for one speed: PCS VL_INTVL / PCS_MODE / alignment markers "
	 "(gaudi2_cn_hw_mac_port_config_lane_speed) or MAC_SD_CFG / MAC_FEC91_CFG "
	 "(gaudi2_cn_config_hw_mac) match no speed, or not the same one"},
};
static_assert(std::size(kSeqRows) == kSeqSteps);
} /* namespace */

const char *seq_step_name(SeqStep s)
{
	for (const SeqRow &r : kSeqRows)
		if (r.step == s)
			return r.name;
	return "?";
}

const char *seq_step_text(SeqStep s)
{
	for (const SeqRow &r : kSeqRows)
		if (r.step == s)
			return r.text;
	return "?";
}

/* The registers the steps read, every port and macro: a write to one recomputes the steps. */
void Device::Impl::seq_mark_map()
{
	auto mark = [this](uint32_t off) {
		for (unsigned m = 0; m < kMacros; m++)
			map_[(m * kMacroStride + off) / 4] |= kSeq;
	};
	for (unsigned s = 0; s < kPortsPerMacro; s++) {
		mark(reg::txs(s) + reg::TXS_BASE_ADDRESS_63_32);
		mark(reg::txs(s) + reg::TXS_BASE_ADDRESS_31_7);
		mark(reg::txs(s) + reg::TXS_BASE_ADDRESS_FREE_LIST_63_32);
		mark(reg::txs(s) + reg::TXS_BASE_ADDRESS_FREE_LIST_31_0);
		mark(reg::txs(s) + reg::TXS_PRODUCER_UPDATE);
		for (uint32_t r : {reg::QPC_REQ_BASE_ADDRESS_63_32, reg::QPC_REQ_BASE_ADDRESS_31_7,
				   reg::QPC_RES_BASE_ADDRESS_63_32, reg::QPC_RES_BASE_ADDRESS_31_7})
			mark(reg::qpc(s) + r);
		mark(reg::qpc_axuser_db_fifo(s) + reg::QPC_AXUSER_DB_FIFO_HB_WR_OVRD_LO);
		mark(reg::qpc_axuser_ev_que(s) + reg::QPC_AXUSER_EV_QUE_LBW_INTR_HB_WR_OVRD_LO);
		mark(reg::rxe_axuser_cq(s, kRawCq) + reg::RXE_AXUSER_AXUSER_CQ0_HB_WR_OVRD_LO);
		mark(reg::rxe(s) + reg::RXE_ARUSER_MMU_BP);
		mark(reg::txe(s) + reg::TXE_WQE_USER_CFG);
		for (unsigned l = 0; l < kLanesPerPort; l++) {
			mark(reg::mac_128(s, l) + reg::MAC_128_TX_FIFO_SECTIONS);
			mark(reg::mac_128(s, l) + reg::MAC_128_RX_FIFO_SECTIONS);
			uint32_t pcs = reg::mac_pcs(s, l);
			for (uint32_t r :
			     {reg::MAC_PCS_VENDOR_VL_INTVL, reg::MAC_PCS_VENDOR_PCS_MODE,
			      reg::pcs_vl(0, 0), reg::pcs_vl(1, 0)})
				mark(pcs + r);
		}
	}
	mark(reg::mac_core(0) + reg::MAC_CORE_MAC_SD_CFG);
	mark(reg::mac_core(0) + reg::MAC_CORE_MAC_FEC91_CFG);
	mark(reg::rxb(0) + reg::RXB_CORE_MAX_STATIC_CREDITS_0);
	mark(reg::rxb(0) + reg::RXB_CORE_DROP_THRESHOLD_0);
	mark(reg::txb(0) + reg::TXB_TDM_PORT_ARB_MASK);
}

void Device::Impl::seq_update(unsigned p)
{
	if (!cfg_.seq_check)
		return;
	uint32_t m = 0;
	auto need = [&m](bool done, SeqStep s) { m |= done ? 0 : seq_bit(s); };
	const reg::Field f = reg::rxb_port_field(p);
	need(f.get(rd(reg::rxb(p) + reg::RXB_CORE_MAX_STATIC_CREDITS_0)) != 0,
	     SeqStep::rxb_credits);
	need(f.get(rd(reg::rxb(p) + reg::RXB_CORE_DROP_THRESHOLD_0)) != 0,
	     SeqStep::rxb_drop_threshold);
	/* The speed the PCS lanes were set up for; the TXB's TDM slots, the MAC core's
	 * SerDes width and the RS-FEC mode must be that speed's [gaudi2_cn_config_hw_mac,
	 * gaudi2_cn_config_hw_txb]. Without a PCS speed, either published mask gives the
	 * port its slots (the missing speed set-up is mac_speed's). */
	hw::Speed sp{};
	const bool known = pcs_speed(p, &sp);
	uint32_t tdm = rd(reg::txb(p) + reg::TXB_TDM_PORT_ARB_MASK);
	need(known ? tdm == hw::macro::tdm_port_arb_mask(sp)
		   : tdm == reg::kTdmPortArbMask100G || tdm == reg::kTdmPortArbMask25G50G,
	     SeqStep::txb_tdm);
	bool speed_ok = known;
	if (known) {
		uint32_t sd = rd(reg::mac_core(p) + reg::MAC_CORE_MAC_SD_CFG);
		/* 100G leaves MAC_SD_CFG at its reset value: neither 25G's nor 50G's. */
		speed_ok = sp == hw::Speed::g25	  ? sd == hw::kSdCfg25g
			   : sp == hw::Speed::g50 ? sd == hw::kSdCfg50g
						  : sd != hw::kSdCfg25g && sd != hw::kSdCfg50g;
		/* RS-FEC on the port's lanes: KP mode (RS(544,514)) at 50G and 100G, not at
		 * 25G (0xFF vs 0x60F); FEC off (rte_eth_fec_set) is the link's business. */
		uint32_t fec = rd(reg::mac_core(p) + reg::MAC_CORE_MAC_FEC91_CFG);
		uint32_t lanes = reg::lane_bits(p);
		if ((reg::MAC_CORE_MAC_FEC91_CFG_FEC91_ENA_IN.get(fec) & lanes) == lanes) {
			uint32_t kp = reg::MAC_CORE_MAC_FEC91_CFG_FEC91_KP_MODE_IN.get(fec) & lanes;
			speed_ok = speed_ok && kp == (sp == hw::Speed::g25 ? 0 : lanes);
		}
	}
	need(speed_ok, SeqStep::mac_speed);
	uint32_t t = reg::txs(p);
	need((rd(t + reg::TXS_BASE_ADDRESS_63_32) | rd(t + reg::TXS_BASE_ADDRESS_31_7)) != 0 &&
		     (rd(t + reg::TXS_BASE_ADDRESS_FREE_LIST_63_32) |
		      rd(t + reg::TXS_BASE_ADDRESS_FREE_LIST_31_0)) != 0 &&
		     rd(t + reg::TXS_PRODUCER_UPDATE) != 0,
	     SeqStep::txs);
	uint32_t q = reg::qpc(p);
	need((rd(q + reg::QPC_REQ_BASE_ADDRESS_63_32) | rd(q + reg::QPC_REQ_BASE_ADDRESS_31_7)) !=
		     0,
	     SeqStep::qpc_req_base);
	need((rd(q + reg::QPC_RES_BASE_ADDRESS_63_32) | rd(q + reg::QPC_RES_BASE_ADDRESS_31_7)) !=
		     0,
	     SeqStep::qpc_res_base);
	need(rd(reg::qpc_axuser_db_fifo(p) + reg::QPC_AXUSER_DB_FIFO_HB_WR_OVRD_LO) ==
		     reg::kAxuserOvrdMmuBp,
	     SeqStep::db_fifo_axuser);
	need(rd(reg::qpc_axuser_ev_que(p) + reg::QPC_AXUSER_EV_QUE_LBW_INTR_HB_WR_OVRD_LO) ==
		     reg::kAxuserOvrdMmuBp,
	     SeqStep::ev_que_axuser);
	need(rd(reg::rxe_axuser_cq(p, kRawCq) + reg::RXE_AXUSER_AXUSER_CQ0_HB_WR_OVRD_LO) ==
		     reg::kAxuserOvrdMmuBp,
	     SeqStep::cq_axuser);
	need(reg::RXE_ARUSER_MMU_BP_VAL.get(rd(reg::rxe(p) + reg::RXE_ARUSER_MMU_BP)) != 0,
	     SeqStep::rxe_aruser);
	/* MMU_BYPASS has a bit per WQ type; the raw QP's is bit 0 (hbl_cn writes 1). */
	need(reg::TXE_WQE_USER_CFG_MMU_BYPASS.get(rd(reg::txe(p) + reg::TXE_WQE_USER_CFG)) & 1,
	     SeqStep::txe_wqe_user);
	const uint32_t lanes = (1u << kLanesPerPort) - 1;
	need((ports_[p].pcs_reset_lanes.load(std::memory_order_relaxed) & lanes) == lanes,
	     SeqStep::mac_reset);
	bool fifo = true;
	for (unsigned l = 0; l < kLanesPerPort; l++)
		fifo = fifo && rd(reg::mac_128(p, l) + reg::MAC_128_TX_FIFO_SECTIONS) != 0 &&
		       rd(reg::mac_128(p, l) + reg::MAC_128_RX_FIFO_SECTIONS) != 0;
	need(fifo, SeqStep::mac_fifo);
	ports_[p].seq_missing.store(m, std::memory_order_release);
}

void Device::Impl::seq_on_write(uint32_t off)
{
	unsigned even = (off / kMacroStride) * kPortsPerMacro;
	for (unsigned s = 0; s < kPortsPerMacro; s++)
		if (even + s < cfg_.nports)
			seq_update(even + s);
}

void Device::Impl::seq_port_start(unsigned p)
{
	ports_[p].seq_logged.store(0, std::memory_order_relaxed);
}

void Device::Impl::seq_refuse(unsigned p, uint32_t missing, const char *path, uint64_t n)
{
	PortModel &pm = ports_[p];
	unsigned first = unsigned(std::countr_zero(missing));
	if (first >= kSeqSteps)
		return;
	pm.seq_refused[first].fetch_add(n, std::memory_order_relaxed);
	if ((missing & ~pm.seq_logged.load(std::memory_order_relaxed)) == 0)
		return; /* all logged since the port started: no write to a shared line */
	uint32_t fresh = missing & ~pm.seq_logged.fetch_or(missing, std::memory_order_relaxed);
	for (; fresh != 0; fresh &= fresh - 1)
		rte_log(RTE_LOG_ERR, gaudi_emu_logtype, "gaudi_emu: port %u: %s dropped: %s\n", p,
			path, kSeqRows[std::countr_zero(fresh)].text);
}

uint64_t Device::seq_refused(unsigned port, SeqStep s) const
{
	if (port >= impl_->cfg_.nports || unsigned(s) >= kSeqSteps)
		return 0;
	return impl_->ports_[port].seq_refused[unsigned(s)].load(std::memory_order_relaxed);
}

bool Device::seq_check() const
{
	return impl_->cfg_.seq_check;
}

uint32_t Device::seq_missing(unsigned port) const
{
	if (port >= impl_->cfg_.nports)
		return 0;
	return impl_->ports_[port].seq_missing.load(std::memory_order_acquire);
}

/* ---------------------------------------------------------------------------------------- */
/* [trace] */

bool Device::Impl::trace_open(std::string *err)
{
	trace_ = fopen(cfg_.trace.c_str(), "w");
	if (trace_ == nullptr) {
		*err = "devarg trace=" + cfg_.trace +
		       ": cannot open for writing: " + std::strerror(errno);
		return false;
	}
	return true;
}

/* One access: sequence number, R/W, the configuration address as the public headers write it
 * (0x5400000 + NIC offset), the value, the register's published name for its macro (the
 * generated table; the SerDes lane register the public driver writes by bare address, 0NF5,
 * has none: "?"). Buffered; flushed by flush() and at close. */
void Device::Impl::trace(char rw, uint32_t off, uint32_t val)
{
	char name[96];
	if (hw::regmap::format_name(off, name) == 0)
		std::strcpy(name, "?");
	SpinGuard g(trace_lock_);
	fprintf(trace_, "%llu %c 0x%X 0x%X %s\n", (unsigned long long)++trace_seq_, rw,
		reg::kNic0CfgBase + off, val, name);
}

} /* namespace gaudi::emu */
