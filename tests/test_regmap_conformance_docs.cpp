/* SPDX-License-Identifier: BSD-3-Clause
 * Register-map conformance against gaudi2-nic-structs.md: descriptors and enums (section c),
 * constants (a, b, g) and the firmware interface (e, f).
 */

#include "test_regmap_conformance.h"

namespace {

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

} /* namespace */
