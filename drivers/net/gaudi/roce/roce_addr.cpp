/* SPDX-License-Identifier: BSD-3-Clause */
#include "roce_addr.h"

#include <algorithm>
#include <cstring>

#include <arpa/inet.h>

namespace gaudi::roce {

Gid Gid::from_ipv4(std::array<uint8_t, 4> a)
{
	Gid g;
	g.raw[10] = g.raw[11] = 0xFF;
	std::copy(a.begin(), a.end(), g.raw.begin() + 12);
	return g;
}

Gid Gid::link_local(const uint8_t mac[6])
{
	Gid g;
	g.raw[0] = 0xFE;
	g.raw[1] = 0x80;
	g.raw[8] = mac[0] ^ 0x02; /* the universal/local bit, inverted */
	g.raw[9] = mac[1];
	g.raw[10] = mac[2];
	g.raw[11] = 0xFF;
	g.raw[12] = 0xFE;
	g.raw[13] = mac[3];
	g.raw[14] = mac[4];
	g.raw[15] = mac[5];
	return g;
}

bool Gid::is_ipv4() const
{
	for (int i = 0; i < 10; i++)
		if (raw[i] != 0)
			return false;
	return raw[10] == 0xFF && raw[11] == 0xFF;
}

bool Gid::parse(std::string_view text, Gid &out)
{
	char buf[64];
	if (text.empty() || text.size() >= sizeof(buf))
		return false;
	std::memcpy(buf, text.data(), text.size());
	buf[text.size()] = 0;
	std::array<uint8_t, 4> v4;
	if (inet_pton(AF_INET, buf, v4.data()) == 1) {
		out = from_ipv4(v4);
		return true;
	}
	return inet_pton(AF_INET6, buf, out.raw.data()) == 1;
}

void Gid::to_string(char out[46]) const
{
	if (is_ipv4())
		inet_ntop(AF_INET, raw.data() + 12, out, 46);
	else
		inet_ntop(AF_INET6, raw.data(), out, 46);
}

void Gid::to_wire(char out[33]) const
{
	static constexpr char kHex[] = "0123456789abcdef";
	for (int i = 0; i < 16; i++) {
		out[2 * i] = kHex[raw[i] >> 4];
		out[2 * i + 1] = kHex[raw[i] & 15];
	}
	out[32] = 0;
}

bool Gid::from_wire(std::string_view hex, Gid &out)
{
	if (hex.size() < 32)
		return false;
	auto nib = [](char c) -> int {
		if (c >= '0' && c <= '9')
			return c - '0';
		if (c >= 'a' && c <= 'f')
			return c - 'a' + 10;
		if (c >= 'A' && c <= 'F')
			return c - 'A' + 10;
		return -1;
	};
	for (int i = 0; i < 16; i++) {
		int h = nib(hex[2 * i]), l = nib(hex[2 * i + 1]);
		if (h < 0 || l < 0)
			return false;
		out.raw[i] = static_cast<uint8_t>(h << 4 | l);
	}
	return true;
}

} /* namespace gaudi::roce */
