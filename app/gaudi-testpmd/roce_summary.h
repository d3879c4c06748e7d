/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: RoCE v2 summary of a capture file at exit, through the project's RoCE
 * decoder (drivers/net/gaudi/roce/roce_framing.h): frames per opcode, ICRC errors, PSN gaps
 * per destination QP, and broken RoCE frames by reason.
 */
#ifndef GTP_ROCE_SUMMARY_H
#define GTP_ROCE_SUMMARY_H

#include <cstdint>
#include <map>
#include <string>

namespace gtp {

struct RoceSummary {
	bool read = false;   /* the file could be read back */
	uint64_t frames = 0; /* frames in the file */
	uint64_t roce = 0;   /* RoCE v2 frames (UDP port 4791), broken ones included */
	uint64_t icrc_errors = 0;
	uint64_t psn_gaps = 0; /* a QP's next frame (same direction) was not PSN + 1 */
	uint64_t qps = 0;      /* destination QPs seen */
	std::map<std::string, uint64_t> opcodes; /* decoded frames per opcode name */
	std::map<std::string, uint64_t> errors;	 /* broken RoCE frames per reason */
};

/* Reads file (pcap or pcapng) and summarises its RoCE v2 frames. */
RoceSummary summarize_roce(const std::string &file);

} /* namespace gtp */

#endif /* GTP_ROCE_SUMMARY_H */
