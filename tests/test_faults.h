/* SPDX-License-Identifier: BSD-3-Clause
 * The fault tests' shared rig: EAL once, the event recorder, the Nic that sends and accounts
 * sequence-numbered frames, and the Faults fixture (both engines).
 */

#ifndef TEST_FAULTS_H
#define TEST_FAULTS_H

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "gaudi_test_eal.h"

#include <rte_alarm.h>
#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "base/gaudi_nic_mem.h"
#include "rte_pmd_gaudi.h"

namespace test_faults {

using inject_fn = int (*)(uint16_t, enum rte_pmd_gaudi_fault, uint32_t);
using inject_after_fn = int (*)(uint16_t, enum rte_pmd_gaudi_fault, uint64_t, uint32_t);
using stats_fn = int (*)(uint16_t, struct rte_pmd_gaudi_recovery_stats *);
using fw_port_fn = int (*)(uint16_t, struct rte_pmd_gaudi_emu_fw_port *);
inline inject_fn g_inject;
inline inject_after_fn g_inject_after;
inline stats_fn g_stats;
inline fw_port_fn g_fw_port;

class EalEnv : public gaudi_test::EalEnv {
public:
	EalEnv()
		: gaudi_test::EalEnv("test_faults", "1024",
				     {"--log-level=pmd.net.gaudi*:error", "--log-level=lib.ethdev:critical"})
	{
	}

protected:
	void after_init() override
	{
		g_inject = rte_pmd_gaudi_inject_fault;
		g_inject_after = rte_pmd_gaudi_inject_fault_after;
		g_stats = rte_pmd_gaudi_get_recovery_stats;
		g_fw_port = rte_pmd_gaudi_emu_fw_port_get;
	}
};

inline const auto *eal_env = gaudi_test::register_eal_env(new EalEnv);

using gaudi_test::wait_for;

/* vdev names net_gaudi_emu100, 101, ... */
inline std::string next_vdev_name()
{
	return "net_gaudi_emu" + std::to_string(100 + gaudi_test::next_emu_instance());
}

constexpr unsigned kPool = 4095;

struct Events {
	std::atomic<int> lsc_down{0}, lsc_up{0}, reset{0};
};

inline int event_cb(uint16_t port, rte_eth_event_type type, void *arg, void *)
{
	auto *ev = static_cast<Events *>(arg);
	if (type == RTE_ETH_EVENT_INTR_RESET) {
		ev->reset++;
	} else if (type == RTE_ETH_EVENT_INTR_LSC) {
		rte_eth_link l{};
		if (rte_eth_link_get_nowait(port, &l) != 0)
			l.link_status = RTE_ETH_LINK_DOWN;
		(l.link_status ? ev->lsc_up : ev->lsc_down)++;
	}
	return 0;
}

inline std::map<std::string, uint64_t> xstats(uint16_t port)
{
	std::map<std::string, uint64_t> out;
	int n = rte_eth_xstats_get_names(port, nullptr, 0);
	std::vector<rte_eth_xstat_name> names(n);
	std::vector<rte_eth_xstat> vals(n);
	rte_eth_xstats_get_names(port, names.data(), n);
	rte_eth_xstats_get(port, vals.data(), n);
	for (int i = 0; i < n; i++)
		out[names[vals[i].id].name] = vals[i].value;
	return out;
}

/* A 2-port NIC (pair cable): port 0 sends numbered frames, port 1 receives them. */
class Nic : public gaudi_test::EmuVdev {
public:
	explicit Nic(const std::string &args)
	    : EmuVdev(100 + gaudi_test::next_emu_instance(), args, 2, kPool)
	{
	}
	rte_mempool *pool() const { return mp_; }

	/* Probed, both ports set up and started (defaults): 0 or the first error. */
	int up()
	{
		int rc = probe_rc();
		for (unsigned i = 0; rc == 0 && i < 2; i++)
			rc = setup(i);
		return rc;
	}
	int setup(unsigned i, bool lsc = false, uint64_t tx_offloads = 0)
	{
		rte_eth_conf conf{};
		conf.intr_conf.lsc = lsc;
		conf.txmode.offloads = tx_offloads;
		uint16_t p = port(i);
		int rc = rte_eth_dev_configure(p, 1, 1, &conf);
		if (rc == 0)
			rc = rte_eth_rx_queue_setup(p, 0, 1024, SOCKET_ID_ANY, nullptr, mp_);
		if (rc == 0)
			rc = rte_eth_tx_queue_setup(p, 0, 512, SOCKET_ID_ANY, nullptr);
		if (rc == 0)
			rc = rte_eth_dev_start(p);
		return rc;
	}

	/* Frames of seq % long_every == long_phase are 400 bytes (TX zero copy), the others
	 * 128 (bounced: below the 187-byte pad); long_every 0: all 128. */
	uint32_t long_every = 0, long_phase = 0;

	rte_mbuf *frame(uint32_t seq)
	{
		rte_mbuf *m = rte_pktmbuf_alloc(mp_);
		if (m == nullptr)
			return nullptr;
		uint8_t b[400];
		const size_t len = long_every != 0 && seq % long_every == long_phase ? 400 : 128;
		memset(b, 0xff, 6);
		memset(b + 6, 0x02, 6);
		b[12] = 0x88;
		b[13] = 0xb5;
		memcpy(b + 14, &seq, 4);
		for (unsigned i = 18; i < len; i++)
			b[i] = uint8_t(seq + i);
		char *d = rte_pktmbuf_append(m, uint16_t(len));
		if (d != nullptr)
			memcpy(d, b, len);
		return m;
	}

	/* Drain port 1: check the sequence numbers. */
	void receive()
	{
		rte_mbuf *b[64];
		uint16_t n;
		while ((n = rte_eth_rx_burst(port(1), 0, b, 64)) > 0) {
			for (uint16_t i = 0; i < n; i++) {
				uint32_t s;
				memcpy(&s, rte_pktmbuf_mtod_offset(b[i], uint8_t *, 14), 4);
				if (received_ > 0 && s <= last_)
					out_of_order_++;
				last_ = s;
				received_++;
				rte_pktmbuf_free(b[i]);
			}
			quiet_since_ = std::chrono::steady_clock::now();
		}
	}

	/* Send count numbered frames from port 0 in bursts of 32, receiving as we go;
	 * on_burst runs after each burst (fault injection mid-stream). Returns frames the PMD
	 * took. Gives up on a queue that takes nothing for give_up_ms. */
	uint32_t send(uint32_t count, const std::function<void(uint32_t)> &on_burst = nullptr,
		      int give_up_ms = 3000)
	{
		uint32_t taken = 0;
		auto last_progress = std::chrono::steady_clock::now();
		while (taken < count) {
			rte_mbuf *b[32];
			uint16_t k = uint16_t(std::min<uint32_t>(32, count - taken));
			for (uint16_t i = 0; i < k; i++)
				b[i] = frame(next_seq_ + i);
			uint16_t n = rte_eth_tx_burst(port(0), 0, b, k);
			for (uint16_t i = n; i < k; i++)
				rte_pktmbuf_free(b[i]);
			next_seq_ += n;
			taken += n;
			receive();
			if (n > 0)
				last_progress = std::chrono::steady_clock::now();
			else if (std::chrono::steady_clock::now() - last_progress >
				 std::chrono::milliseconds(give_up_ms))
				break;
			if (on_burst)
				on_burst(taken);
		}
		sent_ += taken;
		return taken;
	}
	/* Empty bursts (they finish recoveries) and receive until nothing came for quiet_ms. */
	void settle(int quiet_ms = 200)
	{
		quiet_since_ = std::chrono::steady_clock::now();
		while (std::chrono::steady_clock::now() - quiet_since_ <
		       std::chrono::milliseconds(quiet_ms)) {
			rte_eth_tx_burst(port(0), 0, nullptr, 0);
			receive();
			std::this_thread::sleep_for(std::chrono::microseconds(200));
		}
	}

	uint64_t sent_ = 0, received_ = 0, out_of_order_ = 0;
	uint32_t next_seq_ = 1, last_ = 0;

private:
	std::chrono::steady_clock::time_point quiet_since_;
};

inline rte_pmd_gaudi_recovery_stats rstats(uint16_t port)
{
	rte_pmd_gaudi_recovery_stats s{};
	EXPECT_EQ(g_stats(port, &s), 0);
	return s;
}

inline uint16_t link_status(uint16_t port)
{
	rte_eth_link l{};
	if (rte_eth_link_get_nowait(port, &l) != 0)
		return RTE_ETH_LINK_DOWN;
	return l.link_status;
}

inline rte_eth_stats stats(uint16_t port)
{
	rte_eth_stats s{};
	rte_eth_stats_get(port, &s);
	return s;
}

class Faults : public ::testing::TestWithParam<const char *> {
protected:
	std::string args(const std::string &extra = "") const
	{
		return std::string("ports=2,wire=pair,engine=") + GetParam() +
		       (extra.empty() ? "" : "," + extra);
	}
	/* Every mbuf back in the pool once the ports are closed. */
	static void expect_no_leak(Nic &nic)
	{
		nic.close();
		EXPECT_EQ(rte_mempool_avail_count(nic.pool()), kPool);
	}
};

/* n frames from port 0, with `count` faults of `kind` injected on it once 96 were taken (in
 * flight, mid-run), then settled. */
inline void send_with_fault(Nic &nic, uint32_t n, rte_pmd_gaudi_fault kind, uint32_t count)
{
	nic.send(n, [&](uint32_t taken) {
		if (taken == 96) {
			ASSERT_EQ(g_inject(nic.port(0), kind, count), 0);
		}
	});
	nic.settle();
}

/* Frames received = sent - lost; no duplicate, no reordering. */
inline void expect_accounted(const Nic &nic, uint64_t lost)
{
	EXPECT_EQ(nic.out_of_order_, 0u) << "a frame was received twice or out of order";
	EXPECT_EQ(nic.received_ + lost, nic.sent_)
		<< "received " << nic.received_ << ", lost " << lost << ", sent " << nic.sent_;
}

} /* namespace test_faults */

/* As the anonymous namespace the tests were in. */
using namespace test_faults;

#endif /* TEST_FAULTS_H */
