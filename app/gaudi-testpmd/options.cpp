/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: application options. Names and meanings follow dpdk-testpmd's where they
 * overlap (doc/guides/testpmd_app_ug/run_app.rst of DPDK 22.11). Parsing is strict: a value
 * that is not entirely a number in range is an error, and the first error ends the run
 * before EAL touches any port.
 */
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <getopt.h>
#include <algorithm>
#include <string>
#include <utility>

#include <arpa/inet.h>

#include "gtp.h"
#include "rfc2544.h"

namespace gtp {

const char *mode_name(FwdMode m)
{
	switch (m) {
	case FwdMode::io:
		return "io";
	case FwdMode::mac:
		return "mac";
	case FwdMode::macswap:
		return "macswap";
	case FwdMode::txonly:
		return "txonly";
	case FwdMode::rxonly:
		return "rxonly";
	case FwdMode::flowgen:
		return "flowgen";
	case FwdMode::icmpecho:
		return "icmpecho";
	case FwdMode::template_:
		return "template";
	case FwdMode::roce:
		return "roce";
	}
	return "?";
}

void usage(const char *prog)
{
	printf("Usage: %s [EAL options --] [options]\n"
	       "Traffic generator, forwarder, benchmark and capture tool on any DPDK port.\n"
	       "Without -a/--vdev in the EAL options, two emulated Gaudi2 ports are used\n"
	       "(--vdev net_gaudi_emu0,ports=2,wire=pair; the Gaudi PMD is linked in, no -d).\n"
	       "\n"
	       "Forwarding:\n"
	       "  --forward-mode=MODE   "
	       "io|mac|macswap|txonly|rxonly|flowgen|icmpecho|template|roce (io)\n"
	       "  --portlist=LIST       ports to use, e.g. 0,1 or 0-3 (all); paired 0<->1, 2<->3\n"
	       "  --nb-cores=N          forwarding lcores (1)\n"
	       "  --rxq=N --txq=N       queues per port (1); must be equal\n"
	       "  --rxd=N --txd=N       descriptors per queue (the port's default)\n"
	       "  --burst=N             frames per burst, 1..512 (32)\n"
	       "  --tx-first            io/mac/macswap: send one burst per port at start\n"
	       "  --eth-peer=N,MAC      destination MAC of frames sent on port N (mac, "
	       "generators);\n"
	       "                        default: the MAC of the paired port\n"
	       "Generated frames (txonly, flowgen):\n"
	       "  --txpkts=SIZES        frame lengths without FCS, from 42 up to the ports'\n"
	       "                        largest frame (8188 on Gaudi2; show port info) (64):\n"
	       "                        LEN, imix (simple IMIX, 7:4:1 in a fixed order: 60/590/\n"
	       "                        1514 bytes, 64/594/1518 with FCS), LEN:WEIGHT,... (e.g.\n"
	       "                        64:7,594:4,1518:1), LO-HI (each in turn), random:LO-HI;\n"
	       "                        anything but LEN implies --forward-mode=txonly and\n"
	       "                        is refused with other modes than txonly/flowgen\n"
	       "  --stream=PORT:KEY=VAL,...\n"
	       "                        a traffic stream on PORT (repeatable; implies txonly);\n"
	       "                        keys: vlan=ID qinq=OUTER.INNER l3=ipv4|ipv6|none\n"
	       "                        l4=udp|tcp|raw ethertype=0xNNNN (no IP) size=SIZES\n"
	       "                        rate=N[pps]|Xgbps|P%% src_mac= dst_mac= src_ip= dst_ip=\n"
	       "                        sport= dport= (each A or A-B[/inc|dec|random]);\n"
	       "                        without rate=, --rate's; others: the options below\n"
	       "  --tx-ip=SRC,DST       IPv4 addresses (198.18.0.1,198.18.0.2)\n"
	       "  --tx-udp=SRC[,DST]    UDP ports (9,9)\n"
	       "  --flowgen-flows=N     flowgen: flows (source address/port pairs) (1024)\n"
	       "  --template=FILE       template mode: frames of a pcap/pcapng file, sent in a "
	       "loop\n"
	       "  --replay-speed=X      template: replay with the capture's own timing, X times\n"
	       "                        as fast (1 = as captured), then stop (replay)\n"
	       "  --replay-loop=N       template: replay the capture N times, 0 = until stopped\n"
	       "                        (1); as captured (x1) unless --replay-speed or --rate\n"
	       "  --rate=PPS|P%%         per-port target rate, frames per second or %% of the\n"
	       "                        line rate on the wire (FCS, preamble, IFG; Gaudi ports\n"
	       "                        pad frames to 187 bytes) (unpaced: as fast as the\n"
	       "                        lcore and the port go)\n"
	       "  --rate-gbps=X         per-port target rate, Gbit/s of frame bytes (no FCS)\n"
	       "                        (--rate/--rate-gbps imply txonly without --forward-mode\n"
	       "                        or --template)\n"
	       "  --no-latency          do not stamp generated frames (no latency, loss, reorder)\n"
	       "RoCE v2 (roce mode: requester on the first port, responder on its peer):\n"
	       "  --roce-op=OP          ud-send|rc-send|rc-write|rc-read (rc-write)\n"
	       "  --roce-msg=BYTES      message size (4096); --roce-depth=N outstanding (64)\n"
	       "  --roce-mtu=N          RoCE path MTU 256|512|1024|2048|4096 (1024)\n"
	       "Run and report:\n"
	       "  --duration=SECONDS    stop after this time\n"
	       "  --packets=N           generators: each port sends exactly N frames, then stop;\n"
	       "                        forwarding modes: stop once the ports received N frames;\n"
	       "                        roce: N messages (otherwise: until Ctrl-C)\n"
	       "  --stats-period=S      live line per port every S seconds, 0 = none (1)\n"
	       "  --json=FILE           write the final report as JSON (schema gaudi-testpmd/2:\n"
	       "                        run metadata, versions, phases, time series)\n"
	       "  --quiet               no live lines\n"
	       "  --screen, --no-screen live view as a table redrawn in place (pktgen/TRex style;\n"
	       "                        the default on a terminal) or as plain lines\n"
	       "  -i, --interactive     prompt (start, stop, show port stats, set fwd, ...; "
	       "'help')\n"
	       "Capture:\n"
	       "  --capture=PORT:FILE[:DIR]\n"
	       "                        pcapng of the port's traffic (repeatable); DIR: its\n"
	       "                        direction, rx|tx|both (else --capture-dir's)\n"
	       "  --capture-dir=[PORT:]DIR\n"
	       "                        rx|tx|both: of port PORT's capture, or of every capture\n"
	       "                        without its own (both)\n"
	       "  --capture-filter=BPF  only frames this pcap-filter(7) expression passes\n"
	       "  --capture-max=N       at most N frames per file (no limit)\n"
	       "  --snaplen=N           bytes kept per frame (all)\n"
	       "RFC 2544 benchmark (instead of one run; txonly frames between the paired ports):\n"
	       "  --rfc2544=TESTS       throughput[,latency,loss,back-to-back], or all\n"
	       "  --rfc2544-sizes=LIST  frame sizes with FCS (64,128,256,512,1024,1280,1518)\n"
	       "  --rfc2544-trial=S     seconds of traffic per trial (60, RFC 2544 s. 24)\n"
	       "  --rfc2544-resolution=PCT\n"
	       "                        throughput search ends within PCT %% of its upper bound\n"
	       "                        (line rate, or what the generator reached) (0.5)\n"
	       "  --rfc2544-loss=PCT    loss a throughput trial may have and pass, %% (0)\n"
	       "  -h, --help            this text\n"
	       "\n"
	       "Examples:\n"
	       "  %s --forward-mode=txonly --rate=1000000 --duration=5 --json=r.json\n"
	       "  %s --txpkts=imix --duration=3 --json=r.json\n"
	       "  %s --stream=0:vlan=100,rate=50000 --stream=0:l3=ipv6,l4=tcp,size=imix,rate=10%%\n"
	       "  %s --forward-mode=io --tx-first --capture=1:p1.pcapng --capture-filter='udp'\n"
	       "  %s --forward-mode=template --template=frames.pcap --rate-gbps=10 --duration=3\n"
	       "  %s --template=trace.pcapng --replay-speed=2 --replay-loop=3\n"
	       "  %s -l 0-2 -a 0000:3b:00.0 -a 0000:3b:00.1 -- --forward-mode=io --nb-cores=2\n"
	       "  %s --rfc2544=throughput,latency --rfc2544-sizes=64,512,1518 --rfc2544-trial=10\n",
	       prog, prog, prog, prog, prog, prog, prog, prog, prog);
}

namespace {

enum Opt {
	OPT_FWD = 256,
	OPT_PORTLIST,
	OPT_NB_CORES,
	OPT_RXQ,
	OPT_TXQ,
	OPT_RXD,
	OPT_TXD,
	OPT_BURST,
	OPT_TX_FIRST,
	OPT_ETH_PEER,
	OPT_TXPKTS,
	OPT_STREAM,
	OPT_TX_IP,
	OPT_TX_UDP,
	OPT_FLOWS,
	OPT_TEMPLATE,
	OPT_RATE,
	OPT_RATE_GBPS,
	OPT_NO_LAT,
	OPT_DURATION,
	OPT_PACKETS,
	OPT_STATS_PERIOD,
	OPT_JSON,
	OPT_QUIET,
	OPT_CAPTURE,
	OPT_CAPTURE_DIR,
	OPT_CAPTURE_FILTER,
	OPT_CAPTURE_MAX,
	OPT_SNAPLEN,
	OPT_ROCE_OP,
	OPT_ROCE_MSG,
	OPT_ROCE_DEPTH,
	OPT_ROCE_MTU,
	OPT_REPLAY_SPEED,
	OPT_REPLAY_LOOP,
	OPT_SCREEN,
	OPT_NO_SCREEN,
	OPT_RFC2544,
	OPT_RFC2544_SIZES,
	OPT_RFC2544_TRIAL,
	OPT_RFC2544_RES,
	OPT_RFC2544_LOSS,
};

const struct option long_opts[] = {
	{"forward-mode", required_argument, nullptr, OPT_FWD},
	{"portlist", required_argument, nullptr, OPT_PORTLIST},
	{"nb-cores", required_argument, nullptr, OPT_NB_CORES},
	{"rxq", required_argument, nullptr, OPT_RXQ},
	{"txq", required_argument, nullptr, OPT_TXQ},
	{"rxd", required_argument, nullptr, OPT_RXD},
	{"txd", required_argument, nullptr, OPT_TXD},
	{"burst", required_argument, nullptr, OPT_BURST},
	{"tx-first", no_argument, nullptr, OPT_TX_FIRST},
	{"eth-peer", required_argument, nullptr, OPT_ETH_PEER},
	{"txpkts", required_argument, nullptr, OPT_TXPKTS},
	{"stream", required_argument, nullptr, OPT_STREAM},
	{"tx-ip", required_argument, nullptr, OPT_TX_IP},
	{"tx-udp", required_argument, nullptr, OPT_TX_UDP},
	{"flowgen-flows", required_argument, nullptr, OPT_FLOWS},
	{"template", required_argument, nullptr, OPT_TEMPLATE},
	{"rate", required_argument, nullptr, OPT_RATE},
	{"rate-gbps", required_argument, nullptr, OPT_RATE_GBPS},
	{"no-latency", no_argument, nullptr, OPT_NO_LAT},
	{"duration", required_argument, nullptr, OPT_DURATION},
	{"packets", required_argument, nullptr, OPT_PACKETS},
	{"stats-period", required_argument, nullptr, OPT_STATS_PERIOD},
	{"json", required_argument, nullptr, OPT_JSON},
	{"quiet", no_argument, nullptr, OPT_QUIET},
	{"capture", required_argument, nullptr, OPT_CAPTURE},
	{"capture-dir", required_argument, nullptr, OPT_CAPTURE_DIR},
	{"capture-filter", required_argument, nullptr, OPT_CAPTURE_FILTER},
	{"capture-max", required_argument, nullptr, OPT_CAPTURE_MAX},
	{"snaplen", required_argument, nullptr, OPT_SNAPLEN},
	{"roce-op", required_argument, nullptr, OPT_ROCE_OP},
	{"roce-msg", required_argument, nullptr, OPT_ROCE_MSG},
	{"roce-depth", required_argument, nullptr, OPT_ROCE_DEPTH},
	{"roce-mtu", required_argument, nullptr, OPT_ROCE_MTU},
	{"replay-speed", required_argument, nullptr, OPT_REPLAY_SPEED},
	{"replay-loop", required_argument, nullptr, OPT_REPLAY_LOOP},
	{"screen", no_argument, nullptr, OPT_SCREEN},
	{"no-screen", no_argument, nullptr, OPT_NO_SCREEN},
	{"rfc2544", required_argument, nullptr, OPT_RFC2544},
	{"rfc2544-sizes", required_argument, nullptr, OPT_RFC2544_SIZES},
	{"rfc2544-trial", required_argument, nullptr, OPT_RFC2544_TRIAL},
	{"rfc2544-resolution", required_argument, nullptr, OPT_RFC2544_RES},
	{"rfc2544-loss", required_argument, nullptr, OPT_RFC2544_LOSS},
	{"interactive", no_argument, nullptr, 'i'},
	{"help", no_argument, nullptr, 'h'},
	{nullptr, 0, nullptr, 0},
};

bool parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t &out)
{
	if (*s == '\0' || *s == '-' || *s == '+')
		return false;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end || v < lo || v > hi)
		return false;
	out = v;
	return true;
}

bool parse_double(const char *s, double lo, double hi, double &out)
{
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	if (*s == '\0' || errno || *end || !std::isfinite(v) || v < lo || v > hi)
		return false;
	out = v;
	return true;
}

/* "0,2-3" -> {0,2,3}; ids < RTE_MAX_ETHPORTS, no duplicates. */
bool parse_portlist(const char *s, std::vector<uint16_t> &out)
{
	std::string str(s);
	size_t pos = 0;
	out.clear();
	while (pos <= str.size()) {
		size_t comma = str.find(',', pos);
		std::string item = str.substr(pos, comma == std::string::npos ? std::string::npos
									      : comma - pos);
		size_t dash = item.find('-');
		uint64_t a, b;
		if (dash == std::string::npos) {
			if (!parse_u64(item.c_str(), 0, RTE_MAX_ETHPORTS - 1, a))
				return false;
			b = a;
		} else if (!parse_u64(item.substr(0, dash).c_str(), 0, RTE_MAX_ETHPORTS - 1, a) ||
			   !parse_u64(item.substr(dash + 1).c_str(), a, RTE_MAX_ETHPORTS - 1, b)) {
			return false;
		}
		for (uint64_t p = a; p <= b; p++) {
			for (uint16_t q : out)
				if (q == p)
					return false;
			out.push_back(uint16_t(p));
		}
		if (comma == std::string::npos)
			break;
		pos = comma + 1;
	}
	return !out.empty();
}

bool parse_capture_dir(const std::string &s, CaptureDir &out)
{
	if (s == "rx")
		out = CaptureDir::rx;
	else if (s == "tx")
		out = CaptureDir::tx;
	else if (s == "both")
		out = CaptureDir::both;
	else
		return false;
	return true;
}

bool parse_ipv4(const std::string &s, uint32_t &out)
{
	in_addr a;
	if (inet_pton(AF_INET, s.c_str(), &a) != 1)
		return false;
	out = ntohl(a.s_addr);
	return true;
}

} /* namespace */

int parse_args(int argc, char **argv, Config &cfg)
{
	const char *prog = "gaudi-testpmd";
	std::vector<std::pair<uint16_t, CaptureDir>> port_dirs; /* --capture-dir=PORT:DIR */
	std::vector<std::string> given;				/* long options seen */
	opterr = 0;
	optind = 1;
	for (;;) {
		int idx = 0;
		int prev = optind;
		int c = getopt_long(argc, argv, ":ih", long_opts, &idx);
		if (c == -1)
			break;
		const char *arg = optarg;
		if (c >= OPT_FWD)
			given.push_back(long_opts[idx].name);
		uint64_t u;
		double d;
		auto bad = [&](const char *what) {
			fprintf(stderr, "%s: --%s=%s: %s\n", prog, long_opts[idx].name,
				arg ? arg : "", what);
			return 1;
		};
		switch (c) {
		case 'h':
			usage(prog);
			return -1;
		case 'i':
			cfg.interactive = true;
			break;
		case '?':
			fprintf(stderr,
				"%s: unknown option '%s' (EAL options go before '--'; "
				"see --help)\n",
				prog, argv[prev]);
			return 1;
		case ':':
			fprintf(stderr, "%s: option '%s' needs a value (see --help)\n", prog,
				argv[prev]);
			return 1;
		case OPT_FWD: {
			static const FwdMode modes[] = {
				FwdMode::io,	   FwdMode::mac,       FwdMode::macswap,
				FwdMode::txonly,   FwdMode::rxonly,    FwdMode::flowgen,
				FwdMode::icmpecho, FwdMode::template_, FwdMode::roce};
			bool found = false;
			for (FwdMode m : modes)
				if (strcmp(arg, mode_name(m)) == 0) {
					cfg.mode = m;
					found = true;
				}
			if (!found)
				return bad("not a mode (io, mac, macswap, txonly, rxonly, flowgen, "
					   "icmpecho, template, roce)");
			cfg.mode_given = true;
			break;
		}
		case OPT_PORTLIST:
			if (!parse_portlist(arg, cfg.portlist))
				return bad("not a port list (e.g. 0,1 or 0-3, no repeats)");
			break;
		case OPT_NB_CORES:
			if (!parse_u64(arg, 1, RTE_MAX_LCORE - 1, u))
				return bad("not a number of cores (1 or more)");
			cfg.nb_cores = unsigned(u);
			break;
		case OPT_RXQ:
		case OPT_TXQ:
			if (!parse_u64(arg, 1, 64, u))
				return bad("not a number of queues (1..64)");
			(c == OPT_RXQ ? cfg.rxq : cfg.txq) = uint16_t(u);
			break;
		case OPT_RXD:
		case OPT_TXD:
			if (!parse_u64(arg, 1, 65535, u))
				return bad("not a number of descriptors (1..65535)");
			(c == OPT_RXD ? cfg.rxd : cfg.txd) = uint16_t(u);
			break;
		case OPT_BURST:
			if (!parse_u64(arg, 1, 512, u))
				return bad("not a burst size (1..512)");
			cfg.burst = uint16_t(u);
			break;
		case OPT_TX_FIRST:
			cfg.tx_first = true;
			break;
		case OPT_ETH_PEER: {
			const char *comma = strchr(arg, ',');
			EthPeer p;
			if (!comma ||
			    !parse_u64(std::string(arg, comma).c_str(), 0, RTE_MAX_ETHPORTS - 1,
				       u) ||
			    rte_ether_unformat_addr(comma + 1, &p.addr) != 0)
				return bad("expected PORT,XX:XX:XX:XX:XX:XX");
			p.port = uint16_t(u);
			cfg.eth_peers.push_back(p);
			break;
		}
		case OPT_TXPKTS: {
			/* testpmd's LEN,LEN,... are the segments of one frame. */
			if (strchr(arg, ',') && !strchr(arg, ':'))
				return bad(
					"one length only (multi-segment frames are not supported)");
			std::string err;
			if (!parse_size(arg, cfg.txsize, err))
				return bad(err.c_str());
			/* The upper bound is the ports' largest frame, known once they are probed. */
			if (cfg.txsize.min() < 42)
				return bad("not a frame length (42 bytes or more, without FCS)");
			break;
		}
		case OPT_STREAM: {
			StreamSpec sp;
			std::string err;
			if (!parse_stream(arg, sp, err))
				return bad(err.c_str());
			cfg.streams.push_back(sp);
			break;
		}
		case OPT_TX_IP: {
			std::string s(arg);
			size_t comma = s.find(',');
			if (comma == std::string::npos ||
			    !parse_ipv4(s.substr(0, comma), cfg.ip_src) ||
			    !parse_ipv4(s.substr(comma + 1), cfg.ip_dst))
				return bad("expected SRC_IP,DST_IP (IPv4)");
			break;
		}
		case OPT_TX_UDP: {
			std::string s(arg);
			size_t comma = s.find(',');
			uint64_t a, b;
			if (!parse_u64(s.substr(0, comma).c_str(), 0, 65535, a))
				return bad("expected SRC[,DST] UDP ports (0..65535)");
			b = a;
			if (comma != std::string::npos &&
			    !parse_u64(s.substr(comma + 1).c_str(), 0, 65535, b))
				return bad("expected SRC[,DST] UDP ports (0..65535)");
			cfg.udp_src = uint16_t(a);
			cfg.udp_dst = uint16_t(b);
			break;
		}
		case OPT_FLOWS:
			if (!parse_u64(arg, 1, 65536, u))
				return bad("not a number of flows (1..65536)");
			cfg.flows = unsigned(u);
			break;
		case OPT_TEMPLATE:
			cfg.template_file = arg;
			break;
		case OPT_RATE: {
			size_t l = strlen(arg);
			if (l > 1 && arg[l - 1] == '%') {
				if (!parse_double(std::string(arg, l - 1).c_str(), 1e-9, 100, d))
					return bad("not a share of the line rate (above 0, at most "
						   "100%)");
				cfg.rate_pct = d;
				cfg.rate_pps = 0;
				break;
			}
			if (!parse_double(arg, 1, 1e12, d))
				return bad("not a rate in frames per second (1 or more) or P% of "
					   "the line rate");
			cfg.rate_pps = d;
			cfg.rate_pct = 0;
			break;
		}
		case OPT_RATE_GBPS:
			if (!parse_double(arg, 1e-6, 1e6, d))
				return bad("not a rate in Gbit/s (above 0)");
			cfg.rate_gbps = d;
			break;
		case OPT_NO_LAT:
			cfg.latency = false;
			break;
		case OPT_DURATION:
			if (!parse_double(arg, 0.001, 1e9, d))
				return bad("not a duration in seconds (above 0)");
			cfg.duration = d;
			break;
		case OPT_PACKETS:
			if (!parse_u64(arg, 1, UINT64_MAX, u))
				return bad("not a number of frames (1 or more)");
			cfg.packets = u;
			break;
		case OPT_STATS_PERIOD:
			if (!parse_double(arg, 0, 86400, d) || (d > 0 && d < 0.01))
				return bad("not a period in seconds (0, or 0.01..86400)");
			cfg.stats_period = d;
			break;
		case OPT_JSON:
			cfg.json_file = arg;
			break;
		case OPT_QUIET:
			cfg.quiet = true;
			break;
		case OPT_CAPTURE: {
			const char *colon = strchr(arg, ':');
			if (!colon || !colon[1] ||
			    !parse_u64(std::string(arg, colon).c_str(), 0, RTE_MAX_ETHPORTS - 1, u))
				return bad("expected PORT:FILE[:rx|tx|both]");
			for (auto &c2 : cfg.captures)
				if (c2.port == u)
					return bad("that port is captured already");
			CaptureSpec cs{uint16_t(u), colon + 1};
			/* A last ":rx", ":tx" or ":both" is the direction, not part of the name;
			 * a last ":word" that is none of them (no '.' or '/', as a file name would
			 * have) is a direction mistyped, not a file "x:word". */
			size_t last = cs.file.rfind(':');
			if (last != std::string::npos && last > 0) {
				std::string tail = cs.file.substr(last + 1);
				if (parse_capture_dir(tail, cs.dir)) {
					cs.file.resize(last);
					cs.dir_given = true;
				} else if (tail.find_first_of("./") == std::string::npos) {
					std::string e = "'" + tail +
							"' is not a direction (rx, tx or both); a "
							"file name with ':' needs one after it "
							"(PORT:FILE:DIR)";
					return bad(e.c_str());
				}
			}
			cfg.captures.push_back(cs);
			break;
		}
		case OPT_CAPTURE_DIR: {
			/* DIR for every capture without its own, or PORT:DIR for one port. */
			const char *colon = strchr(arg, ':');
			CaptureDir d;
			if (!colon) {
				if (!parse_capture_dir(arg, cfg.capture_dir))
					return bad("expected rx, tx or both, or PORT:rx|tx|both");
			} else if (!parse_u64(std::string(arg, colon).c_str(), 0,
					      RTE_MAX_ETHPORTS - 1, u) ||
				   !parse_capture_dir(colon + 1, d)) {
				return bad("expected rx, tx or both, or PORT:rx|tx|both");
			} else {
				for (auto &pd : port_dirs)
					if (pd.first == u)
						return bad(
							"that port's direction is given already");
				port_dirs.emplace_back(uint16_t(u), d);
			}
			break;
		}
		case OPT_CAPTURE_FILTER:
			cfg.capture_filter = arg;
			break;
		case OPT_CAPTURE_MAX:
			if (!parse_u64(arg, 1, UINT64_MAX, u))
				return bad("not a number of frames (1 or more)");
			cfg.capture_max = u;
			break;
		case OPT_SNAPLEN:
			if (!parse_u64(arg, 16, UINT32_MAX, u))
				return bad("not a snap length (16 or more bytes)");
			cfg.snaplen = uint32_t(u);
			break;
		case OPT_ROCE_OP:
			if (strcmp(arg, "ud-send") && strcmp(arg, "rc-send") &&
			    strcmp(arg, "rc-write") && strcmp(arg, "rc-read"))
				return bad("expected ud-send, rc-send, rc-write or rc-read");
			cfg.roce_op = arg;
			break;
		case OPT_ROCE_MSG:
			if (!parse_u64(arg, 1, 1 << 24, u))
				return bad("not a message size (1..16 MiB)");
			cfg.roce_msg = uint32_t(u);
			break;
		case OPT_ROCE_DEPTH:
			if (!parse_u64(arg, 1, 4096, u))
				return bad("not a queue depth (1..4096)");
			cfg.roce_depth = uint32_t(u);
			break;
		case OPT_ROCE_MTU:
			if (!parse_u64(arg, 256, 4096, u) || (u & (u - 1)))
				return bad("not a RoCE MTU (256, 512, 1024, 2048 or 4096)");
			cfg.roce_mtu = uint32_t(u);
			break;
		case OPT_REPLAY_SPEED:
			if (!parse_double(arg, 1e-6, 1e6, d))
				return bad(
					"not a replay speed (above 0: 1 = as captured, 2 = twice "
					"as fast)");
			cfg.replay_speed = d;
			cfg.replay = true;
			break;
		case OPT_REPLAY_LOOP:
			/* Bounded so that loops x frames stays countable. */
			if (!parse_u64(arg, 0, UINT32_MAX, u))
				return bad("not a number of loops (0 = until stopped, or "
					   "1..4294967295)");
			cfg.replay_loop = u;
			cfg.replay = true;
			break;
		case OPT_SCREEN:
		case OPT_NO_SCREEN:
			cfg.screen = c == OPT_SCREEN;
			break;
		case OPT_RFC2544: {
			std::string err;
			if (!rfc2544_parse_tests(arg, cfg.rfc2544, err))
				return bad(err.c_str());
			break;
		}
		case OPT_RFC2544_SIZES: {
			std::string err;
			if (!rfc2544_parse_sizes(arg, cfg.rfc2544_sizes, err))
				return bad(err.c_str());
			break;
		}
		case OPT_RFC2544_TRIAL:
			if (!parse_double(arg, 0.01, 86400, d))
				return bad("not a trial duration in seconds (0.01..86400)");
			cfg.rfc2544_trial = d;
			break;
		case OPT_RFC2544_RES:
			if (!parse_double(arg, 0.001, 50, d))
				return bad("not a resolution in percent (0.001..50)");
			cfg.rfc2544_resolution = d;
			break;
		case OPT_RFC2544_LOSS:
			if (!parse_double(arg, 0, 100, d) || d >= 100)
				return bad("not a loss in percent (0 up to, not including, 100)");
			cfg.rfc2544_loss = d;
			break;
		default:
			fprintf(stderr, "%s: unknown option '%s' (see --help)\n", prog, argv[prev]);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", prog, argv[optind]);
		return 1;
	}
	/* Consistency of the options among themselves (ports are checked after EAL). */
	/* Streams and size mixes are traffic: without a mode, they mean txonly (testpmd's
	 * --txpkts applies to txonly only; a plain LEN keeps its io default for --tx-first). */
	if (!cfg.mode_given && (!cfg.streams.empty() || cfg.txsize.kind != SizeSpec::Kind::fixed))
		cfg.mode = FwdMode::txonly;
	/* So does a rate (it paces generators only), unless a template makes the mode template
	 * or --tx-first asks for a forwarding mode (then the error below says why); --rfc2544
	 * refuses --rate itself. */
	bool rate_given = cfg.rate_pps > 0 || cfg.rate_gbps > 0 || cfg.rate_pct > 0;
	if (!cfg.mode_given && rate_given && cfg.template_file.empty() && !cfg.rfc2544 &&
	    !cfg.tx_first)
		cfg.mode = FwdMode::txonly;
	if (cfg.txsize.kind != SizeSpec::Kind::fixed && cfg.mode != FwdMode::txonly &&
	    cfg.mode != FwdMode::flowgen) {
		fprintf(stderr,
			"%s: --txpkts=%s: a mix of sizes is for txonly and flowgen "
			"(implied without --forward-mode), not %s\n",
			prog, cfg.txsize.str().c_str(), mode_name(cfg.mode));
		return 1;
	}
	if (!cfg.streams.empty() && cfg.mode != FwdMode::txonly) {
		fprintf(stderr,
			"%s: --stream is for --forward-mode=txonly (implied without "
			"--forward-mode), not %s\n",
			prog, mode_name(cfg.mode));
		return 1;
	}
	if (cfg.rate_pct > 0 && cfg.rate_gbps > 0) {
		fprintf(stderr, "%s: --rate=%g%% and --rate-gbps: one of the two\n", prog,
			cfg.rate_pct);
		return 1;
	}
	cfg.pkt_len = cfg.txsize.max();
	for (StreamSpec &sp : cfg.streams) {
		/* What a stream leaves out, the other options give. */
		if (!sp.size_given)
			sp.size = cfg.txsize;
		sp.size.fit_headers(sp.hdr_len());
		if (!sp.src_ip.given && sp.l3 == L3::ipv4)
			sp.src_ip.lo = sp.src_ip.hi = cfg.ip_src;
		if (!sp.dst_ip.given && sp.l3 == L3::ipv4)
			sp.dst_ip.lo = sp.dst_ip.hi = cfg.ip_dst;
		/* IPv6: the benchmarking range 2001:2::/48 (RFC 5180), ::1 and ::2 as IPv4's. */
		if (!sp.src_ip.given && sp.l3 == L3::ipv6) {
			sp.src_ip.hi64 = 0x2001000200000000ull;
			sp.src_ip.lo = sp.src_ip.hi = 1;
		}
		if (!sp.dst_ip.given && sp.l3 == L3::ipv6) {
			sp.dst_ip.hi64 = 0x2001000200000000ull;
			sp.dst_ip.lo = sp.dst_ip.hi = 2;
		}
		if (!sp.sport.given)
			sp.sport.lo = sp.sport.hi = cfg.udp_src;
		if (!sp.dport.given)
			sp.dport.lo = sp.dport.hi = cfg.udp_dst;
		if (sp.rate.unit == RateSpec::Unit::none) {
			if (cfg.rate_pct > 0)
				sp.rate = {RateSpec::Unit::percent, cfg.rate_pct};
			else if (cfg.rate_pps > 0)
				sp.rate = {RateSpec::Unit::pps, cfg.rate_pps};
			else if (cfg.rate_gbps > 0)
				sp.rate = {RateSpec::Unit::gbps, cfg.rate_gbps};
		}
		cfg.pkt_len = std::max(cfg.pkt_len, sp.size.max());
	}
	if (!rfc2544_check(cfg, given))
		return 1;
	if (!cfg.template_file.empty() && cfg.mode == FwdMode::io)
		cfg.mode = FwdMode::template_;
	if (cfg.mode == FwdMode::template_ && cfg.template_file.empty()) {
		fprintf(stderr, "%s: --forward-mode=template needs --template=FILE\n", prog);
		return 1;
	}
	if (!cfg.template_file.empty() && cfg.mode != FwdMode::template_) {
		fprintf(stderr, "%s: --template is for --forward-mode=template, not %s\n", prog,
			mode_name(cfg.mode));
		return 1;
	}
	if ((cfg.rate_pps > 0 || cfg.rate_gbps > 0 || cfg.rate_pct > 0) &&
	    !is_generator(cfg.mode)) {
		fprintf(stderr,
			"%s: --rate/--rate-gbps apply to txonly, flowgen and template, "
			"not %s\n",
			prog, mode_name(cfg.mode));
		return 1;
	}
	if (cfg.replay) {
		const char *opt = cfg.replay_speed > 0 ? "--replay-speed" : "--replay-loop";
		const char *why = nullptr;
		if (cfg.mode != FwdMode::template_)
			why = "is for --forward-mode=template (--template=FILE)";
		else if (cfg.replay_speed > 0 && (cfg.rate_pps > 0 || cfg.rate_gbps > 0))
			why = "and --rate/--rate-gbps are two timings: the capture's (scaled) or a "
			      "set rate, not both";
		else if (cfg.packets)
			why = "and --packets: a replay sends the capture's frames x --replay-loop";
		else if (cfg.rxq > 1 || cfg.txq > 1)
			why = "keeps the capture's order: one queue per port (--rxq/--txq 1)";
		else if (cfg.interactive)
			why = "has no prompt (the run ends when the replay is done)";
		if (why) {
			fprintf(stderr, "%s: %s %s\n", prog, opt, why);
			return 1;
		}
		/* As tcpreplay: the capture's own timing unless a rate is set. */
		if (cfg.replay_speed == 0 && cfg.rate_pps == 0 && cfg.rate_gbps == 0)
			cfg.replay_speed = 1;
	}
	if (cfg.rxq != cfg.txq) {
		fprintf(stderr,
			"%s: --rxq (%u) and --txq (%u) must be equal (one stream per queue "
			"pair)\n",
			prog, cfg.rxq, cfg.txq);
		return 1;
	}
	if (cfg.tx_first && is_generator(cfg.mode)) {
		fprintf(stderr, "%s: --tx-first is for forwarding modes; %s generates anyway\n",
			prog, mode_name(cfg.mode));
		return 1;
	}
	if (cfg.mode == FwdMode::roce && (!cfg.captures.empty() || cfg.interactive)) {
		fprintf(stderr,
			"%s: roce mode has no %s (the RoCE transport polls the ports "
			"itself)\n",
			prog, cfg.interactive ? "prompt" : "capture");
		return 1;
	}
	if (cfg.mode == FwdMode::roce && cfg.roce_op == "ud-send" && cfg.roce_msg > cfg.roce_mtu) {
		fprintf(stderr,
			"%s: --roce-op=ud-send: a message of %u bytes does not fit the RoCE "
			"MTU of %u (a UD message is one packet)\n",
			prog, cfg.roce_msg, cfg.roce_mtu);
		return 1;
	}
	if (cfg.tx_first && cfg.mode == FwdMode::roce) {
		fprintf(stderr, "%s: --tx-first is for io, mac and macswap\n", prog);
		return 1;
	}
	for (auto &[port, d] : port_dirs) {
		CaptureSpec *cs = nullptr;
		for (auto &c2 : cfg.captures)
			if (c2.port == port)
				cs = &c2;
		if (!cs) {
			fprintf(stderr, "%s: --capture-dir=%u:...: no --capture of port %u\n", prog,
				port, port);
			return 1;
		}
		if (cs->dir_given) {
			fprintf(stderr,
				"%s: --capture-dir=%u:...: port %u's direction is in its --capture "
				"already\n",
				prog, port, port);
			return 1;
		}
		cs->dir = d;
		cs->dir_given = true;
	}
	for (auto &cs : cfg.captures)
		if (!cs.dir_given)
			cs.dir = cfg.capture_dir;
	if (!cfg.capture_filter.empty() && cfg.captures.empty()) {
		fprintf(stderr, "%s: --capture-filter without --capture\n", prog);
		return 1;
	}
	return 0;
}

} /* namespace gtp */
