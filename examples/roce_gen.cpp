/* SPDX-License-Identifier: BSD-3-Clause */
/* roce_gen: write a pcap with one RoCE v2 frame per opcode of the table (for cross-checking the
 * builder against tshark and scapy, see tests/roce_crosscheck.py).
 *
 *   roce_gen [--ipv6] [--vlan] [--all] [--payload N] [--bad-icrc] [--no-rd] OUT.pcap
 *
 * --all writes the four variants (IPv4, IPv6, IPv4+VLAN, IPv6+VLAN) one after the other.
 * --payload N: payload bytes for opcodes that carry data, 0..8192 (default 13, so PadCnt = 3).
 * --bad-icrc: flip the ICRC (the raw builder path), so decoders must report a mismatch. Every
 * field gets a distinct non-zero value derived from the frame index. Exit status 0 on success, 1
 * on a bad option or argument (one line naming it, as the other examples) or an I/O error, 2 when
 * OUT.pcap is missing (the usage text). */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include <pcap/pcap.h>

#include "example_common.h"
#include "roce_framing.h"

namespace r = gaudi::roce;
namespace ex = gaudi::examples;

namespace {

r::Packet fill(r::Opcode op, uint32_t i, bool v6, bool vlan, std::span<const uint8_t> payload)
{
	r::Packet p = r::make_packet(op);
	p.ip_version = v6 ? r::IpVersion::v6 : r::IpVersion::v4;
	p.eth.has_vlan = vlan;
	p.eth.vlan_tci = static_cast<uint16_t>((3u << 13) | (100 + i % 3000));
	p.ip4.tos = 0x02 | (i % 2 ? 0x68 : 0); /* ECT(0), sometimes DSCP 26 */
	p.ip4.ttl = static_cast<uint8_t>(64 + i % 64);
	p.ip4.id = static_cast<uint16_t>(0x1000 + i);
	p.ip6.traffic_class = 0x6a;
	p.ip6.flow_label = (0x1face + i) & 0xFFFFF;
	p.ip6.hop_limit = 255;
	p.udp.src_port = r::flow_label_to_udp_sport(0x1face + i);
	p.bth.se = i % 2;
	p.bth.ack_req = (i % 3) == 0;
	p.bth.pkey = 0xFFFF;
	p.bth.dest_qp = 0x000100 + i;
	p.bth.psn = 0x00ABC000 + i;
	p.bth.becn = op == r::Opcode::CNP;
	p.rdeth.ee_context = 0x00EE00 + i;
	p.deth.qkey = 0x11111111;
	p.deth.src_qp = 0x000200 + i;
	p.feth.value = 0x00000011; /* global visibility, level 1 */
	p.reth = {0x00007F0000001000ull + i * 0x100, 0x1234 + i, uint32_t(payload.size() + 4096)};
	p.atomic_eth = {0x00007F0000002000ull + i * 8, 0x4321 + i, 0x1111222233334444ull,
			0x5555666677778888ull};
	p.aeth = {static_cast<uint8_t>(i % 4 == 3 ? 0x60 : 0x1F),
		  0x000010 + i}; /* ACK/unlimited or PSN-seq NAK */
	p.atomic_ack_eth = {0x0102030405060708ull + i};
	p.imm = 0xDEADBEEF ^ i;
	p.ieth_rkey = 0xCAFE0000 + i;
	const r::OpcodeInfo &oi = r::opcode_info(op);
	if (oi.fixed_payload >= 0) {
		if (op != r::Opcode::CNP)
			p.payload = payload.first(
				std::min<size_t>(payload.size(), size_t(oi.fixed_payload)));
	} else if (oi.has_payload) {
		p.payload = payload;
	} else {
		p.payload = {};
	}
	return p;
}

int usage()
{
	std::fprintf(stderr, "usage: roce_gen [--ipv6] [--vlan] [--all] [--payload N] [--bad-icrc] "
			     "[--no-rd] OUT.pcap\n");
	return 2;
}

} /* namespace */

int main(int argc, char **argv)
{
	bool v6 = false, vlan = false, all = false, bad = false, no_rd = false;
	size_t plen = 13;
	const char *out = nullptr;
	for (int i = 1; i < argc; ++i) {
		std::string_view a = argv[i];
		if (a == "--ipv6")
			v6 = true;
		else if (a == "--vlan")
			vlan = true;
		else if (a == "--all")
			all = true;
		else if (a == "--bad-icrc")
			bad = true;
		else if (a == "--no-rd")
			no_rd = true;
		else if (a == "--payload" && i + 1 < argc) {
			if (!ex::parse_uint("--payload", argv[++i], 0, 8192, plen))
				return 1;
		} else if (a == "-h" || a == "--help") {
			return usage(), 0;
		} else if (a == "--payload") {
			std::fprintf(stderr, "roce_gen: --payload: a value is needed\n");
			return 1;
		} else if (!a.empty() && a[0] == '-') {
			std::fprintf(stderr, "roce_gen: %s: unknown option\n", argv[i]);
			return 1;
		} else if (!out) {
			out = argv[i];
		} else {
			std::fprintf(stderr,
				     "roce_gen: %s: a second output file (after %s); one only\n",
				     argv[i], out);
			return 1;
		}
	}
	if (!out)
		return usage();

	std::vector<uint8_t> payload(std::max<size_t>(plen, 8));
	for (size_t i = 0; i < payload.size(); ++i)
		payload[i] = static_cast<uint8_t>('a' + i % 26);
	std::span<const uint8_t> pl(payload.data(), plen);
	/* ATOMIC_WRITE needs exactly 8 bytes. */
	std::span<const uint8_t> pl8(payload.data(), 8);

	pcap_t *dead = pcap_open_dead(DLT_EN10MB, 65535);
	pcap_dumper_t *d = dead ? pcap_dump_open(dead, out) : nullptr;
	if (!d) {
		std::fprintf(stderr, "roce_gen: %s: %s\n", out,
			     dead ? pcap_geterr(dead) : "pcap_open_dead failed");
		return 1;
	}
	std::vector<uint8_t> buf(16384);
	uint32_t idx = 0;
	const int variants = all ? 4 : 1;
	for (int var = 0; var < variants; ++var) {
		bool vv6 = all ? (var & 1) : v6;
		bool vvl = all ? (var & 2) : vlan;
		for (r::Opcode op : r::all_opcodes()) {
			if (no_rd && r::opcode_info(op).transport == r::Transport::RD)
				continue;
			r::Packet p = fill(op, idx, vv6, vvl,
					   op == r::Opcode::RC_ATOMIC_WRITE ? pl8 : pl);
			r::BuildResult br = r::build(p, buf);
			if (!br) {
				auto en = r::error_name(br.error);
				std::fprintf(stderr, "roce_gen: build %.*s: %.*s\n",
					     int(r::name(op).size()), r::name(op).data(),
					     int(en.size()), en.data());
				return 1;
			}
			if (bad) {
				/* Re-encode through the raw path with a wrong ICRC (research
				 * mode). */
				std::vector<uint8_t> copy(buf.begin(), buf.begin() + long(br.len));
				r::Packet q;
				r::ParseStats st;
				r::parse(copy, q, st);
				q.icrc ^= 0x1;
				br = r::build(q, buf, r::BuildOptions::raw());
			}
			pcap_pkthdr h{};
			h.ts.tv_sec = 1700000000;
			h.ts.tv_usec = idx;
			h.caplen = h.len = static_cast<bpf_u_int32>(br.len);
			pcap_dump(reinterpret_cast<u_char *>(d), &h, buf.data());
			++idx;
		}
	}
	pcap_dump_close(d);
	pcap_close(dead);
	std::printf("%u frames written to %s\n", idx, out);
	return 0;
}
