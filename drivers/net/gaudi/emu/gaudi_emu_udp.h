/* SPDX-License-Identifier: BSD-3-Clause
 * wire=udp: a port of the model cabled to a UDP socket. Every Ethernet frame is one datagram,
 * the frame bytes as the payload with no header and no FCS: the format of QEMU's
 * `-netdev dgram` and `-netdev socket,udp=`, so two processes of this model, or this model and
 * a QEMU guest NIC, can be cabled together.
 */
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include <netinet/in.h>
#include <sys/socket.h>

#include "gaudi_emu_netwire.h"

namespace gaudi::emu {

/* An IPv4 or IPv6 address and UDP port. */
struct UdpEndpoint {
	sockaddr_storage addr{};
	socklen_t len = 0;
};

/* Parses "IPV4:PORT" or "[IPV6]:PORT" (numeric only, PORT 1..65535). On failure returns
 * false with the reason in *err. */
bool parse_udp_endpoint(const std::string &s, UdpEndpoint *out, std::string *err);

class UdpWire final : public NetWire {
public:
	/* A non-blocking datagram socket bound to local that sends to remote (same address
	 * family) and takes datagrams from anyone. On failure returns nullptr, the reason in
	 * *err ("bind: Address already in use") and in *remote_at_fault whether remote (not
	 * local) is the culprit. */
	static std::unique_ptr<UdpWire> open(const std::string &local, const std::string &remote,
					     std::string *err, bool *remote_at_fault);

	/* Queued (zero copy: data must stay valid until flush()); a full batch is sent at once
	 * with sendmmsg(). */
	void send(const uint8_t *data, uint32_t len) override;
	void flush() override;
	unsigned recv(unsigned max) override; /* one recvmmsg() */

	const UdpEndpoint &local() const { return local_; }

private:
	UdpWire() = default;
	UdpEndpoint local_, remote_;
	std::array<mmsghdr, kBatch> tx_msg_{};
	std::array<iovec, kBatch> tx_iov_{};
	unsigned tx_n_ = 0;
	std::array<mmsghdr, kBatch> rx_msg_{};
	std::array<iovec, kBatch> rx_iov_{};
};

} /* namespace gaudi::emu */
