/* SPDX-License-Identifier: BSD-3-Clause */
/* roce_perftest: what its files share (roce_perftest.cpp: options and main; roce_perftest_peer.cpp:
 * set-up, connection, closing; roce_perftest_oob.cpp: the out-of-band exchange over TCP;
 * roce_perftest_cm.cpp: -R, perftest's rdma_cm mode;
 * roce_perftest_bw.cpp: the bandwidth tests; roce_perftest_lat.cpp: the latency tests).
 *
 * Without -R (roce_perftest_cm.cpp: the same flow, the exchange and the QPs' connection through
 * the RDMA CM), the out-of-band exchange is perftest's over TCP (src/perftest_communication.c,
 * tag v4.5-0.17 = perftest 6.06, what Debian 12 ships), in this order:
 *   16-byte version string ("6.06", NUL padded; the peer's must be >= 5.70);
 *   cycle buffer and cache line size, 4-byte big-endian ints (the larger of both is used);
 *   MTU as a 2-byte string of the ibv_mtu value ("5\0"; the smaller of both is used);
 *   the QP's keys, 108 bytes: "%04x:%04x:%06x:%06x:%08x:%016llx:" LID:out_reads:QPN:PSN:rkey:
 *   vaddr, the 16 GID bytes as "%02x:", "%08x:" SRQN, NUL;
 *   then the keys again as synchronisation points ("hand shakes").
 * Each message goes client first (it writes, then reads); the server reads, then writes.
 * write/read: keys, connect, 2 hand shakes, the client runs, hand shake, the client's report
 * (size, iters as 8-byte big-endian, bw peak, bw average, msg rate as big-endian doubles)
 * goes to the server, which prints it; a last hand shake and "done" (5 bytes) end it.
 * send: keys, connect, 2 hand shakes, then per size: the server posts receives, hand shake,
 * the run (with -a a hand shake after each size); each side prints its own report; the end
 * as for write.
 * The server advertises vaddr = buffer + max(size, cycle buffer): perftest's layout.
 * atomic: as write (ib_atomic_bw's flow is write_bw's); the server's MR and QP grant remote
 * atomic access and it takes 16 outstanding atomics, as for READ. perftest's client adds 1
 * (FETCH_AND_ADD) or swaps 0 for 0 (CMP_AND_SWAP) at 8-byte words 64 bytes apart in its cycle
 * buffer; so our server checks that its words (zero at start) sum to the client's iterations
 * (FAA) or stay 0 (CAS). Our client sends all its atomics to the one word the server
 * advertises and checks the original values it fetches: +1 each (FAA), all the same (CAS).
 * Latency tests (write_lat.c, read_lat.c, send_lat.c; run_iter_lat_write/_lat/_lat_send in
 * perftest_resources.c): write_lat and read_lat hand shake once more before the keys; then as
 * above up to the hand shake after RTR (send_lat: keys, connect, 2 hand shakes). write_lat: both
 * sides write `size` bytes whose last byte counts the iterations to the peer's buffer and
 * wait for the peer's count in their own; the server writes first. read_lat: the client reads,
 * one READ at a time; the server only closes (hand shake, "done"). send_lat: per size both
 * post receives and hand shake, then ping-pong SENDs, the client first. No report exchange:
 * each side that runs prints its own latencies (perftest's print_report_lat: the time between
 * successive posts, halved for write/send, sorted, the last 2 dropped; t_typical = median).
 * write_lat has no closing exchange; read_lat and send_lat end with a hand shake and "done".
 * -q: keys and the first hand shakes go once per QP (write/read/atomic: the per-QP ones, then
 * one after RTR; send: one after RTR, then the per-QP ones), the sync points use QP 0's keys.
 * Every QP of ours gets the same target (vaddr); our client's QPs target what the peer gave
 * each. -b (write_bw.c, read_bw.c): after the hand shake after RTR, per size a hand shake, the
 * run (both sides), with -a one more hand shake, the reports cross, each side prints its size
 * and iterations with the sum of both bandwidths; then the closing. -D: our client posts until
 * the time is up and reports what completed; a server does nothing different.
 * Exit status 0 when every message completed successfully (send server: every receive too).#pragma once */

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <vector>

#include "example_common.h"
#include "roce_cm.h"
#include "roce_verbs.h"

namespace gaudi::examples::perftest {

using roce::Gid;

enum class Test { write, read, send, atomic };

constexpr char kVersion[16] = "6.06";	 /* perftest 4.5-0.17's VERSION (configure.ac) */
constexpr double kMinPeerVersion = 5.70; /* check_version_compatibility() */
constexpr size_t kKeyMsgSize = 108;	 /* KEY_MSG_SIZE_GID */
constexpr uint32_t kMaxSize = 8388608;	 /* MAX_SIZE: -a goes to 2^23 */
constexpr int kOutReads = 16;		 /* outstanding READs we take as responder */
constexpr unsigned kResolveMs = 5000;	 /* longest wait for the peer's ARP reply / NA */
constexpr uint64_t kAtomicSize = 8;	 /* DEF_SIZE_ATOMIC: the only size of the atomic test */
constexpr uint64_t kAtomicAdd = 1;	 /* ATOMIC_ADD_VALUE */
constexpr uint64_t kAtomicSwap = 0;	 /* ATOMIC_SWAP_VALUE (compare 0 too) */

struct Opts : PeerOpts { /* --ip, --peer-mac, --dpdk-port, --pcap */
	Test test = Test::write;
	bool test_set = false;
	bool lat = false; /* a latency test (ib_*_lat) */
	bool cas = false; /* atomic: CMP_AND_SWAP instead of FETCH_AND_ADD */
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
	uint32_t num_qps = 1;	  /* -q */
	bool duplex = false;	  /* -b */
	uint32_t duration = 0;	  /* -D seconds (0: -n iterations) */
	uint32_t inline_size = 0; /* -I */
	bool rdma_cm = false;	  /* -R */
};

/* perftest's struct pingpong_dest: what each side tells the other about a QP. */
struct Dest {
	uint32_t lid = 0, out_reads = 0, qpn = 0, psn = 0, rkey = 0, srqn = 0;
	uint64_t vaddr = 0;
	Gid gid;
};

/* struct bw_report_data, the fields exchanged. */
struct Report {
	uint64_t size = 0, iters = 0;
	double bw_peak = 0, bw_avg = 0, msg_rate = 0;
};
void print_report(const Report &r);

/* The out-of-band exchange (perftest's perftest_comm). */
class Oob {
public:
	virtual ~Oob() = default;
	/* ctx_xchg_data: n bytes each way, the client's first. */
	virtual bool xchg(const void *mine, void *theirs, size_t n) = 0;
	/* ctx_hand_shake: a QP's keys each way. */
	virtual bool xchg_keys(const Dest &mine, Dest &theirs) = 0;
	/* ctx_close_connection after its hand shake. */
	virtual bool close() = 0;
};
/* Over TCP (ethernet_*): server nullptr listens on tcp_port. nullptr (said) on failure. */
std::unique_ptr<Oob> open_tcp_oob(roce::Context &ctx, const char *server, int tcp_port);
/* xchg_bw_reports() for peers >= 5.33: size, iters (8 bytes each), bw peak, bw avg, msg rate. */
bool xchg_reports(Oob &ch, const Report &mine, Report &theirs);

/* -R, perftest's rdma_cm mode (roce_perftest_cm.cpp): the exchange as SENDs on an RC connection
 * of the RDMA CM, the test's QPs connected by the CM. */
class CmOob final : public Oob {
public:
	CmOob(roce::Context &ctx, const Opts &o);
	~CmOob() override;
	CmOob(const CmOob &) = delete;
	CmOob &operator=(const CmOob &) = delete;
	/* establish_connection: the server listens on -p and takes the first connection, the
	 * client connects to the server's address. false (said on stderr) on failure. */
	bool open();
	bool xchg(const void *mine, void *theirs, size_t n) override;
	bool xchg_keys(const Dest &mine, Dest &theirs) override;
	bool close() override { return true; } /* the closing hand shake is all */
	/* create_rdma_cm_connection: a hand shake, every QP (RESET) connected through the CM, a
	 * hand shake. false (said) on failure. */
	bool connect_qps(std::span<const std::unique_ptr<roce::QueuePair>> qps, Dest &mine,
			 Dest &theirs);
	/* destroy_ctx: the client disconnects every connection; both wait (a bounded time) until
	 * each is down. */
	void teardown();

private:
	bool pump(); /* one round of the Context and the CM; true if anything moved */
	bool next_event(roce::CmEvent &ev, uint64_t deadline = UINT64_MAX);
	bool connect_retry(roce::QueuePair &qp, const roce::ConnParam &p, roce::CmId **out);
	bool accept_next(roce::QueuePair &qp, const roce::ConnParam &p, roce::CmId **out);
	bool post_recv();
	/* The exchange's next completion on cq; false when its connection went down first. */
	bool wait_wc(roce::CompletionQueue &cq, roce::WorkCompletion &wc);
	bool send(const void *b, size_t n);
	bool recv(void *b, size_t n);

	roce::Context &ctx_;
	const Opts &o_;
	Gid server_;
	std::unique_ptr<roce::ConnectionManager> cm_;
	std::unique_ptr<roce::ProtectionDomain> pd_;
	std::unique_ptr<roce::CompletionQueue> scq_, rcq_;
	std::array<uint8_t, 64> sbuf_{}, rbuf_{};
	std::unique_ptr<roce::MemoryRegion> smr_, rmr_;
	std::unique_ptr<roce::QueuePair> qp_;
	roce::CmId *listen_ = nullptr, *comm_ = nullptr;
	std::vector<roce::CmId *> ids_; /* the test's connections, one per QP */
	std::deque<roce::CmEvent> events_;
	bool comm_down_ = false;
};

/* One side of a test: set-up, connection, the run, the closing. */
class Peer {
public:
	explicit Peer(const Opts &o) : o_(o) {}
	~Peer();
	Peer(const Peer &) = delete;
	Peer &operator=(const Peer &) = delete;
	/* The whole test; the exit status. */
	int run(rte_mempool *mp);

private:
	/* roce_perftest_peer.cpp */
	int setup(rte_mempool *mp);
	int fail(const char *what);
	bool failed(const char *what) { return fail(what) == 0; } /* fail() for bool callers */
	void print_counters();
	void print_dest(const char *side, const Dest &d);
	unsigned inline_flag(uint64_t size) const;
	bool hand_shake(uint32_t i = 0);
	int connect();
	int qp_index(uint32_t qpn) const;
	/* roce_perftest_bw.cpp */
	bool send_loop(uint64_t size, Report &rep);
	bool check_atomic_target(uint64_t iters);
	void fill(Report &rep, uint64_t size, uint64_t n, uint64_t cycles);
	int run_rdma();
	int run_send();
	bool recv_loop(uint64_t size, Report &rep);
	/* roce_perftest_lat.cpp */
	int run_lat();
	int close_lat();
	int linger_and_report(int rc);
	bool progress();
	bool wait_wc(roce::CompletionQueue &cq, const char *what);
	bool reap_sends(uint64_t &done);
	bool post_one(ibv_wr_opcode op, uint64_t size, uint64_t id);
	bool lat_write(uint64_t size, bool server);
	bool lat_read(uint64_t size);
	bool post_lat_recvs(uint64_t size);
	bool post_lat_recv(uint64_t size);
	bool lat_send(uint64_t size, bool server);
	void print_lat(uint64_t size);
	void finish(); /* after the closing exchange: the CM's teardown, or answer a while */

	const Opts &o_;
	std::unique_ptr<Oob> ch_;
	CmOob *cm_ = nullptr;		/* ch_ with -R */
	std::vector<uint64_t> tposted_; /* latency tests: TSC at each post */
	uint64_t lat_rposted_ = 0;	/* send_lat: receives posted for this size */
	std::unique_ptr<roce::Context> ctx_;
	std::unique_ptr<roce::ProtectionDomain> pd_;
	std::unique_ptr<roce::CompletionQueue> cq_, rcq_; /* send, receive */
	std::unique_ptr<roce::MemoryRegion> mr_;
	std::vector<std::unique_ptr<roce::QueuePair>> qps_; /* -q */
	uint8_t *buf_ = nullptr;
	uint64_t half_ = 0;
	uint32_t cycle_ = 4096;
	ibv_mtu mtu_ = IBV_MTU_1024;
	std::vector<Dest> my_, rem_; /* per QP */
	/* send_loop's atomic check, printed after the figures row (not between it and its
	 * header); empty when none. */
	char atomic_check_[128] = {};
};

} /* namespace gaudi::examples::perftest */
