/* SPDX-License-Identifier: BSD-3-Clause */
#include "gaudi_port.h"

#include <bit>

namespace gaudi::hw {

void Port::wr_lanes(uint32_t reg_in_ch, uint32_t val)
{
	for (unsigned lane = 0; lane < kLanesPerPort; lane++)
		bar_->wr32(reg::mac_ch(port_, lane) + reg_in_ch, val);
}

/* COMMAND_CONFIG bits owned by flow control (set_flow), kept by mac_config. */
constexpr uint32_t kCmdFlowBits = reg::CMD_PAUSE_IGNORE | reg::CMD_PFC_MODE | reg::CMD_PAUSE_FWD;

void Port::mac_config(bool enable, bool promisc, uint32_t frm_length)
{
	uint32_t cur = bar_->rd32(reg::mac_ch(port_, 0) + reg::MAC_COMMAND_CONFIG);
	uint32_t flow = (cur != 0 ? cur : reg::CMD_DEFAULT) & kCmdFlowBits;
	uint32_t cmd = reg::CMD_DEFAULT & ~(reg::CMD_PROMIS_EN | reg::CMD_TX_ENA | reg::CMD_RX_ENA);
	cmd = (cmd & ~kCmdFlowBits) | flow;
	if (enable)
		cmd |= reg::CMD_TX_ENA | reg::CMD_RX_ENA;
	if (promisc)
		cmd |= reg::CMD_PROMIS_EN;
	wr_lanes(reg::MAC_FRM_LENGTH, frm_length);
	wr_lanes(reg::MAC_COMMAND_CONFIG, cmd);
}

void Port::set_promisc(bool on)
{
	uint32_t cmd = bar_->rd32(reg::mac_ch(port_, 0) + reg::MAC_COMMAND_CONFIG);
	cmd = on ? (cmd | reg::CMD_PROMIS_EN) : (cmd & ~reg::CMD_PROMIS_EN);
	wr_lanes(reg::MAC_COMMAND_CONFIG, cmd);
}

void Port::set_mac_enable(bool on)
{
	uint32_t cmd = bar_->rd32(reg::mac_ch(port_, 0) + reg::MAC_COMMAND_CONFIG);
	uint32_t en = reg::CMD_TX_ENA | reg::CMD_RX_ENA;
	wr_lanes(reg::MAC_COMMAND_CONFIG, on ? (cmd | en) : (cmd & ~en));
}

namespace {
inline uint32_t mac_lo(const uint8_t *m)
{
	return m[0] | (m[1] << 8) | (m[2] << 16) | (uint32_t(m[3]) << 24);
}
inline uint32_t mac_hi(const uint8_t *m) { return m[4] | (m[5] << 8); }
} // namespace

void Port::set_uc_filter(unsigned i, const uint8_t *mac)
{
	uint32_t rxb = reg::rxb(port_);
	uint32_t valid = bar_->rd32(rxb + reg::rxb_uc_valid(port_));
	if (mac == nullptr) {
		bar_->wr32(rxb + reg::rxb_uc_valid(port_), valid & ~(1u << i));
		return;
	}
	/* Disable, write, enable: the filter never matches a half-written address. */
	bar_->wr32(rxb + reg::rxb_uc_valid(port_), valid & ~(1u << i));
	bar_->wr32(rxb + reg::rxb_uc_mac_31_0(port_, i), mac_lo(mac));
	bar_->wr32(rxb + reg::rxb_uc_mac_47_32(port_, i), mac_hi(mac));
	bar_->wr32(rxb + reg::rxb_uc_valid(port_), valid | (1u << i));
}

void Port::set_mc_filters(const uint8_t (*macs)[6], unsigned n)
{
	uint32_t rxb = reg::rxb(port_);
	bar_->wr32(rxb + reg::rxb_mc_valid(port_), 0);
	uint32_t valid = 0;
	for (unsigned i = 0; i < n && i < reg::kRxbMcFilters; i++) {
		bar_->wr32(rxb + reg::rxb_mc_mac_31_0(port_, i), mac_lo(macs[i]));
		bar_->wr32(rxb + reg::rxb_mc_mac_47_32(port_, i), mac_hi(macs[i]));
		valid |= 1u << i;
	}
	bar_->wr32(rxb + reg::rxb_mc_valid(port_), valid);
}

void Port::set_rs_fec(bool on)
{
	uint32_t off = reg::mac_core(port_) + reg::MAC_CORE_FEC91_CFG;
	uint32_t v = bar_->rd32(off);
	bar_->wr32(off, on ? (v | reg::fec91_lanes(port_)) : (v & ~reg::fec91_lanes(port_)));
}

bool Port::rs_fec() const
{
	uint32_t v = bar_->rd32(reg::mac_core(port_) + reg::MAC_CORE_FEC91_CFG);
	return (v & reg::fec91_lanes(port_)) == reg::fec91_lanes(port_);
}

uint64_t Port::fec_corrected() const
{
	uint32_t b = reg::mac_rs_fec(port_);
	return (bar_->rd32(b + reg::rsfec_ccw_lo(port_)) & 0xFFFF) |
	       ((bar_->rd32(b + reg::rsfec_ccw_hi(port_)) & 0xFFFF) << 16);
}

uint64_t Port::fec_uncorrected() const
{
	uint32_t b = reg::mac_rs_fec(port_);
	return (bar_->rd32(b + reg::rsfec_nccw_lo(port_)) & 0xFFFF) |
	       ((bar_->rd32(b + reg::rsfec_nccw_hi(port_)) & 0xFFFF) << 16);
}

void Port::set_flow(const FlowCfg &f)
{
	uint32_t cmd = bar_->rd32(reg::mac_ch(port_, 0) + reg::MAC_COMMAND_CONFIG);
	cmd &= ~kCmdFlowBits;
	if (!f.rx_pause)
		cmd |= reg::CMD_PAUSE_IGNORE;
	if (f.pfc)
		cmd |= reg::CMD_PFC_MODE;
	if (f.fwd)
		cmd |= reg::CMD_PAUSE_FWD;
	/* PFC: every class gets the quanta; link pause: class 0 only. */
	for (unsigned c = 0; c < 8; c += 2) {
		uint32_t q = (c == 0 || f.pfc) ? f.quanta : 0;
		uint32_t t = (c == 0 || f.pfc) ? f.thresh : 0;
		wr_lanes(reg::mac_pause_quanta(c), q | (q << 16));
		wr_lanes(reg::mac_quanta_thresh(c), t | (t << 16));
	}
	wr_lanes(reg::MAC_COMMAND_CONFIG, cmd);
	uint32_t rxb = reg::rxb(port_);
	/* [regs] thresholds are written as val | val << 13. */
	bar_->wr32(rxb + reg::rxb_xoff_threshold(port_), f.xoff | (f.xoff << 13));
	bar_->wr32(rxb + reg::rxb_xon_threshold(port_), f.xon | (f.xon << 13));
	uint32_t gp = bar_->rd32(reg::txb(port_) + reg::TXB_GLOBAL_PAUSE);
	uint32_t bit = 1u << (port_ & 1);
	bar_->wr32(reg::txb(port_) + reg::TXB_GLOBAL_PAUSE, f.tx_pause ? (gp | bit) : (gp & ~bit));
}

FlowCfg Port::flow() const
{
	FlowCfg f{};
	uint32_t cmd = bar_->rd32(reg::mac_ch(port_, 0) + reg::MAC_COMMAND_CONFIG);
	f.rx_pause = !(cmd & reg::CMD_PAUSE_IGNORE);
	f.pfc = cmd & reg::CMD_PFC_MODE;
	f.fwd = cmd & reg::CMD_PAUSE_FWD;
	f.quanta = bar_->rd32(reg::mac_ch(port_, 0) + reg::mac_pause_quanta(0)) & 0xFFFF;
	f.thresh = bar_->rd32(reg::mac_ch(port_, 0) + reg::mac_quanta_thresh(0)) & 0xFFFF;
	uint32_t rxb = reg::rxb(port_);
	f.xoff = bar_->rd32(rxb + reg::rxb_xoff_threshold(port_)) & 0x1FFF;
	f.xon = bar_->rd32(rxb + reg::rxb_xon_threshold(port_)) & 0x1FFF;
	f.tx_pause = bar_->rd32(reg::txb(port_) + reg::TXB_GLOBAL_PAUSE) & (1u << (port_ & 1));
	return f;
}

void Port::intr_enable(uint32_t index, bool on)
{
	uint32_t q = reg::qpc(port_), bit = reg::intr_bit(index);
	uint32_t en = bar_->rd32(q + reg::QPC_INTERRUPT_EN);
	uint32_t mask = bar_->rd32(q + reg::QPC_INTERRUPT_MASK);
	if (on) {
		bar_->wr32(q + reg::QPC_INTERRUPT_MASK, mask & ~bit);
		bar_->wr32(q + reg::QPC_INTERRUPT_EN, en | bit);
	} else {
		bar_->wr32(q + reg::QPC_INTERRUPT_EN, en & ~bit);
		bar_->wr32(q + reg::QPC_INTERRUPT_MASK, mask | bit);
	}
}

void Port::set_allmulti(bool on)
{
	bar_->wr32(reg::rxb(port_) + reg::rxb_raw_mcast_accept(port_), on ? 1 : 0);
}

void Port::set_frm_length(uint32_t frm_length) { wr_lanes(reg::MAC_FRM_LENGTH, frm_length); }

void Port::set_mac_addr(const uint8_t mac[6])
{
	uint32_t lo = mac[0] | (mac[1] << 8) | (mac[2] << 16) | (uint32_t(mac[3]) << 24);
	uint32_t hi = mac[4] | (mac[5] << 8);
	wr_lanes(reg::MAC_ADDR_0, lo);
	wr_lanes(reg::MAC_ADDR_1, hi);
	uint32_t rxb = reg::rxb(port_);
	bar_->wr32(rxb + reg::rxb_raw_mac_31_0(port_), lo);
	bar_->wr32(rxb + reg::rxb_raw_mac_47_32(port_), hi);
	bar_->wr32(rxb + reg::rxb_raw_mac_mask_31_0(port_), 0); /* mask 0 = exact match */
	bar_->wr32(rxb + reg::rxb_raw_mac_mask_47_32(port_), 0);
}

void Port::set_loopback(bool on)
{
	for (unsigned lane = 0; lane < kLanesPerPort; lane++) {
		uint32_t off = reg::mac_ch(port_, lane) + reg::PCS_CONTROL1;
		uint32_t v = bar_->rd32(off);
		v = on ? (v | reg::PCS_CONTROL1_LOOPBACK) : (v & ~reg::PCS_CONTROL1_LOOPBACK);
		bar_->wr32(off, v);
	}
}

bool Port::link_up() const
{
	uint32_t sts = bar_->rd32(reg::mac_core(port_) + reg::MAC_CORE_REC_STS0);
	/* 100G: one SerDes link bit per port is enough (mask 0x1) [regs gaudi2_cn_eq.c]. */
	return ((sts >> reg::rec_link_sts_shift(port_)) & 0x1) != 0;
}

uint64_t Port::stat(uint32_t off) const
{
	uint64_t lo = bar_->rd32(off);
	uint64_t hi = bar_->rd32(reg::mac_stat(port_) + reg::STAT_CONTROL_REG_DATA_HI);
	return lo | (hi << 32);
}

uint64_t Port::rx_stat(RxStat s) const
{
	return stat(reg::mac_stat(port_) + reg::stat_rx(port_) + 4 * static_cast<uint32_t>(s));
}

uint64_t Port::tx_stat(TxStat s) const
{
	return stat(reg::mac_stat(port_) + reg::stat_tx(port_) + 4 * static_cast<uint32_t>(s));
}

void Port::stats_reset()
{
	bar_->wr32(reg::mac_stat(port_) + reg::STAT_STATN_CONFIG, reg::statn_f_reset(port_));
}

bool Port::gateway(uint32_t ctrl, const uint32_t *data, const uint32_t *mask, uint32_t n)
{
	uint32_t q = reg::qpc(port_);
	for (uint32_t i = 0; i < 32; i++) {
		bar_->wr32(q + reg::QPC_GW_MASK_0 + 4 * i, i < n ? mask[i] : 0);
		if (i < n)
			bar_->wr32(q + reg::QPC_GW_DATA_0 + 4 * i, data[i]);
	}
	bar_->wr32(q + reg::QPC_GW_CTRL, ctrl);
	bar_->wr32(q + reg::QPC_GW_BUSY, 1);
	for (unsigned spin = 0; spin < 1000000; spin++)
		if (bar_->rd32(q + reg::QPC_GW_BUSY) == 0)
			return true;
	return false;
}

bool Port::qpc_write_req(const qpc::ReqImage &img)
{
	return gateway(reg::GW_CTRL_REQUESTER | kRawQpn, img.data.data(), img.mask.data(),
		       qpc::kReqDwords);
}

bool Port::qpc_write_res(const qpc::ResImage &img)
{
	return gateway(kRawQpn, img.data.data(), img.mask.data(), qpc::kResDwords);
}

uint32_t Port::mtu_code(uint32_t mtu)
{
	uint32_t l = std::bit_width(std::max<uint32_t>(mtu, 1024) - 1); /* ceil(log2) */
	return l - 10;
}

bool Port::tx_init(const TxRingCfg &cfg)
{
	uint32_t q = reg::qpc(port_), t = reg::txe(port_);
	bar_->wr64_split(q + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_63_32,
			 q + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_31_7, cfg.db_ci_iova);
	bar_->wr32(t + reg::TXE_SQ_BASE_ADDRESS_63_32_0, static_cast<uint32_t>(cfg.wq_iova >> 32));
	bar_->wr32(t + reg::TXE_SQ_BASE_ADDRESS_31_0_0, static_cast<uint32_t>(cfg.wq_iova));
	bar_->wr32(t + reg::TXE_LOG_MAX_WQ_SIZE_0, cfg.wq_log2 - 2);

	/* Requester QPC of the raw QP as gaudi2_en.c writes it [regs]. */
	qpc::ReqImage req;
	req.set(qpc::REQ_TS, qpc::TS_RAW);
	req.set(qpc::REQ_WQ_TYPE, qpc::WQ_TYPE_WRITE);
	req.set(qpc::REQ_LAST_IDX, (1u << cfg.wq_log2) - 1);
	req.set(qpc::REQ_EXECUTION_IDX, 0);
	req.set(qpc::REQ_MTU, mtu_code(cfg.mtu));
	req.set(qpc::REQ_BURST_SIZE, 1);
	req.set(qpc::REQ_DATA_MMU_BYPASS, 1);
	req.set(qpc::REQ_WQ_BACK_PRESSURE, 1);
	req.set(qpc::REQ_TRUST, qpc::TRUST_SECURED);
	req.set(qpc::REQ_PORT, 0);
	req.set(qpc::REQ_ERROR, 0);
	req.set(qpc::REQ_VALID, 1);
	return qpc_write_req(req);
}

bool Port::qpc_read_req(qpc::ReqImage *img)
{
	uint32_t q = reg::qpc(port_);
	if (!gateway(reg::GW_CTRL_READ | reg::GW_CTRL_REQUESTER | kRawQpn, img->data.data(),
		     img->mask.data(), qpc::kReqDwords))
		return false;
	for (uint32_t i = 0; i < qpc::kReqDwords; i++)
		img->data[i] = bar_->rd32(q + reg::QPC_GW_DATA_0 + 4 * i) & img->mask[i];
	return true;
}

bool Port::tx_resume(uint32_t exec)
{
	qpc::ReqImage req;
	req.set(qpc::REQ_EXECUTION_IDX, exec & WQ_IDX_MASK);
	req.set(qpc::REQ_ERROR, 0);
	req.set(qpc::REQ_VALID, 1);
	return qpc_write_req(req);
}

bool Port::tx_disable()
{
	qpc::ReqImage req;
	req.set(qpc::REQ_VALID, 0);
	return qpc_write_req(req);
}

bool Port::rx_init(const RxRingCfg &cfg)
{
	uint32_t r = reg::rxe(port_);
	bar_->wr32(r + reg::RXE_RAW_QPN_P0, kRawQpn);
	bar_->wr32(r + reg::RXE_RAW_BASE_LO_P0, static_cast<uint32_t>(cfg.slots_iova));
	bar_->wr32(r + reg::RXE_RAW_BASE_HI_P0, static_cast<uint32_t>(cfg.slots_iova >> 32));
	bar_->wr32(r + reg::RXE_RAW_MISC_P0,
		   (cfg.slot_log2 & reg::RAW_MISC_LOG_ELEM_MASK) |
			   ((cfg.count_log2 & reg::RAW_MISC_LOG_COUNT_MASK)
			    << reg::RAW_MISC_LOG_COUNT_SHIFT));
	bar_->wr64_split(r + reg::RXE_CQ_BASE_ADDR_63_32, r + reg::RXE_CQ_BASE_ADDR_31_7, cfg.cq_iova);
	bar_->wr32(r + reg::RXE_CQ_PI_ADDR_HI_0, static_cast<uint32_t>(cfg.cq_pi_iova >> 32));
	bar_->wr32(r + reg::RXE_CQ_PI_ADDR_LO_0, static_cast<uint32_t>(cfg.cq_pi_iova));
	bar_->wr32(r + reg::RXE_CQ_LOG_SIZE_0, cfg.count_log2);
	bar_->wr32(r + reg::RXE_CQ_CFG_0,
		   reg::CQ_CFG_ENABLE | reg::CQ_CFG_WRITE_PI_EN | reg::CQ_CFG_OVERRUN_EN);

	qpc::ResImage res;
	res.set(qpc::RES_TS, qpc::TS_RAW);
	res.set(qpc::RES_CQ_NUM, kRawCq);
	res.set(qpc::RES_MMU_BYPASS, 1);
	res.set(qpc::RES_PORT, 0);
	res.set(qpc::RES_VALID, 1);
	return qpc_write_res(res);
}

void Port::rx_disable()
{
	bar_->wr32(reg::rxe(port_) + reg::RXE_CQ_CFG_0, 0);
	qpc::ResImage res;
	res.set(qpc::RES_VALID, 0);
	qpc_write_res(res);
}

void Port::eq_init(const EqCfg &cfg)
{
	uint32_t q = reg::qpc(port_);
	bar_->wr64_split(q + reg::QPC_EVENT_QUE_BASE_ADDR_63_32, q + reg::QPC_EVENT_QUE_BASE_ADDR_31_7,
			 cfg.eq_iova);
	bar_->wr64_split(q + reg::QPC_EVENT_QUE_PI_ADDR_63_32, q + reg::QPC_EVENT_QUE_PI_ADDR_31_7,
			 cfg.pi_iova);
	bar_->wr32(q + reg::QPC_EVENT_QUE_LOG_SIZE, cfg.log2);
	bar_->wr32(q + reg::QPC_EVENT_QUE_CONSUMER_INDEX, 0);
	bar_->wr32(q + reg::QPC_EVENT_QUE_CFG,
		   reg::EVENT_QUE_CFG_ENABLE | reg::EVENT_QUE_CFG_WRITE_PI_EN |
			   reg::EVENT_QUE_CFG_INTERRUPT_PER_EQE);
}

void Port::eq_disable() { bar_->wr32(reg::qpc(port_) + reg::QPC_EVENT_QUE_CFG, 0); }

} // namespace gaudi::hw
