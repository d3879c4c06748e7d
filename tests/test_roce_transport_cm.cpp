/* SPDX-License-Identifier: BSD-3-Clause
 * RoCE transport: the RDMA CM (roce_cm.h), our CM client against our CM server over the two ports,
 * and SIDR for UD.
 */

#include "test_roce_transport.h"

namespace test_roce_transport {

/* ---------------------------------------------------------------------------------------
 * RDMA CM (roce_cm.h): our CM client against our CM server over the two ports
 * --------------------------------------------------------------------------------------- */
class Cm : public Transport {
protected:
	void SetUp() override
	{
		Transport::SetUp();
		CmConfig c;
		c.cm_response_timeout = 14; /* 67 ms: retransmissions within a test's time */
		c.max_cm_retries = 3;
		c.timewait_ms = 20;
		c.seed = 11;
		cma = std::make_unique<ConnectionManager>(*A->ctx, c);
		c.seed = 12;
		cmb = std::make_unique<ConnectionManager>(*B->ctx, c);
	}
	void TearDown() override
	{
		cma.reset();
		cmb.reset();
		Transport::TearDown();
	}
	/* Polls both Contexts until `cm` has an event (or 10 s pass). */
	bool event(ConnectionManager &cm, CmEvent &ev, double seconds = 10)
	{
		auto end =
			std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
		while (std::chrono::steady_clock::now() < end) {
			poll();
			if (cma)
				cma->progress();
			if (cmb)
				cmb->progress();
			if (cm.get_event(ev))
				return true;
		}
		return false;
	}
	std::unique_ptr<ConnectionManager> cma, cmb;
};

TEST_F(Cm, ConnectTransferDisconnect)
{
	CmId *listener = nullptr;
	ASSERT_EQ(cma->listen(7174, &listener), 0);
	CmId *dup = nullptr;
	EXPECT_EQ(cma->listen(7174, &dup), -EADDRINUSE);
	qa = A->qp(IBV_QPT_RC);
	qb = B->qp(IBV_QPT_RC);
	const uint8_t hello[] = "client private data";
	ConnParam cp;
	cp.private_data = hello;
	cp.responder_resources = 4;
	cp.initiator_depth = 2;
	CmId *cid = nullptr;
	ASSERT_EQ(cmb->connect(A->ctx->gid(), 7174, *qb, cp, &cid), 0);
	EXPECT_EQ(qb->state(), IBV_QPS_INIT);

	CmEvent ev;
	ASSERT_TRUE(event(*cma, ev));
	ASSERT_EQ(ev.type, CmEventType::connect_request) << cm_event_name(ev.type);
	EXPECT_EQ(ev.listen_id, listener);
	EXPECT_EQ(std::memcmp(ev.private_data.data(), hello, sizeof(hello)), 0);
	EXPECT_EQ(ev.private_data_len, 56);
	EXPECT_EQ(ev.responder_resources, 4);
	EXPECT_EQ(ev.initiator_depth, 2);
	CmId *sid = ev.id;
	EXPECT_EQ(sid->state(), CmState::req_rcvd);
	EXPECT_EQ(sid->remote_gid(), B->ctx->gid());
	EXPECT_EQ(sid->remote_port(), cid->local_port());
	EXPECT_EQ(sid->remote_qpn(), qb->qp_num());

	const uint8_t welcome[] = "server private data";
	ConnParam sp;
	sp.private_data = welcome;
	sp.responder_resources = 2; /* the client's initiator depth */
	sp.initiator_depth = 4;
	ASSERT_EQ(cma->accept(*sid, *qa, sp), 0);
	EXPECT_EQ(qa->state(), IBV_QPS_RTS);
	EXPECT_EQ(cma->accept(*sid, *qa, sp), -EINVAL); /* once only */

	ASSERT_TRUE(event(*cmb, ev));
	ASSERT_EQ(ev.type, CmEventType::established) << cm_event_name(ev.type);
	EXPECT_EQ(ev.id, cid);
	EXPECT_EQ(std::memcmp(ev.private_data.data(), welcome, sizeof(welcome)), 0);
	EXPECT_EQ(qb->state(), IBV_QPS_RTS);
	EXPECT_EQ(qb->attr().dest_qp_num, qa->qp_num());
	EXPECT_EQ(qb->attr().max_rd_atomic, 2);	     /* min(our depth 2, peer's resources 2) */
	EXPECT_EQ(qa->attr().max_dest_rd_atomic, 2); /* what the server accepted */
	EXPECT_EQ(qa->attr().max_rd_atomic, 4);	     /* min(4, client's resources 4) */
	EXPECT_EQ(qa->attr().path_mtu, qb->attr().path_mtu);
	ASSERT_TRUE(event(*cma, ev));
	ASSERT_EQ(ev.type, CmEventType::established) << cm_event_name(ev.type);
	EXPECT_EQ(ev.id, sid);
	EXPECT_EQ(sid->state(), CmState::established);
	EXPECT_EQ(cid->state(), CmState::established);

	/* The QPs the CM brought up carry a SEND and an RDMA READ both ways. */
	std::vector<uint8_t> src = pattern(65536, 3), dst(65536), rbuf(4096),
			     sbuf = pattern(4096, 4);
	MemoryRegion *ms = reg(*A, src, kAllRemote), *md = reg(*B, dst, kAllRemote);
	MemoryRegion *mr = reg(*A, rbuf, kAllRemote), *mb = reg(*B, sbuf, kAllRemote);
	Sge rs{uint64_t(rbuf.data()), 4096, mr->lkey()};
	ASSERT_EQ(qa->post_recv({1, {&rs, 1}}), 0);
	Sge ss{uint64_t(sbuf.data()), 4096, mb->lkey()};
	SendWr s;
	s.wr_id = 2;
	s.sg_list = {&ss, 1};
	s.send_flags = IBV_SEND_SIGNALED;
	ASSERT_EQ(qb->post_send(s), 0);
	Sge rd{uint64_t(dst.data()), 65536, md->lkey()};
	SendWr r;
	r.wr_id = 3;
	r.opcode = IBV_WR_RDMA_READ;
	r.sg_list = {&rd, 1};
	r.send_flags = IBV_SEND_SIGNALED;
	r.rdma.remote_addr = uint64_t(src.data());
	r.rdma.rkey = ms->rkey();
	ASSERT_EQ(qb->post_send(r), 0);
	auto wcs = wait(*B->scq, 2);
	ASSERT_EQ(wcs.size(), 2u);
	for (auto &wc : wcs)
		EXPECT_EQ(wc.status, IBV_WC_SUCCESS);
	auto rwc = wait(*A->rcq, 1);
	ASSERT_EQ(rwc.size(), 1u);
	EXPECT_EQ(rwc[0].byte_len, 4096u);
	EXPECT_EQ(rbuf, sbuf);
	EXPECT_EQ(dst, src);

	/* Client disconnects: DREQ, DREP; both see DISCONNECTED, QPs in ERR, then time-wait
	 * ends. */
	ASSERT_EQ(cmb->disconnect(*cid), 0);
	EXPECT_EQ(qb->state(), IBV_QPS_ERR);
	ASSERT_TRUE(event(*cma, ev));
	EXPECT_EQ(ev.type, CmEventType::disconnected) << cm_event_name(ev.type);
	EXPECT_EQ(qa->state(), IBV_QPS_ERR);
	ASSERT_TRUE(event(*cmb, ev));
	EXPECT_EQ(ev.type, CmEventType::disconnected) << cm_event_name(ev.type);
	EXPECT_EQ(cmb->disconnect(*cid), 0); /* again: nothing to do */
	ASSERT_TRUE(event(*cmb, ev));
	EXPECT_EQ(ev.type, CmEventType::timewait_exit) << cm_event_name(ev.type);
	EXPECT_EQ(cid->state(), CmState::idle);
	EXPECT_EQ(cmb->stats().tx_by_attr[uint16_t(mad::CmAttr::req)], 1u);
	EXPECT_EQ(cmb->stats().tx_by_attr[uint16_t(mad::CmAttr::rtu)], 1u);
	EXPECT_EQ(cma->stats().tx_by_attr[uint16_t(mad::CmAttr::rep)], 1u);
	EXPECT_EQ(cma->stats().tx_by_attr[uint16_t(mad::CmAttr::drep)], 1u);
	EXPECT_EQ(cma->stats().retransmits + cmb->stats().retransmits, 0u);
	EXPECT_EQ(A->ctx->counters().rx_gsi, 3u); /* REQ, RTU, DREQ */
	cmb->destroy_id(cid);
	cma->destroy_id(sid);
	EXPECT_EQ(cma->connections() + cmb->connections(), 0u);
}

TEST_F(Cm, RejectAndUnknownService)
{
	CmId *listener = nullptr;
	ASSERT_EQ(cma->listen(7174, &listener), 0);
	qb = B->qp(IBV_QPT_RC);
	CmId *cid = nullptr;
	ASSERT_EQ(cmb->connect(A->ctx->gid(), 7174, *qb, {}, &cid), 0);
	CmEvent ev;
	ASSERT_TRUE(event(*cma, ev));
	ASSERT_EQ(ev.type, CmEventType::connect_request);
	const uint8_t why[] = "go away";
	ASSERT_EQ(cma->reject(*ev.id, why), 0);
	ASSERT_TRUE(event(*cmb, ev));
	ASSERT_EQ(ev.type, CmEventType::rejected) << cm_event_name(ev.type);
	EXPECT_EQ(ev.status, int(mad::RejReason::consumer_defined));
	EXPECT_EQ(std::memcmp(ev.private_data.data(), why, sizeof(why)), 0);
	EXPECT_EQ(cid->state(), CmState::rejected);
	EXPECT_EQ(qb->state(), IBV_QPS_ERR);
	cmb->destroy_id(cid);

	/* No listener on the port: REJ "invalid service ID" (what the kernel CM answers). */
	qb = B->qp(IBV_QPT_RC);
	ASSERT_EQ(cmb->connect(A->ctx->gid(), 9999, *qb, {}, &cid), 0);
	ASSERT_TRUE(event(*cmb, ev));
	ASSERT_EQ(ev.type, CmEventType::rejected) << cm_event_name(ev.type);
	EXPECT_EQ(ev.status, int(mad::RejReason::invalid_service_id));
	EXPECT_EQ(cma->connections(), 1u); /* only the rejected one above */
	uint8_t big[57] = {};
	ConnParam p;
	p.private_data = big;
	CmId *x = nullptr;
	auto q = B->qp(IBV_QPT_RC);
	EXPECT_EQ(cmb->connect(A->ctx->gid(), 7174, *q, p, &x), -EINVAL); /* > 56 B */
	auto ud = B->qp(IBV_QPT_UD);
	EXPECT_EQ(cmb->connect(A->ctx->gid(), 7174, *ud, {}, &x), -EINVAL); /* RC only */
}

TEST_F(Cm, UnansweredReqIsRetriedThenUnreachable)
{
	cma.reset(); /* A has no CM: its QP1 drops the REQs */
	qb = B->qp(IBV_QPT_RC);
	CmId *cid = nullptr;
	ASSERT_EQ(cmb->connect(A->ctx->gid(), 7174, *qb, {}, &cid), 0);
	CmEvent ev;
	ASSERT_TRUE(event(*cmb, ev));
	EXPECT_EQ(ev.type, CmEventType::unreachable) << cm_event_name(ev.type);
	EXPECT_EQ(ev.status, -ETIMEDOUT);
	EXPECT_EQ(cmb->stats().retransmits, 3u); /* max_cm_retries */
	EXPECT_EQ(cmb->stats().timeouts, 1u);
	for (int i = 0; i < 100000 && A->ctx->counters().rx_gsi_dropped < 5; i++)
		poll();
	EXPECT_EQ(A->ctx->counters().rx_gsi_dropped, 5u); /* REQ x4 + REJ(timeout) */
	EXPECT_EQ(cmb->stats().tx_by_attr[uint16_t(mad::CmAttr::rej)], 1u);
}

TEST_F(Cm, LostRtuIsRecoveredByRepRetransmission)
{
	CmId *listener = nullptr;
	ASSERT_EQ(cma->listen(5000, &listener), 0);
	qa = A->qp(IBV_QPT_RC);
	qb = B->qp(IBV_QPT_RC);
	CmId *cid = nullptr;
	ASSERT_EQ(cmb->connect(A->ctx->gid(), 5000, *qb, {}, &cid), 0);
	CmEvent ev;
	ASSERT_TRUE(event(*cma, ev));
	ASSERT_EQ(ev.type, CmEventType::connect_request);
	CmId *sid = ev.id;
	ASSERT_EQ(cma->accept(*sid, *qa, {}), 0);
	/* Drop everything A receives until B is established: B's RTU is lost. */
	while (cid->state() != CmState::established) {
		B->ctx->poll();
		cmb->progress();
		drain(g_wire.port[0]);
	}
	ASSERT_TRUE(event(*cma, ev)); /* the REP resent -> duplicate REP -> RTU again */
	EXPECT_EQ(ev.type, CmEventType::established) << cm_event_name(ev.type);
	EXPECT_GE(cma->stats().retransmits, 1u);
	EXPECT_GE(cmb->stats().rx_duplicates, 1u);
	EXPECT_EQ(cmb->stats().tx_by_attr[uint16_t(mad::CmAttr::rtu)],
		  1u + cmb->stats().rx_duplicates);
}

TEST_F(Cm, SidrResolvesUdQpnAndQkey)
{
	CmId *listener = nullptr;
	ASSERT_EQ(cma->listen(7174, &listener, true), 0);
	CmId *rc_listener = nullptr;
	EXPECT_EQ(cma->listen(7174, &rc_listener), 0); /* TCP and UDP port spaces apart */
	qa = A->qp(IBV_QPT_UD);
	qb = B->qp(IBV_QPT_UD);
	CmId *cid = nullptr;
	ASSERT_EQ(cmb->connect_ud(A->ctx->gid(), 7174, *qb, &cid), 0);
	EXPECT_EQ(qb->state(), IBV_QPS_RTS);
	EXPECT_EQ(qb->attr().qkey, kRdmaUdpQkey);
	CmEvent ev;
	ASSERT_TRUE(event(*cma, ev));
	ASSERT_EQ(ev.type, CmEventType::connect_request) << cm_event_name(ev.type);
	EXPECT_EQ(ev.listen_id, listener);
	EXPECT_TRUE(ev.id->ud());
	EXPECT_EQ(ev.id->state(), CmState::sidr_req_rcvd);
	EXPECT_EQ(ev.id->remote_gid(), B->ctx->gid());
	CmId *sid = ev.id;
	auto rcq = B->qp(IBV_QPT_RC);
	EXPECT_EQ(cma->accept(*sid, *rcq, {}), -EINVAL); /* a SIDR id takes a UD QP */
	ASSERT_EQ(cma->accept(*sid, *qa, {}), 0);
	EXPECT_EQ(qa->state(), IBV_QPS_RTS);
	ASSERT_TRUE(event(*cmb, ev));
	ASSERT_EQ(ev.type, CmEventType::established) << cm_event_name(ev.type);
	EXPECT_EQ(ev.qp_num, qa->qp_num());
	EXPECT_EQ(ev.qkey, kRdmaUdpQkey);
	EXPECT_EQ(cmb->stats().tx_by_attr[uint16_t(mad::CmAttr::sidr_req)], 1u);
	EXPECT_EQ(cma->stats().tx_by_attr[uint16_t(mad::CmAttr::sidr_rep)], 1u);

	/* A UD SEND with what SIDR gave reaches the server's QP. */
	std::vector<uint8_t> rbuf(40 + 100), sbuf = pattern(100, 9);
	MemoryRegion *mr = reg(*A, rbuf, IBV_ACCESS_LOCAL_WRITE), *ms = reg(*B, sbuf, 0);
	Sge rs{uint64_t(rbuf.data()), uint32_t(rbuf.size()), mr->lkey()};
	ASSERT_EQ(qa->post_recv({1, {&rs, 1}}), 0);
	auto ah = B->ctx->create_ah(*B->pd, cid->av());
	Sge ss{uint64_t(sbuf.data()), 100, ms->lkey()};
	SendWr w;
	w.sg_list = {&ss, 1};
	w.send_flags = IBV_SEND_SIGNALED;
	w.ud.ah = ah.get();
	w.ud.remote_qpn = ev.qp_num;
	w.ud.remote_qkey = ev.qkey;
	ASSERT_EQ(qb->post_send(w), 0);
	auto wc = wait(*A->rcq, 1);
	ASSERT_EQ(wc.size(), 1u);
	EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS);
	EXPECT_EQ(wc[0].src_qp, qb->qp_num());
	EXPECT_TRUE(std::equal(sbuf.begin(), sbuf.end(), rbuf.begin() + 40));

	/* No UDP listener on the port: SIDR_REP status 1 (service ID not supported). */
	auto q2 = B->qp(IBV_QPT_UD);
	CmId *c2 = nullptr;
	ASSERT_EQ(cmb->connect_ud(A->ctx->gid(), 9999, *q2, &c2), 0);
	ASSERT_TRUE(event(*cmb, ev));
	EXPECT_EQ(ev.type, CmEventType::rejected) << cm_event_name(ev.type);
	EXPECT_EQ(ev.status, 1);
	cmb->destroy_id(c2);
	cmb->destroy_id(cid);
	cma->destroy_id(sid);
}

} /* namespace test_roce_transport */
