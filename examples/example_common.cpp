/* SPDX-License-Identifier: BSD-3-Clause
 * The examples' shared code (example_common.h).
 */
#include "example_common.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>

#include <getopt.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <rte_cycles.h>
#include <rte_eal.h>

namespace gaudi::examples {

const char *prog_name()
{
	return program_invocation_short_name; /* glibc: argv[0]'s last component */
}

bool bad_opt(const char *opt, const char *text, const char *what)
{
	fprintf(stderr, "%s: %s %s: %s\n", prog_name(), opt, text, what);
	return false;
}

bool parse_uint(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t &out)
{
	auto bad = [&](const char *why) {
		char msg[96];
		snprintf(msg, sizeof msg, "%s (%" PRIu64 "..%" PRIu64 ")", why, min, max);
		return bad_opt(opt, text, msg);
	};
	/* strtoull takes a sign and leading blanks (and "-1" becomes 2^64 - 1): a digit first. */
	if (text[0] < '0' || text[0] > '9')
		return bad("not an unsigned number");
	errno = 0;
	char *end = nullptr;
	unsigned long long v = strtoull(text, &end, 0);
	if (*end != '\0')
		return bad("not an unsigned number");
	if (errno == ERANGE || v < min || v > max)
		return bad("out of range");
	out = v;
	return true;
}

bool eal_init(int &argc, char **&argv)
{
	setvbuf(stdout, nullptr, _IOLBF, 0);
	int n = rte_eal_init(argc, argv);
	if (n < 0) {
		fprintf(stderr, "EAL init failed\n");
		return false;
	}
	argc -= n;
	argv += n;
	return true;
}

rte_mempool *create_pool(const char *name, unsigned n)
{
	/* 4480: a 4200-byte frame (kPortMtu) with the Ethernet header, rounded up. */
	rte_mempool *mp = rte_pktmbuf_pool_create(name, n, 256, 0, 4480 + RTE_PKTMBUF_HEADROOM,
						  rte_socket_id());
	if (mp == nullptr)
		fprintf(stderr, "mempool creation failed\n");
	return mp;
}

int setup_port(uint16_t port, rte_mempool *mp, uint16_t nb_rxd, uint16_t nb_txd)
{
	rte_eth_conf conf{};
	rte_eth_dev_info info;
	int rc = rte_eth_dev_info_get(port, &info);
	if (rc != 0)
		return rc;
	conf.rxmode.mtu = std::min<uint32_t>(kPortMtu, info.max_mtu);
	int socket = rte_eth_dev_socket_id(port);
	if ((rc = rte_eth_dev_configure(port, 1, 1, &conf)) != 0 ||
	    (rc = rte_eth_rx_queue_setup(port, 0, nb_rxd, socket, nullptr, mp)) != 0 ||
	    (rc = rte_eth_tx_queue_setup(port, 0, nb_txd != 0 ? nb_txd : nb_rxd, socket,
					 nullptr)) != 0)
		return rc;
	rte_eth_promiscuous_enable(port); /* not every PMD has it; the examples work without */
	return rte_eth_dev_start(port);
}

bool check_port(bool loop, uint16_t port)
{
	char text[8];
	snprintf(text, sizeof text, "%u", port);
	if (loop && port != 0)
		return bad_opt("--dpdk-port", text, "not with --loop (it uses ports 0 and 1)");
	if (!loop && !rte_eth_dev_is_valid_port(port)) {
		char msg[48];
		snprintf(msg, sizeof msg, "no such port (%u ports)", rte_eth_dev_count_avail());
		return bad_opt("--dpdk-port", text, msg);
	}
	return true;
}

rte_mempool *start_ports(const char *pool_name, unsigned n, bool loop, uint16_t port)
{
	if (!check_port(loop, port))
		return nullptr;
	rte_mempool *mp = create_pool(pool_name, n);
	if (mp == nullptr)
		return nullptr;
	if (loop) {
		if (rte_eth_dev_count_avail() < 2 || setup_port(0, mp) != 0 ||
		    setup_port(1, mp) != 0) {
			fprintf(stderr,
				"%s: --loop needs two started ports (e.g. --vdev "
				"net_gaudi_emu0,ports=2,wire=pair)\n",
				prog_name());
			return nullptr;
		}
	} else if (setup_port(port, mp) != 0) {
		fprintf(stderr, "%s: port %u setup failed\n", prog_name(), port);
		return nullptr;
	}
	return mp;
}

bool server_arg(int argc, char **argv, const char *&server)
{
	if (optind == argc - 1)
		server = argv[optind];
	if (optind < argc - 1)
		fprintf(stderr, "%s: %s: a second server host (after %s); one only\n", prog_name(),
			argv[optind + 1], argv[optind]);
	return optind >= argc - 1;
}

std::unique_ptr<roce::Context> open_context(uint16_t port, rte_mempool *mp,
					    std::array<uint8_t, 4> ip, bool link_local)
{
	roce::ContextConfig c;
	c.port_id = port;
	c.tx_pool = mp;
	c.gid = roce::Gid::from_ipv4(ip);
	if (link_local) {
		rte_ether_addr a;
		rte_eth_macaddr_get(port, &a);
		c.gid = roce::Gid::link_local(a.addr_bytes);
	}
	int err = 0;
	std::unique_ptr<roce::Context> ctx = roce::Context::create(c, &err);
	if (!ctx)
		fprintf(stderr, "Couldn't create context: %s\n", strerror(-err));
	return ctx;
}

ibv_mtu port_ib_mtu(uint16_t port, uint32_t ext_len)
{
	uint16_t mtu = 0;
	if (rte_eth_dev_get_mtu(port, &mtu) != 0)
		return IBV_MTU_1024;
	const uint32_t overhead = 40 + 8 + 12 + ext_len + 4;
	for (ibv_mtu m : {IBV_MTU_4096, IBV_MTU_2048, IBV_MTU_1024, IBV_MTU_512})
		if (roce::mtu_bytes(m) + overhead <= mtu)
			return m;
	return IBV_MTU_256;
}

bool parse_ib_mtu(const char *s, ibv_mtu &out)
{
	char *end = nullptr;
	unsigned long m = strtoul(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end != '\0')
		return false; /* atoi took "1024x" and "-1" */
	for (ibv_mtu v : {IBV_MTU_256, IBV_MTU_512, IBV_MTU_1024, IBV_MTU_2048, IBV_MTU_4096})
		if (roce::mtu_bytes(v) == m) {
			out = v;
			return true;
		}
	return false;
}

bool parse_ib_mtu(const char *opt, const char *text, ibv_mtu &out)
{
	return parse_ib_mtu(text, out) ||
	       bad_opt(opt, text, "not a path MTU (256|512|1024|2048|4096)");
}

int parse_uint_opt(int c, const char *arg, std::span<const UintOpt> opts)
{
	for (const UintOpt &u : opts) {
		if (u.c != c)
			continue;
		uint64_t v = 0;
		if (!parse_uint(u.name, arg, u.min, u.max, v))
			return -1;
		u.store(u.out, v);
		if (u.given != nullptr)
			*u.given = true;
		return 1;
	}
	return 0;
}

bool parse_mac(const char *s, roce::MacAddr &out)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &out[0], &out[1], &out[2], &out[3],
		      &out[4], &out[5]) == 6;
}

bool parse_ipv4(const char *s, std::array<uint8_t, 4> &out)
{
	return inet_pton(AF_INET, s, out.data()) == 1;
}

int parse_peer_opt(int c, const char *arg, PeerOpts &o, std::span<const UintOpt> nums)
{
	switch (c) {
	case kOptIp:
		if (!parse_ipv4(arg, o.ip)) {
			bad_opt("--ip", arg, "not an IPv4 address (a.b.c.d)");
			return -1;
		}
		o.ip_set = true;
		return 1;
	case kOptPeerMac:
		if (!parse_mac(arg, o.peer_mac)) {
			bad_opt("--peer-mac", arg, "not a MAC address (xx:xx:xx:xx:xx:xx)");
			return -1;
		}
		o.peer_mac_set = true;
		return 1;
	case kOptDpdkPort:
		if (!parse_uint("--dpdk-port", arg, 0, RTE_MAX_ETHPORTS - 1, o.dpdk_port))
			return -1;
		return 1;
	case kOptPcap:
		o.pcap = arg;
		return 1;
	default:
		return parse_uint_opt(c, arg, nums);
	}
}

void keep_answering(roce::Context &ctx, bool yield)
{
	const uint64_t until = rte_get_timer_cycles() + rte_get_timer_hz() / 5;
	while (rte_get_timer_cycles() < until)
		if (ctx.poll() == 0 && yield)
			sched_yield();
}

bool SideChannel::open(const char *server, int tcp_port)
{
	char port[16];
	snprintf(port, sizeof port, "%d", tcp_port);
	addrinfo hints{}, *res = nullptr;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (!server)
		hints.ai_flags = AI_PASSIVE;
	if (getaddrinfo(server, port, &hints, &res) != 0) {
		fprintf(stderr, "getaddrinfo failed for %s:%d\n", server ? server : "*", tcp_port);
		return false;
	}
	int fd = -1;
	for (addrinfo *t = res; t; t = t->ai_next) {
		fd = socket(t->ai_family, t->ai_socktype, t->ai_protocol);
		if (fd < 0)
			continue;
		if (server) {
			if (::connect(fd, t->ai_addr, t->ai_addrlen) == 0)
				break;
		} else {
			int one = 1;
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
			if (bind(fd, t->ai_addr, t->ai_addrlen) == 0 && listen(fd, 1) == 0)
				break;
		}
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		fprintf(stderr, "Couldn't %s port %d\n", server ? "connect to" : "listen on",
			tcp_port);
		return false;
	}
	if (!server) {
		/* The peer may resolve our address before it connects: keep answering. */
		if (!wait_readable(fd)) {
			close(fd);
			return false;
		}
		int c = accept(fd, nullptr, nullptr);
		close(fd);
		fd = c;
	}
	fd_ = fd;
	client_ = server != nullptr;
	return fd_ >= 0;
}

bool SideChannel::get(void *b, size_t n)
{
	size_t got = 0;
	auto *p = static_cast<uint8_t *>(b);
	while (got < n) {
		if (!wait_readable(fd_))
			return false;
		ssize_t k = read(fd_, p + got, n - got);
		if (k <= 0)
			return false;
		got += size_t(k);
	}
	return true;
}

bool SideChannel::wait_readable(int fd)
{
	for (;;) {
		pollfd pfd{fd, POLLIN, 0};
		int r = ::poll(&pfd, 1, ctx_ ? 0 : -1);
		if (r < 0)
			return false;
		if (r > 0)
			return true;
		if (ctx_->poll() == 0)
			sched_yield(); /* a peer sharing this CPU (a VM, say) gets it at once */
	}
}

} /* namespace gaudi::examples */
