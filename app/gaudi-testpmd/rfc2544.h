/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the RFC 2544 benchmark (--rfc2544): throughput, latency, frame loss rate and
 * back-to-back frames (RFC 2544 section 26.1-26.4, terms of RFC 1242), each at the RFC's
 * frame sizes, over the ports of the run with txonly frames between the paired ports. A trial
 * (RFC 2544 section 23) is one launch()/halt() of the generators; the test frames are counted
 * by their stamps (latency.h), so that other traffic on the ports is not taken for them.
 */
#ifndef GTP_RFC2544_H
#define GTP_RFC2544_H

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gtp.h"

namespace gtp {

/* The tests --rfc2544 names (bits of Config::rfc2544). */
enum Rfc2544Test : unsigned {
	kRfcThroughput = 1,
	kRfcLatency = 2,
	kRfcLoss = 4,
	kRfcBackToBack = 8,
};

/* RFC 2544 section 9.1: the Ethernet frame sizes, FCS included. */
inline const std::vector<uint32_t> &rfc2544_default_sizes()
{
	static const std::vector<uint32_t> s = {64, 128, 256, 512, 1024, 1280, 1518};
	return s;
}

/* Option parsing (options.cpp): "throughput,latency" / "all"; "64,512,1518". On error,
 * false and the reason in err. */
bool rfc2544_parse_tests(const char *arg, unsigned &tests, std::string &err);
bool rfc2544_parse_sizes(const char *arg, std::vector<uint32_t> &sizes, std::string &err);
/* The options --rfc2544 cannot go with (given: the long options seen); prints the error.
 * Sets the run up for the benchmark (txonly, stamped frames, the largest size). */
bool rfc2544_check(Config &c, const std::vector<std::string> &given);

struct Run;
class Capture;

/* Runs the tests asked for; returns the time spent in trials (seconds). stopped_by is set to
 * "rfc2544" or "signal". */
double rfc2544_run(Run &r, std::vector<std::unique_ptr<Capture>> &captures,
		   const char *&stopped_by);

/* Writes the results as the member "rfc2544": {...}, (with its comma) of the --json report;
 * nothing when the benchmark did not run. */
void rfc2544_json(FILE *f);

/* Why a generator sent below its target, for the live line and the report: "" when it did
 * not (within 1%), else whether the lcore could not keep up (the rate is below the port's
 * line rate) or the port is at its line rate. len: frame length without
 * FCS; nb_cores/txq: what the run had. */
std::string rate_shortfall(double target_pps, double achieved_pps, double len, uint64_t speed_mbps,
			   uint32_t min_frame, unsigned nb_cores, unsigned txq);

/* rate_shortfall for port p of the run (its line rate, its shortest frame on the wire). */
struct Port;
std::string port_shortfall(const Run &r, const Port &p, double target_pps, double achieved_pps);

} /* namespace gtp */

#endif /* GTP_RFC2544_H */
