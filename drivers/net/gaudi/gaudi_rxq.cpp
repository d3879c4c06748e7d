/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: RX queue control (setup, release, start, stop, info) and the RX slot ring's
 * memory. See gaudi_rxq.h; the datapath on the queue is gaudi_rx.cpp.
 */
#include "gaudi_rxq.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <rte_malloc.h>

#include "gaudi_devargs.h"
#include "gaudi_logs.h"
#include "gaudi_mem.h"
#include "gaudi_stats.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* Slot size for a max frame: power of two, at least 1 KB, at most 16 KB [gaudi2_en.c NIC_RAW_ELEM_SIZE]. */
uint32_t slot_log2_for(uint32_t max_frame)
{
	uint32_t l = std::bit_width(max_frame - 1);
	return std::clamp<uint32_t>(l, kRxSlotMinLog2, kRxSlotMaxLog2);
}

} /* namespace */

namespace {

/* free_cb of an attached mbuf's slot (rte_mbuf_ext_shared_info), on whichever lcore frees the
 * last mbuf on it: the slot may be written again once rx_burst's CI passes it. */
void rx_slot_free(void *addr, void *opaque)
{
	auto *ring = static_cast<gaudi_rx_ring *>(opaque);
	size_t slot = size_t(static_cast<uint8_t *>(addr) - ring->slots) >> ring->slot_log2;
	__atomic_store_n(&ring->held[slot], 0, __ATOMIC_RELEASE);
	gaudi_rx_ring_put(ring);
}

/* A slot ring of nb slots of 1 << slot_log2 bytes, its held flags and shared infos. Its
 * memzone has a name of its own (a generation number): gaudi_dma_zone() frees an old zone of
 * the same name, which must never be one that attached mbufs still point into. */
gaudi_rx_ring *rx_ring_create(const rte_eth_dev *dev, uint16_t qid, uint32_t nb, uint32_t slot_log2,
			      int socket)
{
	static std::atomic<uint32_t> generation;
	size_t slots_len = static_cast<size_t>(nb) << slot_log2;
	char what[16];
	snprintf(what, sizeof(what), "rxs%u_", generation.fetch_add(1, std::memory_order_relaxed));
	const rte_memzone *mz =
		gaudi_dma_zone(dev, what, qid, slots_len, socket, RTE_MEMZONE_IOVA_CONTIG,
			       gaudi_ring_align(slots_len));
	size_t len = sizeof(gaudi_rx_ring) + (sizeof(rte_mbuf_ext_shared_info) + 1) * nb;
	auto *ring = static_cast<gaudi_rx_ring *>(
		rte_zmalloc_socket("gaudi_rx_ring", len, RTE_CACHE_LINE_SIZE, socket));
	if (mz == nullptr || ring == nullptr) {
		rte_memzone_free(mz);
		rte_free(ring);
		return nullptr;
	}
	ring->mz = mz;
	ring->slots = static_cast<uint8_t *>(mz->addr);
	ring->iova = mz->iova;
	ring->slot_log2 = slot_log2;
	ring->refs = 1; /* the queue's */
	ring->shinfo = reinterpret_cast<rte_mbuf_ext_shared_info *>(ring + 1);
	ring->held = reinterpret_cast<uint8_t *>(ring->shinfo + nb);
	for (uint32_t i = 0; i < nb; i++) {
		ring->shinfo[i].free_cb = rx_slot_free;
		ring->shinfo[i].fcb_opaque = ring;
	}
	return ring;
}

} /* namespace */

void gaudi_rxq_release(rte_eth_dev *dev, uint16_t qid)
{
	if (dev->data->rx_queues == nullptr || qid >= dev->data->nb_rx_queues)
		return;
	auto *rxq = static_cast<gaudi_rxq *>(dev->data->rx_queues[qid]);
	if (rxq == nullptr)
		return;
	gaudi_stats_base_add_rxq(gaudi_priv(dev), rxq);
	/* Slots attached mbufs still hold stay until the last of them is freed. */
	gaudi_rx_ring_put(rxq->ring);
	rte_memzone_free(rxq->cq_mz);
	rte_free(rxq);
	dev->data->rx_queues[qid] = nullptr;
}

/* (Re)build RX ring memory for the port's current MTU. The old slot ring is let go: attached
 * mbufs may still hold some of its slots. */
int gaudi_rxq_alloc_ring(rte_eth_dev *dev, gaudi_rxq *rxq)
{
	uint32_t max_frame = gaudi_max_frame(dev->data->mtu);
	uint32_t slot_log2 = slot_log2_for(max_frame);
	size_t slots_len = static_cast<size_t>(rxq->nb_desc) << slot_log2;
	size_t cq_len = sizeof(Cqe) * rxq->nb_desc;
	int socket = dev->device->numa_node;
	/* Slot ring and CQ apart: each is walked by index, so each must be IOVA-contiguous. */
	gaudi_rx_ring *ring = rx_ring_create(dev, rxq->queue_id, rxq->nb_desc, slot_log2, socket);
	const rte_memzone *cq_mz =
		gaudi_dma_zone(dev, "rxc", rxq->queue_id, cq_len + kRingAlign, socket,
			       RTE_MEMZONE_IOVA_CONTIG, gaudi_ring_align(cq_len + kRingAlign));
	gaudi_rx_ring_put(rxq->ring);
	rxq->ring = nullptr;
	if (ring == nullptr || cq_mz == nullptr) {
		PMD_DRV_LOG(ERR,
			    "port %u: cannot reserve %zu IOVA-contiguous bytes for the rx slot "
			    "ring (%u x %u B): use a smaller ring (--rxd) or MTU, 1 GB pages or "
			    "--iova-mode=va",
			    dev->data->port_id, slots_len, rxq->nb_desc, 1u << slot_log2);
		gaudi_rx_ring_put(ring);
		rte_memzone_free(cq_mz);
		rxq->cq_mz = nullptr; /* gaudi_dma_zone() freed the old one by name */
		return -ENOMEM;
	}
	rxq->ring = ring;
	rxq->cq_mz = cq_mz;
	rxq->slots = ring->slots;
	rxq->cq = static_cast<Cqe *>(cq_mz->addr);
	rxq->cq_pi =
		reinterpret_cast<volatile uint32_t *>(static_cast<uint8_t *>(cq_mz->addr) + cq_len);
	rxq->slot_log2 = slot_log2;
	rxq->max_frame = max_frame;
	return 0;
}

namespace {
/* The 8 bytes at rearm_data (data_off, refcnt, nb_segs, port) of every mbuf rx_burst returns,
 * built from a template mbuf so the layout is DPDK's, not ours. */
uint64_t rxq_mbuf_init(uint16_t port_id)
{
	rte_mbuf mb{};
	mb.data_off = RTE_PKTMBUF_HEADROOM;
	mb.nb_segs = 1;
	mb.port = port_id;
	rte_mbuf_refcnt_set(&mb, 1);
	uint64_t v;
	static_assert(offsetof(rte_mbuf, port) + sizeof(mb.port) - offsetof(rte_mbuf, rearm_data) ==
		      sizeof(v));
	std::memcpy(&v, &mb.rearm_data, sizeof(v));
	return v;
}
} /* namespace */

int gaudi_rx_queue_setup(rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc, unsigned int socket,
			 const rte_eth_rxconf *conf, rte_mempool *mp)
{
	(void)socket;
	if (!gaudi_ring_size_ok(nb_desc, kRxRingMin, kRxRingMax)) {
		PMD_DRV_LOG(ERR, "port %u: rx ring size %u: must be a power of two in %u..%u",
			    dev->data->port_id, nb_desc, kRxRingMin, kRxRingMax);
		return -EINVAL;
	}
	uint64_t offloads = conf->offloads | dev->data->dev_conf.rxmode.offloads;
	bool scatter = offloads & RTE_ETH_RX_OFFLOAD_SCATTER;
	uint32_t buf = rte_pktmbuf_data_room_size(mp) - RTE_PKTMBUF_HEADROOM;
	if (!scatter && gaudi_max_frame(dev->data->mtu) > buf) {
		PMD_DRV_LOG(ERR,
			    "port %u: mbuf data room %u < max frame %u and scattered rx is off",
			    dev->data->port_id, buf, gaudi_max_frame(dev->data->mtu));
		return -EINVAL;
	}
	gaudi_rxq_release(dev, qid);
	auto *rxq = static_cast<gaudi_rxq *>(rte_zmalloc_socket(
		"gaudi_rxq", sizeof(gaudi_rxq), RTE_CACHE_LINE_SIZE, dev->device->numa_node));
	if (rxq == nullptr)
		return -ENOMEM;
	rxq->nb_desc = nb_desc;
	rxq->mask = nb_desc - 1;
	rxq->mp = mp;
	rxq->port = gaudi_priv(dev);
	rxq->queue_id = qid;
	rxq->scatter = scatter;
	rxq->buf_size = buf;
	rxq->mbuf_init = rxq_mbuf_init(dev->data->port_id);
	const bool pinned = rte_pktmbuf_priv_flags(mp) & RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF;
	if (pinned)
		rxq->ol_flags_init = RTE_MBUF_F_EXTERNAL;
	else
		rxq->data_off_abs = static_cast<uint32_t>(
			sizeof(rte_mbuf) + rte_pktmbuf_priv_size(mp) + RTE_PKTMBUF_HEADROOM);
	rxq->deferred = conf->rx_deferred_start != 0;
	rxq->copy_max = rxq->port->adapter->rx_copy_max;
	/* A freed slot goes back to the NIC at the queue's next rx_burst, and forwarded mbufs are
	 * freed at their TX queue's next burst: a ring lending its slots needs room for what the
	 * application holds plus about two bursts besides. A smaller one stalled io forwarding
	 * at --rxd=64 (the NIC found the CQ full of slots already freed); it copies instead, as
	 * mlx5 falls back from its multi-packet RQ when the ring does not suit it. */
	if (rxq->copy_max < gaudi_rx_copy_all && nb_desc < kRxAttachMinDesc) {
		PMD_DRV_LOG(
			NOTICE,
			"port %u rxq %u: rx_copy_max ignored: %u descriptors are too few to lend "
			"slots (at least %u); every frame is copied",
			dev->data->port_id, qid, nb_desc, kRxAttachMinDesc);
		rxq->copy_max = gaudi_rx_copy_all;
	}
	/* A pinned pool's mbuf cannot take another buffer: its free would not detach it
	 * (rte_pktmbuf_detach leaves pinned mbufs), so the slot would never come back. mlx5
	 * likewise keeps its multi-packet RQ off for external memory. */
	if (rxq->copy_max < gaudi_rx_copy_all && pinned) {
		PMD_DRV_LOG(NOTICE,
			    "port %u rxq %u: rx_copy_max ignored: the mempool's mbufs have pinned "
			    "external buffers; every frame is copied",
			    dev->data->port_id, qid);
		rxq->copy_max = gaudi_rx_copy_all;
	}
	int rc = gaudi_rxq_alloc_ring(dev, rxq);
	if (rc != 0) {
		rte_free(rxq);
		return rc;
	}
	dev->data->rx_queues[qid] = rxq;
	return 0;
}

/* (Re)start the raw RX path of queue 0: empty CQ, responder QPC valid. The HW starts again
 * from slot 0 with every slot its own: if attached mbufs still hold slots of the ring, the
 * queue starts on a new ring and the old one goes when they are freed. */
int gaudi_rxq_hw_start(rte_eth_dev *dev, gaudi_rxq *rxq)
{
	int rc = gaudi_rxq_hw_config(dev, rxq);
	return rc != 0 ? rc : gaudi_rxq_hw_activate(dev, rxq);
}

int gaudi_rxq_hw_config(rte_eth_dev *dev, gaudi_rxq *rxq)
{
	gaudi_port *port = gaudi_priv(dev);
	uint32_t held = gaudi_rx_ring_held(rxq->ring);
	if (rxq->ring == nullptr || held != 0) { /* (none: an earlier rebuild failed) */
		PMD_DRV_LOG(INFO,
			    "port %u: rx queue %u: %u slots still held by mbufs: new slot ring",
			    dev->data->port_id, rxq->queue_id, held);
		int rc = gaudi_rxq_alloc_ring(dev, rxq);
		if (rc != 0)
			return rc;
	}
	memset(rxq->cq, 0, sizeof(Cqe) * rxq->nb_desc);
	*rxq->cq_pi = 0;
	rxq->ci = rxq->hw_ci = rxq->pi_seen = 0;
	size_t cq_len = sizeof(Cqe) * rxq->nb_desc;
	RxRingCfg rcfg{rxq->ring->iova, rxq->slot_log2, gaudi_log2u(rxq->nb_desc), rxq->cq_mz->iova,
		       rxq->cq_mz->iova + cq_len};
	port->hw.rx_config(rcfg);
	return 0;
}

int gaudi_rxq_hw_activate(rte_eth_dev *dev, gaudi_rxq *rxq)
{
	if (!gaudi_priv(dev)->hw.rx_qp_start())
		return -EIO;
	rxq->started = true;
	dev->data->rx_queue_state[rxq->queue_id] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

void gaudi_rxq_hw_stop(rte_eth_dev *dev, gaudi_rxq *rxq)
{
	rxq->started = false;
	gaudi_priv(dev)->hw.rx_disable();
	dev->data->rx_queue_state[rxq->queue_id] = RTE_ETH_QUEUE_STATE_STOPPED;
}

int gaudi_rx_queue_start(rte_eth_dev *dev, uint16_t qid)
{
	auto *rxq = static_cast<gaudi_rxq *>(dev->data->rx_queues[qid]);
	if (rxq == nullptr)
		return -EINVAL;
	if (rxq->max_frame != gaudi_max_frame(dev->data->mtu))
		return -EINVAL; /* MTU changed while stopped: the slots need the port restarted */
	return gaudi_rxq_hw_start(dev, rxq);
}

int gaudi_rx_queue_stop(rte_eth_dev *dev, uint16_t qid)
{
	auto *rxq = static_cast<gaudi_rxq *>(dev->data->rx_queues[qid]);
	if (rxq == nullptr)
		return -EINVAL;
	gaudi_rxq_hw_stop(dev, rxq);
	return 0;
}

void gaudi_rxq_info_get(rte_eth_dev *dev, uint16_t qid, rte_eth_rxq_info *qinfo)
{
	auto *rxq = static_cast<const gaudi_rxq *>(dev->data->rx_queues[qid]);
	qinfo->mp = rxq->mp;
	qinfo->scattered_rx = rxq->scatter;
	qinfo->nb_desc = rxq->nb_desc;
	qinfo->rx_buf_size = rxq->buf_size;
	qinfo->conf.rx_deferred_start = rxq->deferred;
	qinfo->conf.offloads = rxq->scatter ? RTE_ETH_RX_OFFLOAD_SCATTER : 0;
	qinfo->queue_state = dev->data->rx_queue_state[qid];
}
