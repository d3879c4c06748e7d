/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the state the files of the application share (ports, streams, the run) and
 * what each of them offers the others. One file per role, as DPDK's testpmd: frames.cpp
 * builds and answers frames, fwd.cpp is the forwarding engines and their start/stop,
 * setup.cpp checks the options against the ports and sets them up, report.cpp the live series
 * and the final report, cli.cpp the prompt, main.cpp the order of it all.
 */
#ifndef GTP_APP_H
#define GTP_APP_H

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_telemetry.h>

#include "capture.h"
#include "flowstats.h"
#include "gtp.h"
#include "latency.h"
#include "meta.h"
#include "replay.h"
#include "roce_mode.h"

namespace gtp {

constexpr const char *kProg = "gaudi-testpmd";
constexpr unsigned kMaxBurst = 512;

extern std::atomic<bool> g_signal;
extern std::atomic<bool> g_gen_stop; /* generators stop making frames */
extern std::atomic<bool> g_stop;     /* forwarding lcores return */

/* A counter one lcore writes and the main lcore reads while it runs. */
inline void bump(std::atomic<uint64_t> &c, uint64_t n)
{
	c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

struct Port {
	uint16_t id;
	uint16_t peer; /* where io/mac/macswap send what this port receives */
	rte_ether_addr mac;
	rte_ether_addr dst;		   /* --eth-peer, else the peer's MAC */
	uint64_t speed_mbps;		   /* highest of speed_capa; 0 = unknown */
	uint32_t min_frame = kEthMinFrame; /* shortest frame on its wire, no FCS (wire_len) */
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
	double max_lag = 0; /* TSC cycles the stream fell behind its schedule, at most */
	/* RFC 2544 trials: while the lcore is away (preempted, more than 1 ms between turns)
	 * the schedule waits, rather than being caught up with a burst the device under test
	 * would see; away counts the TSC cycles it waited. */
	bool hold_rate = false;
	std::atomic<uint64_t> last_turn{0}; /* read by the main lcore while it waits */
	std::atomic<uint64_t> away{0};
	size_t tmpl_idx = 0;
	/* txonly/flowgen: the traffic streams this port and queue send, taken earliest departure
	 * first (unpaced ones in turn); each pending frame's stream (its index in flows, bit 15:
	 * stamped) and length, counted to it once rte_eth_tx_burst accepts the frame. */
	std::vector<TxFlow *> flows;
	uint16_t rr = 0;
	uint16_t pending_flow[kMaxBurst];
	uint16_t pending_len[kMaxBurst];
	rte_mbuf *pending[kMaxBurst];
	uint16_t npending = 0, pending_off = 0;
	/* What this port and queue received of each traffic stream sent to its port:
	 * flow_rx[rx_idx[stream id]], rx_idx -1 for the others. */
	std::vector<FlowRx> flow_rx;
	std::array<int16_t, kMaxStreams> rx_idx;
	std::atomic<bool> done{false};
	/* Counters (written by the stream's lcore only). */
	std::atomic<uint64_t> sent{0};	     /* accepted by rte_eth_tx_burst */
	std::atomic<uint64_t> tx_dropped{0}; /* forwarding modes: not accepted, freed */
	std::atomic<uint64_t> sent_stamped{0};
	/* A generator's TSC of its first and last accepted burst: the report judges a paced
	 * rate over the sending time (n frames at R span (n - 1) / R), not over a run that
	 * waits for the last frames to arrive, or whose end may or may not fall on a frame. */
	std::atomic<uint64_t> first_tx_tsc{0}, last_tx_tsc{0};
	std::atomic<uint64_t> rx{0};
	Histogram lat;
	SeqTracker seqs;
};

/* What a forwarding stream measured of the frames it received: the frames of the traffic
 * streams sent to its port are counted in flow_rx alone (one histogram per frame, not two);
 * a duplicate counts as reordered here, as SeqTracker counts it. */
inline void stream_rx(const Stream &s, Histogram &lat, SeqTracker &seqs)
{
	lat.merge(s.lat);
	seqs.merge(s.seqs);
	for (const FlowRx &f : s.flow_rx) {
		lat.merge(f.lat);
		seqs.count(f.seqs.received(), f.seqs.reordered() + f.seqs.duplicates());
	}
}

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
	std::vector<std::unique_ptr<TxFlow>> flows; /* traffic streams, by id */
	Capture *cap_rx[RTE_MAX_ETHPORTS] = {};
	Capture *cap_tx[RTE_MAX_ETHPORTS] = {};
	Port *by_id[RTE_MAX_ETHPORTS] = {};
	rte_mempool *rx_mp = nullptr, *gen_mp = nullptr, *cap_mp = nullptr;
	Template tmpl;
	Replay replay;
	Meta meta; /* what the report says of the run itself (meta.h) */
	RoceJob roce;
	uint16_t max_rxd = 0, max_txd = 0;
	uint32_t max_frame = 0; /* the largest frame the mempools and MTU were set up for */
	uint32_t port_max_frame = UINT32_MAX; /* the largest frame every port takes (no FCS) */
	double ns_per_tsc = 1;
	uint64_t hz = 1;
};

extern Run *g_run; /* for the telemetry callback and the forwarding lcores */

/* ---- ports (setup.cpp) */
rte_eth_stats port_stats(Port &p, bool around_wipe = false);
void port_stats_reset(Port &p);
bool eal_args(const std::vector<std::string> &user, std::vector<std::string> &out);
bool load_template(const std::string &file, Template &t);
uint32_t frame_max(const Run &r);
uint32_t port_frame_max(const rte_eth_dev_info &info); /* the largest frame, no FCS */
double target_pps(const Run &r);
StreamSpec default_spec(const Run &r, uint16_t port); /* txonly/flowgen without --stream */
bool validate(Run &r);
bool create_pools(Run &r);
bool setup_port(Run &r, Port &p);
void setup_streams(Run &r, double pps);
void tx_first(Run &r); /* io/mac/macswap --tx-first: one txonly burst per port */

/* ---- frames (frames.cpp) */
/* template: the next n frames of the capture (0 when the pool is empty: retried later). */
uint16_t generate(Stream &s, const Run &r, rte_mbuf **pkts, uint16_t n, uint64_t now);
/* txonly/flowgen: up to want frames of the stream's traffic streams that are due into
 * s.pending; returns how many. */
uint16_t generate_flows(Stream &s, const Run &r, uint16_t want, uint64_t now);
bool icmp_echo(rte_mbuf *m, const rte_ether_addr &mac);

/* ---- forwarding (fwd.cpp) */
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

int lcore_main(void *arg);
uint64_t launch(Run &r, bool first);
void halt(Run &r, std::vector<std::unique_ptr<Capture>> &captures, uint64_t t_end);

/* ---- report (report.cpp) */
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

uint64_t port_tx_dropped(const Run &r, uint16_t port);
std::string json_str(const std::string &s);
/* A frame rate for the live lines and the report, 14 characters: "    1.0000 Mpps" from 0.01
 * Mpps up, "      10.0 pps" below (where Mpps would print 0.0000). */
std::string pps_text(double pps);
/* The same, short: "2.449 Mfps", "10 frames/s". */
std::string fps_text(double pps);
int telemetry_stats(const char *, const char *params, rte_tel_data *d);
int report(const Run &r, const std::vector<std::unique_ptr<Capture>> &captures,
	   const std::vector<Sample> &series, double elapsed, const char *stopped_by,
	   const std::string &modes, double pps, unsigned in_use);

/* ---- prompt (cli.cpp) */
/* The forwarding phases of a session at the prompt, for the report. */
struct Phases {
	std::string modes; /* the modes in the order first used */
	double pps = -1;   /* the target while every phase had the same one; -1: no phase */
	bool pps_varied = false;
};
/* Runs the prompt until quit, end of input or Ctrl-C; returns the forwarding time. */
double interactive(Run &r, std::vector<std::unique_ptr<Capture>> &captures, Sampler &sampler,
		   Phases &phases);

} /* namespace gtp */

#endif /* GTP_APP_H */
