/* SPDX-License-Identifier: BSD-3-Clause
 * Conformance of the register map and QP-context layout in drivers/net/gaudi/base against the
 * research tables they cite: every row of gaudi_regs.h (kBlockRows, kRegRows, kFieldRows) is
 * looked up by name in gaudi2-nic-regmap.tsv, every row of gaudi_qpc.h (kFieldRows) in the
 * requester/responder tables of gaudi2-nic-structs.md section (b). The tables are read in place
 * from $GAUDI_SHARED_RESEARCH, else from the path meson compiled in
 * (GAUDI_SHARED_RESEARCH_DEFAULT); a missing table is a failure, not a skip.
 */
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "base/gaudi_qpc.h"
#include "base/gaudi_regs.h"

namespace {

namespace reg = gaudi::hw::reg;
namespace qpc = gaudi::hw::qpc;

std::string shared_research()
{
	if (const char *e = std::getenv("GAUDI_SHARED_RESEARCH"))
		return e;
#ifdef GAUDI_SHARED_RESEARCH_DEFAULT
	return GAUDI_SHARED_RESEARCH_DEFAULT;
#else
	return "../shared/research";
#endif
}

/* Whole-string unsigned parse (base 0: "0x..." hex, else decimal); strtoull, as the build has
 * -fno-exceptions. */
std::optional<uint64_t> parse_uint(const std::string &s, int base = 0)
{
	if (s.empty() || s[0] == '-' || s[0] == ' ')
		return std::nullopt;
	errno = 0;
	char *end = nullptr;
	unsigned long long v = std::strtoull(s.c_str(), &end, base);
	if (errno != 0 || end == s.c_str() || *end != '\0')
		return std::nullopt;
	return v;
}

std::vector<std::string> split(const std::string &line, char sep)
{
	std::vector<std::string> out;
	std::string cur;
	std::istringstream in(line);
	while (std::getline(in, cur, sep))
		out.push_back(cur);
	if (!line.empty() && line.back() == sep)
		out.emplace_back();
	return out;
}

std::string trim(const std::string &s)
{
	size_t b = s.find_first_not_of(" \t\r");
	size_t e = s.find_last_not_of(" \t\r");
	return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

/* gaudi2-nic-regmap.tsv: "block register offset field bits source", keyed by
 * (block, register, field); field is empty for registers and "@..." registers are block bases. */
struct TsvRow {
	std::string offset;
	std::string bits;
	unsigned line;
};
using TsvKey = std::tuple<std::string, std::string, std::string>;

struct Tsv {
	std::map<TsvKey, TsvRow> rows;
	std::vector<std::string> errors; /* malformed or duplicated lines */
};

/* Loads the TSV; a missing file or a wrong header is a fatal failure of the calling test. */
void load_tsv(Tsv &tsv)
{
	const std::string path = shared_research() + "/gaudi2-nic-regmap.tsv";
	std::ifstream in(path);
	ASSERT_TRUE(in) << "cannot open " << path
			<< " (set GAUDI_SHARED_RESEARCH to the directory holding it)";
	std::string line;
	ASSERT_TRUE(std::getline(in, line)) << path << " is empty";
	ASSERT_EQ(trim(line), "block\tregister\toffset\tfield\tbits\tsource")
		<< path << ": unexpected header";
	unsigned n = 1;
	while (std::getline(in, line)) {
		n++;
		if (trim(line).empty())
			continue;
		auto c = split(line, '\t');
		if (c.size() != 6) {
			tsv.errors.push_back("line " + std::to_string(n) + ": " +
					     std::to_string(c.size()) + " columns");
			continue;
		}
		TsvKey k{c[0], c[1], c[3]};
		if (!tsv.rows.emplace(k, TsvRow{c[2], c[4], n}).second)
			tsv.errors.push_back("line " + std::to_string(n) + ": duplicate of line " +
					     std::to_string(tsv.rows[k].line));
	}
	ASSERT_FALSE(tsv.rows.empty()) << path << " has no rows";
}

const TsvRow *tsv_find(const Tsv &tsv, const std::string &b, const std::string &r,
		       const std::string &f)
{
	auto it = tsv.rows.find(TsvKey{b, r, f});
	return it == tsv.rows.end() ? nullptr : &it->second;
}

std::string hex(uint64_t v)
{
	char buf[32];
	std::snprintf(buf, sizeof(buf), "0x%llX", static_cast<unsigned long long>(v));
	return buf;
}

/* "hi:lo" of the TSV to (lsb, width). */
std::optional<reg::Field> parse_bits(const std::string &bits)
{
	auto colon = bits.find(':');
	if (colon == std::string::npos)
		return std::nullopt;
	auto hi = parse_uint(bits.substr(0, colon), 10);
	auto lo = parse_uint(bits.substr(colon + 1), 10);
	if (!hi || !lo || *hi < *lo || *hi > 31)
		return std::nullopt;
	return reg::Field{static_cast<uint32_t>(*lo), static_cast<uint32_t>(*hi - *lo + 1)};
}

TEST(RegmapConformance, RegsMatchTsv)
{
	Tsv tsv;
	ASSERT_NO_FATAL_FAILURE(load_tsv(tsv));
	for (const auto &e : tsv.errors)
		ADD_FAILURE() << "gaudi2-nic-regmap.tsv " << e;

	unsigned blocks = 0, regs = 0, fields = 0, bad = 0;
	for (const auto &b : reg::kBlockRows) {
		blocks++;
		const TsvRow *t = tsv_find(tsv, b.block, "@base", "");
		auto off = t ? parse_uint(t->offset) : std::nullopt;
		bool ok = off && *off == b.cfg_addr;
		bad += !ok;
		EXPECT_TRUE(ok) << "kBlockRows {" << b.block << ", " << hex(b.cfg_addr) << "}: TSV "
				<< (!t ? std::string("has no (") + b.block + ", @base) row"
				       : "line " + std::to_string(t->line) + " says @base " +
						 t->offset);
	}
	for (const auto &r : reg::kRegRows) {
		regs++;
		const TsvRow *t = tsv_find(tsv, r.block, r.reg, "");
		auto off = t ? parse_uint(t->offset) : std::nullopt;
		bool ok = off && *off == r.off;
		bad += !ok;
		EXPECT_TRUE(ok) << "kRegRows {" << r.block << ", " << r.reg << ", " << hex(r.off)
				<< "}: TSV "
				<< (!t ? std::string("has no register row")
				       : "line " + std::to_string(t->line) + " says offset " +
						 t->offset);
	}
	for (const auto &f : reg::kFieldRows) {
		fields++;
		const TsvRow *t = tsv_find(tsv, f.block, f.reg, f.field);
		auto tb = t ? parse_bits(t->bits) : std::nullopt;
		bool ok = tb && tb->lsb == f.lsb && tb->width == f.width;
		bad += !ok;
		std::string ours =
			std::to_string(f.lsb + f.width - 1) + ":" + std::to_string(f.lsb);
		EXPECT_TRUE(ok) << "kFieldRows {" << f.block << ", " << f.reg << ", " << f.field
				<< ", lsb " << f.lsb << ", width " << f.width << "} = " << ours
				<< ": TSV "
				<< (!t ? std::string("has no field row")
				       : "line " + std::to_string(t->line) + " says " + t->bits);
	}
	std::printf("[ regmap   ] checked %u blocks, %u registers, %u fields against %zu TSV rows: "
		    "%u mismatches\n",
		    blocks, regs, fields, tsv.rows.size(), bad);
	/* The tables must not be empty, or the loops above prove nothing. */
	EXPECT_GT(blocks, 0u);
	EXPECT_GT(regs, 0u);
	EXPECT_GT(fields, 0u);
}

/* gaudi2-nic-structs.md section "(b) Queue-pair contexts": the "Requester context" and
 * "Responder context" tables, rows "| Field | Bit | Width | Notes |". */
struct MdField {
	uint32_t bit;
	uint32_t width;
	unsigned line;
};
struct MdTables {
	/* ctx -> name -> rows (more than one row means the name is ambiguous) */
	std::map<std::string, std::map<std::string, std::vector<MdField>>> ctx;
	unsigned skipped = 0; /* rows whose width is not a number (ASID of the requester) */
};

void load_md(MdTables &md)
{
	const std::string path = shared_research() + "/gaudi2-nic-structs.md";
	std::ifstream in(path);
	ASSERT_TRUE(in) << "cannot open " << path
			<< " (set GAUDI_SHARED_RESEARCH to the directory holding it)";
	std::string line, ctx;
	bool in_section = false;
	unsigned n = 0;
	while (std::getline(in, line)) {
		n++;
		if (line.rfind("## ", 0) == 0) {
			in_section = line.find("(b) Queue-pair contexts") != std::string::npos;
			ctx.clear();
			continue;
		}
		if (!in_section)
			continue;
		if (line.rfind("Requester context", 0) == 0) {
			ctx = "requester";
			continue;
		}
		if (line.rfind("Responder context", 0) == 0) {
			ctx = "responder";
			continue;
		}
		if (line.rfind("### ", 0) == 0)
			ctx.clear();
		if (ctx.empty() || line.rfind("|", 0) != 0)
			continue;
		auto c = split(line, '|');
		/* c[0] is the empty text before the leading '|' */
		if (c.size() < 4)
			continue;
		std::string name = trim(c[1]);
		name = name.substr(0, name.find_first_of(" (\t"));
		auto bit = parse_uint(trim(c[2]), 10);
		auto width = parse_uint(trim(c[3]), 10);
		if (name.empty() || name == "Field" || name.rfind("---", 0) == 0)
			continue;
		if (!bit || !width) {
			md.skipped++;
			continue;
		}
		md.ctx[ctx][name].push_back(
			MdField{static_cast<uint32_t>(*bit), static_cast<uint32_t>(*width), n});
	}
	ASSERT_FALSE(md.ctx["requester"].empty())
		<< path << ": no \"Requester context\" table in section (b)";
	ASSERT_FALSE(md.ctx["responder"].empty())
		<< path << ": no \"Responder context\" table in section (b)";
}

TEST(RegmapConformance, QpcMatchesStructsTables)
{
	MdTables md;
	ASSERT_NO_FATAL_FAILURE(load_md(md));
	unsigned checked = 0, bad = 0;
	for (const auto &r : qpc::kFieldRows) {
		checked++;
		std::string ours = std::string("qpc::kFieldRows {") + r.ctx + ", " + r.name +
				   ", bit " + std::to_string(r.f.bit) + ", width " +
				   std::to_string(r.f.width) + "}";
		auto c = md.ctx.find(r.ctx);
		if (c == md.ctx.end()) {
			bad++;
			ADD_FAILURE() << ours << ": context is neither requester nor responder";
			continue;
		}
		auto it = c->second.find(r.name);
		if (it == c->second.end()) {
			bad++;
			ADD_FAILURE() << ours << ": no row of that name in the " << r.ctx
				      << " table";
			continue;
		}
		if (it->second.size() != 1) {
			bad++;
			ADD_FAILURE() << ours << ": " << it->second.size()
				      << " rows of that name in the " << r.ctx
				      << " table (ambiguous)";
			continue;
		}
		const MdField &m = it->second.front();
		bool ok = m.bit == r.f.bit && m.width == r.f.width;
		bad += !ok;
		EXPECT_TRUE(ok) << ours << ": gaudi2-nic-structs.md line " << m.line << " says bit "
				<< m.bit << ", width " << m.width;
	}
	std::printf("[ regmap   ] checked %u QPC fields against %zu requester and %zu responder "
		    "rows (%u rows without a numeric width skipped): %u mismatches\n",
		    checked, md.ctx["requester"].size(), md.ctx["responder"].size(), md.skipped,
		    bad);
	EXPECT_GT(checked, 0u);
}

TEST(RegmapConformance, RowsAreUnique)
{
	std::set<std::string> blocks;
	for (const auto &b : reg::kBlockRows)
		EXPECT_TRUE(blocks.insert(b.block).second) << "duplicate kBlockRows " << b.block;

	std::set<std::pair<std::string, std::string>> regs;
	std::map<std::pair<std::string, uint32_t>, std::string> offs;
	for (const auto &r : reg::kRegRows) {
		EXPECT_TRUE(regs.emplace(r.block, r.reg).second)
			<< "duplicate kRegRows " << r.block << "." << r.reg;
		auto [it, fresh] = offs.emplace(std::make_pair(std::string(r.block), r.off), r.reg);
		EXPECT_TRUE(fresh) << "kRegRows " << r.block << "." << r.reg << " and " << r.block
				   << "." << it->second << " share offset " << hex(r.off);
		EXPECT_EQ(blocks.count(r.block), 1u)
			<< "kRegRows " << r.block << "." << r.reg << ": block not in kBlockRows";
	}

	/* Fields: unique names, and no two fields of one register overlap. */
	std::map<std::pair<std::string, std::string>, std::vector<const reg::FieldRow *>> by_reg;
	std::set<std::tuple<std::string, std::string, std::string>> fields;
	for (const auto &f : reg::kFieldRows) {
		EXPECT_TRUE(fields.emplace(f.block, f.reg, f.field).second)
			<< "duplicate kFieldRows " << f.block << "." << f.reg << "." << f.field;
		EXPECT_LE(f.lsb + f.width, 32u)
			<< "kFieldRows " << f.block << "." << f.reg << "." << f.field
			<< " runs past bit 31";
		for (const auto *o : by_reg[{f.block, f.reg}]) {
			uint32_t a = reg::Field{f.lsb, f.width}.mask();
			uint32_t b = reg::Field{o->lsb, o->width}.mask();
			EXPECT_EQ(a & b, 0u) << "kFieldRows " << f.block << "." << f.reg << "."
					     << f.field << " overlaps " << o->field;
		}
		by_reg[{f.block, f.reg}].push_back(&f);
	}

	std::set<std::pair<std::string, std::string>> qfields;
	std::map<std::string, std::vector<const qpc::FieldRow *>> by_ctx;
	for (const auto &r : qpc::kFieldRows) {
		EXPECT_TRUE(qfields.emplace(r.ctx, r.name).second)
			<< "duplicate qpc::kFieldRows " << r.ctx << "." << r.name;
		for (const auto *o : by_ctx[r.ctx]) {
			bool disjoint = r.f.bit + r.f.width <= o->f.bit ||
					o->f.bit + o->f.width <= r.f.bit;
			EXPECT_TRUE(disjoint) << "qpc::kFieldRows " << r.ctx << "." << r.name
					      << " overlaps " << o->name;
		}
		by_ctx[r.ctx].push_back(&r);
	}
	EXPECT_LE(qpc::REQ_VALID.bit + qpc::REQ_VALID.width, qpc::kReqDwords * 32);
	EXPECT_LE(qpc::RES_VALID.bit + qpc::RES_VALID.width, qpc::kResDwords * 32);
}

TEST(RegmapConformance, FieldMask)
{
	/* Sanity values from the TSV: QPC GW_CTRL REQUESTER 24:24, QPN 23:0; a 32-bit field; a
	 * field not at bit 0 (RXE CQ_BASE_ADDR_31_7 R 31:7). */
	EXPECT_EQ(reg::QPC_GW_CTRL_REQUESTER.mask(), 1u << 24);
	EXPECT_EQ(reg::QPC_GW_CTRL_QPN.mask(), 0x00FFFFFFu);
	EXPECT_EQ(reg::QPC_GW_CTRL_DOORBELL_FORCE.mask(), 1u << 26);
	EXPECT_EQ(reg::QPC_SECURED_CQ_CONSUMER_INDEX_CONSUMER_INDEX.mask(), 0xFFFFFFFFu);
	EXPECT_EQ(reg::RXE_CQ_BASE_ADDR_31_7_R.mask(), 0xFFFFFF80u);
	EXPECT_EQ(reg::QPC_GW_CTRL_QPN.put(0x1234567), 0x234567u);
	EXPECT_EQ(reg::QPC_GW_CTRL_REQUESTER.get(0x01000000), 1u);
	EXPECT_EQ(reg::RXE_CQ_BASE_ADDR_31_7_R.get(0xFFFFFFFFu), 0x1FFFFFFu);

	/* Every declared field's mask against the mask its TSV "hi:lo" describes. */
	Tsv tsv;
	ASSERT_NO_FATAL_FAILURE(load_tsv(tsv));
	for (const auto &f : reg::kFieldRows) {
		const TsvRow *t = tsv_find(tsv, f.block, f.reg, f.field);
		if (!t)
			continue; /* reported by RegsMatchTsv */
		auto tb = parse_bits(t->bits);
		ASSERT_TRUE(tb) << "TSV line " << t->line << ": bits \"" << t->bits
				<< "\" is not hi:lo";
		uint32_t hi = tb->lsb + tb->width - 1;
		uint32_t want = (hi == 31 ? 0xFFFFFFFFu : (1u << (hi + 1)) - 1) &
				~((1u << tb->lsb) - 1);
		EXPECT_EQ((reg::Field{f.lsb, f.width}.mask()), want)
			<< f.block << "." << f.reg << "." << f.field << " (TSV " << t->bits << ")";
	}
}

} /* namespace */
