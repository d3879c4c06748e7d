/* SPDX-License-Identifier: BSD-3-Clause */
/* Neighbour resolution for a RoCE v2 endpoint on a raw ethdev: ARP (RFC 826) for IPv4 GIDs and
 * IPv6 Neighbour Discovery (RFC 4861 Neighbor Solicitation / Advertisement) for IPv6 GIDs.
 *
 * A kernel RoCE peer (rxe, any RDMA NIC driver) resolves our GID to a MAC with the host's
 * neighbour table when it moves a QP to RTR or creates an AH (ib_resolve_eth_dmac), so
 * something has to answer for our addresses; and we can take the peer's MAC the same way
 * instead of being told it.
 *
 * Neighbour is pure frame logic -- no DPDK calls, no allocation after construction -- so it
 * works over any ethdev: hand it every frame that is not RoCE (input()) and transmit the
 * reply it writes. Context does exactly that when ContextConfig::neighbour is set (the
 * default) and offers Context::resolve().
 *
 * What it does:
 *   - ARP request for one of our IPv4 addresses: ARP reply; the requester is learned
 *     (RFC 826 merge rule: a request to us carries the sender's binding).
 *   - ARP reply to us: learned.
 *   - NS for one of our IPv6 addresses (hop limit 255, valid checksum): solicited NA with the
 *     target link-layer address option (S and O set); the sender is learned from the source
 *     link-layer address option. NS from :: (duplicate address detection) is ignored.
 *   - NA (hop limit 255, valid checksum) with a target link-layer address option: learned.
 *   - anything else is not consumed (the caller counts it).
 * The table holds kMaxEntries bindings, oldest replaced; entries do not expire (a test/lab
 * endpoint, not a router). */
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "roce_addr.h"
#include "roce_framing.h"

namespace gaudi::roce {

class Neighbour {
public:
	static constexpr size_t kMaxAddresses = 4;
	static constexpr size_t kMaxEntries = 64;
	/* Longest frame written: Ethernet + IPv6 + NS/NA (24 B) + link-layer address option (8
	 * B). */
	static constexpr size_t kMaxFrameLen = 14 + 40 + 24 + 8;
	static constexpr size_t kMinFrameLen = 60; /* Ethernet minimum without FCS: ARP is padded */

	struct Stats {
		uint64_t arp_requests_answered = 0;
		uint64_t ns_answered = 0;
		uint64_t learned = 0;	/* bindings added or changed */
		uint64_t malformed = 0; /* ARP/NDP frames with bad lengths, hop limit or checksum */
		uint64_t not_for_us = 0; /* well-formed ARP/NDP about other addresses */
	};

	enum class Result : uint8_t {
		not_neighbour, /* not ARP/NS/NA: the frame is the caller's */
		consumed,      /* handled, nothing to send */
		reply,	       /* handled; send the `reply_len` bytes written to `reply` */
	};

	explicit Neighbour(const MacAddr &mac) : mac_(mac) {}

	/* Our addresses (IPv4-mapped or IPv6 GIDs): 0 (also when already ours), or -ENOSPC when
	 * kMaxAddresses are in use. */
	int add_address(const Gid &gid);

	/* `reply` must hold kMaxFrameLen bytes. */
	Result input(std::span<const uint8_t> frame, std::span<uint8_t> reply, size_t &reply_len);

	/* ARP request (IPv4-mapped target) or NS to the target's solicited-node multicast group
	 * (IPv6), from our first address of the same family. Returns the frame length, 0 if we
	 * have no address of that family or `out` is shorter than kMaxFrameLen. */
	size_t build_request(const Gid &target, std::span<uint8_t> out) const;

	bool lookup(const Gid &ip, MacAddr &mac) const;
	void learn(const Gid &ip, const MacAddr &mac);
	const Stats &stats() const { return stats_; }
	const MacAddr &mac() const { return mac_; }

private:
	struct Entry {
		std::array<uint8_t, 16> ip{};
		MacAddr mac{};
		bool valid = false;
	};
	bool ours(const std::array<uint8_t, 16> &ip) const;
	const std::array<uint8_t, 16> *first_of_family(bool v4) const;
	Result arp_input(std::span<const uint8_t> f, std::span<uint8_t> reply, size_t &reply_len);
	Result ndp_input(std::span<const uint8_t> f, std::span<uint8_t> reply, size_t &reply_len);
	size_t build_ndp(uint8_t type, const MacAddr &eth_dst, const std::array<uint8_t, 16> &src,
			 const std::array<uint8_t, 16> &dst, const std::array<uint8_t, 16> &target,
			 uint32_t flags, std::span<uint8_t> out) const;

	MacAddr mac_;
	std::array<std::array<uint8_t, 16>, kMaxAddresses> addr_{};
	size_t naddr_ = 0;
	std::array<Entry, kMaxEntries> table_{};
	size_t next_ = 0;
	Stats stats_;
};

} /* namespace gaudi::roce */
