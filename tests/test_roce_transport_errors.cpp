/* SPDX-License-Identifier: BSD-3-Clause
 * RoCE transport: protection (rkey, bounds, access, invalidation), bad calls, RNR, retry
 * exhaustion, ECN/CNP, the packet log, fault injection and the SRQ.
 */

#include "test_roce_transport.h"

namespace test_roce_transport {

/* ---------------------------------------------------------------------------------------
 * Protection: wrong rkey, out of bounds, missing access, invalidation
 * --------------------------------------------------------------------------------------- */
struct AccessCase {
	const char *name;
	ibv_wr_opcode op;
	int rkey_mode;
	uint64_t off;
	uint32_t len;
	unsigned mr_access;
};

class RcAccess : public Transport, public ::testing::WithParamInterface<AccessCase> {};

TEST_P(RcAccess, RemoteAccessErrorTouchesNothing)
{
	const AccessCase c = GetParam();
	connect(IBV_QPT_RC);
	std::vector<uint8_t> src = pattern(8192, 21), dst(4096, 0x5A), other(4096, 0x33),
			     local(8192, 0xEE);
	MemoryRegion *ms = reg(*A, src, IBV_ACCESS_LOCAL_WRITE);
	MemoryRegion *ml = reg(*A, local, IBV_ACCESS_LOCAL_WRITE);
	MemoryRegion *md = reg(*B, dst, c.mr_access);
	/* A region of another PD on B: its rkey must not work through qb. */
	auto pd2 = B->ctx->alloc_pd();
	auto mo = B->ctx->reg_mr(*pd2, other.data(), other.size(), kAllRemote);
	uint32_t rkey = c.rkey_mode == 0   ? md->rkey()
			: c.rkey_mode == 1 ? md->rkey() ^ 0x5500
					   : mo->rkey();
	uint64_t raddr = uintptr_t(c.rkey_mode == 2 ? other.data() : dst.data()) + c.off;
	SendWr w;
	w.wr_id = 1;
	w.send_flags = IBV_SEND_SIGNALED;
	w.opcode = c.op;
	Sge s;
	if (c.op == IBV_WR_RDMA_WRITE) {
		s = {uintptr_t(src.data()), c.len, ms->lkey()};
		w.rdma = {raddr, rkey};
	} else if (c.op == IBV_WR_RDMA_READ) {
		s = {uintptr_t(local.data()), c.len, ml->lkey()};
		w.rdma = {raddr, rkey};
	} else {
		s = {uintptr_t(local.data()), 8, ml->lkey()};
		w.atomic = {raddr, 1, 2, rkey};
	}
	w.sg_list = {&s, 1};
	ASSERT_EQ(qa->post_send(w), 0);
	SendWr w2 = w; /* queued behind: flushed */
	w2.wr_id = 2;
	ASSERT_EQ(qa->post_send(w2), 0);
	auto wc = wait(*A->scq, 2, 5);
	ASSERT_EQ(wc.size(), 2u);
	EXPECT_EQ(wc[0].wr_id, 1u);
	EXPECT_EQ(wc[0].status, IBV_WC_REM_ACCESS_ERR) << int(wc[0].status);
	EXPECT_EQ(wc[1].status, IBV_WC_WR_FLUSH_ERR);
	EXPECT_EQ(qa->state(), IBV_QPS_ERR);
	run_for(0.005);
	EXPECT_EQ(qb->state(), IBV_QPS_ERR);
	EXPECT_TRUE(std::all_of(dst.begin(), dst.end(), [](uint8_t b) { return b == 0x5A; }));
	EXPECT_TRUE(std::all_of(other.begin(), other.end(), [](uint8_t b) { return b == 0x33; }));
	EXPECT_TRUE(std::all_of(local.begin(), local.end(), [](uint8_t b) { return b == 0xEE; }));
	EXPECT_GE(B->ctx->counters().remote_access_errors, 1u);
	EXPECT_GE(B->ctx->counters().naks_sent, 1u);
	mo.reset();
	pd2.reset();
}

constexpr unsigned kLW = IBV_ACCESS_LOCAL_WRITE;
INSTANTIATE_TEST_SUITE_P(
	Access, RcAccess,
	::testing::Values(
		AccessCase{"write_wrong_rkey", IBV_WR_RDMA_WRITE, 1, 0, 100, kAllRemote},
		AccessCase{"write_out_of_bounds", IBV_WR_RDMA_WRITE, 0, 4000, 200, kAllRemote},
		AccessCase{"write_multi_pkt_oob", IBV_WR_RDMA_WRITE, 0, 1, 8192, kAllRemote},
		AccessCase{"write_no_access", IBV_WR_RDMA_WRITE, 0, 0, 100,
			   kLW | IBV_ACCESS_REMOTE_READ},
		AccessCase{"write_other_pd", IBV_WR_RDMA_WRITE, 2, 0, 100, kAllRemote},
		AccessCase{"read_no_access", IBV_WR_RDMA_READ, 0, 0, 100,
			   kLW | IBV_ACCESS_REMOTE_WRITE},
		AccessCase{"read_out_of_bounds", IBV_WR_RDMA_READ, 0, 0, 5000, kAllRemote},
		AccessCase{"atomic_no_access", IBV_WR_ATOMIC_FETCH_AND_ADD, 0, 0, 8,
			   kLW | IBV_ACCESS_REMOTE_WRITE},
		AccessCase{"atomic_out_of_bounds", IBV_WR_ATOMIC_CMP_AND_SWP, 0, 4096, 8,
			   kAllRemote}),
	[](const auto &info) { return std::string(info.param.name); });

TEST_F(Transport, SendWithInvalidateRevokesRkey)
{
	connect(IBV_QPT_RC);
	std::vector<uint8_t> src(64, 1), dst(64, 0), rb(64);
	MemoryRegion *ms = reg(*A, src, 0);
	MemoryRegion *md = reg(*B, dst, kAllRemote);
	MemoryRegion *mrb = reg(*B, rb, kLW);
	Sge r{uintptr_t(rb.data()), 64, mrb->lkey()};
	ASSERT_EQ(qb->post_recv({1, {&r, 1}}), 0);
	Sge s{uintptr_t(src.data()), 8, ms->lkey()};
	SendWr w;
	w.wr_id = 1;
	w.sg_list = {&s, 1};
	w.opcode = IBV_WR_SEND_WITH_INV;
	w.invalidate_rkey = md->rkey();
	w.send_flags = IBV_SEND_SIGNALED;
	ASSERT_EQ(qa->post_send(w), 0);
	auto rw = wait(*B->rcq, 1);
	ASSERT_EQ(rw.size(), 1u);
	EXPECT_TRUE(rw[0].wc_flags & IBV_WC_WITH_INV);
	EXPECT_EQ(rw[0].invalidated_rkey, md->rkey());
	EXPECT_FALSE(md->valid());
	w.opcode = IBV_WR_RDMA_WRITE;
	w.wr_id = 2;
	w.rdma = {uintptr_t(dst.data()), md->rkey()};
	ASSERT_EQ(qa->post_send(w), 0);
	auto sw = wait(*A->scq, 2);
	ASSERT_EQ(sw.size(), 2u);
	EXPECT_EQ(sw[0].status, IBV_WC_SUCCESS);
	EXPECT_EQ(sw[1].status, IBV_WC_REM_ACCESS_ERR);
	EXPECT_TRUE(std::all_of(dst.begin(), dst.end(), [](uint8_t b) { return b == 0; }));
}

TEST_F(Transport, BadCallsReturnErrno)
{
	qa = A->qp(IBV_QPT_RC, 4);
	std::vector<uint8_t> buf(64);
	MemoryRegion *m = reg(*A, buf, kLW);
	Sge s{uintptr_t(buf.data()), 64, m->lkey()};
	SendWr w;
	w.sg_list = {&s, 1};
	EXPECT_EQ(qa->post_send(w), -EINVAL) << "RESET state";
	EXPECT_EQ(qa->post_recv({1, {&s, 1}}), -EINVAL) << "RESET state";
	QpAttr a;
	a.qp_state = IBV_QPS_RTR;
	EXPECT_EQ(qa->modify(a, IBV_QP_STATE), -EINVAL) << "RESET->RTR";
	a.qp_state = IBV_QPS_INIT;
	EXPECT_EQ(qa->modify(a, IBV_QP_STATE), -EINVAL) << "missing PKEY_INDEX/ACCESS_FLAGS";
	qb = B->qp(IBV_QPT_RC, 4);
	ConnOpts o;
	ASSERT_EQ(bring_up(*qa, *B, qb->qp_num(), 0, 0, o), 0);
	Sge bad{uintptr_t(buf.data()), 64, m->lkey() + 1};
	w.sg_list = {&bad, 1};
	EXPECT_EQ(qa->post_send(w), -EINVAL) << "bad lkey";
	Sge oob{uintptr_t(buf.data()) + 1, 64, m->lkey()};
	w.sg_list = {&oob, 1};
	EXPECT_EQ(qa->post_send(w), -EINVAL) << "outside the MR";
	w.sg_list = {&s, 1};
	w.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	EXPECT_EQ(qa->post_send(w), -EINVAL) << "atomic needs exactly 8 bytes";
	w.opcode = IBV_WR_SEND;
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(qa->post_send(w), 0);
	EXPECT_EQ(qa->post_send(w), -ENOMEM) << "SQ full";
	std::vector<uint8_t> ro(64);
	int err = 0;
	EXPECT_EQ(A->ctx->reg_mr(*A->pd, ro.data(), 64, IBV_ACCESS_REMOTE_WRITE, &err), nullptr);
	EXPECT_EQ(err, -EINVAL) << "REMOTE_WRITE without LOCAL_WRITE";
	auto mro = A->ctx->reg_mr(*A->pd, ro.data(), 64, 0);
	Sge rs{uintptr_t(ro.data()), 64, mro->lkey()};
	EXPECT_EQ(qa->post_recv({1, {&rs, 1}}), -EINVAL) << "receive into read-only MR";
}

/* ---------------------------------------------------------------------------------------
 * RNR, retry exhaustion
 * --------------------------------------------------------------------------------------- */
TEST_F(Transport, RnrThenReceivePostedCompletes)
{
	ConnOpts o;
	o.min_rnr_timer = 1; /* 10 us */
	connect(IBV_QPT_RC, o);
	std::vector<uint8_t> src = pattern(3000, 31), rb(4096, 0);
	MemoryRegion *ms = reg(*A, src, 0);
	MemoryRegion *mrb = reg(*B, rb, kLW);
	Sge s{uintptr_t(src.data()), 3000, ms->lkey()};
	SendWr w;
	w.wr_id = 9;
	w.sg_list = {&s, 1};
	w.opcode = IBV_WR_SEND;
	w.send_flags = IBV_SEND_SIGNALED;
	ASSERT_EQ(qa->post_send(w), 0);
	run_for(0.02);
	WorkCompletion wc[2];
	EXPECT_EQ(A->scq->poll_cq(wc), 0);
	EXPECT_GT(B->ctx->counters().rnr_naks_sent, 0u);
	EXPECT_GT(A->ctx->counters().rnr_naks_rcvd, 0u);
	Sge r{uintptr_t(rb.data()), 4096, mrb->lkey()};
	ASSERT_EQ(qb->post_recv({3, {&r, 1}}), 0);
	auto sw = wait(*A->scq, 1, 2);
	ASSERT_EQ(sw.size(), 1u);
	EXPECT_EQ(sw[0].status, IBV_WC_SUCCESS);
	auto rw = wait(*B->rcq, 1, 1);
	ASSERT_EQ(rw.size(), 1u);
	EXPECT_EQ(rw[0].byte_len, 3000u);
	EXPECT_EQ(memcmp(rb.data(), src.data(), 3000), 0);
}

TEST_F(Transport, RnrRetryExceeded)
{
	ConnOpts o;
	o.rnr_retry = 2;
	connect(IBV_QPT_RC, o);
	std::vector<uint8_t> src(16);
	MemoryRegion *ms = reg(*A, src, 0);
	Sge s{uintptr_t(src.data()), 16, ms->lkey()};
	SendWr w;
	w.sg_list = {&s, 1};
	w.send_flags = IBV_SEND_SIGNALED;
	ASSERT_EQ(qa->post_send(w), 0);
	auto wc = wait(*A->scq, 1, 2);
	ASSERT_EQ(wc.size(), 1u);
	EXPECT_EQ(wc[0].status, IBV_WC_RNR_RETRY_EXC_ERR);
	EXPECT_EQ(A->ctx->counters().rnr_naks_rcvd, 3u); /* first try + 2 retries */
}

TEST_F(Transport, RetryExceededWhenPeerIsGone)
{
	ConnOpts o;
	o.timeout = 8; /* 1.05 ms */
	o.retry_cnt = 3;
	connect(IBV_QPT_RC, o);
	FaultConfig f;
	f.rx.drop = 1.0;
	qb->set_faults(f);
	std::vector<uint8_t> src(100), dst(100);
	MemoryRegion *ms = reg(*A, src, 0);
	MemoryRegion *md = reg(*B, dst, kAllRemote);
	ASSERT_EQ(post_rdma(IBV_WR_RDMA_WRITE, src.data(), 100, ms->lkey(), dst.data(), md->rkey(),
			    77),
		  0);
	auto t0 = std::chrono::steady_clock::now();
	auto wc = wait(*A->scq, 1, 2);
	double ms_taken =
		std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
			.count();
	ASSERT_EQ(wc.size(), 1u);
	EXPECT_EQ(wc[0].wr_id, 77u);
	EXPECT_EQ(wc[0].status, IBV_WC_RETRY_EXC_ERR);
	EXPECT_EQ(A->ctx->counters().timeouts, 4u); /* 1 + retry_cnt */
	EXPECT_GE(ms_taken, 4 * 1.0);		    /* 4 x 4.096us*2^8 */
	EXPECT_EQ(qa->state(), IBV_QPS_ERR);
	EXPECT_EQ(B->ctx->counters().rx_hook_dropped, 4u);
}

/* ---------------------------------------------------------------------------------------
 * ECN / CNP / DCQCN
 * --------------------------------------------------------------------------------------- */
TEST_F(Transport, EcnCeTriggersCnpAndRateCut)
{
	connect(IBV_QPT_RC);
	std::vector<uint8_t> src = pattern(256 * 1024, 41), dst(256 * 1024, 0);
	MemoryRegion *ms = reg(*A, src, 0);
	MemoryRegion *md = reg(*B, dst, kAllRemote);
	double line = qa->current_rate_gbps();
	EXPECT_DOUBLE_EQ(line, 100.0);
	FaultConfig f;
	f.seed = 3;
	f.rx.ecn_ce = 1.0; /* a congested switch marks everything arriving at B */
	qb->set_faults(f);
	std::vector<PacketLogEntry> log;
	A->ctx->set_packet_log([&log](const PacketLogEntry &e) {
		if (!e.tx && e.opcode == 0x81)
			log.push_back(e);
	});
	ASSERT_EQ(post_rdma(IBV_WR_RDMA_WRITE, src.data(), uint32_t(src.size()), ms->lkey(),
			    dst.data(), md->rkey(), 1),
		  0);
	auto wc = wait(*A->scq, 1);
	ASSERT_EQ(wc.size(), 1u);
	EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS);
	EXPECT_TRUE(dst == src);
	EXPECT_GT(B->ctx->counters().rx_ecn_ce, 0u);
	EXPECT_GT(B->ctx->counters().cnps_sent, 0u);
	EXPECT_GT(A->ctx->counters().cnps_rcvd, 0u);
	EXPECT_EQ(A->ctx->counters().cnps_rcvd, qa->cnps_received());
	ASSERT_FALSE(log.empty());
	EXPECT_EQ(log[0].dest_qpn, qa->qp_num());
	EXPECT_EQ(log[0].opcode_name, "CNP");
	double cut = qa->current_rate_gbps();
	printf("DCQCN: line %.1f Gb/s -> %.2f Gb/s after %lu CNPs\n", line, cut,
	       qa->cnps_received());
	EXPECT_LT(cut, line * 0.6);
	/* Recovery: without CNPs the rate climbs back (fast recovery halves the gap per timer). */
	qb->set_faults({});
	run_for(0.02);
	EXPECT_GT(qa->current_rate_gbps(), cut);
	/* Switchable: with DCQCN off for the QP, CNPs do not change the rate. */
	QpTuning t = qa->tuning();
	t.dcqcn = false;
	qa->set_tuning(t);
	double before = qa->current_rate_gbps();
	qb->set_faults(f);
	ASSERT_EQ(post_rdma(IBV_WR_RDMA_WRITE, src.data(), uint32_t(src.size()), ms->lkey(),
			    dst.data(), md->rkey(), 1),
		  0);
	ASSERT_EQ(wait(*A->scq, 1).size(), 1u);
	EXPECT_GE(qa->current_rate_gbps(), before);
}

/* ---------------------------------------------------------------------------------------
 * Research hooks: packet log and reproducibility
 * --------------------------------------------------------------------------------------- */
TEST_F(Transport, PacketLogLines)
{
	connect(IBV_QPT_RC);
	char *text = nullptr;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ASSERT_NE(f, nullptr);
	A->ctx->set_packet_log(f);
	std::vector<uint8_t> src = pattern(5000, 51), dst(5000);
	MemoryRegion *ms = reg(*A, src, 0);
	MemoryRegion *md = reg(*B, dst, kAllRemote);
	ASSERT_EQ(
		post_rdma(IBV_WR_RDMA_WRITE, src.data(), 5000, ms->lkey(), dst.data(), md->rkey()),
		0);
	ASSERT_EQ(wait(*A->scq, 1).size(), 1u);
	A->ctx->set_packet_log(static_cast<FILE *>(nullptr));
	fclose(f);
	std::string out(text, len);
	free(text);
	char l1[128], l2[128], l3[128];
	snprintf(l1, sizeof l1, "tx RC_RDMA_WRITE_FIRST qpn=0x%06x psn=0x000100 len=4096",
		 qb->qp_num());
	snprintf(l2, sizeof l2, "tx RC_RDMA_WRITE_LAST qpn=0x%06x psn=0x000101 len=904",
		 qb->qp_num());
	snprintf(l3, sizeof l3, "rx RC_ACKNOWLEDGE qpn=0x%06x psn=0x000101 len=0", qa->qp_num());
	EXPECT_NE(out.find(l1), std::string::npos) << out;
	EXPECT_NE(out.find(l2), std::string::npos) << out;
	EXPECT_NE(out.find(l3), std::string::npos) << out;
}

TEST_F(Transport, FaultInjectionIsReproducible)
{
	ConnOpts o;
	o.mtu = IBV_MTU_256;
	connect(IBV_QPT_UC, o);
	std::vector<uint8_t> src(256 * 200), dst(256 * 200);
	MemoryRegion *ms = reg(*A, src, 0);
	MemoryRegion *md = reg(*B, dst, kAllRemote);
	auto run = [&](uint64_t seed) {
		std::string trace;
		A->ctx->set_packet_log([&trace](const PacketLogEntry &e) {
			if (e.tx)
				trace += std::to_string(e.psn & 0xFF) +
					 (e.fate.empty() ? "." : std::string(e.fate)) + ";";
		});
		FaultConfig f;
		f.seed = seed;
		f.tx.drop = 0.2;
		f.tx.dup = 0.1;
		qa->set_faults(f);
		EXPECT_EQ(post_rdma(IBV_WR_RDMA_WRITE, src.data(), uint32_t(src.size()), ms->lkey(),
				    dst.data(), md->rkey()),
			  0);
		EXPECT_EQ(wait(*A->scq, 1).size(), 1u);
		A->ctx->set_packet_log(PacketLogFn{});
		/* PSNs differ between runs; compare only the fate sequence. */
		std::string fates;
		for (char c : trace)
			if (!(c >= '0' && c <= '9'))
				fates += c;
		return fates;
	};
	std::string a = run(1234), b = run(1234), c = run(999);
	EXPECT_EQ(a, b);
	EXPECT_NE(a, c);
	EXPECT_NE(a.find("drop"), std::string::npos);
}

/* ---------------------------------------------------------------------------------------
 * Shared receive queue (ibv_srq_pingpong's set-up: several RC QPs, one SRQ)
 * --------------------------------------------------------------------------------------- */

/* Four RC QPs on B take their receives from one SRQ that starts with fewer WQEs than messages
 * in flight: multi-packet SENDs on all four interleave on the wire, under 2 % loss, and
 * every message lands whole, once, in the WQE its first packet took, completed on the right
 * QP in that QP's order; an empty SRQ gives RNR NAKs that end once WQEs are posted again. */
TEST_F(Transport, SrqSharedByRcQpsUnderLoss)
{
	constexpr int kQps = 4, kMsgs = 40;
	constexpr uint32_t kLen = 9000, kSlots = 8; /* 3 packets at MTU 4096 */
	int err = 0;
	auto srq = B->ctx->create_srq(*B->pd, 64, 1, &err);
	ASSERT_NE(srq, nullptr) << err;
	EXPECT_EQ(srq->max_wr(), 64u);
	std::vector<std::unique_ptr<QueuePair>> qas, qbs;
	ConnOpts o;
	for (int i = 0; i < kQps; i++) {
		qas.push_back(A->qp(IBV_QPT_RC));
		QpInitAttr a;
		a.qp_type = IBV_QPT_RC;
		a.send_cq = B->scq.get();
		a.recv_cq = B->rcq.get();
		a.srq = srq.get();
		a.cap.max_recv_wr = 0; /* ignored with an SRQ */
		qbs.push_back(B->ctx->create_qp(*B->pd, a, &err));
		ASSERT_NE(qbs.back(), nullptr) << err;
	}
	for (int i = 0; i < kQps; i++) {
		uint32_t pa = 0x100 + 0x1000 * i, pb = 0x800 + 0x1000 * i;
		ASSERT_EQ(bring_up(*qas[i], *B, qbs[i]->qp_num(), pb, pa, o), 0);
		ASSERT_EQ(bring_up(*qbs[i], *A, qas[i]->qp_num(), pa, pb, o), 0);
		FaultConfig f;
		f.seed = 11 + i;
		f.tx.drop = 0.02;
		qas[i]->set_faults(f);
	}
	/* Message (q, m) carries pattern(kLen, q * 1000 + m). */
	std::vector<std::vector<uint8_t>> src;
	for (int q = 0; q < kQps; q++)
		for (int m = 0; m < kMsgs; m++)
			src.push_back(pattern(kLen, q * 1000 + m));
	std::vector<Sge> sges;
	for (auto &v : src)
		sges.push_back({uintptr_t(v.data()), kLen, reg(*A, v, 0)->lkey()});
	std::vector<uint8_t> rbuf(size_t(kSlots) * kLen);
	MemoryRegion *mr = reg(*B, rbuf, kLW);
	auto post_slot = [&](uint32_t slot) {
		Sge r{uintptr_t(rbuf.data()) + size_t(slot) * kLen, kLen, mr->lkey()};
		return srq->post_recv({slot, {&r, 1}});
	};
	for (uint32_t s = 0; s < kSlots; s++)
		ASSERT_EQ(post_slot(s), 0);
	EXPECT_EQ(srq->posted(), kSlots);
	/* Every QP posts all its messages at once: 160 messages for 8 WQEs. */
	for (int q = 0; q < kQps; q++)
		for (int m = 0; m < kMsgs; m++) {
			SendWr w;
			w.wr_id = uint64_t(q * 1000 + m);
			w.sg_list = {&sges[size_t(q * kMsgs + m)], 1};
			w.opcode = IBV_WR_SEND;
			w.send_flags = IBV_SEND_SIGNALED;
			ASSERT_EQ(qas[size_t(q)]->post_send(w), 0);
		}
	std::vector<int> next(kQps, 0);
	int got = 0, sent = 0;
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
	WorkCompletion wc[32];
	while ((got < kQps * kMsgs || sent < kQps * kMsgs) &&
	       std::chrono::steady_clock::now() < end) {
		poll();
		int n = B->rcq->poll_cq(wc);
		for (int i = 0; i < n; i++) {
			ASSERT_EQ(wc[i].status, IBV_WC_SUCCESS);
			ASSERT_EQ(wc[i].byte_len, kLen);
			int q = -1;
			for (int k = 0; k < kQps; k++)
				if (qbs[size_t(k)]->qp_num() == wc[i].qp_num)
					q = k;
			ASSERT_GE(q, 0) << "completion for QPN " << wc[i].qp_num;
			uint32_t slot = uint32_t(wc[i].wr_id);
			ASSERT_LT(slot, kSlots);
			const auto &want = src[size_t(q * kMsgs + next[size_t(q)])];
			ASSERT_EQ(memcmp(rbuf.data() + size_t(slot) * kLen, want.data(), kLen), 0)
				<< "QP " << q << " message " << next[size_t(q)] << " slot " << slot;
			next[size_t(q)]++;
			got++;
			ASSERT_EQ(post_slot(slot), 0);
		}
		n = A->scq->poll_cq(wc);
		for (int i = 0; i < n; i++)
			ASSERT_EQ(wc[i].status, IBV_WC_SUCCESS) << wc[i].wr_id;
		sent += n;
	}
	EXPECT_EQ(got, kQps * kMsgs);
	EXPECT_EQ(sent, kQps * kMsgs);
	for (int q = 0; q < kQps; q++)
		EXPECT_EQ(next[size_t(q)], kMsgs);
	EXPECT_GT(B->ctx->counters().rnr_naks_sent, 0u); /* the SRQ ran dry on the way */
	EXPECT_EQ(srq->posted(), kSlots);
	qbs.clear();
	qas.clear();
}

/* ibv_create_srq / ibv_post_srq_recv / ibv_modify_srq(IBV_SRQ_LIMIT) semantics, and what an
 * SRQ's QP refuses; a UD QP takes its receives from an SRQ as well; a QP that fails flushes
 * only the WQE it took, the rest stays for the other QPs. */
TEST_F(Transport, SrqCallsLimitUdAndFlush)
{
	int err = 0;
	EXPECT_EQ(B->ctx->create_srq(*B->pd, 0, 1, &err), nullptr);
	EXPECT_EQ(err, -EINVAL);
	EXPECT_EQ(B->ctx->create_srq(*B->pd, 16, kMaxSge + 1, &err), nullptr);
	EXPECT_EQ(B->ctx->create_srq(*A->pd, 16, 1, &err), nullptr) << "another Context's PD";
	auto srq = B->ctx->create_srq(*B->pd, 5, 2, &err);
	ASSERT_NE(srq, nullptr);
	EXPECT_EQ(srq->max_wr(), 8u); /* a power of two */
	auto other_pd = B->ctx->alloc_pd();
	QpInitAttr a;
	a.qp_type = IBV_QPT_UD;
	a.send_cq = B->scq.get();
	a.recv_cq = B->rcq.get();
	a.srq = srq.get();
	EXPECT_EQ(B->ctx->create_qp(*other_pd, a, &err), nullptr);
	EXPECT_EQ(err, -EINVAL) << "SRQ of another PD";

	std::vector<uint8_t> rbuf(8 * 1100), ro(64);
	MemoryRegion *mr = reg(*B, rbuf, kLW);
	MemoryRegion *ro_mr = reg(*B, ro, 0); /* no LOCAL_WRITE */
	Sge bad{uintptr_t(ro.data()), 64, ro_mr->lkey()};
	EXPECT_EQ(srq->post_recv({99, {&bad, 1}}), -EINVAL);
	Sge three[3] = {};
	EXPECT_EQ(srq->post_recv({99, {three, 3}}), -EINVAL) << "max_sge 2";
	for (uint32_t i = 0; i < 8; i++) {
		Sge r{uintptr_t(rbuf.data()) + i * 1100, 1100, mr->lkey()};
		ASSERT_EQ(srq->post_recv({i, {&r, 1}}), 0);
	}
	Sge r0{uintptr_t(rbuf.data()), 1100, mr->lkey()};
	EXPECT_EQ(srq->post_recv({8, {&r0, 1}}), -ENOMEM);
	EXPECT_EQ(srq->arm_limit(9), -EINVAL);
	ASSERT_EQ(srq->arm_limit(6), 0);

	/* UD: A's QP sends to two UD QPs of B that share the SRQ. */
	qa = A->qp(IBV_QPT_UD);
	std::unique_ptr<QueuePair> ub[2];
	ConnOpts o;
	ASSERT_EQ(bring_up(*qa, *B, 0, 0, 0x10, o, 0x1234), 0);
	for (auto &q : ub) {
		q = B->ctx->create_qp(*B->pd, a, &err);
		ASSERT_NE(q, nullptr) << err;
		ASSERT_EQ(bring_up(*q, *A, 0, 0, 0x20, o, 0x1234), 0);
		EXPECT_EQ(q->post_recv({1, {&r0, 1}}), -EINVAL) << "an SRQ's QP has no own RQ";
	}
	auto ah = A->ctx->create_ah(*A->pd, B->av());
	std::vector<uint8_t> src = pattern(1000, 5);
	MemoryRegion *ms = reg(*A, src, 0);
	Sge s{uintptr_t(src.data()), 1000, ms->lkey()};
	for (int i = 0; i < 3; i++) {
		SendWr w;
		w.wr_id = uint64_t(i);
		w.sg_list = {&s, 1};
		w.opcode = IBV_WR_SEND;
		w.send_flags = IBV_SEND_SIGNALED;
		w.ud = {ah.get(), ub[i % 2]->qp_num(), 0x1234};
		ASSERT_EQ(qa->post_send(w), 0);
	}
	auto rw = wait(*B->rcq, 3);
	ASSERT_EQ(rw.size(), 3u);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(rw[i].status, IBV_WC_SUCCESS);
		EXPECT_EQ(rw[i].wr_id, uint64_t(i)) << "the SRQ's WQEs in posting order";
		EXPECT_EQ(rw[i].qp_num, ub[i % 2]->qp_num());
		EXPECT_EQ(rw[i].byte_len, 1040u);
		EXPECT_EQ(memcmp(rbuf.data() + i * 1100 + 40, src.data(), 1000), 0);
	}
	EXPECT_EQ(srq->posted(), 5u);
	/* 8 -> 7 -> 6 stayed at the limit; 5 < 6 fired it once and disarmed it. */
	EXPECT_EQ(srq->limit_events(), 1u);
	EXPECT_EQ(srq->limit(), 0u);
	/* A UD QP in error flushes nothing of the SRQ (it held no WQE between messages). */
	QpAttr e;
	e.qp_state = IBV_QPS_ERR;
	ASSERT_EQ(ub[0]->modify(e, IBV_QP_STATE), 0);
	WorkCompletion wc[4];
	EXPECT_EQ(B->rcq->poll_cq(wc), 0);
	EXPECT_EQ(srq->posted(), 5u);
	for (auto &q : ub)
		q.reset();
	srq.reset();
}

} /* namespace test_roce_transport */
