/* SPDX-License-Identifier: BSD-3-Clause
 * ARP / IPv6 neighbour discovery (drivers/net/gaudi/roce/roce_neigh.h) and GID text forms
 * (roce_addr.h), with hand-crafted frames. Checksums are verified with a one's-complement
 * sum written here, independent of the DPDK helper the code under test uses.
 *
 * With ROCE_NEIGH_IN / ROCE_NEIGH_OUT set (tests/roce_neigh_scapy.py), NeighbourPcap feeds
 * the frames of a pcap that scapy wrote to a responder for 10.0.0.1 and fd00::1 and writes
 * its replies and its own requests to another pcap, for scapy to check.
 */
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>
#include <pcap/pcap.h>

#include "roce_addr.h"
#include "roce_neigh.h"

using namespace gaudi::roce;

namespace {

const MacAddr kOurMac{0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
const MacAddr kPeerMac{0x52, 0x54, 0x00, 0x12, 0x34, 0x56};

Gid gid(const char *text)
{
	Gid g;
	EXPECT_TRUE(Gid::parse(text, g)) << text;
	return g;
}

std::vector<uint8_t> eth(const MacAddr &dst, const MacAddr &src, uint16_t type)
{
	std::vector<uint8_t> f(dst.begin(), dst.end());
	f.insert(f.end(), src.begin(), src.end());
	f.push_back(uint8_t(type >> 8));
	f.push_back(uint8_t(type));
	return f;
}

std::vector<uint8_t> arp(uint16_t op, const MacAddr &sha, const Gid &spa, const MacAddr &tha,
			 const Gid &tpa)
{
	std::vector<uint8_t> f =
		eth(op == 1 ? MacAddr{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF} : tha, sha, 0x0806);
	uint8_t h[8] = {0, 1, 0x08, 0x00, 6, 4, 0, uint8_t(op)};
	f.insert(f.end(), h, h + 8);
	f.insert(f.end(), sha.begin(), sha.end());
	f.insert(f.end(), spa.raw.begin() + 12, spa.raw.end());
	f.insert(f.end(), tha.begin(), tha.end());
	f.insert(f.end(), tpa.raw.begin() + 12, tpa.raw.end());
	f.resize(60, 0);
	return f;
}

/* RFC 1071 sum over the IPv6 pseudo-header (RFC 8200 8.1) and the ICMPv6 message. */
uint16_t icmp6_sum(const uint8_t *ip, const uint8_t *icmp, size_t len)
{
	uint32_t s = 0;
	auto add = [&s](const uint8_t *p, size_t n) {
		for (size_t i = 0; i + 1 < n; i += 2)
			s += uint32_t(p[i]) << 8 | p[i + 1];
		if (n & 1)
			s += uint32_t(p[n - 1]) << 8;
	};
	add(ip + 8, 32);
	s += uint32_t(len);
	s += 58;
	add(icmp, len);
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return uint16_t(s);
}

/* NS (135) or NA (136) with an optional link-layer address option; checksum filled in. */
std::vector<uint8_t> ndp(uint8_t type, const MacAddr &eth_src, const MacAddr &eth_dst,
			 const Gid &src, const Gid &dst, const Gid &target, const MacAddr *lla,
			 uint32_t flags = 0, uint8_t hop = 255)
{
	std::vector<uint8_t> f = eth(eth_dst, eth_src, 0x86DD);
	size_t plen = 24 + (lla ? 8 : 0);
	uint8_t ip[40] = {0x60, 0, 0, 0, 0, uint8_t(plen), 58, hop};
	std::memcpy(ip + 8, src.raw.data(), 16);
	std::memcpy(ip + 24, dst.raw.data(), 16);
	f.insert(f.end(), ip, ip + 40);
	std::vector<uint8_t> m(plen, 0);
	m[0] = type;
	m[4] = uint8_t(flags >> 24);
	std::memcpy(m.data() + 8, target.raw.data(), 16);
	if (lla) {
		m[24] = type == 135 ? 1 : 2;
		m[25] = 1;
		std::memcpy(m.data() + 26, lla->data(), 6);
	}
	uint16_t c = uint16_t(~icmp6_sum(ip, m.data(), plen));
	m[2] = uint8_t(c >> 8);
	m[3] = uint8_t(c);
	f.insert(f.end(), m.begin(), m.end());
	return f;
}

MacAddr mac_at(const uint8_t *p)
{
	MacAddr m;
	std::memcpy(m.data(), p, 6);
	return m;
}

TEST(Gid, TextForms)
{
	Gid g = gid("10.0.0.1");
	EXPECT_TRUE(g.is_ipv4());
	EXPECT_EQ(g, Gid::from_ipv4({10, 0, 0, 1}));
	EXPECT_EQ(gid("::ffff:10.0.0.1"), g);
	char s[46];
	g.to_string(s);
	EXPECT_STREQ(s, "10.0.0.1");
	char w[33];
	g.to_wire(w);
	EXPECT_STREQ(w, "00000000000000000000ffff0a000001");
	Gid v6 = gid("fe80::5054:ff:fe12:3456");
	EXPECT_FALSE(v6.is_ipv4());
	EXPECT_EQ(v6.raw[0], 0xFE);
	EXPECT_EQ(v6.raw[15], 0x56);
	v6.to_string(s);
	EXPECT_STREQ(s, "fe80::5054:ff:fe12:3456");
	const uint8_t mac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
	EXPECT_EQ(Gid::link_local(mac), v6);
	Gid bad;
	EXPECT_FALSE(Gid::parse("10.0.0", bad));
	EXPECT_FALSE(Gid::parse("", bad));
	EXPECT_FALSE(Gid::parse("fe80::1::2", bad));
	EXPECT_FALSE(Gid::parse(std::string(100, '1'), bad));
}

TEST(Neighbour, ArpRequestForUsIsAnsweredAndTheAskerLearned)
{
	Neighbour n(kOurMac);
	ASSERT_EQ(n.add_address(gid("10.0.0.1")), 0);
	auto req = arp(1, kPeerMac, gid("10.0.0.2"), {}, gid("10.0.0.1"));
	uint8_t out[Neighbour::kMaxFrameLen];
	size_t len = 0;
	ASSERT_EQ(n.input(req, out, len), Neighbour::Result::reply);
	ASSERT_EQ(len, 60u);
	EXPECT_EQ(mac_at(out), kPeerMac); /* unicast back to the asker */
	EXPECT_EQ(mac_at(out + 6), kOurMac);
	EXPECT_EQ(out[12], 0x08);
	EXPECT_EQ(out[13], 0x06);
	const uint8_t *a = out + 14;
	EXPECT_EQ(a[7], 2); /* reply */
	EXPECT_EQ(mac_at(a + 8), kOurMac);
	EXPECT_EQ(std::vector<uint8_t>(a + 14, a + 18), (std::vector<uint8_t>{10, 0, 0, 1}));
	EXPECT_EQ(mac_at(a + 18), kPeerMac);
	EXPECT_EQ(std::vector<uint8_t>(a + 24, a + 28), (std::vector<uint8_t>{10, 0, 0, 2}));
	for (size_t i = 42; i < 60; i++)
		EXPECT_EQ(out[i], 0) << i;
	MacAddr m{};
	ASSERT_TRUE(n.lookup(gid("10.0.0.2"), m));
	EXPECT_EQ(m, kPeerMac);
	EXPECT_EQ(n.stats().arp_requests_answered, 1u);
}

TEST(Neighbour, ArpForOthersIgnoredRepliesLearnedJunkCounted)
{
	Neighbour n(kOurMac);
	n.add_address(gid("10.0.0.1"));
	uint8_t out[Neighbour::kMaxFrameLen];
	size_t len = 0;
	auto other = arp(1, kPeerMac, gid("10.0.0.2"), {}, gid("10.0.0.9"));
	EXPECT_EQ(n.input(other, out, len), Neighbour::Result::consumed);
	EXPECT_EQ(len, 0u);
	MacAddr m{};
	EXPECT_FALSE(n.lookup(gid("10.0.0.2"), m)); /* not about us: nothing learned */
	EXPECT_EQ(n.stats().not_for_us, 1u);

	auto rep = arp(2, kPeerMac, gid("10.0.0.3"), kOurMac, gid("10.0.0.1"));
	EXPECT_EQ(n.input(rep, out, len), Neighbour::Result::consumed);
	ASSERT_TRUE(n.lookup(gid("10.0.0.3"), m));
	EXPECT_EQ(m, kPeerMac);

	auto shortf = arp(1, kPeerMac, gid("10.0.0.2"), {}, gid("10.0.0.1"));
	shortf.resize(30);
	EXPECT_EQ(n.input(shortf, out, len), Neighbour::Result::consumed);
	auto badhlen = arp(1, kPeerMac, gid("10.0.0.2"), {}, gid("10.0.0.1"));
	badhlen[18] = 8;
	EXPECT_EQ(n.input(badhlen, out, len), Neighbour::Result::consumed);
	EXPECT_EQ(n.stats().malformed, 2u);
	EXPECT_EQ(n.stats().arp_requests_answered, 0u);

	/* An ARP probe (sender 0.0.0.0, RFC 5227) is answered, nothing learned for 0.0.0.0. */
	auto probe = arp(1, kPeerMac, gid("0.0.0.0"), {}, gid("10.0.0.1"));
	EXPECT_EQ(n.input(probe, out, len), Neighbour::Result::reply);
	EXPECT_FALSE(n.lookup(gid("0.0.0.0"), m));

	/* Not ARP, not IPv6: not ours. */
	auto ip4 = eth(kOurMac, kPeerMac, 0x0800);
	ip4.resize(60);
	EXPECT_EQ(n.input(ip4, out, len), Neighbour::Result::not_neighbour);
	std::vector<uint8_t> tiny(5);
	EXPECT_EQ(n.input(tiny, out, len), Neighbour::Result::not_neighbour);
}

TEST(Neighbour, NeighborSolicitationForUsGetsASolicitedAdvertisement)
{
	Neighbour n(kOurMac);
	Gid ours = gid("fd00::1"), peer = gid("fd00::2");
	n.add_address(ours);
	Gid group = gid("ff02::1:ff00:1");
	auto ns = ndp(135, kPeerMac, {0x33, 0x33, 0xFF, 0, 0, 1}, peer, group, ours, &kPeerMac);
	uint8_t out[Neighbour::kMaxFrameLen];
	size_t len = 0;
	ASSERT_EQ(n.input(ns, out, len), Neighbour::Result::reply);
	ASSERT_EQ(len, 14u + 40 + 32);
	EXPECT_EQ(mac_at(out), kPeerMac);
	EXPECT_EQ(mac_at(out + 6), kOurMac);
	const uint8_t *ip = out + 14, *icmp = ip + 40;
	EXPECT_EQ(ip[0] >> 4, 6);
	EXPECT_EQ(ip[5], 32);  /* payload length */
	EXPECT_EQ(ip[6], 58);  /* ICMPv6 */
	EXPECT_EQ(ip[7], 255); /* RFC 4861 7.1.2 */
	EXPECT_EQ(0, memcmp(ip + 8, ours.raw.data(), 16));
	EXPECT_EQ(0, memcmp(ip + 24, peer.raw.data(), 16));
	EXPECT_EQ(icmp[0], 136);
	EXPECT_EQ(icmp[4], 0x60); /* Solicited | Override */
	EXPECT_EQ(0, memcmp(icmp + 8, ours.raw.data(), 16));
	EXPECT_EQ(icmp[24], 2); /* target link-layer address */
	EXPECT_EQ(icmp[25], 1);
	EXPECT_EQ(mac_at(icmp + 26), kOurMac);
	EXPECT_EQ(icmp6_sum(ip, icmp, 32), 0xFFFF) << "ICMPv6 checksum";
	MacAddr m{};
	ASSERT_TRUE(n.lookup(peer, m)); /* from the source link-layer option */
	EXPECT_EQ(m, kPeerMac);
	EXPECT_EQ(n.stats().ns_answered, 1u);

	/* Wrong hop limit (forwarded) or checksum: dropped and counted. */
	auto hop = ndp(135, kPeerMac, kOurMac, peer, ours, ours, &kPeerMac, 0, 64);
	EXPECT_EQ(n.input(hop, out, len), Neighbour::Result::consumed);
	auto sum = ns;
	sum.back() ^= 0x01;
	EXPECT_EQ(n.input(sum, out, len), Neighbour::Result::consumed);
	EXPECT_EQ(n.stats().malformed, 2u);
	/* Duplicate address detection (source ::) and other targets: not answered. */
	auto dad = ndp(135, kPeerMac, kOurMac, gid("::"), group, ours, nullptr);
	EXPECT_EQ(n.input(dad, out, len), Neighbour::Result::consumed);
	auto other = ndp(135, kPeerMac, kOurMac, peer, group, gid("fd00::7"), &kPeerMac);
	EXPECT_EQ(n.input(other, out, len), Neighbour::Result::consumed);
	EXPECT_EQ(n.stats().ns_answered, 1u);
	/* Other ICMPv6 (echo request 128) is not ours. */
	auto echo = ndp(135, kPeerMac, kOurMac, peer, ours, ours, nullptr);
	echo[14 + 40] = 128;
	EXPECT_EQ(n.input(echo, out, len), Neighbour::Result::not_neighbour);
}

TEST(Neighbour, AdvertisementLearned)
{
	Neighbour n(kOurMac);
	n.add_address(gid("fd00::1"));
	Gid peer = gid("fd00::2");
	auto na = ndp(136, kPeerMac, kOurMac, peer, gid("fd00::1"), peer, &kPeerMac, 0x60000000);
	uint8_t out[Neighbour::kMaxFrameLen];
	size_t len = 0;
	EXPECT_EQ(n.input(na, out, len), Neighbour::Result::consumed);
	MacAddr m{};
	ASSERT_TRUE(n.lookup(peer, m));
	EXPECT_EQ(m, kPeerMac);
	/* A multicast MAC is never learned. */
	MacAddr mc{0x33, 0x33, 0, 0, 0, 1};
	auto bad = ndp(136, kPeerMac, kOurMac, gid("fd00::3"), gid("fd00::1"), gid("fd00::3"), &mc,
		       0x60000000);
	EXPECT_EQ(n.input(bad, out, len), Neighbour::Result::consumed);
	EXPECT_FALSE(n.lookup(gid("fd00::3"), m));
	/* An option with length 0 is malformed (RFC 4861 4.6: must be dropped). */
	auto zero = na;
	zero[54 + 25] = 0;
	zero[54 + 2] = zero[54 + 3] = 0;
	uint16_t c = uint16_t(~icmp6_sum(zero.data() + 14, zero.data() + 54, 32));
	zero[54 + 2] = uint8_t(c >> 8);
	zero[54 + 3] = uint8_t(c);
	uint64_t before = n.stats().malformed;
	EXPECT_EQ(n.input(zero, out, len), Neighbour::Result::consumed);
	EXPECT_EQ(n.stats().malformed, before + 1);
}

TEST(Neighbour, RequestsAreArpBroadcastOrSolicitedNodeMulticast)
{
	Neighbour n(kOurMac);
	uint8_t out[Neighbour::kMaxFrameLen];
	EXPECT_EQ(n.build_request(gid("10.0.0.2"), out), 0u); /* no IPv4 address of ours yet */
	n.add_address(gid("10.0.0.1"));
	n.add_address(gid("fd00::1"));
	size_t len = n.build_request(gid("10.0.0.2"), out);
	ASSERT_EQ(len, 60u);
	EXPECT_EQ(mac_at(out), (MacAddr{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}));
	EXPECT_EQ(out[14 + 7], 1);
	EXPECT_EQ(mac_at(out + 14 + 8), kOurMac);
	EXPECT_EQ(std::vector<uint8_t>(out + 14 + 14, out + 14 + 18),
		  (std::vector<uint8_t>{10, 0, 0, 1}));
	EXPECT_EQ(std::vector<uint8_t>(out + 14 + 24, out + 14 + 28),
		  (std::vector<uint8_t>{10, 0, 0, 2}));

	Gid target = gid("fd00::12:3456");
	len = n.build_request(target, out);
	ASSERT_EQ(len, 86u);
	EXPECT_EQ(mac_at(out), (MacAddr{0x33, 0x33, 0xFF, 0x12, 0x34, 0x56}));
	const uint8_t *ip = out + 14, *icmp = ip + 40;
	Gid group = gid("ff02::1:ff12:3456");
	EXPECT_EQ(0, memcmp(ip + 24, group.raw.data(), 16));
	EXPECT_EQ(ip[7], 255);
	EXPECT_EQ(icmp[0], 135);
	EXPECT_EQ(0, memcmp(icmp + 8, target.raw.data(), 16));
	EXPECT_EQ(icmp[24], 1); /* source link-layer address */
	EXPECT_EQ(mac_at(icmp + 26), kOurMac);
	EXPECT_EQ(icmp6_sum(ip, icmp, 32), 0xFFFF);

	/* Our own request fed to a peer responder gets answered: the two halves agree. */
	Neighbour peer(kPeerMac);
	peer.add_address(target);
	uint8_t rep[Neighbour::kMaxFrameLen];
	size_t rlen = 0;
	ASSERT_EQ(peer.input({out, len}, rep, rlen), Neighbour::Result::reply);
	EXPECT_EQ(n.input({rep, rlen}, out, len), Neighbour::Result::consumed);
	MacAddr m{};
	ASSERT_TRUE(n.lookup(target, m));
	EXPECT_EQ(m, kPeerMac);
}

TEST(Neighbour, TableKeepsTheNewestEntries)
{
	Neighbour n(kOurMac);
	for (uint32_t i = 0; i < Neighbour::kMaxEntries + 10; i++)
		n.learn(Gid::from_ipv4({10, 1, uint8_t(i >> 8), uint8_t(i)}),
			{0x02, 0, 0, 0, uint8_t(i >> 8), uint8_t(i)});
	MacAddr m{};
	EXPECT_FALSE(n.lookup(Gid::from_ipv4({10, 1, 0, 0}), m));
	uint32_t last = Neighbour::kMaxEntries + 9;
	ASSERT_TRUE(n.lookup(Gid::from_ipv4({10, 1, uint8_t(last >> 8), uint8_t(last)}), m));
	EXPECT_EQ(m[5], uint8_t(last));
	EXPECT_EQ(n.add_address(gid("10.0.0.1")), 0);
	EXPECT_EQ(n.add_address(gid("10.0.0.1")), 0); /* already ours: takes no second slot */
	for (unsigned i = 2; i <= Neighbour::kMaxAddresses; i++)
		EXPECT_EQ(n.add_address(Gid::from_ipv4({10, 0, 0, uint8_t(i)})), 0);
	EXPECT_EQ(n.add_address(gid("10.0.0.5")), -ENOSPC);
}

/* Frames from ROCE_NEIGH_IN through a responder; replies and requests to ROCE_NEIGH_OUT. */
TEST(NeighbourPcap, RepliesForScapy)
{
	const char *in = getenv("ROCE_NEIGH_IN"), *out = getenv("ROCE_NEIGH_OUT");
	if (in == nullptr || out == nullptr)
		GTEST_SKIP() << "run by tests/roce_neigh_scapy.py";
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *r = pcap_open_offline(in, err);
	ASSERT_NE(r, nullptr) << err;
	pcap_t *dead = pcap_open_dead(DLT_EN10MB, 65535);
	pcap_dumper_t *w = pcap_dump_open(dead, out);
	ASSERT_NE(w, nullptr) << pcap_geterr(dead);
	Neighbour n(kOurMac);
	n.add_address(gid("10.0.0.1"));
	n.add_address(gid("fd00::1"));
	auto put = [w](const uint8_t *d, size_t len) {
		pcap_pkthdr h{};
		h.caplen = h.len = uint32_t(len);
		pcap_dump(reinterpret_cast<u_char *>(w), &h, d);
	};
	pcap_pkthdr *h;
	const u_char *d;
	unsigned replies = 0;
	while (pcap_next_ex(r, &h, &d) == 1) {
		uint8_t rep[Neighbour::kMaxFrameLen];
		size_t len = 0;
		if (n.input({d, h->caplen}, rep, len) == Neighbour::Result::reply) {
			put(rep, len);
			replies++;
		}
	}
	/* Then our own requests, for the peers scapy's frames announced. */
	for (const char *t : {"10.0.0.2", "fd00::2"}) {
		uint8_t req[Neighbour::kMaxFrameLen];
		size_t len = n.build_request(gid(t), req);
		ASSERT_GT(len, 0u);
		put(req, len);
	}
	pcap_dump_close(w);
	pcap_close(dead);
	pcap_close(r);
	printf("replies %u, learned %lu\n", replies, (unsigned long)n.stats().learned);
	MacAddr m{};
	EXPECT_TRUE(n.lookup(gid("10.0.0.2"), m));
	EXPECT_TRUE(n.lookup(gid("fd00::2"), m));
}

} /* namespace */
