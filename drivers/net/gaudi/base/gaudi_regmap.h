/* SPDX-License-Identifier: BSD-3-Clause
 * The published Gaudi2 NIC register map: lookup of a NIC register offset (any macro) in the table
 * generated from the public asic_reg headers (gaudi_regmap_published.h, made by
 * buildtools/gen-regmap.py), and its published name for that macro. No allocation, no
 * exceptions: for use from a register trace.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "gaudi_hw_defs.h"
#include "gaudi_regmap_published.h"
#include "gaudi_regs.h"

namespace gaudi::hw::regmap {

inline constexpr std::span<const PublishedReg> kRegs{kPublishedRegs};
inline constexpr std::span<const PublishedBlock> kBlocks{kPublishedBlocks};
inline constexpr std::span<const PublishedField> kFields{kPublishedFields};

/* The published register at nic_off, the byte offset from reg::kNic0CfgBase. Every macro
 * repeats the layout of macro 0 at kMacroStride [gaudi2_regs.h NIC_OFFSET]; nullptr for an
 * offset past the last macro or one no header names. Binary search over the sorted table. */
constexpr const PublishedReg *find(uint32_t nic_off)
{
	if (nic_off >= kMacros * kMacroStride)
		return nullptr;
	const uint32_t addr = reg::kNic0CfgBase + nic_off % kMacroStride;
	size_t lo = 0;
	size_t hi = kRegs.size();
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		if (kRegs[mid].cfg_addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < kRegs.size() && kRegs[lo].cfg_addr == addr ? &kRegs[lo] : nullptr;
}

/* The macro nic_off falls in. */
constexpr unsigned macro_of(uint32_t nic_off)
{
	return nic_off / kMacroStride;
}

/* Writes r's published name as macro `macro` spells it into out, NUL-terminated, truncated to
 * out.size() - 1 characters; returns the length written. The headers name macro 0's blocks
 * NIC0_... and PRT0_...; macro m's are NIC<m>_... and PRT<m>_...
 * [gaudi2_blocks_linux_driver.h: NIC1_PHY_BASE, PRT1_MAC_CORE_BASE]. */
constexpr size_t format_name(const PublishedReg &r, unsigned macro, std::span<char> out)
{
	if (out.empty())
		return 0;
	size_t n = 0;
	auto put = [&](char c) {
		if (n + 1 < out.size())
			out[n++] = c;
	};
	const char *s = r.name;
	/* "NIC0_" / "PRT0_": the 3-letter prefix, then the macro number in place of the 0. */
	for (int i = 0; i < 3 && s[i] != '\0'; i++)
		put(s[i]);
	if (s[0] != '\0' && s[1] != '\0' && s[2] != '\0' && s[3] == '0') {
		if (macro >= 10)
			put(static_cast<char>('0' + macro / 10 % 10));
		put(static_cast<char>('0' + macro % 10));
		s += 4;
	} else {
		s += 3;
	}
	for (; *s != '\0'; s++)
		put(*s);
	out[n] = '\0';
	return n;
}

/* The published name of the register at nic_off, for its macro; 0 (and "") if unpublished. */
constexpr size_t format_name(uint32_t nic_off, std::span<char> out)
{
	const PublishedReg *r = find(nic_off);
	if (r == nullptr) {
		if (!out.empty())
			out[0] = '\0';
		return 0;
	}
	return format_name(*r, macro_of(nic_off), out);
}

} /* namespace gaudi::hw::regmap */
