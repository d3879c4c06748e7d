/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC PHY bring-up, host side. See gaudi_phy.h; every step follows the function of
 * hbl_cn/gaudi2/gaudi2_cn_phy.c it names.
 */
#include "gaudi_phy.h"

#include <cstdio>

#include <rte_cycles.h>

#include "gaudi_regs.h"
#include "gaudi_serdes.h"

namespace gaudi::hw {

using namespace serdes;

namespace {

void default_sleep(uint32_t us)
{
	rte_delay_us_sleep(us);
}

uint32_t be32(const uint8_t *p)
{
	return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

/* Two's complement of a tap in 8 bits [int_to_twos]. */
uint32_t twos8(int32_t v)
{
	return v < 0 ? uint32_t((1 << 8) + v) : uint32_t(v);
}

/* Shift of a field's lsb, as __ffs(mask) in the NIC_PHY_RMWREG32 macros. */
uint32_t ffs32(uint32_t mask)
{
	return mask == 0 ? 0 : uint32_t(__builtin_ctz(mask));
}

/* tx_taps_set_array[NIC_PHY_TX_TAPS_SET_1]: the default set of both lanes (tx_taps_cfg 0)
 * [gaudi2_cn_phy.c set_default_tx_taps_values, set_tx_taps_cfg]. */
constexpr int32_t kPam4Taps[5] = {2, -10, 23, 0, 0};
constexpr int32_t kNrzTaps[5] = {0, -10, 26, 0, 0};

} /* namespace */

Phy::Phy(Bar &nic, uint64_t ports_mask, const PhyTimings &t, SleepFn sleep)
    : nic_(nic), ports_mask_(ports_mask), t_(t), sleep_(sleep ? sleep : default_sleep)
{
}

void Phy::sleep(uint32_t us) const
{
	if (us != 0)
		sleep_(us);
}

PhyErr Phy::fail(PhyErr e, std::string msg)
{
	err_ = std::move(msg);
	return e;
}

/* ---- register access [NIC_PHY_RREG32 / WREG32 / RMWREG32 and their _LANE forms] ---- */

uint32_t Phy::rd(unsigned port, uint32_t r) const
{
	return nic_.rd32(base(port) + r);
}
void Phy::wr(unsigned port, uint32_t r, uint32_t v)
{
	nic_.wr32(base(port) + r, v);
}
void Phy::rmw(unsigned port, uint32_t r, uint32_t val, uint32_t mask)
{
	uint32_t v = rd(port, r) & ~mask;
	wr(port, r, v | ((val << ffs32(mask)) & mask));
}
uint32_t Phy::rd_lane(unsigned port, unsigned lane, uint32_t r) const
{
	return rd(port, lane_reg(r, lane));
}
void Phy::wr_lane(unsigned port, unsigned lane, uint32_t r, uint32_t v)
{
	wr(port, lane_reg(r, lane), v);
}
void Phy::rmw_lane(unsigned port, unsigned lane, uint32_t r, uint32_t val, uint32_t mask)
{
	rmw(port, lane_reg(r, lane), val, mask);
}

void Phy::write_all(uint32_t r, uint32_t v)
{
	for (unsigned p = 0; p < kMaxPorts; p++)
		if (ports_mask_ & (uint64_t(1) << p))
			wr(p, r, v);
}
void Phy::write_all_lanes(uint32_t r, uint32_t v)
{
	for (unsigned p = 0; p < kMaxPorts; p++)
		if (ports_mask_ & (uint64_t(1) << p))
			for (unsigned l = 0; l < kLanesPerPort; l++)
				wr_lane(p, l, r, v);
}

/* ---- mailbox ---- */

/* fw_cmd: optional detail into 9816, the command into 9815, then 9815 is polled until it
 * differs from the command; its response nibble must be the expected one. The first read
 * comes before the first sleep (the model has answered by then). */
PhyErr Phy::fw_cmd(unsigned port, uint32_t cmd, const uint32_t *detail, uint32_t expected,
		   uint32_t *res)
{
	if (detail != nullptr)
		wr(port, R_9816, *detail);
	wr(port, R_9815, cmd);
	uint32_t v = rd(port, R_9815);
	for (uint32_t checks = 0; v == cmd; v = rd(port, R_9815)) {
		if (checks++ > t_.max_polls) {
			char m[96];
			snprintf(m, sizeof(m), "PHY F/W command 0x%x on port %u timed out", cmd,
				 port);
			return fail(PhyErr::cmd_timeout, m);
		}
		sleep(t_.cmd_poll_us);
	}
	uint32_t got = F_9815_RESPONSE.get(v);
	if (got != expected) {
		char m[112];
		snprintf(m, sizeof(m),
			 "PHY F/W command 0x%x on port %u answered 0x%x (response 0x%x, "
			 "expected 0x%x)",
			 cmd, port, v, got, expected);
		return fail(PhyErr::cmd_error, m);
	}
	if (res != nullptr)
		*res = v;
	return PhyErr::ok;
}

uint32_t Phy::rv_debug(unsigned port, unsigned lane, uint32_t mode, uint32_t index)
{
	uint32_t cmd = kCmdRvDebug + ((mode & 0xF) << 4) + lane;
	fw_cmd(port, cmd, &index, kResDebug, nullptr);
	return rd(port, R_9816);
}

uint32_t Phy::get_fw_reg(unsigned port, uint32_t addr)
{
	fw_cmd(port, kCmdGetFwReg, &addr, kResConfig, nullptr);
	return rd(port, R_9812);
}

PhyErr Phy::set_fw_reg(unsigned port, uint32_t addr, uint32_t val)
{
	wr(port, R_9812, val);
	return fw_cmd(port, kCmdSetFwReg, &addr, kResConfig, nullptr);
}

/* ---- firmware ---- */

void Phy::set_lane_map(std::span<const uint16_t> tx_swap_map)
{
	for (unsigned m = 0; m < kMacros; m++)
		lane_map_[m] = m < tx_swap_map.size() ? lane_swap_from_fw(tx_swap_map[m]) : 0;
}

bool Phy::parse_image(std::span<const uint8_t> file, PhyImage *img, std::string *err)
{
	if (file.size() < kImageSkip + kImageHeader) {
		*err = "is " + std::to_string(file.size()) + " bytes, shorter than a PHY image (" +
		       std::to_string(kImageSkip + kImageHeader) + ")";
		return false;
	}
	const uint8_t *h = file.data() + kImageSkip;
	img->entry = be32(h + kImageEntryOff);
	img->length = be32(h + kImageLengthOff);
	img->ram_addr = be32(h + kImageRamAddrOff);
	img->data = file.subspan(kImageSkip + kImageHeader);
	/* [choice] hbl_cn reads the words without a bound and pads past `length` with zeros;
	 * a length beyond the file is refused here rather than read past the end. */
	if (img->length > img->data.size()) {
		*err = "declares " + std::to_string(img->length) + " bytes of code but holds " +
		       std::to_string(img->data.size());
		return false;
	}
	return true;
}

/* fw_unload_all: MCUs halted and reset, then the PAM4 and NRZ state machines toggled. */
void Phy::fw_unload_all()
{
	write_all(R_9814, kFwExecCtrlHalt);
	for (unsigned p = 0; p < kMaxPorts; p++)
		if (ports_mask_ & (uint64_t(1) << p))
			domain_reset(p, kResetCpu);
	sleep(t_.unload_us);
	write_all(R_9814, 0);
	write_all_lanes(R_0P11, 0);
	sleep(t_.toggle_us);
	write_all_lanes(R_0P11, k0P11SmCont);
	write_all_lanes(R_0N0B, 0);
	write_all_lanes(R_0N0C, 0);
	sleep(t_.toggle_us);
	write_all_lanes(R_0N0C, k0N0CNrzCont);
}

/* gaudi2_cn_phy_fw_load_all. */
PhyErr Phy::load_firmware(std::span<const uint8_t> file, const std::string &source)
{
	if (ports_mask_ == 0)
		return PhyErr::ok;
	unsigned first = unsigned(__builtin_ctzll(ports_mask_));
	PhyImage img;
	std::string why;
	if (!parse_image(file, &img, &why))
		return fail(PhyErr::image, "PHY firmware " + source + " " + why);
	fw_unload_all();

	write_all(R_9814, kFwExecCtrlHalt); /* FW2 */
	write_all(R_980D, kResetCpu);	    /* FW1 */
	write_all(R_980D, 0);
	uint32_t status = rd(first, R_9814);
	for (uint32_t checks = 0; status != 0; status = rd(first, R_9814)) {
		if (checks++ > t_.max_polls) {
			char m[120];
			snprintf(m, sizeof(m), "PHY firmware load: FW2 (9814) stuck at 0x%x", status);
			return fail(PhyErr::load_timeout, m);
		}
		sleep(t_.load_poll_us);
	}
	write_all(R_9814, 0);

	/* Sections of 12 words, the last padded with zeros; one more than length / 24 when it
	 * divides evenly, as the public loop (i <= sections) does. */
	uint32_t sections = (img.length + kSectionBytes - 1) / kSectionBytes;
	uint32_t ram = img.ram_addr, ptr = 0;
	for (uint32_t i = 0; i <= sections; i++) {
		uint32_t sum = kSectionCmd;
		write_all(R_9F0C, ram >> 16);
		write_all(R_9F0D, ram & 0xFFFF);
		sum += (ram >> 16) + (ram & 0xFFFF);
		for (uint32_t j = 0; j < kSectionWords; j++) {
			uint32_t w = 0;
			if (ptr < img.length) /* a BE16 word; an odd length's last byte is 0-padded */
				w = (uint32_t(img.data[ptr]) << 8) |
				    (ptr + 1 < img.data.size() ? img.data[ptr + 1] : 0);
			write_all(R_9F00 + 4 * j, w);
			sum += w;
			ptr += 2;
			ram += 2;
		}
		write_all(R_9F0E, (~sum + 1) & 0xFFFF);
		write_all(R_9F0F, kSectionCmd);
		status = rd(first, R_9F0F);
		for (uint32_t checks = 0; status == kSectionCmd; status = rd(first, R_9F0F)) {
			if (checks++ > t_.max_polls) {
				char m[120];
				snprintf(m, sizeof(m),
					 "PHY firmware load: section %u of %s not taken (FW0 9F0F "
					 "stuck at 0x%x)",
					 i, source.c_str(), status);
				return fail(PhyErr::load_timeout, m);
			}
			sleep(t_.section_poll_us);
		}
	}
	write_all(R_9F0C, img.entry >> 16);
	write_all(R_9F0D, img.entry & 0xFFFF);
	uint32_t sum = (img.entry >> 16) + (img.entry & 0xFFFF) + kExecCmd;
	write_all(R_9F0E, (~sum + 1) & 0xFFFF);
	write_all(R_9F0F, kExecCmd);
	sleep(t_.exec_us);

	uint32_t res = 0;
	PhyErr e = fw_cmd(first, kCmdCrc, nullptr, kResInfo, &res);
	if (e != PhyErr::ok)
		return e;
	crc_ = rd(first, R_9816);
	e = fw_cmd(first, kCmdHash, nullptr, kResInfo, &res);
	if (e != PhyErr::ok)
		return e;
	hash_ = ((res & 0xFF) << 16) | rd(first, R_9816);

	/* mcu_cal_enable_all */
	for (unsigned p = 0; p < kMaxPorts; p++) {
		if (!(ports_mask_ & (uint64_t(1) << p)))
			continue;
		e = set_fw_reg(p, kFwRegTimeConst, kTimeConstantRatio);
		if (e != PhyErr::ok)
			return fail(e, "PHY MCU calibration of port " + std::to_string(p) +
					       " failed: " + err_);
	}
	return PhyErr::ok;
}

/* gaudi2_cn_phy_init: is_old_phy_fw_loaded. [choice] The AN/LT image (CRC 0x185E) changes
 * nothing here: this driver never enables auto-negotiation. */
PhyErr Phy::check_firmware()
{
	if (ports_mask_ == 0)
		return PhyErr::ok;
	unsigned first = unsigned(__builtin_ctzll(ports_mask_));
	uint32_t res = 0;
	PhyErr e = fw_cmd(first, kCmdCrc, nullptr, kResInfo, &res);
	if (e != PhyErr::ok)
		return e;
	crc_ = rd(first, R_9816);
	if (crc_ == kCrcOldFw) {
		char m[96];
		snprintf(m, sizeof(m), "PHY F/W is very old (CRC 0x%x): not supported", crc_);
		return fail(PhyErr::old_fw, m);
	}
	return PhyErr::ok;
}

/* ---- ports ---- */

void Phy::domain_reset(unsigned port, uint32_t v)
{
	rmw(port, R_980D, v, F_980D_DOMAIN_RESET.mask());
	rmw(port, R_980D, 0, F_980D_DOMAIN_RESET.mask());
}

/* phy_port_reset: soft reset, clock_init per lane, CPU reset, logic reset. */
void Phy::port_reset(unsigned port)
{
	domain_reset(port, kResetSoft);
	sleep(t_.settle_us);
	for (unsigned l = 0; l < kLanesPerPort; l++) {
		wr_lane(port, l, R_0PCC, clock_init_0pcc(port, l));
		wr_lane(port, l, R_0NF3, clock_init_0nf3(port, l));
	}
	domain_reset(port, kResetCpu);
	domain_reset(port, kResetLogic);
	sleep(t_.settle_us);
}

void Phy::reset_macro(unsigned macro)
{
	unsigned even = macro * kPortsPerMacro;
	nic_.wr32(reg::phy(even) + reg::PHY_PHY_IDDQ_0, 0);
	nic_.wr32(reg::phy(even) + reg::PHY_PHY_IDDQ_1, 0);
	port_reset(even);
	port_reset(even + 1);
}

void Phy::lane_remap(unsigned port)
{
	uint32_t v = lane_swap(port / kPortsPerMacro);
	if (v != 0)
		nic_.wr32(reg::phy(port) + reg::PHY_PHY_ASYNC_LANE_SWAP, v);
}

/* set_tx_taps_cfg(cfg 0, no reset) -> set_tx_taps with tx_taps_set_array[SET_1]. */
void Phy::set_tx_taps(unsigned port, unsigned lane, bool pam4)
{
	const int32_t *t = pam4 ? kPam4Taps : kNrzTaps;
	rmw_lane(port, lane, R_0PA5, twos8(t[0]), F_0PA5_TX_PRE_2.mask());
	rmw_lane(port, lane, R_0PA7, twos8(t[1]), F_0PA7_TX_PRE_1.mask());
	rmw_lane(port, lane, R_0PA9, twos8(t[2]), F_0PA9_TX_MAIN.mask());
	rmw_lane(port, lane, R_0PAB, twos8(t[3]), F_0PAB_TX_POST_1.mask());
	rmw_lane(port, lane, R_0PAD, twos8(t[4]), F_0PAD_TX_POST_2.mask());
}

/* fw_config_speed_pam4 / fw_config_speed_nrz without link training: the TX lane is the
 * port's own (get_tx_port_and_lane swaps only with auto-negotiation). */
PhyErr Phy::config_lane(unsigned port, unsigned l, bool pam4)
{
	const unsigned abs = (port << 1) + l;
	const uint32_t tx_pol = (pol_tx_ >> abs) & 1, rx_pol = (pol_rx_ >> abs) & 1;
	if (pam4) {
		/* init_pam4_tx, init_pam4_rx */
		wr_lane(port, l, R_0PA1, 0);
		wr_lane(port, l, R_0PA2, 0);
		wr_lane(port, l, R_0PA3, 0);
		wr_lane(port, l, R_0PA4, 0);
		wr_lane(port, l, R_0PA0, 0x6320); /* data quiet */
		wr_lane(port, l, R_0PAF, 0xFAC9); /* auto symmetric, scale */
		wr_lane(port, l, R_0PB0, 0x4000); /* data, PRBS */
		wr_lane(port, l, R_0PA5, 0x100);  /* cursor -2 */
		wr_lane(port, l, R_0PA7, 0xF900); /* cursor -1 */
		wr_lane(port, l, R_0PA9, 0x1700); /* main */
		wr_lane(port, l, R_0PAB, 0);	  /* cursor +1 */
		wr_lane(port, l, R_0PAD, 0);	  /* cursor +2 */
		rmw_lane(port, l, R_0PF8, 1, F_0PF8_AC_COUPLE_EN.mask());
		/* Disable AN/LT lane swapping */
		rmw_lane(port, l, R_AJ40, 0, F_AJ40_ANLT_LANE_SWAPPING_EN.mask());
	}
	/* lane_swapping_config (no AN, no LT, no swap): the lane's LT option bit cleared. */
	uint32_t lt = get_fw_reg(port, kFwRegLtOption);
	lt &= ~(1u << (3 + 8 * (1 - l)));
	PhyErr e = set_fw_reg(port, kFwRegLtOption, lt);
	if (e != PhyErr::ok)
		return e;
	if (!pam4) {
		/* init_nrz_tx, init_nrz_rx: {register, value} in their order. */
		static constexpr uint32_t kNrzInit[][2] = {
			{R_0PA1, 0},	  {R_0PA2, 0},	    {R_0PA3, 0},      {R_0PA4, 0},
			{R_0PA0, 0x6320}, {R_0PAF, 0xF8C9}, {R_0PB0, 0x4820}, {R_0PA5, 0},
			{R_0PA7, 0xFC00}, {R_0PA9, 0x1800}, {R_0PAB, 0},      {R_0PAD, 0},
			{R_0PF8, 0xEC06},
		};
		for (const auto &rv : kNrzInit)
			wr_lane(port, l, rv[0], rv[1]);
	}
	/* init_lane_for_fw_tx: set_lane_mode_tx, gray code (PAM4 without LT), no precode, no
	 * MSB/LSB swap, TX polarity from pol_tx_mask. */
	if (pam4) {
		rmw_lane(port, l, R_0PB0, 0, F_0PB0_TX_NRZ_MODE.mask());
		rmw_lane(port, l, R_0PB0, 0, F_0PB0_TX_NRZ_PRBS_GEN_EN.mask());
		rmw_lane(port, l, R_0PA0, 1, F_0PA0_TX_PRBS_CLK_EN.mask());
	} else {
		rmw_lane(port, l, R_0PA0, 0, F_0PA0_TX_PRBS_CLK_EN.mask());
		rmw_lane(port, l, R_0PB0, 1, F_0PB0_TX_NRZ_MODE.mask());
		rmw_lane(port, l, R_0PB0, 1, F_0PB0_TX_NRZ_PRBS_GEN_EN.mask());
	}
	rmw_lane(port, l, R_0PAF, pam4 ? 1 : 0, F_0PAF_TX_GRAYCODE_EN.mask());
	rmw_lane(port, l, R_0PAF, 0, F_0PAF_TX_PRECODE_EN.mask());
	rmw_lane(port, l, R_0PAF, 0, F_0PAF_TX_SWAP_MSB_LSB.mask());
	rmw_lane(port, l, R_0PA0, tx_pol, F_0PA0_TX_ANA_OUT_FLIP.mask());
	/* init_lane_for_fw_rx: set_lane_mode_rx, gray code, precode, MSB/LSB, RX polarity
	 * (both the PAM4 data flip and the NRZ checker flip) from pol_rx_mask. */
	rmw_lane(port, l, R_0P41, pam4 ? 1 : 0, F_0P41_PAM4_EN.mask());
	rmw_lane(port, l, R_0P42, pam4 ? 1 : 0, F_0P42_RX_GRAYCODE_EN.mask());
	rmw_lane(port, l, R_0P42, 0, F_0P42_RX_PRECODE_EN.mask());
	rmw_lane(port, l, R_0P43, 0, F_0P43_RX_SWAP_MSB_LSB.mask());
	rmw_lane(port, l, R_0P43, rx_pol, F_0P43_RX_DATA_FLIP.mask());
	rmw_lane(port, l, R_0N61, rx_pol, F_0N61_PRBS_CHECK_FLIP.mask());
	/* prbs_mode_select_tx / _rx with "PRBS31" (mode 3 on both encodings) */
	rmw_lane(port, l, R_0PA0, 3, F_0PA0_TX_PRBS_MODE.mask());
	uint32_t nrz = pam4 ? 0 : 1, p4 = pam4 ? 1 : 0;
	rmw_lane(port, l, R_0PB0, nrz, F_0PB0_TX_NRZ_PRBS_CLK_EN.mask());
	rmw_lane(port, l, R_0PB0, nrz, F_0PB0_TX_NRZ_PRBS_GEN_EN.mask());
	rmw_lane(port, l, R_0PB0, nrz, F_0PB0_TX_NRZ_MODE.mask());
	if (pam4)
		rmw_lane(port, l, R_0PB0, 0, F_0PB0_TX_HALF_RATE_EN.mask());
	rmw_lane(port, l, R_0PA0, 1, F_0PA0_TX_TEST_DATA_SRC.mask());
	rmw_lane(port, l, R_0PA0, p4, F_0PA0_TX_PRBS_CLK_EN.mask());
	rmw_lane(port, l, R_0PA0, 1, F_0PA0_TX_PAM4_TEST_EN.mask());
	rmw_lane(port, l, R_0PA0, p4, F_0PA0_TX_PRBS_GEN_EN.mask());
	if (pam4) {
		rmw_lane(port, l, R_0P43, 3, F_0P43_PRBS_MODE_SEL.mask());
		rmw_lane(port, l, R_0P43, 1, F_0P43_PU_PRBS_CHKR.mask());
		rmw_lane(port, l, R_0P43, 1, F_0P43_PU_PRBS_SYNC_CHKR.mask());
		rmw_lane(port, l, R_0P43, 1, F_0P43_RX_PRBS_AUTO_SYNC_EN.mask());
	} else {
		rmw_lane(port, l, R_0N61, 3, F_0N61_NRZ_PRBS_MODE_SEL.mask());
		rmw_lane(port, l, R_0N61, 1, F_0N61_PRBS_CHKR_EN.mask());
	}
	/* fw_start */
	uint32_t speed = pam4 ? kSpeedPam4 : kSpeedNrz;
	e = fw_cmd(port, (pam4 ? kCmdStartPam4 : kCmdStartNrz) | l, &speed, kResStart, nullptr);
	if (e != PhyErr::ok)
		return e;
	set_tx_taps(port, l, pam4);
	if (pam4)
		rmw_lane(port, l, R_0PEA, 0x60, F_0PEA_VDACCLKPHASE0.mask());
	return PhyErr::ok;
}

/* set_pll_tx (rx false) / set_pll_rx (rx true). */
PhyErr Phy::set_pll(unsigned port, unsigned l, PhyRate rate, bool rx)
{
	if (l == 0)
		rmw(port, R_9825, rx ? 1 : 0, F_9825_PLL_0_LOCK_32T_CLK_SEL.mask());
	else
		rmw(port, R_982E, rx ? 1 : 0, F_982E_PLL_1_LOCK_32T_CLK_SEL.mask());
	uint32_t msbc, lsbc, third = rx ? 0x30 : 0x40;
	switch (rate) {
	case PhyRate::dr50:
		if (!rx) /* toggle FRACN LSB for better phase noise */
			rmw_lane(port, l, R_0NF5_FRACN, 0, F_0NF5_FRACN_LSB.mask());
		msbc = 0x5;
		lsbc = 0x4FFA;
		break;
	case PhyRate::dr25:
		msbc = 0x5;
		lsbc = 0x27FA;
		break;
	case PhyRate::dr10:
		msbc = 0x2;
		lsbc = 0xFFD;
		third = 0x40;
		break;
	default:
		return fail(PhyErr::rate, "PHY: unsupported data rate");
	}
	const uint32_t vals[4] = {msbc, lsbc, third, rx ? 1u : 0u};
	for (uint32_t mode = 1; mode <= 4; mode++) {
		uint32_t v = vals[mode - 1];
		PhyErr e = fw_cmd(port, kCmdVcocap | (mode << 4) | l, &v, kResConfig, nullptr);
		if (e != PhyErr::ok)
			return e;
	}
	sleep(t_.settle_us);
	if (l == 0) {
		rmw(port, R_9825, 1, F_9825_PLL_LOCK_SRC_SEL.mask());
		rmw(port, R_9825, 0, F_9825_PLL_0_LOCK_EN.mask());
		rmw(port, R_9825, 1, F_9825_PLL_0_LOCK_EN.mask());
	} else {
		rmw(port, R_9825, 2, F_9825_PLL_LOCK_SRC_SEL.mask());
		rmw(port, R_982E, 0, F_982E_PLL_1_LOCK_EN.mask());
		rmw(port, R_982E, 1, F_982E_PLL_1_LOCK_EN.mask());
	}
	sleep(t_.settle_us);
	return PhyErr::ok;
}

/* reset_mac_tx for F/W older than 37.2 (the model's, 0.2.0): PRT0_MAC_CORE_MAC_RST_CFG
 * SD_TX_SW_RST_N of the port's first lane low, then high. [choice] The cpucp
 * NIC_MAC_TX_RESET path of newer F/W is not taken. */
void Phy::reset_mac_tx(unsigned port)
{
	uint32_t mask = (1u << reg::MAC_CORE_MAC_RST_CFG_SD_TX_SW_RST_N.lsb) << ((port & 1) ? 2 : 0);
	uint32_t off = reg::mac_core(port) + reg::MAC_CORE_MAC_RST_CFG;
	nic_.wr32(off, nic_.rd32(off) & ~mask);
	sleep(t_.mac_tx_reset_us);
	nic_.wr32(off, nic_.rd32(off) | mask);
}

/* fw_config(data_rate, do_lt false). */
PhyErr Phy::fw_config(unsigned port, PhyRate rate)
{
	const bool pam4 = rate == PhyRate::dr50;
	if (pam4) {
		rmw(port, R_980F, 1, k980fPam4A);
		rmw(port, R_980F, 1, k980fPam4B);
	}
	rmw(port, R_980F, 0, k980fGo); /* clear the go bit */
	for (unsigned l = 0; l < kLanesPerPort; l++) {
		PhyErr e = config_lane(port, l, pam4);
		if (e != PhyErr::ok)
			return fail(e, "PHY port " + std::to_string(port) + " lane " +
					       std::to_string(l) + ": F/W config failed: " + err_);
	}
	for (unsigned l = 0; l < kLanesPerPort; l++) {
		PhyErr e = set_pll(port, l, rate, false);
		if (e == PhyErr::ok)
			e = set_pll(port, l, rate, true);
		if (e != PhyErr::ok)
			return fail(e, "PHY port " + std::to_string(port) + " lane " +
					       std::to_string(l) + ": PLL set-up failed: " + err_);
	}
	sleep(t_.pll_wait_us);
	reset_mac_tx(port);
	/* set_functional_mode: the PRBS generators off, AN10 0 (no LT). */
	for (unsigned l = 0; l < kLanesPerPort; l++) {
		rmw_lane(port, l, R_0PA0, 0, F_0PA0_TX_PRBS_CLK_EN.mask());
		rmw_lane(port, l, R_0PA0, 0, F_0PA0_TX_PAM4_TEST_EN.mask());
		rmw_lane(port, l, R_0PA0, 0, F_0PA0_TX_PRBS_GEN_EN.mask());
		wr_lane(port, l, R_AN10, 0);
	}
	rmw(port, R_980F, 1, k980fGo); /* set the go bit */
	return PhyErr::ok;
}

PhyErr Phy::power_up(unsigned port, PhyRate rate)
{
	port_reset(port);
	return fw_config(port, rate);
}

void Phy::port_start_stop(unsigned port, bool start)
{
	for (unsigned l = 0; l < kLanesPerPort; l++) {
		rmw_lane(port, l, R_0NF8, start ? 1 : 0, F_0NF8_PU_VDRV.mask());
		if (!start)
			wr(port, R_9815, kCmdSilenceRx | l);
	}
}

/* fw_tuning on lane 0 then 1 (do_fw_tuning stops at the first lane not ready). */
bool Phy::tuned(unsigned port, PhyRate rate)
{
	const bool pam4 = rate == PhyRate::dr50;
	for (unsigned l = 0; l < kLanesPerPort; l++) {
		uint16_t s = uint16_t(rv_debug(port, l, pam4 ? 2 : 1, 0));
		bool ok = pam4 ? (s == kTunedPam4 || s == kTunedPam4Alt) : s == kTunedNrz;
		if (!ok)
			return false;
	}
	return true;
}

} /* namespace gaudi::hw */
