/* SPDX-License-Identifier: BSD-3-Clause
 * Ethdev features: RX slots attached to mbufs (devarg rx_copy_max) and TX fast free of bounced and
 * zero-copy mbufs.
 */

#include "test_ethdev_features.h"

namespace {

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
