/* SPDX-License-Identifier: BSD-3-Clause
 * RoCE v2 transport (roce_verbs.h) against a scripted peer: a Context on port 0 of a
 * net_gaudi_emu pair, and crafted frames sent/received raw on port 1. Each test pins one
 * behaviour an rdma-core/rxe peer depends on (issue 9): AckReq spacing, the PSN of a duplicate's
 * ACK, retries spent on PSN-sequence NAKs, the responder's READ/atomic resources, atomic
 * results across SGEs, IP TTL and the path MTU.
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gaudi_test_eal.h"

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "roce_verbs.h"

using namespace gaudi::roce;

namespace {

constexpr uint16_t kPortMtu = 4200; /* IB MTU 4096 + RoCE v2 headers */
constexpr uint32_t kPeerQpn = 0x000777;
constexpr uint32_t kPsnA = 0x000100;	/* A's first send PSN */
constexpr uint32_t kPsnPeer = 0x000200; /* the peer's first request PSN */
constexpr unsigned kAllRemote = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

struct Wire {
	uint16_t port[2]{};
	rte_mempool *pool = nullptr;
	bool ok = false;
};
Wire g_wire;

class EalEnv : public gaudi_test::EalEnv {
public:
	EalEnv()
	    : gaudi_test::EalEnv("test_roce_conformance", "512",
				 {"--log-level=pmd.net.gaudi*:error", "--log-level=lib.net:error"})
	{
	}

protected:
	void after_init() override
	{
		if (rte_vdev_init("net_gaudi_emu0", "ports=2,wire=pair") != 0)
			std::exit(1);
		g_wire.pool = rte_pktmbuf_pool_create("rc_pool", 4095, 256, 0,
						      4480 + RTE_PKTMBUF_HEADROOM, SOCKET_ID_ANY);
		if (g_wire.pool == nullptr)
			std::exit(1);
		for (int p = 0; p < 2; p++) {
			std::string pn = "net_gaudi_emu0_p" + std::to_string(p);
			if (rte_eth_dev_get_port_by_name(pn.c_str(), &g_wire.port[p]) != 0)
				std::exit(1);
			if (gaudi_test::start_roce_port(g_wire.port[p], kPortMtu, 2048,
							g_wire.pool))
				std::exit(1);
		}
		g_wire.ok = true;
	}
	void before_cleanup() override
	{
		for (uint16_t p : g_wire.port)
			rte_eth_dev_stop(p);
		rte_vdev_uninit("net_gaudi_emu0");
		rte_mempool_free(g_wire.pool);
	}
};
const auto *eal_env = gaudi_test::register_eal_env(new EalEnv);

/* A received frame: its bytes and the decoded packet (spans point into `bytes`). */
struct Frame {
	std::vector<uint8_t> bytes;
	Packet pkt;
	bool ok = false;
};

struct Opts {
	ibv_mtu mtu = IBV_MTU_1024;
	uint8_t timeout = 14; /* 67 ms: long enough that no test here relies on it */
	uint8_t retry_cnt = 7;
	uint8_t max_rd_atomic = 4;
	uint8_t max_dest_rd_atomic = 4;
	uint8_t hop_limit = 64;
};

class Conformance : public ::testing::Test {
protected:
	void SetUp() override
	{
		ASSERT_TRUE(g_wire.ok);
		drain();
		ContextConfig c;
		c.port_id = g_wire.port[0];
		c.tx_pool = g_wire.pool;
		c.gid = Gid::from_ipv4({10, 0, 0, 1});
		ctx = Context::create(c);
		ASSERT_NE(ctx, nullptr);
		rte_ether_addr m;
		ASSERT_EQ(rte_eth_macaddr_get(g_wire.port[1], &m), 0);
		std::copy(m.addr_bytes, m.addr_bytes + 6, peer_mac.begin());
		pd = ctx->alloc_pd();
		scq = ctx->create_cq(1024);
		rcq = ctx->create_cq(1024);
		if (getenv("ROCE_LOG"))
			ctx->set_packet_log(stderr);
	}
	void TearDown() override
	{
		qp.reset();
		mrs.clear();
		scq.reset();
		rcq.reset();
		pd.reset();
		ctx.reset();
		drain();
	}
	static void drain()
	{
		rte_mbuf *b[64];
		uint16_t n;
		while ((n = rte_eth_rx_burst(g_wire.port[1], 0, b, 64)) > 0)
			rte_pktmbuf_free_bulk(b, n);
	}

	void connect(const Opts &o = {})
	{
		QpInitAttr ia;
		ia.qp_type = IBV_QPT_RC;
		ia.send_cq = scq.get();
		ia.recv_cq = rcq.get();
		ia.cap.max_send_wr = 256;
		ia.cap.max_recv_wr = 256;
		qp = ctx->create_qp(*pd, ia);
		ASSERT_NE(qp, nullptr);
		QpAttr a;
		a.qp_state = IBV_QPS_INIT;
		a.qp_access_flags =
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
		ASSERT_EQ(qp->modify(a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS), 0);
		a.qp_state = IBV_QPS_RTR;
		a.ah_attr = {peer_mac, peer_gid, 0, 0, o.hop_limit};
		a.path_mtu = o.mtu;
		a.dest_qp_num = kPeerQpn;
		a.rq_psn = kPsnPeer;
		a.max_dest_rd_atomic = o.max_dest_rd_atomic;
		a.min_rnr_timer = 1;
		ASSERT_EQ(qp->modify(a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
						IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
						IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER),
			  0);
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = kPsnA;
		a.timeout = o.timeout;
		a.retry_cnt = o.retry_cnt;
		a.rnr_retry = 7;
		a.max_rd_atomic = o.max_rd_atomic;
		ASSERT_EQ(qp->modify(a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
						IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
						IBV_QP_MAX_QP_RD_ATOMIC),
			  0);
	}
	MemoryRegion *reg(std::vector<uint8_t> &buf, unsigned access)
	{
		auto mr = ctx->reg_mr(*pd, buf.data(), buf.size(), access);
		EXPECT_NE(mr, nullptr);
		mrs.push_back(std::move(mr));
		return mrs.back().get();
	}

	/* A request/response from the peer to A's QP. */
	Packet peer_packet(Opcode op, uint32_t psn, bool ack_req = false)
	{
		Packet p = make_packet(op);
		p.eth.dst = ctx->mac();
		p.eth.src = peer_mac;
		p.ip4.src = peer_gid.ipv4();
		p.ip4.dst = ctx->gid().ipv4();
		p.bth.dest_qp = qp->qp_num();
		p.bth.psn = psn;
		p.bth.ack_req = ack_req;
		return p;
	}
	void send(const Packet &p)
	{
		rte_mbuf *m = rte_pktmbuf_alloc(g_wire.pool);
		ASSERT_NE(m, nullptr);
		BuildResult r = build(p, {rte_pktmbuf_mtod(m, uint8_t *), rte_pktmbuf_tailroom(m)});
		ASSERT_TRUE(r);
		m->data_len = static_cast<uint16_t>(r.len);
		m->pkt_len = static_cast<uint32_t>(r.len);
		ASSERT_EQ(rte_eth_tx_burst(g_wire.port[1], 0, &m, 1), 1);
	}
	/* Polls A and collects what it sends for `seconds`, or until `want` frames arrived. */
	std::vector<std::unique_ptr<Frame>> collect(double seconds, size_t want = SIZE_MAX)
	{
		std::vector<std::unique_ptr<Frame>> out;
		auto end =
			std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
		rte_mbuf *b[32];
		while (out.size() < want && std::chrono::steady_clock::now() < end) {
			ctx->poll();
			uint16_t n = rte_eth_rx_burst(g_wire.port[1], 0, b, 32);
			for (uint16_t i = 0; i < n; i++) {
				auto f = std::make_unique<Frame>();
				f->bytes.resize(b[i]->pkt_len);
				const void *d =
					rte_pktmbuf_read(b[i], 0, b[i]->pkt_len, f->bytes.data());
				if (d != f->bytes.data())
					std::memcpy(f->bytes.data(), d, b[i]->pkt_len);
				ParseStats st;
				f->ok = parse(f->bytes, f->pkt, st) == ParseError::ok;
				rte_pktmbuf_free(b[i]);
				out.push_back(std::move(f));
			}
		}
		return out;
	}
	std::vector<WorkCompletion> poll_cq(CompletionQueue &cq)
	{
		std::vector<WorkCompletion> out;
		WorkCompletion wc[16];
		int n;
		while ((n = cq.poll_cq(wc)) > 0)
			out.insert(out.end(), wc, wc + n);
		return out;
	}
	static uint8_t op(const Frame &f) { return f.pkt.bth.opcode; }

	std::unique_ptr<Context> ctx;
	std::unique_ptr<ProtectionDomain> pd;
	std::unique_ptr<CompletionQueue> scq, rcq;
	std::unique_ptr<QueuePair> qp;
	std::vector<std::unique_ptr<MemoryRegion>> mrs;
	MacAddr peer_mac{};
	Gid peer_gid = Gid::from_ipv4({10, 0, 0, 2});
};

constexpr uint8_t kAck = static_cast<uint8_t>(Opcode::RC_ACKNOWLEDGE);

/* A peer that, like rxe, ACKs only packets with AckReq: a WRITE of 600 packets (more than the
 * 256-PSN window) must get AckReq often enough to keep going without a local ACK timeout. */
TEST_F(Conformance, AckReqAtLeastEveryNPacketsSoLongMessagesNeverStall)
{
	Opts o;
	o.mtu = IBV_MTU_256;
	o.timeout = 20; /* 4.3 s: a stall would show as a timeout, never as success */
	connect(o);
	QpTuning t = qp->tuning();
	EXPECT_EQ(t.ack_req_every, 64u);
	std::vector<uint8_t> src(600 * 256, 0x5A);
	MemoryRegion *ms = reg(src, 0);
	Sge s{uintptr_t(src.data()), uint32_t(src.size()), ms->lkey()};
	SendWr w;
	w.wr_id = 9;
	w.sg_list = {&s, 1};
	w.opcode = IBV_WR_RDMA_WRITE;
	w.send_flags = IBV_SEND_SIGNALED;
	w.rdma = {0x1000, 0x1234};
	ASSERT_EQ(qp->post_send(w), 0);
	std::vector<uint32_t> ackreq_psns;
	uint32_t received = 0;
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(2);
	while (received < 600 && std::chrono::steady_clock::now() < end) {
		for (auto &f : collect(0.001)) {
			ASSERT_TRUE(f->ok);
			received++;
			if (f->pkt.bth.ack_req) {
				ackreq_psns.push_back(f->pkt.bth.psn);
				Packet ack = peer_packet(Opcode::RC_ACKNOWLEDGE, f->pkt.bth.psn);
				ack.bth.dest_qp = qp->qp_num();
				ack.aeth = {0x1F, 1};
				send(ack);
			}
		}
	}
	EXPECT_EQ(received, 600u);
	collect(0.05); /* A takes the last ACK */
	ASSERT_FALSE(ackreq_psns.empty());
	/* One asks per half congestion window (16 packets at first: the 8th), at most every 64th
	 * as the window opens, and the last one. */
	EXPECT_EQ(t.initial_window_pkts, 16u);
	EXPECT_EQ(ackreq_psns.front(), psn_add(kPsnA, 7));
	EXPECT_EQ(ackreq_psns.back(), psn_add(kPsnA, 599));
	for (size_t i = 1; i < ackreq_psns.size(); i++)
		EXPECT_LE(psn_diff(ackreq_psns[i], ackreq_psns[i - 1]), 64);
	auto wc = poll_cq(*scq);
	ASSERT_EQ(wc.size(), 1u);
	EXPECT_EQ(wc[0].wr_id, 9u);
	EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS);
	EXPECT_EQ(ctx->counters().timeouts, 0u);
	EXPECT_EQ(ctx->counters().retransmits, 0u);
}

/* A duplicate SEND after a READ: the re-ACK carries the duplicate's PSN, not epsn - 1 (the
 * READ's PSN, which an rxe requester would take as the READ's completion). */
TEST_F(Conformance, DuplicateSendAckedWithItsOwnPsnNotAReadPsn)
{
	connect();
	std::vector<uint8_t> rbuf(64), mem(64, 0xAB);
	MemoryRegion *mr = reg(rbuf, IBV_ACCESS_LOCAL_WRITE);
	MemoryRegion *mm = reg(mem, kAllRemote);
	Sge r{uintptr_t(rbuf.data()), 64, mr->lkey()};
	ASSERT_EQ(qp->post_recv({1, {&r, 1}}), 0);
	uint8_t data[16] = {1, 2, 3};
	Packet snd = peer_packet(Opcode::RC_SEND_ONLY, kPsnPeer, true);
	snd.payload = data;
	send(snd);
	Packet rd = peer_packet(Opcode::RC_RDMA_READ_REQUEST, psn_add(kPsnPeer, 1), true);
	rd.reth = {uintptr_t(mem.data()), mm->rkey(), 32};
	send(rd);
	auto f1 = collect(2, 2);
	ASSERT_EQ(f1.size(), 2u);
	EXPECT_EQ(op(*f1[0]), kAck);
	EXPECT_EQ(f1[0]->pkt.bth.psn, kPsnPeer);
	EXPECT_EQ(op(*f1[1]), static_cast<uint8_t>(Opcode::RC_RDMA_READ_RESPONSE_ONLY));
	EXPECT_EQ(f1[1]->pkt.bth.psn, psn_add(kPsnPeer, 1));
	/* The SEND again (its ACK was "lost"). */
	send(snd);
	auto f2 = collect(2, 1);
	ASSERT_EQ(f2.size(), 1u);
	EXPECT_EQ(op(*f2[0]), kAck);
	EXPECT_EQ(f2[0]->pkt.aeth.kind(), Aeth::Kind::ack);
	EXPECT_EQ(f2[0]->pkt.bth.psn, kPsnPeer) << "re-ACK names the READ's PSN";
	EXPECT_EQ(ctx->counters().rx_duplicates, 1u);
	auto rw = poll_cq(*rcq);
	ASSERT_EQ(rw.size(), 1u); /* delivered once */
}

/* Retries that make no progress spend the retry counter and end in IBV_WC_RETRY_EXC_ERR, as
 * rxe's completer does (COMPST_ERROR_RETRY): the first sequence NAK starts a retry; the NAKs
 * that answer its retransmissions, with no progress between, start none (rxe started_retry),
 * so the local ACK timeouts spend the rest. */
TEST_F(Conformance, SequenceNaksSpendTheRetryCounter)
{
	Opts o;
	o.retry_cnt = 2;
	connect(o);
	std::vector<uint8_t> src(100);
	MemoryRegion *ms = reg(src, 0);
	Sge s{uintptr_t(src.data()), 100, ms->lkey()};
	SendWr w;
	w.wr_id = 5;
	w.sg_list = {&s, 1};
	w.send_flags = IBV_SEND_SIGNALED;
	ASSERT_EQ(qp->post_send(w), 0);
	unsigned naks = 0, sends = 0;
	std::vector<WorkCompletion> wc;
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(2);
	while (wc.empty() && std::chrono::steady_clock::now() < end) {
		for (auto &f : collect(0.001)) {
			ASSERT_TRUE(f->ok);
			ASSERT_EQ(op(*f), static_cast<uint8_t>(Opcode::RC_SEND_ONLY));
			EXPECT_EQ(f->pkt.bth.psn, kPsnA);
			sends++;
			Packet nak = peer_packet(Opcode::RC_ACKNOWLEDGE, kPsnA);
			nak.aeth = {0x60, 0}; /* NAK, PSN sequence error, expecting kPsnA */
			send(nak);
			naks++;
		}
		wc = poll_cq(*scq);
	}
	ASSERT_EQ(wc.size(), 1u);
	EXPECT_EQ(wc[0].wr_id, 5u);
	EXPECT_EQ(wc[0].status, IBV_WC_RETRY_EXC_ERR);
	EXPECT_EQ(sends, 3u); /* the first try + retry_cnt */
	/* On a quiet machine: 3 NAKs, 2 timeouts. Under load a timeout may come before a NAK is
	 * taken (and a NAK after the QP's error is not counted): at least one retry was a
	 * timeout's, as the NAKs during the first one spent nothing. */
	EXPECT_GE(ctx->counters().naks_rcvd, 1u);
	EXPECT_LE(ctx->counters().naks_rcvd, 3u);
	EXPECT_GE(ctx->counters().timeouts, 1u);
	EXPECT_EQ(qp->state(), IBV_QPS_ERR);
}

/* More READ requests in flight than max_dest_rd_atomic: keeping within them is the
 * requester's job (its max_rd_atomic); the responder answers every one and recycles the oldest
 * resource (rxe check_resource, rxe_prepare_res), so a duplicate of the first then finds none.
 * Refusing them (Invalid Request) failed a requester whose late duplicate READ had the
 * responder replay a READ it had already completed (issue 24). */
TEST_F(Conformance, ResponderRecyclesOldestRdAtomicResource)
{
	Opts o;
	o.max_dest_rd_atomic = 2;
	connect(o);
	std::vector<uint8_t> mem(4096, 0x11);
	MemoryRegion *mm = reg(mem, kAllRemote);
	for (uint32_t i = 0; i < 3; i++) {
		Packet rd = peer_packet(Opcode::RC_RDMA_READ_REQUEST, psn_add(kPsnPeer, i), true);
		rd.reth = {uintptr_t(mem.data()), mm->rkey(), 16};
		send(rd);
	}
	auto f = collect(2, 3);
	ASSERT_EQ(f.size(), 3u);
	for (uint32_t i = 0; i < 3; i++) {
		EXPECT_EQ(op(*f[i]), static_cast<uint8_t>(Opcode::RC_RDMA_READ_RESPONSE_ONLY)) << i;
		EXPECT_EQ(f[i]->pkt.bth.psn, psn_add(kPsnPeer, i)) << i;
	}
	EXPECT_EQ(ctx->counters().rd_atomic_overflow, 0u);
	EXPECT_EQ(qp->state(), IBV_QPS_RTS);
	Packet dup = peer_packet(Opcode::RC_RDMA_READ_REQUEST, kPsnPeer, true);
	dup.reth = {uintptr_t(mem.data()), mm->rkey(), 16};
	send(dup);
	EXPECT_TRUE(collect(0.01).empty());
	EXPECT_EQ(ctx->counters().dup_no_resource, 1u);

	/* Issue 24's sequence: READ, its late duplicate (replay queued), the next READ while the
	 * replay is unsent, at max_dest_rd_atomic 1. Before the fix: Invalid Request NAK. */
	qp.reset();
	o.max_dest_rd_atomic = 1;
	connect(o);
	for (uint32_t i : {0u, 0u, 1u}) {
		Packet rd = peer_packet(Opcode::RC_RDMA_READ_REQUEST, psn_add(kPsnPeer, i), true);
		rd.reth = {uintptr_t(mem.data()), mm->rkey(), 16};
		send(rd);
	}
	auto h = collect(2, 2);
	ASSERT_EQ(h.size(), 2u);
	for (uint32_t i = 0; i < 2; i++) {
		EXPECT_EQ(op(*h[i]), static_cast<uint8_t>(Opcode::RC_RDMA_READ_RESPONSE_ONLY)) << i;
		EXPECT_EQ(h[i]->pkt.bth.psn, psn_add(kPsnPeer, i)) << i;
	}
	EXPECT_EQ(ctx->counters().rd_atomic_overflow, 0u);
	EXPECT_EQ(qp->state(), IBV_QPS_RTS);

	/* max_dest_rd_atomic 0 refuses every READ (rxe RESPST_ERR_TOO_MANY_RDMA_ATM_REQ). */
	qp.reset();
	o.max_dest_rd_atomic = 0;
	connect(o);
	Packet rd = peer_packet(Opcode::RC_RDMA_READ_REQUEST, kPsnPeer, true);
	rd.reth = {uintptr_t(mem.data()), mm->rkey(), 16};
	send(rd);
	auto g = collect(2, 1);
	ASSERT_EQ(g.size(), 1u);
	EXPECT_EQ(op(*g[0]), kAck);
	EXPECT_EQ(g[0]->pkt.aeth.syndrome, 0x61);
	EXPECT_EQ(ctx->counters().rd_atomic_overflow, 1u);
}

/* A duplicate READ is replayed only while its responder resource exists; one older than the
 * last max_dest_rd_atomic READ/atomics is dropped (IBA class D, rxe duplicate_request()). */
TEST_F(Conformance, ReadReplayOnlyWithinResources)
{
	Opts o;
	o.max_dest_rd_atomic = 1;
	connect(o);
	std::vector<uint8_t> mem(4096);
	for (size_t i = 0; i < mem.size(); i++)
		mem[i] = uint8_t(i);
	MemoryRegion *mm = reg(mem, kAllRemote);
	auto read = [&](uint32_t psn, uint32_t off) {
		Packet rd = peer_packet(Opcode::RC_RDMA_READ_REQUEST, psn, true);
		rd.reth = {uintptr_t(mem.data()) + off, mm->rkey(), 8};
		send(rd);
	};
	read(kPsnPeer, 0);
	ASSERT_EQ(collect(2, 1).size(), 1u);
	read(psn_add(kPsnPeer, 1), 100);
	ASSERT_EQ(collect(2, 1).size(), 1u);
	/* The newest READ is replayed, with its data. */
	read(psn_add(kPsnPeer, 1), 100);
	auto f = collect(2, 1);
	ASSERT_EQ(f.size(), 1u);
	EXPECT_EQ(op(*f[0]), static_cast<uint8_t>(Opcode::RC_RDMA_READ_RESPONSE_ONLY));
	EXPECT_EQ(f[0]->pkt.bth.psn, psn_add(kPsnPeer, 1));
	ASSERT_EQ(f[0]->pkt.payload.size(), 8u);
	EXPECT_EQ(f[0]->pkt.payload[0], 100);
	/* The older one no longer has a resource: dropped, nothing sent. */
	read(kPsnPeer, 0);
	EXPECT_EQ(collect(0.05).size(), 0u);
	EXPECT_EQ(ctx->counters().read_replays, 1u);
	EXPECT_EQ(ctx->counters().dup_no_resource, 1u);
	/* A "duplicate" asking for memory outside the original READ is not replayed either. */
	read(psn_add(kPsnPeer, 1), 200);
	EXPECT_EQ(collect(0.05).size(), 0u);
	EXPECT_EQ(ctx->counters().dup_no_resource, 2u);
	EXPECT_EQ(qp->state(), IBV_QPS_RTS);
}

/* Atomic results are kept for max_dest_rd_atomic atomics (not a fixed 16): 32 duplicates are
 * all answered from the saved originals and none executes twice. */
TEST_F(Conformance, AtomicReplayKeepsMaxDestRdAtomicResults)
{
	Opts o;
	o.max_dest_rd_atomic = 32;
	connect(o);
	std::vector<uint8_t> mem(8, 0); /* malloc'd: 16-byte aligned */
	MemoryRegion *mm = reg(mem, kAllRemote);
	uint64_t va = uintptr_t(mem.data());
	ASSERT_EQ(va % 8, 0u);
	auto faa = [&](uint32_t i) {
		Packet p = peer_packet(Opcode::RC_FETCH_ADD, psn_add(kPsnPeer, i), true);
		p.atomic_eth = {va, mm->rkey(), 1, 0};
		send(p);
	};
	for (uint32_t i = 0; i < 32; i++) {
		faa(i);
		auto f = collect(2, 1);
		ASSERT_EQ(f.size(), 1u);
		EXPECT_EQ(f[0]->pkt.atomic_ack_eth.orig, i);
	}
	for (uint32_t i = 0; i < 32; i++) {
		faa(i);
		auto f = collect(2, 1);
		ASSERT_EQ(f.size(), 1u) << i;
		EXPECT_EQ(op(*f[0]), static_cast<uint8_t>(Opcode::RC_ATOMIC_ACKNOWLEDGE));
		EXPECT_EQ(f[0]->pkt.bth.psn, psn_add(kPsnPeer, i));
		EXPECT_EQ(f[0]->pkt.atomic_ack_eth.orig, i);
	}
	uint64_t v;
	std::memcpy(&v, mem.data(), 8);
	EXPECT_EQ(v, 32u);
	EXPECT_EQ(ctx->counters().atomic_replays, 32u);
}

/* CMP_AND_SWAP and FETCH_AND_ADD as ib_atomic_bw sends them (IBA 9.4.5, rxe_resp.c atomic_reply):
 * the swap happens only when the word equals Compare, the ATOMIC ACKNOWLEDGE carries the
 * original either way; a misaligned address is an Invalid Request, an MR without remote
 * atomic access a Remote Access Error, both NAKed at the request's PSN with the QP to Error. */
TEST_F(Conformance, AtomicsCompareSwapFetchAddAndTheirNaks)
{
	connect();
	std::vector<uint8_t> mem(64, 0);
	MemoryRegion *mm = reg(mem, kAllRemote);
	uint64_t va = uintptr_t(mem.data()) + 8;
	uint64_t init = 0x0102030405060708ull;
	std::memcpy(mem.data() + 8, &init, 8);
	auto atomic = [&](Opcode opc, uint32_t i, uint64_t addr, uint32_t rkey, uint64_t swap_add,
			  uint64_t compare) {
		Packet p = peer_packet(opc, psn_add(kPsnPeer, i), true);
		p.atomic_eth = {addr, rkey, swap_add, compare};
		send(p);
		return collect(2, 1);
	};
	auto word = [&] {
		uint64_t v;
		std::memcpy(&v, mem.data() + 8, 8);
		return v;
	};
	/* Compare differs: no swap, the original comes back. */
	auto f = atomic(Opcode::RC_COMPARE_SWAP, 0, va, mm->rkey(), 0xAA, init + 1);
	ASSERT_EQ(f.size(), 1u);
	EXPECT_EQ(op(*f[0]), static_cast<uint8_t>(Opcode::RC_ATOMIC_ACKNOWLEDGE));
	EXPECT_EQ(f[0]->pkt.atomic_ack_eth.orig, init);
	EXPECT_EQ(f[0]->pkt.aeth.kind(), Aeth::Kind::ack);
	EXPECT_EQ(word(), init);
	/* Compare matches: swapped. */
	f = atomic(Opcode::RC_COMPARE_SWAP, 1, va, mm->rkey(), 0xAA, init);
	ASSERT_EQ(f.size(), 1u);
	EXPECT_EQ(f[0]->pkt.atomic_ack_eth.orig, init);
	EXPECT_EQ(word(), 0xAAu);
	/* Fetch and add wraps modulo 2^64. */
	f = atomic(Opcode::RC_FETCH_ADD, 2, va, mm->rkey(), ~uint64_t(0), 0);
	ASSERT_EQ(f.size(), 1u);
	EXPECT_EQ(f[0]->pkt.bth.psn, psn_add(kPsnPeer, 2));
	EXPECT_EQ(f[0]->pkt.atomic_ack_eth.orig, 0xAAu);
	EXPECT_EQ(word(), 0xA9u);
	/* Misaligned: Invalid Request, nothing written. */
	f = atomic(Opcode::RC_FETCH_ADD, 3, va + 4, mm->rkey(), 1, 0);
	ASSERT_EQ(f.size(), 1u);
	EXPECT_EQ(op(*f[0]), kAck);
	EXPECT_EQ(f[0]->pkt.aeth.kind(), Aeth::Kind::nak);
	EXPECT_EQ(f[0]->pkt.aeth.syndrome, 0x61);
	EXPECT_EQ(f[0]->pkt.bth.psn, psn_add(kPsnPeer, 3));
	EXPECT_EQ(word(), 0xA9u);
	collect(0.01);
	EXPECT_EQ(qp->state(), IBV_QPS_ERR);
	/* An MR without IBV_ACCESS_REMOTE_ATOMIC (what roce_perftest registered before issue
	 * 24). */
	qp.reset();
	connect();
	MemoryRegion *no_atomic =
		reg(mem, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	uint64_t errors = ctx->counters().remote_access_errors;
	f = atomic(Opcode::RC_FETCH_ADD, 0, va, no_atomic->rkey(), 1, 0);
	ASSERT_EQ(f.size(), 1u);
	EXPECT_EQ(f[0]->pkt.aeth.kind(), Aeth::Kind::nak);
	EXPECT_EQ(f[0]->pkt.aeth.syndrome, 0x62); /* Remote Access Error */
	EXPECT_EQ(ctx->counters().remote_access_errors, errors + 1);
	EXPECT_EQ(word(), 0xA9u);
}

/* The 8-byte result of an atomic lands across the local SGEs (4 + 4 bytes here). */
TEST_F(Conformance, AtomicResultScatteredAcrossSges)
{
	connect();
	std::vector<uint8_t> res(64, 0xEE);
	MemoryRegion *mr = reg(res, IBV_ACCESS_LOCAL_WRITE);
	Sge sg[2] = {{uintptr_t(res.data()), 4, mr->lkey()},
		     {uintptr_t(res.data() + 32), 4, mr->lkey()}};
	SendWr w;
	w.wr_id = 3;
	w.sg_list = sg;
	w.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	w.send_flags = IBV_SEND_SIGNALED;
	w.atomic = {0x10000, 1, 0, 0x4321};
	ASSERT_EQ(qp->post_send(w), 0);
	auto f = collect(2, 1);
	ASSERT_EQ(f.size(), 1u);
	ASSERT_EQ(op(*f[0]), static_cast<uint8_t>(Opcode::RC_FETCH_ADD));
	Packet ack = peer_packet(Opcode::RC_ATOMIC_ACKNOWLEDGE, f[0]->pkt.bth.psn);
	ack.aeth = {0x1F, 1};
	ack.atomic_ack_eth.orig = 0x1122334455667788ull;
	send(ack);
	collect(0.05);
	auto wc = poll_cq(*scq);
	ASSERT_EQ(wc.size(), 1u);
	EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS);
	uint64_t orig = 0x1122334455667788ull;
	uint8_t b[8];
	std::memcpy(b, &orig, 8);
	EXPECT_EQ(memcmp(res.data(), b, 4), 0);
	EXPECT_EQ(memcmp(res.data() + 32, b + 4, 4), 0);
	for (size_t i = 4; i < 32; i++)
		EXPECT_EQ(res[i], 0xEE) << i; /* nothing between or after the SGEs */
	for (size_t i = 36; i < res.size(); i++)
		EXPECT_EQ(res[i], 0xEE) << i;
}

/* RC packets leave with TTL 64 when the AV says 1 (what ibv_rc_pingpong puts in
 * grh.hop_limit; Linux takes the route's hop limit for RoCE v2); an explicit one is kept. */
TEST_F(Conformance, IpTtlIsSaneWhenTheAvSaysOne)
{
	Opts o;
	o.hop_limit = 1;
	connect(o);
	std::vector<uint8_t> src(10);
	MemoryRegion *ms = reg(src, 0);
	Sge s{uintptr_t(src.data()), 10, ms->lkey()};
	SendWr w;
	w.sg_list = {&s, 1};
	w.opcode = IBV_WR_RDMA_WRITE;
	w.rdma = {0x1000, 1};
	ASSERT_EQ(qp->post_send(w), 0);
	auto f = collect(2, 1);
	ASSERT_EQ(f.size(), 1u);
	EXPECT_EQ(f[0]->pkt.ip4.ttl, 64);
	qp.reset();
	o.hop_limit = 17;
	connect(o);
	ASSERT_EQ(qp->post_send(w), 0);
	f = collect(2, 1);
	ASSERT_EQ(f.size(), 1u);
	EXPECT_EQ(f[0]->pkt.ip4.ttl, 17);
}

/* The path MTU is min(requested, what the port carries); the port's is Context::active_mtu(). */
TEST_F(Conformance, PathMtuLimitedByThePort)
{
	EXPECT_EQ(ctx->active_mtu(), IBV_MTU_4096);
	ASSERT_EQ(rte_eth_dev_stop(g_wire.port[0]), 0);
	ASSERT_EQ(rte_eth_dev_set_mtu(g_wire.port[0], 1500), 0);
	ASSERT_EQ(rte_eth_dev_start(g_wire.port[0]), 0);
	EXPECT_EQ(ctx->active_mtu(), IBV_MTU_1024);
	Opts o;
	o.mtu = IBV_MTU_4096;
	connect(o);
	EXPECT_EQ(qp->attr().path_mtu, IBV_MTU_1024);
	std::vector<uint8_t> src(3000);
	MemoryRegion *ms = reg(src, 0);
	Sge s{uintptr_t(src.data()), 3000, ms->lkey()};
	SendWr w;
	w.sg_list = {&s, 1};
	w.opcode = IBV_WR_RDMA_WRITE;
	w.rdma = {0x1000, 1};
	ASSERT_EQ(qp->post_send(w), 0);
	auto f = collect(2, 3);
	ASSERT_EQ(rte_eth_dev_stop(g_wire.port[0]), 0);
	ASSERT_EQ(rte_eth_dev_set_mtu(g_wire.port[0], kPortMtu), 0);
	ASSERT_EQ(rte_eth_dev_start(g_wire.port[0]), 0);
	ASSERT_EQ(f.size(), 3u);
	EXPECT_EQ(f[0]->pkt.payload.size(), 1024u);
	EXPECT_EQ(f[2]->pkt.payload.size(), 3000u - 2048);
	/* A smaller peer MTU is kept. */
	qp.reset();
	o.mtu = IBV_MTU_512;
	connect(o);
	EXPECT_EQ(qp->attr().path_mtu, IBV_MTU_512);
}

/* The Context answers ARP for its GID over the ethdev and resolves a peer's MAC by ARP. */
TEST_F(Conformance, ContextAnswersArpAndResolvesThePeer)
{
	/* The peer asks who has 10.0.0.1. */
	std::vector<uint8_t> req(60, 0);
	const MacAddr bcast{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
	std::copy(bcast.begin(), bcast.end(), req.begin());
	std::copy(peer_mac.begin(), peer_mac.end(), req.begin() + 6);
	const uint8_t arp_hdr[10] = {0x08, 0x06, 0, 1, 0x08, 0x00, 6, 4, 0, 1};
	std::copy(arp_hdr, arp_hdr + 10, req.begin() + 12);
	std::copy(peer_mac.begin(), peer_mac.end(), req.begin() + 22);
	const uint8_t spa[4] = {10, 0, 0, 2}, tpa[4] = {10, 0, 0, 1};
	std::copy(spa, spa + 4, req.begin() + 28);
	std::copy(tpa, tpa + 4, req.begin() + 38);
	rte_mbuf *m = rte_pktmbuf_alloc(g_wire.pool);
	ASSERT_NE(m, nullptr);
	std::memcpy(rte_pktmbuf_mtod(m, uint8_t *), req.data(), req.size());
	m->data_len = m->pkt_len = 60;
	ASSERT_EQ(rte_eth_tx_burst(g_wire.port[1], 0, &m, 1), 1);
	auto f = collect(2, 1);
	ASSERT_EQ(f.size(), 1u);
	const std::vector<uint8_t> &r = f[0]->bytes;
	ASSERT_GE(r.size(), 42u);
	EXPECT_EQ(r[12], 0x08);
	EXPECT_EQ(r[13], 0x06);
	EXPECT_EQ(r[21], 2); /* ARP reply */
	EXPECT_TRUE(std::equal(r.begin() + 22, r.begin() + 28, ctx->mac().begin()));
	EXPECT_TRUE(std::equal(r.begin() + 28, r.begin() + 32, tpa));
	EXPECT_EQ(ctx->counters().rx_neighbour, 1u);
	EXPECT_EQ(ctx->counters().tx_neighbour, 1u);
	EXPECT_EQ(ctx->counters().rx_not_roce, 0u);
	/* The asker was learned from its request: resolved without asking. */
	MacAddr got{};
	EXPECT_EQ(ctx->resolve(peer_gid, got), 0);
	EXPECT_EQ(got, peer_mac);

	/* 10.0.0.3 is unknown: resolve() broadcasts a request; the peer answers for it. */
	Gid third = Gid::from_ipv4({10, 0, 0, 3});
	EXPECT_EQ(ctx->resolve(third, got), -EAGAIN);
	auto q = collect(2, 1);
	ASSERT_EQ(q.size(), 1u);
	const std::vector<uint8_t> &a = q[0]->bytes;
	ASSERT_GE(a.size(), 42u);
	EXPECT_TRUE(std::equal(bcast.begin(), bcast.end(), a.begin()));
	EXPECT_EQ(a[21], 1); /* request */
	EXPECT_EQ(a[41], 3); /* for 10.0.0.3 */
	std::vector<uint8_t> rep(a.begin(), a.begin() + 60);
	std::copy(ctx->mac().begin(), ctx->mac().end(), rep.begin());
	const MacAddr third_mac{0x02, 0x33, 0x33, 0x33, 0x33, 0x33};
	std::copy(third_mac.begin(), third_mac.end(), rep.begin() + 6);
	rep[21] = 2;
	std::copy(third_mac.begin(), third_mac.end(), rep.begin() + 22);
	const uint8_t ip3[4] = {10, 0, 0, 3};
	std::copy(ip3, ip3 + 4, rep.begin() + 28);
	std::copy(ctx->mac().begin(), ctx->mac().end(), rep.begin() + 32);
	std::copy(tpa, tpa + 4, rep.begin() + 38);
	m = rte_pktmbuf_alloc(g_wire.pool);
	ASSERT_NE(m, nullptr);
	std::memcpy(rte_pktmbuf_mtod(m, uint8_t *), rep.data(), rep.size());
	m->data_len = m->pkt_len = 60;
	ASSERT_EQ(rte_eth_tx_burst(g_wire.port[1], 0, &m, 1), 1);
	collect(0.05);
	EXPECT_EQ(ctx->resolve(third, got), 0);
	EXPECT_EQ(got, third_mac);
	EXPECT_EQ(ctx->resolve(Gid{}, got), -EINVAL); /* :: is not IPv4 like our GID */
}

} /* namespace */
