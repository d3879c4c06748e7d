/* SPDX-License-Identifier: BSD-3-Clause */
// roce_perftest: a peer for perftest's ib_write_bw, ib_read_bw and ib_send_bw (RC) on the
// userspace RoCE v2 transport (drivers/net/gaudi/roce/roce_verbs.h) over any DPDK port.
//
//   roce_perftest [EAL args] -- --test=write|read|send [options]            server
//   roce_perftest [EAL args] -- --test=write|read|send [options] <host>     client
//
// Options as perftest's where they apply (both sides must be given the same ones):
//   -s, --size=<bytes>      message size (default 65536)
//   -a, --all               all sizes 2 .. 2^23
//   -n, --iters=<n>         messages per size (default 5000; at least 5)
//   -m, --mtu=<bytes>       path MTU (default the port's; the smaller of both sides is used)
//   -p, --port=<port>       TCP port (default 18515)
//   -t, --tx-depth=<n>      outstanding send WRs (default 128)
//   -r, --rx-depth=<n>      receives posted by a send server (default 512)
//   -x, --gid-index=0|1     as roce_pingpong's -g (default 1: IPv4)
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

enum class Test { write, read, send };

constexpr char kVersion[16] = "6.06";	 // perftest 4.5-0.17's VERSION (configure.ac)
constexpr double kMinPeerVersion = 5.70; // check_version_compatibility()
constexpr size_t kKeyMsgSize = 108;	 // KEY_MSG_SIZE_GID
constexpr uint32_t kMaxSize = 8388608;	 // MAX_SIZE: -a goes to 2^23
constexpr int kOutReads = 16;		 // outstanding READs we take as responder
constexpr unsigned kResolveMs = 5000;	 // longest wait for the peer's ARP reply / NA

struct Opts {
	Test test = Test::write;
	bool test_set = false;
	uint64_t size = 65536;
	bool all = false;
	uint64_t iters = 5000;
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
		cq_ = ctx_->create_cq(o_.tx_depth + o_.rx_depth + 16);
		mr_ = ctx_->reg_mr(*pd_, buf_, 2 * half_,
				   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
					   IBV_ACCESS_REMOTE_READ,
				   &err);
		QpInitAttr a;
		a.qp_type = IBV_QPT_RC;
		a.send_cq = a.recv_cq = cq_.get();
		a.cap.max_send_wr = o_.tx_depth;
		a.cap.max_recv_wr = o_.rx_depth;
		a.cap.max_send_sge = a.cap.max_recv_sge = 1;
		a.cap.max_inline_data = 0;
		if (cq_)
			qp_ = ctx_->create_qp(*pd_, a, &err);
		if (!qp_ || !mr_)
			return fail("QP/CQ/MR creation");
		QpAttr at;
		at.qp_state = IBV_QPS_INIT;
		at.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
		if (qp_->modify(at, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS))
			return fail("QP to INIT");
		srand48(getpid() * time(nullptr));
		my_.lid = 0;
		my_.out_reads = o_.test == Test::read ? kOutReads : 1;
		my_.qpn = qp_->qp_num();
		my_.psn = uint32_t(lrand48() & 0xffffff);
		my_.rkey = mr_->rkey();
		my_.vaddr = reinterpret_cast<uintptr_t>(buf_) + half_;
		my_.gid = ctx_->gid();
		if (!hand_shake())
			return fail("key exchange");
		if (my_.gid.is_ipv4() != rem_.gid.is_ipv4()) {
			fprintf(stderr, "\n Found Incompatibility issue with GID types.\n");
			return 1;
		}
		if (connect())
			return 1;
		print_dest(" local", my_);
		if (!hand_shake())
			return fail("hand shake");
		print_dest("remote", rem_);
		if (!hand_shake()) // the second one after RTR (write_bw.c, read_bw.c, send_bw.c)
			return fail("hand shake");
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
		qp_.reset();
		mr_.reset();
		cq_.reset();
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
	bool hand_shake()
	{
		std::string m = keys_msg(my_);
		char r[kKeyMsgSize + 1] = {};
		if (!ch_.xchg(m.data(), r, kKeyMsgSize))
			return false;
		return parse_keys(r, rem_);
	}
	int connect()
	{
		QpAttr a;
		a.qp_state = IBV_QPS_RTR;
		a.path_mtu = mtu_;
		a.dest_qp_num = rem_.qpn;
		a.rq_psn = rem_.psn;
		a.max_dest_rd_atomic = uint8_t(my_.out_reads);
		a.min_rnr_timer = 12;
		MacAddr mac = o_.peer_mac;
		if (!o_.peer_mac_set &&
		    gaudi::examples::wait_peer_mac(*ctx_, rem_.gid, mac, kResolveMs) != 0)
			return 1;
		a.ah_attr = {mac, rem_.gid, 0, 0, 0xff}; // perftest: hop_limit 0xFF
		if (qp_->modify(a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
					   IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
					   IBV_QP_MIN_RNR_TIMER)) {
			fprintf(stderr, "Failed to modify QP to RTR\n");
			return 1;
		}
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = my_.psn;
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = uint8_t(std::clamp<uint32_t>(rem_.out_reads, 1, 255));
		if (qp_->modify(a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
					   IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
					   IBV_QP_MAX_QP_RD_ATOMIC)) {
			fprintf(stderr, "Failed to modify QP to RTS\n");
			return 1;
		}
		return 0;
	}
	// Posts `iters` messages of `size`, at most tx_depth outstanding; false on a failed WC.
	bool send_loop(uint64_t size, Report &rep)
	{
		uint64_t posted = 0, done = 0;
		uint64_t t0 = rte_get_timer_cycles();
		Sge s{reinterpret_cast<uintptr_t>(buf_), uint32_t(size), mr_->lkey()};
		WorkCompletion wc[32];
		while (done < o_.iters) {
			while (posted < o_.iters && posted - done < o_.tx_depth) {
				SendWr w;
				w.wr_id = posted;
				w.sg_list = {&s, 1};
				w.send_flags = IBV_SEND_SIGNALED;
				w.opcode = o_.test == Test::write  ? IBV_WR_RDMA_WRITE
					   : o_.test == Test::read ? IBV_WR_RDMA_READ
								   : IBV_WR_SEND;
				w.rdma = {rem_.vaddr, rem_.rkey};
				if (qp_->post_send(w) != 0)
					break;
				posted++;
			}
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
				done++;
			}
		}
		fill(rep, size, done, rte_get_timer_cycles() - t0);
		return true;
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
				// run_iter_bw_server: keep rx_depth receives posted until iters arrived.
				Sge s{reinterpret_cast<uintptr_t>(buf_) + half_, uint32_t(size),
				      mr_->lkey()};
				uint64_t posted = 0, got = 0, bytes = 0;
				while (posted < o_.iters && posted < o_.rx_depth)
					if (qp_->post_recv({posted++, {&s, 1}}) != 0)
						return fail("post receive");
				if (!hand_shake())
					return fail("hand shake");
				uint64_t t0 = 0;
				WorkCompletion wc[32];
				while (got < o_.iters) {
					unsigned moved = ctx_->poll();
					int n = cq_->poll_cq(wc);
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
						if (got++ == 0)
							t0 = rte_get_timer_cycles();
						bytes += wc[i].byte_len;
						if (posted < o_.iters &&
						    qp_->post_recv({posted++, {&s, 1}}) != 0)
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

	const Opts &o_;
	SideChannel ch_;
	std::unique_ptr<Context> ctx_;
	std::unique_ptr<ProtectionDomain> pd_;
	std::unique_ptr<CompletionQueue> cq_;
	std::unique_ptr<MemoryRegion> mr_;
	std::unique_ptr<QueuePair> qp_;
	uint8_t *buf_ = nullptr;
	uint64_t half_ = 0;
	uint32_t cycle_ = 4096;
	ibv_mtu mtu_ = IBV_MTU_1024;
	Dest my_, rem_;
};

void usage(const char *argv0)
{
	printf("Usage: %s [EAL args] -- --test=write|read|send [-s size] [-a] [-n iters] [-m mtu] "
	       "[-p port]\n"
	       "       [-t tx_depth] [-r rx_depth] [-x 0|1] [--ip=a.b.c.d] [--peer-mac=xx:..:xx] "
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
	static const option longopts[] = {{"test", 1, nullptr, 'T'},
					  {"size", 1, nullptr, 's'},
					  {"all", 0, nullptr, 'a'},
					  {"iters", 1, nullptr, 'n'},
					  {"mtu", 1, nullptr, 'm'},
					  {"port", 1, nullptr, 'p'},
					  {"tx-depth", 1, nullptr, 't'},
					  {"rx-depth", 1, nullptr, 'r'},
					  {"gid-index", 1, nullptr, 'x'},
					  {"ip", 1, nullptr, 'I'},
					  {"peer-mac", 1, nullptr, 'M'},
					  {"dpdk-port", 1, nullptr, 'P'},
					  {"pcap", 1, nullptr, 'C'},
					  {"help", 0, nullptr, 'h'},
					  {}};
	int c;
	while ((c = getopt_long(argc, argv, "T:s:an:m:p:t:r:x:h", longopts, nullptr)) != -1) {
		switch (c) {
		case 'T':
			o.test_set = true;
			if (!strcmp(optarg, "write"))
				o.test = Test::write;
			else if (!strcmp(optarg, "read"))
				o.test = Test::read;
			else if (!strcmp(optarg, "send"))
				o.test = Test::send;
			else {
				usage(argv[0]);
				return 1;
			}
			break;
		case 's':
			o.size = strtoull(optarg, nullptr, 0);
			break;
		case 'a':
			o.all = true;
			break;
		case 'n':
			o.iters = strtoull(optarg, nullptr, 0);
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
		case 'I':
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
	if (!o.test_set || o.iters < 5 || o.size < 1 || o.size > kMaxSize ||
	    o.tx_depth < 1 || o.rx_depth < 1 || (o.gid_idx != 0 && o.gid_idx != 1)) {
		fprintf(stderr, "need --test, -n >= 5, 1 <= -s <= 2^23, -x 0|1\n");
		usage(argv[0]);
		return 1;
	}
	o.tx_depth = std::min<uint64_t>(o.tx_depth, o.iters); // perftest does the same
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
