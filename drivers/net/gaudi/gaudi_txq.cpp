/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: TX queue control (setup, release, start, stop, info) and the bounce buffers.
 * See gaudi_txq.h; the datapath on the queue is gaudi_tx.cpp.
 */
#include "gaudi_txq.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>

#include <rte_cycles.h>
#include <rte_malloc.h>

#include "gaudi_eq.h"
#include "gaudi_logs.h"
#include "gaudi_mem.h"
#include "gaudi_stats.h"

using namespace gaudi;
using namespace gaudi::hw;

void gaudi_txq_release(rte_eth_dev *dev, uint16_t qid)
{
	if (dev->data->tx_queues == nullptr || qid >= dev->data->nb_tx_queues)
		return;
	auto *txq = static_cast<gaudi_txq *>(dev->data->tx_queues[qid]);
	if (txq == nullptr)
		return;
	gaudi_tx_drain(txq);
	gaudi_stats_base_add_txq(gaudi_priv(dev), txq);
	rte_memzone_free(txq->mz);
	rte_memzone_free(txq->bounce_mz);
	rte_free(txq->bounce_iova);
	rte_free(txq->sw_ring);
	rte_free(txq);
	dev->data->tx_queues[qid] = nullptr;
}

/* Bounce slots for frames the WQE cannot point at (multi-segment, or short and needing
 * padding), one per WQ slot, sized for the port's current MTU. A slot is a power of two
 * aligned to its size, so it never crosses a page and needs no IOVA-contiguous zone: each
 * slot's IOVA is looked up once here. */
int gaudi_txq_alloc_bounce(rte_eth_dev *dev, gaudi_txq *txq)
{
	uint32_t stride = std::bit_ceil(std::max<uint32_t>(gaudi_max_frame(dev->data->mtu), 64));
	size_t len = static_cast<size_t>(stride) * txq->nb_desc;
	const rte_memzone *mz =
		gaudi_dma_zone(dev, "txb", txq->queue_id, len, dev->device->numa_node, 0, stride);
	/* One block: each slot's IOVA, then each slot's dirty length (gaudi_txq). */
	auto *iova = static_cast<uint64_t *>(
		rte_zmalloc_socket("gaudi_txb_iova", (sizeof(uint64_t) + 1) * txq->nb_desc,
				   RTE_CACHE_LINE_SIZE, dev->device->numa_node));
	if (mz == nullptr || iova == nullptr) {
		PMD_DRV_LOG(ERR, "port %u: cannot reserve %zu bytes of tx bounce buffers",
			    dev->data->port_id, len);
		rte_memzone_free(mz);
		rte_free(iova);
		txq->bounce_mz = nullptr; /* gaudi_dma_zone() freed the old one by name */
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < txq->nb_desc; i++)
		iova[i] = rte_mem_virt2iova(static_cast<uint8_t *>(mz->addr) + size_t(i) * stride);
	rte_free(txq->bounce_iova);
	txq->bounce_mz = mz;
	txq->bounce = static_cast<uint8_t *>(mz->addr);
	txq->bounce_iova = iova;
	txq->bounce_dirty = reinterpret_cast<uint8_t *>(iova + txq->nb_desc);
	memset(txq->bounce_dirty, kTxPadSize, txq->nb_desc); /* contents unknown: all dirty */
	txq->bounce_stride = stride;
	return 0;
}

int gaudi_tx_queue_setup(rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc, unsigned int socket,
			 const rte_eth_txconf *conf)
{
	(void)socket;
	if (!gaudi_ring_size_ok(nb_desc, kTxRingMin, kTxRingMax)) {
		PMD_DRV_LOG(ERR, "port %u: tx ring size %u: must be a power of two in %u..%u",
			    dev->data->port_id, nb_desc, kTxRingMin, kTxRingMax);
		return -EINVAL;
	}
	gaudi_txq_release(dev, qid);
	auto *txq = static_cast<gaudi_txq *>(rte_zmalloc_socket(
		"gaudi_txq", sizeof(gaudi_txq), RTE_CACHE_LINE_SIZE, dev->device->numa_node));
	if (txq == nullptr)
		return -ENOMEM;
	txq->sw_ring = static_cast<rte_mbuf **>(
		rte_zmalloc_socket("gaudi_txq_sw", sizeof(rte_mbuf *) * nb_desc,
				   RTE_CACHE_LINE_SIZE, dev->device->numa_node));
	size_t wq_len = sizeof(TxWqe) * nb_desc;
	const rte_memzone *mz =
		txq->sw_ring == nullptr
			? nullptr
			: gaudi_dma_zone(dev, "txq", qid, wq_len, dev->device->numa_node,
					 RTE_MEMZONE_IOVA_CONTIG, gaudi_ring_align(wq_len));
	if (mz == nullptr) {
		PMD_DRV_LOG(ERR, "port %u: cannot reserve tx ring memory", dev->data->port_id);
		rte_free(txq->sw_ring);
		rte_free(txq);
		return -ENOMEM;
	}
	txq->mz = mz;
	txq->wq = static_cast<TxWqe *>(mz->addr);
	txq->nb_desc = nb_desc;
	int rc = gaudi_txq_alloc_bounce(dev, txq);
	if (rc != 0) {
		rte_memzone_free(mz);
		rte_free(txq->sw_ring);
		rte_free(txq);
		return rc;
	}
	txq->mask = nb_desc - 1;
	txq->port = gaudi_priv(dev);
	rte_spinlock_init(&txq->lock);
	txq->queue_id = qid;
	txq->max_frame = gaudi_max_frame(dev->data->mtu);
	txq->deferred = conf->tx_deferred_start != 0;
	/* Fast free puts mbufs back in their pool without detaching them: an mbuf attached to an
	 * RX slot (rx_copy_max) would go back still pointing at the slot, which would never be
	 * released. The adapter's RX attaches: its TX frees each mbuf (mlx5 turns fast free off
	 * with its multi-packet RQ too, mlx5_txq.c). */
	bool attaching = txq->port->adapter->rx_copy_max < gaudi_rx_copy_all;
	txq->fast_free = ((conf->offloads | dev->data->dev_conf.txmode.offloads) &
			  RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE) != 0 &&
			 !attaching;
	dev->data->tx_queues[qid] = txq;
	return 0;
}

/* (Re)start the raw TX QP: WQ from index 0, requester QPC valid. */
int gaudi_txq_hw_start(rte_eth_dev *dev, gaudi_txq *txq)
{
	gaudi_txq_hw_config(dev, txq);
	return gaudi_txq_hw_activate(dev, txq);
}

namespace {
TxRingCfg txq_ring_cfg(rte_eth_dev *dev, const gaudi_txq *txq)
{
	return {txq->mz->iova, gaudi_log2u(txq->nb_desc), gaudi_db_ci_iova(gaudi_priv(dev)),
		dev->data->mtu};
}
} /* namespace */

void gaudi_txq_hw_config(rte_eth_dev *dev, gaudi_txq *txq)
{
	txq->pi = txq->ci = txq->bounce_end = 0;
	gaudi_priv(dev)->hw.tx_config(txq_ring_cfg(dev, txq));
}

int gaudi_txq_hw_activate(rte_eth_dev *dev, gaudi_txq *txq)
{
	gaudi_port *port = gaudi_priv(dev);
	if (!port->hw.tx_qp_start(txq_ring_cfg(dev, txq)))
		return -EIO;
	/* Software cannot reset the doorbell FIFO's CI: push dummies until it wraps to 63, as
	 * gaudi2_cn.c db_fifo_reset does, then count doorbells from there. */
	if (!port->hw.db_fifo_align(port->mem.db_ci)) {
		PMD_DRV_LOG(ERR, "port %u: doorbell FIFO CI did not reach 63 (reads %u)",
			    dev->data->port_id, *port->mem.db_ci);
		return -EIO;
	}
	port->db_pushed = 0;
	port->db_ci_seen = *port->mem.db_ci;
	txq->started = true;
	dev->data->tx_queue_state[txq->queue_id] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

/* Stop the raw TX QP: let the device finish what it was given (bounded wait), reap the
 * completions, invalidate the QPC, return every mbuf still on the ring. */
void gaudi_txq_hw_stop(rte_eth_dev *dev, gaudi_txq *txq)
{
	gaudi_port *port = gaudi_priv(dev);
	txq->started = false;
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 10; /* 100 ms */
	while (gaudi_db_outstanding(port) != 0 && rte_get_timer_cycles() < end) {
		port->hw.bar()->service();
		rte_pause();
	}
	gaudi_port_events(port, txq);
	port->hw.tx_disable();
	/* WQEs never completed: their mbufs go back to the pool. Under the queue's lock and
	 * eq_lock: with the port still started, an interrupt, the EQ re-arm alarm or the TX
	 * watchdog may be completing WQEs of this queue (gaudi_tx_complete) at the same time. */
	gaudi_tx_lock_all(port, txq);
	/* The stopped QP's events, taken now whoever held the lock above: a DB_FIFO_OVERRUN
	 * consumed after the next start's alignment would take db_pushed below 0, and the FIFO
	 * would then read full for good. */
	gaudi_port_events_locked(port, txq);
	gaudi_tx_drain(txq);
	gaudi_tx_unlock_all(port, txq);
	dev->data->tx_queue_state[txq->queue_id] = RTE_ETH_QUEUE_STATE_STOPPED;
}

int gaudi_tx_queue_start(rte_eth_dev *dev, uint16_t qid)
{
	auto *txq = static_cast<gaudi_txq *>(dev->data->tx_queues[qid]);
	if (txq == nullptr)
		return -EINVAL;
	return gaudi_txq_hw_start(dev, txq);
}

int gaudi_tx_queue_stop(rte_eth_dev *dev, uint16_t qid)
{
	auto *txq = static_cast<gaudi_txq *>(dev->data->tx_queues[qid]);
	if (txq == nullptr)
		return -EINVAL;
	gaudi_txq_hw_stop(dev, txq);
	return 0;
}

void gaudi_txq_info_get(rte_eth_dev *dev, uint16_t qid, rte_eth_txq_info *qinfo)
{
	auto *txq = static_cast<const gaudi_txq *>(dev->data->tx_queues[qid]);
	qinfo->nb_desc = txq->nb_desc;
	qinfo->conf.tx_deferred_start = txq->deferred;
	qinfo->conf.offloads = dev->data->dev_conf.txmode.offloads;
	qinfo->queue_state = dev->data->tx_queue_state[qid];
}
