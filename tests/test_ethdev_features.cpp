/* SPDX-License-Identifier: BSD-3-Clause
 * Contract tests of the Gaudi PMD's ethdev features (features matrix rows) through the public
 * rte_eth API on net_gaudi_emu: interrupts, queue start/stop, MAC filters, flow control, FEC,
 * loopback, xstats, module EEPROM, register dump, descriptor status, packet types, bad input.
 */

#include "test_ethdev_features.h"

namespace {

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

} /* namespace */
