/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the forwarding engines (one loop per lcore over its streams), and their start
 * and stop.
 */
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_udp.h>

#include "app.h"

namespace gtp {

namespace {

/* The stamps of what arrived: the port's latency and sequences, and those of each traffic
 * stream sent to this port. */
void measure(Stream &s, const Run &r, rte_mbuf **pkts, uint16_t n)
{
	uint64_t now = rte_rdtsc();
	for (uint16_t i = 0; i < n; i++) {
		const rte_mbuf *m = pkts[i];
		LatencyStamp st;
		if (!find_stamp(rte_pktmbuf_mtod(m, const uint8_t *), m->data_len, st))
			continue;
		int64_t transit = int64_t(double(int64_t(now - st.tsc)) * r.ns_per_tsc);
		if (st.stream < kMaxStreams && s.rx_idx[st.stream] >= 0) {
			s.flow_rx[size_t(s.rx_idx[st.stream])].add(st.seq, transit, m->pkt_len);
		} else {
			s.lat.add(transit > 0 ? uint64_t(transit) : 0);
			s.seqs.add(st.stream, st.seq);
		}
	}
}

void count_tx(TxFlow &f, uint64_t packets, uint64_t bytes, uint64_t stamped)
{
	bump(f.tx_packets, packets);
	bump(f.tx_bytes, bytes);
	bump(f.tx_stamped, stamped);
}

/* When the stream's next frame is due: the template's schedule, or its earliest paced traffic
 * stream's (now when none is paced). */
double earliest_tsc(const Stream &s, bool tmpl, uint64_t now)
{
	if (tmpl)
		return s.tsc_per_pkt > 0 ? s.next_tsc : double(now);
	double t = double(now);
	for (const TxFlow *f : s.flows)
		if (f->paced)
			t = std::min(t, f->next_tsc);
	return t;
}

void run_generator(Stream &s, const Run &r)
{
	const Config &c = r.cfg;
	rte_mbuf *pkts[kMaxBurst];
	uint16_t n = rte_eth_rx_burst(s.port, s.queue, pkts, c.burst);
	if (n) {
		bump(s.rx, n);
		capture_rx(r, s.port, s.queue, pkts, n);
		if (c.latency && c.mode != FwdMode::template_) /* template frames: as captured */
			measure(s, r, pkts, n);
		rte_pktmbuf_free_bulk(pkts, n);
	}
	const bool tmpl = c.mode == FwdMode::template_;
	if (s.npending == 0) {
		uint64_t sent = s.sent.load(std::memory_order_relaxed);
		/* A queue without traffic streams (--stream on other ports) only receives. */
		if (g_gen_stop.load(std::memory_order_relaxed) ||
		    (s.to_send && sent >= s.to_send) || (!tmpl && s.flows.empty())) {
			s.done.store(true, std::memory_order_release);
			return;
		}
		uint64_t now = rte_rdtsc();
		/* The schedule starts at the stream's first turn: an lcore that woke up late
		 * (a loaded machine) would otherwise open with a burst to catch up. */
		if (s.next_tsc == 0) {
			s.next_tsc = double(now);
			for (TxFlow *f : s.flows)
				f->next_tsc = double(now);
		}
		if (s.hold_rate) {
			/* While the lcore was away the schedule waits (RFC 2544 trials). */
			uint64_t last = s.last_turn.load(std::memory_order_relaxed);
			double gap = double(now - last);
			double behind = double(now) - earliest_tsc(s, tmpl, now);
			if (last && gap > 1e-3 * double(r.hz) && behind > 0) {
				double w = std::min(gap, behind);
				s.next_tsc += w;
				for (TxFlow *f : s.flows)
					f->next_tsc += w;
				bump(s.away, uint64_t(w));
			}
			s.last_turn.store(now, std::memory_order_relaxed);
		}
		if (!tmpl && s.hold_rate)
			s.max_lag = std::max(s.max_lag, double(now) - earliest_tsc(s, tmpl, now));
		if (tmpl && s.tsc_per_pkt > 0 && double(now) < s.next_tsc)
			return;
		uint16_t want = c.burst;
		if (tmpl && s.tsc_per_pkt > 0) {
			/* Paced per frame: a burst holds only the frames already due (one at a
			 * low rate, a full burst once the schedule is a burst or more behind). */
			double due = 1.0 + (double(now) - s.next_tsc) / s.tsc_per_pkt;
			want = uint16_t(std::min<double>(want, due));
			s.max_lag = std::max(s.max_lag, double(now) - s.next_tsc);
		}
		if (s.to_send)
			want = uint16_t(std::min<uint64_t>(want, s.to_send - sent));
		if (tmpl && r.replay.speed > 0) {
			/* The capture's timing: the frames due since the replay began. */
			want = replay_due(r.replay, uint64_t(s.next_tsc), sent, want, now);
			if (!want)
				return;
			s.tmpl_idx = size_t(sent % r.tmpl.frames.size());
		}
		s.npending = tmpl ? generate(s, r, s.pending, want, now)
				  : generate_flows(s, r, want, now);
		s.pending_off = 0;
		if (tmpl && s.tsc_per_pkt > 0 && s.npending) {
			/* As generate_flows: up to 250 ms of schedule is caught up. */
			s.next_tsc += s.npending * s.tsc_per_pkt;
			double lag = std::max(4.0 * c.burst * s.tsc_per_pkt, 0.25 * double(r.hz));
			if (s.next_tsc + lag < double(now))
				s.next_tsc = double(now) - lag;
		}
	}
	if (s.npending) {
		uint16_t k = tx_burst(r, s.tx_port, s.queue, s.pending + s.pending_off, s.npending);
		if (!tmpl) {
			/* Counted per run of frames of one stream (a burst of one stream: once). */
			uint64_t stamped = 0, pk = 0, by = 0, st = 0;
			uint16_t cur = 0;
			for (uint16_t i = s.pending_off; i < s.pending_off + k; i++) {
				uint16_t fi = s.pending_flow[i] & 0x7fff;
				if (pk && fi != cur) {
					count_tx(*s.flows[cur], pk, by, st);
					stamped += st;
					pk = by = st = 0;
				}
				cur = fi;
				pk++;
				by += s.pending_len[i];
				st += s.pending_flow[i] >> 15;
			}
			if (pk)
				count_tx(*s.flows[cur], pk, by, st);
			bump(s.sent_stamped, stamped + st);
		}
		s.pending_off += k;
		s.npending -= k;
		bump(s.sent, k);
		if (k) {
			uint64_t t = rte_rdtsc();
			if (s.first_tx_tsc.load(std::memory_order_relaxed) == 0)
				s.first_tx_tsc.store(t, std::memory_order_relaxed);
			s.last_tx_tsc.store(t, std::memory_order_relaxed);
		}
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

} /* namespace */

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
		s->first_tx_tsc.store(0, std::memory_order_relaxed);
		s->last_tx_tsc.store(0, std::memory_order_relaxed);
	}
	if (first)
		tx_first(r);
	uint64_t start = rte_rdtsc();
	for (auto &s : r.streams)
		s->next_tsc = 0; /* set at the stream's first turn (run_generator) */
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

} /* namespace gtp */
