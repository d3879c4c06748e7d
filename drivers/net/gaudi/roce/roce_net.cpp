/* SPDX-License-Identifier: BSD-3-Clause */
/* Network TX/RX path: ethdev bursts, building and parsing frames, dispatch to the QPs,
 * ARP/ND through roce_neigh, the progress engine poll() (rxe_net.c / rxe_recv.c).
 * API contract: roce_verbs.h; how the parts fit: roce_internal.h.
 *
 * Structure: Context::poll() = RX burst -> parse (roce_framing) -> per-QP dispatch
 * (requests to the responder half, ACK/READ responses/atomic ACKs to the requester half,
 * CNPs to the DCQCN reaction point) -> held (delayed/reordered) packets -> timers ->
 * per-QP TX (responder output queue first, then requester packets) -> tx_burst.
 * Reliability (RC) is go-back-N as in IBA 9.7: cumulative ACKs, PSN-sequence NAKs,
 * local ACK timeout, RNR NAK backoff, responder duplicate detection. */
#include "roce_ctx.h"
#include "roce_log.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include <rte_cycles.h>
#include <rte_ethdev.h>

namespace gaudi::roce {

void ContextImpl::tx_flush()
{
	if (tx_count_ == 0)
		return;
	uint16_t n =
		rte_eth_tx_burst(cfg_.port_id, cfg_.queue_id, tx_buf_.data(),
				 static_cast<uint16_t>(std::min<uint32_t>(tx_count_, UINT16_MAX)));
	if (n < tx_count_)
		std::memmove(tx_buf_.data(), tx_buf_.data() + n,
			     (tx_count_ - n) * sizeof(rte_mbuf *));
	tx_count_ -= n;
}

bool ContextImpl::tx_reserve()
{
	if (tx_count_ + 2 > tx_buf_.size()) /* 2: room for a hook duplicate */
		tx_flush();
	return tx_count_ + 2 <= tx_buf_.size();
}

rte_mbuf *ContextImpl::alloc_frame()
{
	rte_mbuf *m = rte_pktmbuf_alloc(cfg_.tx_pool);
	if (m == nullptr)
		counters_.tx_no_mbuf++;
	return m;
}

void ContextImpl::tx_push(rte_mbuf *m)
{
	tx_buf_[tx_count_++] = m;
	counters_.tx_frames++;
	counters_.tx_bytes += m->pkt_len;
}

/* The one place a built frame enters the TX staging: through the research filter when the QP
 * has faults set (roce_hooks.cpp), into the packet log, then into the burst. */
void ContextImpl::queue_tx(QpImpl *qp, rte_mbuf *m, const Packet &pkt)
{
	std::string_view fate;
	if (qp != nullptr && qp->faults_on_ && tx_hook(qp, m, pkt, fate) == HookVerdict::consumed)
		return;
	log(true, pkt, qp ? qp->qpn_ : 0, m->pkt_len, fate);
	tx_push(m);
}

bool ContextImpl::emit(QpImpl *qp, Packet &pkt)
{
	if (!tx_reserve())
		return false;
	rte_mbuf *m = alloc_frame();
	if (m == nullptr)
		return false;
	BuildResult r = build(pkt, {rte_pktmbuf_mtod(m, uint8_t *), rte_pktmbuf_tailroom(m)});
	if (!r) {
		rte_pktmbuf_free(m);
		counters_.tx_no_mbuf++;
		return false;
	}
	m->data_len = static_cast<uint16_t>(r.len);
	m->pkt_len = static_cast<uint32_t>(r.len);
	queue_tx(qp, m, pkt);
	return true;
}

bool ContextImpl::send_raw(std::span<const uint8_t> frame)
{
	if (!tx_reserve())
		return false;
	rte_mbuf *m = alloc_frame();
	if (m == nullptr)
		return false;
	if (rte_pktmbuf_tailroom(m) < frame.size()) {
		rte_pktmbuf_free(m);
		return false;
	}
	std::memcpy(rte_pktmbuf_mtod(m, uint8_t *), frame.data(), frame.size());
	m->data_len = static_cast<uint16_t>(frame.size());
	m->pkt_len = static_cast<uint32_t>(frame.size());
	tx_push(m);
	counters_.tx_neighbour++;
	return true;
}

int ContextImpl::send_gsi(const AddressVector &av, uint32_t dest_qpn, std::span<const uint8_t> mad)
{
	Packet p = make_packet(Opcode::UD_SEND_ONLY);
	p.eth.dst = av.mac;
	p.eth.src = mac_;
	uint32_t fl =
		av.flow_label ? (av.flow_label & 0xFFFFF) : calc_flow_label(kGsiQpn, dest_qpn);
	uint8_t hop = av.hop_limit > 1 ? av.hop_limit : cfg_.hop_limit;
	if (v4_) {
		p.ip_version = IpVersion::v4;
		p.ip4.tos = av.traffic_class & 0xFC;
		p.ip4.ttl = hop;
		p.ip4.id = ip_id_++;
		p.ip4.src = gid_.ipv4();
		p.ip4.dst = av.gid.ipv4();
	} else {
		p.ip_version = IpVersion::v6;
		p.ip6.traffic_class = av.traffic_class & 0xFC;
		p.ip6.flow_label = fl;
		p.ip6.hop_limit = hop;
		p.ip6.src = gid_.raw;
		p.ip6.dst = av.gid.raw;
	}
	p.udp.src_port = flow_label_to_udp_sport(fl);
	p.bth.pkey = 0xFFFF; /* the default partition, as rxe's GSI sends */
	p.bth.dest_qp = dest_qpn;
	p.bth.psn = gsi_psn_++ & kPsnMask;
	p.deth.qkey = kGsiQkey;
	p.deth.src_qp = kGsiQpn;
	p.payload = mad;
	if (!emit(nullptr, p))
		return -ENOBUFS;
	tx_flush(); /* a MAD goes out now, not at the next poll(): the CM is called between polls */
	counters_.tx_gsi++;
	return 0;
}

int ContextImpl::resolve(const Gid &peer, MacAddr &mac)
{
	if (neigh_ == nullptr)
		return -ENOTSUP;
	if (peer.is_ipv4() != v4_)
		return -EINVAL;
	if (neigh_->lookup(peer, mac))
		return 0;
	uint64_t now = rte_get_timer_cycles();
	if (last_solicit_ == 0 || !(last_solicit_gid_ == peer) || now - last_solicit_ >= hz_ / 10) {
		std::array<uint8_t, Neighbour::kMaxFrameLen> req;
		size_t n = neigh_->build_request(peer, req);
		if (n != 0 && send_raw({req.data(), n})) {
			tx_flush();
			last_solicit_ = now;
			last_solicit_gid_ = peer;
		}
	}
	return -EAGAIN;
}

void ContextImpl::rx_frame(rte_mbuf *m, bool from_hold)
{
	counters_.rx_frames += from_hold ? 0 : 1;
	uint8_t *data;
	uint32_t len = m->pkt_len;
	if (m->nb_segs == 1) {
		data = rte_pktmbuf_mtod(m, uint8_t *);
	} else {
		if (len > rx_linear_.size()) {
			counters_.rx_malformed++;
			rte_pktmbuf_free(m);
			return;
		}
		data = const_cast<uint8_t *>(static_cast<const uint8_t *>(
			rte_pktmbuf_read(m, 0, len, rx_linear_.data())));
	}
	Packet pkt;
	ParseError e = parse({data, len}, pkt, parse_stats_);
	if (e != ParseError::ok) {
		if (is_not_roce(e) && neigh_ != nullptr) {
			std::array<uint8_t, Neighbour::kMaxFrameLen> reply;
			size_t rlen = 0;
			Neighbour::Result r = neigh_->input({data, len}, reply, rlen);
			if (r != Neighbour::Result::not_neighbour) {
				counters_.rx_neighbour++;
				if (r == Neighbour::Result::reply)
					send_raw({reply.data(), rlen});
				rte_pktmbuf_free(m);
				return;
			}
		}
		if (is_not_roce(e))
			counters_.rx_not_roce++;
		else if (e == ParseError::icrc_mismatch)
			counters_.rx_icrc_errors++;
		else
			counters_.rx_malformed++;
		rte_pktmbuf_free(m);
		return;
	}
	bool mine = pkt.ip_version == (v4_ ? IpVersion::v4 : IpVersion::v6) &&
		    (v4_ ? pkt.ip4.dst == gid_.ipv4() : pkt.ip6.dst == gid_.raw);
	if (!mine) {
		counters_.rx_not_for_us++;
		rte_pktmbuf_free(m);
		return;
	}
	if (pkt.bth.dest_qp == kGsiQpn) {
		/* QP1: MADs for the CM. Anything but a UD SEND with the GSI Q_Key is dropped here
		 * (IBA 13.5.1: QP1 is a UD QP; GMPs carry the well-known GSI Q_Key). */
		if (gsi_fn_ && pkt.bth.opcode == u8(Opcode::UD_SEND_ONLY) &&
		    pkt.deth.qkey == kGsiQkey) {
			log(false, pkt, kGsiQpn, len, "");
			counters_.rx_gsi++;
			gsi_fn_(pkt);
		} else {
			log(false, pkt, 0, len, "gsi-drop");
			counters_.rx_gsi_dropped++;
		}
		rte_pktmbuf_free(m);
		return;
	}
	uint32_t slot = pkt.bth.dest_qp - kQpnBase;
	QpImpl *qp = slot < qps_.size() ? qps_[slot] : nullptr;
	if (qp == nullptr) {
		log(false, pkt, 0, len, "no-qp");
		counters_.rx_unknown_qp++;
		rte_pktmbuf_free(m);
		return;
	}
	unsigned copies = 1;
	if (!from_hold && qp->faults_on_) {
		HookVerdict v = rx_hook(qp, m, data, len, pkt);
		if (v == HookVerdict::consumed)
			return; /* dropped, counted as corrupt or held back by a research hook */
		copies = v == HookVerdict::pass_twice ? 2 : 1;
	}
	log(false, pkt, qp->qpn_, len, copies == 2 ? "dup" : "");
	uint8_t ecn = pkt.ip_version == IpVersion::v4 ? (pkt.ip4.tos & kEcnMask)
						      : (pkt.ip6.traffic_class & kEcnMask);
	uint64_t now = rte_get_timer_cycles();
	uint8_t op = pkt.bth.opcode;
	for (unsigned c = 0; c < copies; c++) {
		if (op == u8(Opcode::CNP)) {
			counters_.cnps_rcvd++;
			qp->rate_on_cnp(now);
			continue;
		}
		if (ecn == kEcnCe && c == 0) {
			/* Notification point (A17.9): answer congestion with a CNP to the flow's sender. */
			counters_.rx_ecn_ce++;
			uint32_t src =
				qp->type_ == IBV_QPT_UD ? pkt.deth.src_qp : qp->attr_.dest_qp_num;
			uint64_t gap = uint64_t(cfg_.cnp_interval_us) * hz_ / 1000000;
			if (qp->resp.last_cnp == 0 || now - qp->resp.last_cnp >= gap) {
				qp->resp.last_cnp = now;
				send_cnp(pkt, src, qp);
			}
		}
		if (is_response(op))
			qp->rx_response(pkt, now);
		else
			qp->rx_request(pkt, now, ecn == kEcnCe);
	}
	rte_pktmbuf_free(m);
}

unsigned ContextImpl::poll()
{
	debug_ = rte_log_can_log(roce_logtype, RTE_LOG_DEBUG);
	uint64_t now = rte_get_timer_cycles();
	uint16_t n = rte_eth_rx_burst(cfg_.port_id, cfg_.queue_id, rx_buf_.data(), cfg_.rx_burst);
	for (uint16_t i = 0; i < n; i++)
		rx_frame(rx_buf_[i], false);
	if (held_count_)
		release_held(now);
	now = rte_get_timer_cycles();
	uint64_t before = counters_.tx_frames;
	for (QpImpl *qp : qps_) {
		if (qp == nullptr || qp->state_ == IBV_QPS_RESET)
			continue;
		qp->timers(now);
		qp->tx_responses(now, 64);
		qp->tx_requests(now, 32);
	}
	tx_flush();
	return n + static_cast<unsigned>(counters_.tx_frames - before);
}

/* QueuePair: setup and state machine */

} /* namespace gaudi::roce */
