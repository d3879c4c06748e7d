/* SPDX-License-Identifier: BSD-3-Clause */
/* Requester: turns send WQEs into request packets -- opcodes, headers, AckReq, the PSN
 * window, max_rd_atomic (rxe_req.c).
 * API contract: roce_verbs.h; how the parts fit: roce_internal.h. */
#include "roce_ctx.h"

#include <algorithm>

namespace gaudi::roce {

void QpImpl::fill_headers(Packet &pkt, const AddressVector &av, uint32_t dest_qpn, uint32_t psn)
{
	pkt.eth.dst = av.mac;
	pkt.eth.src = ctx_.mac_;
	uint8_t ecn = tuning_.ecn ? kEcnEct0 : 0; /* A17.9: senders mark ECT */
	uint32_t fl = av.flow_label ? (av.flow_label & 0xFFFFF) : calc_flow_label(qpn_, dest_qpn);
	uint8_t hop = av.hop_limit > 1 ? av.hop_limit : ctx_.cfg_.hop_limit;
	if (ctx_.v4_) {
		pkt.ip_version = IpVersion::v4;
		pkt.ip4.tos = static_cast<uint8_t>((av.traffic_class & 0xFC) | ecn);
		pkt.ip4.ttl = hop;
		pkt.ip4.id = ctx_.ip_id_++;
		pkt.ip4.src = ctx_.gid_.ipv4();
		pkt.ip4.dst = av.gid.ipv4();
	} else {
		pkt.ip_version = IpVersion::v6;
		pkt.ip6.traffic_class = static_cast<uint8_t>((av.traffic_class & 0xFC) | ecn);
		pkt.ip6.flow_label = fl;
		pkt.ip6.hop_limit = hop;
		pkt.ip6.src = ctx_.gid_.raw;
		pkt.ip6.dst = av.gid.raw;
	}
	/* Annex A17.5.1 / rdma_flow_label_to_udp_sport: per-flow entropy keeps a QP on one path. */
	pkt.udp.src_port = flow_label_to_udp_sport(fl);
	pkt.bth.pkey = ctx_.cfg_.pkey_table[attr_.pkey_index];
	pkt.bth.dest_qp = dest_qpn;
	pkt.bth.psn = psn & kPsnMask;
}

bool QpImpl::tx_one_request(SendWqe &w, uint32_t k, uint64_t now)
{
	uint32_t mtu = pmtu();
	bool uc = type_ == IBV_QPT_UC;
	bool first = k == 0, last = k + 1 == w.npkts;
	uint32_t off = 0, n = 0;
	const WrOpInfo &wi = wr_op_info(w.opcode);
	if (wi.qp_types == 0)
		return false;
	Opcode op = type_ == IBV_QPT_UD ? wi.ud_only
		    : first && last	? wi.only
		    : first		? wi.first
		    : !last		? wi.middle
					: wi.last;
	bool data = wi.data;
	if (uc)
		op = uc_opcode(op);
	if (data) {
		off = k * mtu;
		n = std::min(mtu, w.len - off);
	}
	if (!rate_allows(n + kMaxHdr, now))
		return false;
	Packet pkt = make_packet(op);
	if (type_ == IBV_QPT_UD) {
		fill_headers(pkt, w.ah->attr(), w.remote_qpn, w.first_psn);
		pkt.deth.qkey = w.remote_qkey;
		pkt.deth.src_qp = qpn_;
	} else {
		fill_headers(pkt, attr_.ah_attr, attr_.dest_qp_num, psn_add(w.first_psn, k));
	}
	/* IBA 9.7.2: an ACK per message, and one at least every ack_req_every packets so that a
	 * long message never fills the PSN window without one asked for (an rxe responder ACKs
	 * only packets with AckReq).
	 * Within the congestion window: one ACK asked for per half window keeps the ACK clock
	 * running (rxe's responder answers only those). */
	uint32_t every = std::max<uint32_t>(1, std::min(tuning_.ack_req_every, window() / 2));
	bool ack_req = type_ == IBV_QPT_RC && (last || !data || req.noack_pkts + 1 >= every);
	pkt.bth.ack_req = ack_req;
	pkt.bth.se = last && w.solicited;
	pkt.imm = w.imm;
	pkt.ieth_rkey = w.inv_rkey;
	if (has_ext(pkt.ext_mask, Ext::RETH)) {
		if (w.opcode == IBV_WR_RDMA_READ) {
			/* A re-request after lost responses asks only for the residual (rxe 030e46e495af). */
			uint64_t done = uint64_t(w.resp_pkts) * mtu;
			pkt.reth = {w.raddr + done, w.rkey,
				    static_cast<uint32_t>(w.len - std::min<uint64_t>(done, w.len))};
			pkt.bth.psn = psn_add(w.first_psn, w.resp_pkts);
			w.rereq_from = w.resp_pkts;
		} else {
			pkt.reth = {w.raddr, w.rkey, w.len};
		}
	}
	if (has_ext(pkt.ext_mask, Ext::AtomicETH)) {
		if (w.opcode == IBV_WR_ATOMIC_CMP_AND_SWP)
			pkt.atomic_eth = {w.raddr, w.rkey, w.swap, w.cmp};
		else
			pkt.atomic_eth = {w.raddr, w.rkey, w.cmp, 0};
	}
	if (n > 0) {
		const uint8_t *p;
		if (w.nseg == 1) {
			p = w.seg[0].addr + off;
		} else {
			gather(w.seg, w.nseg, off, n, ctx_.scratch_.data());
			p = ctx_.scratch_.data();
		}
		pkt.payload = {p, n};
	}
	if (!ctx_.emit(this, pkt))
		return false;
	req.noack_pkts = ack_req ? 0 : req.noack_pkts + 1;
	return true;
}

void QpImpl::window_reset()
{
	req.cwnd = std::max(tuning_.initial_window_pkts, tuning_.min_window_pkts);
	req.ssthresh = tuning_.max_inflight_pkts;
	req.cwnd_acc = 0;
}

void QpImpl::window_on_ack(uint32_t pkts)
{
	if (req.cwnd < req.ssthresh) { /* slow start: one more per packet acknowledged */
		req.cwnd = std::min(req.cwnd + pkts, req.ssthresh);
		return;
	}
	req.cwnd_acc += pkts; /* congestion avoidance: one more per window acknowledged */
	if (req.cwnd_acc >= req.cwnd) {
		req.cwnd_acc -= req.cwnd;
		req.cwnd = std::min(req.cwnd + 1, tuning_.max_inflight_pkts);
	}
}

void QpImpl::window_on_loss()
{
	/* RFC 5681 (4): ssthresh to half the packets in flight, the window to it. */
	uint32_t flight = uint32_t(std::max<int32_t>(psn_diff(req.sent_end, comp.una), 0));
	req.ssthresh = std::max(std::min(req.cwnd, flight) / 2, tuning_.min_window_pkts);
	req.cwnd = req.ssthresh;
	req.cwnd_acc = 0;
}

unsigned QpImpl::tx_requests(uint64_t now, unsigned budget)
{
	if (state_ != IBV_QPS_RTS || comp.rnr_wait)
		return 0;
	unsigned sent = 0;
	while (sent < budget && req.cur != sq_head_) {
		SendWqe &w = sq_[req.cur & sq_mask_];
		if (w.oversize) {
			ctx_.counters_.ud_oversize++;
			complete_send(w, IBV_WC_SUCCESS);
			req.cur++;
			sq_tail_++;
			continue;
		}
		bool ra = is_read_or_atomic(w.opcode);
		if (is_rc() && ra && w.done) { /* already answered: never ask twice */
			req.cur++;
			req.cur_pkt = 0;
			continue;
		}
		uint32_t k = ra ? (w.opcode == IBV_WR_RDMA_READ ? w.resp_pkts : 0) : req.cur_pkt;
		uint32_t psn = psn_add(w.first_psn, k);
		if (is_rc()) {
			if (psn_diff(psn, comp.una) >= int32_t(window()))
				break;
			if (ra) { /* IBA 9.7.7.2.1 (max_rd_atomic): outstanding READ/atomic limit */
				uint32_t outstanding = 0;
				for (uint32_t i = sq_tail_; i != req.cur; i++) {
					const SendWqe &o = sq_[i & sq_mask_];
					outstanding += is_read_or_atomic(o.opcode) && !o.done;
				}
				if (outstanding >= attr_.max_rd_atomic)
					break;
			}
		}
		if (!tx_one_request(w, k, now))
			break;
		sent++;
		if (is_rc()) {
			if (psn_diff(req.sent_end, comp.una) == 0)
				comp.last_progress =
					now; /* timer starts with the first outstanding packet */
			uint32_t end = ra ? psn_add(w.first_psn, w.npkts) : psn_add(psn, 1);
			if (psn_diff(end, req.sent_end) > 0)
				req.sent_end = end;
		}
		if (ra || ++req.cur_pkt == w.npkts) {
			req.cur++;
			req.cur_pkt = 0;
			if (!is_rc()) { /* UC/UD complete once sent (IBA 10.8.3.1: unreliable) */
				complete_send(w, IBV_WC_SUCCESS);
				sq_tail_++;
			}
		}
	}
	return sent;
}

} /* namespace gaudi::roce */
