/* SPDX-License-Identifier: BSD-3-Clause
 * Conformance of the register map and QP-context layout in drivers/net/gaudi/base against the
 * research tables they cite: every row of gaudi_regs.h (kBlockRows, kRegRows, kFieldRows) is
 * looked up by name in gaudi2-nic-regmap.tsv, every row of gaudi_qpc.h (kFieldRows) in the
 * requester/responder tables of gaudi2-nic-structs.md section (b); gaudi_desc.h's descriptor
 * and enum rows against section (c), gaudi_hw_defs.h's kConstRows (and a few constants of
 * gaudi_regs.h, gaudi_qpc.h, gaudi_desc.h listed here) against sections (a), (b), (g), and
 * gaudi_fw_if.h (firmware registers, boot/COMMS/cpucp values, packet and reply layouts, file
 * names, timeouts) against sections (e) and (f).
 * The tables are read in place from $GAUDI_SHARED_RESEARCH, else from the path meson compiled in
 * (GAUDI_SHARED_RESEARCH_DEFAULT). They live beside the repository, not in it: when that
 * directory is absent (a bare clone) these tests skip; a table missing from a present directory
 * is still a failure.
 *
 * The PublicFacts tests need nothing outside the tree: they check gaudi_desc.h, gaudi_qpc.h,
 * gaudi_serdes.h (with gaudi_phy.h's timings) and gaudi_sm.h against
 * tests/data/gaudi2_public_facts.tsv, names and numbers of the public Gaudi2 drivers that
 * buildtools/gen-gaudi2-h-facts.py extracts from cached excerpts of their sources.
 */
#include <gtest/gtest.h>

#include <bit>
#include <cctype>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "base/gaudi_bar.h"
#include "base/gaudi_desc.h"
#include "base/gaudi_fw_if.h"
#include "base/gaudi_hw_defs.h"
#include "base/gaudi_phy.h"
#include "base/gaudi_qpc.h"
#include "base/gaudi_regs.h"
#include "base/gaudi_serdes.h"
#include "base/gaudi_sm.h"

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

/* The research directory is outside the repository; a clone without it skips the tests that
 * read it (the in-tree PublicFacts tests still run). */
bool have_shared_research()
{
	std::error_code ec;
	return std::filesystem::is_directory(shared_research(), ec);
}

#define SKIP_WITHOUT_SHARED_RESEARCH()                                                            \
	do {                                                                                      \
		if (!have_shared_research())                                                      \
			GTEST_SKIP()                                                              \
				<< "no research tables at " << shared_research()                  \
				<< " (they live beside the repository, e.g. ../shared/research; " \
				<< "set GAUDI_SHARED_RESEARCH); PublicFacts.* check base/ "       \
				<< "against tests/data/gaudi2_public_facts.tsv instead";          \
	} while (0)

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
	SKIP_WITHOUT_SHARED_RESEARCH();
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
	SKIP_WITHOUT_SHARED_RESEARCH();
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
			ADD_FAILURE()
				<< ours << ": no row of that name in the " << r.ctx << " table";
			continue;
		}
		if (it->second.size() != 1) {
			bad++;
			ADD_FAILURE()
				<< ours << ": " << it->second.size() << " rows of that name in the "
				<< r.ctx << " table (ambiguous)";
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
		EXPECT_LE(f.lsb + f.width, 32u) << "kFieldRows " << f.block << "." << f.reg << "."
						<< f.field << " runs past bit 31";
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
			bool disjoint =
				r.f.bit + r.f.width <= o->f.bit || o->f.bit + o->f.width <= r.f.bit;
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
	SKIP_WITHOUT_SHARED_RESEARCH();
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
		uint32_t want =
			(hi == 31 ? 0xFFFFFFFFu : (1u << (hi + 1)) - 1) & ~((1u << tb->lsb) - 1);
		EXPECT_EQ((reg::Field{f.lsb, f.width}.mask()), want)
			<< f.block << "." << f.reg << "." << f.field << " (TSV " << t->bits << ")";
	}
}

/* gaudi2-nic-structs.md as lines, and every markdown table row in it with the "##"/"###"
 * headings above it and the header row of its table. */
struct MdRow {
	std::string section;	/* last "## " heading */
	std::string subsection; /* last "### " heading (cleared by a "## ") */
	std::vector<std::string> header;
	std::vector<std::string> cells;
	unsigned line;
};
struct MdDoc {
	std::vector<std::string> lines;
	std::vector<MdRow> rows;
	std::string text; /* all lines joined by single spaces, for prose spanning lines */
};

std::vector<std::string> md_cells(const std::string &line)
{
	auto c = split(line, '|');
	std::vector<std::string> out;
	/* drop the empty text before the leading '|' and after the trailing one */
	for (size_t i = 1; i + 1 < c.size() || (i + 1 == c.size() && !trim(c[i]).empty()); i++)
		out.push_back(trim(c[i]));
	return out;
}

void load_doc(MdDoc &doc)
{
	const std::string path = shared_research() + "/gaudi2-nic-structs.md";
	std::ifstream in(path);
	ASSERT_TRUE(in) << "cannot open " << path
			<< " (set GAUDI_SHARED_RESEARCH to the directory holding it)";
	std::string line, sec, sub;
	std::vector<std::string> header;
	bool in_table = false;
	while (std::getline(in, line)) {
		doc.lines.push_back(line);
		doc.text += trim(line) + " ";
		if (line.rfind("## ", 0) == 0) {
			sec = line;
			sub.clear();
		} else if (line.rfind("### ", 0) == 0) {
			sub = line;
		}
		if (line.rfind("|", 0) != 0) {
			in_table = false;
			continue;
		}
		auto cells = md_cells(line);
		if (!in_table) {
			header = cells;
			in_table = true;
			continue;
		}
		if (!cells.empty() && cells[0].rfind("---", 0) == 0)
			continue;
		doc.rows.push_back(MdRow{sec, sub, header, cells, unsigned(doc.lines.size())});
	}
	ASSERT_FALSE(doc.rows.empty()) << path << " has no tables";
}

/* Leading number of a cell ("8 (the HW checks ...)", "**0x9400000**", "0x2"); decimal or hex. */
std::optional<uint64_t> leading_uint(const std::string &cell, size_t *used = nullptr)
{
	std::string s = cell;
	size_t b = s.find_first_not_of(" *`");
	if (b == std::string::npos || !std::isdigit(static_cast<unsigned char>(s[b])))
		return std::nullopt;
	const char *p = s.c_str() + b;
	char *end = nullptr;
	errno = 0;
	unsigned long long v = std::strtoull(p, &end, 0);
	if (errno != 0 || end == p)
		return std::nullopt;
	if (used)
		*used = b + static_cast<size_t>(end - p);
	return v;
}

/* The value a digest "Value" cell states: its first number, or the result of a leading
 * "a op b ... = c" (ops + - − x), in which case the arithmetic is checked too ("8192 + 128 =
 * 8320"). "64 entries x 8 B = 512 B" is 64: the expression stops at a word that is no operator;
 * "2880 x 128 B" is 2880: without "= c" the first number is the value. */
std::optional<uint64_t> stated_value(const std::string &cell, std::string *arith_error)
{
	std::istringstream in(cell);
	std::vector<std::string> tok;
	for (std::string t; in >> t;)
		tok.push_back(t);
	auto num = [](const std::string &t) -> std::optional<uint64_t> {
		size_t used = 0;
		auto v = leading_uint(t, &used);
		std::string rest = t.substr(used);
		if (!v || rest.find_first_not_of("*`,;") != std::string::npos)
			return std::nullopt;
		return v;
	};
	if (tok.empty())
		return std::nullopt;
	auto v = num(tok[0]);
	if (!v)
		return leading_uint(cell);
	int64_t acc = static_cast<int64_t>(*v);
	bool stated = false; /* an "= c" ended the expression: c is the value, else the first */
	for (size_t i = 1; i + 1 < tok.size(); i += 2) {
		const std::string &op = tok[i];
		auto n = num(tok[i + 1]);
		if (!n)
			break;
		if (op == "+")
			acc += static_cast<int64_t>(*n);
		else if (op == "-" || op == "\u2212")
			acc -= static_cast<int64_t>(*n);
		else if (op == "x" || op == "*" || op == "\u00d7")
			acc *= static_cast<int64_t>(*n);
		else if (op == "=") {
			if (acc != static_cast<int64_t>(*n) && arith_error)
				*arith_error = "\"" + cell + "\" does not add up (" +
					       std::to_string(acc) + ")";
			acc = static_cast<int64_t>(*n);
			stated = true;
		} else
			break;
	}
	return stated ? static_cast<uint64_t>(acc) : *v;
}

bool is_ident_char(char c)
{
	return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/* name occurs in s as a whole word (not inside a longer identifier: NIC_MAX_FRM_LEN is not
 * found in NIC_MAC_MAX_FRM_LEN, CFG_BAR_ID not in SRAM_CFG_BAR_ID). */
bool has_word(const std::string &s, const std::string &name)
{
	for (size_t p = s.find(name); p != std::string::npos; p = s.find(name, p + 1)) {
		bool l = p == 0 || !is_ident_char(s[p - 1]);
		bool r = p + name.size() >= s.size() || !is_ident_char(s[p + name.size()]);
		if (l && r)
			return true;
	}
	return false;
}

std::string regex_escape(const std::string &s)
{
	static const std::string special = R"(\^$.|?*+()[]{}-)";
	std::string out;
	for (char c : s) {
		if (special.find(c) != std::string::npos)
			out += '\\';
		out += c;
	}
	return out;
}

/* "hi:lo" or "n" to (lo, width). */
std::optional<std::pair<uint32_t, uint32_t>> parse_hilo(const std::string &bits)
{
	auto colon = bits.find(':');
	auto hi = parse_uint(trim(bits.substr(0, colon)), 10);
	auto lo = colon == std::string::npos ? hi : parse_uint(trim(bits.substr(colon + 1)), 10);
	if (!hi || !lo || *hi < *lo)
		return std::nullopt;
	return std::make_pair(static_cast<uint32_t>(*lo), static_cast<uint32_t>(*hi - *lo + 1));
}

bool sub_is(const MdRow &r, const char *prefix)
{
	return r.subsection.rfind(prefix, 0) == 0;
}

TEST(RegmapConformance, DescriptorsMatchStructs)
{
	SKIP_WITHOUT_SHARED_RESEARCH();
	namespace hw = gaudi::hw;
	MdDoc doc;
	ASSERT_NO_FATAL_FAILURE(load_doc(doc));

	/* desc -> rows (name or meaning, absolute bit, width, line) */
	struct Ref {
		std::string name;
		uint32_t bit, width;
		unsigned line;
	};
	std::map<std::string, std::vector<Ref>> ref;
	for (const auto &r : doc.rows) {
		if (r.cells.size() < 3)
			continue;
		if (sub_is(r, "### Send WQE") && r.header[0] == "Field") {
			std::string name = r.cells[0].substr(0, r.cells[0].find_first_of(" ("));
			auto bit = parse_uint(r.cells[1], 10);
			auto width = leading_uint(r.cells[2]);
			if (bit && width)
				ref["TxWqe"].push_back(
					Ref{name, uint32_t(*bit), uint32_t(*width), r.line});
			else
				ADD_FAILURE()
					<< "structs.md line " << r.line << ": unreadable WQE row";
		}
		bool cqe = sub_is(r, "### CQE"), eqe = sub_is(r, "### NIC EQE");
		if ((cqe || eqe) && r.header[0] == "Dword") {
			auto dw = parse_uint(r.cells[0], 10);
			auto hl = parse_hilo(r.cells[1]);
			if (dw && hl)
				ref[cqe ? "Cqe" : "Eqe"].push_back(
					Ref{r.cells[2], uint32_t(*dw) * 32 + hl->first, hl->second,
					    r.line});
			else
				ADD_FAILURE() << "structs.md line " << r.line << ": unreadable row";
		}
	}
	std::smatch m;
	static const std::regex eq_idx(R"(EQ index mask: bits (\d+):(\d+))");
	if (std::regex_search(doc.text, m, eq_idx)) {
		auto hl = parse_hilo(m[1].str() + ":" + m[2].str());
		if (hl)
			ref["EqIdx"].push_back(Ref{"EQ index mask", hl->first, hl->second, 0});
	}
	ASSERT_FALSE(ref["TxWqe"].empty()) << "no Send WQE table in section (c)";
	ASSERT_FALSE(ref["Cqe"].empty()) << "no CQE table in section (c)";
	ASSERT_FALSE(ref["Eqe"].empty()) << "no NIC EQE table in section (c)";
	ASSERT_FALSE(ref["EqIdx"].empty()) << "no \"EQ index mask: bits hi:lo\" in section (c)";

	unsigned fields = 0, bad = 0;
	for (const auto &f : hw::kDescFieldRows) {
		fields++;
		std::string ours = std::string("kDescFieldRows {") + f.desc + ", \"" + f.name +
				   "\", bit " + std::to_string(f.bit) + ", width " +
				   std::to_string(f.width) + "}";
		std::vector<const Ref *> hits;
		bool exact = std::string(f.desc) == "TxWqe" || std::string(f.desc) == "EqIdx";
		for (const auto &r : ref[f.desc])
			if (exact ? r.name == f.name : r.name.find(f.name) != std::string::npos)
				hits.push_back(&r);
		if (hits.size() != 1) {
			bad++;
			ADD_FAILURE() << ours << ": " << hits.size() << " rows of the " << f.desc
				      << " table of gaudi2-nic-structs.md match the name (need 1)";
			continue;
		}
		bool ok = hits[0]->bit == f.bit && hits[0]->width == f.width;
		bad += !ok;
		EXPECT_TRUE(ok) << ours << ": gaudi2-nic-structs.md "
				<< (hits[0]->line ? "line " + std::to_string(hits[0]->line)
						  : std::string("prose"))
				<< " says bit " << hits[0]->bit << " (dword " << hits[0]->bit / 32
				<< " bit " << hits[0]->bit % 32 << "), width " << hits[0]->width;
	}

	/* Enumerators. */
	std::map<std::string, uint64_t> opcodes;
	for (size_t i = 0; i < doc.lines.size(); i++) {
		auto p = doc.lines[i].find("WQE opcodes:");
		if (p == std::string::npos)
			continue;
		std::string list = doc.lines[i].substr(p);
		for (size_t j = i + 1; j < doc.lines.size() && doc.lines[j].rfind("  ", 0) == 0;
		     j++)
			list += " " + trim(doc.lines[j]);
		static const std::regex item(R"((\d+) ([A-Z_]+))");
		for (std::sregex_iterator it(list.begin(), list.end(), item), e; it != e; ++it)
			opcodes[(*it)[2].str()] = std::stoull((*it)[1].str());
		break;
	}
	std::map<std::string, uint64_t> eqe_types;
	std::map<uint64_t, std::pair<std::string, unsigned>> syndromes;
	for (const auto &r : doc.rows) {
		if (r.cells.size() < 2)
			continue;
		if (r.header[0] == "EQE type" && r.header[1] == "Value") {
			auto v = leading_uint(r.cells[1]);
			if (v)
				eqe_types[r.cells[0]] = *v;
		}
		if (sub_is(r, "### QP error syndromes") && r.header[0] == "Code") {
			auto v = leading_uint(r.cells[0]);
			if (v)
				syndromes[*v] = {r.cells[1], r.line};
			else
				ADD_FAILURE()
					<< "structs.md line " << r.line << ": unreadable code";
		}
	}
	ASSERT_FALSE(opcodes.empty()) << "no \"WQE opcodes: 0 NOP, ...\" list in section (c)";
	ASSERT_FALSE(eqe_types.empty()) << "no \"EQE type | Value\" table in section (c)";
	ASSERT_FALSE(syndromes.empty()) << "no QP error syndrome table in section (c)";

	unsigned enums = 0;
	auto check_named = [&](const char *table, const auto &rows,
			       const std::map<std::string, uint64_t> &digest, const char *where) {
		for (const auto &e : rows) {
			enums++;
			auto it = digest.find(e.name);
			bool ok = it != digest.end() && it->second == e.value;
			bad += !ok;
			EXPECT_TRUE(ok) << table << " {" << e.name << ", " << hex(e.value)
					<< "}: " << where << " "
					<< (it == digest.end() ? std::string("has no such name")
							       : "says " + hex(it->second));
		}
	};
	check_named("kWqeOpcodeRows", hw::kWqeOpcodeRows, opcodes, "the WQE opcode list");
	check_named("kEqeTypeRows", hw::kEqeTypeRows, eqe_types, "the \"EQE type | Value\" table");
	for (const auto &e : hw::kQpErrSyndromeRows) {
		enums++;
		auto it = syndromes.find(e.value);
		bool ok =
			it != syndromes.end() && it->second.first.find(e.name) != std::string::npos;
		bad += !ok;
		EXPECT_TRUE(ok) << "kQpErrSyndromeRows {\"" << e.name << "\", " << hex(e.value)
				<< "}: the syndrome table "
				<< (it == syndromes.end()
					    ? std::string("has no such code")
					    : "line " + std::to_string(it->second.second) +
						      " says \"" + it->second.first + "\"");
	}
	for (const auto &e : hw::kQpErrSyndromeChoiceRows) {
		enums++;
		auto it = syndromes.find(e.value);
		bool ok = it == syndromes.end();
		bad += !ok;
		EXPECT_TRUE(ok) << "QpErrSyndrome::" << e.name << " = " << hex(e.value)
				<< " is a [choice], but the published table has that code, line "
				<< (ok ? 0 : it->second.second) << ": \""
				<< (ok ? "" : it->second.first) << "\"";
	}
	std::printf("[ regmap   ] checked %u descriptor fields, %u enum values against "
		    "gaudi2-nic-structs.md (c) (%zu opcodes, %zu EQE types, %zu syndromes "
		    "published): %u mismatches\n",
		    fields, enums, opcodes.size(), eqe_types.size(), syndromes.size(), bad);
	EXPECT_GT(fields, 0u);
	EXPECT_GT(enums, 0u);
}

/* Constants outside gaudi_hw_defs.h that the digest states (those headers keep no ConstRow). */
constexpr gaudi::hw::ConstRow kOtherConstRows[] = {
	{"RXB buffers", reg::kRxbBuffers},
	{"schedq_num", qpc::kRawSchedQ},
	{"NIC_MAX_QP_NUM", gaudi::hw::kMaxQpNum},
};

/* Names the digest prints in prose or in a table of its own layout: a regex whose group 1 is
 * the number and optional group 2 a unit (MB, KB). */
const std::map<std::string, std::string> &prose_patterns()
{
	static const std::map<std::string, std::string> p = {
		{"CFG_BAR_SIZE", R"((\d+) (MB|KB) \(`CFG_BAR_SIZE`)"},
		{"CFG_BASE - STM_FLASH_BASE_ADDR", R"(CFG_BASE [^)]*STM_FLASH_BASE_ADDR\)[^.]*\. )"
						   R"(That difference is (0x[0-9A-Fa-f]+))"},
		{"NIC0 macro start", R"(\| NIC0 macro start [^|]*\| [^|]* \| \**(0x[0-9A-Fa-f]+))"},
		{"NIC macro stride",
		 R"(\| NIC m macro start \| 0x[0-9A-Fa-f]+ \+ m x (0x[0-9A-Fa-f]+))"},
		{"NIC macros", R"((\d+) NIC macros)"},
		{"NIC engines", R"((\d+) NIC engines)"},
		{"schedq_num",
		 R"(schedq_num = TXS_PORT_RAW_SCHED_Q[^.]*\. [^.]*which gives (\d+))"},
	};
	return p;
}

struct Found {
	std::optional<uint64_t> value;
	std::string where;
	std::string error;
};

Found find_const(const MdDoc &doc, const std::string &name)
{
	Found f;
	auto pp = prose_patterns().find(name);
	if (pp != prose_patterns().end()) {
		std::smatch m;
		std::regex re(pp->second);
		if (!std::regex_search(doc.text, m, re)) {
			f.error = "no text matching /" + pp->second + "/";
			return f;
		}
		uint64_t v = std::strtoull(m[1].str().c_str(), nullptr, 0);
		if (m.size() > 2 && m[2].str() == "MB")
			v <<= 20;
		else if (m.size() > 2 && m[2].str() == "KB")
			v <<= 10;
		f.value = v;
		f.where = "\"" + m[0].str() + "\"";
		return f;
	}
	/* A "| name | Value |" table row whose first cell holds the name; "A / B" names take
	 * the matching part of an "a / b" value. */
	for (const auto &r : doc.rows) {
		if (r.header.size() < 2 || r.header[1] != "Value" || r.cells.size() < 2 ||
		    !has_word(r.cells[0], name))
			continue;
		std::string cell = r.cells[1];
		auto names = r.cells[0];
		if (names.find(" / ") != std::string::npos) {
			size_t idx = 0;
			for (size_t p = 0; (p = names.find(" / ", p)) != std::string::npos; p += 3)
				if (!has_word(names.substr(0, p), name))
					idx++;
			size_t pos = 0;
			for (size_t i = 0; i < idx && pos != std::string::npos; i++) {
				pos = cell.find(" / ", pos);
				if (pos != std::string::npos)
					pos += 3;
			}
			if (pos == std::string::npos) {
				f.error = "line " + std::to_string(r.line) + ": value \"" + cell +
					  "\" has no part " + std::to_string(idx + 1);
				return f;
			}
			cell = cell.substr(pos, cell.find(" / ", pos) - pos);
		}
		f.value = stated_value(cell, &f.error);
		f.where = "line " + std::to_string(r.line) + " \"" + r.cells[1] + "\"";
		if (!f.value)
			f.error = f.where + ": no number";
		return f;
	}
	/* Prose: "NAME = 187", "NAME 8192", "NAME (8192)", "`#define NAME 0`"; all must agree. */
	std::regex re("(^|[^A-Za-z0-9_])" + regex_escape(name) +
		      R"(`?\)?\s*(=\s*)?\(?(0x[0-9A-Fa-f]+|\d+)\b)");
	for (std::sregex_iterator it(doc.text.begin(), doc.text.end(), re), e; it != e; ++it) {
		uint64_t v = std::strtoull((*it)[3].str().c_str(), nullptr, 0);
		if (f.value && *f.value != v) {
			f.error = "prose gives " + std::to_string(*f.value) + " and " +
				  std::to_string(v);
			return f;
		}
		f.value = v;
		f.where = "\"" + trim((*it)[0].str()) + "\"";
	}
	if (!f.value)
		f.error = "name not found with a number";
	return f;
}

TEST(RegmapConformance, ConstantsMatchStructs)
{
	SKIP_WITHOUT_SHARED_RESEARCH();
	MdDoc doc;
	ASSERT_NO_FATAL_FAILURE(load_doc(doc));
	unsigned checked = 0, bad = 0;
	auto check = [&](const char *table, const gaudi::hw::ConstRow &c) {
		checked++;
		Found f = find_const(doc, c.name);
		bool ok = f.value && f.error.empty() && *f.value == c.value;
		bad += !ok;
		std::string said =
			!f.error.empty() ? f.error : f.where + " gives " + std::to_string(*f.value);
		EXPECT_TRUE(ok) << table << " {\"" << c.name << "\", " << c.value << " ("
				<< hex(c.value) << ")}: gaudi2-nic-structs.md " << said;
	};
	for (const auto &c : gaudi::hw::kConstRows)
		check("kConstRows", c);
	for (const auto &c : kOtherConstRows)
		check("kOtherConstRows", c);
	std::printf("[ regmap   ] checked %u constants against gaudi2-nic-structs.md (a), (b), "
		    "(g): %u mismatches\n",
		    checked, bad);
	EXPECT_GT(checked, 0u);
}

/* ---- Firmware interface (gaudi_fw_if.h) against sections (e) and (f) ---- */

/* The rows of the first table after the first line containing marker. */
std::vector<const MdRow *> table_after(const MdDoc &doc, const std::string &marker)
{
	std::vector<const MdRow *> out;
	unsigned at = 0;
	for (size_t i = 0; i < doc.lines.size() && at == 0; i++)
		if (doc.lines[i].find(marker) != std::string::npos)
			at = unsigned(i + 1);
	if (at == 0)
		return out;
	for (const auto &r : doc.rows) {
		if (r.line <= at)
			continue;
		if (!out.empty() && r.line > out.back()->line + 1)
			break;
		out.push_back(&r);
	}
	return out;
}

/* Leading identifier of a cell ("**NIC_INFO_GET**", "mac_addrs[128], ...", "ctl: ..."). */
std::string ident(const std::string &cell)
{
	size_t b = cell.find_first_not_of(" *`");
	if (b == std::string::npos)
		return "";
	size_t e = b;
	while (e < cell.size() &&
	       (std::isalnum(static_cast<unsigned char>(cell[e])) || cell[e] == '_'))
		e++;
	return cell.substr(b, e - b);
}

/* "N NAME" items of the sentence that starts at marker (up to the next ". "). */
std::map<std::string, uint64_t> numbered_list(const MdDoc &doc, const std::string &marker)
{
	std::map<std::string, uint64_t> out;
	size_t p = doc.text.find(marker);
	if (p == std::string::npos)
		return out;
	size_t e = doc.text.find(". ", p);
	std::string list = doc.text.substr(p, e == std::string::npos ? std::string::npos : e - p);
	static const std::regex item(R"((\d+) ([A-Z][A-Z0-9_]+))");
	for (std::sregex_iterator it(list.begin(), list.end(), item), end; it != end; ++it)
		out[(*it)[2].str()] = std::stoull((*it)[1].str());
	return out;
}

std::optional<uint64_t> prose_number(const MdDoc &doc, const std::string &re, int group = 1)
{
	std::smatch m;
	if (!std::regex_search(doc.text, m, std::regex(re)))
		return std::nullopt;
	return std::strtoull(m[group].str().c_str(), nullptr, 0);
}

TEST(RegmapConformance, FirmwareMatchesStructs)
{
	SKIP_WITHOUT_SHARED_RESEARCH();
	namespace fw = gaudi::hw::fw;
	MdDoc doc;
	ASSERT_NO_FATAL_FAILURE(load_doc(doc));
	unsigned checked = 0, bad = 0, absent = 0;
	auto expect = [&](bool ok, const std::string &what) {
		checked++;
		bad += !ok;
		EXPECT_TRUE(ok) << what;
	};

	/* Registers: the (f) table by register name, then the CPU_IF addresses in (e)'s prose. */
	std::map<std::string, std::pair<uint64_t, unsigned>> regs;
	auto strip = [](std::string n) {
		const std::string pre = "PSOC_GLOBAL_CONF_";
		return n.rfind(pre, 0) == 0 ? n.substr(pre.size()) : n;
	};
	for (const auto &r : doc.rows)
		if (r.header.size() >= 3 && r.header[1] == "Register" &&
		    r.header[2] == "Config address" && r.cells.size() >= 3 &&
		    r.cells[1].find('/') == std::string::npos) {
			auto v = leading_uint(r.cells[2]);
			if (v)
				regs[strip(r.cells[1])] = {*v, r.line};
		}
	ASSERT_FALSE(regs.empty()) << "no \"Register | Config address\" table in section (f)";
	std::smatch m;
	if (std::regex_search(doc.text, m, std::regex(R"(PF_PQ_PI \((0x[0-9A-Fa-f]+)\))")))
		regs["CPU_IF_PF_PQ_PI"] = {std::stoull(m[1].str(), nullptr, 16), 0};
	if (std::regex_search(doc.text, m, std::regex(R"(QUEUE_INIT \((0x[0-9A-Fa-f]+)\))")))
		regs["CPU_IF_QUEUE_INIT"] = {std::stoull(m[1].str(), nullptr, 16), 0};
	if (std::regex_search(
		    doc.text, m,
		    std::regex(R"(PQ/EQ/CQ_BASE_ADDR_LOW/HIGH\. These are at )"
			       R"((0x[0-9A-Fa-f]+)/([0-9A-Fa-f]{2}), (0x[0-9A-Fa-f]+)/)"
			       R"(([0-9A-Fa-f]{2}) and (0x[0-9A-Fa-f]+)/([0-9A-Fa-f]{2}))"))) {
		const char *q[] = {"PQ", "EQ", "CQ"};
		for (int i = 0; i < 3; i++) {
			uint64_t lo = std::stoull(m[1 + 2 * i].str(), nullptr, 16);
			uint64_t hi =
				(lo & ~0xFFull) | std::stoull(m[2 + 2 * i].str(), nullptr, 16);
			regs[std::string("CPU_IF_") + q[i] + "_BASE_ADDR_LOW"] = {lo, 0};
			regs[std::string("CPU_IF_") + q[i] + "_BASE_ADDR_HIGH"] = {hi, 0};
		}
	}
	for (const auto &r : fw::kFwRegRows) {
		auto it = regs.find(strip(r.reg));
		if (it == regs.end()) {
			/* e.g. CPU_IF_PQ_LENGTH: read from cpu_if_regs.h, not in the digest */
			absent++;
			std::printf("[ fw       ] %s (%s, %s): not in the digest, unchecked\n",
				    r.name, r.reg, hex(r.cfg_addr).c_str());
			continue;
		}
		expect(it->second.first == r.cfg_addr,
		       std::string("kFwRegRows {") + r.name + ", " + r.reg + ", " +
			       hex(r.cfg_addr) + "}: gaudi2-nic-structs.md " +
			       (it->second.second ? "line " + std::to_string(it->second.second)
						  : std::string("(e) prose")) +
			       " says " + hex(it->second.first));
	}

	/* Enumerations. */
	auto check_enum = [&](const char *table, const auto &rows,
			      const std::map<std::string, uint64_t> &digest) {
		EXPECT_FALSE(digest.empty()) << table << ": nothing found in the digest";
		for (const auto &e : rows) {
			auto it = digest.find(e.name);
			if (it == digest.end()) {
				absent++;
				std::printf(
					"[ fw       ] %s %s = %llu: not in the digest, unchecked\n",
					table, e.name, (unsigned long long)e.value);
				continue;
			}
			expect(it->second == e.value,
			       std::string(table) + " {" + e.name + ", " + std::to_string(e.value) +
				       "}: digest says " + std::to_string(it->second));
		}
	};
	std::map<std::string, uint64_t> boot;
	for (const auto &r : doc.rows)
		if (r.header.size() >= 2 && r.header[0] == "Value" && r.header[1] == "Status")
			if (auto v = leading_uint(r.cells[0]))
				boot[ident(r.cells[1])] = *v;
	for (const char *n : {"NIC_FW_RDY", "READY_TO_BOOT", "WAITING_FOR_BOOT_FIT"})
		if (auto v = prose_number(doc, std::string(n) + R"( \((\d+)\))"))
			boot[n] = *v;
	check_enum("kBootStatusRows", fw::kBootStatusRows, boot);
	auto bit_table = [&](const std::string &marker) {
		std::map<std::string, uint64_t> out;
		for (const MdRow *r : table_after(doc, marker))
			for (size_t c = 0; c + 1 < r->cells.size(); c += 2)
				if (auto v = leading_uint(r->cells[c]))
					out[ident(r->cells[c + 1])] = *v;
		return out;
	};
	check_enum("kDevSts0Rows", fw::kDevSts0Rows, bit_table("DEV_STS0 bits."));
	auto err0 = bit_table("ERR0 bits (bit 31 ENABLED)");
	if (prose_number(doc, R"(ERR0 bits \(bit (\d+) ENABLED\))"))
		err0["ENABLED"] = *prose_number(doc, R"(ERR0 bits \(bit (\d+) ENABLED\))");
	check_enum("kErr0Rows", fw::kErr0Rows, err0);
	check_enum("kCommsCmdRows", fw::kCommsCmdRows, numbered_list(doc, "Commands: 0 NOOP"));
	check_enum("kCommsStsRows", fw::kCommsStsRows, numbered_list(doc, "Statuses: 0 NOOP"));
	std::map<std::string, uint64_t> ops;
	for (const auto &r : doc.rows)
		if (sub_is(r, "### Opcodes") && r.header[0] == "#" && r.cells.size() >= 2)
			if (auto v = leading_uint(r.cells[0]))
				ops[ident(r.cells[1])] = *v;
	/* The opcodes only the newer vendor copy numbers ("* 55 NIC_ECC_INTRS_UNMASK"). */
	static const std::regex bullet(R"(^\* ((\d+) [A-Z_0-9]+(, )?)+)");
	for (const auto &l : doc.lines)
		if (std::regex_search(l, bullet)) {
			static const std::regex item(R"((\d+) ([A-Z][A-Z_0-9]+))");
			for (std::sregex_iterator it(l.begin(), l.end(), item), e; it != e; ++it)
				ops.emplace((*it)[2].str(), std::stoull((*it)[1].str()));
		}
	check_enum("kOpcodeRows", fw::kOpcodeRows, ops);
	std::map<std::string, uint64_t> rcs;
	size_t rp = doc.text.find("Return codes:");
	if (rp != std::string::npos) {
		std::string l = doc.text.substr(rp, doc.text.find(". ", rp) - rp);
		static const std::regex item(R"((\d+) ([a-z]+( packet| params)?))");
		for (std::sregex_iterator it(l.begin(), l.end(), item), e; it != e; ++it) {
			std::string n = (*it)[2].str();
			n = std::regex_replace(n, std::regex(" packet$"), "_pkt");
			n = std::regex_replace(n, std::regex(" params$"), "_params");
			rcs[n] = std::stoull((*it)[1].str());
		}
	}
	check_enum("kCpucpRcRows", fw::kCpucpRcRows, rcs);
	/* QUEUE_INIT handshake values. */
	for (auto [n, v] : {std::pair{"READY_FOR_CP", fw::PqInit::READY_FOR_CP},
			    std::pair{"READY_FOR_HOST", fw::PqInit::READY_FOR_HOST}}) {
		auto d = prose_number(doc, std::string(R"((\d+) \()") + n + R"(\))");
		expect(d && *d == uint32_t(v),
		       std::string("PqInit::") + n + " = " + std::to_string(uint32_t(v)) +
			       ": digest " + (d ? std::to_string(*d) : std::string("none")));
	}

	/* Fields of control words and registers: (name, ours, digest regex of "hi:lo"). */
	struct FieldRef {
		const char *name;
		fw::FwField f;
		const char *re;
	};
	const FieldRef fields[] = {
		{"kPktCtlOpcode", fw::kPktCtlOpcode, R"(opcode in bits (\d+):(\d+))"},
		{"kPktCtlRc", fw::kPktCtlRc, R"(return code in bits (\d+):(\d+))"},
		{"kCommsCmdSize", fw::kCommsCmdSize, R"(size in bits (\d+):(\d+))"},
		{"kCommsCmdCmd", fw::kCommsCmdCmd, R"(command in bits (\d+):(\d+))"},
		{"kCommsStsOffset", fw::kCommsStsOffset, R"(offset >> 2 in bits (\d+):(\d+))"},
		{"kCommsStsRamType", fw::kCommsStsRamType, R"(RAM type in bits (\d+):(\d+))"},
		{"kCommsStsStatus", fw::kCommsStsStatus, R"(status in bits (\d+):(\d+))"},
		{"kPktValEnable (PFC/LPBK)", fw::kPktValEnable, R"(value bit (\d+)() = enable)"},
		{"kPktValLanes (PFC/LPBK)", fw::kPktValLanes, R"(bits (\d+):(\d+) = lanes)"},
		{"kCheckersType", fw::kCheckersType, R"(check type in bits (\d+):(\d+))"},
		{"kCheckersCheck", fw::kCheckersCheck, R"(check enable in bit (\d+)())"},
		{"kCheckersDrop", fw::kCheckersDrop, R"(drop in bit (\d+)())"},
	};
	for (const auto &f : fields) {
		bool found = std::regex_search(doc.text, m, std::regex(f.re));
		uint32_t hi = found ? uint32_t(std::stoul(m[1].str())) : 0;
		uint32_t lo = found && m[2].length() ? uint32_t(std::stoul(m[2].str())) : hi;
		expect(found && lo == f.f.lsb && hi - lo + 1 == f.f.width,
		       std::string(f.name) + " lsb " + std::to_string(f.f.lsb) + " width " +
			       std::to_string(f.f.width) + ": digest " +
			       (found ? "\"" + m[0].str() + "\""
				      : std::string("has no /") + f.re + "/"));
	}

	/* Constants stated in prose: (name, ours, regex; group 1 the number, group 2 a unit). */
	struct ConstRef {
		const char *name;
		uint64_t value;
		const char *re;
		uint64_t scale;
	};
	const ConstRef consts[] = {
		{"kFenceVal", fw::kFenceVal, R"(CPUCP_PACKET_FENCE_VAL = (0x[0-9A-Fa-f]+))", 1},
		{"kFencePreset", fw::kFencePreset, R"(presets it to (0x[0-9A-Fa-f]+))", 1},
		{"kCommsDescMagic", fw::kCommsDescMagic, R"("HCDM" \((0x[0-9A-Fa-f]+)\))", 1},
		{"kCommsMsgMagic", fw::kCommsMsgMagic, R"(message magic is (0x[0-9A-Fa-f]+))", 1},
		{"kCommsDescVer", fw::kCommsDescVer, R"(version \(v(\d+)\))", 1},
		{"kCommsMaxSize + 1 (32 MB)", fw::kCommsMaxSize + 1ull, R"(max (\d+) MB)", 1 << 20},
		{"kPqBytes", fw::kPqBytes, R"(These are (\d+) KB \(4096 buffer)", 1024},
		{"kEqBytes", fw::kEqBytes, R"(\), (\d+) KB \(64 entries)", 1024},
		{"kCqBytes", fw::kCqBytes, R"(x 64 B\) and (\d+) MB)", 1 << 20},
		{"sizeof(PqBd)", sizeof(fw::PqBd), R"(one (\d+)-byte buffer descriptor)", 1},
		{"sizeof(CpucpPacket)", sizeof(fw::CpucpPacket),
		 R"(`struct cpucp_packet`, (\d+) bytes)", 1},
		{"sizeof(CpucpNicInfo)", sizeof(fw::CpucpNicInfo),
		 R"(`struct cpucp_nic_info`[^0-9]+(\d+) bytes)", 1},
		{"sizeof(CpucpNicStatus)", sizeof(fw::CpucpNicStatus),
		 R"(NIC copy is (\d+) bytes in total)", 1},
		{"sizeof(CpucpCnInitHwMemPacket)", sizeof(fw::CpucpCnInitHwMemPacket),
		 R"(`cpucp_cn_init_hw_mem_packet`, (\d+) bytes)", 1},
		{"kCpucpMaxNics", fw::kCpucpMaxNics, R"(CPUCP_MAX_NICS (\d+))", 1},
		{"kCpucpLanesPerNic", fw::kCpucpLanesPerNic, R"((\d+) lanes per NIC)", 1},
		{"kCpuTimeoutUs", fw::kCpuTimeoutUs, R"(GAUDI2_CPU_TIMEOUT_USEC of (\d+) s)",
		 1000000},
		{"kMsgToCpuTimeoutUs", fw::kMsgToCpuTimeoutUs,
		 R"(GAUDI2_MSG_TO_CPU_TIMEOUT_USEC \((\d+) s\))", 1000000},
		{"kCpucpInfoTimeoutUs", fw::kCpucpInfoTimeoutUs,
		 R"((\d+) s \(HL_CPUCP_INFO_TIMEOUT_USEC\))", 1000000},
		{"kPrebootReqTimeoutUs", fw::kPrebootReqTimeoutUs,
		 R"(GAUDI2_PREBOOT_REQ_TIMEOUT_USEC, (\d+) s)", 1000000},
		{"kWaitForBlTimeoutUs", fw::kWaitForBlTimeoutUs,
		 R"(GAUDI2_WAIT_FOR_BL_TIMEOUT_USEC \((\d+) s\))", 1000000},
		{"kBootFitReqTimeoutUs", fw::kBootFitReqTimeoutUs,
		 R"(GAUDI2_BOOT_FIT_REQ_TIMEOUT_USEC \((\d+) s\))", 1000000},
		{"kHwStateDirty (mmHW_STATE dirty bit)", 1,
		 R"(mmHW_STATE \(dirty bit\) \| CPU_IF_KMD_HW_DIRTY_STATUS \| (0x[0-9A-Fa-f]+))",
		 0},
	};
	for (const auto &c : consts) {
		auto v = prose_number(doc, c.re);
		if (c.scale == 0) { /* presence only: the row exists */
			expect(v.has_value(),
			       std::string(c.name) + ": digest has no /" + c.re + "/");
			continue;
		}
		expect(v && *v * c.scale == c.value,
		       std::string(c.name) + " = " + std::to_string(c.value) + ": digest " +
			       (v ? "gives " + std::to_string(*v * c.scale)
				  : std::string("has no /") + c.re + "/"));
	}
	/* The fatal ERR0 mask: the digest's list, plus NIC_FW_FAIL (ours, for a NIC driver). */
	{
		size_t p = doc.text.find("The fatal mask covers");
		uint32_t mask = 0;
		if (p != std::string::npos) {
			std::string l = doc.text.substr(p, doc.text.find(". ", p) - p);
			for (const auto &e : fw::kErr0Rows) {
				std::string n = e.name;
				std::string shortn =
					std::regex_replace(n, std::regex("_FAIL$"), "");
				if (has_word(l, n) ||
				    (n == "DEVICE_UNUSABLE_FAIL" && has_word(l, shortn)))
					mask |= uint32_t(e.value < 32 ? 1u << e.value : 0);
			}
		}
		expect(mask != 0 && (fw::err0::kFatal & ~fw::err0::NIC_FW_FAIL) == mask,
		       "err0::kFatal " + hex(fw::err0::kFatal) +
			       " minus NIC_FW_FAIL: digest's fatal mask " + hex(mask));
	}

	/* Layouts: offset and size of each field, by name, in the (e) tables. */
	std::map<std::string, std::vector<const MdRow *>> tables = {
		{"CpucpPacket", table_after(doc, "### Packet header")},
		{"CpucpNicInfo", table_after(doc, "`struct cpucp_nic_info`")},
		{"CpucpNicStatus", table_after(doc, "`struct cpucp_nic_status`")},
		{"CpucpCnInitHwMemPacket", table_after(doc, "`cpucp_cn_init_hw_mem_packet`")},
	};
	/* The init-memory table describes its fields in words. */
	const std::map<std::string, std::string> words = {{"mem_base_addr", "memory base address"},
							  {"num_entries", "number of entries"},
							  {"entry_size", "entry size"},
							  {"granularity", "granularity"}};
	for (const auto &l : fw::kLayoutRows) {
		const MdRow *hit = nullptr;
		for (const MdRow *r : tables[l.strct]) {
			if (r->cells.size() < 3)
				continue;
			auto w = words.find(l.field);
			bool match =
				std::string(l.strct) == "CpucpCnInitHwMemPacket"
					? w != words.end() && r->cells[2].rfind(w->second, 0) == 0
					: ident(r->cells[2]) == l.field;
			if (match)
				hit = r;
		}
		std::string ours = std::string("kLayoutRows {") + l.strct + "." + l.field +
				   ", offset " + std::to_string(l.offset) + ", size " +
				   std::to_string(l.size) + "}";
		if (!hit) {
			expect(false, ours + ": no row of that name in its (e) table");
			continue;
		}
		auto off = leading_uint(hit->cells[0]);
		auto size = leading_uint(hit->cells[1]);
		expect(off && size && *off == l.offset && *size == l.size,
		       ours + ": gaudi2-nic-structs.md line " + std::to_string(hit->line) +
			       " says " + hit->cells[0] + " / " + hit->cells[1]);
	}

	/* Firmware files. */
	std::set<std::string> files;
	for (const auto &r : doc.rows)
		if (r.header.size() >= 2 && r.header[0] == "File")
			files.insert(r.cells[0]);
	for (const char *f : {fw::kBootFitFile, fw::kFitFile, fw::kPhyFwFile})
		expect(files.count(f) == 1, std::string(f) + ": not in the firmware files table");

	std::printf("[ regmap   ] checked %u firmware-interface rows against gaudi2-nic-structs.md "
		    "(e), (f): %u mismatches, %u rows the digest does not state\n",
		    checked, bad, absent);
	EXPECT_GT(checked, 100u);
}

/* ---- base/ against the public Gaudi2 drivers, from the in-tree facts table ---- */

namespace serdes = gaudi::hw::serdes;
namespace sm = gaudi::hw::sm;

std::string public_facts_path()
{
	if (const char *e = std::getenv("GAUDI_PUBLIC_FACTS"))
		return e;
#ifdef GAUDI_PUBLIC_FACTS_DEFAULT
	return GAUDI_PUBLIC_FACTS_DEFAULT;
#else
	return "tests/data/gaudi2_public_facts.tsv";
#endif
}

/* tests/data/gaudi2_public_facts.tsv: "kind name value source", keyed by (kind, name). */
struct PublicFacts {
	std::map<std::pair<std::string, std::string>, std::string> rows;
	std::string error;
};

const PublicFacts &public_facts()
{
	static const PublicFacts facts = [] {
		PublicFacts f;
		const std::string path = public_facts_path();
		std::ifstream in(path);
		if (!in) {
			f.error = "cannot open " + path;
			return f;
		}
		std::string line;
		bool header = false;
		unsigned n = 0;
		while (std::getline(in, line)) {
			n++;
			if (line.empty() || line[0] == '#')
				continue;
			auto c = split(line, '\t');
			if (!header) {
				if (line != "kind\tname\tvalue\tsource")
					f.error = path + ": unexpected header";
				header = true;
				continue;
			}
			if (c.size() != 4 ||
			    !f.rows.emplace(std::make_pair(c[0], c[1]), c[2]).second) {
				f.error = path + " line " + std::to_string(n) +
					  ": malformed or duplicate";
				return f;
			}
		}
		return f;
	}();
	return facts;
}

/* Looks a row up; a missing row is a failure of the calling test, reported with its name. */
std::optional<std::string> fact_text(const std::string &kind, const std::string &name)
{
	const auto &rows = public_facts().rows;
	auto it = rows.find({kind, name});
	if (it == rows.end()) {
		ADD_FAILURE() << kind << " " << name << ": not in " << public_facts_path();
		return std::nullopt;
	}
	return it->second;
}

std::vector<uint64_t> fact_values(const std::string &kind, const std::string &name)
{
	std::vector<uint64_t> out;
	auto t = fact_text(kind, name);
	if (!t)
		return out;
	for (const auto &c : split(*t, ',')) {
		auto v = parse_uint(c);
		if (!v) {
			ADD_FAILURE()
				<< kind << " " << name << ": '" << *t << "' is not a number list";
			return {};
		}
		out.push_back(*v);
	}
	return out;
}

/* One number; UINT64_MAX (never a valid value here) when absent. */
uint64_t num(const std::string &kind, const std::string &name, size_t i = 0)
{
	auto v = fact_values(kind, name);
	if (v.size() <= i) {
		if (!v.empty())
			ADD_FAILURE() << kind << " " << name << ": no value #" << i;
		return UINT64_MAX;
	}
	return v[i];
}

uint64_t def(const std::string &name)
{
	return num("define", name);
}
uint64_t enumerator(const std::string &name)
{
	return num("enum", name);
}

/* (lsb, width) of a public field; (UINT32_MAX, 0) when absent. */
std::pair<uint32_t, uint32_t> pub_field(const std::string &name)
{
	auto v = fact_values("field", name);
	if (v.size() != 2) {
		if (!v.empty())
			ADD_FAILURE() << "field " << name << ": not lsb,width";
		return {UINT32_MAX, 0};
	}
	return {static_cast<uint32_t>(v[0]), static_cast<uint32_t>(v[1])};
}

/* With GAUDI_PUBLIC_FACTS_LIST=<file>, every comparison is appended to that file as
 * "element<TAB>ours<TAB>public<TAB>agree", the audit's list. */
void list_comparison(const std::string &what, const std::string &ours, const std::string &pub,
		     bool agree)
{
	const char *path = std::getenv("GAUDI_PUBLIC_FACTS_LIST");
	if (path == nullptr)
		return;
	if (FILE *f = std::fopen(path, "a")) {
		std::fprintf(f, "%s\t%s\t%s\t%s\n", what.c_str(), ours.c_str(), pub.c_str(),
			     agree ? "yes" : "NO");
		std::fclose(f);
	}
}

/* Counts the comparisons so each test can show it checked what it claims. */
struct Tally {
	unsigned checked = 0, bad = 0;
	void eq(uint64_t ours, uint64_t pub, const std::string &what)
	{
		checked++;
		list_comparison(what, hex(ours), hex(pub), ours == pub);
		if (ours != pub) {
			bad++;
			ADD_FAILURE() << what << ": ours " << hex(ours) << ", public " << hex(pub);
		}
	}
	void field(uint32_t lsb, uint32_t width, const std::string &pub, const std::string &ours)
	{
		auto f = pub_field(pub);
		checked++;
		list_comparison(ours + " (" + pub + ")",
				std::to_string(lsb) + "," + std::to_string(width),
				std::to_string(f.first) + "," + std::to_string(f.second),
				f.first == lsb && f.second == width);
		if (f.first != lsb || f.second != width) {
			bad++;
			ADD_FAILURE() << ours << " {" << lsb << ", " << width << "}: public " << pub
				      << " {" << f.first << ", " << f.second << "}";
		}
	}
	void field(reg::Field f, const std::string &pub, const std::string &ours)
	{
		field(f.lsb, f.width, pub, ours);
	}
};

template <typename T>
constexpr uint32_t lsb_of(T mask)
{
	return static_cast<uint32_t>(std::countr_zero(mask));
}
template <typename T>
constexpr uint32_t width_of(T mask)
{
	return static_cast<uint32_t>(std::popcount(mask));
}

TEST(PublicFacts, TableLoads)
{
	const auto &f = public_facts();
	ASSERT_TRUE(f.error.empty()) << f.error;
	std::map<std::string, unsigned> kinds;
	for (const auto &r : f.rows)
		kinds[r.first.first]++;
	/* Every kind the generator writes is there, in the numbers it wrote when this was made. */
	EXPECT_GE(kinds["define"], 100u);
	EXPECT_GE(kinds["field"], 200u);
	EXPECT_GE(kinds["enum"], 40u);
	EXPECT_GE(kinds["fact"], 60u);
	EXPECT_GE(kinds["syndrome"], 70u);
	EXPECT_EQ(kinds["size"], 5u);
}

/* gaudi_desc.h: TX WQE, CQE, EQE layouts and enumerations against include/linux/net/intel/
 * gaudi2.h (TX_WQE_GET_*, CQE_*, EQE_*, enum gaudi2_wqe_opcode / gaudi2_eqe_type), sizes
 * against gaudi2_cn.h, syndromes against gaudi2_cn.c qp_syndromes. */
TEST(PublicFacts, DescriptorsMatchGaudi2H)
{
	using namespace gaudi::hw;
	ASSERT_TRUE(public_facts().error.empty()) << public_facts().error;
	Tally t;
	const uint32_t w0 = offsetof(TxWqe, ctrl) * 8;
	t.field(w0 + lsb_of(WQE_OPCODE_MASK), width_of(WQE_OPCODE_MASK), "TX_WQE_GET_OPCODE",
		"WQE_OPCODE_MASK");
	t.field(w0 + WQE_INDEX_SHIFT, width_of(WQE_INDEX_MASK), "TX_WQE_GET_WQE_INDEX",
		"WQE_INDEX_SHIFT/MASK");
	t.field(w0 + lsb_of(WQE_SE), width_of(WQE_SE), "TX_WQE_GET_SE", "WQE_SE");
	t.field(w0 + lsb_of(WQE_INLINE), width_of(WQE_INLINE), "TX_WQE_GET_INLINE", "WQE_INLINE");
	t.field(w0 + lsb_of(WQE_ACKREQ), width_of(WQE_ACKREQ), "TX_WQE_GET_ACKREQ", "WQE_ACKREQ");
	t.field(offsetof(TxWqe, size) * 8, sizeof(TxWqe::size) * 8, "TX_WQE_GET_SIZE",
		"TxWqe::size");
	t.field(offsetof(TxWqe, local_addr) * 8, 32, "TX_WQE_GET_LOCAL_ADDR_LSB",
		"TxWqe::local_addr low");
	t.field(offsetof(TxWqe, local_addr) * 8 + 32, 32, "TX_WQE_GET_LOCAL_ADDR_MSB",
		"TxWqe::local_addr high");
	t.field(offsetof(TxWqe, remote_addr) * 8, 32, "TX_WQE_GET_REMOTE_ADDR_LSB",
		"TxWqe::remote_addr low");
	t.field(offsetof(TxWqe, remote_addr) * 8 + 32, 32, "TX_WQE_GET_REMOTE_ADDR_MSB",
		"TxWqe::remote_addr high");
	t.field(offsetof(TxWqe, tag) * 8, sizeof(TxWqe::tag) * 8, "TX_WQE_GET_TAG", "TxWqe::tag");
	/* w7 "remote SOB / completion": REMOTE_SOB, REMOTE_SOB_DATA, SOB_CMD, COMPLETION_TYPE
	 * tile the dword exactly. */
	{
		uint32_t at = offsetof(TxWqe, completion) * 8;
		for (const char *n : {"TX_WQE_GET_REMOTE_SOB", "TX_WQE_GET_REMOTE_SOB_DATA",
				      "TX_WQE_GET_SOB_CMD", "TX_WQE_GET_COMPLETION_TYPE"}) {
			auto f = pub_field(n);
			t.eq(at, f.first, std::string("TxWqe::completion: ") + n + " lsb");
			at += f.second;
		}
		t.eq(at, offsetof(TxWqe, completion) * 8 + sizeof(TxWqe::completion) * 8,
		     "TxWqe::completion: end of the tiled fields");
	}
	t.eq(sizeof(TxWqe), def("NIC_SEND_WQE_SIZE"), "sizeof(TxWqe) vs NIC_SEND_WQE_SIZE");
	t.eq(sizeof(TxWqe), num("size", "gaudi2_sq_wqe"), "sizeof(TxWqe) vs gaudi2_sq_wqe");
	for (const auto &r : kWqeOpcodeRows)
		t.eq(r.value, enumerator(std::string("WQE_") + r.name),
		     std::string("WqeOpcode ") + r.name);

	/* CQE */
	const uint32_t c0 = offsetof(Cqe, d0) * 8;
	t.field(c0 + lsb_of(CQE_VALID), width_of(CQE_VALID), "CQE_IS_VALID", "CQE_VALID");
	t.field(c0 + lsb_of(CQE_IS_REQ), width_of(CQE_IS_REQ), "CQE_IS_REQ", "CQE_IS_REQ");
	t.field(c0 + lsb_of(CQE_QPN_MASK), width_of(CQE_QPN_MASK), "CQE_QPN", "CQE_QPN_MASK");
	t.field(offsetof(Cqe, wqe_index) * 8, 32, "CQE_WQE_IDX", "Cqe::wqe_index");
	t.field(offsetof(Cqe, tag) * 8, 32, "CQE_TAG", "Cqe::tag");
	t.field(offsetof(Cqe, size) * 8, 32, "CQE_RAW_PKT_SIZE", "Cqe::size");
	t.eq(sizeof(Cqe), num("size", "gaudi2_cqe"), "sizeof(Cqe) vs gaudi2_cqe");

	/* EQE */
	const uint32_t e0 = offsetof(Eqe, d0) * 8, e1 = offsetof(Eqe, d1) * 8;
	t.field(e0 + lsb_of(EQE_VALID), width_of(EQE_VALID), "EQE_IS_VALID", "EQE_VALID");
	t.field(e0 + lsb_of(EQE_TYPE_MASK), width_of(EQE_TYPE_MASK), "EQE_TYPE", "EQE_TYPE_MASK");
	t.field(e1 + lsb_of(EQE_QP_ERR_RESET), width_of(EQE_QP_ERR_RESET), "EQE_QP_EVENT_RESET",
		"EQE_QP_ERR_RESET");
	t.field(e1 + lsb_of(EQE_QPN_MASK), width_of(EQE_QPN_MASK), "EQE_QP_EVENT_QPN",
		"EQE_QPN_MASK (QP_ERR)");
	t.field(e1 + lsb_of(EQE_QPN_MASK), width_of(EQE_QPN_MASK), "EQE_RAW_TX_EVENT_QPN",
		"EQE_QPN_MASK (RAW_TX_COMP)");
	t.field(lsb_of(EQ_IDX_MASK), width_of(EQ_IDX_MASK), "EQ_IDX_MASK", "EQ_IDX_MASK");
	t.eq(sizeof(Eqe), def("NIC_RAW_EQE_SIZE"), "sizeof(Eqe) vs NIC_RAW_EQE_SIZE");
	for (const auto &r : kEqeTypeRows)
		t.eq(r.value, enumerator(std::string("EQE_") + r.name),
		     std::string("EqeType ") + r.name);

	/* Syndromes: each public one is in qp_syndromes under its code with this wording; the
	 * choices are absent there, their class bits (7:6) the right one. */
	const std::map<uint32_t, const char *> wording = {
		{0x41, "[req DB] QP not valid"},
		{0x43, "[req DB] PI > last-index"},
		{0x91, "WQE.wqe_index != execution-index [7.0]"},
		{0x95, "RAW packet but WQE.size not supported"},
		{0xB2, "RAW above MIN"},
		{0xB3, "RAW below MAX"},
		{0xBC, "WQE SE not RAW"},
	};
	for (const auto &r : kQpErrSyndromeRows) {
		char code[8];
		std::snprintf(code, sizeof(code), "0x%02X", r.value);
		auto text = fact_text("syndrome", code);
		auto w = wording.find(r.value);
		t.checked++;
		const bool ok =
			text && w != wording.end() && text->find(w->second) != std::string::npos;
		list_comparison(std::string("syndrome ") + code + " " + r.name, code,
				text ? *text : "(absent)", ok);
		if (!ok) {
			t.bad++;
			ADD_FAILURE() << "syndrome " << code << " (" << r.name << "): public text '"
				      << (text ? *text : "") << "'";
		}
	}
	const auto &rows = public_facts().rows;
	for (const auto &r : kQpErrSyndromeChoiceRows) {
		char code[8];
		std::snprintf(code, sizeof(code), "0x%02X", r.value);
		t.eq(rows.count({"syndrome", code}), 0,
		     std::string(r.name) + " [choice] is unused");
		t.eq(r.value >> 6, 2, std::string(r.name) + ": TX packet class (bits 7:6 = 2)");
	}

	/* Doorbell: a QPN past the last (NIC_MAX_QP_NUM) and PI 0 make the dummy one; indices
	 * are as wide as the QPC's LAST_IDX. */
	t.eq(kMaxQpNum, def("NIC_MAX_QP_NUM"), "kMaxQpNum");
	t.eq(0, num("fact", "cn.db_fifo_push_dummy", 0), "dummy doorbell PI");
	t.eq(kMaxQpNum, num("fact", "cn.db_fifo_push_dummy", 1), "dummy doorbell QPN");
	t.eq(width_of(DB_PI_MASK), pub_field("REQ_QPC_SET_LAST_IDX").second, "DB_PI_MASK width");
	t.eq(WQ_IDX_MASK, DB_PI_MASK, "WQ_IDX_MASK");
	std::printf("[ public   ] gaudi_desc.h: %u comparisons, %u disagree\n", t.checked, t.bad);
	EXPECT_EQ(t.checked, 64u);
}

/* gaudi_qpc.h against gaudi2.h's REQ_QPC_* / RES_QPC_* accessors, cn.h's enumerations,
 * gaudi2_cn.h's scheduling-queue constants and gaudi2_en.c's req_qpc_init. */
TEST(PublicFacts, QpcMatchesGaudi2H)
{
	ASSERT_TRUE(public_facts().error.empty()) << public_facts().error;
	const auto &rows = public_facts().rows;
	Tally t;
	for (const auto &r : qpc::kFieldRows) {
		const bool req = std::string(r.ctx) == "requester";
		std::string name = std::string(req ? "REQ_QPC_SET_" : "RES_QPC_SET_") + r.name;
		/* ERROR has only a getter. */
		if (!rows.count({"field", name}))
			name = std::string(req ? "REQ_QPC_GET_" : "RES_QPC_GET_") + r.name;
		t.field(r.f.bit, r.f.width, name, std::string(r.ctx) + " " + r.name);
	}
	t.eq(qpc::kReqDwords * 4, num("size", "gaudi2_qpc_requester"), "kReqDwords");
	t.eq(qpc::kResDwords * 4, num("size", "gaudi2_qpc_responder"), "kResDwords");
	t.eq(qpc::TS_RC, enumerator("TS_RC"), "TS_RC");
	t.eq(qpc::TS_RAW, enumerator("TS_RAW"), "TS_RAW");
	t.eq(qpc::WQ_TYPE_WRITE, enumerator("QPC_REQ_WQ_TYPE_WRITE"), "WQ_TYPE_WRITE");
	t.eq(qpc::TRUST_SECURED, enumerator("SECURED"), "TRUST_SECURED");
	/* The raw QP's requester values the Ethernet driver writes. */
	t.eq(qpc::TS_RAW, num("fact", "en.req_qpc_init.TRANSPORT_SERVICE"), "raw QP TS");
	t.eq(qpc::WQ_TYPE_WRITE, num("fact", "en.req_qpc_init.WQ_TYPE"), "raw QP WQ_TYPE");
	t.eq(qpc::TRUST_SECURED, num("fact", "en.req_qpc_init.TRUST_LEVEL"), "raw QP trust");
	t.eq(qpc::kRawRemoteWqLogSz, num("fact", "en.req_qpc_init.REMOTE_WQ_LOG_SZ"),
	     "kRawRemoteWqLogSz");
	/* group x HBL_EN_PFC_PRIO_NUM + priority, group TXS_PORT_RAW_SCHED_Q, priority
	 * GAUDI2_PFC_PRIO_DRIVER. */
	{
		char want[32];
		std::snprintf(want, sizeof(want), "0x%llx,priority",
			      static_cast<unsigned long long>(def("HBL_EN_PFC_PRIO_NUM")));
		auto f = fact_text("fact", "cn.txs_get_schedq_num");
		t.eq(f && *f == want, 1,
		     "schedq formula: group x HBL_EN_PFC_PRIO_NUM + priority, public '" +
			     (f ? *f : std::string()) + "'");
	}
	t.eq(qpc::kRawSchedQ,
	     def("TXS_PORT_RAW_SCHED_Q") * def("HBL_EN_PFC_PRIO_NUM") +
		     def("GAUDI2_PFC_PRIO_DRIVER"),
	     "kRawSchedQ");
	std::printf("[ public   ] gaudi_qpc.h: %u comparisons, %u disagree\n", t.checked, t.bad);
	EXPECT_EQ(t.checked, 35u);
}

/* gaudi_serdes.h offsets and fields against nic0_serdes0/1_regs.h, nic0_serdes0_masks.h,
 * nic0_phy_masks.h and gaudi2_cn_phy.c's address macros. */
TEST(PublicFacts, SerdesMatchesAsicRegs)
{
	ASSERT_TRUE(public_facts().error.empty()) << public_facts().error;
	Tally t;
	const uint64_t p00 = def("NIC0_SERDES0_LANE0_REGISTER_0P00");
	t.eq(serdes::kSerdes0Base + reg::kNic0CfgBase, p00, "kSerdes0Base");
	t.eq(serdes::kSerdesStride, def("NIC_PHY_CFG_SIZE"), "kSerdesStride");
	t.eq(serdes::kSerdesStride, def("NIC0_SERDES1_LANE0_REGISTER_0P00") - p00,
	     "kSerdesStride vs SERDES1");
	t.eq(serdes::kWindowSize, def("NIC_PHY_CFG_SIZE"), "kWindowSize");
	t.eq(serdes::kLaneLoStride, def("LANE_LO_OFF"), "kLaneLoStride");
	t.eq(serdes::kLaneHiStride, def("LANE_HI_OFF"), "kLaneHiStride");
	t.eq(serdes::kAi00, def("NIC0_SERDES0_LANE0_REGISTER_AI00") - p00, "kAi00");
	t.eq(serdes::lane_reg(0, 1), def("NIC0_SERDES0_LANE1_REGISTER_0P00") - p00,
	     "lane_reg(0P00, 1)");
	t.eq(serdes::lane_reg(serdes::kAi00, 1), def("NIC0_SERDES0_LANE1_REGISTER_AI00") - p00,
	     "lane_reg(AI00, 1)");
	t.eq(serdes::base(1) - serdes::base(0), def("NIC_PHY_CFG_SIZE"), "base(1) - base(0)");

	struct R {
		uint32_t ours;
		const char *pub;
	};
	const std::string l0 = "NIC0_SERDES0_LANE0_REGISTER_", g = "NIC0_SERDES0_REGISTER_";
	const R lane[] = {
		{serdes::R_0P11, "0P11"}, {serdes::R_0P41, "0P41"}, {serdes::R_0P42, "0P42"},
		{serdes::R_0P43, "0P43"}, {serdes::R_0PA0, "0PA0"}, {serdes::R_0PA1, "0PA1"},
		{serdes::R_0PA2, "0PA2"}, {serdes::R_0PA3, "0PA3"}, {serdes::R_0PA4, "0PA4"},
		{serdes::R_0PA5, "0PA5"}, {serdes::R_0PA7, "0PA7"}, {serdes::R_0PA9, "0PA9"},
		{serdes::R_0PAB, "0PAB"}, {serdes::R_0PAD, "0PAD"}, {serdes::R_0PAF, "0PAF"},
		{serdes::R_0PB0, "0PB0"}, {serdes::R_0PCC, "0PCC"}, {serdes::R_0PEA, "0PEA"},
		{serdes::R_0PF8, "0PF8"}, {serdes::R_0N0B, "0N0B"}, {serdes::R_0N0C, "0N0C"},
		{serdes::R_0N61, "0N61"}, {serdes::R_0NF3, "0NF3"}, {serdes::R_0NF8, "0NF8"},
		{serdes::R_AN10, "AN10"}, {serdes::R_AJ40, "AJ40"},
	};
	for (const auto &r : lane)
		t.eq(r.ours, def(l0 + r.pub) - p00, std::string("R_") + r.pub);
	const R global[] = {
		{serdes::R_980D, "980D"}, {serdes::R_980F, "980F"}, {serdes::R_9812, "9812"},
		{serdes::R_9814, "9814"}, {serdes::R_9815, "9815"}, {serdes::R_9816, "9816"},
		{serdes::R_9825, "9825"}, {serdes::R_982E, "982E"}, {serdes::R_9F00, "9F00"},
		{serdes::R_9F0C, "9F0C"}, {serdes::R_9F0D, "9F0D"}, {serdes::R_9F0E, "9F0E"},
		{serdes::R_9F0F, "9F0F"},
	};
	for (const auto &r : global)
		t.eq(r.ours, def(g + r.pub) - p00, std::string("R_") + r.pub);
	/* The FRACN register set_pll_tx writes by address: not in the header, between 0NF3 and
	 * 0NF6, bit 0, cleared. */
	t.eq(serdes::R_0NF5_FRACN, num("fact", "phy.set_pll_tx.fracn", 0) - p00, "R_0NF5_FRACN");
	t.eq(serdes::R_0NF5_FRACN > serdes::R_0NF3 && serdes::R_0NF5_FRACN < def(l0 + "0NF6") - p00,
	     1, "R_0NF5_FRACN between 0NF3 and 0NF6");
	t.eq(serdes::F_0NF5_FRACN_LSB.mask(), num("fact", "phy.set_pll_tx.fracn", 2),
	     "F_0NF5_FRACN_LSB");

	struct F {
		reg::Field ours;
		const char *pub;
	};
	const F fields[] = {
		{serdes::F_0P41_PAM4_EN, "0P41_PAM4_EN"},
		{serdes::F_0P42_RX_GRAYCODE_EN, "0P42_RX_GRAYCODE_EN"},
		{serdes::F_0P42_RX_PRECODE_EN, "0P42_RX_PRECODE_EN"},
		{serdes::F_0P43_RX_PRBS_AUTO_SYNC_EN, "0P43_RX_PRBS_AUTO_SYNC_EN"},
		{serdes::F_0P43_PU_PRBS_SYNC_CHKR, "0P43_PU_PRBS_SYNC_CHKR"},
		{serdes::F_0P43_PU_PRBS_CHKR, "0P43_PU_PRBS_CHKR"},
		{serdes::F_0P43_PRBS_MODE_SEL, "0P43_PRBS_MODE_SEL"},
		{serdes::F_0P43_RX_DATA_FLIP, "0P43_RX_DATA_FLIP"},
		{serdes::F_0P43_RX_SWAP_MSB_LSB, "0P43_RX_SWAP_MSB_LSB"},
		{serdes::F_0PA0_TX_ANA_OUT_FLIP, "0PA0_TX_ANA_OUT_FLIP"},
		{serdes::F_0PA0_TX_PRBS_MODE, "0PA0_TX_PRBS_MODE"},
		{serdes::F_0PA0_TX_PRBS_GEN_EN, "0PA0_TX_PRBS_GEN_EN"},
		{serdes::F_0PA0_TX_PAM4_TEST_EN, "0PA0_TX_PAM4_TEST_EN"},
		{serdes::F_0PA0_TX_PRBS_CLK_EN, "0PA0_TX_PRBS_CLK_EN"},
		{serdes::F_0PA0_TX_TEST_DATA_SRC, "0PA0_TX_TEST_DATA_SRC"},
		{serdes::F_0PA5_TX_PRE_2, "0PA5_TX_PRE_2"},
		{serdes::F_0PA7_TX_PRE_1, "0PA7_TX_PRE_1"},
		{serdes::F_0PA9_TX_MAIN, "0PA9_TX_MAIN"},
		{serdes::F_0PAB_TX_POST_1, "0PAB_TX_POST_1"},
		{serdes::F_0PAD_TX_POST_2, "0PAD_TX_POST_2"},
		{serdes::F_0PAF_TX_PRECODE_EN, "0PAF_TX_PRECODE_EN"},
		{serdes::F_0PAF_TX_GRAYCODE_EN, "0PAF_TX_GRAYCODE_EN"},
		{serdes::F_0PAF_TX_SWAP_MSB_LSB, "0PAF_TX_SWAP_MSB_LSB"},
		{serdes::F_0PB0_TX_HALF_RATE_EN, "0PB0_TX_HALF_RATE_EN"},
		{serdes::F_0PB0_TX_NRZ_MODE, "0PB0_TX_NRZ_MODE"},
		{serdes::F_0PB0_TX_NRZ_PRBS_GEN_EN, "0PB0_TX_NRZ_PRBS_GEN_EN"},
		{serdes::F_0PB0_TX_NRZ_PRBS_CLK_EN, "0PB0_TX_NRZ_PRBS_CLK_EN"},
		{serdes::F_0PEA_VDACCLKPHASE0, "0PEA_VDACCLKPHASE0"},
		{serdes::F_0PF8_AC_COUPLE_EN, "0PF8_AC_COUPLE_EN"},
		{serdes::F_0N61_PRBS_CHKR_EN, "0N61_PRBS_CHKR_EN"},
		{serdes::F_0N61_NRZ_PRBS_MODE_SEL, "0N61_NRZ_PRBS_MODE_SEL"},
		{serdes::F_0N61_PRBS_CHECK_FLIP, "0N61_PRBS_CHECK_FLIP"},
		{serdes::F_0NF8_PU_VDRV, "0NF8_PU_VDRV"},
	};
	for (const auto &f : fields)
		t.field(f.ours, l0 + f.pub, std::string("F_") + f.pub);
	/* AJ40 is laid out alike in every lane; the cached lines are lane 1's. */
	t.field(serdes::F_AJ40_ANLT_LANE_SWAPPING_EN,
		"NIC0_SERDES0_LANE1_REGISTER_AJ40_ANLT_LANE_SWAPPING_EN",
		"F_AJ40_ANLT_LANE_SWAPPING_EN");
	const F gfields[] = {
		{serdes::F_980D_DOMAIN_RESET, "980D_DOMAIN_RESET"},
		{serdes::F_9815_RESPONSE, "9815_RESPONSE"},
		{serdes::F_9825_PLL_LOCK_SRC_SEL, "9825_PLL_LOCK_SRC_SEL"},
		{serdes::F_9825_PLL_0_LOCK_EN, "9825_PLL_0_LOCK_EN"},
		{serdes::F_9825_PLL_0_LOCK_32T_CLK_SEL, "9825_PLL_0_LOCK_32T_CLK_SEL"},
		{serdes::F_982E_PLL_1_LOCK_EN, "982E_PLL_1_LOCK_EN"},
		{serdes::F_982E_PLL_1_LOCK_32T_CLK_SEL, "982E_PLL_1_LOCK_32T_CLK_SEL"},
	};
	for (const auto &f : gfields)
		t.field(f.ours, g + f.pub, std::string("F_") + f.pub);
	/* The state-machine toggles fw_unload_all writes are those fields' masks. */
	t.eq(serdes::k0P11SmCont,
	     reg::Field{pub_field(l0 + "0P11_PAM4_SM_CONT").first,
			pub_field(l0 + "0P11_PAM4_SM_CONT").second}
		     .mask(),
	     "k0P11SmCont vs 0P11 PAM4_SM_CONT");
	t.eq(serdes::k0N0CNrzCont,
	     reg::Field{pub_field(l0 + "0N0C_NRZ_SM_CONT").first,
			pub_field(l0 + "0N0C_NRZ_SM_CONT").second}
		     .mask(),
	     "k0N0CNrzCont vs 0N0C NRZ_SM_CONT");
	/* 980F bits fit its one 16-bit field. */
	t.eq((serdes::k980fGo | serdes::k980fPam4A | serdes::k980fPam4B) >>
		     pub_field(g + "980F_FIRMWARE_CTLE_MODE_ADDR").second,
	     0, "980F bits inside FIRMWARE_CTLE_MODE_ADDR");
	std::printf("[ public   ] gaudi_serdes.h registers/fields: %u comparisons, %u disagree\n",
		    t.checked, t.bad);
	EXPECT_EQ(t.checked, 96u);
}

/* gaudi_serdes.h's MCU commands, reset values, firmware-load protocol and board defaults, and
 * gaudi_phy.h's timings, against gaudi2_cn_phy.c. */
TEST(PublicFacts, SerdesConstantsMatchPhyC)
{
	ASSERT_TRUE(public_facts().error.empty()) << public_facts().error;
	Tally t;
	auto fact = [](const char *n, size_t i = 0) { return num("fact", n, i); };
	t.eq(serdes::kResetSoft, fact("phy.soft_reset.domain_reset"), "kResetSoft");
	t.eq(serdes::kResetLogic, fact("phy.logic_reset.domain_reset"), "kResetLogic");
	t.eq(serdes::kResetCpu, fact("phy.cpu_reset.domain_reset"), "kResetCpu");
	t.eq(serdes::F_9815_RESPONSE.lsb, fact("phy.fw_cmd.response", 0), "fw_cmd response shift");
	t.eq(serdes::F_9815_RESPONSE.mask() >> serdes::F_9815_RESPONSE.lsb,
	     fact("phy.fw_cmd.response", 1), "fw_cmd response mask");
	t.eq(serdes::kCmdStartPam4, fact("phy.fw_start.cmd_pam4_nrz", 0), "kCmdStartPam4");
	t.eq(serdes::kCmdStartNrz, fact("phy.fw_start.cmd_pam4_nrz", 1), "kCmdStartNrz");
	t.eq(serdes::kSpeedPam4, fact("phy.fw_start.speed_pam4_nrz", 0), "kSpeedPam4");
	t.eq(serdes::kSpeedNrz, fact("phy.fw_start.speed_pam4_nrz", 1), "kSpeedNrz");
	t.eq(serdes::kResStart, fact("phy.fw_start.response"), "kResStart");
	t.eq(serdes::kResStartTx, fact("phy.fw_start_tx.response"), "kResStartTx");
	t.eq(serdes::kCmdVcocap, fact("phy.fw_config_vcocap", 0), "kCmdVcocap");
	t.eq(4, fact("phy.fw_config_vcocap", 1), "vcocap mode shift (gaudi_phy.cpp's << 4)");
	t.eq(serdes::kResConfig, fact("phy.fw_config_vcocap", 2), "kResConfig (vcocap)");
	t.eq(serdes::kCmdGetFwReg, fact("phy.get_fw_reg", 0), "kCmdGetFwReg");
	t.eq(serdes::kResConfig, fact("phy.get_fw_reg", 1), "kResConfig (get_fw_reg)");
	t.eq(serdes::kCmdSetFwReg, fact("phy.set_fw_reg", 0), "kCmdSetFwReg");
	t.eq(serdes::kResConfig, fact("phy.set_fw_reg", 1), "kResConfig (set_fw_reg)");
	t.eq(serdes::kCmdRvDebug, fact("phy.rv_debug", 0), "kCmdRvDebug");
	t.eq(4, fact("phy.rv_debug", 1), "rv_debug mode shift (gaudi_phy.cpp's << 4)");
	t.eq(serdes::kResDebug, fact("phy.rv_debug", 2), "kResDebug");
	t.eq(serdes::kCmdHash, fact("phy.fw_hash", 0), "kCmdHash");
	t.eq(serdes::kResInfo, fact("phy.fw_hash", 1), "kResInfo (hash)");
	t.eq(serdes::kCmdCrc, fact("phy.fw_crc", 0), "kCmdCrc");
	t.eq(serdes::kResInfo, fact("phy.fw_crc", 1), "kResInfo (CRC)");
	t.eq(serdes::kCmdSilenceRx, fact("phy.port_stop.silence"), "kCmdSilenceRx");
	t.eq(serdes::kFwRegLtOption, fact("phy.lane_swapping_config.fw_reg"), "kFwRegLtOption");
	t.eq(serdes::kFwRegTimeConst, fact("phy.mcu_cal_enable_all.fw_reg"), "kFwRegTimeConst");
	t.eq(serdes::kTimeConstantRatio, def("NIC_PHY_FW_TIME_CONSTANT_RATIO"),
	     "kTimeConstantRatio");
	t.eq(serdes::kTunedPam4, fact("phy.fw_tuning.pam4", 0), "kTunedPam4");
	t.eq(serdes::kTunedPam4Alt, fact("phy.fw_tuning.pam4", 1), "kTunedPam4Alt");
	t.eq(serdes::kTunedNrz, fact("phy.fw_tuning.nrz"), "kTunedNrz");
	t.eq(serdes::kCrcOldFw, fact("phy.crc_old_fw"), "kCrcOldFw");
	t.eq(serdes::kCrcAnltFw, fact("phy.crc_anlt_fw"), "kCrcAnltFw");
	t.eq(serdes::k980fGo, fact("phy.fw_config.980f_go"), "k980fGo");
	t.eq(serdes::k980fPam4A, fact("phy.fw_config.980f_pam4", 0), "k980fPam4A");
	t.eq(serdes::k980fPam4B, fact("phy.fw_config.980f_pam4", 1), "k980fPam4B");
	t.eq(0, fact("phy.set_pll_tx.fracn", 1), "FRACN LSB written 0");
	/* Firmware load. */
	t.eq(serdes::kImageSkip, fact("phy.fw_load.skip"), "kImageSkip");
	t.eq(serdes::kImageEntryOff, fact("phy.fw_load.entry_length_ram_off", 0), "kImageEntryOff");
	t.eq(serdes::kImageLengthOff, fact("phy.fw_load.entry_length_ram_off", 1),
	     "kImageLengthOff");
	t.eq(serdes::kImageRamAddrOff, fact("phy.fw_load.entry_length_ram_off", 2),
	     "kImageRamAddrOff");
	t.eq(serdes::kImageHeader, fact("phy.fw_load.header"), "kImageHeader");
	t.eq(serdes::kSectionBytes, fact("phy.fw_load.section_bytes"), "kSectionBytes");
	t.eq(serdes::kSectionWords, fact("phy.fw_load.section_words"), "kSectionWords");
	t.eq(serdes::kFwExecCtrlHalt, fact("phy.fw_load.fw2_halt"), "kFwExecCtrlHalt (load)");
	t.eq(serdes::kFwExecCtrlHalt, fact("phy.fw_unload_all.halt"), "kFwExecCtrlHalt (unload)");
	t.eq(serdes::kSectionCmd, fact("phy.fw_load.section_cmd"), "kSectionCmd");
	t.eq(serdes::kExecCmd, fact("phy.fw_load.exec_cmd"), "kExecCmd");
	t.eq(serdes::k0P11SmCont, fact("phy.fw_unload_all.pam4_cont"), "k0P11SmCont");
	t.eq(serdes::k0N0CNrzCont, fact("phy.fw_unload_all.nrz_cont"), "k0N0CNrzCont");
	/* clock_init by SerDes (port & 1) and lane. */
	for (unsigned port = 0; port < 2; port++)
		for (unsigned lane = 0; lane < 2; lane++) {
			const char *n = port == 0 && lane == 0 ? "phy.clock_init.raven0_lane0"
					: port == 1	       ? "phy.clock_init.raven1_lane0"
							       : "phy.clock_init.raven0_lane1";
			std::string at =
				" port " + std::to_string(port) + " lane " + std::to_string(lane);
			t.eq(serdes::clock_init_0pcc(port, lane), fact(n, 0),
			     "clock_init_0pcc" + at);
			t.eq(serdes::clock_init_0nf3(port, lane), fact(n, 1),
			     "clock_init_0nf3" + at);
		}
	/* Board defaults: HL-225 polarity masks and lane remap; the F/W map's decoding. */
	t.eq(serdes::kPolTxMaskHl225, def("NIC_PHY_TX_POL_MASK_HL225"), "kPolTxMaskHl225");
	t.eq(serdes::kPolRxMaskHl225, def("NIC_PHY_RX_POL_MASK_HL225"), "kPolRxMaskHl225");
	const uint64_t nib = fact("phy.fw_parse_lane_map.bits", 0),
		       nib_bits = fact("phy.fw_parse_lane_map.bits", 1);
	const uint64_t id_mask =
		(1u << pub_field("NIC0_PHY_PHY_ASYNC_LANE_SWAP_SERDES0_TX0_SWAP_ID").second) - 1;
	const std::string swap = "NIC0_PHY_PHY_ASYNC_LANE_SWAP_";
	const uint32_t shift[4] = {pub_field(swap + "SERDES0_TX0_SWAP_ID").first,
				   pub_field(swap + "SERDES0_TX1_SWAP_ID").first,
				   pub_field(swap + "SERDES1_TX0_SWAP_ID").first,
				   pub_field(swap + "SERDES1_TX1_SWAP_ID").first};
	auto fw_map = [&](const char *n) {
		uint64_t m = 0;
		for (unsigned l = 0; l < 4; l++)
			m |= (fact(n, l) & nib) << (l * nib_bits);
		return m;
	};
	auto mac_lane_map = [&](uint64_t fw) {
		uint64_t v = 0;
		for (unsigned l = 0; l < 4; l++)
			v |= (((fw >> (l * nib_bits)) & nib) & id_mask) << shift[l];
		return v;
	};
	t.eq(serdes::kTxSwapHl225Macro0, fw_map("phy.mac_lane_remap.macro0"), "kTxSwapHl225Macro0");
	t.eq(serdes::kTxSwapHl225Macro11, fw_map("phy.mac_lane_remap.macro11"),
	     "kTxSwapHl225Macro11");
	for (uint16_t m : {uint16_t(0x3210), uint16_t(0x2013), uint16_t(0x2301), uint16_t(0x0123)})
		t.eq(serdes::lane_swap_from_fw(m), mac_lane_map(m),
		     "lane_swap_from_fw(" + hex(m) + ") vs NIC_MAC_LANE_MAP(FW_PARSE_LANE_MAP)");
	/* gaudi_phy.h's waits and poll bound. */
	const gaudi::hw::PhyTimings pt;
	t.eq(pt.cmd_poll_us, fact("phy.fw_cmd.poll_usleep"), "PhyTimings::cmd_poll_us");
	t.eq(pt.load_poll_us, fact("phy.fw_load.fw2_poll_usleep"), "PhyTimings::load_poll_us");
	t.eq(pt.section_poll_us, fact("phy.fw_load.section_poll_usleep"),
	     "PhyTimings::section_poll_us");
	t.eq(pt.max_polls, def("NIC_PHY_READ_COUNTS_PER_MS"), "PhyTimings::max_polls");
	t.eq(pt.unload_us, fact("phy.fw_unload_all.msleep") * 1000, "PhyTimings::unload_us");
	t.eq(pt.toggle_us, fact("phy.fw_unload_all.toggle_usleep"), "PhyTimings::toggle_us");
	t.eq(pt.exec_us, fact("phy.fw_load.exec_msleep") * 1000, "PhyTimings::exec_us");
	t.eq(pt.tuning_interval_us, def("NIC_PHY_FW_TUNING_INTERVAL_MS") * 1000,
	     "PhyTimings::tuning_interval_us");
	t.eq(pt.pcs_down_limit, def("NIC_PHY_PCS_LINK_DOWN_TH_S"), "PhyTimings::pcs_down_limit");
	std::printf("[ public   ] gaudi_serdes.h / gaudi_phy.h constants: %u comparisons, %u "
		    "disagree\n",
		    t.checked, t.bad);
	EXPECT_EQ(t.checked, 76u);
}

/* gaudi_sm.h against dcore0_sync_mngr_objs_regs.h / _masks.h, gaudi2_masks.h (SIGN),
 * habanalabs gaudi2.h (CFG_BASE), gaudi2P.h (reserved ids) and gaudi2.c's monitor recipe. */
TEST(PublicFacts, SyncManagerMatchesHabanalabs)
{
	ASSERT_TRUE(public_facts().error.empty()) << public_facts().error;
	Tally t;
	const std::string o = "DCORE0_SYNC_MNGR_OBJS_";
	t.eq(sm::SOB_OBJ_0, def(o + "SOB_OBJ_0"), "SOB_OBJ_0");
	t.eq(sm::MON_PAY_ADDRL_0, def(o + "MON_PAY_ADDRL_0"), "MON_PAY_ADDRL_0");
	t.eq(sm::MON_PAY_ADDRH_0, def(o + "MON_PAY_ADDRH_0"), "MON_PAY_ADDRH_0");
	t.eq(sm::MON_PAY_DATA_0, def(o + "MON_PAY_DATA_0"), "MON_PAY_DATA_0");
	t.eq(sm::MON_ARM_0, def(o + "MON_ARM_0"), "MON_ARM_0");
	t.eq(sm::MON_CONFIG_0, def(o + "MON_CONFIG_0"), "MON_CONFIG_0");
	t.eq(sm::kSobs, (def(o + "SOB_OBJ_8191") - def(o + "SOB_OBJ_0")) / 4 + 1, "kSobs");
	t.eq(sm::kMonitors, (def(o + "MON_PAY_ADDRL_2047") - def(o + "MON_PAY_ADDRL_0")) / 4 + 1,
	     "kMonitors (ADDRL)");
	t.eq(sm::kMonitors, (def(o + "MON_ARM_2047") - def(o + "MON_ARM_0")) / 4 + 1,
	     "kMonitors (ARM)");
	t.eq(sm::kCfgBase, def("CFG_BASE"), "kCfgBase");
	t.field(sm::SOB_OBJ_VAL, o + "SOB_OBJ_VAL", "SOB_OBJ_VAL");
	t.field(sm::SOB_OBJ_SIGN, o + "SOB_OBJ_SIGN", "SOB_OBJ_SIGN");
	t.field(sm::SOB_OBJ_INC, o + "SOB_OBJ_INC", "SOB_OBJ_INC");
	t.field(sm::MON_ARM_SID, o + "MON_ARM_SID", "MON_ARM_SID");
	t.field(sm::MON_ARM_MASK, o + "MON_ARM_MASK", "MON_ARM_MASK");
	t.field(sm::MON_ARM_SOP, o + "MON_ARM_SOP", "MON_ARM_SOP");
	t.field(sm::MON_ARM_SOD, o + "MON_ARM_SOD", "MON_ARM_SOD");
	t.field(sm::MON_CONFIG_WR_NUM, o + "MON_CONFIG_WR_NUM", "MON_CONFIG_WR_NUM");
	/* Payload values, composed from the public fields and the values gaudi2P.h / gaudi2.c put
	 * in them. */
	auto pf = [&](const char *n) {
		auto f = pub_field(o + n);
		return reg::Field{f.first, f.second};
	};
	t.eq(sm::kSobIncrementByOne,
	     pf("SOB_OBJ_VAL").put(num("fact", "sm.increment_by_one", 0)) |
		     pf("SOB_OBJ_INC").put(num("fact", "sm.increment_by_one", 1)),
	     "kSobIncrementByOne");
	const uint32_t dec = pf("SOB_OBJ_VAL").put(num("fact", "sm.decrement_payload", 0)) |
			     pf("SOB_OBJ_SIGN").put(num("fact", "sm.decrement_payload", 1)) |
			     pf("SOB_OBJ_INC").put(num("fact", "sm.decrement_payload", 2));
	t.eq(sm::kSobDecrementByOne, dec, "kSobDecrementByOne");
	/* Reserved ids. */
	t.eq(sm::kMaxPendingCs, def("GAUDI2_MAX_PENDING_CS"), "kMaxPendingCs");
	t.eq(sm::kNumberOfDec, def("NUMBER_OF_DEC"), "kNumberOfDec");
	t.eq(sm::kSobNicPortFirst, enumerator("GAUDI2_RESERVED_SOB_NIC_PORT_FIRST"),
	     "kSobNicPortFirst");
	t.eq(sm::kMonNicPortFirst, enumerator("GAUDI2_RESERVED_MON_NIC_PORT_FIRST"),
	     "kMonNicPortFirst");
	const uint64_t ports = def("NIC_NUMBER_OF_PORTS");
	t.eq(sm::nic_eq_sob(ports - 1), enumerator("GAUDI2_RESERVED_SOB_NIC_PORT_LAST"),
	     "nic_eq_sob(last port)");
	t.eq(sm::nic_eq_first_mon(ports - 1) + 2, enumerator("GAUDI2_RESERVED_MON_NIC_PORT_LAST"),
	     "nic_eq_first_mon(last port) + 2");

	/* arm_virt_msix_db on a memory window: what each monitor holds, against gaudi2.c's
	 * recipe (the decrement to SOB, the re-arm of the master, 3 writes, the interrupt id). */
	std::vector<uint32_t> mem(sm::kWindowSize / 4, 0xDEADBEEF);
	gaudi::hw::Bar bar(reinterpret_cast<volatile uint8_t *>(mem.data()), sm::kWindowSize);
	const unsigned port = 5, sob = sm::nic_eq_sob(port), mon = sm::nic_eq_first_mon(port);
	const uint64_t db = 0x0000123456789AB0ull;
	sm::arm_virt_msix_db(bar, sob, mon, 27, db);
	auto at = [&](uint64_t cfg_addr) { return mem[(cfg_addr - sm::kWindowBase) / 4]; };
	auto mon_reg = [&](const char *r, unsigned m) { return at(def(o + r) + 4 * m); };
	const uint64_t cfg = def("CFG_BASE");
	const uint32_t arm =
		pf("MON_ARM_SID").put(sob / num("fact", "sm.arm.sob_group_div")) |
		pf("MON_ARM_MASK").put(~(1u << (sob & num("fact", "sm.arm.mask_bits"))) & 0xFF) |
		pf("MON_ARM_SOP").put(num("fact", "sm.arm.mode")) |
		pf("MON_ARM_SOD").put(num("fact", "sm.arm.sod"));
	t.eq(at(def(o + "SOB_OBJ_0") + 4 * sob), 0, "SOB reset to 0");
	t.eq(mon_reg("MON_PAY_ADDRL_0", mon + 1), uint32_t(cfg + def(o + "SOB_OBJ_0") + 4 * sob),
	     "monitor 2 address low (the SOB)");
	t.eq(mon_reg("MON_PAY_ADDRH_0", mon + 1),
	     uint32_t((cfg + def(o + "SOB_OBJ_0") + 4 * sob) >> 32), "monitor 2 address high");
	t.eq(mon_reg("MON_PAY_DATA_0", mon + 1), dec, "monitor 2 data (-1)");
	t.eq(mon_reg("MON_PAY_ADDRL_0", mon + 2), uint32_t(cfg + def(o + "MON_ARM_0") + 4 * mon),
	     "monitor 3 address low (the master's ARM)");
	t.eq(mon_reg("MON_PAY_ADDRH_0", mon + 2),
	     uint32_t((cfg + def(o + "MON_ARM_0") + 4 * mon) >> 32), "monitor 3 address high");
	t.eq(mon_reg("MON_PAY_DATA_0", mon + 2), arm, "monitor 3 data (re-arm)");
	t.eq(mon_reg("MON_CONFIG_0", mon),
	     pf("MON_CONFIG_WR_NUM").put(num("fact", "sm.config.wr_num")),
	     "master CONFIG (3 writes)");
	t.eq(mon_reg("MON_PAY_ADDRL_0", mon), uint32_t(db), "master address low (doorbell)");
	t.eq(mon_reg("MON_PAY_ADDRH_0", mon), uint32_t(db >> 32), "master address high");
	t.eq(mon_reg("MON_PAY_DATA_0", mon), 27, "master data (interrupt id)");
	t.eq(mon_reg("MON_ARM_0", mon), arm, "master ARM");
	std::printf("[ public   ] gaudi_sm.h: %u comparisons, %u disagree\n", t.checked, t.bad);
	EXPECT_EQ(t.checked, 38u);
}

} /* namespace */
