/* SPDX-License-Identifier: BSD-3-Clause */
/* Completer: ACKs, NAKs, RNR NAKs, READ responses and atomic ACKs; go-back-N retries,
 * the local ACK timeout and send completions (rxe_comp.c).
 * API contract: roce_verbs.h; how the parts fit: roce_internal.h. */
#include "roce_ctx.h"

#include <algorithm>
#include <cstring>

namespace gaudi::roce {

void QpImpl::complete_send(SendWqe &w, ibv_wc_status st)
{
	if (st == IBV_WC_SUCCESS && !w.signaled)
		return;
	WorkCompletion wc;
	wc.wr_id = w.wr_id;
	wc.status = st;
	wc.opcode = wc_opcode(w.opcode);
	wc.byte_len = w.len;
	wc.qp_num = qpn_;
	if (!scq_->push(wc))
		ctx_.counters_.cq_overflows++;
}

QpImpl::SendWqe *QpImpl::find_wqe(uint32_t psn, uint32_t *idx)
{
	for (uint32_t i = sq_tail_; i != sq_head_; i++) {
		SendWqe &w = sq_[i & sq_mask_];
		if (psn_diff(psn, w.first_psn) >= 0 &&
		    psn_diff(psn, psn_add(w.first_psn, w.npkts)) < 0) {
			*idx = i;
			return &w;
		}
		if (psn_diff(psn, w.first_psn) < 0)
			break;
	}
	return nullptr;
}

void QpImpl::go_back(uint32_t psn, uint64_t now)
{
	uint32_t idx;
	SendWqe *w = find_wqe(psn, &idx);
	if (w == nullptr)
		return;
	cur_ = idx;
	cur_pkt_ = w->opcode == IBV_WR_RDMA_READ
			   ? w->resp_pkts
			   : static_cast<uint32_t>(psn_diff(psn, w->first_psn));
	if (is_read_or_atomic(w->opcode) && w->opcode != IBV_WR_RDMA_READ)
		cur_pkt_ = 0;
	last_progress_ = now;
	ctx_.counters_.retransmits++;
}

bool QpImpl::nak_target(uint32_t psn, uint64_t now, uint32_t *idx)
{
	/* IBA 9.7.5.1: a NAK implicitly ACKs every PSN before it. */
	if (psn_diff(psn, una_) < 0)
		return false;
	if (!process_ack(psn_add(psn, -1), now))
		return false;
	return find_wqe(psn, idx) != nullptr;
}

bool QpImpl::process_ack(uint32_t psn, uint64_t now)
{
	/* Idempotent: an old PSN completes nothing (the loop stops at the first later WQE). */
	bool progress = false;
	while (sq_tail_ != sq_head_) {
		SendWqe &w = sq_[sq_tail_ & sq_mask_];
		uint32_t last = psn_add(w.first_psn, w.npkts - 1);
		if (psn_diff(last, psn) > 0) {
			/* Partially acknowledged multi-packet message: skip what arrived. */
			if (sq_tail_ == cur_ && !is_read_or_atomic(w.opcode)) {
				uint32_t acked =
					static_cast<uint32_t>(psn_diff(psn, w.first_psn) + 1);
				cur_pkt_ = std::max(cur_pkt_, std::min(acked, w.npkts));
			}
			break;
		}
		if (is_read_or_atomic(w.opcode) && !w.done) {
			/* A later PSN is acknowledged but this READ/atomic response never arrived
			 * (IBA 9.7.5.1.2: responses are in order, so it was lost): ask again. */
			una_ = psn_add(w.first_psn, w.opcode == IBV_WR_RDMA_READ ? w.resp_pkts : 0);
			go_back(una_, now);
			return false;
		}
		complete_send(w, IBV_WC_SUCCESS);
		sq_tail_++;
		progress = true;
		if (psn_diff(cur_, sq_tail_) < 0 || cur_ == sq_tail_ - 1) {
			cur_ = sq_tail_;
			cur_pkt_ = 0;
		}
	}
	if (psn_diff(psn_add(psn, 1), una_) > 0) {
		window_on_ack(uint32_t(psn_diff(psn_add(psn, 1), una_)));
		una_ = psn_add(psn, 1);
		progress = true;
	}
	if (progress) {
		retry_reset();
		rnr_left_ = attr_.rnr_retry;
		last_progress_ = now;
	}
	return true;
}

void QpImpl::fail_send(uint32_t idx, ibv_wc_status st)
{
	/* Complete everything before idx (already acknowledged by the caller) then idx in error,
	 * then flush the rest (IBA 10.8.3: the QP enters the Error state). */
	if (idx == sq_tail_ && sq_tail_ != sq_head_) {
		complete_send(sq_[sq_tail_ & sq_mask_], st);
		sq_tail_++;
	}
	to_error();
}

void QpImpl::rx_response(const Packet &pkt, uint64_t now)
{
	if (!is_rc() || (state_ != IBV_QPS_RTS)) {
		ctx_.counters_.rx_bad_state++;
		return;
	}
	uint32_t psn = pkt.bth.psn;
	uint8_t op = pkt.bth.opcode;
	/* Responses must be for PSNs we sent and have not fully acknowledged. */
	if (psn_diff(psn, sent_end_) >= 0) {
		ctx_.counters_.rx_out_of_window++;
		return;
	}
	if (op == static_cast<uint8_t>(Opcode::RC_ACKNOWLEDGE)) {
		switch (pkt.aeth.kind()) {
		case Aeth::Kind::ack:
			ctx_.counters_.acks_rcvd++;
			process_ack(psn, now);
			return;
		case Aeth::Kind::rnr_nak: {
			ctx_.counters_.rnr_naks_rcvd++;
			uint32_t idx;
			if (!nak_target(psn, now, &idx))
				return;
			/* IBA 9.7.5.2.8: wait the responder's RNR timer, then retry; 7 =
			 * forever. */
			if (rnr_left_ == 0) {
				fail_send(idx, IBV_WC_RNR_RETRY_EXC_ERR);
				return;
			}
			if (attr_.rnr_retry != 7)
				rnr_left_--;
			go_back(psn, now);
			rnr_wait_ = true;
			rnr_psn_ = psn;
			rnr_until_ = now + uint64_t(rnr_timer_us(pkt.aeth.value())) * hz_ / 1000000;
			return;
		}
		case Aeth::Kind::nak: {
			ctx_.counters_.naks_rcvd++;
			uint32_t idx;
			if (!nak_target(psn, now, &idx))
				return;
			switch (pkt.aeth.syndrome) {
			case kNakSeq:
				/* IBA 9.7.5.2.1: retransmit; a NAK that made no progress spends
				 * one retry (nak_target reset the counter if it did), as
				 * rxe_comp.c COMPST_ERROR_RETRY, unless a retry already runs: a
				 * duplicated or late NAK for it is not a new loss (rxe:
				 * started_retry), and the local ACK timeout spends the retries.
				 * Without that timeout (timeout 0) every NAK still spends one,
				 * or a peer that keeps NAKing would hold the WQE for ever. */
				if (retry_started_ && ack_timeout_ns(attr_.timeout) != 0)
					return;
				if (retry_left_ == 0) {
					fail_send(idx, IBV_WC_RETRY_EXC_ERR);
					return;
				}
				retry_spend(psn, now);
				return;
			case kNakInvReq:
				fail_send(idx, IBV_WC_REM_INV_REQ_ERR);
				return;
			case kNakRemAccess:
				fail_send(idx, IBV_WC_REM_ACCESS_ERR);
				return;
			case kNakRemOp:
				fail_send(idx, IBV_WC_REM_OP_ERR);
				return;
			default:
				fail_send(idx, IBV_WC_BAD_RESP_ERR);
				return;
			}
		}
		default:
			ctx_.counters_.rx_malformed++;
			return;
		}
	}
	uint32_t idx;
	SendWqe *w = find_wqe(psn, &idx);
	if (w == nullptr) {
		ctx_.counters_.rx_duplicates++; /* already completed */
		return;
	}
	if (op == static_cast<uint8_t>(Opcode::RC_ATOMIC_ACKNOWLEDGE)) {
		if (!is_read_or_atomic(w->opcode) || w->opcode == IBV_WR_RDMA_READ) {
			ctx_.counters_.rx_bad_opcode++;
			return;
		}
		if (w->done) {
			ctx_.counters_.rx_duplicates++;
			return;
		}
		if (psn_diff(psn, una_) > 0 && !process_ack(psn_add(psn, -1), now))
			return;
		/* Host order into the local 8 bytes, which may span SGEs (post_send checked len
		 * 8). */
		uint64_t orig = pkt.atomic_ack_eth.orig;
		uint8_t bytes[8];
		std::memcpy(bytes, &orig, 8);
		scatter(w->seg, w->nseg, 0, bytes);
		w->done = true;
		process_ack(psn, now);
		return;
	}
	/* READ response (IBA 9.7.5.1.4). */
	if (w->opcode != IBV_WR_RDMA_READ) {
		ctx_.counters_.rx_bad_opcode++;
		return;
	}
	uint32_t k = static_cast<uint32_t>(psn_diff(psn, w->first_psn));
	if (w->done || k < w->resp_pkts) {
		ctx_.counters_.rx_duplicates++;
		return;
	}
	if (k > w->resp_pkts) {
		/* A response got lost: re-request the residual once per progress point. */
		ctx_.counters_.rx_out_of_sequence++;
		if (w->rereq_from != w->resp_pkts) {
			uint32_t miss = psn_add(w->first_psn, w->resp_pkts);
			if (psn_diff(miss, una_) <= 0 || process_ack(psn_add(miss, -1), now))
				go_back(miss, now);
		}
		return;
	}
	uint32_t mtu = pmtu();
	bool lastp = k + 1 == w->npkts;
	uint32_t expect = lastp ? w->len - k * mtu : mtu;
	bool op_ok = lastp ? (op == u8(Opcode::RC_RDMA_READ_RESPONSE_LAST) ||
			      op == u8(Opcode::RC_RDMA_READ_RESPONSE_ONLY))
			   : (op == u8(Opcode::RC_RDMA_READ_RESPONSE_FIRST) ||
			      op == u8(Opcode::RC_RDMA_READ_RESPONSE_MIDDLE));
	if (!op_ok || pkt.payload.size() != expect) {
		ctx_.counters_.rx_malformed++;
		return;
	}
	if (psn_diff(psn, una_) > 0 && !process_ack(psn_add(psn, -1), now))
		return;
	scatter(w->seg, w->nseg, k * mtu, pkt.payload);
	w->resp_pkts++;
	retry_reset();
	last_progress_ = now;
	if (lastp) {
		w->done = true;
		process_ack(psn, now);
	}
	if (psn_diff(psn_add(psn, 1), una_) > 0) {
		window_on_ack(uint32_t(psn_diff(psn_add(psn, 1), una_)));
		una_ = psn_add(psn, 1);
	}
}

void QpImpl::requester_timers(uint64_t now)
{
	if (state_ != IBV_QPS_RTS || !is_rc())
		return;
	if (rnr_wait_) {
		if (now >= rnr_until_) {
			rnr_wait_ = false;
			go_back(rnr_psn_, now);
		}
		return;
	}
	if (psn_diff(sent_end_, una_) <= 0)
		return;
	uint64_t ns = ack_timeout_ns(attr_.timeout);
	if (ns == 0)
		return;
	uint64_t to = ns * hz_ / 1000000000ull;
	if (now - last_progress_ <= to)
		return;
	/* IBA 9.7.6.1.3: local ACK timeout; retry_cnt retries, then IBV_WC_RETRY_EXC_ERR. */
	ctx_.counters_.timeouts++;
	if (retry_left_ == 0) {
		uint32_t idx;
		if (find_wqe(una_, &idx) != nullptr)
			fail_send(idx, IBV_WC_RETRY_EXC_ERR);
		else
			to_error();
		return;
	}
	retry_spend(una_, now);
}

} /* namespace gaudi::roce */
