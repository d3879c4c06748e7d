/* SPDX-License-Identifier: BSD-3-Clause
 * Contract tests of net_gaudi_emu's wires to the outside (wire=udp, wire=tap) through the
 * public rte_eth API: the test holds the other end of the cable (a UDP socket, or an
 * AF_PACKET socket on the TAP interface) and checks frames byte for byte both ways.
 *
 * As root the whole binary runs in a network namespace of its own (unshare), so its TAP
 * interfaces never show up on the host; otherwise the UDP tests run on the host's loopback
 * and the TAP tests skip.
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gaudi_test_eal.h"
#include "base/gaudi_hw_defs.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <linux/if_tun.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>

namespace {

using Clock = std::chrono::steady_clock;
using Bytes = std::vector<uint8_t>;

/* A frame as the port puts it on the wire: shorter than NIC_SKB_PAD_SIZE (187) is zero-padded
 * by the PMD, because TXE rejects shorter raw frames (H6-3399). */
Bytes tx_padded(Bytes b)
{
	b.resize(std::max<size_t>(b.size(), gaudi::hw::kTxPadSize), 0);
	return b;
}
constexpr uint16_t kTestEtherType = 0x88B5; /* IEEE local experimental: no stack reacts */

bool g_own_netns = false;

/* Brings an interface up (lo of a new namespace). */
bool if_up(const char *name)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0)
		return false;
	ifreq ifr{};
	strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
	bool ok = ioctl(s, SIOCGIFFLAGS, &ifr) == 0;
	ifr.ifr_flags |= IFF_UP;
	ok = ok && ioctl(s, SIOCSIFFLAGS, &ifr) == 0;
	close(s);
	return ok;
}

class EalEnv : public gaudi_test::EalEnv {
public:
	EalEnv() : gaudi_test::EalEnv("test_wires", "1024", {"--log-level=pmd.net.gaudi*:error"}) {}

protected:
	void before_init() override
	{
		/* Before EAL starts threads: unshare() applies to the calling thread only. */
		if (unshare(CLONE_NEWNET) == 0)
			g_own_netns = if_up("lo");
	}
};

const auto *eal_env = gaudi_test::register_eal_env(new EalEnv);

/* One single-port net_gaudi_emu instance and a mempool. */
class Nic : public gaudi_test::EmuVdev {
public:
	explicit Nic(const std::string &args)
		: EmuVdev(gaudi_test::next_emu_instance(), args, 1, 4095)
	{
		if (rc_ == 0)
			port_ = EmuVdev::port(0);
	}
	uint16_t port() const { return port_; }

	int setup(uint16_t rxd = 64, uint16_t txd = 64)
	{
		rte_eth_conf conf{};
		int rc = rte_eth_dev_configure(port_, 1, 1, &conf);
		if (rc == 0)
			rc = rte_eth_rx_queue_setup(port_, 0, rxd, SOCKET_ID_ANY, nullptr, mp_);
		if (rc == 0)
			rc = rte_eth_tx_queue_setup(port_, 0, txd, SOCKET_ID_ANY, nullptr);
		if (rc != 0)
			return rc;
		rte_eth_promiscuous_enable(port_);
		return rte_eth_dev_start(port_);
	}
	/* Transmits each frame; returns how many were accepted. */
	size_t send(const std::vector<Bytes> &frames)
	{
		size_t done = 0;
		for (const Bytes &f : frames) {
			rte_mbuf *m = rte_pktmbuf_alloc(mp_);
			if (m == nullptr)
				break;
			memcpy(rte_pktmbuf_append(m, uint16_t(f.size())), f.data(), f.size());
			auto end = Clock::now() + std::chrono::seconds(5);
			while (rte_eth_tx_burst(port_, 0, &m, 1) == 0)
				if (Clock::now() > end) {
					rte_pktmbuf_free(m);
					return done;
				}
			done++;
		}
		return done;
	}
	/* Receives frames of the test's EtherType (the kernel may add others on a TAP) until
	 * want arrived or timeout passed. */
	std::vector<Bytes> receive(size_t want, int timeout_ms = 5000)
	{
		std::vector<Bytes> got;
		auto end = Clock::now() + std::chrono::milliseconds(timeout_ms);
		rte_mbuf *b[32];
		while (got.size() < want && Clock::now() < end) {
			uint16_t n = rte_eth_rx_burst(port_, 0, b, 32);
			for (uint16_t i = 0; i < n; i++) {
				Bytes f = gaudi_test::bytes_of(b[i]);
				if (f.size() >= 14 && f[12] == (kTestEtherType >> 8) &&
				    f[13] == (kTestEtherType & 0xFF))
					got.push_back(std::move(f));
				rte_pktmbuf_free(b[i]);
			}
		}
		return got;
	}
	rte_eth_stats stats() const
	{
		rte_eth_stats s{};
		rte_eth_stats_get(port_, &s);
		return s;
	}

private:
	uint16_t port_ = 0;
};

/* A frame of len bytes with the test EtherType, seq and a pattern in the payload. */
Bytes frame(uint32_t seq, size_t len, const uint8_t *dst = nullptr)
{
	Bytes b(len);
	for (size_t i = 0; i < len; i++)
		b[i] = uint8_t(i * 13 + seq);
	static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	memcpy(b.data(), dst ? dst : bcast, 6);
	const uint8_t src[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x42};
	memcpy(b.data() + 6, src, 6);
	b[12] = kTestEtherType >> 8;
	b[13] = kTestEtherType & 0xFF;
	if (len >= 18)
		memcpy(&b[14], &seq, 4);
	return b;
}

/* Frames read from socket fd until want arrived or timeout_ms passed: read_one(buf, size) reads
 * one datagram into buf and says its length, or -1 for none (or one to skip). */
template <class ReadOne>
std::vector<Bytes> receive_frames(int fd, size_t want, int timeout_ms, ReadOne read_one)
{
	std::vector<Bytes> got;
	auto end = Clock::now() + std::chrono::milliseconds(timeout_ms);
	static uint8_t buf[65536];
	while (got.size() < want && Clock::now() < end) {
		pollfd p{fd, POLLIN, 0};
		if (poll(&p, 1, 50) <= 0)
			continue;
		ssize_t n = read_one(buf, sizeof(buf));
		if (n >= 0)
			got.emplace_back(buf, buf + n);
	}
	return got;
}

/* ---- UDP ---- */

/* A UDP socket on 127.0.0.1 (the far end of the cable) and a free port for the model. */
class UdpPeer {
public:
	UdpPeer()
	{
		fd_ = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
		sockaddr_in a{};
		a.sin_family = AF_INET;
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		socklen_t l = sizeof(a);
		EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr *>(&a), sizeof(a)), 0);
		getsockname(fd_, reinterpret_cast<sockaddr *>(&a), &l);
		port_ = ntohs(a.sin_port);
		/* A free port for the model: bind, read it, close. */
		int t = socket(AF_INET, SOCK_DGRAM, 0);
		a.sin_port = 0;
		bind(t, reinterpret_cast<sockaddr *>(&a), sizeof(a));
		l = sizeof(a);
		getsockname(t, reinterpret_cast<sockaddr *>(&a), &l);
		model_port_ = ntohs(a.sin_port);
		close(t);
	}
	~UdpPeer() { close(fd_); }
	std::string devargs(const char *engine) const
	{
		return std::string("ports=1,wire=udp,engine=") + engine +
		       ",udp_local=0:127.0.0.1:" + std::to_string(model_port_) +
		       ",udp_remote=0:127.0.0.1:" + std::to_string(port_);
	}
	bool send(const Bytes &f) const
	{
		sockaddr_in a{};
		a.sin_family = AF_INET;
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		a.sin_port = htons(model_port_);
		return sendto(fd_, f.data(), f.size(), 0, reinterpret_cast<sockaddr *>(&a),
			      sizeof(a)) == ssize_t(f.size());
	}
	std::vector<Bytes> receive(size_t want, int timeout_ms = 5000) const
	{
		return receive_frames(fd_, want, timeout_ms, [this](uint8_t *buf, size_t size) {
			return recv(fd_, buf, size, 0);
		});
	}
	uint16_t port() const { return port_; }
	uint16_t model_port() const { return model_port_; }

private:
	int fd_ = -1;
	uint16_t port_ = 0, model_port_ = 0;
};

class Wires : public ::testing::TestWithParam<const char *> {};

/* Each frame the port sends is one datagram holding exactly the frame; each datagram is one
 * frame, byte for byte. */
TEST_P(Wires, UdpBothWays)
{
	UdpPeer peer;
	Nic nic(peer.devargs(GetParam()));
	ASSERT_EQ(nic.probe_rc(), 0);
	ASSERT_EQ(nic.setup(), 0);

	std::vector<Bytes> out;
	for (uint32_t i = 0; i < 40; i++)
		out.push_back(frame(i, 60 + i * 37)); /* 60..1503 bytes */
	ASSERT_EQ(nic.send(out), out.size());
	auto got = peer.receive(out.size());
	ASSERT_EQ(got.size(), out.size());
	for (size_t i = 0; i < out.size(); i++)
		EXPECT_EQ(got[i], tx_padded(out[i])) << "datagram " << i;

	std::vector<Bytes> in;
	for (uint32_t i = 0; i < 40; i++) {
		in.push_back(frame(1000 + i, 1514 - i * 31));
		ASSERT_TRUE(peer.send(in.back()));
	}
	auto rx = nic.receive(in.size());
	ASSERT_EQ(rx.size(), in.size());
	for (size_t i = 0; i < in.size(); i++)
		EXPECT_EQ(rx[i], in[i]) << "frame " << i;
	rte_eth_stats s = nic.stats();
	EXPECT_EQ(s.opackets, out.size());
	EXPECT_EQ(s.ipackets, in.size());
	EXPECT_EQ(s.ierrors, 0u);
	EXPECT_EQ(s.imissed, 0u);
}

/* Datagrams longer than the MAC accepts are dropped and counted, never truncated; shorter
 * than 60 bytes are padded as a sending MAC would; the frames around them arrive intact. */
TEST_P(Wires, UdpOversizeDroppedShortPadded)
{
	UdpPeer peer;
	Nic nic(peer.devargs(GetParam()));
	ASSERT_EQ(nic.probe_rc(), 0);
	ASSERT_EQ(nic.setup(), 0);
	/* The largest frame is MTU + 22 (Ethernet header, two VLAN tags): 1522 at MTU 1500. */
	Bytes a = frame(1, 100), big = frame(2, 1523), huge = frame(3, 9000), small = frame(4, 42),
	      b = frame(5, 1522);
	for (const Bytes *f : {&a, &big, &huge, &small, &b})
		ASSERT_TRUE(peer.send(*f));
	auto rx = nic.receive(3);
	ASSERT_EQ(rx.size(), 3u);
	EXPECT_EQ(rx[0], a);
	Bytes padded = small;
	padded.resize(60, 0);
	EXPECT_EQ(rx[1], padded);
	EXPECT_EQ(rx[2], b);
	rte_eth_stats s = nic.stats();
	EXPECT_EQ(s.ipackets, 3u);
	EXPECT_EQ(s.ierrors, 2u);
	EXPECT_EQ(s.imissed, 0u);
}

/* Input is paced: datagrams wait in the socket while the port's ring is full (nothing counted
 * as missed) and while the port is stopped. */
TEST_P(Wires, UdpPacedByRing)
{
	UdpPeer peer;
	Nic nic(peer.devargs(GetParam()));
	ASSERT_EQ(nic.probe_rc(), 0);
	std::vector<Bytes> in;
	for (uint32_t i = 0; i < 100; i++) {
		in.push_back(frame(i, 80));
		ASSERT_TRUE(peer.send(in.back())); /* port not started yet */
	}
	ASSERT_EQ(nic.setup(64, 64), 0);
	usleep(100 * 1000); /* the thread engine fills the 64-entry ring and waits */
	auto rx = nic.receive(in.size());
	ASSERT_EQ(rx.size(), in.size());
	for (size_t i = 0; i < in.size(); i++)
		EXPECT_EQ(rx[i], in[i]) << "frame " << i;
	rte_eth_stats s = nic.stats();
	EXPECT_EQ(s.ipackets, in.size());
	EXPECT_EQ(s.imissed, 0u);
	EXPECT_EQ(s.ierrors, 0u);
}

INSTANTIATE_TEST_SUITE_P(Gaudi, Wires, ::testing::Values("inline", "thread"));

/* Bad devargs and sockets that cannot open fail the probe with a line naming the devarg. */
TEST(WireArgs, BadUdpArgsFailProbe)
{
	const char *bad[][2] = {
		{"ports=1,wire=udp,udp_local=0:127.0.0.1:7000", "also needs udp_remote"},
		{"ports=1,wire=udp,udp_remote=127.0.0.1:7000", "also needs udp_local"},
		{"ports=1,wire=udp,udp_local=0:300.0.0.1:7000,udp_remote=0:127.0.0.1:7001",
		 "devarg udp_local=0:300.0.0.1:7000: '300.0.0.1' is not a numeric"},
		{"ports=1,wire=udp,udp_local=0:127.0.0.1:0,udp_remote=0:127.0.0.1:7001",
		 "devarg udp_local=0:127.0.0.1:0: UDP port '0' must be 1..65535"},
		{"ports=1,wire=udp,udp_local=1:127.0.0.1:7000,udp_remote=1:127.0.0.1:7001",
		 "devarg udp_local=1:127.0.0.1:7000: must be [PORT:]IP:UDPPORT with PORT < ports"},
		{"ports=1,wire=pair,udp_local=0:127.0.0.1:7000,udp_remote=0:127.0.0.1:7001",
		 "needs wire=udp"},
		{"ports=1,wire=udp,udp_local=0:127.0.0.1:7000,udp_local=0:127.0.0.1:7002,"
		 "udp_remote=0:127.0.0.1:7001",
		 "port 0 given twice"},
		{"ports=1,wire=tap,tap_name=0:this-name-is-too-long", "is not an interface name"},
		{"ports=1,wire=tap,tap_name=gtap0", "must be PORT:NAME"},
		{"ports=1,wire=udp,udp_local=0:127.0.0.1:7000,udp_remote=0:[::1]:7001",
		 "devarg udp_remote=0:[::1]:7001: not of the address family of udp_local"},
	};
	for (auto &c : bad) {
		gaudi_test::LogCapture log;
		Nic nic(c[0]);
		EXPECT_NE(nic.probe_rc(), 0) << c[0];
		EXPECT_NE(log.text().find(c[1]), std::string::npos)
			<< c[0] << "\nlogged: " << log.text();
	}
	/* The local address is taken: bind fails, the probe says so. */
	UdpPeer peer;
	std::string args = "ports=1,wire=udp,udp_local=127.0.0.1:" + std::to_string(peer.port()) +
			   ",udp_remote=0:127.0.0.1:" + std::to_string(peer.model_port());
	gaudi_test::LogCapture log;
	Nic nic(args);
	EXPECT_NE(nic.probe_rc(), 0);
	std::string want = "devarg udp_local=0:127.0.0.1:" + std::to_string(peer.port()) +
			   ": bind: Address already in use";
	EXPECT_NE(log.text().find(want), std::string::npos) << "logged: " << log.text();
}

/* ---- TAP ---- */

/* Skips unless a TAP can be made here (root or CAP_NET_ADMIN, /dev/net/tun). */
std::string tap_unavailable()
{
	int fd = open("/dev/net/tun", O_RDWR);
	if (fd < 0)
		return std::string("/dev/net/tun: ") + strerror(errno);
	ifreq ifr{};
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	strncpy(ifr.ifr_name, "gwprobe%d", IFNAMSIZ - 1);
	int rc = ioctl(fd, TUNSETIFF, &ifr);
	std::string why = rc < 0 ? std::string("TUNSETIFF: ") + strerror(errno) : "";
	close(fd);
	return why;
}

/* An AF_PACKET socket on the TAP interface: the kernel's side of the cable. */
class PacketPeer {
public:
	explicit PacketPeer(const std::string &ifname)
	{
		fd_ = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(kTestEtherType));
		ifindex_ = int(if_nametoindex(ifname.c_str()));
		sockaddr_ll a{};
		a.sll_family = AF_PACKET;
		a.sll_protocol = htons(kTestEtherType);
		a.sll_ifindex = ifindex_;
		ok_ = fd_ >= 0 && ifindex_ > 0 &&
		      bind(fd_, reinterpret_cast<sockaddr *>(&a), sizeof(a)) == 0;
	}
	~PacketPeer()
	{
		if (fd_ >= 0)
			close(fd_);
	}
	bool ok() const { return ok_; }
	bool send(const Bytes &f) const { return ::send(fd_, f.data(), f.size(), 0) == ssize_t(f.size()); }
	/* Frames the kernel received on the TAP (not the ones it sent). */
	std::vector<Bytes> receive(size_t want, int timeout_ms = 5000) const
	{
		return receive_frames(fd_, want, timeout_ms, [this](uint8_t *buf, size_t size) {
			sockaddr_ll from{};
			socklen_t l = sizeof(from);
			ssize_t n = recvfrom(fd_, buf, size, 0, reinterpret_cast<sockaddr *>(&from),
					     &l);
			return n >= 0 && from.sll_pkttype != PACKET_OUTGOING ? n : ssize_t(-1);
		});
	}

private:
	int fd_ = -1;
	int ifindex_ = 0;
	bool ok_ = false;
};

bool tap_mac(const std::string &ifname, uint8_t out[6])
{
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	ifreq ifr{};
	strncpy(ifr.ifr_name, ifname.c_str(), IFNAMSIZ - 1);
	bool ok = ioctl(s, SIOCGIFHWADDR, &ifr) == 0;
	memcpy(out, ifr.ifr_hwaddr.sa_data, 6);
	close(s);
	return ok;
}

bool if_is_up(const std::string &ifname)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	ifreq ifr{};
	strncpy(ifr.ifr_name, ifname.c_str(), IFNAMSIZ - 1);
	bool up = ioctl(s, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_UP);
	close(s);
	return up;
}

TEST_P(Wires, TapBothWays)
{
	std::string why = tap_unavailable();
	if (!why.empty())
		GTEST_SKIP() << "no TAP here: " << why;
	const std::string ifname = std::string("gwt") + GetParam();
	Nic nic(std::string("ports=1,wire=tap,tap_name=0:") + ifname + ",engine=" + GetParam());
	ASSERT_EQ(nic.probe_rc(), 0);
	ASSERT_EQ(nic.setup(), 0);
	EXPECT_TRUE(if_is_up(ifname));
	rte_ether_addr port_mac;
	ASSERT_EQ(rte_eth_macaddr_get(nic.port(), &port_mac), 0);
	uint8_t kmac[6];
	ASSERT_TRUE(tap_mac(ifname, kmac));
	EXPECT_NE(memcmp(kmac, port_mac.addr_bytes, 6), 0) << "TAP and port share a MAC";
	rte_eth_link link{};
	ASSERT_EQ(rte_eth_link_get_nowait(nic.port(), &link), 0);
	EXPECT_EQ(link.link_status, RTE_ETH_LINK_UP);

	PacketPeer kernel(ifname);
	ASSERT_TRUE(kernel.ok()) << strerror(errno);

	/* Port -> kernel: unicast to the TAP's address and broadcast. */
	std::vector<Bytes> out;
	for (uint32_t i = 0; i < 30; i++)
		out.push_back(frame(i, 60 + i * 47, i % 2 ? kmac : nullptr));
	ASSERT_EQ(nic.send(out), out.size());
	auto got = kernel.receive(out.size());
	ASSERT_EQ(got.size(), out.size());
	for (size_t i = 0; i < out.size(); i++)
		EXPECT_EQ(got[i], tx_padded(out[i])) << "frame " << i;

	/* Kernel -> port, including a short frame the kernel hands over unpadded. */
	std::vector<Bytes> in;
	for (uint32_t i = 0; i < 30; i++) {
		in.push_back(frame(100 + i, i == 0 ? 42 : 1514 - i * 41, port_mac.addr_bytes));
		ASSERT_TRUE(kernel.send(in.back()));
	}
	in[0].resize(60, 0);
	auto rx = nic.receive(in.size());
	ASSERT_EQ(rx.size(), in.size());
	for (size_t i = 0; i < in.size(); i++)
		EXPECT_EQ(rx[i], in[i]) << "frame " << i;
	rte_eth_stats s = nic.stats();
	EXPECT_EQ(s.ierrors, 0u);
	EXPECT_EQ(s.imissed, 0u);
	EXPECT_EQ(s.opackets, out.size());
}

/* Without tap_name the TAP is gaudi<instance>p<port>; a TAP in use fails the probe with one
 * line naming the devarg and the reason. */
TEST(WireArgs, TapDefaultNameAndBusy)
{
	std::string why = tap_unavailable();
	if (!why.empty())
		GTEST_SKIP() << "no TAP here: " << why;
	{
		Nic nic("ports=2,wire=tap");
		ASSERT_EQ(nic.probe_rc(), 0);
		std::string base = "gaudi" + std::to_string(nic.instance());
		EXPECT_NE(if_nametoindex((base + "p0").c_str()), 0u);
		EXPECT_NE(if_nametoindex((base + "p1").c_str()), 0u);
	}
	int fd = open("/dev/net/tun", O_RDWR);
	ASSERT_GE(fd, 0);
	ifreq ifr{};
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	strncpy(ifr.ifr_name, "gwbusy0", IFNAMSIZ - 1);
	ASSERT_EQ(ioctl(fd, TUNSETIFF, &ifr), 0);
	{
		gaudi_test::LogCapture log;
		Nic nic("ports=1,wire=tap,tap_name=0:gwbusy0");
		EXPECT_NE(nic.probe_rc(), 0);
		EXPECT_NE(log.text().find("devarg tap_name=0:gwbusy0: TUNSETIFF: Device or resource busy"),
			  std::string::npos)
			<< "logged: " << log.text();
	}
	close(fd);
}

} /* namespace */
