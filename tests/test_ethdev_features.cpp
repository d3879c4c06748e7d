/* SPDX-License-Identifier: BSD-3-Clause
 * Contract tests of the Gaudi PMD's ethdev features (features matrix rows) through the public
 * rte_eth API on net_gaudi_emu: interrupts, queue start/stop, MAC filters, flow control, FEC,
 * loopback, xstats, module EEPROM, register dump, descriptor status, packet types, bad input.
 */
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

namespace {

const auto *eal_env = gaudi_test::register_eal_env(new gaudi_test::EalEnv(
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

std::map<std::string, uint64_t> xstats(uint16_t port)
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

uint8_t link_of(uint16_t port)
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

TEST(Features, InfoVersionBurstMode)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.probe_rc(), 0);
	rte_eth_dev_info info;
	ASSERT_EQ(rte_eth_dev_info_get(nic.port(0), &info), 0);
	EXPECT_EQ(info.speed_capa, RTE_ETH_LINK_SPEED_100G);
	EXPECT_EQ(info.max_mac_addrs, 16u);
	EXPECT_TRUE(*info.dev_flags & RTE_ETH_DEV_INTR_LSC);
	char fw[32];
	ASSERT_EQ(rte_eth_dev_fw_version_get(nic.port(0), fw, sizeof(fw)), 0);
	EXPECT_STREQ(fw, "emu-0.2.0");
	char small[4];
	EXPECT_EQ(rte_eth_dev_fw_version_get(nic.port(0), small, sizeof(small)), 10);
	ASSERT_EQ(nic.setup(0), 0);
	rte_eth_burst_mode mode;
	ASSERT_EQ(rte_eth_rx_burst_mode_get(nic.port(0), 0, &mode), 0);
	EXPECT_STREQ(mode.info, "Scalar");
	ASSERT_EQ(rte_eth_tx_burst_mode_get(nic.port(0), 0, &mode), 0);
	EXPECT_STREQ(mode.info, "Scalar");
}

/* ---- Extended stats: unique names, size buckets match what was sent ---- */

TEST(Features, XstatsMatchFramesBySize)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.up(), 0);
	int n = rte_eth_xstats_get_names(nic.port(0), nullptr, 0);
	ASSERT_GT(n, 60);
	std::vector<rte_eth_xstat_name> names(n);
	ASSERT_EQ(rte_eth_xstats_get_names(nic.port(0), names.data(), n), n);
	std::set<std::string> uniq;
	for (auto &x : names)
		EXPECT_TRUE(uniq.insert(x.name).second) << "duplicate xstat " << x.name;
	EXPECT_TRUE(uniq.count("rx_good_packets")); /* ethdev's own */
	EXPECT_TRUE(uniq.count("rx_q0_packets"));  /* autofilled per queue */

	/* Frame lengths without FCS: 60 leaves padded to 187 (NIC_SKB_PAD_SIZE) -> 128..255,
	 * 300, 1000, 1400, 1520 (MTU 1500 + 20: VLAN headers fit). */
	const std::map<uint16_t, const char *> sizes = {
		{60, "size_128_to_255_packets"}, {300, "size_256_to_511_packets"},
		{1000, "size_512_to_1023_packets"}, {1400, "size_1024_to_1518_packets"},
		{1520, "size_1519_to_max_packets"}};
	std::vector<rte_mbuf *> tx;
	unsigned k = 1;
	for (auto &[len, name] : sizes) {
		(void)name;
		for (unsigned i = 0; i < k; i++)
			tx.push_back(nic.frame(len));
		k++;
	}
	ASSERT_EQ(nic.send(0, tx), 15u);
	EXPECT_EQ(nic.count_rx(1, 15, 2000), 15u);
	auto t = xstats(nic.port(0)), r = xstats(nic.port(1));
	k = 1;
	for (auto &[len, name] : sizes) {
		EXPECT_EQ(t[std::string("mac_tx_") + name], k) << name;
		EXPECT_EQ(r[std::string("mac_rx_") + name], k) << name;
		k++;
	}
	EXPECT_EQ(t["mac_tx_packets"], 15u);
	EXPECT_EQ(t["mac_tx_broadcast_packets"], 15u);
	EXPECT_EQ(r["mac_rx_good_frames"], 15u);
	EXPECT_EQ(r["rx_good_packets"], 15u);
	EXPECT_EQ(r["rx_fec_corrected_codewords"], 0u);
	EXPECT_EQ(r["rx_fec_uncorrected_codewords"], 0u);
	EXPECT_EQ(t["tx_doorbell_fifo_overruns"], 0u);
	/* 187 (60 padded) + 2*300 + 3*1000 + 4*1400 + 5*1520 bytes + FCS each */
	EXPECT_EQ(r["mac_rx_octets"], 187u + 600 + 3000 + 5600 + 7600 + 15 * 4);
	/* The port's link came up (link_status_events, once its interrupt handler consumed the
	 * event: asynchronous, port 1 sends nothing); its own start is no link regained
	 * (recovery_link_up_events, gaudi_recovery.h). */
	EXPECT_TRUE(wait_for([&] { return xstats(nic.port(1))["link_status_events"] >= 1; }));
	EXPECT_EQ(xstats(nic.port(1))["recovery_link_up_events"], 0u);
	ASSERT_EQ(rte_eth_xstats_reset(nic.port(1)), 0);
	r = xstats(nic.port(1));
	EXPECT_EQ(r["mac_rx_good_frames"], 0u);
	EXPECT_EQ(r["rx_good_packets"], 0u);
	/* The reset clears the macro's MAC counters (STATN_CONFIG.F_RESET): port 0, the sibling,
	 * keeps its counts all the same; and after a reset of its own it counts from 0. */
	EXPECT_EQ(xstats(nic.port(0))["mac_tx_packets"], 15u);
	ASSERT_EQ(nic.send(0, {nic.frame(100)}), 1u);
	EXPECT_EQ(nic.count_rx(1, 1, 2000), 1u);
	EXPECT_EQ(xstats(nic.port(0))["mac_tx_packets"], 16u);
	EXPECT_EQ(xstats(nic.port(1))["mac_rx_good_frames"], 1u);
	ASSERT_EQ(rte_eth_xstats_reset(nic.port(0)), 0);
	EXPECT_EQ(xstats(nic.port(0))["mac_tx_packets"], 0u);
	EXPECT_EQ(xstats(nic.port(1))["mac_rx_good_frames"], 1u);
	/* Every software counter is cleared: the recovery and PHY ones too. */
	for (const char *name : {"recovery_db_rerings", "recovery_qp_resets",
				 "recovery_tx_fault_drops", "recovery_link_down_events",
				 "recovery_link_up_events", "recovery_tx_watchdog",
				 "recovery_reset_events", "phy_reconfigs", "link_status_events"})
		EXPECT_EQ(r[name], 0u) << name;
}

/* ---- Link status event ---- */

std::atomic<int> lsc_events[RTE_MAX_ETHPORTS];
int lsc_cb(uint16_t port, rte_eth_event_type type, void *, void *)
{
	if (type == RTE_ETH_EVENT_INTR_LSC)
		lsc_events[port]++;
	return 0;
}

TEST_P(Engine, LscFiresWhenPeerStops)
{
	Nic nic(args());
	ASSERT_EQ(nic.probe_rc(), 0);
	rte_eth_conf conf{};
	conf.intr_conf.lsc = 1;
	uint16_t p1 = nic.port(1);
	lsc_events[p1] = 0;
	ASSERT_EQ(rte_eth_dev_callback_register(p1, RTE_ETH_EVENT_INTR_LSC, lsc_cb, nullptr), 0);
	ASSERT_EQ(nic.setup(1, conf), 0);
	/* Alone on the cable: no link. */
	EXPECT_EQ(link_of(p1), RTE_ETH_LINK_DOWN);
	ASSERT_EQ(nic.setup(0, conf), 0);
	ASSERT_TRUE(wait_for([&] { return lsc_events[p1] >= 1 && link_of(p1) == RTE_ETH_LINK_UP; }));
	int before = lsc_events[p1];
	ASSERT_EQ(rte_eth_dev_stop(nic.port(0)), 0);
	ASSERT_TRUE(wait_for([&] { return lsc_events[p1] > before; })) << "no LSC on peer stop";
	rte_eth_link l;
	ASSERT_EQ(rte_eth_link_get_nowait(p1, &l), 0);
	EXPECT_EQ(l.link_status, RTE_ETH_LINK_DOWN);
	/* Traffic while up does not break TX completions (one EQ consumer). */
	ASSERT_EQ(rte_eth_dev_start(nic.port(0)), 0);
	ASSERT_TRUE(wait_for([&] { return link_of(p1) == RTE_ETH_LINK_UP; }));
	for (int round = 0; round < 50; round++) {
		std::vector<rte_mbuf *> tx;
		for (int i = 0; i < 32; i++)
			tx.push_back(nic.frame(100));
		ASSERT_EQ(nic.send(0, tx), 32u);
		EXPECT_EQ(nic.count_rx(1, 32, 2000), 32u);
	}
	rte_eth_stats st;
	ASSERT_EQ(rte_eth_stats_get(nic.port(0), &st), 0);
	EXPECT_EQ(st.opackets, 50u * 32);
	rte_eth_dev_callback_unregister(p1, RTE_ETH_EVENT_INTR_LSC, lsc_cb, nullptr);
}

/* ---- Rx interrupt ---- */

TEST_P(Engine, RxInterruptWakesEpoll)
{
	Nic nic(args());
	ASSERT_EQ(nic.probe_rc(), 0);
	rte_eth_conf conf{};
	conf.intr_conf.rxq = 1;
	ASSERT_EQ(nic.setup(0), 0);
	ASSERT_EQ(nic.setup(1, conf), 0);
	uint16_t p1 = nic.port(1);
	ASSERT_EQ(rte_eth_dev_rx_intr_ctl_q(p1, 0, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD, nullptr), 0);
	int fd = rte_eth_dev_rx_intr_ctl_q_get_fd(p1, 0);
	EXPECT_GE(fd, 0);
	rte_epoll_event ev[4];
	for (int round = 0; round < 3; round++) {
		ASSERT_EQ(rte_eth_dev_rx_intr_enable(p1, 0), 0);
		EXPECT_EQ(rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 4, 0), 0) << "round " << round;
		ASSERT_EQ(nic.send(0, {nic.frame(100)}), 1u);
		EXPECT_EQ(rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 4, 2000), 1) << "round " << round;
		ASSERT_EQ(rte_eth_dev_rx_intr_disable(p1, 0), 0);
		EXPECT_EQ(nic.count_rx(1, 1, 2000), 1u);
	}
	/* A frame already waiting when the interrupt is enabled fires at once. */
	ASSERT_EQ(nic.send(0, {nic.frame(100)}), 1u);
	ASSERT_TRUE(wait_for([&] { return rte_eth_rx_queue_count(p1, 0) == 1; }));
	ASSERT_EQ(rte_eth_dev_rx_intr_enable(p1, 0), 0);
	EXPECT_EQ(rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 4, 2000), 1);
	ASSERT_EQ(rte_eth_dev_rx_intr_ctl_q(p1, 0, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_DEL, nullptr), 0);
	/* Port 0 has no rxq interrupt configured. */
	EXPECT_EQ(rte_eth_dev_rx_intr_enable(nic.port(0), 0), -ENOTSUP);
}

INSTANTIATE_TEST_SUITE_P(Gaudi, Engine, ::testing::Values("inline", "thread"));

/* ---- Rx/Tx descriptor status, rx queue count ---- */

TEST(Features, DescriptorStatus)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.up(), 0);
	uint16_t p1 = nic.port(1);
	EXPECT_EQ(rte_eth_rx_queue_count(p1, 0), 0);
	EXPECT_EQ(rte_eth_rx_descriptor_status(p1, 0, 0), RTE_ETH_RX_DESC_AVAIL);
	ASSERT_EQ(nic.send(0, {nic.frame(100), nic.frame(100), nic.frame(100)}), 3u);
	EXPECT_EQ(rte_eth_rx_queue_count(p1, 0), 3);
	for (uint16_t off = 0; off < 3; off++)
		EXPECT_EQ(rte_eth_rx_descriptor_status(p1, 0, off), RTE_ETH_RX_DESC_DONE) << off;
	EXPECT_EQ(rte_eth_rx_descriptor_status(p1, 0, 3), RTE_ETH_RX_DESC_AVAIL);
	EXPECT_EQ(rte_eth_rx_descriptor_status(p1, 0, 255), RTE_ETH_RX_DESC_AVAIL);
	EXPECT_EQ(rte_eth_rx_descriptor_status(p1, 0, 256), -EINVAL);
	EXPECT_EQ(nic.count_rx(1, 3), 3u);
	EXPECT_EQ(rte_eth_rx_queue_count(p1, 0), 0);
	EXPECT_EQ(rte_eth_rx_descriptor_status(p1, 0, 0), RTE_ETH_RX_DESC_AVAIL);
	/* TX: the inline model completes at once, so every slot is DONE again. */
	for (uint16_t off : {0, 100, 255})
		EXPECT_EQ(rte_eth_tx_descriptor_status(nic.port(0), 0, off), RTE_ETH_TX_DESC_DONE);
	EXPECT_EQ(rte_eth_tx_descriptor_status(nic.port(0), 0, 256), -EINVAL);
	ASSERT_EQ(rte_eth_dev_rx_queue_stop(p1, 0), 0);
	EXPECT_EQ(rte_eth_rx_descriptor_status(p1, 0, 0), RTE_ETH_RX_DESC_UNAVAIL);
	ASSERT_EQ(rte_eth_dev_tx_queue_stop(nic.port(0), 0), 0);
	EXPECT_EQ(rte_eth_tx_descriptor_status(nic.port(0), 0, 0), RTE_ETH_TX_DESC_UNAVAIL);
}

/* ---- Module EEPROM ---- */

TEST(Features, ModuleEeprom)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.probe_rc(), 0);
	rte_eth_dev_module_info mi;
	ASSERT_EQ(rte_eth_dev_get_module_info(nic.port(1), &mi), 0);
	EXPECT_EQ(mi.type, uint32_t(RTE_ETH_MODULE_SFF_8636));
	EXPECT_EQ(mi.eeprom_len, uint32_t(RTE_ETH_MODULE_SFF_8636_LEN));
	uint8_t e[256];
	rte_dev_eeprom_info ei{};
	ei.data = e;
	ei.length = sizeof(e);
	ASSERT_EQ(rte_eth_dev_get_module_eeprom(nic.port(1), &ei), 0);
	EXPECT_EQ(e[0], 0x11);   /* QSFP28 */
	EXPECT_EQ(e[128], 0x11);
	EXPECT_EQ(e[192], 0x02); /* 100GBASE-SR4 */
	EXPECT_EQ(std::string(reinterpret_cast<char *>(e + 148), 10), "GAUDI2-EMU");
	EXPECT_EQ(std::string(reinterpret_cast<char *>(e + 196), 16), "EMU0000000000001");
	uint8_t cc = 0;
	for (int i = 128; i < 191; i++)
		cc += e[i];
	EXPECT_EQ(cc, e[191]);
	ei.offset = 250;
	ei.length = 10;
	EXPECT_EQ(rte_eth_dev_get_module_eeprom(nic.port(1), &ei), -EINVAL);
}

/* ---- Registers dump ---- */

TEST(Features, RegisterDump)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.probe_rc(), 0);
	rte_eth_conf conf{};
	conf.rxmode.mtu = 1800;
	ASSERT_EQ(nic.setup(0, conf), 0);
	ASSERT_EQ(nic.setup(1, conf), 0);
	rte_dev_reg_info ri{};
	ASSERT_EQ(rte_eth_dev_get_reg_info(nic.port(1), &ri), 0);
	EXPECT_EQ(ri.width, 4u);
	/* One word per register row of base/gaudi_regs.h, two (the port's lanes) for MAC_PCS and
	 * MAC_128 rows, in table order. */
	namespace reg = gaudi::hw::reg;
	unsigned words = 0, cmd_at = ~0u, frm_at = ~0u, raw_at = ~0u;
	for (const reg::RegRow &row : reg::kRegRows) {
		std::string b = row.block, r = row.reg;
		if (b == "MAC_128" && r == "COMMAND_CONFIG")
			cmd_at = words;
		if (b == "MAC_128" && r == "FRM_LENGTH")
			frm_at = words;
		if (b == "RXB_CORE" && r == "TS_RAW0_MAC_31_0_0")
			raw_at = words;
		words += (b == "MAC_PCS" || b == "MAC_128") ? 2 : 1;
	}
	ASSERT_EQ(ri.length, words);
	std::vector<uint32_t> regs(ri.length);
	ri.data = regs.data();
	ASSERT_EQ(rte_eth_dev_get_reg_info(nic.port(1), &ri), 0);
	EXPECT_EQ(ri.version, (0x1020u << 16) | 2);
	/* Both lanes of the started port: COMMAND_CONFIG 0x2913, FRM_LENGTH 8386 (the MAC
	 * always takes NIC_MAC_MAX_FRM_LEN; the MTU is the driver's to enforce). */
	EXPECT_EQ(regs[cmd_at], 0x2913u);
	EXPECT_EQ(regs[cmd_at + 1], 0x2913u);
	EXPECT_EQ(regs[frm_at], 8386u);
	/* The row holds copy 0 of TS_RAW0: the even port's filter (the odd one is copy 2). */
	rte_ether_addr mac;
	ASSERT_EQ(rte_eth_macaddr_get(nic.port(0), &mac), 0);
	const uint8_t *m = mac.addr_bytes;
	EXPECT_EQ(regs[raw_at], (uint32_t(m[2]) << 24) | (m[3] << 16) | (m[4] << 8) | m[5]);
	/* Only full dumps. */
	ri.length = 5;
	EXPECT_EQ(rte_eth_dev_get_reg_info(nic.port(1), &ri), -ENOTSUP);
}

/* Port start programs the QPC, TXE and AXI users as gaudi2_cn.c config_port_hw_qpc / _txe do
 * (read back through the register dump); stop leaves the doorbell FIFO's CI address cleared
 * (__db_fifo_reset); a restart sets it again and frames move. */
/* A port's register dump (rte_eth_dev_get_reg_info) by "BLOCK.REG" (the rows of reg::kRegRows;
 * a 64-bit MAC counter takes two words). */
std::map<std::string, uint32_t> dumped_regs(uint16_t port)
{
	namespace reg = gaudi::hw::reg;
	std::map<std::string, uint32_t> m;
	rte_dev_reg_info ri{};
	EXPECT_EQ(rte_eth_dev_get_reg_info(port, &ri), 0);
	std::vector<uint32_t> regs(ri.length);
	ri.data = regs.data();
	EXPECT_EQ(rte_eth_dev_get_reg_info(port, &ri), 0);
	unsigned k = 0;
	for (const reg::RegRow &row : reg::kRegRows) {
		std::string b = row.block;
		m[b + "." + row.reg] = regs.at(k);
		k += (b == "MAC_PCS" || b == "MAC_128") ? 2 : 1;
	}
	return m;
}

TEST(Features, PortStartAndStopProgramming)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.up(), 0);
	auto m = dumped_regs(nic.port(1));
	const uint64_t req = gaudi::hw::nicmem::req_qpc_addr(1);
	const uint64_t res = gaudi::hw::nicmem::res_qpc_addr(1);
	EXPECT_EQ(m["QPC.REQ_BASE_ADDRESS_63_32"], uint32_t(req >> 32));
	EXPECT_EQ(m["QPC.REQ_BASE_ADDRESS_31_7"], uint32_t(req) >> 7);
	EXPECT_EQ(m["QPC.RES_BASE_ADDRESS_63_32"], uint32_t(res >> 32));
	EXPECT_EQ(m["QPC.RES_BASE_ADDRESS_31_7"], uint32_t(res) >> 7);
	for (const char *b :
	     {"QPC_AXUSER_DB_FIFO", "QPC_AXUSER_ERR_FIFO", "QPC_AXUSER_QPC_REQ",
	      "QPC_AXUSER_QPC_RESP", "QPC_AXUSER_CONG_QUE", "QPC_AXUSER_EV_QUE_LBW_INTR"}) {
		EXPECT_EQ(m[std::string(b) + ".HB_WR_OVRD_LO"], 0xFFFFFBFFu) << b;
		EXPECT_EQ(m[std::string(b) + ".HB_RD_OVRD_LO"], 0xFFFFFBFFu) << b;
	}
	EXPECT_EQ(m["RXE_AXUSER_AXUSER_CQ0.HB_WR_OVRD_LO"], 0xFFFFFBFFu);
	EXPECT_EQ(m["RXE_AXUSER_AXUSER_CQ1.HB_WR_OVRD_LO"], 0xFFFFFBFFu);
	EXPECT_EQ(m["TXE.PRIO_TO_DSCP_0"], 0x18100000u);
	EXPECT_EQ(m["RXE.ARUSER_MMU_BP"], 1u);
	EXPECT_NE(m["QPC_DBFIFOSECUR_CI_UPD_ADDR.DBFIFO_CI_UPD_ADDR_31_7"], 0u);

	ASSERT_EQ(rte_eth_dev_stop(nic.port(1)), 0);
	m = dumped_regs(nic.port(1));
	EXPECT_EQ(m["QPC_DBFIFOSECUR_CI_UPD_ADDR.DBFIFO_CI_UPD_ADDR_31_7"], 0u);
	EXPECT_EQ(m["QPC_DBFIFOSECUR_CI_UPD_ADDR.DBFIFO_CI_UPD_ADDR_63_32"], 0u);

	ASSERT_EQ(rte_eth_dev_start(nic.port(1)), 0);
	m = dumped_regs(nic.port(1));
	EXPECT_NE(m["QPC_DBFIFOSECUR_CI_UPD_ADDR.DBFIFO_CI_UPD_ADDR_31_7"], 0u);
	/* The restarted port sends (its doorbell CI comes back) and receives. */
	for (unsigned from : {1u, 0u}) {
		unsigned to = 1 - from;
		std::vector<rte_mbuf *> pkts;
		for (int i = 0; i < 4; i++)
			pkts.push_back(nic.frame(200));
		EXPECT_EQ(nic.send(from, pkts), 4u);
		auto got = nic.receive(to, 4, 2000);
		EXPECT_EQ(got.size(), 4u) << "port " << from << " to " << to;
		gaudi_test::free_all(got);
	}
}

/* ---- FEC ---- */

TEST(Features, FecRoundTripAndMismatchDropsLink)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.probe_rc(), 0);
	rte_eth_fec_capa capa[4];
	ASSERT_EQ(rte_eth_fec_get_capability(nic.port(0), capa, 4), 1);
	EXPECT_EQ(capa[0].speed, RTE_ETH_SPEED_NUM_100G);
	EXPECT_EQ(capa[0].capa, RTE_ETH_FEC_MODE_CAPA_MASK(NOFEC) | RTE_ETH_FEC_MODE_CAPA_MASK(RS));
	uint32_t fec = 0;
	ASSERT_EQ(rte_eth_fec_get(nic.port(0), &fec), 0);
	EXPECT_EQ(fec, RTE_ETH_FEC_MODE_CAPA_MASK(RS));
	ASSERT_EQ(nic.setup(0), 0);
	ASSERT_EQ(nic.setup(1), 0);
	EXPECT_EQ(link_of(nic.port(0)), RTE_ETH_LINK_UP);
	ASSERT_EQ(rte_eth_fec_set(nic.port(0), RTE_ETH_FEC_MODE_CAPA_MASK(NOFEC)), 0);
	ASSERT_EQ(rte_eth_fec_get(nic.port(0), &fec), 0);
	EXPECT_EQ(fec, RTE_ETH_FEC_MODE_CAPA_MASK(NOFEC));
	EXPECT_EQ(link_of(nic.port(0)), RTE_ETH_LINK_DOWN);
	EXPECT_EQ(link_of(nic.port(1)), RTE_ETH_LINK_DOWN);
	ASSERT_EQ(rte_eth_fec_set(nic.port(1), RTE_ETH_FEC_MODE_CAPA_MASK(NOFEC)), 0);
	EXPECT_EQ(link_of(nic.port(0)), RTE_ETH_LINK_UP);
	ASSERT_EQ(rte_eth_fec_set(nic.port(0), RTE_ETH_FEC_MODE_CAPA_MASK(AUTO)), 0);
	ASSERT_EQ(rte_eth_fec_get(nic.port(0), &fec), 0);
	EXPECT_EQ(fec, RTE_ETH_FEC_MODE_CAPA_MASK(RS));
	EXPECT_EQ(rte_eth_fec_set(nic.port(0), RTE_ETH_FEC_MODE_CAPA_MASK(BASER)), -EINVAL);
	EXPECT_EQ(rte_eth_fec_set(nic.port(0), RTE_ETH_FEC_MODE_CAPA_MASK(RS) |
						  RTE_ETH_FEC_MODE_CAPA_MASK(NOFEC)), -EINVAL);
	ASSERT_EQ(rte_eth_fec_get(nic.port(0), &fec), 0);
	EXPECT_EQ(fec, RTE_ETH_FEC_MODE_CAPA_MASK(RS)); /* refused sets change nothing */
}

/* ---- MAC loopback (lpbk_mode) ---- */

TEST(Features, PcsLoopbackReturnsFramesToSender)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.probe_rc(), 0);
	rte_eth_conf conf{};
	conf.lpbk_mode = 1;
	ASSERT_EQ(nic.setup(0, conf), 0);
	EXPECT_EQ(link_of(nic.port(0)), RTE_ETH_LINK_UP); /* no peer needed */
	ASSERT_EQ(nic.setup(1), 0);
	ASSERT_EQ(nic.send(0, {nic.frame(200), nic.frame(300)}), 2u);
	EXPECT_EQ(nic.count_rx(0, 2), 2u);
	EXPECT_EQ(nic.count_rx(1, 2, 50), 0u);
	conf.lpbk_mode = 2;
	ASSERT_EQ(rte_eth_dev_stop(nic.port(0)), 0);
	EXPECT_EQ(rte_eth_dev_configure(nic.port(0), 1, 1, &conf), -EINVAL);
}

/* ---- Unicast and multicast MAC filters ---- */

TEST(Features, UnicastAndMulticastFilters)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.up(), 0);
	uint16_t p1 = nic.port(1);
	ASSERT_EQ(rte_eth_promiscuous_disable(p1), 0);
	ASSERT_EQ(rte_eth_allmulticast_disable(p1), 0);
	rte_ether_addr extra = {{0x02, 0, 0, 0, 0, 0x55}};
	auto try_to = [&](const uint8_t *dst) {
		EXPECT_EQ(nic.send(0, {nic.frame(100, dst)}), 1u);
		return nic.count_rx(1, 1, 50);
	};
	EXPECT_EQ(try_to(extra.addr_bytes), 0u);
	ASSERT_EQ(rte_eth_dev_mac_addr_add(p1, &extra, 0), 0);
	EXPECT_EQ(try_to(extra.addr_bytes), 1u);
	ASSERT_EQ(rte_eth_dev_mac_addr_remove(p1, &extra), 0);
	EXPECT_EQ(try_to(extra.addr_bytes), 0u);
	/* 15 extra entries fit, the 16th does not. */
	for (uint8_t i = 0; i < 15; i++) {
		rte_ether_addr a = {{0x02, 0, 0, 0, 1, i}};
		ASSERT_EQ(rte_eth_dev_mac_addr_add(p1, &a, 0), 0) << int(i);
	}
	EXPECT_EQ(try_to((const uint8_t[]){0x02, 0, 0, 0, 1, 14}), 1u);
	EXPECT_EQ(rte_eth_dev_mac_addr_add(p1, &extra, 0), -ENOSPC);
	/* Filters survive stop/start. */
	ASSERT_EQ(rte_eth_dev_stop(p1), 0);
	ASSERT_EQ(rte_eth_dev_start(p1), 0);
	EXPECT_EQ(try_to((const uint8_t[]){0x02, 0, 0, 0, 1, 7}), 1u);

	rte_ether_addr mc[2] = {{{0x01, 0x00, 0x5e, 0, 0, 1}}, {{0x33, 0x33, 0, 0, 0, 1}}};
	const uint8_t other_mc[6] = {0x01, 0x00, 0x5e, 0, 0, 2};
	EXPECT_EQ(try_to(mc[0].addr_bytes), 0u);
	ASSERT_EQ(rte_eth_dev_set_mc_addr_list(p1, mc, 2), 0);
	EXPECT_EQ(try_to(mc[0].addr_bytes), 1u);
	EXPECT_EQ(try_to(mc[1].addr_bytes), 1u);
	EXPECT_EQ(try_to(other_mc), 0u);
	ASSERT_EQ(rte_eth_allmulticast_enable(p1), 0);
	EXPECT_EQ(try_to(other_mc), 1u);
	ASSERT_EQ(rte_eth_allmulticast_disable(p1), 0);
	std::vector<rte_ether_addr> many(33, mc[0]);
	EXPECT_EQ(rte_eth_dev_set_mc_addr_list(p1, many.data(), 33), -ENOSPC);
	EXPECT_EQ(try_to(mc[1].addr_bytes), 1u); /* refused list changed nothing */
	EXPECT_EQ(rte_eth_dev_set_mc_addr_list(p1, &extra, 1), -EINVAL);
	ASSERT_EQ(rte_eth_dev_set_mc_addr_list(p1, nullptr, 0), 0);
	EXPECT_EQ(try_to(mc[0].addr_bytes), 0u);
}

/* ---- Queue start/stop, deferred start ---- */

TEST(Features, QueueStartStopAndDeferredStart)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.probe_rc(), 0);
	ASSERT_EQ(nic.setup(0), 0);
	rte_eth_rxconf rxc{};
	rxc.rx_deferred_start = 1;
	ASSERT_EQ(nic.setup(1, rte_eth_conf{}, true, 256, &rxc), 0);
	uint16_t p0 = nic.port(0), p1 = nic.port(1);
	ASSERT_EQ(nic.send(0, {nic.frame(100)}), 1u);
	EXPECT_EQ(nic.count_rx(1, 1, 50), 0u); /* deferred: not started */
	ASSERT_EQ(rte_eth_dev_rx_queue_start(p1, 0), 0);
	ASSERT_EQ(nic.send(0, {nic.frame(100)}), 1u);
	EXPECT_EQ(nic.count_rx(1, 1), 1u);
	/* Frames that arrive while the queue is stopped are not returned. */
	ASSERT_EQ(rte_eth_dev_rx_queue_stop(p1, 0), 0);
	ASSERT_EQ(nic.send(0, {nic.frame(100), nic.frame(100)}), 2u);
	EXPECT_EQ(nic.count_rx(1, 2, 50), 0u);
	ASSERT_EQ(rte_eth_dev_rx_queue_start(p1, 0), 0);
	EXPECT_EQ(nic.count_rx(1, 2, 50), 0u);
	ASSERT_EQ(nic.send(0, {nic.frame(100)}), 1u);
	EXPECT_EQ(nic.count_rx(1, 1), 1u);
	/* TX stop: tx_burst takes nothing; start again sends. */
	ASSERT_EQ(rte_eth_dev_tx_queue_stop(p0, 0), 0);
	rte_mbuf *m = nic.frame(100);
	EXPECT_EQ(rte_eth_tx_burst(p0, 0, &m, 1), 0);
	ASSERT_EQ(rte_eth_dev_tx_queue_start(p0, 0), 0);
	EXPECT_EQ(rte_eth_tx_burst(p0, 0, &m, 1), 1);
	EXPECT_EQ(nic.count_rx(1, 1), 1u);
	/* Many frames after a restart: completions and ring indices start over correctly. */
	for (int round = 0; round < 20; round++) {
		std::vector<rte_mbuf *> tx;
		for (int i = 0; i < 32; i++)
			tx.push_back(nic.frame(64));
		ASSERT_EQ(nic.send(0, tx), 32u);
		ASSERT_EQ(nic.count_rx(1, 32, 2000), 32u);
	}
}

/* ---- MTU on a started port, configure-time MTU, scattered Rx ---- */

TEST(Features, MtuUpdate)
{
	Nic nic("ports=2", 2, 4096 + RTE_PKTMBUF_HEADROOM);
	ASSERT_EQ(nic.up(), 0);
	/* MTU 1500: slots of 2 KB; 2000 fits them, so a started port takes it. */
	ASSERT_EQ(nic.send(0, {nic.frame(2000 + 18)}), 1u);
	EXPECT_EQ(nic.count_rx(1, 1, 50), 0u);
	ASSERT_EQ(rte_eth_dev_set_mtu(nic.port(0), 2000), 0);
	ASSERT_EQ(rte_eth_dev_set_mtu(nic.port(1), 2000), 0);
	ASSERT_EQ(nic.send(0, {nic.frame(2000 + 18)}), 1u);
	EXPECT_EQ(nic.count_rx(1, 1), 1u);
	EXPECT_EQ(rte_eth_dev_set_mtu(nic.port(1), 4000), -EBUSY); /* slots too small */
	EXPECT_EQ(rte_eth_dev_set_mtu(nic.port(1), 9000), -EINVAL);
	EXPECT_EQ(rte_eth_dev_set_mtu(nic.port(1), 997), -EINVAL); /* NIC_RAW_MIN_MTU 998 */
	uint16_t mtu = 0;
	ASSERT_EQ(rte_eth_dev_get_mtu(nic.port(1), &mtu), 0);
	EXPECT_EQ(mtu, 2000);
	/* Stopped: any MTU in range; the next start rebuilds the slots. */
	ASSERT_EQ(rte_eth_dev_stop(nic.port(1)), 0);
	ASSERT_EQ(rte_eth_dev_set_mtu(nic.port(1), 4000), 0);
	ASSERT_EQ(rte_eth_dev_start(nic.port(1)), 0);
	ASSERT_EQ(rte_eth_dev_stop(nic.port(0)), 0);
	rte_eth_conf conf{};
	conf.rxmode.mtu = 4000; /* at configure time */
	ASSERT_EQ(nic.setup(0, conf), 0);
	ASSERT_EQ(nic.send(0, {nic.frame(4000 + 18)}), 1u);
	EXPECT_EQ(nic.count_rx(1, 1), 1u);
}

/* ---- Packet types ---- */

std::vector<uint8_t> pkt(std::initializer_list<uint8_t> l3up, uint16_t et, std::vector<uint16_t> tags = {})
{
	std::vector<uint8_t> b = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1};
	for (uint16_t t : tags) {
		b.push_back(t >> 8);
		b.push_back(t & 0xff);
		b.push_back(0);
		b.push_back(1);
	}
	b.push_back(et >> 8);
	b.push_back(et & 0xff);
	b.insert(b.end(), l3up);
	b.resize(std::max<size_t>(b.size() + 8, 100));
	return b;
}

TEST(Features, PacketTypes)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.up(), 0);
	uint32_t ptypes[32];
	int n = rte_eth_dev_get_supported_ptypes(nic.port(1), RTE_PTYPE_ALL_MASK, ptypes, 32);
	ASSERT_GT(n, 10);
	const std::vector<std::pair<std::vector<uint8_t>, uint32_t>> cases = {
		{pkt({0x45, 0, 0, 40, 0, 0, 0x40, 0, 64, 6}, 0x0800),
		 RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_TCP},
		{pkt({0x46, 0, 0, 40, 0, 0, 0x00, 0, 64, 17}, 0x0800),
		 RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT | RTE_PTYPE_L4_UDP},
		{pkt({0x45, 0, 0, 40, 0, 0, 0x20, 0, 64, 17}, 0x0800),
		 RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_FRAG},
		{pkt({0x45, 0, 0, 40, 0, 0, 0, 0, 64, 1}, 0x0800, {0x8100}),
		 RTE_PTYPE_L2_ETHER_VLAN | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_ICMP},
		{pkt({0x45, 0, 0, 40, 0, 0, 0, 0, 64, 132}, 0x0800, {0x88a8, 0x8100}),
		 RTE_PTYPE_L2_ETHER_QINQ | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_SCTP},
		{pkt({0x60, 0, 0, 0, 0, 8, 17, 64}, 0x86dd),
		 RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6 | RTE_PTYPE_L4_UDP},
		{pkt({0x60, 0, 0, 0, 0, 8, 44, 64}, 0x86dd),
		 RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT | RTE_PTYPE_L4_FRAG},
		{pkt({0, 1}, 0x0806), RTE_PTYPE_L2_ETHER_ARP},
		{pkt({}, 0x88b5), RTE_PTYPE_L2_ETHER},
	};
	/* IPv6 + hop-by-hop (8 bytes) + TCP. */
	auto v6ext = pkt({0x60, 0, 0, 0, 0, 28, 0, 64}, 0x86dd);
	v6ext[14 + 40] = 6;
	v6ext[14 + 41] = 0;
	for (auto &[bytes, want] : cases) {
		ASSERT_EQ(nic.send(0, {nic.frame(bytes)}), 1u);
		auto rx = nic.receive(1, 1);
		ASSERT_EQ(rx.size(), 1u);
		EXPECT_EQ(rx[0]->packet_type, want) << std::hex << want;
		rte_pktmbuf_free(rx[0]);
	}
	ASSERT_EQ(nic.send(0, {nic.frame(v6ext)}), 1u);
	auto rx = nic.receive(1, 1);
	ASSERT_EQ(rx.size(), 1u);
	EXPECT_EQ(rx[0]->packet_type, RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT | RTE_PTYPE_L4_TCP);
	rte_pktmbuf_free(rx[0]);
}

/* rte_eth_dev_set_ptypes: only the families asked for are reported; none skips the parse
 * (testpmd asks for none at port start). */
TEST(Features, PacketTypesOnRequest)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.up(), 0);
	const auto tcp4 = pkt({0x45, 0, 0, 40, 0, 0, 0x40, 0, 64, 6}, 0x0800);
	auto type_of_one = [&]() {
		EXPECT_EQ(nic.send(0, {nic.frame(tcp4)}), 1u);
		auto rx = nic.receive(1, 1);
		EXPECT_EQ(rx.size(), 1u);
		if (rx.empty())
			return ~0u;
		uint32_t t = rx[0]->packet_type;
		rte_pktmbuf_free(rx[0]);
		return t;
	};
	uint32_t set[16];
	ASSERT_GE(rte_eth_dev_set_ptypes(nic.port(1), RTE_PTYPE_L2_MASK | RTE_PTYPE_L3_MASK, set,
					 16), 0);
	EXPECT_EQ(type_of_one(), RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4);
	ASSERT_EQ(rte_eth_dev_set_ptypes(nic.port(1), RTE_PTYPE_UNKNOWN, nullptr, 0), 0);
	EXPECT_EQ(type_of_one(), RTE_PTYPE_UNKNOWN);
	/* Kept across a port reset, as the application's other settings are. */
	ASSERT_EQ(rte_eth_dev_reset(nic.port(1)), 0);
	ASSERT_EQ(nic.setup(1), 0);
	EXPECT_EQ(type_of_one(), RTE_PTYPE_UNKNOWN);
	ASSERT_GE(rte_eth_dev_set_ptypes(nic.port(1), RTE_PTYPE_ALL_MASK, set, 16), 0);
	EXPECT_EQ(type_of_one(), RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_TCP);
}

/* ---- Flow control / PFC ---- */

/* One register of a port's dump (rte_eth_dev_get_reg_info), by "BLOCK.REG". */
uint32_t dumped_reg(uint16_t port, const std::string &key)
{
	auto m = dumped_regs(port);
	auto it = m.find(key);
	if (it != m.end())
		return it->second;
	ADD_FAILURE() << key << " not in the dump";
	return 0;
}

TEST(Features, FlowControlConfigAndPauseCounters)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.up(), 0);
	uint16_t p1 = nic.port(1);
	rte_eth_fc_conf fc{};
	ASSERT_EQ(rte_eth_dev_flow_ctrl_get(p1, &fc), 0);
	/* hbl_cn's: PAUSE sent from the RXB's XOFF 714 / XON 648, PAUSE received ignored. */
	EXPECT_EQ(fc.mode, RTE_ETH_FC_TX_PAUSE);
	EXPECT_EQ(fc.high_water, 714u);
	EXPECT_EQ(fc.low_water, 648u);
	EXPECT_EQ(fc.pause_time, 0xFFFF);
	/* TX pause off: both thresholds past any fill; GLOBAL_PAUSE stays 0 throughout. */
	fc.mode = RTE_ETH_FC_RX_PAUSE;
	ASSERT_EQ(rte_eth_dev_flow_ctrl_set(p1, &fc), 0);
	EXPECT_EQ(dumped_reg(p1, "RXB_CORE.XOFF_THRESHOLD_0"), 0x1FFFu | 0x1FFFu << 13);
	EXPECT_EQ(dumped_reg(p1, "RXB_CORE.XON_THRESHOLD_0"), 0x1FFFu | 0x1FFFu << 13);
	EXPECT_EQ(dumped_reg(p1, "TXB.GLOBAL_PAUSE"), 0u);
	fc.mode = RTE_ETH_FC_FULL;
	fc.high_water = 1000;
	fc.low_water = 500;
	fc.pause_time = 0x100;
	ASSERT_EQ(rte_eth_dev_flow_ctrl_set(p1, &fc), 0);
	rte_eth_fc_conf got{};
	ASSERT_EQ(rte_eth_dev_flow_ctrl_get(p1, &got), 0);
	EXPECT_EQ(got.mode, RTE_ETH_FC_FULL);
	EXPECT_EQ(got.high_water, 1000u);
	EXPECT_EQ(got.low_water, 500u);
	EXPECT_EQ(dumped_reg(p1, "RXB_CORE.XOFF_THRESHOLD_0"), 1000u | 1000u << 13);
	EXPECT_EQ(dumped_reg(p1, "TXB.GLOBAL_PAUSE"), 0u);
	EXPECT_EQ(got.pause_time, 0x100);
	/* Flow control survives stop/start (MAC re-enable keeps it). */
	ASSERT_EQ(rte_eth_dev_stop(p1), 0);
	ASSERT_EQ(rte_eth_dev_start(p1), 0);
	ASSERT_EQ(rte_eth_dev_flow_ctrl_get(p1, &got), 0);
	EXPECT_EQ(got.mode, RTE_ETH_FC_FULL);
	fc.high_water = 1375; /* past the RXB's drop threshold: it would drop before XOFF */
	EXPECT_EQ(rte_eth_dev_flow_ctrl_set(p1, &fc), -EINVAL);
	fc.high_water = 1000;
	fc.autoneg = 1;
	EXPECT_EQ(rte_eth_dev_flow_ctrl_set(p1, &fc), -EINVAL);
	fc.autoneg = 0;

	rte_eth_pfc_conf pfc{};
	pfc.fc = fc;
	pfc.priority = 4;
	EXPECT_EQ(rte_eth_dev_priority_flow_ctrl_set(p1, &pfc), -EINVAL);
	pfc.priority = 3;
	ASSERT_EQ(rte_eth_dev_priority_flow_ctrl_set(p1, &pfc), 0);
	ASSERT_EQ(rte_eth_dev_flow_ctrl_get(p1, &got), 0);
	EXPECT_EQ(got.mode, RTE_ETH_FC_NONE); /* PFC replaces link-level pause */

	/* PAUSE (opcode 1) and PFC (0x0101, classes 0 and 2) frames: counted, not delivered. */
	std::vector<uint8_t> pause = {0x01, 0x80, 0xc2, 0, 0, 0x01, 2, 0, 0, 0, 0, 1, 0x88, 0x08,
				      0x00, 0x01, 0x00, 0x10};
	pause.resize(60);
	std::vector<uint8_t> pfcf = pause;
	pfcf[14] = 0x01;
	pfcf[15] = 0x01;
	pfcf[16] = 0x00;
	pfcf[17] = 0x05;
	ASSERT_EQ(nic.send(0, {nic.frame(pause), nic.frame(pfcf)}), 2u);
	EXPECT_EQ(nic.count_rx(1, 2, 50), 0u);
	auto r = xstats(p1), t = xstats(nic.port(0));
	EXPECT_EQ(r["mac_rx_pause_frames"], 1u);
	EXPECT_EQ(r["mac_rx_pfc_prio0_pause_frames"], 1u);
	EXPECT_EQ(r["mac_rx_pfc_prio1_pause_frames"], 0u);
	EXPECT_EQ(r["mac_rx_pfc_prio2_pause_frames"], 1u);
	EXPECT_EQ(t["mac_tx_pause_frames"], 1u);
	EXPECT_EQ(t["mac_tx_pfc_prio2_pause_frames"], 1u);
	/* mac_ctrl_frame_fwd passes them up (to 01:80:c2:00:00:01: multicast, so allmulti). */
	ASSERT_EQ(rte_eth_allmulticast_enable(p1), 0);
	fc.mac_ctrl_frame_fwd = 1;
	ASSERT_EQ(rte_eth_dev_flow_ctrl_set(p1, &fc), 0);
	ASSERT_EQ(nic.send(0, {nic.frame(pause)}), 1u);
	EXPECT_EQ(nic.count_rx(1, 1), 1u);
}

/* ---- Flow control on the cable: PAUSE back-pressure (pair, loopback, PCS loopback) ---- */

class FlowCtl : public ::testing::TestWithParam<const char *> {
protected:
	/* A 100 ms TX watchdog: a legitimately paused TX must not trip it. */
	std::string args(const char *wire = "pair") const
	{
		return std::string("ports=2,tx_watchdog_ms=100,wire=") + wire + ",engine=" + GetParam();
	}
};

int fc_resets = 0;
int fc_reset_cb(uint16_t, rte_eth_event_type type, void *, void *)
{
	if (type == RTE_ETH_EVENT_INTR_RESET)
		fc_resets++;
	return 0;
}

/* Flow-control frames: 1000 bytes, 8 of the RXB's 128-byte buffers each. */
constexpr uint32_t kFcLen = 1000, kFcBuffers = (kFcLen + 127) / 128;

std::vector<uint8_t> seq_frame(uint32_t seq, uint32_t len = kFcLen)
{
	std::vector<uint8_t> b(len, 0);
	memcpy(b.data(), kBcast, 6);
	b[6] = 0x02;
	b[12] = 0x88;
	b[13] = 0xb5;
	memcpy(&b[14], &seq, sizeof(seq));
	return b;
}

int set_fc(uint16_t port, rte_eth_fc_mode mode, bool pfc = false)
{
	rte_eth_fc_conf fc{};
	fc.mode = mode;
	fc.high_water = gaudi::hw::macro::kRxbXoffTh; /* hbl_cn's 714 / 648 */
	fc.low_water = gaudi::hw::macro::kRxbXonTh;
	fc.pause_time = 0x100;
	if (!pfc)
		return rte_eth_dev_flow_ctrl_set(port, &fc);
	rte_eth_pfc_conf pf{};
	pf.fc = fc;
	pf.priority = 0;
	return rte_eth_dev_priority_flow_ctrl_set(port, &pf);
}

/* Port tx sends n numbered frames to port rx: for 400 ms without receiving anything (the
 * sender's ring may take only part), then receiving while sending the rest, until all is
 * received or nothing moves for 300 ms. Returns the sequence numbers received, in order. */
std::vector<uint32_t> fc_run(Nic &nic, unsigned tx, unsigned rx, uint32_t n)
{
	std::vector<uint32_t> got;
	uint32_t sent = 0;
	auto push = [&] {
		rte_mbuf *b[32];
		uint16_t k = 0;
		while (k < 32 && sent + k < n) {
			b[k] = nic.frame(seq_frame(sent + k));
			k++;
		}
		uint16_t done = k == 0 ? 0 : rte_eth_tx_burst(nic.port(tx), 0, b, k);
		for (uint16_t i = done; i < k; i++)
			rte_pktmbuf_free(b[i]);
		sent += done;
		return done;
	};
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(400);
	while (std::chrono::steady_clock::now() < end)
		if (push() == 0)
			std::this_thread::sleep_for(std::chrono::milliseconds(1));
	auto idle_since = std::chrono::steady_clock::now();
	while (!(sent == n && got.size() == n) &&
	       std::chrono::steady_clock::now() - idle_since < std::chrono::milliseconds(300)) {
		rte_mbuf *b[32];
		uint16_t k = rte_eth_rx_burst(nic.port(rx), 0, b, 32);
		for (uint16_t i = 0; i < k; i++) {
			uint32_t seq = UINT32_MAX;
			if (rte_pktmbuf_pkt_len(b[i]) >= 18)
				memcpy(&seq, rte_pktmbuf_mtod_offset(b[i], const uint8_t *, 14), 4);
			got.push_back(seq);
			rte_pktmbuf_free(b[i]);
		}
		if (k + push() != 0)
			idle_since = std::chrono::steady_clock::now();
	}
	EXPECT_EQ(sent, n) << "the sender could not send everything";
	return got;
}

bool in_order(const std::vector<uint32_t> &got)
{
	for (size_t i = 0; i < got.size(); i++)
		if (got[i] != i)
			return false;
	return true;
}

uint64_t imissed(uint16_t port)
{
	rte_eth_stats st{};
	EXPECT_EQ(rte_eth_stats_get(port, &st), 0);
	return st.imissed;
}

constexpr uint32_t kFcRing = 64, kFcFrames = 10 * kFcRing;
/* Frames the receiver's RXB holds behind its full CQ before it drops: admitted while its fill is
 * below DROP_THRESHOLD (1374 buffers, gaudi2_cn_config_hw_rxb). */
constexpr uint32_t kFcRxbHeld = (gaudi::hw::macro::kRxbDropTh + kFcBuffers - 1) / kFcBuffers;
static_assert(kFcRxbHeld == 172 && kFcRing + kFcRxbHeld < kFcFrames);

/* Receiver with flow control and a 64-entry ring, sender honouring PAUSE: lossless. */
TEST_P(FlowCtl, PauseIsLosslessOnPair)
{
	for (bool pfc : {false, true}) {
		SCOPED_TRACE(pfc ? "PFC" : "link pause");
		Nic nic(args());
		ASSERT_EQ(nic.probe_rc(), 0);
		fc_resets = 0;
		ASSERT_EQ(rte_eth_dev_callback_register(nic.port(0), RTE_ETH_EVENT_INTR_RESET,
							fc_reset_cb, nullptr), 0);
		ASSERT_EQ(nic.setup(0), 0);
		ASSERT_EQ(nic.setup(1, rte_eth_conf{}, true, kFcRing), 0);
		ASSERT_EQ(set_fc(nic.port(0), RTE_ETH_FC_FULL, pfc), 0);
		ASSERT_EQ(set_fc(nic.port(1), RTE_ETH_FC_FULL, pfc), 0);
		ASSERT_TRUE(wait_for([&] { return link_of(nic.port(0)) == RTE_ETH_LINK_UP; }));
		auto got = fc_run(nic, 0, 1, kFcFrames);
		EXPECT_EQ(got.size(), kFcFrames);
		EXPECT_TRUE(in_order(got));
		EXPECT_EQ(imissed(nic.port(1)), 0u);
		auto r = xstats(nic.port(1)), t = xstats(nic.port(0));
		if (!pfc) {
			EXPECT_GT(r["mac_tx_pause_frames"], 0u);
			EXPECT_EQ(t["mac_rx_pause_frames"], r["mac_tx_pause_frames"]);
		} else {
			EXPECT_EQ(r["mac_tx_pause_frames"], 0u);
			for (int c = 0; c < 4; c++) { /* all 4 priorities, paused together */
				std::string k = "_pfc_prio" + std::to_string(c) + "_pause_frames";
				EXPECT_GT(r["mac_tx" + k], 0u) << c;
				EXPECT_EQ(t["mac_rx" + k], r["mac_tx" + k]) << c;
			}
			EXPECT_EQ(r["mac_tx_pfc_prio4_pause_frames"], 0u);
		}
		EXPECT_EQ(t["mac_tx_good_frames"], kFcFrames);
		EXPECT_EQ(fc_resets, 0) << "TX watchdog fired while paused by the peer";
		rte_eth_dev_callback_unregister(nic.port(0), RTE_ETH_EVENT_INTR_RESET, fc_reset_cb,
						nullptr);
	}
}

/* Without TX pause on the receiver, or with a sender that ignores PAUSE, the frames a full CQ
 * cannot take wait in the RXB until its drop threshold, then drop (imissed); a CQ's worth and
 * the RXB's arrive, in order. */
TEST_P(FlowCtl, NoPauseDrops)
{
	for (int c = 0; c < 2; c++) {
		bool rx_fc = c == 1; /* 0: receiver without FC; 1: sender ignores PAUSE */
		SCOPED_TRACE(rx_fc ? "sender ignores PAUSE" : "receiver without flow control");
		Nic nic(args());
		ASSERT_EQ(nic.probe_rc(), 0);
		ASSERT_EQ(nic.setup(0), 0);
		ASSERT_EQ(nic.setup(1, rte_eth_conf{}, true, kFcRing), 0);
		ASSERT_EQ(set_fc(nic.port(0), rx_fc ? RTE_ETH_FC_TX_PAUSE : RTE_ETH_FC_FULL), 0);
		ASSERT_EQ(set_fc(nic.port(1), rx_fc ? RTE_ETH_FC_FULL : RTE_ETH_FC_RX_PAUSE), 0);
		ASSERT_TRUE(wait_for([&] { return link_of(nic.port(0)) == RTE_ETH_LINK_UP; }));
		auto got = fc_run(nic, 0, 1, kFcFrames);
		EXPECT_EQ(got.size(), kFcRing + kFcRxbHeld);
		EXPECT_TRUE(in_order(got));
		EXPECT_EQ(imissed(nic.port(1)), kFcFrames - kFcRing - kFcRxbHeld);
		auto r = xstats(nic.port(1)), t = xstats(nic.port(0));
		/* A receiver with TX pause sends its PAUSE when the RXB passes XOFF, once: the
		 * sender goes on, the fill stays above XON until the application receives. */
		EXPECT_EQ(r["mac_tx_pause_frames"], rx_fc ? 1u : 0u);
		EXPECT_EQ(t["mac_rx_pause_frames"], rx_fc ? 1u : 0u);
	}
}

/* The same back-pressure when a port sends to itself: loopback wire and PCS loopback. */
TEST_P(FlowCtl, PauseIsLosslessInLoopback)
{
	for (int pcs = 0; pcs < 2; pcs++) {
		SCOPED_TRACE(pcs ? "PCS loopback" : "loopback wire");
		Nic nic(args(pcs ? "pair" : "loopback"));
		ASSERT_EQ(nic.probe_rc(), 0);
		rte_eth_conf conf{};
		conf.lpbk_mode = pcs;
		ASSERT_EQ(nic.setup(0, conf, true, kFcRing), 0);
		ASSERT_EQ(set_fc(nic.port(0), RTE_ETH_FC_FULL), 0);
		ASSERT_TRUE(wait_for([&] { return link_of(nic.port(0)) == RTE_ETH_LINK_UP; }));
		auto got = fc_run(nic, 0, 0, kFcFrames);
		EXPECT_EQ(got.size(), kFcFrames);
		EXPECT_TRUE(in_order(got));
		EXPECT_EQ(imissed(nic.port(0)), 0u);
		auto x = xstats(nic.port(0));
		EXPECT_GT(x["mac_tx_pause_frames"], 0u);
		EXPECT_EQ(x["mac_rx_pause_frames"], x["mac_tx_pause_frames"]);
	}
}

/* Both ports full and pausing each other: neither engine hangs, and both directions
 * complete once the applications receive. */
TEST_P(FlowCtl, MutualPauseDoesNotHang)
{
	Nic nic(args());
	ASSERT_EQ(nic.probe_rc(), 0);
	for (unsigned i = 0; i < 2; i++) {
		ASSERT_EQ(nic.setup(i, rte_eth_conf{}, true, kFcRing), 0);
		ASSERT_EQ(set_fc(nic.port(i), RTE_ETH_FC_FULL), 0);
	}
	ASSERT_TRUE(wait_for([&] { return link_of(nic.port(0)) == RTE_ETH_LINK_UP; }));
	uint32_t sent[2] = {0, 0};
	std::vector<uint32_t> got[2];
	auto push = [&](unsigned i) {
		rte_mbuf *b[32];
		uint16_t k = 0;
		while (k < 32 && sent[i] + k < kFcFrames) {
			b[k] = nic.frame(seq_frame(sent[i] + k));
			k++;
		}
		uint16_t done = k == 0 ? 0 : rte_eth_tx_burst(nic.port(i), 0, b, k);
		for (uint16_t j = done; j < k; j++)
			rte_pktmbuf_free(b[j]);
		sent[i] += done;
		return done;
	};
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
	while (std::chrono::steady_clock::now() < end)
		if (push(0) + push(1) == 0)
			std::this_thread::sleep_for(std::chrono::milliseconds(1));
	EXPECT_LT(sent[0], kFcFrames); /* both are paused now */
	EXPECT_LT(sent[1], kFcFrames);
	end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
	while ((got[0].size() < kFcFrames || got[1].size() < kFcFrames) &&
	       std::chrono::steady_clock::now() < end) {
		for (unsigned i = 0; i < 2; i++) {
			rte_mbuf *b[32];
			uint16_t k = rte_eth_rx_burst(nic.port(i), 0, b, 32);
			for (uint16_t j = 0; j < k; j++) {
				uint32_t seq = UINT32_MAX;
				memcpy(&seq, rte_pktmbuf_mtod_offset(b[j], const uint8_t *, 14), 4);
				got[i].push_back(seq);
				rte_pktmbuf_free(b[j]);
			}
			push(i);
		}
	}
	for (unsigned i = 0; i < 2; i++) {
		EXPECT_EQ(got[i].size(), kFcFrames) << i;
		EXPECT_TRUE(in_order(got[i])) << i;
		EXPECT_EQ(imissed(nic.port(i)), 0u) << i;
		EXPECT_GT(xstats(nic.port(i))["mac_rx_pause_frames"], 0u) << i;
	}
}

/* A port stopped after PAUSE held its posted WQEs gives every mbuf back once, and again after
 * restarts: completion leaves the TX ring's entries as they are, so the drain at stop must
 * free only the WQEs posted and not completed (a stale entry freed again would put an mbuf
 * in the pool twice). */
TEST_P(FlowCtl, StopWithPausedWqesReturnsEveryMbuf)
{
	Nic nic(args());
	ASSERT_EQ(nic.probe_rc(), 0);
	/* Held all along: with the pool full, rte_mempool_avail_count stops at its size and a
	 * second free of an mbuf goes unseen (the pool's ring has no room for it). */
	std::vector<rte_mbuf *> reserve(512);
	ASSERT_EQ(rte_pktmbuf_alloc_bulk(nic.mp(), reserve.data(), reserve.size()), 0);
	const unsigned before = rte_mempool_avail_count(nic.mp());
	ASSERT_EQ(nic.setup(0), 0);
	ASSERT_EQ(nic.setup(1, rte_eth_conf{}, true, kFcRing), 0);
	ASSERT_EQ(set_fc(nic.port(0), RTE_ETH_FC_FULL), 0);
	ASSERT_EQ(set_fc(nic.port(1), RTE_ETH_FC_FULL), 0);
	uint32_t seq = 0;
	for (int round = 0; round < 4; round++) {
		SCOPED_TRACE(round);
		ASSERT_TRUE(wait_for([&] { return link_of(nic.port(0)) == RTE_ETH_LINK_UP; }));
		/* Port 1 does not receive: its CQ fills and PAUSE holds what port 0 posts next,
		 * until port 0's ring (256 entries) is full. */
		uint32_t accepted = 0;
		auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
		while (std::chrono::steady_clock::now() < end) {
			rte_mbuf *b[32];
			/* Zero copy (300 bytes, the WQE holds the mbuf) and bounced (short: freed
			 * when posted, its entry null) in turn. */
			for (unsigned j = 0; j < 32; j++, seq++)
				b[j] = j % 2 ? nic.frame(300) : nic.frame(seq_frame(seq, 100));
			uint16_t done = rte_eth_tx_burst(nic.port(0), 0, b, 32);
			for (uint16_t j = done; j < 32; j++)
				rte_pktmbuf_free(b[j]);
			accepted += done;
			if (done == 0)
				std::this_thread::sleep_for(std::chrono::milliseconds(1));
		}
		/* The CQ's 64 frames went out; the zero-copy ones PAUSE holds still have their
		 * mbufs (about half of the ring). */
		EXPECT_GE(accepted, 200u);
		EXPECT_GE(before - rte_mempool_avail_count(nic.mp()), 64u);
		ASSERT_EQ(rte_eth_dev_stop(nic.port(0)), 0);
		EXPECT_EQ(rte_mempool_avail_count(nic.mp()), before);
		/* Port 1 takes what reached it (copied: its CQ holds no mbuf) and both restart;
		 * the next round posts over the entries this one left. */
		rte_mbuf *r[32];
		uint16_t k;
		uint32_t got = 0;
		while ((k = rte_eth_rx_burst(nic.port(1), 0, r, 32)) != 0) {
			got += k;
			for (uint16_t j = 0; j < k; j++)
				rte_pktmbuf_free(r[j]);
		}
		EXPECT_GE(got, kFcRing);
		EXPECT_EQ(rte_mempool_avail_count(nic.mp()), before);
		ASSERT_EQ(rte_eth_dev_start(nic.port(0)), 0);
	}
	EXPECT_EQ(rte_eth_dev_stop(nic.port(0)), 0);
	EXPECT_EQ(rte_eth_dev_stop(nic.port(1)), 0);
	EXPECT_EQ(rte_mempool_avail_count(nic.mp()), before);
	rte_pktmbuf_free_bulk(reserve.data(), reserve.size());
}

INSTANTIATE_TEST_SUITE_P(Gaudi, FlowCtl, ::testing::Values("inline", "thread"));

/* ---- Link up/down ---- */

TEST(Features, SetLinkDownUp)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.probe_rc(), 0);
	EXPECT_EQ(rte_eth_dev_set_link_up(nic.port(0)), -EINVAL); /* not started */
	ASSERT_EQ(nic.setup(0), 0);
	ASSERT_EQ(nic.setup(1), 0);
	ASSERT_EQ(rte_eth_dev_set_link_down(nic.port(0)), 0);
	EXPECT_EQ(link_of(nic.port(0)), RTE_ETH_LINK_DOWN);
	EXPECT_EQ(link_of(nic.port(1)), RTE_ETH_LINK_DOWN);
	ASSERT_EQ(nic.send(0, {nic.frame(100)}), 1u); /* taken, dropped by the disabled MAC */
	EXPECT_EQ(nic.count_rx(1, 1, 50), 0u);
	ASSERT_EQ(rte_eth_dev_set_link_up(nic.port(0)), 0);
	EXPECT_EQ(link_of(nic.port(0)), RTE_ETH_LINK_UP);
	EXPECT_EQ(link_of(nic.port(1)), RTE_ETH_LINK_UP);
	ASSERT_EQ(nic.send(0, {nic.frame(100)}), 1u);
	EXPECT_EQ(nic.count_rx(1, 1), 1u);
}

/* ---- Bad input: right errno, no state change ---- */

TEST(Features, BadInputErrnoTable)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.probe_rc(), 0);
	uint16_t p = nic.port(0);
	rte_eth_conf conf{};
	/* Configure. */
	EXPECT_EQ(rte_eth_dev_configure(p, 2, 1, &conf), -EINVAL);      /* 1 queue only */
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_TCP_LRO;
	EXPECT_EQ(rte_eth_dev_configure(p, 1, 1, &conf), -EINVAL);      /* offload not offered */
	conf = {};
	conf.rxmode.mtu = 9000;
	EXPECT_EQ(rte_eth_dev_configure(p, 1, 1, &conf), -EINVAL);      /* MTU out of range */
	conf = {};
	conf.intr_conf.rmv = 1;
	EXPECT_NE(rte_eth_dev_configure(p, 1, 1, &conf), 0);            /* no removal event */
	conf = {};
	ASSERT_EQ(rte_eth_dev_configure(p, 1, 1, &conf), 0);
	/* Queue setup. */
	rte_mempool *mp = rte_pktmbuf_pool_create("bad_mp", 511, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	ASSERT_NE(mp, nullptr);
	EXPECT_EQ(rte_eth_rx_queue_setup(p, 0, 100, SOCKET_ID_ANY, nullptr, mp), -EINVAL);
	EXPECT_EQ(rte_eth_rx_queue_setup(p, 1, 256, SOCKET_ID_ANY, nullptr, mp), -EINVAL);
	EXPECT_EQ(rte_eth_tx_queue_setup(p, 0, 8192, SOCKET_ID_ANY, nullptr), -EINVAL);
	ASSERT_EQ(rte_eth_rx_queue_setup(p, 0, 256, SOCKET_ID_ANY, nullptr, mp), 0);
	ASSERT_EQ(rte_eth_tx_queue_setup(p, 0, 256, SOCKET_ID_ANY, nullptr), 0);
	/* Queue start on a stopped port, stop of a stopped port. */
	EXPECT_EQ(rte_eth_dev_rx_queue_start(p, 0), -EINVAL);
	EXPECT_EQ(rte_eth_dev_stop(p), 0);
	ASSERT_EQ(rte_eth_dev_start(p), 0);
	EXPECT_EQ(rte_eth_dev_rx_queue_start(p, 1), -EINVAL);
	EXPECT_EQ(rte_eth_dev_tx_queue_stop(p, 3), -EINVAL);
	EXPECT_EQ(rte_eth_dev_set_mtu(p, 100), -EINVAL);
	EXPECT_EQ(rte_eth_dev_rx_intr_enable(p, 0), -ENOTSUP);          /* intr_conf.rxq off */
	EXPECT_EQ(rte_eth_fec_set(p, 0), -EINVAL);
	rte_eth_pfc_conf pfc{};
	pfc.priority = 7;
	EXPECT_EQ(rte_eth_dev_priority_flow_ctrl_set(p, &pfc), -EINVAL);
	uint8_t e[16];
	rte_dev_eeprom_info ei{};
	ei.data = e;
	ei.offset = 256;
	ei.length = 1;
	EXPECT_EQ(rte_eth_dev_get_module_eeprom(p, &ei), -EINVAL);
	EXPECT_EQ(rte_eth_rx_descriptor_status(p, 0, 4096), -EINVAL);
	rte_ether_addr zero{};
	EXPECT_EQ(rte_eth_dev_mac_addr_add(p, &zero, 0), -EINVAL);
	uint16_t mtu = 0;
	ASSERT_EQ(rte_eth_dev_get_mtu(p, &mtu), 0);
	EXPECT_EQ(mtu, RTE_ETHER_MTU);
	uint32_t fec = 0;
	ASSERT_EQ(rte_eth_fec_get(p, &fec), 0);
	EXPECT_EQ(fec, RTE_ETH_FEC_MODE_CAPA_MASK(RS));
	ASSERT_EQ(rte_eth_dev_stop(p), 0);
	ASSERT_EQ(rte_eth_dev_close(p), 0);
	rte_mempool_free(mp);
}

/* ---- RX slots attached to mbufs (devarg rx_copy_max) ---- */

/* A frame of len bytes to dst whose payload tells it apart: seq in bytes 14..17, then a
 * pattern seeded by seq. */
std::vector<uint8_t> tagged(uint16_t len, uint32_t seq, const uint8_t *dst = kBcast)
{
	std::vector<uint8_t> b(len);
	memcpy(b.data(), dst, 6);
	b[12] = 0x88;
	b[13] = 0xb5;
	memcpy(&b[14], &seq, 4);
	for (uint16_t i = 18; i < len; i++)
		b[i] = uint8_t(i * 7 + seq * 13);
	return b;
}

/* n mbufs of nic's pool holding tagged(len, first), tagged(len, first + 1), ... */
std::vector<rte_mbuf *> tagged_frames(Nic &nic, uint16_t len, uint32_t first, uint32_t n)
{
	std::vector<rte_mbuf *> v;
	for (uint32_t i = 0; i < n; i++)
		v.push_back(nic.frame(tagged(len, first + i)));
	return v;
}

uint64_t xstat(uint16_t port, const char *name)
{
	auto x = xstats(port);
	auto it = x.find(name);
	EXPECT_NE(it, x.end()) << name;
	return it == x.end() ? UINT64_MAX : it->second;
}

/* Memzones of port's RX slot rings ("gaudi_<port>_rxs<generation>_<queue>"). */
unsigned slot_zones(uint16_t port)
{
	struct Ctx {
		std::string prefix;
		unsigned n;
	} ctx{"gaudi_" + std::to_string(port) + "_rxs", 0};
	rte_memzone_walk(
		[](const rte_memzone *mz, void *arg) {
			auto *c = static_cast<Ctx *>(arg);
			c->n += strncmp(mz->name, c->prefix.c_str(), c->prefix.size()) == 0;
		},
		&ctx);
	return ctx.n;
}

/* The fewest RX descriptors that lend slots (kRxAttachMinDesc, gaudi_rx.h): smaller rings
 * copy every frame. */
constexpr uint32_t kAttachRing = 128;

/* A ring too small to lend slots copies (the trial's stall: io forwarding at --rxd=64 stopped
 * once the CQ filled with slots already freed but not yet given back). */
TEST(RxAttach, SmallRingCopiesInstead)
{
	Nic nic("ports=2,rx_copy_max=0");
	ASSERT_EQ(nic.probe_rc(), 0);
	ASSERT_EQ(nic.setup(0), 0);
	ASSERT_EQ(nic.setup(1, rte_eth_conf{}, true, kAttachRing / 2), 0);
	std::vector<rte_mbuf *> tx = tagged_frames(nic, 300, 0, kAttachRing / 2);
	ASSERT_EQ(nic.send(0, tx), kAttachRing / 2);
	auto got = nic.receive(1, kAttachRing / 2, 2000);
	ASSERT_EQ(got.size(), kAttachRing / 2);
	for (uint32_t i = 0; i < got.size(); i++) {
		EXPECT_FALSE(RTE_MBUF_HAS_EXTBUF(got[i])) << i;
		EXPECT_EQ(gaudi_test::bytes_of(got[i]), tagged(300, i)) << i;
	}
	EXPECT_EQ(xstat(nic.port(1), "rx_q0_attached"), 0u);
	EXPECT_EQ(xstat(nic.port(1), "rx_q0_slots_held"), 0u);
	gaudi_test::free_all(got);
}

/* Frames above rx_copy_max arrive in their slot (external buffer, no headroom), the others
 * copied; the default copies all. The slot stays held while any clone of the mbuf lives. */
TEST(RxAttach, FramesAboveThresholdAttachedIntact)
{
	for (const char *extra : {"", ",rx_copy_max=16384", ",rx_copy_max=512"}) {
		SCOPED_TRACE(extra);
		const bool attach = strcmp(extra, ",rx_copy_max=512") == 0;
		Nic nic(std::string("ports=2") + extra);
		ASSERT_EQ(nic.probe_rc(), 0);
		ASSERT_EQ(nic.setup(0), 0);
		ASSERT_EQ(nic.setup(1), 0);
		const uint16_t p1 = nic.port(1);
		const std::vector<uint16_t> lens = {200, 511, 512, 513, 1000, 1514};
		std::vector<std::vector<uint8_t>> sent;
		std::vector<rte_mbuf *> tx;
		for (uint32_t i = 0; i < lens.size(); i++) {
			sent.push_back(tagged(lens[i], i));
			tx.push_back(nic.frame(sent.back()));
		}
		ASSERT_EQ(nic.send(0, tx), lens.size());
		auto got = nic.receive(1, lens.size());
		ASSERT_EQ(got.size(), lens.size());
		unsigned n_ext = 0;
		for (size_t i = 0; i < got.size(); i++) {
			rte_mbuf *m = got[i];
			EXPECT_EQ(gaudi_test::bytes_of(m), sent[i]) << i;
			const bool ext = RTE_MBUF_HAS_EXTBUF(m);
			EXPECT_EQ(ext, attach && lens[i] > 512) << lens[i];
			EXPECT_EQ(m->nb_segs, 1);
			EXPECT_EQ(m->port, p1);
			EXPECT_EQ(m->packet_type, RTE_PTYPE_L2_ETHER);
			if (ext) {
				EXPECT_EQ(rte_pktmbuf_headroom(m), 0);
				EXPECT_EQ(rte_mbuf_ext_refcnt_read(m->shinfo), 1);
				EXPECT_GE(m->buf_len, lens[i]);
				n_ext++;
			}
		}
		EXPECT_EQ(xstat(p1, "rx_q0_attached"), n_ext);
		EXPECT_EQ(xstat(p1, "rx_q0_slots_held"), n_ext);
		if (!attach) {
			EXPECT_EQ(n_ext, 0u);
			gaudi_test::free_all(got);
			continue;
		}
		EXPECT_EQ(n_ext, 3u);
		/* A clone shares the slot: it is released when the last of the two goes. */
		rte_mbuf *big = got.back();
		rte_mbuf *clone = rte_pktmbuf_clone(big, nic.mp());
		ASSERT_NE(clone, nullptr);
		EXPECT_EQ(rte_mbuf_ext_refcnt_read(big->shinfo), 2);
		got.pop_back();
		rte_pktmbuf_free(big);
		EXPECT_EQ(xstat(p1, "rx_q0_slots_held"), 3u);
		EXPECT_EQ(gaudi_test::bytes_of(clone), sent.back());
		rte_pktmbuf_free(clone);
		EXPECT_EQ(xstat(p1, "rx_q0_slots_held"), 2u);
		gaudi_test::free_all(got);
		EXPECT_EQ(xstat(p1, "rx_q0_slots_held"), 0u);
		/* The ring runs on: many more frames than it has slots, each freed at once. */
		for (uint32_t round = 0; round < 8; round++) {
			std::vector<rte_mbuf *> more = tagged_frames(nic, 1200, round * 64, 64);
			ASSERT_EQ(nic.send(0, more), 64u);
			auto back = nic.receive(1, 64, 2000);
			ASSERT_EQ(back.size(), 64u);
			for (uint32_t i = 0; i < 64; i++)
				ASSERT_EQ(gaudi_test::bytes_of(back[i]),
					  tagged(1200, round * 64 + i));
			gaudi_test::free_all(back);
		}
		EXPECT_EQ(xstat(p1, "rx_q0_attached"), 3u + 8 * 64);
		rte_eth_stats st{};
		ASSERT_EQ(rte_eth_stats_get(p1, &st), 0);
		EXPECT_EQ(st.imissed, 0u);
	}
}

/* Held slots are never written: with the ring full, frames wait in the NIC's RXB instead (a
 * full CQ back-pressures into it; none dropped this side of its threshold), the CQ CI moves
 * only over the contiguous run of released slots, and released slots come back at the next
 * rx_burst, the waiting frames first. Frees out of order, some on another thread. */
TEST(RxAttach, HeldSlotsBackPressureInsteadOfOverwrite)
{
	Nic nic("ports=2,rx_copy_max=0");
	ASSERT_EQ(nic.probe_rc(), 0);
	ASSERT_EQ(nic.setup(0), 0);
	ASSERT_EQ(nic.setup(1, rte_eth_conf{}, true, kAttachRing), 0);
	const uint16_t p1 = nic.port(1);
	auto send_seq = [&](uint32_t first, uint32_t n) {
		std::vector<rte_mbuf *> tx = tagged_frames(nic, 300, first, n);
		return nic.send(0, tx);
	};
	auto imissed = [&] {
		rte_eth_stats st{};
		EXPECT_EQ(rte_eth_stats_get(p1, &st), 0);
		return st.imissed;
	};
	ASSERT_EQ(send_seq(0, kAttachRing), kAttachRing);
	auto held = nic.receive(1, kAttachRing, 2000);
	ASSERT_EQ(held.size(), kAttachRing);
	for (auto *m : held)
		ASSERT_TRUE(RTE_MBUF_HAS_EXTBUF(m));
	auto intact = [&](const char *when) {
		for (uint32_t i = 0; i < held.size(); i++) {
			if (held[i] != nullptr) {
				EXPECT_EQ(gaudi_test::bytes_of(held[i]), tagged(300, i))
					<< when << " " << i;
			}
		}
	};
	EXPECT_EQ(xstat(p1, "rx_q0_slots_held"), kAttachRing);
	EXPECT_EQ(rte_eth_rx_descriptor_status(p1, 0, 0), RTE_ETH_RX_DESC_UNAVAIL);

	/* Every slot held: the next frames wait in the RXB, none overwrites a slot. */
	uint64_t missed0 = imissed();
	ASSERT_EQ(send_seq(1000, 16), 16u);
	EXPECT_EQ(nic.count_rx(1, 16, 50), 0u);
	EXPECT_EQ(imissed() - missed0, 0u);
	intact("ring full");

	/* All but the oldest freed, newest first, half of them on another thread: the CI cannot
	 * pass slot 0, so the CQ is still full. */
	std::thread other([&] {
		for (uint32_t i = kAttachRing - 1; i >= kAttachRing / 2 + 1; i -= 2) {
			rte_pktmbuf_free(held[i]);
			held[i] = nullptr;
		}
	});
	for (uint32_t i = kAttachRing - 2; i >= kAttachRing / 2; i -= 2) {
		rte_pktmbuf_free(held[i]);
		held[i] = nullptr;
	}
	other.join();
	for (uint32_t i = 1; i < kAttachRing / 2; i++) {
		rte_pktmbuf_free(held[i]);
		held[i] = nullptr;
	}
	EXPECT_EQ(xstat(p1, "rx_q0_slots_held"), 1u);
	EXPECT_EQ(nic.count_rx(1, 8, 20), 0u); /* an rx_burst: nothing to give back yet */
	ASSERT_EQ(send_seq(2000, 8), 8u);
	EXPECT_EQ(nic.count_rx(1, 8, 50), 0u);
	EXPECT_EQ(imissed() - missed0, 0u);
	intact("slot 0 held");

	/* The oldest goes: the next rx_burst gives them all back, and the 24 frames the RXB
	 * held arrive, in order. */
	rte_pktmbuf_free(held[0]);
	held.clear();
	EXPECT_EQ(xstat(p1, "rx_q0_slots_held"), 0u);
	auto waited = nic.receive(1, 24, 2000);
	ASSERT_EQ(waited.size(), 24u);
	for (uint32_t i = 0; i < 24; i++)
		EXPECT_EQ(gaudi_test::bytes_of(waited[i]),
			  tagged(300, i < 16 ? 1000 + i : 2000 + i - 16))
			<< i;
	gaudi_test::free_all(waited);
	EXPECT_EQ(nic.count_rx(1, 1, 20), 0u);
	EXPECT_EQ(rte_eth_rx_descriptor_status(p1, 0, 0), RTE_ETH_RX_DESC_AVAIL);
	ASSERT_EQ(send_seq(3000, kAttachRing), kAttachRing);
	auto again = nic.receive(1, kAttachRing, 2000);
	ASSERT_EQ(again.size(), kAttachRing);
	for (uint32_t i = 0; i < kAttachRing; i++)
		EXPECT_EQ(gaudi_test::bytes_of(again[i]), tagged(300, 3000 + i)) << i;
	gaudi_test::free_all(again);
	EXPECT_EQ(imissed() - missed0, 0u);
}

/* An application that frees its attached mbufs and then sleeps on the RX interrupt: enabling
 * the interrupt gives the freed slots back, so the next frame arrives and wakes it. */
TEST(RxAttach, FreedSlotsGoBackAtInterruptEnable)
{
	Nic nic("ports=2,rx_copy_max=0");
	ASSERT_EQ(nic.probe_rc(), 0);
	rte_eth_conf conf{};
	conf.intr_conf.rxq = 1;
	ASSERT_EQ(nic.setup(0), 0);
	ASSERT_EQ(nic.setup(1, conf, true, kAttachRing), 0);
	const uint16_t p1 = nic.port(1);
	ASSERT_EQ(rte_eth_dev_rx_intr_ctl_q(p1, 0, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD,
					    nullptr),
		  0);
	std::vector<rte_mbuf *> tx = tagged_frames(nic, 400, 0, kAttachRing);
	ASSERT_EQ(nic.send(0, tx), kAttachRing);
	auto held = nic.receive(1, kAttachRing, 2000);
	ASSERT_EQ(held.size(), kAttachRing);
	gaudi_test::free_all(held);
	EXPECT_EQ(xstat(p1, "rx_q0_slots_held"), 0u);
	ASSERT_EQ(rte_eth_dev_rx_intr_enable(p1, 0), 0);
	ASSERT_EQ(nic.send(0, {nic.frame(tagged(400, 99))}), 1u);
	rte_epoll_event ev[4];
	EXPECT_EQ(rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 4, 2000), 1);
	ASSERT_EQ(rte_eth_dev_rx_intr_disable(p1, 0), 0);
	auto got = nic.receive(1, 1, 2000);
	ASSERT_EQ(got.size(), 1u);
	EXPECT_EQ(gaudi_test::bytes_of(got[0]), tagged(400, 99));
	gaudi_test::free_all(got);
	ASSERT_EQ(rte_eth_dev_rx_intr_ctl_q(p1, 0, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_DEL,
					    nullptr),
		  0);
}

/* Attached mbufs forwarded to a TX queue with fast free (testpmd's default): the TX queues of
 * an adapter that attaches free each mbuf, so the slots come back and the pool is whole. */
TEST(RxAttach, ForwardedOverFastFreeTx)
{
	Nic nic("ports=2,rx_copy_max=256");
	ASSERT_EQ(nic.probe_rc(), 0);
	rte_eth_conf conf{};
	conf.txmode.offloads = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	ASSERT_EQ(nic.setup(0, conf), 0);
	ASSERT_EQ(nic.setup(1, conf), 0);
	const uint16_t p0 = nic.port(0), p1 = nic.port(1);
	const unsigned avail0 = rte_mempool_avail_count(nic.mp());
	for (uint32_t round = 0; round < 4; round++) {
		std::vector<rte_mbuf *> tx = tagged_frames(nic, 1000, round * 32, 32);
		ASSERT_EQ(nic.send(0, tx), 32u);
		auto fwd = nic.receive(1, 32, 2000);
		ASSERT_EQ(fwd.size(), 32u);
		EXPECT_TRUE(RTE_MBUF_HAS_EXTBUF(fwd[0]));
		ASSERT_EQ(nic.send(1, fwd), 32u); /* back to port 0, zero copy from the slots */
		auto back = nic.receive(0, 32, 2000);
		ASSERT_EQ(back.size(), 32u);
		for (uint32_t i = 0; i < 32; i++)
			EXPECT_EQ(gaudi_test::bytes_of(back[i]), tagged(1000, round * 32 + i)) << i;
		gaudi_test::free_all(back);
	}
	/* Completions are reaped at the next tx_burst. */
	rte_mbuf *none[1];
	EXPECT_EQ(rte_eth_tx_burst(p1, 0, none, 0), 0);
	EXPECT_EQ(rte_eth_tx_burst(p0, 0, none, 0), 0);
	EXPECT_EQ(xstat(p1, "rx_q0_slots_held"), 0u);
	EXPECT_EQ(xstat(p0, "rx_q0_slots_held"), 0u);
	EXPECT_EQ(rte_mempool_avail_count(nic.mp()), avail0);
}

/* TX fast free with bounced (short: copied, their sw_ring entry null) and zero-copy frames in
 * the same completion run, in patterns that change from burst to burst, then runs without a
 * bounced frame: every mbuf goes back to the pool exactly once, and every frame arrives. */
TEST(TxFastFree, BouncedAndZeroCopyMixed)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.probe_rc(), 0);
	rte_eth_conf conf{};
	conf.txmode.offloads = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	ASSERT_EQ(nic.setup(0, conf), 0);
	ASSERT_EQ(nic.setup(1, conf), 0);
	const uint16_t p0 = nic.port(0);
	const unsigned avail0 = rte_mempool_avail_count(nic.mp());
	/* 1: bounced (64 bytes, below the 187-byte pad), 0: zero copy (400 bytes). */
	const char *patterns[] = {"10110010011100001111000010101010", "0", "1", "01", "10",
				  "00000000000000000000000000000000", "1000000000000001",
				  "0111111111111110", "00000000000000000000000000000001"};
	uint32_t seq = 0;
	for (int pass = 0; pass < 3; pass++) {
		for (const char *pat : patterns) {
			std::vector<rte_mbuf *> tx;
			std::vector<uint16_t> lens;
			for (const char *c = pat; *c != 0; c++) {
				lens.push_back(*c == '1' ? 64 : 400);
				tx.push_back(nic.frame(tagged(lens.back(), seq++)));
			}
			ASSERT_EQ(nic.send(0, tx), lens.size());
			auto got = nic.receive(1, lens.size(), 2000);
			ASSERT_EQ(got.size(), lens.size()) << pat;
			for (size_t i = 0; i < got.size(); i++) {
				const uint32_t want_len = lens[i] == 64 ? 187u : lens[i];
				EXPECT_EQ(rte_pktmbuf_pkt_len(got[i]), want_len) << pat << " " << i;
				uint32_t s;
				memcpy(&s, rte_pktmbuf_mtod_offset(got[i], uint8_t *, 14), 4);
				EXPECT_EQ(s, seq - lens.size() + i) << pat << " " << i;
			}
			gaudi_test::free_all(got);
		}
	}
	/* Completions are reaped at the next tx_burst. */
	rte_mbuf *none[1];
	EXPECT_EQ(rte_eth_tx_burst(p0, 0, none, 0), 0);
	EXPECT_EQ(rte_mempool_avail_count(nic.mp()), avail0);
	rte_eth_stats st{};
	ASSERT_EQ(rte_eth_stats_get(p0, &st), 0);
	EXPECT_EQ(st.opackets, seq);
	EXPECT_EQ(st.oerrors, 0u);
}

/* Scattered RX copies what it copied before (frames up to rx_copy_max in a chain) and attaches
 * longer frames in one segment; the software address filter drops before anything is
 * attached. */
TEST(RxAttach, ScatterAndSoftwareFilter)
{
	/* 512-byte mbufs: a 1514-byte frame takes 3 segments when copied. */
	Nic nic("ports=2,rx_copy_max=1200", 2, 512 + RTE_PKTMBUF_HEADROOM);
	ASSERT_EQ(nic.probe_rc(), 0);
	rte_eth_conf conf{};
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_SCATTER;
	ASSERT_EQ(nic.setup(0, conf), 0);
	ASSERT_EQ(nic.setup(1, conf), 0);
	const uint16_t p1 = nic.port(1);
	/* Frames to send are built in mbufs that hold them whole. */
	rte_mempool *txmp = rte_pktmbuf_pool_create("rx_attach_txmp", 255, 0, 0,
						    RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	ASSERT_NE(txmp, nullptr);
	auto frame = [&](const std::vector<uint8_t> &b) {
		rte_mbuf *m = rte_pktmbuf_alloc(txmp);
		EXPECT_NE(m, nullptr);
		memcpy(rte_pktmbuf_append(m, uint16_t(b.size())), b.data(), b.size());
		return m;
	};
	std::vector<std::vector<uint8_t>> sent = {tagged(1000, 1), tagged(1201, 2),
						  tagged(1514, 3), tagged(200, 4)};
	std::vector<rte_mbuf *> tx;
	for (auto &b : sent)
		tx.push_back(frame(b));
	ASSERT_EQ(nic.send(0, tx), sent.size());
	auto got = nic.receive(1, sent.size());
	ASSERT_EQ(got.size(), sent.size());
	const uint16_t segs[] = {2, 1, 1, 1};
	const bool ext[] = {false, true, true, false};
	for (size_t i = 0; i < got.size(); i++) {
		EXPECT_EQ(gaudi_test::bytes_of(got[i]), sent[i]) << i;
		EXPECT_EQ(got[i]->nb_segs, segs[i]) << i;
		EXPECT_EQ(RTE_MBUF_HAS_EXTBUF(got[i]) != 0, ext[i]) << i;
	}
	gaudi_test::free_all(got);

	/* An extra unicast address turns the software filter on. */
	ASSERT_EQ(rte_eth_promiscuous_disable(p1), 0);
	rte_ether_addr extra = {{0x02, 0, 0, 0, 0, 0x77}};
	const uint8_t stranger[6] = {0x02, 0, 0, 0, 0, 0x78};
	ASSERT_EQ(rte_eth_dev_mac_addr_add(p1, &extra, 0), 0);
	uint64_t filtered0 = xstat(p1, "rx_q0_address_filtered");
	ASSERT_EQ(nic.send(0, {frame(tagged(1500, 5, stranger)),
			       frame(tagged(1500, 6, extra.addr_bytes))}),
		  2u);
	got = nic.receive(1, 2, 300);
	ASSERT_EQ(got.size(), 1u);
	EXPECT_EQ(gaudi_test::bytes_of(got[0]), tagged(1500, 6, extra.addr_bytes));
	EXPECT_TRUE(RTE_MBUF_HAS_EXTBUF(got[0]));
	EXPECT_EQ(xstat(p1, "rx_q0_address_filtered") - filtered0, 1u);
	EXPECT_EQ(xstat(p1, "rx_q0_slots_held"), 1u);
	gaudi_test::free_all(got);
	EXPECT_EQ(xstat(p1, "rx_q0_slots_held"), 0u);
	nic.close(); /* the TX ring's mbufs go back before their pool */
	rte_mempool_free(txmp);
}

/* Stop/start, queue setup again and close with attached mbufs still out: their slots stay
 * theirs (the queue restarts on a new ring), and the old ring's memory goes with the last of
 * them, not before. */
TEST(RxAttach, StopStartAndCloseWithMbufsOut)
{
	Nic nic("ports=2,rx_copy_max=0");
	ASSERT_EQ(nic.probe_rc(), 0);
	ASSERT_EQ(nic.setup(0), 0);
	ASSERT_EQ(nic.setup(1, rte_eth_conf{}, true, kAttachRing), 0);
	const uint16_t p1 = nic.port(1);
	auto send_recv = [&](uint32_t first, uint32_t n) {
		/* Slots freed since the last rx_burst go back to the NIC at the next one. */
		rte_mbuf *none[1];
		EXPECT_EQ(rte_eth_rx_burst(p1, 0, none, 0), 0);
		std::vector<rte_mbuf *> tx = tagged_frames(nic, 700, first, n);
		EXPECT_EQ(nic.send(0, tx), n);
		auto got = nic.receive(1, n, 2000);
		EXPECT_EQ(got.size(), n);
		for (uint32_t i = 0; i < got.size(); i++)
			EXPECT_EQ(gaudi_test::bytes_of(got[i]), tagged(700, first + i))
				<< first + i;
		return got;
	};
	auto intact = [](const std::vector<rte_mbuf *> &v, uint32_t first) {
		for (uint32_t i = 0; i < v.size(); i++)
			EXPECT_EQ(gaudi_test::bytes_of(v[i]), tagged(700, first + i)) << first + i;
	};
	EXPECT_EQ(slot_zones(p1), 1u);
	auto a = send_recv(0, 40);
	ASSERT_EQ(a.size(), 40u);

	/* Port restart: a second ring; traffic runs on it, the held slots keep their bytes. */
	ASSERT_EQ(rte_eth_dev_stop(p1), 0);
	ASSERT_EQ(rte_eth_dev_start(p1), 0);
	EXPECT_EQ(slot_zones(p1), 2u);
	EXPECT_EQ(xstat(p1, "rx_q0_slots_held"), 0u); /* the new ring's */
	for (uint32_t round = 0; round < 4; round++) {
		auto b = send_recv(100 + round * 64, 64);
		gaudi_test::free_all(b);
	}
	intact(a, 0);

	/* Queue stop/start alone, with mbufs of the second ring out: a third ring. */
	auto c = send_recv(500, 10);
	ASSERT_EQ(rte_eth_dev_rx_queue_stop(p1, 0), 0);
	ASSERT_EQ(rte_eth_dev_rx_queue_start(p1, 0), 0);
	EXPECT_EQ(slot_zones(p1), 3u);
	auto d = send_recv(600, 64);
	gaudi_test::free_all(d);
	intact(a, 0);
	intact(c, 500);
	gaudi_test::free_all(a); /* the first ring goes */
	EXPECT_EQ(slot_zones(p1), 2u);

	/* Queue setup again and close: the ring c holds outlives the port. */
	ASSERT_EQ(rte_eth_dev_stop(p1), 0);
	ASSERT_EQ(rte_eth_rx_queue_setup(p1, 0, kAttachRing, SOCKET_ID_ANY, nullptr, nic.mp()), 0);
	ASSERT_EQ(rte_eth_dev_close(p1), 0);
	EXPECT_EQ(slot_zones(p1), 1u);
	/* Memory that would reuse a freed ring's: c's bytes must not change. */
	const rte_memzone *mz = rte_memzone_reserve("rx_attach_probe", kAttachRing * 2048, SOCKET_ID_ANY, 0);
	ASSERT_NE(mz, nullptr);
	memset(mz->addr, 0xee, mz->len);
	intact(c, 500);
	gaudi_test::free_all(c);
	EXPECT_EQ(slot_zones(p1), 0u);
	rte_memzone_free(mz);
}

} /* namespace */
