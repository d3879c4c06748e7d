/* SPDX-License-Identifier: BSD-3-Clause */
/* Responder: executes requests (SEND, WRITE, READ, atomics), duplicates and the READ/atomic
 * resources, ACK coalescing and NAKs, receive completions (rxe_resp.c).
 * API contract: roce_verbs.h; how the parts fit: roce_internal.h. */
#include "roce_ctx.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>

namespace gaudi::roce {

void QpImpl::complete_recv(RecvWqe &r, ibv_wc_status st, ibv_wc_opcode op, uint32_t len,
			   unsigned flags, uint32_t imm, uint32_t inv, uint32_t src_qp)
{
	WorkCompletion wc;
	wc.wr_id = r.wr_id;
	wc.status = st;
	wc.opcode = op;
	wc.byte_len = len;
	wc.wc_flags = flags;
	wc.imm_data = imm;
	wc.invalidated_rkey = inv;
	wc.qp_num = qpn_;
	wc.src_qp = src_qp;
	if (!rcq_->push(wc))
		ctx_.counters_.cq_overflows++;
}

QpImpl::RecvWqe *QpImpl::recv_wqe()
{
	if (srq_ == nullptr)
		return rq_tail_ == rq_head_ ? nullptr : &rq_[rq_tail_ & rq_mask_];
	/* rxe get_srq_wqe(): copied out of the SRQ, kept by the QP until the message completes. */
	if (!srq_held_ && !srq_->take(*srq_wqe_))
		return nullptr;
	srq_held_ = true;
	return srq_wqe_.get();
}

void QpImpl::recv_consumed()
{
	if (srq_ != nullptr)
		srq_held_ = false;
	else
		rq_tail_++;
}

/* Requester */

MrImpl *QpImpl::check_remote(uint32_t rkey, uint64_t va, uint64_t len, unsigned need) const
{
	/* IBA 10.6.3 / 9.7.5.2.4: R_Key names a valid MR of this QP's PD, the QP and the MR
	 * grant the access, and [va, va+len) lies inside the MR. Otherwise: remote access error. */
	MrImpl *mr = ctx_.lookup_mr(rkey);
	if (mr == nullptr || !mr->valid_ || &mr->pd_ != &pd_ || !(mr->access_ & need) ||
	    !(attr_.qp_access_flags & need) || !mr->contains(va, len)) {
		ctx_.counters_.remote_access_errors++;
		return nullptr;
	}
	return mr;
}

QpImpl::RespItem *QpImpl::push_resp(RespKind k)
{
	if (resp_tail_ - resp_head_ >= resp_.size())
		return nullptr;
	if (resp_tail_ != resp_head_ && k != RespKind::ack) {
		RespItem &prev = resp_[(resp_tail_ - 1) % resp_.size()];
		if (prev.kind == RespKind::ack)
			prev.ready =
				true; /* keep PSN order: a held ACK cannot wait behind a response */
	}
	RespItem &it = resp_[resp_tail_++ % resp_.size()];
	it = RespItem{};
	it.kind = k;
	it.msn = msn_;
	return &it;
}

void QpImpl::queue_ack(uint32_t psn, bool ready, uint64_t now)
{
	if (resp_tail_ != resp_head_) {
		RespItem &last = resp_[(resp_tail_ - 1) % resp_.size()];
		if (last.kind ==
		    RespKind::ack) { /* coalesce: one cumulative ACK, for the newest PSN */
			if (psn_diff(psn, last.psn) > 0)
				last.psn = psn;
			last.msn = msn_;
			last.ready |= ready;
			return;
		}
	}
	RespItem *it = push_resp(RespKind::ack);
	if (it == nullptr)
		return; /* the requester retries; the duplicate gets a new ACK */
	it->psn = psn;
	it->syndrome = kSynAck;
	it->ready = ready;
	it->deadline = now + uint64_t(tuning_.ack_delay_us) * hz_ / 1000000;
}

void QpImpl::queue_nak(uint32_t psn, uint8_t syndrome)
{
	RespItem *it = push_resp(RespKind::nak);
	if (it == nullptr)
		return;
	it->psn = psn;
	it->syndrome = syndrome;
}

void QpImpl::rx_request(const Packet &pkt, uint64_t now, bool ce)
{
	(void)ce;
	if ((state_ != IBV_QPS_RTR && state_ != IBV_QPS_RTS) || error_after_resp_) {
		ctx_.counters_.rx_bad_state++;
		return;
	}
	/* P_Key (IBA 9.2.1.1 / 10.9): same partition, low 15 bits. */
	uint16_t mine = ctx_.cfg_.pkey_table[attr_.pkey_index];
	if ((pkt.bth.pkey & 0x7FFF) != (mine & 0x7FFF) ||
	    ((pkt.bth.pkey & 0x8000) == 0 && (mine & 0x8000) == 0)) {
		ctx_.counters_.rx_bad_pkey++;
		return;
	}
	Transport t = opcode_info(pkt.bth.opcode).transport;
	if ((type_ == IBV_QPT_RC && t != Transport::RC) ||
	    (type_ == IBV_QPT_UC && t != Transport::UC) ||
	    (type_ == IBV_QPT_UD && t != Transport::UD)) {
		ctx_.counters_.rx_bad_opcode++;
		return;
	}
	if (type_ == IBV_QPT_RC)
		rx_rc_request(pkt, now);
	else if (type_ == IBV_QPT_UC)
		rx_uc_request(pkt);
	else
		rx_ud_request(pkt);
}

/* Executes one in-sequence request packet: true = done; false = not executed, `nak` says
 * what to answer (an AETH syndrome, or kNakDrop for nothing). */
bool QpImpl::execute(const Packet &pkt, const OpcodeInfo &oi, uint64_t now, bool uc, uint8_t &nak)
{
	(void)oi;
	(void)now;
	/* RC or UC: compare operations (bits 4:0), named after the RC opcodes. */
	const uint8_t op = pkt.bth.opcode & kOpOperationMask;
	auto is = [op](std::initializer_list<Opcode> l) {
		return std::any_of(l.begin(), l.end(),
				   [op](Opcode o) { return operation(o) == op; });
	};
	uint32_t mtu = pmtu();
	auto payload = pkt.payload;
	uint32_t n = static_cast<uint32_t>(payload.size());
	bool send = is({Opcode::RC_SEND_FIRST, Opcode::RC_SEND_MIDDLE, Opcode::RC_SEND_LAST,
			Opcode::RC_SEND_LAST_WITH_IMMEDIATE, Opcode::RC_SEND_ONLY,
			Opcode::RC_SEND_ONLY_WITH_IMMEDIATE, Opcode::RC_SEND_LAST_WITH_INVALIDATE,
			Opcode::RC_SEND_ONLY_WITH_INVALIDATE});
	bool write = is({Opcode::RC_RDMA_WRITE_FIRST, Opcode::RC_RDMA_WRITE_MIDDLE,
			 Opcode::RC_RDMA_WRITE_LAST, Opcode::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE,
			 Opcode::RC_RDMA_WRITE_ONLY, Opcode::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE});
	bool first = is({Opcode::RC_SEND_FIRST, Opcode::RC_RDMA_WRITE_FIRST});
	bool middle = is({Opcode::RC_SEND_MIDDLE, Opcode::RC_RDMA_WRITE_MIDDLE});
	bool last = is({Opcode::RC_SEND_LAST, Opcode::RC_SEND_LAST_WITH_IMMEDIATE,
			Opcode::RC_SEND_LAST_WITH_INVALIDATE, Opcode::RC_RDMA_WRITE_LAST,
			Opcode::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE});
	bool only = is({Opcode::RC_SEND_ONLY, Opcode::RC_SEND_ONLY_WITH_IMMEDIATE,
			Opcode::RC_SEND_ONLY_WITH_INVALIDATE, Opcode::RC_RDMA_WRITE_ONLY,
			Opcode::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE});
	bool imm = is({Opcode::RC_SEND_LAST_WITH_IMMEDIATE, Opcode::RC_SEND_ONLY_WITH_IMMEDIATE,
		       Opcode::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE,
		       Opcode::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE});
	bool inv = is({Opcode::RC_SEND_LAST_WITH_INVALIDATE, Opcode::RC_SEND_ONLY_WITH_INVALIDATE});
	bool read = op == operation(Opcode::RC_RDMA_READ_REQUEST);
	bool cas = op == operation(Opcode::RC_COMPARE_SWAP),
	     faa = op == operation(Opcode::RC_FETCH_ADD);
	nak = kNakInvReq;
	/* Opcode sequence (IBA 9.7.5.2.2 / 9.8.3.2.2): MIDDLE/LAST continue a FIRST of the same
	 * kind. */
	if (middle || last) {
		if ((send && in_msg_ != InMsg::send) || (write && in_msg_ != InMsg::write))
			return false;
	} else if (in_msg_ != InMsg::none) {
		return false;
	}
	/* Lengths (IBA 9.7.5.2.3?): FIRST/MIDDLE exactly PMTU, LAST 1..PMTU, ONLY 0..PMTU. */
	if (((first || middle) && n != mtu) || (last && (n == 0 || n > mtu)) || (only && n > mtu))
		return false;
	if (send) {
		if ((first || only) && recv_wqe() == nullptr) {
			nak = kSynRnrNak | (attr_.min_rnr_timer & 0x1F);
			return false;
		}
		RecvWqe &r = *recv_wqe();
		if (first || only)
			msg_off_ = 0;
		if (!scatter(r.seg, r.nseg, msg_off_, payload)) {
			/* Local length error at the responder: IBA 9.7.5.2.3? -> Invalid Request
			 * NAK. */
			complete_recv(r, IBV_WC_LOC_LEN_ERR, IBV_WC_RECV, msg_off_ + n, 0, 0, 0, 0);
			recv_consumed();
			in_msg_ = InMsg::none;
			return false;
		}
		msg_off_ += n;
		if (first || middle) {
			in_msg_ = InMsg::send;
			return true;
		}
		unsigned flags = imm ? IBV_WC_WITH_IMM : 0;
		uint32_t inv_rkey = 0;
		if (inv) {
			/* IBA 10.6.5: Send with Invalidate invalidates the named R_Key of this
			 * PD. */
			MrImpl *mr = ctx_.lookup_mr(pkt.ieth_rkey);
			if (mr == nullptr || &mr->pd_ != &pd_)
				return false;
			mr->valid_ = false;
			flags |= IBV_WC_WITH_INV;
			inv_rkey = pkt.ieth_rkey;
		}
		complete_recv(r, IBV_WC_SUCCESS, IBV_WC_RECV, msg_off_, flags, pkt.imm, inv_rkey,
			      0);
		recv_consumed();
		in_msg_ = InMsg::none;
		msn_ = psn_add(msn_, 1);
		return true;
	}
	if (write) {
		if (first || only) {
			if (check_remote(pkt.reth.rkey, pkt.reth.va, pkt.reth.dma_len,
					 IBV_ACCESS_REMOTE_WRITE) == nullptr &&
			    pkt.reth.dma_len != 0) {
				nak = kNakRemAccess;
				return false;
			}
			wr_va_ = pkt.reth.va;
			wr_len_ = pkt.reth.dma_len;
			msg_off_ = 0;
		}
		if (uint64_t(msg_off_) + n > wr_len_ || ((last || only) && msg_off_ + n != wr_len_))
			return false; /* length disagrees with the RETH */
		if (imm && recv_wqe() == nullptr) {
			nak = kSynRnrNak | (attr_.min_rnr_timer & 0x1F);
			return false;
		}
		if (n)
			std::memcpy(
				reinterpret_cast<void *>(static_cast<uintptr_t>(wr_va_ + msg_off_)),
				payload.data(), n);
		msg_off_ += n;
		in_msg_ = (first || middle) ? InMsg::write : InMsg::none;
		if (imm) {
			RecvWqe &r = *recv_wqe();
			complete_recv(r, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM, wr_len_,
				      IBV_WC_WITH_IMM, pkt.imm, 0, 0);
			recv_consumed();
		}
		if (last || only)
			msn_ = psn_add(msn_, 1);
		return true;
	}
	if (uc)
		return false;
	if ((read || cas || faa) &&
	    (attr_.max_dest_rd_atomic == 0 || rd_atomic_in_flight() >= attr_.max_dest_rd_atomic)) {
		/* rxe RESPST_ERR_TOO_MANY_RDMA_ATM_REQ (IBA class C): more READ/atomic requests
		 * outstanding than the responder resources -> Invalid Request NAK (class C). */
		ctx_.counters_.rd_atomic_overflow++;
		return false;
	}
	if (read) { /* RDMA READ request */
		if (pkt.reth.dma_len != 0 &&
		    check_remote(pkt.reth.rkey, pkt.reth.va, pkt.reth.dma_len,
				 IBV_ACCESS_REMOTE_READ) == nullptr) {
			nak = kNakRemAccess;
			return false;
		}
		RespItem *it = push_resp(RespKind::read);
		if (it == nullptr) {
			nak = kNakDrop; /* no room: drop silently, the requester retries */
			return false;
		}
		msn_ = psn_add(msn_, 1);
		it->msn = msn_;
		it->psn = pkt.bth.psn;
		it->va = pkt.reth.va;
		it->len = pkt.reth.dma_len;
		it->total_pkts = std::max<uint32_t>(1, (pkt.reth.dma_len + mtu - 1) / mtu);
		rd_last_req_ = now;
		rd_confirm_oldest();
		it->res = uint8_t(rd_res_next_);
		save_resource({true, true, pkt.bth.psn, psn_add(pkt.bth.psn, it->total_pkts - 1),
			       pkt.reth.va, pkt.reth.dma_len, pkt.reth.rkey, 0, 0, false});
		return true;
	}
	if (cas || faa) { /* atomics, IBA 9.4.5 */
		if (pkt.atomic_eth.va & 7)
			return false; /* misaligned: invalid request */
		if (check_remote(pkt.atomic_eth.rkey, pkt.atomic_eth.va, 8,
				 IBV_ACCESS_REMOTE_ATOMIC) == nullptr) {
			nak = kNakRemAccess;
			return false;
		}
		RespItem *it = push_resp(RespKind::atomic_ack);
		if (it == nullptr) {
			nak = kNakDrop;
			return false;
		}
		auto *p = reinterpret_cast<uint64_t *>(static_cast<uintptr_t>(pkt.atomic_eth.va));
		uint64_t orig = *p;
		if (cas) {
			if (orig == pkt.atomic_eth.compare)
				*p = pkt.atomic_eth.swap_add;
		} else {
			*p = orig + pkt.atomic_eth.swap_add;
		}
		/* Saved for duplicates: a retried atomic must not execute twice (IBA 9.7.5.3). */
		save_resource({true, false, pkt.bth.psn, pkt.bth.psn, 0, 0, 0, orig, 0, false});
		msn_ = psn_add(msn_, 1);
		it->msn = msn_;
		it->psn = pkt.bth.psn;
		it->orig = orig;
		return true;
	}
	return false; /* FLUSH, ATOMIC_WRITE, ...: not supported -> invalid request */
}

QpImpl::RdResource *QpImpl::find_resource(uint32_t psn)
{
	for (uint32_t i = 0; i < attr_.max_dest_rd_atomic; i++) {
		RdResource &r = rd_res_[i];
		if (r.valid && psn_diff(psn, r.first_psn) >= 0 && psn_diff(psn, r.last_psn) <= 0)
			return &r;
	}
	return nullptr;
}

void QpImpl::save_resource(const RdResource &r)
{
	/* Ring of max_dest_rd_atomic entries, oldest overwritten (rxe_prepare_res). */
	if (attr_.max_dest_rd_atomic == 0)
		return;
	rd_forget(rd_res_[rd_res_next_ % attr_.max_dest_rd_atomic]);
	rd_res_[rd_res_next_ % attr_.max_dest_rd_atomic] = r;
	rd_res_next_ = (rd_res_next_ + 1) % attr_.max_dest_rd_atomic;
}

uint32_t QpImpl::rd_atomic_in_flight() const
{
	/* READ responses not fully sent and atomic ACKs not sent: the resources still busy. A
	 * requester within its max_rd_atomic (<= our max_dest_rd_atomic) never exceeds them, as
	 * it sends a new one only after a response completed. */
	uint32_t n = 0;
	for (uint32_t i = resp_head_; i != resp_tail_; i++) {
		const RespItem &o = resp_[i % resp_.size()];
		n += (o.kind == RespKind::read && o.sent_pkts < o.total_pkts) ||
		     o.kind == RespKind::atomic_ack;
	}
	return n;
}

/* READ response window (QpTuning::read_stall_us). */

void QpImpl::rd_window_reset()
{
	rd_cwnd_ = std::max(tuning_.initial_window_pkts, tuning_.min_window_pkts);
	rd_ssthresh_ = tuning_.max_inflight_pkts;
	rd_cwnd_acc_ = rd_flight_ = 0;
	rd_loss_armed_ = true;
}

bool QpImpl::rd_window_allows(const RdResource &r, uint64_t now)
{
	if (tuning_.initial_window_pkts == 0 || rd_flight_ == r.flight ||
	    rd_flight_ < std::min(rd_cwnd_, tuning_.max_inflight_pkts))
		return true; /* off, the oldest READ in flight, or room in the window */
	if (now - rd_last_req_ < uint64_t(tuning_.read_stall_us) * hz_ / 1000000)
		return false;
	/* No READ request for a while: the requester has what was sent or will re-request it;
	 * waiting longer would only stall its last READs until its ACK timeout. */
	for (uint32_t i = 0; i < attr_.max_dest_rd_atomic; i++)
		rd_res_[i].flight = 0;
	rd_flight_ = 0;
	return true;
}

void QpImpl::rd_forget(RdResource &r)
{
	rd_flight_ -= std::min(r.flight, rd_flight_);
	r.flight = 0;
}

void QpImpl::rd_confirm_oldest()
{
	/* A new READ: the requester completed one, the oldest answered in full (rxe sends a READ
	 * beyond max_rd_atomic only after one completed). Its packets arrived: the window opens
	 * by them (slow start up to rd_ssthresh_, then one per window, as window_on_ack). */
	uint32_t n = attr_.max_dest_rd_atomic;
	for (uint32_t j = 0; j < n; j++) {
		RdResource &r = rd_res_[(rd_res_next_ + j) % n];
		if (!r.valid || !r.read || r.flight == 0)
			continue;
		if (!r.sent_all)
			return;
		uint32_t pkts = r.flight;
		rd_forget(r);
		rd_loss_armed_ = true;
		if (rd_cwnd_ < rd_ssthresh_) {
			rd_cwnd_ = std::min(rd_cwnd_ + pkts, rd_ssthresh_);
			return;
		}
		rd_cwnd_acc_ += pkts;
		if (rd_cwnd_acc_ >= rd_cwnd_) {
			rd_cwnd_acc_ -= rd_cwnd_;
			rd_cwnd_ = std::min(rd_cwnd_ + 1, tuning_.max_inflight_pkts);
		}
		return;
	}
}

void QpImpl::rd_on_duplicate(const RdResource &r)
{
	/* The responses of this READ from the gap on, and of every later READ, are lost or
	 * dropped by the requester: no longer in flight. Halve once per loss: the requester
	 * re-requests each later READ too, and again the same one only after its ACK timeout. */
	uint32_t n = attr_.max_dest_rd_atomic;
	for (uint32_t i = 0; i < n; i++)
		if (rd_res_[i].valid && rd_res_[i].read &&
		    psn_diff(rd_res_[i].first_psn, r.first_psn) >= 0) {
			rd_res_[i].sent_all = false;
			rd_forget(rd_res_[i]);
		}
	if (rd_loss_armed_ || psn_diff(r.first_psn, rd_dup_psn_) <= 0) {
		rd_ssthresh_ = std::max(rd_cwnd_ / 2, tuning_.min_window_pkts);
		rd_cwnd_ = rd_ssthresh_;
		rd_cwnd_acc_ = 0;
		rd_loss_armed_ = false;
	}
	rd_dup_psn_ = r.first_psn;
}

void QpImpl::rx_rc_duplicate(const Packet &pkt, uint64_t now)
{
	/* IBA 9.7.5.2.2 duplicates: SEND/WRITE re-acknowledged; READ replayed and atomic answered
	 * from the saved result, both only from the responder resources (else dropped: class D). */
	ctx_.counters_.rx_duplicates++;
	uint32_t psn = pkt.bth.psn;
	uint8_t op = pkt.bth.opcode;
	if (op == u8(Opcode::RC_RDMA_READ_REQUEST)) {
		RdResource *res = find_resource(psn);
		/* The re-request asks for a residual of the original READ (rxe
		 * duplicate_request()). */
		if (res == nullptr || !res->read || pkt.reth.rkey != res->rkey ||
		    pkt.reth.va < res->va || pkt.reth.dma_len > res->len ||
		    pkt.reth.va - res->va > res->len - pkt.reth.dma_len) {
			ctx_.counters_.dup_no_resource++;
			return;
		}
		if (pkt.reth.dma_len != 0 &&
		    check_remote(pkt.reth.rkey, pkt.reth.va, pkt.reth.dma_len,
				 IBV_ACCESS_REMOTE_READ) == nullptr)
			return;
		/* Stop an older generation of the same READ still being sent, and of the READs
		 * after it: a requester takes responses in PSN order only, so it drops them and
		 * re-requests those READs as well (go-back-N, rxe req_retry). */
		for (uint32_t i = resp_head_; i != resp_tail_; i++) {
			RespItem &o = resp_[i % resp_.size()];
			if (o.kind == RespKind::read &&
			    psn_diff(psn_add(o.psn, o.total_pkts), psn) > 0)
				o.total_pkts = o.sent_pkts;
		}
		rd_last_req_ = now;
		rd_on_duplicate(*res);
		RespItem *it = push_resp(RespKind::read);
		if (it == nullptr)
			return;
		uint32_t mtu = pmtu();
		it->res = uint8_t(res - rd_res_.data());
		it->psn = psn;
		it->va = pkt.reth.va;
		it->len = pkt.reth.dma_len;
		it->total_pkts = std::max<uint32_t>(1, (pkt.reth.dma_len + mtu - 1) / mtu);
		ctx_.counters_.read_replays++;
		return;
	}
	if (op == u8(Opcode::RC_COMPARE_SWAP) || op == u8(Opcode::RC_FETCH_ADD)) {
		RdResource *res = find_resource(psn);
		if (res == nullptr || res->read || res->first_psn != psn) {
			ctx_.counters_.dup_no_resource++;
			return;
		}
		RespItem *it = push_resp(RespKind::atomic_ack);
		if (it != nullptr) {
			it->psn = psn;
			it->orig = res->orig;
			ctx_.counters_.atomic_replays++;
		}
		return;
	}
	/* SEND/WRITE: ACK the duplicate's own PSN. epsn - 1 may be a READ's or an atomic's PSN,
	 * and an ACK carrying that PSN completes the READ/atomic at an rxe requester with no data
	 * (rxe_comp.c: an ACK for a pending WQE's last PSN -> COMPST_COMP_ACK). */
	queue_ack(psn, true, now);
}

void QpImpl::rx_rc_request(const Packet &pkt, uint64_t now)
{
	uint32_t psn = pkt.bth.psn;
	int32_t d = psn_diff(psn, epsn_);
	uint8_t op = pkt.bth.opcode;
	if (d > 0) {
		/* IBA 9.7.5.2.1: PSN sequence error, NAK once until the expected PSN arrives. */
		ctx_.counters_.rx_out_of_sequence++;
		if (!nak_sent_) {
			queue_nak(epsn_, kNakSeq);
			nak_sent_ = true;
		}
		return;
	}
	if (d < 0) {
		rx_rc_duplicate(pkt, now);
		return;
	}
	uint8_t nak = 0;
	if (!execute(pkt, opcode_info(op), now, false, nak)) {
		if (nak == kNakDrop)
			return;
		if (is_rnr(nak)) {
			/* RNR NAK: nothing consumed; later packets of this message are dropped
			 * silently. */
			ctx_.counters_.rnr_naks_sent++;
			queue_nak(psn, nak);
			nak_sent_ = true;
			return;
		}
		/* Invalid request / remote access error: NAK, then the QP goes to Error (IBA
		 * 9.9.3.1.2 responder class C/D errors). */
		queue_nak(psn, nak);
		nak_sent_ = true;
		error_after_resp_ = true;
		return;
	}
	nak_sent_ = false;
	if (op == u8(Opcode::RC_RDMA_READ_REQUEST)) {
		RespItem &it = resp_[(resp_tail_ - 1) % resp_.size()];
		epsn_ = psn_add(epsn_, it.total_pkts);
		return;
	}
	epsn_ = psn_add(epsn_, 1);
	if (op == u8(Opcode::RC_COMPARE_SWAP) || op == u8(Opcode::RC_FETCH_ADD))
		return;
	pkts_since_ack_++;
	queue_ack(psn, pkt.bth.ack_req || pkts_since_ack_ >= tuning_.ack_every, now);
}

void QpImpl::rx_uc_request(const Packet &pkt)
{
	uint32_t psn = pkt.bth.psn;
	const uint8_t op = pkt.bth.opcode & kOpOperationMask;
	if (psn != epsn_) {
		/* IBA 9.8.3.2.1: lost packets abort the current message; resynchronise on the
		 * PSN. */
		ctx_.counters_.rx_out_of_sequence++;
		in_msg_ = InMsg::none;
		epsn_ = psn;
		bool continues = false; /* MIDDLE or LAST of a message whose start was lost */
		for (Opcode o :
		     {Opcode::RC_SEND_MIDDLE, Opcode::RC_SEND_LAST,
		      Opcode::RC_SEND_LAST_WITH_IMMEDIATE, Opcode::RC_RDMA_WRITE_MIDDLE,
		      Opcode::RC_RDMA_WRITE_LAST, Opcode::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE})
			continues |= op == operation(o);
		if (continues) {
			epsn_ = psn_add(psn, 1);
			return;
		}
	}
	epsn_ = psn_add(psn, 1);
	uint8_t nak = 0;
	if (!execute(pkt, opcode_info(pkt.bth.opcode), 0, true, nak)) {
		if (is_rnr(nak))
			ctx_.counters_.rx_no_recv_wqe++;
		else
			ctx_.counters_.rx_bad_opcode++;
		in_msg_ = InMsg::none; /* drop the rest of this message */
	}
}

void QpImpl::rx_ud_request(const Packet &pkt)
{
	/* IBA 10.2.5 / 9.6.1: Q_Key must match, else silently dropped. */
	if (pkt.deth.qkey != attr_.qkey) {
		ctx_.counters_.rx_bad_qkey++;
		return;
	}
	if (pkt.payload.size() > pmtu()) {
		ctx_.counters_.rx_malformed++;
		return;
	}
	RecvWqe *rw = recv_wqe();
	if (rw == nullptr) {
		ctx_.counters_.rx_no_recv_wqe++;
		return;
	}
	RecvWqe &r = *rw;
	/* The first 40 bytes of a UD receive hold the GRH; for RoCE v2 over IPv4 the IPv4 header
	 * is in its last 20 bytes (rdma-core ibv_post_recv(3)). */
	std::array<uint8_t, kGrhLen> grh{};
	if (pkt.ip_version == IpVersion::v4) {
		uint8_t *h = grh.data() + 20;
		h[0] = 0x45;
		h[1] = pkt.ip4.tos;
		h[2] = uint8_t(pkt.ip4.total_len >> 8);
		h[3] = uint8_t(pkt.ip4.total_len);
		h[8] = pkt.ip4.ttl;
		h[9] = kIpProtoUdp;
		std::copy(pkt.ip4.src.begin(), pkt.ip4.src.end(), h + 12);
		std::copy(pkt.ip4.dst.begin(), pkt.ip4.dst.end(), h + 16);
	} else {
		uint32_t w0 = 6u << 28 | uint32_t(pkt.ip6.traffic_class) << 20 | pkt.ip6.flow_label;
		grh[0] = uint8_t(w0 >> 24);
		grh[1] = uint8_t(w0 >> 16);
		grh[2] = uint8_t(w0 >> 8);
		grh[3] = uint8_t(w0);
		grh[4] = uint8_t(pkt.ip6.payload_len >> 8);
		grh[5] = uint8_t(pkt.ip6.payload_len);
		grh[6] = kIpProtoUdp;
		grh[7] = pkt.ip6.hop_limit;
		std::copy(pkt.ip6.src.begin(), pkt.ip6.src.end(), grh.begin() + 8);
		std::copy(pkt.ip6.dst.begin(), pkt.ip6.dst.end(), grh.begin() + 24);
	}
	uint32_t n = static_cast<uint32_t>(kGrhLen + pkt.payload.size());
	bool imm = pkt.bth.opcode == static_cast<uint8_t>(Opcode::UD_SEND_ONLY_WITH_IMMEDIATE);
	if (!scatter(r.seg, r.nseg, 0, grh) || !scatter(r.seg, r.nseg, kGrhLen, pkt.payload))
		complete_recv(r, IBV_WC_LOC_LEN_ERR, IBV_WC_RECV, n, 0, 0, 0, pkt.deth.src_qp);
	else
		complete_recv(r, IBV_WC_SUCCESS, IBV_WC_RECV, n,
			      IBV_WC_GRH | (imm ? IBV_WC_WITH_IMM : 0), pkt.imm, 0,
			      pkt.deth.src_qp);
	recv_consumed();
}

unsigned QpImpl::tx_responses(uint64_t now, unsigned budget)
{
	unsigned sent = 0;
	if (!is_rc())
		return 0;
	while (sent < budget && resp_head_ != resp_tail_) {
		RespItem &it = resp_[resp_head_ % resp_.size()];
		Packet pkt;
		switch (it.kind) {
		case RespKind::ack:
		case RespKind::nak:
			if (it.kind == RespKind::ack && !it.ready && now < it.deadline &&
			    pkts_since_ack_ < tuning_.ack_every)
				/* coalescing: wait for more packets or the ACK timer */
				return sent;
			pkt = make_packet(Opcode::RC_ACKNOWLEDGE);
			fill_headers(pkt, attr_.ah_attr, attr_.dest_qp_num, it.psn);
			pkt.aeth = {it.syndrome, it.msn};
			if (!ctx_.emit(this, pkt))
				return sent;
			if (it.kind == RespKind::ack) {
				ctx_.counters_.acks_sent++;
				pkts_since_ack_ = 0;
			} else if (is_rnr(it.syndrome)) {
				/* counted when queued */
			} else {
				ctx_.counters_.naks_sent++;
			}
			resp_head_++;
			break;
		case RespKind::atomic_ack:
			pkt = make_packet(Opcode::RC_ATOMIC_ACKNOWLEDGE);
			fill_headers(pkt, attr_.ah_attr, attr_.dest_qp_num, it.psn);
			pkt.aeth = {0, it.msn};
			pkt.atomic_ack_eth.orig = it.orig;
			if (!ctx_.emit(this, pkt))
				return sent;
			resp_head_++;
			break;
		case RespKind::read: {
			if (it.sent_pkts >= it.total_pkts) {
				resp_head_++;
				continue;
			}
			uint32_t mtu = pmtu();
			uint32_t k = it.sent_pkts;
			uint32_t n = std::min(mtu, it.len);
			RdResource &res = rd_res_[it.res];
			if (!rd_window_allows(res, now)) {
				ctx_.counters_.read_window_waits++;
				return sent;
			}
			if (!rate_allows(n + kMaxHdr, now))
				return sent;
			Opcode op = it.total_pkts == 1	     ? Opcode::RC_RDMA_READ_RESPONSE_ONLY
				    : k == 0		     ? Opcode::RC_RDMA_READ_RESPONSE_FIRST
				    : k + 1 == it.total_pkts ? Opcode::RC_RDMA_READ_RESPONSE_LAST
							     : Opcode::RC_RDMA_READ_RESPONSE_MIDDLE;
			pkt = make_packet(op);
			fill_headers(pkt, attr_.ah_attr, attr_.dest_qp_num, psn_add(it.psn, k));
			pkt.aeth = {0, it.msn};
			/* Data straight from the registered memory (validated when the request
			 * came in). */
			pkt.payload = {
				reinterpret_cast<const uint8_t *>(static_cast<uintptr_t>(it.va)),
				n};
			if (!ctx_.emit(this, pkt))
				return sent;
			it.sent_pkts++;
			it.va += n;
			it.len -= n;
			res.flight++;
			rd_flight_++;
			if (it.sent_pkts == it.total_pkts) {
				res.sent_all = true;
				resp_head_++;
			}
			break;
		}
		}
		sent++;
	}
	if (resp_head_ == resp_tail_ && error_after_resp_) {
		error_after_resp_ = false;
		to_error();
	}
	return sent;
}

} /* namespace gaudi::roce */
