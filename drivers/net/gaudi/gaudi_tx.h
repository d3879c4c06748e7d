/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD TX datapath: the TX queue, tx_burst, its completions and the port's events.
 * Queue control: gaudi_txq.h.
 */
#pragma once

#include <cstdint>

#include <rte_mbuf.h>
#include <rte_memzone.h>

#include "gaudi_adapter.h"

/* TX queue: WQEs point at mbuf data (zero copy); short and multi-segment frames go through a
 * per-slot bounce buffer because the WQE is one linear buffer and the HW does not pad. */
struct gaudi_txq {
	gaudi::hw::TxWqe *wq;
	rte_mbuf **sw_ring;    /* in [ci, pi): mbuf to free at completion (null: bounce) */
	uint8_t *bounce;       /* nb_desc slots of bounce_stride bytes */
	uint64_t *bounce_iova; /* IOVA of each bounce slot */
	/* Per bounce slot: how many of its first kTxPadSize bytes a frame may have left non-zero.
	 * A short frame's pad must go out as zeros; only what an earlier, longer frame left
	 * there is cleared, so a run of short frames writes no pad at all. */
	uint8_t *bounce_dirty;
	uint32_t bounce_stride;
	const rte_memzone *bounce_mz;
	uint32_t pi; /* next WQ index to post (22-bit free-running) */
	uint32_t ci; /* oldest WQ index not yet completed */
	/* One past the newest bounced WQE (its sw_ring entry null) or at most ci: completion
	 * walks the sw_ring run for nulls only when it is in (ci, pi]. */
	uint32_t bounce_end;
	uint32_t mask; /* entries - 1 */
	uint32_t max_frame;
	gaudi_port *port;
	uint16_t queue_id;
	uint16_t nb_desc;
	const rte_memzone *mz;

	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;  /* bad mbufs dropped: empty, too long, too many bytes */
	uint64_t db_busy; /* bursts refused because the doorbell FIFO was full */
	bool started;	  /* queue started: tx_burst returns 0 otherwise */
	bool deferred;	  /* tx_deferred_start */
	/* RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE (port or queue): the application promises one
	 * mempool, direct mbufs, refcnt 1, so freeing is putting them back in bulk. */
	bool fast_free;
	/* The queue's ring (pi, ci, sw_ring, bounce slots) and what acts on it: tx_burst, the
	 * completions, the queue's recovery, drain. One per queue, as hbl_en takes its netdev TX
	 * queue's lock to reclaim (gaudi2_en_tx_done); the port's eq_lock nests inside it. */
	rte_spinlock_t lock;
};

uint16_t gaudi_tx_burst(void *txq, rte_mbuf **pkts, uint16_t nb_pkts);
/* Complete TX WQEs up to and including free-running WQ index last. */
void gaudi_tx_complete(gaudi_txq *txq, uint32_t last);
/* The hardware speaks ring indices (doorbell PI, RAW_TX_COMP, QPC EXECUTION_IDX) [gaudi2_en.c]:
 * the free-running index in [ci, ci + nb_desc) a ring index stands for. */
static inline uint32_t gaudi_txq_unring(const gaudi_txq *txq, uint32_t ring_idx)
{
	return (txq->ci + ((ring_idx - txq->ci) & txq->mask)) & gaudi::hw::WQ_IDX_MASK;
}
/* Free every mbuf still owned by the TX ring (port stop). */
void gaudi_tx_drain(gaudi_txq *txq);
/* rte_eth_tx_descriptor_status. */
int gaudi_tx_descriptor_status(void *txq, uint16_t offset);
/* Work a fault left for the TX queue: re-ring a lost doorbell, restart the QP after a QP
 * error. Under txq->lock (tx_burst, watchdog). Cheap test first. */
void gaudi_tx_recover(gaudi_txq *txq);
/* Drain the port's event queue and act on what it held: the TX completions go to txq (none
 * when null), the rest to gaudi_recovery. Under eq_lock, and txq->lock when txq is given.
 * While the port is started every consumer gives its TX queue: completions are never lost. */
void gaudi_port_events_locked(gaudi_port *port, gaudi_txq *txq);
/* The same, taking the locks (txq->lock first); returns at once if another thread holds one
 * (the datapath, or another consumer, is at it). */
void gaudi_port_events(gaudi_port *port, gaudi_txq *txq);
/* Both locks, blocking, in their order (the queue's, then the EQ's; txq may be null). */
void gaudi_tx_lock_all(gaudi_port *port, gaudi_txq *txq);
void gaudi_tx_unlock_all(gaudi_port *port, gaudi_txq *txq);
