/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the options checked against the probed ports, and the ports, pools and streams
 * set up.
 */
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <climits>

#include <dlfcn.h>
#include <unistd.h>

#include <pcap/pcap.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

#include "rte_pmd_gaudi.h"

#ifndef DPDK_PLUGIN_DIR
#error "DPDK_PLUGIN_DIR must be defined (app/gaudi-testpmd/meson.build)"
#endif

#include "app.h"

namespace gtp {

/* The port's counters since the run began, across wipes: read with around_wipe just before and
 * after an operation that may wipe them (port stop/start), a counter that went down was reset,
 * and what it had counted goes into the base; exact then. Other readings take a decrease for a
 * counter that fell back (a PMD may count a frame and take it back), not for a wipe: adding the
 * whole count to the base then would count it twice. Main lcore only. */
rte_eth_stats port_stats(Port &p, bool around_wipe)
{
	rte_eth_stats raw{}, t{};
	if (rte_eth_stats_get(p.id, &raw) != 0)
		return p.final;
	auto fold = [around_wipe](uint64_t now, uint64_t &seen, uint64_t &base, uint64_t &total) {
		if (around_wipe && now < seen)
			base += seen;
		seen = now;
		total = base + now;
	};
	fold(raw.ipackets, p.seen.ipackets, p.base.ipackets, t.ipackets);
	fold(raw.opackets, p.seen.opackets, p.base.opackets, t.opackets);
	fold(raw.ibytes, p.seen.ibytes, p.base.ibytes, t.ibytes);
	fold(raw.obytes, p.seen.obytes, p.base.obytes, t.obytes);
	fold(raw.imissed, p.seen.imissed, p.base.imissed, t.imissed);
	fold(raw.ierrors, p.seen.ierrors, p.base.ierrors, t.ierrors);
	fold(raw.oerrors, p.seen.oerrors, p.base.oerrors, t.oerrors);
	fold(raw.rx_nombuf, p.seen.rx_nombuf, p.base.rx_nombuf, t.rx_nombuf);
	return t;
}

/* Resets the port's counters and the run's totals of them (start of a run, clear port stats). */
void port_stats_reset(Port &p)
{
	rte_eth_stats_reset(p.id);
	rte_eth_xstats_reset(p.id);
	p.base = {};
	p.seen = {};
}

/* ---- set-up ---------------------------------------------------------------------------- */

static bool has_opt(const std::vector<std::string> &args, const char *opt)
{
	size_t l = strlen(opt);
	for (const auto &a : args) {
		if (a == opt)
			return true;
		if (opt[1] == '-' ? a.compare(0, l + 1, std::string(opt) + "=") == 0
				  : (a.size() > 2 && a.compare(0, l, opt) == 0))
			return true;
	}
	return false;
}

/* The file the Gaudi PMD linked into this program was loaded from. */
static std::string linked_pmd()
{
	Dl_info info{};
	if (dladdr(reinterpret_cast<void *>(&rte_pmd_gaudi_inject_fault), &info) == 0 ||
	    !info.dli_fname)
		return "";
	return info.dli_fname;
}

/* EAL arguments: the user's, plus the emulated ports when no device is named. */
bool eal_args(const std::vector<std::string> &user, std::vector<std::string> &out)
{
	out = user;
	bool device = has_opt(user, "-a") || has_opt(user, "--allow") || has_opt(user, "-w") ||
		      has_opt(user, "--vdev");
	/* The PMD and its emulated NIC are linked in (no -d: DPDK refuses a plugin under a
	 * world-writable directory, such as a clone in /tmp), from one directory. EAL also loads
	 * every driver in its plugin directory: an installed copy other than the one linked would
	 * register the same drivers twice. */
	std::string dir = linked_pmd();
	dir = dir.substr(0, dir.rfind('/') + 1);
	for (const char *so : {"librte_net_gaudi.so", "librte_net_gaudi_emu.so"}) {
		std::string inst = std::string(DPDK_PLUGIN_DIR) + "/" + so, linked = dir + so;
		char a[PATH_MAX], b[PATH_MAX];
		if (access(inst.c_str(), F_OK) == 0 &&
		    !(realpath(inst.c_str(), a) && realpath(linked.c_str(), b) &&
		      strcmp(a, b) == 0)) {
			fprintf(stderr,
				"%s: %s is installed, and EAL loads it beside the Gaudi PMD linked "
				"into this program (%s): run the installed %s, or remove the "
				"installed PMD\n",
				kProg, inst.c_str(), linked.c_str(), kProg);
			return false;
		}
	}
	if (!device) {
		for (const char *a : {"--vdev", "net_gaudi_emu0,ports=2,wire=pair", "--no-pci"})
			out.push_back(a);
		/* Runs on any machine: no hugepages, no shared files, unless asked for. */
		if (!has_opt(user, "--no-huge") && !has_opt(user, "--socket-mem") &&
		    !has_opt(user, "--huge-dir") && !has_opt(user, "-m") &&
		    !has_opt(user, "--in-memory"))
			for (const char *a : {"--no-huge", "-m", "1024"})
				out.push_back(a);
		if (!has_opt(user, "--no-shconf") && !has_opt(user, "--file-prefix") &&
		    !has_opt(user, "--in-memory"))
			out.push_back("--no-shconf");
		if (!has_opt(user, "--iova-mode"))
			out.push_back("--iova-mode=va");
	}
	/* Quiet start and exit: EAL banner, telemetry's warning that no legacy client callbacks
	 * exist, "already stopped" from the vdev bus at cleanup. */
	if (!has_opt(user, "--log-level"))
		for (const char *a :
		     {"--log-level=lib.eal:warning", "--log-level=lib.ethdev:notice",
		      "--log-level=lib.telemetry:error"})
			out.push_back(a);
	return true;
}

bool load_template(const std::string &file, Template &t)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(file.c_str(), err);
	if (!p) {
		fprintf(stderr, "%s: --template=%s: %s\n", kProg, file.c_str(), err);
		return false;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		fprintf(stderr, "%s: --template=%s: link type %s, not Ethernet\n", kProg,
			file.c_str(), pcap_datalink_val_to_name(pcap_datalink(p)));
		pcap_close(p);
		return false;
	}
	pcap_pkthdr *h;
	const u_char *data;
	int rc;
	double total = 0;
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		if (h->caplen < h->len) {
			fprintf(stderr,
				"%s: --template=%s: frame %zu was cut to %u of %u bytes "
				"(snap length)\n",
				kProg, file.c_str(), t.frames.size() + 1, h->caplen, h->len);
			pcap_close(p);
			return false;
		}
		/* The longest is checked against the ports' largest frame (validate). */
		if (h->caplen < RTE_ETHER_HDR_LEN || h->caplen > UINT16_MAX) {
			fprintf(stderr, "%s: --template=%s: frame %zu has %u bytes (14..65535)\n",
				kProg, file.c_str(), t.frames.size() + 1, h->caplen);
			pcap_close(p);
			return false;
		}
		t.frames.emplace_back(data, data + h->caplen);
		total += h->caplen;
		t.max_len = std::max<size_t>(t.max_len, h->caplen);
	}
	if (rc == -1) {
		fprintf(stderr, "%s: --template=%s: %s\n", kProg, file.c_str(), pcap_geterr(p));
		pcap_close(p);
		return false;
	}
	pcap_close(p);
	if (t.frames.empty()) {
		fprintf(stderr, "%s: --template=%s: no frames\n", kProg, file.c_str());
		return false;
	}
	t.avg_len = total / double(t.frames.size());
	return true;
}

/* The longest frame the run sends (without FCS): the template's, a RoCE packet of the path
 * MTU with the largest headers the transport allows for (Ethernet, IPv6, UDP, BTH, AtomicETH,
 * ICRC and a tag: 110 bytes, roce_verbs.cpp kMaxHdr) or --txpkts. */
uint32_t frame_max(const Run &r)
{
	const Config &c = r.cfg;
	if (c.mode == FwdMode::template_)
		return uint32_t(r.tmpl.max_len);
	if (c.mode == FwdMode::roce)
		return c.roce_mtu + 112;
	return c.pkt_len;
}

/* The port's header overhead without FCS (max_rx_pktlen - max_mtu - FCS), which decides the
 * MTU a frame needs: 22 bytes on Gaudi2 (two VLAN tags), 14 on most ports. */
static uint32_t port_hdr_len(const rte_eth_dev_info &info)
{
	if (info.max_mtu < info.max_rx_pktlen && info.max_rx_pktlen - info.max_mtu <= 64 &&
	    info.max_rx_pktlen - info.max_mtu >= RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN)
		return info.max_rx_pktlen - info.max_mtu - RTE_ETHER_CRC_LEN;
	return RTE_ETHER_HDR_LEN;
}

/* The largest frame the port takes, without FCS: max_rx_pktlen counts the FCS (ethdev's
 * convention), max_mtu plus the header overhead bounds it too, and one mbuf must hold it.
 * Gaudi2: 8192 - 4 = 8166 + 22 = 8188 (NIC_RAW_MAX_MTU plus HBL_EN_MAX_HEADERS_SZ less FCS). */
uint32_t port_frame_max(const rte_eth_dev_info &info)
{
	uint64_t m =
		info.max_rx_pktlen > RTE_ETHER_CRC_LEN ? info.max_rx_pktlen - RTE_ETHER_CRC_LEN : 0;
	m = std::min<uint64_t>(m, uint64_t(info.max_mtu) + port_hdr_len(info));
	return uint32_t(std::min<uint64_t>(m, UINT16_MAX - RTE_PKTMBUF_HEADROOM - 8));
}

/* The largest frame the mempools and the MTU are set up for: the run's, or at the prompt the
 * ports' largest, so that set txpkts takes every length --txpkts takes. */
static uint32_t setup_frame(const Run &r)
{
	return r.cfg.interactive ? std::max(frame_max(r), r.port_max_frame) : frame_max(r);
}

/* Frames per second each port is to send without --stream; 0 = as fast as it goes (or, with
 * --stream, each stream at its own rate). --rate=P% needs the ports' speed (validate). */
double target_pps(const Run &r)
{
	const Config &c = r.cfg;
	if (c.mode != FwdMode::template_ && !c.streams.empty())
		return 0;
	const SizeSpec &sz = c.txsize;
	double len = c.mode == FwdMode::template_ ? r.tmpl.avg_len : sz.mean_len();
	if (c.rate_pct > 0) {
		if (r.ports.empty())
			return 0;
		const Port &p = r.ports[0];
		double line = double(p.speed_mbps) * 1e6;
		if (c.mode == FwdMode::template_)
			return line * c.rate_pct / 100 / (8 * wire_len(len, p.min_frame));
		return rate_pps({RateSpec::Unit::percent, c.rate_pct}, sz, line, p.min_frame);
	}
	double pps = c.rate_pps;
	if (c.rate_gbps > 0) {
		double g = c.rate_gbps * 1e9 / (8 * len);
		pps = pps > 0 ? std::min(pps, g) : g;
	}
	return pps;
}

/* The traffic stream of a port without --stream: --txpkts, --tx-ip, --tx-udp; flowgen varies
 * the source address and port over --flowgen-flows flows, together. */
StreamSpec default_spec(const Run &r, uint16_t port)
{
	const Config &c = r.cfg;
	StreamSpec sp;
	sp.port = port;
	sp.size = c.txsize;
	sp.size_given = true;
	auto fixed = [](uint64_t v) {
		FieldSpec f;
		f.lo = f.hi = v;
		return f;
	};
	sp.src_ip = fixed(c.ip_src);
	sp.dst_ip = fixed(c.ip_dst);
	sp.sport = fixed(c.udp_src);
	sp.dport = fixed(c.udp_dst);
	if (c.mode == FwdMode::flowgen) {
		sp.src_ip.var = sp.sport.var = FieldSpec::Var::inc;
		sp.src_ip.hi = std::min<uint64_t>(UINT32_MAX, uint64_t(c.ip_src) + c.flows - 1);
		sp.sport.hi = std::min<uint64_t>(UINT16_MAX, uint64_t(c.udp_src) + c.flows - 1);
	}
	sp.text = "port " + std::to_string(port) + " (--txpkts=" + sp.size.str() + ")";
	return sp;
}

/* --stream against the ports, and each port's load against its line rate, on the wire. */
static bool check_streams(const Run &r)
{
	const Config &c = r.cfg;
	for (const StreamSpec &sp : c.streams) {
		if (!r.by_id[sp.port]) {
			fprintf(stderr, "%s: --stream=%s: port %u is not in use\n", kProg,
				sp.text.c_str(), sp.port);
			return false;
		}
		if (sp.size.min() < sp.hdr_len()) {
			fprintf(stderr,
				"%s: --stream=%s: %u-byte frames are shorter than the stream's "
				"headers (%u bytes)\n",
				kProg, sp.text.c_str(), sp.size.min(), sp.hdr_len());
			return false;
		}
	}
	if (!is_generator(c.mode))
		return true;
	/* The option that set the rate, for the error: the lower of --rate and --rate-gbps
	 * wins (target_pps). */
	char opt[64];
	if (c.rate_pct > 0)
		snprintf(opt, sizeof(opt), "--rate=%g%%", c.rate_pct);
	else if (c.rate_gbps > 0 && (c.rate_pps <= 0 || target_pps(r) < c.rate_pps))
		snprintf(opt, sizeof(opt), "--rate-gbps=%g", c.rate_gbps);
	else
		snprintf(opt, sizeof(opt), "--rate=%.0f", c.rate_pps);
	for (const Port &p : r.ports) {
		double line = double(p.speed_mbps) * 1e6, bps = 0;
		bool pct = c.rate_pct > 0;
		std::string who = opt;
		if (c.mode == FwdMode::template_) {
			bps = target_pps(r) * wire_len(r.tmpl.avg_len, p.min_frame) * 8;
		} else if (c.streams.empty()) {
			bps = target_pps(r) * 8 *
			      c.txsize.mean([&p](uint32_t l) { return wire_len(l, p.min_frame); });
		} else {
			who.clear();
			for (const StreamSpec &sp : c.streams) {
				if (sp.port != p.id || sp.rate.unit == RateSpec::Unit::none)
					continue;
				pct = pct || sp.rate.unit == RateSpec::Unit::percent;
				bps += rate_pps(sp.rate, sp.size, line, p.min_frame) * 8 *
				       sp.size.mean([&p](uint32_t l) {
					       return wire_len(l, p.min_frame);
				       });
				/* A stream without rate= has --rate's. */
				who += (who.empty() ? "" : " + ") +
				       (sp.text.find("rate=") != std::string::npos
						? "--stream=" + sp.text
						: std::string(opt) + " of --stream=" + sp.text);
			}
		}
		if (pct && !p.speed_mbps) {
			fprintf(stderr,
				"%s: a rate in %% of the line rate: port %u (%s) reports no "
				"speed\n",
				kProg, p.id, p.name.c_str());
			return false;
		}
		if (p.speed_mbps && bps > line * (1 + 1e-9)) {
			fprintf(stderr,
				"%s: %s: %.3f Gbit/s on the wire (with FCS, preamble, inter-frame "
				"gap and frames padded to %u bytes) is above port %u's line rate "
				"of %.0f Gbit/s\n",
				kProg, who.c_str(), bps / 1e9, p.min_frame, p.id,
				double(p.speed_mbps) / 1e3);
			return false;
		}
	}
	return true;
}

/* Checks the options against the probed ports; touches no port. */
bool validate(Run &r)
{
	Config &c = r.cfg;
	if (rte_eth_dev_count_avail() == 0) {
		fprintf(stderr, "%s: no Ethernet port (check -a/--vdev and -d)\n", kProg);
		return false;
	}
	if (c.portlist.empty()) {
		uint16_t p;
		RTE_ETH_FOREACH_DEV(p)
		c.portlist.push_back(p);
	}
	for (uint16_t p : c.portlist)
		if (!rte_eth_dev_is_valid_port(p)) {
			fprintf(stderr, "%s: --portlist: port %u does not exist (%u ports)\n",
				kProg, p, rte_eth_dev_count_avail());
			return false;
		}
	if (c.mode == FwdMode::roce && c.portlist.size() < 2) {
		fprintf(stderr, "%s: roce mode needs two ports (requester and responder)\n", kProg);
		return false;
	}
	unsigned workers = rte_lcore_count() - 1;
	if (c.nb_cores > workers) {
		fprintf(stderr,
			"%s: --nb-cores=%u needs %u lcores (the main one + %u); EAL has %u "
			"(use -l)\n",
			kProg, c.nb_cores, c.nb_cores + 1, c.nb_cores, rte_lcore_count());
		return false;
	}
	size_t nstreams = std::max(c.portlist.size() * c.rxq, c.streams.size());
	if (nstreams > kMaxStreams) {
		fprintf(stderr, "%s: %zu streams (--stream, or ports x queues); at most %u\n",
			kProg, nstreams, kMaxStreams);
		return false;
	}
	uint32_t max_frame = frame_max(r);
	r.ports.resize(c.portlist.size());
	for (size_t i = 0; i < c.portlist.size(); i++) {
		Port &p = r.ports[i];
		p.id = c.portlist[i];
		/* Paired as testpmd's default topology: 0<->1, 2<->3; an odd last port on itself. */
		p.peer = (i ^ 1) < c.portlist.size() ? c.portlist[i ^ 1] : p.id;
		r.by_id[p.id] = &p;
		rte_eth_dev_info info;
		if (rte_eth_dev_info_get(p.id, &info) != 0) {
			fprintf(stderr, "%s: port %u: no device info\n", kProg, p.id);
			return false;
		}
		char name[RTE_ETH_NAME_MAX_LEN];
		p.name = rte_eth_dev_get_name_by_port(p.id, name) == 0 ? name : "?";
		if (c.rxq > info.max_rx_queues || c.txq > info.max_tx_queues) {
			fprintf(stderr,
				"%s: port %u (%s) has at most %u rx and %u tx queues "
				"(--rxq/--txq %u)\n",
				kProg, p.id, p.name.c_str(), info.max_rx_queues, info.max_tx_queues,
				c.rxq);
			return false;
		}
		/* The Gaudi PMD's rings are powers of two (the hardware indexes them with a mask),
		 * which rte_eth_desc_lim cannot say: checked here, so that a size it would refuse
		 * stops the run before a port is configured. */
		bool pow2 = strncmp(info.driver_name, "net_gaudi", 9) == 0;
		/* A Gaudi port pads what it sends to 187 bytes (its TX, H6-3399): on its wire
		 * a shorter frame takes the time of a 187-byte one. */
		p.min_frame = pow2 ? kGaudiMinFrame : kEthMinFrame;
		auto desc_ok = [pow2](uint16_t n, const rte_eth_desc_lim &l) {
			return n >= l.nb_min && n <= l.nb_max &&
			       (l.nb_align <= 1 || n % l.nb_align == 0) &&
			       (!pow2 || rte_is_power_of_2(n));
		};
		/* 0 = the port's default (ethdev falls back to 512 when it has none). */
		p.rxd = c.rxd				    ? c.rxd
			: info.default_rxportconf.ring_size ? info.default_rxportconf.ring_size
							    : RTE_ETH_DEV_FALLBACK_RX_RINGSIZE;
		p.txd = c.txd				    ? c.txd
			: info.default_txportconf.ring_size ? info.default_txportconf.ring_size
							    : RTE_ETH_DEV_FALLBACK_TX_RINGSIZE;
		r.max_rxd = std::max(r.max_rxd, p.rxd);
		r.max_txd = std::max(r.max_txd, p.txd);
		if (!desc_ok(p.rxd, info.rx_desc_lim) || !desc_ok(p.txd, info.tx_desc_lim)) {
			fprintf(stderr,
				"%s: port %u (%s): --rxd %u / --txd %u out of its limits (rx "
				"%u..%u align %u, tx %u..%u align %u%s)\n",
				kProg, p.id, p.name.c_str(), p.rxd, p.txd, info.rx_desc_lim.nb_min,
				info.rx_desc_lim.nb_max, info.rx_desc_lim.nb_align,
				info.tx_desc_lim.nb_min, info.tx_desc_lim.nb_max,
				info.tx_desc_lim.nb_align, pow2 ? ", powers of two" : "");
			return false;
		}
		uint32_t port_max = port_frame_max(info);
		r.port_max_frame = std::min(r.port_max_frame, port_max);
		if (max_frame > port_max) {
			/* Named by the option the length came from. */
			const char *from = c.rfc2544			  ? "--rfc2544-sizes"
					   : c.mode == FwdMode::template_ ? "--template"
									  : "--txpkts / --stream";
			fprintf(stderr,
				"%s: %s: port %u (%s): %u-byte frames exceed its largest frame of "
				"%u bytes (without FCS)\n",
				kProg, from, p.id, p.name.c_str(), max_frame, port_max);
			return false;
		}
		p.speed_mbps = 0;
		static const struct {
			uint32_t bit;
			uint64_t mbps;
		} speeds[] = {
			{RTE_ETH_LINK_SPEED_200G, 200000}, {RTE_ETH_LINK_SPEED_100G, 100000},
			{RTE_ETH_LINK_SPEED_56G, 56000},   {RTE_ETH_LINK_SPEED_50G, 50000},
			{RTE_ETH_LINK_SPEED_40G, 40000},   {RTE_ETH_LINK_SPEED_25G, 25000},
			{RTE_ETH_LINK_SPEED_20G, 20000},   {RTE_ETH_LINK_SPEED_10G, 10000},
			{RTE_ETH_LINK_SPEED_5G, 5000},	   {RTE_ETH_LINK_SPEED_2_5G, 2500},
			{RTE_ETH_LINK_SPEED_1G, 1000},
		};
		for (auto sp : speeds)
			if (info.speed_capa & sp.bit) {
				p.speed_mbps = sp.mbps;
				break;
			}
		rte_eth_macaddr_get(p.id, &p.mac);
	}
	for (Port &p : r.ports)
		p.dst = r.by_id[p.peer]->mac;
	for (const EthPeer &e : c.eth_peers) {
		if (!r.by_id[e.port]) {
			fprintf(stderr, "%s: --eth-peer: port %u is not in use\n", kProg, e.port);
			return false;
		}
		r.by_id[e.port]->dst = e.addr;
	}
	if (!check_streams(r))
		return false;
	for (const CaptureSpec &cs : c.captures)
		if (!r.by_id[cs.port]) {
			fprintf(stderr, "%s: --capture: port %u is not in use (ports:", kProg,
				cs.port);
			for (uint16_t p : c.portlist)
				fprintf(stderr, " %u", p);
			fprintf(stderr, ")\n");
			return false;
		}
	return true;
}

/* Zero the data room of every mbuf of the generator pool: txonly/flowgen write only the
 * headers and the stamp, so the rest of each frame is zeros. */
static void zero_mbuf(rte_mempool *, void *, void *obj, unsigned)
{
	auto *m = static_cast<rte_mbuf *>(obj);
	memset(static_cast<uint8_t *>(m->buf_addr) + m->data_off, 0, m->buf_len - m->data_off);
}

bool create_pools(Run &r)
{
	const Config &c = r.cfg;
	unsigned nports = unsigned(r.ports.size());
	/* A standard frame with two VLAN tags, without FCS (1522, MTU + 22 as the Gaudi PMD
	 * takes at MTU 1500), fits one mbuf and a capture record. */
	uint32_t max_frame = std::max<uint32_t>(setup_frame(r), RTE_ETHER_MAX_LEN + 4);
	uint16_t room = uint16_t(std::max<uint32_t>(RTE_MBUF_DEFAULT_BUF_SIZE,
						    RTE_PKTMBUF_HEADROOM + max_frame + 8));
	r.max_frame =
		c.mode == FwdMode::template_ ? std::max<uint32_t>(max_frame, c.pkt_len) : max_frame;
	const unsigned cache = 256;
	unsigned lcores = c.nb_cores + 1;
	unsigned n_rx =
		nports * c.rxq * (r.max_rxd + r.max_txd + 2 * kMaxBurst) + lcores * cache + 1024;
	r.rx_mp = rte_pktmbuf_pool_create("gtp_rx", n_rx, cache, 0, room, rte_socket_id());
	unsigned n_gen = nports * c.txq * (r.max_txd + 2 * kMaxBurst) + lcores * cache + 1024;
	r.gen_mp = rte_pktmbuf_pool_create("gtp_gen", n_gen, cache, 0, room, rte_socket_id());
	if (!r.rx_mp || !r.gen_mp) {
		fprintf(stderr, "%s: mempool of %u + %u mbufs: %s (more memory: -m)\n", kProg, n_rx,
			n_gen, rte_strerror(rte_errno));
		return false;
	}
	rte_mempool_obj_iter(r.gen_mp, zero_mbuf, nullptr);
	if (!c.captures.empty()) {
		uint32_t snap = std::min<uint32_t>(c.snaplen, max_frame);
		unsigned n_cap = kCaptureRing * unsigned(c.captures.size()) + lcores * cache;
		r.cap_mp = rte_pktmbuf_pool_create("gtp_capture", n_cap, cache, 0,
						   uint16_t(rte_pcapng_mbuf_size(snap)),
						   rte_socket_id());
		if (!r.cap_mp) {
			fprintf(stderr, "%s: capture mempool: %s\n", kProg,
				rte_strerror(rte_errno));
			return false;
		}
	}
	return true;
}

bool setup_port(Run &r, Port &p)
{
	const Config &c = r.cfg;
	rte_eth_conf conf{};
	rte_eth_dev_info info;
	if (int rc = rte_eth_dev_info_get(p.id, &info); rc != 0) {
		fprintf(stderr, "%s: port %u: device info: %s\n", kProg, p.id, rte_strerror(-rc));
		return false;
	}
	conf.lpbk_mode = p.lpbk;
	if (c.rxq > 1) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf =
			info.flow_type_rss_offloads &
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP);
	}
	/* No MBUF_FAST_FREE: a txq sends mbufs of two pools (forwarded ones, and generated
	 * ones after tx_first or set fwd), which that offload does not allow. */
	int rc = rte_eth_dev_configure(p.id, c.rxq, c.txq, &conf);
	if (rc != 0) {
		fprintf(stderr, "%s: port %u: configure: %s\n", kProg, p.id, rte_strerror(-rc));
		return false;
	}
	p.configured = true;
	uint32_t max_frame = setup_frame(r);
	if (max_frame > RTE_ETHER_MAX_LEN - 4) {
		uint32_t hdr = port_hdr_len(info);
		uint32_t mtu = max_frame > hdr ? max_frame - hdr : max_frame;
		/* The RoCE layer sizes its path MTU by the ethdev rule (MTU = frame less the
		 * 14-byte Ethernet header); a port counting a longer header would leave it a size
		 * short (--roce-mtu=4096 ran at 2048). */
		if (c.mode == FwdMode::roce)
			mtu = std::max(mtu, max_frame - uint32_t(RTE_ETHER_HDR_LEN));
		rc = rte_eth_dev_set_mtu(p.id, uint16_t(mtu));
		if (rc != 0) {
			fprintf(stderr, "%s: port %u: MTU %u for %u-byte frames: %s\n", kProg, p.id,
				mtu, max_frame, rte_strerror(-rc));
			return false;
		}
	}
	int socket = rte_eth_dev_socket_id(p.id);
	if (socket < 0)
		socket = int(rte_socket_id());
	for (uint16_t q = 0; q < c.rxq; q++) {
		rc = rte_eth_rx_queue_setup(p.id, q, p.rxd, unsigned(socket), nullptr, r.rx_mp);
		if (rc == 0)
			rc = rte_eth_tx_queue_setup(p.id, q, p.txd, unsigned(socket), nullptr);
		if (rc != 0) {
			fprintf(stderr, "%s: port %u queue %u: %s\n", kProg, p.id, q,
				rte_strerror(-rc));
			return false;
		}
	}
	rte_eth_promiscuous_enable(p.id); /* not every PMD has it; forwarding works without */
	rc = rte_eth_dev_start(p.id);
	if (rc != 0) {
		fprintf(stderr, "%s: port %u: start: %s\n", kProg, p.id, rte_strerror(-rc));
		return false;
	}
	p.started = true;
	return true;
}

/* The traffic streams of txonly/flowgen: one per --stream (on queue k % txq of its port, k
 * counting the port's streams), or one per port and queue sharing the port's rate. Each lcore
 * stream learns which it sends and which its port receives. */
static void setup_flows(Run &r, double pps)
{
	const Config &c = r.cfg;
	r.flows.clear();
	if (!is_generator(c.mode) || c.mode == FwdMode::template_)
		return;
	std::vector<std::pair<StreamSpec, uint16_t>> specs; /* and queue */
	if (c.streams.empty()) {
		for (const Port &p : r.ports)
			for (uint16_t q = 0; q < c.txq; q++) {
				StreamSpec sp = default_spec(r, p.id);
				if (c.rate_pct > 0)
					sp.rate = {RateSpec::Unit::percent, c.rate_pct / c.txq};
				else if (c.rate_gbps > 0 && c.rate_pps == 0)
					sp.rate = {RateSpec::Unit::gbps, c.rate_gbps / c.txq};
				else if (pps > 0)
					sp.rate = {RateSpec::Unit::pps, pps / c.txq};
				specs.emplace_back(sp, q);
			}
	} else {
		std::vector<unsigned> per_port(RTE_MAX_ETHPORTS, 0);
		for (const StreamSpec &sp : c.streams)
			specs.emplace_back(sp, uint16_t(per_port[sp.port]++ % c.txq));
	}
	for (auto &[sp, q] : specs) {
		const Port &p = *r.by_id[sp.port];
		auto f = std::make_unique<TxFlow>();
		f->id = uint16_t(r.flows.size());
		f->port = p.id;
		f->queue = q;
		f->rx_port = p.peer;
		f->spec = sp;
		f->desc = describe(sp, p.peer);
		f->gen.init(sp, p.mac, p.dst, f->id, 0x243f6a8885a308d3ull + f->id);
		f->min_frame = p.min_frame;
		double line = double(p.speed_mbps) * 1e6;
		switch (sp.rate.unit) {
		case RateSpec::Unit::none:
			break;
		case RateSpec::Unit::pps:
			f->per_frame = double(r.hz) / sp.rate.value;
			break;
		case RateSpec::Unit::gbps:
			f->per_byte = double(r.hz) * 8 / (sp.rate.value * 1e9);
			break;
		case RateSpec::Unit::percent:
			f->per_byte = double(r.hz) * 8 / (line * sp.rate.value / 100);
			f->wire = true;
			break;
		}
		f->paced = sp.rate.unit != RateSpec::Unit::none;
		f->target_pps = rate_pps(sp.rate, sp.size, line, p.min_frame);
		for (auto &s : r.streams)
			if (s->port == f->port && s->queue == f->queue)
				s->flows.push_back(f.get());
		r.flows.push_back(std::move(f));
	}
	for (auto &s : r.streams) {
		size_t n = 0;
		for (auto &f : r.flows)
			if (f->rx_port == s->port)
				s->rx_idx[f->id] = int16_t(n++);
		s->flow_rx = std::vector<FlowRx>(n);
	}
}

void setup_streams(Run &r, double pps)
{
	const Config &c = r.cfg;
	r.lcore_streams.assign(c.nb_cores, {});
	if (c.mode == FwdMode::roce) {
		RoceJob &j = r.roce;
		j.req_port = r.ports[0].id;
		j.resp_port = r.ports[0].peer;
		j.tx_pool = r.gen_mp;
		j.op = c.roce_op == "ud-send"	? RoceOp::ud_send
		       : c.roce_op == "rc-send" ? RoceOp::rc_send
		       : c.roce_op == "rc-read" ? RoceOp::rc_read
						: RoceOp::rc_write;
		j.msg = c.roce_msg;
		j.depth = c.roce_depth;
		j.mtu = c.roce_mtu;
		j.limit = c.packets;
		j.gen_stop = &g_gen_stop;
		j.stop = &g_stop;
		return;
	}
	for (const Port &p : r.ports)
		for (uint16_t q = 0; q < c.rxq; q++) {
			auto s = std::make_unique<Stream>();
			s->id = uint16_t(r.streams.size());
			s->port = p.id;
			s->queue = q;
			s->tx_port = is_generator(c.mode) ? p.id : p.peer;
			if (c.packets && is_generator(c.mode))
				s->to_send = c.packets / c.txq + (q < c.packets % c.txq ? 1 : 0);
			if (pps > 0)
				s->tsc_per_pkt = double(r.hz) * c.txq / pps;
			s->rx_idx.fill(-1);
			r.lcore_streams[r.streams.size() % c.nb_cores].push_back(s.get());
			r.streams.push_back(std::move(s));
		}
	setup_flows(r, pps);
}

/* io/mac/macswap --tx-first: one burst per port, of its txonly stream, to start the loop. */
void tx_first(Run &r)
{
	for (auto &s : r.streams) {
		if (s->queue != 0)
			continue;
		const Port &p = *r.by_id[s->port];
		FrameGen gen;
		gen.init(default_spec(r, p.id), p.mac, p.dst, s->id, s->id);
		rte_mbuf *pkts[kMaxBurst];
		uint16_t n = r.cfg.burst;
		if (rte_pktmbuf_alloc_bulk(r.gen_mp, pkts, n) != 0)
			continue;
		uint64_t now = rte_rdtsc();
		for (uint16_t i = 0; i < n; i++) {
			uint32_t len = gen.next_len();
			gen.build(rte_pktmbuf_mtod(pkts[i], uint8_t *), len, r.cfg.latency, i, now);
			pkts[i]->data_len = uint16_t(len);
			pkts[i]->pkt_len = len;
		}
		uint16_t k = tx_burst(r, s->port, 0, pkts, n);
		if (k < n)
			rte_pktmbuf_free_bulk(pkts + k, n - k);
	}
}

} /* namespace gtp */
