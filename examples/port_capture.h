/* SPDX-License-Identifier: BSD-3-Clause */
/* PortCapture: every frame a DPDK port receives or sends on one queue, written to a pcap file
 * (libpcap's dump format, microsecond timestamps), through ethdev RX/TX callbacks. A debugging
 * aid for the examples (`--pcap=FILE`): the file is what crossed the wire on our side, in the
 * order the application saw it, for examples/roce_decode or tshark. It does file I/O in the
 * burst path, so it is for diagnosis, not for measurements.
 *
 * TX frames are seen by a pre-TX callback, before the PMD decides how many of the burst it
 * takes; the caller offers the rest again in its next burst (the RoCE Context keeps them at
 * the head of its TX buffer). Each recorded mbuf is therefore marked with a dynamic mbuf flag
 * and skipped when offered again: rte_pktmbuf_alloc() clears ol_flags, so a fresh frame in a
 * reused mbuf is recorded, a retried one is not (it was logged once per retry before: a 4 GB
 * capture for 60,166 frames sent under loss, issue 24). */
#pragma once

#include <sys/time.h>

#include <cerrno> /* program_invocation_short_name (glibc) */
#include <cstdio>
#include <memory>

#include <pcap/pcap.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

namespace gaudi::examples {

class PortCapture {
public:
	/* nullptr (reason on stderr) if the file cannot be opened or callbacks are unavailable. */
	static std::unique_ptr<PortCapture> open(const char *path, uint16_t port, uint16_t queue)
	{
		std::unique_ptr<PortCapture> c(new PortCapture(port, queue));
		c->pcap_ = pcap_open_dead(DLT_EN10MB, 65535);
		if (c->pcap_ != nullptr)
			c->dump_ = pcap_dump_open(c->pcap_, path);
		if (c->dump_ == nullptr) {
			fprintf(stderr, "%s: --pcap %s: %s\n", program_invocation_short_name, path,
				c->pcap_ ? pcap_geterr(c->pcap_) : "pcap_open_dead failed");
			return nullptr;
		}
		static const rte_mbuf_dynflag flag = {"gaudi_example_capture_seen", 0};
		int bit = rte_mbuf_dynflag_register(&flag);
		if (bit < 0) {
			fprintf(stderr, "%s: --pcap %s: no dynamic mbuf flag left\n",
				program_invocation_short_name, path);
			return nullptr;
		}
		c->seen_ = uint64_t(1) << bit;
		c->rx_cb_ = rte_eth_add_rx_callback(port, queue, on_rx, c.get());
		c->tx_cb_ = rte_eth_add_tx_callback(port, queue, on_tx, c.get());
		if (c->rx_cb_ == nullptr || c->tx_cb_ == nullptr) {
			fprintf(stderr, "%s: --pcap %s: ethdev RX/TX callbacks unavailable\n",
				program_invocation_short_name, path);
			return nullptr;
		}
		return c;
	}
	~PortCapture()
	{
		/* Removal does not free the callback while a burst may run it; callers destroy the
		 * capture only when no burst is running (after the datapath stopped). */
		if (rx_cb_ != nullptr)
			rte_eth_remove_rx_callback(port_, queue_, rx_cb_);
		if (tx_cb_ != nullptr)
			rte_eth_remove_tx_callback(port_, queue_, tx_cb_);
		if (dump_ != nullptr)
			pcap_dump_close(dump_);
		if (pcap_ != nullptr)
			pcap_close(pcap_);
	}
	PortCapture(const PortCapture &) = delete;
	PortCapture &operator=(const PortCapture &) = delete;
	uint64_t frames() const { return frames_; }
	void flush() { pcap_dump_flush(dump_); }

private:
	PortCapture(uint16_t port, uint16_t queue) : port_(port), queue_(queue) {}

	/* tx: skip the mbufs already recorded (offered again after a partial burst), mark the
	 * rest. */
	void write(rte_mbuf *const *pkts, uint16_t n, bool tx)
	{
		uint8_t frame[16384];
		timeval now;
		gettimeofday(&now, nullptr);
		for (uint16_t i = 0; i < n; i++) {
			rte_mbuf *m = pkts[i];
			if (tx) {
				if (m->ol_flags & seen_)
					continue;
				m->ol_flags |= seen_;
			}
			uint32_t len = rte_pktmbuf_pkt_len(m);
			uint32_t cap = len < sizeof frame ? len : uint32_t(sizeof frame);
			const void *data = rte_pktmbuf_read(m, 0, cap, frame);
			if (data == nullptr)
				continue;
			pcap_pkthdr h{};
			h.ts = now;
			h.caplen = cap;
			h.len = len;
			pcap_dump(reinterpret_cast<u_char *>(dump_), &h,
				  static_cast<const u_char *>(data));
			frames_++;
		}
	}
	static uint16_t on_rx(uint16_t, uint16_t, rte_mbuf **pkts, uint16_t n, uint16_t, void *arg)
	{
		static_cast<PortCapture *>(arg)->write(pkts, n, false);
		return n;
	}
	static uint16_t on_tx(uint16_t, uint16_t, rte_mbuf **pkts, uint16_t n, void *arg)
	{
		static_cast<PortCapture *>(arg)->write(pkts, n, true);
		return n;
	}

	uint16_t port_, queue_;
	pcap_t *pcap_ = nullptr;
	pcap_dumper_t *dump_ = nullptr;
	const rte_eth_rxtx_callback *rx_cb_ = nullptr;
	const rte_eth_rxtx_callback *tx_cb_ = nullptr;
	uint64_t frames_ = 0;
	uint64_t seen_ = 0; /* the dynamic ol_flags bit of recorded TX mbufs */
};

} /* namespace gaudi::examples */
