/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the RoCE v2 framing library (drivers/net/gaudi/roce).
 * Shared data (captures, ICRC vectors) is read in place from $GAUDI_SHARED_DATA, else from
 * the path meson compiled in (GAUDI_SHARED_DATA_DEFAULT). */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <pcap/pcap.h>
#include <rte_log.h>
#include <rte_net_crc.h>
extern "C" {
#include <rte_vect.h> /* its generic/ declarations lack extern "C" */
}

#include "roce_framing.h"

namespace r = gaudi::roce;
using Bytes = std::vector<uint8_t>;

namespace {

std::string shared_data()
{
	if (const char *e = std::getenv("GAUDI_SHARED_DATA"))
		return e;
#ifdef GAUDI_SHARED_DATA_DEFAULT
	return GAUDI_SHARED_DATA_DEFAULT;
#else
	return "../shared/data";
#endif
}

/* The tests of published vectors and hardware captures read the shared corpus beside the
 * repository (GAUDI_SHARED_DATA): on a clone without it they skip, saying so; with it, a
 * missing file is a failure. */
#define SKIP_WITHOUT_CORPUS()                                                         \
	do {                                                                          \
		if (!std::filesystem::is_directory(shared_data()))                    \
			GTEST_SKIP() << "the shared capture corpus " << shared_data() \
				     << " is absent (GAUDI_SHARED_DATA)";             \
	} while (0)

Bytes from_hex(const std::string &h)
{
	Bytes b;
	for (size_t i = 0; i + 1 < h.size(); i += 2)
		b.push_back(static_cast<uint8_t>(std::stoul(h.substr(i, 2), nullptr, 16)));
	return b;
}

struct Frame {
	Bytes data;
	uint32_t len;
};

bool read_pcap(const std::string &path, std::vector<Frame> &out)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path.c_str(), err);
	if (!p)
		return false;
	EXPECT_EQ(pcap_datalink(p), DLT_EN10MB) << path;
	pcap_pkthdr *h;
	const u_char *d;
	while (pcap_next_ex(p, &h, &d) == 1)
		out.push_back({Bytes(d, d + h->caplen), h->len});
	pcap_close(p);
	return true;
}

const uint8_t kFixed[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

/* A packet for `op` with every field set to something recognisable. */
r::Packet sample(r::Opcode op, bool v6, bool vlan, std::span<const uint8_t> payload, uint32_t i = 7)
{
	r::Packet p = r::make_packet(op);
	p.ip_version = v6 ? r::IpVersion::v6 : r::IpVersion::v4;
	p.eth.has_vlan = vlan;
	p.eth.vlan_tci = 0x6064;
	p.ip4.tos = 0x6a;
	p.ip4.ttl = 33;
	p.ip4.id = 0x1234;
	p.ip6.traffic_class = 0xe2;
	p.ip6.flow_label = 0x1face;
	p.ip6.hop_limit = 7;
	p.udp.src_port = 0xC123;
	p.bth.se = true;
	p.bth.mig_req = true;
	p.bth.pkey = 0x8001;
	p.bth.dest_qp = 0xABCDE0 + i;
	p.bth.ack_req = true;
	p.bth.psn = 0xFFFFF0 + i;
	p.rdeth.ee_context = 0x123456;
	p.deth = {0x80010000, 0, 0x000001};
	p.feth.value = 0x11;
	p.reth = {0x1122334455667788ull, 0x99AABBCC, 0x1000};
	p.atomic_eth = {0x0102030405060708ull, 0x0A0B0C0D, 0x1111111111111111ull,
			0x2222222222222222ull};
	p.aeth = {0x61, 0x00ABCD};
	p.atomic_ack_eth = {0xFEDCBA9876543210ull};
	p.imm = 0xDEADBEEF;
	p.ieth_rkey = 0xC0FFEE00;
	const r::OpcodeInfo &oi = r::opcode_info(op);
	if (op == r::Opcode::CNP)
		; /* make_packet's 16 reserved bytes */
	else if (oi.fixed_payload >= 0)
		p.payload = std::span(kFixed, size_t(oi.fixed_payload)); /* ATOMIC_WRITE: 8 B */
	else
		p.payload = oi.has_payload ? payload : std::span<const uint8_t>{};
	return p;
}

void expect_same_fields(const r::Packet &a, const r::Packet &b)
{
	EXPECT_EQ(a.eth.dst, b.eth.dst);
	EXPECT_EQ(a.eth.src, b.eth.src);
	EXPECT_EQ(a.eth.has_vlan, b.eth.has_vlan);
	if (a.eth.has_vlan) {
		EXPECT_EQ(a.eth.vlan_tci, b.eth.vlan_tci);
	}
	EXPECT_EQ(a.ip_version, b.ip_version);
	if (a.ip_version == r::IpVersion::v4) {
		EXPECT_EQ(a.ip4.tos, b.ip4.tos);
		EXPECT_EQ(a.ip4.ttl, b.ip4.ttl);
		EXPECT_EQ(a.ip4.id, b.ip4.id);
		EXPECT_EQ(a.ip4.src, b.ip4.src);
		EXPECT_EQ(a.ip4.dst, b.ip4.dst);
	} else {
		EXPECT_EQ(a.ip6.traffic_class, b.ip6.traffic_class);
		EXPECT_EQ(a.ip6.flow_label, b.ip6.flow_label);
		EXPECT_EQ(a.ip6.hop_limit, b.ip6.hop_limit);
		EXPECT_EQ(a.ip6.src, b.ip6.src);
		EXPECT_EQ(a.ip6.dst, b.ip6.dst);
	}
	EXPECT_EQ(a.udp.src_port, b.udp.src_port);
	EXPECT_EQ(b.udp.dst_port, r::kRoceV2UdpPort);
	EXPECT_EQ(a.bth.opcode, b.bth.opcode);
	EXPECT_EQ(a.bth.se, b.bth.se);
	EXPECT_EQ(a.bth.mig_req, b.bth.mig_req);
	EXPECT_EQ(a.bth.pkey, b.bth.pkey);
	EXPECT_EQ(a.bth.becn, b.bth.becn);
	EXPECT_EQ(a.bth.fecn, b.bth.fecn);
	EXPECT_EQ(a.bth.dest_qp, b.bth.dest_qp & 0xFFFFFF);
	EXPECT_EQ(a.bth.ack_req, b.bth.ack_req);
	EXPECT_EQ(a.bth.psn, b.bth.psn);
	const uint16_t m = b.ext_mask;
	EXPECT_EQ(m, r::opcode_info(a.bth.opcode).ext_mask);
	if (r::has_ext(m, r::Ext::RDETH)) {
		EXPECT_EQ(a.rdeth.ee_context, b.rdeth.ee_context);
	}
	if (r::has_ext(m, r::Ext::DETH)) {
		EXPECT_EQ(a.deth.qkey, b.deth.qkey);
		EXPECT_EQ(a.deth.src_qp, b.deth.src_qp);
	}
	if (r::has_ext(m, r::Ext::FETH)) {
		EXPECT_EQ(a.feth.value, b.feth.value);
	}
	if (r::has_ext(m, r::Ext::RETH)) {
		EXPECT_EQ(a.reth.va, b.reth.va);
		EXPECT_EQ(a.reth.rkey, b.reth.rkey);
		EXPECT_EQ(a.reth.dma_len, b.reth.dma_len);
	}
	if (r::has_ext(m, r::Ext::AtomicETH)) {
		EXPECT_EQ(a.atomic_eth.va, b.atomic_eth.va);
		EXPECT_EQ(a.atomic_eth.rkey, b.atomic_eth.rkey);
		EXPECT_EQ(a.atomic_eth.swap_add, b.atomic_eth.swap_add);
		EXPECT_EQ(a.atomic_eth.compare, b.atomic_eth.compare);
	}
	if (r::has_ext(m, r::Ext::AETH)) {
		EXPECT_EQ(a.aeth.syndrome, b.aeth.syndrome);
		EXPECT_EQ(a.aeth.msn, b.aeth.msn);
	}
	if (r::has_ext(m, r::Ext::AtomicAckETH)) {
		EXPECT_EQ(a.atomic_ack_eth.orig, b.atomic_ack_eth.orig);
	}
	if (r::has_ext(m, r::Ext::ImmDt)) {
		EXPECT_EQ(a.imm, b.imm);
	}
	if (r::has_ext(m, r::Ext::IETH)) {
		EXPECT_EQ(a.ieth_rkey, b.ieth_rkey);
	}
	ASSERT_EQ(a.payload.size(), b.payload.size());
	EXPECT_TRUE(std::equal(a.payload.begin(), a.payload.end(), b.payload.begin()));
	EXPECT_EQ((b.payload.size() + b.bth.pad_cnt) % 4, 0u);
}

Bytes encode(const r::Packet &p, const r::BuildOptions &o = {})
{
	Bytes b(r::kIcrcScratchLen + 64);
	r::BuildResult br = r::build(p, b, o);
	EXPECT_TRUE(br) << r::error_name(br.error);
	b.resize(br ? br.len : 0);
	return b;
}

const uint8_t kPayload[300] = {'h', 'e', 'l', 'l', 'o', ',', ' ', 'R', 'o', 'C', 'E'};

/* The ICRC's variant fields set to ones (IBA 14.x: IPv4 TOS, TTL, checksum; IPv6 class, flow
 * label, hop limit; UDP checksum; BTH resv8a), written here from the spec, independent of the
 * library's masking. */
void mask_icrc_variant(uint8_t *ip, bool v6, size_t ihl)
{
	if (v6) {
		ip[0] |= 0x0F;
		ip[1] = ip[2] = ip[3] = ip[7] = 0xFF;
	} else {
		ip[1] = ip[8] = ip[10] = ip[11] = 0xFF;
	}
	ip[ihl + 6] = ip[ihl + 7] = ip[ihl + 8 + 4] = 0xFF;
}

} /* namespace */

/* ---------------------------------------------------------------------------------------
 * First test on purpose: the first ICRC of the process is when a library used to select the
 * algorithm (and raise EAL's SIMD width, and capture the log). It must change nothing global. */
TEST(RoceCrc, IcrcHasNoProcessWideSideEffects)
{
	char text[256] = {};
	FILE *mine = fmemopen(text, sizeof(text) - 1, "w");
	ASSERT_NE(mine, nullptr);
	ASSERT_EQ(rte_openlog_stream(mine), 0);
	const uint16_t width = rte_vect_get_max_simd_bitwidth();
	const uint32_t global = rte_log_get_global_level();
	r::Packet p = r::make_packet(r::Opcode::RC_SEND_ONLY);
	std::vector<uint8_t> f(256);
	ASSERT_TRUE(r::build(p, f));
	r::Packet q;
	r::ParseStats st;
	EXPECT_EQ(r::parse({f.data(), r::build(p, f).len}, q, st),
		  r::ParseError::ok); /* ICRC computed */
	int alg = r::icrc_alg();
	EXPECT_TRUE(alg == RTE_NET_CRC_SCALAR || alg == RTE_NET_CRC_SSE42 ||
		    alg == RTE_NET_CRC_AVX512)
		<< alg;
	EXPECT_EQ(rte_vect_get_max_simd_bitwidth(), width);
	EXPECT_EQ(rte_log_get_stream(), mine);
	EXPECT_EQ(rte_log_get_global_level(), global);
	rte_openlog_stream(nullptr);
	fclose(mine);
	/* What rte_net_crc said when it chose (its own INFO lines, into the application's stream)
	 * agrees with icrc_alg(): without EAL the SIMD width is 0, so scalar. */
	std::string said(text);
	if (said.find("can't use SSE") != std::string::npos) {
		EXPECT_EQ(alg, RTE_NET_CRC_SCALAR) << said;
	} else if (said.find("can't use AVX512") != std::string::npos) {
		EXPECT_EQ(alg, RTE_NET_CRC_SSE42) << said;
	}
}

/* compute_icrc takes one path up to 512 B of datagram (a masked copy, one CRC) and another above
 * (the masked headers, then the rest in place): both give the CRC of the masked input as the
 * Annex defines it, for IPv4 and IPv6, around the switch and at the largest datagram. */
TEST(RoceCrc, IcrcInPlaceEqualsCrcOfMaskedCopy)
{
	/* Each variant the CPU has (the width raised so that SSE4.2 and AVX512 can be chosen). */
	const uint16_t width = rte_vect_get_max_simd_bitwidth();
	const int before = r::icrc_alg();
	ASSERT_EQ(rte_vect_set_max_simd_bitwidth(RTE_VECT_SIMD_512), 0);
	std::mt19937 rng(24);
	for (int want :
	     {int(RTE_NET_CRC_SCALAR), int(RTE_NET_CRC_SSE42), int(RTE_NET_CRC_AVX512)}) {
		const int alg = r::icrc_set_alg(want);
		for (bool v6 : {false, true})
			for (size_t n : {size_t(60), size_t(511), size_t(512), size_t(513),
					 size_t(4136), r::kMaxIcrcDatagramLen}) {
				const size_t ihl = v6 ? r::kIpv6HdrLen : r::kIpv4HdrMinLen;
				std::vector<uint8_t> d(n), m(n + 8, 0xFF);
				for (auto &b : d)
					b = uint8_t(rng());
				std::memcpy(m.data() + 8, d.data(), n);
				uint8_t *ip = m.data() + 8;
				mask_icrc_variant(ip, v6, ihl);
				uint32_t got = 0;
				ASSERT_TRUE(r::compute_icrc(
					d, v6 ? r::IpVersion::v6 : r::IpVersion::v4, ihl, got));
				EXPECT_EQ(got, r::crc32_eth(m.data(), uint32_t(m.size())))
					<< (v6 ? "IPv6 " : "IPv4 ") << n << " B, "
					<< r::crc_alg_name(alg);
			}
	}
	rte_vect_set_max_simd_bitwidth(width);
	r::icrc_set_alg(before);
}

/* CRC-32 bit by bit (zlib's convention: the CRC so far in, the CRC out): the reference the
 * folding routines are checked against, independent of ISA-L and rte_net_crc. */
uint32_t bitwise_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	uint32_t c = ~crc;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int b = 0; b < 8; b++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
	}
	return ~c;
}

/* crc32_copy / crc32_update, each variant the CPU has: the CRC bit by bit, continued from zero
 * and from another CRC, every length 0..300 (below, at and across the 64- and 128-byte blocks)
 * and long ones, from and to unaligned addresses; the copy exact, nothing written around it. */
TEST(RoceCrc, CopyFoldEqualsBitwiseCrc)
{
	std::mt19937 rng(2024);
	Bytes src(16384 + 64);
	for (auto &b : src)
		b = uint8_t(rng());
	EXPECT_EQ(bitwise_crc32(0, src.data(), 4096), r::crc32_eth(src.data(), 4096));
	std::vector<size_t> lens;
	for (size_t n = 0; n <= 300; n++)
		lens.push_back(n);
	for (size_t n : {511, 512, 513, 1023, 4096, 4133, 9000, 16384})
		lens.push_back(n);
	int variants = 0;
	for (r::CrcCopyImpl impl :
	     {r::CrcCopyImpl::plain, r::CrcCopyImpl::pclmul128, r::CrcCopyImpl::vpclmul256}) {
		if (!r::crc_copy_supported(impl))
			continue; /* the CPU lacks it: would run plain, already checked */
		variants++;
		for (size_t n : lens)
			for (size_t so : {0, 1, 3})
				for (size_t dof : {0, 5})
					for (uint32_t c0 : {0u, 0x9E3779B9u}) {
						const uint8_t *s = src.data() + so;
						Bytes dst(n + 32, 0xA5);
						uint32_t want = bitwise_crc32(c0, s, n);
						ASSERT_EQ(r::crc32_copy(impl, c0,
									dst.data() + 8 + dof, s, n),
							  want)
							<< r::crc_copy_impl_name(impl) << ' ' << n
							<< " B, src +" << so << ", dst +" << dof;
						ASSERT_TRUE(std::equal(s, s + n,
								       dst.begin() + 8 + dof));
						ASSERT_TRUE(std::all_of(
							dst.begin(), dst.begin() + 8 + dof,
							[](uint8_t b) { return b == 0xA5; }));
						ASSERT_TRUE(std::all_of(
							dst.begin() + 8 + dof + n, dst.end(),
							[](uint8_t b) { return b == 0xA5; }));
						ASSERT_EQ(r::crc32_update(impl, c0, s, n), want)
							<< r::crc_copy_impl_name(impl) << ' ' << n
							<< " B";
					}
	}
	EXPECT_GE(variants, 1);
	/* Chained as zlib's crc32: the CRC of a..b from two calls. */
	Bytes d(5000);
	uint32_t c = r::crc32_copy(0, d.data(), src.data(), 1234);
	c = r::crc32_copy(c, d.data() + 1234, src.data() + 1234, 5000 - 1234);
	EXPECT_EQ(c, bitwise_crc32(0, src.data(), 5000));
}

/* build() folds the ICRC into the payload copy above 512 B of datagram: with each variant
 * (chosen through icrc_set_alg, EAL's width raised), for IPv4 and IPv6, opcodes with and
 * without extension headers, payloads around the switch and the block sizes, the wire ICRC is
 * the CRC of the masked datagram as the Annex defines it (rte_net_crc over a masked copy), and
 * parse() accepts the frame. */
TEST(RoceIcrc, FusedBuildEqualsCrcOfMaskedCopy)
{
	const uint16_t width = rte_vect_get_max_simd_bitwidth();
	const int before = r::icrc_alg();
	ASSERT_EQ(rte_vect_set_max_simd_bitwidth(RTE_VECT_SIMD_512), 0);
	std::mt19937 rng(7);
	Bytes payload(4200);
	for (auto &b : payload)
		b = uint8_t(rng());
	std::vector<r::CrcCopyImpl> seen;
	/* The last: EAL's x86 default width, where the check in place runs on the 256-bit fold
	 * too (parse below), not on ISA-L. */
	const std::pair<int, rte_vect_max_simd> configs[] = {
		{RTE_NET_CRC_SCALAR, RTE_VECT_SIMD_512},
		{RTE_NET_CRC_SSE42, RTE_VECT_SIMD_512},
		{RTE_NET_CRC_AVX512, RTE_VECT_SIMD_512},
		{RTE_NET_CRC_AVX512, RTE_VECT_SIMD_256}};
	for (auto [want, simd] : configs) {
		ASSERT_EQ(rte_vect_set_max_simd_bitwidth(simd), 0);
		r::icrc_set_alg(want);
		seen.push_back(r::crc_copy_impl());
		for (bool v6 : {false, true})
			for (r::Opcode op : {r::Opcode::RC_SEND_ONLY, r::Opcode::RC_RDMA_WRITE_ONLY,
					     r::Opcode::UD_SEND_ONLY})
				for (size_t n :
				     {300, 440, 447, 448, 449, 460, 1021, 1024, 4095, 4096, 4200}) {
					r::Packet p =
						sample(op, v6, false, std::span(payload.data(), n));
					Bytes f = encode(p);
					ASSERT_FALSE(f.empty());
					const size_t eth = r::kEthHdrLen;
					const size_t ihl = v6 ? r::kIpv6HdrLen : r::kIpv4HdrMinLen;
					Bytes m(f.size() - eth - 4 + 8, 0xFF);
					std::copy(f.begin() + eth, f.end() - 4, m.begin() + 8);
					uint8_t *ip = m.data() + 8;
					mask_icrc_variant(ip, v6, ihl);
					const uint32_t want_icrc =
						r::crc32_eth(m.data(), uint32_t(m.size()));
					const uint8_t *w = f.data() + f.size() - 4;
					const uint32_t wire = uint32_t(w[0]) | uint32_t(w[1]) << 8 |
							      uint32_t(w[2]) << 16 |
							      uint32_t(w[3]) << 24;
					EXPECT_EQ(wire, want_icrc)
						<< r::crc_copy_impl_name(r::crc_copy_impl()) << ' '
						<< (v6 ? "IPv6 " : "IPv4 ") << r::name(op) << ' '
						<< n << " B";
					r::Packet q;
					r::ParseStats st;
					EXPECT_EQ(r::parse(f, q, st), r::ParseError::ok);
					ASSERT_EQ(q.payload.size(), n);
					EXPECT_TRUE(std::equal(q.payload.begin(), q.payload.end(),
							       payload.begin()));
				}
	}
	rte_vect_set_max_simd_bitwidth(width);
	r::icrc_set_alg(before);
	/* Scalar copies then CRCs; SSE4.2 folds on 128 bits; otherwise 256 where the CPU can. */
	EXPECT_EQ(seen[0], r::CrcCopyImpl::plain);
	if (r::crc_copy_supported(r::CrcCopyImpl::pclmul128)) {
		EXPECT_EQ(seen[1], r::CrcCopyImpl::pclmul128);
		const r::CrcCopyImpl wide = r::crc_copy_supported(r::CrcCopyImpl::vpclmul256)
						    ? r::CrcCopyImpl::vpclmul256
						    : r::CrcCopyImpl::pclmul128;
		EXPECT_EQ(seen[2], wide);
		EXPECT_EQ(seen[3], wide);
	}
}

TEST(RoceCrc, DpdkCrcIsZlibCrc32)
{
	const char s[] = "123456789";
	EXPECT_EQ(r::crc32_eth(s, 9), 0xCBF43926u);
}

TEST(RoceOpcodes, NamesAndLayout)
{
	struct {
		uint8_t op;
		const char *name;
	} cases[] = {
		{0x00, "RC_SEND_FIRST"},
		{0x04, "RC_SEND_ONLY"},
		{0x05, "RC_SEND_ONLY_WITH_IMMEDIATE"},
		{0x0A, "RC_RDMA_WRITE_ONLY"},
		{0x0C, "RC_RDMA_READ_REQUEST"},
		{0x0D, "RC_RDMA_READ_RESPONSE_FIRST"},
		{0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE"},
		{0x0F, "RC_RDMA_READ_RESPONSE_LAST"},
		{0x10, "RC_RDMA_READ_RESPONSE_ONLY"},
		{0x11, "RC_ACKNOWLEDGE"},
		{0x12, "RC_ATOMIC_ACKNOWLEDGE"},
		{0x13, "RC_COMPARE_SWAP"},
		{0x14, "RC_FETCH_ADD"},
		{0x16, "RC_SEND_LAST_WITH_INVALIDATE"},
		{0x17, "RC_SEND_ONLY_WITH_INVALIDATE"},
		{0x20, "UC_SEND_FIRST"},
		{0x2B, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE"},
		{0x64, "UD_SEND_ONLY"},
		{0x65, "UD_SEND_ONLY_WITH_IMMEDIATE"},
		{0x81, "CNP"},
		{0x15, "UNKNOWN"},
		{0x18, "UNKNOWN"},
		{0x2C, "UNKNOWN"},
		{0x60, "UNKNOWN"},
		{0x80, "UNKNOWN"},
		{0xFF, "UNKNOWN"},
	};
	for (auto &c : cases)
		EXPECT_EQ(r::name(c.op), c.name) << int(c.op);
	/* UC has no READ/ATOMIC; UD only SEND_ONLY(_IMM). */
	for (int op = 0x2C; op < 0x40; ++op)
		EXPECT_FALSE(r::opcode_info(uint8_t(op)).valid) << op;
	for (int op = 0x60; op < 0x80; ++op)
		EXPECT_EQ(r::opcode_info(uint8_t(op)).valid, op == 0x64 || op == 0x65) << op;
	using E = r::Ext;
	auto &wi = r::opcode_info(r::Opcode::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE);
	ASSERT_EQ(wi.num_ext, 2);
	EXPECT_EQ(wi.ext[0], E::RETH);
	EXPECT_EQ(wi.ext[1], E::ImmDt);
	auto &aa = r::opcode_info(r::Opcode::RC_ATOMIC_ACKNOWLEDGE);
	ASSERT_EQ(aa.num_ext, 2);
	EXPECT_EQ(aa.ext[0], E::AETH);
	EXPECT_EQ(aa.ext[1], E::AtomicAckETH);
	EXPECT_EQ(aa.ext_len, 12);
	auto &ui = r::opcode_info(r::Opcode::UD_SEND_ONLY_WITH_IMMEDIATE);
	ASSERT_EQ(ui.num_ext, 2);
	EXPECT_EQ(ui.ext[0], E::DETH);
	EXPECT_EQ(ui.ext[1], E::ImmDt);
	EXPECT_EQ(r::opcode_info(r::Opcode::RC_RDMA_READ_RESPONSE_MIDDLE).ext_mask, 0);
	EXPECT_EQ(r::opcode_info(r::Opcode::RC_COMPARE_SWAP).ext_len, 28);
	EXPECT_FALSE(r::opcode_info(r::Opcode::RC_RDMA_READ_REQUEST).has_payload);
	EXPECT_FALSE(r::opcode_info(r::Opcode::RC_ACKNOWLEDGE).has_payload);
	EXPECT_EQ(r::opcode_info(r::Opcode::RC_SEND_ONLY).transport, r::Transport::RC);
	EXPECT_EQ(r::opcode_info(r::Opcode::UC_SEND_ONLY).transport, r::Transport::UC);
	EXPECT_EQ(r::opcode_info(r::Opcode::UD_SEND_ONLY).transport, r::Transport::UD);
	EXPECT_EQ(r::opcode_info(r::Opcode::CNP).transport, r::Transport::CNP);
	EXPECT_EQ(r::flow_label_to_udp_sport(0), 0xC000);
}

/* ---------------------------------------------------------------------------------------
 * The 8 published vectors: decode, verify, re-encode. */
TEST(RoceIcrc, PublishedVectors)
{
	SKIP_WITHOUT_CORPUS();
	std::ifstream in(shared_data() + "/roce/icrc-vectors.txt");
	ASSERT_TRUE(in) << "cannot open " << shared_data()
			<< "/roce/icrc-vectors.txt (set GAUDI_SHARED_DATA)";
	std::string line, wire;
	int n = 0;
	while (std::getline(in, line)) {
		if (line.rfind("len=", 0) == 0) {
			auto k = line.find("icrc_wire=");
			wire = line.substr(k + 10, 8);
			continue;
		}
		if (line.empty() || line[0] == '#' || line.find('=') != std::string::npos ||
		    line.find(' ') != std::string::npos)
			continue;
		Bytes f = from_hex(line);
		ASSERT_GE(f.size(), 60u);
		SCOPED_TRACE("vector " + std::to_string(n + 1));
		r::Packet p;
		r::ParseStats st;
		ASSERT_EQ(r::parse(f, p, st), r::ParseError::ok);
		EXPECT_TRUE(p.icrc_ok);
		EXPECT_EQ(Bytes(f.end() - 4, f.end()), from_hex(wire));
		/* Default builder (lengths, checksum, pad, ICRC computed) reproduces the frame. */
		r::BuildOptions o;
		o.trailer = true;
		o.udp_checksum = p.udp.checksum != 0; /* scapy vectors carry a real UDP checksum */
		EXPECT_EQ(encode(p, o), f);
		EXPECT_EQ(encode(p, r::BuildOptions::raw()), f);
		++n;
	}
	EXPECT_EQ(n, 8);
}

TEST(RoceIcrc, MaskedFieldsDoNotChangeIt)
{
	for (bool v6 : {false, true}) {
		r::Packet p = sample(r::Opcode::RC_SEND_ONLY, v6, false, std::span(kPayload, 13));
		Bytes a = encode(p);
		r::Packet q = p;
		q.ip4.tos ^= 0xFF;
		q.ip4.ttl ^= 0x55;
		q.ip6.traffic_class ^= 0x3;
		q.ip6.flow_label ^= 0xFFFFF;
		q.ip6.hop_limit ^= 1;
		q.bth.fecn = !q.bth.fecn;
		q.bth.becn = !q.bth.becn;
		q.bth.resv6 = 0x2A;
		q.udp.checksum = 0xBEEF;
		q.eth.src[0] ^= 0xFF; /* Ethernet is not covered */
		Bytes b = encode(q);
		EXPECT_EQ(Bytes(a.end() - 4, a.end()), Bytes(b.end() - 4, b.end())) << "v6=" << v6;
		r::Packet s = p;
		s.bth.dest_qp ^= 1;
		Bytes c = encode(s);
		EXPECT_NE(Bytes(a.end() - 4, a.end()), Bytes(c.end() - 4, c.end()));
		s = p;
		s.bth.resv7 = 1; /* not masked */
		c = encode(s);
		EXPECT_NE(Bytes(a.end() - 4, a.end()), Bytes(c.end() - 4, c.end()));
	}
}

/* ---------------------------------------------------------------------------------------
 * The shared hardware captures: every RoCE frame decodes, verifies and re-encodes
 * byte-identically; every other frame is reported as not RoCE. */
struct CaptureCase {
	const char *file;
	int frames;
	int roce;
};

void PrintTo(const CaptureCase &c, std::ostream *os)
{
	*os << c.file;
}

class RoceCapture : public ::testing::TestWithParam<CaptureCase> {};

TEST_P(RoceCapture, DecodeVerifyReencode)
{
	const CaptureCase c = GetParam();
	SKIP_WITHOUT_CORPUS();
	std::vector<Frame> frames;
	ASSERT_TRUE(read_pcap(shared_data() + "/pcap/roce/" + c.file, frames)) << c.file;
	EXPECT_EQ(int(frames.size()), c.frames);
	r::ParseStats st;
	int roce = 0, identical_raw = 0, identical_auto = 0;
	for (size_t i = 0; i < frames.size(); ++i) {
		const Bytes &f = frames[i].data;
		SCOPED_TRACE(std::string(c.file) + " frame " + std::to_string(i + 1));
		EXPECT_EQ(f.size(), frames[i].len); /* captures are not snapped */
		r::Packet p;
		r::ParseError e = r::parse(f, p, st);
		if (r::is_not_roce(e))
			continue;
		++roce;
		ASSERT_EQ(e, r::ParseError::ok) << r::error_name(e);
		EXPECT_TRUE(p.icrc_ok);
		EXPECT_TRUE(p.ip_checksum_ok);
		identical_raw += encode(p, r::BuildOptions::raw()) == f;
		r::BuildOptions o;
		o.trailer = true;
		identical_auto += encode(p, o) == f;
	}
	EXPECT_EQ(roce, c.roce);
	EXPECT_EQ(identical_raw, c.roce);
	EXPECT_EQ(identical_auto, c.roce);
	EXPECT_EQ(st.frames, frames.size());
	EXPECT_EQ(st.ok(), uint64_t(c.roce));
	std::printf("[ info ] %s: %zu frames, %d RoCE, %d ICRC ok, %d/%d re-encoded identically\n",
		    c.file, frames.size(), roce, int(st.ok()), identical_auto, roce);
}

INSTANTIATE_TEST_SUITE_P(Shared, RoceCapture,
			 ::testing::Values(CaptureCase{"rc-write-read-hw.pcap", 16, 13},
					   CaptureCase{"rc-write-hw.pcap", 17, 17},
					   CaptureCase{"rc-send-hw.pcap", 9, 9},
					   CaptureCase{"rc-send-multi-qp-hw.pcap", 708, 708}),
			 [](const auto &info) {
				 std::string s = info.param.file;
				 for (char &ch : s)
					 if (!isalnum(static_cast<unsigned char>(ch)))
						 ch = '_';
				 return s;
			 });

TEST(RoceCapture, UdQp1CmIsRoce)
{
	SKIP_WITHOUT_CORPUS();
	std::vector<Frame> frames;
	ASSERT_TRUE(read_pcap(shared_data() + "/pcap/roce/rc-write-read-hw.pcap", frames));
	r::ParseStats st;
	r::Packet p;
	ASSERT_EQ(r::parse(frames[3].data, p, st), r::ParseError::ok); /* frame 4: CM REQ */
	EXPECT_EQ(p.bth.opcode, uint8_t(r::Opcode::UD_SEND_ONLY));
	EXPECT_EQ(p.bth.dest_qp, 1u);
	EXPECT_EQ(p.deth.qkey, 0x80010000u);
	/* frame 8: ACK (vector V5) */
	ASSERT_EQ(r::parse(frames[7].data, p, st), r::ParseError::ok);
	EXPECT_EQ(p.bth.opcode, uint8_t(r::Opcode::RC_ACKNOWLEDGE));
	EXPECT_EQ(p.aeth.syndrome, 0);
	EXPECT_EQ(p.aeth.msn, 1u);
	EXPECT_EQ(p.icrc, 0x56cd7bc8u); /* wire c8 7b cd 56, LSB first */
	EXPECT_EQ(r::parse(frames[0].data, p, st), r::ParseError::not_udp); /* SMB over TCP */
}

/* ---------------------------------------------------------------------------------------
 * Every opcode x {IPv4, IPv6} x {VLAN, none} x payload sizes: build -> parse -> same fields
 * -> raw re-encode identical. */
TEST(RoceRoundTrip, EveryOpcode)
{
	int count = 0;
	for (r::Opcode op : r::all_opcodes())
		for (bool v6 : {false, true})
			for (bool vlan : {false, true})
				for (size_t plen : {0, 1, 2, 3, 4, 5, 13, 256, 300}) {
					SCOPED_TRACE(std::string(r::name(op)) +
						     (v6 ? " v6" : " v4") + (vlan ? " vlan" : "") +
						     " plen=" + std::to_string(plen));
					r::Packet p =
						sample(op, v6, vlan, std::span(kPayload, plen));
					Bytes f = encode(p);
					r::Packet q;
					r::ParseStats st;
					ASSERT_EQ(r::parse(f, q, st), r::ParseError::ok)
						<< r::error_name(r::parse(f, q, st));
					EXPECT_TRUE(q.icrc_ok);
					expect_same_fields(p, q);
					EXPECT_EQ(encode(q, r::BuildOptions::raw()), f);
					EXPECT_EQ(f.size(),
						  (vlan ? 18u : 14u) + (v6 ? 40u : 20u) + 8 + 12 +
							  r::opcode_info(op).ext_len +
							  q.payload.size() + q.bth.pad_cnt + 4);
					++count;
				}
	EXPECT_EQ(count, int(r::all_opcodes().size()) * 4 * 9);
}

TEST(RoceRoundTrip, Ipv4OptionsAndTrailer)
{
	const uint8_t opts[4] = {0x01, 0x01, 0x01, 0x00}; /* NOP NOP NOP EOL */
	const uint8_t trailer[6] = {0, 0, 0, 0, 0, 0};
	r::Packet p = sample(r::Opcode::RC_ACKNOWLEDGE, false, false, {});
	p.ip4.options = opts;
	p.trailer = trailer;
	r::BuildOptions o;
	o.trailer = true;
	Bytes f = encode(p, o);
	r::Packet q;
	r::ParseStats st;
	ASSERT_EQ(r::parse(f, q, st), r::ParseError::ok);
	EXPECT_EQ(q.ip4.ihl, 6);
	EXPECT_EQ(q.trailer.size(), 6u);
	EXPECT_EQ(encode(q, r::BuildOptions::raw()), f);
	Bytes small(10);
	r::BuildResult br = r::build(p, small, o);
	EXPECT_EQ(br.error, r::BuildError::buffer_too_small);
	EXPECT_EQ(br.len, f.size());
}

/* ---------------------------------------------------------------------------------------
 * Raw builder: forced invalid fields give the precise parser error. */
TEST(RoceRaw, ForcedFieldsGivePreciseErrors)
{
	r::Packet base = sample(r::Opcode::RC_SEND_ONLY, false, false, std::span(kPayload, 13));
	Bytes good = encode(base);
	r::Packet p;
	r::ParseStats st;
	ASSERT_EQ(r::parse(good, p, st), r::ParseError::ok);
	auto check = [&](auto mutate, r::ParseError want, bool v6 = false) {
		Bytes g = v6 ? encode(sample(r::Opcode::RC_SEND_ONLY, true, false,
					     std::span(kPayload, 13)))
			     : good;
		r::Packet q;
		r::ParseStats s2;
		EXPECT_EQ(r::parse(g, q, s2), r::ParseError::ok);
		mutate(q);
		Bytes f = encode(q, r::BuildOptions::raw());
		r::Packet out;
		EXPECT_EQ(r::parse(f, out, s2), want) << r::error_name(r::parse(f, out, s2));
		EXPECT_EQ(s2.count(want), 1u);
	};
	check([](r::Packet &q) { q.icrc ^= 0x80000000; }, r::ParseError::icrc_mismatch);
	check([](r::Packet &q) { q.icrc ^= 1; }, r::ParseError::icrc_mismatch, true);
	check([](r::Packet &q) { q.ip4.checksum ^= 1; }, r::ParseError::bad_ip_checksum);
	check([](r::Packet &q) { q.ip4.total_len += 4; }, r::ParseError::ip_len_mismatch);
	check([](r::Packet &q) { q.ip6.payload_len += 1; }, r::ParseError::ip_len_mismatch, true);
	check([](r::Packet &q) { q.ip4.version = 6; }, r::ParseError::bad_ip_version);
	check([](r::Packet &q) { q.ip4.ihl = 4; }, r::ParseError::bad_ip_header_len);
	check([](r::Packet &q) { q.ip4.flags_frag = 0x2000; }, r::ParseError::ip_fragment);
	check([](r::Packet &q) { q.ip4.protocol = 6; }, r::ParseError::not_udp);
	check([](r::Packet &q) { q.ip6.next_header = 0; }, r::ParseError::not_udp, true);
	check([](r::Packet &q) { q.eth.ether_type = 0x0806; }, r::ParseError::not_ip);
	check([](r::Packet &q) { q.udp.dst_port = 4790; }, r::ParseError::not_roce);
	check([](r::Packet &q) { q.udp.length -= 4; }, r::ParseError::udp_len_mismatch);
	check([](r::Packet &q) { q.bth.tver = 1; }, r::ParseError::bad_tver);
	check([](r::Packet &q) { q.bth.opcode = 0x15; }, r::ParseError::unknown_opcode);
	check([](r::Packet &q) { q.bth.opcode = 0x11; },
	      r::ParseError::unexpected_payload); /* ACK + data */
	check([](r::Packet &q) { q.bth.pad_cnt = 1; },
	      r::ParseError::icrc_mismatch); /* valid shape, wrong CRC */
	check([](r::Packet &q) { q.pad = q.pad.first(2); }, r::ParseError::ip_len_mismatch);
	/* Consistent lengths but payload+pad not a multiple of 4. */
	check(
		[](r::Packet &q) {
			q.pad = q.pad.first(2);
			q.ip4.total_len -= 1;
			q.udp.length -= 1;
		},
		r::ParseError::bad_pad);
	check(
		[](r::Packet &q) {
			q.bth.opcode =
				0x11; /* ACK: AETH (4 B) present, then only... nothing for ICRC */
			q.payload = {};
			q.pad = {};
			q.ip4.total_len = static_cast<uint16_t>(20 + 8 + 12 + 2);
			q.udp.length = 8 + 12 + 2;
			q.icrc =
				/* 4 bytes still written: IP says they are outside the datagram
				 * (trailer) */
				0;
		},
		r::ParseError::truncated_ext_header);
}

/* ---------------------------------------------------------------------------------------
 * Every prefix of every valid packet is an error, never a crash. */
TEST(RoceRobustness, EveryTruncationIsAnError)
{
	std::vector<Bytes> valid;
	for (r::Opcode op : r::all_opcodes())
		for (bool v6 : {false, true})
			valid.push_back(encode(sample(op, v6, v6, std::span(kPayload, 5))));
	std::vector<Frame> frames;
	read_pcap(shared_data() + "/pcap/roce/rc-write-read-hw.pcap", frames);
	read_pcap(shared_data() + "/pcap/roce/rc-write-hw.pcap", frames);
	for (auto &f : frames)
		valid.push_back(f.data);
	r::ParseStats st;
	uint64_t cuts = 0;
	for (const Bytes &f : valid) {
		r::Packet p;
		r::ParseError full = r::parse(f, p, st);
		for (size_t n = 0; n < f.size(); ++n) {
			/* Exact-size heap copy so that ASan/valgrind catch any read past the
			 * end. */
			std::unique_ptr<uint8_t[]> cut(new uint8_t[n ? n : 1]);
			std::memcpy(cut.get(), f.data(), n);
			r::ParseError e = r::parse(std::span<const uint8_t>(cut.get(), n), p, st);
			EXPECT_NE(e, r::ParseError::ok) << "len " << n << " of " << f.size();
			if (full != r::ParseError::ok)
				continue;
			EXPECT_FALSE(r::is_not_roce(e) && n >= 42) << r::error_name(e);
			++cuts;
		}
	}
	EXPECT_EQ(st.frames, st.errors() + st.ok());
	EXPECT_GT(cuts, 10000u);
	std::printf("[ info ] %llu truncated frames, all rejected\n",
		    static_cast<unsigned long long>(cuts));
}

TEST(RoceRobustness, RandomBytesAndMutations)
{
	std::mt19937_64 rng(20240521);
	r::ParseStats st;
	r::Packet p;
	const int kRandom = 100000;
	for (int i = 0; i < kRandom; ++i) {
		size_t n = rng() % 200;
		std::unique_ptr<uint8_t[]> b(new uint8_t[n ? n : 1]);
		for (size_t k = 0; k < n; ++k)
			b[k] = static_cast<uint8_t>(rng());
		if (n >= 14 && (i & 1)) { /* steer half of them past the Ethernet/IP/UDP checks */
			b[12] = 0x08;
			b[13] = 0x00;
			if (n >= 34) {
				b[14] = 0x45;
				b[23] = 17;
			}
			if (n >= 38) {
				b[36] = 0x12;
				b[37] = 0xB7;
			}
		}
		r::parse(std::span<const uint8_t>(b.get(), n), p, st);
	}
	/* Mutations of valid frames: 1..4 random bytes changed. */
	Bytes f = encode(sample(r::Opcode::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, false, true,
				std::span(kPayload, 37)));
	const int kMut = 100000;
	int ok = 0;
	for (int i = 0; i < kMut; ++i) {
		Bytes g = f;
		int k = 1 + int(rng() % 4);
		for (int j = 0; j < k; ++j)
			g[rng() % g.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
		ok += r::parse(g, p, st) == r::ParseError::ok;
	}
	EXPECT_EQ(st.frames, uint64_t(kRandom + kMut));
	uint64_t sum = 0;
	for (uint64_t c : st.by_result)
		sum += c;
	EXPECT_EQ(sum, st.frames);
	/* Changed bytes covered by the ICRC must be caught: only Ethernet MACs/VLAN and masked
	 * fields may change without an error. */
	EXPECT_LT(ok, kMut / 3);
	EXPECT_GT(st.count(r::ParseError::icrc_mismatch), 0u);
	EXPECT_GT(st.count(r::ParseError::not_ip), 0u);
	std::printf("[ info ] %llu random/mutated frames:",
		    static_cast<unsigned long long>(st.frames));
	for (size_t i = 0; i < r::kNumParseErrors; ++i)
		if (st.by_result[i])
			std::printf(" %s=%llu",
				    std::string(r::error_name(r::ParseError(i))).c_str(),
				    static_cast<unsigned long long>(st.by_result[i]));
	std::printf("\n");
}

TEST(RoceIcrc, TooLongDatagram)
{
	static uint8_t big[10000];
	r::Packet p = sample(r::Opcode::RC_SEND_ONLY, false, false, std::span(big, sizeof(big)));
	Bytes f = encode(p); /* fits the 16 KiB scratch */
	r::Packet q;
	r::ParseStats st;
	EXPECT_EQ(r::parse(f, q, st), r::ParseError::ok);
	static uint8_t huge[r::kIcrcScratchLen];
	p.payload = std::span(huge, sizeof(huge));
	Bytes out(sizeof(huge) + 200);
	EXPECT_EQ(r::build(p, out).error, r::BuildError::payload_too_long);
}
