/* SPDX-License-Identifier: BSD-3-Clause */
/* CM MAD codec (roce_mad.h). Field positions: IBA Vol 1 chapter 12, Tables 106-120. */
#include "roce_mad.h"

#include <algorithm>
#include <cstring>

namespace gaudi::roce::mad {

namespace {

/* Byte offsets below are into the CM data, i.e. after the MAD header. */
struct Writer {
	uint8_t *d;
	void u8(size_t off, uint8_t v) { d[kMadHeaderSize + off] = v; }
	void u16(size_t off, uint16_t v)
	{
		u8(off, uint8_t(v >> 8));
		u8(off + 1, uint8_t(v));
	}
	void u24(size_t off, uint32_t v)
	{
		u8(off, uint8_t(v >> 16));
		u8(off + 1, uint8_t(v >> 8));
		u8(off + 2, uint8_t(v));
	}
	void u32(size_t off, uint32_t v)
	{
		u16(off, uint16_t(v >> 16));
		u16(off + 2, uint16_t(v));
	}
	void u64(size_t off, uint64_t v)
	{
		u32(off, uint32_t(v >> 32));
		u32(off + 4, uint32_t(v));
	}
	/* `width` bits starting `bit` bits below the byte's MSB (IBA bit numbering). */
	void bits(size_t off, unsigned bit, unsigned width, unsigned v)
	{
		unsigned shift = 8 - bit - width;
		uint8_t mask = uint8_t(((1u << width) - 1) << shift);
		uint8_t &b = d[kMadHeaderSize + off];
		b = uint8_t((b & ~mask) | ((v << shift) & mask));
	}
	void bytes(size_t off, std::span<const uint8_t> s)
	{
		std::memcpy(d + kMadHeaderSize + off, s.data(), s.size());
	}
};

struct Reader {
	const uint8_t *d;
	uint8_t u8(size_t off) const { return d[kMadHeaderSize + off]; }
	uint16_t u16(size_t off) const { return uint16_t(u8(off) << 8 | u8(off + 1)); }
	uint32_t u24(size_t off) const { return uint32_t(u8(off)) << 16 | u16(off + 1); }
	uint32_t u32(size_t off) const { return uint32_t(u16(off)) << 16 | u16(off + 2); }
	uint64_t u64(size_t off) const { return uint64_t(u32(off)) << 32 | u32(off + 4); }
	unsigned bits(size_t off, unsigned bit, unsigned width) const
	{
		return (u8(off) >> (8 - bit - width)) & ((1u << width) - 1);
	}
	template <size_t N>
	void bytes(size_t off, std::array<uint8_t, N> &a) const
	{
		std::memcpy(a.data(), d + kMadHeaderSize + off, N);
	}
};

void begin(const MadHeader &h, CmAttr attr, Mad &out)
{
	out.fill(0);
	MadHeader hh = h;
	hh.attribute_id = uint16_t(attr);
	encode_header(hh, out);
}

/* REQ path block at `off`: primary at 52, alternate at 96 (Table 106). */
void put_path(Writer &w, size_t off, const CmPath &p)
{
	w.u16(off + 0, p.local_port_lid);
	w.u16(off + 2, p.remote_port_lid);
	w.bytes(off + 4, p.local_port_gid);
	w.bytes(off + 20, p.remote_port_gid);
	w.u24(off + 36, (p.flow_label & 0xFFFFF) << 4); /* 20 bits at the MSB of bytes 36..38 */
	w.bits(off + 39, 2, 6, p.packet_rate);
	w.u8(off + 40, p.traffic_class);
	w.u8(off + 41, p.hop_limit);
	w.bits(off + 42, 0, 4, p.sl);
	w.bits(off + 42, 4, 1, p.subnet_local);
	w.bits(off + 43, 0, 5, p.local_ack_timeout);
}

void get_path(const Reader &r, size_t off, CmPath &p)
{
	p.local_port_lid = r.u16(off + 0);
	p.remote_port_lid = r.u16(off + 2);
	r.bytes(off + 4, p.local_port_gid);
	r.bytes(off + 20, p.remote_port_gid);
	p.flow_label = r.u24(off + 36) >> 4;
	p.packet_rate = uint8_t(r.bits(off + 39, 2, 6));
	p.traffic_class = r.u8(off + 40);
	p.hop_limit = r.u8(off + 41);
	p.sl = uint8_t(r.bits(off + 42, 0, 4));
	p.subnet_local = r.bits(off + 42, 4, 1);
	p.local_ack_timeout = uint8_t(r.bits(off + 43, 0, 5));
}

} /* namespace */

std::string_view attr_name(uint16_t attr)
{
	switch (CmAttr(attr)) {
	case CmAttr::class_port_info:
		return "ClassPortInfo";
	case CmAttr::req:
		return "REQ";
	case CmAttr::mra:
		return "MRA";
	case CmAttr::rej:
		return "REJ";
	case CmAttr::rep:
		return "REP";
	case CmAttr::rtu:
		return "RTU";
	case CmAttr::dreq:
		return "DREQ";
	case CmAttr::drep:
		return "DREP";
	case CmAttr::sidr_req:
		return "SIDR_REQ";
	case CmAttr::sidr_rep:
		return "SIDR_REP";
	case CmAttr::lap:
		return "LAP";
	case CmAttr::apr:
		return "APR";
	}
	return "?";
}

std::string_view rej_reason_name(uint16_t reason)
{
	switch (RejReason(reason)) {
	case RejReason::no_qp:
		return "no QP";
	case RejReason::no_resources:
		return "no resources";
	case RejReason::timeout:
		return "timeout";
	case RejReason::unsupported:
		return "unsupported request";
	case RejReason::invalid_comm_id:
		return "invalid comm ID";
	case RejReason::invalid_service_id:
		return "invalid service ID";
	case RejReason::invalid_transport_type:
		return "invalid transport service type";
	case RejReason::stale_connection:
		return "stale connection";
	case RejReason::invalid_gid:
		return "invalid GID";
	case RejReason::invalid_mtu:
		return "invalid MTU";
	case RejReason::consumer_defined:
		return "consumer defined";
	}
	return "other";
}

void encode_header(const MadHeader &h, Mad &out)
{
	uint8_t *d = out.data();
	d[0] = h.base_version;
	d[1] = h.mgmt_class;
	d[2] = h.class_version;
	d[3] = h.method;
	d[4] = uint8_t(h.status >> 8);
	d[5] = uint8_t(h.status);
	d[6] = uint8_t(h.class_specific >> 8);
	d[7] = uint8_t(h.class_specific);
	for (int i = 0; i < 8; i++)
		d[8 + i] = uint8_t(h.transaction_id >> (56 - 8 * i));
	d[16] = uint8_t(h.attribute_id >> 8);
	d[17] = uint8_t(h.attribute_id);
	d[18] = d[19] = 0; /* reserved */
	for (int i = 0; i < 4; i++)
		d[20 + i] = uint8_t(h.attribute_modifier >> (24 - 8 * i));
}

bool decode_header(std::span<const uint8_t> in, MadHeader &h)
{
	if (in.size() < kMadHeaderSize)
		return false;
	const uint8_t *d = in.data();
	h.base_version = d[0];
	h.mgmt_class = d[1];
	h.class_version = d[2];
	h.method = d[3];
	h.status = uint16_t(d[4] << 8 | d[5]);
	h.class_specific = uint16_t(d[6] << 8 | d[7]);
	h.transaction_id = 0;
	for (int i = 0; i < 8; i++)
		h.transaction_id = h.transaction_id << 8 | d[8 + i];
	h.attribute_id = uint16_t(d[16] << 8 | d[17]);
	h.attribute_modifier =
		uint32_t(d[20]) << 24 | uint32_t(d[21]) << 16 | uint32_t(d[22]) << 8 | d[23];
	return true;
}

void encode(const MadHeader &h, const CmReq &m, Mad &out)
{
	begin(h, CmAttr::req, out);
	Writer w{out.data()};
	w.u32(0, m.local_comm_id);
	w.u24(5, m.vendor_id);
	w.u64(8, m.service_id);
	w.u64(16, m.local_ca_guid);
	w.u32(28, m.local_q_key);
	w.u24(32, m.local_qpn);
	w.u8(35, m.responder_resources);
	w.u24(36, m.local_eecn);
	w.u8(39, m.initiator_depth);
	w.u24(40, m.remote_eecn);
	w.bits(43, 0, 5, m.remote_cm_response_timeout);
	w.bits(43, 5, 2, m.transport_service_type);
	w.bits(43, 7, 1, m.end_to_end_flow_control);
	w.u24(44, m.starting_psn);
	w.bits(47, 0, 5, m.local_cm_response_timeout);
	w.bits(47, 5, 3, m.retry_count);
	w.u16(48, m.partition_key);
	w.bits(50, 0, 4, m.path_packet_payload_mtu);
	w.bits(50, 4, 1, m.rdc_exists);
	w.bits(50, 5, 3, m.rnr_retry_count);
	w.bits(51, 0, 4, m.max_cm_retries);
	w.bits(51, 4, 1, m.srq);
	w.bits(51, 5, 3, m.extended_transport_type);
	put_path(w, 52, m.primary);
	put_path(w, 96, m.alternate);
	w.bytes(140, m.private_data);
}

bool decode(std::span<const uint8_t> in, CmReq &m)
{
	if (in.size() < kMadSize)
		return false;
	Reader r{in.data()};
	m.local_comm_id = r.u32(0);
	m.vendor_id = r.u24(5);
	m.service_id = r.u64(8);
	m.local_ca_guid = r.u64(16);
	m.local_q_key = r.u32(28);
	m.local_qpn = r.u24(32);
	m.responder_resources = r.u8(35);
	m.local_eecn = r.u24(36);
	m.initiator_depth = r.u8(39);
	m.remote_eecn = r.u24(40);
	m.remote_cm_response_timeout = uint8_t(r.bits(43, 0, 5));
	m.transport_service_type = uint8_t(r.bits(43, 5, 2));
	m.end_to_end_flow_control = r.bits(43, 7, 1);
	m.starting_psn = r.u24(44);
	m.local_cm_response_timeout = uint8_t(r.bits(47, 0, 5));
	m.retry_count = uint8_t(r.bits(47, 5, 3));
	m.partition_key = r.u16(48);
	m.path_packet_payload_mtu = uint8_t(r.bits(50, 0, 4));
	m.rdc_exists = r.bits(50, 4, 1);
	m.rnr_retry_count = uint8_t(r.bits(50, 5, 3));
	m.max_cm_retries = uint8_t(r.bits(51, 0, 4));
	m.srq = r.bits(51, 4, 1);
	m.extended_transport_type = uint8_t(r.bits(51, 5, 3));
	get_path(r, 52, m.primary);
	get_path(r, 96, m.alternate);
	r.bytes(140, m.private_data);
	return true;
}

void encode(const MadHeader &h, const CmMra &m, Mad &out)
{
	begin(h, CmAttr::mra, out);
	Writer w{out.data()};
	w.u32(0, m.local_comm_id);
	w.u32(4, m.remote_comm_id);
	w.bits(8, 0, 2, unsigned(m.message_mraed));
	w.bits(9, 0, 5, m.service_timeout);
	w.bytes(10, m.private_data);
}

bool decode(std::span<const uint8_t> in, CmMra &m)
{
	if (in.size() < kMadSize)
		return false;
	Reader r{in.data()};
	m.local_comm_id = r.u32(0);
	m.remote_comm_id = r.u32(4);
	m.message_mraed = MsgKind(r.bits(8, 0, 2));
	m.service_timeout = uint8_t(r.bits(9, 0, 5));
	r.bytes(10, m.private_data);
	return true;
}

void encode(const MadHeader &h, const CmRej &m, Mad &out)
{
	begin(h, CmAttr::rej, out);
	Writer w{out.data()};
	w.u32(0, m.local_comm_id);
	w.u32(4, m.remote_comm_id);
	w.bits(8, 0, 2, unsigned(m.message_rejected));
	w.bits(9, 0, 7, m.rejected_info_length);
	w.u16(10, m.reason);
	w.bytes(12, m.ari);
	w.bytes(84, m.private_data);
}

bool decode(std::span<const uint8_t> in, CmRej &m)
{
	if (in.size() < kMadSize)
		return false;
	Reader r{in.data()};
	m.local_comm_id = r.u32(0);
	m.remote_comm_id = r.u32(4);
	m.message_rejected = MsgKind(r.bits(8, 0, 2));
	m.rejected_info_length = uint8_t(r.bits(9, 0, 7));
	m.reason = r.u16(10);
	r.bytes(12, m.ari);
	r.bytes(84, m.private_data);
	return true;
}

void encode(const MadHeader &h, const CmRep &m, Mad &out)
{
	begin(h, CmAttr::rep, out);
	Writer w{out.data()};
	w.u32(0, m.local_comm_id);
	w.u32(4, m.remote_comm_id);
	w.u32(8, m.local_q_key);
	w.u24(12, m.local_qpn);
	w.u8(15, uint8_t(m.vendor_id >> 16)); /* VendorID[23:16] */
	w.u24(16, m.local_eecn);
	w.u8(19, uint8_t(m.vendor_id >> 8)); /* VendorID[15:8] */
	w.u24(20, m.starting_psn);
	w.u8(23, uint8_t(m.vendor_id)); /* VendorID[7:0] */
	w.u8(24, m.responder_resources);
	w.u8(25, m.initiator_depth);
	w.bits(26, 0, 5, m.target_ack_delay);
	w.bits(26, 5, 2, m.failover_accepted);
	w.bits(26, 7, 1, m.end_to_end_flow_control);
	w.bits(27, 0, 3, m.rnr_retry_count);
	w.bits(27, 3, 1, m.srq);
	w.u64(28, m.local_ca_guid);
	w.bytes(36, m.private_data);
}

bool decode(std::span<const uint8_t> in, CmRep &m)
{
	if (in.size() < kMadSize)
		return false;
	Reader r{in.data()};
	m.local_comm_id = r.u32(0);
	m.remote_comm_id = r.u32(4);
	m.local_q_key = r.u32(8);
	m.local_qpn = r.u24(12);
	m.vendor_id = uint32_t(r.u8(15)) << 16 | uint32_t(r.u8(19)) << 8 | r.u8(23);
	m.local_eecn = r.u24(16);
	m.starting_psn = r.u24(20);
	m.responder_resources = r.u8(24);
	m.initiator_depth = r.u8(25);
	m.target_ack_delay = uint8_t(r.bits(26, 0, 5));
	m.failover_accepted = uint8_t(r.bits(26, 5, 2));
	m.end_to_end_flow_control = r.bits(26, 7, 1);
	m.rnr_retry_count = uint8_t(r.bits(27, 0, 3));
	m.srq = r.bits(27, 3, 1);
	m.local_ca_guid = r.u64(28);
	r.bytes(36, m.private_data);
	return true;
}

void encode(const MadHeader &h, const CmRtu &m, Mad &out, CmAttr attr)
{
	begin(h, attr, out);
	Writer w{out.data()};
	w.u32(0, m.local_comm_id);
	w.u32(4, m.remote_comm_id);
	w.bytes(8, m.private_data);
}

bool decode(std::span<const uint8_t> in, CmRtu &m)
{
	if (in.size() < kMadSize)
		return false;
	Reader r{in.data()};
	m.local_comm_id = r.u32(0);
	m.remote_comm_id = r.u32(4);
	r.bytes(8, m.private_data);
	return true;
}

void encode(const MadHeader &h, const CmDreq &m, Mad &out)
{
	begin(h, CmAttr::dreq, out);
	Writer w{out.data()};
	w.u32(0, m.local_comm_id);
	w.u32(4, m.remote_comm_id);
	w.u24(8, m.remote_qpn_eecn);
	w.bytes(12, m.private_data);
}

bool decode(std::span<const uint8_t> in, CmDreq &m)
{
	if (in.size() < kMadSize)
		return false;
	Reader r{in.data()};
	m.local_comm_id = r.u32(0);
	m.remote_comm_id = r.u32(4);
	m.remote_qpn_eecn = r.u24(8);
	r.bytes(12, m.private_data);
	return true;
}

void encode(const MadHeader &h, const CmSidrReq &m, Mad &out)
{
	begin(h, CmAttr::sidr_req, out);
	Writer w{out.data()};
	w.u32(0, m.request_id);
	w.u16(4, m.partition_key);
	w.u64(8, m.service_id);
	w.bytes(16, m.private_data);
}

bool decode(std::span<const uint8_t> in, CmSidrReq &m)
{
	if (in.size() < kMadSize)
		return false;
	Reader r{in.data()};
	m.request_id = r.u32(0);
	m.partition_key = r.u16(4);
	m.service_id = r.u64(8);
	r.bytes(16, m.private_data);
	return true;
}

void encode(const MadHeader &h, const CmSidrRep &m, Mad &out)
{
	begin(h, CmAttr::sidr_rep, out);
	Writer w{out.data()};
	w.u32(0, m.request_id);
	w.u8(4, m.status);
	w.u8(5, m.additional_information_length);
	w.u16(6, uint16_t(m.vendor_id >> 8)); /* VendorID[23:8] */
	w.u24(8, m.qpn);
	w.u8(11, uint8_t(m.vendor_id)); /* VendorID[7:0] */
	w.u64(12, m.service_id);
	w.u32(20, m.q_key);
	w.bytes(24, m.additional_information);
	w.bytes(96, m.private_data);
}

bool decode(std::span<const uint8_t> in, CmSidrRep &m)
{
	if (in.size() < kMadSize)
		return false;
	Reader r{in.data()};
	m.request_id = r.u32(0);
	m.status = r.u8(4);
	m.additional_information_length = r.u8(5);
	m.vendor_id = uint32_t(r.u16(6)) << 8 | r.u8(11);
	m.qpn = r.u24(8);
	m.service_id = r.u64(12);
	m.q_key = r.u32(20);
	r.bytes(24, m.additional_information);
	r.bytes(96, m.private_data);
	return true;
}

bool parse_service_id(uint64_t sid, PortSpace &ps, uint16_t &port)
{
	if ((sid & 0xFFFFFFFFFF000000ULL) != 0x0000000001000000ULL)
		return false;
	/* Bit 24 is set in both the base and the port spaces 0x01xx: bits 16..31 are the space. */
	uint16_t raw = uint16_t(sid >> 16);
	ps = raw == 0x0102 ? PortSpace::ipoib : PortSpace(raw);
	port = uint16_t(sid);
	return true;
}

void encode_cma_hdr(const CmaHdr &h, std::span<uint8_t> out)
{
	out[0] = h.cma_version;
	out[1] = uint8_t(h.ip_version << 4);
	out[2] = uint8_t(h.src_port >> 8);
	out[3] = uint8_t(h.src_port);
	std::copy(h.src_addr.begin(), h.src_addr.end(), out.begin() + 4);
	std::copy(h.dst_addr.begin(), h.dst_addr.end(), out.begin() + 20);
}

bool decode_cma_hdr(std::span<const uint8_t> in, CmaHdr &h)
{
	if (in.size() < kCmaHdrSize)
		return false;
	h.cma_version = in[0];
	h.ip_version = in[1] >> 4;
	h.src_port = uint16_t(in[2] << 8 | in[3]);
	std::copy(in.begin() + 4, in.begin() + 20, h.src_addr.begin());
	std::copy(in.begin() + 20, in.begin() + 36, h.dst_addr.begin());
	return h.cma_version == kCmaVersion && (h.ip_version == 4 || h.ip_version == 6);
}

} /* namespace gaudi::roce::mad */
