/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD RX datapath: rx_burst on the raw QP's RX slot ring and CQ, with the slot ring's
 * references (attached mbufs). No allocation or syscall per packet; one CI write per burst.
 */
#include "gaudi_rx.h"

#include <algorithm>
#include <cstring>

#include <ethdev_driver.h>
#include <netinet/in.h>

#include <rte_branch_prediction.h>
#include <rte_malloc.h>
#include <rte_memcpy.h>
#include <rte_prefetch.h>

#include "gaudi_logs.h"

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
	case IPPROTO_TCP:
		return RTE_PTYPE_L4_TCP;
	case IPPROTO_UDP:
		return RTE_PTYPE_L4_UDP;
	case IPPROTO_SCTP:
		return RTE_PTYPE_L4_SCTP;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return RTE_PTYPE_L4_ICMP;
	default:
		return 0;
	}
}

inline uint16_t be16(const uint8_t *p)
{
	return uint16_t(p[0] << 8 | p[1]);
}

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

} /* namespace */

const uint32_t gaudi_ptypes[] = {
	RTE_PTYPE_L2_ETHER,	RTE_PTYPE_L2_ETHER_VLAN, RTE_PTYPE_L2_ETHER_QINQ,
	RTE_PTYPE_L2_ETHER_ARP, RTE_PTYPE_L2_ETHER_LLDP, RTE_PTYPE_L3_IPV4,
	RTE_PTYPE_L3_IPV4_EXT,	RTE_PTYPE_L3_IPV6,	 RTE_PTYPE_L3_IPV6_EXT,
	RTE_PTYPE_L4_TCP,	RTE_PTYPE_L4_UDP,	 RTE_PTYPE_L4_SCTP,
	RTE_PTYPE_L4_ICMP,	RTE_PTYPE_L4_FRAG,	 RTE_PTYPE_UNKNOWN,
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
} /* namespace */

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
} /* namespace */

void gaudi_rx_release(gaudi_rxq *rxq)
{
	if (rxq->hw_ci != rxq->ci)
		rx_release_run(rxq);
}

void gaudi_rx_ring_put(gaudi_rx_ring *ring)
{
	if (ring == nullptr || __atomic_sub_fetch(&ring->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	rte_memzone_free(ring->mz);
	rte_free(ring);
}

uint32_t gaudi_rx_ring_held(const gaudi_rx_ring *ring)
{
	return ring == nullptr ? 0 : __atomic_load_n(&ring->refs, __ATOMIC_ACQUIRE) - 1;
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
		PMD_RX_LOG(DEBUG, "port %u: rx CQ entry length %u outside 1..%u: frame dropped",
			   m->port, len, len_max);
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
} /* namespace */

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
						m->packet_type =
							parse_ptype(frame, len) & ptype_mask;
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
						m->packet_type =
							parse_ptype(frame, len) & ptype_mask;
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
