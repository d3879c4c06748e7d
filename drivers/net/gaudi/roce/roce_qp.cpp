/* SPDX-License-Identifier: BSD-3-Clause */
/* QP state machine: ibv_modify_qp transitions, Error state and flush, per-QP timers
 * (rxe_qp.c).
 * API contract: roce_verbs.h; how the parts fit: roce_internal.h. */
#include "roce_ctx.h"

#include <algorithm>
#include <cerrno>

#include <rte_ethdev.h>

namespace gaudi::roce {

QpImpl::QpImpl(ContextImpl &c, PdImpl &pd, const QpInitAttr &a, uint32_t qpn)
    : ctx_(c), pd_(pd), type_(a.qp_type), scq_(to_impl(a.send_cq)), rcq_(to_impl(a.recv_cq)),
      cap_(a.cap), sq_sig_all_(a.sq_sig_all), qpn_(qpn), hz_(c.hz_), rate_(std::make_unique<Rate>())
{
	uint32_t sqn = pow2_at_least(a.cap.max_send_wr),
		 rqn = a.srq ? 1 : pow2_at_least(a.cap.max_recv_wr);
	cap_.max_send_wr = sqn;
	cap_.max_recv_wr = rqn;
	sq_.assign(sqn, SendWqe{});
	sq_mask_ = sqn - 1;
	inline_.assign(size_t(sqn) * std::max<uint32_t>(cap_.max_inline_data, 1), 0);
	rq_.assign(rqn, RecvWqe{});
	rq_mask_ = rqn - 1;
	resp.out.assign(kRespQueueLen, RespItem{});
	resp.rd_res.assign(kMaxRdAtomic, RdResource{});
	if (a.srq != nullptr) {
		srq_ = to_impl(a.srq);
		srq_->attached_++;
		srq_wqe_ = std::make_unique<RecvWqe>();
	}
	tuning_.dcqcn = c.cfg_.dcqcn;
	rate_->rc = rate_->rt = c.cfg_.dcqcn_params.line_rate_gbps * 1e9;
}

QpImpl::~QpImpl()
{
	if (srq_ != nullptr)
		srq_->attached_--;
	ctx_.unregister_qp(this);
}

int QpImpl::modify(const QpAttr &a, int mask)
{
	ibv_qp_state cur = state_;
	ibv_qp_state next = (mask & IBV_QP_STATE) ? a.qp_state : cur;
	auto need = [mask](int bits) { return (mask & bits) == bits; };
	if (next == IBV_QPS_RESET) {
		flush();
		state_ = IBV_QPS_RESET;
		sq_head_ = sq_tail_ = req.cur = req.cur_pkt = 0;
		rq_head_ = rq_tail_ = 0;
		resp.out_head = resp.out_tail = 0;
		resp.in_msg = InMsg::none;
		resp.error_after_resp = false;
		return 0;
	}
	if (next == IBV_QPS_ERR) {
		to_error();
		return 0;
	}
	/* Required attributes per transition: ibv_modify_qp(3) table (PORT not needed here). */
	bool ok = false;
	if (cur == IBV_QPS_RESET && next == IBV_QPS_INIT)
		ok = type_ == IBV_QPT_UD ? need(IBV_QP_PKEY_INDEX | IBV_QP_QKEY)
					 : need(IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS);
	else if (cur == IBV_QPS_INIT && next == IBV_QPS_INIT)
		ok = true;
	else if (cur == IBV_QPS_INIT && next == IBV_QPS_RTR)
		ok = type_ == IBV_QPT_RC
			     ? need(IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				    IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)
		     : type_ == IBV_QPT_UC
			     ? need(IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN)
			     : true;
	else if (cur == IBV_QPS_RTR && next == IBV_QPS_RTS)
		ok = type_ == IBV_QPT_RC ? need(IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
						IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC)
					 : need(IBV_QP_SQ_PSN);
	else if (cur == IBV_QPS_RTS && next == IBV_QPS_RTS)
		ok = !(mask & (IBV_QP_SQ_PSN | IBV_QP_RQ_PSN | IBV_QP_DEST_QPN | IBV_QP_AV));
	if (!ok)
		return -EINVAL;
	/* Validate before changing anything. */
	if ((mask & IBV_QP_PATH_MTU) && mtu_bytes(a.path_mtu) == 0)
		return -EINVAL;
	if ((mask & IBV_QP_PKEY_INDEX) && a.pkey_index >= ctx_.cfg_.pkey_table.size())
		return -EINVAL;
	if ((mask & IBV_QP_AV) && a.ah_attr.gid.is_ipv4() != ctx_.v4_)
		return -EINVAL;
	if (((mask & IBV_QP_RQ_PSN) && a.rq_psn > kPsnMask) ||
	    ((mask & IBV_QP_SQ_PSN) && a.sq_psn > kPsnMask) ||
	    ((mask & IBV_QP_DEST_QPN) && a.dest_qp_num > kPsnMask))
		return -EINVAL;
	if (((mask & IBV_QP_RETRY_CNT) && a.retry_cnt > 7) ||
	    ((mask & IBV_QP_RNR_RETRY) && a.rnr_retry > 7) ||
	    ((mask & IBV_QP_TIMEOUT) && a.timeout > 31) ||
	    ((mask & IBV_QP_MIN_RNR_TIMER) && a.min_rnr_timer > 31))
		return -EINVAL;
	if (((mask & IBV_QP_MAX_DEST_RD_ATOMIC) && a.max_dest_rd_atomic > kMaxRdAtomic) ||
	    ((mask & IBV_QP_MAX_QP_RD_ATOMIC) && a.max_rd_atomic > kMaxRdAtomic))
		return -EINVAL; /* rxe_qp_chk_attr: above the device's max_qp_rd_atom */
	ibv_mtu mtu = (mask & IBV_QP_PATH_MTU) ? a.path_mtu : attr_.path_mtu;
	if (next == IBV_QPS_RTR) {
		/* The path MTU is min(local, peer): the application passes the peer's (or its own
		 * choice) and the port bounds it. UD messages are limited by the port MTU alone
		 * (IBA 9.8.2 / ibv_ud_pingpong). */
		ibv_mtu port = ctx_.active_mtu();
		if (type_ == IBV_QPT_UD && !(mask & IBV_QP_PATH_MTU))
			mtu = port;
		else
			mtu = std::min(mtu, port);
	}
	uint32_t room = rte_pktmbuf_data_room_size(ctx_.cfg_.tx_pool) - RTE_PKTMBUF_HEADROOM;
	if (next == IBV_QPS_RTR && mtu_bytes(mtu) + kMaxHdr > room)
		return -EINVAL; /* a full-PMTU frame must fit one TX mbuf */
	if (mask & IBV_QP_PKEY_INDEX)
		attr_.pkey_index = a.pkey_index;
	if (mask & IBV_QP_QKEY)
		attr_.qkey = a.qkey;
	if (mask & IBV_QP_ACCESS_FLAGS)
		attr_.qp_access_flags = a.qp_access_flags;
	if (mask & IBV_QP_AV)
		attr_.ah_attr = a.ah_attr;
	attr_.path_mtu = mtu;
	if (mask & IBV_QP_DEST_QPN)
		attr_.dest_qp_num = a.dest_qp_num;
	if (mask & IBV_QP_RQ_PSN)
		attr_.rq_psn = a.rq_psn;
	if (mask & IBV_QP_SQ_PSN)
		attr_.sq_psn = a.sq_psn;
	if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
		attr_.max_dest_rd_atomic = a.max_dest_rd_atomic;
	if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
		attr_.max_rd_atomic = std::max<uint8_t>(a.max_rd_atomic, 1);
	if (mask & IBV_QP_MIN_RNR_TIMER)
		attr_.min_rnr_timer = a.min_rnr_timer;
	if (mask & IBV_QP_TIMEOUT)
		attr_.timeout = a.timeout;
	if (mask & IBV_QP_RETRY_CNT)
		attr_.retry_cnt = a.retry_cnt;
	if (mask & IBV_QP_RNR_RETRY)
		attr_.rnr_retry = a.rnr_retry;
	if (next == IBV_QPS_RTR && cur == IBV_QPS_INIT) {
		resp.epsn = attr_.rq_psn;
		resp.msn = 0;
		resp.in_msg = InMsg::none;
		resp.nak_sent = false;
		std::fill(resp.rd_res.begin(), resp.rd_res.end(), RdResource{});
		resp.rd_res_next = 0;
		rd_window_reset();
	}
	if (next == IBV_QPS_RTS && cur == IBV_QPS_RTR) {
		req.next_psn = comp.una = req.sent_end = attr_.sq_psn;
		req.noack_pkts = 0;
		window_reset();
		retry_reset();
		comp.rnr_left = attr_.rnr_retry;
		*rate_ = Rate{};
		rate_->rc = rate_->rt = ctx_.cfg_.dcqcn_params.line_rate_gbps * 1e9;
	}
	comp.retry_left = std::min(comp.retry_left, attr_.retry_cnt);
	attr_.qp_state = next;
	state_ = next;
	return 0;
}

void QpImpl::flush()
{
	/* IBA 10.3.1 / 11.4: in the Error state all outstanding WRs complete with flush errors,
	 * signaled or not. */
	while (sq_tail_ != sq_head_) {
		SendWqe &w = sq_[sq_tail_ & sq_mask_];
		WorkCompletion wc;
		wc.wr_id = w.wr_id;
		wc.status = IBV_WC_WR_FLUSH_ERR;
		wc.opcode = wc_opcode(w.opcode);
		wc.qp_num = qpn_;
		if (!scq_->push(wc))
			ctx_.counters_.cq_overflows++;
		sq_tail_++;
	}
	req.cur = sq_head_;
	req.cur_pkt = 0;
	while (rq_tail_ != rq_head_) {
		RecvWqe &r = rq_[rq_tail_ & rq_mask_];
		complete_recv(r, IBV_WC_WR_FLUSH_ERR, IBV_WC_RECV, 0, 0, 0, 0, 0);
		rq_tail_++;
	}
	/* The SRQ's own WQEs stay there for its other QPs; only the one this QP took is flushed. */
	if (srq_held_) {
		complete_recv(*srq_wqe_, IBV_WC_WR_FLUSH_ERR, IBV_WC_RECV, 0, 0, 0, 0, 0);
		srq_held_ = false;
	}
}

void QpImpl::to_error()
{
	state_ = IBV_QPS_ERR;
	attr_.qp_state = IBV_QPS_ERR;
	flush();
}

/* Posting */

void QpImpl::timers(uint64_t now)
{
	requester_timers(now);
	rate_timers(now);
}

/* Responder */

} /* namespace gaudi::roce */
