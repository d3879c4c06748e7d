/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: RoCE v2 mode (see roce_mode.h). The QP set-up follows the verbs sequence
 * RESET -> INIT -> RTR -> RTS of IBA 11.4 (examples/qp_pair.h, shared with roce_bench).
 */
#include <cstring>
#include <memory>
#include <vector>

#include <rte_cycles.h>
#include <rte_pause.h>

#include "qp_pair.h"
#include "roce_mode.h"
#include "roce_verbs.h"

namespace gtp {

namespace roce = gaudi::roce;

const char *roce_op_name(RoceOp op)
{
	switch (op) {
	case RoceOp::ud_send:
		return "ud-send";
	case RoceOp::rc_send:
		return "rc-send";
	case RoceOp::rc_write:
		return "rc-write";
	case RoceOp::rc_read:
		return "rc-read";
	}
	return "?";
}

namespace {

constexpr uint32_t kUdGrh = 40; /* UD receive buffers start with the 40-byte GRH area */

struct End {
	std::unique_ptr<roce::Context> ctx;
	std::unique_ptr<roce::ProtectionDomain> pd;
	std::unique_ptr<roce::CompletionQueue> cq;
	std::unique_ptr<roce::QueuePair> qp;
	std::vector<uint8_t> buf;
	std::unique_ptr<roce::MemoryRegion> mr;
	std::unique_ptr<roce::AddressHandle> ah;
	/* Destroyed in the reverse order of the verbs objects' dependencies. */
	~End()
	{
		ah.reset();
		mr.reset();
		qp.reset();
		cq.reset();
		pd.reset();
		ctx.reset();
	}
};

bool make_end(End &e, uint16_t port, rte_mempool *mp, uint8_t ip, ibv_qp_type t, size_t len,
	      uint32_t depth, std::string &err)
{
	roce::ContextConfig c;
	c.port_id = port;
	c.tx_pool = mp;
	c.gid = roce::Gid::from_ipv4({10, 0, 0, ip});
	c.dcqcn = false;
	int rc = 0;
	e.ctx = roce::Context::create(c, &rc);
	if (!e.ctx) {
		err = "port " + std::to_string(port) + ": RoCE context: " + strerror(-rc);
		return false;
	}
	e.pd = e.ctx->alloc_pd();
	e.cq = e.ctx->create_cq(4 * depth + 64);
	roce::QpInitAttr a;
	a.qp_type = t;
	a.send_cq = a.recv_cq = e.cq.get();
	a.cap.max_send_wr = depth;
	a.cap.max_recv_wr = 2 * depth;
	e.qp = e.ctx->create_qp(*e.pd, a, &rc);
	e.buf.assign(len, 0);
	if (e.qp)
		e.mr = e.ctx->reg_mr(*e.pd, e.buf.data(), e.buf.size(),
				     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
					     IBV_ACCESS_REMOTE_READ,
				     &rc);
	if (!e.pd || !e.cq || !e.qp || !e.mr) {
		err = "port " + std::to_string(port) + ": RoCE objects: " + strerror(-rc);
		return false;
	}
	return true;
}

bool connect(End &a, End &b, uint32_t mtu)
{
	ibv_mtu m = mtu >= 4096	  ? IBV_MTU_4096
		    : mtu >= 2048 ? IBV_MTU_2048
		    : mtu >= 1024 ? IBV_MTU_1024
		    : mtu >= 512  ? IBV_MTU_512
				  : IBV_MTU_256;
	if (!gaudi::examples::connect_qp_pair(*a.ctx, *a.qp, *b.ctx, *b.qp, m))
		return false;
	/* The port bounds the path MTU (min of local and peer): run at the one asked for or not
	 * at all, as the report states it. */
	return a.qp->attr().path_mtu == m && b.qp->attr().path_mtu == m;
}

} /* namespace */

int roce_lcore(void *arg)
{
	RoceJob &j = *static_cast<RoceJob *>(arg);
	const bool ud = j.op == RoceOp::ud_send;
	const bool send = ud || j.op == RoceOp::rc_send;
	ibv_qp_type t = ud ? IBV_QPT_UD : IBV_QPT_RC;
	{
		End a, b;
		/* The requester's buffer holds a pattern; WRITE and SEND carry it to the
		 * responder, READ brings the responder's back. */
		size_t rlen = j.msg + (ud ? kUdGrh : 0);
		if (!make_end(a, j.req_port, j.tx_pool, 1, t, j.msg, j.depth, j.error) ||
		    !make_end(b, j.resp_port, j.tx_pool, 2, t, rlen, j.depth, j.error) ||
		    !connect(a, b, j.mtu)) {
			if (j.error.empty())
				j.error = "RoCE QP connection failed (path MTU " +
					  std::to_string(j.mtu) + " above what the ports carry?)";
			j.done.store(true, std::memory_order_release);
			while (!j.stop->load(std::memory_order_relaxed))
				rte_pause();
			return 0;
		}
		std::vector<uint8_t> &src = j.op == RoceOp::rc_read ? b.buf : a.buf;
		for (size_t i = 0; i < src.size(); i++)
			src[i] = uint8_t(i * 7 + 3);
		if (ud)
			a.ah = a.ctx->create_ah(*a.pd, {b.ctx->mac(), b.ctx->gid(), 0, 0, 64});
		roce::Sge s{reinterpret_cast<uintptr_t>(a.buf.data()), j.msg, a.mr->lkey()};
		roce::Sge rs{reinterpret_cast<uintptr_t>(b.buf.data()), uint32_t(rlen),
			     b.mr->lkey()};
		roce::SendWr w;
		w.sg_list = {&s, 1};
		w.send_flags = IBV_SEND_SIGNALED;
		w.opcode = send			      ? IBV_WR_SEND
			   : j.op == RoceOp::rc_write ? IBV_WR_RDMA_WRITE
						      : IBV_WR_RDMA_READ;
		w.rdma = {reinterpret_cast<uintptr_t>(b.buf.data()), b.mr->rkey()};
		if (ud)
			w.ud = {a.ah.get(), b.qp->qp_num(), gaudi::examples::kPairQkey};
		if (send)
			for (uint32_t i = 0; i < 2 * j.depth; i++)
				b.qp->post_recv({1, {&rs, 1}});
		uint64_t posted = 0;
		roce::WorkCompletion wc[64];
		for (;;) {
			bool stopping = j.gen_stop->load(std::memory_order_relaxed) ||
					(j.limit && posted >= j.limit);
			/* Keep depth messages outstanding; a UD sender also stays within the
			 * receive WQEs the responder has posted (UD has no flow control). */
			while (!stopping && a.qp->sq_outstanding() < j.depth &&
			       (!send || b.qp->rq_posted() > j.depth) && a.qp->post_send(w) == 0) {
				posted++;
				stopping = j.limit && posted >= j.limit;
			}
			a.ctx->poll();
			b.ctx->poll();
			int n = a.cq->poll_cq(wc);
			for (int i = 0; i < n; i++) {
				if (wc[i].status == IBV_WC_SUCCESS)
					j.completed.store(
						j.completed.load(std::memory_order_relaxed) + 1,
						std::memory_order_relaxed);
				else
					j.errors.store(j.errors.load(std::memory_order_relaxed) + 1,
						       std::memory_order_relaxed);
			}
			n = b.cq->poll_cq(wc);
			for (int i = 0; i < n; i++) {
				if (wc[i].status != IBV_WC_SUCCESS) {
					j.errors.store(j.errors.load(std::memory_order_relaxed) + 1,
						       std::memory_order_relaxed);
					continue;
				}
				j.received.store(j.received.load(std::memory_order_relaxed) + 1,
						 std::memory_order_relaxed);
				b.qp->post_recv({1, {&rs, 1}});
			}
			if (stopping && a.qp->sq_outstanding() == 0)
				j.done.store(true, std::memory_order_release);
			if (j.stop->load(std::memory_order_relaxed))
				break;
		}
		/* The last message's data at the other end is the pattern. */
		const std::vector<uint8_t> &dst = j.op == RoceOp::rc_read ? a.buf : b.buf;
		size_t off = ud ? kUdGrh : 0;
		if (j.completed.load() > 0)
			j.data_ok = memcmp(dst.data() + off, src.data(), j.msg) == 0;
		j.retransmits = a.ctx->counters().retransmits + b.ctx->counters().retransmits;
	}
	return 0;
}

} /* namespace gtp */
