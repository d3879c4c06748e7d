/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: per-stream statistics: the final report's lines, report["streams"] and the
 * live lines.
 */
#include <cinttypes>
#include <cstdio>

#include "app.h"

namespace gtp {

std::string describe(const StreamSpec &s, uint16_t rx_port)
{
	std::string d = "port " + std::to_string(s.port) + " -> " + std::to_string(rx_port) + ": ";
	if (s.nvlan == 2)
		d += "qinq " + std::to_string(s.vlan[0]) + "." + std::to_string(s.vlan[1]) + " ";
	else if (s.nvlan == 1)
		d += "vlan " + std::to_string(s.vlan[0]) + " ";
	if (s.l3 == L3::none) {
		char b[16];
		snprintf(b, sizeof(b), "0x%04x", s.ethertype);
		d += std::string("ethertype ") + b;
	} else {
		d += s.l3 == L3::ipv4 ? "ipv4/" : "ipv6/";
		d += s.l4 == L4::udp ? "udp" : s.l4 == L4::tcp ? "tcp" : "raw";
	}
	d += ", size " + s.size.str() + ", " + s.rate.str();
	return d;
}

std::vector<FlowResult> flow_results(const Run &r)
{
	std::vector<FlowResult> res;
	for (const auto &f : r.flows) {
		FlowResult fr{};
		fr.f = f.get();
		fr.tx = f->tx_packets.load();
		fr.tx_bytes = f->tx_bytes.load();
		fr.tx_stamped = f->tx_stamped.load();
		for (const auto &s : r.streams) {
			if (s->port != f->rx_port || s->rx_idx[f->id] < 0)
				continue;
			const FlowRx &x = s->flow_rx[size_t(s->rx_idx[f->id])];
			fr.rx += x.rx.load();
			fr.rx_bytes += x.rx_bytes;
			fr.unique += x.seqs.unique();
			fr.reordered += x.seqs.reordered();
			fr.duplicates += x.seqs.duplicates();
			fr.lat.merge(x.lat);
			fr.jit.merge(x.jit);
		}
		res.push_back(std::move(fr));
	}
	return res;
}

void flows_print(const Run &r, double elapsed)
{
	if (r.flows.empty())
		return;
	double e = elapsed > 0 ? elapsed : 1;
	printf("streams (frames stamped with the stream and a sequence number; latency of those "
	       "received)\n");
	for (const FlowResult &fr : flow_results(r)) {
		const TxFlow &f = *fr.f;
		printf("stream %u (%s)\n", f.id, f.desc.c_str());
		/* Not the per-port lines' "rx N frames M bytes" shape: parsers of those. */
		printf("  sent %" PRIu64 " frames (%" PRIu64 " bytes, %s", fr.tx, fr.tx_bytes,
		       fps_text(double(fr.tx) / e).c_str());
		if (f.paced)
			printf(", target %s", fps_text(f.target_pps).c_str());
		printf("), %" PRIu64 " stamped; received %" PRIu64 " stamped (%" PRIu64
		       " bytes, %s): lost %" PRIu64 ", reordered %" PRIu64 ", duplicates %" PRIu64
		       "\n",
		       fr.tx_stamped, fr.rx, fr.rx_bytes, fps_text(double(fr.rx) / e).c_str(),
		       fr.lost(), fr.reordered, fr.duplicates);
		if (fr.lat.count())
			printf("  latency p50 %.3f us, p99 %.3f us, p99.9 %.3f us, max %.3f us; "
			       "jitter %.3f us (RFC 3550), mean |D| %.3f us\n",
			       double(fr.lat.quantile(0.5)) / 1e3,
			       double(fr.lat.quantile(0.99)) / 1e3,
			       double(fr.lat.quantile(0.999)) / 1e3, double(fr.lat.max()) / 1e3,
			       fr.jit.jitter() / 1e3, fr.jit.mean_abs_d() / 1e3);
	}
}

void flows_json(const Run &r, FILE *f, double elapsed)
{
	double e = elapsed > 0 ? elapsed : 1;
	fprintf(f, " \"streams\": [");
	bool first = true;
	for (const FlowResult &fr : flow_results(r)) {
		const TxFlow &t = *fr.f;
		const Histogram &h = fr.lat;
		fprintf(f,
			"%s\n  {\"id\": %u, \"port\": %u, \"queue\": %u, \"rx_port\": %u, "
			"\"name\": %s, \"spec\": %s, \"size\": %s, \"rate\": %s, "
			"\"target_pps\": %.3f, \"tx_packets\": %" PRIu64 ", \"tx_bytes\": %" PRIu64
			", \"tx_stamped\": %" PRIu64 ", \"rx_packets\": %" PRIu64
			", \"rx_bytes\": %" PRIu64 ", \"lost\": %" PRIu64
			", \"reordered\": %" PRIu64 ", \"duplicates\": %" PRIu64
			", \"tx_pps\": %.3f, \"rx_pps\": %.3f"
			", \"tx_gbps\": %.6f, \"rx_gbps\": %.6f,\n   \"latency_ns\": {\"count\": "
			"%" PRIu64 ", \"min\": %" PRIu64 ", \"mean\": %.1f, \"p50\": %" PRIu64
			", \"p99\": %" PRIu64 ", \"p999\": %" PRIu64 ", \"max\": %" PRIu64
			"}, \"jitter_ns\": %.1f, \"ipdv_mean_ns\": %.1f}",
			first ? "" : ",", t.id, t.port, t.queue, t.rx_port,
			json_str(t.desc).c_str(), json_str(t.spec.text).c_str(),
			json_str(t.spec.size.str()).c_str(), json_str(t.spec.rate.str()).c_str(),
			t.target_pps, fr.tx, fr.tx_bytes, fr.tx_stamped, fr.rx, fr.rx_bytes,
			fr.lost(), fr.reordered, fr.duplicates, double(fr.tx) / e,
			double(fr.rx) / e, double(fr.tx_bytes) * 8 / e / 1e9,
			double(fr.rx_bytes) * 8 / e / 1e9, h.count(), h.min(), h.mean(),
			h.quantile(0.5), h.quantile(0.99), h.quantile(0.999), h.max(),
			fr.jit.jitter(), fr.jit.mean_abs_d());
		first = false;
	}
	fprintf(f, "%s],\n", first ? "" : "\n ");
}

void FlowLive::line(const Run &r, double t, double dt, bool table)
{
	dt = dt > 0 ? dt : 1e-9;
	tx.resize(r.flows.size(), 0);
	rx.resize(r.flows.size(), 0);
	if (table)
		printf("\n%-7s %-7s %14s %14s  %s\n", "stream", "ports", "tx pps", "rx pps",
		       "what");
	for (const auto &f : r.flows) {
		uint64_t ntx = f->tx_packets.load(std::memory_order_relaxed), nrx = 0;
		for (const auto &s : r.streams)
			if (s->port == f->rx_port && s->rx_idx[f->id] >= 0)
				nrx += s->flow_rx[size_t(s->rx_idx[f->id])].rx.load(
					std::memory_order_relaxed);
		const double txr = double(ntx - tx[f->id]) / dt, rxr = double(nrx - rx[f->id]) / dt;
		if (table) {
			char ports[16];
			snprintf(ports, sizeof(ports), "%u->%u", f->port, f->rx_port);
			printf("%-7u %-7s %14.0f %14.0f  %s\n", f->id, ports, txr, rxr,
			       f->desc.c_str());
		} else {
			printf("[%7.1fs] stream %u (port %u->%u)  tx %s  rx %s\n", t, f->id,
			       f->port, f->rx_port, pps_text(txr).c_str(), pps_text(rxr).c_str());
		}
		tx[f->id] = ntx;
		rx[f->id] = nrx;
	}
}

} /* namespace gtp */
