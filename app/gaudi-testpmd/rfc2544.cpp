/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the RFC 2544 benchmark (rfc2544.h).
 *
 * Facts used, from RFC 2544: frame sizes with FCS (s. 9.1); a trial is traffic, then a wait of
 * 2 s for the frames in flight, then the count (s. 23); trials of at least 60 s for throughput
 * (s. 24, the default of --rfc2544-trial); throughput is the highest rate with no loss, found
 * by repeated trials (s. 26.1); latency at the throughput rate (s. 26.2); frame loss rate from
 * 100 % of the line rate down in 10 % steps until two successive trials without loss
 * (s. 26.3); back-to-back: the longest burst at the minimum gap without loss (s. 26.4). The
 * line rate counts what an Ethernet frame takes on the wire besides its bytes: preamble and
 * start delimiter 8, inter-frame gap 12 (IEEE 802.3 clause 4.4.2).
 *
 * Where this differs from the RFC, it says so in the report: the generator is a CPU and may
 * not reach the rate asked for; such a trial is "generator-limited" and is not taken for the
 * device's limit (the search then stops at what the tester could offer). On the emulated
 * ports the wait for frames in flight is shortened (the model holds none beyond its rings):
 * until the receive counters have been still for 50 ms, as a plain run stops.
 */
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <rte_cycles.h>

#include "app.h"
#include "rfc2544.h"

namespace gtp {

/* ---- wire ---------------------------------------------------------------------------- */

/* A frame's bytes on the wire: wire_len (traffic.h) with the port's shortest frame, Port::min_frame
 * (187 bytes on a Gaudi port, H6-3399; 60 elsewhere). */
std::string rate_shortfall(double target_pps, double achieved_pps, double len, uint64_t speed_mbps,
			   uint32_t min_frame, unsigned nb_cores, unsigned txq)
{
	if (target_pps <= 0 || achieved_pps >= 0.99 * target_pps)
		return "";
	char b[200];
	double line = speed_mbps ? double(speed_mbps) * 1e6 / (8 * wire_len(len, min_frame)) : 0;
	if (line > 0 && achieved_pps >= 0.95 * line)
		snprintf(b, sizeof(b),
			 "the port is at its line rate (%.4g Mfps of %.0f-byte frames)", line / 1e6,
			 len + RTE_ETHER_CRC_LEN);
	else
		snprintf(b, sizeof(b),
			 "the lcore could not keep up (%u core%s, %u txq per port); add --nb-cores "
			 "/ "
			 "--txq",
			 nb_cores, nb_cores == 1 ? "" : "s", txq);
	return b;
}

std::string port_shortfall(const Run &r, const Port &p, double target_pps, double achieved_pps)
{
	const Config &c = r.cfg;
	double len = c.mode == FwdMode::template_ ? r.tmpl.avg_len : double(c.pkt_len);
	return rate_shortfall(target_pps, achieved_pps, len, p.speed_mbps, p.min_frame, c.nb_cores,
			      c.txq);
}

/* ---- trials ------------------------------------------------------------------------------ */

namespace {

struct Trial {
	double target_fps = 0;	/* per port; 0 = unpaced (as fast as the generator goes) */
	double offered_fps = 0; /* per port, what was sent */
	uint64_t offered = 0, received = 0, loss = 0, rx_missed = 0;
	double seconds = 0;   /* sending time */
	double lag_ms = 0;    /* how far the generator fell behind its schedule, at most */
	double away_ms = 0;   /* how long the schedule waited for the lcore (preempted) */
	unsigned repeats = 0; /* trials run again because the generator fell behind */
	bool gen_limited = false;
	bool pass = false;
	bool aborted = false;
};

struct TputRow {
	uint32_t size;
	double line_fps;
	Trial best; /* the highest passing trial (offered_fps 0: none passed) */
	bool found = false;
	bool gen_limited = false;
	unsigned disturbed = 0; /* trials that stayed disturbed after their repeats */
	std::vector<Trial> trials;
};
struct LatRow {
	uint32_t size;
	double fps;
	Histogram lat;
	uint64_t loss;
	bool gen_limited;
	bool disturbed;
};
struct LossRow {
	uint32_t size;
	double line_fps;
	double pct; /* of line */
	Trial t;
};
struct B2bRow {
	uint32_t size;
	double line_fps;
	uint64_t frames; /* longest burst per port without loss */
	double burst_fps;
	bool gen_limited;
	bool found;
	unsigned trials;
};

struct Results {
	bool ran = false;
	unsigned tests = 0;
	double trial_s = 0, resolution = 0, loss_pct = 0;
	std::string wait;
	std::vector<uint16_t> ports;
	std::vector<TputRow> tput;
	std::vector<LatRow> lat;
	std::vector<LossRow> loss;
	std::vector<B2bRow> b2b;
};

Results g_res;

struct Bench {
	Run &r;
	std::vector<std::unique_ptr<Capture>> &captures;
	bool emulated = true;		   /* every port is net_gaudi_emu: the shortened wait */
	uint32_t min_frame = kEthMinFrame; /* the ports' longest shortest frame (Port::min_frame) */
	uint64_t speed_mbps = 0;
	double spent = 0;
	bool aborted = false;

	double line_fps(uint32_t size) const
	{
		return speed_mbps ? double(speed_mbps) * 1e6 /
					    (8 * wire_len(size - RTE_ETHER_CRC_LEN, min_frame))
				  : 0;
	}

	void set_size(uint32_t size)
	{
		r.cfg.pkt_len = size - RTE_ETHER_CRC_LEN;
		for (auto &f : r.flows) {
			const Port &p = *r.by_id[f->port];
			f->spec.size = SizeSpec{};
			f->spec.size.lo = f->spec.size.hi = r.cfg.pkt_len;
			f->gen.init(f->spec, p.mac, p.dst, f->id, 0x243f6a8885a308d3ull + f->id);
		}
	}

	/* Clears what the ports' streams and the traffic streams measured (a trial's count). */
	void clear_measures()
	{
		for (auto &s : r.streams) {
			s->seqs = SeqTracker{};
			s->lat = Histogram{};
			for (FlowRx &fr : s->flow_rx)
				fr = FlowRx{};
			s->sent_stamped.store(0, std::memory_order_relaxed);
		}
		for (auto &f : r.flows) {
			f->seq = 0;
			f->tx_packets.store(0, std::memory_order_relaxed);
			f->tx_bytes.store(0, std::memory_order_relaxed);
			f->tx_stamped.store(0, std::memory_order_relaxed);
		}
	}

	/* One trial (RFC 2544 s. 23): frames per port at fps per port (0: as fast as the
	 * generator goes), or with frames 0 for `seconds` of traffic; then the wait for frames
	 * in flight, then the count. */
	Trial run(double fps, uint64_t frames, double seconds)
	{
		const Config &c = r.cfg;
		Trial t;
		t.target_fps = fps;
		const double hz = double(r.hz);
		for (auto &s : r.streams) {
			uint64_t share = frames / c.txq + (s->queue < frames % c.txq ? 1 : 0);
			s->to_send = frames ? std::max<uint64_t>(share, 1) : 0;
			s->max_lag = 0;
			s->hold_rate = true;
			s->last_turn.store(0, std::memory_order_relaxed);
			s->away.store(0, std::memory_order_relaxed);
			s->rx.store(0, std::memory_order_relaxed);
			s->sent_stamped.store(0, std::memory_order_relaxed);
		}
		/* The rate of each port's traffic streams (one per tx queue), paced per frame. */
		for (auto &f : r.flows) {
			f->paced = fps > 0;
			f->per_frame = fps > 0 ? hz * c.txq / fps : 0;
			f->per_byte = 0;
			f->wire = false;
			f->target_pps = fps / c.txq;
		}
		clear_measures();
		uint64_t missed0 = 0;
		for (Port &p : r.ports)
			missed0 += port_stats(p).imissed;
		/* Paced: the schedule ends at frames / fps, later by the time it waited for the
		 * lcore; 5 % more and the generator is too slow for it. Unpaced with a count: up
		 * to twice the trial time. */
		double expect = frames && fps > 0 ? double(frames) / fps : seconds;
		double limit = frames && fps > 0 ? expect * 1.05 + 0.01
			       : frames		 ? 2 * seconds + 1
						 : seconds;
		uint64_t start = launch(r, false);
		uint64_t deadline = start + uint64_t(limit * hz), now = start;
		bool all = false;
		uint64_t away = 0; /* the most any stream's schedule waited, so far */
		for (;;) {
			for (auto &cap : captures)
				cap->drain();
			rte_delay_us_sleep(1000);
			now = rte_rdtsc();
			if (g_signal.load(std::memory_order_relaxed)) {
				t.aborted = aborted = true;
				break;
			}
			all = frames != 0;
			away = 0;
			for (auto &s : r.streams) {
				all = all && s->done.load(std::memory_order_acquire);
				/* What it waited, and is waiting now: an lcore that has not run
				 * for a while has not counted that yet. */
				uint64_t a = s->away.load(std::memory_order_relaxed);
				uint64_t last = s->last_turn.load(std::memory_order_relaxed);
				if (!s->done.load(std::memory_order_relaxed) && last &&
				    now > last && now - last > r.hz / 1000)
					a += now - last;
				away = std::max(away, a);
			}
			/* The schedule waited while the lcore was away: so does the deadline. */
			if (all || now >= deadline + away)
				break;
		}
		t.seconds = double(now - start) / hz;
		g_gen_stop.store(true, std::memory_order_relaxed);
		if (!emulated && !t.aborted) /* RFC 2544 s. 23: 2 s for the frames in flight */
			rte_delay_us_sleep(2000000);
		halt(r, captures, rte_rdtsc());
		spent += double(rte_rdtsc() - start) / hz;
		for (auto &s : r.streams) {
			t.offered += s->sent.load(std::memory_order_relaxed);
			Histogram lat;
			SeqTracker seqs;
			stream_rx(*s, lat, seqs);
			t.received += seqs.received();
			t.lag_ms = std::max(t.lag_ms, s->max_lag / hz * 1e3);
		}
		t.away_ms = double(away) / hz * 1e3;
		uint64_t missed1 = 0;
		for (Port &p : r.ports)
			missed1 += port_stats(p).imissed;
		t.rx_missed = missed1 - missed0;
		t.loss = t.offered > t.received ? t.offered - t.received : 0;
		size_t np = r.ports.size();
		t.offered_fps = double(t.offered) / double(np) /
				std::max(t.seconds - t.away_ms / 1e3, 1e-9);
		if (fps > 0 && frames) {
			/* Done within 5 % of the schedule (the time it waited for the lcore
			 * aside): paced exactly per frame, at its rate. The time the main lcore
			 * took to notice is no measure of it (it may be preempted too). */
			t.gen_limited = !all;
			if (!t.gen_limited)
				t.offered_fps = fps;
		} else {
			/* Unpaced: short of the line rate is the generator's limit. */
			double line = line_fps(c.pkt_len + RTE_ETHER_CRC_LEN);
			t.gen_limited = line <= 0 || t.offered_fps < 0.99 * line;
		}
		t.pass = !t.aborted && t.offered > 0 &&
			 double(t.loss) * 100 <= c.rfc2544_loss * double(t.offered);
		return t;
	}

	/* A paced trial is disturbed when its generator did not hold the rate for reasons
	 * other than its speed: it fell more than kMaxLagMs behind its schedule and sent what
	 * it owed back to back (the device saw a burst), or its lcore was away (preempted) for
	 * more than 1 % of the trial, when the schedule waits (the device saw gaps, in which a
	 * device with a buffer drains it). Either way the device did not see the rate: the
	 * trial is run again, up to kRepeats times, and then counted as disturbed. */
	static constexpr double kMaxLagMs = 1;
	static constexpr unsigned kRepeats = 4;
	static bool disturbed(const Trial &t)
	{
		return t.target_fps > 0 && !t.gen_limited &&
		       (t.lag_ms > kMaxLagMs || t.away_ms > 10 * t.seconds);
	}

	Trial run_steady(const char *test, uint32_t size, unsigned n, double fps, double T,
			 double line)
	{
		uint64_t frames = fps > 0 ? uint64_t(std::llround(fps * T)) : 0;
		Trial t;
		for (unsigned k = 0;; k++) {
			t = run(fps, frames, T);
			t.repeats = k;
			print_trial(test, size, n, t, line);
			if (t.aborted || !disturbed(t) || k == kRepeats)
				return t;
		}
	}

	void print_trial(const char *test, uint32_t size, unsigned n, const Trial &t, double line)
	{
		if (r.cfg.quiet)
			return;
		printf("[rfc2544 %s %u B #%u] ", test, size, n);
		if (t.target_fps > 0)
			printf("target %.0f, ", t.target_fps);
		else
			printf("unpaced, ");
		printf("offered %.0f frames/s per port", t.offered_fps);
		if (line > 0)
			printf(" (%.3f%% of line)", t.offered_fps / line * 100);
		/* offered is per port; the counts are the sum over the ports. */
		size_t np = r.ports.size();
		std::string who = np == 1 ? "1 port" : std::to_string(np) + " ports together";
		printf(": %s sent %" PRIu64 ", received %" PRIu64 ", loss %" PRIu64 " (%.4f%%)%s",
		       who.c_str(), t.offered, t.received, t.loss,
		       t.offered ? double(t.loss) * 100 / double(t.offered) : 0.0,
		       t.aborted ? ", aborted (signal): not judged"
		       : t.pass	 ? ", pass"
				 : ", FAIL");
		if (t.rx_missed)
			printf(", rx missed %" PRIu64, t.rx_missed);
		if (disturbed(t))
			printf("; DISTURBED: the lcore was away %.1f ms (the schedule waited), "
			       "fell "
			       "%.1f ms behind its schedule at most%s",
			       t.away_ms, t.lag_ms, t.repeats == kRepeats ? "" : ": run again");
		if (t.gen_limited) {
			std::string why = rate_shortfall(t.target_fps > 0 ? t.target_fps : line,
							 t.offered_fps, r.cfg.pkt_len, speed_mbps,
							 min_frame, r.cfg.nb_cores, r.cfg.txq);
			printf("; generator-limited (%s)",
			       why.empty() ? "it did not finish on its schedule" : why.c_str());
		}
		printf("\n");
		fflush(stdout);
	}

	/* RFC 2544 s. 26.1: binary search between no rate and the line rate (or what the
	 * generator reaches) for the highest rate whose trial loses nothing (or no more than
	 * --rfc2544-loss). */
	TputRow throughput(uint32_t size)
	{
		const Config &c = r.cfg;
		TputRow row{};
		row.size = size;
		row.line_fps = line_fps(size);
		double T = c.rfc2544_trial;
		auto trial = [&](double fps) {
			Trial t = run_steady("throughput", size, unsigned(row.trials.size() + 1),
					     fps, T, row.line_fps);
			row.trials.push_back(t);
			row.disturbed += disturbed(t);
			return t;
		};
		/* First at the upper bound: the line rate (unpaced when it is not known). */
		Trial t0 = trial(row.line_fps);
		if (t0.aborted)
			return row;
		if (t0.pass) {
			row.best = t0;
			row.found = true;
			row.gen_limited = t0.gen_limited;
			return row;
		}
		/* Loss: the device's limit is below what was offered. */
		double lo = 0, hi = t0.gen_limited ? t0.offered_fps : row.line_fps;
		double res = c.rfc2544_resolution / 100 * hi;
		bool hi_by_gen = false;
		while (hi - lo > res && row.trials.size() < 64) {
			double x = (lo + hi) / 2;
			Trial t = trial(x);
			if (t.aborted)
				break;
			if (t.pass) {
				row.best = t;
				row.found = true;
				lo = t.gen_limited ? std::min(t.offered_fps, x) : x;
				if (t.gen_limited) {
					/* Above x the tester cannot offer the rate: no more to learn
					 * up there. */
					hi = x;
					hi_by_gen = true;
				}
			} else {
				hi = t.gen_limited ? std::min(t.offered_fps, x) : x;
				hi_by_gen = false;
			}
		}
		row.gen_limited = row.found && (hi_by_gen || row.best.gen_limited);
		return row;
	}

	/* RFC 2544 s. 26.2: latency at the throughput rate; here every frame carries a stamp
	 * (a trial's worth) rather than one tagged frame per 120 s stream. */
	LatRow latency(const TputRow &tp)
	{
		LatRow row{};
		row.size = tp.size;
		row.fps = tp.best.offered_fps;
		if (!tp.found || row.fps <= 0)
			return row;
		double T = r.cfg.rfc2544_trial;
		Trial t = run_steady("latency", tp.size, 1, row.fps, T, tp.line_fps);
		for (auto &s : r.streams) {
			SeqTracker seqs;
			stream_rx(*s, row.lat, seqs);
		}
		row.loss = t.loss;
		row.gen_limited = t.gen_limited;
		row.disturbed = disturbed(t);
		return row;
	}

	/* RFC 2544 s. 26.3: from 100 % of the line rate down in 10 % steps until two successive
	 * trials lose nothing. */
	void loss(uint32_t size)
	{
		double line = line_fps(size);
		double T = r.cfg.rfc2544_trial;
		unsigned clean = 0, n = 0;
		for (int pct = 100; pct >= 10 && clean < 2 && !aborted; pct -= 10) {
			double fps = line * pct / 100;
			Trial t = run_steady("loss", size, ++n, fps, T, line);
			if (t.aborted)
				break;
			g_res.loss.push_back({size, line, double(pct), t});
			clean = t.loss == 0 ? clean + 1 : 0;
			if (line <= 0) /* one unpaced trial: no rate steps without a line rate */
				break;
		}
	}

	/* RFC 2544 s. 26.4: the longest burst at the minimum gap (unpaced) without loss, by
	 * binary search on its length, from a trial's worth of frames. */
	B2bRow back_to_back(uint32_t size)
	{
		B2bRow row{};
		row.size = size;
		row.line_fps = line_fps(size);
		double T = r.cfg.rfc2544_trial;
		uint64_t want = row.line_fps > 0 ? uint64_t(row.line_fps * T) : 0;
		Trial t0 = run(0, 0, T); /* how many the generator sends in a trial, unpaced */
		print_trial("back-to-back", size, ++row.trials, t0, row.line_fps);
		if (t0.aborted)
			return row;
		uint64_t n0 = t0.offered / r.ports.size();
		row.burst_fps = t0.offered_fps;
		row.gen_limited = t0.gen_limited;
		if (t0.pass) {
			row.frames = want && !t0.gen_limited ? std::min(want, n0) : n0;
			row.found = true;
			return row;
		}
		/* The resolution is of the answer (lo), not of the trial's worth of frames the
		 * search starts from: a device with a short buffer holds a few hundred. */
		uint64_t lo = 0, hi = n0;
		auto res = [&] {
			return std::max<uint64_t>(
				1, uint64_t(r.cfg.rfc2544_resolution / 100 * double(lo)));
		};
		while (hi - lo > res() && row.trials < 64) {
			uint64_t x = lo + (hi - lo) / 2;
			if (x < r.cfg.txq)
				break;
			Trial t = run(0, x, T);
			print_trial("back-to-back", size, ++row.trials, t, row.line_fps);
			if (t.aborted)
				break;
			if (t.pass) {
				/* The burst's rate stays the unpaced trial's: over a short burst
				 * the poll's millisecond dominates the time measured. */
				lo = x;
				row.found = true;
			} else {
				hi = x;
			}
		}
		row.frames = lo;
		return row;
	}
};

void print_tables()
{
	const Results &g = g_res;
	printf("\n== RFC 2544 (trials of %.3g s; %s)\n", g.trial_s, g.wait.c_str());
	if (!g.tput.empty()) {
		printf("throughput (resolution %.3g%% of the search's upper bound, loss accepted "
		       "%.3g%%), per port:\n",
		       g.resolution, g.loss_pct);
		printf("  %5s %14s %10s %12s %10s %6s  %s\n", "size", "frames/s", "% of line",
		       "Mbit/s (L2)", "loss", "trials", "");
		for (const TputRow &t : g.tput) {
			double fps = t.found ? t.best.offered_fps : 0;
			printf("  %5u %14.0f %10.3f %12.1f %10" PRIu64 " %6zu  %s\n", t.size, fps,
			       t.line_fps > 0 ? fps / t.line_fps * 100 : 0.0,
			       fps * (t.size - RTE_ETHER_CRC_LEN) * 8 / 1e6, t.best.loss,
			       t.trials.size(),
			       t.disturbed ? "DISTURBED: the tester's lcore was preempted; "
					     "give it a core of its own (EAL -l)"
			       : !t.found  ? "no rate without loss found"
			       : t.gen_limited
				       ? "generator-limited: the device took all the tester could "
					 "offer"
				       : "");
		}
	}
	if (!g.lat.empty()) {
		printf("latency at the throughput rate, per frame (us):\n");
		printf("  %5s %14s %9s %9s %9s %9s %9s %10s\n", "size", "frames/s", "min", "mean",
		       "p50", "p99", "p99.9", "max");
		for (const LatRow &l : g.lat) {
			if (!l.lat.count()) {
				printf("  %5u  (no throughput rate to measure at)\n", l.size);
				continue;
			}
			/* The trial's flags, as the throughput table's: a tail measured while
			 * the lcore was preempted or could not hold the rate is the tester's. */
			printf("  %5u %14.0f %9.3f %9.3f %9.3f %9.3f %9.3f %10.3f%s%s\n", l.size,
			       l.fps, double(l.lat.min()) / 1e3, l.lat.mean() / 1e3,
			       double(l.lat.quantile(0.5)) / 1e3,
			       double(l.lat.quantile(0.99)) / 1e3,
			       double(l.lat.quantile(0.999)) / 1e3, double(l.lat.max()) / 1e3,
			       l.loss ? "  (frames lost in this trial)" : "",
			       l.disturbed     ? "  DISTURBED: the tester's lcore was preempted"
			       : l.gen_limited ? "  generator-limited: the tester offered less"
					       : "");
		}
	}
	if (!g.loss.empty()) {
		printf("frame loss rate, per port:\n");
		printf("  %5s %10s %14s %14s %10s  %s\n", "size", "% of line", "target f/s",
		       "offered f/s", "loss %", "");
		for (const LossRow &l : g.loss)
			printf("  %5u %10.0f %14.0f %14.0f %10.4f  %s\n", l.size, l.pct,
			       l.t.target_fps, l.t.offered_fps,
			       l.t.offered ? double(l.t.loss) * 100 / double(l.t.offered) : 0.0,
			       l.t.gen_limited ? "generator-limited" : "");
	}
	if (!g.b2b.empty()) {
		printf("back-to-back frames, per port:\n");
		printf("  %5s %14s %14s %6s  %s\n", "size", "burst frames", "burst f/s", "trials",
		       "");
		for (const B2bRow &b : g.b2b)
			printf("  %5u %14" PRIu64 " %14.0f %6u  %s\n", b.size, b.frames,
			       b.burst_fps, b.trials,
			       !b.found	       ? "no burst without loss found"
			       : b.gen_limited ? "generator-limited: bursts below the line rate"
					       : "");
	}
	fflush(stdout);
}

void json_trial(FILE *f, const Trial &t)
{
	fprintf(f,
		"{\"target_fps\": %.1f, \"offered_fps\": %.1f, \"offered\": %" PRIu64
		", \"received\": %" PRIu64 ", \"loss_frames\": %" PRIu64 ", \"rx_missed\": %" PRIu64
		", \"seconds\": %.6f, \"pass\": %s, \"generator_limited\": %s"
		", \"lag_ms\": %.3f, \"away_ms\": %.3f, \"repeats\": %u, \"disturbed\": %s}",
		t.target_fps, t.offered_fps, t.offered, t.received, t.loss, t.rx_missed, t.seconds,
		t.pass ? "true" : "false", t.gen_limited ? "true" : "false", t.lag_ms, t.away_ms,
		t.repeats, Bench::disturbed(t) ? "true" : "false");
}

void json_pct(FILE *f, double fps, double line)
{
	if (line > 0)
		fprintf(f, "%.6f", fps / line * 100);
	else
		fprintf(f, "null");
}

} /* namespace */

double rfc2544_run(Run &r, std::vector<std::unique_ptr<Capture>> &captures, const char *&stopped_by)
{
	Config &c = r.cfg;
	Bench b{r, captures};
	b.speed_mbps = UINT64_MAX;
	for (Port &p : r.ports) {
		rte_eth_dev_info info{};
		const char *drv = rte_eth_dev_info_get(p.id, &info) == 0 && info.driver_name
					  ? info.driver_name
					  : "";
		b.emulated = b.emulated && strcmp(drv, "net_gaudi_emu") == 0;
		b.min_frame = std::max(b.min_frame, p.min_frame);
		/* The link's speed when it reports one, else the port's highest capability. */
		rte_eth_link link{};
		uint64_t mbps = p.speed_mbps;
		if (rte_eth_link_get_nowait(p.id, &link) == 0 && link.link_status &&
		    link.link_speed != RTE_ETH_SPEED_NUM_NONE &&
		    link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
			mbps = link.link_speed;
		b.speed_mbps = std::min(b.speed_mbps, mbps);
	}
	if (b.speed_mbps == UINT64_MAX)
		b.speed_mbps = 0;
	Results &g = g_res;
	g = Results{};
	g.ran = true;
	g.tests = c.rfc2544;
	g.trial_s = c.rfc2544_trial;
	g.resolution = c.rfc2544_resolution;
	g.loss_pct = c.rfc2544_loss;
	g.wait = b.emulated ? "wait for frames in flight shortened on the emulated ports: until "
			      "the receive counters are still for 50 ms"
			    : "2 s wait for frames in flight (RFC 2544 s. 23)";
	for (const Port &p : r.ports)
		g.ports.push_back(p.id);
	if (!c.quiet) {
		printf("%s: RFC 2544", kProg);
		for (auto [bit, name] : {std::pair{kRfcThroughput, "throughput"},
					 {kRfcLatency, "latency"},
					 {kRfcLoss, "loss"},
					 {kRfcBackToBack, "back-to-back"}})
			if (c.rfc2544 & bit)
				printf(" %s", name);
		printf(", sizes");
		for (uint32_t s : c.rfc2544_sizes)
			printf(" %u", s);
		printf("; each port sends to its peer; line rate %s per port",
		       b.speed_mbps ? (std::to_string(b.speed_mbps / 1000) + " Gbit/s").c_str()
				    : "unknown");
		printf("%s\n", b.min_frame > kEthMinFrame
				       ? " (Gaudi: frames padded to 187 bytes on the wire)"
				       : "");
		fflush(stdout);
	}
	for (uint32_t size : c.rfc2544_sizes) {
		if (b.aborted)
			break;
		b.set_size(size);
		if (c.rfc2544 & (kRfcThroughput | kRfcLatency)) {
			TputRow tp = b.throughput(size);
			if (b.aborted)
				break;
			if (c.rfc2544 & kRfcLatency) {
				g.lat.push_back(b.latency(tp));
				if (b.aborted)
					break;
			}
			g.tput.push_back(std::move(tp));
		}
		if (c.rfc2544 & kRfcLoss)
			b.loss(size);
		if ((c.rfc2544 & kRfcBackToBack) && !b.aborted) {
			B2bRow row = b.back_to_back(size);
			if (!b.aborted)
				g.b2b.push_back(row);
		}
	}
	/* The final report's latency lines would show the last trial only: cleared, the
	 * benchmark's tables hold the figures. */
	b.clear_measures();
	c.pkt_len = *std::max_element(c.rfc2544_sizes.begin(), c.rfc2544_sizes.end()) -
		    RTE_ETHER_CRC_LEN;
	stopped_by = b.aborted ? "signal" : "rfc2544";
	if (b.aborted)
		printf("RFC 2544 interrupted (signal): the tables hold the sizes finished before "
		       "it%s\n",
		       g.tput.empty() && g.b2b.empty() ? " (none)" : "");
	print_tables();
	return b.spent;
}

void rfc2544_json(FILE *f)
{
	const Results &g = g_res;
	if (!g.ran)
		return;
	fprintf(f,
		" \"rfc2544\": {\"trial_s\": %.6f, \"resolution_pct\": %.6f, "
		"\"loss_tolerance_pct\": %.6f, \"wait\": %s, \"ports\": [",
		g.trial_s, g.resolution, g.loss_pct, json_str(g.wait).c_str());
	for (size_t i = 0; i < g.ports.size(); i++)
		fprintf(f, "%s%u", i ? ", " : "", g.ports[i]);
	fprintf(f, "]");
	if (g.tests & (kRfcThroughput | kRfcLatency)) {
		fprintf(f, ",\n  \"throughput\": [");
		for (size_t i = 0; i < g.tput.size(); i++) {
			const TputRow &t = g.tput[i];
			double fps = t.found ? t.best.offered_fps : 0;
			fprintf(f,
				"%s\n   {\"frame_size\": %u, \"frames_per_s\": %.1f, "
				"\"percent_of_line\": ",
				i ? "," : "", t.size, fps);
			json_pct(f, fps, t.line_fps);
			fprintf(f,
				", \"loss_frames\": %" PRIu64 ", \"found\": %s, "
				"\"generator_limited\": %s, \"disturbed_trials\": %u, "
				"\"line_rate_fps\": %.1f, \"trials\": [",
				t.best.loss, t.found ? "true" : "false",
				t.gen_limited ? "true" : "false", t.disturbed, t.line_fps);
			for (size_t k = 0; k < t.trials.size(); k++) {
				fprintf(f, "%s\n    ", k ? "," : "");
				json_trial(f, t.trials[k]);
			}
			fprintf(f, "]}");
		}
		fprintf(f, "%s]", g.tput.empty() ? "" : "\n  ");
	}
	if (g.tests & kRfcLatency) {
		fprintf(f, ",\n  \"latency\": [");
		for (size_t i = 0; i < g.lat.size(); i++) {
			const LatRow &l = g.lat[i];
			const Histogram &h = l.lat;
			fprintf(f,
				"%s\n   {\"frame_size\": %u, \"frames_per_s\": %.1f, \"count\": "
				"%" PRIu64 ", \"min_ns\": %" PRIu64 ", \"mean_ns\": %.1f, "
				"\"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64
				", \"p999_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64
				", \"loss_frames\": %" PRIu64 ", \"generator_limited\": %s"
				", \"disturbed\": %s}",
				i ? "," : "", l.size, l.fps, h.count(), h.min(), h.mean(),
				h.quantile(0.5), h.quantile(0.99), h.quantile(0.999), h.max(),
				l.loss, l.gen_limited ? "true" : "false",
				l.disturbed ? "true" : "false");
		}
		fprintf(f, "%s]", g.lat.empty() ? "" : "\n  ");
	}
	if (g.tests & kRfcLoss) {
		fprintf(f, ",\n  \"loss\": [");
		for (size_t i = 0; i < g.loss.size(); i++) {
			const LossRow &l = g.loss[i];
			fprintf(f,
				"%s\n   {\"frame_size\": %u, \"step_pct\": %.0f, "
				"\"percent_of_line\": ",
				i ? "," : "", l.size, l.pct);
			json_pct(f, l.t.offered_fps, l.line_fps);
			fprintf(f, ", \"loss_pct\": %.6f, \"trial\": ",
				l.t.offered ? double(l.t.loss) * 100 / double(l.t.offered) : 0.0);
			json_trial(f, l.t);
			fprintf(f, "}");
		}
		fprintf(f, "%s]", g.loss.empty() ? "" : "\n  ");
	}
	if (g.tests & kRfcBackToBack) {
		fprintf(f, ",\n  \"back_to_back\": [");
		for (size_t i = 0; i < g.b2b.size(); i++) {
			const B2bRow &b = g.b2b[i];
			fprintf(f,
				"%s\n   {\"frame_size\": %u, \"frames\": %" PRIu64
				", \"burst_fps\": %.1f, \"percent_of_line\": ",
				i ? "," : "", b.size, b.frames, b.burst_fps);
			json_pct(f, b.burst_fps, b.line_fps);
			fprintf(f, ", \"found\": %s, \"generator_limited\": %s, \"trials\": %u}",
				b.found ? "true" : "false", b.gen_limited ? "true" : "false",
				b.trials);
		}
		fprintf(f, "%s]", g.b2b.empty() ? "" : "\n  ");
	}
	fprintf(f, "},\n");
}

} /* namespace gtp */
