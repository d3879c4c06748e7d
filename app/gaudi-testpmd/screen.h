/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the live view, every --stats-period. On a terminal a table redrawn in place,
 * as pktgen and TRex show theirs (one row per port: rates, % of line rate, drops, errors,
 * totals); elsewhere (pipes, files, tests) one plain line per port, a format scripts read.
 */
#ifndef GTP_SCREEN_H
#define GTP_SCREEN_H

namespace gtp {

struct Run;
struct Sample;
struct Sampler;

/* --screen, --no-screen, else a terminal on stdout; never with --quiet or at the prompt. */
bool screen_wanted(const Run &r);

/* Shows the sample the sampler just took (last: the last, partial period of the run). */
void live_show(const Run &r, const Sampler &sampler, const Sample &smp, bool screen, bool last);

} /* namespace gtp */

#endif /* GTP_SCREEN_H */
