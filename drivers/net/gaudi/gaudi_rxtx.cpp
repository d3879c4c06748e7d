/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD datapath. No allocation or syscall per packet; one doorbell per TX burst and one
 * CI write per RX burst.
 */
#include "gaudi_rxtx.h"

#include <algorithm>
#include <cstring>

#include <ethdev_driver.h>
#include <netinet/in.h>

#include <rte_branch_prediction.h>
#include <rte_memcpy.h>
#include <rte_prefetch.h>

#include "gaudi_eq.h"
#include "gaudi_logs.h"
#include "gaudi_recovery.h"

using namespace gaudi::hw;

namespace {

inline uint32_t load_acquire(volatile uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* Copy a frame of len bytes into a chain of mbufs starting at head. Returns false (chain freed,
 * head untouched but its next cleared) when an extra segment cannot be allocated. */
bool rx_scatter(gaudi_rxq *rxq, rte_mbuf *head, const uint8_t *src, uint32_t len)
{
	rte_mbuf *seg = head;
	uint32_t copied = std::min(rxq->buf_size, len); /* head: a fresh mbuf, all its room */
	rte_memcpy(rte_pktmbuf_mtod(head, void *), src, copied);
	head->data_len = copied;
	head->nb_segs = 1;
	while (copied < len) {
		rte_mbuf *n = rte_pktmbuf_alloc(rxq->mp);
		if (unlikely(n == nullptr)) {
			if (head->next != nullptr)
				rte_pktmbuf_free(head->next);
			head->next = nullptr;
			head->nb_segs = 1;
			return false;
		}
		uint32_t chunk = std::min(rxq->buf_size, len - copied);
		rte_memcpy(rte_pktmbuf_mtod(n, void *), src + copied, chunk);
		n->data_len = chunk;
		seg->next = n;
		seg = n;
		head->nb_segs++;
		copied += chunk;
	}
	return true;
}

/* Packet type from the frame bytes, once per frame, from the slot just copied (in cache).
 * L2: Ethernet, VLAN, QinQ, ARP, LLDP; L3: IPv4, IPv6 (+ options/extension headers);
 * L4: TCP, UDP, SCTP, ICMP, fragment. */
inline uint32_t l4_ptype(uint8_t proto)
{
	switch (proto) {
	case IPPROTO_TCP: return RTE_PTYPE_L4_TCP;
	case IPPROTO_UDP: return RTE_PTYPE_L4_UDP;
	case IPPROTO_SCTP: return RTE_PTYPE_L4_SCTP;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6: return RTE_PTYPE_L4_ICMP;
	default: return 0;
	}
}

inline uint16_t be16(const uint8_t *p) { return uint16_t(p[0] << 8 | p[1]); }

inline uint32_t parse_ptype(const uint8_t *p, uint32_t len)
{
	if (unlikely(len < RTE_ETHER_HDR_LEN))
		return RTE_PTYPE_UNKNOWN;
	uint32_t off = 12, pt = RTE_PTYPE_L2_ETHER;
	uint16_t et = be16(p + off);
	if (et == RTE_ETHER_TYPE_VLAN || et == RTE_ETHER_TYPE_QINQ) {
		if (unlikely(len < off + 8))
			return RTE_PTYPE_L2_ETHER_VLAN;
		off += 4;
		et = be16(p + off);
		pt = RTE_PTYPE_L2_ETHER_VLAN;
		if (et == RTE_ETHER_TYPE_VLAN || et == RTE_ETHER_TYPE_QINQ) {
			if (unlikely(len < off + 8))
				return RTE_PTYPE_L2_ETHER_QINQ;
			off += 4;
			et = be16(p + off);
			pt = RTE_PTYPE_L2_ETHER_QINQ;
		}
	}
	off += 2; /* L3 header */
	if (et == RTE_ETHER_TYPE_IPV4) {
		if (unlikely(len < off + 20))
			return pt;
		uint32_t ihl = (p[off] & 0xF) * 4u;
		pt |= ihl == 20 ? RTE_PTYPE_L3_IPV4 : RTE_PTYPE_L3_IPV4_EXT;
		if (be16(p + off + 6) & 0x3FFF) /* MF or fragment offset */
			return pt | RTE_PTYPE_L4_FRAG;
		return pt | l4_ptype(p[off + 9]);
	}
	if (et == RTE_ETHER_TYPE_IPV6) {
		if (unlikely(len < off + 40))
			return pt;
		uint8_t nh = p[off + 6];
		uint32_t o = off + 40, l3 = RTE_PTYPE_L3_IPV6;
		/* Hop-by-hop, routing, destination options: at most 4, bounded by the frame. */
		for (unsigned i = 0; i < 4 && (nh == 0 || nh == 43 || nh == 60); i++) {
			l3 = RTE_PTYPE_L3_IPV6_EXT;
			if (len < o + 2)
				return pt | l3;
			nh = p[o];
			o += (p[o + 1] + 1u) * 8;
		}
		if (nh == 44)
			return pt | RTE_PTYPE_L3_IPV6_EXT | RTE_PTYPE_L4_FRAG;
		return pt | l3 | l4_ptype(nh);
	}
	if (pt == RTE_PTYPE_L2_ETHER) {
		if (et == RTE_ETHER_TYPE_ARP)
			return RTE_PTYPE_L2_ETHER_ARP;
		if (et == RTE_ETHER_TYPE_LLDP)
			return RTE_PTYPE_L2_ETHER_LLDP;
	}
	return pt;
}

} // namespace

const uint32_t gaudi_ptypes[] = {
	RTE_PTYPE_L2_ETHER, RTE_PTYPE_L2_ETHER_VLAN, RTE_PTYPE_L2_ETHER_QINQ,
	RTE_PTYPE_L2_ETHER_ARP, RTE_PTYPE_L2_ETHER_LLDP,
	RTE_PTYPE_L3_IPV4, RTE_PTYPE_L3_IPV4_EXT, RTE_PTYPE_L3_IPV6, RTE_PTYPE_L3_IPV6_EXT,
	RTE_PTYPE_L4_TCP, RTE_PTYPE_L4_UDP, RTE_PTYPE_L4_SCTP, RTE_PTYPE_L4_ICMP,
	RTE_PTYPE_L4_FRAG, RTE_PTYPE_UNKNOWN,
};

gaudi_rx_queue_count_ret gaudi_rx_queue_count(void *queue)
{
	auto *rxq = static_cast<gaudi_rxq *>(queue);
	if (!rxq->started)
		return 0;
	uint32_t used = load_acquire(rxq->cq_pi) - rxq->ci;
	return gaudi_rx_queue_count_ret(std::min<uint32_t>(used, rxq->nb_desc));
}

/* DONE: the CQE at ci + offset is valid (a frame waits there); AVAIL: the slot is the HW's;
 * UNAVAIL: the queue is stopped, or the entry is behind the CI the HW has (hw_ci), its slot or
 * an older one held by an attached mbuf. */
int gaudi_rx_descriptor_status(void *queue, uint16_t offset)
{
	auto *rxq = static_cast<gaudi_rxq *>(queue);
	if (unlikely(offset >= rxq->nb_desc))
		return -EINVAL;
	if (!rxq->started || offset >= rxq->nb_desc - (rxq->ci - rxq->hw_ci))
		return RTE_ETH_RX_DESC_UNAVAIL;
	const Cqe *cqe = &rxq->cq[(rxq->ci + offset) & rxq->mask];
	if (__atomic_load_n(&cqe->d0, __ATOMIC_ACQUIRE) & CQE_VALID)
		return RTE_ETH_RX_DESC_DONE;
	return RTE_ETH_RX_DESC_AVAIL;
}

/* Offset counts from the next slot tx_burst fills: FULL while the WQE that last used the slot
 * has not completed, DONE when the slot is free. Completions are reaped from the EQ first. */
int gaudi_tx_descriptor_status(void *queue, uint16_t offset)
{
	auto *txq = static_cast<gaudi_txq *>(queue);
	if (unlikely(offset >= txq->nb_desc))
		return -EINVAL;
	if (!txq->started)
		return RTE_ETH_TX_DESC_UNAVAIL;
	gaudi_eq_poll(txq->port, txq);
	uint32_t used = (txq->pi - txq->ci) & WQ_IDX_MASK;
	return offset < txq->nb_desc - used ? RTE_ETH_TX_DESC_DONE : RTE_ETH_TX_DESC_FULL;
}

namespace {
/* The address filter the hardware's one RXB filter could not hold (gaudi_rx_filter_apply):
 * station address, broadcast, the extra unicast list, multicast by list or allmulti. */
bool sw_filter_pass(const gaudi_port *port, const uint8_t *frame)
{
	const auto *dst = reinterpret_cast<const rte_ether_addr *>(frame);
	const rte_eth_dev_data *data = rte_eth_devices[port->port_id].data;
	if (rte_is_same_ether_addr(dst, &data->mac_addrs[0]) || rte_is_broadcast_ether_addr(dst))
		return true;
	if (rte_is_multicast_ether_addr(dst)) {
		if (port->allmulti)
			return true;
		for (unsigned i = 0; i < port->n_mc; i++)
			if (rte_is_same_ether_addr(dst, &port->mc[i]))
				return true;
		return false;
	}
	for (unsigned i = 0; i < port->n_uc; i++)
		if (rte_is_same_ether_addr(dst, &port->uc[i]))
			return true;
	return false;
}
} // namespace

namespace {
/* Give the HW back the run of CQ entries from hw_ci whose slots no attached mbuf holds: slots
 * are released in any order (mbufs are freed in any order, on any lcore), the CI only moves
 * over the contiguous run. Each entry is passed once, so the walk costs one load per frame. */
void rx_release_run(gaudi_rxq *rxq)
{
	const uint8_t *held = rxq->ring->held;
	uint32_t hw_ci = rxq->hw_ci;
	while (hw_ci != rxq->ci && __atomic_load_n(&held[hw_ci & rxq->mask], __ATOMIC_ACQUIRE) == 0)
		hw_ci++;
	if (hw_ci != rxq->hw_ci) {
		rxq->hw_ci = hw_ci;
		/* The slots' last readers came before (the acquire loads above). */
		rxq->port->hw.rx_write_ci(hw_ci);
	}
}

/* Hand the frame in slot out in m as an external buffer (mlx5's MPRQ does the same for its
 * strides): no headroom, the slot's own IOVA; the slot's free_cb (rx_slot_free) releases it. */
inline void rx_attach(gaudi_rx_ring *ring, rte_mbuf *m, uint32_t slot, uint32_t len)
{
	rte_mbuf_ext_shared_info *sh = &ring->shinfo[slot];
	rte_mbuf_ext_refcnt_set(sh, 1);
	__atomic_store_n(&ring->held[slot], 1, __ATOMIC_RELAXED); /* ours until m is handed out */
	size_t off = static_cast<size_t>(slot) << ring->slot_log2;
	rte_pktmbuf_attach_extbuf(m, ring->slots + off, ring->iova + off,
				  static_cast<uint16_t>(1u << ring->slot_log2), sh);
	m->data_len = static_cast<uint16_t>(len);
}
} // namespace

void gaudi_rx_release(gaudi_rxq *rxq)
{
	if (rxq->hw_ci != rxq->ci)
		rx_release_run(rxq);
}

/* The mbuf fields rx_burst writes as whole words, at DPDK's offsets: a layout change breaks the
 * build here rather than the fields (i40e's and ixgbe's vector RX write them the same way). */
static_assert(offsetof(rte_mbuf, ol_flags) == offsetof(rte_mbuf, rearm_data) + 8,
	      "rearm_data and ol_flags: one 16-byte store");
static_assert(offsetof(rte_mbuf, pkt_len) == offsetof(rte_mbuf, packet_type) + 4 &&
		      sizeof(rte_mbuf::packet_type) == 4 && sizeof(rte_mbuf::pkt_len) == 4,
	      "packet_type and pkt_len: one 8-byte store");
static_assert(offsetof(rte_mbuf, vlan_tci) == offsetof(rte_mbuf, data_len) + 2 &&
		      sizeof(rte_mbuf::data_len) == 2 && sizeof(rte_mbuf::vlan_tci) == 2,
	      "data_len and vlan_tci: one 4-byte store");
/* The combined stores (here and the WQE's ctrl + size) put the lower-addressed field in the low
 * bits: a little-endian host, as every x86 and Arm host DPDK builds this driver for. */
static_assert(RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN, "combined field stores assume little endian");

namespace {
/* Every frame the fast path of rx_burst does not take (gaudi_rx_burst: fast_max): a bad
 * length, the software filter, an attached slot, scatter. m has its fields as the fast path
 * sets them; returns true when m is handed out (data_len set by the copy, the attach or the
 * scatter); otherwise m is freed and the drop counted. */
__rte_noinline bool rx_frame_slow(gaudi_rxq *rxq, rte_mbuf *m, const uint8_t *src, uint32_t len,
				  uint32_t pos, uint32_t len_max, bool sw_filter)
{
	if (unlikely(len - 1 >= len_max)) {
		rxq->errors++;
		rte_pktmbuf_free(m);
		return false;
	}
	if (unlikely(sw_filter) && !sw_filter_pass(rxq->port, src)) {
		rxq->filtered++;
		rte_pktmbuf_free(m);
		return false;
	}
	if (unlikely(len > rxq->copy_max) &&
	    src == rxq->slots + (static_cast<size_t>(pos) << rxq->slot_log2)) {
		/* The slot the CQ entry stands for (not another one an inconsistent CQE names):
		 * the CI stays behind it until m is freed. */
		rx_attach(rxq->ring, m, pos, len);
		rxq->attached++;
		return true;
	}
	if (likely(len <= rxq->buf_size)) {
		std::memcpy(rte_pktmbuf_mtod(m, void *), src, len);
		m->data_len = static_cast<uint16_t>(len);
		return true;
	}
	if (!rxq->scatter || !rx_scatter(rxq, m, src, len)) {
		/* Without scatter the queue setup guarantees fit; this is allocation failure of
		 * an extra segment: the frame is lost, and counted. */
		rte_eth_devices[m->port].data->rx_mbuf_alloc_failed++;
		rte_pktmbuf_free(m);
		return false;
	}
	return true;
}
} // namespace

/* CQEs are taken in groups: the group's CQEs are read (valid bit, slot, length) and given back
 * first, with a prefetch of each frame's slot, then each mbuf's fields are set and its frame
 * copied while the later slots' lines arrive. */
constexpr uint32_t kRxGroup = 32;

uint16_t gaudi_rx_burst(void *queue, rte_mbuf **pkts, uint16_t nb_pkts)
{
	auto *rxq = static_cast<gaudi_rxq *>(queue);
	if (unlikely(!rxq->started))
		return 0;
	uint32_t pi = rxq->pi_seen;
	if (pi == rxq->ci) {
		pi = load_acquire(rxq->cq_pi);
		if (pi == rxq->ci) {
			/* Slots freed since the last burst: with the CQ full, no frame comes
			 * until then. */
			if (rxq->hw_ci != rxq->ci)
				rx_release_run(rxq);
			/* Nothing ready: let an emulated device's inline engine move wire input. */
			rxq->port->hw.bar()->service();
			pi = load_acquire(rxq->cq_pi);
			if (pi == rxq->ci)
				return 0;
		}
		rxq->pi_seen = pi;
	}
	uint32_t avail = pi - rxq->ci;
	/* Loop counters are 64-bit: 16-bit ones cost a zero extension at each use as an index. */
	size_t n = std::min<uint32_t>(avail, nb_pkts);

	/* Raw mbufs from the mempool cache in bulk: a pool's free mbufs have refcnt 1, one
	 * segment and no next (rte_mbuf_raw_alloc's contract); the fields rx_burst does not set
	 * below are set here. */
	if (unlikely(rte_mempool_get_bulk(rxq->mp, reinterpret_cast<void **>(pkts), n) != 0)) {
		/* Take what the pool can give, one by one; the rest waits in the CQ. */
		size_t got = 0;
		while (got < n && (pkts[got] = rte_mbuf_raw_alloc(rxq->mp)) != nullptr)
			got++;
		rte_eth_devices[rxq->port->port_id].data->rx_mbuf_alloc_failed += n - got;
		n = got;
	}

	rte_mbuf **out = pkts; /* frames handed out are compacted to the front */
	uint32_t ci = rxq->ci;
	/* The queue's fields in locals: the CQE and mbuf stores below could alias them, and the
	 * compiler would reload each one per frame. */
	Cqe *const cq = rxq->cq;
	const uint8_t *const slots = rxq->slots;
	const uint32_t mask = rxq->mask;
	const uint32_t slot_log2 = rxq->slot_log2;
	/* A length above the frame limit or the slot is inconsistent; 0 wraps above it too. */
	const uint32_t len_max = std::min(rxq->max_frame, 1u << slot_log2);
	/* Read once per burst: a filter change applies from the next burst on. */
	const bool sw_filter = __atomic_load_n(&rxq->port->sw_filter, __ATOMIC_RELAXED);
	const uint32_t ptype_mask = __atomic_load_n(&rxq->port->ptype_mask, __ATOMIC_RELAXED);
	/* Frames of 1 to fast_max bytes are valid, copied (not attached: copy_max), fit one mbuf
	 * and pass any filter: one unsigned compare per frame sends every other frame to
	 * rx_frame_slow. Frames above copy_max are attached; with copy_max at or above the
	 * largest frame the slot ring holds none is. */
	const uint32_t fast_max = sw_filter ? 0 : std::min({len_max, rxq->copy_max, rxq->buf_size});
	/* rearm_data (data_off, refcnt, nb_segs, port: i40e's mbuf_initializer; a raw mbuf
	 * already has refcnt 1 and one segment) and ol_flags (0, or a pinned pool's
	 * RTE_MBUF_F_EXTERNAL). */
#ifdef RTE_ARCH_X86
	const __m128i rearm = _mm_set_epi64x(static_cast<long long>(rxq->ol_flags_init),
					     static_cast<long long>(rxq->mbuf_init));
#else
	const uint64_t mbuf_init = rxq->mbuf_init;
	const uint64_t ol_flags_init = rxq->ol_flags_init;
#endif
	gaudi_rx_ring *const ring = rxq->ring;
	const uint32_t data_off_abs = rxq->data_off_abs;
	const uint64_t attached0 = rxq->attached;
	uint64_t bytes = 0;
	size_t i = 0;
	bool stop = false;
	while (i < n && !stop) {
		const uint8_t *src[kRxGroup];
		uint32_t lens[kRxGroup];
		size_t g = 0;
		const uint32_t ci0 = ci; /* the group's first CQ index */
		/* A group ends at the CQ's end: its CQEs are then cqe[0 .. want). */
		const size_t want = std::min<size_t>({kRxGroup, n - i, mask + 1 - (ci0 & mask)});
		Cqe *const cqe_g = &cq[ci0 & mask];
		rte_mbuf **const gp = pkts + i; /* the group's mbufs */
		for (; g < want; g++) {
			Cqe *cqe = &cqe_g[g];
			uint32_t d0 = __atomic_load_n(&cqe->d0, __ATOMIC_ACQUIRE);
			if (unlikely(!(d0 & CQE_VALID))) {
				rxq->cqe_not_valid++;
				stop = true;
				break;
			}
			uint32_t slot = cqe->wqe_index & mask;
			lens[g] = cqe->size;
			const uint8_t *frame = slots + (static_cast<size_t>(slot) << slot_log2);
			src[g] = frame;
			cqe->d0 = 0; /* give the CQE back: software clears valid [gaudi2_en.c] */
			rte_prefetch0(frame);
		}
		ci = ci0 + static_cast<uint32_t>(g);
		/* The mbuf pass, compiled with and without the packet type parse. Each mbuf's
		 * first line is only written, once: nothing waits on loading it (with --no-huge
		 * every mbuf sits on its own 4-KB page, so all of them share one L1 set and a
		 * group's lines evicted each other between two passes: 77 PMD cycles per 64-B
		 * frame against 68 now, 60 either way on hugepages; gaudi_perf.rst). */
		auto mbuf_pass = [&]<bool kPtype>() {
			for (size_t j = 0; j < g; j++) {
				rte_mbuf *m = gp[j];
				const uint32_t len = lens[j];
				const uint8_t *const frame = src[j];
				/* rearm_data (data_off, refcnt, nb_segs, port) and ol_flags */
#ifdef RTE_ARCH_X86
				_mm_storeu_si128(reinterpret_cast<__m128i *>(&m->rearm_data),
						 rearm);
#else
				std::memcpy(&m->rearm_data, &mbuf_init, sizeof(mbuf_init));
				m->ol_flags = ol_flags_init;
#endif
				/* packet_type (RTE_PTYPE_UNKNOWN, or parsed below) and pkt_len */
				const uint64_t ptype_len = static_cast<uint64_t>(len) << 32;
				std::memcpy(&m->packet_type, &ptype_len, sizeof(ptype_len));
				/* data_len = len and vlan_tci = 0; a length above 16 bits is no
				 * valid frame's, and that mbuf goes back to the pool
				 * (rx_frame_slow). */
				const uint32_t dlen_vlan = len;
				std::memcpy(&m->data_len, &dlen_vlan, sizeof(dlen_vlan));
				m->vlan_tci_outer = 0;
				if (likely(len - 1 < fast_max)) {
					if (kPtype)
						m->packet_type = parse_ptype(frame, len) & ptype_mask;
					bytes += len;
					*out++ = m;
					/* The data address from the mbuf's own (data_off_abs), not
					 * a load of buf_addr. libc's memcpy picks its vector width
					 * at run time (AVX2 here): a 187-byte frame in about 25
					 * instructions, against about 60 for rte_memcpy built for
					 * the distribution's SSE4.2 baseline (callgrind,
					 * gaudi_perf.rst). */
					uint8_t *dst =
						likely(data_off_abs != 0)
							? reinterpret_cast<uint8_t *>(m) +
								  data_off_abs
							: static_cast<uint8_t *>(m->buf_addr) +
								  RTE_PKTMBUF_HEADROOM;
					std::memcpy(dst, frame, len);
				} else {
					if (!rx_frame_slow(rxq, m, frame, len, (ci0 + j) & mask,
							   len_max, sw_filter))
						continue;
					if (kPtype)
						m->packet_type = parse_ptype(frame, len) & ptype_mask;
					bytes += len;
					*out++ = m;
				}
			}
		};
		if (ptype_mask != 0)
			mbuf_pass.template operator()<true>();
		else
			mbuf_pass.template operator()<false>();
		i += g;
	}
	/* Raw mbufs taken for CQEs we did not reach (valid bit not visible yet) go back as
	 * they came. */
	if (i < n)
		rte_mempool_put_bulk(rxq->mp, reinterpret_cast<void **>(&pkts[i]), n - i);
	/* rx_frame_slow counts attached frames in rxq->attached. */
	const uint64_t attached = rxq->attached - attached0;
	if (attached != 0)
		/* Before the mbufs are handed out: from then on any lcore may free them. */
		__atomic_add_fetch(&ring->refs, static_cast<uint32_t>(attached), __ATOMIC_RELAXED);
	if (likely(attached == 0 && rxq->hw_ci == rxq->ci)) {
		/* No slot held: every entry read goes back at once, as without attach. */
		if (ci != rxq->ci) {
			rxq->ci = rxq->hw_ci = ci;
			rxq->port->hw.rx_write_ci(ci);
		}
	} else {
		rxq->ci = ci;
		rx_release_run(rxq);
	}
	const auto nb_rx = static_cast<uint16_t>(out - pkts);
	rxq->packets += nb_rx;
	rxq->bytes += bytes;
	return nb_rx;
}

namespace {
/* Free n mbufs that the queue is done with; nulls (bounced frames' slots) are skipped. With
 * fast free (gaudi_txq::fast_free) they go back to their pool in bulk, without
 * rte_pktmbuf_prefree_seg's per-mbuf checks, each run of non-null entries straight from the
 * ring; clean (no null in ms) spares the walk. */
void tx_free_mbufs(rte_mbuf **ms, uint32_t n, bool fast, bool clean)
{
	if (!fast) {
		rte_pktmbuf_free_bulk(ms, n); /* skips nulls */
		return;
	}
	if (clean) {
		rte_mempool_put_bulk(ms[0]->pool, reinterpret_cast<void **>(ms), n);
		return;
	}
	uint32_t i = 0;
	while (i < n) {
		while (i < n && ms[i] == nullptr)
			i++;
		uint32_t run = i;
		while (i < n && ms[i] != nullptr)
			i++;
		if (i != run)
			rte_mempool_put_bulk(ms[run]->pool, reinterpret_cast<void **>(&ms[run]),
					     i - run);
	}
}
} // namespace

void gaudi_tx_complete(gaudi_txq *txq, uint32_t last)
{
	uint32_t n = (last + 1 - txq->ci) & WQ_IDX_MASK;
	const uint32_t used = (txq->pi - txq->ci) & WQ_IDX_MASK;
	if (unlikely(n == 0 || n > txq->nb_desc || n > used))
		return; /* stale or bogus index: nothing of ours */
	uint32_t start = txq->ci & txq->mask;
	uint32_t first = std::min(n, txq->nb_desc - start);
	rte_mbuf **ring = txq->sw_ring;
	const bool fast = txq->fast_free;
	/* sw_ring entries are null for bounced frames, all of them before bounce_end: none in
	 * the run when bounce_end is ci, or behind it (outside [ci, pi]). */
	const uint32_t ahead = (txq->bounce_end - txq->ci) & WQ_IDX_MASK;
	const bool clean = ahead == 0 || ahead > used;
	/* The entries stay as they are: every post writes its slot's (the mbuf, or null when
	 * bounced), and only [ci, pi) is ever read (gaudi_tx_drain). */
	tx_free_mbufs(&ring[start], first, fast, clean);
	if (n > first)
		tx_free_mbufs(&ring[0], n - first, fast, clean);
	txq->ci = (txq->ci + n) & WQ_IDX_MASK;
	/* Every bounced WQE up to the new ci is done: bounce_end follows ci and never ages
	 * (22-bit indexes wrap). */
	if (clean || ahead <= n)
		txq->bounce_end = txq->ci;
}

void gaudi_tx_drain(gaudi_txq *txq)
{
	/* The WQEs posted and not completed, [ci, pi): the other entries are stale (completion
	 * leaves them). */
	for (uint32_t i = txq->ci; i != txq->pi; i = (i + 1) & WQ_IDX_MASK) {
		rte_mbuf *&e = txq->sw_ring[i & txq->mask];
		rte_pktmbuf_free(e);
		e = nullptr;
	}
	txq->pi = txq->ci = txq->bounce_end = 0;
}

namespace {
uint16_t tx_burst_locked(gaudi_txq *txq, rte_mbuf **pkts, uint16_t nb_pkts);
}

uint16_t gaudi_tx_burst(void *queue, rte_mbuf **pkts, uint16_t nb_pkts)
{
	auto *txq = static_cast<gaudi_txq *>(queue);
	gaudi_port *port = txq->port;
	if (unlikely(!txq->started))
		return 0;
	/* [faults] The burst runs under eq_lock: the TX watchdog (gaudi_recovery.cpp) may then
	 * consume the EQ and recover this queue while the application does not transmit. */
	rte_spinlock_lock(&port->eq_lock);
	uint16_t n = tx_burst_locked(txq, pkts, nb_pkts);
	rte_spinlock_unlock(&port->eq_lock);
	return n;
}

namespace {
/* Bounced frames' mbufs, freed in bulk once the burst is posted. */
struct TxCopied {
	static constexpr uint32_t kMax = 64;
	rte_mbuf *m[kMax];
	uint32_t n = 0;
};

__rte_noinline void tx_drop(gaudi_txq *txq, rte_mbuf *m)
{
	txq->errors++;
	rte_pktmbuf_free(m);
}

/* Linear copy, zero-padded to NIC_SKB_PAD_SIZE: the WQE takes one buffer and TXE rejects raw
 * frames shorter than 187 bytes (H6-3399 work-around, gaudi2_cn.c set_txe_checkers / hbl_en).
 * Returns the WQE's buffer: the bounce slot's IOVA and the padded size (in registers). */
struct TxBuf {
	uint64_t addr;
	uint32_t size;
};
__rte_noinline TxBuf tx_bounce(gaudi_txq *txq, rte_mbuf *m, uint32_t slot, uint32_t len,
			       TxCopied *copied)
{
	uint32_t size = len;
	uint8_t *dst = txq->bounce + static_cast<size_t>(slot) * txq->bounce_stride;
	const void *p = rte_pktmbuf_read(m, 0, len, dst);
	if (p != dst)
		rte_memcpy(dst, p, len);
	uint8_t &dirty = txq->bounce_dirty[slot];
	if (len < kTxPadSize) {
		if (dirty > len)
			memset(dst + len, 0, dirty - len);
		size = kTxPadSize;
	}
	dirty = static_cast<uint8_t>(std::min(len, kTxPadSize));
	txq->sw_ring[slot] = nullptr;
	/* The WQE's free-running index is the one of its slot in [pi, pi + nb_desc). */
	txq->bounce_end = (txq->pi + ((slot - txq->pi) & txq->mask) + 1) & WQ_IDX_MASK;
	if (unlikely(m->nb_segs != 1)) { /* a chain: segment by segment */
		rte_pktmbuf_free(m);
	} else {
		if (unlikely(copied->n == TxCopied::kMax)) {
			tx_free_mbufs(copied->m, copied->n, txq->fast_free, false);
			copied->n = 0;
		}
		copied->m[copied->n++] = m;
	}
	return {txq->bounce_iova[slot], size};
}

uint16_t tx_burst_locked(gaudi_txq *txq, rte_mbuf **pkts, uint16_t nb_pkts)
{
	gaudi_port *port = txq->port;
	gaudi_eq_poll_locked(port, txq);
	/* [faults] A lost doorbell or a QP error left work: done even for an empty burst. */
	if (unlikely(port->rec.db_rering || port->qp_err_pending))
		gaudi_rec_tx_slow(txq);

	/* A ring-index doorbell cannot tell a full ring from an empty one: one slot stays free. */
	uint32_t used = (txq->pi - txq->ci) & WQ_IDX_MASK;
	uint16_t n = static_cast<uint16_t>(std::min<uint32_t>(txq->nb_desc - 1 - used, nb_pkts));
	if (unlikely(n == 0))
		return 0;
	/* One doorbell per burst; if the FIFO is full the burst waits (FIFO overrun would
	 * drop the doorbell in HW) [gaudi2_en.c: the queue stops while the FIFO is full]. */
	if (unlikely(gaudi_db_full(port))) {
		txq->db_busy++;
		return 0;
	}

	/* The queue's fields in locals: the WQE and sw_ring stores could alias them, and the
	 * compiler would reload each one per frame. The loop keeps to zero-copy frames; the
	 * rest (tx_bounce, tx_drop) are calls, so the loop's values stay in registers. */
	TxWqe *const wq = txq->wq;
	rte_mbuf **const sw_ring = txq->sw_ring;
	const uint32_t mask = txq->mask;
	const uint32_t max_frame = txq->max_frame;
	const uint32_t slot0 = txq->pi & mask; /* mask + 1 divides the 22-bit index space */
	uint32_t slot = slot0;
	uint64_t bytes = 0;
	TxCopied copied;
	rte_mbuf **p = pkts, **const end = pkts + n;
	while (p != end) {
		/* The slots from slot to the ring's end, as many as frames are left at most: no
		 * wrap inside, so the WQE and sw_ring pointers just advance. */
		rte_mbuf **const span_end = p + std::min<size_t>(end - p, mask + 1 - slot);
		TxWqe *wqe = &wq[slot];
		rte_mbuf **sw = &sw_ring[slot];
		for (; p != span_end; p++) {
			rte_mbuf *m = *p;
			const uint32_t len = m->pkt_len;
			if (unlikely(len - 1 >= max_frame)) { /* 0 or above max_frame */
				tx_drop(txq, m);
				continue;
			}
			uint64_t addr;
			uint32_t size = len;
			if (likely(m->nb_segs == 1 && len >= kTxPadSize)) {
				addr = rte_mbuf_data_iova(m);
				*sw = m;
			} else {
				TxBuf b = tx_bounce(txq, m, slot, len, &copied);
				addr = b.addr;
				size = b.size;
			}
			/* ctrl and size in one 8-byte store, remote_addr, tag and completion (all
			 * 0) in one 16-byte store: the same words, fewer stores. */
			static_assert(offsetof(TxWqe, size) == offsetof(TxWqe, ctrl) + 4 &&
				      offsetof(TxWqe, ctrl) == 0);
			static_assert(offsetof(TxWqe, tag) == offsetof(TxWqe, remote_addr) + 8 &&
				      offsetof(TxWqe, completion) == offsetof(TxWqe, tag) + 4 &&
				      sizeof(TxWqe) == offsetof(TxWqe, remote_addr) + 16);
			/* index = slot & 0xFF */
			const uint64_t ctrl_size = static_cast<uint64_t>(size) << 32 |
						   wqe_ctrl(WqeOpcode::linear, slot, false);
			std::memcpy(&wqe->ctrl, &ctrl_size, sizeof(ctrl_size));
			wqe->local_addr = addr;
#ifdef RTE_ARCH_X86
			_mm_storeu_si128(reinterpret_cast<__m128i *>(&wqe->remote_addr),
					 _mm_setzero_si128());
#else
			wqe->remote_addr = 0;
			wqe->tag = 0;
			wqe->completion = 0;
#endif
			bytes += len;
			wqe++;
			sw++;
			slot++;
		}
		slot &= mask;
	}
	/* At most nb_desc - 1 posted: the slot distance is the count. */
	const uint32_t posted = (slot - slot0) & mask;
	const uint32_t pi = (txq->pi + posted) & WQ_IDX_MASK;
	if (likely(posted > 0)) {
		/* Solicit a RAW_TX_COMP event for the burst's last WQE only. */
		txq->wq[(pi - 1) & txq->mask].ctrl |= WQE_SE;
		txq->pi = pi;
		port->db_pushed++;
		port->hw.ring_doorbell(pi & txq->mask); /* Bar::wr32 orders the WQE stores first */
		txq->packets += posted;
		txq->bytes += bytes;
	}
	if (copied.n != 0)
		tx_free_mbufs(copied.m, copied.n, txq->fast_free, false);
	return n;
}
} // namespace
