/* SPDX-License-Identifier: BSD-3-Clause */
#include "gaudi_port.h"

#include <bit>

namespace gaudi::hw {

void Port::wr_lanes(uint32_t reg_in_ch, uint32_t val)
{
	for (unsigned lane = 0; lane < kLanesPerPort; lane++)
		bar_->wr32(reg::mac_ch(port_, lane) + reg_in_ch, val);
}

void Port::mac_config(bool enable, bool promisc, uint32_t frm_length)
{
	uint32_t cmd = reg::CMD_DEFAULT & ~(reg::CMD_PROMIS_EN | reg::CMD_TX_ENA | reg::CMD_RX_ENA);
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
		   reg::EVENT_QUE_CFG_ENABLE | reg::EVENT_QUE_CFG_WRITE_PI_EN);
}

void Port::eq_disable() { bar_->wr32(reg::qpc(port_) + reg::QPC_EVENT_QUE_CFG, 0); }

} // namespace gaudi::hw
