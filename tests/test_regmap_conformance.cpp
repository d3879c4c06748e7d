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

#include "test_regmap_conformance.h"

namespace {

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

} /* namespace */
