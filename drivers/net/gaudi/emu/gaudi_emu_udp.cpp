/* SPDX-License-Identifier: BSD-3-Clause */
#include "gaudi_emu_udp.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

namespace gaudi::emu {

namespace {

std::string why(const char *call) { return std::string(call) + ": " + strerror(errno); }

} /* namespace */

bool parse_udp_endpoint(const std::string &s, UdpEndpoint *out, std::string *err)
{
	std::string host, port;
	if (!s.empty() && s[0] == '[') {
		size_t close = s.find(']');
		if (close == std::string::npos || close + 1 >= s.size() || s[close + 1] != ':') {
			*err = "must be [IPV6]:PORT";
			return false;
		}
		host = s.substr(1, close - 1);
		port = s.substr(close + 2);
	} else {
		size_t colon = s.rfind(':');
		if (colon == std::string::npos) {
			*err = "must be IP:PORT";
			return false;
		}
		host = s.substr(0, colon);
		port = s.substr(colon + 1);
	}
	char *end = nullptr;
	errno = 0;
	unsigned long pn = port.empty() || port[0] < '0' || port[0] > '9'
				   ? 0
				   : strtoul(port.c_str(), &end, 10);
	if (pn == 0 || pn > 65535 || errno != 0 || end == nullptr || *end != '\0') {
		*err = "UDP port '" + port + "' must be 1..65535";
		return false;
	}
	*out = UdpEndpoint{};
	auto *v4 = reinterpret_cast<sockaddr_in *>(&out->addr);
	auto *v6 = reinterpret_cast<sockaddr_in6 *>(&out->addr);
	if (inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(uint16_t(pn));
		out->len = sizeof(*v4);
	} else if (inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(uint16_t(pn));
		out->len = sizeof(*v6);
	} else {
		*err = "'" + host + "' is not a numeric IPv4 or IPv6 address";
		return false;
	}
	return true;
}

std::unique_ptr<UdpWire> UdpWire::open(const std::string &local, const std::string &remote,
				       std::string *err, bool *remote_at_fault)
{
	std::unique_ptr<UdpWire> w(new UdpWire());
	*remote_at_fault = false;
	if (!parse_udp_endpoint(local, &w->local_, err))
		return nullptr;
	*remote_at_fault = true;
	if (!parse_udp_endpoint(remote, &w->remote_, err))
		return nullptr;
	if (w->local_.addr.ss_family != w->remote_.addr.ss_family) {
		*err = "not of the address family of udp_local " + local;
		return nullptr;
	}
	*remote_at_fault = false;
	w->fd_ = socket(w->local_.addr.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (w->fd_ < 0) {
		*err = why("socket");
		return nullptr;
	}
	/* Best effort: deeper socket buffers ride out a burst the engine has not pumped yet
	 * (the kernel caps them at net.core.[rw]mem_max). */
	int sz = 4 << 20;
	setsockopt(w->fd_, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	setsockopt(w->fd_, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	if (bind(w->fd_, reinterpret_cast<const sockaddr *>(&w->local_.addr), w->local_.len) < 0) {
		*err = why("bind");
		return nullptr;
	}
	for (unsigned i = 0; i < kBatch; i++) {
		msghdr &t = w->tx_msg_[i].msg_hdr;
		t.msg_name = &w->remote_.addr;
		t.msg_namelen = w->remote_.len;
		t.msg_iov = &w->tx_iov_[i];
		t.msg_iovlen = 1;
		w->rx_iov_[i] = {w->rx_slot(i), kRxBufSize};
		msghdr &r = w->rx_msg_[i].msg_hdr;
		r.msg_iov = &w->rx_iov_[i];
		r.msg_iovlen = 1;
	}
	return w;
}

void UdpWire::send(const uint8_t *data, uint32_t len)
{
	tx_iov_[tx_n_] = {const_cast<uint8_t *>(data), len};
	if (++tx_n_ == kBatch)
		flush();
}

void UdpWire::flush()
{
	unsigned i = 0;
	while (i < tx_n_) {
		int r = sendmmsg(fd_, &tx_msg_[i], tx_n_ - i, MSG_DONTWAIT);
		if (r > 0) {
			i += unsigned(r);
		} else if (r < 0 && errno == EINTR) {
			continue;
		} else if (r < 0 && (errno == EAGAIN || errno == ENOBUFS)) {
			lost(tx_n_ - i); /* the socket is full: the rest of the burst is lost */
			break;
		} else {
			lost(); /* this datagram failed (no route, ...): skip it, try the rest */
			i++;
		}
	}
	tx_n_ = 0;
}

unsigned UdpWire::recv(unsigned max)
{
	if (max > kBatch)
		max = kBatch;
	if (max == 0)
		return 0;
	for (;;) {
		int r = recvmmsg(fd_, rx_msg_.data(), max, MSG_DONTWAIT, nullptr);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0; /* EAGAIN: nothing queued; other errors: try again next time */
		for (int i = 0; i < r; i++)
			arrived(unsigned(i), rx_msg_[i].msg_len); /* never MSG_TRUNC: see kRxBufSize */
		return unsigned(r);
	}
}

} /* namespace gaudi::emu */
