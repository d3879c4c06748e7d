/* SPDX-License-Identifier: BSD-3-Clause */
/* roce_perftest -R: perftest's rdma_cm mode (see roce_perftest.h) over our RDMA CM (roce_cm.h).
 * From perftest 4.5-0.17's source (perftest_parameters.c: -R sets work_rdma_cm and with it
 * use_rdma_cm; perftest_communication.c and perftest_resources.c):
 *   - the exchange is not TCP: establish_connection() makes an RC connection through the CM to
 *     the server's port (-p, port space TCP; rdma_server_connect / rdma_client_connect: no
 *     responder resources, retry and RNR retry 7), and ctx_xchg_data / ctx_hand_shake go as
 *     SENDs on it, one receive of sizeof(struct pingpong_dest) = 56 bytes posted at a time and
 *     posted again after each message (rdma_read_data). The client sends first.
 *   - the keys (rdma_write_keys) are struct pingpong_dest in binary, big-endian fields (x86-64
 *     layout): lid, out_reads, qpn, psn, rkey at 0..19, vaddr at 24, the GID at 32, srqn at 48,
 *     gid_index at 52. The other messages (version, cycle buffer, MTU, reports) as over TCP.
 *   - create_rdma_cm_connection(), after ctx_init and before any key hand shake: a hand shake,
 *     then one CM connection per QP to the same port (the client connects; the server accepts
 *     -q CONNECT_REQUESTs, responder resources and initiator depth = out_reads for READ and
 *     atomics, 0 otherwise; perftest's server does not wait for the RTU), then a hand shake.
 *     The CM moves the QPs to RTS: no ctx_connect, no GID check.
 *   - ctx_close_connection is the hand shake alone (no "done"); then destroy_ctx(): the client
 *     disconnects each test QP (DREQ) and waits for the DISCONNECTED events, the exchange's
 *     connection ends when the process closes it.
 * The client retries a connection the server rejected (it may not listen yet), as perftest's
 * rdma_cm_client_connection does (every 100 ms).
 * Every QP the CM connects, the exchange's and the test's, ends with perftest's settings: retry
 * and RNR retry 7 (conn_param, above) and ACK timeout 14 (DEF_QP_TIME), which perftest sets
 * since 24.10.0-0.66 (commits ccae524, b8aa202) with rdma_set_option(RDMA_OPTION_ID_ACK_TIMEOUT)
 * on both sides; without it the passive side takes the REQ's (Linux's REQ carries 19, 2.1 s;
 * Debian's perftest 4.5-0.17 leaves it so) and the active side its CM's. */
#include <sched.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include <rte_cycles.h>

#include "roce_perftest.h"

using namespace gaudi::roce;

namespace gaudi::examples::perftest {

namespace {

constexpr uint64_t kSyncId = 5;	       /* SYNC_SPEC_ID */
constexpr uint32_t kDestSize = 56;     /* sizeof(struct pingpong_dest) on x86-64 */
constexpr unsigned kRetries = 50;      /* rejected connections tried again (perftest: 10) */
constexpr unsigned kTeardownMs = 5000; /* longest wait for the DISCONNECTED events */
constexpr uint8_t kQpTimeout = 14;     /* DEF_QP_TIME: 4.096 us * 2^14, 67 ms */

void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = uint8_t(v >> (24 - 8 * i));
}

uint32_t get32(const uint8_t *p)
{
	return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

uint64_t ms_to_tsc(unsigned ms)
{
	return rte_get_timer_cycles() + rte_get_timer_hz() * ms / 1000;
}

/* rdma_set_option(RDMA_OPTION_ID_ACK_TIMEOUT, DEF_QP_TIME) on a QP the CM brought to RTS. */
bool set_ack_timeout(QueuePair &qp)
{
	QpAttr a;
	a.timeout = kQpTimeout;
	if (qp.modify(a, IBV_QP_TIMEOUT) != 0) {
		fprintf(stderr, "rdma_cm: couldn't set the QP's ACK timeout\n");
		return false;
	}
	return true;
}

} /* namespace */

CmOob::CmOob(Context &ctx, const Opts &o) : ctx_(ctx), o_(o) {}

CmOob::~CmOob()
{
	if (cm_) {
		for (CmId *id : ids_)
			cm_->destroy_id(id);
		if (comm_)
			cm_->destroy_id(comm_);
		if (listen_)
			cm_->destroy_id(listen_);
	}
	cm_.reset();
	qp_.reset();
	smr_.reset();
	rmr_.reset();
	scq_.reset();
	rcq_.reset();
	pd_.reset();
}

bool CmOob::open()
{
	CmConfig cfg;
	cfg.local_ack_timeout = kQpTimeout; /* our REQs' (the CM's default too) */
	cm_ = std::make_unique<ConnectionManager>(ctx_, cfg);
	pd_ = ctx_.alloc_pd();
	scq_ = ctx_.create_cq(4);
	rcq_ = ctx_.create_cq(4);
	int err = 0;
	smr_ = ctx_.reg_mr(*pd_, sbuf_.data(), sbuf_.size(), 0, &err);
	rmr_ = ctx_.reg_mr(*pd_, rbuf_.data(), rbuf_.size(), IBV_ACCESS_LOCAL_WRITE, &err);
	QpInitAttr a; /* create_comm_struct: RC, tx_depth 1, rx_depth 1 */
	a.qp_type = IBV_QPT_RC;
	a.send_cq = scq_.get();
	a.recv_cq = rcq_.get();
	a.cap.max_send_wr = a.cap.max_recv_wr = 2;
	a.cap.max_send_sge = a.cap.max_recv_sge = 1;
	if (scq_ && rcq_ && smr_ && rmr_)
		qp_ = ctx_.create_qp(*pd_, a, &err);
	if (!qp_) {
		fprintf(stderr, "rdma_cm: couldn't create the exchange's QP (%d)\n", err);
		return false;
	}
	ConnParam p; /* perftest's conn_param for the exchange (its verb is SEND) */
	p.responder_resources = p.initiator_depth = 0;
	if (o_.server) {
		std::array<uint8_t, 4> ip{};
		if (!parse_ipv4(o_.server, ip)) {
			fprintf(stderr, "%s: -R: the server is an IPv4 address, not %s\n",
				prog_name(), o_.server);
			return false;
		}
		server_ = Gid::from_ipv4(ip);
		if (!connect_retry(*qp_, p, &comm_))
			return false;
	} else {
		int rc = cm_->listen(uint16_t(o_.tcp_port), &listen_);
		if (rc) {
			fprintf(stderr, "rdma_listen on port %d: %s\n", o_.tcp_port, strerror(-rc));
			return false;
		}
		char ip[46];
		ctx_.gid().to_string(ip);
		printf(" rdma_cm: listening on %s port %d\n", ip, o_.tcp_port);
		if (!accept_next(*qp_, p, &comm_))
			return false;
	}
	if (!post_recv())
		return false;
	printf(" rdma_cm: connected the exchange's QP %#06x to the peer's %#06x\n", qp_->qp_num(),
	       comm_->remote_qpn());
	return true;
}

bool CmOob::post_recv()
{
	Sge s{reinterpret_cast<uintptr_t>(rbuf_.data()), kDestSize, rmr_->lkey()};
	if (qp_->post_recv({kSyncId, {&s, 1}}) != 0) {
		fprintf(stderr, "rdma_cm: couldn't post the exchange's receive\n");
		return false;
	}
	return true;
}

bool CmOob::pump()
{
	bool busy = ctx_.poll() != 0;
	CmEvent ev;
	while (cm_->get_event(ev)) {
		busy = true;
		if (ev.type == CmEventType::timewait_exit)
			continue;
		if (ev.id == comm_ && ev.type == CmEventType::disconnected) {
			comm_down_ = true;
			continue;
		}
		events_.push_back(ev);
	}
	if (!busy)
		sched_yield(); /* a peer sharing this CPU (a VM, say) gets it at once */
	return busy;
}

bool CmOob::next_event(CmEvent &ev, uint64_t deadline)
{
	while (events_.empty()) {
		if (rte_get_timer_cycles() >= deadline)
			return false;
		pump();
	}
	ev = events_.front();
	events_.pop_front();
	return true;
}

bool CmOob::connect_retry(QueuePair &qp, const ConnParam &p, CmId **out)
{
	for (unsigned attempt = 0;; attempt++) {
		if (qp.state() != IBV_QPS_RESET) {
			QpAttr a;
			a.qp_state = IBV_QPS_RESET;
			qp.modify(a, IBV_QP_STATE);
		}
		CmId *id = nullptr;
		int rc = cm_->connect(server_, uint16_t(o_.tcp_port), qp, p, &id);
		if (rc) {
			fprintf(stderr, "rdma_connect: %s\n", strerror(-rc));
			return false;
		}
		CmEvent ev;
		do {
			if (!next_event(ev))
				return false;
		} while (ev.id != id); /* nothing else is expected while connecting */
		if (ev.type == CmEventType::established) {
			*out = id;
			return set_ack_timeout(qp);
		}
		cm_->destroy_id(id);
		if (ev.type != CmEventType::rejected || attempt + 1 >= kRetries) {
			fprintf(stderr, "rdma_cm: connecting to port %d: event %s, status %d\n",
				o_.tcp_port, std::string(cm_event_name(ev.type)).c_str(),
				ev.status);
			return false;
		}
		/* Rejected: the server may not listen yet (perftest's client retries too). */
		const uint64_t until = ms_to_tsc(100);
		while (rte_get_timer_cycles() < until)
			pump();
	}
}

bool CmOob::accept_next(QueuePair &qp, const ConnParam &p, CmId **out)
{
	CmEvent ev;
	for (;;) {
		if (!next_event(ev))
			return false;
		if (ev.type == CmEventType::connect_request && ev.listen_id == listen_)
			break;
		if (ev.type != CmEventType::established) /* the RTU of one we took: nothing to do */
			fprintf(stderr, "rdma_cm: event %s ignored while listening\n",
				std::string(cm_event_name(ev.type)).c_str());
	}
	int rc = cm_->accept(*ev.id, qp, p);
	if (rc) {
		fprintf(stderr, "rdma_accept: %s\n", strerror(-rc));
		cm_->reject(*ev.id);
		cm_->destroy_id(ev.id);
		return false;
	}
	*out = ev.id;
	return set_ack_timeout(qp);
}

bool CmOob::wait_wc(CompletionQueue &cq, WorkCompletion &wc)
{
	/* The CQ is looked at once more after the peer's disconnection: the client disconnects as
	 * soon as it has the last message, and the ACK of ours came before its DREQ. */
	while (cq.poll_cq({&wc, 1}) == 0) {
		if (comm_down_) {
			fprintf(stderr, "rdma_cm: the peer disconnected the exchange\n");
			return false;
		}
		pump();
	}
	return true;
}

bool CmOob::send(const void *b, size_t n)
{
	if (comm_down_)
		return false;
	memcpy(sbuf_.data(), b, n);
	Sge s{reinterpret_cast<uintptr_t>(sbuf_.data()), uint32_t(n), smr_->lkey()};
	SendWr w;
	w.wr_id = kSyncId;
	w.sg_list = {&s, 1};
	w.opcode = IBV_WR_SEND;
	w.send_flags = IBV_SEND_SIGNALED;
	if (qp_->post_send(w) != 0)
		return false;
	WorkCompletion wc;
	if (!wait_wc(*scq_, wc))
		return false;
	if (wc.status != IBV_WC_SUCCESS) {
		fprintf(stderr, "rdma_cm: the exchange's SEND failed: status %d\n", int(wc.status));
		return false;
	}
	return true;
}

bool CmOob::recv(void *b, size_t n)
{
	WorkCompletion wc;
	if (!wait_wc(*rcq_, wc))
		return false;
	if (wc.status != IBV_WC_SUCCESS || wc.byte_len < n) {
		fprintf(stderr, "rdma_cm: the exchange's receive failed: status %d, %u bytes\n",
			int(wc.status), wc.byte_len);
		return false;
	}
	memcpy(b, rbuf_.data(), n);
	return post_recv();
}

bool CmOob::xchg(const void *mine, void *theirs, size_t n)
{
	if (n > kDestSize)
		return false;
	if (o_.server)
		return send(mine, n) && recv(theirs, n);
	return recv(theirs, n) && send(mine, n);
}

bool CmOob::xchg_keys(const Dest &mine, Dest &theirs)
{
	uint8_t m[kDestSize] = {}, t[kDestSize];
	put32(m + 0, mine.lid);
	put32(m + 4, mine.out_reads);
	put32(m + 8, mine.qpn);
	put32(m + 12, mine.psn);
	put32(m + 16, mine.rkey);
	put32(m + 24, uint32_t(mine.vaddr >> 32));
	put32(m + 28, uint32_t(mine.vaddr));
	std::copy(mine.gid.raw.begin(), mine.gid.raw.end(), m + 32);
	put32(m + 48, mine.srqn);
	if (!xchg(m, t, sizeof m))
		return false;
	theirs.lid = get32(t + 0);
	theirs.out_reads = get32(t + 4);
	theirs.qpn = get32(t + 8);
	theirs.psn = get32(t + 12);
	theirs.rkey = get32(t + 16);
	theirs.vaddr = uint64_t(get32(t + 24)) << 32 | get32(t + 28);
	std::copy(t + 32, t + 48, theirs.gid.raw.begin());
	theirs.srqn = get32(t + 48);
	return true;
}

bool CmOob::connect_qps(std::span<const std::unique_ptr<QueuePair>> qps, Dest &mine, Dest &theirs)
{
	const bool rd = o_.test == Test::read || o_.test == Test::atomic;
	if (!xchg_keys(mine, theirs))
		return false;
	for (const auto &qp : qps) {
		ConnParam p;
		p.responder_resources = p.initiator_depth = rd ? uint8_t(kOutReads) : 0;
		CmId *id = nullptr;
		if (o_.server ? !connect_retry(*qp, p, &id) : !accept_next(*qp, p, &id))
			return false;
		ids_.push_back(id);
	}
	if (listen_) { /* perftest's server destroys its listener once every QP is connected */
		cm_->destroy_id(listen_);
		listen_ = nullptr;
	}
	const QpAttr &a = qps.front()->attr();
	printf(" rdma_cm: connected %zu QP(s) to port %d (ACK timeout %u, retry %u, RNR retry "
	       "%u)\n",
	       ids_.size(), o_.tcp_port, a.timeout, a.retry_cnt, a.rnr_retry);
	return xchg_keys(mine, theirs);
}

void CmOob::teardown()
{
	/* Ours the client: DREQ for the test's connections, then the exchange's. The server
	 * answers the peer's (the CM sends the DREP). */
	if (o_.server) {
		for (CmId *id : ids_)
			cm_->disconnect(*id);
		cm_->disconnect(*comm_);
	}
	size_t down = 0;
	const uint64_t deadline = ms_to_tsc(kTeardownMs);
	while (down < ids_.size() || !comm_down_) {
		if (rte_get_timer_cycles() >= deadline) {
			fprintf(stderr,
				"rdma_cm: %zu of %zu connections%s not disconnected within %u "
				"ms\n",
				ids_.size() - down, ids_.size(),
				comm_down_ ? "" : " and the exchange's", kTeardownMs);
			return;
		}
		pump(); /* the exchange's disconnection sets comm_down_ */
		for (; !events_.empty(); events_.pop_front())
			if (events_.front().type == CmEventType::disconnected &&
			    std::find(ids_.begin(), ids_.end(), events_.front().id) != ids_.end())
				down++;
	}
	printf(" rdma_cm: disconnected %zu QP(s) and the exchange's\n", ids_.size());
}

} /* namespace gaudi::examples::perftest */
