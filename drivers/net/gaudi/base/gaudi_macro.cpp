/* SPDX-License-Identifier: BSD-3-Clause
 * Per-macro set-up (gaudi_macro.h): hbl_cn gaudi2_cn.c gaudi2_cn_config_hw_mac,
 * gaudi2_cn_config_hw_rxb and gaudi2_cn_config_hw_txb, register by register, in our words.
 */
#include "gaudi_macro.h"

#include "gaudi_hw_defs.h"
#include "gaudi_regs.h"

namespace gaudi::hw::macro {

namespace {
/* MAC_FEC91_CFG: RS-FEC (clause 91) on all four lanes with KP mode (RS(544,514)) at 50G and
 * 100G (0xFF); at 25G KP_MODE 0, FEC91_EN and FEC91_1LANE on both pairs (0x60F). */
constexpr uint32_t kFec91All = reg::MAC_CORE_MAC_FEC91_CFG_FEC91_ENA_IN.put(0xF) |
			       reg::MAC_CORE_MAC_FEC91_CFG_FEC91_KP_MODE_IN.put(0xF);
constexpr uint32_t kFec9125g = reg::MAC_CORE_MAC_FEC91_CFG_FEC91_ENA_IN.put(0xF) |
			       reg::MAC_CORE_MAC_FEC91_CFG_FEC91_1LANE_IN0.mask() |
			       reg::MAC_CORE_MAC_FEC91_CFG_FEC91_1LANE_IN2.mask();
static_assert(kFec91All == 0xFF && kFec9125g == 0x60F);
/* RSFEC_CONTROL of each lane at 50G [gaudi2_cn_config_hw_mac, mac_rs_fec_ctrl_support, which
 * gaudi2_cn_sw_init sets]. The register has no published fields. */
constexpr uint32_t kRsFecControl50g = 0x400;
/* RXB / TXB ICRC_CFG: iCRC computed and checked with the bytes reversed (ICRC_REV_BYTES). */
constexpr uint32_t kIcrcRevBytes = reg::RXB_CORE_ICRC_CFG_ICRC_REV_BYTES.mask();
static_assert(kIcrcRevBytes == 0x2);
} /* namespace */

void mac_config(Bar &bar, unsigned macro_port, Speed s)
{
	const uint32_t c = reg::mac_core(macro_port);
	switch (s) {
	case Speed::g25:
		bar.wr32(c + reg::MAC_CORE_MAC_SD_CFG, kSdCfg25g);
		bar.wr32(c + reg::MAC_CORE_MAC_FEC91_CFG, kFec9125g);
		bar.wr32(c + reg::MAC_CORE_MAC_PCS_CFG, 0);
		bar.wr32(c + reg::MAC_CORE_MAC_FC_FEC_CFG, 0);
		break;
	case Speed::g50:
		bar.wr32(c + reg::MAC_CORE_MAC_SD_CFG, kSdCfg50g);
		bar.wr32(c + reg::MAC_CORE_MAC_FEC91_CFG, kFec91All);
		bar.wr32(c + reg::MAC_CORE_MAC_PCS_CFG, 0);
		for (unsigned l = 0; l < kLanesPerPort * kPortsPerMacro; l++)
			bar.wr32(reg::mac_rs_fec(macro_port) + reg::rsfec_control(l),
				 kRsFecControl50g);
		break;
	case Speed::g100:
		bar.wr32(c + reg::MAC_CORE_MAC_FEC91_CFG, kFec91All);
		break;
	}
}

void rxb_config(Bar &bar, unsigned macro_port)
{
	const uint32_t r = reg::rxb(macro_port);
	auto each = [&](uint32_t reg0, uint32_t v) {
		for (unsigned i = 0; i < reg::kRxbPrioRegs; i++)
			bar.wr32(r + reg::rxb_prio_reg(reg0, i), v);
	};
	bar.wr32(r + reg::RXB_CORE_ICRC_CFG, kIcrcRevBytes);
	bar.wr32(r + reg::RXB_CORE_MAX_DYNAMIC, 0); /* no shared (dynamic) credits */
	each(reg::RXB_CORE_MAX_STATIC_CREDITS_0, pair(kRxbStaticCredits));
	each(reg::RXB_CORE_DROP_THRESHOLD_0, pair(kRxbDropTh));
	each(reg::RXB_CORE_DROP_SMALL_THRESHOLD_0, pair(kRxbDropSmallTh));
	each(reg::RXB_CORE_XOFF_THRESHOLD_0, pair(kRxbXoffTh));
	each(reg::RXB_CORE_XON_THRESHOLD_0, pair(kRxbXonTh));
	each(reg::RXB_CORE_DSCP2PRIO_0, 0); /* every DSCP to priority 0 */
	/* Priority 0 for every port, taken from the port the frame came in on (trust level 0). */
	bar.wr32(r + reg::RXB_CORE_PORT_DEFAULT_PRIO, 0);
	bar.wr32(r + reg::RXB_CORE_PORT_TRUST_LEVEL, 0);
	/* PAUSE spread over all priorities (global pause). */
	bar.wr32(r + reg::RXB_CORE_MAC_PFC_MODE, reg::RXB_CORE_MAC_PFC_MODE_VAL.mask());
}

void txb_config(Bar &bar, unsigned macro_port, Speed s)
{
	const uint32_t t = reg::txb(macro_port);
	bar.wr32(t + reg::TXB_ICRC_CFG, kIcrcRevBytes);
	bar.wr32(t + reg::TXB_GLOBAL_PAUSE, 0);
	bar.wr32(t + reg::TXB_TDM_PORT_ARB_MASK, tdm_port_arb_mask(s));
}

void rxb_drop_all(Bar &bar, unsigned macro_port)
{
	for (unsigned i = 0; i < reg::kRxbPrioRegs; i++)
		bar.wr32(reg::rxb(macro_port) +
				 reg::rxb_prio_reg(reg::RXB_CORE_DROP_THRESHOLD_0, i),
			 0);
}

void config(Bar &bar, unsigned macro_port, Speed s)
{
	mac_config(bar, macro_port, s);
	rxb_config(bar, macro_port);
	txb_config(bar, macro_port, s);
}

} /* namespace gaudi::hw::macro */
