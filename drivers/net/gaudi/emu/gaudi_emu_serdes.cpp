/* SPDX-License-Identifier: BSD-3-Clause
 * [phy] Model of the NIC SerDes of a macro (one per port: SerDes 0 the even port's, SerDes 1
 * the odd port's) and of the PHY block's TX lane swap: the MCU (firmware load through FW0 /
 * FW1 / FW2, mailbox 9815 / 9816 / 9812), the lanes' configuration registers, and what the
 * link needs of them. The register protocol is the one hbl_cn/gaudi2/gaudi2_cn_phy.c drives
 * (base/gaudi_serdes.h); what the MCU does inside is not published: [model] marks this
 * model's answers, listed in doc/guides/gaudi_hw_model.rst ("PHY").
 */
#include "gaudi_emu_impl.h"

#include "../base/gaudi_serdes.h"

namespace gaudi::emu {

using namespace detail;
using namespace hw::serdes;

namespace {

/* [choice] The CRC the MCU reports (command 0xF001): CRC-16/CCITT-FALSE (poly 0x1021, init
 * 0xFFFF, no reflection) over the 16-bit words of every section taken, in load order. */
uint16_t crc16_word(uint16_t crc, uint16_t w)
{
	for (int b = 1; b >= 0; b--) {
		crc ^= uint16_t((w >> (8 * b)) & 0xFF) << 8;
		for (int i = 0; i < 8; i++)
			crc = (crc & 0x8000) ? uint16_t((crc << 1) ^ 0x1021) : uint16_t(crc << 1);
	}
	return crc;
}
/* [choice] The hash (command 0xF000, 24 bits): FNV-1a 32 of the same words, low 24 bits. */
uint32_t fnv_word(uint32_t h, uint16_t w)
{
	h = (h ^ (w >> 8)) * 16777619u;
	return (h ^ (w & 0xFF)) * 16777619u;
}

/* Lane registers and global registers the public driver writes or reads. */
constexpr uint32_t kLaneRegs[] = {R_0P11, R_0P41, R_0P42, R_0P43, R_0PA0, R_0PA1, R_0PA2,
				  R_0PA3, R_0PA4, R_0PA5, R_0PA7, R_0PA9, R_0PAB, R_0PAD,
				  R_0PAF, R_0PB0, R_0PCC, R_0PEA, R_0PF8, R_0N0B, R_0N0C,
				  R_0N61, R_0NF3, R_0NF5_FRACN, R_0NF8, R_AN10, R_AJ40};
constexpr uint32_t kGlobalRegs[] = {R_980D, R_980F, R_9812, R_9814, R_9815, R_9816, R_9825,
				    R_982E};

/* [model] rv_debug's adaptation state while the F/W is still tuning a lane. */
constexpr uint32_t kAdapting = 0x8000;
/* [choice] Response nibble of a command the MCU does not take. */
constexpr uint32_t kResRefused = 0x3;

} /* namespace */

void Device::Impl::serdes_mark_map()
{
	for (unsigned m = 0; m < kMacros; m++)
		for (unsigned s = 0; s < kPortsPerMacro; s++) {
			uint32_t b = m * kMacroStride + serdes::base(s);
			for (uint32_t r : kLaneRegs)
				for (unsigned l = 0; l < kLanesPerPort; l++)
					map_[(b + lane_reg(r, l)) / 4] |= kKnown;
			for (uint32_t r : kGlobalRegs)
				map_[(b + r) / 4] |= kKnown;
			for (uint32_t i = 0; i < 16; i++)
				map_[(b + R_9F00 + 4 * i) / 4] |= kKnown;
		}
}

uint32_t Device::Impl::serdes_rd(unsigned p, uint32_t r) const
{
	return rd(serdes::base(p) + r);
}

/* ---- register writes ---- */

void Device::Impl::on_serdes_write(unsigned p, uint32_t r, uint32_t val, uint32_t old)
{
	(void)old;
	const uint32_t b = serdes::base(p);
	{
		SpinGuard g(ctrl_lock_);
		SerdesModel &s = serdes_[p];
		auto lanes_reset = [&s] {
			for (unsigned l = 0; l < kLanesPerPort; l++) {
				s.lane_started[l] = false;
				s.silenced[l] = false;
				s.vco[l] = 0;
			}
		};
		if (r == R_980D) {
			uint32_t v = F_980D_DOMAIN_RESET.get(val);
			if (v == kResetCpu && rd(b + R_9814) == kFwExecCtrlHalt) {
				/* [model] CPU reset of a halted MCU: it waits for a new image and
				 * acknowledges by clearing FW2 [fw_load_all polls 9814 to 0]. */
				if (cfg_.phy_fault != PhyFault::load_stuck) {
					s.mcu = SerdesModel::Mcu::loading;
					s.sections = s.bad_sections = 0;
					s.crc = 0xFFFF;
					s.hash = 0x811C9DC5u;
					wr(b + R_9814, 0);
				}
				lanes_reset();
			} else if (v == kResetCpu || v == kResetSoft || v == kResetLogic) {
				/* [model] a running F/W restarts: the lanes wait for fw_start again */
				lanes_reset();
			}
		} else if (r == R_9F0F && s.mcu == SerdesModel::Mcu::loading) {
			uint32_t sum = val + rd(b + R_9F0C) + rd(b + R_9F0D) + rd(b + R_9F0E);
			if (val == kSectionCmd) {
				for (uint32_t j = 0; j < kSectionWords; j++)
					sum += rd(b + R_9F00 + 4 * j);
				if ((sum & 0xFFFF) == 0) {
					for (uint32_t j = 0; j < kSectionWords; j++) {
						uint16_t w = uint16_t(rd(b + R_9F00 + 4 * j));
						s.crc = crc16_word(s.crc, w);
						s.hash = fnv_word(s.hash, w);
					}
					s.sections++;
					wr(b + R_9F0F, 0); /* [model] taken */
				} else {
					/* [model] refused: 9F0F stays 0x800C, the loader times out */
					s.bad_sections++;
				}
			} else if (val == kExecCmd && (sum & 0xFFFF) == 0 && s.sections > 0) {
				s.mcu = SerdesModel::Mcu::running;
				lanes_reset();
				wr(b + R_9F0F, 0);
			}
		} else if (r == R_9815) {
			serdes_command(p, val);
		}
	}
	if (cfg_.phy_link)
		update_link(p);
}

void Device::Impl::on_phy_write(unsigned p, uint32_t r, uint32_t val)
{
	(void)val;
	if (r != reg::PHY_PHY_ASYNC_LANE_SWAP || !cfg_.phy_link)
		return;
	for (unsigned s = 0; s < kPortsPerMacro; s++)
		if (p + s < cfg_.nports)
			update_link(p + s);
}

/* The MCU's mailbox (under ctrl_lock): the answer replaces the command in 9815 with the
 * response nibble in bits 11:8 ([choice] the command's other bits kept), values in 9816 or
 * 9812. A MCU that is not running answers nothing. */
void Device::Impl::serdes_command(unsigned p, uint32_t cmd)
{
	SerdesModel &s = serdes_[p];
	const uint32_t b = serdes::base(p);
	if (s.mcu != SerdesModel::Mcu::running || cfg_.phy_fault == PhyFault::mcu_silent)
		return;
	const uint32_t detail = rd(b + R_9816);
	const unsigned lane = cmd & 0xF;
	auto answer = [&](uint32_t code, uint32_t low) {
		wr(b + R_9815, (cmd & 0xF000) | (code << 8) | (low & 0xFF));
		s.commands++;
	};
	switch (cmd >> 12) {
	case 0x9: /* silence the F/W RX tuning of a lane (port stop); no answer awaited */
		if (lane < kLanesPerPort)
			s.silenced[lane] = true;
		return;
	case 0x8: {
		uint32_t kind = cmd & 0xFF0;
		bool pam4 = kind == (kCmdStartPam4 & 0xFF0);
		if ((pam4 || kind == (kCmdStartNrz & 0xFF0)) && lane < kLanesPerPort &&
		    (detail & 0xFF) == (pam4 ? kSpeedPam4 : kSpeedNrz)) {
			s.lane_started[lane] = true;
			s.lane_pam4[lane] = pam4;
			s.silenced[lane] = false;
			answer(kResStart, cmd);
		} else {
			answer(kResRefused, cmd);
		}
		return;
	}
	case 0x7:
		answer(kResStartTx, cmd);
		return;
	case 0x6: {
		uint32_t mode = (cmd >> 4) & 0xF;
		if (mode >= 1 && mode <= 4 && lane < kLanesPerPort) {
			s.vco[lane] |= uint8_t(1u << (mode - 1));
			answer(kResConfig, cmd);
		} else {
			answer(kResRefused, cmd);
		}
		return;
	}
	case 0xE:
		if ((cmd == kCmdGetFwReg || cmd == kCmdSetFwReg) && detail < s.fw_regs.size()) {
			if (cmd == kCmdGetFwReg)
				wr(b + R_9812, s.fw_regs[detail]);
			else
				s.fw_regs[detail] = rd(b + R_9812) & 0xFFFF;
			answer(kResConfig, cmd);
		} else {
			answer(kResRefused, cmd);
		}
		return;
	case 0xB: {
		uint32_t mode = (cmd >> 4) & 0xF, v = 0;
		if (detail == 0 && (mode == 1 || mode == 2) && lane < kLanesPerPort)
			v = lane_tuned(p, lane) ? (s.lane_pam4[lane] ? kTunedPam4 : kTunedNrz)
						: kAdapting;
		wr(b + R_9816, v);
		answer(kResDebug, cmd);
		return;
	}
	case 0xF:
		if (cmd == kCmdCrc) {
			wr(b + R_9816, cfg_.phy_fw_crc != 0 ? cfg_.phy_fw_crc : s.crc);
			answer(kResInfo, cmd);
		} else if (cmd == kCmdHash) {
			wr(b + R_9816, s.hash & 0xFFFF);
			answer(kResInfo, (s.hash >> 16) & 0xFF);
		} else {
			answer(kResRefused, cmd);
		}
		return;
	default:
		answer(kResRefused, cmd);
	}
}

/* ---- what the link needs (under ctrl_lock) ---- */

/* The port whose TX lanes reach p's RX lanes: the other end of a pair cable, p itself on a
 * loopback cable, none (-1) when the far end is outside the model (pcap, TAP, UDP). */
int Device::Impl::phy_peer(unsigned p) const
{
	switch (cfg_.wire) {
	case Wire::pair:
		return (p ^ 1) < cfg_.nports ? int(p ^ 1) : -1;
	case Wire::loopback:
		return int(p);
	default:
		return -1;
	}
}

/* A TX lane sends: F/W running, go bit, lane started, TX driver powered. */
bool Device::Impl::tx_lane_on(unsigned q, unsigned l) const
{
	const SerdesModel &s = serdes_[q];
	return s.mcu == SerdesModel::Mcu::running && (serdes_rd(q, R_980F) & k980fGo) &&
	       s.lane_started[l] && F_0NF8_PU_VDRV.get(serdes_rd(q, lane_reg(R_0NF8, l)));
}

/* The far TX lane sends in the mode p's lane listens in ([model] lane l to lane l). */
bool Device::Impl::lane_signal(unsigned p, unsigned l) const
{
	int q = phy_peer(p);
	if (q < 0)
		return tx_lane_on(p, l); /* [model] the outside end answers our own signal */
	return tx_lane_on(unsigned(q), l) && serdes_[q].lane_pam4[l] == serdes_[p].lane_pam4[l];
}

/* rv_debug's tuned state: the F/W runs and adapted a started, unsilenced lane whose RX PLL is
 * set (vcocap modes 1-4 and the lock enable) and that hears a signal. [model] at once. */
bool Device::Impl::lane_tuned(unsigned p, unsigned l) const
{
	const SerdesModel &s = serdes_[p];
	if (s.mcu != SerdesModel::Mcu::running || !(serdes_rd(p, R_980F) & k980fGo) ||
	    !s.lane_started[l] || s.silenced[l] || s.vco[l] != 0xF)
		return false;
	bool lock = l == 0 ? F_9825_PLL_0_LOCK_EN.get(serdes_rd(p, R_9825))
			   : F_982E_PLL_1_LOCK_EN.get(serdes_rd(p, R_982E));
	bool pam4_rx = F_0P41_PAM4_EN.get(serdes_rd(p, lane_reg(R_0P41, l)));
	return lock && pam4_rx == s.lane_pam4[l] && lane_signal(p, l);
}

/* [model] The data the PCS sees on lane l of p is right when the inversions along the way
 * cancel: far TX flip ^ board TX inversion ^ board RX inversion ^ RX flip == 0, and both
 * ends agree on PAM4 gray coding. An outside far end is taken as configured for the board. */
bool Device::Impl::lane_data_ok(unsigned p, unsigned l) const
{
	const unsigned a = (p << 1) + l;
	const bool pam4 = serdes_[p].lane_pam4[l];
	uint32_t rx_flip = pam4 ? F_0P43_RX_DATA_FLIP.get(serdes_rd(p, lane_reg(R_0P43, l)))
				: F_0N61_PRBS_CHECK_FLIP.get(serdes_rd(p, lane_reg(R_0N61, l)));
	uint32_t chain = rx_flip ^ uint32_t((cfg_.phy_pol_rx >> a) & 1);
	int q = phy_peer(p);
	unsigned tx = q < 0 ? p : unsigned(q);
	uint32_t tx_flip = F_0PA0_TX_ANA_OUT_FLIP.get(serdes_rd(tx, lane_reg(R_0PA0, l)));
	uint32_t tx_chain = tx_flip ^ uint32_t((cfg_.phy_pol_tx >> ((tx << 1) + l)) & 1);
	if (q < 0) /* both halves must be right on their own */
		return chain == 0 && tx_chain == 0;
	if ((chain ^ tx_chain) != 0)
		return false;
	if (pam4) {
		uint32_t g_tx = F_0PAF_TX_GRAYCODE_EN.get(serdes_rd(tx, lane_reg(R_0PAF, l)));
		uint32_t g_rx = F_0P42_RX_GRAYCODE_EN.get(serdes_rd(p, lane_reg(R_0P42, l)));
		if (g_tx != g_rx)
			return false;
	}
	return true;
}

/* The PHY side of p's link: the macros' TX lane swap as the board needs it (p's, and the far
 * end's), and both lanes tuned with the right data. */
bool Device::Impl::phy_link_ok(unsigned p) const
{
	int q = phy_peer(p);
	for (unsigned port : {p, q < 0 ? p : unsigned(q)}) {
		unsigned m = port / kPortsPerMacro;
		uint32_t want = lane_swap_from_fw(cfg_.phy_tx_swap[m]);
		if (rd(reg::phy(port) + reg::PHY_PHY_ASYNC_LANE_SWAP) != want)
			return false;
	}
	for (unsigned l = 0; l < kLanesPerPort; l++)
		if (!lane_tuned(p, l) || !lane_data_ok(p, l))
			return false;
	return true;
}

/* ---- facade ---- */

PhyState Device::phy_state(unsigned port) const
{
	PhyState st{};
	if (port >= impl_->cfg_.nports)
		return st;
	SpinGuard g(impl_->ctrl_lock_);
	const SerdesModel &s = impl_->serdes_[port];
	st.mcu_running = s.mcu == SerdesModel::Mcu::running;
	st.sections = s.sections;
	st.bad_sections = s.bad_sections;
	st.crc = impl_->cfg_.phy_fw_crc != 0 ? impl_->cfg_.phy_fw_crc : s.crc;
	st.go = impl_->serdes_rd(port, R_980F) & k980fGo;
	for (unsigned l = 0; l < kLanesPerPort; l++) {
		st.lane_started[l] = s.lane_started[l];
		st.lane_tuned[l] = impl_->lane_tuned(port, l);
		st.tx_on[l] = F_0NF8_PU_VDRV.get(impl_->serdes_rd(port, lane_reg(R_0NF8, l)));
	}
	st.link_ok = impl_->phy_link_ok(port);
	st.commands = s.commands;
	return st;
}

/* [model] The built-in PHY image: gaudi2_cn_fw.bin's layout (4 KB, then hash, CRC, date,
 * big-endian entry point, length and RAM address, then the code as BE16 words), with a
 * banner in the first 4 KB and a counting pattern as code. */
std::vector<uint8_t> Device::phy_fw_image()
{
	constexpr uint32_t kLen = 2400, kEntry = 0x00010000, kRam = 0x00010000;
	std::vector<uint8_t> img(kImageSkip + kImageHeader + kLen, 0);
	const char banner[] = "gaudi2 emu PHY firmware stand-in";
	std::memcpy(img.data(), banner, sizeof(banner));
	auto put32 = [&img](size_t off, uint32_t v) {
		for (int i = 0; i < 4; i++)
			img[off + i] = uint8_t(v >> (24 - 8 * i));
	};
	put32(kImageSkip + kImageEntryOff, kEntry);
	put32(kImageSkip + kImageLengthOff, kLen);
	put32(kImageSkip + kImageRamAddrOff, kRam);
	for (uint32_t i = 0; i < kLen; i++)
		img[kImageSkip + kImageHeader + i] = uint8_t(i * 37 + (i >> 8));
	return img;
}

} /* namespace gaudi::emu */
