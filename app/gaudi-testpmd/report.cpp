/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the time series of the live lines and --json, and the final report.
 */
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <cerrno>

#include <rte_telemetry.h>

#include "app.h"
#include "rfc2544.h"

namespace gtp {

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

namespace {
/* A paced rate in frames/s: whole frames from 100 up, two decimals below (1.33, not 1). */
std::string rate_text(double fps)
{
	char b[40];
	snprintf(b, sizeof(b), fps >= 100 ? "%.0f frames/s" : "%.2f frames/s", fps);
	return b;
}

/* A rate from 10^4 per second up in millions (format mega), below that as it is (format one). */
std::string scaled_rate(double per_s, const char *mega, const char *one)
{
	char b[32];
	if (per_s >= 1e4)
		snprintf(b, sizeof(b), mega, per_s / 1e6);
	else
		snprintf(b, sizeof(b), one, per_s);
	return b;
}
} /* namespace */

std::string pps_text(double pps)
{
	return scaled_rate(pps, "%9.4f Mpps", "%10.1f pps");
}

std::string fps_text(double pps)
{
	return scaled_rate(pps, "%.4g Mfps", "%.4g frames/s");
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
		gaudi_tel_dict_add_uint(d, (k + "rx_packets").c_str(), st.ipackets);
		gaudi_tel_dict_add_uint(d, (k + "tx_packets").c_str(), st.opackets);
		gaudi_tel_dict_add_uint(d, (k + "rx_missed").c_str(), st.imissed);
		gaudi_tel_dict_add_uint(d, (k + "tx_dropped").c_str(), port_tx_dropped(*r, p.id));
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
				stream_rx(*s, pr.lat, pr.seqs);
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
		printf("  rx %12" PRIu64 " frames %15" PRIu64 " bytes  %s %8.3f Gbit/s\n",
		       st.ipackets, st.ibytes, pps_text(pr.rx_mpps * 1e6).c_str(), pr.rx_gbps);
		printf("  tx %12" PRIu64 " frames %15" PRIu64 " bytes  %s %8.3f Gbit/s\n",
		       st.opackets, st.obytes, pps_text(pr.tx_mpps * 1e6).c_str(), pr.tx_gbps);
		printf("  rx errors %" PRIu64 ", rx missed %" PRIu64 ", rx nombuf %" PRIu64
		       ", tx errors %" PRIu64 ", tx dropped %" PRIu64 "\n",
		       st.ierrors, st.imissed, st.rx_nombuf, st.oerrors, pr.tx_dropped);
		if (pps > 0) {
			double achieved = pr.tx_mpps * 1e6;
			/* Frames over the time from the first burst to the last (Stream::
			 * first_tx_tsc). */
			uint64_t first = UINT64_MAX, last = 0, n = 0;
			for (auto &s : r.streams)
				if (s->port == p.id && s->last_tx_tsc.load()) {
					first = std::min(first, s->first_tx_tsc.load());
					last = std::max(last, s->last_tx_tsc.load());
					n += s->sent.load();
				}
			if (n > 1 && last > first)
				achieved = double(n - 1) / (double(last - first) / double(r.hz));
			std::string why = port_shortfall(r, p, pps, achieved);
			printf("  rate: target %s, achieved %s (%.2f%%)%s%s\n",
			       rate_text(pps).c_str(), rate_text(achieved).c_str(),
			       achieved / pps * 100, why.empty() ? "" : ": ", why.c_str());
		}
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
	/* After --rfc2544 its tables hold the figures: the streams were the trials'. */
	if (!c.rfc2544)
		flows_print(r, elapsed);
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
			fprintf(f, "{\n");
			meta_json(f, r);
			/* One length: a number, as before; a mix: the sizes as --txpkts takes
			 * them ("imix", "64:7,594:4,1518:1", "64-1518", "random:64-1518"). */
			std::string txpkts = c.txsize.kind == SizeSpec::Kind::fixed
						     ? std::to_string(c.pkt_len)
						     : json_str(c.txsize.str());
			fprintf(f,
				" \"forward_mode\": \"%s\",\n"
				" \"burst\": %u,\n \"txpkts\": %s,\n \"nb_cores\": %u,\n"
				" \"duration_s\": %.6f,\n \"stopped_by\": \"%s\",\n"
				" \"target_pps\": %.3f,\n \"mbufs_in_use\": %u,\n \"ports\": [",
				modes.c_str(), c.burst, txpkts.c_str(), c.nb_cores, elapsed,
				stopped_by, pps, in_use);
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
				meta_port_json(f, r, k);
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
			rfc2544_json(f); /* "rfc2544": {...}, when it ran */
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
			if (!c.rfc2544)
				flows_json(r, f, elapsed);
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
			fprintf(f, "%s],\n", captures.empty() ? "" : "\n ");
			phases_json(f, r);
			fprintf(f, " \"series\": [");
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

} /* namespace gtp */
