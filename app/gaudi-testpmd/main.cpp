/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: traffic generator, forwarder, benchmark and capture tool on DPDK ports.
 *
 * Layout: EAL options, then (after "--") the application's (options.cpp). Without a device
 * in the EAL options, two emulated Gaudi2 ports are used (net_gaudi_emu, wire=pair), from
 * the PMD this build made. Every input is checked before a port is configured. Forwarding
 * lcores run streams (one per port and queue); the main lcore prints the live lines, writes
 * the captures, stops the run (--duration, --packets, SIGINT/SIGTERM) and writes the report.
 */
#include <algorithm>
#include <climits>
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <termios.h>
#include <unistd.h>

#include <dlfcn.h>
#include <poll.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <cmdline_socket.h>
#include <pcap/pcap.h>
#include <rte_arp.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>
#include <rte_udp.h>

#include "capture.h"
#include "gtp.h"
#include "latency.h"
#include "roce_mode.h"
#include "rte_pmd_gaudi.h"

#ifndef DPDK_PLUGIN_DIR
#error "DPDK_PLUGIN_DIR must be defined (app/gaudi-testpmd/meson.build)"
#endif

namespace gtp {
namespace {

constexpr const char *kProg = "gaudi-testpmd";
constexpr unsigned kMaxBurst = 512;
constexpr uint32_t kWireOverhead = 24; /* FCS 4 + preamble/SFD 8 + inter-frame gap 12 */

std::atomic<bool> g_signal{false};
std::atomic<bool> g_gen_stop{false}; /* generators stop making frames */
std::atomic<bool> g_stop{false};     /* forwarding lcores return */

void on_signal(int)
{
	g_signal.store(true, std::memory_order_relaxed);
}

/* A counter one lcore writes and the main lcore reads while it runs. */
inline void bump(std::atomic<uint64_t> &c, uint64_t n)
{
	c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

struct Port {
	uint16_t id;
	uint16_t peer; /* where io/mac/macswap send what this port receives */
	rte_ether_addr mac;
	rte_ether_addr dst;  /* --eth-peer, else the peer's MAC */
	uint64_t speed_mbps; /* highest of speed_capa; 0 = unknown */
	std::string name;
	Capture *cap = nullptr;
	rte_eth_stats final{};
	/* The port's counters may be wiped under the run (port stop/start, a new configuration,
	 * a device reset): base holds what they had counted before, seen the last reading, so
	 * that base + the counters cover the whole run (port_stats). */
	rte_eth_stats base{}, seen{};
	bool started = false;
	bool configured = false;
	uint16_t rxd = 0, txd = 0; /* ring sizes */
	uint32_t lpbk = 0;	   /* rte_eth_conf.lpbk_mode (interactive: port config loopback) */
	bool reconfigure = false;  /* lpbk changed: configure again at the next port start */
	/* What the port's streams had measured when the prompt rebuilt them (set fwd, set
	 * txpkts): latency and sequences of what it received, frames it could not forward, and
	 * stamped frames it sent (the peer's loss figure). Cleared with its counters. */
	Histogram lat;
	SeqTracker seqs;
	uint64_t tx_dropped = 0, sent_stamped = 0;
};

struct alignas(RTE_CACHE_LINE_SIZE) Stream {
	uint16_t id;
	uint16_t port, queue; /* rx side */
	uint16_t tx_port;     /* tx side, same queue */
	/* Generator state. */
	uint64_t to_send = 0;	/* 0 = no limit */
	double tsc_per_pkt = 0; /* 0 = not paced */
	double next_tsc = 0;
	uint32_t seq = 0;
	uint32_t flow = 0;
	size_t tmpl_idx = 0;
	uint8_t hdr[64]; /* Ethernet/IPv4/UDP header of txonly/flowgen frames */
	rte_mbuf *pending[kMaxBurst];
	uint16_t npending = 0, pending_off = 0;
	std::atomic<bool> done{false};
	/* Counters (written by the stream's lcore only). */
	std::atomic<uint64_t> sent{0};	     /* accepted by rte_eth_tx_burst */
	std::atomic<uint64_t> tx_dropped{0}; /* forwarding modes: not accepted, freed */
	std::atomic<uint64_t> sent_stamped{0};
	std::atomic<uint64_t> rx{0};
	Histogram lat;
	SeqTracker seqs;
};

struct Template {
	std::vector<std::vector<uint8_t>> frames;
	double avg_len = 0;
	size_t max_len = 0;
};

/* Everything the forwarding lcores read; set up before they start, then read-only. */
struct Run {
	Config cfg;
	std::vector<Port> ports;
	std::vector<std::unique_ptr<Stream>> streams;
	std::vector<std::vector<Stream *>> lcore_streams;
	Capture *cap_rx[RTE_MAX_ETHPORTS] = {};
	Capture *cap_tx[RTE_MAX_ETHPORTS] = {};
	Port *by_id[RTE_MAX_ETHPORTS] = {};
	rte_mempool *rx_mp = nullptr, *gen_mp = nullptr, *cap_mp = nullptr;
	Template tmpl;
	RoceJob roce;
	uint16_t max_rxd = 0, max_txd = 0;
	uint32_t max_frame = 0; /* the largest frame the mempools and MTU were set up for */
	uint32_t port_max_frame = UINT32_MAX; /* the largest frame every port takes (no FCS) */
	double ns_per_tsc = 1;
	uint64_t hz = 1;
};

Run *g_run; /* for the telemetry callback */

/* The port's counters since the run began, across wipes: read with around_wipe just before and
 * after an operation that may wipe them (port stop/start), a counter that went down was reset,
 * and what it had counted goes into the base; exact then. Other readings take a decrease for a
 * counter that fell back (a PMD may count a frame and take it back), not for a wipe: adding the
 * whole count to the base then would count it twice. Main lcore only. */
rte_eth_stats port_stats(Port &p, bool around_wipe = false)
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

/* ---- frames ---------------------------------------------------------------------------- */

void build_header(Stream &s, const Run &r)
{
	const Config &c = r.cfg;
	const Port &p = *r.by_id[s.tx_port];
	memset(s.hdr, 0, sizeof(s.hdr));
	auto *eth = reinterpret_cast<rte_ether_hdr *>(s.hdr);
	eth->dst_addr = p.dst;
	eth->src_addr = p.mac;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	auto *ip = reinterpret_cast<rte_ipv4_hdr *>(eth + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(uint16_t(c.pkt_len - sizeof(*eth)));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(c.ip_src);
	ip->dst_addr = rte_cpu_to_be_32(c.ip_dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	auto *udp = reinterpret_cast<rte_udp_hdr *>(ip + 1);
	udp->src_port = rte_cpu_to_be_16(c.udp_src);
	udp->dst_port = rte_cpu_to_be_16(c.udp_dst);
	udp->dgram_len = rte_cpu_to_be_16(uint16_t(c.pkt_len - sizeof(*eth) - sizeof(*ip)));
	udp->dgram_cksum = 0; /* optional in IPv4 (RFC 768) */
}

/* Up to n new frames of the stream's generator into pkts; returns how many (0 when the
 * generator mempool is empty: retried at the next turn). */
uint16_t generate(Stream &s, const Run &r, rte_mbuf **pkts, uint16_t n, uint64_t now)
{
	const Config &c = r.cfg;
	if (rte_pktmbuf_alloc_bulk(r.gen_mp, pkts, n) != 0)
		return 0;
	if (c.mode == FwdMode::template_) {
		for (uint16_t i = 0; i < n; i++) {
			const auto &f = r.tmpl.frames[s.tmpl_idx];
			if (++s.tmpl_idx == r.tmpl.frames.size())
				s.tmpl_idx = 0;
			memcpy(rte_pktmbuf_mtod(pkts[i], void *), f.data(), f.size());
			pkts[i]->data_len = uint16_t(f.size());
			pkts[i]->pkt_len = uint32_t(f.size());
		}
		return n;
	}
	const bool stamp = c.latency && c.pkt_len >= kStampMinLen;
	for (uint16_t i = 0; i < n; i++) {
		auto *d = rte_pktmbuf_mtod(pkts[i], uint8_t *);
		memcpy(d, s.hdr, kStampOffset);
		if (c.mode == FwdMode::flowgen) {
			/* Vary the source address and port over --flowgen-flows flows. */
			auto *ip = reinterpret_cast<rte_ipv4_hdr *>(d + sizeof(rte_ether_hdr));
			auto *udp = reinterpret_cast<rte_udp_hdr *>(ip + 1);
			ip->src_addr = rte_cpu_to_be_32(c.ip_src + s.flow);
			udp->src_port = rte_cpu_to_be_16(uint16_t(c.udp_src + s.flow));
			ip->hdr_checksum = 0;
			ip->hdr_checksum = rte_ipv4_cksum(ip);
			if (++s.flow == c.flows)
				s.flow = 0;
		}
		if (stamp) {
			LatencyStamp st{kStampMagic, s.id, s.seq++, now};
			memcpy(d + kStampOffset, &st, sizeof(st));
		}
		pkts[i]->data_len = uint16_t(c.pkt_len);
		pkts[i]->pkt_len = c.pkt_len;
	}
	if (stamp)
		bump(s.sent_stamped,
		     n); /* counted when built: frames freed unsent are rare (stop) */
	return n;
}

/* icmpecho: turn an ARP request or ICMP echo request into its reply in place; false for
 * anything else (freed by the caller). As testpmd's icmpecho, replies to any address. */
bool icmp_echo(rte_mbuf *m, const rte_ether_addr &mac)
{
	auto *eth = rte_pktmbuf_mtod(m, rte_ether_hdr *);
	uint16_t type = rte_be_to_cpu_16(eth->ether_type);
	if (type == RTE_ETHER_TYPE_ARP) {
		if (m->data_len < sizeof(*eth) + sizeof(rte_arp_hdr))
			return false;
		auto *arp = reinterpret_cast<rte_arp_hdr *>(eth + 1);
		if (arp->arp_opcode != rte_cpu_to_be_16(RTE_ARP_OP_REQUEST) ||
		    arp->arp_hardware != rte_cpu_to_be_16(RTE_ARP_HRD_ETHER) ||
		    arp->arp_protocol != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4))
			return false;
		arp->arp_opcode = rte_cpu_to_be_16(RTE_ARP_OP_REPLY);
		uint32_t ip = arp->arp_data.arp_tip;
		arp->arp_data.arp_tha = arp->arp_data.arp_sha;
		arp->arp_data.arp_tip = arp->arp_data.arp_sip;
		arp->arp_data.arp_sha = mac;
		arp->arp_data.arp_sip = ip;
		eth->dst_addr = eth->src_addr;
		eth->src_addr = mac;
		return true;
	}
	if (type != RTE_ETHER_TYPE_IPV4 ||
	    m->data_len < sizeof(*eth) + sizeof(rte_ipv4_hdr) + sizeof(rte_icmp_hdr))
		return false;
	auto *ip = reinterpret_cast<rte_ipv4_hdr *>(eth + 1);
	uint32_t ihl = rte_ipv4_hdr_len(ip);
	uint32_t tot = rte_be_to_cpu_16(ip->total_length);
	if (ip->next_proto_id != IPPROTO_ICMP || ihl < 20 || tot < ihl + sizeof(rte_icmp_hdr) ||
	    sizeof(*eth) + tot > m->data_len || (ip->fragment_offset & rte_cpu_to_be_16(0x3fff)))
		return false;
	auto *icmp = reinterpret_cast<rte_icmp_hdr *>(reinterpret_cast<uint8_t *>(ip) + ihl);
	if (icmp->icmp_type != RTE_IP_ICMP_ECHO_REQUEST || icmp->icmp_code != 0)
		return false;
	icmp->icmp_type = RTE_IP_ICMP_ECHO_REPLY;
	icmp->icmp_cksum = 0;
	icmp->icmp_cksum = uint16_t(~rte_raw_cksum(icmp, tot - ihl));
	uint32_t a = ip->src_addr; /* swapped: the header checksum does not change */
	ip->src_addr = ip->dst_addr;
	ip->dst_addr = a;
	eth->dst_addr = eth->src_addr;
	eth->src_addr = mac;
	return true;
}

/* ---- datapath -------------------------------------------------------------------------- */

inline void capture_rx(const Run &r, uint16_t port, uint16_t q, rte_mbuf **pkts, uint16_t n)
{
	Capture *cap = r.cap_rx[port];
	if (!cap)
		return;
	rte_mbuf *copies[kMaxBurst];
	uint16_t idx[kMaxBurst];
	uint16_t k = cap->copy(pkts, n, q, RTE_PCAPNG_DIRECTION_IN, copies, idx);
	cap->commit(copies, idx, k, n);
}

/* rte_eth_tx_burst with the tx capture of the port: copies are taken before the burst and
 * kept only for the frames it accepted. */
inline uint16_t tx_burst(const Run &r, uint16_t port, uint16_t q, rte_mbuf **pkts, uint16_t n)
{
	Capture *cap = r.cap_tx[port];
	if (!cap)
		return rte_eth_tx_burst(port, q, pkts, n);
	rte_mbuf *copies[kMaxBurst];
	uint16_t idx[kMaxBurst];
	uint16_t k = cap->copy(pkts, n, q, RTE_PCAPNG_DIRECTION_OUT, copies, idx);
	uint16_t sent = rte_eth_tx_burst(port, q, pkts, n);
	cap->commit(copies, idx, k, sent);
	return sent;
}

void measure(Stream &s, const Run &r, rte_mbuf **pkts, uint16_t n)
{
	uint64_t now = rte_rdtsc();
	uint16_t dport = rte_cpu_to_be_16(r.cfg.udp_dst);
	for (uint16_t i = 0; i < n; i++) {
		const rte_mbuf *m = pkts[i];
		if (m->data_len < kStampMinLen)
			continue;
		const auto *d = rte_pktmbuf_mtod(m, const uint8_t *);
		const auto *eth = reinterpret_cast<const rte_ether_hdr *>(d);
		const auto *ip = reinterpret_cast<const rte_ipv4_hdr *>(eth + 1);
		const auto *udp = reinterpret_cast<const rte_udp_hdr *>(ip + 1);
		if (eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
		    ip->version_ihl != RTE_IPV4_VHL_DEF || ip->next_proto_id != IPPROTO_UDP ||
		    udp->dst_port != dport)
			continue;
		LatencyStamp st;
		memcpy(&st, d + kStampOffset, sizeof(st));
		if (st.magic != kStampMagic)
			continue;
		s.lat.add(uint64_t(double(now - st.tsc) * r.ns_per_tsc));
		s.seqs.add(st.stream, st.seq);
	}
}

void run_generator(Stream &s, const Run &r)
{
	const Config &c = r.cfg;
	rte_mbuf *pkts[kMaxBurst];
	uint16_t n = rte_eth_rx_burst(s.port, s.queue, pkts, c.burst);
	if (n) {
		bump(s.rx, n);
		capture_rx(r, s.port, s.queue, pkts, n);
		if (c.latency && c.mode != FwdMode::template_)
			measure(s, r, pkts, n);
		rte_pktmbuf_free_bulk(pkts, n);
	}
	if (s.npending == 0) {
		uint64_t sent = s.sent.load(std::memory_order_relaxed);
		if (g_gen_stop.load(std::memory_order_relaxed) ||
		    (s.to_send && sent >= s.to_send)) {
			s.done.store(true, std::memory_order_release);
			return;
		}
		uint64_t now = rte_rdtsc();
		if (s.tsc_per_pkt > 0 && double(now) < s.next_tsc)
			return;
		uint16_t want = c.burst;
		if (s.tsc_per_pkt > 0) {
			/* Paced per frame: a burst holds only the frames already due (one at a
			 * low rate, a full burst once the schedule is a burst or more behind). */
			double due = 1.0 + (double(now) - s.next_tsc) / s.tsc_per_pkt;
			want = uint16_t(std::min<double>(want, due));
		}
		if (s.to_send)
			want = uint16_t(std::min<uint64_t>(want, s.to_send - sent));
		s.npending = generate(s, r, s.pending, want, now);
		s.pending_off = 0;
		if (s.tsc_per_pkt > 0 && s.npending) {
			/* After a stall (the lcore was preempted, the ring was full) up to 250 ms
			 * of schedule is caught up, so the average holds; a longer lag is forgiven
			 * rather than sent back to back. */
			s.next_tsc += s.npending * s.tsc_per_pkt;
			double lag = std::max(4.0 * c.burst * s.tsc_per_pkt, 0.25 * double(r.hz));
			if (s.next_tsc + lag < double(now))
				s.next_tsc = double(now) - lag;
		}
	}
	if (s.npending) {
		uint16_t k = tx_burst(r, s.tx_port, s.queue, s.pending + s.pending_off, s.npending);
		s.pending_off += k;
		s.npending -= k;
		bump(s.sent, k);
	}
}

void run_forward(Stream &s, const Run &r)
{
	const Config &c = r.cfg;
	rte_mbuf *pkts[kMaxBurst];
	uint16_t n = rte_eth_rx_burst(s.port, s.queue, pkts, c.burst);
	if (!n)
		return;
	bump(s.rx, n);
	capture_rx(r, s.port, s.queue, pkts, n);
	const Port &tx = *r.by_id[s.tx_port];
	switch (c.mode) {
	case FwdMode::rxonly:
		rte_pktmbuf_free_bulk(pkts, n);
		return;
	case FwdMode::mac:
		for (uint16_t i = 0; i < n; i++) {
			auto *eth = rte_pktmbuf_mtod(pkts[i], rte_ether_hdr *);
			eth->dst_addr = tx.dst;
			eth->src_addr = tx.mac;
		}
		break;
	case FwdMode::macswap:
		for (uint16_t i = 0; i < n; i++) {
			auto *eth = rte_pktmbuf_mtod(pkts[i], rte_ether_hdr *);
			std::swap(eth->dst_addr, eth->src_addr);
		}
		break;
	case FwdMode::icmpecho: {
		uint16_t k = 0;
		for (uint16_t i = 0; i < n; i++) {
			if (icmp_echo(pkts[i], tx.mac))
				pkts[k++] = pkts[i];
			else
				rte_pktmbuf_free(pkts[i]);
		}
		n = k;
		break;
	}
	default:
		break;
	}
	if (!n)
		return;
	uint16_t k = tx_burst(r, s.tx_port, s.queue, pkts, n);
	bump(s.sent, k);
	if (k < n) {
		rte_pktmbuf_free_bulk(pkts + k, n - k);
		bump(s.tx_dropped, n - k);
	}
}

int lcore_main(void *arg)
{
	const auto &streams = *static_cast<std::vector<Stream *> *>(arg);
	const Run &r = *g_run;
	const bool gen = is_generator(r.cfg.mode);
	while (!g_stop.load(std::memory_order_relaxed)) {
		for (Stream *s : streams) {
			if (gen)
				run_generator(*s, r);
			else
				run_forward(*s, r);
		}
	}
	for (Stream *s : streams) {
		if (s->npending)
			rte_pktmbuf_free_bulk(s->pending + s->pending_off, s->npending);
		s->npending = 0;
	}
	return 0;
}

/* ---- set-up ---------------------------------------------------------------------------- */

bool has_opt(const std::vector<std::string> &args, const char *opt)
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
std::string linked_pmd()
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
	/* The PMD is linked in (no -d: DPDK refuses a plugin under a world-writable directory,
	 * such as a clone in /tmp). EAL also loads every driver in its plugin directory: an
	 * installed copy other than the one linked would register the same drivers twice. */
	std::string inst = std::string(DPDK_PLUGIN_DIR) + "/librte_net_gaudi.so",
		    linked = linked_pmd();
	char a[PATH_MAX], b[PATH_MAX];
	if (access(inst.c_str(), F_OK) == 0 &&
	    !(realpath(inst.c_str(), a) && realpath(linked.c_str(), b) && strcmp(a, b) == 0)) {
		fprintf(stderr,
			"%s: %s is installed, and EAL loads it beside the Gaudi PMD linked into "
			"this "
			"program (%s): run the installed %s, or remove the installed PMD\n",
			kProg, inst.c_str(), linked.c_str(), kProg);
		return false;
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
uint32_t port_hdr_len(const rte_eth_dev_info &info)
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
uint32_t setup_frame(const Run &r)
{
	return r.cfg.interactive ? std::max(frame_max(r), r.port_max_frame) : frame_max(r);
}

/* Frames per second each port is to send; 0 = as fast as it goes. */
double target_pps(const Run &r)
{
	const Config &c = r.cfg;
	double len = c.mode == FwdMode::template_ ? r.tmpl.avg_len : double(c.pkt_len);
	double pps = c.rate_pps;
	if (c.rate_gbps > 0) {
		double g = c.rate_gbps * 1e9 / (8 * len);
		pps = pps > 0 ? std::min(pps, g) : g;
	}
	return pps;
}

double wire_len(double len)
{
	return std::max(len, 60.0) + kWireOverhead;
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
	size_t nstreams = c.portlist.size() * c.rxq;
	if (nstreams > kMaxStreams) {
		fprintf(stderr, "%s: %zu streams (ports x queues); at most %u\n", kProg, nstreams,
			kMaxStreams);
		return false;
	}
	uint32_t max_frame = frame_max(r);
	double pps = target_pps(r);
	double len = c.mode == FwdMode::template_ ? r.tmpl.avg_len : double(c.pkt_len);
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
			fprintf(stderr,
				"%s: port %u (%s): %u-byte frames exceed its largest frame of %u "
				"bytes (without FCS)\n",
				kProg, p.id, p.name.c_str(), max_frame, port_max);
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
		if (pps > 0 && p.speed_mbps) {
			double bps = pps * wire_len(len) * 8;
			if (bps > double(p.speed_mbps) * 1e6) {
				fprintf(stderr,
					"%s: the target rate (%.0f frames/s of %.0f bytes = %.3f "
					"Gbit/s on the wire) is above port %u's line rate of %.0f "
					"Gbit/s\n",
					kProg, pps, len, bps / 1e9, p.id,
					double(p.speed_mbps) / 1e3);
				return false;
			}
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
void zero_mbuf(rte_mempool *, void *, void *obj, unsigned)
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
	rte_eth_dev_info_get(p.id, &info);
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
			build_header(*s, r);
			r.lcore_streams[r.streams.size() % c.nb_cores].push_back(s.get());
			r.streams.push_back(std::move(s));
		}
}

/* io/mac/macswap --tx-first: one txonly burst per port to start the loop. */
void tx_first(Run &r)
{
	for (auto &s : r.streams) {
		if (s->queue != 0)
			continue;
		Stream tmp;
		tmp.id = s->id;
		tmp.tx_port = s->port;
		build_header(tmp, r);
		rte_mbuf *pkts[kMaxBurst];
		uint16_t n = generate(tmp, r, pkts, r.cfg.burst, rte_rdtsc());
		uint16_t k = tx_burst(r, s->port, 0, pkts, n);
		if (k < n)
			rte_pktmbuf_free_bulk(pkts + k, n - k);
	}
}

/* ---- start and stop ------------------------------------------------------------------ */

/* Starts the forwarding lcores; returns the start time (TSC). */
uint64_t launch(Run &r, bool first)
{
	const Config &c = r.cfg;
	g_stop.store(false, std::memory_order_relaxed);
	g_gen_stop.store(false, std::memory_order_relaxed);
	for (auto &s : r.streams) {
		s->done.store(false, std::memory_order_relaxed);
		s->sent.store(0, std::memory_order_relaxed);
	}
	if (first)
		tx_first(r);
	uint64_t start = rte_rdtsc();
	for (auto &s : r.streams)
		s->next_tsc = double(start);
	unsigned i = 0, lcore;
	RTE_LCORE_FOREACH_WORKER(lcore)
	{
		if (i == c.nb_cores)
			break;
		if (c.mode == FwdMode::roce && i++ == 0)
			rte_eal_remote_launch(roce_lcore, &r.roce, lcore);
		else if (c.mode != FwdMode::roce)
			rte_eal_remote_launch(lcore_main, &r.lcore_streams[i++], lcore);
	}
	return start;
}

/* Stops generating, lets the frames in flight arrive, stops the forwarding lcores and empties
 * the rx rings. t_end: when the run was asked to stop. */
void halt(Run &r, std::vector<std::unique_ptr<Capture>> &captures, uint64_t t_end)
{
	const Config &c = r.cfg;
	g_gen_stop.store(true, std::memory_order_relaxed);
	if (is_generator(c.mode)) {
		/* Let the frames in flight arrive: wait (up to 1 s) until every generator
		 * has stopped and the receive counters are still for 50 ms. */
		uint64_t deadline = t_end + r.hz, quiet_since = rte_rdtsc(), last_rx = UINT64_MAX;
		while (rte_rdtsc() < deadline) {
			for (auto &cap : captures)
				cap->drain();
			bool all = true;
			uint64_t rx = 0;
			for (auto &s : r.streams) {
				all = all && s->done.load(std::memory_order_acquire);
				rx += s->rx.load(std::memory_order_relaxed);
			}
			if (rx != last_rx || !all) {
				last_rx = rx;
				quiet_since = rte_rdtsc();
			} else if (rte_rdtsc() - quiet_since > r.hz / 20) {
				break;
			}
			rte_delay_us_sleep(1000);
		}
	}
	if (c.mode == FwdMode::roce) {
		/* The messages outstanding complete (up to 1 s). */
		while (!r.roce.done.load(std::memory_order_acquire) && rte_rdtsc() < t_end + r.hz)
			rte_delay_us_sleep(1000);
	}
	g_stop.store(true, std::memory_order_relaxed);
	rte_eal_mp_wait_lcore();
	/* Free what is still queued in the rx rings (counted by the ports already). */
	for (const Port &p : r.ports)
		for (uint16_t q = 0; p.started && q < c.rxq; q++) {
			rte_mbuf *pkts[kMaxBurst];
			uint16_t n;
			int rounds = 0;
			/* Bounded for ports that never go quiet; every burst taken is freed. */
			while (rounds++ < 1000 &&
			       (n = rte_eth_rx_burst(p.id, q, pkts, kMaxBurst)) != 0)
				rte_pktmbuf_free_bulk(pkts, n);
		}
}

/* ---- report ---------------------------------------------------------------------------- */

struct PortSample {
	double rx_pps, tx_pps, rx_bps, tx_bps;
	uint64_t rx_packets, tx_packets; /* in the period: the series sums to the totals */
	uint64_t drops, errors;
};
struct Sample {
	double t;
	std::vector<PortSample> ports;
};

/* The --json time series: each sample holds what the ports moved since the previous one, so
 * that the series sums to the totals. */
struct Sampler {
	std::vector<rte_eth_stats> last;
	std::vector<uint64_t> last_drop;
	std::vector<Sample> series;

	void init(size_t nports)
	{
		last.assign(nports, {});
		last_drop.assign(nports, 0);
		series.reserve(1024);
	}
	/* t: forwarding time at the end of the period, dt: its length (seconds). */
	const Sample &take(const Run &r, double t, double dt);
};

uint64_t port_tx_dropped(const Run &r, uint16_t port)
{
	uint64_t n = r.by_id[port] ? r.by_id[port]->tx_dropped : 0;
	for (const auto &s : r.streams)
		if (s->port == port)
			n += s->tx_dropped.load(std::memory_order_relaxed);
	return n;
}

const Sample &Sampler::take(const Run &r, double t, double dt)
{
	dt = std::max(dt, 1e-9);
	Sample smp{t, {}};
	for (size_t k = 0; k < r.ports.size(); k++) {
		Port &p = *r.by_id[r.ports[k].id];
		rte_eth_stats st = port_stats(p);
		uint64_t txd = port_tx_dropped(r, p.id);
		const rte_eth_stats &l = last[k];
		PortSample ps;
		ps.rx_packets = st.ipackets - l.ipackets;
		ps.tx_packets = st.opackets - l.opackets;
		ps.rx_pps = double(ps.rx_packets) / dt;
		ps.tx_pps = double(ps.tx_packets) / dt;
		ps.rx_bps = double(st.ibytes - l.ibytes) * 8 / dt;
		ps.tx_bps = double(st.obytes - l.obytes) * 8 / dt;
		ps.drops = (st.imissed - l.imissed) + (st.rx_nombuf - l.rx_nombuf) +
			   (txd - last_drop[k]);
		ps.errors = (st.ierrors - l.ierrors) + (st.oerrors - l.oerrors);
		smp.ports.push_back(ps);
		last[k] = st;
		last_drop[k] = txd;
	}
	series.push_back(std::move(smp));
	return series.back();
}

std::string json_str(const std::string &s)
{
	std::string o = "\"";
	for (char ch : s) {
		if (ch == '"' || ch == '\\') {
			o += '\\';
			o += ch;
		} else if (uint8_t(ch) < 0x20) {
			char b[8];
			snprintf(b, sizeof(b), "\\u%04x", ch);
			o += b;
		} else {
			o += ch;
		}
	}
	return o + "\"";
}

struct PortResult {
	const Port *p;
	uint64_t tx_dropped;
	double rx_mpps, tx_mpps, rx_gbps, tx_gbps;
	Histogram lat;
	SeqTracker seqs;
	uint64_t peer_sent_stamped;
	bool measured;
};

int telemetry_stats(const char *, const char *params, rte_tel_data *d)
{
	const Run *r = g_run;
	rte_tel_data_start_dict(d);
	if (!r)
		return 0;
	for (const Port &p : r->ports) {
		if (params && *params && uint16_t(atoi(params)) != p.id)
			continue;
		rte_eth_stats st;
		if (rte_eth_stats_get(p.id, &st) != 0)
			continue;
		std::string k = "port" + std::to_string(p.id) + "_";
		rte_tel_data_add_dict_u64(d, (k + "rx_packets").c_str(), st.ipackets);
		rte_tel_data_add_dict_u64(d, (k + "tx_packets").c_str(), st.opackets);
		rte_tel_data_add_dict_u64(d, (k + "rx_missed").c_str(), st.imissed);
		rte_tel_data_add_dict_u64(d, (k + "tx_dropped").c_str(), port_tx_dropped(*r, p.id));
	}
	return 0;
}

/* Prints the final report and writes --json; returns 1 when the JSON file could not be
 * written. */
int report(const Run &r, const std::vector<std::unique_ptr<Capture>> &captures,
	   const std::vector<Sample> &series, double elapsed, const char *stopped_by,
	   const std::string &modes, double pps, unsigned in_use)
{
	const Config &c = r.cfg;
	int status = 0;
	/* Per-port results. */
	std::vector<PortResult> res;
	for (const Port &p : r.ports) {
		PortResult pr{};
		pr.p = &p;
		pr.tx_dropped = port_tx_dropped(r, p.id);
		pr.lat.merge(p.lat);
		pr.seqs.merge(p.seqs);
		pr.peer_sent_stamped = r.by_id[p.peer]->sent_stamped;
		double e = elapsed > 0 ? elapsed : 1;
		pr.rx_mpps = double(p.final.ipackets) / e / 1e6;
		pr.tx_mpps = double(p.final.opackets) / e / 1e6;
		pr.rx_gbps = double(p.final.ibytes) * 8 / e / 1e9;
		pr.tx_gbps = double(p.final.obytes) * 8 / e / 1e9;
		for (auto &s : r.streams) {
			if (s->port == p.id) {
				pr.lat.merge(s->lat);
				pr.seqs.merge(s->seqs);
			}
			if (s->tx_port == p.peer)
				pr.peer_sent_stamped += s->sent_stamped.load();
		}
		pr.measured = pr.lat.count() > 0;
		res.push_back(std::move(pr));
	}
	printf("\n== %s: %s, %zu port(s), %.3f s, stopped by %s\n", kProg, modes.c_str(),
	       r.ports.size(), elapsed, stopped_by);
	for (const PortResult &pr : res) {
		const Port &p = *pr.p;
		const rte_eth_stats &st = p.final;
		printf("port %u (%s)\n", p.id, p.name.c_str());
		printf("  rx %12" PRIu64 " frames %15" PRIu64 " bytes  %9.4f Mpps %8.3f Gbit/s\n",
		       st.ipackets, st.ibytes, pr.rx_mpps, pr.rx_gbps);
		printf("  tx %12" PRIu64 " frames %15" PRIu64 " bytes  %9.4f Mpps %8.3f Gbit/s\n",
		       st.opackets, st.obytes, pr.tx_mpps, pr.tx_gbps);
		printf("  rx errors %" PRIu64 ", rx missed %" PRIu64 ", rx nombuf %" PRIu64
		       ", tx errors %" PRIu64 ", tx dropped %" PRIu64 "\n",
		       st.ierrors, st.imissed, st.rx_nombuf, st.oerrors, pr.tx_dropped);
		if (pps > 0)
			printf("  rate: target %.0f frames/s, achieved %.0f frames/s (%.2f%%)\n",
			       pps, pr.tx_mpps * 1e6, pr.tx_mpps * 1e6 / pps * 100);
		if (pr.measured) {
			uint64_t lost = pr.peer_sent_stamped > pr.seqs.received()
						? pr.peer_sent_stamped - pr.seqs.received()
						: 0;
			printf("  latency over %" PRIu64 " frames: p50 %.3f us, p99 %.3f us, "
			       "p99.9 %.3f us, max %.3f us; lost %" PRIu64 ", reordered %" PRIu64
			       "\n",
			       pr.lat.count(), pr.lat.quantile(0.5) / 1e3,
			       pr.lat.quantile(0.99) / 1e3, pr.lat.quantile(0.999) / 1e3,
			       double(pr.lat.max()) / 1e3, lost, pr.seqs.reordered());
		}
	}
	for (auto &cap : captures)
		printf("capture of port %u (%s%s): %s, %" PRIu64 " frames written, %" PRIu64
		       " filtered out, %" PRIu64 " not captured (capture ring or pool full)\n",
		       cap->port(), cap->rx() ? "rx" : "",
		       cap->tx() ? (cap->rx() ? "+tx" : "tx") : "", cap->file().c_str(),
		       cap->written(), cap->filtered_out(), cap->dropped());
	if (c.mode == FwdMode::roce) {
		const RoceJob &j = r.roce;
		double e = elapsed > 0 ? elapsed : 1;
		uint64_t done = j.completed.load();
		if (!j.error.empty()) {
			printf("roce: %s\n", j.error.c_str());
			status = 1;
		}
		printf("roce %s, %u-byte messages, depth %u, MTU %u, port %u -> port %u: %" PRIu64
		       " completed (%.0f msg/s, %.3f Gbit/s goodput), responder receives %" PRIu64
		       ", errors %" PRIu64 ", retransmits %" PRIu64 ", data %s\n",
		       roce_op_name(j.op), j.msg, j.depth, j.mtu, j.req_port, j.resp_port, done,
		       double(done) / e, double(done) * j.msg * 8 / e / 1e9, j.received.load(),
		       j.errors.load(), j.retransmits, j.data_ok ? "as sent" : "NOT as sent");
		if (!j.data_ok)
			status = 1;
	}
	for (auto &cap : captures) {
		const RoceSummary &rs = cap->roce();
		if (!rs.roce)
			continue;
		printf("RoCE v2 in %s: %" PRIu64 " of %" PRIu64 " frames, %" PRIu64 " destination "
		       "QP(s), ICRC errors %" PRIu64 ", PSN gaps %" PRIu64 "\n  opcodes:",
		       cap->file().c_str(), rs.roce, rs.frames, rs.qps, rs.icrc_errors,
		       rs.psn_gaps);
		for (auto &[name, n] : rs.opcodes)
			printf(" %s %" PRIu64, name.c_str(), n);
		printf("\n");
		if (!rs.errors.empty()) {
			printf("  broken:");
			for (auto &[name, n] : rs.errors)
				printf(" %s %" PRIu64, name.c_str(), n);
			printf("\n");
		}
	}
	printf("mbufs in use at exit: %u%s\n", in_use,
	       in_use ? " -- LEAK: some mbufs were not returned to their pool"
		      : " (every mbuf returned to its pool)");
	if (!c.json_file.empty()) {
		FILE *f = fopen(c.json_file.c_str(), "w");
		if (!f) {
			fprintf(stderr, "%s: --json=%s: %s\n", kProg, c.json_file.c_str(),
				strerror(errno));
			status = 1;
		} else {
			fprintf(f,
				"{\n \"app\": \"gaudi-testpmd\",\n \"forward_mode\": \"%s\",\n"
				" \"burst\": %u,\n \"txpkts\": %u,\n \"nb_cores\": %u,\n"
				" \"duration_s\": %.6f,\n \"stopped_by\": \"%s\",\n"
				" \"target_pps\": %.3f,\n \"mbufs_in_use\": %u,\n \"ports\": [",
				modes.c_str(), c.burst, c.pkt_len, c.nb_cores, elapsed, stopped_by,
				pps, in_use);
			for (size_t k = 0; k < res.size(); k++) {
				const PortResult &pr = res[k];
				const rte_eth_stats &st = pr.p->final;
				fprintf(f,
					"%s\n  {\"port\": %u, \"name\": %s, \"rx_packets\": "
					"%" PRIu64 ", \"tx_packets\": %" PRIu64
					", \"rx_bytes\": %" PRIu64 ", \"tx_bytes\": %" PRIu64
					", \"rx_errors\": %" PRIu64 ", \"tx_errors\": %" PRIu64
					", \"rx_missed\": %" PRIu64 ", \"rx_nombuf\": %" PRIu64
					", \"tx_dropped\": %" PRIu64
					", \"rx_mpps\": %.6f, \"tx_mpps\": %.6f, \"rx_gbps\": %.6f"
					", \"tx_gbps\": %.6f",
					k ? "," : "", pr.p->id, json_str(pr.p->name).c_str(),
					st.ipackets, st.opackets, st.ibytes, st.obytes, st.ierrors,
					st.oerrors, st.imissed, st.rx_nombuf, pr.tx_dropped,
					pr.rx_mpps, pr.tx_mpps, pr.rx_gbps, pr.tx_gbps);
				if (pr.measured) {
					const Histogram &h = pr.lat;
					uint64_t lost =
						pr.peer_sent_stamped > pr.seqs.received()
							? pr.peer_sent_stamped - pr.seqs.received()
							: 0;
					fprintf(f,
						",\n   \"latency_ns\": {\"count\": %" PRIu64
						", \"min\": %" PRIu64
						", \"mean\": %.1f, \"p50\": %" PRIu64
						", \"p99\": %" PRIu64 ", \"p999\": %" PRIu64
						", \"max\": %" PRIu64 ", \"histogram\": [",
						h.count(), h.min(), h.mean(), h.quantile(0.5),
						h.quantile(0.99), h.quantile(0.999), h.max());
					bool first = true;
					for (unsigned b = 0; b < Histogram::kBuckets; b++)
						if (h.at(b)) {
							fprintf(f, "%s[%" PRIu64 ", %" PRIu64 "]",
								first ? "" : ", ",
								Histogram::lower(b), h.at(b));
							first = false;
						}
					fprintf(f,
						"]},\n   \"sequence\": {\"received\": %" PRIu64
						", \"sent_by_peer\": %" PRIu64
						", \"lost\": %" PRIu64 ", \"reordered\": %" PRIu64
						"}",
						pr.seqs.received(), pr.peer_sent_stamped, lost,
						pr.seqs.reordered());
				}
				fprintf(f, "}");
			}
			fprintf(f, "\n ],\n");
			if (c.mode == FwdMode::roce) {
				const RoceJob &j = r.roce;
				double e = elapsed > 0 ? elapsed : 1;
				fprintf(f,
					" \"roce\": {\"op\": \"%s\", \"msg_size\": %u, \"depth\": "
					"%u"
					", \"mtu\": %u, \"requester_port\": %u, "
					"\"responder_port\": %u"
					", \"completed\": %" PRIu64
					", \"responder_receives\": %" PRIu64
					", \"errors\": %" PRIu64 ", \"retransmits\": %" PRIu64
					", \"msg_per_s\": %.1f, \"goodput_gbps\": %.6f, "
					"\"data_ok\": %s"
					", \"error\": %s},\n",
					roce_op_name(j.op), j.msg, j.depth, j.mtu, j.req_port,
					j.resp_port, j.completed.load(), j.received.load(),
					j.errors.load(), j.retransmits,
					double(j.completed.load()) / e,
					double(j.completed.load()) * j.msg * 8 / e / 1e9,
					j.data_ok ? "true" : "false", json_str(j.error).c_str());
			}
			fprintf(f, " \"captures\": [");
			for (size_t k = 0; k < captures.size(); k++) {
				const Capture &cap = *captures[k];
				const RoceSummary &rs = cap.roce();
				fprintf(f,
					"%s\n  {\"port\": %u, \"file\": %s, \"written\": %" PRIu64
					", \"filtered_out\": %" PRIu64 ", \"dropped\": %" PRIu64
					", \"roce\": {\"frames\": %" PRIu64 ", \"qps\": %" PRIu64
					", \"icrc_errors\": %" PRIu64 ", \"psn_gaps\": %" PRIu64
					", \"opcodes\": {",
					k ? "," : "", cap.port(), json_str(cap.file()).c_str(),
					cap.written(), cap.filtered_out(), cap.dropped(), rs.roce,
					rs.qps, rs.icrc_errors, rs.psn_gaps);
				const char *sep = "";
				for (auto &[name, n] : rs.opcodes) {
					fprintf(f, "%s%s: %" PRIu64, sep, json_str(name).c_str(),
						n);
					sep = ", ";
				}
				fprintf(f, "}, \"errors\": {");
				sep = "";
				for (auto &[name, n] : rs.errors) {
					fprintf(f, "%s%s: %" PRIu64, sep, json_str(name).c_str(),
						n);
					sep = ", ";
				}
				fprintf(f, "}}}");
			}
			fprintf(f, "%s],\n \"series\": [", captures.empty() ? "" : "\n ");
			for (size_t k = 0; k < series.size(); k++) {
				fprintf(f, "%s\n  {\"t\": %.4f, \"ports\": [", k ? "," : "",
					series[k].t);
				for (size_t j = 0; j < series[k].ports.size(); j++) {
					const PortSample &ps = series[k].ports[j];
					fprintf(f,
						"%s{\"port\": %u, \"rx_pps\": %.1f, \"tx_pps\": "
						"%.1f, "
						"\"rx_gbps\": %.6f, \"tx_gbps\": %.6f, "
						"\"rx_packets\": %" PRIu64
						", \"tx_packets\": %" PRIu64 ", \"drops\": %" PRIu64
						", \"errors\": %" PRIu64 "}",
						j ? ", " : "", r.ports[j].id, ps.rx_pps, ps.tx_pps,
						ps.rx_bps / 1e9, ps.tx_bps / 1e9, ps.rx_packets,
						ps.tx_packets, ps.drops, ps.errors);
				}
				fprintf(f, "]}");
			}
			fprintf(f, "%s]\n}\n", series.empty() ? "" : "\n ");
			if (fclose(f) != 0) {
				fprintf(stderr, "%s: --json=%s: %s\n", kProg, c.json_file.c_str(),
					strerror(errno));
				status = 1;
			} else {
				printf("report: %s\n", c.json_file.c_str());
			}
		}
	}
	return status;
}

/* ---- interactive prompt (-i) ----------------------------------------------------------- */

/* The prompt runs on DPDK's cmdline library (line editing, history). One token takes the
 * whole line and the words are parsed here, which keeps every command in one table. */
struct Cli {
	Run *r = nullptr;
	std::vector<std::unique_ptr<Capture>> *captures = nullptr;
	bool running = false;
	uint64_t start = 0, run_tsc = 0; /* run_tsc: forwarding time of the stopped runs */
	std::vector<rte_eth_stats> at_start;
	std::vector<rte_eth_stats> last_show;
	std::vector<uint64_t> last_show_tsc;
	cmdline *cl = nullptr;
	/* The forwarding phases, for the report: the modes in the order first used, and the
	 * target rate (-1: no phase yet) while every phase had the same one. */
	std::string modes;
	double pps = -1;
	bool pps_varied = false;
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
	ui.at_start.resize(r.ports.size());
	for (size_t k = 0; k < r.ports.size(); k++)
		ui.at_start[k] = port_stats(r.ports[k]);
	double pps = is_generator(r.cfg.mode) ? target_pps(r) : 0;
	ui.pps_varied = ui.pps_varied || (ui.pps >= 0 && ui.pps != pps);
	ui.pps = pps;
	std::string m = mode_name(r.cfg.mode);
	if (("+" + ui.modes + "+").find("+" + m + "+") == std::string::npos)
		ui.modes += (ui.modes.empty() ? "" : "+") + m;
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
	printf("forwarding stopped after %.3f s\n", dt);
	for (size_t k = 0; k < r.ports.size(); k++) {
		rte_eth_stats st = port_stats(r.ports[k]);
		const rte_eth_stats &a = ui.at_start[k];
		printf("  port %u: rx %" PRIu64 " tx %" PRIu64
		       " frames (%.4f / %.4f Mpps), rx errors %" PRIu64 ", rx missed %" PRIu64
		       ", tx errors %" PRIu64 "\n",
		       r.ports[k].id, st.ipackets - a.ipackets, st.opackets - a.opackets,
		       double(st.ipackets - a.ipackets) / dt / 1e6,
		       double(st.opackets - a.opackets) / dt / 1e6, st.ierrors - a.ierrors,
		       st.imissed - a.imissed, st.oerrors - a.oerrors);
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
				printf("        since the last show (%.2f s): rx %.4f Mpps %.3f "
				       "Gbit/s, tx %.4f "
				       "Mpps %.3f Gbit/s\n",
				       dt, double(st.ipackets - l.ipackets) / dt / 1e6,
				       double(st.ibytes - l.ibytes) * 8 / dt / 1e9,
				       double(st.opackets - l.opackets) / dt / 1e6,
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
			rte_eth_dev_info_get(p.id, &info);
			rte_eth_link_get_nowait(p.id, &link);
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
		p.lat.merge(s->lat);
		p.seqs.merge(s->seqs);
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

/* Runs the prompt until quit, end of input or Ctrl-C; returns the forwarding time. */
double interactive(Run &r, std::vector<std::unique_ptr<Capture>> &captures, Sampler &sampler)
{
	Cli &ui = g_cli;
	ui.r = &r;
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
	/* The main lcore also writes the captures: poll the prompt instead of blocking in it. */
	for (;;) {
		int st = RDLINE_RUNNING;
		pollfd pfd{STDIN_FILENO, POLLIN, 0};
		while (st == RDLINE_RUNNING && poll(&pfd, 1, 0) > 0)
			st = cmdline_poll(ui.cl); /* one character each */
		if (st != RDLINE_RUNNING || g_signal.load(std::memory_order_relaxed))
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

} // namespace

int main_impl(int argc, char **argv)
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
	std::string modes = mode_name(c.mode);
	double elapsed = 0;
	const char *stopped_by = "?";
	double pps = 0;

	do {
		if (!validate(r))
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
		rte_telemetry_register_cmd(
			"/gaudi_testpmd/stats", telemetry_stats,
			"Per-port counters of gaudi-testpmd. Parameter: port id");

		for (Port &p : r.ports) {
			rte_eth_link link;
			rte_eth_link_get(p.id, &link);
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
			printf(", template %zu frame(s) of %.1f bytes on average",
			       r.tmpl.frames.size(), r.tmpl.avg_len);
		else if (is_generator(c.mode))
			printf(", %u-byte frames", c.pkt_len);
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
			elapsed = interactive(r, captures, sampler);
			stopped_by = g_signal.load(std::memory_order_relaxed) ? "signal" : "quit";
			/* The report states the modes that forwarded, and a target only when every
			 * phase ran at it (an io phase after txonly has none). */
			if (!g_cli.modes.empty())
				modes = g_cli.modes;
			pps = g_cli.pps_varied || g_cli.pps < 0 ? 0 : g_cli.pps;
		} else {
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
				} else if (c.packets && is_generator(c.mode)) {
					bool all = true;
					for (auto &s : r.streams)
						all = all &&
						      s->done.load(std::memory_order_acquire);
					if (all) {
						stopped_by = "packets";
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
						for (size_t k = 0; k < r.ports.size(); k++) {
							const PortSample &ps = smp.ports[k];
							printf("[%7.1fs] port %u  rx %9.4f Mpps "
							       "%8.3f Gbit/s  tx "
							       "%9.4f Mpps %8.3f Gbit/s  drops "
							       "%" PRIu64 "  errors %" PRIu64 "\n",
							       smp.t, r.ports[k].id,
							       ps.rx_pps / 1e6, ps.rx_bps / 1e9,
							       ps.tx_pps / 1e6, ps.tx_bps / 1e9,
							       ps.drops, ps.errors);
						}
					fflush(stdout);
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
			/* The last, partial period (with the frames that arrived while the run
			 * stopped), so that the series sums to the totals. */
			if (period && t_end > last_t)
				sampler.take(r, double(t_end - start) / double(r.hz),
					     double(t_end - last_t) / double(r.hz));
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

} // namespace gtp

int main(int argc, char **argv)
{
	return gtp::main_impl(argc, argv);
}
