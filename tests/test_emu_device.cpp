/* SPDX-License-Identifier: BSD-3-Clause
 * Device-model tests: wire delay and rate limit, link and event queue, MAC/lane programming,
 * counters, pcap wire, threads and the published register map.
 */

#include "test_emu.h"

namespace {

TEST(EmuDevice, WireDelayNeedsLoopbackOrPair)
{
	Config c;
	c.nports = 1;
	c.wire = Wire::pcap;
	c.wire_delay_us = 10;
	std::string err;
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_EQ(err, "wire_delay_us needs wire=loopback or pair");
}

/* [rx rate limit] A port limited to 1 frame/s with a bucket of 3 takes 3 of 6 frames sent at
 * once (the next token is a second away), drops the rest after its MAC counted them (drop
 * events, which the PMD reports as imissed) and counts them apart; its peer takes all. */
TEST_P(Emu, RxRateLimitDropsAboveTheBucket)
{
	Config c;
	c.nports = 2;
	c.wire = Wire::pair;
	c.engine = GetParam();
	c.rx_rate_limit[1] = 1;
	c.rx_rate_burst[1] = 3;
	make(c);
	rig[0]->bring_up();
	rig[1]->bring_up();
	send(0, {100, 101, 102, 103, 104, 105});
	send(1, {200, 201, 202, 203, 204, 205});
	std::vector<Cqe> got1, got0;
	ASSERT_TRUE(wait_until([&] {
		dev->bar().service();
		for (const Cqe &e : rig[1]->take_cqes())
			got1.push_back(e);
		for (const Cqe &e : rig[0]->take_cqes())
			got0.push_back(e);
		return got1.size() >= 3 && got0.size() >= 6 && dev->counters(1).rx_rate_drops >= 3;
	}));
	ASSERT_EQ(got1.size(), 3u);
	for (uint32_t i = 0; i < 3; i++)
		EXPECT_EQ(got1[i].size, 100 + i) << i;
	EXPECT_EQ(got0.size(), 6u);
	EXPECT_EQ(dev->counters(1).rx_rate_drops, 3u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 3u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 6u);
	EXPECT_EQ(dev->counters(0).rx_rate_drops, 0u);
	EXPECT_EQ(rx(0, RxStat::ether_stats_drop_events), 0u);
}

/* [rx rate limit] Only the model's own cables have it. */
TEST(EmuDevice, RxRateLimitNeedsLoopbackOrPair)
{
	Config c;
	c.nports = 1;
	c.wire = Wire::pcap;
	c.rx_rate_limit[0] = 1000;
	std::string err;
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_EQ(err, "rx_rate_limit needs wire=loopback or pair");
}

TEST_P(Emu, LinkStatusBitsAndEvents)
{
	make(3, Wire::pair);
	PortRig &r = *rig[0];
	EXPECT_FALSE(r.hw.link_up());
	/* Power-up leaves the MACs enabled (RX on): quiesce as a driver does. Link events of
	 * both ports of a macro arrive on the odd port's EQ (hbl_cn SW-42306): port 1's. */
	for (auto &p : rig)
		p->hw.quiesce();
	PortRig &ev = *rig[1];
	ev.hw.eq_init({ev.iova(PortRig::kEq), kEqLog2, ev.iova(PortRig::kEqPi)});
	r.hw.eq_init({r.iova(PortRig::kEq), kEqLog2, r.iova(PortRig::kEqPi)});
	r.hw.mac_config(true);
	/* A pair link needs both ends' MACs enabled. */
	EXPECT_FALSE(r.hw.link_up());
	EXPECT_TRUE(of_type(r.take_events(), EqeType::link_status).empty());
	/* Port 1 shares the macro's REC_STS0: its bit is separate. */
	EXPECT_FALSE(rig[1]->hw.link_up());
	rig[1]->hw.mac_config(true);
	EXPECT_TRUE(rig[1]->hw.link_up());
	EXPECT_TRUE(r.hw.link_up());
	const uint32_t pcs_link = hw::reg::MAC_PCS_STATUS1_PCS_RECEIVE_LINK.mask();
	EXPECT_TRUE(reg(hw::reg::mac_pcs(0, 0) + hw::reg::MAC_PCS_STATUS1) & pcs_link);
	/* MAC_REC_STS0.REC_LINK_STS: lanes 0-1 (port 0) and 2-3 (port 1) of the macro. */
	EXPECT_EQ(hw::reg::MAC_CORE_MAC_REC_STS0_REC_LINK_STS.get(
			  reg(hw::reg::mac_core(0) + hw::reg::MAC_CORE_MAC_REC_STS0)),
		  0xFu);
	/* Both ends came up: two events, both on port 1's EQ, none on port 0's; the status is
	 * the macro's REC_LINK_STS, a bit per lane (port 1's lanes 2-3 first). */
	auto ls = of_type(ev.take_events(), EqeType::link_status);
	ASSERT_EQ(ls.size(), 2u);
	EXPECT_EQ(ls[0].d2, 0xCu);
	EXPECT_EQ(ls[1].d2, 0xFu);
	EXPECT_TRUE(of_type(r.take_events(), EqeType::link_status).empty());
	/* RS-FEC on one end only: no lock on either end (power-up has it on: FEC91_CFG). */
	r.hw.set_rs_fec(false);
	EXPECT_FALSE(r.hw.link_up());
	EXPECT_FALSE(rig[1]->hw.link_up());
	rig[1]->hw.set_rs_fec(false);
	EXPECT_TRUE(r.hw.link_up());
	EXPECT_TRUE(rig[1]->hw.link_up());
	ls = of_type(ev.take_events(), EqeType::link_status);
	ASSERT_EQ(ls.size(), 4u); /* down and up, each end */
	/* Same state again: no event. */
	r.hw.set_rxb_accept_all(false);
	EXPECT_TRUE(ev.take_events().empty());
	r.hw.mac_config(false);
	EXPECT_FALSE(r.hw.link_up());
	EXPECT_FALSE(reg(hw::reg::mac_pcs(0, 0) + hw::reg::MAC_PCS_STATUS1) & pcs_link);
	ls = of_type(ev.take_events(), EqeType::link_status);
	ASSERT_EQ(ls.size(), 2u);
	EXPECT_EQ(ls[0].d2, 0xCu); /* port 0 down first, then port 1 */
	EXPECT_EQ(ls[1].d2, 0u);
	EXPECT_TRUE(r.take_events().empty());
	EXPECT_FALSE(rig[1]->hw.link_up()); /* the far end loses the link too */
	/* Unpaired port 2: no cable, but PCS loopback brings the link up. */
	rig[2]->hw.mac_config(true);
	EXPECT_FALSE(rig[2]->hw.link_up());
	rig[2]->hw.set_loopback(true);
	EXPECT_TRUE(rig[2]->hw.link_up());
}

TEST_P(Emu, CqArmFiresOnceWhenPiPassesIndex)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	rig[1]->hw.arm_cq(2);
	send(0, {100, 100});
	EXPECT_TRUE(of_type(rig[1]->take_events(), EqeType::comp).empty()); /* PI 2, not > 2 */
	send(0, {100, 100});
	auto cp = of_type(rig[1]->take_events(), EqeType::comp);
	ASSERT_EQ(cp.size(), 1u);
	EXPECT_EQ(cp[0].d1, hw::kRawCq);
	EXPECT_EQ(cp[0].d2, 3u);
	send(0, {100});
	EXPECT_TRUE(of_type(rig[1]->take_events(), EqeType::comp).empty()); /* disarmed */
	rig[1]->hw.arm_cq(1); /* PI 5 > 1 already: fires at once */
	EXPECT_EQ(of_type(rig[1]->take_events(), EqeType::comp).size(), 1u);
}

TEST_P(Emu, EventQueueOverrun)
{
	make();
	rig[0]->bring_up(true, 2); /* 4-entry EQ */
	rig[1]->bring_up();
	rig[0]->take_events(2); /* the link events of both ports' bring-up */
	uint32_t pi0 = reg(hw::reg::qpc(0) + hw::reg::QPC_EVENT_QUE_PRODUCER_INDEX);
	std::vector<uint32_t> six(6, 100);
	PortRig &r = *rig[0];
	for (uint32_t i = 0; i < 6; i++) {
		make_frame(r.txbuf(i), 100, kPort1Mac, i);
		r.post(i, 100, true);
	}
	r.ring();
	ASSERT_TRUE(r.settle());
	EXPECT_EQ(dev->counters(0).eq_lost, 2u);
	auto ev = r.take_events(2);
	ASSERT_EQ(ev.size(), 4u);
	EXPECT_EQ(ev[3].d2, 3u);
	EXPECT_EQ(reg(hw::reg::qpc(0) + hw::reg::QPC_EVENT_QUE_PRODUCER_INDEX), pi0 + 4);
}

TEST_P(Emu, MacTxDisabledConsumesAndDrops)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	rig[0]->hw.mac_config(false);
	send(0, {100, 100});
	EXPECT_TRUE(rig[1]->take_cqes().empty());
	EXPECT_EQ(tx(0, TxStat::if_out_errors), 2u);
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 0u);
	auto tc = of_type(rig[0]->take_events(), EqeType::raw_tx_comp);
	ASSERT_EQ(tc.size(), 1u);
	EXPECT_EQ(tc[0].d2, 1u);
}

TEST_P(Emu, RxDisabledAndRxDmaFault)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	rig[1]->hw.rx_disable();
	send(0, {100});
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 1u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 1u);
	/* Slot ring programmed outside DPDK memory: DMA fault, QP_ERR class 0. */
	hw::RxRingCfg bad = rig[1]->rx_cfg();
	bad.slots_iova = 0x1000;
	ASSERT_TRUE(rig[1]->hw.rx_init(bad));
	rig[1]->take_events();
	send(0, {100});
	EXPECT_EQ(rx(1, RxStat::if_in_errors), 1u);
	auto qe = of_type(rig[1]->take_events(), EqeType::qp_err);
	ASSERT_EQ(qe.size(), 1u);
	EXPECT_EQ(qe[0].d1, hw::kRawQpn);
	EXPECT_EQ(qe[0].d2, 0x01u);
	EXPECT_TRUE(rig[1]->take_cqes().empty());
}

/* The per-macro and per-lane programming of hbl_cn gaudi2_cn.c, read back through the model:
 * gaudi2_cn_hw_macro_config (MAC core, RXB, TXB) at 100G, then a port open
 * (gaudi2_cn_hw_mac_port_config, set_pfc); 50G and 25G one argument away. */
TEST_P(Emu, MacroAndLaneProgrammingAsHblCn)
{
	namespace r = hw::reg;
	make();
	hw::Bar &bar = dev->bar();
	hw::macro::config(bar, 0, hw::Speed::g100);
	rig[0]->bring_up();
	rig[1]->bring_up();
	/* MAC core: RS-FEC with KP mode on the four lanes. */
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_FEC91_CFG), 0xFFu);
	/* RXB: the published credit and threshold pairs on all 8 entries. */
	const uint32_t rxb = r::rxb(0);
	for (unsigned i = 0; i < r::kRxbPrioRegs; i++) {
		EXPECT_EQ(reg(rxb + r::rxb_prio_reg(r::RXB_CORE_MAX_STATIC_CREDITS_0, i)),
			  0xB405A0u);
		EXPECT_EQ(reg(rxb + r::rxb_prio_reg(r::RXB_CORE_DROP_THRESHOLD_0, i)), 0xABC55Eu);
		EXPECT_EQ(reg(rxb + r::rxb_prio_reg(r::RXB_CORE_DROP_SMALL_THRESHOLD_0, i)),
			  0xB3A59Du);
		EXPECT_EQ(reg(rxb + r::rxb_prio_reg(r::RXB_CORE_DSCP2PRIO_0, i)), 0u);
	}
	/* XOFF / XON of the 4 entries set_flow owns hold the flow-control settings (this rig
	 * sets none); the other 4 keep the published 714 / 648 pairs. */
	EXPECT_EQ(reg(rxb + r::rxb_xoff_threshold(5)), 0x5942CAu);
	EXPECT_EQ(reg(rxb + r::rxb_xon_threshold(7)), 0x510288u);
	EXPECT_EQ(reg(rxb + r::RXB_CORE_ICRC_CFG), 0x2u);
	EXPECT_EQ(reg(rxb + r::RXB_CORE_MAC_PFC_MODE), 0x2u);
	/* TXB: not paused, the 100G TDM arbitration. */
	EXPECT_EQ(reg(r::txb(0) + r::TXB_GLOBAL_PAUSE), 0u);
	EXPECT_EQ(reg(r::txb(0) + r::TXB_TDM_PORT_ARB_MASK), 0xBBEEu);
	EXPECT_EQ(reg(r::txb(0) + r::TXB_ICRC_CFG), 0x2u);
	/* Quiesce masked the PHY link-up interrupt (H6-3339). */
	EXPECT_EQ(reg(r::phy(0) + r::PHY_PHY_LINK_STS_INTR), 0x1u);
	/* The lanes of both ports (port 1: MAC channels 2 and 3). */
	for (unsigned p = 0; p < 2; p++)
		for (unsigned l = 0; l < hw::kLanesPerPort; l++) {
			uint32_t ch = r::mac_128(p, l), pcs = r::mac_pcs(p, l);
			EXPECT_EQ(reg(pcs + r::MAC_PCS_CONTROL1) &
					  r::MAC_PCS_CONTROL1_FLD_RESET.mask(),
				  0u);
			EXPECT_EQ(reg(ch + r::MAC_128_FRM_LENGTH), 0x20C2u);
			EXPECT_EQ(reg(ch + r::MAC_128_COMMAND_CONFIG), 0x2913u);
			EXPECT_EQ(reg(ch + r::MAC_128_TX_FIFO_SECTIONS), 4u);
			EXPECT_EQ(reg(ch + r::MAC_128_RX_FIFO_SECTIONS), 4u);
			EXPECT_EQ(reg(ch + r::mac_pause_quanta(14)), 0xFFFFFFFFu);
			EXPECT_EQ(reg(ch + r::mac_quanta_thresh(14)), 0x7FFF7FFFu);
			EXPECT_EQ(reg(pcs + r::MAC_PCS_VENDOR_VL_INTVL), 0x3FFFu);
			EXPECT_EQ(reg(pcs + r::MAC_PCS_VENDOR_PCS_MODE), 0u);
			EXPECT_EQ(reg(pcs + r::pcs_vl(0, 0)), 0x68C1u);
			EXPECT_EQ(reg(pcs + r::pcs_vl(0, 1)), 0x21u);
			EXPECT_EQ(reg(pcs + r::pcs_vl(3, 0)), 0x954Du);
			EXPECT_EQ(reg(pcs + r::pcs_vl(4, 0)), 0x07F5u);
			EXPECT_EQ(reg(pcs + r::pcs_vl(19, 0)), 0xF0C0u);
			EXPECT_EQ(reg(pcs + r::pcs_vl(19, 1)), 0xE5u);
		}
	/* Frames pass with all of it. */
	send(0, {100});
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 1u);
	/* RS-FEC off and on again for port 1: its lanes' ENA and KP bits only. */
	rig[1]->hw.set_rs_fec(false);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_FEC91_CFG), 0x33u);
	rig[1]->hw.set_rs_fec(true);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_FEC91_CFG), 0xFFu);

	/* 50G: SerDes width, RS-FEC control of the 4 lanes, TDM mask, 4 markers. */
	hw::macro::config(bar, 0, hw::Speed::g50);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_SD_CFG), 0xF0FFF0u);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_FEC91_CFG), 0xFFu);
	for (unsigned l = 0; l < 4; l++)
		EXPECT_EQ(reg(r::mac_rs_fec(0) + r::rsfec_control(l)), 0x400u) << l;
	EXPECT_EQ(reg(r::txb(0) + r::TXB_TDM_PORT_ARB_MASK), 0x7BDEu);
	rig[0]->hw.set_speed(hw::Speed::g50);
	ASSERT_TRUE(rig[0]->hw.mac_config(true));
	EXPECT_EQ(reg(r::mac_pcs(0, 1) + r::MAC_PCS_VENDOR_VL_INTVL), 0x4FFFu);
	EXPECT_EQ(reg(r::mac_pcs(0, 1) + r::pcs_vl(0, 0)), 0x7690u);
	EXPECT_EQ(reg(r::mac_pcs(0, 1) + r::pcs_vl(0, 1)), 0x47u);
	EXPECT_EQ(reg(r::mac_pcs(0, 1) + r::pcs_vl(1, 0)), 0xC4F0u);
	/* 25G: one-lane RS-FEC without KP mode, clause-49 PCS. */
	hw::macro::config(bar, 0, hw::Speed::g25);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_SD_CFG), 0xF0FF00u);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_FEC91_CFG), 0x60Fu);
	EXPECT_EQ(reg(r::txb(0) + r::TXB_TDM_PORT_ARB_MASK), 0x7BDEu);
	rig[0]->hw.set_speed(hw::Speed::g25);
	ASSERT_TRUE(rig[0]->hw.mac_config(true));
	EXPECT_EQ(reg(r::mac_pcs(0, 0) + r::MAC_PCS_VENDOR_PCS_MODE), 0x5u);
	EXPECT_EQ(reg(r::mac_pcs(0, 0) + r::MAC_PCS_VENDOR_VL_INTVL), 0x4FFFu);
	EXPECT_EQ(reg(r::mac_pcs(0, 0) + r::pcs_vl(0, 0)), 0x68C1u);
	rig[0]->hw.set_rs_fec(false);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_FEC91_CFG), 0x60Cu) << "no KP bits at 25G";

	/* Device close (gaudi2_cn_stop_traffic_macro): the RXB drops every frame first. */
	hw::nicmem::stop_traffic(bar, 0x3);
	for (unsigned i = 0; i < r::kRxbPrioRegs; i++) {
		EXPECT_EQ(reg(rxb + r::rxb_prio_reg(r::RXB_CORE_DROP_THRESHOLD_0, i)), 0u) << i;
		EXPECT_EQ(reg(rxb + r::rxb_prio_reg(r::RXB_CORE_DROP_SMALL_THRESHOLD_0, i)),
			  0xB3A59Du);
	}
}

TEST_P(Emu, StatsResetAndHighWordLatch)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	send(0, {100, 200});
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 2u);
	EXPECT_EQ(reg(hw::reg::mac_stat(0) + hw::reg::MAC_GLOB_STAT_CONTROL_DATA_HI), 0u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 2u);
	/* STATN_CONFIG.F_RESET, as hbl_cn: the macro's counter sets, both ports'. */
	rig[0]->hw.stats_reset();
	EXPECT_EQ(reg(hw::reg::mac_stat(0) + hw::reg::MAC_GLOB_STAT_CONTROL_STATN_CONFIG), 0u);
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 0u);
	EXPECT_EQ(tx(0, TxStat::ether_stats_octets), 0u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 0u);
}

/* [multi-process] A secondary's read-only view of the model's memzone: the same registers
 * and live MAC counters as the model's own Bar, writes dropped, gone with the model. */
TEST_P(Emu, SharedViewReadsRegistersAndCountersReadOnly)
{
	Config c;
	c.nports = 2;
	c.engine = GetParam();
	c.shm_name = "gaudi_emu_test_view";
	make(c);
	std::string err;
	EXPECT_EQ(emu::SharedView::attach("gaudi_emu_no_such", &err), nullptr);
	EXPECT_FALSE(err.empty());
	auto view = emu::SharedView::attach(c.shm_name, &err);
	ASSERT_NE(view, nullptr) << err;
	EXPECT_EQ(view->nports(), 2u);
	rig[0]->bring_up();
	rig[1]->bring_up();
	send(0, {100, 200, 1514});
	hw::Port v0(&view->bar(), 0), v1(&view->bar(), 1);
	EXPECT_EQ(v0.tx_stat(TxStat::frames_transmitted_ok), 3u);
	EXPECT_EQ(v0.tx_stat(TxStat::ether_stats_octets), tx(0, TxStat::ether_stats_octets));
	EXPECT_EQ(v1.rx_stat(RxStat::frames_received_ok), 3u);
	EXPECT_EQ(v1.rx_stat(RxStat::ether_stats_pkts_1024_to_1518), 1u);
	EXPECT_EQ(v0.link_up(), rig[0]->hw.link_up());
	EXPECT_TRUE(v1.link_up());
	/* Writes through the view change nothing: no stats reset, no MAC disable. */
	uint32_t cmd = reg(hw::reg::mac_128(0, 0) + hw::reg::MAC_128_COMMAND_CONFIG);
	v0.stats_reset();
	v0.set_mac_enable(false);
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 3u);
	EXPECT_EQ(reg(hw::reg::mac_128(0, 0) + hw::reg::MAC_128_COMMAND_CONFIG), cmd);
	EXPECT_TRUE(rig[0]->hw.link_up());
	/* The model's reset is seen live. */
	rig[0]->hw.stats_reset();
	EXPECT_EQ(v0.tx_stat(TxStat::frames_transmitted_ok), 0u);
	view.reset();
	rig.clear();
	dev.reset();
	EXPECT_EQ(emu::SharedView::attach(c.shm_name, &err), nullptr); /* memzone freed */
}

TEST_P(Emu, PcapRxPacedInOrderAndTxWritten)
{
	std::string dir = tmp_dir();
	std::string in = dir + "/in_" + engine_name({GetParam(), 0}) + ".pcap";
	std::string out = dir + "/out_" + engine_name({GetParam(), 0}) + ".pcap";
	std::vector<PcapRec> recs;
	for (uint32_t i = 0; i < 70; i++) {
		std::vector<uint8_t> f(100 + i);
		make_frame(f.data(), uint32_t(f.size()), kBcast, i);
		uint32_t wire = uint32_t(f.size());
		if (i == 3)
			f.resize(80); /* truncated record: caplen 80 of 103 */
		recs.push_back({f, wire});
	}
	write_pcap(in, recs);

	Config c;
	c.nports = 1;
	c.wire = Wire::pcap;
	c.engine = GetParam();
	c.rx_pcap[0] = in;
	c.tx_pcap[0] = out;
	make(c);
	EXPECT_EQ(dev->counters(0).rx_pcap_remaining, 70u);
	PortRig &r = *rig[0];
	r.bring_up();
	EXPECT_TRUE(r.hw.link_up());
	dev->bar().service(); /* inline: the driver polls an empty ring */
	ASSERT_TRUE(wait_until([&] { return load(r.cq_pi()) == 64; }));
	EXPECT_EQ(dev->counters(0).rx_pcap_remaining, 6u); /* paced: waits for CQ room */
	auto cq = r.take_cqes(false);
	ASSERT_EQ(cq.size(), 64u);
	for (uint32_t i = 0; i < 64; i++) {
		EXPECT_EQ(cq[i].size, i == 3 ? 80u : 100u + i) << i;
		uint32_t seq;
		std::memcpy(&seq, r.slot(cq[i].wqe_index) + 14, 4);
		EXPECT_EQ(seq, i);
	}
	EXPECT_EQ(rx(0, RxStat::ether_stats_drop_events), 0u);
	r.hw.rx_write_ci(r.cq_ci);
	ASSERT_TRUE(wait_until([&] { return dev->counters(0).rx_pcap_remaining == 0; }));
	ASSERT_TRUE(wait_until([&] { return load(r.cq_pi()) == 70; }));
	cq = r.take_cqes();
	ASSERT_EQ(cq.size(), 6u);
	EXPECT_EQ(cq[5].size, 169u);
	EXPECT_EQ(rx(0, RxStat::frames_received_ok), 70u);
	EXPECT_EQ(rx(0, RxStat::ether_stats_drop_events), 0u);

	/* TX goes to the tx pcap, byte for byte. */
	send(0, {60, 300, 1514}, kBcast);
	EXPECT_EQ(dev->counters(0).wire_tx_frames, 3u);
	dev->flush();
	auto got = read_pcap(out);
	ASSERT_EQ(got.size(), 3u);
	EXPECT_EQ(got[0].size(), 60u);
	EXPECT_EQ(got[2].size(), 1514u);
	EXPECT_EQ(std::memcmp(got[1].data(), r.txbuf(1), 300), 0);
	rig.clear();
	dev.reset();
	std::filesystem::remove(in);
	std::filesystem::remove(out);
}

TEST_P(Emu, PcapCreateErrors)
{
	std::string dir = tmp_dir();
	std::string raw = dir + "/raw_ip.pcap";
	write_pcap(raw, {{std::vector<uint8_t>(40, 0x45), 40}}, DLT_RAW);
	std::string err;
	Config c;
	c.nports = 1;
	c.wire = Wire::pcap;
	c.engine = GetParam();
	c.rx_pcap[0] = raw;
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_NE(err.find(raw), std::string::npos) << err;
	c.rx_pcap[0] = dir + "/does_not_exist.pcap";
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_NE(err.find("does_not_exist.pcap"), std::string::npos) << err;
	c.rx_pcap[0].clear();
	c.tx_pcap[0] = dir + "/no/such/dir/out.pcap";
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_NE(err.find("out.pcap"), std::string::npos) << err;
	std::filesystem::remove(raw);
}

TEST_P(Emu, TwoThreadsForwardConcurrently)
{
	/* Both ports transmit from their own threads at once (testpmd with 2 cores). */
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	uint8_t mac0[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 0x00};
	auto worker = [&](unsigned p, const uint8_t *dst) {
		PortRig &r = *rig[p];
		for (int b = 0; b < 200; b++) {
			for (int i = 0; i < 16; i++) {
				make_frame(r.txbuf(r.tx_pi), 64, dst, r.tx_pi);
				r.post(r.tx_pi, 64, false);
			}
			r.ring();
			if (!r.settle())
				return;
		}
	};
	/* Receivers keep their CQ drained while the senders run. */
	std::atomic<bool> done{false};
	std::atomic<uint32_t> got[2] = {0, 0};
	auto drain = [&](unsigned p) {
		while (!done.load()) {
			got[p] += uint32_t(rig[p]->take_cqes().size());
			std::this_thread::yield();
		}
		got[p] += uint32_t(rig[p]->take_cqes().size());
	};
	std::thread d0(drain, 0), d1(drain, 1);
	std::thread t0(worker, 0, kPort1Mac), t1(worker, 1, mac0);
	t0.join();
	t1.join();
	done = true;
	d0.join();
	d1.join();
	EXPECT_EQ(rig[0]->db_outstanding(), 0u);
	EXPECT_EQ(load(rig[1]->db_ci()), 199u % 64); /* 200 doorbells after the wrap to 63 */
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 3200u);
	EXPECT_EQ(tx(1, TxStat::frames_transmitted_ok), 3200u);
	/* Received + dropped (CQ full while the drainer lagged) = sent. */
	EXPECT_EQ(got[1] + rx(1, RxStat::ether_stats_drop_events), 3200u);
	EXPECT_EQ(got[0] + rx(0, RxStat::ether_stats_drop_events), 3200u);
}

/* Not a pass/fail test: prints the model's 64 B rate through the inline engine
 * (run with --gtest_also_run_disabled_tests --gtest_filter=*Throughput*). */
TEST_P(Emu, DISABLED_Throughput64B)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	PortRig &s = *rig[0], &d = *rig[1];
	for (uint32_t i = 0; i < kTxBufs; i++)
		make_frame(s.txbuf(i), 60, kPort1Mac, i);
	constexpr uint32_t kBurst = 32, kIters = 200000;
	uint64_t got = 0;
	auto t0 = std::chrono::steady_clock::now();
	for (uint32_t it = 0; it < kIters; it++) {
		for (uint32_t i = 0; i < kBurst; i++)
			s.post(s.tx_pi, 60, i == kBurst - 1);
		s.ring();
		/* Thread engine: keep at most 4 bursts (128 of 256 WQEs) in flight. */
		while (thread() && s.db_outstanding() > 4)
			std::this_thread::yield();
		got += d.take_cqes().size();
		if ((it & 63) == 0)
			s.take_events();
	}
	double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	printf("%s: %.2f Mpps (%lu of %u frames received)\n", thread() ? "thread" : "inline",
	       got / sec / 1e6, got, kIters * kBurst);
	EXPECT_GT(got, 0u);
}

INSTANTIATE_TEST_SUITE_P(Engines, Emu, ::testing::Values(Engine::inline_run, Engine::thread),
			 engine_name);

/* ---- Engine-independent ---- */

/* The model knows the published map: with strict mode off, a driver access outside it or a
 * write to a register only the hardware writes is counted and has no effect (strict mode, the
 * default, stops the process instead). */
TEST(EmuDevice, PublishedMapViolationsAreCountedAndIgnored)
{
	std::string err;
	Config c;
	c.nports = 2;
	c.strict = false;
	auto d = Device::create(c, &err);
	ASSERT_NE(d, nullptr) << err;
	EXPECT_EQ(d->map_violations(), 0u);
	/* The first word of port 1's QPC block that no header defines. */
	uint32_t unmapped = hw::reg::qpc(1);
	while (hw::regmap::find(unmapped) != nullptr)
		unmapped += 4;
	d->bar().wr32(unmapped, 0x1234);
	EXPECT_EQ(d->map_violations(), 1u);
	EXPECT_EQ(d->bar().rd32(unmapped), 0u);
	EXPECT_EQ(d->map_violations(), 2u);
	/* PCS STATUS1 is the hardware's: a write is refused, the link bit stays as it was. */
	const uint32_t sts = hw::reg::mac_pcs(0, 0) + hw::reg::MAC_PCS_STATUS1;
	uint32_t before = d->bar().rd32(sts);
	d->bar().wr32(sts, ~before);
	EXPECT_EQ(d->map_violations(), 3u);
	EXPECT_EQ(d->bar().rd32(sts), before);
	/* Registers of the map, every port and lane, count nothing. */
	hw::Port p(&d->bar(), 1);
	p.quiesce();
	p.set_loopback(true);
	(void)p.rx_stat(RxStat::frames_received_ok);
	p.stats_reset();
	EXPECT_EQ(d->map_violations(), 3u);
}

/* The model holds the whole published map (base/gaudi_regmap_published.h, generated from the
 * public asic_reg headers): in strict mode every published register of every macro is accepted;
 * one the model gives no behaviour is stored and read back, and counted; the model knows no
 * register the headers do not define; an offset no header defines is refused. */
TEST(EmuDevice, PublishedMapIsAcceptedAndTheRestRefused)
{
	namespace regmap = hw::regmap;
	std::string err;
	Config c;
	c.nports = 24;
	auto d = Device::create(c, &err);
	ASSERT_NE(d, nullptr) << err;
	EXPECT_EQ(d->model_only_registers(), 0u);
	ASSERT_GT(regmap::kRegs.size(), 7000u);
	uint64_t stored = 0;
	for (unsigned m = 0; m < hw::kMacros; m++)
		for (const regmap::PublishedReg &r : regmap::kRegs) {
			const uint32_t off =
				m * hw::kMacroStride + r.cfg_addr - hw::reg::kNic0CfgBase;
			const uint64_t before = d->unmodeled_accesses();
			const uint32_t v = d->bar().rd32(off);
			if (d->unmodeled_accesses() == before)
				continue; /* modelled: its behaviour is tested elsewhere */
			const uint32_t pattern = ~v ^ off;
			d->bar().wr32(off, pattern);
			ASSERT_EQ(d->bar().rd32(off), pattern) << r.name << " of macro " << m;
			stored++;
		}
	EXPECT_GT(stored, 5000u * hw::kMacros);
	EXPECT_EQ(d->map_violations(), 0u);

	/* Unpublished words inside published blocks: refused (counted with strict off). */
	Config c2;
	c2.nports = 2;
	c2.strict = false;
	auto d2 = Device::create(c2, &err);
	ASSERT_NE(d2, nullptr) << err;
	unsigned refused = 0;
	for (const regmap::PublishedBlock &b : regmap::kBlocks) {
		for (uint32_t a = b.base; a < b.end && refused < 64; a += 4) {
			const uint32_t off = a - hw::reg::kNic0CfgBase;
			if (regmap::find(off) != nullptr)
				continue;
			const uint64_t before = d2->map_violations();
			d2->bar().wr32(off, 0x5A5A5A5A);
			EXPECT_EQ(d2->map_violations(), before + 1) << "0x" << std::hex << a;
			EXPECT_EQ(d2->bar().rd32(off), 0u) << "0x" << std::hex << a;
			refused++;
			break; /* one gap per block */
		}
	}
	EXPECT_GT(refused, 10u);
}

/* A value the public driver never writes to a register traffic depends on is stored, as
 * silicon would, and reported (counted; logged once per register). */
TEST(EmuDevice, UnpublishedValuesOfTrafficRegistersAreReported)
{
	namespace hr = hw::reg;
	std::string err;
	Config c;
	c.nports = 2;
	auto d = Device::create(c, &err);
	ASSERT_NE(d, nullptr) << err;
	auto wr = [&](uint32_t off, uint32_t v) { d->bar().wr32(off, v); };
	const uint32_t dscp = hr::txe(1) + hr::TXE_PRIO_TO_DSCP_0;
	wr(dscp, 0x18100000); /* gaudi2_cn.c config_port_hw_txe */
	EXPECT_EQ(d->unpublished_values(), 0u);
	wr(dscp, 0); /* what this driver wrote before issue 21 */
	EXPECT_EQ(d->unpublished_values(), 1u);
	EXPECT_EQ(d->bar().rd32(dscp), 0u) << "stored all the same";
	wr(hr::txb(0) + hr::TXB_TDM_PORT_ARB_MASK, 0xBBEE);
	wr(hr::txb(0) + hr::TXB_TDM_PORT_ARB_MASK, 0x7BDE);
	EXPECT_EQ(d->unpublished_values(), 1u);
	wr(hr::txb(0) + hr::TXB_TDM_PORT_ARB_MASK, 0);
	wr(hr::qpc_axuser(1, hr::QPC_AXUSER_DB_FIFO_BASE) + hr::QPC_AXUSER_DB_FIFO_HB_WR_OVRD_LO,
	   0);
	wr(hr::txb(0) + hr::TXB_GLOBAL_PAUSE, 1);
	EXPECT_EQ(d->unpublished_values(), 4u);
	/* Registers outside the rules take any value. */
	wr(hr::txe(1) + hr::TXE_LOG_MAX_WQ_SIZE_0, 3);
	EXPECT_EQ(d->unpublished_values(), 4u);
}

/* Power-up is what habanalabs finds: interrupts enabled and unmasked, the event queue and RX
 * on, and the boot firmware's TXE raw size checkers (187..8320). */
TEST(EmuDevice, PowerUpStateIsPublished)
{
	std::string err;
	Config c;
	c.nports = 2;
	auto d = Device::create(c, &err);
	ASSERT_NE(d, nullptr) << err;
	namespace reg = hw::reg;
	auto rd = [&](uint32_t off) { return d->bar().rd32(off); };
	EXPECT_NE(rd(reg::qpc(1) + reg::QPC_INTERRUPT_EN) & reg::intr_msi_en(reg::INTR_EQ), 0u);
	EXPECT_EQ(rd(reg::qpc(1) + reg::QPC_INTERRUPT_MASK), 0u);
	EXPECT_TRUE(rd(reg::qpc(1) + reg::QPC_EVENT_QUE_CFG) &
		    reg::QPC_EVENT_QUE_CFG_ENABLE.mask());
	EXPECT_EQ(rd(reg::mac_128(1, 0) + reg::MAC_128_COMMAND_CONFIG), 0x2913u);
	EXPECT_EQ(rd(reg::txe(0) + reg::TXE_WQE_CHECK_CFG5), 187u);
	EXPECT_EQ(rd(reg::txe(0) + reg::TXE_WQE_CHECK_CFG4), 8320u);
	/* After quiesce, as gaudi2_nic_disable_nics_interrupts leaves it. */
	hw::Port p(&d->bar(), 1);
	p.quiesce();
	EXPECT_EQ(rd(reg::qpc(1) + reg::QPC_INTERRUPT_EN), 0u);
	EXPECT_EQ(rd(reg::qpc(1) + reg::QPC_INTERRUPT_MASK), 0xFFFFFFFFu);
	EXPECT_EQ(rd(reg::qpc(1) + reg::QPC_EVENT_QUE_CFG), 0u);
}

TEST(EmuDevice, CreateChecksAndFirmwareMac)
{
	std::string err;
	Config c;
	c.nports = 0;
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_FALSE(err.empty());
	c.nports = 25;
	EXPECT_EQ(Device::create(c, &err), nullptr);
	c.nports = 24;
	auto d = Device::create(c, &err);
	ASSERT_NE(d, nullptr) << err;
	EXPECT_EQ(d->nports(), 24u);
	uint8_t mac[6];
	d->fw_mac_addr(13, mac);
	const uint8_t want[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 13};
	EXPECT_EQ(std::memcmp(mac, want, 6), 0);
	/* Gateway completes at once; BUSY reads 0. */
	hw::Port p(&d->bar(), 23);
	hw::qpc::ResImage res;
	res.set(hw::qpc::RES_VALID, 0);
	EXPECT_TRUE(p.qpc_write_res(res, false));
	EXPECT_EQ(d->bar().rd32(hw::reg::qpc(23) + hw::reg::QPC_GW_BUSY), 0u);
	/* Accesses outside the region are ignored, reads give 0. */
	d->bar().wr32(hw::kNicRegionSize, 1);
	EXPECT_EQ(d->bar().rd32(hw::kNicRegionSize), 0u);
}

} /* namespace */
