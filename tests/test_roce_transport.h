/* SPDX-License-Identifier: BSD-3-Clause
 * The RoCE transport tests' shared rig: EAL once and the wire (net_gaudi_emu pair or net_ring),
 * the two Sides and the Transport fixture (test_roce_transport.cpp says what is tested).
 */

#ifndef TEST_ROCE_TRANSPORT_H
#define TEST_ROCE_TRANSPORT_H

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

namespace test_roce_transport {

constexpr uint16_t kPortMtu = 4200; /* IB MTU 4096 + RoCE v2 headers */

struct Wire {
	uint16_t port[2]{};
	rte_mempool *pool = nullptr;
	bool ok = false;
	bool ring = false;    /* net_ring instead of net_gaudi_emu */
	rte_ring *rings[2]{}; /* ring[i]: port i -> port 1-i */
};
inline Wire g_wire;

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
inline const auto *eal_env = gaudi_test::register_eal_env(new EalEnv);

inline void drain(uint16_t port)
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

inline int bring_up(QueuePair &q, const Side &peer, uint32_t dest_qpn, uint32_t rq_psn,
		    uint32_t sq_psn, const ConnOpts &o, uint32_t qkey = 0)
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
	/* n READs of len bytes each by qa from one buffer of B into consecutive slices of A's:
	 * all complete, in order, with the data. */
	void reads_complete(size_t len, size_t n, uint32_t seed, double seconds)
	{
		std::vector<uint8_t> src = pattern(len, seed), dst(len * n, 0);
		MemoryRegion *ms = reg(*B, src, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
		MemoryRegion *md = reg(*A, dst, IBV_ACCESS_LOCAL_WRITE);
		for (size_t i = 0; i < n; i++)
			ASSERT_EQ(post_rdma(IBV_WR_RDMA_READ, dst.data() + i * len, uint32_t(len),
					    md->lkey(), src.data(), ms->rkey(), i),
				  0);
		auto wc = wait(*A->scq, n, seconds);
		ASSERT_EQ(wc.size(), n);
		for (size_t i = 0; i < n; i++) {
			EXPECT_EQ(wc[i].status, IBV_WC_SUCCESS) << i;
			EXPECT_TRUE(std::equal(src.begin(), src.end(), dst.begin() + i * len)) << i;
		}
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

} /* namespace test_roce_transport */

/* As the anonymous namespace the tests were in. */
using namespace test_roce_transport;

#endif /* TEST_ROCE_TRANSPORT_H */
