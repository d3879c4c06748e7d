/* SPDX-License-Identifier: BSD-3-Clause */
/* Wire layouts of the Communication Management MADs (IBA Vol 1 rel. 1.4, chapter 12) and of the
 * IP-based CM private data header librdmacm puts in a REQ (rdma_cm's cma_hdr, Linux
 * drivers/infiniband/core/cma.c), as plain structs with the spec's field names and an
 * encoder/decoder per message. No DPDK here: the codec is tested against hand-checked bytes.
 *
 * A MAD is 256 bytes: the 24-byte common MAD header (IBA 13.4.3, Table 145) and 232 bytes of
 * CM data. Offsets below are byte offsets into the CM data (IBA 12.6, Tables 106-120) as the
 * kernel's include/rdma/ibta_vol1_c12.h lists them; bit fields start at the byte's MSB
 * (IBA bit 0 = most significant). All multi-byte fields are big-endian.
 *
 * On RoCE v2 a MAD travels as the payload of a UD SEND_ONLY to QP1 (the GSI), DETH Q_Key
 * 0x80010000, P_Key 0xFFFF (IBA 13.5.1, Annex A17). */
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace gaudi::roce::mad {

inline constexpr size_t kMadSize = 256;
inline constexpr size_t kMadHeaderSize = 24;
inline constexpr size_t kCmDataSize = kMadSize - kMadHeaderSize; /* 232 */
inline constexpr uint32_t kGsiQpn = 1;
inline constexpr uint32_t kGsiQkey = 0x80010000; /* IBA 13.5.1.1: the well-known GSI Q_Key */
inline constexpr uint8_t kBaseVersion = 1;
inline constexpr uint8_t kClassCm = 0x07;     /* MgmtClass: Communication Management */
inline constexpr uint8_t kCmClassVersion = 2; /* IBA 1.2 and later (IB_CM_CLASS_VERSION) */
inline constexpr uint8_t kMethodSend = 0x03;  /* CM messages are unsolicited Sends (12.6.1) */

/* AttributeID of each CM message (IBA 12.6, Table 105). */
enum class CmAttr : uint16_t {
	class_port_info = 0x0001,
	req = 0x0010,
	mra = 0x0011,
	rej = 0x0012,
	rep = 0x0013,
	rtu = 0x0014,
	dreq = 0x0015,
	drep = 0x0016,
	sidr_req = 0x0017,
	sidr_rep = 0x0018,
	lap = 0x0019,
	apr = 0x001A,
};
std::string_view attr_name(uint16_t attr); /* "REQ", "REP", ..., "?" when unknown */

/* REJ Reason (IBA 12.6.7.2, Table 109), the ones this CM sends or tells apart. */
enum class RejReason : uint16_t {
	no_qp = 1,
	no_resources = 3,
	timeout = 4,
	unsupported = 5,
	invalid_comm_id = 6,
	invalid_service_id = 8,
	invalid_transport_type = 9,
	stale_connection = 10,
	invalid_gid = 12,
	invalid_mtu = 26,
	consumer_defined = 28, /* what librdmacm's rdma_reject() sends */
};
std::string_view rej_reason_name(uint16_t reason);

/* MRA "Message MRAed" / REJ "Message REJected" (Tables 107, 108). */
enum class MsgKind : uint8_t { req = 0, rep = 1, other = 2 };

/* Common MAD header (IBA 13.4.3, Table 145). */
struct MadHeader {
	uint8_t base_version = kBaseVersion;
	uint8_t mgmt_class = kClassCm;
	uint8_t class_version = kCmClassVersion;
	uint8_t method = kMethodSend;
	uint16_t status = 0;
	uint16_t class_specific = 0;
	uint64_t transaction_id = 0;
	uint16_t attribute_id = 0;
	uint32_t attribute_modifier = 0;
};

/* Path information inside a REQ (primary or alternate). */
struct CmPath {
	uint16_t local_port_lid =
		0xFFFF; /* RoCE: permissive LID (the kernel's choice when routed) */
	uint16_t remote_port_lid = 0xFFFF;
	std::array<uint8_t, 16> local_port_gid{};
	std::array<uint8_t, 16> remote_port_gid{};
	uint32_t flow_label = 0; /* 20 bits */
	uint8_t packet_rate = 0; /* 6 bits */
	uint8_t traffic_class = 0;
	uint8_t hop_limit = 0;
	uint8_t sl = 0;		       /* 4 bits */
	bool subnet_local = false;     /* 1 bit */
	uint8_t local_ack_timeout = 0; /* 5 bits */
};

/* REQ (Table 106). */
struct CmReq {
	uint32_t local_comm_id = 0;
	uint32_t vendor_id = 0; /* 24 bits */
	uint64_t service_id = 0;
	uint64_t local_ca_guid = 0;
	uint32_t local_q_key = 0;
	uint32_t local_qpn = 0; /* 24 bits */
	uint8_t responder_resources = 0;
	uint32_t local_eecn = 0;
	uint8_t initiator_depth = 0;
	uint32_t remote_eecn = 0;
	uint8_t remote_cm_response_timeout = 0; /* 5 bits: 4.096 us * 2^x */
	uint8_t transport_service_type = 0;	/* 2 bits: 0 RC, 1 UC, 3 XRC */
	bool end_to_end_flow_control = false;
	uint32_t starting_psn = 0;	       /* 24 bits */
	uint8_t local_cm_response_timeout = 0; /* 5 bits */
	uint8_t retry_count = 0;	       /* 3 bits */
	uint16_t partition_key = 0xFFFF;
	uint8_t path_packet_payload_mtu = 0; /* 4 bits, ibv_mtu values (1 = 256 .. 5 = 4096) */
	bool rdc_exists = false;
	uint8_t rnr_retry_count = 0; /* 3 bits */
	uint8_t max_cm_retries = 0;  /* 4 bits */
	bool srq = false;
	uint8_t extended_transport_type = 0; /* 3 bits */
	CmPath primary;
	CmPath alternate{0, 0}; /* all zero: no alternate path */
	std::array<uint8_t, 92> private_data{};
};

/* MRA (Table 107). */
struct CmMra {
	uint32_t local_comm_id = 0;
	uint32_t remote_comm_id = 0;
	MsgKind message_mraed = MsgKind::req; /* 2 bits */
	uint8_t service_timeout = 0;	      /* 5 bits */
	std::array<uint8_t, 222> private_data{};
};

/* REJ (Table 108). */
struct CmRej {
	uint32_t local_comm_id = 0;
	uint32_t remote_comm_id = 0;
	MsgKind message_rejected = MsgKind::req; /* 2 bits */
	uint8_t rejected_info_length = 0;	 /* 7 bits */
	uint16_t reason = 0;
	std::array<uint8_t, 72> ari{};
	std::array<uint8_t, 148> private_data{};
};

/* REP (Table 110). */
struct CmRep {
	uint32_t local_comm_id = 0;
	uint32_t remote_comm_id = 0;
	uint32_t local_q_key = 0;
	uint32_t local_qpn = 0; /* 24 bits */
	uint32_t vendor_id = 0; /* 24 bits, split over three bytes on the wire */
	uint32_t local_eecn = 0;
	uint32_t starting_psn = 0; /* 24 bits */
	uint8_t responder_resources = 0;
	uint8_t initiator_depth = 0;
	uint8_t target_ack_delay = 0;  /* 5 bits */
	uint8_t failover_accepted = 0; /* 2 bits */
	bool end_to_end_flow_control = false;
	uint8_t rnr_retry_count = 0; /* 3 bits */
	bool srq = false;
	uint64_t local_ca_guid = 0;
	std::array<uint8_t, 196> private_data{};
};

/* RTU (Table 111) and DREP (Table 113) have the same shape. */
struct CmRtu {
	uint32_t local_comm_id = 0;
	uint32_t remote_comm_id = 0;
	std::array<uint8_t, 224> private_data{};
};
using CmDrep = CmRtu;

/* DREQ (Table 112). */
struct CmDreq {
	uint32_t local_comm_id = 0;
	uint32_t remote_comm_id = 0;
	uint32_t remote_qpn_eecn = 0; /* 24 bits */
	std::array<uint8_t, 220> private_data{};
};

/* SIDR_REQ (Table 119) and SIDR_REP (Table 120). */
struct CmSidrReq {
	uint32_t request_id = 0;
	uint16_t partition_key = 0xFFFF;
	uint64_t service_id = 0;
	std::array<uint8_t, 216> private_data{};
};
struct CmSidrRep {
	uint32_t request_id = 0;
	uint8_t status = 0; /* 0 = QP valid, 1 = service ID not supported, 2 = rejected */
	uint8_t additional_information_length = 0;
	uint32_t qpn = 0;	/* 24 bits */
	uint32_t vendor_id = 0; /* 24 bits */
	uint64_t service_id = 0;
	uint32_t q_key = 0;
	std::array<uint8_t, 72> additional_information{};
	std::array<uint8_t, 136> private_data{};
};

using Mad = std::array<uint8_t, kMadSize>;

void encode_header(const MadHeader &h, Mad &out);
/* False when shorter than a MAD header. */
bool decode_header(std::span<const uint8_t> in, MadHeader &h);

/* encode(): header (attribute_id set from the message) + message into a zeroed MAD.
 * decode(): false when `in` is shorter than a MAD. The header is decoded separately. */
void encode(const MadHeader &h, const CmReq &m, Mad &out);
void encode(const MadHeader &h, const CmMra &m, Mad &out);
void encode(const MadHeader &h, const CmRej &m, Mad &out);
void encode(const MadHeader &h, const CmRep &m, Mad &out);
void encode(const MadHeader &h, const CmRtu &m, Mad &out, CmAttr attr = CmAttr::rtu);
void encode(const MadHeader &h, const CmDreq &m, Mad &out);
void encode(const MadHeader &h, const CmSidrReq &m, Mad &out);
void encode(const MadHeader &h, const CmSidrRep &m, Mad &out);
bool decode(std::span<const uint8_t> in, CmReq &m);
bool decode(std::span<const uint8_t> in, CmMra &m);
bool decode(std::span<const uint8_t> in, CmRej &m);
bool decode(std::span<const uint8_t> in, CmRep &m);
bool decode(std::span<const uint8_t> in, CmRtu &m); /* also DREP */
bool decode(std::span<const uint8_t> in, CmDreq &m);
bool decode(std::span<const uint8_t> in, CmSidrReq &m);
bool decode(std::span<const uint8_t> in, CmSidrRep &m);

/* ---------------------------------------------------------------------------------------
 * rdma_cm IP addressing (librdmacm over IB CM): service IDs and the REQ private data header.
 * ---------------------------------------------------------------------------------------
 * Port spaces (rdma_cma.h enum rdma_ucm_port_space) and the service ID of an IP port in one:
 * 0x0000000001000000 | ps << 16 | port (cma.c cma_get_service_id). */
enum class PortSpace : uint16_t { ipoib = 0x0002, tcp = 0x0106, udp = 0x0111, ib = 0x013F };
constexpr uint64_t service_id(PortSpace ps, uint16_t port)
{
	return 0x0000000001000000ULL | uint64_t(ps) << 16 | port;
}
/* True and ps/port when `sid` is an rdma_cm IP service ID. */
bool parse_service_id(uint64_t sid, PortSpace &ps, uint16_t &port);

/* cma_hdr: the first 36 bytes of a REQ's (or SIDR_REQ's) private data from librdmacm. */
inline constexpr size_t kCmaHdrSize = 36;
inline constexpr uint8_t kCmaVersion = 0x00;
struct CmaHdr {
	uint8_t cma_version = kCmaVersion;
	uint8_t ip_version = 4; /* 4 or 6 (high nibble of the second byte on the wire) */
	uint16_t src_port = 0;
	/* IPv6 address, or IPv4 in the last 4 bytes (the first 12 zero, as cma_ip_addr.ip4). */
	std::array<uint8_t, 16> src_addr{};
	std::array<uint8_t, 16> dst_addr{};
};
void encode_cma_hdr(const CmaHdr &h, std::span<uint8_t> out); /* out.size() >= 36 */
/* False when too short, cma_version is not 0 or the IP version is neither 4 nor 6. */
bool decode_cma_hdr(std::span<const uint8_t> in, CmaHdr &h);

} /* namespace gaudi::roce::mad */
