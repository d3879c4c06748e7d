/* SPDX-License-Identifier: BSD-3-Clause */
/* RoCE v2 framing: header codecs, opcode table, ICRC, a total parser and a builder.
 *
 * Wire layout handled here (all multi-byte header fields are big-endian on the wire,
 * except the ICRC, see below):
 *
 *   Ethernet (14 B) [+ one 802.1Q tag (4 B)]          -- not covered by the ICRC
 *   IPv4 (20..60 B) | IPv6 (40 B, no extension headers)
 *   UDP (8 B), destination port 4791
 *   BTH (12 B)
 *   extension headers, fixed per opcode, in the order RDETH DETH FETH RETH AtomicETH
 *       AETH AtomicAckETH ImmDt IETH (no opcode carries both ImmDt and IETH)
 *   payload (0..PMTU B)
 *   pad (BTH.PadCnt = 0..3 B; payload + pad is a multiple of 4)
 *   ICRC (4 B)
 *   [trailer: bytes after the IP datagram, e.g. Ethernet minimum-size padding]
 *
 * Sources of the facts (the IBTA spec itself is members-only):
 *   - BTH bit layout: IBA Vol 1 9.2; Linux rxe_hdr.h, DPDK rte_ib.h, scapy contrib/roce.py.
 *   - Opcode values and extension headers per opcode: IBA Vol 1 9.2/Table 38 as encoded in
 *     Linux include/rdma/ib_pack.h and drivers/infiniband/sw/rxe/rxe_opcode.c.
 *   - RoCE v2 UDP port 4791, CNP opcode 0x81 and the ICRC masking: IBA Annex A17
 *     (RoCE v2) 17.4 / 17.9.3, checked against 8 published ICRC vectors and 4 captures taken
 *     with ibdump on RDMA NICs (the tests read them from the test corpus when it is present).
 *
 * Nothing here throws or allocates. Parsed packets hold spans into the caller's buffer. */
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace gaudi::roce {

/* ---------------------------------------------------------------------------------------
 * Sizes (bytes)
 * --------------------------------------------------------------------------------------- */
inline constexpr uint16_t kRoceV2UdpPort = 4791; /* IANA / Annex A17. */
inline constexpr uint16_t kEtherTypeIpv4 = 0x0800;
inline constexpr uint16_t kEtherTypeIpv6 = 0x86DD;
inline constexpr uint16_t kEtherTypeVlan = 0x8100; /* 802.1Q */
inline constexpr uint8_t kIpProtoUdp = 17;

inline constexpr size_t kEthHdrLen = 14;
inline constexpr size_t kVlanTagLen = 4;
inline constexpr size_t kIpv4HdrMinLen = 20;
inline constexpr size_t kIpv4HdrMaxLen = 60;
inline constexpr size_t kIpv6HdrLen = 40;
inline constexpr size_t kUdpHdrLen = 8;
inline constexpr size_t kBthLen = 12;
inline constexpr size_t kRdethLen = 4;
inline constexpr size_t kDethLen = 8;
inline constexpr size_t kFethLen = 4;
inline constexpr size_t kRethLen = 16;
inline constexpr size_t kAtomicEthLen = 28;
inline constexpr size_t kAethLen = 4;
inline constexpr size_t kAtomicAckEthLen = 8;
inline constexpr size_t kImmDtLen = 4;
inline constexpr size_t kIethLen = 4;
inline constexpr size_t kIcrcLen = 4;
/* The 16 reserved bytes that follow the BTH of a RoCE v2 CNP (Annex A17.9.3). */
inline constexpr size_t kCnpReservedLen = 16;

/* Longest IP datagram whose ICRC this library computes. Built with ISA-L (libisal) the ICRC runs
 * over the datagram in place; without it the ICRC input (8 B of 0xFF + IP..pad) is built in a
 * scratch buffer of kIcrcScratchLen because rte_net_crc_calc has no incremental form. 16 KiB
 * covers 9216 B jumbo frames with room to spare. */
inline constexpr size_t kIcrcScratchLen = 16384;
inline constexpr size_t kMaxIcrcDatagramLen = kIcrcScratchLen - 8;

/* ---------------------------------------------------------------------------------------
 * Opcodes (BTH byte 0). [7:5] = transport, [4:0] = operation. IBA 9.2 / ib_pack.h.
 * --------------------------------------------------------------------------------------- */
enum class Transport : uint8_t {
	RC = 0,
	UC = 1,
	RD = 2,
	UD = 3,
	CNP = 4,
	Reserved = 5,
	Reserved6 = 6,
	Vendor = 7
};

enum class Opcode : uint8_t {
	RC_SEND_FIRST = 0x00,
	RC_SEND_MIDDLE = 0x01,
	RC_SEND_LAST = 0x02,
	RC_SEND_LAST_WITH_IMMEDIATE = 0x03,
	RC_SEND_ONLY = 0x04,
	RC_SEND_ONLY_WITH_IMMEDIATE = 0x05,
	RC_RDMA_WRITE_FIRST = 0x06,
	RC_RDMA_WRITE_MIDDLE = 0x07,
	RC_RDMA_WRITE_LAST = 0x08,
	RC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09,
	RC_RDMA_WRITE_ONLY = 0x0A,
	RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0B,
	RC_RDMA_READ_REQUEST = 0x0C,
	RC_RDMA_READ_RESPONSE_FIRST = 0x0D,
	RC_RDMA_READ_RESPONSE_MIDDLE = 0x0E,
	RC_RDMA_READ_RESPONSE_LAST = 0x0F,
	RC_RDMA_READ_RESPONSE_ONLY = 0x10,
	RC_ACKNOWLEDGE = 0x11,
	RC_ATOMIC_ACKNOWLEDGE = 0x12,
	RC_COMPARE_SWAP = 0x13,
	RC_FETCH_ADD = 0x14,
	/* 0x15 is reserved for RC (RESYNC exists only for RD). */
	RC_SEND_LAST_WITH_INVALIDATE = 0x16,
	RC_SEND_ONLY_WITH_INVALIDATE = 0x17,
	RC_FLUSH = 0x1C,	/* IBA 1.5 (ib_pack.h IB_OPCODE_FLUSH): FETH + RETH, no payload */
	RC_ATOMIC_WRITE = 0x1D, /* IBA 1.5: RETH + 8 B payload */

	UC_SEND_FIRST = 0x20,
	UC_SEND_MIDDLE = 0x21,
	UC_SEND_LAST = 0x22,
	UC_SEND_LAST_WITH_IMMEDIATE = 0x23,
	UC_SEND_ONLY = 0x24,
	UC_SEND_ONLY_WITH_IMMEDIATE = 0x25,
	UC_RDMA_WRITE_FIRST = 0x26,
	UC_RDMA_WRITE_MIDDLE = 0x27,
	UC_RDMA_WRITE_LAST = 0x28,
	UC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x29,
	UC_RDMA_WRITE_ONLY = 0x2A,
	UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x2B,

	/* RD (reliable datagram): every packet carries an RDETH; requests also a DETH.
	 * Listed for completeness (ib_pack.h values); no capture exercises them. */
	RD_SEND_FIRST = 0x40,
	RD_SEND_MIDDLE = 0x41,
	RD_SEND_LAST = 0x42,
	RD_SEND_LAST_WITH_IMMEDIATE = 0x43,
	RD_SEND_ONLY = 0x44,
	RD_SEND_ONLY_WITH_IMMEDIATE = 0x45,
	RD_RDMA_WRITE_FIRST = 0x46,
	RD_RDMA_WRITE_MIDDLE = 0x47,
	RD_RDMA_WRITE_LAST = 0x48,
	RD_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x49,
	RD_RDMA_WRITE_ONLY = 0x4A,
	RD_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x4B,
	RD_RDMA_READ_REQUEST = 0x4C,
	RD_RDMA_READ_RESPONSE_FIRST = 0x4D,
	RD_RDMA_READ_RESPONSE_MIDDLE = 0x4E,
	RD_RDMA_READ_RESPONSE_LAST = 0x4F,
	RD_RDMA_READ_RESPONSE_ONLY = 0x50,
	RD_ACKNOWLEDGE = 0x51,
	RD_ATOMIC_ACKNOWLEDGE = 0x52,
	RD_COMPARE_SWAP = 0x53,
	RD_FETCH_ADD = 0x54,
	RD_RESYNC = 0x55,

	UD_SEND_ONLY = 0x64,
	UD_SEND_ONLY_WITH_IMMEDIATE = 0x65,

	/* RoCE v2 Congestion Notification Packet (Annex A17.9.3). Not IB CC's 0x80. */
	CNP = 0x81,
};

/* Extension headers, as bits of a mask. Values also give the wire order (low bit first). */
enum class Ext : uint16_t {
	RDETH = 1u << 0,	/* 4 B: resv8, EE-context 24 */
	DETH = 1u << 1,		/* 8 B: Q_Key 32, resv8, SrcQP 24 */
	FETH = 1u << 2,		/* 4 B: flush type/level (IBA 1.5 FLUSH) */
	RETH = 1u << 3,		/* 16 B: VA 64, R_Key 32, DMA length 32 */
	AtomicETH = 1u << 4,	/* 28 B: VA 64, R_Key 32, Swap/Add 64, Compare 64 */
	AETH = 1u << 5,		/* 4 B: syndrome 8, MSN 24 */
	AtomicAckETH = 1u << 6, /* 8 B: original remote data 64 */
	ImmDt = 1u << 7,	/* 4 B: immediate data */
	IETH = 1u << 8,		/* 4 B: R_Key to invalidate */
};
inline constexpr size_t kNumExt = 9;
constexpr uint16_t operator|(Ext a, Ext b)
{
	return static_cast<uint16_t>(static_cast<uint16_t>(a) | static_cast<uint16_t>(b));
}
constexpr uint16_t operator|(uint16_t a, Ext b)
{
	return static_cast<uint16_t>(a | static_cast<uint16_t>(b));
}
constexpr bool has_ext(uint16_t mask, Ext e)
{
	return (mask & static_cast<uint16_t>(e)) != 0;
}
/* Length in bytes of one extension header. */
size_t ext_len(Ext e);
/* Sum of the lengths of the headers in `mask`. */
size_t ext_mask_len(uint16_t mask);

struct OpcodeInfo {
	bool valid = false; /* false: reserved/unknown opcode */
	Transport transport = Transport::Reserved;
	std::string_view name;	  /* IBA name, e.g. "RC_SEND_ONLY"; "UNKNOWN" if !valid */
	uint16_t ext_mask = 0;	  /* extension headers following the BTH (Ext bits) */
	std::array<Ext, 4> ext{}; /* the same, in wire order (RD WRITE_ONLY_IMM has 4) */
	uint8_t num_ext = 0;
	uint8_t ext_len = 0; /* total bytes of extension headers */
	bool has_payload =
		false; /* may carry payload (SEND/WRITE/READ_RESPONSE data, CNP reserved) */
	/* Exact payload length when fixed (ATOMIC_WRITE 8, CNP 16), else -1. */
	int16_t fixed_payload = -1;
};

/* Table lookup; total over all 256 values. */
const OpcodeInfo &opcode_info(uint8_t opcode);
inline const OpcodeInfo &opcode_info(Opcode op)
{
	return opcode_info(static_cast<uint8_t>(op));
}
/* "RC_SEND_ONLY", ... ; "UNKNOWN" for reserved values. */
std::string_view name(uint8_t opcode);
inline std::string_view name(Opcode op)
{
	return name(static_cast<uint8_t>(op));
}
std::string_view transport_name(Transport t);
/* All valid opcodes, ascending (for tests and generators). */
std::span<const Opcode> all_opcodes();

/* ---------------------------------------------------------------------------------------
 * Headers (host-order values). Reserved bits are kept so that any packet re-encodes to the
 * same bytes.
 * --------------------------------------------------------------------------------------- */
using MacAddr = std::array<uint8_t, 6>;

struct EthHeader {
	MacAddr dst{};
	MacAddr src{};
	bool has_vlan = false;
	uint16_t vlan_tpid = kEtherTypeVlan; /* only 0x8100 is recognised by the parser */
	uint16_t vlan_tci = 0;		     /* PCP 3 | DEI 1 | VID 12 */
	uint16_t ether_type = kEtherTypeIpv4;
	uint16_t vlan_id() const { return vlan_tci & 0x0FFF; }
	uint8_t vlan_pcp() const { return static_cast<uint8_t>(vlan_tci >> 13); }
};

enum class IpVersion : uint8_t { v4 = 4, v6 = 6 };

struct Ipv4Header {
	uint8_t version = 4;
	uint8_t ihl = 5;	/* 32-bit words, 5..15 */
	uint8_t tos = 0;	/* DSCP 6 | ECN 2 */
	uint16_t total_len = 0; /* bytes, header + UDP datagram */
	uint16_t id = 0;
	uint16_t flags_frag = 0x4000; /* DF set, as RoCE NICs send */
	uint8_t ttl = 64;
	uint8_t protocol = kIpProtoUdp;
	uint16_t checksum = 0;
	std::array<uint8_t, 4> src{};
	std::array<uint8_t, 4> dst{};
	std::span<const uint8_t> options; /* (ihl-5)*4 bytes */
};

struct Ipv6Header {
	uint8_t version = 6;
	uint8_t traffic_class = 0; /* DSCP 6 | ECN 2 */
	uint32_t flow_label = 0;   /* 20 bits */
	uint16_t payload_len = 0;  /* bytes after the 40 B header */
	uint8_t next_header = kIpProtoUdp;
	uint8_t hop_limit = 64;
	std::array<uint8_t, 16> src{};
	std::array<uint8_t, 16> dst{};
};

struct UdpHeader {
	uint16_t src_port = 0xC000; /* RoCE v2 senders use 0xC000..0xFFFF (flow entropy) */
	uint16_t dst_port = kRoceV2UdpPort;
	uint16_t length = 0;   /* bytes, header + data */
	uint16_t checksum = 0; /* RoCE NICs send 0 (masked out of the ICRC anyway) */
};

/* Base Transport Header, IBA 9.2 (byte offsets as in roce-facts.md §1). */
struct Bth {
	uint8_t opcode = 0;
	bool se = false;      /* solicited event (byte 1 bit 7) */
	bool mig_req = false; /* M (byte 1 bit 6) */
	uint8_t pad_cnt = 0;  /* byte 1 bits 5:4 */
	uint8_t tver = 0;     /* byte 1 bits 3:0, must be 0 */
	uint16_t pkey = 0xFFFF;
	bool fecn = false;    /* byte 4 bit 7 (masked in ICRC) */
	bool becn = false;    /* byte 4 bit 6 (masked in ICRC); set in a CNP */
	uint8_t resv6 = 0;    /* byte 4 bits 5:0 */
	uint32_t dest_qp = 0; /* 24 bits */
	bool ack_req = false; /* byte 8 bit 7 */
	uint8_t resv7 = 0;    /* byte 8 bits 6:0 */
	uint32_t psn = 0;     /* 24 bits */
};

struct Rdeth {
	uint8_t resv8 = 0;
	uint32_t ee_context = 0;
};
struct Deth {
	uint32_t qkey = 0;
	uint8_t resv8 = 0;
	uint32_t src_qp = 0;
};
struct Feth {
	uint32_t value = 0;
}; /* selectivity level / placement type bits, kept raw */
struct Reth {
	uint64_t va = 0;
	uint32_t rkey = 0;
	uint32_t dma_len = 0;
};
struct AtomicEth {
	uint64_t va = 0;
	uint32_t rkey = 0;
	uint64_t swap_add = 0;
	uint64_t compare = 0;
};

/* AETH: syndrome [7] resv, [6:5] 00 ACK / 01 RNR NAK / 11 NAK, [4:0] credit / timer / NAK code. */
struct Aeth {
	uint8_t syndrome = 0;
	uint32_t msn = 0; /* 24 bits */
	enum class Kind : uint8_t { ack, rnr_nak, reserved, nak };
	Kind kind() const { return static_cast<Kind>((syndrome >> 5) & 3); }
	uint8_t value() const { return syndrome & 0x1F; }
};
struct AtomicAckEth {
	uint64_t orig = 0;
};

/* ---------------------------------------------------------------------------------------
 * Decoded packet
 * --------------------------------------------------------------------------------------- */
struct Packet {
	bool has_eth = true; /* false when decoded with parse_ip() (raw-IP captures) */
	EthHeader eth;
	IpVersion ip_version = IpVersion::v4;
	Ipv4Header ip4; /* valid if ip_version == v4 */
	Ipv6Header ip6; /* valid if ip_version == v6 */
	UdpHeader udp;
	Bth bth;
	uint16_t ext_mask = 0; /* headers present (Ext bits), from the opcode table */
	Rdeth rdeth;
	Deth deth;
	Feth feth;
	Reth reth;
	AtomicEth atomic_eth;
	Aeth aeth;
	AtomicAckEth atomic_ack_eth;
	uint32_t imm = 0; /* ImmDt, as the 32-bit big-endian wire value */
	uint32_t ieth_rkey = 0;
	std::span<const uint8_t> payload; /* without pad */
	std::span<const uint8_t> pad;	  /* the pad_cnt pad bytes as on the wire (normally 0) */
	/* ICRC as a number: the wire bytes read little-endian (CRC-32 LSB first). Wireshark and
	 * scapy print the big-endian read of the same bytes (0xF353F378 shows as 0x78f353f3). */
	uint32_t icrc = 0;
	uint32_t icrc_computed = 0;
	bool icrc_ok = false;
	bool ip_checksum_ok = false;	  /* IPv4 only; true for IPv6 */
	std::span<const uint8_t> trailer; /* bytes after the IP datagram (Ethernet padding, FCS) */
	size_t frame_len = 0; /* bytes consumed incl. trailer (= input size on success) */
};

/* ---------------------------------------------------------------------------------------
 * Parser
 * --------------------------------------------------------------------------------------- */
enum class ParseError : uint8_t {
	ok = 0,
	truncated_eth,	      /* < 14 B, or < 18 B with an 802.1Q tag */
	not_ip,		      /* EtherType is neither IPv4 nor IPv6 */
	truncated_ip,	      /* shorter than the IP header (or its IHL) */
	bad_ip_version,	      /* version nibble disagrees with the EtherType */
	bad_ip_header_len,    /* IPv4 IHL < 5 */
	ip_len_mismatch,      /* IP total/payload length < header or > bytes present */
	ip_fragment,	      /* IPv4 MF set or fragment offset != 0 */
	bad_ip_checksum,      /* IPv4 header checksum wrong (packet otherwise fully decoded) */
	not_udp,	      /* IP protocol / next header is not UDP (incl. IPv6 ext headers) */
	truncated_udp,	      /* fewer than 8 B after the IP header */
	udp_len_mismatch,     /* UDP length < 8 or != the IP payload length */
	not_roce,	      /* UDP destination port is not 4791 */
	truncated_bth,	      /* fewer than 12 B of UDP data */
	bad_tver,	      /* BTH TVer != 0 (IBA 9.2: such packets are dropped) */
	unknown_opcode,	      /* reserved opcode */
	truncated_ext_header, /* UDP data ends inside the extension headers */
	truncated_icrc,	      /* no room for the 4 B ICRC after the headers */
	bad_pad,	      /* payload+pad not a multiple of 4, or PadCnt > payload+pad */
	unexpected_payload,   /* data present for an opcode without payload, or fixed size wrong */
	too_long,	      /* datagram longer than kMaxIcrcDatagramLen (ICRC not computed) */
	icrc_mismatch,	      /* ICRC wrong (packet otherwise fully decoded) */
	count_
};
inline constexpr size_t kNumParseErrors = static_cast<size_t>(ParseError::count_);
std::string_view error_name(ParseError e);
/* The frame is simply not RoCE v2 (as opposed to a broken RoCE v2 frame). */
constexpr bool is_not_roce(ParseError e)
{
	return e == ParseError::not_ip || e == ParseError::not_udp || e == ParseError::not_roce;
}

/* Which parts of Packet are valid after parse() returned `e`. */
constexpr bool bth_decoded(ParseError e)
{
	return e == ParseError::ok || e >= ParseError::bad_tver || e == ParseError::bad_ip_checksum;
}
constexpr bool fully_decoded(ParseError e)
{
	return e == ParseError::ok || e == ParseError::icrc_mismatch ||
	       e == ParseError::bad_ip_checksum;
}

/* Per-outcome counters; owned by the caller (one per thread/queue), never shared. */
struct ParseStats {
	uint64_t frames = 0;
	std::array<uint64_t, kNumParseErrors> by_result{}; /* index = ParseError (ok included) */
	uint64_t count(ParseError e) const { return by_result[static_cast<size_t>(e)]; }
	uint64_t ok() const { return count(ParseError::ok); }
	uint64_t errors() const { return frames - ok(); }
};

struct ParseOptions {
	bool verify_icrc = true;
	bool verify_ip_checksum = true;
};

/* Decodes an Ethernet frame. Reads only inside `frame`. On ok, icrc_mismatch and
 * bad_ip_checksum `out` is fully decoded; on other errors the fields of the layers before
 * the failing one are valid and the rest are unspecified. */
ParseError parse(std::span<const uint8_t> frame, Packet &out, ParseStats &stats,
		 const ParseOptions &opt = {});
/* Same, for a buffer that starts at the IP header (DLT_RAW captures, the ICRC test path). */
ParseError parse_ip(std::span<const uint8_t> datagram, Packet &out, ParseStats &stats,
		    const ParseOptions &opt = {});

/* ---------------------------------------------------------------------------------------
 * ICRC (Annex A17.4.1): CRC-32 (IEEE, = zlib crc32) over 8 B of 0xFF followed by the IP
 * datagram up to the ICRC, with IPv4 TOS/TTL/checksum or IPv6 traffic class/flow label/hop
 * limit, the UDP checksum and BTH byte 4 (FECN, BECN, resv6) set to all ones. Stored on the
 * wire least-significant byte first. Datagrams up to 512 B: DPDK rte_net_crc (CRC32_ETH) over a
 * masked copy. Longer ones: ISA-L's crc32_gzip_refl variants (the same CRC; the masked headers
 * copied to the stack, the rest read in place), or rte_net_crc over a copy in a build without
 * libisal. Either way the variant follows rte_net_crc's selection rule (icrc_alg below):
 * scalar, SSE4.2/PCLMULQDQ (ISA-L by8) or AVX512/VPCLMULQDQ (ISA-L by16_10), except that
 * where crc_copy_impl() is vpclmul256 and AVX512 is not allowed the long part runs on that
 * 256-bit fold (crc32_update). build() folds the ICRC into the payload copy (crc32_copy).
 * --------------------------------------------------------------------------------------- */

/* No process-wide side effects: computing ICRCs never changes DPDK's CRC algorithm, EAL's SIMD
 * width or the log. rte_net_crc selects its fastest algorithm by itself at its first use,
 * within EAL's max SIMD width: after rte_eal_init() the x86 default (256 bits) rules AVX512
 * out unless the application runs EAL with --force-max-simd-bitwidth=512. A process that
 * computes ICRCs before rte_eal_init() (width 0) gets the scalar path for good.
 *
 * Algorithm rte_net_crc uses (enum rte_net_crc_alg: 3 AVX512, 1 SSE42, 0 scalar), derived
 * from DPDK's selection rule, the CPU flags and EAL's SIMD width (read only). */
int icrc_alg();
/* Explicit application-level call, process-wide: rte_net_crc_set_alg(alg) for every user of
 * rte_net_crc in the process (DPDK falls back AVX512 -> SSE4.2 -> scalar). Returns icrc_alg().
 * Benchmarks use it; the library never calls it. */
int icrc_set_alg(int alg);
/* CRC-32 (Ethernet, = zlib crc32) of data through rte_net_crc, whichever API the DPDK release
 * has (gaudi_compat.h): what compute_icrc uses on the masked input up to 512 B (all of it
 * without libisal). */
uint32_t crc32_eth(const void *data, uint32_t len);
/* "AVX512/VPCLMULQDQ", "SSE4.2/PCLMULQDQ", "scalar", ... */
std::string_view crc_alg_name(int alg);

/* `datagram` = IP header .. last pad byte (without the ICRC). `ip_hdr_len` = bytes of the IP
 * header (IPv4 IHL*4 incl. options, IPv6 40). Returns false if the span is shorter than the
 * IP+UDP+BTH headers or longer than kMaxIcrcDatagramLen. */
bool compute_icrc(std::span<const uint8_t> datagram, IpVersion v, size_t ip_hdr_len,
		  uint32_t &icrc);
/* Same with a caller-provided scratch buffer of at least datagram.size() + 8 bytes (used only
 * in a build without libisal). */
bool compute_icrc(std::span<const uint8_t> datagram, IpVersion v, size_t ip_hdr_len, uint32_t &icrc,
		  std::span<uint8_t> scratch);

/* CRC-32 folded into a copy (TX: the payload gathered into the frame and CRC'd in one pass).
 * The CRC is zlib's convention: crc32_copy(crc32_copy(0, d, a, n), d + n, b, m) is the CRC of
 * a..b, as zlib's crc32(crc32(0, a, n), b, m); dst receives the bytes of src (not
 * overlapping). Variants: memcpy then the CRC (ISA-L's, bitwise without libisal), four-lane
 * PCLMULQDQ folding on SSE registers, and the same on 256-bit registers (VPCLMULQDQ); the
 * folded remainder and the last partial block are finished by ISA-L. */
enum class CrcCopyImpl : uint8_t { plain, pclmul128, vpclmul256 };
/* Tells a program built against older trees of this header (roce_goodput.py's reference) apart. */
#define GAUDI_ROCE_CRC_COPY 1
/* The variant used: plain where icrc_alg() is scalar, vpclmul256 where EAL's SIMD width allows
 * 256 bits and the CPU has AVX2 and VPCLMULQDQ (not after icrc_set_alg(SSE42)), else
 * pclmul128 (PCLMULQDQ and SSE4.1). Latched at first use, chosen again after icrc_set_alg. */
CrcCopyImpl crc_copy_impl();
bool crc_copy_supported(CrcCopyImpl impl);
std::string_view crc_copy_impl_name(CrcCopyImpl impl); /* "PCLMULQDQ/128", ... */
uint32_t crc32_copy(uint32_t crc, void *dst, const void *src, size_t n);
/* A given variant (tests, benchmarks); an unsupported one runs plain. */
uint32_t crc32_copy(CrcCopyImpl impl, uint32_t crc, void *dst, const void *src, size_t n);
/* The same fold in place, without the stores. */
uint32_t crc32_update(CrcCopyImpl impl, uint32_t crc, const void *data, size_t n);

/* The ICRC so far, zlib convention, over the 8 bytes of ones and `headers` (the datagram from
 * the IP header to the end of the extension headers, masked as compute_icrc masks them): the
 * payload and pad continue it (crc32_copy), and the result is the ICRC. False if `headers`
 * ends before the BTH does or is longer than kIcrcBeginMax. */
inline constexpr size_t kIcrcBeginMax = 256;
bool icrc_begin(std::span<const uint8_t> headers, IpVersion v, size_t ip_hdr_len, uint32_t &crc);

/* RFC 1071 IPv4 header checksum over `hdr` with the checksum field taken as 0. */
uint16_t ipv4_header_checksum(std::span<const uint8_t> hdr);

/* ---------------------------------------------------------------------------------------
 * Builder
 * --------------------------------------------------------------------------------------- */
struct BuildOptions {
	bool ext_from_opcode = true; /* write the opcode table's headers; false: Packet::ext_mask */
	bool lengths = true; /* EtherType, IP version/IHL/protocol, IP total/payload len, UDP len */
	bool ip_checksum = true;
	/* UDP checksum: computed when the IP version's flag is set, else udp.checksum as given.
	 * IPv4 RoCE NICs send 0. IPv6 forbids a zero UDP checksum (RFC 8200 8.1) and tshark
	 * flags it, so it is computed there by default (scapy's IPv6 vector carries one too). */
	bool udp_checksum = false;
	bool udp_checksum_ipv6 = true;
	bool pad = true;  /* PadCnt = (-payload) & 3, zero pad; false: bth.pad_cnt + Packet::pad */
	bool icrc = true; /* compute; false: write Packet::icrc as is */
	bool trailer = false; /* append Packet::trailer (re-encoding captured frames) */
	/* Raw mode: every field exactly as given in the Packet, valid or not. */
	static constexpr BuildOptions raw()
	{
		return {.ext_from_opcode = false,
			.lengths = false,
			.ip_checksum = false,
			.udp_checksum = false,
			.udp_checksum_ipv6 = false,
			.pad = false,
			.icrc = false,
			.trailer = true};
	}
};

enum class BuildError : uint8_t {
	ok = 0,
	buffer_too_small,
	bad_ip_options,	  /* IPv4 options not a multiple of 4 or > 40 B */
	payload_too_long, /* datagram would exceed 65535 B (lengths) or the ICRC scratch */
};
std::string_view error_name(BuildError e);

struct BuildResult {
	BuildError error = BuildError::ok;
	size_t len = 0; /* bytes written on ok; on buffer_too_small the bytes needed */
	explicit operator bool() const { return error == BuildError::ok; }
};

/* Encodes `pkt` into `out`. Payload and pad spans are copied. Opcodes unknown to the table
 * are written with no extension headers unless ext_from_opcode is false. */
BuildResult build(const Packet &pkt, std::span<uint8_t> out, const BuildOptions &opt = {});

/* A Packet with sane defaults for `op` (IPv4, ext_mask from the table, P_Key 0xFFFF,
 * CNP: BECN=1 and 16 zero reserved bytes as payload; GSI-style Q_Key for UD). */
Packet make_packet(Opcode op);

/* Standard RoCE v2 source-port choice from a 20-bit flow label (kernel
 * rdma_flow_label_to_udp_sport, rdma-core ibv_flow_label_to_udp_sport). */
constexpr uint16_t flow_label_to_udp_sport(uint32_t fl)
{
	uint32_t fl_low = fl & 0x03FFF, fl_high = fl & 0xFC000;
	return static_cast<uint16_t>((fl_low ^ (fl_high >> 14)) | 0xC000);
}

} /* namespace gaudi::roce */
