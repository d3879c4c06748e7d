/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC model: values the public driver never writes to a register traffic depends on.
 *
 * Silicon takes any value; a value hbl_cn / hbl_en never writes to such a register is a guess
 * that may stop a real port (issue 21 found PRIO_TO_DSCP_0 = 0 and a GLOBAL_PAUSE bit, both gone). The
 * model stores it as silicon would, and reports it: one warning per register (naming it, the
 * value and the public values with their source) and a count (Device::unpublished_values).
 * The rules name registers as the generated published table does (gaudi_regmap_published.h),
 * for macro 0; '?' stands for one character, '*' for any run.
 */
#include "gaudi_emu_impl.h"

#include "../base/gaudi_macro.h"

#include <rte_log.h>

namespace gaudi::emu {

namespace {

struct ValueRule {
	const char *reg; /* published name pattern, macro 0 */
	uint32_t allowed[3];
	unsigned n;
	const char *source;
};

constexpr uint32_t kMmuBp = reg::kAxuserOvrdMmuBp; /* every AXI user the public driver sets */

/* clang-format off */
constexpr ValueRule kRules[] = {
	{"NIC0_TXE?_PRIO_TO_DSCP_0", {reg::kPrioToDscp0}, 1, "gaudi2_cn.c config_port_hw_txe"},
	{"NIC0_TXE?_WQE_USER_CFG", {0x1}, 1, "gaudi2_cn.c config_port_hw_txe"},
	{"NIC0_TXB_TDM_PORT_ARB_MASK", {reg::kTdmPortArbMask100G, reg::kTdmPortArbMask25G50G}, 2,
	 "gaudi2_cn.c config_hw_txb (100G; 25G/50G)"},
	{"NIC0_TXB_GLOBAL_PAUSE", {0x0}, 1, "gaudi2_cn.c config_hw_txb"},
	{"NIC0_TXS?_AXI_USER_LO", {0x400}, 1, "gaudi2_cn.c config_port_hw_txs"},
	{"NIC0_RXB_CORE_MAX_STATIC_CREDITS_?", {0xB405A0}, 1, "gaudi2_cn.c config_hw_rxb"},
	{"NIC0_RXB_CORE_DROP_THRESHOLD_?", {0xABC55E, 0x0}, 2,
	 "gaudi2_cn.c config_hw_rxb; 0: stop_traffic_macro"},
	{"NIC0_RXB_CORE_DROP_SMALL_THRESHOLD_?", {0xB3A59D}, 1, "gaudi2_cn.c config_hw_rxb"},
	{"NIC0_QPC?_EVENT_QUE_CFG", {0x0, 0x19}, 2,
	 "gaudi2_cn_eq.c eq_hw_config; 0: gaudi2_cn_disable_interrupts"},
	{"NIC0_QPC?_AXUSER_DB_FIFO_HB_?R_OVRD_LO", {kMmuBp}, 1, "gaudi2_cn.c config_port_hw_qpc"},
	{"NIC0_QPC?_AXUSER_ERR_FIFO_HB_?R_OVRD_LO", {kMmuBp}, 1, "gaudi2_cn.c config_port_hw_qpc"},
	{"NIC0_QPC?_AXUSER_QPC_REQ_HB_?R_OVRD_LO", {kMmuBp}, 1, "gaudi2_cn.c config_port_hw_qpc"},
	{"NIC0_QPC?_AXUSER_QPC_RESP_HB_?R_OVRD_LO", {kMmuBp}, 1, "gaudi2_cn.c config_port_hw_qpc"},
	{"NIC0_QPC?_AXUSER_CONG_QUE_HB_?R_OVRD_LO", {kMmuBp}, 1, "gaudi2_cn.c config_port_hw_qpc"},
	{"NIC0_QPC?_AXUSER_EV_QUE_LBW_INTR_HB_?R_OVRD_LO", {kMmuBp}, 1,
	 "gaudi2_cn_eq.c eq_hw_config"},
	{"NIC0_RXE?_AXUSER_AXUSER_CQ*_HB_WR_OVRD_LO", {kMmuBp}, 1,
	 "gaudi2_cn.c config_port_hw_rxe"},
	{"NIC0_TMR_AXUSER_TMR_*_HB_?R_OVRD_LO", {kMmuBp}, 1, "gaudi2_cn.c config_hw_tmr"},
	{"NIC0_RXE?_ARUSER_MMU_BP", {0x1}, 1, "gaudi2_cn.c config_port_hw_rxe"},
	{"NIC0_RXE?_CQ_CFG_0", {0x0, 0x9}, 2, "gaudi2_cn.c config_port_hw_rxe (raw CQ)"},
	{"NIC0_MAC_CH?_MAC_128_?X_FIFO_SECTIONS", {0x4}, 1, "gaudi2_cn.c hw_mac_port_config"},
	{"NIC0_MAC_CH?_MAC_128_FRM_LENGTH", {kMacMaxFrameLen}, 1,
	 "gaudi2_cn.c hw_mac_port_config (NIC_MAC_MAX_FRM_LEN)"},
	{"PRT0_MAC_CORE_MAC_FEC91_CFG", {0xFF, 0x60F}, 2,
	 "gaudi2_cn.c config_hw_mac (100G/50G; 25G)"},
};
/* clang-format on */
static_assert(std::size(kRules) < 255);
/* The RXB rows above, as published, are the pairs the driver derives from RXB_NUM_BUFFS. */
static_assert(hw::macro::pair(hw::macro::kRxbStaticCredits) == 0xB405A0 &&
	      hw::macro::pair(hw::macro::kRxbDropTh) == 0xABC55E &&
	      hw::macro::pair(hw::macro::kRxbDropSmallTh) == 0xB3A59D);

/* Glob match: '?' one character, '*' any run (no backtracking beyond one '*' needed here, but
 * general). */
bool glob(const char *p, const char *s)
{
	if (*p == '\0')
		return *s == '\0';
	if (*p == '*')
		return glob(p + 1, s) || (*s != '\0' && glob(p, s + 1));
	return *s != '\0' && (*p == '?' || *p == *s) && glob(p + 1, s + 1);
}

} /* namespace */

void Device::Impl::value_rules_build()
{
	value_rule_.assign(map_.size(), 0);
	for (const hw::regmap::PublishedReg &r : hw::regmap::kRegs)
		for (size_t i = 0; i < std::size(kRules); i++) {
			if (!glob(kRules[i].reg, r.name))
				continue;
			for (unsigned m = 0; m < kMacros; m++) {
				uint32_t w =
					(m * kMacroStride + r.cfg_addr - reg::kNic0CfgBase) / 4;
				value_rule_[w] = uint8_t(i + 1);
				map_[w] |= kValueRule;
			}
			break;
		}
}

void Device::Impl::value_check(uint32_t off, uint32_t val)
{
	const ValueRule &r = kRules[value_rule_[off / 4] - 1];
	for (unsigned i = 0; i < r.n; i++)
		if (val == r.allowed[i])
			return;
	unpublished_values_.fetch_add(1, std::memory_order_relaxed);
	if (map_[off / 4] & kValueReported)
		return;
	map_[off / 4] |= kValueReported;
	char name[96];
	hw::regmap::format_name(off, name);
	char want[48];
	int k = 0;
	for (unsigned i = 0; i < r.n; i++)
		k += snprintf(want + k, sizeof(want) - k, "%s0x%X", i ? " or " : "", r.allowed[i]);
	rte_log(RTE_LOG_WARNING, gaudi_emu_logtype,
		"gaudi_emu: %s = 0x%X: a value the public driver never writes there (%s writes "
		"%s); silicon may not pass traffic with it\n",
		name, val, r.source, want);
}

} /* namespace gaudi::emu */
