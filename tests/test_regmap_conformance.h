/* SPDX-License-Identifier: BSD-3-Clause
 * The register-map conformance tests' shared readers: where the research tables and the public
 * facts table are, and the TSV reader (test_regmap_conformance.cpp says what is checked).
 */

#ifndef TEST_REGMAP_CONFORMANCE_H
#define TEST_REGMAP_CONFORMANCE_H

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

namespace test_regmap_conformance {

namespace reg = gaudi::hw::reg;
namespace qpc = gaudi::hw::qpc;

inline std::string shared_research()
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
inline bool have_shared_research()
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
inline std::optional<uint64_t> parse_uint(const std::string &s, int base = 0)
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

inline std::vector<std::string> split(const std::string &line, char sep)
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

inline std::string trim(const std::string &s)
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
inline void load_tsv(Tsv &tsv)
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

inline const TsvRow *tsv_find(const Tsv &tsv, const std::string &b, const std::string &r,
		       const std::string &f)
{
	auto it = tsv.rows.find(TsvKey{b, r, f});
	return it == tsv.rows.end() ? nullptr : &it->second;
}

inline std::string hex(uint64_t v)
{
	char buf[32];
	std::snprintf(buf, sizeof(buf), "0x%llX", static_cast<unsigned long long>(v));
	return buf;
}

/* "hi:lo" of the TSV to (lsb, width). */
inline std::optional<reg::Field> parse_bits(const std::string &bits)
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

} /* namespace test_regmap_conformance */

/* As the anonymous namespace the tests were in. */
using namespace test_regmap_conformance;

#endif /* TEST_REGMAP_CONFORMANCE_H */
