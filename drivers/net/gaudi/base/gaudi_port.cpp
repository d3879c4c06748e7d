/* SPDX-License-Identifier: BSD-3-Clause
 * Port programming in the order and with the values of the public drivers: hbl_cn gaudi2_cn.c
 * (hw_port_config: TXE, QPC, RXE, MAC filter, MAC lanes), gaudi2_cn_eq.c (EQ, interrupts) and
 * hbl_en gaudi2_en.c (raw QP contexts, doorbell, CQ consumer index).
 */
#include "gaudi_port.h"
#include "gaudi_macro.h"
#include "gaudi_nic_mem.h"
#include "gaudi_sm.h"

#include <algorithm>
#include <bit>

#include <rte_cycles.h>
#include <rte_pause.h>

namespace gaudi::hw {

void Port::wr_lanes(uint32_t reg_in_ch, uint32_t val)
{
	for (unsigned lane = 0; lane < kLanesPerPort; lane++)
		bar_->wr32(reg::mac_128(port_, lane) + reg_in_ch, val);
}

/* COMMAND_CONFIG bits owned by flow control (set_flow), kept by mac_config. */
constexpr uint32_t kCmdFlowBits =
	reg::CMD_PAUSE_IGNORE | reg::CMD_PFC_MODE | reg::CMD_PAUSE_FWD | reg::CMD_CNTL_FRAME_ENA;
constexpr uint32_t kCmdEnable = reg::CMD_TX_ENA | reg::CMD_RX_ENA;

namespace {
/* QPC INTERRUPT_MASK with every source (bits 10:0) masked but the EQ error's. */
constexpr uint32_t kIntrMaskButEqErr =
	reg::QPC_INTERRUPT_MASK_R.mask() & ~reg::intr_bit(reg::INTR_EQ_ERR);
static_assert(kIntrMaskButEqErr == 0x3FF && reg::intr_wire_en(reg::INTR_EQ_ERR) == 0x100000);
/* MAC_128 TX/RX_FIFO_SECTIONS: 4 [gaudi2_cn_hw_mac_port_config]. */
constexpr uint32_t kFifoSections = 4;
static_assert(reg::MAC_128_TX_FIFO_SECTIONS_TX_SECTION_FULL.put(kFifoSections) == 0x4);
/* Pause quanta of every class pair (both 16-bit halves 0xFFFF) and their refresh thresholds
 * (0x7FFF each) [gaudi2_cn_hw_mac_port_config]. */
constexpr uint32_t kPauseQuantaAll = 0xFFFFFFFF;
constexpr uint32_t kQuantaThreshAll = 0x7FFF7FFF;
/* Alignment markers (M0 | M1 << 8, M2) of the PCS virtual lanes
 * [gaudi2_cn_hw_mac_port_config_lane_speed]: the 20 of 100GBASE-R at 100G, four at 50G and
 * 25G (VL0 differs, VL1..3 alike). */
struct Vl {
	uint16_t m01;
	uint8_t m2;
};
constexpr Vl kVl100g[reg::kPcsVls] = {
	{0x68C1, 0x21}, {0x719D, 0x8E}, {0x4B59, 0xE8}, {0x954D, 0x7B}, {0x07F5, 0x09},
	{0x14DD, 0xC2}, {0x4A9A, 0x26}, {0x457B, 0x66}, {0x24A0, 0x76}, {0xC968, 0xFB},
	{0x6CFD, 0x99}, {0x91B9, 0x55}, {0xB95C, 0xB2}, {0xF81A, 0xBD}, {0xC783, 0xCA},
	{0x3635, 0xCD}, {0x31C4, 0x4C}, {0xD6AD, 0xB7}, {0x665F, 0x2A}, {0xF0C0, 0xE5},
};
constexpr Vl kVl50g[4] = {{0x7690, 0x47}, {0xC4F0, 0xE6}, {0x65C5, 0x9B}, {0x79A2, 0x3D}};
constexpr Vl kVl25g[4] = {{0x68C1, 0x21}, {0xC4F0, 0xE6}, {0x65C5, 0x9B}, {0x79A2, 0x3D}};
static_assert((reg::MAC_PCS_VENDOR_VL0_0_M0.put(0xC1) | reg::MAC_PCS_VENDOR_VL0_0_M1.put(0x68)) ==
	      kVl100g[0].m01);
static_assert(kVl100g[0].m01 == vl0_m01(Speed::g100) && kVl100g[1].m01 == vl1_m01(Speed::g100) &&
	      kVl50g[0].m01 == vl0_m01(Speed::g50) && kVl50g[1].m01 == vl1_m01(Speed::g50) &&
	      kVl25g[0].m01 == vl0_m01(Speed::g25) && kVl25g[1].m01 == vl1_m01(Speed::g25));
} /* namespace */

bool Port::mac_ch_reset(unsigned lane)
{
	/* gaudi2_cn_hw_mac_ch_reset: FLD_RESET written until it reads back clear (it
	 * self-clears once the channel is out of reset), 50-200 us apart, bounded. */
	uint32_t off = reg::mac_pcs(port_, lane) + reg::MAC_PCS_CONTROL1;
	uint32_t rst = reg::MAC_PCS_CONTROL1_FLD_RESET.mask();
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * kMacChResetTimeoutS;
	for (;;) {
		bar_->wr32(off, rst);
		rte_delay_us(50);
		if (!(bar_->rd32(off) & rst))
			return true;
		if (rte_get_timer_cycles() > end)
			return false;
	}
}

void Port::mac_lane_speed(unsigned lane)
{
	uint32_t pcs = reg::mac_pcs(port_, lane);
	bar_->wr32(pcs + reg::MAC_PCS_VENDOR_VL_INTVL,
		   reg::MAC_PCS_VENDOR_VL_INTVL_MARKER_COUNTER.put(marker_counter(speed_)));
	bar_->wr32(pcs + reg::MAC_PCS_VENDOR_PCS_MODE, pcs_mode(speed_));
	const Vl *vl = speed_ == Speed::g100 ? kVl100g : speed_ == Speed::g50 ? kVl50g : kVl25g;
	unsigned n = speed_ == Speed::g100 ? reg::kPcsVls : 4;
	for (unsigned i = 0; i < n; i++) {
		bar_->wr32(pcs + reg::pcs_vl(i, 0), vl[i].m01);
		bar_->wr32(pcs + reg::pcs_vl(i, 1), reg::MAC_PCS_VENDOR_VL0_1_M2.put(vl[i].m2));
	}
}

bool Port::mac_config(bool enable)
{
	if (!enable) {
		/* MAC off: TX_ENA / RX_ENA clear, the flow-control bits kept. */
		uint32_t cur = bar_->rd32(reg::mac_128(port_, 0) + reg::MAC_128_COMMAND_CONFIG);
		uint32_t flow = (cur & reg::CMD_TX_PAD_EN ? cur : reg::CMD_DEFAULT) & kCmdFlowBits;
		wr_lanes(reg::MAC_128_FRM_LENGTH, kMacMaxFrameLen);
		wr_lanes(reg::MAC_128_COMMAND_CONFIG,
			 (reg::CMD_DEFAULT & ~(kCmdFlowBits | kCmdEnable)) | flow);
		return true;
	}
	/* The port's flow control, which gaudi2_cn_set_pfc applies after the lanes. */
	const FlowCfg f = flow();
	bool ok = true;
	/* gaudi2_cn_hw_mac_port_config, lane by lane. */
	for (unsigned lane = 0; lane < kLanesPerPort; lane++) {
		uint32_t ch = reg::mac_128(port_, lane);
		ok &= mac_ch_reset(lane); /* the public driver goes on after a timeout too */
		bar_->wr32(ch + reg::MAC_128_FRM_LENGTH, kMacMaxFrameLen);
		bar_->wr32(ch + reg::MAC_128_COMMAND_CONFIG, reg::CMD_DEFAULT);
		bar_->wr32(ch + reg::MAC_128_TX_FIFO_SECTIONS, kFifoSections);
		bar_->wr32(ch + reg::MAC_128_RX_FIFO_SECTIONS, kFifoSections);
		for (unsigned c = 0; c < reg::kMacPauseClasses; c += 2) {
			bar_->wr32(ch + reg::mac_pause_quanta(c), kPauseQuantaAll);
			bar_->wr32(ch + reg::mac_quanta_thresh(c), kQuantaThreshAll);
		}
		mac_lane_speed(lane);
	}
	/* gaudi2_cn_set_pfc: COMMAND_CONFIG of both lanes per the flow-control settings. */
	set_flow(f);
	return ok;
}

void Port::set_mac_enable(bool on)
{
	uint32_t cmd = bar_->rd32(reg::mac_128(port_, 0) + reg::MAC_128_COMMAND_CONFIG);
	wr_lanes(reg::MAC_128_COMMAND_CONFIG, on ? (cmd | kCmdEnable) : (cmd & ~kCmdEnable));
}

namespace {
/* gaudi2_cn.c builds the 48-bit address with byte 0 most significant: bits 31:0 hold bytes
 * 2..5, bits 47:32 bytes 0..1. */
inline uint32_t mac_31_0(const uint8_t *m)
{
	return (uint32_t(m[2]) << 24) | (m[3] << 16) | (m[4] << 8) | m[5];
}
inline uint32_t mac_47_32(const uint8_t *m)
{
	return (m[0] << 8) | m[1];
}
} /* namespace */

void Port::set_mac_addr(const uint8_t mac[6])
{
	std::copy(mac, mac + 6, mac_);
	uint32_t lo = mac_31_0(mac), hi = mac_47_32(mac);
	/* MoreThanIP MAC_ADDR_0/1: first byte in bits 7:0 of ADDR_0. */
	wr_lanes(reg::MAC_128_MAC_ADDR_0,
		 mac[0] | (mac[1] << 8) | (mac[2] << 16) | (uint32_t(mac[3]) << 24));
	wr_lanes(reg::MAC_128_MAC_ADDR_1, mac[4] | (mac[5] << 8));
	/* Source MAC of RoCE frames: both PORTn_MAC_CFG, as gaudi2_cn.c config_port_hw_txe. */
	uint32_t t = reg::txe(port_);
	bar_->wr32(t + reg::TXE_PORT0_MAC_CFG_47_32, hi);
	bar_->wr32(t + reg::TXE_PORT0_MAC_CFG_31_0, lo);
	bar_->wr32(t + reg::TXE_PORT1_MAC_CFG_47_32, hi);
	bar_->wr32(t + reg::TXE_PORT1_MAC_CFG_31_0, lo);
	uint32_t rxb = reg::rxb(port_);
	auto filter = [&](uint32_t reg0, uint32_t v) {
		bar_->wr32(rxb + reg::rxb_filter_reg(reg0, port_), v);
	};
	filter(reg::RXB_CORE_TS_RC_MAC_31_0_0, lo);
	filter(reg::RXB_CORE_TS_RC_MAC_47_32_0, hi);
	filter(reg::RXB_CORE_TS_RC_MAC_31_0_MASK_0, 0);
	filter(reg::RXB_CORE_TS_RC_MAC_47_32_MASK_0, 0);
	filter(reg::RXB_CORE_TS_RAW0_MAC_31_0_0, lo);
	filter(reg::RXB_CORE_TS_RAW0_MAC_47_32_0, hi);
}

void Port::set_rxb_accept_all(bool accept_all)
{
	/* Mask bits set = don't care: all ones takes every destination (gaudi2_cn.c writes all
	 * ones to a filter it wants open), zero is the exact station address. */
	uint32_t rxb = reg::rxb(port_);
	bar_->wr32(rxb + reg::rxb_filter_reg(reg::RXB_CORE_TS_RAW0_MAC_31_0_MASK_0, port_),
		   accept_all ? 0xFFFFFFFF : 0);
	bar_->wr32(rxb + reg::rxb_filter_reg(reg::RXB_CORE_TS_RAW0_MAC_47_32_MASK_0, port_),
		   accept_all ? 0xFFFF : 0);
}

void Port::set_rs_fec(bool on)
{
	/* The per-macro set-up leaves 0xFF at 50G / 100G: FEC91_ENA_IN and FEC91_KP_MODE_IN
	 * on every lane [gaudi2_cn_config_hw_mac]. On sets both for this port's lanes (the
	 * published value), off clears both. */
	uint32_t off = reg::mac_core(port_) + reg::MAC_CORE_MAC_FEC91_CFG;
	uint32_t v = bar_->rd32(off);
	uint32_t bits = reg::MAC_CORE_MAC_FEC91_CFG_FEC91_ENA_IN.put(reg::lane_bits(port_));
	if (speed_ != Speed::g25)
		bits |= reg::MAC_CORE_MAC_FEC91_CFG_FEC91_KP_MODE_IN.put(reg::lane_bits(port_));
	bar_->wr32(off, on ? (v | bits) : (v & ~bits));
}

bool Port::rs_fec() const
{
	uint32_t v = bar_->rd32(reg::mac_core(port_) + reg::MAC_CORE_MAC_FEC91_CFG);
	uint32_t bits = reg::MAC_CORE_MAC_FEC91_CFG_FEC91_ENA_IN.put(reg::lane_bits(port_));
	return (v & bits) == bits;
}

/* One clear-on-read RS-FEC counter (16-bit LO, then HI) added to total. */
static uint64_t fec_accumulate(Bar *bar, uint32_t lo, uint32_t hi, uint64_t *total)
{
	uint64_t v = (bar->rd32(lo) & 0xFFFF) | (uint64_t(bar->rd32(hi) & 0xFFFF) << 16);
	return __atomic_add_fetch(total, v, __ATOMIC_RELAXED);
}

uint64_t Port::fec_corrected() const
{
	uint32_t b = reg::mac_rs_fec(port_);
	return fec_accumulate(bar_, b + reg::rsfec_ccw_lo(port_), b + reg::rsfec_ccw_hi(port_),
			      &fec_ccw_);
}

uint64_t Port::fec_uncorrected() const
{
	uint32_t b = reg::mac_rs_fec(port_);
	return fec_accumulate(bar_, b + reg::rsfec_nccw_lo(port_), b + reg::rsfec_nccw_hi(port_),
			      &fec_nccw_);
}

namespace {
constexpr uint32_t flows(uint32_t v)
{
	/* FLOW0 and FLOW1 fields carry the same threshold, as gaudi2_cn.c writes them. */
	return reg::RXB_CORE_XOFF_THRESHOLD_0_XOFF_THRESHOLD_FLOW0.put(v) |
	       reg::RXB_CORE_XOFF_THRESHOLD_0_XOFF_THRESHOLD_FLOW1.put(v);
}
} /* namespace */

void Port::set_flow(const FlowCfg &f)
{
	uint32_t cmd = bar_->rd32(reg::mac_128(port_, 0) + reg::MAC_128_COMMAND_CONFIG);
	cmd &= ~kCmdFlowBits;
	/* gaudi2_nic_set_pfc: PFC_MODE with PFC, else PAUSE_IGNORE | CNTL_FRAME_ENA; link-level
	 * pause honoured when PAUSE_IGNORE is clear. */
	if (f.pfc)
		cmd |= reg::CMD_PFC_MODE;
	else
		cmd |= reg::CMD_CNTL_FRAME_ENA | (f.rx_pause ? 0 : reg::CMD_PAUSE_IGNORE);
	if (f.fwd)
		cmd |= reg::CMD_PAUSE_FWD;
	/* PFC: every class gets the quanta; link pause: class 0 only. */
	for (unsigned c = 0; c < 8; c += 2) {
		uint32_t q = (c == 0 || f.pfc) ? f.quanta : 0;
		uint32_t t = (c == 0 || f.pfc) ? f.thresh : 0;
		wr_lanes(reg::mac_pause_quanta(c), q | (q << 16));
		wr_lanes(reg::mac_quanta_thresh(c), t | (t << 16));
	}
	wr_lanes(reg::MAC_128_COMMAND_CONFIG, cmd);
	/* TX pause is the RXB's XOFF / XON thresholds, as hbl_cn arms them
	 * (gaudi2_cn_config_hw_rxb; TXB GLOBAL_PAUSE stays 0, written at per-macro set-up only):
	 * the MAC sends XOFF when the port's RXB fill passes XOFF. Off, both are past any fill. */
	const uint32_t xoff = f.tx_pause ? f.xoff : kRxbXoffNever;
	const uint32_t xon = f.tx_pause ? f.xon : kRxbXoffNever;
	uint32_t rxb = reg::rxb(port_);
	for (unsigned p = 0; p < kPfcPriorities; p++) {
		bar_->wr32(rxb + reg::rxb_xoff_threshold(p), flows(xoff));
		bar_->wr32(rxb + reg::rxb_xon_threshold(p), flows(xon));
	}
}

FlowCfg Port::flow() const
{
	FlowCfg f{};
	uint32_t cmd = bar_->rd32(reg::mac_128(port_, 0) + reg::MAC_128_COMMAND_CONFIG);
	f.pfc = cmd & reg::CMD_PFC_MODE;
	f.rx_pause = f.pfc || !(cmd & reg::CMD_PAUSE_IGNORE);
	f.fwd = cmd & reg::CMD_PAUSE_FWD;
	f.quanta = bar_->rd32(reg::mac_128(port_, 0) + reg::mac_pause_quanta(0)) & 0xFFFF;
	f.thresh = bar_->rd32(reg::mac_128(port_, 0) + reg::mac_quanta_thresh(0)) & 0xFFFF;
	uint32_t rxb = reg::rxb(port_);
	f.xoff = reg::RXB_CORE_XOFF_THRESHOLD_0_XOFF_THRESHOLD_FLOW0.get(
		bar_->rd32(rxb + reg::rxb_xoff_threshold(0)));
	f.xon = reg::RXB_CORE_XON_THRESHOLD_0_XON_THRESHOLD_FLOW0.get(
		bar_->rd32(rxb + reg::rxb_xon_threshold(0)));
	f.tx_pause = f.xoff != kRxbXoffNever;
	if (!f.tx_pause) { /* the thresholds TX pause gets back unless told others */
		f.xoff = macro::kRxbXoffTh;
		f.xon = macro::kRxbXonTh;
	}
	return f;
}

void Port::intr_enable(uint32_t index, bool on)
{
	uint32_t q = reg::qpc(port_), bit = reg::intr_bit(index), msi = reg::intr_msi_en(index);
	uint32_t en = bar_->rd32(q + reg::QPC_INTERRUPT_EN);
	uint32_t mask = bar_->rd32(q + reg::QPC_INTERRUPT_MASK);
	if (on) {
		bar_->wr32(q + reg::QPC_INTERRUPT_MASK, mask & ~bit);
		bar_->wr32(q + reg::QPC_INTERRUPT_EN, en | msi);
	} else {
		bar_->wr32(q + reg::QPC_INTERRUPT_EN, en & ~msi);
		bar_->wr32(q + reg::QPC_INTERRUPT_MASK, mask | bit);
	}
}

void Port::eq_irq_route()
{
	uint32_t q = reg::qpc(port_);
	bar_->wr32(q + reg::QPC_INTERRUPT_BASE_9, sm::sob_addr(sm::nic_eq_sob(port_)));
	bar_->wr32(q + reg::QPC_INTERRUPT_DATA_9, sm::kSobIncrementByOne);
}

namespace {
void disable_interrupts(Bar &bar, unsigned port)
{
	uint32_t q = reg::qpc(port);
	bar.wr32(q + reg::QPC_EVENT_QUE_CFG, 0);
	bar.wr32(q + reg::QPC_INTERRUPT_EN, 0);
	bar.wr32(q + reg::QPC_INTERRUPT_MASK, 0xFFFFFFFF);
	/* W/A H6-3339: mask the PHY link-up interrupt (a macro register, written for each port)
	 * [habanalabs gaudi2_cn.c gaudi2_cn_disable_interrupts]. */
	bar.wr32(reg::phy(port) + reg::PHY_PHY_LINK_STS_INTR,
		 reg::PHY_PHY_LINK_STS_INTR_MASK.mask());
}
} /* namespace */

void nic_quiescence(Bar &bar, unsigned nports)
{
	for (unsigned p = 0; p < nports; p++)
		disable_interrupts(bar, p);
	(void)bar.rd32(reg::qpc(0) + reg::QPC_EVENT_QUE_CFG);
}

void Port::quiesce()
{
	/* Again at open and reset: a port reset leaves its interrupts as power-up does. */
	disable_interrupts(*bar_, port_);
	bar_->wr32(reg::rxe(port_) + reg::RXE_CQ_CFG_0, 0);
	mac_config(false);
}

void Port::set_loopback(bool on)
{
	for (unsigned lane = 0; lane < kLanesPerPort; lane++) {
		uint32_t off = reg::mac_pcs(port_, lane) + reg::MAC_PCS_CONTROL1;
		uint32_t v = bar_->rd32(off);
		uint32_t lb = reg::MAC_PCS_CONTROL1_LOOPBACK.mask();
		bar_->wr32(off, on ? (v | lb) : (v & ~lb));
	}
}

bool Port::link_up() const
{
	uint32_t sts = bar_->rd32(reg::mac_core(port_) + reg::MAC_CORE_MAC_REC_STS0);
	/* REC_LINK_STS has a bit per lane; the port's first lane tells (100G on 2 lanes). */
	return reg::MAC_CORE_MAC_REC_STS0_REC_LINK_STS.get(sts) & (1u << reg::mac_lane(port_, 0));
}

uint64_t Port::rx_stat(RxStat s) const
{
	uint32_t b = reg::mac_stat(port_);
	uint64_t lo = bar_->rd32(b + reg::stat_rx(port_) + 4 * static_cast<uint32_t>(s));
	uint64_t hi = bar_->rd32(b + reg::MAC_GLOB_STAT_CONTROL_DATA_HI);
	return lo | (hi << 32);
}

uint64_t Port::tx_stat(TxStat s) const
{
	uint32_t b = reg::mac_stat(port_);
	uint64_t lo = bar_->rd32(b + reg::stat_tx(port_) + 4 * static_cast<uint32_t>(s));
	uint64_t hi = bar_->rd32(b + reg::MAC_GLOB_STAT_CONTROL_DATA_HI);
	return lo | (hi << 32);
}

void Port::stats_reset()
{
	/* STATN_CONFIG.F_RESET [gaudi2_cn.c gaudi2_cn_reset_mac_stats]: every counter set of the
	 * macro, the sibling port's too. */
	bar_->wr32(reg::mac_stat(port_) + reg::MAC_GLOB_STAT_CONTROL_STATN_CONFIG,
		   reg::MAC_GLOB_STAT_CONTROL_STATN_CONFIG_F_RESET.mask());
}

bool Port::gateway(uint32_t ctrl, const uint32_t *data, const uint32_t *mask, uint32_t n)
{
	uint32_t q = reg::qpc(port_);
	/* gaudi2_cn.c qpc_write_masked: never start while the gateway is busy; masks, then data,
	 * then GW_CTRL and GW_BUSY = 1; poll GW_BUSY. */
	if (bar_->rd32(q + reg::QPC_GW_BUSY) & reg::QPC_GW_BUSY_R.mask())
		return false;
	for (uint32_t i = 0; i < 32; i++)
		bar_->wr32(q + reg::QPC_GW_MASK_0 + 4 * i, i < n ? mask[i] : 0);
	for (uint32_t i = 0; i < n; i++)
		bar_->wr32(q + reg::QPC_GW_DATA_0 + 4 * i, data[i]);
	bar_->wr32(q + reg::QPC_GW_CTRL, ctrl);
	bar_->wr32(q + reg::QPC_GW_BUSY, 1);
	for (unsigned spin = 0; spin < 1000000; spin++)
		if (!(bar_->rd32(q + reg::QPC_GW_BUSY) & reg::QPC_GW_BUSY_R.mask()))
			return true;
	return false;
}

namespace {
template <uint32_t N>
qpc::Image<N> whole_image(const qpc::Image<N> &img)
{
	qpc::Image<N> w = img;
	w.mask.fill(0xFFFFFFFF); /* a NULL mask in gaudi2_cn.c: every bit of the context */
	return w;
}
} /* namespace */

bool Port::qpc_write_req(const qpc::ReqImage &img, bool whole)
{
	const qpc::ReqImage w = whole ? whole_image(img) : img;
	return gateway(reg::QPC_GW_CTRL_REQUESTER.mask() | kRawQpn, w.data.data(), w.mask.data(),
		       qpc::kReqDwords);
}

bool Port::qpc_write_res(const qpc::ResImage &img, bool whole)
{
	const qpc::ResImage w = whole ? whole_image(img) : img;
	return gateway(kRawQpn, w.data.data(), w.mask.data(), qpc::kResDwords);
}

uint32_t Port::mtu_code(uint32_t mtu)
{
	/* __fls(mtu + 26) - 10, + 1 unless a power of two [gaudi2_en.c config_qp]. */
	uint32_t l = std::bit_width(std::max<uint32_t>(mtu + kFrameOverhead, 1024) - 1);
	return l - 10;
}

void Port::qpc_config(const QpcCfg &cfg)
{
	uint32_t q = reg::qpc(port_), d = reg::qpc_dbfifosecur(port_);
	auto ovrd = [this](uint32_t block) {
		uint32_t a = reg::qpc_axuser(port_, block);
		/* Every QPC AXI-user block has HB_WR/RD_OVRD_LO at the same offsets. */
		bar_->wr32(a + reg::QPC_AXUSER_DB_FIFO_HB_WR_OVRD_LO, reg::kAxuserOvrdMmuBp);
		bar_->wr32(a + reg::QPC_AXUSER_DB_FIFO_HB_RD_OVRD_LO, reg::kAxuserOvrdMmuBp);
	};
	bar_->wr32(q + reg::QPC_REQ_BASE_ADDRESS_63_32,
		   static_cast<uint32_t>(cfg.req_qpc_base >> 32));
	bar_->wr32(q + reg::QPC_REQ_BASE_ADDRESS_31_7,
		   static_cast<uint32_t>(cfg.req_qpc_base) >> 7);
	bar_->wr32(q + reg::QPC_RES_BASE_ADDRESS_63_32,
		   static_cast<uint32_t>(cfg.res_qpc_base >> 32));
	bar_->wr32(q + reg::QPC_RES_BASE_ADDRESS_31_7,
		   static_cast<uint32_t>(cfg.res_qpc_base) >> 7);
	/* Invalidate both context caches: a 1 then 0 pulse each, responder first. */
	bar_->wr32(q + reg::QPC_RES_QPC_CACHE_INVALIDATE, 1);
	bar_->wr32(q + reg::QPC_REQ_QPC_CACHE_INVALIDATE, 1);
	bar_->wr32(q + reg::QPC_RES_QPC_CACHE_INVALIDATE, 0);
	bar_->wr32(q + reg::QPC_REQ_QPC_CACHE_INVALIDATE, 0);
	bar_->wr32(q + reg::QPC_INTERRUPT_CAUSE, 0);
	ovrd(reg::QPC_AXUSER_DB_FIFO_BASE);
	bar_->wr64_split(d + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_63_32,
			 d + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_31_7,
			 cfg.db_ci_iova);
	ovrd(reg::QPC_AXUSER_ERR_FIFO_BASE);
	ovrd(reg::QPC_AXUSER_QPC_REQ_BASE);
	ovrd(reg::QPC_AXUSER_QPC_RESP_BASE);
	ovrd(reg::QPC_AXUSER_CONG_QUE_BASE);
	/* Doorbell error policy, one field at a time as gaudi2_cn.c does. */
	uint32_t st = q + reg::QPC_REQ_STATIC_CONFIG;
	rmw(st, reg::QPC_REQ_STATIC_CONFIG_QM_MOVEQP2ERR_SECUR_ERR, 1);
	rmw(st, reg::QPC_REQ_STATIC_CONFIG_QM_PUSH_TO_ERROR_ASID, 0);
	rmw(st, reg::QPC_REQ_STATIC_CONFIG_QM_UPD_IGNORE_ASID_ERR, 1);
	rmw(st, reg::QPC_REQ_STATIC_CONFIG_QM_MOVEQP2ERR_ASID_ERR, 0);
	rmw(st, reg::QPC_REQ_STATIC_CONFIG_QM_PUSH_TO_ERROR_SECURITY, 1);
	/* WTD back-pressure to ARC and QMAN off (RDMA users turn it on), in one RMW. */
	uint32_t wtd = q + reg::QPC_WTD_CONFIG;
	bar_->wr32(wtd, bar_->rd32(wtd) & ~(reg::QPC_WTD_CONFIG_WQ_BP_2ARC_EN.mask() |
					    reg::QPC_WTD_CONFIG_WQ_BP_2QMAN_EN.mask()));
}

namespace {
/* BTH_MKEY: the RoCE BTH migration key field, all ones [gaudi2_cn.c config_port_hw_txe]. */
constexpr uint32_t kBthMkey = 0xFFFF;
/* TXE statistics: 100 ms bandwidth window, 2 us latency window, in NIC clock cycles
 * [gaudi2_cn.c PERF_BW_WINDOW_USEC; "2us latency window size"]; TOT_TYPE 3. */
constexpr uint32_t kPerfBwWindowUs = 100000;
constexpr uint32_t kLatencyWindowUs = 2;
constexpr uint32_t kStatsTotType = 3;
} /* namespace */

void Port::rmw(uint32_t off, reg::Field f, uint32_t v)
{
	bar_->wr32(off, (bar_->rd32(off) & ~f.mask()) | f.put(v));
}

bool Port::tx_init(const TxRingCfg &cfg)
{
	tx_config(cfg);
	return tx_qp_start(cfg);
}

void Port::tx_config(const TxRingCfg &cfg)
{
	uint32_t t = reg::txe(port_), d = reg::qpc_dbfifosecur(port_);
	/* TXE in gaudi2_cn.c config_port_hw_txe's order; PORTn_MAC_CFG, which it writes between
	 * PRIO_TO_DSCP and WQE_USER_CFG, is set_mac_addr's. */
	bar_->wr32(t + reg::TXE_SQ_BASE_ADDRESS_63_32_0, static_cast<uint32_t>(cfg.wq_iova >> 32));
	bar_->wr32(t + reg::TXE_SQ_BASE_ADDRESS_31_0_0, static_cast<uint32_t>(cfg.wq_iova));
	bar_->wr32(t + reg::TXE_LOG_MAX_WQ_SIZE_0, cfg.wq_log2 - 2);
	bar_->wr32(t + reg::TXE_PRIO_TO_DSCP_0, reg::kPrioToDscp0);
	bar_->wr32(t + reg::TXE_WQE_USER_CFG, reg::TXE_WQE_USER_CFG_MMU_BYPASS.put(1));
	bar_->wr32(t + reg::TXE_WQE_PREFETCH_CFG,
		   reg::TXE_WQE_PREFETCH_CFG_ENABLE.mask() |
			   reg::TXE_WQE_PREFETCH_CFG_ALWAYS_ENABLE.mask());
	bar_->wr32(t + reg::TXE_BTH_MKEY, kBthMkey);
	bar_->wr32(t + reg::TXE_STATS_CFG0, nicmem::kNicClkMhz * kPerfBwWindowUs);
	rmw(t + reg::TXE_STATS_CFG1, reg::TXE_STATS_CFG1_LATENCY_ENABLE, 1);
	rmw(t + reg::TXE_STATS_CFG1, reg::TXE_STATS_CFG1_WIN_TYPE, 0);
	rmw(t + reg::TXE_STATS_CFG1, reg::TXE_STATS_CFG1_WIN_SAMP_LATENCY, 0);
	rmw(t + reg::TXE_STATS_CFG1, reg::TXE_STATS_CFG1_TOT_TYPE, kStatsTotType);
	rmw(t + reg::TXE_STATS_CFG1, reg::TXE_STATS_CFG1_ENABLE, 1);
	rmw(t + reg::TXE_STATS_CFG2, reg::TXE_STATS_CFG2_LATENCY_WRAP_EN, 0);
	rmw(t + reg::TXE_STATS_CFG2, reg::TXE_STATS_CFG2_LATENCY_MAX_VAL,
	    kLatencyWindowUs * nicmem::kNicClkMhz);
	/* The CI address as qpc_config writes it: a TX queue started again after db_fifo_reset
	 * cleared it needs it back. */
	bar_->wr64_split(d + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_63_32,
			 d + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_31_7,
			 cfg.db_ci_iova);
}

bool Port::tx_qp_start(const TxRingCfg &cfg)
{
	/* Requester QPC of the raw QP, whole image, as gaudi2_en.c req_qpc_init. */
	qpc::ReqImage req;
	req.set(qpc::REQ_TS, qpc::TS_RAW);
	req.set(qpc::REQ_LAST_IDX, (1u << cfg.wq_log2) - 1);
	req.set(qpc::REQ_WQ_TYPE, qpc::WQ_TYPE_WRITE);
	req.set(qpc::REQ_WQ_BASE_ADDR, 0);
	req.set(qpc::REQ_MTU, mtu_code(cfg.mtu));
	req.set(qpc::REQ_REMOTE_WQ_LOG_SZ, qpc::kRawRemoteWqLogSz);
	req.set(qpc::REQ_VALID, 1);
	req.set(qpc::REQ_TRUST, qpc::TRUST_SECURED);
	req.set(qpc::REQ_PORT, 0);
	req.set(qpc::REQ_DATA_MMU_BYPASS, 1);
	req.set(qpc::REQ_BURST_SIZE, 1);
	req.set(qpc::REQ_SCHD_Q_NUM, qpc::kRawSchedQ);
	req.set(qpc::REQ_WQ_BACK_PRESSURE, 1); /* gaudi2_en.c: HW bug work-around */
	return qpc_write_req(req, true);
}

namespace {
/* Wait (bounded) until pred(*ci). No Bar::service(): that is the RX poll hook, and the port
 * is not receiving yet. */
template <typename P>
bool poll_ci(volatile uint32_t *ci, P pred)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz(); /* 1 s */
	while (!pred(__atomic_load_n(ci, __ATOMIC_ACQUIRE))) {
		if (rte_get_timer_cycles() > end)
			return false;
		rte_pause();
	}
	return true;
}
} /* namespace */

bool Port::db_fifo_align(volatile uint32_t *ci)
{
	uint32_t q = reg::qpc(port_);
	uint32_t errs = reg::QPC_REQ_STATIC_CONFIG_QM_PUSH_TO_ERR_FIFO_NON_V.mask() |
			reg::QPC_REQ_STATIC_CONFIG_QM_PUSH_ERR_PI_EX_LAST.mask();
	uint32_t st = bar_->rd32(q + reg::QPC_REQ_STATIC_CONFIG);
	bar_->wr32(q + reg::QPC_REQ_STATIC_CONFIG, st & ~errs);
	auto dummy = [this, q](uint32_t n) {
		for (uint32_t i = 0; i < n; i++) {
			bar_->wr32(q + reg::QPC_SECURED_DB_FIRST32, 0);
			bar_->wr32(q + reg::QPC_SECURED_DB_SECOND32, kMaxQpNum);
		}
	};
	bool ok = true;
	uint32_t c = __atomic_load_n(ci, __ATOMIC_ACQUIRE) % kDbFifoEntries;
	if (c == 0) {
		/* 0 is both "never written" and a real position: two dummies make the hardware
		 * write a position that is not the buffer's initial zero. */
		dummy(2);
		ok = poll_ci(ci, [](uint32_t v) { return v != 0; });
		c = __atomic_load_n(ci, __ATOMIC_ACQUIRE) % kDbFifoEntries;
	}
	if (ok && c != kDbFifoEntries - 1) {
		dummy(kDbFifoEntries - c - 1);
		ok = poll_ci(ci, [](uint32_t v) { return v == kDbFifoEntries - 1; });
	}
	bar_->wr32(q + reg::QPC_REQ_STATIC_CONFIG, st | errs);
	return ok;
}

bool Port::db_fifo_reset(volatile uint32_t *ci)
{
	bool ok = db_fifo_align(ci);
	uint32_t d = reg::qpc_dbfifosecur(port_);
	bar_->wr32(d + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_31_7, 0);
	bar_->wr32(d + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_63_32, 0);
	return ok;
}

bool Port::qpc_read_req(qpc::ReqImage *img)
{
	uint32_t q = reg::qpc(port_);
	qpc::ReqImage none; /* zero masks: the gateway reads [gaudi2_cn.c qpc_read] */
	if (!gateway(reg::QPC_GW_CTRL_REQUESTER.mask() | kRawQpn, none.data.data(),
		     none.mask.data(), qpc::kReqDwords))
		return false;
	for (uint32_t i = 0; i < qpc::kReqDwords; i++)
		img->data[i] = bar_->rd32(q + reg::QPC_GW_DATA_0 + 4 * i);
	img->mask.fill(0xFFFFFFFF);
	return true;
}

bool Port::tx_resume(uint32_t exec)
{
	qpc::ReqImage req;
	req.set(qpc::REQ_EXECUTION_IDX, exec & WQ_IDX_MASK);
	req.set(qpc::REQ_ERROR, 0);
	req.set(qpc::REQ_VALID, 1);
	return qpc_write_req(req, false);
}

bool Port::tx_disable()
{
	qpc::ReqImage req; /* gaudi2_en.c: mask VALID only, value 0 */
	req.set(qpc::REQ_VALID, 0);
	return qpc_write_req(req, false);
}

bool Port::rx_init(const RxRingCfg &cfg)
{
	rx_config(cfg);
	return rx_qp_start();
}

void Port::rx_config(const RxRingCfg &cfg)
{
	uint32_t r = reg::rxe(port_);
	uint32_t lo = static_cast<uint32_t>(cfg.slots_iova);
	uint32_t hi = static_cast<uint32_t>(cfg.slots_iova >> 32);
	uint32_t misc = reg::RXE_RAW_MISC_P0_0_LOG_RAW_ENTRY_SIZE_P0.put(cfg.slot_log2) |
			reg::RXE_RAW_MISC_P0_0_LOG_BUFFER_SIZE_MASK_P0.put(cfg.count_log2);
	/* gaudi2_cn.c config_port_hw_rxe, in its order: every priority's raw QPN (both copies)
	 * = QPN 0, then per priority the one slot ring: base low, high, then MISC, both copies
	 * each. */
	for (unsigned p = 0; p < reg::kRawPriorities; p++)
		for (unsigned c = 0; c < 2; c++)
			bar_->wr32(r + reg::rxe_raw_qpn(p) + c * 4, kRawQpn);
	const uint32_t k = reg::kRawCopyStride;
	for (unsigned p = 0; p < reg::kRawPriorities; p++) {
		bar_->wr32(r + reg::rxe_raw_base_lo(p), lo);
		bar_->wr32(r + reg::rxe_raw_base_lo(p) + k, lo);
		bar_->wr32(r + reg::rxe_raw_base_hi(p), hi);
		bar_->wr32(r + reg::rxe_raw_base_hi(p) + k, hi);
		bar_->wr32(r + reg::rxe_raw_misc(p), misc);
		bar_->wr32(r + reg::rxe_raw_misc(p) + k, misc);
	}
	/* CQ base and PI address hold address bits 31:7 in place (& 0xFFFFFF80, no shift). */
	bar_->wr32(r + reg::RXE_CQ_BASE_ADDR_63_32, static_cast<uint32_t>(cfg.cq_iova >> 32));
	bar_->wr32(r + reg::RXE_CQ_BASE_ADDR_31_7,
		   static_cast<uint32_t>(cfg.cq_iova) & reg::RXE_CQ_BASE_ADDR_31_7_R.mask());
	bar_->wr32(r + reg::RXE_CQ_PI_ADDR_HI_0, static_cast<uint32_t>(cfg.cq_pi_iova >> 32));
	bar_->wr32(r + reg::RXE_CQ_PI_ADDR_LO_0,
		   static_cast<uint32_t>(cfg.cq_pi_iova) & 0xFFFFFF80);
	bar_->wr32(r + reg::RXE_CQ_LOG_MAX_SIZE, kCqMaxLog2);
	bar_->wr32(r + reg::RXE_CQ_LOG_SIZE_0, cfg.count_log2);
	for (unsigned cq = 0; cq < reg::kRxeCqs; cq++)
		bar_->wr32(reg::rxe_axuser_cq(port_, cq) + reg::RXE_AXUSER_AXUSER_CQ0_HB_WR_OVRD_LO,
			   reg::kAxuserOvrdMmuBp);
	bar_->wr32(r + reg::RXE_CQ_WRITE_INDEX_0, 0);
	bar_->wr32(r + reg::RXE_CQ_PRODUCER_INDEX_0, 0);
	bar_->wr32(r + reg::RXE_CQ_CONSUMER_INDEX_0, 0);
	/* enable, PI update; no OVERRUN_EN: a full CQ back-pressures (COMP_ERR) */
	bar_->wr32(r + reg::RXE_CQ_CFG_0,
		   reg::RXE_CQ_CFG_0_ENABLE.mask() | reg::RXE_CQ_CFG_0_WRITE_PI_EN.mask());
	for (unsigned cq = 1; cq < reg::kRxeCqs; cq++) /* the RDMA and user CQs off */
		bar_->wr32(r + reg::rxe_cq(reg::RXE_CQ_CFG_0, cq), 0);
	bar_->wr32(r + reg::RXE_ARUSER_MMU_BP, reg::RXE_ARUSER_MMU_BP_VAL.put(1));
	bar_->wr32(r + reg::RXE_DBG_SPMU_SELECT, reg::RXE_DBG_SPMU_SELECT_VAL.put(1)); /* group 1 */
}

bool Port::rx_qp_start()
{
	/* Responder QPC of the raw QP, whole image, as gaudi2_en.c res_qpc_init. */
	qpc::ResImage res;
	res.set(qpc::RES_TS, qpc::TS_RAW);
	res.set(qpc::RES_VALID, 1);
	res.set(qpc::RES_TRUST, qpc::TRUST_SECURED);
	res.set(qpc::RES_PORT, 0);
	res.set(qpc::RES_CQ_NUM, kRawCq);
	res.set(qpc::RES_MMU_BYPASS, 1);
	res.set(qpc::RES_SCHD_Q_NUM, qpc::kRawSchedQ);
	return qpc_write_res(res, true);
}

void Port::rx_disable()
{
	bar_->wr32(reg::rxe(port_) + reg::RXE_CQ_CFG_0, 0);
	qpc::ResImage res;
	res.set(qpc::RES_VALID, 0);
	qpc_write_res(res, false);
}

void Port::cq_arm_timer_off()
{
	uint32_t en = reg::rxe(port_) + reg::RXE_CQ_ARM_TIMEOUT_EN;
	bar_->wr32(en, bar_->rd32(en) & ~(1u << kRawCq));
	(void)bar_->rd32(en);
}

void Port::eq_init(const EqCfg &cfg)
{
	/* gaudi2_cn_eq.c eq_hw_config's order: PI address, ring, size, indexes, CFG, then the AXI
	 * user of the EQ writes and of the interrupt's LBW write. */
	uint32_t q = reg::qpc(port_);
	bar_->wr64_split(q + reg::QPC_EVENT_QUE_PI_ADDR_63_32, q + reg::QPC_EVENT_QUE_PI_ADDR_31_7,
			 cfg.pi_iova);
	bar_->wr64_split(q + reg::QPC_EVENT_QUE_BASE_ADDR_63_32,
			 q + reg::QPC_EVENT_QUE_BASE_ADDR_31_7, cfg.eq_iova);
	bar_->wr32(q + reg::QPC_EVENT_QUE_LOG_SIZE, cfg.log2);
	bar_->wr32(q + reg::QPC_EVENT_QUE_WRITE_INDEX, 0);
	bar_->wr32(q + reg::QPC_EVENT_QUE_PRODUCER_INDEX, 0);
	eq_write_ci(0);
	bar_->wr32(q + reg::QPC_EVENT_QUE_CONSUMER_INDEX_CB, 0);
	/* 0x19 = ENABLE | WRITE_PI_EN | INTERRUPT_PER_EQE [gaudi2_cn_eq.c] */
	bar_->wr32(q + reg::QPC_EVENT_QUE_CFG,
		   reg::QPC_EVENT_QUE_CFG_ENABLE.mask() |
			   reg::QPC_EVENT_QUE_CFG_WRITE_PI_EN.mask() |
			   reg::QPC_EVENT_QUE_CFG_INTERRUPT_PER_EQE.mask());
	uint32_t a = reg::qpc_axuser(port_, reg::QPC_AXUSER_EV_QUE_LBW_INTR_BASE);
	bar_->wr32(a + reg::QPC_AXUSER_EV_QUE_LBW_INTR_HB_WR_OVRD_LO, reg::kAxuserOvrdMmuBp);
	bar_->wr32(a + reg::QPC_AXUSER_EV_QUE_LBW_INTR_HB_RD_OVRD_LO, reg::kAxuserOvrdMmuBp);
	/* gaudi2_cn_eq_interrupts_enable_conditionally, polling: every QPC source masked but
	 * 10, the EQ error, whose wire goes to the device CPU (it reports a NIC SW error event,
	 * gaudi_recovery.cpp gaudi_rec_fw_events). The EQ interrupt's MSI (source 9) is intr_enable's, where the
	 * PMD takes it: then the MSI-mode values, 0x1FF / 0x180000. */
	bar_->wr32(q + reg::QPC_INTERRUPT_MASK, kIntrMaskButEqErr);
	bar_->wr32(q + reg::QPC_INTERRUPT_EN, reg::intr_wire_en(reg::INTR_EQ_ERR));
}

void Port::eq_disable()
{
	bar_->wr32(reg::qpc(port_) + reg::QPC_EVENT_QUE_CFG, 0);
}

} /* namespace gaudi::hw */
