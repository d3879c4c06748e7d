/* SPDX-License-Identifier: BSD-3-Clause */
/* roce_perftest: set-up, connection (perftest's ctx_connect), closing (see roce_perftest.h). */
#include <arpa/inet.h>
#include <endian.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "peer_mac.h"
#include "roce_perftest.h"

using namespace gaudi::roce;

namespace gaudi::examples::perftest {

/* The context, the out-of-band channel and what goes over it before the QPs (exchange_versions,
 * check_sys_data, check_mtu), then the resources (ctx_init) and each QP's keys
 * (set_up_connection). */
int Peer::setup(rte_mempool *mp)
{
	std::array<uint8_t, 4> ip =
		o_.ip_set ? o_.ip : std::array<uint8_t, 4>{10, 0, 0, uint8_t(o_.server ? 2 : 1)};
	ctx_ = open_context(o_.dpdk_port, mp, ip, o_.gid_idx == 0);
	if (!ctx_)
		return 1;
	int err = 0;
	if (o_.rdma_cm) {
		auto cm = std::make_unique<CmOob>(*ctx_, o_);
		if (!cm->open())
			return 1;
		cm_ = cm.get();
		ch_ = std::move(cm);
	} else if (!(ch_ = open_tcp_oob(*ctx_, o_.server, o_.tcp_port))) {
		return 1;
	}
	char rv[16] = {};
	if (!ch_->xchg(kVersion, rv, sizeof rv))
		return fail("version exchange");
	rv[15] = 0;
	if (atof(rv) < kMinPeerVersion) {
		fprintf(stderr, "peer perftest version %s older than 5.70\n", rv);
		return 1;
	}
	uint32_t cycle = htobe32(4096), line = htobe32(64), rcycle = 0, rline = 0;
	if (!ch_->xchg(&cycle, &rcycle, 4) || !ch_->xchg(&line, &rline, 4))
		return fail("system data exchange");
	cycle_ = std::max<uint32_t>(4096, be32toh(rcycle));
	ibv_mtu mine = o_.mtu ? o_.mtu : port_ib_mtu(o_.dpdk_port, 16 /* RETH */);
	char mm[2] = {char('0' + int(mine)), 0}, rm[2] = {};
	if (!ch_->xchg(mm, rm, 2))
		return fail("MTU exchange");
	int r = rm[0] - '0';
	mtu_ = (r >= IBV_MTU_256 && r <= IBV_MTU_4096 && r < int(mine)) ? ibv_mtu(r) : mine;
	/* Resources (ctx_init): one buffer of 2 x max(size, cycle buffer). */
	uint64_t size = o_.all ? kMaxSize : o_.size;
	half_ = (std::max<uint64_t>(size, cycle_) + 63) & ~uint64_t(63);
	buf_ = static_cast<uint8_t *>(rte_zmalloc("perftest_buf", 2 * half_, 4096));
	if (buf_ == nullptr)
		return fail("buffer allocation");
	pd_ = ctx_->alloc_pd();
	cq_ = ctx_->create_cq(o_.tx_depth * o_.num_qps + 16);
	rcq_ = ctx_->create_cq(o_.rx_depth * o_.num_qps + 16);
	mr_ = ctx_->reg_mr(*pd_, buf_, 2 * half_,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC,
			   &err);
	QpInitAttr a;
	a.qp_type = IBV_QPT_RC;
	a.send_cq = cq_.get();
	a.recv_cq = rcq_.get();
	a.cap.max_send_wr = o_.tx_depth;
	a.cap.max_recv_wr = o_.rx_depth;
	a.cap.max_send_sge = a.cap.max_recv_sge = 1;
	a.cap.max_inline_data = o_.inline_size;
	srand48(getpid() * time(nullptr));
	my_.assign(o_.num_qps, Dest{});
	rem_.assign(o_.num_qps, Dest{});
	for (uint32_t i = 0; i < o_.num_qps && cq_ && rcq_ && mr_; i++) {
		qps_.push_back(ctx_->create_qp(*pd_, a, &err));
		if (!qps_.back())
			break;
		QpAttr at; /* with -R the CM takes the QP from RESET */
		at.qp_state = IBV_QPS_INIT;
		at.qp_access_flags =
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
		if (!cm_ &&
		    qps_[i]->modify(at, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS))
			return fail("QP to INIT");
		Dest &d = my_[i];
		d.lid = 0;
		d.out_reads = o_.test == Test::read || o_.test == Test::atomic ? kOutReads : 1;
		d.qpn = qps_[i]->qp_num();
		d.psn = uint32_t(lrand48() & 0xffffff);
		d.rkey = mr_->rkey();
		/* One target for all QPs: perftest's peers write/read/add wherever we say. */
		d.vaddr = reinterpret_cast<uintptr_t>(buf_) + half_;
		d.gid = ctx_->gid();
	}
	if (qps_.size() != o_.num_qps || !qps_.back())
		return fail("QP/CQ/MR creation");
	return 0;
}

int Peer::run(rte_mempool *mp)
{
	if (int rc = setup(mp))
		return rc;
	if (cm_ && !cm_->connect_qps(qps_, my_[0], rem_[0]))
		return fail("RDMA CM connection");
	/* write_lat.c and read_lat.c hand shake once before the per-QP ones. */
	if (o_.lat && o_.test != Test::send && !hand_shake())
		return fail("key exchange");
	for (uint32_t i = 0; i < o_.num_qps; i++)
		if (!hand_shake(i))
			return fail("key exchange");
	if (!cm_ && my_[0].gid.is_ipv4() != rem_[0].gid.is_ipv4()) {
		fprintf(stderr, "\n Found Incompatibility issue with GID types.\n");
		return 1;
	}
	if (!cm_ && connect())
		return 1;
	/* send_bw.c / send_lat.c: one hand shake after RTR, then the per-QP ones; the
	 * others: the per-QP ones, then one after RTR. */
	if (o_.test == Test::send && !hand_shake())
		return fail("hand shake");
	for (uint32_t i = 0; i < o_.num_qps; i++)
		print_dest(" local", my_[i]);
	for (uint32_t i = 0; i < o_.num_qps; i++) {
		if (!hand_shake(i))
			return fail("hand shake");
		print_dest("remote", rem_[i]);
	}
	if (o_.test != Test::send && !hand_shake())
		return fail("hand shake");
	if (o_.lat)
		return run_lat();
	printf("---------------------------------------------------------------------------"
	       "------------\n");
	printf(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   "
	       "MsgRate[Mpps]\n");
	int rc = o_.test == Test::send ? run_send() : run_rdma();
	if (rc == 0) {
		/* ctx_close_connection: a hand shake, then (TCP) "done". */
		if (!hand_shake() || !ch_->close())
			return fail("closing the connection");
		finish();
	}
	printf("---------------------------------------------------------------------------"
	       "------------\n");
	if (rc == 0) /* what it took on the wire (retransmits, timeouts: see the guide) */
		print_counters();
	return rc;
}

/* The peer may still wait for our last ACKs (and, with -R, for the disconnection). */
void Peer::finish()
{
	if (cm_)
		cm_->teardown();
	else
		keep_answering(*ctx_);
}

Peer::~Peer()
{
	ch_.reset(); /* the CM's ids name the QPs */
	qps_.clear();
	mr_.reset();
	cq_.reset();
	rcq_.reset();
	pd_.reset();
	ctx_.reset();
	rte_free(buf_);
}

int Peer::fail(const char *what)
{
	fprintf(stderr, "%s failed\n", what);
	if (ctx_)
		print_counters();
	return 1;
}
void Peer::print_counters()
{
	const Counters &c = ctx_->counters();
	fprintf(stderr,
		" transport: frames rx %" PRIu64 " tx %" PRIu64 ", acks rx %" PRIu64 " tx %" PRIu64
		", naks rx %" PRIu64 " tx %" PRIu64 ", rnr naks rx %" PRIu64 " tx %" PRIu64
		", retransmits %" PRIu64 ", timeouts %" PRIu64 ", duplicates %" PRIu64
		", out of sequence %" PRIu64 ", remote access errors %" PRIu64 "\n",
		c.rx_frames, c.tx_frames, c.acks_rcvd, c.acks_sent, c.naks_rcvd, c.naks_sent,
		c.rnr_naks_rcvd, c.rnr_naks_sent, c.retransmits, c.timeouts, c.rx_duplicates,
		c.rx_out_of_sequence, c.remote_access_errors);
}
void Peer::print_dest(const char *side, const Dest &d)
{
	printf(" %s address: LID %#04x QPN %#06x PSN %#06x OUT %#04x RKey %#08x VAddr "
	       "%#016" PRIx64 "\n",
	       side, d.lid, d.qpn, d.psn, d.out_reads, d.rkey, d.vaddr);
	char ip[INET6_ADDRSTRLEN];
	inet_ntop(AF_INET6, d.gid.raw.data(), ip, sizeof ip);
	printf(" GID: %s\n", ip);
}
/* perftest's ctx_set_send_wqes: WRITE and SEND of at most -I bytes go inline (the data is
 * copied into the WQE at post time). */
unsigned Peer::inline_flag(uint64_t size) const
{
	bool can = o_.test == Test::write || o_.test == Test::send;
	return can && size <= o_.inline_size ? IBV_SEND_INLINE : 0;
}
/* ctx_hand_shake: QP i's keys both ways (the sync points use QP 0's). */
bool Peer::hand_shake(uint32_t i)
{
	return ch_->xchg_keys(my_[i], rem_[i]);
}
/* ctx_connect: every QP to RTR and RTS (the peer's MAC resolved once: one GID). */
int Peer::connect()
{
	MacAddr mac = o_.peer_mac;
	if (!o_.peer_mac_set && wait_peer_mac(*ctx_, rem_[0].gid, mac, kResolveMs) != 0)
		return 1;
	for (uint32_t i = 0; i < o_.num_qps; i++) {
		QpAttr a;
		a.qp_state = IBV_QPS_RTR;
		a.path_mtu = mtu_;
		a.dest_qp_num = rem_[i].qpn;
		a.rq_psn = rem_[i].psn;
		a.max_dest_rd_atomic = uint8_t(my_[i].out_reads);
		a.min_rnr_timer = 12;
		a.ah_attr = {mac, rem_[i].gid, 0, 0, 0xff}; /* perftest: hop_limit 0xFF */
		if (qps_[i]->modify(a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
					       IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
					       IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)) {
			fprintf(stderr, "Failed to modify QP to RTR\n");
			return 1;
		}
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = my_[i].psn;
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = uint8_t(std::clamp<uint32_t>(rem_[i].out_reads, 1, kMaxRdAtomic));
		if (qps_[i]->modify(a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
					       IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
					       IBV_QP_MAX_QP_RD_ATOMIC)) {
			fprintf(stderr, "Failed to modify QP to RTS\n");
			return 1;
		}
	}
	return 0;
}
int Peer::qp_index(uint32_t qpn) const
{
	for (size_t i = 0; i < qps_.size(); i++)
		if (qps_[i]->qp_num() == qpn)
			return int(i);
	return -1;
}
} /* namespace gaudi::examples::perftest */
