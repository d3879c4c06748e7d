/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: pcapng capture of a port's rx and/or tx while it forwards.
 *
 * Forwarding lcores copy the frames (rte_pcapng_copy, from a capture mempool) and enqueue the
 * copies on a ring; the main lcore writes them (rte_pcapng_write_packets), so the datapath
 * makes no syscall. An optional filter (pcap-filter(7) syntax, compiled by libpcap's
 * pcap_compile and converted to eBPF by rte_bpf_convert, as dpdk-dumpcap does) selects the
 * frames. A full ring or an empty mempool drops the copy, never the frame, and is counted.
 */
#ifndef GTP_CAPTURE_H
#define GTP_CAPTURE_H

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include <pcap/pcap.h>
#include <rte_bpf.h>
#include <rte_mbuf.h>
#include <rte_pcapng.h>
#include <rte_ring.h>

#include "gaudi_compat.h"

#include "roce_summary.h"

namespace gtp {

/* Copies waiting for the main lcore, per capture: 0.16 s at 200k frames/s. */
constexpr unsigned kCaptureRing = 32768;

/* A compiled capture filter. match() is thread-safe (read-only program). */
class BpfFilter {
public:
	/* nullptr and a message in err if expr does not compile. */
	static std::unique_ptr<BpfFilter> compile(const std::string &expr, uint32_t snaplen,
						  std::string &err);
	~BpfFilter();
	BpfFilter(const BpfFilter &) = delete;
	BpfFilter &operator=(const BpfFilter &) = delete;

	bool match(rte_mbuf *m) const;
	/* "rte_bpf jit", "rte_bpf" or "libpcap" (pcap_offline_filter, when DPDK's bpf library
	 * was built without libpcap and rte_bpf_convert is not available). */
	const char *engine() const;

private:
	BpfFilter() = default;
	bpf_program cbpf_{};
	rte_bpf *ebpf_ = nullptr;
	rte_bpf_jit jit_{};
};

class Capture {
public:
	/* Opens file (truncated) for port; nullptr and a message in err on failure. */
	static std::unique_ptr<Capture> open(uint16_t port, const std::string &file, bool rx,
					     bool tx, uint64_t max_frames, uint32_t snaplen,
					     rte_mempool *mp, const BpfFilter *filter,
					     std::string &err);
	~Capture();
	Capture(const Capture &) = delete;
	Capture &operator=(const Capture &) = delete;

	/* Datapath: copy the frames of pkts[0..n) the filter passes into copies (idx[] gets
	 * their positions in pkts); returns the number of copies. */
	uint16_t copy(rte_mbuf **pkts, uint16_t n, uint16_t queue, rte_pcapng_direction dir,
		      rte_mbuf **copies, uint16_t *idx);
	/* Datapath: queue for writing the copies of frames pkts[0..limit) (those that were sent,
	 * for tx) and free the rest. */
	void commit(rte_mbuf **copies, const uint16_t *idx, uint16_t ncopies, uint16_t limit);

	/* Main lcore: write what is queued; returns frames written. */
	unsigned drain();
	/* Main lcore, after the forwarding lcores stopped: write the rest, the interface
	 * statistics block, and close the file. */
	void finish(uint64_t ifrecv, uint64_t ifdrop);

	bool rx() const { return rx_; }
	bool tx() const { return tx_; }
	uint16_t port() const { return port_; }
	const std::string &file() const { return file_; }
	uint64_t written() const { return written_; }
	uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
	uint64_t filtered_out() const { return filtered_.load(std::memory_order_relaxed); }
	/* RoCE v2 summary of the file, made by finish(). */
	const RoceSummary &roce() const { return roce_; }

private:
	Capture() = default;
	static bool start_pcapng_clock(rte_mempool *mp);
	uint16_t port_ = 0;
	std::string file_;
	bool rx_ = false, tx_ = false;
	uint64_t max_ = 0;
	uint32_t snaplen_ = UINT32_MAX;
	rte_mempool *mp_ = nullptr;
	const BpfFilter *filter_ = nullptr;
	rte_ring *ring_ = nullptr;
	rte_pcapng_t *pcapng_ = nullptr;
	int fd_ = -1;
	uint64_t written_ = 0;
	RoceSummary roce_;
	std::atomic<uint64_t> queued_{0}, dropped_{0}, filtered_{0};
};

} /* namespace gtp */

#endif /* GTP_CAPTURE_H */
