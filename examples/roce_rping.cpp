/* SPDX-License-Identifier: BSD-3-Clause */
/* roce_rping: librdmacm's rping on the userspace RoCE v2 transport and its RDMA CM
 * (drivers/net/gaudi/roce/roce_cm.h) over any DPDK port. Talks to rdma-core's `rping` either way.
 *
 *   roce_rping [EAL args] -- -s [-vV] [-S size] [-a addr] [-p port]           server
 *   roce_rping [EAL args] -- -c [-vV] [-S size] [-C count] -a addr --ip=a.b.c.d [-p port]
 *   roce_rping [EAL args] -- --loop [-vV] [-S size] [-C count]   server port 0, client port 1
 *
 * Options as rping's: -s server, -c client, -a address (server: ours, default 10.0.0.1;
 * client: the server's), -p port (7174), -S ping data size (64, at least 26 and below 65536),
 * -C count (client: pings; 0 = forever), -v print the ping data, -V validate it (client).
 * Extensions: --ip=a.b.c.d our IPv4 address as a client (default 10.0.0.2), --dpdk-port=N,
 * --pcap=FILE (every frame the port sends or receives; with --loop port 0, which sees both
 * directions), --loop, --msg: speak librdmacm's
 * rdma_server / rdma_client instead (port 7471 by default; the client SENDs 16 bytes, the server
 * answers with 16, then both disconnect); --ud: udaddy's (port space UDP: SIDR_REQ/SIDR_REP
 * give the client the server's QPN and Q_Key; the client sends -C UD SEND_WITH_IMMs of -S
 * bytes, default 10 x 100, with its QPN as immediate; the server answers with as many).
 *
 * The exchange per ping (rping.c, rdma-core v44), each message a 16-byte SEND of
 * struct rping_rdma_info {__be64 buf; __be32 rkey; __be32 size;}:
 *   client SENDs its source buffer's addr/rkey/size; the server RDMA READs it, then SENDs
 *   "go ahead" (16 bytes); the client SENDs its sink buffer's addr/rkey/size; the server RDMA
 *   WRITEs the data it read (strlen + 1 bytes) there and SENDs "go ahead" again; the client
 *   compares source and sink (-V). The client builds each ping as "rdma-ping-%d: " followed by
 *   the letters 'A'..'z' cycling from a start that moves by one per ping, NUL-terminated.
 * After the last ping the client disconnects (DREQ); the server ends on the DISCONNECTED event.
 * Exit status 0 on success; 1 on a CM error event, a failed completion or a data mismatch. */
#include <arpa/inet.h>
#include <getopt.h>
#include <sched.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "example_common.h"
#include "port_capture.h"
#include "roce_cm.h"
#include "roce_verbs.h"

using namespace gaudi::roce;
using namespace gaudi::examples;

namespace {

constexpr int kMinSize = 26; /* rping's RPING_MIN_BUFSIZE */
constexpr int kMaxSize = 64 * 1024 - 1;
constexpr uint32_t kInfoLen = 16; /* struct rping_rdma_info */
constexpr uint32_t kGrhLen = 40;  /* UD receives: the GRH area before the data */
constexpr unsigned kIdleSpins = 256;

struct Opts {
	int server = -1; /* -s / -c */
	bool loop = false;
	std::array<uint8_t, 4> addr{10, 0, 0, 1};
	bool addr_set = false;
	std::array<uint8_t, 4> ip{10, 0, 0, 2};
	uint16_t port = 7174;
	int size = 64;
	int count = 0;
	bool verbose = false, validate = false, debug = false;
	bool msg = false; /* --msg: rdma_server / rdma_client's exchange instead of rping's */
	bool ud = false;  /* --ud: udaddy's (SIDR, UD SEND_WITH_IMM each way) */
	bool port_set = false;
	const char *pcap = nullptr;
	uint16_t dpdk_port = 0;
};

void put_info(uint8_t *p, uint64_t addr, uint32_t rkey, uint32_t size)
{
	for (int i = 0; i < 8; i++)
		p[i] = uint8_t(addr >> (56 - 8 * i));
	for (int i = 0; i < 4; i++) {
		p[8 + i] = uint8_t(rkey >> (24 - 8 * i));
		p[12 + i] = uint8_t(size >> (24 - 8 * i));
	}
}

void get_info(const uint8_t *p, uint64_t &addr, uint32_t &rkey, uint32_t &size)
{
	addr = 0;
	rkey = size = 0;
	for (int i = 0; i < 8; i++)
		addr = addr << 8 | p[i];
	for (int i = 0; i < 4; i++) {
		rkey = rkey << 8 | p[8 + i];
		size = size << 8 | p[12 + i];
	}
}

/* One rping end, stepped by polling (no threads, unlike rping's CM and CQ threads). */
class End {
public:
	End(const Opts &o, bool server, uint16_t port, rte_mempool *mp, std::array<uint8_t, 4> ip)
	    : o_(o), server_(server)
	{
		ctx_ = open_context(port, mp, ip);
		if (!ctx_)
			exit(1);
		int err = 0;
		cm_ = std::make_unique<ConnectionManager>(*ctx_);
		pd_ = ctx_->alloc_pd();
		cq_ = ctx_->create_cq(64);
		recv_buf_.assign(kInfoLen, 0);
		send_buf_.assign(kInfoLen, 0);
		rdma_buf_.assign(size_t(o.size), 0);
		constexpr unsigned kRemote =
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
		recv_mr_ = ctx_->reg_mr(*pd_, recv_buf_.data(), kInfoLen, IBV_ACCESS_LOCAL_WRITE);
		send_mr_ = ctx_->reg_mr(*pd_, send_buf_.data(), kInfoLen, 0);
		rdma_mr_ = ctx_->reg_mr(*pd_, rdma_buf_.data(), rdma_buf_.size(), kRemote);
		if (o.ud) { /* udaddy: one buffer, received into after a 40-byte GRH area */
			ud_buf_.assign(size_t(o.size) + kGrhLen, 0);
			ud_mr_ = ctx_->reg_mr(*pd_, ud_buf_.data(), ud_buf_.size(),
					      IBV_ACCESS_LOCAL_WRITE);
		}
		if (!server_) {
			start_buf_.assign(size_t(o.size), 0);
			start_mr_ =
				ctx_->reg_mr(*pd_, start_buf_.data(), start_buf_.size(), kRemote);
		}
		QpInitAttr a;
		a.qp_type = o.ud ? IBV_QPT_UD : IBV_QPT_RC;
		a.send_cq = a.recv_cq = cq_.get();
		a.cap.max_send_wr = o.ud ? uint32_t(o.count) : 16; /* RPING_SQ_DEPTH */
		a.cap.max_recv_wr = o.ud ? uint32_t(o.count) : 2;
		a.cap.max_send_sge = a.cap.max_recv_sge = 1;
		qp_ = ctx_->create_qp(*pd_, a, &err);
		if (!qp_ || !recv_mr_ || !send_mr_ || !rdma_mr_ || (!server_ && !start_mr_) ||
		    (o.ud && !ud_mr_)) {
			fprintf(stderr, "Couldn't create the QP or register the buffers (%d)\n",
				err);
			exit(1);
		}
	}
	~End()
	{
		if (id_)
			cm_->destroy_id(id_);
		qp_.reset();
		ah_.reset();
	}
	Context &ctx() { return *ctx_; }

	/* Server: listen. Client: connect to dst. */
	bool start(const Gid &dst)
	{
		int rc;
		if (server_) {
			rc = cm_->listen(o_.port, &listen_, o_.ud);
			if (rc) {
				fprintf(stderr, "rdma_listen: %s\n", strerror(-rc));
				return false;
			}
			char ip[46];
			ctx_->gid().to_string(ip);
			/* Named as the run's last line names it (rdma_server for --msg). */
			printf("%s: listening on %s port %u\n",
			       o_.ud	? "udaddy server"
			       : o_.msg ? "rdma_server"
					: "rping server",
			       ip, o_.port);
			return true;
		}
		if (o_.ud) { /* udaddy: receives posted before the SIDR_REQ */
			rc = cm_->connect_ud(dst, o_.port, *qp_, &id_);
			for (int i = 0; rc == 0 && i < o_.count; i++)
				rc = post_ud_recv();
			if (rc)
				fprintf(stderr, "rdma_connect: %s\n", strerror(-rc));
			return rc == 0;
		}
		ConnParam p; /* rping_init_conn_param */
		p.responder_resources = 1;
		p.initiator_depth = 1;
		p.retry_count = 7;
		p.rnr_retry_count = 7;
		rc = cm_->connect(dst, o_.port, *qp_, p, &id_);
		if (rc == 0)
			rc = post_recv();
		if (rc)
			fprintf(stderr, "rdma_connect: %s\n", strerror(-rc));
		return rc == 0;
	}
	bool done() const { return done_ || failed_; }
	bool failed() const { return failed_; }
	int pings() const { return pings_; }

	/* One round of progress; true if anything happened. */
	bool step()
	{
		bool busy = ctx_->poll() != 0;
		CmEvent ev;
		while (cm_->get_event(ev)) {
			busy = true;
			on_event(ev);
		}
		WorkCompletion wc[8];
		int n = cq_->poll_cq(wc);
		for (int i = 0; i < n && !failed_; i++)
			on_completion(wc[i]);
		return busy || n > 0;
	}

private:
	enum class St { idle, connected, read_adv, read_complete, write_adv, write_complete };

	int post_recv()
	{
		Sge s{uint64_t(recv_buf_.data()), kInfoLen, recv_mr_->lkey()};
		return qp_->post_recv({1, {&s, 1}});
	}
	int post_send_info()
	{
		Sge s{uint64_t(send_buf_.data()), kInfoLen, send_mr_->lkey()};
		SendWr w;
		w.wr_id = 2;
		w.sg_list = {&s, 1};
		w.send_flags = IBV_SEND_SIGNALED;
		return qp_->post_send(w);
	}
	int post_rdma(ibv_wr_opcode op, uint32_t len)
	{
		Sge s{uint64_t(rdma_buf_.data()), len, rdma_mr_->lkey()};
		SendWr w;
		w.wr_id = 3;
		w.opcode = op;
		w.sg_list = {&s, 1};
		w.send_flags = IBV_SEND_SIGNALED;
		w.rdma.remote_addr = remote_addr_;
		w.rdma.rkey = remote_rkey_;
		return qp_->post_send(w);
	}
	void fail(const char *what, int v)
	{
		fprintf(stderr, "%s %d\n", what, v);
		failed_ = true;
	}

	void on_event(const CmEvent &ev)
	{
		if (o_.debug)
			printf("cma_event type %s\n", std::string(cm_event_name(ev.type)).c_str());
		switch (ev.type) {
		case CmEventType::connect_request: {
			if (id_ != nullptr) { /* one connection at a time, as rping without -P */
				cm_->reject(*ev.id);
				cm_->destroy_id(ev.id);
				break;
			}
			id_ = ev.id;
			if (o_.ud) {
				int rc = cm_->accept(*id_, *qp_, {});
				for (int i = 0; rc == 0 && i < o_.count; i++)
					rc = post_ud_recv();
				if (rc)
					fail("rdma_accept", rc);
				break;
			}
			ConnParam
				/* rdma_accept(id, NULL): librdmacm answers with the REQ's values */
				p;
			p.responder_resources = ev.initiator_depth;
			p.initiator_depth = ev.responder_resources;
			/* accept() takes the QP from RESET to RTS; the receive is posted before the
			 * peer can send (it waits for our REP). */
			int rc = cm_->accept(*id_, *qp_, p);
			if (rc == 0)
				rc = post_recv();
			if (rc)
				fail("rdma_accept", rc);
			break;
		}
		case CmEventType::established:
			st_ = St::connected;
			if (o_.ud) { /* SIDR_REP: the server's QPN and Q_Key; send the messages */
				remote_qpn_ = ev.qp_num;
				remote_qkey_ = ev.qkey;
				ah_ = ctx_->create_ah(*pd_, id_->av());
				ud_sends(false);
			} else if (!server_ && o_.msg)
				send_msg();
			else if (!server_)
				next_ping();
			break;
		case CmEventType::disconnected:
			fprintf(stderr, "%s DISCONNECT EVENT...\n", server_ ? "server" : "client");
			done_ = true;
			break;
		case CmEventType::rejected:
		case CmEventType::unreachable:
			fprintf(stderr, "cma event %s, error %d\n",
				std::string(cm_event_name(ev.type)).c_str(), ev.status);
			failed_ = true;
			break;
		case CmEventType::timewait_exit:
			break;
		}
	}

	/* rdma_server / rdma_client: one 16-byte SEND each way (client first), then both
	 * disconnect. */
	void send_msg()
	{
		snprintf(reinterpret_cast<char *>(send_buf_.data()), kInfoLen, "%s",
			 server_ ? "roce_rping srv" : "roce_rping cli");
		if (int rc = post_send_info())
			fail("post send error", rc);
	}

	void next_ping()
	{
		if (o_.count && pings_ >= o_.count) {
			if (int rc = cm_->disconnect(*id_))
				fail("rdma_disconnect", rc);
			return;
		}
		/* rping_test_client's ping text. */
		int cc = snprintf(reinterpret_cast<char *>(start_buf_.data()), start_buf_.size(),
				  "rdma-ping-%d: ", pings_);
		unsigned char c = uint8_t(start_);
		for (int i = cc; i < o_.size; i++) {
			start_buf_[size_t(i)] = c;
			if (++c > 122)
				c = 65;
		}
		if (++start_ > 122)
			start_ = 65;
		start_buf_[size_t(o_.size - 1)] = 0;
		st_ = St::read_adv;
		put_info(send_buf_.data(), uint64_t(start_buf_.data()), start_mr_->rkey(),
			 uint32_t(o_.size));
		if (int rc = post_send_info())
			fail("post send error", rc);
	}

	int post_ud_recv()
	{
		Sge s{uint64_t(ud_buf_.data()), uint32_t(ud_buf_.size()), ud_mr_->lkey()};
		return qp_->post_recv({1, {&s, 1}});
	}
	/* udaddy's post_sends: -C SEND_WITH_IMMs of -S bytes, immediate = our QPN (the server
	 * answers to it); the client's unsignaled, the server's signaled. */
	void ud_sends(bool signaled)
	{
		if (!ah_) {
			fail("address handle", 0);
			return;
		}
		Sge s{uint64_t(ud_buf_.data()), uint32_t(o_.size), ud_mr_->lkey()};
		SendWr w;
		w.opcode = IBV_WR_SEND_WITH_IMM;
		w.sg_list = {&s, 1};
		w.send_flags = signaled ? IBV_SEND_SIGNALED : 0;
		w.imm_data = qp_->qp_num();
		w.ud.ah = ah_.get();
		w.ud.remote_qpn = remote_qpn_;
		w.ud.remote_qkey = remote_qkey_;
		for (int i = 0; i < o_.count; i++)
			if (int rc = qp_->post_send(w)) {
				fail("failed to post sends", rc);
				return;
			}
	}
	void on_ud_completion(const WorkCompletion &wc)
	{
		if (wc.opcode == IBV_WC_SEND) { /* the server's replies */
			if (++pings_ == o_.count)
				done_ = true;
			return;
		}
		if (wc.opcode != IBV_WC_RECV || wc.byte_len != uint32_t(o_.size) + kGrhLen) {
			fail("unexpected UD completion, length", int(wc.byte_len));
			return;
		}
		received_++;
		if (!server_) {
			pings_ = received_;
			done_ = received_ == o_.count;
		} else if (received_ == o_.count) {
			/* create_reply_ah: the client's address from the SIDR_REQ, its QPN from the
			 * immediate data; the Q_Key is ours (librdmacm's for UDP on both sides). */
			remote_qpn_ = wc.imm_data;
			remote_qkey_ = kRdmaUdpQkey;
			ah_ = ctx_->create_ah(*pd_, id_->av());
			ud_sends(true);
		}
	}

	void on_completion(const WorkCompletion &wc)
	{
		if (o_.ud && wc.status == IBV_WC_SUCCESS) {
			on_ud_completion(wc);
			return;
		}
		if (wc.status != IBV_WC_SUCCESS) {
			if (wc.status == IBV_WC_WR_FLUSH_ERR)
				return;
			fail("cq completion failed status", wc.status);
			return;
		}
		switch (wc.opcode) {
		case IBV_WC_SEND:
			/* The server's answer is acknowledged: the exchange is over (rdma_server
			 * then disconnects; the QP goes to ERR only now, so nothing unsent is
			 * flushed). */
			if (o_.msg && server_) {
				pings_ = 1;
				if (int rc = cm_->disconnect(*id_))
					fail("rdma_disconnect", rc);
			}
			break;
		case IBV_WC_RDMA_READ:
			if (o_.verbose)
				printf("server ping data: %s\n",
				       reinterpret_cast<const char *>(rdma_buf_.data()));
			st_ = St::read_complete;
			if (int rc = post_send_info()) /* "go ahead" */
				fail("post send error", rc);
			break;
		case IBV_WC_RDMA_WRITE:
			st_ = St::write_complete;
			pings_++;
			if (int rc = post_send_info())
				fail("post send error", rc);
			break;
		case IBV_WC_RECV:
			if (wc.byte_len != kInfoLen) {
				fail("Received bogus data, size", int(wc.byte_len));
				return;
			}
			if (int rc = post_recv()) {
				fail("post recv error", rc);
				return;
			}
			if (o_.msg && server_)
				send_msg();
			else if (o_.msg) {
				pings_ = 1;
				if (int rc = cm_->disconnect(*id_))
					fail("rdma_disconnect", rc);
			} else
				server_ ? server_recv() : client_recv();
			break;
		default:
			fail("unknown completion", wc.opcode);
			break;
		}
	}

	void server_recv()
	{
		uint32_t len;
		get_info(recv_buf_.data(), remote_addr_, remote_rkey_, len);
		if (st_ <= St::connected || st_ == St::write_complete) {
			st_ = St::read_adv;
			if (len > rdma_buf_.size()) {
				/* rping's server reads the client's whole buffer into its own. */
				fprintf(stderr,
					"%s: -S %zu: the client's buffer (%u bytes) is larger than "
					"this server's -S\n",
					prog_name(), rdma_buf_.size(), len);
				failed_ = true;
				return;
			}
			if (int rc = post_rdma(IBV_WR_RDMA_READ, len))
				fail("post send error", rc);
		} else {
			st_ = St::write_adv;
			rdma_buf_.back() = 0;
			uint32_t n =
				uint32_t(strlen(reinterpret_cast<const char *>(rdma_buf_.data()))) +
				1;
			if (int rc = post_rdma(IBV_WR_RDMA_WRITE, n))
				fail("post send error", rc);
		}
	}

	void client_recv()
	{
		if (st_ == St::read_adv) { /* the server has read: offer the sink */
			st_ = St::write_adv;
			put_info(send_buf_.data(), uint64_t(rdma_buf_.data()), rdma_mr_->rkey(),
				 uint32_t(o_.size));
			if (int rc = post_send_info())
				fail("post send error", rc);
			return;
		}
		st_ = St::write_complete;
		if (o_.validate &&
		    std::memcmp(start_buf_.data(), rdma_buf_.data(), start_buf_.size())) {
			fprintf(stderr, "data mismatch!\n");
			failed_ = true;
			return;
		}
		if (o_.verbose)
			printf("ping data: %s\n", reinterpret_cast<const char *>(rdma_buf_.data()));
		pings_++;
		std::fill(rdma_buf_.begin(), rdma_buf_.end(), 0);
		next_ping();
	}

	const Opts &o_;
	bool server_;
	std::unique_ptr<Context> ctx_;
	std::unique_ptr<ConnectionManager> cm_;
	std::unique_ptr<ProtectionDomain> pd_;
	std::unique_ptr<CompletionQueue> cq_;
	std::vector<uint8_t> recv_buf_, send_buf_, rdma_buf_, start_buf_;
	std::unique_ptr<MemoryRegion> recv_mr_, send_mr_, rdma_mr_, start_mr_;
	std::unique_ptr<QueuePair> qp_;
	std::vector<uint8_t> ud_buf_;
	std::unique_ptr<MemoryRegion> ud_mr_;
	std::unique_ptr<AddressHandle> ah_;
	uint32_t remote_qpn_ = 0, remote_qkey_ = 0;
	int received_ = 0;
	CmId *listen_ = nullptr, *id_ = nullptr;
	St st_ = St::idle;
	uint64_t remote_addr_ = 0;
	uint32_t remote_rkey_ = 0;
	int pings_ = 0;
	int start_ = 65;
	bool done_ = false, failed_ = false;
};

void usage(const char *argv0)
{
	printf("Usage:\n"
	       "  %s [EAL args] -- -s [-vVd] [-S size] [-a addr] [-p port]\n"
	       "  %s [EAL args] -- -c [-vVd] [-S size] [-C count] -a addr [--ip=a.b.c.d] "
	       "[-p port]\n"
	       "  %s [EAL args] -- --loop [-vVd] [-S size] [-C count]\n"
	       "Options: -s server, -c client, -a address (server: ours; client: the server's),\n"
	       "  -p port (7174), -S size (64, %d..%d), -C count (0 = forever), -v print data,\n"
	       "  -V validate data, -d debug, --ip=a.b.c.d (client's own address, 10.0.0.2),\n"
	       "  --dpdk-port=N, --pcap=FILE, --loop (server on port 0, client on port 1),\n"
	       "  --msg (rdma_server / rdma_client's exchange: one 16-byte SEND each way, port "
	       "7471),\n  --ud (udaddy's: SIDR, -C UD messages of -S bytes (10 x 100) each way)\n",
	       argv0, argv0, argv0, kMinSize, kMaxSize);
}

/* Steps until `e` is done; then keeps answering briefly (the peer's last ACKs, DREP). */
int run(End &e)
{
	unsigned idle = 0;
	while (!e.done()) {
		if (e.step())
			idle = 0;
		else if (++idle >= kIdleSpins) {
			sched_yield();
			idle = 0;
		}
	}
	uint64_t until = rte_get_timer_cycles() + rte_get_timer_hz() / 5;
	while (rte_get_timer_cycles() < until)
		if (!e.step())
			sched_yield();
	return e.failed() ? 1 : 0;
}

} /* namespace */

int main(int argc, char **argv)
{
	if (!eal_init(argc, argv))
		return 1;
	Opts o;
	static const option longopts[] = {{"ip", 1, nullptr, 'I'},   {"dpdk-port", 1, nullptr, 'P'},
					  {"pcap", 1, nullptr, 'W'}, {"loop", 0, nullptr, 'L'},
					  {"msg", 0, nullptr, 'M'},  {"ud", 0, nullptr, 'U'},
					  {"help", 0, nullptr, 'h'}, {}};
	bool size_set = false;
	const UintOpt nums[] = {
		{'p', "-p", 1, 65535, o.port, &o.port_set},
		{'C', "-C", 0, INT32_MAX, o.count}, /* 0: ping until stopped, as rping */
		{'S', "-S", kMinSize, kMaxSize, o.size, &size_set},
		{'P', "--dpdk-port", 0, RTE_MAX_ETHPORTS - 1, o.dpdk_port},
	};
	int c;
	while ((c = getopt_long(argc, argv, "a:p:C:S:scvVdh", longopts, nullptr)) != -1) {
		if (int r = parse_uint_opt(c, optarg, nums); r != 0) {
			if (r < 0)
				return 1;
			continue;
		}
		switch (c) {
		case 'a':
			if (!parse_ipv4(optarg, o.addr))
				return !bad_opt("-a", optarg, "not an IPv4 address (a.b.c.d)");
			o.addr_set = true;
			break;
		case 'I':
			if (!parse_ipv4(optarg, o.ip))
				return !bad_opt("--ip", optarg, "not an IPv4 address (a.b.c.d)");
			break;
		case 'M':
			o.msg = true;
			break;
		case 'U':
			o.ud = true;
			break;
		case 's':
			o.server = 1;
			break;
		case 'c':
			o.server = 0;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'V':
			o.validate = true;
			break;
		case 'd':
			o.debug = true;
			break;
		case 'W':
			o.pcap = optarg;
			break;
		case 'L':
			o.loop = true;
			break;
		case 'h':
			usage(argv[0]);
			return 0;
		default:
			return 1; /* getopt named the unknown option or the missing value */
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: %s: unexpected argument (the server's address is -a)\n",
			prog_name(), argv[optind]);
		return 1;
	}
	if (o.msg && o.ud) {
		fprintf(stderr,
			"%s: --msg and --ud: two exchanges (rdma_server's, udaddy's); one only\n",
			prog_name());
		return 1;
	}
	if (o.server == -1 && !o.loop) {
		fprintf(stderr, "%s: -s (server), -c (client) or --loop is needed\n", prog_name());
		return 1;
	}
	if (o.server == 0 && !o.addr_set) {
		fprintf(stderr, "%s: -c: the server's address (-a) is needed\n", prog_name());
		return 1;
	}
	if (o.msg) {
		o.count = 1;
		if (!o.port_set)
			o.port = 7471; /* rdma_server / rdma_client's default */
	}
	if (o.ud) { /* udaddy's defaults: 10 messages of 100 bytes */
		if (o.count == 0)
			o.count = 10;
		if (!size_set)
			o.size = 100;
	}
	if (o.loop && o.count == 0)
		o.count = 10;
	rte_mempool *mp = start_ports("rping_pool", 4095, o.loop, o.dpdk_port);
	if (mp == nullptr)
		return 1;
	int rc = 0;
	if (o.loop) {
		/* Port 0, the server's, sees every frame of the pair: the whole conversation. */
		std::unique_ptr<PortCapture> cap;
		if (o.pcap != nullptr && !(cap = PortCapture::open(o.pcap, 0, 0)))
			return 1;
		{
			End srv(o, true, 0, mp, {10, 0, 0, 1}), cli(o, false, 1, mp, {10, 0, 0, 2});
			if (!srv.start({}) || !cli.start(Gid::from_ipv4({10, 0, 0, 1})))
				return 1;
			while (!(srv.done() && cli.done())) {
				srv.step();
				cli.step();
			}
			rc = srv.failed() || cli.failed();
			if (o.msg) /* -S does not apply: rdma_client's message is 16 bytes */
				printf("rdma_client: %d message(s) of %u bytes, "
				       "rdma_server answered %d%s\n",
				       cli.pings(), kInfoLen, srv.pings(), rc ? " (failed)" : "");
			else
				printf("%s: %d pings of %d bytes, server answered %d%s\n",
				       o.ud ? "udaddy" : "rping", cli.pings(), o.size, srv.pings(),
				       rc ? " (failed)" : "");
			if (srv.pings() != cli.pings() || cli.pings() != o.count)
				rc = 1;
		}
	} else {
		std::unique_ptr<PortCapture> cap;
		if (o.pcap != nullptr && !(cap = PortCapture::open(o.pcap, o.dpdk_port, 0)))
			return 1;
		{
			bool server = o.server == 1;
			End e(o, server, o.dpdk_port, mp, server ? o.addr : o.ip);
			if (!e.start(Gid::from_ipv4(o.addr)))
				return 1;
			rc = run(e);
			if (o.msg)
				printf("%s: %d message(s) of %u bytes each way%s\n",
				       server ? "rdma_server" : "rdma_client", e.pings(), kInfoLen,
				       rc ? " (failed)" : "");
			else
				printf("%s %s: %d pings of %d bytes%s\n", o.ud ? "udaddy" : "rping",
				       server ? "server" : "client", e.pings(), o.size,
				       rc ? " (failed)" : "");
			if (!server && o.count && e.pings() != o.count)
				rc = 1;
		}
	}
	rte_eal_cleanup();
	return rc;
}
