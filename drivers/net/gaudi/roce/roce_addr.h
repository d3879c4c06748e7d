/* SPDX-License-Identifier: BSD-3-Clause */
/* RoCE v2 addressing: a GID is the IP address (IBA Annex A17.4.1 / 17.8): IPv6 as is, IPv4 as
 * the IPv4-mapped IPv6 address ::ffff:a.b.c.d, as Linux fills its GID table for RoCE v2. */
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace gaudi::roce {

struct Gid {
	std::array<uint8_t, 16> raw{};
	static Gid from_ipv4(std::array<uint8_t, 4> a);
	static Gid from_ipv6(const std::array<uint8_t, 16> &a) { return Gid{a}; }
	/* fe80::/64 with the modified EUI-64 of the MAC (RFC 4291 2.5.1, appendix A), as Linux
	 * and rxe put at GID index 0. */
	static Gid link_local(const uint8_t mac[6]);
	/* "10.0.0.1" (-> IPv4-mapped), "fe80::1", "::ffff:10.0.0.1"; false on anything else. */
	static bool parse(std::string_view text, Gid &out);
	bool is_ipv4() const; /* IPv4-mapped */
	std::array<uint8_t, 4> ipv4() const { return {raw[12], raw[13], raw[14], raw[15]}; }
	/* Dotted quad for IPv4-mapped GIDs, RFC 5952 text otherwise; `out` holds 46 bytes. */
	void to_string(char out[46]) const;
	/* ibv_rc_pingpong wire form: 32 lowercase hex digits + NUL. */
	void to_wire(char out[33]) const;
	static bool from_wire(std::string_view hex, Gid &out);
	bool operator==(const Gid &) const = default;
};

} /* namespace gaudi::roce */
