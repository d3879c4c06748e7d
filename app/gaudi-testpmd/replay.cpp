/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the replay schedule (replay.h).
 */
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include <pcap/pcap.h>

#include "app.h"

namespace gtp {

bool replay_prepare(Run &r)
{
	const Config &c = r.cfg;
	Replay &rp = r.replay;
	rp.on = c.replay;
	rp.speed = c.replay_speed;
	rp.loops = c.replay_loop;
	if (!rp.on)
		return true;
	const size_t n = r.tmpl.frames.size();
	if (rp.loops > UINT64_MAX / n) {
		fprintf(stderr,
			"%s: --replay-loop=%" PRIu64 ": %" PRIu64 " loops of %zu frames "
			"cannot be counted\n",
			kProg, rp.loops, rp.loops, n);
		return false;
	}
	/* libpcap reads pcap and pcapng alike; nanosecond precision keeps pcapng's (and
	 * nanosecond pcap's) timestamps whole. load_template read the frames already: this
	 * reads their timestamps only. */
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline_with_tstamp_precision(c.template_file.c_str(),
							    PCAP_TSTAMP_PRECISION_NANO, err);
	if (!p) {
		fprintf(stderr, "%s: --template=%s: %s\n", kProg, c.template_file.c_str(), err);
		return false;
	}
	std::vector<double> ts; /* ns after the first frame */
	ts.reserve(n);
	pcap_pkthdr *h;
	const u_char *data;
	int rc;
	double first = 0, last = 0;
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		double t = double(h->ts.tv_sec) * 1e9 + double(h->ts.tv_usec);
		if (ts.empty())
			first = last = t;
		/* A frame stamped before the previous one (merged or reordered captures) goes
		 * right after it, as tcpreplay does, rather than moving the schedule back. */
		if (t < last) {
			rp.backwards++;
			t = last;
		}
		last = t;
		ts.push_back(t - first);
	}
	pcap_close(p);
	if (rc == -1 || ts.size() != n) {
		fprintf(stderr, "%s: --template=%s: the file changed while it was read\n", kProg,
			c.template_file.c_str());
		return false;
	}
	rp.span_s = ts.back() / 1e9;
	rp.off_tsc.resize(n);
	/* Offsets in TSC cycles, scaled. At a set rate the pacing is the generator's (every
	 * offset 0 here is never read: replay_due runs only with a speed). */
	double k = rp.speed > 0 ? double(r.hz) / 1e9 / rp.speed : 0;
	for (size_t i = 0; i < n; i++)
		rp.off_tsc[i] = uint64_t(std::llround(ts[i] * k));
	rp.span_tsc = rp.off_tsc.back();
	return true;
}

void replay_arm(Run &r)
{
	const Replay &rp = r.replay;
	if (!rp.on)
		return;
	for (auto &s : r.streams) {
		s->to_send = rp.loops * r.tmpl.frames.size(); /* 0: until stopped */
		s->tmpl_idx = 0;
	}
}

std::string replay_describe(const Run &r)
{
	const Replay &rp = r.replay;
	char b[160];
	char loops[32];
	if (rp.loops)
		snprintf(loops, sizeof(loops), "%" PRIu64 " loop(s)", rp.loops);
	else
		snprintf(loops, sizeof(loops), "looped until stopped");
	if (rp.speed > 0)
		snprintf(b, sizeof(b),
			 "replay at x%g of the capture's timing (%.6f s -> %.6f s), %s", rp.speed,
			 rp.span_s, rp.span_s / rp.speed, loops);
	else
		snprintf(b, sizeof(b), "replay at the set rate, %s", loops);
	std::string s = b;
	if (rp.backwards)
		s += ", " + std::to_string(rp.backwards) +
		     " frame(s) stamped before their predecessor sent right after it";
	return s;
}

} /* namespace gtp */
