/* SPDX-License-Identifier: BSD-3-Clause */
/* roce_pingpong: ibv_rc_pingpong / ibv_uc_pingpong / ibv_ud_pingpong / ibv_srq_pingpong on the
 * userspace RoCE v2 transport (drivers/net/gaudi/roce/roce_verbs.h) over any DPDK port.
 *
 *   roce_pingpong [EAL args] -- [options] [servername]      client when a host is given
 *   roce_pingpong [EAL args] -- --loop [options]             server on port 0, client on port 1
 *
 * Options as ibv_*_pingpong where they apply:
 *   -p, --port=<port>      TCP port for the exchange (default 18515)
 *   -s, --size=<size>      message size, 1..16 MiB (default 4096; UD 2048, at most the port's
 *                          MTU)
 *   -m, --mtu=<size>       path MTU 256..4096 (default 1024; UD: the largest the port carries)
 *   -r, --rx-depth=<dep>   receives to post (default 500)
 *   -n, --iters=<iters>    exchanges (default 1000)
 *   -g, --gid-idx=<idx>    local GID index as in rxe's table for a netdev with one IPv4
 *                          address: 0 = fe80::/64 link-local from the MAC (IPv6 frames),
 *                          1 = ::ffff:<--ip> (IPv4 frames). Default 1.
 *   -c, --chk              as rdma-core: the client zeroes the first byte of every page of
 *                          its buffer before the first send (the rest stays 0x7b); the server
 *                          checks those bytes at the end ("invalid data in page N"; here the
 *                          exit status is 1 then, rdma-core only prints it)
 *   -T, --transport=rc|uc|ud   (extension; default rc)
 *   --srq                  ibv_srq_pingpong: -q RC QPs sharing one SRQ (extension; rdma-core
 *                          has a separate program for it)
 *   -q, --num-qp=<n>       QPs with --srq (default 16, 1..255, at most -r)
 * Extensions: --ip=a.b.c.d local IPv4 (default 10.0.0.1 server / 10.0.0.2 client),
 *   --peer-mac=xx:xx:xx:xx:xx:xx next-hop MAC of the peer (default: resolved, see below),
 *   --dpdk-port=N (default 0),
 *   --loop (both ends in this process on ports 0/1 of a `pair`, interleaved polling),
 *   --busy-poll (never yield the CPU; see below), --pcap=FILE (write every frame the port
 *   sends or receives to FILE, for examples/roce_decode; with --loop port 0, which sees both
 *   directions).
 *
 * CPU sharing: EAL pins the main lcore of every process to the first CPU of its core list,
 * so two roce_pingpong processes started without -l both spin on CPU 0 and take turns only
 * when the scheduler preempts them (a few ms per turn: ~8 ms per iteration). In the
 * two-process mode an end that found nothing to do for kIdleSpins polls calls
 * sched_yield(), which hands the CPU to the peer at once when they share it (and costs one
 * system call otherwise). Give each process its own core (-l 0 / -l 1) for the lowest
 * latency; --busy-poll restores pure spinning.
 * Neighbours: the Context answers ARP / IPv6 neighbour solicitations for our GID whenever it
 * is polled, and this program polls it while it waits in the TCP exchange too (the peer's
 * kernel resolves our GID when it moves its QP to RTR, which happens while we wait). Before our
 * own RTR it resolves the peer's GID from the exchange to a MAC (peer_mac.h), waiting at most
 * kResolveMs; --peer-mac skips that.
 * The TCP exchange is rdma-core's (libibverbs/examples/rc_pingpong.c, v44): each side sends
 * "LID:QPN:PSN:GID" ("%04x:%06x:%06x:%s", GID as 32 hex digits; LID is 0 on RoCE) as a
 * 52-byte buffer with its NUL; the server moves its QP to RTR/RTS before it answers, and the
 * client ends with "done" including its NUL (sizeof "done" = 5 bytes).
 * --srq speaks srq_pingpong.c's (v44): the same message for each of MAX_QP (256) QPs, the
 * first -q real and the rest zero, each way in one go (client first; the server connects its QPs
 * between reading and writing); every QP pingpongs on its own, all receives come from one SRQ
 * of -r WQEs (refilled when -q or fewer are left), and -n counts the sends and receives of all
 * QPs together. */
#include <arpa/inet.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

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
#include <rte_mbuf.h>

#include "example_common.h"
#include "peer_mac.h"
#include "port_capture.h"
#include "roce_verbs.h"

using namespace gaudi::roce;
using namespace gaudi::examples;

namespace {

enum { kRecvWrid = 1, kSendWrid = 2 };
/* -s: both ends' buffers live in this process with --loop; 16 MiB keeps that small while far
 * above what a pingpong measures (ibv_rc_pingpong itself has no limit). */
constexpr uint32_t kMaxSize = 16u << 20;
constexpr int kSrqMaxQp = 256; /* srq_pingpong.c MAX_QP: addresses exchanged, used or not */
constexpr uint32_t kUdQkey = 0x11111111; /* ibv_ud_pingpong */
/* Empty polls before an idle end yields the CPU (two-process mode, see the header comment). */
constexpr unsigned kIdleSpins = 64;
/* rdma-core's -c works on pages of the buffer (sysconf(_SC_PAGESIZE) there; 4 KiB on x86-64). */
constexpr uint32_t kPageSize = 4096;
/* How long to wait for the peer's ARP reply / neighbour advertisement (Linux answers at once;
 * a TCG guest on a loaded host may take a while). */
constexpr unsigned kResolveMs = 5000;

struct Opts : PeerOpts { /* --ip, --peer-mac, --dpdk-port, --pcap */
	int tcp_port = 18515;
	int size = 0; /* 0: the default, 4096 (2048 for UD) */
	ibv_mtu mtu = IBV_MTU_1024;
	int rx_depth = 500;
	int iters = 1000;
	bool validate = false;
	ibv_qp_type type = IBV_QPT_RC;
	bool loop = false;
	const char *server = nullptr;
	int gid_idx = 1;
	bool mtu_set = false;
	bool busy_poll = false;
	bool srq = false;
	int num_qp = 1; /* --srq: -q (default 16) */
	bool num_qp_set = false;
};

struct Dest {
	uint32_t lid = 0, qpn = 0, psn = 0;
	Gid gid;
};

/* One pingpong end: ibv_rc_pingpong's struct pingpong_context. */
struct End {
	const Opts &o;
	bool client;
	std::unique_ptr<Context> ctx;
	std::unique_ptr<ProtectionDomain> pd;
	std::unique_ptr<CompletionQueue> cq;
	std::unique_ptr<SharedReceiveQueue> srq;    /* --srq */
	std::vector<std::unique_ptr<QueuePair>> qp; /* one, or -q with --srq */
	std::unique_ptr<MemoryRegion> mr;
	std::unique_ptr<AddressHandle> ah;
	std::vector<uint8_t> buf;
	uint32_t size;
	std::vector<uint32_t> psn;
	int routs = 0, rcnt = 0, scnt = 0;
	std::vector<unsigned> pending;
	std::vector<Dest> remote;
	bool failed = false;

	End(const Opts &op, bool cl, uint16_t port, rte_mempool *mp, std::array<uint8_t, 4> ip)
	    : o(op), client(cl)
	{
		ctx = open_context(port, mp, ip, o.gid_idx == 0);
		if (!ctx)
			exit(1);
		int err = 0;
		size = static_cast<uint32_t>(o.size);
		pd = ctx->alloc_pd();
		cq = ctx->create_cq(o.rx_depth + o.num_qp);
		/* One buffer receives and is sent back, as in rdma-core (UD: 40 bytes of GRH area first). */
		buf.assign(size + (o.type == IBV_QPT_UD ? 40 : 0), 0x7b);
		if (client && o.validate)
			for (uint32_t i = 0; i < size; i += kPageSize)
				buf[off() + i] = 0; /* rdma-core: i / page_size % sizeof(char) */
		mr = ctx->reg_mr(*pd, buf.data(), buf.size(), IBV_ACCESS_LOCAL_WRITE);
		if (o.srq && !(srq = ctx->create_srq(*pd, o.rx_depth, 1, &err))) {
			fprintf(stderr, "Couldn't create SRQ (%d)\n", err);
			exit(1);
		}
		QpInitAttr a;
		a.qp_type = o.type;
		a.send_cq = a.recv_cq = cq.get();
		a.srq = srq.get();
		a.cap.max_send_wr = 1;
		a.cap.max_recv_wr = o.srq ? 0 : o.rx_depth;
		a.cap.max_send_sge = a.cap.max_recv_sge = 1;
		for (int i = 0; i < o.num_qp; i++) {
			qp.push_back(ctx->create_qp(*pd, a, &err));
			if (!qp.back() || !mr || !cq) {
				fprintf(stderr, "Couldn't create QP/MR/CQ (%d)\n", err);
				exit(1);
			}
			QpAttr at;
			at.qp_state = IBV_QPS_INIT;
			at.qkey = kUdQkey;
			if (qp.back()->modify(at, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
							  (o.type == IBV_QPT_UD
								   ? IBV_QP_QKEY
								   : IBV_QP_ACCESS_FLAGS))) {
				fprintf(stderr, "Failed to modify QP to INIT\n");
				exit(1);
			}
			psn.push_back(static_cast<uint32_t>(lrand48() & 0xffffff));
		}
		pending.assign(o.num_qp, 0);
	}
	~End() { qp.clear(); /* before the SRQ they use */ }
	std::vector<Dest> local() const
	{
		std::vector<Dest> d;
		for (size_t i = 0; i < qp.size(); i++)
			d.push_back({0, qp[i]->qp_num(), psn[i], ctx->gid()});
		return d;
	}
	uint32_t off() const { return o.type == IBV_QPT_UD ? 40 : 0; }
	/* rdma-core's check at the end of a server run with -c. */
	bool check_pages() const
	{
		bool ok = true;
		for (uint32_t i = 0; i < size; i += kPageSize)
			if (buf[off() + i] != 0) {
				printf("invalid data in page %u\n", i / kPageSize);
				ok = false;
			}
		return ok;
	}

	int connect(const std::vector<Dest> &d, const MacAddr &mac)
	{
		remote = d;
		for (size_t i = 0; i < qp.size(); i++)
			if (connect_one(i, d[i], mac) != 0)
				return 1;
		if (o.type == IBV_QPT_UD) {
			ah = ctx->create_ah(*pd, {mac, d[0].gid, 0, 0, 64});
			if (!ah)
				return 1;
		}
		return 0;
	}
	int connect_one(size_t i, const Dest &d, const MacAddr &mac)
	{
		QpAttr a;
		a.qp_state = IBV_QPS_RTR;
		a.path_mtu = o.mtu;
		a.dest_qp_num = d.qpn;
		a.rq_psn = d.psn;
		a.max_dest_rd_atomic = 1;
		a.min_rnr_timer = 12;
		a.ah_attr = {mac, d.gid, 0, 0, 64};
		int mask = IBV_QP_STATE;
		if (o.type != IBV_QPT_UD)
			mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
		if (o.type == IBV_QPT_RC)
			mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
		if (qp[i]->modify(a, mask)) {
			fprintf(stderr, "Failed to modify QP to RTR\n");
			return 1;
		}
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = psn[i];
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = 1;
		mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
		if (o.type == IBV_QPT_RC)
			mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				IBV_QP_MAX_QP_RD_ATOMIC;
		if (qp[i]->modify(a, mask)) {
			fprintf(stderr, "Failed to modify QP to RTS\n");
			return 1;
		}
		return 0;
	}
	int post_recv(int n)
	{
		Sge s{reinterpret_cast<uintptr_t>(buf.data()), static_cast<uint32_t>(buf.size()),
		      mr->lkey()};
		int i;
		for (i = 0; i < n; i++)
			if ((srq ? srq->post_recv({kRecvWrid, {&s, 1}})
				 : qp[0]->post_recv({kRecvWrid, {&s, 1}})) != 0)
				break;
		return i;
	}
	int post_send(size_t i)
	{
		Sge s{reinterpret_cast<uintptr_t>(buf.data() + off()), size, mr->lkey()};
		SendWr w;
		w.wr_id = kSendWrid;
		w.sg_list = {&s, 1};
		w.opcode = IBV_WR_SEND;
		w.send_flags = IBV_SEND_SIGNALED;
		if (ah)
			w.ud = {ah.get(), remote[i].qpn, kUdQkey};
		return qp[i]->post_send(w);
	}
	void start()
	{
		routs = post_recv(o.rx_depth);
		if (routs < o.rx_depth) {
			fprintf(stderr, "Couldn't post receive (%d)\n", routs);
			exit(1);
		}
		for (size_t i = 0; i < qp.size(); i++) {
			pending[i] = kRecvWrid;
			if (client) {
				if (post_send(i)) {
					fprintf(stderr, "Couldn't post send\n");
					exit(1);
				}
				pending[i] |= kSendWrid;
			}
		}
	}
	/* srq_pingpong.c find_qp(): the QP a completion belongs to. */
	int find_qp(uint32_t qpn) const
	{
		for (size_t i = 0; i < qp.size(); i++)
			if (qp[i]->qp_num() == qpn)
				return int(i);
		return -1;
	}
	bool done() const { return failed || (rcnt >= o.iters && scnt >= o.iters); }
	/* ibv_rc_pingpong's completion loop body. Returns false when there was nothing to do. */
	bool step()
	{
		unsigned moved = ctx->poll();
		WorkCompletion wc[16];
		int ne = cq->poll_cq(wc);
		if (moved == 0 && ne == 0)
			return false;
		for (int i = 0; i < ne; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "Failed status %d for wr_id %d\n",
					int(wc[i].status), int(wc[i].wr_id));
				failed = true;
				return true;
			}
			int q = find_qp(wc[i].qp_num);
			if (q < 0) {
				fprintf(stderr, "Couldn't find QPN %06x\n", wc[i].qp_num);
				failed = true;
				return true;
			}
			switch (wc[i].wr_id) {
			case kSendWrid:
				++scnt;
				break;
			case kRecvWrid:
				if (--routs <= o.num_qp) { /* 1 without --srq, as rc_pingpong */
					routs += post_recv(o.rx_depth - routs);
					if (routs < o.rx_depth) {
						fprintf(stderr, "Couldn't post receive (%d)\n",
							routs);
						failed = true;
						return true;
					}
				}
				++rcnt;
				break;
			default:
				fprintf(stderr, "Completion for unknown wr_id %d\n",
					int(wc[i].wr_id));
				failed = true;
				return true;
			}
			pending[q] &= ~unsigned(wc[i].wr_id);
			if (scnt < o.iters && !pending[q]) {
				if (post_send(size_t(q))) {
					fprintf(stderr, "Couldn't post send\n");
					failed = true;
					return true;
				}
				pending[q] = kRecvWrid | kSendWrid;
			}
		}
		return true;
	}
};

/* On failure: the transport counters that are not zero (what went wrong on the wire). */
void print_counters(const Counters &c)
{
	const std::pair<const char *, uint64_t> v[] = {{"rx_frames", c.rx_frames},
						       {"rx_not_roce", c.rx_not_roce},
						       {"rx_malformed", c.rx_malformed},
						       {"rx_icrc_errors", c.rx_icrc_errors},
						       {"rx_not_for_us", c.rx_not_for_us},
						       {"rx_unknown_qp", c.rx_unknown_qp},
						       {"rx_bad_state", c.rx_bad_state},
						       {"rx_duplicates", c.rx_duplicates},
						       {"rx_out_of_sequence", c.rx_out_of_sequence},
						       {"rx_no_recv_wqe", c.rx_no_recv_wqe},
						       {"tx_frames", c.tx_frames},
						       {"tx_no_mbuf", c.tx_no_mbuf},
						       {"acks_sent", c.acks_sent},
						       {"acks_rcvd", c.acks_rcvd},
						       {"naks_sent", c.naks_sent},
						       {"naks_rcvd", c.naks_rcvd},
						       {"rnr_naks_sent", c.rnr_naks_sent},
						       {"rnr_naks_rcvd", c.rnr_naks_rcvd},
						       {"retransmits", c.retransmits},
						       {"timeouts", c.timeouts}};
	for (const auto &[name, val] : v)
		if (val != 0)
			fprintf(stderr, "  %s %" PRIu64 "\n", name, val);
}

void print_dest(const char *what, const Dest &d)
{
	char g[33];
	d.gid.to_wire(g);
	char ip[INET6_ADDRSTRLEN];
	inet_ntop(AF_INET6, d.gid.raw.data(), ip, sizeof ip);
	printf("  %s address:  LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s\n", what, d.lid, d.qpn,
	       d.psn, ip);
	(void)g;
}

std::string to_msg(const Dest &d)
{
	char g[33], msg[64];
	d.gid.to_wire(g);
	snprintf(msg, sizeof msg, "%04x:%06x:%06x:%s", d.lid, d.qpn, d.psn, g);
	return msg;
}

bool from_msg(const char *msg, Dest &d)
{
	char g[33] = {};
	if (sscanf(msg, "%x:%x:%x:%32s", &d.lid, &d.qpn, &d.psn, g) != 4)
		return false;
	return Gid::from_wire(g, d.gid);
}

constexpr size_t kMsgLen = sizeof "0000:000000:000000:00000000000000000000000000000000";

/* TCP exchange as pp_client_exch_dest / pp_server_exch_dest (rdma-core v44). The server
 * connects its QPs (`connect`) between reading the client's addresses and sending its own, so
 * that they are ready when the client's first packet comes. --srq: kSrqMaxQp messages each
 * way, ours beyond the QPs we have zero (srq_pingpong.c's memset my_dest). */
template <typename Connect>
bool exchange(const Opts &o, Context *ctx, const std::vector<Dest> &mine, std::vector<Dest> &peer,
	      Connect connect)
{
	const size_t n = o.srq ? kSrqMaxQp : 1;
	std::string m;
	for (size_t i = 0; i < n; i++) {
		std::string one = to_msg(i < mine.size() ? mine[i] : Dest{});
		one.resize(kMsgLen, '\0');
		m += one;
	}
	std::vector<char> buf(n * kMsgLen + 1, 0);
	auto parse = [&] {
		peer.assign(n, Dest{});
		for (size_t i = 0; i < n; i++) {
			buf[(i + 1) * kMsgLen - 1] = 0;
			if (!from_msg(&buf[i * kMsgLen], peer[i]))
				return false;
		}
		peer.resize(mine.size());
		return true;
	};
	SideChannel ch(ctx);
	if (!ch.open(o.server, o.tcp_port))
		return false;
	bool ok;
	if (ch.is_client()) {
		ok = ch.put(m.data(), m.size()) && ch.get(buf.data(), m.size()) && parse();
		ok = ok && ch.put("done", sizeof "done");
		if (ok && connect(peer) != 0)
			return false;
	} else {
		ok = ch.get(buf.data(), m.size()) && parse();
		if (ok && connect(peer) != 0)
			return false;
		ok = ok && ch.put(m.data(), m.size());
		char d[sizeof "done"];
		ok = ok && ch.get(d, sizeof d) && memcmp(d, "done", sizeof d) == 0;
	}
	if (!ok) {
		fprintf(stderr, "Couldn't read/write remote address\n");
		return false;
	}
	return true;
}

void report(const Opts &o, uint64_t start, uint64_t end)
{
	double usec = double(end - start) * 1e6 / double(rte_get_timer_hz());
	long long bytes = (long long)o.size * o.iters * 2;
	printf("%lld bytes in %.2f seconds = %.2f Mbit/sec\n", bytes, usec / 1000000.,
	       bytes * 8. / usec);
	printf("%d iters in %.2f seconds = %.2f usec/iter\n", o.iters, usec / 1000000.,
	       usec / o.iters);
}

void usage(const char *argv0)
{
	printf("Usage:\n  %s [EAL args] -- [options]            start a server and wait for "
	       "connection\n"
	       "  %s [EAL args] -- [options] <host>     connect to server at <host>\n"
	       "  %s [EAL args] -- --loop [options]     both ends in-process (ports 0 and 1)\n\n"
	       "Options:\n  -p, --port=<port>  -s, --size=<size>  -m, --mtu=<size>  -r, "
	       "--rx-depth=<dep>\n"
	       "  -n, --iters=<iters>  -g, --gid-idx=0|1  -c, --chk  -T, --transport=rc|uc|ud\n"
	       "  --srq  -q, --num-qp=<n> (with --srq: ibv_srq_pingpong, default 16)\n"
	       "  --ip=a.b.c.d  [--peer-mac=xx:..:xx]  --dpdk-port=N  --loop  --busy-poll  "
	       "--pcap=FILE\n"
	       "Two processes on one host: give each its own core (EAL -l 0 / -l 1).\n",
	       argv0, argv0, argv0);
}

} /* namespace */

int main(int argc, char **argv)
{
	if (!eal_init(argc, argv))
		return 1;
	Opts o;
	static const option longopts[] = {{"port", 1, nullptr, 'p'},
					  {"size", 1, nullptr, 's'},
					  {"mtu", 1, nullptr, 'm'},
					  {"rx-depth", 1, nullptr, 'r'},
					  {"iters", 1, nullptr, 'n'},
					  {"gid-idx", 1, nullptr, 'g'},
					  {"chk", 0, nullptr, 'c'},
					  {"transport", 1, nullptr, 'T'},
					  {"loop", 0, nullptr, 'L'},
					  {"busy-poll", 0, nullptr, 'B'},
					  {"srq", 0, nullptr, 'S'},
					  {"num-qp", 1, nullptr, 'q'},
					  {"help", 0, nullptr, 'h'},
					  EXAMPLE_PEER_LONGOPTS,
					  {}};
	const UintOpt nums[] = {
		{'p', "-p", 1, 65535, o.tcp_port},
		{'s', "-s", 1, kMaxSize, o.size},
		/* ibv_create_srq's limit, and a receive queue's in the RoCE layer */
		{'r', "-r", 1, 65536, o.rx_depth},
		{'n', "-n", 1, INT32_MAX, o.iters},
		{'g', "-g", 0, 1, o.gid_idx}, /* the table has 0 (link-local IPv6) and 1 (IPv4) */
		{'q', "-q", 1, kSrqMaxQp - 1, o.num_qp, &o.num_qp_set},
	};
	int c;
	while ((c = getopt_long(argc, argv, "p:s:m:r:n:g:cT:q:h", longopts, nullptr)) != -1) {
		if (int r = parse_peer_opt(c, optarg, o, nums); r != 0) {
			if (r < 0)
				return 1;
			continue;
		}
		switch (c) {
		case 'm':
			if (!parse_ib_mtu("-m", optarg, o.mtu))
				return 1;
			o.mtu_set = true;
			break;
		case 'c':
			o.validate = true;
			break;
		case 'T':
			if (!strcmp(optarg, "rc"))
				o.type = IBV_QPT_RC;
			else if (!strcmp(optarg, "uc"))
				o.type = IBV_QPT_UC;
			else if (!strcmp(optarg, "ud"))
				o.type = IBV_QPT_UD;
			else
				return !bad_opt("-T", optarg, "not a transport (rc|uc|ud)");
			break;
		case 'L':
			o.loop = true;
			break;
		case 'B':
			o.busy_poll = true;
			break;
		case 'S':
			o.srq = true;
			break;
		case 'h':
			usage(argv[0]);
			return 0;
		default:
			return 1; /* getopt named the unknown option or the missing value */
		}
	}
	if (!server_arg(argc, argv, o.server))
		return 1;
	if (o.size == 0)
		o.size = o.type == IBV_QPT_UD ? 2048 : 4096;
	if (o.num_qp_set && !o.srq) {
		fprintf(stderr, "%s: -q: several QPs only with --srq (ibv_srq_pingpong)\n",
			prog_name());
		return 1;
	}
	if (o.srq) {
		if (o.type != IBV_QPT_RC) {
			fprintf(stderr, "%s: --srq: RC only, as ibv_srq_pingpong\n", prog_name());
			return 1;
		}
		if (!o.num_qp_set)
			o.num_qp = 16; /* srq_pingpong.c's default */
		if (o.num_qp < 1 || o.num_qp >= kSrqMaxQp) {
			fprintf(stderr, "%s: -q: num_qp %d must be 1..%d\n", prog_name(), o.num_qp,
				kSrqMaxQp - 1);
			return 1;
		}
		if (o.num_qp > o.rx_depth) {
			fprintf(stderr,
				"%s: -r: rx_depth %d is too small for %d QPs -- must have at least "
				"one "
				"receive per QP\n",
				prog_name(), o.rx_depth, o.num_qp);
			return 1;
		}
	}
	srand48(getpid() * time(nullptr));
	rte_mempool *mp = start_ports("pp_pool", 8191, o.loop, o.dpdk_port);
	if (mp == nullptr)
		return 1;
	int rc = 0;
	if (o.loop) {
		if (o.type == IBV_QPT_UD && uint32_t(o.size) > mtu_bytes(o.mtu)) {
			fprintf(stderr, "Requested size larger than port MTU (%u)\n",
				mtu_bytes(o.mtu));
			return 1;
		}
		/* Port 0, the server's, sees every frame of the pair: the whole conversation. */
		std::unique_ptr<PortCapture> cap;
		if (o.pcap != nullptr && !(cap = PortCapture::open(o.pcap, 0, 0)))
			return 1;
		End srv(o, false, 0, mp, {10, 0, 0, 1}), cli(o, true, 1, mp, {10, 0, 0, 2});
		for (const Dest &d : cli.local())
			print_dest("local", d);
		for (const Dest &d : srv.local())
			print_dest("remote", d);
		if (srv.connect(cli.local(), cli.ctx->mac()) ||
		    cli.connect(srv.local(), srv.ctx->mac()))
			return 1;
		srv.start();
		uint64_t t0 = rte_get_timer_cycles();
		cli.start();
		while (!(srv.done() && cli.done())) {
			srv.step();
			cli.step();
		}
		uint64_t t1 = rte_get_timer_cycles();
		rc = srv.failed || cli.failed;
		if (!rc)
			report(o, t0, t1);
		if (!rc && o.validate && !srv.check_pages())
			rc = 1;
	} else {
		/* ibv_ud_pingpong: UD messages go at the port's active MTU and must fit in it. */
		if (o.type == IBV_QPT_UD && !o.mtu_set)
			o.mtu = port_ib_mtu(o.dpdk_port, 8 /* DETH */);
		if (o.type == IBV_QPT_UD && uint32_t(o.size) > mtu_bytes(o.mtu)) {
			fprintf(stderr, "Requested size larger than port MTU (%u)\n",
				mtu_bytes(o.mtu));
			return 1;
		}
		std::unique_ptr<PortCapture> cap;
		if (o.pcap != nullptr && !(cap = PortCapture::open(o.pcap, o.dpdk_port, 0)))
			return 1;
		std::array<uint8_t, 4> ip =
			o.ip_set ? o.ip
				 : std::array<uint8_t, 4>{10, 0, 0, uint8_t(o.server ? 2 : 1)};
		End e(o, o.server != nullptr, o.dpdk_port, mp, ip);
		std::vector<Dest> peer;
		for (const Dest &d : e.local())
			print_dest("local", d);
		auto connect = [&](const std::vector<Dest> &d) {
			MacAddr mac = o.peer_mac;
			if (!o.peer_mac_set &&
			    wait_peer_mac(*e.ctx, d[0].gid, mac, kResolveMs) != 0)
				return 1;
			return e.connect(d, mac);
		};
		if (!exchange(o, e.ctx.get(), e.local(), peer, connect))
			return 1;
		for (const Dest &d : peer)
			print_dest("remote", d);
		e.start();
		uint64_t t0 = rte_get_timer_cycles();
		unsigned idle = 0;
		while (!e.done()) {
			if (e.step())
				idle = 0;
			else if (++idle >= kIdleSpins && !o.busy_poll) {
				sched_yield(); /* let a peer sharing this CPU run (see the header comment) */
				idle = 0;
			}
		}
		uint64_t t1 = rte_get_timer_cycles();
		keep_answering(*e.ctx, !o.busy_poll);
		rc = e.failed;
		if (!rc)
			report(o, t0, t1);
		else
			print_counters(e.ctx->counters());
		if (!rc && !o.server && o.validate && !e.check_pages())
			rc = 1;
	}
	rte_eal_cleanup();
	return rc;
}
