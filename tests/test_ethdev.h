/* SPDX-License-Identifier: BSD-3-Clause
 * The ethdev contract tests' shared rig: EAL once, the Nic (a net_gaudi_emu vdev with its pool),
 * frame helpers and the Engine fixture.
 */

#ifndef TEST_ETHDEV_H
#define TEST_ETHDEV_H

#include <array>
#include <span>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "gaudi_test_eal.h"
#include "base/gaudi_hw_defs.h"
#include "gaudi_compat.h"

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>

namespace test_ethdev {

constexpr uint16_t kMinRing = 64;
constexpr uint16_t kMaxRing = 4096;

inline const auto *eal_env = gaudi_test::register_eal_env(
	new gaudi_test::EalEnv("test_ethdev", "1536", {"--log-level=pmd.net.gaudi*:error"}));

using gaudi_test::bytes_of;
using gaudi_test::free_all;

/* One net_gaudi_emu instance with its ports, a mempool, and helpers to move frames. */
class Nic : public gaudi_test::EmuVdev {
public:
	Nic(const std::string &args, unsigned nports, unsigned mbufs = 16383,
	    uint16_t data_room = RTE_MBUF_DEFAULT_BUF_SIZE)
	    : EmuVdev(gaudi_test::next_emu_instance(), args, nports, mbufs, data_room)
	{
	}

	int setup(unsigned i, uint16_t rxd, uint16_t txd, uint16_t mtu = RTE_ETHER_MTU,
		  uint64_t rx_offloads = 0, uint64_t tx_offloads = 0, rte_mempool *rx_mp = nullptr)
	{
		rte_eth_conf conf{};
		conf.rxmode.mtu = mtu;
		conf.rxmode.offloads = rx_offloads;
		conf.txmode.offloads = tx_offloads;
		uint16_t p = port(i);
		int rc = rte_eth_dev_configure(p, 1, 1, &conf);
		if (rc != 0)
			return rc;
		rc = rte_eth_rx_queue_setup(p, 0, rxd, SOCKET_ID_ANY, nullptr,
					    rx_mp != nullptr ? rx_mp : mp_);
		if (rc != 0)
			return rc;
		rc = rte_eth_tx_queue_setup(p, 0, txd, SOCKET_ID_ANY, nullptr);
		if (rc != 0)
			return rc;
		rte_eth_promiscuous_enable(p);
		return rte_eth_dev_start(p);
	}

	/* Probed, ports 0 and 1 set up (rxd and txd descriptors) and started: 0 or the first
	 * error. */
	int up(uint16_t rxd, uint16_t txd)
	{
		int rc = probe_rc();
		for (unsigned i = 0; rc == 0 && i < 2; i++)
			rc = setup(i, rxd, txd);
		return rc;
	}

	/* n frames (frame()) of len bytes, seq first, first + 1, ... */
	std::vector<rte_mbuf *> frames(uint32_t first, uint32_t n, uint16_t len, unsigned segs = 1)
	{
		std::vector<rte_mbuf *> v;
		for (uint32_t i = 0; i < n; i++)
			v.push_back(frame(first + i, len, segs));
		return v;
	}

	/* A frame of len bytes: broadcast header, then seq in the payload, then a pattern. */
	rte_mbuf *frame(uint32_t seq, uint16_t len, unsigned segs = 1)
	{
		std::vector<uint8_t> bytes = pattern(seq, len);
		rte_mbuf *head = nullptr, *prev = nullptr;
		uint16_t off = 0;
		for (unsigned s = 0; s < segs; s++) {
			rte_mbuf *m = rte_pktmbuf_alloc(mp_);
			if (m == nullptr)
				return nullptr;
			uint16_t chunk = s + 1 == segs ? len - off : len / segs;
			memcpy(rte_pktmbuf_append(m, chunk), bytes.data() + off, chunk);
			off += chunk;
			if (head == nullptr)
				head = m;
			else {
				prev->next = m;
				head->nb_segs++;
				head->pkt_len += chunk;
			}
			prev = m;
		}
		return head;
	}
	static std::vector<uint8_t> pattern(uint32_t seq, uint16_t len)
	{
		std::vector<uint8_t> b(len);
		for (uint16_t i = 0; i < len; i++)
			b[i] = static_cast<uint8_t>(i * 7 + seq);
		memset(b.data(), 0xff, std::min<uint16_t>(len, 6)); /* broadcast dst */
		if (len >= 18)
			memcpy(&b[14], &seq, 4);
		return b;
	}
	/* What a frame of pattern(seq, len) looks like on the wire: the PMD pads frames shorter
	 * than NIC_SKB_PAD_SIZE (187) with zeros, as TXE requires (H6-3399). */
	static std::vector<uint8_t> wire(uint32_t seq, uint16_t len)
	{
		return padded(pattern(seq, len));
	}
	static std::vector<uint8_t> padded(std::vector<uint8_t> b)
	{
		b.resize(std::max<size_t>(b.size(), gaudi::hw::kTxPadSize), 0);
		return b;
	}
	/* Receive until want frames arrived or the timeout passed (the thread engine is async). */
	std::vector<rte_mbuf *> receive(unsigned i, size_t want, uint16_t burst = 64,
					int timeout_ms = 5000)
	{
		return gaudi_test::rx_until(port(i), want, timeout_ms, burst);
	}
	/* Send all of pkts, retrying while the ring is full. Returns frames accepted. */
	size_t send_all(unsigned i, std::vector<rte_mbuf *> &pkts, int timeout_ms = 5000)
	{
		return gaudi_test::tx_all(port(i), pkts, timeout_ms, 64);
	}
};

inline uint32_t seq_of(const rte_mbuf *m)
{
	uint32_t s;
	memcpy(&s, rte_pktmbuf_mtod_offset(m, const uint8_t *, 14), 4);
	return s;
}

class Engine : public ::testing::TestWithParam<const char *> {
protected:
	std::string args(const char *wire = "pair", unsigned ports = 2) const
	{
		return std::string("ports=") + std::to_string(ports) + ",wire=" + wire +
		       ",engine=" + GetParam();
	}
};

} /* namespace test_ethdev */

/* As the anonymous namespace the tests were in. */
using namespace test_ethdev;

#endif /* TEST_ETHDEV_H */
