/* SPDX-License-Identifier: BSD-3-Clause */
/* roce_decode: print every frame of a pcap/pcapng file as RoCE v2 (one line per frame).
 *
 *   roce_decode [--json] [--stats] [--no-icrc] [--verbose] FILE
 *
 * Text: "<frame> <opcode> qp=.. psn=.. ack=.. <ext headers> payload=.. icrc=ok|bad".
 * --json: one object per line; keys: frame (1-based), caplen, len, roce (UDP port 4791
 * reached), status (ParseError name), and when decoded: opcode (IBA name), opcode_value,
 * transport, dest_qp, psn, ack_req, se, mig_req, pad_cnt, tver, pkey, fecn, becn, eth/ip/udp
 * fields, extension headers, payload_len, icrc (value, wire bytes read LSB first),
 * icrc_wire (hex as on the wire), icrc_ok (null when not computed).
 * --stats: per-result counters on stderr at the end.
 * --verbose: keep DPDK's informational log lines (e.g. rte_net_crc's choice of CRC code,
 * printed on stderr at the first ICRC; without EAL nothing else sets the log level).
 * Exit status: 0 whatever the packets contain; 1 if the file can't be read or on a bad argument
 * (one line naming it); 2 when FILE is missing (the usage text). */
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <span>
#include <string_view>

#include <pcap/pcap.h>
#include <rte_log.h>

#include "roce_framing.h"

namespace r = gaudi::roce;

namespace {

bool g_icrc_checked = true;

void print_mac(const r::MacAddr &m)
{
	std::printf("%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

void print_ip(const r::Packet &p, bool src)
{
	if (p.ip_version == r::IpVersion::v4) {
		const auto &a = src ? p.ip4.src : p.ip4.dst;
		std::printf("%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
	} else {
		const auto &a = src ? p.ip6.src : p.ip6.dst;
		for (int i = 0; i < 16; i += 2)
			std::printf("%s%x", i ? ":" : "", a[i] << 8 | a[i + 1]);
	}
}

const char *aeth_kind(const r::Aeth &a)
{
	switch (a.kind()) {
	case r::Aeth::Kind::ack:
		return "ACK";
	case r::Aeth::Kind::rnr_nak:
		return "RNR_NAK";
	case r::Aeth::Kind::nak:
		return "NAK";
	default:
		return "RESERVED";
	}
}

void print_text(uint64_t n, r::ParseError e, const r::Packet &p)
{
	std::printf("%" PRIu64, n);
	if (!r::bth_decoded(e)) {
		std::printf(" %s (%.*s)\n", r::is_not_roce(e) ? "not-RoCE" : "bad",
			    int(r::error_name(e).size()), r::error_name(e).data());
		return;
	}
	auto nm = r::name(p.bth.opcode);
	std::printf(" ");
	print_ip(p, true);
	std::printf(":%u > ", p.udp.src_port);
	print_ip(p, false);
	std::printf(" %.*s(0x%02x) qp=0x%06x psn=%u ack=%d", int(nm.size()), nm.data(),
		    p.bth.opcode, p.bth.dest_qp, p.bth.psn, p.bth.ack_req);
	if (p.bth.se)
		std::printf(" se");
	if (p.bth.becn)
		std::printf(" becn");
	if (p.bth.fecn)
		std::printf(" fecn");
	if (p.eth.has_vlan)
		std::printf(" vlan=%u", p.eth.vlan_id());
	if (!r::fully_decoded(e)) {
		std::printf(" error=%.*s\n", int(r::error_name(e).size()), r::error_name(e).data());
		return;
	}
	uint16_t m = p.ext_mask;
	if (r::has_ext(m, r::Ext::RDETH))
		std::printf(" RDETH[eec=0x%06x]", p.rdeth.ee_context);
	if (r::has_ext(m, r::Ext::DETH))
		std::printf(" DETH[qkey=0x%08x src_qp=0x%06x]", p.deth.qkey, p.deth.src_qp);
	if (r::has_ext(m, r::Ext::FETH))
		std::printf(" FETH[0x%08x]", p.feth.value);
	if (r::has_ext(m, r::Ext::RETH))
		std::printf(" RETH[va=0x%" PRIx64 " rkey=0x%08x len=%u]", p.reth.va, p.reth.rkey,
			    p.reth.dma_len);
	if (r::has_ext(m, r::Ext::AtomicETH))
		std::printf(" AtomicETH[va=0x%" PRIx64 " rkey=0x%08x swap_add=0x%" PRIx64
			    " cmp=0x%" PRIx64 "]",
			    p.atomic_eth.va, p.atomic_eth.rkey, p.atomic_eth.swap_add,
			    p.atomic_eth.compare);
	if (r::has_ext(m, r::Ext::AETH))
		std::printf(" AETH[%s code=%u msn=%u]", aeth_kind(p.aeth), p.aeth.value(),
			    p.aeth.msn);
	if (r::has_ext(m, r::Ext::AtomicAckETH))
		std::printf(" AtomicAckETH[orig=0x%" PRIx64 "]", p.atomic_ack_eth.orig);
	if (r::has_ext(m, r::Ext::ImmDt))
		std::printf(" ImmDt[0x%08x]", p.imm);
	if (r::has_ext(m, r::Ext::IETH))
		std::printf(" IETH[rkey=0x%08x]", p.ieth_rkey);
	std::printf(" payload=%zu pad=%u icrc=%s", p.payload.size(), p.bth.pad_cnt,
		    p.icrc_ok ? "ok" : (e == r::ParseError::icrc_mismatch ? "BAD" : "unchecked"));
	if (!p.ip_checksum_ok)
		std::printf(" ip_csum=BAD");
	std::printf("\n");
}

void json_mac(const char *k, const r::MacAddr &m)
{
	std::printf(",\"%s\":\"", k);
	print_mac(m);
	std::printf("\"");
}

void print_json(uint64_t n, uint32_t caplen, uint32_t len, r::ParseError e, const r::Packet &p)
{
	auto en = r::error_name(e);
	bool roce = !r::is_not_roce(e) && e != r::ParseError::truncated_eth;
	/* A frame cut before the UDP port is known is not claimed as RoCE. */
	if (e == r::ParseError::truncated_ip || e == r::ParseError::ip_len_mismatch ||
	    e == r::ParseError::bad_ip_version || e == r::ParseError::bad_ip_header_len ||
	    e == r::ParseError::ip_fragment || e == r::ParseError::truncated_udp)
		roce = false;
	std::printf("{\"frame\":%" PRIu64
		    ",\"caplen\":%u,\"len\":%u,\"roce\":%s,\"status\":\"%.*s\"",
		    n, caplen, len, roce ? "true" : "false", int(en.size()), en.data());
	if (!r::bth_decoded(e)) {
		std::printf("}\n");
		return;
	}
	const r::OpcodeInfo &oi = r::opcode_info(p.bth.opcode);
	auto tn = r::transport_name(oi.transport);
	std::printf(",\"opcode\":\"%.*s\",\"opcode_value\":%u,\"transport\":\"%.*s\"",
		    int(oi.name.size()), oi.name.data(), p.bth.opcode, int(tn.size()), tn.data());
	std::printf(
		",\"dest_qp\":%u,\"psn\":%u,\"ack_req\":%s,\"se\":%s,\"mig_req\":%s,\"pad_cnt\":%u,"
		"\"tver\":%u,\"pkey\":%u,\"fecn\":%s,\"becn\":%s",
		p.bth.dest_qp, p.bth.psn, p.bth.ack_req ? "true" : "false",
		p.bth.se ? "true" : "false", p.bth.mig_req ? "true" : "false", p.bth.pad_cnt,
		p.bth.tver, p.bth.pkey, p.bth.fecn ? "true" : "false",
		p.bth.becn ? "true" : "false");
	if (p.has_eth) {
		json_mac("src_mac", p.eth.src);
		json_mac("dst_mac", p.eth.dst);
		if (p.eth.has_vlan)
			std::printf(",\"vlan\":%u,\"vlan_pcp\":%u", p.eth.vlan_id(),
				    p.eth.vlan_pcp());
	}
	std::printf(",\"ip_version\":%u,\"src_ip\":\"", unsigned(p.ip_version));
	print_ip(p, true);
	std::printf("\",\"dst_ip\":\"");
	print_ip(p, false);
	std::printf("\"");
	if (p.ip_version == r::IpVersion::v4)
		std::printf(",\"tos\":%u,\"ttl\":%u,\"ip_id\":%u", p.ip4.tos, p.ip4.ttl, p.ip4.id);
	else
		std::printf(",\"traffic_class\":%u,\"flow_label\":%u,\"hop_limit\":%u",
			    p.ip6.traffic_class, p.ip6.flow_label, p.ip6.hop_limit);
	std::printf(",\"udp_sport\":%u,\"udp_dport\":%u,\"udp_len\":%u,\"udp_csum\":%u",
		    p.udp.src_port, p.udp.dst_port, p.udp.length, p.udp.checksum);
	if (!r::fully_decoded(e)) {
		std::printf("}\n");
		return;
	}
	uint16_t m = p.ext_mask;
	if (r::has_ext(m, r::Ext::RDETH))
		std::printf(",\"rdeth\":{\"ee_context\":%u}", p.rdeth.ee_context);
	if (r::has_ext(m, r::Ext::DETH))
		std::printf(",\"deth\":{\"qkey\":%u,\"src_qp\":%u}", p.deth.qkey, p.deth.src_qp);
	if (r::has_ext(m, r::Ext::FETH))
		std::printf(",\"feth\":%u", p.feth.value);
	if (r::has_ext(m, r::Ext::RETH))
		std::printf(",\"reth\":{\"va\":%" PRIu64 ",\"rkey\":%u,\"dma_len\":%u}", p.reth.va,
			    p.reth.rkey, p.reth.dma_len);
	if (r::has_ext(m, r::Ext::AtomicETH))
		std::printf(",\"atomic_eth\":{\"va\":%" PRIu64 ",\"rkey\":%u,\"swap_add\":%" PRIu64
			    ",\"compare\":%" PRIu64 "}",
			    p.atomic_eth.va, p.atomic_eth.rkey, p.atomic_eth.swap_add,
			    p.atomic_eth.compare);
	if (r::has_ext(m, r::Ext::AETH))
		std::printf(",\"aeth\":{\"syndrome\":%u,\"kind\":\"%s\",\"msn\":%u}",
			    p.aeth.syndrome, aeth_kind(p.aeth), p.aeth.msn);
	if (r::has_ext(m, r::Ext::AtomicAckETH))
		std::printf(",\"atomic_ack_eth\":{\"orig\":%" PRIu64 "}", p.atomic_ack_eth.orig);
	if (r::has_ext(m, r::Ext::ImmDt))
		std::printf(",\"imm\":%u", p.imm);
	if (r::has_ext(m, r::Ext::IETH))
		std::printf(",\"ieth_rkey\":%u", p.ieth_rkey);
	std::printf(",\"payload_len\":%zu,\"icrc\":%u,\"icrc_wire\":\"%02x%02x%02x%02x\"",
		    p.payload.size(), p.icrc, p.icrc & 0xFF, (p.icrc >> 8) & 0xFF,
		    (p.icrc >> 16) & 0xFF, p.icrc >> 24);
	const bool checked = g_icrc_checked; /* fully decoded here, so computed iff enabled */
	std::printf(",\"icrc_computed\":%u,\"icrc_ok\":%s,\"ip_checksum_ok\":%s}\n",
		    p.icrc_computed, checked ? (p.icrc_ok ? "true" : "false") : "null",
		    p.ip_checksum_ok ? "true" : "false");
}

/* A bad argument: one line naming it, exit status 1 (as the other examples' bad options). */
int bad_arg(const char *arg, const char *what)
{
	std::fprintf(stderr, "roce_decode: %s: %s\n", arg, what);
	return 1;
}

int usage()
{
	std::fprintf(stderr, "usage: roce_decode [--json] [--stats] [--no-icrc] [--verbose] "
			     "FILE.pcap|FILE.pcapng\n");
	return 2;
}

} /* namespace */

int main(int argc, char **argv)
{
	bool json = false, stats_out = false, verbose = false;
	r::ParseOptions popt;
	const char *file = nullptr;
	for (int i = 1; i < argc; ++i) {
		std::string_view a = argv[i];
		if (a == "--json")
			json = true;
		else if (a == "--stats")
			stats_out = true;
		else if (a == "--no-icrc")
			popt.verify_icrc = g_icrc_checked = false;
		else if (a == "--verbose" || a == "-v")
			verbose = true;
		else if (a == "-h" || a == "--help")
			return usage(), 0;
		else if (!a.empty() && a[0] == '-')
			return bad_arg(argv[i], "unknown option");
		else if (!file)
			file = argv[i];
		else
			return bad_arg(argv[i], "a second file; one only");
	}
	if (!file)
		return usage();
	/* This program's own choice, not the library's: without EAL, DPDK logs at every level,
	 * and rte_net_crc reports its SIMD selection at INFO on the first ICRC computed. */
	if (!verbose)
		rte_log_set_global_level(RTE_LOG_WARNING);

	char err[PCAP_ERRBUF_SIZE] = {};
	pcap_t *pc = pcap_open_offline(file, err); /* reads pcap and pcapng */
	if (!pc) {
		/* libpcap names the file when it cannot open it, not when the contents are no
		 * capture ("unknown file format"). */
		if (std::strstr(err, file) != nullptr)
			std::fprintf(stderr, "roce_decode: %s\n", err);
		else
			std::fprintf(stderr, "roce_decode: %s: %s\n", file, err);
		return 1;
	}
	const int dlt = pcap_datalink(pc);
	bool raw_ip;
	if (dlt == DLT_EN10MB) {
		raw_ip = false; /* ibdump writes Ethernet frames */
	} else if (dlt == DLT_RAW || dlt == 101 /* LINKTYPE_RAW */ || dlt == 228 || dlt == 229) {
		raw_ip = true;
	} else {
		std::fprintf(stderr, "roce_decode: %s: unsupported link type %d (%s)\n", file, dlt,
			     pcap_datalink_val_to_name(dlt) ? pcap_datalink_val_to_name(dlt) : "?");
		pcap_close(pc);
		return 1;
	}

	r::ParseStats stats;
	r::Packet pkt;
	uint64_t n = 0;
	pcap_pkthdr *h;
	const u_char *data;
	int rc;
	while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
		++n;
		std::span<const uint8_t> f(data, h->caplen);
		r::ParseError e =
			raw_ip ? r::parse_ip(f, pkt, stats, popt) : r::parse(f, pkt, stats, popt);
		if (json)
			print_json(n, h->caplen, h->len, e, pkt);
		else
			print_text(n, e, pkt);
	}
	int status = 0;
	if (rc == PCAP_ERROR) {
		/* A record cut off by the end of the file: report, but what was read is printed. */
		std::fprintf(stderr, "roce_decode: %s: %s\n", file, pcap_geterr(pc));
		status = n == 0 ? 1 : 0;
	}
	std::fflush(stdout);
	if (stats_out) {
		std::fprintf(stderr, "frames=%" PRIu64, stats.frames);
		for (size_t i = 0; i < r::kNumParseErrors; ++i) {
			if (stats.by_result[i]) {
				auto en = r::error_name(static_cast<r::ParseError>(i));
				std::fprintf(stderr, " %.*s=%" PRIu64, int(en.size()), en.data(),
					     stats.by_result[i]);
			}
		}
		std::fprintf(stderr, "\n");
	}
	pcap_close(pc);
	return status;
}
