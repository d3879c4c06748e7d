/* SPDX-License-Identifier: BSD-3-Clause */
/* Completer: ACKs, NAKs, RNR NAKs, READ responses and atomic ACKs; go-back-N retries,
 * the local ACK timeout and send completions (rxe_comp.c).
 * API contract: roce_verbs.h; how the parts fit: roce_internal.h. */
#include "roce_ctx.h"
#include "roce_log.h"

#include <algorithm>
#include <array>
#include <string_view>
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
	req.cur = idx;
	req.cur_pkt = w->opcode == IBV_WR_RDMA_READ
			      ? w->resp_pkts
			      : static_cast<uint32_t>(psn_diff(psn, w->first_psn));
	if (is_read_or_atomic(w->opcode) && w->opcode != IBV_WR_RDMA_READ)
		req.cur_pkt = 0;
	comp.last_progress = now;
	ctx_.counters_.retransmits++;
}

bool QpImpl::nak_target(uint32_t psn, uint64_t now, uint32_t *idx)
{
	/* IBA 9.7.5.1: a NAK implicitly ACKs every PSN before it. */
	if (psn_diff(psn, comp.una) < 0)
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
			if (sq_tail_ == req.cur && !is_read_or_atomic(w.opcode)) {
				uint32_t acked =
					static_cast<uint32_t>(psn_diff(psn, w.first_psn) + 1);
				req.cur_pkt = std::max(req.cur_pkt, std::min(acked, w.npkts));
			}
			break;
		}
		if (is_read_or_atomic(w.opcode) && !w.done) {
			/* A later PSN is acknowledged but this READ/atomic response never arrived
			 * (IBA 9.7.5.1.2: responses are in order, so it was lost): ask again. */
			comp.una = psn_add(w.first_psn,
					   w.opcode == IBV_WR_RDMA_READ ? w.resp_pkts : 0);
			go_back(comp.una, now);
			return false;
		}
		complete_send(w, IBV_WC_SUCCESS);
		sq_tail_++;
		progress = true;
		if (psn_diff(req.cur, sq_tail_) < 0 || req.cur == sq_tail_ - 1) {
			req.cur = sq_tail_;
			req.cur_pkt = 0;
		}
	}
	if (psn_diff(psn_add(psn, 1), comp.una) > 0) {
		window_on_ack(uint32_t(psn_diff(psn_add(psn, 1), comp.una)));
		comp.una = psn_add(psn, 1);
		progress = true;
	}
	if (progress) {
		retry_reset();
		comp.rnr_left = attr_.rnr_retry;
		comp.last_progress = now;
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

/* The completer's states for one response packet (ACK, NAK, READ response, atomic ACK), as
 * Linux rxe_comp.c's enum comp_state: each step returns the next state, rx_response() loops
 * until `done`. */
namespace {
constexpr std::array<std::string_view, size_t(QpImpl::CompState::done) + 1> kCompStateName = {
	"GET_ACK",     "CHECK_PSN", "CHECK_ACK",   "READ",	"ATOMIC", "WRITE_SEND",
	"UPDATE_COMP", "COMPLETE",  "ERROR_RETRY", "RNR_RETRY", "ERROR",  "DONE"};
/* One name per state: a state added to the enum alone fails here. */
static_assert(!kCompStateName.back().empty());

std::string_view comp_state_name(QpImpl::CompState s)
{
	return kCompStateName[size_t(s)];
}

/* NAK codes (IBA 9.7.5.2.8 Table 44, 0x60 + code) -> the send completion status. */
constexpr std::array<ibv_wc_status, 4> kNakStatus = {
	IBV_WC_RETRY_EXC_ERR, /* PSN sequence error: retried, not a status of its own */
	IBV_WC_REM_INV_REQ_ERR, IBV_WC_REM_ACCESS_ERR, IBV_WC_REM_OP_ERR};
constexpr ibv_wc_status nak_status(uint8_t syndrome)
{
	uint8_t code = syndrome & 0x1F;
	return code < kNakStatus.size() ? kNakStatus[code] : IBV_WC_BAD_RESP_ERR;
}
} /* namespace */

void QpImpl::rx_response(const Packet &pkt, uint64_t now)
{
	CompPkt p{pkt, op_mask(pkt.bth.opcode), now};
	CompState s = CompState::get_ack;
	while (s != CompState::done) {
		/* A switch, as rxe_comp.c's loop: the steps inline into one function (-Wswitch
		 * names a state left out). */
		CompState next = CompState::done;
		switch (s) {
		case CompState::get_ack:
			next = comp_get_ack(p);
			break;
		case CompState::check_psn:
			next = comp_check_psn(p);
			break;
		case CompState::check_ack:
			next = comp_check_ack(p);
			break;
		case CompState::read:
			next = comp_read(p);
			break;
		case CompState::atomic:
			next = comp_atomic(p);
			break;
		case CompState::write_send:
			next = comp_write_send(p);
			break;
		case CompState::update_comp:
			next = comp_update_comp(p);
			break;
		case CompState::complete:
			next = comp_complete(p);
			break;
		case CompState::error_retry:
			next = comp_error_retry(p);
			break;
		case CompState::rnr_retry:
			next = comp_rnr_retry(p);
			break;
		case CompState::error:
			next = comp_error(p);
			break;
		case CompState::done:
			break;
		}
		if (unlikely(ctx_.debug_))
			ROCE_LOG(DEBUG, "qp 0x%06x psn 0x%06x completer %s -> %s", qpn_,
				 pkt.bth.psn, comp_state_name(s).data(),
				 comp_state_name(next).data());
		s = next;
	}
}

/* Responses are taken by an RC QP in RTS only. */
QpImpl::CompState QpImpl::comp_get_ack(CompPkt &)
{
	if (!is_rc() || state_ != IBV_QPS_RTS) {
		ctx_.counters_.rx_bad_state++;
		return CompState::done;
	}
	return CompState::check_psn;
}

/* A response is for a PSN sent and not fully acknowledged; a READ response or atomic ACK
 * names a WQE still in the send queue (else it is a duplicate of a completed one). */
QpImpl::CompState QpImpl::comp_check_psn(CompPkt &p)
{
	uint32_t psn = p.pkt.bth.psn;
	if (psn_diff(psn, req.sent_end) >= 0) {
		ctx_.counters_.rx_out_of_window++;
		return CompState::done;
	}
	if (p.mask & kOpAck)
		return CompState::check_ack;
	p.wqe = find_wqe(psn, &p.idx);
	if (p.wqe == nullptr) {
		ctx_.counters_.rx_duplicates++; /* already completed */
		return CompState::done;
	}
	return (p.mask & kOpAtomicAck) ? CompState::atomic : CompState::read;
}

/* The AETH says ACK, RNR NAK or NAK (IBA 9.7.5.2.8); a NAK implicitly ACKs every PSN before
 * it (nak_target). */
QpImpl::CompState QpImpl::comp_check_ack(CompPkt &p)
{
	const Packet &pkt = p.pkt;
	switch (pkt.aeth.kind()) {
	case Aeth::Kind::ack:
		ctx_.counters_.acks_rcvd++;
		return CompState::write_send;
	case Aeth::Kind::rnr_nak:
		ctx_.counters_.rnr_naks_rcvd++;
		return nak_target(pkt.bth.psn, p.now, &p.idx) ? CompState::rnr_retry
							      : CompState::done;
	case Aeth::Kind::nak:
		ctx_.counters_.naks_rcvd++;
		if (!nak_target(pkt.bth.psn, p.now, &p.idx))
			return CompState::done;
		if (pkt.aeth.syndrome == kNakSeq)
			return CompState::error_retry;
		p.status = nak_status(pkt.aeth.syndrome);
		return CompState::error;
	default:
		ctx_.counters_.rx_malformed++;
		return CompState::done;
	}
}

/* READ response (IBA 9.7.5.1.4): in order, the length the WQE expects at that offset. A gap
 * (a response lost) re-requests the residual once per progress point. */
QpImpl::CompState QpImpl::comp_read(CompPkt &p)
{
	const Packet &pkt = p.pkt;
	SendWqe *w = p.wqe;
	uint32_t psn = pkt.bth.psn;
	if (w->opcode != IBV_WR_RDMA_READ) {
		ctx_.counters_.rx_bad_opcode++;
		return CompState::done;
	}
	uint32_t k = static_cast<uint32_t>(psn_diff(psn, w->first_psn));
	if (w->done || k < w->resp_pkts) {
		ctx_.counters_.rx_duplicates++;
		return CompState::done;
	}
	if (k > w->resp_pkts) {
		ctx_.counters_.rx_out_of_sequence++;
		if (w->rereq_from != w->resp_pkts) {
			uint32_t miss = psn_add(w->first_psn, w->resp_pkts);
			if (psn_diff(miss, comp.una) <= 0 || process_ack(psn_add(miss, -1), p.now))
				go_back(miss, p.now);
		}
		return CompState::done;
	}
	uint32_t mtu = pmtu();
	bool lastp = k + 1 == w->npkts;
	uint32_t expect = lastp ? w->len - k * mtu : mtu;
	/* FIRST/MIDDLE before the last packet, LAST/ONLY at it: the end bit says which. */
	bool op_ok = lastp == bool(p.mask & kOpEnd);
	if (!op_ok || pkt.payload.size() != expect) {
		ctx_.counters_.rx_malformed++;
		return CompState::done;
	}
	if (psn_diff(psn, comp.una) > 0 && !process_ack(psn_add(psn, -1), p.now))
		return CompState::done;
	scatter(w->seg, w->nseg, k * mtu, pkt.payload);
	w->resp_pkts++;
	retry_reset();
	comp.last_progress = p.now;
	if (!lastp)
		return CompState::update_comp;
	w->done = true;
	return CompState::complete;
}

/* Atomic ACK: the original value into the local 8 bytes (host order; they may span SGEs,
 * post_send checked the length). */
QpImpl::CompState QpImpl::comp_atomic(CompPkt &p)
{
	SendWqe *w = p.wqe;
	uint32_t psn = p.pkt.bth.psn;
	if (!is_read_or_atomic(w->opcode) || w->opcode == IBV_WR_RDMA_READ) {
		ctx_.counters_.rx_bad_opcode++;
		return CompState::done;
	}
	if (w->done) {
		ctx_.counters_.rx_duplicates++;
		return CompState::done;
	}
	if (psn_diff(psn, comp.una) > 0 && !process_ack(psn_add(psn, -1), p.now))
		return CompState::done;
	uint64_t orig = p.pkt.atomic_ack_eth.orig;
	uint8_t bytes[8];
	std::memcpy(bytes, &orig, 8);
	scatter(w->seg, w->nseg, 0, bytes);
	w->done = true;
	return CompState::complete;
}

/* An ACK: SENDs and WRITEs through its PSN are done. */
QpImpl::CompState QpImpl::comp_write_send(CompPkt &)
{
	return CompState::complete;
}

/* A READ response packet placed: the oldest unacknowledged PSN moves past it. */
QpImpl::CompState QpImpl::comp_update_comp(CompPkt &p)
{
	uint32_t next = psn_add(p.pkt.bth.psn, 1);
	if (psn_diff(next, comp.una) > 0) {
		window_on_ack(uint32_t(psn_diff(next, comp.una)));
		comp.una = next;
	}
	return CompState::done;
}

/* Cumulative completion through the PSN (process_ack: the send completions, the window). */
QpImpl::CompState QpImpl::comp_complete(CompPkt &p)
{
	process_ack(p.pkt.bth.psn, p.now);
	return (p.mask & kOpReadResp) ? CompState::update_comp : CompState::done;
}

/* PSN sequence NAK (IBA 9.7.5.2.1): retransmit; a NAK that made no progress spends one retry
 * (nak_target reset the counter if it did), as rxe_comp.c COMPST_ERROR_RETRY, unless a retry
 * already runs: a duplicated or late NAK for it is not a new loss (rxe: started_retry), and
 * the local ACK timeout spends the retries. Without that timeout (timeout 0) every NAK still
 * spends one, or a peer that keeps NAKing would hold the WQE for ever. */
QpImpl::CompState QpImpl::comp_error_retry(CompPkt &p)
{
	if (comp.retry_started && ack_timeout_ns(attr_.timeout) != 0)
		return CompState::done;
	if (comp.retry_left == 0) {
		p.status = IBV_WC_RETRY_EXC_ERR;
		return CompState::error;
	}
	retry_spend(p.pkt.bth.psn, p.now);
	return CompState::done;
}

/* RNR NAK (IBA 9.7.5.2.8): wait the responder's RNR timer, then retry; rnr_retry 7 retries
 * for ever. */
QpImpl::CompState QpImpl::comp_rnr_retry(CompPkt &p)
{
	if (comp.rnr_left == 0) {
		p.status = IBV_WC_RNR_RETRY_EXC_ERR;
		return CompState::error;
	}
	if (attr_.rnr_retry != 7)
		comp.rnr_left--;
	uint32_t psn = p.pkt.bth.psn;
	go_back(psn, p.now);
	comp.rnr_wait = true;
	comp.rnr_psn = psn;
	comp.rnr_until = p.now + uint64_t(rnr_timer_us(p.pkt.aeth.value())) * hz_ / 1000000;
	return CompState::done;
}

/* The WQE the NAK names completes in error and the QP enters the Error state. */
QpImpl::CompState QpImpl::comp_error(CompPkt &p)
{
	fail_send(p.idx, p.status);
	return CompState::done;
}

void QpImpl::requester_timers(uint64_t now)
{
	if (state_ != IBV_QPS_RTS || !is_rc())
		return;
	if (comp.rnr_wait) {
		if (now >= comp.rnr_until) {
			comp.rnr_wait = false;
			go_back(comp.rnr_psn, now);
		}
		return;
	}
	if (psn_diff(req.sent_end, comp.una) <= 0)
		return;
	uint64_t ns = ack_timeout_ns(attr_.timeout);
	if (ns == 0)
		return;
	uint64_t to = ns * hz_ / 1000000000ull;
	if (now - comp.last_progress <= to)
		return;
	/* IBA 9.7.6.1.3: local ACK timeout; retry_cnt retries, then IBV_WC_RETRY_EXC_ERR. */
	ctx_.counters_.timeouts++;
	if (comp.retry_left == 0) {
		uint32_t idx;
		if (find_wqe(comp.una, &idx) != nullptr)
			fail_send(idx, IBV_WC_RETRY_EXC_ERR);
		else
			to_error();
		return;
	}
	retry_spend(comp.una, now);
}

} /* namespace gaudi::roce */
