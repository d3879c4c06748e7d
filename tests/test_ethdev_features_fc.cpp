/* SPDX-License-Identifier: BSD-3-Clause
 * Ethdev features: flow control on the cable (PAUSE back-pressure on a pair, in loopback and PCS
 * loopback), link down/up and the bad-input errno table.
 */

#include "test_ethdev_features.h"

namespace {

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

} /* namespace */
