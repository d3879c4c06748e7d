/* SPDX-License-Identifier: BSD-3-Clause
 * wire=tap: a port of the model cabled to a Linux TAP interface. What the port sends, the
 * kernel receives on the TAP (ping, tcpdump, wireshark see it); what the kernel sends out of
 * the TAP arrives at the port's MAC.
 */
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "gaudi_emu_netwire.h"

namespace gaudi::emu {

class TapWire final : public NetWire {
public:
	/* Opens /dev/net/tun as an IFF_TAP | IFF_NO_PI interface called name (created if it does
	 * not exist; a name with %d is completed by the kernel), non-blocking, gives it the
	 * station address mac unless the kernel refuses and its own already differs from
	 * port_mac, and brings it up. Needs CAP_NET_ADMIN unless the TAP exists, is up and is
	 * owned by the caller. On failure returns nullptr and "<call>: <strerror>" in *err. */
	static std::unique_ptr<TapWire> open(const std::string &name, const uint8_t mac[6],
					     const uint8_t port_mac[6], std::string *err);

	void send(const uint8_t *data, uint32_t len) override; /* one write() per frame */
	void flush() override {}
	unsigned recv(unsigned max) override; /* one read() per frame, at most max */

	/* The interface's name as the kernel has it. */
	const std::string &ifname() const { return ifname_; }

private:
	TapWire() = default;
	std::string ifname_;
};

/* Checks a TAP interface name (1..15 bytes, no '/', ':' ',' or white space). */
bool tap_name_valid(const std::string &name);

} /* namespace gaudi::emu */
