/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: traffic generator, forwarder, benchmark and capture tool on DPDK ports.
 *
 * Layout: EAL options, then (after "--") the application's (options.cpp). Without a device
 * in the EAL options, two emulated Gaudi2 ports are used (net_gaudi_emu, wire=pair), from
 * the PMD this build made. Every input is checked before a port is configured. Forwarding
 * lcores run streams (one per port and queue); the main lcore prints the live lines, writes
 * the captures, stops the run (--duration, --packets, SIGINT/SIGTERM) and writes the report.
 * The roles live in their own files (app.h lists them); this one is the order of a run.
 */
#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <cstring>

#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_telemetry.h>

#include "app.h"
#include "screen.h"
#include "rfc2544.h"

namespace gtp {

std::atomic<bool> g_signal{false};
std::atomic<bool> g_gen_stop{false}; /* generators stop making frames */
std::atomic<bool> g_stop{false};     /* forwarding lcores return */
Run *g_run;

namespace {

void on_signal(int)
{
	g_signal.store(true, std::memory_order_relaxed);
}

} /* namespace */

static int main_impl(int argc, char **argv)
{
	/* Split at "--": EAL's options before, ours after (all ours when there is none). */
	std::vector<std::string> user_eal = {argv[0]};
	int app_first = 1;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			user_eal.assign(argv, argv + i);
			app_first = i + 1;
			break;
		}
	std::vector<char *> app_argv = {argv[0]};
	app_argv.insert(app_argv.end(), argv + app_first, argv + argc);
	auto run = std::make_unique<Run>();
	Run &r = *run;
	meta_begin(r.meta, argc, argv);
	int prc = parse_args(int(app_argv.size()), app_argv.data(), r.cfg);
	if (prc != 0)
		return prc < 0 ? 0 : 1;
	Config &c = r.cfg;
	/* From now on Ctrl-C ends the run cleanly (at once when it comes during set-up). */
	struct sigaction sa {};
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills, should a stop ever hang */
	sigaction(SIGINT, &sa, nullptr);
	sigaction(SIGTERM, &sa, nullptr);
	if (c.mode == FwdMode::template_ && !load_template(c.template_file, r.tmpl))
		return 1;
	std::vector<std::string> eal;
	if (!eal_args(user_eal, eal))
		return 1;
	r.meta.eal = eal;
	std::vector<char *> eal_argv;
	for (auto &a : eal)
		eal_argv.push_back(a.data());
	if (rte_eal_init(int(eal_argv.size()), eal_argv.data()) < 0) {
		fprintf(stderr, "%s: EAL initialisation failed: %s\n", kProg,
			rte_strerror(rte_errno));
		return 1;
	}
	g_run = &r;
	r.hz = rte_get_tsc_hz();
	r.ns_per_tsc = 1e9 / double(r.hz);
	int status = 1;
	std::unique_ptr<BpfFilter> filter;
	std::vector<std::unique_ptr<Capture>> captures;
	Sampler sampler;
	FlowLive flow_live;
	std::string modes = mode_name(c.mode);
	double elapsed = 0;
	const char *stopped_by = "?";
	double pps = 0;

	do {
		if (!validate(r) || !replay_prepare(r))
			break;
		if (!c.capture_filter.empty()) {
			std::string err;
			filter = BpfFilter::compile(c.capture_filter,
						    std::min<uint32_t>(c.snaplen, 65535), err);
			if (!filter) {
				fprintf(stderr, "%s: --capture-filter: %s\n", kProg, err.c_str());
				break;
			}
		}
		if (!c.json_file.empty()) {
			/* Writable (the file, or its directory when it does not exist yet)? */
			std::string dir = c.json_file.substr(0, c.json_file.find_last_of('/') + 1);
			const char *what = access(c.json_file.c_str(), F_OK) == 0
						   ? c.json_file.c_str()
					   : dir.empty() ? "."
							 : dir.c_str();
			if (access(what, W_OK) != 0) {
				fprintf(stderr, "%s: --json=%s: %s\n", kProg, c.json_file.c_str(),
					strerror(errno));
				break;
			}
		}
		if (!create_pools(r))
			break;
		bool ok = true;
		for (const CaptureSpec &cs : c.captures) {
			std::string err;
			bool rx = cs.dir != CaptureDir::tx, tx = cs.dir != CaptureDir::rx;
			auto cap = Capture::open(cs.port, cs.file, rx, tx, c.capture_max, c.snaplen,
						 r.cap_mp, filter.get(), err);
			if (!cap) {
				fprintf(stderr, "%s: --capture: %s\n", kProg, err.c_str());
				ok = false;
				break;
			}
			r.by_id[cs.port]->cap = cap.get();
			if (rx)
				r.cap_rx[cs.port] = cap.get();
			if (tx)
				r.cap_tx[cs.port] = cap.get();
			captures.push_back(std::move(cap));
		}
		if (!ok)
			break;
		/* From here on ports are touched. */
		for (Port &p : r.ports)
			if (!(ok = setup_port(r, p)))
				break;
		if (!ok)
			break;
		pps = target_pps(r);
		setup_streams(r, pps);
		replay_arm(r);
		meta_ports(r);
		rte_telemetry_register_cmd(
			"/gaudi_testpmd/stats", telemetry_stats,
			"Per-port counters of gaudi-testpmd. Parameter: port id");

		for (Port &p : r.ports) {
			rte_eth_link link{};
			if (rte_eth_link_get(p.id, &link) != 0)
				link = {}; /* printed as down */
			printf("port %u: %s, MAC " RTE_ETHER_ADDR_PRT_FMT
			       ", link %s %s, sends to port "
			       "%u\n",
			       p.id, p.name.c_str(), RTE_ETHER_ADDR_BYTES(&p.mac),
			       link.link_status ? "up" : "down",
			       rte_eth_link_speed_to_str(link.link_speed), p.peer);
		}
		printf("%s: %s forwarding, %zu port(s), %u queue(s) each, %u forwarding lcore(s), "
		       "burst %u",
		       kProg, mode_name(c.mode), r.ports.size(), c.rxq, c.nb_cores, c.burst);
		if (c.mode == FwdMode::template_)
			printf(", template %zu frame(s) of %.1f bytes on average%s%s",
			       r.tmpl.frames.size(), r.tmpl.avg_len, r.replay.on ? ", " : "",
			       r.replay.on ? replay_describe(r).c_str() : "");
		else if (!c.streams.empty())
			printf(", %zu stream(s)", r.flows.size());
		else if (is_generator(c.mode))
			printf(c.txsize.kind == SizeSpec::Kind::fixed ? ", %s-byte frames"
								      : ", frame sizes %s",
			       c.txsize.str().c_str());
		if (pps > 0)
			printf(", %.0f frames/s per port", pps);
		if (filter)
			printf(", capture filter on %s", filter->engine());
		printf("\n");
		fflush(stdout);

		for (Port &p : r.ports)
			port_stats_reset(p);
		sampler.init(r.ports.size());
		if (c.interactive) {
			Phases ph;
			elapsed = interactive(r, captures, sampler, ph);
			stopped_by = g_signal.load(std::memory_order_relaxed) ? "signal" : "quit";
			/* The report states the modes that forwarded, and a target only when every
			 * phase ran at it (an io phase after txonly has none). */
			if (!ph.modes.empty())
				modes = ph.modes;
			pps = ph.pps_varied || ph.pps < 0 ? 0 : ph.pps;
		} else if (c.rfc2544) {
			elapsed = rfc2544_run(r, captures, stopped_by);
		} else {
			const bool screen = screen_wanted(r);
			phase_begin(r, pps);
			uint64_t start = launch(r, c.tx_first);

			/* Main lcore: live lines, captures, stop conditions. */
			uint64_t period =
				c.stats_period > 0 ? uint64_t(c.stats_period * double(r.hz)) : 0;
			uint64_t next_period = start + period, last_t = start;
			for (;;) {
				for (auto &cap : captures)
					cap->drain();
				uint64_t now = rte_rdtsc();
				if (g_signal.load(std::memory_order_relaxed)) {
					stopped_by = "signal";
					break;
				}
				if (c.duration > 0 &&
				    double(now - start) >= c.duration * double(r.hz)) {
					stopped_by = "duration";
					break;
				}
				if (c.mode == FwdMode::roce) {
					if (r.roce.done.load(std::memory_order_acquire)) {
						stopped_by =
							r.roce.error.empty() ? "packets" : "error";
						break;
					}
				} else if ((c.packets || (r.replay.on && r.replay.loops)) &&
					   is_generator(c.mode)) {
					bool all = true;
					for (auto &s : r.streams)
						all = all &&
						      s->done.load(std::memory_order_acquire);
					if (all) {
						stopped_by = r.replay.on ? "replay" : "packets";
						break;
					}
				} else if (c.packets) {
					uint64_t rx = 0;
					for (auto &s : r.streams)
						rx += s->rx.load(std::memory_order_relaxed);
					if (rx >= c.packets) {
						stopped_by = "packets";
						break;
					}
				}
				if (period && now >= next_period) {
					const Sample &smp =
						sampler.take(r, double(now - start) / double(r.hz),
							     double(now - last_t) / double(r.hz));
					if (!c.quiet)
						live_show(r, sampler, smp, screen, false);
					/* One line (a row on the screen) per stream when they
					 * are the user's. */
					if (!c.quiet && !c.streams.empty()) {
						flow_live.line(r, smp.t,
							       double(now - last_t) / double(r.hz),
							       screen);
						fflush(stdout);
					}
					last_t = now;
					next_period += period;
					if (next_period < now)
						next_period = now + period;
				}
				rte_delay_us_sleep(1000);
			}
			uint64_t t_end = rte_rdtsc();
			elapsed = double(t_end - start) / double(r.hz);
			halt(r, captures, t_end);
			phase_end(r, elapsed);
			/* The last, partial period (with the frames that arrived while the run
			 * stopped), so that the series sums to the totals; shown too. */
			if (period && t_end > last_t) {
				const Sample &smp =
					sampler.take(r, double(t_end - start) / double(r.hz),
						     double(t_end - last_t) / double(r.hz));
				if (!c.quiet)
					live_show(r, sampler, smp, screen, true);
			}
		}
		for (Port &p : r.ports)
			p.final = port_stats(p);
		for (auto &cap : captures) {
			const Port &p = *r.by_id[cap->port()];
			cap->finish(p.final.ipackets, cap->dropped());
		}
		status = 0;
	} while (false);

	/* Stop and close every port this run touched, then count the mbufs still out. */
	for (Port &p : r.ports) {
		if (p.started)
			rte_eth_dev_stop(p.id);
		if (p.configured)
			rte_eth_dev_close(p.id);
	}
	unsigned in_use = 0;
	for (rte_mempool *mp : {r.rx_mp, r.gen_mp, r.cap_mp})
		if (mp)
			in_use += rte_mempool_in_use_count(mp);
	if (status == 0) {
		status = report(r, captures, sampler.series, elapsed, stopped_by, modes, pps,
				in_use);
		if (in_use)
			status = 1;
	}
	captures.clear();
	filter.reset();
	g_run = nullptr;
	rte_mempool_free(r.cap_mp);
	rte_mempool_free(r.gen_mp);
	rte_mempool_free(r.rx_mp);
	rte_eal_cleanup();
	return status;
}

} /* namespace gtp */

int main(int argc, char **argv)
{
	return gtp::main_impl(argc, argv);
}
