/* SPDX-License-Identifier: BSD-3-Clause */
/* RDMA CM over RoCE v2 (roce_cm.h): the IB CM state machine on QP1 and librdmacm's IP
 * addressing. Facts from IBA Vol 1 chapter 12 and Linux drivers/infiniband/core/cm.c (which
 * REQ/REP fields drive which QP attribute, duplicate handling) and cma.c (cma_hdr, service IDs,
 * access flags at INIT). */
#include "roce_cm.h"
#include "roce_cm_internal.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <rte_cycles.h>

namespace gaudi::roce {

using cm_detail::kReqUserData;
using cm_detail::mtu_code;

namespace {

template <size_t N>
void copy_pd(std::array<uint8_t, N> &dst, std::span<const uint8_t> src)
{
	dst.fill(0);
	std::copy_n(src.begin(), std::min(N, src.size()), dst.begin());
}

/* Modified EUI-64 of the MAC: the node GUID rxe derives from its netdev (rxe.c). */
uint64_t guid_from_mac(const MacAddr &m)
{
	return uint64_t(m[0] ^ 2) << 56 | uint64_t(m[1]) << 48 | uint64_t(m[2]) << 40 |
	       uint64_t(0xFF) << 32 | uint64_t(0xFE) << 24 | uint64_t(m[3]) << 16 |
	       uint64_t(m[4]) << 8 | m[5];
}

} /* namespace */

std::string_view cm_state_name(CmState s)
{
	static constexpr std::array<std::string_view, 12> kNames = {
		"IDLE",	    "ADDR_QUERY", "LISTEN",	   "REQ_SENT",
		"REQ_RCVD", "REP_SENT",	  "ESTABLISHED",   "DREQ_SENT",
		"TIMEWAIT", "REJECTED",	  "SIDR_REQ_SENT", "SIDR_REQ_RCVD"};
	size_t i = size_t(s);
	return i < kNames.size() ? kNames[i] : "?";
}

std::string_view cm_event_name(CmEventType t)
{
	static constexpr std::array<std::string_view, 6> kNames = {
		"RDMA_CM_EVENT_CONNECT_REQUEST", "RDMA_CM_EVENT_ESTABLISHED",
		"RDMA_CM_EVENT_REJECTED",	 "RDMA_CM_EVENT_UNREACHABLE",
		"RDMA_CM_EVENT_DISCONNECTED",	 "RDMA_CM_EVENT_TIMEWAIT_EXIT"};
	size_t i = size_t(t);
	return i < kNames.size() ? kNames[i] : "?";
}

/* ---------------------------------------------------------------------------------------
 * The public classes' methods: each reaches its implementation type through to_impl()
 * (roce_cm_internal.h), as roce_api.cpp does for the verbs. No logic here.
 * --------------------------------------------------------------------------------------- */
CmState CmId::state() const
{
	return to_impl(this)->state_;
}
QueuePair *CmId::qp() const
{
	return to_impl(this)->qp_;
}
uint16_t CmId::local_port() const
{
	return to_impl(this)->local_port_;
}
uint16_t CmId::remote_port() const
{
	return to_impl(this)->remote_port_;
}
const Gid &CmId::remote_gid() const
{
	return to_impl(this)->av_.gid;
}
const AddressVector &CmId::av() const
{
	return to_impl(this)->av_;
}
bool CmId::ud() const
{
	return to_impl(this)->ud_;
}
uint32_t CmId::remote_qpn() const
{
	return to_impl(this)->remote_qpn_;
}
uint32_t CmId::local_comm_id() const
{
	return to_impl(this)->local_comm_id_;
}
uint32_t CmId::remote_comm_id() const
{
	return to_impl(this)->remote_comm_id_;
}

ConnectionManager::ConnectionManager(Context &ctx, const CmConfig &cfg)
    : impl_(std::make_unique<CmImpl>(ctx, cfg))
{
}
ConnectionManager::~ConnectionManager() = default;
int ConnectionManager::listen(uint16_t port, CmId **out, bool ud)
{
	return impl_->listen(port, out, ud);
}
int ConnectionManager::connect_ud(const Gid &dst, uint16_t port, QueuePair &qp, CmId **out)
{
	return impl_->connect_ud(dst, port, qp, out);
}
int ConnectionManager::connect(const Gid &dst, uint16_t port, QueuePair &qp, const ConnParam &p,
			       CmId **out)
{
	return impl_->connect(dst, port, qp, p, out);
}
int ConnectionManager::accept(CmId &id, QueuePair &qp, const ConnParam &p)
{
	return impl_->accept(to_impl(id), qp, p);
}
int ConnectionManager::reject(CmId &id, std::span<const uint8_t> private_data)
{
	return impl_->reject(to_impl(id), private_data);
}
int ConnectionManager::disconnect(CmId &id)
{
	return impl_->disconnect(to_impl(id));
}
void ConnectionManager::destroy_id(CmId *id)
{
	impl_->destroy_id(to_impl(id));
}
bool ConnectionManager::get_event(CmEvent &ev)
{
	return impl_->get_event(ev);
}
void ConnectionManager::progress()
{
	impl_->progress();
}
const CmStats &ConnectionManager::stats() const
{
	return impl_->stats_;
}
uint64_t ConnectionManager::local_ca_guid() const
{
	return impl_->guid_;
}
size_t ConnectionManager::connections() const
{
	return impl_->connections();
}

/* ---------------------------------------------------------------------------------------
 * The manager
 * --------------------------------------------------------------------------------------- */
CmImpl::CmImpl(Context &ctx, const CmConfig &cfg)
    : ctx_(ctx), cfg_(cfg), hz_(rte_get_timer_hz()), guid_(guid_from_mac(ctx.mac())),
      rng_(cfg.seed ? cfg.seed : rte_get_timer_cycles())
{
	next_comm_id_ = uint32_t(rng_());
	next_port_ = uint16_t(32768 + rng_() % 16384); /* an ephemeral port for connect() */
	ctx_.set_gsi_handler([this](const Packet &pkt) { rx(pkt); });
}

CmImpl::~CmImpl()
{
	ctx_.set_gsi_handler({});
}

size_t CmImpl::connections() const
{
	return size_t(std::count_if(ids_.begin(), ids_.end(),
				    [](const auto &p) { return !p->listener_; }));
}

uint64_t CmImpl::response_ns() const
{
	return 4096ULL << cfg_.cm_response_timeout; /* 4.096 us * 2^x */
}

uint64_t CmImpl::next_tid()
{
	return uint64_t(guid_ & 0xFFFFFFFF) << 32 | ++tid_lo_;
}

void CmImpl::set_timer(CmIdImpl &id, uint64_t ns)
{
	id.deadline_ = rte_get_timer_cycles() + ns * hz_ / 1000000000ULL;
}

void CmImpl::arm_retry(CmIdImpl &id)
{
	id.retransmit_ = true;
	id.retries_left_ = cfg_.max_cm_retries;
	set_timer(id, response_ns());
}

void CmImpl::push(CmEventType t, CmIdImpl *id, int status)
{
	CmEvent ev;
	ev.type = t;
	ev.id = id;
	ev.status = status;
	events_.push_back(ev);
}

bool CmImpl::get_event(CmEvent &ev)
{
	progress();
	if (events_.empty())
		return false;
	ev = events_.front();
	events_.pop_front();
	return true;
}

CmIdImpl *CmImpl::find_local(uint32_t comm_id)
{
	for (auto &p : ids_)
		if (!p->listener_ && p->local_comm_id_ == comm_id)
			return p.get();
	return nullptr;
}

void CmImpl::send_to(const AddressVector &av, const mad::Mad &m)
{
	if (ctx_.send_gsi(av, mad::kGsiQpn, m) == 0) {
		stats_.tx_mads++;
		uint16_t attr = uint16_t(m[16] << 8 | m[17]);
		if (attr < stats_.tx_by_attr.size())
			stats_.tx_by_attr[attr]++;
	}
}

void CmImpl::send(CmIdImpl &id, bool retransmit)
{
	send_to(id.av_, id.last_);
	if (retransmit)
		arm_retry(id);
	else
		id.retransmit_ = false;
}

void CmImpl::send_rej(const AddressVector &av, uint64_t tid, uint32_t local_comm_id,
		      uint32_t remote_comm_id, mad::MsgKind kind, mad::RejReason reason,
		      std::span<const uint8_t> pd)
{
	mad::MadHeader h;
	h.transaction_id = tid;
	mad::CmRej rej;
	rej.local_comm_id = local_comm_id;
	rej.remote_comm_id = remote_comm_id;
	rej.message_rejected = kind;
	rej.reason = uint16_t(reason);
	copy_pd(rej.private_data, pd);
	mad::Mad m;
	mad::encode(h, rej, m);
	send_to(av, m);
}

int CmImpl::qp_to_init(QueuePair &qp, bool rd)
{
	if (qp.state() == IBV_QPS_INIT)
		return 0;
	QpAttr a;
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	/* cm.c cm_init_qp_init_attr: remote READ and atomics only with responder resources. */
	a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
			    (rd ? IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC : 0);
	return qp.modify(a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS);
}

/* ---------------------------------------------------------------------------------------
 * Application calls
 * --------------------------------------------------------------------------------------- */
int CmImpl::listen(uint16_t port, CmId **out, bool ud)
{
	for (auto &p : ids_)
		if (p->listener_ && p->local_port_ == port && p->ud_ == ud)
			return -EADDRINUSE;
	auto id = std::make_unique<CmIdImpl>();
	id->listener_ = true;
	id->ud_ = ud;
	id->state_ = CmState::listen;
	id->local_port_ = port;
	*out = id.get();
	ids_.push_back(std::move(id));
	return 0;
}

int CmImpl::connect(const Gid &dst, uint16_t port, QueuePair &qp, const ConnParam &p, CmId **out)
{
	if (qp.type() != IBV_QPT_RC || p.private_data.size() > kReqUserData ||
	    dst.is_ipv4() != ctx_.gid().is_ipv4() ||
	    (qp.state() != IBV_QPS_RESET && qp.state() != IBV_QPS_INIT))
		return -EINVAL;
	int rc = qp_to_init(qp, p.responder_resources > 0);
	if (rc)
		return rc;
	auto id = std::make_unique<CmIdImpl>();
	id->state_ = CmState::addr_query;
	id->local_port_ = next_port_++;
	if (next_port_ < 32768)
		next_port_ = 32768;
	id->remote_port_ = port;
	id->local_comm_id_ = next_comm_id_++;
	id->local_psn_ = uint32_t(rng_()) & kPsnMask;
	id->av_.gid = dst;
	id->av_.hop_limit = 64;
	id->qp_ = &qp;
	id->param_ = p;
	copy_pd(id->param_data_, p.private_data);
	id->param_.private_data = {id->param_data_.data(), p.private_data.size()};
	id->started_ = rte_get_timer_cycles();
	*out = id.get();
	ids_.push_back(std::move(id));
	progress(); /* sends the REQ at once when the MAC is known */
	return 0;
}

int CmImpl::ud_to_rts(QueuePair &qp)
{
	/* cma.c cma_ib_init_qp_attr for UD: INIT with the port space's Q_Key, then RTR and RTS
	 * (rdma_create_qp does this for a UD id). */
	QpAttr a;
	int rc = 0;
	if (qp.state() == IBV_QPS_RESET) {
		a.qp_state = IBV_QPS_INIT;
		a.pkey_index = 0;
		a.qkey = kRdmaUdpQkey;
		rc = qp.modify(a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_QKEY);
	}
	if (rc == 0 && qp.state() == IBV_QPS_INIT) {
		a.qp_state = IBV_QPS_RTR;
		rc = qp.modify(a, IBV_QP_STATE);
	}
	if (rc == 0 && qp.state() == IBV_QPS_RTR) {
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = uint32_t(rng_()) & kPsnMask;
		rc = qp.modify(a, IBV_QP_STATE | IBV_QP_SQ_PSN);
	}
	return rc;
}

int CmImpl::connect_ud(const Gid &dst, uint16_t port, QueuePair &qp, CmId **out)
{
	if (qp.type() != IBV_QPT_UD || dst.is_ipv4() != ctx_.gid().is_ipv4())
		return -EINVAL;
	if (int rc = ud_to_rts(qp))
		return rc;
	auto id = std::make_unique<CmIdImpl>();
	id->ud_ = true;
	id->state_ = CmState::addr_query;
	id->local_port_ = next_port_++;
	if (next_port_ < 32768)
		next_port_ = 32768;
	id->remote_port_ = port;
	id->local_comm_id_ = next_comm_id_++; /* the SIDR RequestID */
	id->av_.gid = dst;
	id->av_.hop_limit = 64;
	id->qp_ = &qp;
	id->started_ = rte_get_timer_cycles();
	*out = id.get();
	ids_.push_back(std::move(id));
	progress();
	return 0;
}

mad::CmaHdr CmImpl::cma_hdr(const CmIdImpl &id) const
{
	mad::CmaHdr ch;
	ch.ip_version = ctx_.gid().is_ipv4() ? 4 : 6;
	ch.src_port = id.local_port_;
	if (ch.ip_version == 4) { /* IPv4 in the last 4 bytes, as librdmacm's cma_hdr */
		std::copy_n(ctx_.gid().raw.begin() + 12, 4, ch.src_addr.begin() + 12);
		std::copy_n(id.av_.gid.raw.begin() + 12, 4, ch.dst_addr.begin() + 12);
	} else {
		ch.src_addr = ctx_.gid().raw;
		ch.dst_addr = id.av_.gid.raw;
	}
	return ch;
}

void CmImpl::send_sidr_req(CmIdImpl &id)
{
	mad::CmSidrReq r;
	r.request_id = id.local_comm_id_;
	r.partition_key = 0xFFFF;
	r.service_id = mad::service_id(mad::PortSpace::udp, id.remote_port_);
	mad::encode_cma_hdr(cma_hdr(id), r.private_data);
	mad::MadHeader h;
	id.tid_ = next_tid();
	h.transaction_id = id.tid_;
	mad::encode(h, r, id.last_);
	id.state_ = CmState::sidr_req_sent;
	send(id, true);
}

void CmImpl::send_sidr_rep(const AddressVector &av, uint64_t tid, uint32_t request_id, uint64_t sid,
			   uint8_t status, uint32_t qpn)
{
	mad::MadHeader h;
	h.transaction_id = tid;
	mad::CmSidrRep r;
	r.request_id = request_id;
	r.status = status;
	r.qpn = qpn;
	r.service_id = sid;
	r.q_key = status == 0 ? kRdmaUdpQkey : 0;
	mad::Mad m;
	mad::encode(h, r, m);
	send_to(av, m);
}

void CmImpl::send_req(CmIdImpl &id)
{
	mad::CmReq &r = id.req_;
	r = {};
	r.local_comm_id = id.local_comm_id_;
	r.service_id = mad::service_id(mad::PortSpace::tcp, id.remote_port_);
	r.local_ca_guid = guid_;
	r.local_qpn = id.qp_->qp_num();
	r.responder_resources = id.param_.responder_resources;
	r.initiator_depth = id.param_.initiator_depth;
	r.remote_cm_response_timeout = cfg_.cm_response_timeout;
	r.transport_service_type = 0; /* RC */
	r.starting_psn = id.local_psn_;
	r.local_cm_response_timeout = cfg_.cm_response_timeout;
	r.retry_count = id.param_.retry_count & 7;
	r.partition_key = 0xFFFF;
	r.path_packet_payload_mtu = uint8_t(ctx_.active_mtu());
	r.rnr_retry_count = id.param_.rnr_retry_count & 7;
	r.max_cm_retries = cfg_.max_cm_retries & 0xF;
	r.srq = id.param_.srq;
	r.primary.local_port_gid = ctx_.gid().raw;
	r.primary.remote_port_gid = id.av_.gid.raw;
	r.primary.packet_rate = cfg_.packet_rate;
	r.primary.hop_limit = 64;
	r.primary.local_ack_timeout = cfg_.local_ack_timeout;
	mad::encode_cma_hdr(cma_hdr(id), r.private_data);
	std::copy(id.param_.private_data.begin(), id.param_.private_data.end(),
		  r.private_data.begin() + mad::kCmaHdrSize);
	mad::MadHeader h;
	id.tid_ = next_tid();
	h.transaction_id = id.tid_;
	mad::encode(h, r, id.last_);
	id.state_ = CmState::req_sent;
	send(id, true);
}

int CmImpl::accept(CmIdImpl &id, QueuePair &qp, const ConnParam &p)
{
	if (id.state_ == CmState::sidr_req_rcvd) {
		if (qp.type() != IBV_QPT_UD)
			return -EINVAL;
		if (int rc = ud_to_rts(qp))
			return rc;
		id.qp_ = &qp;
		send_sidr_rep(id.av_, id.tid_, id.remote_comm_id_,
			      mad::service_id(mad::PortSpace::udp, id.local_port_), 0, qp.qp_num());
		id.state_ = CmState::established; /* SIDR has no RTU (IBA 12.11) */
		return 0;
	}
	if (id.state_ != CmState::req_rcvd || qp.type() != IBV_QPT_RC ||
	    p.private_data.size() > 196 ||
	    (qp.state() != IBV_QPS_RESET && qp.state() != IBV_QPS_INIT))
		return -EINVAL;
	const mad::CmReq &r = id.req_;
	int rc = qp_to_init(qp, p.responder_resources > 0);
	if (rc)
		return rc;
	/* cm.c cm_init_qp_rtr_attr / cm_init_qp_rts_attr, passive side: the REQ's QPN, path MTU,
	 * ACK timeout, retry and RNR retry counts. A message's Starting PSN is the PSN its sender
	 * will receive at (Linux: cm_req_handler takes the REQ's as the passive sq_psn, and
	 * rdma_init_qp_attr sets rq_psn to the id's own seq_num, the one its REQ/REP carried):
	 * we receive at ours (in the REP) and send at the REQ's. */
	QpAttr a;
	a.qp_state = IBV_QPS_RTR;
	a.ah_attr = id.av_;
	a.path_mtu = mtu_code(r.path_packet_payload_mtu);
	a.dest_qp_num = r.local_qpn;
	a.rq_psn = id.local_psn_;
	a.max_dest_rd_atomic = p.responder_resources;
	rc = qp.modify(a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (rc)
		return rc;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = r.starting_psn;
	a.timeout = r.primary.local_ack_timeout;
	a.retry_cnt = r.retry_count;
	a.rnr_retry = r.rnr_retry_count;
	a.max_rd_atomic = std::min(p.initiator_depth, r.responder_resources);
	rc = qp.modify(a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				  IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
	if (rc)
		return rc;
	id.qp_ = &qp;
	id.param_ = p;
	mad::CmRep rep;
	rep.local_comm_id = id.local_comm_id_;
	rep.remote_comm_id = id.remote_comm_id_;
	rep.local_qpn = qp.qp_num();
	rep.starting_psn = id.local_psn_;
	rep.responder_resources = p.responder_resources;
	rep.initiator_depth = a.max_rd_atomic;
	rep.target_ack_delay = 15;
	rep.rnr_retry_count = p.rnr_retry_count & 7;
	rep.srq = p.srq;
	rep.local_ca_guid = guid_;
	copy_pd(rep.private_data, p.private_data);
	mad::MadHeader h;
	h.transaction_id = id.tid_; /* the REQ's (cm.c: the passive side answers in its TID) */
	mad::encode(h, rep, id.last_);
	id.state_ = CmState::rep_sent;
	send(id, true);
	return 0;
}

int CmImpl::reject(CmIdImpl &id, std::span<const uint8_t> pd)
{
	if (id.state_ == CmState::sidr_req_rcvd) {
		send_sidr_rep(id.av_, id.tid_, id.remote_comm_id_,
			      mad::service_id(mad::PortSpace::udp, id.local_port_),
			      2 /* rejected */, 0);
		id.state_ = CmState::rejected;
		return 0;
	}
	if (id.state_ != CmState::req_rcvd)
		return -EINVAL;
	send_rej(id.av_, id.tid_, id.local_comm_id_, id.remote_comm_id_, mad::MsgKind::req,
		 mad::RejReason::consumer_defined, pd);
	id.state_ = CmState::rejected;
	id.deadline_ = 0;
	return 0;
}

int CmImpl::disconnect(CmIdImpl &id)
{
	if (id.state_ != CmState::established && id.state_ != CmState::rep_sent)
		return id.state_ == CmState::dreq_sent || id.state_ == CmState::timewait ? 0
											 : -EINVAL;
	QpAttr a;
	a.qp_state = IBV_QPS_ERR;
	if (id.qp_)
		id.qp_->modify(a, IBV_QP_STATE);
	mad::CmDreq d;
	d.local_comm_id = id.local_comm_id_;
	d.remote_comm_id = id.remote_comm_id_;
	d.remote_qpn_eecn = id.remote_qpn_;
	mad::MadHeader h;
	id.tid_ = next_tid();
	h.transaction_id = id.tid_;
	mad::encode(h, d, id.last_);
	id.state_ = CmState::dreq_sent;
	send(id, true);
	return 0;
}

void CmImpl::destroy_id(CmIdImpl *id)
{
	if (id == nullptr)
		return;
	if (id->state_ == CmState::req_rcvd || id->state_ == CmState::sidr_req_rcvd)
		reject(*id);
	else if ((id->state_ == CmState::established && !id->ud_) ||
		 id->state_ == CmState::rep_sent)
		disconnect(*id); /* one DREQ; the peer's DREQ retries get a DREP (stale id) */
	else if (id->state_ == CmState::req_sent)
		send_rej(id->av_, id->tid_, id->local_comm_id_, 0, mad::MsgKind::req,
			 mad::RejReason::timeout);
	std::erase_if(events_, [id](const CmEvent &e) { return e.id == id || e.listen_id == id; });
	std::erase_if(ids_, [id](const auto &p) { return p.get() == id; });
}

/* ---------------------------------------------------------------------------------------
 * Timers
 * --------------------------------------------------------------------------------------- */
void CmImpl::enter_timewait(CmIdImpl &id)
{
	id.state_ = CmState::timewait;
	id.retransmit_ = false;
	set_timer(id, uint64_t(cfg_.timewait_ms) * 1000000);
}

void CmImpl::progress()
{
	uint64_t now = rte_get_timer_cycles();
	for (size_t i = 0; i < ids_.size(); i++) {
		CmIdImpl &id = *ids_[i];
		if (id.state_ == CmState::addr_query) {
			MacAddr mac;
			int rc = ctx_.resolve(id.av_.gid, mac);
			if (rc == 0) {
				id.av_.mac = mac;
				if (id.ud_)
					send_sidr_req(id);
				else
					send_req(id);
			} else if (rc != -EAGAIN ||
				   now - id.started_ >=
					   uint64_t(cfg_.resolve_timeout_ms) * hz_ / 1000) {
				id.state_ = CmState::rejected;
				push(CmEventType::unreachable, &id, -EHOSTUNREACH);
			}
			continue;
		}
		if (id.deadline_ == 0 || now < id.deadline_)
			continue;
		id.deadline_ = 0;
		if (id.state_ == CmState::timewait) {
			id.state_ = CmState::idle;
			push(CmEventType::timewait_exit, &id);
			continue;
		}
		if (!id.retransmit_)
			continue;
		if (id.retries_left_ > 0) {
			id.retries_left_--;
			stats_.retransmits++;
			send_to(id.av_, id.last_);
			set_timer(id, response_ns());
			continue;
		}
		/* Out of retries (IBA 12.9.5.x: a REJ with reason Timeout for REQ/REP). */
		stats_.timeouts++;
		id.retransmit_ = false;
		if (id.state_ == CmState::sidr_req_sent) {
			id.state_ = CmState::rejected;
			push(CmEventType::unreachable, &id, -ETIMEDOUT);
		} else if (id.state_ == CmState::req_sent || id.state_ == CmState::rep_sent) {
			send_rej(id.av_, id.tid_, id.local_comm_id_, id.remote_comm_id_,
				 id.state_ == CmState::req_sent ? mad::MsgKind::req
								: mad::MsgKind::rep,
				 mad::RejReason::timeout);
			id.state_ = CmState::rejected;
			QpAttr a;
			a.qp_state = IBV_QPS_ERR;
			if (id.qp_)
				id.qp_->modify(a, IBV_QP_STATE);
			push(CmEventType::unreachable, &id, -ETIMEDOUT);
		} else if (id.state_ == CmState::dreq_sent) {
			enter_timewait(id);
			push(CmEventType::disconnected, &id);
		}
	}
}

} /* namespace gaudi::roce */
