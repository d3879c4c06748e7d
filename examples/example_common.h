/* SPDX-License-Identifier: BSD-3-Clause
 * What the RoCE examples that talk to a peer process share (roce_pingpong, roce_perftest): the
 * DPDK port set-up, the IB path MTU a port's MTU carries, and the TCP side channel the rdma-core
 * and perftest tools exchange their QP addresses over. While the channel waits (accept, read),
 * it keeps polling the RoCE Context, which answers the peer's ARP / Neighbour Solicitation: a
 * kernel RoCE peer resolves our MAC before its QP reaches RTR, often while we wait here.
 */
#pragma once

#include <netdb.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "roce_verbs.h"

namespace gaudi::examples {

/* Port MTU the examples ask for: a 4096-byte IB MTU with IPv6, UDP, BTH, RETH and ICRC around
 * it, with room to spare (rxe on a 4200-byte netdev MTU does the same). */
constexpr uint16_t kPortMtu = 4200;

/* One rx and one tx queue of 1024 descriptors, promiscuous, started; 0 or a negative errno. */
inline int setup_port(uint16_t port, rte_mempool *mp)
{
	rte_eth_conf conf{};
	rte_eth_dev_info info;
	int rc = rte_eth_dev_info_get(port, &info);
	if (rc != 0)
		return rc;
	conf.rxmode.mtu = std::min<uint32_t>(kPortMtu, info.max_mtu);
	int socket = rte_eth_dev_socket_id(port);
	if ((rc = rte_eth_dev_configure(port, 1, 1, &conf)) != 0 ||
	    (rc = rte_eth_rx_queue_setup(port, 0, 1024, socket, nullptr, mp)) != 0 ||
	    (rc = rte_eth_tx_queue_setup(port, 0, 1024, socket, nullptr)) != 0)
		return rc;
	rte_eth_promiscuous_enable(port); /* not every PMD has it; the examples work without */
	return rte_eth_dev_start(port);
}

/* The largest IB MTU a frame of the port's MTU carries with IPv6 (the larger), UDP, BTH, the
 * extension header of the transport's first packet (ext_len: 8 for UD's DETH, 16 for RETH) and
 * ICRC around it, as rxe sizes it from its netdev's MTU. */
inline ibv_mtu port_ib_mtu(uint16_t port, uint32_t ext_len)
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
	bool open(const char *server, int tcp_port)
	{
		char port[16];
		snprintf(port, sizeof port, "%d", tcp_port);
		addrinfo hints{}, *res = nullptr;
		hints.ai_family = AF_UNSPEC;
		hints.ai_socktype = SOCK_STREAM;
		if (!server)
			hints.ai_flags = AI_PASSIVE;
		if (getaddrinfo(server, port, &hints, &res) != 0) {
			fprintf(stderr, "getaddrinfo failed for %s:%d\n", server ? server : "*",
				tcp_port);
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
			fprintf(stderr, "Couldn't %s port %d\n",
				server ? "connect to" : "listen on", tcp_port);
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
	/* Both sides send n bytes and receive the peer's n; the client writes first (perftest's
	 * ctx_xchg_data). */
	bool xchg(const void *mine, void *theirs, size_t n)
	{
		if (client_)
			return put(mine, n) && get(theirs, n);
		return get(theirs, n) && put(mine, n);
	}
	bool put(const void *b, size_t n) { return write(fd_, b, n) == ssize_t(n); }
	bool get(void *b, size_t n)
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
	void set_context(roce::Context *c) { ctx_ = c; }
	bool is_client() const { return client_; }

private:
	/* Waits until fd is readable, polling the Context meanwhile (without one, blocks). */
	bool wait_readable(int fd)
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

	roce::Context *ctx_;
	int fd_ = -1;
	bool client_ = false;
};

} // namespace gaudi::examples
