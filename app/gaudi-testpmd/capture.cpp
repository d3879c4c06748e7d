/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: pcapng capture (see capture.h).
 */
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_malloc.h>
#include <rte_spinlock.h>

#include "capture.h"

namespace gtp {

namespace {
/* Guards rte_pcapng's process-wide clock (see Capture::copy). */
rte_spinlock_t pcapng_clock_lock = RTE_SPINLOCK_INITIALIZER;
} /* namespace */

std::unique_ptr<BpfFilter> BpfFilter::compile(const std::string &expr, uint32_t snaplen,
					      std::string &err)
{
	std::unique_ptr<BpfFilter> f(new BpfFilter());
	pcap_t *dead = pcap_open_dead(DLT_EN10MB, int(std::min<uint32_t>(snaplen, 262144)));
	if (!dead) {
		err = "pcap_open_dead failed";
		return nullptr;
	}
	if (pcap_compile(dead, &f->cbpf_, expr.c_str(), 1, PCAP_NETMASK_UNKNOWN) != 0) {
		err = std::string("bad capture filter '") + expr + "': " + pcap_geterr(dead);
		pcap_close(dead);
		return nullptr;
	}
	pcap_close(dead);
	/* DPDK 22.11 has rte_bpf_convert when its bpf library was built with libpcap (Debian's
	 * is); otherwise it fails with ENOTSUP and libpcap runs the classic program. */
	rte_bpf_prm *prm = rte_bpf_convert(&f->cbpf_);
	if (prm) {
		f->ebpf_ = rte_bpf_load(prm);
		rte_free(prm);
		if (f->ebpf_ && (rte_bpf_get_jit(f->ebpf_, &f->jit_) != 0 || !f->jit_.func))
			f->jit_ = {};
	}
	return f;
}

BpfFilter::~BpfFilter()
{
	if (ebpf_)
		rte_bpf_destroy(ebpf_);
	pcap_freecode(&cbpf_);
}

bool BpfFilter::match(rte_mbuf *m) const
{
	if (jit_.func)
		return jit_.func(m) != 0;
	if (ebpf_)
		return rte_bpf_exec(ebpf_, m) != 0;
	pcap_pkthdr h{};
	h.caplen = rte_pktmbuf_data_len(m);
	h.len = rte_pktmbuf_pkt_len(m);
	return pcap_offline_filter(&cbpf_, &h, rte_pktmbuf_mtod(m, const u_char *)) != 0;
}

const char *BpfFilter::engine() const
{
	return jit_.func ? "rte_bpf jit" : ebpf_ ? "rte_bpf" : "libpcap";
}

std::unique_ptr<Capture> Capture::open(uint16_t port, const std::string &file, bool rx, bool tx,
				       uint64_t max_frames, uint32_t snaplen, rte_mempool *mp,
				       const BpfFilter *filter, std::string &err)
{
	std::unique_ptr<Capture> c(new Capture());
	c->port_ = port;
	c->file_ = file;
	c->rx_ = rx;
	c->tx_ = tx;
	c->max_ = max_frames;
	c->snaplen_ = snaplen;
	c->mp_ = mp;
	c->filter_ = filter;
	c->fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (c->fd_ < 0) {
		err = file + ": " + strerror(errno);
		return nullptr;
	}
	std::string name = "gtp_cap" + std::to_string(port);
	c->ring_ = rte_ring_create(name.c_str(), kCaptureRing, SOCKET_ID_ANY, RING_F_SC_DEQ);
	if (!c->ring_) {
		err = std::string("capture ring: ") + rte_strerror(rte_errno);
		return nullptr;
	}
	utsname u{};
	uname(&u);
	std::string os = std::string(u.sysname) + " " + u.release;
	c->pcapng_ = rte_pcapng_fdopen(c->fd_, os.c_str(), nullptr, "gaudi-testpmd", nullptr);
	if (!c->pcapng_) {
		err = file + ": " + rte_strerror(rte_errno);
		return nullptr;
	}
	c->fd_ = -1; /* owned by pcapng_ now (rte_pcapng_close closes it) */
	if (gaudi_pcapng_add_port(c->pcapng_, port) < 0) {
		err = file + ": interface block: " + strerror(errno);
		return nullptr;
	}
	if (!start_pcapng_clock(mp)) {
		err = "capture: no mbuf to start the pcapng clock";
		return nullptr;
	}
	return c;
}

bool Capture::start_pcapng_clock(rte_mempool *mp)
{
	/* DPDK 22.11's rte_pcapng reads its TSC-to-wall-clock base inside the first
	 * rte_pcapng_copy, after the caller read the stamp it passes: that stamp lies before the
	 * base, and the unsigned difference throws the base ~2^64 cycles ahead for good (every
	 * timestamp in the 23rd century). The first copy of the process, here, passes a stamp 1 ms
	 * ahead, which the base (read a few microseconds later) does not pass; the base then
	 * stays put (it only moves once a stamp is a second or more past it). */
	static bool started; /* captures are opened by the main lcore, before forwarding */
	if (started)
		return true;
	rte_mbuf *m = rte_pktmbuf_alloc(mp);
	if (!m)
		return false;
	if (!rte_pktmbuf_append(m, RTE_ETHER_MIN_LEN)) {
		rte_pktmbuf_free(m);
		return false;
	}
	/* The clock starts before the copy is attempted: its result does not matter. */
	rte_spinlock_lock(&pcapng_clock_lock);
	rte_mbuf *c = gaudi_pcapng_copy(0, 0, m, mp, RTE_ETHER_MIN_LEN,
					rte_get_tsc_cycles() + rte_get_tsc_hz() / 1000,
					RTE_PCAPNG_DIRECTION_UNKNOWN);
	rte_spinlock_unlock(&pcapng_clock_lock);
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(c);
	started = true;
	return true;
}

Capture::~Capture()
{
	if (ring_) {
		rte_mbuf *m;
		while (rte_ring_dequeue(ring_, reinterpret_cast<void **>(&m)) == 0)
			rte_pktmbuf_free(m);
		rte_ring_free(ring_);
	}
	if (pcapng_)
		rte_pcapng_close(pcapng_);
	if (fd_ >= 0)
		close(fd_);
}

uint16_t Capture::copy(rte_mbuf **pkts, uint16_t n, uint16_t queue, rte_pcapng_direction dir,
		       rte_mbuf **copies, uint16_t *idx)
{
	if (max_ && queued_.load(std::memory_order_relaxed) >= max_)
		return 0;
	uint16_t k = 0, filtered = 0, failed = 0;
	/* rte_pcapng (22.11) keeps one TSC base for the process and moves it forward a second at a
	 * time inside each copy: a stamp read by another lcore just before such a move lies before
	 * the new base, and the unsigned difference throws the base ~2^64 cycles ahead for good
	 * (timestamps in the 23rd century). Stamping and copying under one lock keeps every stamp
	 * at or after the base. */
	rte_spinlock_lock(&pcapng_clock_lock);
	uint64_t now = rte_get_tsc_cycles();
	for (uint16_t i = 0; i < n; i++) {
		if (filter_ && !filter_->match(pkts[i])) {
			filtered++;
			continue;
		}
		rte_mbuf *c = gaudi_pcapng_copy(port_, queue, pkts[i], mp_, snaplen_, now, dir);
		if (!c) {
			failed++;
			continue;
		}
		copies[k] = c;
		idx[k++] = i;
	}
	rte_spinlock_unlock(&pcapng_clock_lock);
	if (filtered)
		filtered_.fetch_add(filtered, std::memory_order_relaxed);
	if (failed)
		dropped_.fetch_add(failed, std::memory_order_relaxed);
	return k;
}

void Capture::commit(rte_mbuf **copies, const uint16_t *idx, uint16_t ncopies, uint16_t limit)
{
	uint16_t keep = 0;
	for (uint16_t i = 0; i < ncopies; i++) {
		if (idx[i] < limit)
			copies[keep++] = copies[i];
		else
			rte_pktmbuf_free(copies[i]);
	}
	if (!keep)
		return;
	unsigned q =
		rte_ring_enqueue_burst(ring_, reinterpret_cast<void **>(copies), keep, nullptr);
	if (q < keep) {
		rte_pktmbuf_free_bulk(copies + q, keep - q);
		dropped_.fetch_add(keep - q, std::memory_order_relaxed);
	}
	queued_.fetch_add(q, std::memory_order_relaxed);
}

unsigned Capture::drain()
{
	rte_mbuf *b[256];
	unsigned total = 0, n;
	while ((n = rte_ring_dequeue_burst(ring_, reinterpret_cast<void **>(b), 256, nullptr))) {
		unsigned w = n;
		/* --capture-max: forwarding lcores may have queued a few more than the limit. */
		if (max_ && written_ + w > max_)
			w = unsigned(max_ - std::min(max_, written_));
		if (w && rte_pcapng_write_packets(pcapng_, b, uint16_t(w)) < 0)
			dropped_.fetch_add(w, std::memory_order_relaxed);
		else
			written_ += w;
		rte_pktmbuf_free_bulk(b, n);
		total += w;
	}
	return total;
}

void Capture::finish(uint64_t ifrecv, uint64_t ifdrop)
{
	drain();
	rte_spinlock_lock(&pcapng_clock_lock); /* it stamps the block too */
	gaudi_pcapng_write_stats(pcapng_, port_, "gaudi-testpmd", ifrecv, ifdrop);
	rte_spinlock_unlock(&pcapng_clock_lock);
	rte_pcapng_close(pcapng_);
	pcapng_ = nullptr;
	roce_ = summarize_roce(file_);
}

} /* namespace gtp */
