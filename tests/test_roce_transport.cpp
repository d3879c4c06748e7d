/* SPDX-License-Identifier: BSD-3-Clause
 * RoCE v2 transport (drivers/net/gaudi/roce/roce_verbs.h) between two Contexts on the two
 * ports of a net_gaudi_emu `pair` (inline engine): RC/UC/UD semantics, loss recovery,
 * access checks, RNR, retry exhaustion, ECN/CNP/DCQCN and the packet log.
 *
 * ROCE_WIRE=ring runs the same tests over two DPDK net_ring ports crossed by two rte_rings
 * (rte_eth_from_rings): the transport needs nothing of the Gaudi PMD, any ethdev will do.
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gaudi_test_eal.h"

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "roce_cm.h"
#include "roce_verbs.h"

using namespace gaudi::roce;

namespace {

constexpr uint16_t kPortMtu = 4200; /* IB MTU 4096 + RoCE v2 headers */

struct Wire {
	uint16_t port[2]{};
	rte_mempool *pool = nullptr;
	bool ok = false;
	bool ring = false;    /* net_ring instead of net_gaudi_emu */
	rte_ring *rings[2]{}; /* ring[i]: port i -> port 1-i */
};
Wire g_wire;

class EalEnv : public gaudi_test::EalEnv {
public:
	EalEnv()
	    : gaudi_test::EalEnv("test_roce_transport", "1024",
				 {"--log-level=pmd.net.gaudi*:error", "--log-level=lib.net:error"})
	{
	}

protected:
	void after_init() override
	{
		const char *wire = getenv("ROCE_WIRE");
		g_wire.ring = wire != nullptr && std::string(wire) == "ring";
		printf("wire: %s\n",
		       g_wire.ring ? "net_ring (rte_eth_from_rings)" : "net_gaudi_emu pair");
		if (!g_wire.ring && rte_vdev_init("net_gaudi_emu0", "ports=2,wire=pair") != 0) {
			fprintf(stderr, "vdev init failed\n");
			std::exit(1);
		}
		g_wire.pool = rte_pktmbuf_pool_create("rt_pool", 8191, 256, 0,
						      4480 + RTE_PKTMBUF_HEADROOM, SOCKET_ID_ANY);
		if (g_wire.pool == nullptr)
			std::exit(1);
		for (int p = 0; p < 2 && g_wire.ring; p++) {
			g_wire.rings[p] =
				rte_ring_create(("rt_ring" + std::to_string(p)).c_str(), 4096,
						SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
			if (g_wire.rings[p] == nullptr)
				std::exit(1);
		}
		for (int p = 0; p < 2; p++) {
			if (g_wire.ring) {
				rte_ring *rx = g_wire.rings[1 - p], *tx = g_wire.rings[p];
				int id = rte_eth_from_rings(
					("net_ring_rt" + std::to_string(p)).c_str(), &rx, 1, &tx, 1,
					SOCKET_ID_ANY);
				if (id < 0)
					std::exit(1);
				g_wire.port[p] = uint16_t(id);
				rte_eth_dev_info info;
				if (rte_eth_dev_info_get(g_wire.port[p], &info) != 0 ||
				    std::string(info.driver_name) != "net_ring") {
					fprintf(stderr, "port %d is not a net_ring port\n", id);
					std::exit(1);
				}
			} else {
				std::string pn = "net_gaudi_emu0_p" + std::to_string(p);
				if (rte_eth_dev_get_port_by_name(pn.c_str(), &g_wire.port[p]) != 0)
					std::exit(1);
			}
			if (gaudi_test::start_roce_port(g_wire.port[p], kPortMtu, 2048, g_wire.pool)) {
				fprintf(stderr, "port %u setup failed\n", g_wire.port[p]);
				std::exit(1);
			}
		}
		g_wire.ok = true;
	}
	void before_cleanup() override
	{
		for (uint16_t p : g_wire.port)
			rte_eth_dev_stop(p);
		if (g_wire.ring) {
			for (uint16_t p : g_wire.port)
				rte_eth_dev_close(p);
			for (rte_ring *r : g_wire.rings)
				rte_ring_free(r);
		} else {
			rte_vdev_uninit("net_gaudi_emu0");
		}
		rte_mempool_free(g_wire.pool);
	}
};
const auto *eal_env = gaudi_test::register_eal_env(new EalEnv);

void drain(uint16_t port)
{
	rte_mbuf *b[64];
	uint16_t n;
	while ((n = rte_eth_rx_burst(port, 0, b, 64)) > 0)
		rte_pktmbuf_free_bulk(b, n);
}

/* One side: Context + PD + CQs + MRs. */
struct Side {
	std::unique_ptr<Context> ctx;
	std::unique_ptr<ProtectionDomain> pd;
	std::unique_ptr<CompletionQueue> scq, rcq;
	Side(uint16_t port, uint8_t ip_last) : Side(port, Gid::from_ipv4({10, 0, 0, ip_last})) {}
	Side(uint16_t port, const Gid &gid)
	{
		ContextConfig c;
		c.port_id = port;
		c.tx_pool = g_wire.pool;
		c.gid = gid;
		if (g_wire.ring) { /* net_ring ports have no MAC: a locally administered one each */
			c.mac_from_port = false;
			c.mac = {0x02, 0, 0, 0, 0x52, uint8_t(port + 1)};
		}
		int err = 0;
		ctx = Context::create(c, &err);
		EXPECT_NE(ctx, nullptr) << err;
		pd = ctx->alloc_pd();
		scq = ctx->create_cq(4096);
		rcq = ctx->create_cq(4096);
	}
	~Side()
	{
		scq.reset();
		rcq.reset();
		pd.reset();
	}
	AddressVector av() const { return {ctx->mac(), ctx->gid(), 0, 0, 64}; }
	std::unique_ptr<QueuePair> qp(ibv_qp_type t, uint32_t depth = 512)
	{
		QpInitAttr a;
		a.qp_type = t;
		a.send_cq = scq.get();
		a.recv_cq = rcq.get();
		a.cap.max_send_wr = depth;
		a.cap.max_recv_wr = depth;
		int err = 0;
		auto q = ctx->create_qp(*pd, a, &err);
		EXPECT_NE(q, nullptr) << err;
		return q;
	}
};

struct ConnOpts {
	ibv_mtu mtu = IBV_MTU_4096;
	uint32_t psn_a = 0x000100, psn_b = 0x000200;
	uint8_t timeout = 10;					 /* 4.2 ms */
	uint8_t retry_cnt = 7, rnr_retry = 7, min_rnr_timer = 1; /* 10 us RNR timer */
	unsigned access =
		IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
	uint8_t max_rd_atomic = 4;
};

int bring_up(QueuePair &q, const Side &peer, uint32_t dest_qpn, uint32_t rq_psn, uint32_t sq_psn,
	     const ConnOpts &o, uint32_t qkey = 0)
{
	QpAttr a;
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.qp_access_flags = o.access;
	a.qkey = qkey;
	int rc = q.modify(a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				     (q.type() == IBV_QPT_UD ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS));
	if (rc)
		return rc;
	a.qp_state = IBV_QPS_RTR;
	a.ah_attr = peer.av();
	a.path_mtu = o.mtu;
	a.dest_qp_num = dest_qpn;
	a.rq_psn = rq_psn;
	a.max_dest_rd_atomic = 16;
	a.min_rnr_timer = o.min_rnr_timer;
	int mask = q.type() == IBV_QPT_UD
			   ? IBV_QP_STATE
			   : IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				     IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				     IBV_QP_MIN_RNR_TIMER;
	if ((rc = q.modify(a, mask)))
		return rc;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = sq_psn;
	a.timeout = o.timeout;
	a.retry_cnt = o.retry_cnt;
	a.rnr_retry = o.rnr_retry;
	a.max_rd_atomic = o.max_rd_atomic;
	return q.modify(a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				   IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
}

class Transport : public ::testing::Test {
protected:
	void SetUp() override
	{
		ASSERT_TRUE(g_wire.ok);
		drain(g_wire.port[0]);
		drain(g_wire.port[1]);
		A = std::make_unique<Side>(g_wire.port[0], 1);
		B = std::make_unique<Side>(g_wire.port[1], 2);
		if (getenv("ROCE_LOG")) { /* debugging aid: every packet on stderr */
			A->ctx->set_packet_log(stderr);
			B->ctx->set_packet_log(stderr);
		}
	}
	void TearDown() override
	{
		qa.reset();
		qb.reset();
		mrs.clear();
		A.reset();
		B.reset();
	}
	void connect(ibv_qp_type t, const ConnOpts &o = {})
	{
		qa = A->qp(t);
		qb = B->qp(t);
		ASSERT_TRUE(qa && qb);
		ASSERT_EQ(bring_up(*qa, *B, qb->qp_num(), o.psn_b, o.psn_a, o, 0x1234), 0);
		ASSERT_EQ(bring_up(*qb, *A, qa->qp_num(), o.psn_a, o.psn_b, o, 0x1234), 0);
	}
	MemoryRegion *reg(Side &s, std::vector<uint8_t> &buf, unsigned access)
	{
		int err = 0;
		auto mr = s.ctx->reg_mr(*s.pd, buf.data(), buf.size(), access, &err);
		EXPECT_NE(mr, nullptr) << err;
		mrs.push_back(std::move(mr));
		return mrs.back().get();
	}
	/* A signaled RDMA WRITE or READ (op) of len bytes between local (lkey) and remote (rkey),
	 * wr_id id, posted on qa: post_send's result. */
	int post_rdma(ibv_wr_opcode op, const void *local, uint32_t len, uint32_t lkey,
		      const void *remote, uint32_t rkey, uint64_t id = 0)
	{
		Sge sge{uintptr_t(local), len, lkey};
		SendWr wr;
		wr.wr_id = id;
		wr.sg_list = {&sge, 1};
		wr.opcode = op;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.rdma = {uintptr_t(remote), rkey};
		return qa->post_send(wr);
	}
	void poll()
	{
		A->ctx->poll();
		B->ctx->poll();
	}
	/* Polls both sides until `want` completions arrived on cq, or the deadline. */
	std::vector<WorkCompletion> wait(CompletionQueue &cq, size_t want, double seconds = 20)
	{
		std::vector<WorkCompletion> out;
		auto end =
			std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
		WorkCompletion wc[32];
		while (out.size() < want && std::chrono::steady_clock::now() < end) {
			poll();
			int n = cq.poll_cq(wc);
			out.insert(out.end(), wc, wc + n);
		}
		return out;
	}
	void run_for(double seconds)
	{
		auto end =
			std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
		while (std::chrono::steady_clock::now() < end)
			poll();
	}
	void set_loss(double p, uint64_t seed, double reorder = 0, double dup = 0)
	{
		FaultConfig f;
		f.seed = seed;
		f.tx.drop = p;
		f.tx.reorder = reorder;
		f.tx.dup = dup;
		qa->set_faults(f);
		f.seed = seed * 7919 + 1;
		qb->set_faults(f);
	}
	static std::vector<uint8_t> pattern(size_t n, uint32_t seed)
	{
		std::vector<uint8_t> v(n);
		uint32_t x = seed * 2654435761u + 1;
		for (auto &b : v) {
			x = x * 1103515245u + 12345u;
			b = uint8_t(x >> 16);
		}
		return v;
	}

	std::unique_ptr<Side> A, B;
	std::unique_ptr<QueuePair> qa, qb;
	std::vector<std::unique_ptr<MemoryRegion>> mrs;
};

constexpr unsigned kAllRemote = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

/* ---------------------------------------------------------------------------------------
 * Reliable operations under loss, reordering and duplication
 * --------------------------------------------------------------------------------------- */
struct LossCase {
	double drop, reorder, dup;
	const char *name;
};

class RcLoss : public Transport, public ::testing::WithParamInterface<LossCase> {};

TEST_P(RcLoss, WriteReadSendAtomicsDeliverExactly)
{
	const LossCase lc = GetParam();
	ConnOpts o;
	o.timeout = 8; /* ~1 ms */
	connect(IBV_QPT_RC, o);
	set_loss(lc.drop, 42, lc.reorder, lc.dup);
	const std::vector<size_t> sizes = {1, 4096, 1 << 20};
	size_t total = 0;
	for (size_t s : sizes)
		total += s;
	std::vector<uint8_t> src = pattern(total, 1), dst(total, 0), rd(total, 0),
			     recv(total + 64, 0);
	MemoryRegion *msrc = reg(*A, src, IBV_ACCESS_LOCAL_WRITE);
	MemoryRegion *mrd = reg(*A, rd, IBV_ACCESS_LOCAL_WRITE);
	MemoryRegion *mdst = reg(*B, dst, kAllRemote);
	MemoryRegion *mrecv = reg(*B, recv, IBV_ACCESS_LOCAL_WRITE);

	/* WRITEs of each size, then READs of them back, all signaled, wr_id = order. */
	uint64_t id = 0;
	size_t off = 0;
	for (size_t s : sizes) {
		ASSERT_EQ(post_rdma(IBV_WR_RDMA_WRITE, src.data() + off, uint32_t(s), msrc->lkey(),
				    dst.data() + off, mdst->rkey(), id++),
			  0);
		off += s;
	}
	off = 0;
	for (size_t s : sizes) {
		ASSERT_EQ(post_rdma(IBV_WR_RDMA_READ, rd.data() + off, uint32_t(s), mrd->lkey(),
				    dst.data() + off, mdst->rkey(), id++),
			  0);
		off += s;
	}
	auto wcs = wait(*A->scq, id);
	ASSERT_EQ(wcs.size(), id);
	for (uint64_t i = 0; i < id; i++) {
		EXPECT_EQ(wcs[i].wr_id, i);
		EXPECT_EQ(wcs[i].status, IBV_WC_SUCCESS) << int(wcs[i].status);
		EXPECT_EQ(wcs[i].opcode, i < sizes.size() ? IBV_WC_RDMA_WRITE : IBV_WC_RDMA_READ);
	}
	EXPECT_TRUE(dst == src) << "WRITE data differs";
	EXPECT_TRUE(rd == src) << "READ data differs";

	/* SENDs (one with immediate) of each size into posted receives. */
	off = 0;
	for (size_t i = 0; i < sizes.size(); i++) {
		Sge r{uint64_t(uintptr_t(recv.data() + off)), uint32_t(sizes[i]), mrecv->lkey()};
		ASSERT_EQ(qb->post_recv({100 + i, {&r, 1}}), 0);
		off += sizes[i];
	}
	off = 0;
	for (size_t i = 0; i < sizes.size(); i++) {
		Sge sge{uint64_t(uintptr_t(src.data() + off)), uint32_t(sizes[i]), msrc->lkey()};
		SendWr wr;
		wr.wr_id = 200 + i;
		wr.sg_list = {&sge, 1};
		wr.opcode = i == 1 ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
		wr.imm_data = 0xC0FFEE;
		wr.send_flags = IBV_SEND_SIGNALED;
		ASSERT_EQ(qa->post_send(wr), 0);
		off += sizes[i];
	}
	auto swc = wait(*A->scq, sizes.size());
	auto rwc = wait(*B->rcq, sizes.size());
	ASSERT_EQ(swc.size(), sizes.size());
	for (size_t i = 0; i < sizes.size(); i++) { /* a send error explains a receive missing */
		EXPECT_EQ(swc[i].wr_id, 200 + i);
		EXPECT_EQ(swc[i].status, IBV_WC_SUCCESS)
			<< "timeouts " << A->ctx->counters().timeouts;
		EXPECT_EQ(swc[i].opcode, IBV_WC_SEND);
	}
	ASSERT_EQ(rwc.size(), sizes.size());
	for (size_t i = 0; i < sizes.size(); i++) {
		EXPECT_EQ(rwc[i].wr_id, 100 + i);
		EXPECT_EQ(rwc[i].status, IBV_WC_SUCCESS);
		EXPECT_EQ(rwc[i].opcode, IBV_WC_RECV);
		EXPECT_EQ(rwc[i].byte_len, sizes[i]);
		EXPECT_EQ(rwc[i].qp_num, qb->qp_num());
		EXPECT_EQ(bool(rwc[i].wc_flags & IBV_WC_WITH_IMM), i == 1);
		if (i == 1) {
			EXPECT_EQ(rwc[i].imm_data, 0xC0FFEEu);
		}
	}
	EXPECT_EQ(memcmp(recv.data(), src.data(), total), 0) << "SEND data differs";

	/* Atomics: 64 FETCH_AND_ADD then CMP_AND_SWP chain; each exactly once despite retries. */
	alignas(8) static uint64_t counter;
	counter = 1000;
	std::vector<uint8_t> cbuf(8);
	std::memcpy(cbuf.data(), &counter, 8);
	MemoryRegion *mc = reg(*B, cbuf, kAllRemote);
	std::vector<uint8_t> res(8 * 128, 0);
	MemoryRegion *mres = reg(*A, res, IBV_ACCESS_LOCAL_WRITE);
	uint64_t raddr = uint64_t(uintptr_t(cbuf.data()));
	ASSERT_EQ(raddr % 8, 0u);
	for (int i = 0; i < 64; i++) {
		Sge sge{uint64_t(uintptr_t(res.data() + 8 * i)), 8, mres->lkey()};
		SendWr wr;
		wr.wr_id = 300 + i;
		wr.sg_list = {&sge, 1};
		wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.atomic = {raddr, 3, 0, mc->rkey()};
		ASSERT_EQ(qa->post_send(wr), 0);
	}
	for (int i = 0; i < 64; i++) {
		Sge sge{uint64_t(uintptr_t(res.data() + 8 * (64 + i))), 8, mres->lkey()};
		SendWr wr;
		wr.wr_id = 400 + i;
		wr.sg_list = {&sge, 1};
		wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
		wr.send_flags = IBV_SEND_SIGNALED;
		/* Succeeds only if the previous CAS succeeded: 1192 -> 1193 -> ... */
		wr.atomic = {raddr, 1000 + 64 * 3 + uint64_t(i), 1000 + 64 * 3 + uint64_t(i) + 1,
			     mc->rkey()};
		ASSERT_EQ(qa->post_send(wr), 0);
	}
	auto awc = wait(*A->scq, 128);
	ASSERT_EQ(awc.size(), 128u);
	for (int i = 0; i < 128; i++) {
		EXPECT_EQ(awc[i].wr_id, uint64_t(i < 64 ? 300 + i : 400 + i - 64));
		EXPECT_EQ(awc[i].status, IBV_WC_SUCCESS);
		EXPECT_EQ(awc[i].opcode, i < 64 ? IBV_WC_FETCH_ADD : IBV_WC_COMP_SWAP);
		uint64_t orig;
		std::memcpy(&orig, res.data() + 8 * i, 8);
		EXPECT_EQ(orig, i < 64 ? 1000 + 3 * uint64_t(i) : 1000 + 64 * 3 + uint64_t(i - 64))
			<< i;
	}
	uint64_t final;
	std::memcpy(&final, cbuf.data(), 8);
	EXPECT_EQ(final, 1000u + 64 * 3 + 64);

	const Counters &ca = A->ctx->counters();
	const Counters &cb = B->ctx->counters();
	printf("[%s] A: tx %lu retransmits %lu timeouts %lu naks_rcvd %lu hook_drop %lu | B: dup "
	       "%lu oos %lu "
	       "read_replays %lu atomic_replays %lu hook_drop %lu\n",
	       lc.name, ca.tx_frames, ca.retransmits, ca.timeouts, ca.naks_rcvd, ca.tx_hook_dropped,
	       cb.rx_duplicates, cb.rx_out_of_sequence, cb.read_replays, cb.atomic_replays,
	       cb.tx_hook_dropped);
	if (lc.drop > 0) {
		EXPECT_GT(ca.tx_hook_dropped + cb.tx_hook_dropped, 0u);
		EXPECT_GT(ca.retransmits, 0u);
	}
	EXPECT_EQ(qa->state(), IBV_QPS_RTS);
	EXPECT_EQ(qb->state(), IBV_QPS_RTS);
}

INSTANTIATE_TEST_SUITE_P(Loss, RcLoss,
			 ::testing::Values(LossCase{0, 0, 0, "loss0"},
					   LossCase{0.01, 0, 0, "loss1"},
					   LossCase{0.10, 0, 0, "loss10"},
					   LossCase{0, 0.05, 0.05, "reorder_dup"},
					   LossCase{0.02, 0.05, 0.05, "mixed"}),
			 [](const auto &info) { return std::string(info.param.name); });

/* READ responder pacing (QpTuning::read_stall_us): 64 READs of 64 KiB at MTU 1024, 16 held at
 * once, 2 % of the responder's frames lost. A loss makes the requester re-request from the gap
 * and every READ after it; the responder stops those READs' responses and halves its response
 * window: 2.0-2.1 frames per data frame (both wires). With the window off
 * (initial_window_pkts = 0) it sent 6.3-8.2, sending every held READ's responses back to back. */
TEST_F(Transport, ReadResponsesPacedUnderLoss)
{
	ConnOpts o;
	o.mtu = IBV_MTU_1024;
	o.max_rd_atomic = 16;
	connect(IBV_QPT_RC, o);
	FaultConfig f;
	f.seed = 11;
	f.tx.drop = 0.02;
	qb->set_faults(f);
	constexpr size_t kLen = 65536, kReads = 64;
	std::vector<uint8_t> src = pattern(kLen, 9), dst(kLen * kReads, 0);
	MemoryRegion *ms = reg(*B, src, kAllRemote);
	MemoryRegion *md = reg(*A, dst, IBV_ACCESS_LOCAL_WRITE);
	for (size_t i = 0; i < kReads; i++)
		ASSERT_EQ(post_rdma(IBV_WR_RDMA_READ, dst.data() + i * kLen, uint32_t(kLen),
				    md->lkey(), src.data(), ms->rkey(), i),
			  0);
	auto wc = wait(*A->scq, kReads, 60);
	ASSERT_EQ(wc.size(), kReads);
	for (size_t i = 0; i < kReads; i++) {
		EXPECT_EQ(wc[i].status, IBV_WC_SUCCESS) << i;
		EXPECT_TRUE(std::equal(src.begin(), src.end(), dst.begin() + i * kLen)) << i;
	}
	const Counters &cb = B->ctx->counters();
	uint64_t sent = cb.tx_frames + cb.tx_hook_dropped, needed = kReads * kLen / 1024;
	printf("READ responder: %lu frames for %lu data frames (%.2f per data frame), %lu "
	       "dropped, %lu replays, %lu window waits\n",
	       sent, needed, double(sent) / double(needed), cb.tx_hook_dropped, cb.read_replays,
	       cb.read_window_waits);
	EXPECT_GT(cb.tx_hook_dropped, 0u);
	EXPECT_GT(cb.read_replays, 0u);
	EXPECT_LT(sent, needed * 5 / 2);
}

TEST_F(Transport, PsnWrapAndSmallMtuWithScatterGather)
{
	ConnOpts o;
	o.mtu = IBV_MTU_256;
	o.psn_a = 0xFFFFF0;
	o.psn_b = 0xFFFFFE;
	o.timeout = 8;
	connect(IBV_QPT_RC, o);
	set_loss(0.01, 7);
	/* 64 KiB in 3 SGEs = 256 packets across the 2^24 wrap, then read back, then a SEND. */
	std::vector<uint8_t> s1 = pattern(10000, 3), s2 = pattern(30000, 4), s3 = pattern(25536, 5);
	std::vector<uint8_t> dst(65536, 0), back(65536, 0);
	MemoryRegion *m1 = reg(*A, s1, 0), *m2 = reg(*A, s2, 0), *m3 = reg(*A, s3, 0);
	MemoryRegion *mb = reg(*A, back, IBV_ACCESS_LOCAL_WRITE);
	MemoryRegion *md = reg(*B, dst, kAllRemote);
	Sge sg[3] = {{uintptr_t(s1.data()), 10000, m1->lkey()},
		     {uintptr_t(s2.data()), 30000, m2->lkey()},
		     {uintptr_t(s3.data()), 25536, m3->lkey()}};
	SendWr w;
	w.wr_id = 1;
	w.sg_list = sg;
	w.opcode = IBV_WR_RDMA_WRITE;
	w.send_flags = IBV_SEND_SIGNALED;
	w.rdma = {uintptr_t(dst.data()), md->rkey()};
	ASSERT_EQ(qa->post_send(w), 0);
	ASSERT_EQ(post_rdma(IBV_WR_RDMA_READ, back.data(), 65536, mb->lkey(), dst.data(),
			    md->rkey(), 2),
		  0);
	auto wc = wait(*A->scq, 2);
	ASSERT_EQ(wc.size(), 2u);
	EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS);
	EXPECT_EQ(wc[1].status, IBV_WC_SUCCESS);
	std::vector<uint8_t> all(s1);
	all.insert(all.end(), s2.begin(), s2.end());
	all.insert(all.end(), s3.begin(), s3.end());
	EXPECT_TRUE(dst == all);
	EXPECT_TRUE(back == all);
	/* 1 + 256 + 256 PSNs from 0xFFFFF0 wrapped past 0. */
	EXPECT_LT(psn_add(0xFFFFF0, 512), 0x000200u);
	EXPECT_EQ(psn_diff(0x000005, 0xFFFFFE), 7);
	EXPECT_EQ(psn_diff(0xFFFFFE, 0x000005), -7);
}

TEST_F(Transport, UnsignaledCompletionsAndInline)
{
	connect(IBV_QPT_RC);
	std::vector<uint8_t> dst(64, 0);
	MemoryRegion *md = reg(*B, dst, kAllRemote);
	uint8_t msg[16] = "inline-payload!";
	Sge s{uintptr_t(msg), 16, 0 /* no lkey needed for inline */};
	for (int i = 0; i < 4; i++) {
		SendWr w;
		w.wr_id = 10 + i;
		w.sg_list = {&s, 1};
		w.opcode = IBV_WR_RDMA_WRITE;
		w.send_flags = IBV_SEND_INLINE | (i == 3 ? IBV_SEND_SIGNALED : 0);
		w.rdma = {uintptr_t(dst.data() + 16 * i), md->rkey()};
		ASSERT_EQ(qa->post_send(w), 0);
	}
	memset(msg, 'X', sizeof msg); /* inline: the buffer is reusable right after post_send */
	auto wc = wait(*A->scq, 1);
	ASSERT_EQ(wc.size(), 1u);
	EXPECT_EQ(wc[0].wr_id, 13u);
	run_for(0.01);
	WorkCompletion extra[4];
	EXPECT_EQ(A->scq->poll_cq(extra), 0) << "unsignaled WRs must not complete";
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(memcmp(dst.data() + 16 * i, "inline-payload!", 16), 0);
}

/* ---------------------------------------------------------------------------------------
 * UD and UC
 * --------------------------------------------------------------------------------------- */
TEST_F(Transport, UdSendAndQkeyMismatchDropped)
{
	connect(IBV_QPT_UD);
	auto ah = A->ctx->create_ah(*A->pd, B->av());
	ASSERT_NE(ah, nullptr);
	std::vector<uint8_t> src = pattern(1000, 9), rbuf(2 * 1100, 0);
	MemoryRegion *ms = reg(*A, src, 0);
	MemoryRegion *mr = reg(*B, rbuf, IBV_ACCESS_LOCAL_WRITE);
	for (int i = 0; i < 2; i++) {
		Sge r{uintptr_t(rbuf.data() + 1100 * i), 1100, mr->lkey()};
		ASSERT_EQ(qb->post_recv({uint64_t(i), {&r, 1}}), 0);
	}
	Sge s{uintptr_t(src.data()), 1000, ms->lkey()};
	SendWr w;
	w.sg_list = {&s, 1};
	w.opcode = IBV_WR_SEND;
	w.send_flags = IBV_SEND_SIGNALED;
	w.ud = {ah.get(), qb->qp_num(), 0x9999}; /* wrong Q_Key */
	w.wr_id = 1;
	ASSERT_EQ(qa->post_send(w), 0);
	auto wc = wait(*A->scq, 1);
	ASSERT_EQ(wc.size(), 1u);
	EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS); /* UD: completes when sent */
	run_for(0.01);
	EXPECT_EQ(B->ctx->counters().rx_bad_qkey, 1u);
	WorkCompletion rw[2];
	EXPECT_EQ(B->rcq->poll_cq(rw), 0);
	EXPECT_EQ(qb->rq_posted(), 2u);

	w.ud.remote_qkey = 0x1234;
	w.opcode = IBV_WR_SEND_WITH_IMM;
	w.imm_data = 77;
	w.wr_id = 2;
	ASSERT_EQ(qa->post_send(w), 0);
	auto r = wait(*B->rcq, 1);
	ASSERT_EQ(r.size(), 1u);
	EXPECT_EQ(r[0].status, IBV_WC_SUCCESS);
	EXPECT_EQ(r[0].byte_len, 1040u); /* 40 B GRH area + payload */
	EXPECT_EQ(r[0].src_qp, qa->qp_num());
	EXPECT_TRUE(r[0].wc_flags & IBV_WC_GRH);
	EXPECT_TRUE(r[0].wc_flags & IBV_WC_WITH_IMM);
	EXPECT_EQ(r[0].imm_data, 77u);
	EXPECT_EQ(memcmp(rbuf.data() + 40, src.data(), 1000), 0);
	EXPECT_EQ(rbuf[20], 0x45); /* IPv4 header in the last 20 B of the GRH area */
	/* A message above the path MTU is silently dropped and completes successfully (IBA
	 * C10-93.1.1, rxe fake_udp_send): nothing leaves, B sees nothing. */
	std::vector<uint8_t> big(5000);
	MemoryRegion *mbig = reg(*A, big, 0);
	Sge sb{uintptr_t(big.data()), 5000, mbig->lkey()};
	w.sg_list = {&sb, 1};
	w.wr_id = 3;
	uint64_t tx_before = A->ctx->counters().tx_frames;
	ASSERT_EQ(qa->post_send(w), 0);
	auto big_wc = wait(*A->scq, 2);
	ASSERT_EQ(big_wc.size(), 2u);
	EXPECT_EQ(big_wc[1].wr_id, 3u);
	EXPECT_EQ(big_wc[1].status, IBV_WC_SUCCESS);
	EXPECT_EQ(big_wc[1].byte_len, 5000u);
	run_for(0.01);
	EXPECT_EQ(A->ctx->counters().tx_frames, tx_before);
	EXPECT_EQ(A->ctx->counters().ud_oversize, 1u);
	EXPECT_EQ(B->rcq->poll_cq(rw), 0);
	EXPECT_EQ(qb->rq_posted(), 1u);
}

/* RoCE v2 over IPv6: GIDs are IPv6 addresses; the peer's MAC comes from neighbour discovery
 * (NS/NA between the two Contexts); RC data and a UD GRH carry the IPv6 addresses. */
TEST_F(Transport, Ipv6GidsNeighbourDiscoveryRcAndUd)
{
	Gid ga, gb;
	ASSERT_TRUE(Gid::parse("fd00::1", ga));
	ASSERT_TRUE(Gid::parse("fd00::2", gb));
	A = std::make_unique<Side>(g_wire.port[0], ga); /* replaces the IPv4 sides on the ports */
	B = std::make_unique<Side>(g_wire.port[1], gb);
	ASSERT_FALSE(A->ctx->gid().is_ipv4());
	MacAddr mac{};
	{
		int rc = -EAGAIN;
		auto end = std::chrono::steady_clock::now() + std::chrono::seconds(2);
		while (rc == -EAGAIN && std::chrono::steady_clock::now() < end) {
			rc = A->ctx->resolve(gb, mac);
			poll();
		}
		ASSERT_EQ(rc, 0);
		EXPECT_EQ(mac, B->ctx->mac());
		/* the NS */
		EXPECT_GE(B->ctx->counters().rx_neighbour, 1u);
		/* the NA */
		EXPECT_GE(A->ctx->counters().rx_neighbour, 1u);
		/* family */
		EXPECT_EQ(A->ctx->resolve(Gid::from_ipv4({10, 0, 0, 2}), mac), -EINVAL);
	}
	connect(IBV_QPT_RC);
	std::vector<uint8_t> src = pattern(10000, 61), dst(10000, 0);
	MemoryRegion *ms = reg(*A, src, 0);
	MemoryRegion *md = reg(*B, dst, kAllRemote);
	ASSERT_EQ(
		post_rdma(IBV_WR_RDMA_WRITE, src.data(), 10000, ms->lkey(), dst.data(), md->rkey()),
		0);
	auto wc = wait(*A->scq, 1);
	ASSERT_EQ(wc.size(), 1u);
	EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS);
	EXPECT_TRUE(dst == src);
	EXPECT_EQ(B->ctx->counters().rx_not_for_us, 0u);

	qa.reset();
	qb.reset();
	connect(IBV_QPT_UD);
	auto ah = A->ctx->create_ah(*A->pd, B->av());
	ASSERT_NE(ah, nullptr);
	std::vector<uint8_t> rbuf(200, 0);
	MemoryRegion *mr = reg(*B, rbuf, IBV_ACCESS_LOCAL_WRITE);
	Sge r{uintptr_t(rbuf.data()), 200, mr->lkey()};
	ASSERT_EQ(qb->post_recv({7, {&r, 1}}), 0);
	Sge s2{uintptr_t(src.data()), 100, ms->lkey()};
	SendWr u;
	u.sg_list = {&s2, 1};
	u.ud = {ah.get(), qb->qp_num(), 0x1234};
	ASSERT_EQ(qa->post_send(u), 0);
	auto rw = wait(*B->rcq, 1);
	ASSERT_EQ(rw.size(), 1u);
	EXPECT_EQ(rw[0].status, IBV_WC_SUCCESS);
	EXPECT_EQ(rw[0].byte_len, 140u);
	EXPECT_EQ(rbuf[0] >> 4, 6);				  /* GRH = the IPv6 header */
	EXPECT_EQ(0, memcmp(rbuf.data() + 8, ga.raw.data(), 16)); /* source GID */
	EXPECT_EQ(0, memcmp(rbuf.data() + 24, gb.raw.data(), 16));
	EXPECT_EQ(0, memcmp(rbuf.data() + 40, src.data(), 100));
}

TEST_F(Transport, UcWriteAndWriteWithImm)
{
	ConnOpts o;
	o.mtu = IBV_MTU_1024;
	connect(IBV_QPT_UC, o);
	std::vector<uint8_t> src = pattern(10000, 11), dst(10000, 0), rb(16);
	MemoryRegion *ms = reg(*A, src, 0);
	MemoryRegion *md = reg(*B, dst, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	MemoryRegion *mrb = reg(*B, rb, IBV_ACCESS_LOCAL_WRITE);
	Sge r{uintptr_t(rb.data()), 16, mrb->lkey()};
	ASSERT_EQ(qb->post_recv({5, {&r, 1}}), 0);
	Sge s{uintptr_t(src.data()), 10000, ms->lkey()};
	SendWr w;
	w.wr_id = 1;
	w.sg_list = {&s, 1};
	w.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	w.imm_data = 0xABCD;
	w.send_flags = IBV_SEND_SIGNALED;
	w.rdma = {uintptr_t(dst.data()), md->rkey()};
	ASSERT_EQ(qa->post_send(w), 0);
	w.opcode = IBV_WR_RDMA_READ;
	EXPECT_EQ(qa->post_send(w), -EINVAL) << "UC has no READ";
	auto sw = wait(*A->scq, 1);
	ASSERT_EQ(sw.size(), 1u);
	EXPECT_EQ(sw[0].status, IBV_WC_SUCCESS);
	auto rw = wait(*B->rcq, 1);
	ASSERT_EQ(rw.size(), 1u);
	EXPECT_EQ(rw[0].opcode, IBV_WC_RECV_RDMA_WITH_IMM);
	EXPECT_EQ(rw[0].imm_data, 0xABCDu);
	EXPECT_EQ(rw[0].byte_len, 10000u);
	EXPECT_TRUE(dst == src);
	EXPECT_EQ(A->ctx->counters().acks_rcvd + B->ctx->counters().acks_sent, 0u)
		<< "UC is unacknowledged";
}

TEST_F(Transport, UcLossDropsWholeMessagesOnly)
{
	ConnOpts o;
	o.mtu = IBV_MTU_1024;
	connect(IBV_QPT_UC, o);
	FaultConfig f;
	f.seed = 5;
	f.tx.drop = 0.05;
	qa->set_faults(f);
	const int kMsgs = 50;
	std::vector<uint8_t> src = pattern(4096 * kMsgs, 13), dst(4096 * kMsgs, 0), rb(16 * kMsgs);
	MemoryRegion *ms = reg(*A, src, 0);
	MemoryRegion *md = reg(*B, dst, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	MemoryRegion *mrb = reg(*B, rb, IBV_ACCESS_LOCAL_WRITE);
	for (int i = 0; i < kMsgs; i++) {
		Sge r{uintptr_t(rb.data() + 16 * i), 16, mrb->lkey()};
		ASSERT_EQ(qb->post_recv({uint64_t(i), {&r, 1}}), 0);
		Sge s{uintptr_t(src.data() + 4096 * i), 4096, ms->lkey()};
		SendWr w;
		w.wr_id = i;
		w.sg_list = {&s, 1};
		w.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		w.imm_data = i;
		w.rdma = {uintptr_t(dst.data() + 4096 * i), md->rkey()};
		ASSERT_EQ(qa->post_send(w), 0);
	}
	run_for(0.05);
	WorkCompletion wc[kMsgs];
	int n = B->rcq->poll_cq(wc);
	uint64_t dropped = A->ctx->counters().tx_hook_dropped;
	EXPECT_GT(dropped, 0u);
	EXPECT_LT(n, kMsgs);
	EXPECT_GT(n, 0);
	/* Every delivered message is complete and correct (no partial placement reported). */
	for (int i = 0; i < n; i++) {
		uint32_t m = wc[i].imm_data;
		EXPECT_EQ(memcmp(dst.data() + 4096 * m, src.data() + 4096 * m, 4096), 0) << m;
	}
}

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

} /* namespace */
