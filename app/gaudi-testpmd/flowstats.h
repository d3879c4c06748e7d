/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the traffic streams at run time (their generator and pacing state, what they
 * sent) and the per-stream statistics of what arrived, as TRex's flow statistics: each frame
 * carries its stream's id and a sequence number (LatencyStamp), the receiver counts frames,
 * loss, reordering, duplicates, latency and jitter per stream.
 */
#ifndef GTP_FLOWSTATS_H
#define GTP_FLOWSTATS_H

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <rte_common.h>

#include "latency.h"
#include "traffic.h"

namespace gtp {

struct Run;

/* A traffic stream at run time; its lcore (the Stream of its port and queue) alone writes it. */
struct alignas(RTE_CACHE_LINE_SIZE) TxFlow {
	uint16_t id = 0;
	uint16_t port = 0, queue = 0, rx_port = 0;
	StreamSpec spec;
	std::string desc;
	FrameGen gen;
	/* Pacing: the gap after a frame of len bytes is per_frame + per_byte x len (wire: its
	 * bytes on the wire, min_frame the port's shortest); paced = false: as fast as it goes. */
	bool paced = false, wire = false;
	double per_frame = 0, per_byte = 0;
	uint32_t min_frame = kEthMinFrame;
	double next_tsc = 0;
	double target_pps = 0; /* mean, for the report; 0 = not paced */
	uint32_t seq = 0;
	/* Counted when rte_eth_tx_burst accepts the frame. */
	std::atomic<uint64_t> tx_packets{0}, tx_bytes{0}, tx_stamped{0};

	double gap(uint32_t len) const
	{
		return per_frame + per_byte * (wire ? wire_len(len, min_frame) : double(len));
	}
};

/* What one receiving lcore stream measured of one traffic stream. */
struct FlowRx {
	std::atomic<uint64_t> rx{0}; /* stamped frames, for the live lines */
	uint64_t rx_bytes = 0;
	Histogram lat;
	SeqWindow seqs;
	Jitter jit;

	FlowRx() = default;
	FlowRx(const FlowRx &o)
	    : rx(o.rx.load()), rx_bytes(o.rx_bytes), lat(o.lat), seqs(o.seqs), jit(o.jit)
	{
	}
	FlowRx &operator=(const FlowRx &o)
	{
		rx.store(o.rx.load());
		rx_bytes = o.rx_bytes;
		lat = o.lat;
		seqs = o.seqs;
		jit = o.jit;
		return *this;
	}

	void add(uint32_t seq, int64_t transit_ns, uint32_t len)
	{
		rx.store(rx.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
		rx_bytes += len;
		lat.add(transit_ns > 0 ? uint64_t(transit_ns) : 0);
		seqs.add(seq);
		jit.add(transit_ns);
	}
};

/* A traffic stream's figures over the run, its receivers merged. */
struct FlowResult {
	const TxFlow *f;
	uint64_t tx, tx_bytes, tx_stamped;
	uint64_t rx = 0, rx_bytes = 0, unique = 0, reordered = 0, duplicates = 0;
	Histogram lat;
	Jitter jit;
	uint64_t lost() const { return tx_stamped > unique ? tx_stamped - unique : 0; }
};

std::vector<FlowResult> flow_results(const Run &r);

/* The final report's per-stream lines, and report["streams"] (with a trailing comma). */
void flows_print(const Run &r, double elapsed);
void flows_json(const Run &r, FILE *f, double elapsed);

/* The live lines, one per stream, when the run has streams of its own (--stream); on the
 * refreshing screen (table) as rows under the ports' table. */
struct FlowLive {
	std::vector<uint64_t> tx, rx;
	void line(const Run &r, double t, double dt, bool table = false);
};

/* "port 0 -> 1: ipv4/udp vlan 100, imix, 10000 pps" */
std::string describe(const StreamSpec &s, uint16_t rx_port);

} /* namespace gtp */

#endif /* GTP_FLOWSTATS_H */
