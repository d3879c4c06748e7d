/* SPDX-License-Identifier: BSD-3-Clause
 * Per-macro set-up of a Gaudi2 NIC macro (its two ports share these registers), once per macro
 * with a port in use, before its ports open: MAC core (SerDes width, RS-FEC per speed), RXB
 * (credits, drop / pause thresholds, priorities, iCRC), TXB (iCRC, pause, TDM arbitration).
 * The order and values are hbl_cn gaudi2_cn.c gaudi2_cn_hw_macro_config's; TMR follows it
 * (nicmem::tmr_config).
 */
#pragma once

#include <cstdint>

#include "gaudi_bar.h"
#include "gaudi_hw_defs.h"
#include "gaudi_regs.h"

namespace gaudi::hw {

/* Port speed: hbl_cn's cn_port->speed (SPEED_25000 / 50000 / 100000). gaudi2_cn.c runs
 * every port at 100G (25G only with the phy_set_nrz debug knob) [gaudi2_cn_set_speed,
 * gaudi2_cn_get_default_port_speed]; the macro takes the speed of its even port. */
enum class Speed { g25, g50, g100 };
inline constexpr Speed kDefaultSpeed = Speed::g100;

/* The speed in Mb/s (hbl_cn's SPEED_*, ethtool's and rte_eth_link's unit). */
constexpr uint32_t speed_mbps(Speed s)
{
	return s == Speed::g25 ? 25000 : s == Speed::g50 ? 50000 : 100000;
}
/* The Speed of mbps; false for any other value. */
constexpr bool speed_from_mbps(uint32_t mbps, Speed *s)
{
	switch (mbps) {
	case 25000:
		*s = Speed::g25;
		return true;
	case 50000:
		*s = Speed::g50;
		return true;
	case 100000:
		*s = Speed::g100;
		return true;
	default:
		return false;
	}
}

/* Per-speed values of the MAC core and PCS, shared by the driver (gaudi_macro.cpp,
 * gaudi_port.cpp) and the model that checks them. */
/* PRT0_MAC_CORE MAC_SD_CFG: signal-detect override bits all set, with SD_8X set at 50G
 * (0xF0FFF0) and clear at 25G (0xF0FF00; "sd_n2 = 0, sd_8x = 0") [gaudi2_cn_config_hw_mac].
 * 100G leaves the register at its reset value. */
inline constexpr uint32_t kSdCfg25g = 0xF0FF00;
inline constexpr uint32_t kSdCfg50g = 0xF0FFF0;
/* VENDOR_VL_INTVL.MARKER_COUNTER: 16384 blocks between alignment markers at 100G, 20480 at
 * 25G and 50G [gaudi2_cn_hw_mac_port_config_lane_speed]. */
constexpr uint32_t marker_counter(Speed s)
{
	return s == Speed::g100 ? 0x3FFF : 0x4FFF;
}
/* VENDOR_PCS_MODE: clause-49 PCS with the 25G high-BER window at 25G, else 0. */
constexpr uint32_t pcs_mode(Speed s)
{
	return s == Speed::g25 ? reg::MAC_PCS_VENDOR_PCS_MODE_ENA_CLAUSE49.mask() |
					 reg::MAC_PCS_VENDOR_PCS_MODE_HI_BER25.mask()
			       : 0;
}
static_assert(pcs_mode(Speed::g25) == 0x5 && pcs_mode(Speed::g50) == 0);
/* Alignment marker M0 | M1 << 8 of PCS virtual lanes 0 and 1: they tell the three speeds
 * apart (VL0 0x68C1 at 100G and 25G, 0x7690 at 50G; VL1 0x719D at 100G, 0xC4F0 at 25G and
 * 50G) [gaudi2_cn_hw_mac_port_config_lane_speed]. */
constexpr uint32_t vl0_m01(Speed s)
{
	return s == Speed::g50 ? 0x7690 : 0x68C1;
}
constexpr uint32_t vl1_m01(Speed s)
{
	return s == Speed::g100 ? 0x719D : 0xC4F0;
}

namespace macro {

/* RXB thresholds in 128-byte buffers [gaudi2_cn.h RXB_*, gaudi2_cn_config_hw_rxb]: each port
 * gets half the buffers as static credits; drop one MTU-sized frame (NIC_MAX_FRM_LEN / 128 + 1
 * buffers) before full, XOFF 11 such frames before full, XON one frame below XOFF, small frames
 * dropped 3 buffers before full. */
inline constexpr uint32_t kRxbBuffSize = 128; /* RXB_BUFF_SIZE */
inline constexpr uint32_t kRxbMtuBuffs = kMaxFrameLen / kRxbBuffSize + 1;
inline constexpr uint32_t kRxbStaticCredits = reg::kRxbBuffers / 2;
inline constexpr uint32_t kRxbDropTh = kRxbStaticCredits - kRxbMtuBuffs;
inline constexpr uint32_t kRxbXoffTh = kRxbStaticCredits - 11 * kRxbMtuBuffs;
inline constexpr uint32_t kRxbXonTh = kRxbXoffTh - kRxbMtuBuffs;
inline constexpr uint32_t kRxbDropSmallTh = kRxbStaticCredits - 3;
static_assert(kRxbStaticCredits == 1440 && kRxbDropTh == 1374 && kRxbXoffTh == 714 &&
	      kRxbXonTh == 648 && kRxbDropSmallTh == 1437);
/* The same value in both 13-bit fields of a register (FLOW0 / FLOW1 of the thresholds,
 * MAX_STATIC_CREDITS0 / 1 of the credits: bits 12:0 and 25:13 alike [nic0_rxb_core_masks.h]),
 * as gaudi2_cn.c writes them: v | v << 13. */
constexpr uint32_t pair(uint32_t v)
{
	return reg::RXB_CORE_XOFF_THRESHOLD_0_XOFF_THRESHOLD_FLOW0.put(v) |
	       reg::RXB_CORE_XOFF_THRESHOLD_0_XOFF_THRESHOLD_FLOW1.put(v);
}
static_assert(pair(1440) == 0xB405A0);

/* TXB TDM_PORT_ARB_MASK per speed [gaudi2_cn_config_hw_txb]. */
constexpr uint32_t tdm_port_arb_mask(Speed s)
{
	return s == Speed::g100 ? reg::kTdmPortArbMask100G : reg::kTdmPortArbMask25G50G;
}

/* gaudi2_cn_config_hw_mac: PRT0_MAC_CORE (and at 50G the RS-FEC lanes) for speed s. */
void mac_config(Bar &bar, unsigned macro_port, Speed s);
/* gaudi2_cn_config_hw_rxb. */
void rxb_config(Bar &bar, unsigned macro_port);
/* gaudi2_cn_config_hw_txb. */
void txb_config(Bar &bar, unsigned macro_port, Speed s);
/* The three above in gaudi2_cn_hw_macro_config's order; macro_port is the macro's even port. */
void config(Bar &bar, unsigned macro_port, Speed s);
/* RXB DROP_THRESHOLD_i = 0: the RXB drops every incoming frame [gaudi2_cn_stop_traffic_macro,
 * its first step]. */
void rxb_drop_all(Bar &bar, unsigned macro_port);

} /* namespace macro */
} /* namespace gaudi::hw */
