/* SPDX-License-Identifier: BSD-3-Clause */
/* Responder: executes requests (SEND, WRITE, READ, atomics), duplicates and the READ/atomic
 * resources, ACK coalescing and NAKs, receive completions (rxe_resp.c).
 * API contract: roce_verbs.h; how the parts fit: roce_internal.h. */
#include "roce_ctx.h"
#include "roce_log.h"

#include <algorithm>
#include <cstring>

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
	if (resp.out_tail - resp.out_head >= resp.out.size())
		return nullptr;
	if (resp.out_tail != resp.out_head && k != RespKind::ack) {
		RespItem &prev = resp.out[(resp.out_tail - 1) % resp.out.size()];
		if (prev.kind == RespKind::ack)
			prev.ready =
				true; /* keep PSN order: a held ACK cannot wait behind a response */
	}
	RespItem &it = resp.out[resp.out_tail++ % resp.out.size()];
	it = RespItem{};
	it.kind = k;
	it.msn = resp.msn;
	return &it;
}

void QpImpl::queue_ack(uint32_t psn, bool ready, uint64_t now)
{
	if (resp.out_tail != resp.out_head) {
		RespItem &last = resp.out[(resp.out_tail - 1) % resp.out.size()];
		if (last.kind ==
		    RespKind::ack) { /* coalesce: one cumulative ACK, for the newest PSN */
			if (psn_diff(psn, last.psn) > 0)
				last.psn = psn;
			last.msn = resp.msn;
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
	if ((state_ != IBV_QPS_RTR && state_ != IBV_QPS_RTS) || resp.error_after_resp) {
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
	if (type_ == IBV_QPT_UD)
		rx_ud_request(pkt);
	else
		responder(pkt, now);
}

/* The responder's states for one RC or UC request packet, in the order Linux rxe_resp.c
 * checks a request (enum resp_states): each step returns the next state, rx_request() loops
 * until `done`. A failed check goes to `error` with the answer in RespPkt::nak. */
namespace {
constexpr std::array<std::string_view, size_t(QpImpl::RespState::done) + 1> kRespStateName = {
	"CHK_PSN", "CHK_OP_SEQ", "CHK_OP_VALID", "CHK_RESOURCE", "CHK_LENGTH", "CHK_RKEY",
	"EXECUTE", "COMPLETE",	 "ACKNOWLEDGE",	 "DUPLICATE",	 "ERROR",      "DONE"};
/* One name per state: a state added to the enum alone fails here. */
static_assert(!kRespStateName.back().empty());

std::string_view resp_state_name(QpImpl::RespState s)
{
	return kRespStateName[size_t(s)];
}
} /* namespace */

void QpImpl::responder(const Packet &pkt, uint64_t now)
{
	RespPkt p{pkt, op_mask(pkt.bth.opcode), static_cast<uint32_t>(pkt.payload.size()), now,
		  type_ == IBV_QPT_UC};
	RespState s = RespState::chk_psn;
	while (s != RespState::done) {
		/* A switch, as rxe_resp.c's loop: the steps inline into one function (-Wswitch
		 * names a state left out). */
		RespState next = RespState::done;
		switch (s) {
		case RespState::chk_psn:
			next = resp_chk_psn(p);
			break;
		case RespState::chk_op_seq:
			next = resp_chk_op_seq(p);
			break;
		case RespState::chk_op_valid:
			next = resp_chk_op_valid(p);
			break;
		case RespState::chk_resource:
			next = resp_chk_resource(p);
			break;
		case RespState::chk_length:
			next = resp_chk_length(p);
			break;
		case RespState::chk_rkey:
			next = resp_chk_rkey(p);
			break;
		case RespState::execute:
			next = resp_execute(p);
			break;
		case RespState::complete:
			next = resp_complete(p);
			break;
		case RespState::acknowledge:
			next = resp_acknowledge(p);
			break;
		case RespState::duplicate:
			next = resp_duplicate(p);
			break;
		case RespState::error:
			next = resp_error(p);
			break;
		case RespState::done:
			break;
		}
		if (unlikely(ctx_.debug_))
			ROCE_LOG(DEBUG, "qp 0x%06x psn 0x%06x responder %s -> %s", qpn_,
				 pkt.bth.psn, resp_state_name(s).data(),
				 resp_state_name(next).data());
		s = next;
	}
}

/* RC: IBA 9.7.5.2.1, a PSN ahead is a sequence error (one NAK until the expected PSN
 * arrives), one behind a duplicate. UC (IBA 9.8.3.2.1): lost packets abort the current
 * message and the responder resynchronises on the PSN. */
QpImpl::RespState QpImpl::resp_chk_psn(RespPkt &p)
{
	uint32_t psn = p.pkt.bth.psn;
	if (p.uc) {
		if (psn != resp.epsn) {
			ctx_.counters_.rx_out_of_sequence++;
			resp.in_msg = InMsg::none;
			/* MIDDLE or LAST of a message whose start was lost: dropped. */
			bool continues = (p.mask & (kOpSend | kOpWrite)) && !(p.mask & kOpStart);
			if (continues) {
				resp.epsn = psn_add(psn, 1);
				return RespState::done;
			}
		}
		resp.epsn = psn_add(psn, 1);
		return RespState::chk_op_seq;
	}
	int32_t d = psn_diff(psn, resp.epsn);
	if (d > 0) {
		ctx_.counters_.rx_out_of_sequence++;
		if (!resp.nak_sent) {
			queue_nak(resp.epsn, kNakSeq);
			resp.nak_sent = true;
		}
		return RespState::done;
	}
	return d < 0 ? RespState::duplicate : RespState::chk_op_seq;
}

/* IBA 9.7.5.2.2 / 9.8.3.2.2: MIDDLE/LAST continue a FIRST of the same kind; anything else
 * starts a message. */
QpImpl::RespState QpImpl::resp_chk_op_seq(RespPkt &p)
{
	if ((p.mask & (kOpSend | kOpWrite)) && !(p.mask & kOpStart)) {
		if (((p.mask & kOpSend) && resp.in_msg != InMsg::send) ||
		    ((p.mask & kOpWrite) && resp.in_msg != InMsg::write))
			return RespState::error;
	} else if (resp.in_msg != InMsg::none) {
		return RespState::error;
	}
	return RespState::chk_op_valid;
}

/* SEND and WRITE on RC and UC, READ and atomics on RC; FLUSH, ATOMIC_WRITE: not supported. */
QpImpl::RespState QpImpl::resp_chk_op_valid(RespPkt &p)
{
	if ((p.mask & (kOpSend | kOpWrite)) || (!p.uc && (p.mask & (kOpRead | kOpAtomic))))
		return RespState::chk_resource;
	return RespState::error;
}

/* A receive WQE for a SEND (taken at its first packet) or a WRITE with immediate, else RNR
 * NAK. A READ or atomic always gets a responder resource, the oldest recycled (save_resource):
 * keeping within max_dest_rd_atomic is the requester's job (rxe check_resource). Only
 * max_dest_rd_atomic 0 refuses them (rxe RESPST_ERR_TOO_MANY_RDMA_ATM_REQ, IBA class C:
 * Invalid Request NAK). Counting the responses still queued refused a READ while a late
 * duplicate's replay of an already completed READ was being sent (issue 24). */
QpImpl::RespState QpImpl::resp_chk_resource(RespPkt &p)
{
	bool needs_wqe = ((p.mask & kOpSend) && (p.mask & kOpStart)) ||
			 ((p.mask & kOpWrite) && (p.mask & kOpImm));
	if (needs_wqe && recv_wqe() == nullptr) {
		p.nak = kSynRnrNak | (attr_.min_rnr_timer & 0x1F);
		return RespState::error;
	}
	if ((p.mask & (kOpRead | kOpAtomic)) && attr_.max_dest_rd_atomic == 0) {
		ctx_.counters_.rd_atomic_overflow++;
		return RespState::error;
	}
	return RespState::chk_length;
}

/* FIRST/MIDDLE carry exactly the PMTU, LAST 1..PMTU, ONLY 0..PMTU (IBA 9.7.5.2.3); a WRITE
 * places no more and, at its end, no less than its RETH said; atomics are 8-byte aligned. */
QpImpl::RespState QpImpl::resp_chk_length(RespPkt &p)
{
	uint32_t mtu = pmtu(), n = p.n;
	bool start = p.mask & kOpStart, end = p.mask & kOpEnd;
	if ((p.mask & (kOpSend | kOpWrite)) &&
	    ((!end && n != mtu) || (end && !start && (n == 0 || n > mtu)) ||
	     (start && end && n > mtu)))
		return RespState::error;
	if (p.mask & kOpWrite) {
		uint64_t off = start ? 0 : resp.msg_off;
		uint64_t len = start ? p.pkt.reth.dma_len : resp.wr_len;
		if (off + n > len || (end && off + n != len))
			return RespState::error;
	}
	if ((p.mask & kOpAtomic) && (p.pkt.atomic_eth.va & 7))
		return RespState::error;
	return RespState::chk_rkey;
}

/* The R_Key names a valid MR of the QP's PD holding the range with the access asked (IBA
 * 10.6.3.2), else Remote Access Error NAK; a SEND with Invalidate names an MR of this PD. */
QpImpl::RespState QpImpl::resp_chk_rkey(RespPkt &p)
{
	const Packet &pkt = p.pkt;
	bool bad = false;
	if ((p.mask & kOpWrite) && (p.mask & kOpStart) && pkt.reth.dma_len != 0)
		bad = check_remote(pkt.reth.rkey, pkt.reth.va, pkt.reth.dma_len,
				   IBV_ACCESS_REMOTE_WRITE) == nullptr;
	else if ((p.mask & kOpRead) && pkt.reth.dma_len != 0)
		bad = check_remote(pkt.reth.rkey, pkt.reth.va, pkt.reth.dma_len,
				   IBV_ACCESS_REMOTE_READ) == nullptr;
	else if (p.mask & kOpAtomic)
		bad = check_remote(pkt.atomic_eth.rkey, pkt.atomic_eth.va, 8,
				   IBV_ACCESS_REMOTE_ATOMIC) == nullptr;
	if (bad) {
		p.nak = kNakRemAccess;
		return RespState::error;
	}
	if (p.mask & kOpInv) {
		p.inv_mr = ctx_.lookup_mr(pkt.ieth_rkey);
		if (p.inv_mr == nullptr || &p.inv_mr->pd_ != &pd_)
			return RespState::error;
	}
	return RespState::execute;
}

/* Places the payload (SEND, WRITE) or queues the answer (READ responses, atomic ACK). */
QpImpl::RespState QpImpl::resp_execute(RespPkt &p)
{
	const Packet &pkt = p.pkt;
	if (p.mask & kOpSend) {
		RecvWqe &r = *recv_wqe();
		if (p.mask & kOpStart)
			resp.msg_off = 0;
		if (!scatter(r.seg, r.nseg, resp.msg_off, pkt.payload)) {
			/* Local length error at the responder: Invalid Request NAK. */
			complete_recv(r, IBV_WC_LOC_LEN_ERR, IBV_WC_RECV, resp.msg_off + p.n, 0, 0,
				      0, 0);
			recv_consumed();
			resp.in_msg = InMsg::none;
			return RespState::error;
		}
		resp.msg_off += p.n;
		if (!(p.mask & kOpEnd)) {
			resp.in_msg = InMsg::send;
			return RespState::acknowledge;
		}
		return RespState::complete;
	}
	if (p.mask & kOpWrite) {
		if (p.mask & kOpStart) {
			resp.wr_va = pkt.reth.va;
			resp.wr_len = pkt.reth.dma_len;
			resp.msg_off = 0;
		}
		if (p.n)
			std::memcpy(reinterpret_cast<void *>(
					    static_cast<uintptr_t>(resp.wr_va + resp.msg_off)),
				    pkt.payload.data(), p.n);
		resp.msg_off += p.n;
		resp.in_msg = (p.mask & kOpEnd) ? InMsg::none : InMsg::write;
		return RespState::complete;
	}
	RespItem *it = push_resp((p.mask & kOpRead) ? RespKind::read : RespKind::atomic_ack);
	if (it == nullptr) {
		p.nak = kNakDrop; /* no room: drop silently, the requester retries */
		return RespState::error;
	}
	if (p.mask & kOpRead) {
		uint32_t mtu = pmtu();
		resp.msn = psn_add(resp.msn, 1);
		it->msn = resp.msn;
		it->psn = pkt.bth.psn;
		it->va = pkt.reth.va;
		it->len = pkt.reth.dma_len;
		it->total_pkts = std::max<uint32_t>(1, (pkt.reth.dma_len + mtu - 1) / mtu);
		resp.rd_last_req = p.now;
		rd_confirm_oldest();
		it->res = uint8_t(resp.rd_res_next);
		save_resource({true, true, pkt.bth.psn, psn_add(pkt.bth.psn, it->total_pkts - 1),
			       pkt.reth.va, pkt.reth.dma_len, pkt.reth.rkey, 0, 0, false});
		return RespState::acknowledge;
	}
	/* Atomics, IBA 9.4.5. */
	auto *v = reinterpret_cast<uint64_t *>(static_cast<uintptr_t>(pkt.atomic_eth.va));
	uint64_t orig = *v;
	if (p.mask & kOpCmpSwap) {
		if (orig == pkt.atomic_eth.compare)
			*v = pkt.atomic_eth.swap_add;
	} else {
		*v = orig + pkt.atomic_eth.swap_add;
	}
	/* Saved for duplicates: a retried atomic must not execute twice (IBA 9.7.5.3). */
	save_resource({true, false, pkt.bth.psn, pkt.bth.psn, 0, 0, 0, orig, 0, false});
	resp.msn = psn_add(resp.msn, 1);
	it->msn = resp.msn;
	it->psn = pkt.bth.psn;
	it->orig = orig;
	return RespState::acknowledge;
}

/* The end of a SEND or WRITE: the receive completion (and the invalidation, IBA 10.6.5) for
 * what consumes a receive WQE, the MSN for a finished message. */
QpImpl::RespState QpImpl::resp_complete(RespPkt &p)
{
	const Packet &pkt = p.pkt;
	if (p.mask & kOpSend) {
		RecvWqe &r = *recv_wqe();
		unsigned flags = (p.mask & kOpImm) ? IBV_WC_WITH_IMM : 0;
		uint32_t inv_rkey = 0;
		if (p.mask & kOpInv) {
			p.inv_mr->valid_ = false;
			flags |= IBV_WC_WITH_INV;
			inv_rkey = pkt.ieth_rkey;
		}
		complete_recv(r, IBV_WC_SUCCESS, IBV_WC_RECV, resp.msg_off, flags, pkt.imm,
			      inv_rkey, 0);
		recv_consumed();
		resp.in_msg = InMsg::none;
		resp.msn = psn_add(resp.msn, 1);
		return RespState::acknowledge;
	}
	if (p.mask & kOpRecv) { /* WRITE with immediate */
		RecvWqe &r = *recv_wqe();
		complete_recv(r, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM, resp.wr_len,
			      IBV_WC_WITH_IMM, pkt.imm, 0, 0);
		recv_consumed();
	}
	if (p.mask & kOpEnd)
		resp.msn = psn_add(resp.msn, 1);
	return RespState::acknowledge;
}

/* RC: the expected PSN moves past the request (a READ past all its response PSNs); SEND and
 * WRITE get a coalesced ACK, READ and atomics are answered by their responses. */
QpImpl::RespState QpImpl::resp_acknowledge(RespPkt &p)
{
	if (p.uc)
		return RespState::done;
	resp.nak_sent = false;
	if (p.mask & kOpRead) {
		RespItem &it = resp.out[(resp.out_tail - 1) % resp.out.size()];
		resp.epsn = psn_add(resp.epsn, it.total_pkts);
		return RespState::done;
	}
	resp.epsn = psn_add(resp.epsn, 1);
	if (p.mask & kOpAtomic)
		return RespState::done;
	resp.pkts_since_ack++;
	queue_ack(p.pkt.bth.psn, p.pkt.bth.ack_req || resp.pkts_since_ack >= tuning_.ack_every,
		  p.now);
	return RespState::done;
}

QpImpl::RespState QpImpl::resp_duplicate(RespPkt &p)
{
	rx_rc_duplicate(p.pkt, p.now);
	return RespState::done;
}

/* UC drops the rest of the message. RC: an RNR NAK consumes nothing (later packets of the
 * message are dropped silently); an Invalid Request or Remote Access NAK is followed by the
 * Error state (IBA 9.9.3.1.2 responder class C/D errors). */
QpImpl::RespState QpImpl::resp_error(RespPkt &p)
{
	if (p.uc) {
		if (is_rnr(p.nak))
			ctx_.counters_.rx_no_recv_wqe++;
		else
			ctx_.counters_.rx_bad_opcode++;
		resp.in_msg = InMsg::none;
		return RespState::done;
	}
	if (p.nak == kNakDrop)
		return RespState::done;
	bool rnr = is_rnr(p.nak);
	if (rnr)
		ctx_.counters_.rnr_naks_sent++;
	queue_nak(p.pkt.bth.psn, p.nak);
	resp.nak_sent = true;
	if (!rnr)
		resp.error_after_resp = true;
	return RespState::done;
}

QpImpl::RdResource *QpImpl::find_resource(uint32_t psn)
{
	for (uint32_t i = 0; i < attr_.max_dest_rd_atomic; i++) {
		RdResource &r = resp.rd_res[i];
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
	rd_forget(resp.rd_res[resp.rd_res_next % attr_.max_dest_rd_atomic]);
	resp.rd_res[resp.rd_res_next % attr_.max_dest_rd_atomic] = r;
	resp.rd_res_next = (resp.rd_res_next + 1) % attr_.max_dest_rd_atomic;
}

/* READ response window (QpTuning::read_stall_us). */

void QpImpl::rd_window_reset()
{
	resp.rd_cwnd = std::max(tuning_.initial_window_pkts, tuning_.min_window_pkts);
	resp.rd_ssthresh = tuning_.max_inflight_pkts;
	resp.rd_cwnd_acc = resp.rd_flight = 0;
	resp.rd_loss_armed = true;
}

bool QpImpl::rd_window_allows(const RdResource &r, uint64_t now)
{
	if (tuning_.initial_window_pkts == 0 || resp.rd_flight == r.flight ||
	    resp.rd_flight < std::min(resp.rd_cwnd, tuning_.max_inflight_pkts))
		return true; /* off, the oldest READ in flight, or room in the window */
	if (now - resp.rd_last_req < uint64_t(tuning_.read_stall_us) * hz_ / 1000000)
		return false;
	/* No READ request for a while: the requester has what was sent or will re-request it;
	 * waiting longer would only stall its last READs until its ACK timeout. */
	for (uint32_t i = 0; i < attr_.max_dest_rd_atomic; i++)
		resp.rd_res[i].flight = 0;
	resp.rd_flight = 0;
	return true;
}

void QpImpl::rd_forget(RdResource &r)
{
	resp.rd_flight -= std::min(r.flight, resp.rd_flight);
	r.flight = 0;
}

void QpImpl::rd_confirm_oldest()
{
	/* A new READ: the requester completed one, the oldest answered in full (rxe sends a READ
	 * beyond max_rd_atomic only after one completed). Its packets arrived: the window opens
	 * by them (slow start up to resp.rd_ssthresh, then one per window, as window_on_ack). */
	uint32_t n = attr_.max_dest_rd_atomic;
	for (uint32_t j = 0; j < n; j++) {
		RdResource &r = resp.rd_res[(resp.rd_res_next + j) % n];
		if (!r.valid || !r.read || r.flight == 0)
			continue;
		if (!r.sent_all)
			return;
		uint32_t pkts = r.flight;
		rd_forget(r);
		resp.rd_loss_armed = true;
		if (resp.rd_cwnd < resp.rd_ssthresh) {
			resp.rd_cwnd = std::min(resp.rd_cwnd + pkts, resp.rd_ssthresh);
			return;
		}
		resp.rd_cwnd_acc += pkts;
		if (resp.rd_cwnd_acc >= resp.rd_cwnd) {
			resp.rd_cwnd_acc -= resp.rd_cwnd;
			resp.rd_cwnd = std::min(resp.rd_cwnd + 1, tuning_.max_inflight_pkts);
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
		if (resp.rd_res[i].valid && resp.rd_res[i].read &&
		    psn_diff(resp.rd_res[i].first_psn, r.first_psn) >= 0) {
			resp.rd_res[i].sent_all = false;
			rd_forget(resp.rd_res[i]);
		}
	if (resp.rd_loss_armed || psn_diff(r.first_psn, resp.rd_dup_psn) <= 0) {
		resp.rd_ssthresh = std::max(resp.rd_cwnd / 2, tuning_.min_window_pkts);
		resp.rd_cwnd = resp.rd_ssthresh;
		resp.rd_cwnd_acc = 0;
		resp.rd_loss_armed = false;
	}
	resp.rd_dup_psn = r.first_psn;
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
		for (uint32_t i = resp.out_head; i != resp.out_tail; i++) {
			RespItem &o = resp.out[i % resp.out.size()];
			if (o.kind == RespKind::read &&
			    psn_diff(psn_add(o.psn, o.total_pkts), psn) > 0)
				o.total_pkts = o.sent_pkts;
		}
		resp.rd_last_req = now;
		rd_on_duplicate(*res);
		RespItem *it = push_resp(RespKind::read);
		if (it == nullptr)
			return;
		uint32_t mtu = pmtu();
		it->res = uint8_t(res - resp.rd_res.data());
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
	while (sent < budget && resp.out_head != resp.out_tail) {
		RespItem &it = resp.out[resp.out_head % resp.out.size()];
		Packet pkt;
		switch (it.kind) {
		case RespKind::ack:
		case RespKind::nak:
			if (it.kind == RespKind::ack && !it.ready && now < it.deadline &&
			    resp.pkts_since_ack < tuning_.ack_every)
				/* coalescing: wait for more packets or the ACK timer */
				return sent;
			pkt = make_packet(Opcode::RC_ACKNOWLEDGE);
			fill_headers(pkt, attr_.ah_attr, attr_.dest_qp_num, it.psn);
			pkt.aeth = {it.syndrome, it.msn};
			if (!ctx_.emit(this, pkt))
				return sent;
			if (it.kind == RespKind::ack) {
				ctx_.counters_.acks_sent++;
				resp.pkts_since_ack = 0;
			} else if (is_rnr(it.syndrome)) {
				/* counted when queued */
			} else {
				ctx_.counters_.naks_sent++;
			}
			resp.out_head++;
			break;
		case RespKind::atomic_ack:
			pkt = make_packet(Opcode::RC_ATOMIC_ACKNOWLEDGE);
			fill_headers(pkt, attr_.ah_attr, attr_.dest_qp_num, it.psn);
			pkt.aeth = {0, it.msn};
			pkt.atomic_ack_eth.orig = it.orig;
			if (!ctx_.emit(this, pkt))
				return sent;
			resp.out_head++;
			break;
		case RespKind::read: {
			if (it.sent_pkts >= it.total_pkts) {
				resp.out_head++;
				continue;
			}
			uint32_t mtu = pmtu();
			uint32_t k = it.sent_pkts;
			uint32_t n = std::min(mtu, it.len);
			RdResource &res = resp.rd_res[it.res];
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
			resp.rd_flight++;
			if (it.sent_pkts == it.total_pkts) {
				res.sent_all = true;
				resp.out_head++;
			}
			break;
		}
		}
		sent++;
	}
	if (resp.out_head == resp.out_tail && resp.error_after_resp) {
		resp.error_after_resp = false;
		to_error();
	}
	return sent;
}

} /* namespace gaudi::roce */
