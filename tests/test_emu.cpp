/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the Gaudi2 NIC device model, driven through hw::Port exactly as a driver
 * drives the silicon: rings in IOVA-contiguous memzones, registers through the model's Bar.
 * Traffic tests run with both engines (inline and thread).
 */

#include "test_emu.h"

namespace {

/* ===================================================================================== */

TEST_P(Emu, PairWireDeliversFramesCqesAndTxCompletion)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	const std::vector<uint32_t> sizes = {60, 64, 100, 128, 500, 1000, 1400, 1514};
	send(0, sizes);

	std::vector<Cqe> c = rig[1]->take_cqes();
	ASSERT_EQ(c.size(), sizes.size());
	uint64_t bytes = 0;
	for (uint32_t i = 0; i < sizes.size(); i++) {
		EXPECT_EQ(c[i].d0, hw::CQE_VALID | hw::kRawQpn) << i;
		EXPECT_EQ(c[i].wqe_index, i);
		EXPECT_EQ(c[i].size, sizes[i]);
		EXPECT_EQ(std::memcmp(rig[1]->slot(i), rig[0]->txbuf(i), sizes[i]), 0) << i;
		bytes += sizes[i];
	}
	EXPECT_EQ(load(rig[1]->cq_pi()), sizes.size());
	EXPECT_EQ(reg(hw::reg::rxe(1) + hw::reg::RXE_CQ_PRODUCER_INDEX_0), sizes.size());
	EXPECT_EQ(load(rig[0]->db_ci()), 0u); /* FIFO position of the one doorbell, from 63 */

	auto ev = of_type(rig[0]->take_events(), EqeType::raw_tx_comp);
	ASSERT_EQ(ev.size(), 1u); /* SE on the last WQE only */
	EXPECT_EQ(ev[0].d1, hw::kRawQpn);
	EXPECT_EQ(ev[0].d2, sizes.size() - 1);
	EXPECT_EQ(load(rig[0]->eq_pi()), rig[0]->eq_ci);

	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), sizes.size());
	EXPECT_EQ(tx(0, TxStat::ether_stats_octets), bytes + 4 * sizes.size());
	EXPECT_EQ(tx(0, TxStat::if_out_ucast_pkts), sizes.size());
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), sizes.size());
	EXPECT_EQ(rx(1, RxStat::ether_stats_octets), bytes + 4 * sizes.size());
	EXPECT_EQ(rx(1, RxStat::octets_received_ok), bytes);
	/* Buckets count the frame with FCS: 64 | 68, 104 | 132 | 504 | 1004 | 1404, 1518. */
	EXPECT_EQ(rx(1, RxStat::ether_stats_pkts_64), 1u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_pkts_65_to_127), 2u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_pkts_1024_to_1518), 2u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_pkts_1519_to_max), 0u);
	EXPECT_EQ(tx(0, TxStat::ether_stats_pkts_1024_to_1518), 2u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 0u);
	EXPECT_EQ(dev->counters(0).wire_tx_frames, sizes.size());
	EXPECT_EQ(dev->counters(1).wire_rx_frames, sizes.size());
	EXPECT_EQ(dev->counters(1).wire_tx_frames, 0u);

	/* And back: port 1 -> port 0, ring wraps nothing yet; CQ of port 0 starts at slot 0. */
	uint8_t mac0[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 0x00};
	send(1, {200, 300}, mac0);
	c = rig[0]->take_cqes();
	ASSERT_EQ(c.size(), 2u);
	EXPECT_EQ(c[1].wqe_index, 1u);
	EXPECT_EQ(c[1].size, 300u);
}

/* Port open and close program what the public drivers do, with their values, on the port's
 * copy of each block (port 1: the odd copies), and leave the rest of each register alone:
 * gaudi2_cn.c config_port_hw_qpc / _txe / _rxe, gaudi2_cn_eq.c eq_hw_config, gaudi2_en.c
 * port_close (__db_fifo_reset) and gaudi2_cn.c stop_traffic. Frames still move after it. */
TEST_P(Emu, PortOpenAndCloseProgramming)
{
	make();
	namespace hr = hw::reg;
	PortRig &r = *rig[1];
	const uint32_t q = hr::qpc(1), t = hr::txe(1), x = hr::rxe(1);
	auto wr = [this](uint32_t off, uint32_t v) { dev->bar().wr32(off, v); };
	/* Bits the RMWs must keep or clear, and registers the open must overwrite. */
	const uint32_t st0 = reg(q + hr::QPC_REQ_STATIC_CONFIG);
	wr(q + hr::QPC_REQ_STATIC_CONFIG,
	   st0 | hr::QPC_REQ_STATIC_CONFIG_QM_PUSH_TO_ERROR_ASID.mask() |
		   hr::QPC_REQ_STATIC_CONFIG_QM_MOVEQP2ERR_ASID_ERR.mask());
	wr(q + hr::QPC_WTD_CONFIG, 0xFFFFFFFF);
	wr(q + hr::QPC_REQ_QPC_CACHE_INVALIDATE, 1);
	wr(q + hr::QPC_EVENT_QUE_CONSUMER_INDEX_CB, 5);
	wr(t + hr::TXE_STATS_CFG1,
	   hr::TXE_STATS_CFG1_WIN_TYPE.mask() | hr::TXE_STATS_CFG1_WIN_SAMP_LATENCY.mask());
	wr(t + hr::TXE_STATS_CFG2, hr::TXE_STATS_CFG2_LATENCY_WRAP_EN.mask());
	for (unsigned cq = 1; cq < hr::kRxeCqs; cq++)
		wr(x + hr::rxe_cq(hr::RXE_CQ_CFG_0, cq), hr::RXE_CQ_CFG_0_ENABLE.mask());
	wr(x + hr::RXE_CQ_ARM_TIMEOUT_EN, 0x3);

	r.hw.quiesce();
	r.hw.eq_init({r.iova(PortRig::kEq), kEqLog2, r.iova(PortRig::kEqPi)});
	const uint64_t req = hw::nicmem::req_qpc_addr(1), res = hw::nicmem::res_qpc_addr(1);
	r.hw.qpc_config({req, res, r.iova(PortRig::kDbCi)});
	ASSERT_TRUE(r.hw.tx_init(r.tx_cfg()));
	ASSERT_TRUE(r.hw.db_fifo_align(r.db_ci()));
	ASSERT_TRUE(r.hw.rx_init(r.rx_cfg()));
	r.hw.cq_arm_timer_off();

	/* QPC: the raw QP's context tables are the port's slice of the carve-out. */
	EXPECT_EQ(reg(q + hr::QPC_REQ_BASE_ADDRESS_63_32), uint32_t(req >> 32));
	EXPECT_EQ(reg(q + hr::QPC_REQ_BASE_ADDRESS_31_7), uint32_t(req) >> 7);
	EXPECT_EQ(reg(q + hr::QPC_RES_BASE_ADDRESS_63_32), uint32_t(res >> 32));
	EXPECT_EQ(reg(q + hr::QPC_RES_BASE_ADDRESS_31_7), uint32_t(res) >> 7);
	EXPECT_NE(req, hw::nicmem::req_qpc_addr(0));
	EXPECT_EQ(reg(q + hr::QPC_REQ_QPC_CACHE_INVALIDATE), 0u); /* pulse ends at 0 */
	EXPECT_EQ(reg(q + hr::QPC_RES_QPC_CACHE_INVALIDATE), 0u);
	for (uint32_t b : {hr::QPC_AXUSER_DB_FIFO_BASE, hr::QPC_AXUSER_ERR_FIFO_BASE,
			   hr::QPC_AXUSER_QPC_REQ_BASE, hr::QPC_AXUSER_QPC_RESP_BASE,
			   hr::QPC_AXUSER_CONG_QUE_BASE, hr::QPC_AXUSER_EV_QUE_LBW_INTR_BASE}) {
		EXPECT_EQ(reg(hr::qpc_axuser(1, b) + hr::QPC_AXUSER_DB_FIFO_HB_WR_OVRD_LO),
			  0xFFFFFBFFu)
			<< std::hex << b;
		EXPECT_EQ(reg(hr::qpc_axuser(1, b) + hr::QPC_AXUSER_DB_FIFO_HB_RD_OVRD_LO),
			  0xFFFFFBFFu)
			<< std::hex << b;
		/* port 0's copy is its own */
		EXPECT_EQ(reg(hr::qpc_axuser(0, b) + hr::QPC_AXUSER_DB_FIFO_HB_WR_OVRD_LO), 0u);
	}
	const uint32_t st = reg(q + hr::QPC_REQ_STATIC_CONFIG);
	EXPECT_EQ(st, (st0 | hr::QPC_REQ_STATIC_CONFIG_QM_MOVEQP2ERR_SECUR_ERR.mask() |
		       hr::QPC_REQ_STATIC_CONFIG_QM_UPD_IGNORE_ASID_ERR.mask() |
		       hr::QPC_REQ_STATIC_CONFIG_QM_PUSH_TO_ERROR_SECURITY.mask()))
		<< std::hex << st;
	EXPECT_EQ(reg(q + hr::QPC_WTD_CONFIG), 0xFFFFFFCFu); /* WQ_BP_2ARC_EN, _2QMAN_EN off */
	const uint32_t d = hr::qpc_dbfifosecur(1);
	const uint64_t ci = r.iova(PortRig::kDbCi);
	EXPECT_EQ(reg(d + hr::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_31_7),
		  uint32_t(ci) >> 7);
	EXPECT_EQ(reg(q + hr::QPC_EVENT_QUE_CONSUMER_INDEX_CB), 0u);
	/* TXE */
	EXPECT_EQ(reg(t + hr::TXE_PRIO_TO_DSCP_0), 0x18100000u);
	EXPECT_EQ(reg(t + hr::TXE_WQE_USER_CFG), 1u);
	EXPECT_EQ(reg(t + hr::TXE_WQE_PREFETCH_CFG), 3u);
	EXPECT_EQ(reg(t + hr::TXE_BTH_MKEY), 0xFFFFu);
	EXPECT_EQ(reg(t + hr::TXE_STATS_CFG0), 488u * 100000u); /* 100 ms at 488 MHz */
	EXPECT_EQ(reg(t + hr::TXE_STATS_CFG1), 0x903u);	   /* TOT_TYPE 3, ENABLE, LATENCY_ENABLE */
	EXPECT_EQ(reg(t + hr::TXE_STATS_CFG2), 2u * 488u); /* 2 us, no wrap */
	/* RXE */
	for (unsigned cq = 0; cq < hr::kRxeCqs; cq++)
		EXPECT_EQ(reg(hr::rxe_axuser_cq(1, cq) + hr::RXE_AXUSER_AXUSER_CQ0_HB_WR_OVRD_LO),
			  0xFFFFFBFFu)
			<< cq;
	EXPECT_EQ(hr::rxe_axuser_cq(1, 15) - hr::rxe_axuser_cq(0, 0), 0x1000u + 15 * 0x50u);
	EXPECT_EQ(reg(x + hr::RXE_CQ_CFG_0), 0x9u);
	for (unsigned cq = 1; cq < hr::kRxeCqs; cq++)
		EXPECT_EQ(reg(x + hr::rxe_cq(hr::RXE_CQ_CFG_0, cq)), 0u) << cq;
	EXPECT_EQ(reg(x + hr::RXE_ARUSER_MMU_BP), 1u);
	EXPECT_EQ(reg(x + hr::RXE_DBG_SPMU_SELECT), 1u);
	EXPECT_EQ(reg(x + hr::RXE_CQ_ARM_TIMEOUT_EN), 0x2u); /* raw CQ's timer off, CQ 1 kept */

	/* Frames still move: port 0 to port 1. */
	rig[0]->bring_up();
	r.hw.mac_config(true);
	uint8_t mac[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 1};
	r.hw.set_mac_addr(mac);
	r.hw.set_rxb_accept_all(true);
	r.raw_min_check(false);
	send(0, {100, 200});
	ASSERT_TRUE(wait_until([&] { return load(r.cq_pi()) == 2; }))
		<< "no frames on the reprogrammed port";
	EXPECT_EQ(r.take_cqes().size(), 2u);

	/* Close: QPs invalid, then __db_fifo_reset: FIFO wrapped to 63, CI address cleared. */
	ASSERT_TRUE(r.hw.tx_disable());
	r.hw.rx_disable();
	ASSERT_TRUE(r.hw.db_fifo_reset(r.db_ci()));
	EXPECT_EQ(load(r.db_ci()), 63u);
	EXPECT_EQ(reg(d + hr::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_31_7), 0u);
	EXPECT_EQ(reg(d + hr::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_63_32), 0u);

	/* Device close: stop_traffic of port 1 only (and its macro's timers). */
	hw::nicmem::stop_traffic(dev->bar(), 1u << 1);
	EXPECT_TRUE(reg(q + hr::QPC_REQ_STATIC_CONFIG) &
		    hr::QPC_REQ_STATIC_CONFIG_CACHE_STOP.mask());
	EXPECT_TRUE(reg(q + hr::QPC_RES_STATIC_CONFIG) &
		    hr::QPC_RES_STATIC_CONFIG_CACHE_STOP.mask());
	EXPECT_FALSE(reg(hr::qpc(0) + hr::QPC_REQ_STATIC_CONFIG) &
		     hr::QPC_REQ_STATIC_CONFIG_CACHE_STOP.mask());
	EXPECT_EQ(reg(hr::txs(1) + hr::TXS_CACHE_CFG) & 0x12u, 0x12u);
	EXPECT_EQ(reg(hr::txs(0) + hr::TXS_CACHE_CFG) & 0x12u, 0u);
	EXPECT_EQ(reg(hr::tmr(1) + hr::TMR_TMR_CACHES_CFG) & 0x92u, 0x92u);
}

TEST_P(Emu, RingsWrapOverManyDoorbells)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	/* 40 bursts of 25 = 1000 frames: WQ (256) and CQ (64) wrap many times. */
	uint32_t got = 0;
	for (int b = 0; b < 40; b++) {
		send(0, std::vector<uint32_t>(25, 64 + b), kPort1Mac, b % 4 == 0);
		for (const Cqe &c : rig[1]->take_cqes()) {
			EXPECT_EQ(c.wqe_index, got % 64);
			EXPECT_EQ(c.size, 64u + b);
			uint32_t seq;
			std::memcpy(&seq, rig[1]->slot(c.wqe_index) + 14, 4);
			EXPECT_EQ(seq, got);
			got++;
		}
	}
	EXPECT_EQ(got, 1000u);
	auto ev = of_type(rig[0]->take_events(), EqeType::raw_tx_comp);
	ASSERT_EQ(ev.size(), 10u);
	EXPECT_EQ(ev.back().d2, (36u * 25 + 24) % 256); /* a ring index */
	EXPECT_EQ(load(rig[0]->db_ci()), 39u);		/* 40 doorbells after the wrap to 63 */
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 0u);
}

TEST_P(Emu, CqOverrunDropsAndRaisesOneCompErrPerEpisode)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	send(0, std::vector<uint32_t>(74, 100));
	EXPECT_EQ(load(rig[1]->cq_pi()), 64u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 10u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 74u); /* the MAC took them all */
	auto ce = of_type(rig[1]->take_events(), EqeType::comp_err);
	ASSERT_EQ(ce.size(), 1u);
	EXPECT_EQ(ce[0].d1, hw::kRawCq);

	/* Still full, no CI yet: more drops, no second event. */
	send(0, {100});
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 11u);
	EXPECT_TRUE(of_type(rig[1]->take_events(), EqeType::comp_err).empty());

	/* Consume: CI = 64 ends the episode; 64 more fit, the 65th starts a new one. */
	EXPECT_EQ(rig[1]->take_cqes().size(), 64u);
	EXPECT_EQ(reg(hw::reg::rxe(1) + hw::reg::RXE_CQ_CONSUMER_INDEX_0), 64u);
	send(0, std::vector<uint32_t>(65, 100));
	EXPECT_EQ(load(rig[1]->cq_pi()), 128u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 12u);
	EXPECT_EQ(of_type(rig[1]->take_events(), EqeType::comp_err).size(), 1u);
}

/* With the RXB programmed as gaudi2_cn_config_hw_rxb does, a full CQ back-pressures into it:
 * frames wait and reach the CQ in order when it has room; at DROP_THRESHOLD (1374 buffers of
 * 128 bytes) the RXB drops (etherStatsDropEvents, SPI_INTR_CAUSE.PKT_DROP_NO_CRDT, one
 * COMP_ERR); past XOFF (714) the MAC sends one PAUSE, and again only after XON (648). */
TEST_P(Emu, FullCqBackPressuresIntoTheRxb)
{
	namespace r = hw::reg;
	make();
	hw::macro::rxb_config(dev->bar(), 0);
	rig[0]->bring_up();
	rig[1]->bring_up();
	const uint32_t cause = r::rxb(1) + r::RXB_CORE_SPI_INTR_CAUSE;
	auto pauses = [&] { return tx(1, TxStat::pause_mac_ctrl_frames_transmitted); };
	/* 1000-byte frames, 8 buffers each: 64 to the CQ, 100 into the RXB (800 buffers, past
	 * XOFF at the 90th: one PAUSE, counted on both sides; the sender ignores it). */
	send(0, std::vector<uint32_t>(164, 1000));
	EXPECT_EQ(load(rig[1]->cq_pi()), 64u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 0u);
	EXPECT_EQ(pauses(), 1u);
	EXPECT_EQ(rx(0, RxStat::pause_mac_ctrl_frames_received), 1u);
	EXPECT_EQ(reg(cause), 0u);
	/* 80 more: 72 fit below the drop threshold (fill 800 + 8 x 71 = 1368 < 1374), 8 drop. */
	send(0, std::vector<uint32_t>(80, 1000));
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 8u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 244u); /* the MAC took them all */
	EXPECT_EQ(reg(cause), r::RXB_CORE_SPI_INTR_CAUSE_PKT_DROP_NO_CRDT.mask());
	EXPECT_EQ(of_type(rig[1]->take_events(), EqeType::comp_err).size(), 1u);
	EXPECT_EQ(pauses(), 1u);
	/* The application takes the CQ three times: the RXB's 172 frames follow the first 64, in
	 * sending order, and the 8 dropped were the last ones. */
	uint32_t got = 0;
	for (int round = 0; round < 8 && got < 236; round++) {
		ASSERT_TRUE(wait_until([&] { return load(rig[1]->cq_pi()) != got; })) << got;
		/* Slots read before the CI gives them back (the RXB refills them at once). */
		for (const Cqe &c : rig[1]->take_cqes(false)) {
			uint32_t seq;
			std::memcpy(&seq, rig[1]->slot(c.wqe_index) + 14, 4);
			EXPECT_EQ(seq, got);
			EXPECT_EQ(c.size, 1000u);
			got++;
		}
		rig[1]->hw.rx_write_ci(rig[1]->cq_ci);
	}
	EXPECT_EQ(got, 236u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 8u);
	/* Empty again (XON passed): a new episode sends a second PAUSE. */
	send(0, std::vector<uint32_t>(64 + 90, 1000));
	EXPECT_EQ(pauses(), 2u);
	/* Without TX pause (XOFF / XON past any fill, as the PMD writes them) no PAUSE. */
	for (unsigned i = 0; i < r::kRxbPrioRegs; i++) {
		dev->bar().wr32(r::rxb(1) + r::rxb_prio_reg(r::RXB_CORE_XOFF_THRESHOLD_0, i),
				hw::macro::pair(0x1FFF));
		dev->bar().wr32(r::rxb(1) + r::rxb_prio_reg(r::RXB_CORE_XON_THRESHOLD_0, i),
				hw::macro::pair(0x1FFF));
	}
	while (got < 236 + 154) {
		ASSERT_TRUE(wait_until([&] { return load(rig[1]->cq_pi()) != got; })) << got;
		got += uint32_t(rig[1]->take_cqes().size());
	}
	send(0, std::vector<uint32_t>(64 + 100, 1000));
	EXPECT_EQ(pauses(), 2u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 8u);
}

TEST_P(Emu, DoorbellFifoOverrun)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	PortRig &r = *rig[0];
	dev->hold_engine(true);
	for (uint32_t i = 0; i < hw::kDbFifoEntries; i++) {
		make_frame(r.txbuf(i), 80, kPort1Mac, i);
		r.post(i, 80, false);
		r.ring();
	}
	EXPECT_EQ(load(r.db_ci()), 63u);   /* engine held: nothing consumed since the alignment */
	r.hw.ring_doorbell(r.tx_pi & 255); /* 65th: dropped */
	auto ov = of_type(r.take_events(), EqeType::db_fifo_overrun);
	ASSERT_EQ(ov.size(), 1u);
	EXPECT_EQ(ov[0].d1, 30u); /* GAUDI2_DB_FIFO_SECURE_HW_ID */

	dev->hold_engine(false);
	/* 64 outstanding read as 0 through the 6-bit CI: wait for the frames instead. */
	ASSERT_TRUE(wait_until([&] { return load(rig[1]->cq_pi()) == 64; }));
	ASSERT_TRUE(wait_until([&] { return load(r.db_ci()) == 63; })); /* 64 more: one lap */
	EXPECT_EQ(rig[1]->take_cqes().size(), 64u);
	EXPECT_TRUE(of_type(r.take_events(), EqeType::db_fifo_overrun).empty());
}

TEST_P(Emu, QpErrorOnDmaFaultStopsTheQpUntilQpcRewritten)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	PortRig &r = *rig[0];
	r.post_raw(hw::wqe_ctrl(hw::WqeOpcode::linear, 0, true), 100, 0x10); /* unmapped */
	make_frame(r.txbuf(1), 100, kPort1Mac, 1);
	r.post(1, 100, true); /* a good one behind it */
	r.ring();
	ASSERT_TRUE(r.settle());
	auto ev = r.take_events();
	auto qe = of_type(ev, EqeType::qp_err);
	ASSERT_EQ(qe.size(), 1u);
	EXPECT_EQ(qe[0].d1, hw::kRawQpn); /* bit 31 (reset flag) clear */
	EXPECT_EQ(qe[0].d2, uint32_t(QpErrSyndrome::wqe_dma_fault));
	EXPECT_TRUE(of_type(ev, EqeType::raw_tx_comp).empty());
	EXPECT_EQ(dev->counters(0).wire_tx_frames, 0u);
	EXPECT_EQ(dev->counters(0).qp_errors, 1u);
	EXPECT_EQ(dev->counters(0).last_qp_syndrome, uint32_t(QpErrSyndrome::wqe_dma_fault));
	EXPECT_TRUE(rig[1]->take_cqes().empty());

	/* In error: doorbells are consumed (CI moves) but nothing runs, no new event. */
	r.ring();
	ASSERT_TRUE(r.settle());
	EXPECT_TRUE(r.take_events().empty());
	EXPECT_EQ(dev->counters(0).wire_tx_frames, 0u);

	/* Recovery: rewrite the requester QPC valid with the execution index past the bad WQE. */
	hw::qpc::ReqImage img;
	img.set(hw::qpc::REQ_EXECUTION_IDX, 1);
	img.set(hw::qpc::REQ_ERROR, 0);
	img.set(hw::qpc::REQ_VALID, 1);
	ASSERT_TRUE(r.hw.qpc_write_req(img, false));
	r.ring();
	ASSERT_TRUE(r.settle());
	auto c = rig[1]->take_cqes();
	ASSERT_EQ(c.size(), 1u);
	EXPECT_EQ(std::memcmp(rig[1]->slot(0), r.txbuf(1), 100), 0);
	auto tc = of_type(r.take_events(), EqeType::raw_tx_comp);
	ASSERT_EQ(tc.size(), 1u);
	EXPECT_EQ(tc[0].d2, 1u);
}

struct BadWqe {
	const char *name;
	uint32_t ctrl_index_delta;
	hw::WqeOpcode op;
	uint32_t size;
	QpErrSyndrome syndrome;
};

TEST_P(Emu, BadWqeSyndromes)
{
	const BadWqe cases[] = {
		{"index", 5, hw::WqeOpcode::linear, 100, QpErrSyndrome::wqe_index_mismatch},
		{"opcode", 0, hw::WqeOpcode::send, 100, QpErrSyndrome::raw_wqe_opcode_unsupported},
		{"size0", 0, hw::WqeOpcode::linear, 0, QpErrSyndrome::raw_wqe_size_unsupported},
		/* TXE raw size checkers as the boot firmware sets them [set_txe_checkers]. */
		{"above8320", 0, hw::WqeOpcode::linear, hw::kMaxFrameLen + 1,
		 QpErrSyndrome::raw_above_max_size},
		{"below187", 0, hw::WqeOpcode::linear, hw::kTxPadSize - 1,
		 QpErrSyndrome::raw_below_min_size},
	};
	for (const BadWqe &bc : cases) {
		SCOPED_TRACE(bc.name);
		rig.clear();
		dev.reset();
		make();
		rig[0]->bring_up();
		rig[1]->bring_up();
		PortRig &r = *rig[0];
		r.raw_min_check(true);
		make_frame(r.txbuf(0), 1600, kPort1Mac, 0);
		r.post_raw(hw::wqe_ctrl(bc.op, r.tx_pi + bc.ctrl_index_delta, true), bc.size,
			   r.txbuf_iova(0));
		r.ring();
		ASSERT_TRUE(r.settle());
		auto qe = of_type(r.take_events(), EqeType::qp_err);
		ASSERT_EQ(qe.size(), 1u);
		EXPECT_EQ(qe[0].d2, uint32_t(bc.syndrome));
		EXPECT_EQ(dev->counters(0).wire_tx_frames, 0u);
	}
	/* The largest legal WQE passes: FRM_LENGTH - FCS. */
	rig.clear();
	dev.reset();
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	send(0, {kFrm - 4});
	EXPECT_EQ(rig[1]->take_cqes().size(), 1u);
}

TEST_P(Emu, PiBeyondLastIndexAndInvalidQp)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	PortRig &r = *rig[0];
	r.hw.ring_doorbell(300); /* a producer index beyond LAST_IDX (255) */
	r.db_rung++;
	ASSERT_TRUE(r.settle());
	auto qe = of_type(r.take_events(), EqeType::qp_err);
	ASSERT_EQ(qe.size(), 1u);
	EXPECT_EQ(qe[0].d2, uint32_t(QpErrSyndrome::pi_exceeds_last_index));

	/* tx_disable clears VALID: a doorbell then reports the QP not valid. */
	ASSERT_TRUE(r.hw.tx_init(r.tx_cfg())); /* recover first (error cleared) */
	ASSERT_TRUE(r.hw.tx_disable());
	r.hw.ring_doorbell(1);
	r.db_rung++;
	ASSERT_TRUE(r.settle());
	qe = of_type(r.take_events(), EqeType::qp_err);
	ASSERT_EQ(qe.size(), 1u);
	EXPECT_EQ(qe[0].d2, uint32_t(QpErrSyndrome::req_db_qp_not_valid));
}

TEST_P(Emu, UndersizeAndTooLongFramesAreCountedAndDropped)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	rig[0]->set_frm_length(2000);
	rig[1]->set_frm_length(1000);
	/* 40 B leaves port 0 unpadded (H6-3399) and is undersize at port 1; 1200 B is too long
	 * for port 1's FRM_LENGTH. */
	/* Boundaries: 59 + FCS = 63 is undersize, 60 is not; 996 + FCS = FRM_LENGTH passes. */
	send(0, {40, 59, 60, 1200, 997, 996});
	auto c = rig[1]->take_cqes();
	ASSERT_EQ(c.size(), 2u);
	EXPECT_EQ(c[0].size, 60u);
	EXPECT_EQ(c[1].size, 996u);
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 6u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_undersize_pkts), 2u);
	EXPECT_EQ(rx(1, RxStat::frame_too_long_errors), 2u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_oversize_pkts), 2u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 2u);
	EXPECT_EQ(dev->counters(1).wire_rx_frames, 6u);
}

/* The MAC counters by class and size, on both MACs of the cable: every RMON bucket boundary
 * (frame length with FCS), 802.1Q tagged frames, multicast apart from broadcast, and a second
 * batch adding to the first. */
TEST_P(Emu, MacCountersByClassAndRmonBoundary)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	rig[0]->set_frm_length(2000);
	rig[1]->set_frm_length(2000);
	/* With FCS: 64 | 65 127 | 128 255 | 256 511 | 512 1023 | 1024 1518 | 1519. */
	const std::vector<uint32_t> sizes = {60,  61,  123,  124,  251,	 252,
					     507, 508, 1019, 1020, 1514, 1515};
	const uint64_t want[7] = {1, 2, 2, 2, 2, 2, 1};
	const uint8_t mcast[6] = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01};
	for (unsigned round = 1; round <= 2; round++) {
		send(0, sizes);
		/* Three tagged frames (TPID 0x8100): one unicast, one multicast, one broadcast. */
		PortRig &r = *rig[0];
		const uint8_t *dsts[3] = {kPort1Mac, mcast, kBcast};
		for (unsigned i = 0; i < 3; i++) {
			uint32_t b = r.tx_pi;
			make_frame(r.txbuf(b), 100, dsts[i], b);
			r.txbuf(b)[12] = 0x81;
			r.txbuf(b)[13] = 0x00;
			r.post(b, 100, i == 2);
		}
		r.ring();
		ASSERT_TRUE(r.settle());
		EXPECT_EQ(rig[1]->take_cqes().size(), sizes.size() + 3);
		const uint64_t n = sizes.size() + 3;
		for (unsigned b = 0; b < 7; b++) {
			uint64_t w = round * (want[b] + (b == 1 ? 3 : 0)); /* 104 B with FCS */
			EXPECT_EQ(rx(1, RxStat(size_t(RxStat::ether_stats_pkts_64) + b)), w) << b;
			EXPECT_EQ(tx(0, TxStat(size_t(TxStat::ether_stats_pkts_64) + b)), w) << b;
		}
		EXPECT_EQ(rx(1, RxStat::frames_received_ok), round * n);
		EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), round * n);
		EXPECT_EQ(rx(1, RxStat::if_in_ucast_pkts), round * (sizes.size() + 1));
		EXPECT_EQ(tx(0, TxStat::if_out_ucast_pkts), round * (sizes.size() + 1));
		EXPECT_EQ(rx(1, RxStat::if_in_multicast_pkts), round);
		EXPECT_EQ(tx(0, TxStat::if_out_multicast_pkts), round);
		EXPECT_EQ(rx(1, RxStat::if_in_broadcast_pkts), round);
		EXPECT_EQ(tx(0, TxStat::if_out_broadcast_pkts), round);
		EXPECT_EQ(rx(1, RxStat::vlan_received_ok), round * 3);
		EXPECT_EQ(tx(0, TxStat::vlan_transmitted_ok), round * 3);
	}
}

TEST_P(Emu, MacFilter)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up(/*promisc=*/false);
	const uint8_t other[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 0x07};
	const uint8_t mcast[6] = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01};
	send(0, {100}, kPort1Mac);
	send(0, {101}, other);
	send(0, {102}, kBcast);
	send(0, {103}, mcast);
	auto c = rig[1]->take_cqes();
	ASSERT_EQ(c.size(), 2u);
	EXPECT_EQ(c[0].size, 100u);
	EXPECT_EQ(c[1].size, 102u);
	/* The MAC counts every good frame; the RXB filter drops after counting. */
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 4u);
	EXPECT_EQ(rx(1, RxStat::if_in_ucast_pkts), 2u);
	EXPECT_EQ(rx(1, RxStat::if_in_broadcast_pkts), 1u);
	EXPECT_EQ(rx(1, RxStat::if_in_multicast_pkts), 1u);
	EXPECT_EQ(rx(1, RxStat::if_in_errors), 0u);

	/* The one RXB raw filter opened (mask all ones): every destination passes. */
	rig[1]->hw.set_rxb_accept_all(true);
	send(0, {104}, mcast);
	send(0, {105}, other);
	rig[1]->hw.set_rxb_accept_all(false);
	send(0, {106}, other);
	c = rig[1]->take_cqes();
	ASSERT_EQ(c.size(), 2u);
	EXPECT_EQ(c[0].size, 104u);
	EXPECT_EQ(c[1].size, 105u);
	EXPECT_EQ(rx(1, RxStat::if_in_multicast_pkts), 2u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 7u);
	EXPECT_EQ(dev->counters(1).wire_rx_frames, 7u);
}

TEST_P(Emu, LoopbackWireAndUnpairedPort)
{
	make(1, Wire::loopback);
	rig[0]->bring_up();
	uint8_t mac0[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 0x00};
	send(0, {123}, mac0);
	auto c = rig[0]->take_cqes();
	ASSERT_EQ(c.size(), 1u);
	EXPECT_EQ(c[0].size, 123u);
	EXPECT_EQ(std::memcmp(rig[0]->slot(0), rig[0]->txbuf(0), 123), 0);
	EXPECT_TRUE(rig[0]->hw.link_up());
}

TEST_P(Emu, UnpairedLastPortDropsAndHasNoLink)
{
	make(3, Wire::pair);
	for (auto &r : rig)
		r->bring_up();
	EXPECT_TRUE(rig[0]->hw.link_up());
	EXPECT_FALSE(rig[2]->hw.link_up());
	/* No carrier: the frame is consumed and dropped by the MAC, counted as an error. */
	send(2, {100}, kBcast);
	EXPECT_EQ(dev->counters(2).wire_tx_frames, 0u);
	EXPECT_EQ(tx(2, TxStat::if_out_errors), 1u);
	EXPECT_EQ(tx(2, TxStat::frames_transmitted_ok), 0u);
	for (auto &r : rig)
		EXPECT_TRUE(r->take_cqes().empty());
}

TEST_P(Emu, PcsLoopbackKeepsFramesOffTheWire)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	rig[0]->hw.set_loopback(true);
	send(0, {150}, kBcast);
	EXPECT_EQ(rig[0]->take_cqes().size(), 1u);
	EXPECT_TRUE(rig[1]->take_cqes().empty());
	EXPECT_EQ(dev->counters(1).wire_rx_frames, 0u);
	rig[0]->hw.set_loopback(false);
	send(0, {151}, kBcast);
	EXPECT_TRUE(rig[0]->take_cqes().empty());
	EXPECT_EQ(rig[1]->take_cqes().size(), 1u);
}

/* [wire delay] A frame spends the wire's delay on the line: it is not at the far MAC before the
 * delay has passed, it is there after, in order and byte for byte. A full line drops and
 * counts what does not fit; the sending MAC counts every frame it sent. */
TEST_P(Emu, WireDelayHoldsFramesUntilDue)
{
	constexpr uint32_t kDelayUs = 200000;
	Config c;
	c.nports = 2;
	c.wire = Wire::pair;
	c.engine = GetParam();
	c.wire_delay_us = kDelayUs;
	c.wire_delay_frames = 4;
	make(c);
	rig[0]->bring_up();
	rig[1]->bring_up();
	uint64_t t0 = rte_get_tsc_cycles();
	send(0, {100, 101, 102, 103, 104, 105}); /* the line holds 4: 2 are dropped */
	dev->bar().service();			 /* inline engine: a driver's poll */
	std::vector<Cqe> early = rig[1]->take_cqes();
	uint64_t in_flight = dev->counters(0).wire_delay_in_flight;
	uint64_t wire_rx = dev->counters(1).wire_rx_frames;
	double waited_us = double(rte_get_tsc_cycles() - t0) * 1e6 / double(rte_get_tsc_hz());
	/* Deterministic: only a look taken before the frames were due says they are held. */
	if (waited_us < kDelayUs) {
		EXPECT_TRUE(early.empty());
		EXPECT_EQ(wire_rx, 0u);
		EXPECT_EQ(in_flight, 4u);
	}
	EXPECT_EQ(dev->counters(0).wire_delay_drops, 2u);
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 6u);
	EXPECT_EQ(dev->counters(0).wire_tx_frames, 6u);

	std::this_thread::sleep_for(std::chrono::microseconds(kDelayUs + 50000));
	std::vector<Cqe> got = early;
	ASSERT_TRUE(wait_until([&] {
		dev->bar().service();
		for (const Cqe &e : rig[1]->take_cqes())
			got.push_back(e);
		return got.size() >= 4;
	}));
	double arrived_us = double(rte_get_tsc_cycles() - t0) * 1e6 / double(rte_get_tsc_hz());
	EXPECT_GE(arrived_us, kDelayUs);
	ASSERT_EQ(got.size(), 4u);
	for (uint32_t i = 0; i < 4; i++) {
		EXPECT_EQ(got[i].size, 100 + i) << i;
		EXPECT_EQ(std::memcmp(rig[1]->slot(i), rig[0]->txbuf(i), 100 + i), 0) << i;
	}
	EXPECT_EQ(dev->counters(1).wire_rx_frames, 4u);
	EXPECT_EQ(dev->counters(0).wire_delay_in_flight, 0u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 4u);

	/* The line keeps no state once empty: the next frame also waits, then arrives. */
	uint64_t t1 = rte_get_tsc_cycles();
	send(0, {300});
	dev->bar().service();
	early = rig[1]->take_cqes();
	if (double(rte_get_tsc_cycles() - t1) * 1e6 / double(rte_get_tsc_hz()) < kDelayUs) {
		EXPECT_TRUE(early.empty());
	}
	got = early;
	std::this_thread::sleep_for(std::chrono::microseconds(kDelayUs));
	ASSERT_TRUE(wait_until([&] {
		dev->bar().service();
		for (const Cqe &e : rig[1]->take_cqes())
			got.push_back(e);
		return !got.empty();
	}));
	ASSERT_EQ(got.size(), 1u);
	EXPECT_EQ(got[0].size, 300u);
}

/* [wire delay] Only the model's own cables have a delay line. */

} /* namespace */
