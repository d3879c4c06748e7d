/* SPDX-License-Identifier: BSD-3-Clause
 * examples/port_capture.h against a port that takes only part of a burst (issue 24): a net_ring
 * port whose TX ring holds 4 frames. The caller offers the frames the port did not take again
 * (as the RoCE Context does); the capture must hold each frame once, in the order the
 * application sent them, and a frame built later in a reused mbuf must be recorded.
 */
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <pcap/pcap.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "port_capture.h"

namespace {

rte_mempool *g_pool;

/* Frame i: 60 bytes, byte 14 onwards carries i (so the capture can be read back in order). */
rte_mbuf *frame(uint32_t i)
{
	rte_mbuf *m = rte_pktmbuf_alloc(g_pool);
	if (m == nullptr)
		return nullptr;
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
	m->data_len = 60;
	m->pkt_len = 60;
	std::memset(d, 0, 60);
	d[0] = 0x02;
	d[6] = 0x02;
	std::memcpy(d + 14, &i, sizeof i);
	return m;
}

std::vector<uint32_t> read_capture(const std::string &path)
{
	std::vector<uint32_t> ids;
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path.c_str(), err);
	if (p == nullptr)
		return ids;
	pcap_pkthdr *h;
	const u_char *d;
	while (pcap_next_ex(p, &h, &d) == 1) {
		uint32_t i;
		std::memcpy(&i, d + 14, sizeof i);
		ids.push_back(i);
	}
	pcap_close(p);
	return ids;
}

TEST(PortCapture, FramesOfferedAgainAfterAPartialBurstAreRecordedOnce)
{
	rte_ring *ring = rte_ring_create("pc_ring", 4, SOCKET_ID_ANY,
					 RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
	ASSERT_NE(ring, nullptr);
	int port = rte_eth_from_ring(ring);
	ASSERT_GE(port, 0);
	rte_eth_conf conf{};
	ASSERT_EQ(rte_eth_dev_configure(uint16_t(port), 1, 1, &conf), 0);
	ASSERT_EQ(rte_eth_rx_queue_setup(uint16_t(port), 0, 64, SOCKET_ID_ANY, nullptr, g_pool), 0);
	ASSERT_EQ(rte_eth_tx_queue_setup(uint16_t(port), 0, 64, SOCKET_ID_ANY, nullptr), 0);
	ASSERT_EQ(rte_eth_dev_start(uint16_t(port)), 0);
	std::string path = "test_port_capture." + std::to_string(getpid()) + ".pcap";
	auto cap = gaudi::examples::PortCapture::open(path.c_str(), uint16_t(port), 0);
	ASSERT_NE(cap, nullptr);

	/* The application's TX buffer: what the port did not take stays at its head. */
	std::vector<rte_mbuf *> pending;
	uint32_t next = 0;
	auto offer = [&] {
		uint16_t n = rte_eth_tx_burst(uint16_t(port), 0, pending.data(),
					      uint16_t(pending.size()));
		pending.erase(pending.begin(), pending.begin() + n);
		return n;
	};
	auto drain = [&] {
		void *b[8];
		unsigned n = rte_ring_dequeue_burst(ring, b, 8, nullptr);
		for (unsigned i = 0; i < n; i++)
			rte_pktmbuf_free(static_cast<rte_mbuf *>(b[i]));
		return n;
	};
	for (int i = 0; i < 8; i++)
		pending.push_back(frame(next++));
	EXPECT_EQ(offer(), 4); /* the ring is full after 4 */
	EXPECT_EQ(offer(), 0); /* offered again, taken none */
	EXPECT_EQ(drain(), 4u);
	pending.push_back(frame(next++)); /* a new frame, likely in a freed mbuf */
	EXPECT_EQ(offer(), 4);
	EXPECT_EQ(drain(), 4u);
	EXPECT_EQ(offer(), 1);
	EXPECT_EQ(drain(), 1u);
	for (int i = 0; i < 3; i++) /* reused mbufs, new frames */
		pending.push_back(frame(next++));
	EXPECT_EQ(offer(), 3);
	EXPECT_EQ(drain(), 3u);
	EXPECT_TRUE(pending.empty());
	cap->flush();
	EXPECT_EQ(cap->frames(), uint64_t(next));
	std::vector<uint32_t> want(next);
	for (uint32_t i = 0; i < next; i++)
		want[i] = i;
	EXPECT_EQ(read_capture(path), want);
	cap.reset();
	unlink(path.c_str());
	rte_eth_dev_stop(uint16_t(port));
	rte_eth_dev_close(uint16_t(port));
	rte_ring_free(ring);
}

} /* namespace */

int main(int argc, char **argv)
{
	::testing::InitGoogleTest(&argc, argv);
	const char *eal[] = {
		"test_port_capture",	    "--no-huge", "-m", "64", "--no-shconf", "--no-pci",
		"--log-level=lib.eal:error"};
	if (rte_eal_init(int(std::size(eal)), const_cast<char **>(eal)) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	g_pool = rte_pktmbuf_pool_create("pc_pool", 255, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
					 SOCKET_ID_ANY);
	if (g_pool == nullptr)
		return 1;
	int rc = RUN_ALL_TESTS();
	rte_mempool_free(g_pool);
	rte_eal_cleanup();
	return rc;
}
