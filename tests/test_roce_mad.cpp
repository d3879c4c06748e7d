/* SPDX-License-Identifier: BSD-3-Clause
 * CM MAD codec (drivers/net/gaudi/roce/roce_mad.h) against hand-checked bytes: each expected
 * byte below was worked out from the field tables of IBA Vol 1 chapter 12 (Tables 106-120:
 * byte offset in the CM data + 24 for the MAD header, bit 0 = MSB), not from the encoder.
 */
#include <cstring>

#include <gtest/gtest.h>

#include "roce_mad.h"

using namespace gaudi::roce::mad;

namespace {

MadHeader hdr(uint64_t tid)
{
	MadHeader h;
	h.transaction_id = tid;
	return h;
}

std::array<uint8_t, 16> v4_gid(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	return {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, a, b, c, d};
}

TEST(CmMad, HeaderBytes)
{
	Mad m;
	CmRtu rtu;
	encode(hdr(0x0102030405060708ULL), rtu, m);
	/* Table 145: BaseVersion 1, MgmtClass 0x07 (CM), ClassVersion 2, Method 0x03 (Send),
	 * Status, ClassSpecific, TransactionID, AttributeID 0x0014 (RTU), reserved, modifier. */
	const uint8_t want[24] = {0x01, 0x07, 0x02, 0x03, 0, 0,	   0, 0, 1, 2, 3, 4,
				  5,	6,    7,    8,	  0, 0x14, 0, 0, 0, 0, 0, 0};
	EXPECT_EQ(std::memcmp(m.data(), want, 24), 0);
	MadHeader h;
	ASSERT_TRUE(decode_header(m, h));
	EXPECT_EQ(h.transaction_id, 0x0102030405060708ULL);
	EXPECT_EQ(h.attribute_id, uint16_t(CmAttr::rtu));
	EXPECT_EQ(attr_name(h.attribute_id), "RTU");
	EXPECT_FALSE(decode_header(std::span<const uint8_t>(m.data(), 23), h));
}

TEST(CmMad, ReqFieldOffsets)
{
	CmReq r;
	r.local_comm_id = 0x11223344;
	r.service_id = service_id(PortSpace::tcp, 7174); /* rping's default port */
	r.local_ca_guid = 0x5254FFFE00770001ULL;
	r.local_qpn = 0x000123;
	r.responder_resources = 4;
	r.initiator_depth = 2;
	r.remote_cm_response_timeout = 20;
	r.transport_service_type = 0;
	r.end_to_end_flow_control = true;
	r.starting_psn = 0xABCDEF;
	r.local_cm_response_timeout = 20;
	r.retry_count = 7;
	r.path_packet_payload_mtu = 5; /* 4096 */
	r.rnr_retry_count = 6;
	r.max_cm_retries = 15;
	r.primary.local_port_gid = v4_gid(192, 168, 77, 1);
	r.primary.remote_port_gid = v4_gid(192, 168, 77, 2);
	r.primary.flow_label = 0x12345;
	r.primary.packet_rate = 16;
	r.primary.traffic_class = 0x68;
	r.primary.hop_limit = 64;
	r.primary.sl = 3;
	r.primary.subnet_local = true;
	r.primary.local_ack_timeout = 14;
	r.private_data[0] = 0xAA;
	r.private_data[91] = 0xBB;
	Mad m;
	encode(hdr(1), r, m);
	EXPECT_EQ(m[16], 0x00);
	EXPECT_EQ(m[17], 0x10); /* REQ */
	/* LocalCommunicationID at 0. */
	EXPECT_EQ(m[24], 0x11);
	EXPECT_EQ(m[27], 0x44);
	/* ServiceID at 8: 0x0000000001061C06. */
	const uint8_t sid[8] = {0, 0, 0, 0, 0x01, 0x06, 0x1C, 0x06};
	EXPECT_EQ(std::memcmp(&m[32], sid, 8), 0);
	/* LocalCAGUID at 16. */
	EXPECT_EQ(m[40], 0x52);
	EXPECT_EQ(m[47], 0x01);
	/* LocalQPN at 32 (24 bits), ResponderResources at 35, InitiatorDepth at 39. */
	EXPECT_EQ(m[56], 0x00);
	EXPECT_EQ(m[57], 0x01);
	EXPECT_EQ(m[58], 0x23);
	EXPECT_EQ(m[59], 4);
	EXPECT_EQ(m[63], 2);
	/* Byte 43: RemoteCMResponseTimeout(5) | TransportServiceType(2) | E2E flow control(1). */
	EXPECT_EQ(m[67], (20 << 3) | 0 | 1);
	/* StartingPSN at 44; byte 47: LocalCMResponseTimeout(5) | RetryCount(3). */
	EXPECT_EQ(m[68], 0xAB);
	EXPECT_EQ(m[70], 0xEF);
	EXPECT_EQ(m[71], (20 << 3) | 7);
	/* PartitionKey at 48; byte 50: PathMTU(4) | RDCExists(1) | RNRRetryCount(3);
	 * byte 51: MaxCMRetries(4) | SRQ(1) | ExtendedTransportType(3). */
	EXPECT_EQ(m[72], 0xFF);
	EXPECT_EQ(m[73], 0xFF);
	EXPECT_EQ(m[74], (5 << 4) | 6);
	EXPECT_EQ(m[75], 15 << 4);
	/* Primary path at 52: LIDs 0xFFFF, local GID at 56, remote GID at 72. */
	EXPECT_EQ(m[76], 0xFF);
	EXPECT_EQ(m[79], 0xFF);
	EXPECT_EQ(m[80 + 10], 0xFF);
	EXPECT_EQ(m[80 + 15], 1);
	EXPECT_EQ(m[96 + 15], 2);
	/* FlowLabel: 20 bits at 88; PacketRate: low 6 bits of 91; TrafficClass 92; HopLimit 93;
	 * byte 94: SL(4) | SubnetLocal(1); byte 95: LocalACKTimeout(5). */
	EXPECT_EQ(m[112], 0x12);
	EXPECT_EQ(m[113], 0x34);
	EXPECT_EQ(m[114], 0x50);
	EXPECT_EQ(m[115], 16);
	EXPECT_EQ(m[116], 0x68);
	EXPECT_EQ(m[117], 64);
	EXPECT_EQ(m[118], (3 << 4) | (1 << 3));
	EXPECT_EQ(m[119], 14 << 3);
	/* No alternate path (96..139 zero); PrivateData at 140, 92 bytes. */
	for (int i = 120; i < 164; i++)
		EXPECT_EQ(m[i], 0) << i;
	EXPECT_EQ(m[164], 0xAA);
	EXPECT_EQ(m[255], 0xBB);

	CmReq d;
	ASSERT_TRUE(decode(m, d));
	EXPECT_EQ(d.local_comm_id, r.local_comm_id);
	EXPECT_EQ(d.service_id, r.service_id);
	EXPECT_EQ(d.local_qpn, r.local_qpn);
	EXPECT_EQ(d.starting_psn, r.starting_psn);
	EXPECT_EQ(d.rnr_retry_count, 6);
	EXPECT_EQ(d.retry_count, 7);
	EXPECT_EQ(d.path_packet_payload_mtu, 5);
	EXPECT_EQ(d.primary.flow_label, 0x12345u);
	EXPECT_EQ(d.primary.sl, 3);
	EXPECT_TRUE(d.primary.subnet_local);
	EXPECT_EQ(d.primary.local_ack_timeout, 14);
	EXPECT_EQ(d.primary.remote_port_gid, r.primary.remote_port_gid);
	EXPECT_EQ(d.private_data, r.private_data);
	EXPECT_FALSE(decode(std::span<const uint8_t>(m.data(), 255), d));
}

TEST(CmMad, RepRejDreqSidrOffsets)
{
	CmRep rep;
	rep.local_comm_id = 0xA1A2A3A4;
	rep.remote_comm_id = 0xB1B2B3B4;
	rep.local_qpn = 0x000456;
	rep.vendor_id = 0x123456;
	rep.starting_psn = 0x010203;
	rep.responder_resources = 1;
	rep.initiator_depth = 3;
	rep.target_ack_delay = 15;
	rep.failover_accepted = 1;
	rep.end_to_end_flow_control = true;
	rep.rnr_retry_count = 7;
	rep.srq = true;
	rep.local_ca_guid = 0x0102030405060708ULL;
	rep.private_data[0] = 0x5A;
	Mad m;
	encode(hdr(2), rep, m);
	EXPECT_EQ(m[17], 0x13);
	EXPECT_EQ(m[28], 0xB1); /* RemoteCommID at 4 */
	EXPECT_EQ(m[36], 0x00); /* LocalQPN at 12 */
	EXPECT_EQ(m[38], 0x56);
	EXPECT_EQ(m[39], 0x12); /* VendorID[23:16] at 15 */
	EXPECT_EQ(m[43], 0x34); /* VendorID[15:8] at 19 */
	EXPECT_EQ(m[44], 0x01); /* StartingPSN at 20 */
	EXPECT_EQ(m[46], 0x03);
	EXPECT_EQ(m[47], 0x56); /* VendorID[7:0] at 23 */
	EXPECT_EQ(m[48], 1);
	EXPECT_EQ(m[49], 3);
	EXPECT_EQ(m[50], (15 << 3) | (1 << 1) | 1); /* TargetACKDelay | Failover | E2E */
	EXPECT_EQ(m[51], (7 << 5) | (1 << 4));	    /* RNRRetryCount | SRQ */
	EXPECT_EQ(m[52], 0x01);			    /* LocalCAGUID at 28 */
	EXPECT_EQ(m[59], 0x08);
	EXPECT_EQ(m[60], 0x5A); /* PrivateData at 36 */
	CmRep rd;
	ASSERT_TRUE(decode(m, rd));
	EXPECT_EQ(rd.vendor_id, 0x123456u);
	EXPECT_EQ(rd.rnr_retry_count, 7);
	EXPECT_TRUE(rd.srq);
	EXPECT_EQ(rd.failover_accepted, 1);

	CmRej rej;
	rej.local_comm_id = 1;
	rej.remote_comm_id = 2;
	rej.message_rejected = MsgKind::rep;
	rej.rejected_info_length = 5;
	rej.reason = uint16_t(RejReason::consumer_defined);
	rej.private_data[147] = 0x77;
	encode(hdr(3), rej, m);
	EXPECT_EQ(m[17], 0x12);
	EXPECT_EQ(m[32], 1 << 6); /* MessageREJected: top 2 bits of byte 8 */
	EXPECT_EQ(m[33], 5 << 1); /* RejectedInfoLength: top 7 bits of byte 9 */
	EXPECT_EQ(m[34], 0);
	EXPECT_EQ(m[35], 28);	 /* Reason at 10 */
	EXPECT_EQ(m[255], 0x77); /* PrivateData 84..231 */
	EXPECT_EQ(rej_reason_name(28), "consumer defined");

	CmDreq dq;
	dq.local_comm_id = 3;
	dq.remote_comm_id = 4;
	dq.remote_qpn_eecn = 0xC0FFEE;
	encode(hdr(4), dq, m);
	EXPECT_EQ(m[17], 0x15);
	EXPECT_EQ(m[32], 0xC0); /* RemoteQPN/EECN at 8 */
	EXPECT_EQ(m[34], 0xEE);
	EXPECT_EQ(m[35], 0);
	CmRtu drep;
	encode(hdr(4), drep, m, CmAttr::drep);
	EXPECT_EQ(m[17], 0x16);

	CmMra mra;
	mra.message_mraed = MsgKind::rep;
	mra.service_timeout = 17;
	encode(hdr(5), mra, m);
	EXPECT_EQ(m[32], 1 << 6);
	EXPECT_EQ(m[33], 17 << 3);

	CmSidrRep sr;
	sr.request_id = 0x01020304;
	sr.status = 0;
	sr.qpn = 0x000789;
	sr.vendor_id = 0xABCDEF;
	sr.service_id = service_id(PortSpace::udp, 7174);
	sr.q_key = 0x01234567;
	encode(hdr(6), sr, m);
	EXPECT_EQ(m[17], 0x18);
	EXPECT_EQ(m[30], 0xAB); /* VendorID[23:8] at 6 */
	EXPECT_EQ(m[31], 0xCD);
	EXPECT_EQ(m[32], 0x00); /* QPN at 8 */
	EXPECT_EQ(m[34], 0x89);
	EXPECT_EQ(m[35], 0xEF); /* VendorID[7:0] at 11 */
	EXPECT_EQ(m[40], 0x01); /* ServiceID at 12: 0x0000000001111C06 */
	EXPECT_EQ(m[41], 0x11);
	EXPECT_EQ(m[42], 0x1C);
	EXPECT_EQ(m[44], 0x01); /* Q_Key at 20 */
	EXPECT_EQ(m[47], 0x67);
	CmSidrRep srd;
	ASSERT_TRUE(decode(m, srd));
	EXPECT_EQ(srd.vendor_id, 0xABCDEFu);
	EXPECT_EQ(srd.qpn, 0x789u);
}

TEST(CmMad, CmaHdrAndServiceId)
{
	CmaHdr h;
	h.ip_version = 4;
	h.src_port = 0x8001;
	h.src_addr = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 192, 168, 77, 2};
	h.dst_addr = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 192, 168, 77, 1};
	std::array<uint8_t, 92> pd{};
	encode_cma_hdr(h, pd);
	/* cma.c struct cma_hdr: cma_version, ip_version << 4, port (BE), src, dst (IPv4 in the
	 * last 4 bytes of each 16-byte cma_ip_addr). */
	const uint8_t want[36] = {0x00, 0x40, 0x80, 0x01, 0,   0,   0,	0, 0,	0,   0,	 0,
				  0,	0,    0,    0,	  192, 168, 77, 2, 0,	0,   0,	 0,
				  0,	0,    0,    0,	  0,   0,   0,	0, 192, 168, 77, 1};
	EXPECT_EQ(std::memcmp(pd.data(), want, 36), 0);
	CmaHdr d;
	ASSERT_TRUE(decode_cma_hdr(pd, d));
	EXPECT_EQ(d.src_port, 0x8001);
	pd[0] = 1; /* unknown cma_version */
	EXPECT_FALSE(decode_cma_hdr(pd, d));
	pd[0] = 0;
	pd[1] = 0x50; /* IP version 5 */
	EXPECT_FALSE(decode_cma_hdr(pd, d));

	EXPECT_EQ(service_id(PortSpace::tcp, 7174), 0x0000000001061C06ULL);
	PortSpace ps;
	uint16_t port;
	ASSERT_TRUE(parse_service_id(0x0000000001061C06ULL, ps, port));
	EXPECT_EQ(ps, PortSpace::tcp);
	EXPECT_EQ(port, 7174);
	ASSERT_TRUE(parse_service_id(service_id(PortSpace::udp, 1), ps, port));
	EXPECT_EQ(ps, PortSpace::udp);
	EXPECT_FALSE(parse_service_id(0x1000000000000001ULL, ps, port)); /* not an IP service ID */
}

} /* namespace */
