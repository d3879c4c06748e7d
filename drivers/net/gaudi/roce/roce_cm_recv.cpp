/* SPDX-License-Identifier: BSD-3-Clause */
/* RDMA CM over RoCE v2, receive side (roce_cm.h): the MADs QP1 hands over, by message - REQ,
 * MRA, REJ, REP, RTU, DREQ, DREP, SIDR - against the connection's state (IBA Vol 1 chapter 12;
 * Linux drivers/infiniband/core/cm.c for duplicates and stale messages). */
#include "roce_cm.h"
#include "roce_cm_internal.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <rte_cycles.h>

namespace gaudi::roce {

using cm_detail::kReqUserData;
using cm_detail::mtu_code;

/* ---------------------------------------------------------------------------------------
 * Receive
 * --------------------------------------------------------------------------------------- */
void CmImpl::rx(const Packet &pkt)
{
	std::span<const uint8_t> m = pkt.payload;
	mad::MadHeader h;
	if (m.size() < mad::kMadSize || !mad::decode_header(m, h) ||
	    h.base_version != mad::kBaseVersion || h.mgmt_class != mad::kClassCm ||
	    h.class_version != mad::kCmClassVersion || h.method != mad::kMethodSend) {
		stats_.rx_bad++;
		return;
	}
	stats_.rx_mads++;
	if (h.attribute_id < stats_.rx_by_attr.size())
		stats_.rx_by_attr[h.attribute_id]++;
	switch (mad::CmAttr(h.attribute_id)) {
	case mad::CmAttr::req:
		rx_req(pkt, h, m);
		break;
	case mad::CmAttr::rep:
		rx_rep(h, m);
		break;
	case mad::CmAttr::rtu:
		rx_rtu(m);
		break;
	case mad::CmAttr::rej:
		rx_rej(m);
		break;
	case mad::CmAttr::mra:
		rx_mra(m);
		break;
	case mad::CmAttr::dreq:
		rx_dreq(pkt, h, m);
		break;
	case mad::CmAttr::drep:
		rx_drep(m);
		break;
	case mad::CmAttr::sidr_req:
		rx_sidr_req(pkt, h, m);
		break;
	case mad::CmAttr::sidr_rep:
		rx_sidr_rep(m);
		break;
	default:
		stats_.rx_bad++;
		break; /* LAP, APR, ClassPortInfo: not supported */
	}
}

void CmImpl::rx_req(const Packet &pkt, const mad::MadHeader &h, std::span<const uint8_t> m)
{
	mad::CmReq r;
	mad::decode(m, r);
	/* Who sent it: the GRH (IP) source and the frame's source MAC (the next hop). */
	AddressVector av;
	av.mac = pkt.eth.src;
	if (pkt.ip_version == IpVersion::v4)
		av.gid = Gid::from_ipv4(pkt.ip4.src);
	else
		av.gid = Gid::from_ipv6(pkt.ip6.src);
	av.hop_limit = 64;
	av.traffic_class = r.primary.traffic_class;
	/* A duplicate (cm.c cm_dup_req_handler): REP again if sent, else ignore. */
	for (auto &p : ids_) {
		if (!p->listener_ && p->remote_comm_id_ == r.local_comm_id &&
		    p->remote_ca_guid_ == r.local_ca_guid) {
			stats_.rx_duplicates++;
			if (p->state_ == CmState::rep_sent || p->state_ == CmState::established)
				send_to(p->av_, p->last_);
			return;
		}
	}
	mad::PortSpace ps;
	uint16_t port = 0;
	CmIdImpl *listener = nullptr;
	if (mad::parse_service_id(r.service_id, ps, port) && ps == mad::PortSpace::tcp)
		for (auto &p : ids_)
			if (p->listener_ && p->local_port_ == port)
				listener = p.get();
	if (listener == nullptr) {
		send_rej(av, h.transaction_id, next_comm_id_++, r.local_comm_id, mad::MsgKind::req,
			 mad::RejReason::invalid_service_id);
		return;
	}
	mad::CmaHdr ch;
	if (r.transport_service_type != 0 ||
	    !mad::decode_cma_hdr({r.private_data.data(), r.private_data.size()}, ch) ||
	    (ch.ip_version == 4) != ctx_.gid().is_ipv4()) {
		send_rej(av, h.transaction_id, next_comm_id_++, r.local_comm_id, mad::MsgKind::req,
			 r.transport_service_type != 0 ? mad::RejReason::invalid_transport_type
						       : mad::RejReason::consumer_defined);
		return;
	}
	auto id = std::make_unique<CmIdImpl>();
	id->state_ = CmState::req_rcvd;
	id->local_port_ = port;
	id->remote_port_ = ch.src_port;
	id->local_comm_id_ = next_comm_id_++;
	id->remote_comm_id_ = r.local_comm_id;
	id->remote_ca_guid_ = r.local_ca_guid;
	id->remote_qpn_ = r.local_qpn;
	id->local_psn_ = uint32_t(rng_()) & kPsnMask;
	id->tid_ = h.transaction_id;
	id->av_ = av;
	id->req_ = r;
	CmEvent ev;
	ev.type = CmEventType::connect_request;
	ev.id = id.get();
	ev.listen_id = listener;
	ev.private_data_len = uint8_t(kReqUserData);
	std::copy_n(r.private_data.begin() + mad::kCmaHdrSize, kReqUserData,
		    ev.private_data.begin());
	ev.responder_resources = r.responder_resources;
	ev.initiator_depth = r.initiator_depth;
	ids_.push_back(std::move(id));
	events_.push_back(ev);
}

void CmImpl::rx_rep(const mad::MadHeader &, std::span<const uint8_t> m)
{
	mad::CmRep rep;
	mad::decode(m, rep);
	CmIdImpl *id = find_local(rep.remote_comm_id);
	if (id == nullptr) {
		stats_.rx_unmatched++;
		return;
	}
	if (id->state_ == CmState::established && id->remote_comm_id_ == rep.local_comm_id) {
		/* our RTU was lost: send it again (cm.c cm_dup_rep_handler) */
		stats_.rx_duplicates++;
		send_to(id->av_, id->last_);
		return;
	}
	if (id->state_ != CmState::req_sent)
		return;
	id->remote_comm_id_ = rep.local_comm_id;
	id->remote_ca_guid_ = rep.local_ca_guid;
	id->remote_qpn_ = rep.local_qpn;
	id->deadline_ = 0;
	/* cm.c active side: RTR with the REP's QPN, receiving at our PSN (the REQ's), RTS sending
	 * at the REP's PSN (see accept()); the peer's responder resources bound our initiator
	 * depth; the REP's RNR retry count is ours. */
	QueuePair &qp = *id->qp_;
	QpAttr a;
	a.qp_state = IBV_QPS_RTR;
	a.ah_attr = id->av_;
	a.path_mtu = mtu_code(id->req_.path_packet_payload_mtu);
	a.dest_qp_num = rep.local_qpn;
	a.rq_psn = id->local_psn_;
	a.max_dest_rd_atomic = id->param_.responder_resources;
	int rc = qp.modify(a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				      IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				      IBV_QP_MIN_RNR_TIMER);
	if (rc == 0) {
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = rep.starting_psn;
		a.timeout = cfg_.local_ack_timeout;
		a.retry_cnt = id->param_.retry_count;
		a.rnr_retry = rep.rnr_retry_count;
		a.max_rd_atomic = std::min(id->param_.initiator_depth, rep.responder_resources);
		rc = qp.modify(a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
					  IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
	}
	if (rc != 0) {
		send_rej(id->av_, id->tid_, id->local_comm_id_, id->remote_comm_id_,
			 mad::MsgKind::rep, mad::RejReason::no_resources);
		id->state_ = CmState::rejected;
		push(CmEventType::rejected, id, int(mad::RejReason::no_resources));
		return;
	}
	mad::CmRtu rtu;
	rtu.local_comm_id = id->local_comm_id_;
	rtu.remote_comm_id = id->remote_comm_id_;
	mad::MadHeader h;
	h.transaction_id = id->tid_;
	mad::encode(h, rtu, id->last_);
	id->state_ = CmState::established;
	send(*id, false);
	CmEvent ev;
	ev.type = CmEventType::established;
	ev.id = id;
	ev.private_data_len = uint8_t(rep.private_data.size());
	std::copy(rep.private_data.begin(), rep.private_data.end(), ev.private_data.begin());
	ev.responder_resources = rep.responder_resources;
	ev.initiator_depth = rep.initiator_depth;
	events_.push_back(ev);
}

void CmImpl::rx_rtu(std::span<const uint8_t> m)
{
	mad::CmRtu rtu;
	mad::decode(m, rtu);
	CmIdImpl *id = find_local(rtu.remote_comm_id);
	if (id == nullptr || id->remote_comm_id_ != rtu.local_comm_id) {
		stats_.rx_unmatched++;
		return;
	}
	if (id->state_ != CmState::rep_sent)
		return;
	id->state_ = CmState::established;
	id->deadline_ = 0;
	id->retransmit_ = false;
	push(CmEventType::established, id);
}

void CmImpl::rx_rej(std::span<const uint8_t> m)
{
	mad::CmRej rej;
	mad::decode(m, rej);
	CmIdImpl *id = find_local(rej.remote_comm_id);
	if (id == nullptr) {
		stats_.rx_unmatched++;
		return;
	}
	if (id->state_ != CmState::req_sent && id->state_ != CmState::rep_sent)
		return;
	id->state_ = CmState::rejected;
	id->deadline_ = 0;
	QpAttr a;
	a.qp_state = IBV_QPS_ERR;
	if (id->qp_ && id->qp_->state() != IBV_QPS_RESET)
		id->qp_->modify(a, IBV_QP_STATE);
	CmEvent ev;
	ev.type = CmEventType::rejected;
	ev.id = id;
	ev.status = rej.reason;
	ev.private_data_len = uint8_t(rej.private_data.size());
	std::copy(rej.private_data.begin(), rej.private_data.end(), ev.private_data.begin());
	events_.push_back(ev);
}

void CmImpl::rx_mra(std::span<const uint8_t> m)
{
	mad::CmMra mra;
	mad::decode(m, mra);
	CmIdImpl *id = find_local(mra.remote_comm_id);
	if (id == nullptr || !id->retransmit_) {
		stats_.rx_unmatched++;
		return;
	}
	/* IBA 12.6.6: the peer needs longer; wait its service timeout without resending. */
	id->retries_left_ = cfg_.max_cm_retries;
	set_timer(*id, response_ns() + (4096ULL << std::min<uint8_t>(mra.service_timeout, 31)));
}

void CmImpl::rx_dreq(const Packet &pkt, const mad::MadHeader &h, std::span<const uint8_t> m)
{
	mad::CmDreq d;
	mad::decode(m, d);
	CmIdImpl *id = find_local(d.remote_comm_id);
	mad::CmDrep drep;
	drep.remote_comm_id = d.local_comm_id;
	mad::MadHeader hh;
	hh.transaction_id = h.transaction_id;
	if (id == nullptr || id->remote_comm_id_ != d.local_comm_id) {
		/* cm.c cm_dreq_handler: a DREQ for a connection we no longer have gets a DREP. */
		stats_.rx_unmatched++;
		AddressVector av;
		av.mac = pkt.eth.src;
		av.gid = pkt.ip_version == IpVersion::v4 ? Gid::from_ipv4(pkt.ip4.src)
							 : Gid::from_ipv6(pkt.ip6.src);
		mad::Mad out;
		mad::encode(hh, drep, out, mad::CmAttr::drep);
		send_to(av, out);
		return;
	}
	drep.local_comm_id = id->local_comm_id_;
	mad::Mad out;
	mad::encode(hh, drep, out, mad::CmAttr::drep);
	send_to(id->av_, out);
	if (id->state_ == CmState::timewait) {
		stats_.rx_duplicates++;
		return;
	}
	if (id->state_ != CmState::established && id->state_ != CmState::rep_sent &&
	    id->state_ != CmState::dreq_sent)
		return;
	QpAttr a;
	a.qp_state = IBV_QPS_ERR;
	if (id->qp_)
		id->qp_->modify(a, IBV_QP_STATE);
	enter_timewait(*id);
	CmEvent ev;
	ev.type = CmEventType::disconnected;
	ev.id = id;
	ev.private_data_len = uint8_t(d.private_data.size());
	std::copy(d.private_data.begin(), d.private_data.end(), ev.private_data.begin());
	events_.push_back(ev);
}

void CmImpl::rx_drep(std::span<const uint8_t> m)
{
	mad::CmDrep d;
	mad::decode(m, d);
	CmIdImpl *id = find_local(d.remote_comm_id);
	if (id == nullptr) {
		stats_.rx_unmatched++;
		return;
	}
	if (id->state_ != CmState::dreq_sent)
		return;
	enter_timewait(*id);
	push(CmEventType::disconnected, id);
}

/* SIDR (IBA 12.11): a UD peer asks for the QPN and Q_Key behind a service ID; no connection
 * state beyond the answer. */
void CmImpl::rx_sidr_req(const Packet &pkt, const mad::MadHeader &h, std::span<const uint8_t> m)
{
	mad::CmSidrReq r;
	mad::decode(m, r);
	AddressVector av;
	av.mac = pkt.eth.src;
	av.gid = pkt.ip_version == IpVersion::v4 ? Gid::from_ipv4(pkt.ip4.src)
						 : Gid::from_ipv6(pkt.ip6.src);
	av.hop_limit = 64;
	for (auto &p : ids_) { /* a duplicate: the SIDR_REP again once accepted */
		if (!p->listener_ && p->ud_ && p->remote_comm_id_ == r.request_id &&
		    p->av_.gid == av.gid) {
			stats_.rx_duplicates++;
			if (p->state_ == CmState::established && p->qp_)
				send_sidr_rep(p->av_, h.transaction_id, r.request_id, r.service_id,
					      0, p->qp_->qp_num());
			return;
		}
	}
	mad::PortSpace ps;
	uint16_t port = 0;
	CmIdImpl *listener = nullptr;
	if (mad::parse_service_id(r.service_id, ps, port) && ps == mad::PortSpace::udp)
		for (auto &p : ids_)
			if (p->listener_ && p->ud_ && p->local_port_ == port)
				listener = p.get();
	mad::CmaHdr ch;
	if (listener == nullptr ||
	    !mad::decode_cma_hdr({r.private_data.data(), r.private_data.size()}, ch)) {
		/* SIDR_REP status 1: service ID not supported (Table 120). */
		send_sidr_rep(av, h.transaction_id, r.request_id, r.service_id, 1, 0);
		return;
	}
	auto id = std::make_unique<CmIdImpl>();
	id->ud_ = true;
	id->state_ = CmState::sidr_req_rcvd;
	id->local_port_ = port;
	id->remote_port_ = ch.src_port;
	id->local_comm_id_ = next_comm_id_++;
	id->remote_comm_id_ = r.request_id;
	id->tid_ = h.transaction_id;
	id->av_ = av;
	CmEvent ev;
	ev.type = CmEventType::connect_request;
	ev.id = id.get();
	ev.listen_id = listener;
	ev.private_data_len = uint8_t(r.private_data.size() - mad::kCmaHdrSize);
	std::copy(r.private_data.begin() + mad::kCmaHdrSize, r.private_data.end(),
		  ev.private_data.begin());
	ids_.push_back(std::move(id));
	events_.push_back(ev);
}

void CmImpl::rx_sidr_rep(std::span<const uint8_t> m)
{
	mad::CmSidrRep r;
	mad::decode(m, r);
	CmIdImpl *id = nullptr;
	for (auto &p : ids_)
		if (p->ud_ && p->state_ == CmState::sidr_req_sent &&
		    p->local_comm_id_ == r.request_id)
			id = p.get();
	if (id == nullptr) {
		stats_.rx_unmatched++;
		return;
	}
	id->deadline_ = 0;
	id->retransmit_ = false;
	if (r.status != 0) {
		id->state_ = CmState::rejected;
		push(CmEventType::rejected, id, r.status);
		return;
	}
	id->state_ = CmState::established;
	id->remote_qpn_ = r.qpn;
	CmEvent ev;
	ev.type = CmEventType::established;
	ev.id = id;
	ev.qp_num = r.qpn;
	ev.qkey = r.q_key;
	ev.private_data_len = uint8_t(r.private_data.size());
	std::copy(r.private_data.begin(), r.private_data.end(), ev.private_data.begin());
	events_.push_back(ev);
}

} /* namespace gaudi::roce */
