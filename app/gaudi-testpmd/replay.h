/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: template replay with the capture's own timing (--replay-speed), once or
 * looped (--replay-loop), as tcpreplay does; or at a set rate (--rate), the run ending when
 * the replay is done.
 *
 * The schedule is made before the run: each frame's offset from the first, in TSC cycles,
 * scaled by the speed. The forwarding lcore compares it with rte_rdtsc() (no system call).
 */
#ifndef GTP_REPLAY_H
#define GTP_REPLAY_H

#include <cstdint>
#include <string>
#include <vector>

namespace gtp {

struct Run;

struct Replay {
	bool on = false;	       /* --replay-speed or --replay-loop given */
	double speed = 0;	       /* 0: paced by --rate/--rate-gbps instead */
	uint64_t loops = 1;	       /* 0: until stopped */
	std::vector<uint64_t> off_tsc; /* per frame: when it is due after the loop's start */
	uint64_t span_tsc = 0;	       /* a loop: first to last frame; the next loop follows */
	double span_s = 0;	       /* the same in the capture's own time */
	uint64_t backwards = 0;	       /* frames stamped before their predecessor: sent at once */
};

/* Reads the template's timestamps and makes the schedule (after EAL: the TSC frequency);
 * false after a one-line error. */
bool replay_prepare(Run &r);

/* The streams' frame budget: the capture's frames x the loops (after setup_streams). */
void replay_arm(Run &r);

/* For the start-up line, e.g. "replay x1 of 0.190 s, 3 loop(s)". */
std::string replay_describe(const Run &r);

/* How many of the next `want` frames of a stream (the pos-th frame of the replay onwards,
 * base: the TSC its replay started) are due at `now`. */
inline uint16_t replay_due(const Replay &rp, uint64_t base, uint64_t pos, uint16_t want,
			   uint64_t now)
{
	const size_t n = rp.off_tsc.size();
	size_t idx = size_t(pos % n);
	uint64_t loop_start = base + (pos / n) * rp.span_tsc;
	uint16_t k = 0;
	while (k < want && loop_start + rp.off_tsc[idx] <= now) {
		k++;
		if (++idx == n) {
			idx = 0;
			loop_start += rp.span_tsc;
		}
	}
	return k;
}

} /* namespace gtp */

#endif /* GTP_REPLAY_H */
