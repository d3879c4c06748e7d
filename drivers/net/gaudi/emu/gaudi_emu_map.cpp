/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model: where a NIC offset lands (decode: block, port, lane) and the map of
 * published offsets (strict mode): which words are registers of the published headers, which
 * the model gives behaviour, and what an access outside them does (violation).
 */
#include "gaudi_emu_impl.h"

#include <cstdio>
#include <cstring>

#include <rte_debug.h>
#include <rte_log.h>

namespace gaudi::emu {

using namespace detail;

RegAddr detail::decode(uint32_t off)
{
	unsigned macro = off / kMacroStride, even = macro * kPortsPerMacro;
	uint32_t o = off % kMacroStride;
	auto in = [o](uint32_t base) { return o >= base && o < base + kBlockSize; };
	for (unsigned s = 0; s < kPortsPerMacro; s++) {
		if (in(reg::qpc(s)))
			return {Block::qpc, even + s, 0, o - reg::qpc(s)};
		if (in(reg::rxe(s)))
			return {Block::rxe, even + s, 0, o - reg::rxe(s)};
		if (in(reg::txe(s)))
			return {Block::txe, even + s, 0, o - reg::txe(s)};
		if (in(reg::txs(s)))
			return {Block::txs, even + s, 0, o - reg::txs(s)};
		for (unsigned l = 0; l < kLanesPerPort; l++)
			if (in(reg::mac_pcs(s, l)))
				return {Block::mac_ch, even + s, l, o - reg::mac_pcs(s, l)};
	}
	if (in(reg::tmr(0))) /* its AXI users included */
		return {Block::tmr, even, 0, o - reg::tmr(0)};
	if (in(reg::rxb(0)))
		return {Block::rxb, even, 0, o - reg::rxb(0)};
	if (in(reg::txb(0)))
		return {Block::txb, even, 0, o - reg::txb(0)};
	if (in(reg::mac_core(0)))
		return {Block::mac_core, even, 0, o - reg::mac_core(0)};
	if (in(reg::mac_rs_fec(0)))
		return {Block::mac_rs_fec, even, 0, o - reg::mac_rs_fec(0)};
	if (in(reg::mac_stat(0)))
		return {Block::mac_stat, even, 0, o - reg::mac_stat(0)};
	/* [phy] SerDes 0 / 1: the even / odd port's (16 KB each); the macro's PHY block. */
	if (o >= serdes::base(0) && o < serdes::base(0) + 2 * serdes::kSerdesStride) {
		unsigned s = (o - serdes::base(0)) / serdes::kSerdesStride;
		return {Block::serdes, even + s, 0, o - serdes::base(s)};
	}
	if (in(reg::phy(0)))
		return {Block::phy, even, 0, o - reg::phy(0)};
	return {};
}

/* ---------------------------------------------------------------------------------------- */
/* The published map */

namespace {
/* Registers that are arrays in the map: (block, first register, count, stride) and, for the
 * trace, a printf format of element i's published name (null: only the elements kRegRows
 * names), given i, or i / 2 and i % 2 when the name has two indices (split). */
struct ArrayRow {
	const char *block;
	uint32_t first;
	unsigned count;
	uint32_t stride;
	const char *name = nullptr;
	bool split = false;
};
constexpr ArrayRow kArrays[] = {
	{"QPC", reg::QPC_GW_DATA_0, 32, 4, "GW_DATA_%u"},
	{"QPC", reg::QPC_GW_MASK_0, 32, 4, "GW_MASK_%u"},
	{"QPC", reg::QPC_INTERRUPT_BASE_0, 11, 4, "INTERRUPT_BASE_%u"},
	{"QPC", reg::QPC_INTERRUPT_DATA_0, 11, 4, "INTERRUPT_DATA_%u"},
	{"RXE", reg::RXE_RAW_QPN_P0_0, 8, 4, "RAW_QPN_P%u_%u", true},
	{"RXE", reg::RXE_CQ_CFG_0, 32, 4, "CQ_CFG_%u"},
	{"RXE", reg::RXE_RAW_BASE_LO_P0_0, 2, reg::kRawCopyStride, "RAW_BASE_LO_P0_%u"},
	{"RXE", reg::RXE_RAW_BASE_LO_P0_0 + reg::kRawPrioStride, 2, reg::kRawCopyStride,
	 "RAW_BASE_LO_P1_%u"},
	{"RXE", reg::RXE_RAW_BASE_LO_P0_0 + 2 * reg::kRawPrioStride, 2, reg::kRawCopyStride,
	 "RAW_BASE_LO_P2_%u"},
	{"RXE", reg::RXE_RAW_BASE_LO_P0_0 + 3 * reg::kRawPrioStride, 2, reg::kRawCopyStride,
	 "RAW_BASE_LO_P3_%u"},
	{"RXE", reg::RXE_RAW_BASE_HI_P0_0, 2, reg::kRawCopyStride, "RAW_BASE_HI_P0_%u"},
	{"RXE", reg::RXE_RAW_BASE_HI_P0_0 + reg::kRawPrioStride, 2, reg::kRawCopyStride,
	 "RAW_BASE_HI_P1_%u"},
	{"RXE", reg::RXE_RAW_BASE_HI_P0_0 + 2 * reg::kRawPrioStride, 2, reg::kRawCopyStride,
	 "RAW_BASE_HI_P2_%u"},
	{"RXE", reg::RXE_RAW_BASE_HI_P0_0 + 3 * reg::kRawPrioStride, 2, reg::kRawCopyStride,
	 "RAW_BASE_HI_P3_%u"},
	{"RXE", reg::RXE_RAW_MISC_P0_0, 2, reg::kRawCopyStride, "RAW_MISC_P0_%u"},
	{"RXE", reg::RXE_RAW_MISC_P0_0 + reg::kRawPrioStride, 2, reg::kRawCopyStride,
	 "RAW_MISC_P1_%u"},
	{"RXE", reg::RXE_RAW_MISC_P0_0 + 2 * reg::kRawPrioStride, 2, reg::kRawCopyStride,
	 "RAW_MISC_P2_%u"},
	{"RXE", reg::RXE_RAW_MISC_P0_0 + 3 * reg::kRawPrioStride, 2, reg::kRawCopyStride,
	 "RAW_MISC_P3_%u"},
	{"RXB_CORE", reg::RXB_CORE_XOFF_THRESHOLD_0, 8, 4, "XOFF_THRESHOLD_%u"},
	{"RXB_CORE", reg::RXB_CORE_XON_THRESHOLD_0, 8, 4, "XON_THRESHOLD_%u"},
	{"RXB_CORE", reg::RXB_CORE_MAX_STATIC_CREDITS_0, 8, 4, "MAX_STATIC_CREDITS_%u"},
	{"RXB_CORE", reg::RXB_CORE_DROP_THRESHOLD_0, 8, 4, "DROP_THRESHOLD_%u"},
	{"RXB_CORE", reg::RXB_CORE_TS_RC_MAC_31_0_0, 4, 4, "TS_RC_MAC_31_0_%u"},
	{"RXB_CORE", reg::RXB_CORE_TS_RC_MAC_47_32_0, 4, 4, "TS_RC_MAC_47_32_%u"},
	{"RXB_CORE", reg::RXB_CORE_TS_RAW0_MAC_31_0_0, 4, 4, "TS_RAW0_MAC_31_0_%u"},
	{"RXB_CORE", reg::RXB_CORE_TS_RAW0_MAC_47_32_0, 4, 4, "TS_RAW0_MAC_47_32_%u"},
	{"RXB_CORE", reg::RXB_CORE_TS_RC_MAC_31_0_MASK_0, 4, 4, "TS_RC_MAC_31_0_MASK_%u"},
	{"RXB_CORE", reg::RXB_CORE_TS_RC_MAC_47_32_MASK_0, 4, 4, "TS_RC_MAC_47_32_MASK_%u"},
	{"RXB_CORE", reg::RXB_CORE_TS_RAW0_MAC_31_0_MASK_0, 4, 4, "TS_RAW0_MAC_31_0_MASK_%u"},
	{"RXB_CORE", reg::RXB_CORE_TS_RAW0_MAC_47_32_MASK_0, 4, 4, "TS_RAW0_MAC_47_32_MASK_%u"},
	/* HB_WR_OVRD_LO of CQs 0..15 (hbl_cn programs them all, config_port_hw_rxe) */
	{"RXE_AXUSER_AXUSER_CQ0", reg::RXE_AXUSER_AXUSER_CQ0_HB_WR_OVRD_LO, 16,
	 reg::kRxeAxuserCqStride},
	{"MAC_RS_FEC", reg::MAC_RS_FEC_RSFEC_CCW_LO, 4, 0x20},
	{"MAC_RS_FEC", reg::MAC_RS_FEC_RSFEC_CCW_HI, 4, 0x20},
	{"MAC_RS_FEC", reg::MAC_RS_FEC_RSFEC_NCCW_LO, 4, 0x20},
	{"MAC_RS_FEC", reg::MAC_RS_FEC_RSFEC_NCCW_HI, 4, 0x20},
	{"MAC_128", reg::MAC_128_CL01_PAUSE_QUANTA, 4, 4},
	{"MAC_128", reg::MAC_128_CL01_QUANTA_THRESH, 4, 4},
	{"RXE_AXUSER_AXUSER_CQ0", reg::RXE_AXUSER_AXUSER_CQ0_HB_WR_OVRD_LO, reg::kRxeCqs,
	 reg::kRxeAxuserCqStride},
};

/* Offsets of a block of the map, within NIC macro 0 / port or lane instance. */
std::vector<uint32_t> instances(const char *block)
{
	std::string b(block);
	if (b == "QPC")
		return {reg::qpc(0), reg::qpc(1)};
	if (b == "QPC_DBFIFOSECUR_CI_UPD_ADDR")
		return {reg::qpc_dbfifosecur(0), reg::qpc_dbfifosecur(1)};
	if (b == "RXE")
		return {reg::rxe(0), reg::rxe(1)};
	if (b == "TXE")
		return {reg::txe(0), reg::txe(1)};
	if (b == "TXS")
		return {reg::txs(0), reg::txs(1)};
	if (b == "MAC_PCS")
		return {reg::mac_pcs(0, 0), reg::mac_pcs(0, 1), reg::mac_pcs(1, 0),
			reg::mac_pcs(1, 1)};
	if (b == "MAC_128")
		return {reg::mac_128(0, 0), reg::mac_128(0, 1), reg::mac_128(1, 0),
			reg::mac_128(1, 1)};
	for (const reg::BlockRow &r : reg::kBlockRows) {
		if (b != r.block)
			continue;
		uint32_t base = r.cfg_addr - reg::kNic0CfgBase;
		/* AXI users of the per-port QPC and RXE: a copy per port, as their engine's. */
		if (b.rfind("QPC_AXUSER_", 0) == 0)
			return {reg::qpc_axuser(0, base), reg::qpc_axuser(1, base)};
		if (b.rfind("RXE_AXUSER_", 0) == 0)
			return {base, base + reg::kOddPortHighStride};
		return {base};
	}
	return {};
}
} /* namespace */

/* The map of registers the published sources define and this model knows (kRegRows and the
 * arrays above, every port, lane and macro), and which of them hardware alone writes. */
void Device::Impl::build_map()
{
	map_.assign(kNicRegionSize / 4, 0);
	auto mark = [this](uint32_t off, uint8_t f) {
		for (unsigned m = 0; m < kMacros; m++)
			map_[(m * kMacroStride + off) / 4] |= f;
	};
	for (const reg::RegRow &r : reg::kRegRows)
		for (uint32_t base : instances(r.block))
			mark(base + r.off, kKnown);
	for (const ArrayRow &a : kArrays)
		for (uint32_t base : instances(a.block))
			for (unsigned i = 0; i < a.count; i++)
				mark(base + a.first + i * a.stride, kKnown);
	/* MAC counters (read-only) of the four lane sets. */
	for (uint32_t set : {reg::MAC_GLOB_STAT_RX0_BASE, reg::MAC_GLOB_STAT_RX2_BASE})
		for (unsigned i = 0; i < unsigned(RxStat::count); i++)
			mark(set + 4 * i, kKnown | kReadOnly);
	for (uint32_t set : {reg::MAC_GLOB_STAT_TX0_BASE, reg::MAC_GLOB_STAT_TX2_BASE})
		for (unsigned i = 0; i < unsigned(TxStat::count); i++)
			mark(set + 4 * i, kKnown | kReadOnly);
	/* Status registers only the hardware writes. */
	for (unsigned s = 0; s < kPortsPerMacro; s++)
		for (unsigned l = 0; l < kLanesPerPort; l++) {
			mark(reg::mac_pcs(s, l) + reg::MAC_PCS_STATUS1, kKnown | kReadOnly);
			mark(reg::mac_128(s, l) + reg::MAC_128_RX_PAUSE_STATUS, kKnown | kReadOnly);
		}
	mark(reg::mac_core(0) + reg::MAC_CORE_MAC_REC_STS0, kKnown | kReadOnly);
	mark(reg::mac_core(0) + reg::MAC_CORE_MAC_GNRL_STS_0, kKnown | kReadOnly);
	mark(reg::mac_core(0) + reg::MAC_CORE_MAC_GNRL_STS_2, kKnown | kReadOnly);
	/* RS-FEC codeword counters of the 4 lanes (RSFEC..RSFEC3, 0x20 apart): clear on read. */
	for (unsigned l = 0; l < 4; l++)
		for (uint32_t r : {reg::MAC_RS_FEC_RSFEC_CCW_LO, reg::MAC_RS_FEC_RSFEC_CCW_HI,
				   reg::MAC_RS_FEC_RSFEC_NCCW_LO, reg::MAC_RS_FEC_RSFEC_NCCW_HI})
			mark(reg::mac_rs_fec(0) + r + l * 0x20, kKnown | kClearOnRead);
	serdes_mark_map(); /* [phy] */
	seq_mark_map();	   /* [seq_check] */
	/* Every other register the public headers define (the generated table, every macro):
	 * accepted, stored and read back. A word the model knows that the headers do not define
	 * is a defect of the model: counted and named. */
	std::vector<uint8_t> published(map_.size(), 0);
	for (const hw::regmap::PublishedReg &r : hw::regmap::kRegs)
		for (unsigned m = 0; m < kMacros; m++)
			published[(m * kMacroStride + r.cfg_addr - reg::kNic0CfgBase) / 4] = 1;
	/* The one register the public driver writes by a bare address the headers leave out:
	 * SerDes lane 0NF5 (gaudi2_cn_phy.c set_pll_tx, 0x54587D4; gaudi_serdes.h). */
	for (unsigned m = 0; m < kMacros; m++)
		for (unsigned s = 0; s < kPortsPerMacro; s++)
			for (unsigned l = 0; l < kLanesPerPort; l++)
				published[(m * kMacroStride + serdes::base(s) +
					   serdes::lane_reg(serdes::R_0NF5_FRACN, l)) /
					  4] = 1;
	model_only_ = 0;
	for (size_t w = 0; w < map_.size(); w++) {
		if (published[w] && !(map_[w] & kKnown))
			map_[w] |= kPublished;
		else if (!published[w] && (map_[w] & kKnown) && model_only_++ < 8)
			rte_log(RTE_LOG_ERR, gaudi_emu_logtype,
				"gaudi_emu: the model knows NIC offset 0x%zx, which no published "
				"header defines\n",
				w * 4);
	}
	value_rules_build();
}

void Device::Impl::violation(const char *what, bool write, uint32_t off, uint32_t val)
{
	uint64_t n = violations_.fetch_add(1, std::memory_order_relaxed) + 1;
	/* Named by block: decode tells which copy; the offset is from the NIC region. */
	RegAddr a = decode(off);
	/* clang-format off */
	static const char *const names[] = {"none", "QPC", "RXE", "TXE", "RXB_CORE", "TXB",
					    "MAC_CORE", "MAC_RS_FEC", "MAC_GLOB_STAT", "MAC_CH",
					    "TXS", "TMR", "SERDES", "PHY"};
	/* clang-format on */
	/* The published block around it, if any (macro 0's name; the macro is off's). */
	const char *in = "no published block";
	const uint32_t addr = reg::kNic0CfgBase + off % kMacroStride;
	for (const hw::regmap::PublishedBlock &b : hw::regmap::kBlocks)
		if (addr >= b.base && addr < b.end)
			in = b.name;
	rte_log(RTE_LOG_ERR, gaudi_emu_logtype,
		"gaudi_emu: %s at 0x%X (NIC offset 0x%x, macro %u, in %s; model: %s +0x%x, port "
		"%u) value 0x%x [%llu so far]\n",
		what, reg::kNic0CfgBase + off, off, off / kMacroStride, in,
		names[unsigned(a.block)], a.r, a.port, val, (unsigned long long)n);
	if (cfg_.strict) {
		/* The trace is what a user reads after this stop: it ends with the access that
		 * left the map (a read is traced after it returns, so it is written here). */
		if (trace_ != nullptr) {
			if (!write)
				trace('R', off, val);
			SpinGuard g(trace_lock_);
			fflush(trace_);
		}
		rte_panic("gaudi_emu: strict mode: the driver left the published register map\n");
	}
}

bool Device::Impl::check_access(uint32_t off, bool write, uint32_t val, uint32_t old)
{
	uint8_t f = map_[off / 4];
	if (f & kPublished) {
		unmodeled_.fetch_add(1, std::memory_order_relaxed);
		return true;
	}
	if (!(f & kKnown)) {
		violation(write ? "write to an offset the published map does not define"
				: "read of an offset the published map does not define",
			  write, off, val);
		return false;
	}
	if (write && (f & kReadOnly)) {
		violation("write to a read-only register", true, off, val);
		(void)old;
		return false;
	}
	return true;
}

} /* namespace gaudi::emu */
