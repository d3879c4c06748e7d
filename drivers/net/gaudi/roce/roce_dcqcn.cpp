/* SPDX-License-Identifier: BSD-3-Clause */
/* DCQCN (Zhu et al., SIGCOMM 2015): CNPs from the notification point (Annex A17.9) and the
 * reaction point's rate (token bucket) on the requester side.
 * API contract: roce_verbs.h; how the parts fit: roce_internal.h. */
#include "roce_ctx.h"

#include <algorithm>

namespace gaudi::roce {

void ContextImpl::send_cnp(const Packet &rx, uint32_t dest_qpn, QpImpl *qp)
{
	Packet p = make_packet(Opcode::CNP);
	p.eth.dst = rx.eth.src;
	p.eth.src = mac_;
	p.ip_version = rx.ip_version;
	p.ip4.src = rx.ip4.dst;
	p.ip4.dst = rx.ip4.src;
	p.ip4.tos = 0xC0; /* DSCP 48, not ECT: CNPs must not be marked themselves */
	p.ip4.id = ip_id_++;
	p.ip6.src = rx.ip6.dst;
	p.ip6.dst = rx.ip6.src;
	p.ip6.traffic_class = 0xC0;
	uint32_t fl = calc_flow_label(qp->qpn_, dest_qpn);
	p.ip6.flow_label = fl;
	p.udp.src_port = flow_label_to_udp_sport(fl);
	p.bth.dest_qp = dest_qpn;
	p.bth.pkey = 0xFFFF;
	p.bth.psn = 0;
	if (emit(qp, p))
		counters_.cnps_sent++;
}

/* DCQCN reaction point (Zhu et al. 2015, Algorithm 1). */
void QpImpl::rate_on_cnp(uint64_t now)
{
	rate_->cnps++;
	if (!ctx_.cfg_.dcqcn || !tuning_.dcqcn)
		return;
	const DcqcnParams &p = ctx_.cfg_.dcqcn_params;
	rate_->rt = rate_->rc;
	rate_->rc = std::max(p.min_rate_gbps * 1e9, rate_->rc * (1 - rate_->alpha / 2));
	rate_->alpha = (1 - p.g) * rate_->alpha + p.g;
	rate_->stage = 0;
	rate_->last_alpha = rate_->last_inc = rate_->last_cnp = now;
	if (!rate_->limited) {
		rate_->limited = true;
		rate_->tokens = 0;
		rate_->last_token = now;
	}
}

void QpImpl::rate_timers(uint64_t now)
{
	if (!rate_->limited)
		return;
	const DcqcnParams &p = ctx_.cfg_.dcqcn_params;
	uint64_t us = hz_ / 1000000 ? hz_ / 1000000 : 1;
	if (now - rate_->last_alpha >= p.alpha_timer_us * us) {
		rate_->alpha *= (1 - p.g);
		rate_->last_alpha = now;
	}
	if (now - rate_->last_inc >= p.rate_inc_timer_us * us) {
		rate_->last_inc = now;
		if (++rate_->stage >
		    p.fast_recovery_stages) /* additive increase after fast recovery */
			rate_->rt = std::min(p.line_rate_gbps * 1e9, rate_->rt + p.rai_gbps * 1e9);
		rate_->rc = (rate_->rt + rate_->rc) / 2;
		if (rate_->rc >= p.line_rate_gbps * 1e9 * 0.999) {
			rate_->rc = p.line_rate_gbps * 1e9;
			rate_->limited = false;
		}
	}
}

bool QpImpl::rate_allows(uint32_t bytes, uint64_t now)
{
	if (!rate_->limited)
		return true;
	double dt = double(now - rate_->last_token) / double(hz_);
	rate_->last_token = now;
	rate_->tokens = std::min<double>(ctx_.cfg_.dcqcn_params.burst_bytes,
					 rate_->tokens + rate_->rc / 8 * dt);
	if (rate_->tokens < 0)
		return false;
	rate_->tokens -= bytes;
	return true;
}

double QpImpl::current_rate_gbps() const
{
	return rate_->rc / 1e9;
}

uint64_t QpImpl::cnps_received() const
{
	return rate_->cnps;
}

} /* namespace gaudi::roce */
