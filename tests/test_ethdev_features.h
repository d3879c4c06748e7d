/* SPDX-License-Identifier: BSD-3-Clause
 * The ethdev features tests' shared rig: EAL once, the Nic (a net_gaudi_emu vdev with its pool),
 * xstats and link readers and the Engine fixture.
 */

#ifndef TEST_ETHDEV_FEATURES_H
#define TEST_ETHDEV_FEATURES_H

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "gaudi_test_eal.h"
#include "base/gaudi_macro.h"
#include "base/gaudi_nic_mem.h"
#include "base/gaudi_regs.h"

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_epoll.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_mbuf.h>

namespace test_ethdev_features {

inline const auto *eal_env = gaudi_test::register_eal_env(new gaudi_test::EalEnv(
	"test_ethdev_features", "1024",
	{"--log-level=pmd.net.gaudi*:critical", "--log-level=lib.ethdev:critical"}));

using gaudi_test::wait_for;

const uint8_t kBcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

class Nic : public gaudi_test::EmuVdev {
public:
	explicit Nic(const std::string &args, unsigned nports = 2, uint16_t data_room = RTE_MBUF_DEFAULT_BUF_SIZE)
		: EmuVdev(gaudi_test::next_emu_instance(), args, nports, 4095, data_room)
	{
	}

	/* Configure + queues (+ start unless start = false). */
	int setup(unsigned i, const rte_eth_conf &conf, bool start = true, uint16_t rxd = 256,
		  const rte_eth_rxconf *rxc = nullptr, const rte_eth_txconf *txc = nullptr)
	{
		uint16_t p = port(i);
		int rc = rte_eth_dev_configure(p, 1, 1, &conf);
		if (rc != 0)
			return rc;
		if ((rc = rte_eth_rx_queue_setup(p, 0, rxd, SOCKET_ID_ANY, rxc, mp_)) != 0)
			return rc;
		if ((rc = rte_eth_tx_queue_setup(p, 0, 256, SOCKET_ID_ANY, txc)) != 0)
			return rc;
		return start ? rte_eth_dev_start(p) : 0;
	}
	int setup(unsigned i) { return setup(i, rte_eth_conf{}); }
	/* Probed, each of the nports ports set up and started (defaults): 0 or the first error. */
	int up(unsigned nports = 2)
	{
		int rc = probe_rc();
		for (unsigned i = 0; rc == 0 && i < nports; i++)
			rc = setup(i);
		return rc;
	}

	rte_mbuf *frame(const std::vector<uint8_t> &bytes)
	{
		rte_mbuf *m = rte_pktmbuf_alloc(mp_);
		if (m != nullptr)
			memcpy(rte_pktmbuf_append(m, bytes.size()), bytes.data(), bytes.size());
		return m;
	}
	/* len bytes to dst, EtherType 0x88b5 (local experimental), pattern payload. */
	rte_mbuf *frame(uint16_t len, const uint8_t *dst = kBcast)
	{
		std::vector<uint8_t> b(len);
		for (uint16_t i = 0; i < len; i++)
			b[i] = uint8_t(i * 3);
		memcpy(b.data(), dst, 6);
		b[12] = 0x88;
		b[13] = 0xb5;
		return frame(b);
	}
	unsigned send(unsigned i, std::vector<rte_mbuf *> pkts)
	{
		size_t done = gaudi_test::tx_all(port(i), pkts, 5000);
		for (size_t k = done; k < pkts.size(); k++)
			rte_pktmbuf_free(pkts[k]);
		return done;
	}
	/* Receive up to want frames, waiting at most ms. */
	std::vector<rte_mbuf *> receive(unsigned i, size_t want, int ms = 300)
	{
		return gaudi_test::rx_until(port(i), want, ms);
	}
	size_t count_rx(unsigned i, size_t want = 64, int ms = 200)
	{
		auto v = receive(i, want, ms);
		for (auto *m : v)
			rte_pktmbuf_free(m);
		return v.size();
	}
};

inline std::map<std::string, uint64_t> xstats(uint16_t port)
{
	std::map<std::string, uint64_t> out;
	int n = rte_eth_xstats_get_names(port, nullptr, 0);
	std::vector<rte_eth_xstat_name> names(n);
	std::vector<rte_eth_xstat> vals(n);
	EXPECT_EQ(rte_eth_xstats_get_names(port, names.data(), n), n);
	EXPECT_EQ(rte_eth_xstats_get(port, vals.data(), n), n);
	for (int i = 0; i < n; i++)
		out[names[vals[i].id].name] = vals[i].value;
	return out;
}

inline uint8_t link_of(uint16_t port)
{
	rte_eth_link l{};
	if (rte_eth_link_get_nowait(port, &l) != 0)
		return RTE_ETH_LINK_DOWN;
	return l.link_status;
}

class Engine : public ::testing::TestWithParam<const char *> {
protected:
	std::string args(const char *wire = "pair") const
	{
		return std::string("ports=2,wire=") + wire + ",engine=" + GetParam();
	}
};

/* ---- Speed capabilities, FW version, burst mode ---- */

} /* namespace test_ethdev_features */

/* As the anonymous namespace the tests were in. */
using namespace test_ethdev_features;

#endif /* TEST_ETHDEV_FEATURES_H */
