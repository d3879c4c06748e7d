/* SPDX-License-Identifier: BSD-3-Clause */
/* Research hooks: seeded fault injection (drop, duplicate, reorder, delay, corrupt, ECN CE),
 * held packets (the delay line) and the packet log. The TX and RX paths (roce_net.cpp) call
 * tx_hook / rx_hook once per frame of a QP with faults set, as a filter that may consume,
 * delay or pass the frame; the ordinary transmit lives in roce_net.cpp.
 * API contract: roce_verbs.h; how the parts fit: roce_internal.h. */
#include "roce_ctx.h"

#include <cstring>

#include <rte_cycles.h>

namespace gaudi::roce {

/* Mark a received frame's IP ECN field CE in place (what a congested switch does), fixing the
 * IPv4 header checksum. The ICRC masks TOS/traffic class (A17.4.1), so it stays valid. */
void mark_ce(uint8_t *frame, size_t len, Packet &pkt)
{
	size_t ip = kEthHdrLen + (pkt.eth.has_vlan ? kVlanTagLen : 0);
	if (pkt.ip_version == IpVersion::v4) {
		if (len < ip + kIpv4HdrMinLen)
			return;
		frame[ip + 1] |= kEcnCe;
		pkt.ip4.tos = frame[ip + 1];
		size_t ihl = (frame[ip] & 0x0F) * 4u;
		uint16_t c = ipv4_header_checksum({frame + ip, ihl});
		frame[ip + 10] = uint8_t(c >> 8);
		frame[ip + 11] = uint8_t(c);
	} else {
		if (len < ip + kIpv6HdrLen)
			return;
		frame[ip + 1] |= 0x30; /* traffic class bits 1:0 are byte 1 bits 5:4 */
		pkt.ip6.traffic_class |= kEcnCe;
	}
}

bool FaultConfig::enabled() const
{
	auto any = [](const FaultDir &d) {
		return d.drop > 0 || d.dup > 0 || d.reorder > 0 || d.corrupt > 0 || d.delay > 0 ||
		       d.ecn_ce > 0;
	};
	return any(tx) || any(rx);
}

/* TX filter: draws the packet's fate. The frame is consumed (dropped, held back for a later
 * release) or passed on to the TX path with `fate` for the packet log; a duplicate is queued
 * here, ahead of the original. */
ContextImpl::HookVerdict ContextImpl::tx_hook(QpImpl *qp, rte_mbuf *m, const Packet &pkt,
					      std::string_view &fate)
{
	const FaultDir &f = qp->faults_.tx;
	uint32_t lqpn = qp->qpn_;
	uint32_t flen = m->pkt_len;
	/* Always draw the same number of values per packet: reproducible sequences. */
	double r_drop = qp->rnd(), r_cor = qp->rnd(), r_ce = qp->rnd(), r_dup = qp->rnd(),
	       r_reo = qp->rnd(), r_del = qp->rnd();
	uint64_t now = rte_get_timer_cycles();
	if (r_drop < f.drop) {
		log(true, pkt, lqpn, flen, "drop");
		counters_.tx_hook_dropped++;
		rte_pktmbuf_free(m);
		return HookVerdict::consumed;
	}
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
	if (r_cor < f.corrupt) {
		d[m->data_len - 1] ^= 0x01; /* last ICRC byte */
		fate = "corrupt";
	}
	if (r_ce < f.ecn_ce) {
		Packet tmp = pkt;
		mark_ce(d, m->data_len, tmp);
		fate = "ce";
	}
	if (r_dup < f.dup) {
		rte_mbuf *c = rte_pktmbuf_copy(m, cfg_.tx_pool, 0, UINT32_MAX);
		if (c != nullptr) {
			tx_push(c);
			fate = "dup";
		}
	}
	if (r_reo < f.reorder) {
		log(true, pkt, lqpn, flen, "reorder");
		hold(m, now + hz_ / 50000, qp, false); /* 20 us: later packets overtake it */
		return HookVerdict::consumed;
	}
	if (r_del < f.delay) {
		log(true, pkt, lqpn, flen, "delay");
		hold(m, now + static_cast<uint64_t>(f.delay_ms * 1e-3 * double(hz_)), qp, false);
		return HookVerdict::consumed;
	}
	return HookVerdict::pass;
}

void ContextImpl::hold(rte_mbuf *m, uint64_t release, QpImpl *qp, bool rx)
{
	if (held_count_ == held_.size()) { /* no room: deliver now */
		if (rx) {
			rx_frame(m, true);
		} else if (tx_reserve()) {
			tx_push(m);
		} else {
			rte_pktmbuf_free(m);
		}
		return;
	}
	held_[held_count_++] = {m, release, qp, rx};
}

void ContextImpl::release_held(uint64_t now)
{
	uint32_t i = 0;
	while (i < held_count_) {
		if (held_[i].release > now) {
			i++;
			continue;
		}
		Held h = held_[i];
		/* Keep order among the rest; the list is short. */
		std::memmove(&held_[i], &held_[i + 1], (held_count_ - i - 1) * sizeof(Held));
		held_count_--;
		if (h.rx) {
			rx_frame(h.m, true);
		} else if (tx_reserve()) {
			tx_push(h.m);
		} else {
			rte_pktmbuf_free(h.m);
		}
	}
}

void ContextImpl::log(bool tx, const Packet &pkt, uint32_t local_qpn, uint32_t frame_len,
		      std::string_view fate)
{
	if (log_file_ == nullptr && !log_fn_)
		return;
	PacketLogEntry e;
	e.tx = tx;
	e.opcode = pkt.bth.opcode;
	e.opcode_name = name(pkt.bth.opcode);
	e.psn = pkt.bth.psn;
	e.dest_qpn = pkt.bth.dest_qp;
	e.local_qpn = local_qpn;
	e.payload_len = static_cast<uint32_t>(pkt.payload.size());
	e.frame_len = frame_len;
	e.fate = fate;
	if (log_file_ != nullptr)
		fprintf(log_file_, "%s %.*s qpn=0x%06x psn=0x%06x len=%u frame=%u%s%.*s\n",
			tx ? "tx" : "rx", int(e.opcode_name.size()), e.opcode_name.data(),
			e.dest_qpn, e.psn, e.payload_len, e.frame_len, fate.empty() ? "" : " ",
			int(fate.size()), fate.data());
	if (log_fn_)
		log_fn_(e);
}

/* RX filter for a packet addressed to `qp`: consumed (dropped, counted as corrupt, or held
 * back to be delivered later), passed, or passed twice (a duplicate). */
ContextImpl::HookVerdict ContextImpl::rx_hook(QpImpl *qp, rte_mbuf *m, uint8_t *data, uint32_t len,
					      Packet &pkt)
{
	const FaultDir &f = qp->faults_.rx;
	double r_drop = qp->rnd(), r_cor = qp->rnd(), r_ce = qp->rnd(), r_dup = qp->rnd(),
	       r_reo = qp->rnd(), r_del = qp->rnd();
	uint64_t now = rte_get_timer_cycles();
	if (r_drop < f.drop) {
		log(false, pkt, qp->qpn_, len, "drop");
		counters_.rx_hook_dropped++;
		rte_pktmbuf_free(m);
		return HookVerdict::consumed;
	}
	if (r_cor < f.corrupt) {
		log(false, pkt, qp->qpn_, len, "corrupt");
		counters_.rx_hook_corrupted++;
		counters_.rx_icrc_errors++;
		rte_pktmbuf_free(m);
		return HookVerdict::consumed;
	}
	if (r_ce < f.ecn_ce && m->nb_segs == 1)
		mark_ce(data, len, pkt);
	if (r_reo < f.reorder || r_del < f.delay) {
		bool reo = r_reo < f.reorder;
		log(false, pkt, qp->qpn_, len, reo ? "reorder" : "delay");
		if (m->nb_segs == 1) {
			uint64_t d = reo ? hz_ / 50000
					 : static_cast<uint64_t>(f.delay_ms * 1e-3 * double(hz_));
			hold(m, now + d, qp, true);
			return HookVerdict::consumed;
		}
	}
	return r_dup < f.dup ? HookVerdict::pass_twice : HookVerdict::pass;
}

void QpImpl::set_faults(const FaultConfig &f)
{
	faults_ = f;
	faults_on_ = f.enabled();
	rng_ = f.seed ? f.seed : 0x9E3779B97F4A7C15ull;
}

double QpImpl::rnd()
{
	/* xorshift64*: fast, seeded, reproducible. */
	rng_ ^= rng_ >> 12;
	rng_ ^= rng_ << 25;
	rng_ ^= rng_ >> 27;
	return double((rng_ * 0x2545F4914F6CDD1Dull) >> 11) * (1.0 / 9007199254740992.0);
}

} /* namespace gaudi::roce */
