/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the interactive prompt (-i), on DPDK's cmdline library.
 */
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <cerrno>

#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <cmdline_socket.h>
#include <rte_cycles.h>

#include "rte_pmd_gaudi.h"

#include "app.h"

namespace gtp {

namespace {

/* ---- interactive prompt (-i) ----------------------------------------------------------- */

/* The prompt runs on DPDK's cmdline library (line editing, history). One token takes the
 * whole line and the words are parsed here, which keeps every command in one table. */
struct Cli {
	Run *r = nullptr;
	std::vector<std::unique_ptr<Capture>> *captures = nullptr;
	bool running = false;
	bool quit = false;		 /* quit/exit, or the end of stdin */
	uint64_t start = 0, run_tsc = 0; /* run_tsc: forwarding time of the stopped runs */
	std::vector<rte_eth_stats> last_show;
	std::vector<uint64_t> last_show_tsc;
	cmdline *cl = nullptr;
	Phases *phases = nullptr; /* for the report */
	/* The time series over the forwarding time (--stats-period). */
	Sampler *sampler = nullptr;
	uint64_t period = 0, next_period = 0, last_t = 0;
};
Cli g_cli;

/* "all" or a port in use -> ports (indexes into r.ports); false after a message. */
bool cli_ports(const Run &r, const std::string &w, std::vector<size_t> &out)
{
	out.clear();
	for (size_t k = 0; k < r.ports.size(); k++)
		if (w == "all" || w == std::to_string(r.ports[k].id))
			out.push_back(k);
	if (out.empty())
		printf("no port '%s' in use (ports:%s)\n", w.c_str(),
		       [&] {
			       std::string l;
			       for (const Port &p : r.ports)
				       l += " " + std::to_string(p.id);
			       return l;
		       }()
			       .c_str());
	return !out.empty();
}

bool cli_u64(const std::string &w, uint64_t lo, uint64_t hi, uint64_t &v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(w.c_str(), &end, 0);
	if (w.empty() || w[0] == '-' || errno || *end || x < lo || x > hi) {
		printf("'%s': expected a number in %" PRIu64 "..%" PRIu64 "\n", w.c_str(), lo, hi);
		return false;
	}
	v = x;
	return true;
}

void cli_help()
{
	printf("start [tx_first]                     start forwarding (io/mac/macswap: one burst "
	       "first)\n"
	       "stop                                 stop forwarding, show what it moved\n"
	       "show port stats|xstats|info|regs all|N\n"
	       "clear port stats all|N\n"
	       "set fwd MODE                         io mac macswap txonly rxonly flowgen icmpecho "
	       "template\n"
	       "set burst N                          1..512\n"
	       "set txpkts LEN                       42..the ports' largest frame (show port "
	       "info)\n"
	       "port start|stop all|N\n"
	       "port config N loopback 0|1           MAC loopback (the port must be stopped)\n"
	       "set link-up|link-down port N\n"
	       "gaudi fault N KIND [ARG]             inject: db_fifo_overrun cq_overrun qp_err "
	       "link_flap\n"
	       "                                     dma_fault stuck_engine "
	       "(rte_pmd_gaudi_inject_fault)\n"
	       "gaudi recovery N                     recovery counters "
	       "(rte_pmd_gaudi_get_recovery_stats)\n"
	       "help, quit\n");
}

void cli_start(Cli &ui, bool first)
{
	Run &r = *ui.r;
	if (ui.running) {
		printf("already forwarding (stop first)\n");
		return;
	}
	for (const Port &p : r.ports)
		if (!p.started) {
			printf("port %u is stopped: 'port start %u' first\n", p.id, p.id);
			return;
		}
	if (first && is_generator(r.cfg.mode)) {
		printf("tx_first is for io, mac and macswap\n");
		return;
	}
	double pps = is_generator(r.cfg.mode) ? target_pps(r) : 0;
	Phases &ph = *ui.phases;
	ph.pps_varied = ph.pps_varied || (ph.pps >= 0 && ph.pps != pps);
	ph.pps = pps;
	std::string m = mode_name(r.cfg.mode);
	if (("+" + ph.modes + "+").find("+" + m + "+") == std::string::npos)
		ph.modes += (ph.modes.empty() ? "" : "+") + m;
	phase_begin(r, pps);
	ui.start = launch(r, first);
	ui.last_t = ui.start;
	ui.next_period = ui.start + ui.period;
	ui.running = true;
	printf("%s forwarding started on %zu port(s)\n", mode_name(r.cfg.mode), r.ports.size());
}

void cli_stop(Cli &ui)
{
	Run &r = *ui.r;
	if (!ui.running) {
		printf("not forwarding\n");
		return;
	}
	uint64_t t_end = rte_rdtsc();
	halt(r, *ui.captures, t_end);
	ui.running = false;
	double dt = double(t_end - ui.start) / double(r.hz);
	ui.run_tsc += t_end - ui.start;
	/* The last, partial period, with the frames that arrived while forwarding stopped. */
	if (ui.period && t_end > ui.last_t)
		ui.sampler->take(r, double(ui.run_tsc) / double(r.hz),
				 double(t_end - ui.last_t) / double(r.hz));
	/* What the phase moved, as the report's phases hold it (one reading of the counters). */
	phase_end(r, dt);
	const Phase &ph = r.meta.phases.back();
	printf("forwarding stopped after %.3f s\n", dt);
	for (size_t k = 0; k < r.ports.size(); k++) {
		const rte_eth_stats &d = ph.ports[k];
		printf("  port %u: rx %" PRIu64 " tx %" PRIu64
		       " frames (%s / %s), rx errors %" PRIu64 ", rx missed %" PRIu64
		       ", tx errors %" PRIu64 "\n",
		       r.ports[k].id, d.ipackets, d.opackets,
		       fps_text(double(d.ipackets) / dt).c_str(),
		       fps_text(double(d.opackets) / dt).c_str(), d.ierrors, d.imissed, d.oerrors);
	}
}

void cli_show(Cli &ui, const std::string &what, const std::vector<size_t> &ks)
{
	Run &r = *ui.r;
	ui.last_show.resize(r.ports.size());
	ui.last_show_tsc.resize(r.ports.size());
	for (size_t k : ks) {
		Port &p = r.ports[k];
		if (what == "stats") {
			rte_eth_stats st = port_stats(p); /* since the run began, across wipes */
			uint64_t now = rte_rdtsc();
			double dt = ui.last_show_tsc[k]
					    ? double(now - ui.last_show_tsc[k]) / double(r.hz)
					    : 0;
			const rte_eth_stats &l = ui.last_show[k];
			printf("port %u: RX-packets %" PRIu64 " RX-missed %" PRIu64
			       " RX-bytes %" PRIu64 " RX-errors %" PRIu64 " RX-nombuf %" PRIu64
			       "\n        TX-packets %" PRIu64 " TX-errors %" PRIu64
			       " TX-bytes %" PRIu64 " TX-dropped %" PRIu64 "\n",
			       p.id, st.ipackets, st.imissed, st.ibytes, st.ierrors, st.rx_nombuf,
			       st.opackets, st.oerrors, st.obytes, port_tx_dropped(r, p.id));
			if (dt > 0)
				printf("        since the last show (%.2f s): rx %s %.3f Gbit/s, "
				       "tx %s %.3f Gbit/s\n",
				       dt, fps_text(double(st.ipackets - l.ipackets) / dt).c_str(),
				       double(st.ibytes - l.ibytes) * 8 / dt / 1e9,
				       fps_text(double(st.opackets - l.opackets) / dt).c_str(),
				       double(st.obytes - l.obytes) * 8 / dt / 1e9);
			ui.last_show[k] = st;
			ui.last_show_tsc[k] = now;
		} else if (what == "xstats") {
			int n = rte_eth_xstats_get(p.id, nullptr, 0);
			if (n < 0) {
				printf("port %u: xstats: %s\n", p.id, rte_strerror(-n));
				continue;
			}
			std::vector<rte_eth_xstat> xs(n);
			std::vector<rte_eth_xstat_name> names(n);
			if (rte_eth_xstats_get(p.id, xs.data(), n) != n ||
			    rte_eth_xstats_get_names(p.id, names.data(), n) != n) {
				printf("port %u: xstats changed while reading\n", p.id);
				continue;
			}
			printf("port %u: %d xstats\n", p.id, n);
			for (int i = 0; i < n; i++)
				printf("  %-40s %" PRIu64 "\n", names[xs[i].id].name, xs[i].value);
		} else if (what == "info") {
			rte_eth_dev_info info;
			rte_eth_link link;
			uint16_t mtu = 0;
			if (rte_eth_dev_info_get(p.id, &info) != 0 ||
			    rte_eth_link_get_nowait(p.id, &link) != 0) {
				printf("port %u: info: cannot read the device\n", p.id);
				continue;
			}
			rte_eth_dev_get_mtu(p.id, &mtu);
			printf("port %u: %s, driver %s, MAC " RTE_ETHER_ADDR_PRT_FMT ", %s\n"
			       "  link %s %s %s-duplex, MTU %u, max frame %u bytes without FCS, "
			       "socket %d\n"
			       "  queues rx %u/%u tx %u/%u, descriptors rx %u..%u tx %u..%u, "
			       "sends to port %u (dst " RTE_ETHER_ADDR_PRT_FMT ")\n",
			       p.id, p.name.c_str(), info.driver_name, RTE_ETHER_ADDR_BYTES(&p.mac),
			       p.started ? "started" : "stopped", link.link_status ? "up" : "down",
			       rte_eth_link_speed_to_str(link.link_speed),
			       link.link_duplex ? "full" : "half", mtu, port_frame_max(info),
			       rte_eth_dev_socket_id(p.id), r.cfg.rxq, info.max_rx_queues,
			       r.cfg.txq, info.max_tx_queues, info.rx_desc_lim.nb_min,
			       info.rx_desc_lim.nb_max, info.tx_desc_lim.nb_min,
			       info.tx_desc_lim.nb_max, p.peer, RTE_ETHER_ADDR_BYTES(&p.dst));
		} else if (what == "regs") {
			rte_dev_reg_info ri{};
			int rc = rte_eth_dev_get_reg_info(p.id, &ri);
			if (rc != 0) {
				printf("port %u: register dump: %s\n", p.id, rte_strerror(-rc));
				continue;
			}
			std::vector<uint8_t> buf(size_t(ri.length) * ri.width);
			ri.data = buf.data();
			rc = rte_eth_dev_get_reg_info(p.id, &ri);
			if (rc != 0 || ri.width != 4) {
				printf("port %u: register dump: %s\n", p.id,
				       rc ? rte_strerror(-rc) : "not 32-bit registers");
				continue;
			}
			/* Most of the space reads zero: only the other registers are listed. */
			unsigned shown = 0;
			for (uint32_t i = 0; i < ri.length; i++) {
				uint32_t v;
				memcpy(&v, buf.data() + 4 * i, 4);
				if (!v)
					continue;
				printf("%s%06x: %08x", shown % 4 ? "  " : "  ", ri.offset + 4 * i,
				       v);
				if (++shown % 4 == 0)
					printf("\n");
			}
			printf("%sport %u: %u registers from offset 0x%x (version 0x%x), %u not "
			       "zero "
			       "(listed)\n",
			       shown % 4 ? "\n" : "", p.id, ri.length, ri.offset, ri.version,
			       shown);
		} else {
			printf("show port stats|xstats|info|regs all|N\n");
			return;
		}
	}
}

void cli_port(Cli &ui, const std::string &op, const std::vector<size_t> &ks)
{
	Run &r = *ui.r;
	if (ui.running) {
		printf("stop forwarding first\n");
		return;
	}
	for (size_t k : ks) {
		Port &p = r.ports[k];
		port_stats(p, true); /* what the counters hold before a stop/start may wipe them */
		if (op == "stop") {
			if (p.started)
				rte_eth_dev_stop(p.id);
			p.started = false;
			printf("port %u stopped\n", p.id);
		} else if (p.started) {
			printf("port %u is started already\n", p.id);
		} else {
			/* A new loopback mode needs a new configuration; the queues are set up
			 * again from the same mempool. */
			bool ok = p.reconfigure ? setup_port(r, p) : rte_eth_dev_start(p.id) == 0;
			p.reconfigure = !ok && p.reconfigure;
			p.started = ok;
			printf("port %u %s\n", p.id, ok ? "started" : "did not start");
		}
		port_stats(p, true); /* a wipe shows now, with nothing counted since */
	}
}

/* Rebuilds the streams after set fwd / set txpkts (their tx port and frame header); what they
 * measured stays with their ports for the report. */
void cli_rebuild(Run &r)
{
	for (auto &s : r.streams) {
		Port &p = *r.by_id[s->port];
		stream_rx(*s, p.lat, p.seqs);
		p.tx_dropped += s->tx_dropped.load(std::memory_order_relaxed);
		r.by_id[s->tx_port]->sent_stamped +=
			s->sent_stamped.load(std::memory_order_relaxed);
	}
	r.streams.clear();
	setup_streams(r, is_generator(r.cfg.mode) ? target_pps(r) : 0);
}

/* clear port stats: the port's counters, and with them what the report derives from what it
 * received (latency, sequences, loss against what its peer sent) and its series baseline. */
void cli_clear(Cli &ui, size_t k)
{
	Run &r = *ui.r;
	Port &p = r.ports[k];
	port_stats_reset(p);
	p.lat = {};
	p.seqs = {};
	p.tx_dropped = 0;
	r.by_id[p.peer]->sent_stamped = 0;
	for (auto &s : r.streams) {
		if (s->port == p.id) {
			s->lat = {};
			s->seqs = {};
			s->tx_dropped.store(0, std::memory_order_relaxed);
			s->rx.store(0, std::memory_order_relaxed);
		}
		if (s->tx_port == p.peer)
			s->sent_stamped.store(0, std::memory_order_relaxed);
	}
	/* The traffic streams it sends or receives: both ends, so that loss stays sent less
	 * received. */
	for (auto &f : r.flows) {
		if (f->port != p.id && f->rx_port != p.id)
			continue;
		f->tx_packets.store(0, std::memory_order_relaxed);
		f->tx_bytes.store(0, std::memory_order_relaxed);
		f->tx_stamped.store(0, std::memory_order_relaxed);
		for (auto &s : r.streams)
			if (s->port == f->rx_port && s->rx_idx[f->id] >= 0)
				s->flow_rx[size_t(s->rx_idx[f->id])] = FlowRx();
	}
	ui.sampler->last[k] = {};
	ui.sampler->last_drop[k] = 0;
	ui.last_show_tsc.assign(r.ports.size(), 0);
}

void cli_exec(Cli &ui, const std::string &line)
{
	Run &r = *ui.r;
	Config &c = r.cfg;
	std::vector<std::string> w;
	size_t pos = 0;
	while ((pos = line.find_first_not_of(" \t\r\n", pos)) != std::string::npos) {
		size_t e = line.find_first_of(" \t\r\n", pos);
		w.push_back(line.substr(pos, e == std::string::npos ? std::string::npos : e - pos));
		pos = e;
	}
	std::vector<size_t> ks;
	uint64_t v;
	auto is = [&](std::initializer_list<const char *> words) {
		if (w.size() < words.size())
			return false;
		size_t i = 0;
		for (const char *x : words)
			if (w[i++] != x)
				return false;
		return true;
	};
	if (w.empty())
		return;
	if (is({"help"})) {
		cli_help();
	} else if (is({"quit"}) || is({"exit"})) {
		cmdline_quit(ui.cl);
		ui.quit = true;
	} else if (is({"start"}) && w.size() <= 2 && (w.size() == 1 || w[1] == "tx_first")) {
		cli_start(ui, w.size() == 2);
	} else if (is({"stop"}) && w.size() == 1) {
		cli_stop(ui);
	} else if (is({"show", "port"}) && w.size() == 4) {
		if (cli_ports(r, w[3], ks))
			cli_show(ui, w[2], ks);
	} else if (is({"clear", "port", "stats"}) && w.size() == 4) {
		/* The latency figures belong to the forwarding lcores while they run. */
		if (ui.running)
			printf("stop forwarding first\n");
		else if (cli_ports(r, w[3], ks))
			for (size_t k : ks) {
				cli_clear(ui, k);
				printf("port %u: statistics cleared\n", r.ports[k].id);
			}
	} else if (is({"set", "fwd"}) && w.size() == 3) {
		static const FwdMode modes[] = {
			FwdMode::io,	 FwdMode::mac,	   FwdMode::macswap,  FwdMode::txonly,
			FwdMode::rxonly, FwdMode::flowgen, FwdMode::icmpecho, FwdMode::template_};
		const FwdMode *m = std::find_if(std::begin(modes), std::end(modes),
						[&](FwdMode x) { return w[2] == mode_name(x); });
		if (ui.running)
			printf("stop forwarding first\n");
		else if (m == std::end(modes))
			printf("'%s': not a mode\n", w[2].c_str());
		else if (*m == FwdMode::template_ && r.tmpl.frames.empty())
			printf("template needs --template=FILE on the command line\n");
		else {
			c.mode = *m;
			cli_rebuild(r);
			printf("forwarding mode: %s\n", mode_name(c.mode));
		}
	} else if (is({"set", "burst"}) && w.size() == 3) {
		if (ui.running)
			printf("stop forwarding first\n");
		else if (cli_u64(w[2], 1, kMaxBurst, v))
			c.burst = uint16_t(v);
	} else if (is({"set", "txpkts"}) && w.size() == 3) {
		if (ui.running)
			printf("stop forwarding first\n");
		else if (cli_u64(w[2], 42, r.max_frame, v)) {
			c.pkt_len = uint32_t(v);
			c.txsize = {};
			c.txsize.lo = c.txsize.hi = uint32_t(v);
			cli_rebuild(r);
		}
	} else if (is({"port", "config"}) && w.size() == 5 && w[3] == "loopback") {
		if (cli_ports(r, w[2], ks) && cli_u64(w[4], 0, 1, v))
			for (size_t k : ks) {
				Port &p = r.ports[k];
				if (p.started) {
					printf("port %u: 'port stop %u' first\n", p.id, p.id);
					continue;
				}
				p.lpbk = uint32_t(v);
				p.reconfigure = true;
				printf("port %u: loopback %u at the next 'port start'\n", p.id,
				       p.lpbk);
			}
	} else if ((is({"port", "start"}) || is({"port", "stop"})) && w.size() == 3) {
		if (cli_ports(r, w[2], ks))
			cli_port(ui, w[1], ks);
	} else if ((is({"set", "link-up", "port"}) || is({"set", "link-down", "port"})) &&
		   w.size() == 4) {
		if (cli_ports(r, w[3], ks))
			for (size_t k : ks) {
				uint16_t id = r.ports[k].id;
				int rc = w[1] == "link-up" ? rte_eth_dev_set_link_up(id)
							   : rte_eth_dev_set_link_down(id);
				printf("port %u: %s: %s\n", id, w[1].c_str(),
				       rc ? rte_strerror(-rc) : "done");
			}
	} else if (is({"gaudi", "fault"}) && (w.size() == 4 || w.size() == 5)) {
		static const char *kinds[] = {"db_fifo_overrun", "cq_overrun", "qp_err",
					      "link_flap",	 "dma_fault",  "stuck_engine"};
		int kind = -1;
		for (int i = 0; i < 6; i++)
			if (w[3] == kinds[i])
				kind = i;
		uint64_t arg = 0;
		if (kind < 0)
			printf("'%s': not a fault kind (see help)\n", w[3].c_str());
		else if (cli_ports(r, w[2], ks) &&
			 (w.size() == 4 || cli_u64(w[4], 0, UINT32_MAX, arg)))
			for (size_t k : ks) {
				int rc = rte_pmd_gaudi_inject_fault(
					r.ports[k].id, rte_pmd_gaudi_fault(kind), uint32_t(arg));
				printf("port %u: %s: %s\n", r.ports[k].id, kinds[kind],
				       rc ? rte_strerror(-rc) : "injected");
			}
	} else if (is({"gaudi", "recovery"}) && w.size() == 3) {
		if (cli_ports(r, w[2], ks))
			for (size_t k : ks) {
				rte_pmd_gaudi_recovery_stats st{};
				int rc = rte_pmd_gaudi_get_recovery_stats(r.ports[k].id, &st);
				if (rc) {
					printf("port %u: %s\n", r.ports[k].id, rte_strerror(-rc));
					continue;
				}
				printf("port %u: faults injected %" PRIu64
				       ", doorbell overruns %" PRIu64 " (re-rung %" PRIu64
				       "), CQ overruns %" PRIu64 ", QP errors %" PRIu64
				       " (recovered %" PRIu64 ", last syndrome 0x%x), TX fault "
				       "drops %" PRIu64 ", link down/up %" PRIu64 "/%" PRIu64
				       ", TX watchdog %" PRIu64 ", resets %" PRIu64 "\n",
				       r.ports[k].id, st.faults_injected, st.db_fifo_overruns,
				       st.db_rerings, st.cq_overrun_events, st.qp_errors,
				       st.qp_recoveries, st.last_qp_syndrome, st.tx_fault_drops,
				       st.link_down_events, st.link_up_events, st.tx_watchdog,
				       st.reset_events);
			}
	} else {
		printf("unknown command '%s' (help lists them)\n", line.c_str());
	}
	fflush(stdout);
}

struct CliLine {
	cmdline_multi_string_t line;
};

void cli_parsed(void *parsed, struct cmdline *, void *)
{
	cli_exec(g_cli, static_cast<CliLine *>(parsed)->line);
}

cmdline_parse_token_string_t cli_tok = TOKEN_STRING_INITIALIZER(CliLine, line, TOKEN_STRING_MULTI);
cmdline_parse_inst_t cli_inst = {
	.f = cli_parsed,
	.data = nullptr,
	.help_str = "a gaudi-testpmd command (help lists them)",
	.tokens = {&cli_tok.hdr, nullptr},
};
cmdline_parse_ctx_t cli_ctx[] = {&cli_inst, nullptr};

} /* namespace */

double interactive(Run &r, std::vector<std::unique_ptr<Capture>> &captures, Sampler &sampler,
		   Phases &phases)
{
	Cli &ui = g_cli;
	ui.r = &r;
	ui.phases = &phases;
	ui.captures = &captures;
	ui.sampler = &sampler;
	ui.period = r.cfg.stats_period > 0 ? uint64_t(r.cfg.stats_period * double(r.hz)) : 0;
	ui.cl = cmdline_stdin_new(cli_ctx, "gaudi-testpmd> ");
	if (!ui.cl) {
		fprintf(stderr, "%s: cannot start the prompt\n", kProg);
		return 0;
	}
	/* cmdline's raw terminal mode clears ISIG, so Ctrl-C reached the line editor, which only
	 * redraws the prompt. With ISIG back it raises SIGINT, which ends the session as it ends
	 * a run without -i (cmdline_stdin_exit restores the terminal as it was). */
	termios tio;
	if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &tio) == 0) {
		tio.c_lflag |= ISIG;
		tcsetattr(STDIN_FILENO, TCSANOW, &tio);
	}
	/* The main lcore also writes the captures: poll the prompt instead of blocking in it,
	 * feeding it what stdin has, a character at a time (cmdline_in; DPDK 23.11 removed
	 * cmdline_poll). End of input or quit ends the session. */
	for (;;) {
		pollfd pfd{STDIN_FILENO, POLLIN, 0};
		char ch;
		while (!ui.quit && poll(&pfd, 1, 0) > 0)
			if (read(STDIN_FILENO, &ch, 1) != 1 || cmdline_in(ui.cl, &ch, 1) < 0)
				ui.quit = true;
		if (ui.quit || g_signal.load(std::memory_order_relaxed))
			break;
		for (auto &cap : captures)
			cap->drain();
		uint64_t now = rte_rdtsc();
		if (ui.running && ui.period && now >= ui.next_period) {
			sampler.take(r, double(ui.run_tsc + now - ui.start) / double(r.hz),
				     double(now - ui.last_t) / double(r.hz));
			ui.last_t = now;
			ui.next_period += ui.period;
			if (ui.next_period < now)
				ui.next_period = now + ui.period;
		}
		rte_delay_us_sleep(1000);
	}
	if (ui.running)
		cli_stop(ui);
	cmdline_stdin_exit(ui.cl);
	printf("\n");
	return double(ui.run_tsc) / double(r.hz);
}

} /* namespace gtp */
