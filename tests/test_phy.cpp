/* SPDX-License-Identifier: BSD-3-Clause
 * The PHY layer (base/gaudi_phy: gaudi2_cn_phy.c's bring-up) against the model's SerDes
 * (emu/gaudi_emu_serdes.cpp): the firmware load and its checks, the mailbox, the registers
 * the power-up writes from the board's masks, and what the link needs.
 */
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <rte_eal.h>

#include "gaudi_emu.h"
#include "gaudi_phy.h"
#include "gaudi_port.h"
#include "gaudi_regs.h"
#include "gaudi_serdes.h"
#include "gaudi_test_eal_env.h"

using namespace gaudi;
using namespace gaudi::hw;
using namespace gaudi::hw::serdes;
using gaudi::emu::Config;
using gaudi::emu::Device;

namespace {

/* EAL once per process; the model needs no telemetry. */
const auto *eal_env = gaudi_test::register_eal_env(
	new gaudi_test::EalEnvBase("test_phy", "128", {"--no-telemetry"}));

/* The model answers within the register access: no waits, 1000 polls at most. */
PhyTimings fast()
{
	PhyTimings t;
	t.cmd_poll_us = t.load_poll_us = t.section_poll_us = 1;
	t.max_polls = 1000;
	t.settle_us = t.unload_us = t.exec_us = t.pll_wait_us = t.mac_tx_reset_us = t.toggle_us =
		0;
	return t;
}

Config cfg(unsigned nports, emu::Wire w = emu::Wire::pair)
{
	Config c;
	c.nports = nports;
	c.wire = w;
	c.phy_link = true;
	return c;
}

struct Rig {
	std::unique_ptr<Device> dev;
	std::unique_ptr<Phy> phy;
	explicit Rig(const Config &c)
	{
		std::string err;
		dev = Device::create(c, &err);
		EXPECT_NE(dev, nullptr) << err;
		uint64_t mask = (uint64_t(1) << c.nports) - 1;
		if (dev)
			phy = std::make_unique<Phy>(dev->bar(), mask, fast());
	}
	/* Probe's part, as gaudi_phy_bringup does it. */
	PhyErr bring_up(uint64_t pol_tx, uint64_t pol_rx, const Config &c)
	{
		PhyErr e = phy->load_firmware(Device::phy_fw_image(), "stand-in");
		if (e == PhyErr::ok)
			e = phy->check_firmware();
		if (e != PhyErr::ok)
			return e;
		phy->set_lane_map(c.phy_tx_swap);
		phy->set_polarity(pol_tx, pol_rx);
		for (unsigned m = 0; m * kPortsPerMacro < c.nports; m++)
			phy->reset_macro(m);
		for (unsigned p = 0; p < c.nports; p++)
			phy->lane_remap(p);
		return PhyErr::ok;
	}
	/* dev_start's part. */
	PhyErr start(unsigned p)
	{
		PhyErr e = phy->power_up(p, PhyRate::dr50);
		if (e == PhyErr::ok)
			phy->port_start_stop(p, true);
		return e;
	}
	uint32_t lane(unsigned p, unsigned l, uint32_t r) { return phy->rd_lane(p, l, r); }
};

/* CRC-16/CCITT-FALSE of the loaded words, computed here byte-wise (the model works on words):
 * the data as BE16 words, 12 per section, zero-padded, one section more than length / 24
 * when it divides evenly (the public loop runs i <= sections). */
uint16_t expected_crc(const std::vector<uint8_t> &file)
{
	const uint8_t *h = file.data() + 0x1000;
	uint32_t len = (uint32_t(h[12]) << 24) | (uint32_t(h[13]) << 16) | (h[14] << 8) | h[15];
	uint32_t sections = (len + 23) / 24 + 1;
	std::vector<uint8_t> bytes(sections * 24, 0);
	std::copy(file.begin() + 0x1000 + 20, file.begin() + 0x1000 + 20 + len, bytes.begin());
	uint16_t crc = 0xFFFF;
	for (uint8_t b : bytes) {
		crc ^= uint16_t(b) << 8;
		for (int i = 0; i < 8; i++)
			crc = (crc & 0x8000) ? uint16_t((crc << 1) ^ 0x1021) : uint16_t(crc << 1);
	}
	return crc;
}

TEST(Phy, LoadsTheImageSectionBySection)
{
	Rig r(cfg(2));
	ASSERT_TRUE(r.dev);
	EXPECT_FALSE(r.dev->phy_state(0).mcu_running);
	std::vector<uint8_t> img = Device::phy_fw_image();
	ASSERT_EQ(r.phy->load_firmware(img, "stand-in"), PhyErr::ok) << r.phy->error();
	for (unsigned p = 0; p < 2; p++) {
		emu::PhyState st = r.dev->phy_state(p);
		EXPECT_TRUE(st.mcu_running) << p;
		EXPECT_EQ(st.sections, 2400u / 24 + 1) << p; /* 100 sections, and the padded one */
		EXPECT_EQ(st.bad_sections, 0u) << p;
	}
	EXPECT_EQ(r.phy->fw_crc(), expected_crc(img));
	EXPECT_NE(r.phy->fw_crc(), kCrcOldFw);
	EXPECT_EQ(r.phy->check_firmware(), PhyErr::ok);
	/* mcu_cal_enable_all: F/W register 357 = 64 on every port. */
	EXPECT_EQ(r.phy->get_fw_reg(1, kFwRegTimeConst), 64u);
	EXPECT_EQ(r.dev->map_violations(), 0u);
}

/* A section whose checksum does not cancel is refused: FW0 (9F0F) keeps the command, and the
 * loader stops with a timeout naming the section. */
TEST(Phy, BadSectionChecksumIsRefused)
{
	Rig r(cfg(2));
	ASSERT_TRUE(r.dev);
	r.phy->wr(0, R_9814, kFwExecCtrlHalt);
	r.phy->wr(0, R_980D, kResetCpu);
	r.phy->wr(0, R_980D, 0);
	ASSERT_EQ(r.phy->rd(0, R_9814), 0u) << "the halted MCU acknowledges the CPU reset";
	uint32_t sum = kSectionCmd + 0x0001 + 0x0000;
	r.phy->wr(0, R_9F0C, 0x0001);
	r.phy->wr(0, R_9F0D, 0x0000);
	for (uint32_t j = 0; j < kSectionWords; j++) {
		r.phy->wr(0, R_9F00 + 4 * j, 0x1111 * j);
		sum += 0x1111 * j;
	}
	r.phy->wr(0, R_9F0E, (~sum + 2) & 0xFFFF); /* off by one */
	r.phy->wr(0, R_9F0F, kSectionCmd);
	EXPECT_EQ(r.phy->rd(0, R_9F0F), kSectionCmd);
	EXPECT_EQ(r.dev->phy_state(0).bad_sections, 1u);
	EXPECT_EQ(r.dev->phy_state(0).sections, 0u);
	r.phy->wr(0, R_9F0E, (~sum + 1) & 0xFFFF);
	r.phy->wr(0, R_9F0F, kSectionCmd);
	EXPECT_EQ(r.phy->rd(0, R_9F0F), 0u);
	EXPECT_EQ(r.dev->phy_state(0).sections, 1u);
	/* A wrong entry-point checksum does not start the MCU. */
	r.phy->wr(0, R_9F0C, 0x0001);
	r.phy->wr(0, R_9F0D, 0x0000);
	r.phy->wr(0, R_9F0E, 0x1234);
	r.phy->wr(0, R_9F0F, kExecCmd);
	EXPECT_FALSE(r.dev->phy_state(0).mcu_running);
	r.phy->wr(0, R_9F0E, (~(0x0001u + 0x0000u + kExecCmd) + 1) & 0xFFFF);
	r.phy->wr(0, R_9F0F, kExecCmd);
	EXPECT_TRUE(r.dev->phy_state(0).mcu_running);
}

TEST(Phy, ImageHeaderIsChecked)
{
	PhyImage img;
	std::string why;
	std::vector<uint8_t> file = Device::phy_fw_image();
	ASSERT_TRUE(Phy::parse_image(file, &img, &why)) << why;
	EXPECT_EQ(img.entry, 0x00010000u);
	EXPECT_EQ(img.length, 2400u);
	EXPECT_EQ(img.ram_addr, 0x00010000u);
	EXPECT_FALSE(Phy::parse_image(std::span(file).first(0x1000 + 19), &img, &why));
	EXPECT_EQ(why, "is 4115 bytes, shorter than a PHY image (4116)");
	file[0x1000 + 12] = 0x01; /* length 0x01000960: past the end */
	EXPECT_FALSE(Phy::parse_image(file, &img, &why));
	EXPECT_EQ(why, "declares 16779616 bytes of code but holds 2400");
}

/* gaudi2_cn_phy_init refuses the very old F/W (CRC 0x1723). */
TEST(Phy, OldFirmwareCrcIsRefused)
{
	Config c = cfg(2);
	c.phy_fw_crc = kCrcOldFw;
	Rig r(c);
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.phy->load_firmware(Device::phy_fw_image(), "stand-in"), PhyErr::ok);
	EXPECT_EQ(r.phy->fw_crc(), kCrcOldFw);
	EXPECT_EQ(r.phy->check_firmware(), PhyErr::old_fw);
	EXPECT_EQ(r.phy->error(), "PHY F/W is very old (CRC 0x1723): not supported");
}

TEST(Phy, SilentMcuTimesOut)
{
	Config c = cfg(2);
	c.phy_fault = emu::PhyFault::mcu_silent;
	Rig r(c);
	ASSERT_TRUE(r.dev);
	EXPECT_EQ(r.phy->load_firmware(Device::phy_fw_image(), "stand-in"), PhyErr::cmd_timeout);
	EXPECT_EQ(r.phy->error(), "PHY F/W command 0xf001 on port 0 timed out");
	c.phy_fault = emu::PhyFault::load_stuck;
	Rig s(c);
	ASSERT_TRUE(s.dev);
	EXPECT_EQ(s.phy->load_firmware(Device::phy_fw_image(), "stand-in"), PhyErr::load_timeout);
	EXPECT_EQ(s.phy->error(), "PHY firmware load: FW2 (9814) stuck at 0xfff0");
}

/* Without a running F/W the mailbox answers nothing; a command it does not take gets another
 * response code. */
TEST(Phy, MailboxNeedsTheFirmwareAndChecksTheResponse)
{
	Rig r(cfg(2));
	ASSERT_TRUE(r.dev);
	EXPECT_EQ(r.phy->fw_cmd(0, kCmdCrc, nullptr, kResInfo, nullptr), PhyErr::cmd_timeout);
	ASSERT_EQ(r.phy->load_firmware(Device::phy_fw_image(), "stand-in"), PhyErr::ok);
	uint32_t speed = kSpeedNrz; /* a PAM4 start with the NRZ speed */
	EXPECT_EQ(r.phy->fw_cmd(0, kCmdStartPam4, &speed, kResStart, nullptr), PhyErr::cmd_error);
	EXPECT_NE(r.phy->error().find("command 0x80d0 on port 0 answered"), std::string::npos)
		<< r.phy->error();
	ASSERT_EQ(r.phy->set_fw_reg(1, 200, 0xBEEF), PhyErr::ok);
	EXPECT_EQ(r.phy->get_fw_reg(1, 200), 0xBEEFu);
	EXPECT_EQ(r.phy->get_fw_reg(0, 200), 0u) << "each SerDes has its own MCU";
}

/* The power-up writes the board's polarity into the lanes (TX: 0PA0 TX_ANA_OUT_FLIP; RX: 0P43
 * RX_DATA_FLIP and 0N61 PRBS_CHECK_FLIP, bit (port << 1) + lane of the masks), PAM4 mode and
 * the macro's TX lane swap from tx_swap_map. */
TEST(Phy, PolarityAndLaneSwapFollowTheMasks)
{
	Config c = cfg(4);
	Rig r(c);
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(kPolTxMaskHl225, kPolRxMaskHl225, c), PhyErr::ok) << r.phy->error();
	for (unsigned p = 0; p < 4; p++) {
		ASSERT_EQ(r.start(p), PhyErr::ok) << r.phy->error();
		for (unsigned l = 0; l < 2; l++) {
			unsigned a = (p << 1) + l;
			uint32_t tx = (kPolTxMaskHl225 >> a) & 1, rx = (kPolRxMaskHl225 >> a) & 1;
			EXPECT_EQ(F_0PA0_TX_ANA_OUT_FLIP.get(r.lane(p, l, R_0PA0)), tx) << a;
			EXPECT_EQ(F_0P43_RX_DATA_FLIP.get(r.lane(p, l, R_0P43)), rx) << a;
			EXPECT_EQ(F_0N61_PRBS_CHECK_FLIP.get(r.lane(p, l, R_0N61)), rx) << a;
			EXPECT_EQ(F_0P41_PAM4_EN.get(r.lane(p, l, R_0P41)), 1u);
			EXPECT_EQ(F_0PAF_TX_GRAYCODE_EN.get(r.lane(p, l, R_0PAF)), 1u);
			EXPECT_EQ(F_0NF8_PU_VDRV.get(r.lane(p, l, R_0NF8)), 1u);
			EXPECT_EQ(F_0PA9_TX_MAIN.get(r.lane(p, l, R_0PA9)), 23u); /* taps set 1 */
			EXPECT_EQ(F_0PA7_TX_PRE_1.get(r.lane(p, l, R_0PA7)), 0xF6u); /* -10 */
			/* set_functional_mode: the PRBS generator is off again */
			EXPECT_EQ(F_0PA0_TX_PRBS_GEN_EN.get(r.lane(p, l, R_0PA0)), 0u);
		}
		EXPECT_TRUE(r.phy->rd(p, R_980F) & k980fGo);
	}
	/* Port 2 lane 0 and 1, the HL-225 TX flips of this macro, are set; port 0's are not. */
	EXPECT_EQ(F_0PA0_TX_ANA_OUT_FLIP.get(r.lane(2, 1, R_0PA0)), 1u);
	EXPECT_EQ(F_0PA0_TX_ANA_OUT_FLIP.get(r.lane(0, 1, R_0PA0)), 0u);
	/* NIC_MAC_LANE_MAP(3, 1, 0, 2) on macro 0; macro 1 keeps the power-on mapping. */
	EXPECT_EQ(r.dev->bar().rd32(reg::phy(0) + reg::PHY_PHY_ASYNC_LANE_SWAP), 0x87u);
	EXPECT_EQ(r.dev->bar().rd32(reg::phy(2) + reg::PHY_PHY_ASYNC_LANE_SWAP), 0u);
	EXPECT_EQ(r.dev->map_violations(), 0u);
}

/* F/W tuning needs the go bit, the RX PLL, and a far TX lane that sends (the peer's TX driver
 * on); a stopped port's tuning is silenced. */
TEST(Phy, TunedOnceTheFarEndSends)
{
	Config c = cfg(2);
	Rig r(c);
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(kPolTxMaskHl225, kPolRxMaskHl225, c), PhyErr::ok);
	ASSERT_EQ(r.start(0), PhyErr::ok);
	EXPECT_FALSE(r.phy->tuned(0, PhyRate::dr50)) << "port 1 sends nothing yet";
	EXPECT_EQ(r.phy->rv_debug(0, 0, 2, 0), 0x8000u); /* [model] adapting */
	ASSERT_EQ(r.start(1), PhyErr::ok);
	EXPECT_TRUE(r.phy->tuned(0, PhyRate::dr50));
	EXPECT_TRUE(r.phy->tuned(1, PhyRate::dr50));
	EXPECT_EQ(r.phy->rv_debug(0, 1, 2, 0), kTunedPam4);
	r.phy->port_start_stop(1, false); /* TX driver off, tuning silenced */
	emu::PhyState st = r.dev->phy_state(1);
	EXPECT_FALSE(st.tx_on[0]);
	EXPECT_FALSE(st.tx_on[1]);
	EXPECT_FALSE(r.phy->tuned(0, PhyRate::dr50)) << "no signal from port 1";
	EXPECT_FALSE(r.phy->tuned(1, PhyRate::dr50)) << "silenced";
	ASSERT_EQ(r.start(1), PhyErr::ok);
	EXPECT_TRUE(r.phy->tuned(0, PhyRate::dr50));
	/* Without the go bit nothing is tuned. */
	r.phy->rmw(0, R_980F, 0, k980fGo);
	EXPECT_FALSE(r.phy->tuned(0, PhyRate::dr50));
}

/* The link of a pair comes up only when the flips cancel the board's inversions: a driver that
 * ignores the masks gets tuned lanes and no link; with the masks, link. */
TEST(Phy, LinkNeedsTheBoardsPolarity)
{
	Config c = cfg(2);
	c.phy_pol_tx = 0x1; /* port 0 lane 0's TX pair inverted */
	c.phy_pol_rx = 0x8; /* port 1 lane 1's RX pair inverted */
	Rig r(c);
	ASSERT_TRUE(r.dev);
	Port p0(&r.dev->bar(), 0), p1(&r.dev->bar(), 1);
	p0.set_mac_enable(true);
	p1.set_mac_enable(true);
	EXPECT_FALSE(p0.link_up()) << "no PHY brought up";
	ASSERT_EQ(r.bring_up(0, 0, c), PhyErr::ok); /* the masks not applied */
	ASSERT_EQ(r.start(0), PhyErr::ok);
	ASSERT_EQ(r.start(1), PhyErr::ok);
	EXPECT_TRUE(r.phy->tuned(0, PhyRate::dr50));
	EXPECT_TRUE(r.phy->tuned(1, PhyRate::dr50));
	EXPECT_TRUE(r.dev->phy_state(0).link_ok) << "port 0 receives right (no inversion on it)";
	EXPECT_FALSE(r.dev->phy_state(1).link_ok) << "port 1 receives lane 0 inverted";
	EXPECT_FALSE(p0.link_up());
	EXPECT_FALSE(p1.link_up());
	r.phy->set_polarity(c.phy_pol_tx, c.phy_pol_rx);
	ASSERT_EQ(r.start(0), PhyErr::ok);
	EXPECT_FALSE(p1.link_up()) << "port 1's RX flip is still missing";
	ASSERT_EQ(r.start(1), PhyErr::ok);
	EXPECT_TRUE(r.dev->phy_state(0).link_ok);
	EXPECT_TRUE(p0.link_up());
	EXPECT_TRUE(p1.link_up());
	/* The TX driver off takes the far end's link down. */
	r.phy->port_start_stop(0, false);
	EXPECT_FALSE(p1.link_up());
	EXPECT_EQ(r.dev->map_violations(), 0u);
}

/* The board's TX lane map must be in PHY_ASYNC_LANE_SWAP (macro 0 of HL-225 remaps). */
TEST(Phy, LinkNeedsTheLaneSwap)
{
	Config c = cfg(2);
	Rig r(c);
	ASSERT_TRUE(r.dev);
	Port p0(&r.dev->bar(), 0), p1(&r.dev->bar(), 1);
	p0.set_mac_enable(true);
	p1.set_mac_enable(true);
	ASSERT_EQ(r.bring_up(c.phy_pol_tx, c.phy_pol_rx, c), PhyErr::ok);
	ASSERT_EQ(r.start(0), PhyErr::ok);
	ASSERT_EQ(r.start(1), PhyErr::ok);
	EXPECT_TRUE(p0.link_up());
	r.dev->bar().wr32(reg::phy(0) + reg::PHY_PHY_ASYNC_LANE_SWAP, 0);
	EXPECT_FALSE(p0.link_up());
	r.phy->lane_remap(0);
	EXPECT_TRUE(p0.link_up());
}

/* Off by default for direct users of the model: the link follows the MAC alone. */
TEST(Phy, ModelWithoutPhyLinkKeepsTheMacRule)
{
	Config c = cfg(2);
	c.phy_link = false;
	std::string err;
	auto dev = Device::create(c, &err);
	ASSERT_NE(dev, nullptr) << err;
	Port p0(&dev->bar(), 0), p1(&dev->bar(), 1);
	p0.set_mac_enable(true);
	p1.set_mac_enable(true);
	EXPECT_TRUE(p0.link_up());
}

} /* namespace */
