/* SPDX-License-Identifier: BSD-3-Clause
 * What the RoCE examples that talk to a peer process share (roce_pingpong, roce_perftest,
 * roce_rping, roce_bench), built once as the example_common library: EAL start, the mbuf pool
 * and DPDK port set-up, the IB path MTU a port's MTU carries, the option values they parse alike
 * (path MTU, MAC, IPv4), the closing linger, and the TCP side channel the rdma-core and perftest
 * tools exchange their QP addresses over. While the channel waits (accept, read), it keeps
 * polling the RoCE Context, which answers the peer's ARP / Neighbour Solicitation: a kernel RoCE
 * peer resolves our MAC before its QP reaches RTR, often while we wait here.
 */
#pragma once

#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "roce_verbs.h"

namespace gaudi::examples {

/* Port MTU the examples ask for: a 4096-byte IB MTU with IPv6, UDP, BTH, RETH and ICRC around
 * it, with room to spare (rxe on a 4200-byte netdev MTU does the same). */
constexpr uint16_t kPortMtu = 4200;

/* rte_eal_init with line-buffered stdout (whole lines in a log even if the run is killed);
 * argc/argv are left at the application's arguments. false (said on stderr) on failure. */
bool eal_init(int &argc, char **&argv);

/* The examples' mbuf pool: n mbufs with room for a 4200-byte frame. nullptr (said) on failure. */
rte_mempool *create_pool(const char *name, unsigned n);

/* One rx queue of nb_rxd and one tx queue of nb_txd (0: nb_rxd) descriptors, promiscuous,
 * started; 0 or a negative errno. */
int setup_port(uint16_t port, rte_mempool *mp, uint16_t nb_rxd = 1024, uint16_t nb_txd = 0);

/* --dpdk-port's value against the ports EAL found: with --loop (which uses 0 and 1) none but 0,
 * else a port that exists. false, said with bad_opt naming --dpdk-port, when not. */
bool check_port(bool loop, uint16_t port);

/* The mbuf pool (create_pool) and the ports set up: 0 and 1 (a pair) for --loop, else `port`
 * (check_port first). nullptr, said on stderr, on failure. */
rte_mempool *start_ports(const char *pool_name, unsigned n, bool loop, uint16_t port);

/* The one positional argument, the server's host (stays nullptr without one); false, said on
 * one line naming the extra one, when there are more. */
bool server_arg(int argc, char **argv, const char *&server);

/* The RoCE Context on port: GID ::ffff:ip (IPv4 frames) or, with link_local, fe80:: from the
 * port's MAC (IPv6 frames), as rxe's GID table for a netdev with one IPv4 address (indices 1
 * and 0). nullptr (said on stderr) on failure. */
std::unique_ptr<roce::Context> open_context(uint16_t port, rte_mempool *mp,
					    std::array<uint8_t, 4> ip, bool link_local = false);

/* The largest IB MTU a frame of the port's MTU carries with IPv6 (the larger), UDP, BTH, the
 * extension header of the transport's first packet (ext_len: 8 for UD's DETH, 16 for RETH) and
 * ICRC around it, as rxe sizes it from its netdev's MTU. */
ibv_mtu port_ib_mtu(uint16_t port, uint32_t ext_len);

/* Option values: a path MTU in bytes (256..4096, a power of two), a MAC as xx:xx:xx:xx:xx:xx, an
 * IPv4 address as a.b.c.d; false when the text is not one. */
bool parse_ib_mtu(const char *s, ibv_mtu &out);
/* The same for option opt: false, said with bad_opt naming it, when the text is not one. */
bool parse_ib_mtu(const char *opt, const char *text, ibv_mtu &out);
bool parse_mac(const char *s, roce::MacAddr &out);
bool parse_ipv4(const char *s, std::array<uint8_t, 4> &out);

/* The program's name (argv[0]'s last component), for its error lines. */
const char *prog_name();

/* Says "prog: opt text: what" on one line on stderr (the form every bad option value takes);
 * returns false. */
bool bad_opt(const char *opt, const char *text, const char *what);

/* An unsigned decimal (or 0x hex) option value in min..max: digits only (no sign, no blanks, no
 * trailing text), no overflow. false, said with bad_opt naming the option and the range, when the
 * text is not one; out is untouched then. */
bool parse_uint(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t &out);
template <class T>
bool parse_uint(const char *opt, const char *text, uint64_t min, uint64_t max, T &out)
{
	uint64_t v = 0;
	if (!parse_uint(opt, text, min, max, v))
		return false;
	out = T(v);
	return true;
}

/* A numeric option of an example's getopt loop, as a row of its table: getopt's code c, the name
 * its errors give (name), the range, where the value goes (any integer type) and, if given, a
 * flag set when the option is. */
struct UintOpt {
	template <class T>
	UintOpt(int c, const char *name, uint64_t min, uint64_t max, T &out, bool *given = nullptr)
	    : c(c), name(name), min(min), max(max), given(given), out(&out),
	      store([](void *p, uint64_t v) { *static_cast<T *>(p) = T(v); })
	{
	}
	int c;
	const char *name;
	uint64_t min, max;
	bool *given;
	void *out;
	void (*store)(void *out, uint64_t v);
};

/* getopt_long's code c with its argument, when c is a row of opts: 1 taken, -1 a bad value
 * (said with parse_uint, naming the option and the range); 0 when c is none of them. */
int parse_uint_opt(int c, const char *arg, std::span<const UintOpt> opts);

/* The options of the examples that talk to a peer process, alike in each (long options only,
 * getopt_long codes from kPeerOptFirst): --ip=a.b.c.d our IPv4 address, --peer-mac=xx:..:xx the
 * peer's MAC (resolved otherwise), --dpdk-port=N, --pcap=FILE (port_capture.h). */
struct PeerOpts {
	std::array<uint8_t, 4> ip{};
	bool ip_set = false;
	roce::MacAddr peer_mac{};
	bool peer_mac_set = false;
	uint16_t dpdk_port = 0;
	const char *pcap = nullptr;
};
enum PeerOpt : int { kOptIp = 0x100, kOptPeerMac, kOptDpdkPort, kOptPcap };
/* Their getopt_long entries, to copy into an example's table. */
/* clang-format off */
#define EXAMPLE_PEER_LONGOPTS \
	{"ip", 1, nullptr, kOptIp}, {"peer-mac", 1, nullptr, kOptPeerMac}, \
	{"dpdk-port", 1, nullptr, kOptDpdkPort}, {"pcap", 1, nullptr, kOptPcap}
/* clang-format on */
/* getopt_long's code c with its argument: 1 when it was one of them or a row of nums (taken), 0
 * when not, -1 on a bad value (said on stderr, naming the option). */
int parse_peer_opt(int c, const char *arg, PeerOpts &o, std::span<const UintOpt> nums = {});

/* After the last message: keep polling the Context for 200 ms, so that the peer gets our last
 * ACKs (and retransmissions) and can finish too; yield: give the CPU away when idle. */
void keep_answering(roce::Context &ctx, bool yield = true);

/* The TCP side channel: the client connects to server:tcp_port, the server listens on
 * tcp_port and takes one connection. */
class SideChannel {
public:
	explicit SideChannel(roce::Context *ctx = nullptr) : ctx_(ctx) {}
	~SideChannel()
	{
		if (fd_ >= 0)
			close(fd_);
	}
	SideChannel(const SideChannel &) = delete;
	SideChannel &operator=(const SideChannel &) = delete;

	/* server: the peer's host name to connect to, or nullptr to listen. */
	bool open(const char *server, int tcp_port);
	/* Both sides send n bytes and receive the peer's n; the client writes first (perftest's
	 * ctx_xchg_data). */
	bool xchg(const void *mine, void *theirs, size_t n)
	{
		if (client_)
			return put(mine, n) && get(theirs, n);
		return get(theirs, n) && put(mine, n);
	}
	bool put(const void *b, size_t n) { return write(fd_, b, n) == ssize_t(n); }
	bool get(void *b, size_t n);
	void set_context(roce::Context *c) { ctx_ = c; }
	bool is_client() const { return client_; }

private:
	/* Waits until fd is readable, polling the Context meanwhile (without one, blocks). */
	bool wait_readable(int fd);

	roce::Context *ctx_;
	int fd_ = -1;
	bool client_ = false;
};

} /* namespace gaudi::examples */
