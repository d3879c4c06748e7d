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

} // namespace macro
} // namespace gaudi::hw
