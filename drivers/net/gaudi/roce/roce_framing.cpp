/* SPDX-License-Identifier: BSD-3-Clause */
/* RoCE v2 framing: see roce_framing.h for the wire format and the sources of each fact. */
#include "roce_framing.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace gaudi::roce {

namespace {

/* ---------------------------------------------------------------------------------------
 * Big-endian load/store on byte pointers (no alignment assumptions).
 * --------------------------------------------------------------------------------------- */
inline uint16_t ld16(const uint8_t *p)
{
	return static_cast<uint16_t>(p[0] << 8 | p[1]);
}
inline uint32_t ld24(const uint8_t *p)
{
	return uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2];
}
inline uint32_t ld32(const uint8_t *p)
{
	return uint32_t(p[0]) << 24 | ld24(p + 1);
}
inline uint64_t ld64(const uint8_t *p)
{
	return uint64_t(ld32(p)) << 32 | ld32(p + 4);
}
inline void st16(uint8_t *p, uint16_t v)
{
	p[0] = uint8_t(v >> 8);
	p[1] = uint8_t(v);
}
inline void st24(uint8_t *p, uint32_t v)
{
	p[0] = uint8_t(v >> 16);
	p[1] = uint8_t(v >> 8);
	p[2] = uint8_t(v);
}
inline void st32(uint8_t *p, uint32_t v)
{
	p[0] = uint8_t(v >> 24);
	st24(p + 1, v);
}
inline void st64(uint8_t *p, uint64_t v)
{
	st32(p, uint32_t(v >> 32));
	st32(p + 4, uint32_t(v));
}

/* ---------------------------------------------------------------------------------------
 * Opcode table. Per operation (low 5 bits) the extension headers and whether data follows,
 * IBA Vol 1 9.2 / Table 38 as encoded in Linux ib_pack.h and rxe_opcode.c.
 * --------------------------------------------------------------------------------------- */
struct OpDef {
	uint8_t code;
	std::string_view name;
	uint16_t ext;
	bool payload;
	int16_t fixed = -1;
};

/* Datagrams above this length have their payload copied and CRC'd in one pass (build): the
 * length up to which compute_icrc takes rte_net_crc over a masked copy, faster for short ones.
 * Without libisal there is no incremental CRC to continue, so never. */
#ifdef GAUDI_ROCE_ISAL
constexpr size_t kIcrcFuseMin = 512;
#else
constexpr size_t kIcrcFuseMin = SIZE_MAX;
#endif

constexpr uint16_t kNone = 0;
constexpr uint16_t E(Ext e)
{
	return static_cast<uint16_t>(e);
}
constexpr uint16_t kRd = Ext::RDETH | Ext::DETH; /* RD requests */
constexpr uint16_t kRdR = E(Ext::RDETH);	 /* RD responses */

constexpr OpDef kOps[] = {
	{0x00, "RC_SEND_FIRST", kNone, true},
	{0x01, "RC_SEND_MIDDLE", kNone, true},
	{0x02, "RC_SEND_LAST", kNone, true},
	{0x03, "RC_SEND_LAST_WITH_IMMEDIATE", E(Ext::ImmDt), true},
	{0x04, "RC_SEND_ONLY", kNone, true},
	{0x05, "RC_SEND_ONLY_WITH_IMMEDIATE", E(Ext::ImmDt), true},
	{0x06, "RC_RDMA_WRITE_FIRST", E(Ext::RETH), true},
	{0x07, "RC_RDMA_WRITE_MIDDLE", kNone, true},
	{0x08, "RC_RDMA_WRITE_LAST", kNone, true},
	{0x09, "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", E(Ext::ImmDt), true},
	{0x0A, "RC_RDMA_WRITE_ONLY", E(Ext::RETH), true},
	{0x0B, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", Ext::RETH | Ext::ImmDt, true},
	{0x0C, "RC_RDMA_READ_REQUEST", E(Ext::RETH), false},
	{0x0D, "RC_RDMA_READ_RESPONSE_FIRST", E(Ext::AETH), true},
	{0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE", kNone, true},
	{0x0F, "RC_RDMA_READ_RESPONSE_LAST", E(Ext::AETH), true},
	{0x10, "RC_RDMA_READ_RESPONSE_ONLY", E(Ext::AETH), true},
	{0x11, "RC_ACKNOWLEDGE", E(Ext::AETH), false},
	{0x12, "RC_ATOMIC_ACKNOWLEDGE", Ext::AETH | Ext::AtomicAckETH, false},
	{0x13, "RC_COMPARE_SWAP", E(Ext::AtomicETH), false},
	{0x14, "RC_FETCH_ADD", E(Ext::AtomicETH), false},
	{0x16, "RC_SEND_LAST_WITH_INVALIDATE", E(Ext::IETH), true},
	{0x17, "RC_SEND_ONLY_WITH_INVALIDATE", E(Ext::IETH), true},
	{0x1C, "RC_FLUSH", Ext::FETH | Ext::RETH, false},
	{0x1D, "RC_ATOMIC_WRITE", E(Ext::RETH), true, 8},

	{0x20, "UC_SEND_FIRST", kNone, true},
	{0x21, "UC_SEND_MIDDLE", kNone, true},
	{0x22, "UC_SEND_LAST", kNone, true},
	{0x23, "UC_SEND_LAST_WITH_IMMEDIATE", E(Ext::ImmDt), true},
	{0x24, "UC_SEND_ONLY", kNone, true},
	{0x25, "UC_SEND_ONLY_WITH_IMMEDIATE", E(Ext::ImmDt), true},
	{0x26, "UC_RDMA_WRITE_FIRST", E(Ext::RETH), true},
	{0x27, "UC_RDMA_WRITE_MIDDLE", kNone, true},
	{0x28, "UC_RDMA_WRITE_LAST", kNone, true},
	{0x29, "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", E(Ext::ImmDt), true},
	{0x2A, "UC_RDMA_WRITE_ONLY", E(Ext::RETH), true},
	{0x2B, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", Ext::RETH | Ext::ImmDt, true},

	{0x40, "RD_SEND_FIRST", kRd, true},
	{0x41, "RD_SEND_MIDDLE", kRd, true},
	{0x42, "RD_SEND_LAST", kRd, true},
	{0x43, "RD_SEND_LAST_WITH_IMMEDIATE", kRd | Ext::ImmDt, true},
	{0x44, "RD_SEND_ONLY", kRd, true},
	{0x45, "RD_SEND_ONLY_WITH_IMMEDIATE", kRd | Ext::ImmDt, true},
	{0x46, "RD_RDMA_WRITE_FIRST", kRd | Ext::RETH, true},
	{0x47, "RD_RDMA_WRITE_MIDDLE", kRd, true},
	{0x48, "RD_RDMA_WRITE_LAST", kRd, true},
	{0x49, "RD_RDMA_WRITE_LAST_WITH_IMMEDIATE", kRd | Ext::ImmDt, true},
	{0x4A, "RD_RDMA_WRITE_ONLY", kRd | Ext::RETH, true},
	{0x4B, "RD_RDMA_WRITE_ONLY_WITH_IMMEDIATE", kRd | Ext::RETH | Ext::ImmDt, true},
	{0x4C, "RD_RDMA_READ_REQUEST", kRd | Ext::RETH, false},
	{0x4D, "RD_RDMA_READ_RESPONSE_FIRST", kRdR | Ext::AETH, true},
	{0x4E, "RD_RDMA_READ_RESPONSE_MIDDLE", kRdR, true},
	{0x4F, "RD_RDMA_READ_RESPONSE_LAST", kRdR | Ext::AETH, true},
	{0x50, "RD_RDMA_READ_RESPONSE_ONLY", kRdR | Ext::AETH, true},
	{0x51, "RD_ACKNOWLEDGE", kRdR | Ext::AETH, false},
	{0x52, "RD_ATOMIC_ACKNOWLEDGE", kRdR | Ext::AETH | Ext::AtomicAckETH, false},
	{0x53, "RD_COMPARE_SWAP", kRd | Ext::AtomicETH, false},
	{0x54, "RD_FETCH_ADD", kRd | Ext::AtomicETH, false},
	{0x55, "RD_RESYNC", kRd, false},

	{0x64, "UD_SEND_ONLY", E(Ext::DETH), true},
	{0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", Ext::DETH | Ext::ImmDt, true},

	/* Annex A17.9.3: BTH (BECN=1) + 16 reserved bytes + ICRC. */
	{0x81, "CNP", kNone, true, static_cast<int16_t>(kCnpReservedLen)},
};

constexpr size_t kExtLens[kNumExt] = {kRdethLen,	kDethLen,      kFethLen,
				      kRethLen,		kAtomicEthLen, kAethLen,
				      kAtomicAckEthLen, kImmDtLen,     kIethLen};

constexpr size_t ext_index(Ext e)
{
	size_t i = 0;
	for (uint16_t v = static_cast<uint16_t>(e); v > 1; v >>= 1)
		++i;
	return i;
}

constexpr std::array<OpcodeInfo, 256> make_table()
{
	std::array<OpcodeInfo, 256> t{};
	for (size_t i = 0; i < 256; ++i) {
		t[i].transport = static_cast<Transport>(i >> 5);
		t[i].name = "UNKNOWN";
	}
	for (const OpDef &d : kOps) {
		OpcodeInfo &o = t[d.code];
		o.valid = true;
		o.name = d.name;
		o.ext_mask = d.ext;
		o.has_payload = d.payload;
		o.fixed_payload = d.fixed;
		for (size_t b = 0; b < kNumExt; ++b) {
			if (d.ext & (1u << b)) {
				o.ext[o.num_ext++] = static_cast<Ext>(1u << b);
				o.ext_len = static_cast<uint8_t>(o.ext_len + kExtLens[b]);
			}
		}
	}
	return t;
}

constexpr std::array<OpcodeInfo, 256> kTable = make_table();

constexpr size_t kNumOps = sizeof(kOps) / sizeof(kOps[0]);
constexpr std::array<Opcode, kNumOps> make_op_list()
{
	std::array<Opcode, kNumOps> a{};
	for (size_t i = 0; i < kNumOps; ++i)
		a[i] = static_cast<Opcode>(kOps[i].code);
	return a;
}
constexpr std::array<Opcode, kNumOps> kOpList = make_op_list();

/* Facts checked at compile time against the vectors/captures. */
static_assert(kTable[0x0A].ext_len == kRethLen);
static_assert(kTable[0x12].ext_len == kAethLen + kAtomicAckEthLen);
static_assert(kTable[0x4B].num_ext == 4);
static_assert(kTable[0x1C].ext[0] == Ext::FETH && kTable[0x1C].ext[1] == Ext::RETH);
static_assert(!kTable[0x15].valid && !kTable[0x80].valid && kTable[0x81].valid);

constexpr std::string_view kErrNames[kNumParseErrors] = {
	"ok",
	"truncated_eth",
	"not_ip",
	"truncated_ip",
	"bad_ip_version",
	"bad_ip_header_len",
	"ip_len_mismatch",
	"ip_fragment",
	"bad_ip_checksum",
	"not_udp",
	"truncated_udp",
	"udp_len_mismatch",
	"not_roce",
	"truncated_bth",
	"bad_tver",
	"unknown_opcode",
	"truncated_ext_header",
	"truncated_icrc",
	"bad_pad",
	"unexpected_payload",
	"too_long",
	"icrc_mismatch",
};

/* One's-complement sum (RFC 1071), not folded. */
uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t n)
{
	size_t i = 0;
	for (; i + 1 < n; i += 2)
		sum += ld16(p + i);
	if (i < n)
		sum += uint32_t(p[i]) << 8;
	return sum;
}
uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return static_cast<uint16_t>(~sum);
}

ParseError done(ParseStats &stats, ParseError e)
{
	++stats.by_result[static_cast<size_t>(e)];
	return e;
}

/* Decodes IP..ICRC of `d` into `out`; does not touch the stats. */
ParseError parse_datagram(std::span<const uint8_t> d, IpVersion v, Packet &out,
			  const ParseOptions &opt, size_t &datagram_len)
{
	const uint8_t *p = d.data();
	size_t ip_hdr_len, ip_end;
	out.ip_version = v;
	out.ip_checksum_ok = true;
	if (v == IpVersion::v4) {
		Ipv4Header &h = out.ip4;
		if (d.size() < kIpv4HdrMinLen)
			return ParseError::truncated_ip;
		h.version = p[0] >> 4;
		h.ihl = p[0] & 0x0F;
		if (h.version != 4)
			return ParseError::bad_ip_version;
		if (h.ihl < 5)
			return ParseError::bad_ip_header_len;
		ip_hdr_len = size_t(h.ihl) * 4;
		if (d.size() < ip_hdr_len)
			return ParseError::truncated_ip;
		h.tos = p[1];
		h.total_len = ld16(p + 2);
		h.id = ld16(p + 4);
		h.flags_frag = ld16(p + 6);
		h.ttl = p[8];
		h.protocol = p[9];
		h.checksum = ld16(p + 10);
		std::memcpy(h.src.data(), p + 12, 4);
		std::memcpy(h.dst.data(), p + 16, 4);
		h.options = d.subspan(kIpv4HdrMinLen, ip_hdr_len - kIpv4HdrMinLen);
		if (h.total_len < ip_hdr_len || h.total_len > d.size())
			return ParseError::ip_len_mismatch;
		ip_end = h.total_len;
		if (h.protocol != kIpProtoUdp)
			return ParseError::not_udp;
		if ((h.flags_frag & 0x3FFF) != 0) /* MF or offset */
			return ParseError::ip_fragment;
		if (opt.verify_ip_checksum)
			out.ip_checksum_ok =
				ipv4_header_checksum(d.first(ip_hdr_len)) == h.checksum;
	} else {
		Ipv6Header &h = out.ip6;
		if (d.size() < kIpv6HdrLen)
			return ParseError::truncated_ip;
		uint32_t w0 = ld32(p);
		h.version = static_cast<uint8_t>(w0 >> 28);
		if (h.version != 6)
			return ParseError::bad_ip_version;
		h.traffic_class = static_cast<uint8_t>(w0 >> 20);
		h.flow_label = w0 & 0xFFFFF;
		h.payload_len = ld16(p + 4);
		h.next_header = p[6];
		h.hop_limit = p[7];
		std::memcpy(h.src.data(), p + 8, 16);
		std::memcpy(h.dst.data(), p + 24, 16);
		ip_hdr_len = kIpv6HdrLen;
		if (kIpv6HdrLen + size_t(h.payload_len) > d.size())
			return ParseError::ip_len_mismatch;
		ip_end = kIpv6HdrLen + h.payload_len;
		if (h.next_header != kIpProtoUdp)
			return ParseError::not_udp;
	}
	datagram_len = ip_end;

	/* UDP */
	if (ip_end - ip_hdr_len < kUdpHdrLen)
		return ParseError::truncated_udp;
	const uint8_t *u = p + ip_hdr_len;
	out.udp.src_port = ld16(u);
	out.udp.dst_port = ld16(u + 2);
	out.udp.length = ld16(u + 4);
	out.udp.checksum = ld16(u + 6);
	if (out.udp.dst_port != kRoceV2UdpPort)
		return ParseError::not_roce;
	if (out.udp.length < kUdpHdrLen || out.udp.length != ip_end - ip_hdr_len)
		return ParseError::udp_len_mismatch;

	/* BTH */
	size_t off = ip_hdr_len + kUdpHdrLen;
	if (ip_end - off < kBthLen)
		return ParseError::truncated_bth;
	const uint8_t *b = p + off;
	Bth &bth = out.bth;
	bth.opcode = b[0];
	bth.se = b[1] & 0x80;
	bth.mig_req = b[1] & 0x40;
	bth.pad_cnt = (b[1] >> 4) & 3;
	bth.tver = b[1] & 0x0F;
	bth.pkey = ld16(b + 2);
	bth.fecn = b[4] & 0x80;
	bth.becn = b[4] & 0x40;
	bth.resv6 = b[4] & 0x3F;
	bth.dest_qp = ld24(b + 5);
	bth.ack_req = b[8] & 0x80;
	bth.resv7 = b[8] & 0x7F;
	bth.psn = ld24(b + 9);
	off += kBthLen;
	if (bth.tver != 0)
		return ParseError::bad_tver;
	const OpcodeInfo &oi = kTable[bth.opcode];
	if (!oi.valid)
		return ParseError::unknown_opcode;
	out.ext_mask = oi.ext_mask;

	/* Extension headers, in table (= wire) order. */
	if (ip_end - off < oi.ext_len)
		return ParseError::truncated_ext_header;
	for (uint8_t i = 0; i < oi.num_ext; ++i) {
		const uint8_t *x = p + off;
		switch (oi.ext[i]) {
		case Ext::RDETH:
			out.rdeth = {x[0], ld24(x + 1)};
			break;
		case Ext::DETH:
			out.deth = {ld32(x), x[4], ld24(x + 5)};
			break;
		case Ext::FETH:
			out.feth = {ld32(x)};
			break;
		case Ext::RETH:
			out.reth = {ld64(x), ld32(x + 8), ld32(x + 12)};
			break;
		case Ext::AtomicETH:
			out.atomic_eth = {ld64(x), ld32(x + 8), ld64(x + 12), ld64(x + 20)};
			break;
		case Ext::AETH:
			out.aeth = {x[0], ld24(x + 1)};
			break;
		case Ext::AtomicAckETH:
			out.atomic_ack_eth = {ld64(x)};
			break;
		case Ext::ImmDt:
			out.imm = ld32(x);
			break;
		case Ext::IETH:
			out.ieth_rkey = ld32(x);
			break;
		}
		off += kExtLens[ext_index(oi.ext[i])];
	}

	/* Payload, pad, ICRC. */
	if (ip_end - off < kIcrcLen)
		return ParseError::truncated_icrc;
	size_t body = ip_end - off - kIcrcLen; /* payload + pad */
	if (!oi.has_payload && body != 0)
		return ParseError::unexpected_payload;
	if (body % 4 != 0 || bth.pad_cnt > body)
		return ParseError::bad_pad;
	size_t plen = body - bth.pad_cnt;
	out.payload = d.subspan(off, plen);
	out.pad = d.subspan(off + plen, bth.pad_cnt);
	if (oi.fixed_payload >= 0 && plen != size_t(oi.fixed_payload))
		return ParseError::unexpected_payload;
	const uint8_t *ic = p + ip_end - kIcrcLen;
	out.icrc = uint32_t(ic[0]) | uint32_t(ic[1]) << 8 | uint32_t(ic[2]) << 16 |
		   uint32_t(ic[3]) << 24;

	if (opt.verify_icrc) {
		if (ip_end - kIcrcLen > kMaxIcrcDatagramLen)
			return ParseError::too_long;
		uint32_t c = 0;
		compute_icrc(d.first(ip_end - kIcrcLen), v, ip_hdr_len, c);
		out.icrc_computed = c;
		out.icrc_ok = c == out.icrc;
	} else {
		out.icrc_computed = 0;
		out.icrc_ok = false;
	}
	if (!out.ip_checksum_ok)
		return ParseError::bad_ip_checksum;
	if (opt.verify_icrc && !out.icrc_ok)
		return ParseError::icrc_mismatch;
	return ParseError::ok;
}

void reset(Packet &out, bool has_eth)
{
	out = Packet{};
	out.has_eth = has_eth;
}

} /* namespace */

/* ---------------------------------------------------------------------------------------
 * Tables
 * --------------------------------------------------------------------------------------- */
size_t ext_len(Ext e)
{
	return kExtLens[ext_index(e)];
}
size_t ext_mask_len(uint16_t mask)
{
	size_t n = 0;
	for (size_t b = 0; b < kNumExt; ++b)
		if (mask & (1u << b))
			n += kExtLens[b];
	return n;
}
const OpcodeInfo &opcode_info(uint8_t opcode)
{
	return kTable[opcode];
}
std::string_view name(uint8_t opcode)
{
	return kTable[opcode].name;
}
std::span<const Opcode> all_opcodes()
{
	return kOpList;
}

std::string_view transport_name(Transport t)
{
	switch (t) {
	case Transport::RC:
		return "RC";
	case Transport::UC:
		return "UC";
	case Transport::RD:
		return "RD";
	case Transport::UD:
		return "UD";
	case Transport::CNP:
		return "CNP";
	case Transport::Vendor:
		return "VENDOR";
	default:
		return "RESERVED";
	}
}

std::string_view error_name(ParseError e)
{
	size_t i = static_cast<size_t>(e);
	return i < kNumParseErrors ? kErrNames[i] : "invalid";
}

std::string_view error_name(BuildError e)
{
	switch (e) {
	case BuildError::ok:
		return "ok";
	case BuildError::buffer_too_small:
		return "buffer_too_small";
	case BuildError::bad_ip_options:
		return "bad_ip_options";
	case BuildError::payload_too_long:
		return "payload_too_long";
	}
	return "invalid";
}

/* ---------------------------------------------------------------------------------------
 * Checksums
 * --------------------------------------------------------------------------------------- */
uint16_t ipv4_header_checksum(std::span<const uint8_t> hdr)
{
	if (hdr.size() < kIpv4HdrMinLen)
		return 0;
	uint32_t s = csum_add(0, hdr.data(), 10);
	s = csum_add(s, hdr.data() + 12, hdr.size() - 12);
	return csum_fold(s);
}

/* ---------------------------------------------------------------------------------------
 * Parser
 * --------------------------------------------------------------------------------------- */
ParseError parse(std::span<const uint8_t> f, Packet &out, ParseStats &stats,
		 const ParseOptions &opt)
{
	++stats.frames;
	reset(out, true);
	out.frame_len = f.size();
	if (f.size() < kEthHdrLen)
		return done(stats, ParseError::truncated_eth);
	const uint8_t *p = f.data();
	std::memcpy(out.eth.dst.data(), p, 6);
	std::memcpy(out.eth.src.data(), p + 6, 6);
	size_t off = 12;
	uint16_t type = ld16(p + off);
	if (type == kEtherTypeVlan) {
		if (f.size() < kEthHdrLen + kVlanTagLen)
			return done(stats, ParseError::truncated_eth);
		out.eth.has_vlan = true;
		out.eth.vlan_tpid = type;
		out.eth.vlan_tci = ld16(p + 14);
		off += kVlanTagLen;
		type = ld16(p + off);
	}
	out.eth.ether_type = type;
	off += 2;
	IpVersion v;
	if (type == kEtherTypeIpv4)
		v = IpVersion::v4;
	else if (type == kEtherTypeIpv6)
		v = IpVersion::v6;
	else
		return done(stats, ParseError::not_ip);
	size_t dlen = SIZE_MAX; /* set once the IP length is known to fit */
	std::span<const uint8_t> d = f.subspan(off);
	ParseError e = parse_datagram(d, v, out, opt, dlen);
	if (dlen <= d.size())
		out.trailer = d.subspan(dlen);
	return done(stats, e);
}

ParseError parse_ip(std::span<const uint8_t> d, Packet &out, ParseStats &stats,
		    const ParseOptions &opt)
{
	++stats.frames;
	reset(out, false);
	out.frame_len = d.size();
	if (d.empty())
		return done(stats, ParseError::truncated_ip);
	IpVersion v = (d[0] >> 4) == 6 ? IpVersion::v6 : IpVersion::v4; /* others fail as v4 */
	size_t dlen = SIZE_MAX;
	ParseError e = parse_datagram(d, v, out, opt, dlen);
	if (dlen <= d.size())
		out.trailer = d.subspan(dlen);
	return done(stats, e);
}

/* ---------------------------------------------------------------------------------------
 * Builder
 * --------------------------------------------------------------------------------------- */
BuildResult build(const Packet &pkt, std::span<uint8_t> out, const BuildOptions &opt)
{
	const bool v4 = pkt.ip_version == IpVersion::v4;
	const size_t eth_len = pkt.has_eth ? kEthHdrLen + (pkt.eth.has_vlan ? kVlanTagLen : 0) : 0;
	const size_t opt_len = v4 ? pkt.ip4.options.size() : 0;
	if (opt.lengths && (opt_len % 4 != 0 || opt_len > kIpv4HdrMaxLen - kIpv4HdrMinLen))
		return {BuildError::bad_ip_options, 0};
	const size_t ip_hdr_len = v4 ? kIpv4HdrMinLen + opt_len : kIpv6HdrLen;
	const uint16_t ext_mask =
		opt.ext_from_opcode ? kTable[pkt.bth.opcode].ext_mask : pkt.ext_mask;
	const size_t xlen = ext_mask_len(ext_mask);
	const size_t plen = pkt.payload.size();
	const uint8_t pad_cnt =
		opt.pad ? static_cast<uint8_t>((4 - plen % 4) % 4) : pkt.bth.pad_cnt & 3;
	const size_t pad_len = opt.pad ? pad_cnt : pkt.pad.size();
	const size_t udp_len = kUdpHdrLen + kBthLen + xlen + plen + pad_len + kIcrcLen;
	const size_t dgram_len = ip_hdr_len + udp_len;
	const size_t trailer_len = opt.trailer ? pkt.trailer.size() : 0;
	const size_t total = eth_len + dgram_len + trailer_len;
	const bool udp_csum = v4 ? opt.udp_checksum : (opt.udp_checksum || opt.udp_checksum_ipv6);
	if (opt.lengths && (v4 ? dgram_len : udp_len) > 0xFFFF)
		return {BuildError::payload_too_long, 0};
	if (opt.icrc && dgram_len - kIcrcLen > kMaxIcrcDatagramLen)
		return {BuildError::payload_too_long, 0};
	if (out.size() < total)
		return {BuildError::buffer_too_small, total};

	uint8_t *p = out.data();
	/* Ethernet */
	if (pkt.has_eth) {
		std::memcpy(p, pkt.eth.dst.data(), 6);
		std::memcpy(p + 6, pkt.eth.src.data(), 6);
		size_t o = 12;
		if (pkt.eth.has_vlan) {
			st16(p + o, opt.lengths ? kEtherTypeVlan : pkt.eth.vlan_tpid);
			st16(p + o + 2, pkt.eth.vlan_tci);
			o += kVlanTagLen;
		}
		st16(p + o,
		     opt.lengths ? (v4 ? kEtherTypeIpv4 : kEtherTypeIpv6) : pkt.eth.ether_type);
	}
	uint8_t *ip = p + eth_len;
	/* IP */
	if (v4) {
		const Ipv4Header &h = pkt.ip4;
		ip[0] = opt.lengths ? static_cast<uint8_t>(0x40 | (ip_hdr_len / 4))
				    : static_cast<uint8_t>(h.version << 4 | (h.ihl & 0x0F));
		ip[1] = h.tos;
		st16(ip + 2, opt.lengths ? static_cast<uint16_t>(dgram_len) : h.total_len);
		st16(ip + 4, h.id);
		st16(ip + 6, h.flags_frag);
		ip[8] = h.ttl;
		ip[9] = opt.lengths ? kIpProtoUdp : h.protocol;
		st16(ip + 10, h.checksum);
		std::memcpy(ip + 12, h.src.data(), 4);
		std::memcpy(ip + 16, h.dst.data(), 4);
		if (opt_len)
			std::memcpy(ip + 20, h.options.data(), opt_len);
		if (opt.ip_checksum)
			st16(ip + 10, ipv4_header_checksum({ip, ip_hdr_len}));
	} else {
		const Ipv6Header &h = pkt.ip6;
		uint32_t w0 = uint32_t(opt.lengths ? 6 : h.version & 0x0F) << 28 |
			      uint32_t(h.traffic_class) << 20 | (h.flow_label & 0xFFFFF);
		st32(ip, w0);
		st16(ip + 4, opt.lengths ? static_cast<uint16_t>(udp_len) : h.payload_len);
		ip[6] = opt.lengths ? kIpProtoUdp : h.next_header;
		ip[7] = h.hop_limit;
		std::memcpy(ip + 8, h.src.data(), 16);
		std::memcpy(ip + 24, h.dst.data(), 16);
	}
	/* UDP */
	uint8_t *u = ip + ip_hdr_len;
	st16(u, pkt.udp.src_port);
	st16(u + 2, pkt.udp.dst_port);
	st16(u + 4, opt.lengths ? static_cast<uint16_t>(udp_len) : pkt.udp.length);
	st16(u + 6, udp_csum ? 0 : pkt.udp.checksum);
	/* BTH */
	uint8_t *b = u + kUdpHdrLen;
	const Bth &t = pkt.bth;
	b[0] = t.opcode;
	b[1] = static_cast<uint8_t>((t.se ? 0x80 : 0) | (t.mig_req ? 0x40 : 0) |
				    (pad_cnt & 3) << 4 | (t.tver & 0x0F));
	st16(b + 2, t.pkey);
	b[4] = static_cast<uint8_t>((t.fecn ? 0x80 : 0) | (t.becn ? 0x40 : 0) | (t.resv6 & 0x3F));
	st24(b + 5, t.dest_qp);
	b[8] = static_cast<uint8_t>((t.ack_req ? 0x80 : 0) | (t.resv7 & 0x7F));
	st24(b + 9, t.psn);
	/* Extension headers in wire (bit) order */
	uint8_t *x = b + kBthLen;
	for (size_t bit = 0; bit < kNumExt; ++bit) {
		if (!(ext_mask & (1u << bit)))
			continue;
		switch (static_cast<Ext>(1u << bit)) {
		case Ext::RDETH:
			x[0] = pkt.rdeth.resv8;
			st24(x + 1, pkt.rdeth.ee_context);
			break;
		case Ext::DETH:
			st32(x, pkt.deth.qkey);
			x[4] = pkt.deth.resv8;
			st24(x + 5, pkt.deth.src_qp);
			break;
		case Ext::FETH:
			st32(x, pkt.feth.value);
			break;
		case Ext::RETH:
			st64(x, pkt.reth.va);
			st32(x + 8, pkt.reth.rkey);
			st32(x + 12, pkt.reth.dma_len);
			break;
		case Ext::AtomicETH:
			st64(x, pkt.atomic_eth.va);
			st32(x + 8, pkt.atomic_eth.rkey);
			st64(x + 12, pkt.atomic_eth.swap_add);
			st64(x + 20, pkt.atomic_eth.compare);
			break;
		case Ext::AETH:
			x[0] = pkt.aeth.syndrome;
			st24(x + 1, pkt.aeth.msn);
			break;
		case Ext::AtomicAckETH:
			st64(x, pkt.atomic_ack_eth.orig);
			break;
		case Ext::ImmDt:
			st32(x, pkt.imm);
			break;
		case Ext::IETH:
			st32(x, pkt.ieth_rkey);
			break;
		}
		x += kExtLens[bit];
	}
	/* Payload, pad. Above kIcrcFuseMin of datagram the ICRC is begun over the headers written
	 * so far and continued while the payload is copied (crc32_copy): one pass over it, not a
	 * copy and a CRC. The headers the ICRC covers are final here; the UDP checksum, written
	 * after, is masked. */
	uint32_t icrc = pkt.icrc;
	uint32_t crc = 0;
	const bool fuse = opt.icrc && plen > 0 && dgram_len - kIcrcLen > kIcrcFuseMin &&
			  icrc_begin({ip, size_t(x - ip)}, pkt.ip_version, ip_hdr_len, crc);
	if (fuse)
		crc = crc32_copy(crc, x, pkt.payload.data(), plen);
	else if (plen)
		std::memcpy(x, pkt.payload.data(), plen);
	x += plen;
	if (opt.pad)
		std::memset(x, 0, pad_len);
	else if (pad_len)
		std::memcpy(x, pkt.pad.data(), pad_len);
	if (fuse)
		crc = crc32_update(CrcCopyImpl::plain, crc, x, pad_len);
	x += pad_len;
	/* ICRC (LSB first), before the UDP checksum because the ICRC masks that field */
	if (fuse)
		icrc = crc;
	else if (opt.icrc)
		compute_icrc({ip, dgram_len - kIcrcLen}, pkt.ip_version, ip_hdr_len, icrc);
	x[0] = uint8_t(icrc);
	x[1] = uint8_t(icrc >> 8);
	x[2] = uint8_t(icrc >> 16);
	x[3] = uint8_t(icrc >> 24);
	x += kIcrcLen;
	if (udp_csum) {
		/* Pseudo header (RFC 768 / RFC 8200 8.1) + UDP header + data, as written. */
		uint32_t s = 0;
		if (v4) {
			s = csum_add(s, ip + 12, 8);
		} else {
			s = csum_add(s, ip + 8, 32);
		}
		s += kIpProtoUdp;
		s += static_cast<uint32_t>(udp_len);
		s = csum_add(s, u, udp_len);
		uint16_t c = csum_fold(s);
		st16(u + 6, c == 0 ? 0xFFFF : c);
	}
	if (trailer_len)
		std::memcpy(x, pkt.trailer.data(), trailer_len);
	return {BuildError::ok, total};
}

Packet make_packet(Opcode op)
{
	static constexpr uint8_t kZeros[kCnpReservedLen] = {};
	Packet p;
	p.eth.dst = {0x02, 0x00, 0x00, 0x00, 0x00, 0x02};
	p.eth.src = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
	p.ip4.src = {192, 0, 2, 1}; /* RFC 5737 documentation range */
	p.ip4.dst = {192, 0, 2, 2};
	p.ip6.src = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}; /* RFC 3849 */
	p.ip6.dst = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
	p.bth.opcode = static_cast<uint8_t>(op);
	const OpcodeInfo &oi = opcode_info(op);
	p.ext_mask = oi.ext_mask;
	if (has_ext(oi.ext_mask, Ext::DETH))
		p.deth.qkey = 0x80010000; /* GSI Q_Key (QP1 / CM) */
	if (op == Opcode::CNP) {
		p.bth.becn = true;
		p.payload = std::span<const uint8_t>(kZeros, sizeof(kZeros));
	}
	return p;
}

} /* namespace gaudi::roce */
