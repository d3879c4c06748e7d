/* SPDX-License-Identifier: BSD-3-Clause */
// roce_perftest: a peer for perftest's ib_write_bw, ib_read_bw, ib_send_bw, ib_atomic_bw and the
// latency tests ib_write_lat, ib_read_lat, ib_send_lat (RC) on the
// userspace RoCE v2 transport (drivers/net/gaudi/roce/roce_verbs.h) over any DPDK port.
//
//   roce_perftest [EAL args] -- --test=TEST [options]            server
//   roce_perftest [EAL args] -- --test=TEST [options] <host>     client
//
// TEST: write, read, send, atomic (the ib_*_bw tests), write_lat, read_lat, send_lat.
//
// Options as perftest's where they apply (both sides must be given the same ones):
//   -s, --size=<bytes>      message size (default 65536, latency tests 2; atomic: 8 only)
//   -a, --all               all sizes 2 .. 2^23
//   -n, --iters=<n>         messages per size (default 5000, latency tests 1000; at least 5)
//   -m, --mtu=<bytes>       path MTU (default the port's; the smaller of both sides is used)
//   -p, --port=<port>       TCP port (default 18515)
//   -t, --tx-depth=<n>      outstanding send WRs (default 128)
//   -r, --rx-depth=<n>      receives posted by a send server (default 512)
//   -x, --gid-index=0|1     as roce_pingpong's -g (default 1: IPv4)
//   -A, --atomic_type=FETCH_AND_ADD|CMP_AND_SWAP   the atomic test's operation (default FAA)
//   -q, --qp=<n>            QPs (1..64; bandwidth tests): each moves -n messages, the
//                           report counts all (perftest's iterations x QPs)
//   -b, --bidirectional     write and read: both sides run at once, each prints the sum
//   -D, --duration=<sec>    write, read, atomic: run for this long instead of -n messages
//   -I, --inline_size=<n>   WRITEs and SENDs of at most n bytes are posted inline (0..4096;
//                           default 0, none)
//   --ip, --peer-mac, --dpdk-port, --pcap   as roce_pingpong
// The peer's MAC comes from neighbour resolution (ARP / IPv6 ND, peer_mac.h) of the GID in its
// keys, unless --peer-mac gives it; the Context answers the peer's ARP/NS for our GID while
// we wait in the exchange (Channel::get polls it).
//
// The out-of-band exchange is perftest's over TCP without rdma_cm (src/perftest_communication.c,
// tag v4.5-0.17 = perftest 6.06, what Debian 12 ships), in this order:
//   16-byte version string ("6.06", NUL padded; the peer's must be >= 5.70);
//   cycle buffer and cache line size, 4-byte big-endian ints (the larger of both is used);
//   MTU as a 2-byte string of the ibv_mtu value ("5\0"; the smaller of both is used);
//   the QP's keys, 108 bytes: "%04x:%04x:%06x:%06x:%08x:%016llx:" LID:out_reads:QPN:PSN:rkey:
//   vaddr, the 16 GID bytes as "%02x:", "%08x:" SRQN, NUL;
//   then the keys again as synchronisation points ("hand shakes").
// Each message goes client first (it writes, then reads); the server reads, then writes.
// write/read: keys, connect, 2 hand shakes, the client runs, hand shake, the client's report
// (size, iters as 8-byte big-endian, bw peak, bw average, msg rate as big-endian doubles)
// goes to the server, which prints it; a last hand shake and "done" (5 bytes) end it.
// send: keys, connect, 2 hand shakes, then per size: the server posts receives, hand shake,
// the run (with -a a hand shake after each size); each side prints its own report; the end
// as for write.
// The server advertises vaddr = buffer + max(size, cycle buffer): perftest's layout.
// atomic: as write (ib_atomic_bw's flow is write_bw's); the server's MR and QP grant remote
// atomic access and it takes 16 outstanding atomics, as for READ. perftest's client adds 1
// (FETCH_AND_ADD) or swaps 0 for 0 (CMP_AND_SWAP) at 8-byte words 64 bytes apart in its cycle
// buffer; so our server checks that its words (zero at start) sum to the client's iterations
// (FAA) or stay 0 (CAS). Our client sends all its atomics to the one word the server
// advertises and checks the original values it fetches: +1 each (FAA), all the same (CAS).
// Latency tests (write_lat.c, read_lat.c, send_lat.c; run_iter_lat_write/_lat/_lat_send in
// perftest_resources.c): write_lat and read_lat hand shake once more before the keys; then as
// above up to the hand shake after RTR (send_lat: keys, connect, 2 hand shakes). write_lat: both
// sides write `size` bytes whose last byte counts the iterations to the peer's buffer and
// wait for the peer's count in their own; the server writes first. read_lat: the client reads,
// one READ at a time; the server only closes (hand shake, "done"). send_lat: per size both
// post receives and hand shake, then ping-pong SENDs, the client first. No report exchange:
// each side that runs prints its own latencies (perftest's print_report_lat: the time between
// successive posts, halved for write/send, sorted, the last 2 dropped; t_typical = median).
// write_lat has no closing exchange; read_lat and send_lat end with a hand shake and "done".
// -q: keys and the first hand shakes go once per QP (write/read/atomic: the per-QP ones, then
// one after RTR; send: one after RTR, then the per-QP ones), the sync points use QP 0's keys.
// Every QP of ours gets the same target (vaddr); our client's QPs target what the peer gave
// each. -b (write_bw.c, read_bw.c): after the hand shake after RTR, per size a hand shake, the
// run (both sides), with -a one more hand shake, the reports cross, each side prints its size
// and iterations with the sum of both bandwidths; then the closing. -D: our client posts until
// the time is up and reports what completed; a server does nothing different.
// Exit status 0 when every message completed successfully (send server: every receive too).
#include <arpa/inet.h>
#include <endian.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "example_common.h"
#include "peer_mac.h"
#include "port_capture.h"
#include "roce_verbs.h"

using namespace gaudi::roce;
using namespace gaudi::examples;

namespace {

enum class Test { write, read, send, atomic };

constexpr char kVersion[16] = "6.06";	 // perftest 4.5-0.17's VERSION (configure.ac)
constexpr double kMinPeerVersion = 5.70; // check_version_compatibility()
constexpr size_t kKeyMsgSize = 108;	 // KEY_MSG_SIZE_GID
constexpr uint32_t kMaxSize = 8388608;	 // MAX_SIZE: -a goes to 2^23
constexpr int kOutReads = 16;		 // outstanding READs we take as responder
constexpr unsigned kResolveMs = 5000;	 // longest wait for the peer's ARP reply / NA
constexpr uint64_t kAtomicSize = 8;	 // DEF_SIZE_ATOMIC: the only size of the atomic test
constexpr uint64_t kAtomicAdd = 1;	 // ATOMIC_ADD_VALUE
constexpr uint64_t kAtomicSwap = 0;	 // ATOMIC_SWAP_VALUE (compare 0 too)

struct Opts {
	Test test = Test::write;
	bool test_set = false;
	bool lat = false; // a latency test (ib_*_lat)
	bool cas = false; // atomic: CMP_AND_SWAP instead of FETCH_AND_ADD
	uint64_t size = 65536;
	bool size_set = false;
	bool all = false;
	uint64_t iters = 5000;
	bool iters_set = false;
	ibv_mtu mtu = ibv_mtu(0);
	int tcp_port = 18515;
	uint32_t tx_depth = 128;
	uint32_t rx_depth = 512;
	int gid_idx = 1;
	const char *server = nullptr;
	std::array<uint8_t, 4> ip{};
	bool ip_set = false;
	MacAddr peer_mac{};
	bool peer_mac_set = false;
	uint16_t dpdk_port = 0;
	const char *pcap = nullptr;
	uint32_t num_qps = 1;	  // -q
	bool duplex = false;	  // -b
	unsigned duration = 0;	  // -D seconds (0: -n iterations)
	uint32_t inline_size = 0; // -I
};

struct Dest {
	uint32_t lid = 0, out_reads = 0, qpn = 0, psn = 0, rkey = 0, srqn = 0;
	uint64_t vaddr = 0;
	Gid gid;
};

std::string keys_msg(const Dest &d)
{
	char m[kKeyMsgSize] = {};
	int n = snprintf(m, sizeof m, "%04x:%04x:%06x:%06x:%08x:%016llx:", d.lid, d.out_reads,
			 d.qpn, d.psn, d.rkey, static_cast<unsigned long long>(d.vaddr));
	for (int i = 0; i < 16; i++)
		n += snprintf(m + n, sizeof m - n, "%02x:", d.gid.raw[i]);
	snprintf(m + n, sizeof m - n, "%08x:", d.srqn);
	return std::string(m, sizeof m);
}

bool parse_keys(const char *m, Dest &d)
{
	unsigned long long va;
	int n = 0;
	if (sscanf(m, "%x:%x:%x:%x:%x:%llx:%n", &d.lid, &d.out_reads, &d.qpn, &d.psn, &d.rkey, &va,
		   &n) != 6 ||
	    n == 0)
		return false;
	d.vaddr = va;
	const char *p = m + n;
	for (int i = 0; i < 16; i++) {
		unsigned b;
		int k = 0;
		if (sscanf(p, "%2x:%n", &b, &k) != 1 || k == 0)
			return false;
		d.gid.raw[i] = uint8_t(b);
		p += k;
	}
	return sscanf(p, "%x:", &d.srqn) == 1;
}

struct Report {
	uint64_t size = 0, iters = 0;
	double bw_peak = 0, bw_avg = 0, msg_rate = 0;
};

void print_report(const Report &r)
{
	printf(" %-7" PRIu64 "    %-10" PRIu64 "       %-7.2lf            %-7.2lf\t\t   %-7.6lf\n",
	       r.size, r.iters, r.bw_peak, r.bw_avg, r.msg_rate);
}

uint64_t be_double(double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof u);
	return htobe64(u);
}

double from_be_double(uint64_t u)
{
	u = be64toh(u);
	double v;
	memcpy(&v, &u, sizeof v);
	return v;
}

// xchg_bw_reports() for peers >= 5.33: size, iters (8 bytes each), bw peak, bw avg, msg rate.
bool xchg_reports(SideChannel &ch, const Report &mine, Report &theirs)
{
	uint64_t m[5] = {htobe64(mine.size), htobe64(mine.iters), be_double(mine.bw_peak),
			 be_double(mine.bw_avg), be_double(mine.msg_rate)};
	uint64_t t[5];
	for (int i = 0; i < 5; i++)
		if (!ch.xchg(&m[i], &t[i], 8))
			return false;
	theirs = {be64toh(t[0]), be64toh(t[1]), from_be_double(t[2]), from_be_double(t[3]),
		  from_be_double(t[4])};
	return true;
}

class Peer {
public:
	explicit Peer(const Opts &o) : o_(o) {}

	int run(rte_mempool *mp)
	{
		ContextConfig c;
		c.port_id = o_.dpdk_port;
		c.tx_pool = mp;
		std::array<uint8_t, 4> ip =
			o_.ip_set ? o_.ip
				  : std::array<uint8_t, 4>{10, 0, 0, uint8_t(o_.server ? 2 : 1)};
		c.gid = Gid::from_ipv4(ip);
		if (o_.gid_idx == 0) {
			rte_ether_addr a;
			rte_eth_macaddr_get(o_.dpdk_port, &a);
			c.gid = Gid::link_local(a.addr_bytes);
		}
		int err = 0;
		ctx_ = Context::create(c, &err);
		if (!ctx_) {
			fprintf(stderr, "Couldn't create context: %s\n", strerror(-err));
			return 1;
		}
		ch_.set_context(ctx_.get());
		if (!ch_.open(o_.server, o_.tcp_port))
			return 1;
		// Version, system data, MTU (exchange_versions, check_sys_data, check_mtu).
		char rv[16] = {};
		if (!ch_.xchg(kVersion, rv, sizeof rv))
			return fail("version exchange");
		rv[15] = 0;
		if (atof(rv) < kMinPeerVersion) {
			fprintf(stderr, "peer perftest version %s older than 5.70\n", rv);
			return 1;
		}
		uint32_t cycle = htobe32(4096), line = htobe32(64), rcycle = 0, rline = 0;
		if (!ch_.xchg(&cycle, &rcycle, 4) || !ch_.xchg(&line, &rline, 4))
			return fail("system data exchange");
		cycle_ = std::max<uint32_t>(4096, be32toh(rcycle));
		ibv_mtu mine = o_.mtu ? o_.mtu : port_ib_mtu(o_.dpdk_port, 16 /* RETH */);
		char mm[2] = {char('0' + int(mine)), 0}, rm[2] = {};
		if (!ch_.xchg(mm, rm, 2))
			return fail("MTU exchange");
		int r = rm[0] - '0';
		mtu_ = (r >= IBV_MTU_256 && r <= IBV_MTU_4096 && r < int(mine)) ? ibv_mtu(r) : mine;
		// Resources (ctx_init): one buffer of 2 x max(size, cycle buffer).
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
			QpAttr at;
			at.qp_state = IBV_QPS_INIT;
			at.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
					     IBV_ACCESS_REMOTE_ATOMIC;
			if (qps_[i]->modify(at,
					    IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS))
				return fail("QP to INIT");
			Dest &d = my_[i];
			d.lid = 0;
			d.out_reads =
				o_.test == Test::read || o_.test == Test::atomic ? kOutReads : 1;
			d.qpn = qps_[i]->qp_num();
			d.psn = uint32_t(lrand48() & 0xffffff);
			d.rkey = mr_->rkey();
			// One target for all QPs: perftest's peers write/read/add wherever we say.
			d.vaddr = reinterpret_cast<uintptr_t>(buf_) + half_;
			d.gid = ctx_->gid();
		}
		if (qps_.size() != o_.num_qps || !qps_.back())
			return fail("QP/CQ/MR creation");
		// write_lat.c and read_lat.c hand shake once before the per-QP ones.
		if (o_.lat && o_.test != Test::send && !hand_shake())
			return fail("key exchange");
		for (uint32_t i = 0; i < o_.num_qps; i++)
			if (!hand_shake(i))
				return fail("key exchange");
		if (my_[0].gid.is_ipv4() != rem_[0].gid.is_ipv4()) {
			fprintf(stderr, "\n Found Incompatibility issue with GID types.\n");
			return 1;
		}
		if (connect())
			return 1;
		// send_bw.c / send_lat.c: one hand shake after RTR, then the per-QP ones; the
		// others: the per-QP ones, then one after RTR.
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
			// ctx_close_connection: a hand shake, then "done" with its NUL.
			if (!hand_shake() || !ch_.put("done", sizeof "done"))
				return fail("closing the connection");
			// Keep answering briefly: the peer may still wait for our last ACKs.
			uint64_t until = rte_get_timer_cycles() + rte_get_timer_hz() / 5;
			while (rte_get_timer_cycles() < until)
				if (ctx_->poll() == 0)
					sched_yield();
		}
		printf("---------------------------------------------------------------------------"
		       "------------\n");
		if (rc == 0) // what it took on the wire (retransmits, timeouts: see the guide)
			print_counters();
		return rc;
	}

	~Peer()
	{
		qps_.clear();
		mr_.reset();
		cq_.reset();
		rcq_.reset();
		pd_.reset();
		ctx_.reset();
		rte_free(buf_);
	}

private:
	int fail(const char *what)
	{
		fprintf(stderr, "%s failed\n", what);
		if (ctx_)
			print_counters();
		return 1;
	}
	void print_counters()
	{
		const Counters &c = ctx_->counters();
		fprintf(stderr,
			" transport: frames rx %" PRIu64 " tx %" PRIu64 ", acks rx %" PRIu64
			" tx %" PRIu64 ", naks rx %" PRIu64 " tx %" PRIu64 ", rnr naks rx %" PRIu64
			" tx %" PRIu64 ", retransmits %" PRIu64 ", timeouts %" PRIu64
			", duplicates %" PRIu64 ", out of sequence %" PRIu64
			", remote access errors %" PRIu64 "\n",
			c.rx_frames, c.tx_frames, c.acks_rcvd, c.acks_sent, c.naks_rcvd,
			c.naks_sent, c.rnr_naks_rcvd, c.rnr_naks_sent, c.retransmits, c.timeouts,
			c.rx_duplicates, c.rx_out_of_sequence, c.remote_access_errors);
	}
	void print_dest(const char *side, const Dest &d)
	{
		printf(" %s address: LID %#04x QPN %#06x PSN %#06x OUT %#04x RKey %#08x VAddr "
		       "%#016" PRIx64 "\n",
		       side, d.lid, d.qpn, d.psn, d.out_reads, d.rkey, d.vaddr);
		char ip[INET6_ADDRSTRLEN];
		inet_ntop(AF_INET6, d.gid.raw.data(), ip, sizeof ip);
		printf(" GID: %s\n", ip);
	}
	// perftest's ctx_set_send_wqes: WRITE and SEND of at most -I bytes go inline (the data is
	// copied into the WQE at post time).
	unsigned inline_flag(uint64_t size) const
	{
		bool can = o_.test == Test::write || o_.test == Test::send;
		return can && size <= o_.inline_size ? IBV_SEND_INLINE : 0;
	}
	// ctx_hand_shake: QP i's keys both ways (the sync points use QP 0's).
	bool hand_shake(uint32_t i = 0)
	{
		std::string m = keys_msg(my_[i]);
		char r[kKeyMsgSize + 1] = {};
		if (!ch_.xchg(m.data(), r, kKeyMsgSize))
			return false;
		return parse_keys(r, rem_[i]);
	}
	// ctx_connect: every QP to RTR and RTS (the peer's MAC resolved once: one GID).
	int connect()
	{
		MacAddr mac = o_.peer_mac;
		if (!o_.peer_mac_set &&
		    gaudi::examples::wait_peer_mac(*ctx_, rem_[0].gid, mac, kResolveMs) != 0)
			return 1;
		for (uint32_t i = 0; i < o_.num_qps; i++) {
			QpAttr a;
			a.qp_state = IBV_QPS_RTR;
			a.path_mtu = mtu_;
			a.dest_qp_num = rem_[i].qpn;
			a.rq_psn = rem_[i].psn;
			a.max_dest_rd_atomic = uint8_t(my_[i].out_reads);
			a.min_rnr_timer = 12;
			a.ah_attr = {mac, rem_[i].gid, 0, 0, 0xff}; // perftest: hop_limit 0xFF
			if (qps_[i]->modify(a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
						       IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
						       IBV_QP_MAX_DEST_RD_ATOMIC |
						       IBV_QP_MIN_RNR_TIMER)) {
				fprintf(stderr, "Failed to modify QP to RTR\n");
				return 1;
			}
			a.qp_state = IBV_QPS_RTS;
			a.sq_psn = my_[i].psn;
			a.timeout = 14;
			a.retry_cnt = 7;
			a.rnr_retry = 7;
			a.max_rd_atomic =
				uint8_t(std::clamp<uint32_t>(rem_[i].out_reads, 1, kMaxRdAtomic));
			if (qps_[i]->modify(a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
						       IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
						       IBV_QP_MAX_QP_RD_ATOMIC)) {
				fprintf(stderr, "Failed to modify QP to RTS\n");
				return 1;
			}
		}
		return 0;
	}
	int qp_index(uint32_t qpn) const
	{
		for (size_t i = 0; i < qps_.size(); i++)
			if (qps_[i]->qp_num() == qpn)
				return int(i);
		return -1;
	}
	// Posts `iters` messages of `size`, at most tx_depth outstanding; false on a failed WC.
	// run_iter_bw: every QP posts `iters` messages of `size` (with -D: until the duration is
	// over), at most tx_depth outstanding per QP; false on a failed completion.
	bool send_loop(uint64_t size, Report &rep)
	{
		const uint32_t nq = o_.num_qps;
		const uint64_t hz = rte_get_timer_hz();
		const uint64_t t0 = rte_get_timer_cycles();
		const uint64_t stop = o_.duration ? t0 + uint64_t(o_.duration) * hz : UINT64_MAX;
		const uint64_t iters = o_.duration ? UINT64_MAX : o_.iters;
		Sge s{reinterpret_cast<uintptr_t>(buf_), uint32_t(size), mr_->lkey()};
		// Atomics: each outstanding one fetches into its own word of the first half, a
		// range per QP; each QP's atomics go to the one word the peer gave that QP.
		const bool atomic = o_.test == Test::atomic;
		const uint64_t per_qp = half_ / kAtomicSize / nq;
		const uint64_t depth =
			atomic ? std::min<uint64_t>(o_.tx_depth, per_qp) : o_.tx_depth;
		auto *fetched = reinterpret_cast<volatile uint64_t *>(buf_);
		std::vector<uint64_t> posted(nq, 0), done(nq, 0), first(nq, 0);
		uint64_t total = 0, outstanding = 0;
		bool posting = true;
		WorkCompletion wc[32];
		while (posting || outstanding > 0) {
			if (posting && rte_get_timer_cycles() >= stop)
				posting = false; // -D: time is up, drain what is in flight
			bool more = false;
			for (uint32_t q = 0; posting && q < nq; q++) {
				while (posted[q] < iters && posted[q] - done[q] < depth) {
					SendWr w;
					w.wr_id = posted[q];
					w.sg_list = {&s, 1};
					w.send_flags = IBV_SEND_SIGNALED | inline_flag(size);
					w.opcode = o_.test == Test::write  ? IBV_WR_RDMA_WRITE
						   : o_.test == Test::read ? IBV_WR_RDMA_READ
									   : IBV_WR_SEND;
					w.rdma = {rem_[q].vaddr, rem_[q].rkey};
					if (atomic) {
						s.addr = reinterpret_cast<uintptr_t>(
							&fetched[q * per_qp + posted[q] % per_qp]);
						w.opcode = o_.cas ? IBV_WR_ATOMIC_CMP_AND_SWP
								  : IBV_WR_ATOMIC_FETCH_AND_ADD;
						w.atomic = {rem_[q].vaddr,
							    o_.cas ? kAtomicSwap : kAtomicAdd,
							    kAtomicSwap, rem_[q].rkey};
					}
					if (qps_[q]->post_send(w) != 0)
						break;
					posted[q]++;
					outstanding++;
				}
				more = more || posted[q] < iters;
			}
			posting = posting && more;
			unsigned moved = ctx_->poll();
			int n = cq_->poll_cq(wc);
			if (moved == 0 && n == 0)
				sched_yield();
			for (int i = 0; i < n; i++) {
				if (wc[i].status != IBV_WC_SUCCESS) {
					fprintf(stderr,
						"Completion with error at client: status %d, wr_id "
						"%" PRIu64 "\n",
						int(wc[i].status), wc[i].wr_id);
					return false;
				}
				int q = qp_index(wc[i].qp_num);
				if (q < 0) {
					fprintf(stderr, "completion for unknown QPN %#x\n",
						wc[i].qp_num);
					return false;
				}
				if (atomic) {
					// One word per QP, RC order: FAA's fetched values count up by
					// the add; CAS swaps 0 for 0, so the word never changes.
					uint64_t id = wc[i].wr_id;
					uint64_t v = fetched[q * per_qp + id % per_qp];
					uint64_t want = first[q] + (o_.cas ? 0 : id * kAtomicAdd);
					if (id == 0)
						first[q] = v;
					else if (v != want) {
						fprintf(stderr,
							"atomic %" PRIu64
							" on QP %d fetched %" PRIu64
							", expected %" PRIu64 "\n",
							id, q, v, want);
						return false;
					}
				}
				done[q]++;
				total++;
				outstanding--;
			}
		}
		fill(rep, size, total, rte_get_timer_cycles() - t0);
		if (atomic && o_.cas)
			printf(" atomic check: %" PRIu64 " compare-and-swaps fetched %" PRIu64
			       " each\n",
			       total, first[0]);
		else if (atomic)
			printf(" atomic check: %" PRIu64 " fetch-and-adds fetched %" PRIu64
			       " .. %" PRIu64 " in order\n",
			       total, first[0], first[0] + (done[0] - 1) * kAtomicAdd);
		return true;
	}
	// Our server after an atomic run: perftest's client added 1 per FETCH_AND_ADD to words of
	// our (zeroed) second half, or swapped 0 for 0; the words' sum says each executed once.
	bool check_atomic_target(uint64_t iters)
	{
		const auto *w = reinterpret_cast<const uint64_t *>(buf_ + half_);
		uint64_t sum = 0;
		for (uint64_t i = 0; i < half_ / 8; i++)
			sum += w[i];
		uint64_t want = o_.cas ? 0 : iters * kAtomicAdd;
		printf(" atomic check: target words sum to %" PRIu64 ", expected %" PRIu64 "\n",
		       sum, want);
		return sum == want;
	}
	void fill(Report &rep, uint64_t size, uint64_t n, uint64_t cycles)
	{
		double sec = double(cycles) / double(rte_get_timer_hz());
		rep.size = size;
		rep.iters = n;
		rep.bw_avg = sec > 0 ? double(size) * double(n) / sec / 1048576.0 : 0;
		rep.bw_peak = rep.bw_avg; // no per-message time stamps here
		rep.msg_rate = sec > 0 ? double(n) / sec / 1e6 : 0;
	}
	int run_rdma()
	{
		Report mine, theirs;
		if (o_.duplex) {
			// write_bw.c / read_bw.c with -b: both sides run; a hand shake before each
			// size (and after it with -a: the peer's version >= 4.6), then the reports
			// cross and each prints the sum of both (print_full_bw_report).
			for (uint64_t size = o_.all ? 2 : o_.size;
			     size <= (o_.all ? kMaxSize : o_.size); size *= 2) {
				if (!hand_shake())
					return fail("hand shake");
				if (!send_loop(size, mine))
					return fail("the run");
				if (o_.all && !hand_shake())
					return fail("hand shake");
				if (!xchg_reports(ch_, mine, theirs))
					return fail("report exchange");
				Report sum = mine;
				sum.bw_peak += theirs.bw_peak;
				sum.bw_avg += theirs.bw_avg;
				sum.msg_rate += theirs.msg_rate;
				print_report(sum);
			}
			return 0;
		}
		if (o_.server) {
			for (uint64_t size = o_.all ? 2 : o_.size;
			     size <= (o_.all ? kMaxSize : o_.size); size *= 2) {
				if (!send_loop(size, mine))
					return fail("the run");
				print_report(mine);
			}
			if (!hand_shake() || !xchg_reports(ch_, mine, theirs))
				return fail("report exchange");
		} else {
			// The server waits in a hand shake (answering the peer's RDMA meanwhile), then
			// prints the client's report.
			if (!hand_shake() || !xchg_reports(ch_, mine, theirs))
				return fail("report exchange");
			print_report(theirs);
			if (o_.test == Test::atomic && !check_atomic_target(theirs.iters))
				return 1;
		}
		return 0;
	}
	int run_send()
	{
		for (uint64_t size = o_.all ? 2 : o_.size; size <= (o_.all ? kMaxSize : o_.size);
		     size *= 2) {
			Report rep;
			if (o_.server) {
				if (!hand_shake())
					return fail("hand shake");
				if (!send_loop(size, rep))
					return fail("the run");
			} else {
				// run_iter_bw_server: keep rx_depth receives posted on every QP until
				// iters arrived on each.
				Sge s{reinterpret_cast<uintptr_t>(buf_) + half_, uint32_t(size),
				      mr_->lkey()};
				const uint32_t nq = o_.num_qps;
				std::vector<uint64_t> posted(nq, 0);
				uint64_t got = 0, bytes = 0;
				for (uint32_t q = 0; q < nq; q++)
					while (posted[q] < o_.iters && posted[q] < o_.rx_depth)
						if (qps_[q]->post_recv({posted[q]++, {&s, 1}}) != 0)
							return fail("post receive");
				if (!hand_shake())
					return fail("hand shake");
				uint64_t t0 = 0;
				WorkCompletion wc[32];
				while (got < o_.iters * nq) {
					unsigned moved = ctx_->poll();
					int n = rcq_->poll_cq(wc);
					if (moved == 0 && n == 0)
						sched_yield();
					for (int i = 0; i < n; i++) {
						if (wc[i].status != IBV_WC_SUCCESS) {
							fprintf(stderr,
								"Completion with error at server: "
								"status %d\n",
								int(wc[i].status));
							return fail("the run");
						}
						int q = qp_index(wc[i].qp_num);
						if (q < 0)
							return fail("the run (unknown QPN)");
						if (got++ == 0)
							t0 = rte_get_timer_cycles();
						bytes += wc[i].byte_len;
						if (posted[q] < o_.iters &&
						    qps_[q]->post_recv({posted[q]++, {&s, 1}}) != 0)
							return fail("post receive");
					}
				}
				fill(rep, size, got, rte_get_timer_cycles() - t0);
				if (bytes != size * got) {
					fprintf(stderr,
						"received %" PRIu64 " bytes, expected %" PRIu64
						"\n",
						bytes, size * got);
					return 1;
				}
			}
			if (o_.all && !hand_shake())
				return fail("hand shake");
			print_report(rep);
		}
		return 0;
	}

	// Latency tests. Returns the exit status.
	int run_lat()
	{
		const bool server = o_.server == nullptr; // perftest's machine == SERVER
		printf("---------------------------------------------------------------------------"
		       "------------\n");
		// read_lat.c: only the client posts; the server closes at once and answers READs
		// while it waits in that hand shake.
		if (o_.test == Test::read && server)
			return close_lat();
		printf(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    "
		       "t_avg[usec]    t_stdev[usec]   99%% percentile[usec]   99.9%% "
		       "percentile[usec] \n");
		tposted_.assign(o_.iters, 0);
		for (uint64_t size = o_.all ? 2 : o_.size; size <= (o_.all ? kMaxSize : o_.size);
		     size *= 2) {
			bool ok;
			if (o_.test == Test::write) {
				ok = lat_write(size, server);
			} else if (o_.test == Test::read) {
				ok = lat_read(size);
			} else {
				// send_lat.c: receives for this size, then a hand shake.
				if (!post_lat_recvs(size) || !hand_shake())
					return fail("hand shake");
				ok = lat_send(size, server);
			}
			if (!ok)
				return fail("the run");
			print_lat(size);
		}
		// write_lat.c ends without an exchange; read_lat.c and send_lat.c close.
		return o_.test == Test::write ? linger_and_report(0) : close_lat();
	}
	int close_lat()
	{
		if (!hand_shake() || !ch_.put("done", sizeof "done"))
			return fail("closing the connection");
		return linger_and_report(0);
	}
	// Keeps answering briefly (the peer may wait for our last ACKs), prints the counters.
	int linger_and_report(int rc)
	{
		uint64_t until = rte_get_timer_cycles() + rte_get_timer_hz() / 5;
		while (rte_get_timer_cycles() < until)
			if (ctx_->poll() == 0)
				sched_yield();
		printf("---------------------------------------------------------------------------"
		       "------------\n");
		print_counters();
		return rc;
	}
	// Polls the Context once; false when the QP failed (the peer's NAK, retries exceeded).
	bool progress()
	{
		if (ctx_->poll() == 0)
			sched_yield();
		if (qps_[0]->state() == IBV_QPS_ERR) {
			fprintf(stderr, "QP in error state\n");
			return false;
		}
		return true;
	}
	// Waits for one completion on cq; false on a failed one.
	bool wait_wc(CompletionQueue &cq, const char *what)
	{
		WorkCompletion wc;
		int n;
		while ((n = cq.poll_cq({&wc, 1})) == 0)
			if (!progress())
				return false;
		if (wc.status != IBV_WC_SUCCESS) {
			fprintf(stderr,
				"Completion with error (%s): status %d, wr_id %" PRIu64 "\n", what,
				int(wc.status), wc.wr_id);
			return false;
		}
		return true;
	}
	// Reaps send completions without waiting; false on a failed one.
	bool reap_sends(uint64_t &done)
	{
		WorkCompletion wc[16];
		int n = cq_->poll_cq(wc);
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "Completion with error at send: status %d\n",
					int(wc[i].status));
				return false;
			}
		}
		done += uint64_t(n);
		return true;
	}
	bool post_one(ibv_wr_opcode op, uint64_t size, uint64_t id)
	{
		Sge s{reinterpret_cast<uintptr_t>(buf_), uint32_t(size), mr_->lkey()};
		SendWr w;
		w.wr_id = id;
		w.sg_list = {&s, 1};
		w.opcode = op;
		w.send_flags = IBV_SEND_SIGNALED | inline_flag(size);
		w.rdma = {rem_[0].vaddr, rem_[0].rkey};
		int rc = qps_[0]->post_send(w);
		if (rc != 0)
			fprintf(stderr, "Couldn't post send: %s\n", strerror(-rc));
		return rc == 0;
	}
	// run_iter_lat_write: the last byte of what each side writes counts its messages; each
	// waits for the peer's count in its own buffer (at the vaddr it advertised) before the
	// next write. perftest's server writes first.
	bool lat_write(uint64_t size, bool server)
	{
		volatile uint8_t *post = buf_ + size - 1;
		volatile uint8_t *seen = buf_ + half_ + size - 1;
		uint64_t scnt = 0, ccnt = 0, rcnt = 0;
		while (scnt < o_.iters || ccnt < o_.iters || rcnt < o_.iters) {
			if (rcnt < o_.iters && !(scnt < 1 && server)) {
				rcnt++;
				while (*seen != uint8_t(rcnt))
					if (!progress())
						return false;
			}
			if (scnt < o_.iters) {
				tposted_[scnt] = rte_rdtsc();
				*post = uint8_t(++scnt);
				if (!post_one(IBV_WR_RDMA_WRITE, size, scnt))
					return false;
			}
			if (ccnt < o_.iters) {
				if (!wait_wc(*cq_, "write"))
					return false;
				ccnt++;
			}
		}
		return true;
	}
	// run_iter_lat: one READ at a time.
	bool lat_read(uint64_t size)
	{
		for (uint64_t i = 0; i < o_.iters; i++) {
			tposted_[i] = rte_rdtsc();
			if (!post_one(IBV_WR_RDMA_READ, size, i) || !wait_wc(*cq_, "read"))
				return false;
		}
		return true;
	}
	// ctx_set_recv_wqes: up to rx_depth receives of `size` in the second half.
	bool post_lat_recvs(uint64_t size)
	{
		lat_rposted_ = std::min<uint64_t>(o_.rx_depth, o_.iters);
		for (uint64_t i = 0; i < lat_rposted_; i++)
			if (!post_lat_recv(size))
				return false;
		return true;
	}
	bool post_lat_recv(uint64_t size)
	{
		Sge s{reinterpret_cast<uintptr_t>(buf_) + half_, uint32_t(size), mr_->lkey()};
		if (qps_[0]->post_recv({0, {&s, 1}}) != 0) {
			fprintf(stderr, "Couldn't post receive\n");
			return false;
		}
		return true;
	}
	// run_iter_lat_send: each side waits for the peer's SEND before its own; the client sends
	// first. perftest signals only every cq_mod-th send; we signal all and reap them as they
	// come (the peer's reply proves the SEND arrived; its ACK may come later).
	bool lat_send(uint64_t size, bool server)
	{
		uint64_t scnt = 0, rcnt = 0, sdone = 0;
		while (scnt < o_.iters || rcnt < o_.iters) {
			if (rcnt < o_.iters && !(scnt < 1 && !server)) {
				if (!wait_wc(*rcq_, "receive"))
					return false;
				rcnt++;
				if (lat_rposted_ < o_.iters) {
					if (!post_lat_recv(size))
						return false;
					lat_rposted_++;
				}
			}
			if (scnt < o_.iters) {
				tposted_[scnt++] = rte_rdtsc();
				if (!post_one(IBV_WR_SEND, size, scnt))
					return false;
			}
			if (!reap_sends(sdone))
				return false;
		}
		while (sdone < scnt)
			if (!progress() || !reap_sends(sdone))
				return false;
		return true;
	}
	// print_report_lat (perftest_parameters.c): deltas between successive posts; a WRITE or
	// SEND round trip is two one-way latencies, a READ one.
	void print_lat(uint64_t size)
	{
		const double per_us =
			double(rte_get_tsc_hz()) / 1e6 * (o_.test == Test::read ? 1.0 : 2.0);
		std::vector<uint64_t> d(o_.iters - 1);
		for (size_t i = 0; i < d.size(); i++)
			d[i] = tposted_[i + 1] - tposted_[i];
		std::sort(d.begin(), d.end());
		size_t n = d.size() - 2; // LAT_MEASURE_TAIL
		double median =
			(n - 1) % 2 ? double(d[n / 2] + d[n / 2 - 1]) / 2 : double(d[n / 2]);
		double sum = 0;
		for (size_t i = 0; i < n; i++)
			sum += double(d[i]) / per_us;
		double avg = sum / double(n), var = 0;
		for (size_t i = 0; i < n; i++)
			var += (double(d[i]) / per_us - avg) * (double(d[i]) / per_us - avg);
		size_t p99 = size_t(std::ceil(double(n) * 0.99)),
		       p999 = size_t(std::ceil(double(n) * 0.999));
		printf(" %-7" PRIu64 " %" PRIu64 "          %-7.2f        %-7.2f      %-7.2f  "
		       "	       %-7.2f     	%-7.2f		%-7.2f 		%-7.2f\n",
		       size, o_.iters, double(d[0]) / per_us, double(d[n]) / per_us,
		       median / per_us, avg, std::sqrt(var / double(n)), double(d[p99]) / per_us,
		       double(d[p999]) / per_us);
	}

	const Opts &o_;
	SideChannel ch_;
	std::vector<uint64_t> tposted_; // latency tests: TSC at each post
	uint64_t lat_rposted_ = 0;	// send_lat: receives posted for this size
	std::unique_ptr<Context> ctx_;
	std::unique_ptr<ProtectionDomain> pd_;
	std::unique_ptr<CompletionQueue> cq_, rcq_; // send, receive
	std::unique_ptr<MemoryRegion> mr_;
	std::vector<std::unique_ptr<QueuePair>> qps_; // -q
	uint8_t *buf_ = nullptr;
	uint64_t half_ = 0;
	uint32_t cycle_ = 4096;
	ibv_mtu mtu_ = IBV_MTU_1024;
	std::vector<Dest> my_, rem_; // per QP
};

void usage(const char *argv0)
{
	printf("Usage: %s [EAL args] -- --test=write|read|send|atomic [-s size] [-a] [-n iters] "
	       "[-m mtu] [-p port]\n"
	       "       [-A FETCH_AND_ADD|CMP_AND_SWAP] [-q qps] [-b] [-D seconds] [-I inline] [-t "
	       "tx_depth] "
	       "[-r rx_depth] [-x 0|1] "
	       "[--ip=a.b.c.d] [--peer-mac=xx:..:xx] "
	       "[--dpdk-port=N]\n"
	       "       [--pcap=FILE] [server]\n",
	       argv0);
}

} // namespace

int main(int argc, char **argv)
{
	setvbuf(stdout, nullptr, _IOLBF, 0);
	int n = rte_eal_init(argc, argv);
	if (n < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	argc -= n;
	argv += n;
	Opts o;
	static const option longopts[] = {
		{"test", 1, nullptr, 'T'},	{"size", 1, nullptr, 's'},
		{"all", 0, nullptr, 'a'},	{"iters", 1, nullptr, 'n'},
		{"mtu", 1, nullptr, 'm'},	{"port", 1, nullptr, 'p'},
		{"tx-depth", 1, nullptr, 't'},	{"rx-depth", 1, nullptr, 'r'},
		{"gid-index", 1, nullptr, 'x'}, {"atomic_type", 1, nullptr, 'A'},
		{"qp", 1, nullptr, 'q'},	{"bidirectional", 0, nullptr, 'b'},
		{"duration", 1, nullptr, 'D'},	{"inline_size", 1, nullptr, 'I'},
		{"ip", 1, nullptr, 'i'},	{"peer-mac", 1, nullptr, 'M'},
		{"dpdk-port", 1, nullptr, 'P'}, {"pcap", 1, nullptr, 'C'},
		{"help", 0, nullptr, 'h'},	{}};
	int c;
	while ((c = getopt_long(argc, argv, "T:s:an:m:p:t:r:x:A:q:bD:I:h", longopts, nullptr)) !=
	       -1) {
		switch (c) {
		case 'T':
			o.test_set = true;
			if (!strcmp(optarg, "write"))
				o.test = Test::write;
			else if (!strcmp(optarg, "read"))
				o.test = Test::read;
			else if (!strcmp(optarg, "send"))
				o.test = Test::send;
			else if (!strcmp(optarg, "atomic"))
				o.test = Test::atomic;
			else if (!strcmp(optarg, "write_lat"))
				o.test = Test::write, o.lat = true;
			else if (!strcmp(optarg, "read_lat"))
				o.test = Test::read, o.lat = true;
			else if (!strcmp(optarg, "send_lat"))
				o.test = Test::send, o.lat = true;
			else {
				usage(argv[0]);
				return 1;
			}
			break;
		case 's':
			o.size = strtoull(optarg, nullptr, 0);
			o.size_set = true;
			break;
		case 'q': {
			long v = strtol(optarg, nullptr, 0);
			if (v < 1 || v > 64) {
				fprintf(stderr, "-q: 1 to 64 QPs, not %s\n", optarg);
				return 1;
			}
			o.num_qps = uint32_t(v);
			break;
		}
		case 'b':
			o.duplex = true;
			break;
		case 'I': {
			long v = strtol(optarg, nullptr, 0);
			if (v < 0 || v > 4096) {
				fprintf(stderr, "-I: inline size 0 to 4096 bytes, not %s\n",
					optarg);
				return 1;
			}
			o.inline_size = uint32_t(v);
			break;
		}
		case 'D': {
			long v = strtol(optarg, nullptr, 0);
			if (v < 1 || v > 3600) {
				fprintf(stderr, "-D: 1 to 3600 seconds, not %s\n", optarg);
				return 1;
			}
			o.duration = unsigned(v);
			break;
		}
		case 'A':
			if (!strcmp(optarg, "FETCH_AND_ADD"))
				o.cas = false;
			else if (!strcmp(optarg, "CMP_AND_SWAP"))
				o.cas = true;
			else {
				fprintf(stderr, "-A: FETCH_AND_ADD or CMP_AND_SWAP, not %s\n",
					optarg);
				return 1;
			}
			break;
		case 'a':
			o.all = true;
			break;
		case 'n':
			o.iters = strtoull(optarg, nullptr, 0);
			o.iters_set = true;
			break;
		case 'm': {
			int m = atoi(optarg);
			o.mtu = m == 256    ? IBV_MTU_256
				: m == 512  ? IBV_MTU_512
				: m == 1024 ? IBV_MTU_1024
				: m == 2048 ? IBV_MTU_2048
				: m == 4096 ? IBV_MTU_4096
					    : ibv_mtu(0);
			if (o.mtu == 0) {
				usage(argv[0]);
				return 1;
			}
			break;
		}
		case 'p':
			o.tcp_port = atoi(optarg);
			break;
		case 't':
			o.tx_depth = uint32_t(atoi(optarg));
			break;
		case 'r':
			o.rx_depth = uint32_t(atoi(optarg));
			break;
		case 'x':
			o.gid_idx = atoi(optarg);
			break;
		case 'i':
			if (inet_pton(AF_INET, optarg, o.ip.data()) != 1) {
				usage(argv[0]);
				return 1;
			}
			o.ip_set = true;
			break;
		case 'M':
			if (sscanf(optarg, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &o.peer_mac[0],
				   &o.peer_mac[1], &o.peer_mac[2], &o.peer_mac[3], &o.peer_mac[4],
				   &o.peer_mac[5]) != 6) {
				usage(argv[0]);
				return 1;
			}
			o.peer_mac_set = true;
			break;
		case 'P':
			o.dpdk_port = uint16_t(atoi(optarg));
			break;
		case 'C':
			o.pcap = optarg;
			break;
		default:
			usage(argv[0]);
			return c == 'h' ? 0 : 1;
		}
	}
	if (optind == argc - 1)
		o.server = argv[optind];
	else if (optind < argc) {
		usage(argv[0]);
		return 1;
	}
	if (!o.test_set || o.iters < 5 || o.size < 1 || o.size > kMaxSize || o.tx_depth < 1 ||
	    o.rx_depth < 1 || (o.gid_idx != 0 && o.gid_idx != 1)) {
		fprintf(stderr, "need --test, -n >= 5, 1 <= -s <= 2^23, -x 0|1\n");
		usage(argv[0]);
		return 1;
	}
	// What this peer does not do (perftest does): say so instead of hanging the peer.
	if (o.duplex && (o.test == Test::send || o.test == Test::atomic || o.lat)) {
		fprintf(stderr, "-b: bidirectional write and read only (send_bw's run_iter_bi is "
				"not implemented)\n");
		return 1;
	}
	if (o.duration && (o.test == Test::send || o.lat || o.all || o.duplex)) {
		fprintf(stderr, "-D: write, read and atomic bandwidth only, without -a and -b\n");
		return 1;
	}
	if (o.num_qps > 1 && o.lat) {
		fprintf(stderr, "-q: the latency tests use one QP (as perftest's)\n");
		return 1;
	}
	if (o.lat) { // DEF_SIZE_LAT, DEF_ITERS; one message at a time
		if (!o.size_set)
			o.size = 2;
		if (!o.iters_set)
			o.iters = 1000;
	}
	if (o.test == Test::atomic) {
		// perftest: "Message size cannot be changed for Atomic tests" (-a sets 2^23).
		if (o.all || (o.size_set && o.size != kAtomicSize)) {
			fprintf(stderr, "--test=atomic: the size is 8 bytes (no -s, no -a)\n");
			return 1;
		}
		o.size = kAtomicSize;
	}
	o.tx_depth = std::min<uint64_t>(o.tx_depth, o.iters); // perftest does the same
	if (o.lat) // one message at a time, but SEND completions may trail the peer's reply
		o.tx_depth = std::max<uint32_t>(o.tx_depth, 16);
	rte_mempool *mp = rte_pktmbuf_pool_create("pt_pool", 8191, 256, 0,
						  4480 + RTE_PKTMBUF_HEADROOM, rte_socket_id());
	if (mp == nullptr || setup_port(o.dpdk_port, mp) != 0) {
		fprintf(stderr, "port %u setup failed\n", o.dpdk_port);
		return 1;
	}
	int rc;
	{
		std::unique_ptr<gaudi::examples::PortCapture> cap;
		if (o.pcap != nullptr &&
		    !(cap = gaudi::examples::PortCapture::open(o.pcap, o.dpdk_port, 0)))
			return 1;
		Peer p(o);
		rc = p.run(mp);
	}
	rte_eal_cleanup();
	return rc;
}
