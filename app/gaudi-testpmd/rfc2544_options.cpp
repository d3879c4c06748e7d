/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the RFC 2544 benchmark's options (rfc2544.h), apart from the benchmark so that
 * the option parser and its unit tests need none of the run.
 */
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <rte_ether.h>

#include "gtp.h"
#include "rfc2544.h"

namespace gtp {

/* ---- options ----------------------------------------------------------------------------- */

static std::vector<std::string> split(const char *arg)
{
	std::vector<std::string> out;
	std::string s(arg);
	size_t pos = 0;
	for (;;) {
		size_t comma = s.find(',', pos);
		out.push_back(s.substr(pos, comma == std::string::npos ? comma : comma - pos));
		if (comma == std::string::npos)
			return out;
		pos = comma + 1;
	}
}

bool rfc2544_parse_tests(const char *arg, unsigned &tests, std::string &err)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {{"throughput", kRfcThroughput},
		     {"latency", kRfcLatency},
		     {"loss", kRfcLoss},
		     {"back-to-back", kRfcBackToBack},
		     {"all", kRfcThroughput | kRfcLatency | kRfcLoss | kRfcBackToBack}};
	tests = 0;
	for (const std::string &t : split(arg)) {
		unsigned bit = 0;
		for (auto &n : names)
			if (t == n.name)
				bit = n.bit;
		if (!bit) {
			err = "'" + t +
			      "' is not a test (throughput, latency, loss, back-to-back, all)";
			return false;
		}
		tests |= bit;
	}
	return true;
}

bool rfc2544_parse_sizes(const char *arg, std::vector<uint32_t> &sizes, std::string &err)
{
	sizes.clear();
	for (const std::string &t : split(arg)) {
		char *end = nullptr;
		errno = 0;
		unsigned long v =
			t.empty() || !isdigit(uint8_t(t[0])) ? 0 : strtoul(t.c_str(), &end, 10);
		if (t.empty() || errno || !end || *end || v < 64 || v > 9018) {
			err = "'" + t +
			      "' is not a frame size (64..9018 bytes with FCS, up to the "
			      "ports' largest frame)";
			return false;
		}
		if (std::find(sizes.begin(), sizes.end(), uint32_t(v)) != sizes.end()) {
			err = "size " + t + " given twice";
			return false;
		}
		sizes.push_back(uint32_t(v));
	}
	return true;
}

bool rfc2544_check(Config &c, const std::vector<std::string> &given)
{
	const char *prog = "gaudi-testpmd";
	bool rfc = c.rfc2544 != 0;
	if (!rfc) {
		for (const std::string &g : given)
			if (g.rfind("rfc2544-", 0) == 0) {
				fprintf(stderr, "%s: --%s needs --rfc2544=TESTS\n", prog,
					g.c_str());
				return false;
			}
		return true;
	}
	/* The benchmark sets these per trial itself. */
	static const char *const owned[] = {"forward-mode", "txpkts",  "rate",	   "rate-gbps",
					    "duration",	    "packets", "template", "no-latency",
					    "tx-first",	    "roce-op", "roce-msg", "roce-depth",
					    "roce-mtu"};
	for (const std::string &g : given)
		for (const char *o : owned)
			if (g == o) {
				fprintf(stderr,
					"%s: --%s does not go with --rfc2544 (the benchmark sends "
					"txonly frames of --rfc2544-sizes, stamped, at the rate of "
					"each trial)\n",
					prog, o);
				return false;
			}
	if (c.interactive) {
		fprintf(stderr, "%s: --rfc2544 runs on its own, not at the prompt (-i)\n", prog);
		return false;
	}
	if (c.rfc2544_sizes.empty())
		c.rfc2544_sizes = rfc2544_default_sizes();
	c.mode = FwdMode::txonly;
	c.latency = true; /* the stamps count the test frames */
	/* Pools and MTU for the largest size (validate checks it against the ports). */
	c.pkt_len = *std::max_element(c.rfc2544_sizes.begin(), c.rfc2544_sizes.end()) -
		    RTE_ETHER_CRC_LEN;
	return true;
}

} /* namespace gtp */
