/* SPDX-License-Identifier: BSD-3-Clause */
/* ARP and IPv6 Neighbour Discovery for a RoCE v2 endpoint: see roce_neigh.h. */
#include "roce_neigh.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <rte_arp.h>
#include <rte_ether.h>
#include <rte_ip.h>

namespace gaudi::roce {

namespace {

constexpr size_t kEth = sizeof(rte_ether_hdr);
constexpr size_t kArp = sizeof(rte_arp_hdr);
constexpr size_t kIp6 = sizeof(rte_ipv6_hdr);
constexpr uint8_t kProtoIcmpv6 = 58;
/* RFC 4861 4.3 / 4.4: type, code, checksum, 4 B reserved/flags, 16 B target. */
constexpr size_t kNdpLen = 24;
constexpr uint8_t kIcmpNs = 135, kIcmpNa = 136;
constexpr uint8_t kOptSrcLla = 1, kOptTgtLla = 2;
constexpr uint32_t kNaSolicited = 0x40000000, kNaOverride = 0x20000000;
constexpr uint8_t kNdpHopLimit = 255; /* RFC 4861 7.1.1: anything else was forwarded: drop */

uint16_t rd16(const uint8_t *p)
{
	return static_cast<uint16_t>(p[0] << 8 | p[1]);
}

std::array<uint8_t, 16> mapped(const uint8_t *v4)
{
	std::array<uint8_t, 16> a{};
	a[10] = a[11] = 0xFF;
	std::memcpy(a.data() + 12, v4, 4);
	return a;
}

bool is_v4_mapped(const std::array<uint8_t, 16> &a)
{
	return std::all_of(a.begin(), a.begin() + 10, [](uint8_t b) { return b == 0; }) &&
	       a[10] == 0xFF && a[11] == 0xFF;
}

void put_eth(uint8_t *p, const MacAddr &dst, const MacAddr &src, uint16_t type)
{
	std::memcpy(p, dst.data(), 6);
	std::memcpy(p + 6, src.data(), 6);
	p[12] = uint8_t(type >> 8);
	p[13] = uint8_t(type);
}

} /* namespace */

int Neighbour::add_address(const Gid &gid)
{
	if (ours(gid.raw))
		return 0;
	if (naddr_ == kMaxAddresses)
		return -ENOSPC;
	addr_[naddr_++] = gid.raw;
	return 0;
}

bool Neighbour::ours(const std::array<uint8_t, 16> &ip) const
{
	return std::find(addr_.begin(), addr_.begin() + naddr_, ip) != addr_.begin() + naddr_;
}

const std::array<uint8_t, 16> *Neighbour::first_of_family(bool v4) const
{
	for (size_t i = 0; i < naddr_; i++)
		if (is_v4_mapped(addr_[i]) == v4)
			return &addr_[i];
	return nullptr;
}

bool Neighbour::lookup(const Gid &ip, MacAddr &mac) const
{
	for (const Entry &e : table_)
		if (e.valid && e.ip == ip.raw) {
			mac = e.mac;
			return true;
		}
	return false;
}

void Neighbour::learn(const Gid &ip, const MacAddr &mac)
{
	/* Never learn a multicast/broadcast MAC or all-zero (RFC 1812 3.3.2 / RFC 4861 7.2.5 spirit). */
	if ((mac[0] & 1) != 0 ||
	    std::all_of(mac.begin(), mac.end(), [](uint8_t b) { return b == 0; }))
		return;
	for (Entry &e : table_)
		if (e.valid && e.ip == ip.raw) {
			if (e.mac != mac) {
				e.mac = mac;
				stats_.learned++;
			}
			return;
		}
	table_[next_] = {ip.raw, mac, true};
	next_ = (next_ + 1) % kMaxEntries;
	stats_.learned++;
}

Neighbour::Result Neighbour::input(std::span<const uint8_t> f, std::span<uint8_t> reply,
				   size_t &reply_len)
{
	reply_len = 0;
	if (f.size() < kEth)
		return Result::not_neighbour;
	uint16_t type = rd16(f.data() + 12);
	if (type == RTE_ETHER_TYPE_ARP)
		return arp_input(f, reply, reply_len);
	if (type == RTE_ETHER_TYPE_IPV6 && f.size() >= kEth + kIp6 && f[kEth + 6] == kProtoIcmpv6)
		return ndp_input(f, reply, reply_len);
	return Result::not_neighbour;
}

Neighbour::Result Neighbour::arp_input(std::span<const uint8_t> f, std::span<uint8_t> reply,
				       size_t &reply_len)
{
	const uint8_t *a = f.data() + kEth;
	if (f.size() < kEth + kArp || rd16(a) != RTE_ARP_HRD_ETHER ||
	    rd16(a + 2) != RTE_ETHER_TYPE_IPV4 || a[4] != 6 || a[5] != 4) {
		stats_.malformed++;
		return Result::consumed;
	}
	uint16_t op = rd16(a + 6);
	MacAddr sha;
	std::memcpy(sha.data(), a + 8, 6);
	Gid spa{mapped(a + 14)}, tpa{mapped(a + 24)};
	if (!ours(tpa.raw)) {
		stats_.not_for_us++;
		return Result::consumed;
	}
	/* RFC 826 "packet reception": a request or reply naming us as target gives the sender's
	 * binding. A sender address 0.0.0.0 is an ARP probe (RFC 5227): answer, learn nothing. */
	bool probe = spa.ipv4() == std::array<uint8_t, 4>{0, 0, 0, 0};
	if (!probe)
		learn(spa, sha);
	if (op != RTE_ARP_OP_REQUEST)
		return Result::consumed;
	if (reply.size() < kMinFrameLen)
		return Result::consumed;
	uint8_t *o = reply.data();
	std::memset(o, 0, kMinFrameLen); /* Ethernet padding to 60 B */
	put_eth(o, sha, mac_, RTE_ETHER_TYPE_ARP);
	uint8_t *r = o + kEth;
	std::memcpy(r, a, 6); /* htype, ptype, hlen, plen as asked */
	r[6] = 0;
	r[7] = RTE_ARP_OP_REPLY;
	std::memcpy(r + 8, mac_.data(), 6);
	std::memcpy(r + 14, a + 24, 4); /* our IP: the one asked for */
	std::memcpy(r + 18, a + 8, 6);
	std::memcpy(r + 24, a + 14, 4);
	reply_len = kMinFrameLen;
	stats_.arp_requests_answered++;
	return Result::reply;
}

Neighbour::Result Neighbour::ndp_input(std::span<const uint8_t> f, std::span<uint8_t> reply,
				       size_t &reply_len)
{
	const uint8_t *ip = f.data() + kEth;
	uint16_t plen = rd16(ip + 4);
	const uint8_t *icmp = ip + kIp6;
	if (f.size() < kEth + kIp6 + 1)
		return Result::not_neighbour;
	uint8_t type = icmp[0];
	if (type != kIcmpNs && type != kIcmpNa)
		return Result::
			not_neighbour; /* other ICMPv6 (echo, RA, ...) is not ours to judge */
	rte_ipv6_hdr h;
	std::memcpy(&h, ip, kIp6);
	if (plen < kNdpLen || f.size() < kEth + kIp6 + plen || ip[7] != kNdpHopLimit ||
	    icmp[1] != 0 || rte_ipv6_udptcp_cksum_verify(&h, icmp) != 0) {
		stats_.malformed++;
		return Result::consumed;
	}
	std::array<uint8_t, 16> src, target;
	std::memcpy(src.data(), ip + 8, 16);
	std::memcpy(target.data(), icmp + 8, 16);
	/* Link-layer address option (RFC 4861 4.6.1): type, length in 8 B units, MAC. */
	const uint8_t *lla = nullptr;
	for (size_t off = kNdpLen; off + 2 <= plen;) {
		size_t olen = size_t(icmp[off + 1]) * 8;
		if (olen == 0 || off + olen > plen) {
			stats_.malformed++;
			return Result::consumed;
		}
		if (icmp[off] == (type == kIcmpNs ? kOptSrcLla : kOptTgtLla) && olen >= 8)
			lla = icmp + off + 2;
		off += olen;
	}
	if (type == kIcmpNa) {
		if (lla == nullptr) {
			stats_.not_for_us++;
			return Result::consumed;
		}
		MacAddr m;
		std::memcpy(m.data(), lla, 6);
		learn(Gid{target}, m);
		return Result::consumed;
	}
	bool unspecified = std::all_of(src.begin(), src.end(), [](uint8_t b) { return b == 0; });
	if (!ours(target) || unspecified) {
		stats_.not_for_us++;
		return Result::consumed;
	}
	MacAddr dst;
	std::memcpy(dst.data(), lla != nullptr ? lla : f.data() + 6, 6);
	if (lla != nullptr)
		learn(Gid{src}, dst);
	reply_len = build_ndp(kIcmpNa, dst, target, src, target, kNaSolicited | kNaOverride, reply);
	if (reply_len == 0)
		return Result::consumed;
	stats_.ns_answered++;
	return Result::reply;
}

size_t Neighbour::build_ndp(uint8_t type, const MacAddr &eth_dst,
			    const std::array<uint8_t, 16> &src, const std::array<uint8_t, 16> &dst,
			    const std::array<uint8_t, 16> &target, uint32_t flags,
			    std::span<uint8_t> out) const
{
	constexpr size_t kLen = kEth + kIp6 + kNdpLen + 8;
	if (out.size() < kLen)
		return 0;
	uint8_t *o = out.data();
	std::memset(o, 0, kLen);
	put_eth(o, eth_dst, mac_, RTE_ETHER_TYPE_IPV6);
	uint8_t *ip = o + kEth;
	ip[0] = 0x60;
	ip[4] = 0;
	ip[5] = kNdpLen + 8;
	ip[6] = kProtoIcmpv6;
	ip[7] = kNdpHopLimit;
	std::memcpy(ip + 8, src.data(), 16);
	std::memcpy(ip + 24, dst.data(), 16);
	uint8_t *icmp = ip + kIp6;
	icmp[0] = type;
	icmp[4] = uint8_t(flags >> 24);
	std::memcpy(icmp + 8, target.data(), 16);
	icmp[24] = type == kIcmpNs ? kOptSrcLla : kOptTgtLla;
	icmp[25] = 1;
	std::memcpy(icmp + 26, mac_.data(), 6);
	rte_ipv6_hdr h;
	std::memcpy(&h, ip, kIp6);
	uint16_t ck =
		rte_ipv6_udptcp_cksum(&h, icmp); /* generic: pseudo-header with h.proto (58) */
	std::memcpy(icmp + 2, &ck, 2);		 /* already in network order */
	return kLen;
}

size_t Neighbour::build_request(const Gid &target, std::span<uint8_t> out) const
{
	bool v4 = target.is_ipv4();
	const std::array<uint8_t, 16> *src = first_of_family(v4);
	if (src == nullptr || out.size() < kMaxFrameLen)
		return 0;
	if (v4) {
		uint8_t *o = out.data();
		std::memset(o, 0, kMinFrameLen);
		put_eth(o, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, mac_, RTE_ETHER_TYPE_ARP);
		uint8_t *a = o + kEth;
		a[1] = RTE_ARP_HRD_ETHER;
		a[2] = uint8_t(RTE_ETHER_TYPE_IPV4 >> 8);
		a[3] = uint8_t(RTE_ETHER_TYPE_IPV4);
		a[4] = 6;
		a[5] = 4;
		a[7] = RTE_ARP_OP_REQUEST;
		std::memcpy(a + 8, mac_.data(), 6);
		std::memcpy(a + 14, src->data() + 12, 4);
		std::memcpy(a + 24, target.raw.data() + 12, 4); /* target MAC left 0 */
		return kMinFrameLen;
	}
	/* RFC 4291 2.7.1 solicited-node group ff02::1:ffXX:XXXX; RFC 2464 7: MAC 33:33 + low 32 bits. */
	std::array<uint8_t, 16> group{0xFF,
				      0x02,
				      0,
				      0,
				      0,
				      0,
				      0,
				      0,
				      0,
				      0,
				      0,
				      0x01,
				      0xFF,
				      target.raw[13],
				      target.raw[14],
				      target.raw[15]};
	MacAddr mc{0x33, 0x33, group[12], group[13], group[14], group[15]};
	return build_ndp(kIcmpNs, mc, *src, group, target.raw, 0, out);
}

} /* namespace gaudi::roce */
