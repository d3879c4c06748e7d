/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD TX datapath: tx_burst on the raw QP's work queue, its completions, and what the
 * queue does on the port's events: the EQ consumer (gaudi_eq) hands back what it found, and
 * gaudi_port_events completes the queue's WQEs and passes the rest to gaudi_recovery; a fault
 * left for the queue (a lost doorbell, a QP error) is recovered here. No allocation or syscall
 * per packet; one doorbell per burst.
 */
#include "gaudi_tx.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>

#include <ethdev_driver.h>

#include <rte_branch_prediction.h>
#include <rte_memcpy.h>

#include "gaudi_eq.h"
#include "gaudi_logs.h"
#include "gaudi_recovery.h"

using namespace gaudi;
using namespace gaudi::hw;

/* The WQE's combined stores (ctrl + size) put the lower-addressed field in the low bits: a
 * little-endian host, as every x86 and Arm host DPDK builds this driver for. */
static_assert(RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN, "combined field stores assume little endian");

/* Offset counts from the next slot tx_burst fills: FULL while the WQE that last used the slot
 * has not completed, DONE when the slot is free. Completions are reaped from the EQ first. */
int gaudi_tx_descriptor_status(void *queue, uint16_t offset)
{
	auto *txq = static_cast<gaudi_txq *>(queue);
	if (unlikely(offset >= txq->nb_desc))
		return -EINVAL;
	if (!txq->started)
		return RTE_ETH_TX_DESC_UNAVAIL;
	gaudi_port_events(txq->port, txq);
	uint32_t used = (txq->pi - txq->ci) & WQ_IDX_MASK;
	return offset < txq->nb_desc - used ? RTE_ETH_TX_DESC_DONE : RTE_ETH_TX_DESC_FULL;
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
} /* namespace */

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
	if (unlikely(!txq->started))
		return 0;
	/* [faults] The burst runs under the queue's own lock, no lock of the port: the TX
	 * watchdog (gaudi_watchdog.cpp) takes it too, to recover this queue while the
	 * application does not transmit; it is not shared with any other queue. */
	rte_spinlock_lock(&txq->lock);
	uint16_t n = tx_burst_locked(txq, pkts, nb_pkts);
	rte_spinlock_unlock(&txq->lock);
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
	/* The port's events: the EQ is never waited for. Every other consumer that runs while
	 * the port is started takes this queue's lock first (gaudi_port_events_locked), so the
	 * EQ is busy only while the port is stopped or being handed over. */
	if (likely(rte_spinlock_trylock(&port->eq_lock))) {
		gaudi_port_events_locked(port, txq);
		rte_spinlock_unlock(&port->eq_lock);
	}
	/* [faults] A lost doorbell or a QP error left work: done even for an empty burst. */
	if (unlikely(port->rec.db_rering || port->qp_err_pending))
		gaudi_tx_recover(txq);

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
} /* namespace */

/* ---- [faults] the TX queue's part of recovery ---- */

namespace {

const char *syndrome_name(uint32_t s)
{
	switch (QpErrSyndrome(s)) {
	case QpErrSyndrome::req_db_qp_not_valid:
		return "requester doorbell: QP not valid";
	case QpErrSyndrome::pi_exceeds_last_index:
		return "PI exceeds last index";
	case QpErrSyndrome::wqe_index_mismatch:
		return "WQE index != execution index";
	case QpErrSyndrome::raw_wqe_size_unsupported:
		return "raw WQE size not supported";
	case QpErrSyndrome::raw_wqe_opcode_unsupported:
		return "raw WQE opcode not supported";
	case QpErrSyndrome::wqe_dma_fault:
		return "WQE local address DMA fault";
	case QpErrSyndrome::raw_above_max_size:
		return "raw frame above the TXE maximum size";
	case QpErrSyndrome::raw_below_min_size:
		return "raw frame below the TXE minimum size (187)";
	case QpErrSyndrome::wqe_se_not_raw:
		return "WQE SE not raw";
	}
	switch (s >> 6) {
	case 0:
		return "rx packet error";
	case 1:
		return "QPC error";
	default:
		return "tx packet error";
	}
}

/* Ring the doorbell with the queue's current PI, if the FIFO has room (else later). */
bool rering(gaudi_txq *txq)
{
	gaudi_port *port = txq->port;
	if (gaudi_db_full(port))
		return false;
	port->db_pushed++;
	port->hw.ring_doorbell(txq->pi & txq->mask);
	return true;
}

/* The raw QP stopped at a WQE with a QP error: restart the queue in place. */
void qp_recover(gaudi_txq *txq)
{
	gaudi_port *port = txq->port;
	uint32_t syn = port->last_qp_syndrome;
	if ((syn >> 6) == 0) {
		/* Responder (RX) class: the frame is lost and counted (ierrors); RX goes on. */
		if (gaudi_rec_log_ok(port))
			PMD_TX_LOG(WARNING, "port %u: RX QP error 0x%02x (%s): frame dropped",
				   port->port_id, syn, syndrome_name(syn));
		return;
	}
	qpc::ReqImage img;
	img.set(qpc::REQ_EXECUTION_IDX, 0);
	img.set(qpc::REQ_ERROR, 0);
	img.set(qpc::REQ_VALID, 0);
	if (!port->hw.qpc_read_req(&img)) {
		gaudi_rec_request_reset(port, "QPC gateway read failed after a QP error");
		return;
	}
	if (!img.get(qpc::REQ_ERROR) || !img.get(qpc::REQ_VALID))
		return; /* already restarted (one event per error) or the queue is stopping */
	/* EXECUTION_IDX is a ring index: back to the queue's free-running numbering. */
	uint32_t exec = gaudi_txq_unring(txq, img.get(qpc::REQ_EXECUTION_IDX));
	uint32_t outstanding = (txq->pi - txq->ci) & WQ_IDX_MASK;
	uint32_t done = (exec - txq->ci) & WQ_IDX_MASK;
	if (done > outstanding) {
		PMD_TX_LOG(ERR,
			   "port %u: TX QP error 0x%02x (%s): execution index %u outside the "
			   "ring [%u, %u]",
			   port->port_id, syn, syndrome_name(syn), exec, txq->ci, txq->pi);
		gaudi_rec_request_reset(port, "inconsistent execution index");
		return;
	}
	/* WQEs before the execution index were sent: only the burst's last WQE solicits a
	 * completion, so complete them here. */
	if (done != 0)
		gaudi_tx_complete(txq, (exec - 1) & WQ_IDX_MASK);
	bool dropped = false;
	if ((syn >> 6) >= 2 && exec != txq->pi) {
		/* A tx-packet-class error is the WQE at the execution index: drop it (its frame
		 * was not sent) and restart after it, so nothing is sent twice. */
		uint32_t slot = exec & txq->mask;
		rte_mbuf *m = txq->sw_ring[slot];
		/* tx_burst counted the frame as sent; it is counted once, in oerrors. Its length:
		 * the mbuf's, or a bounced frame's WQE size, or for a padded one the length its
		 * bounce slot keeps (bounce_dirty). Saturating: a stats reset may come between. */
		const uint32_t size = txq->wq[slot].size;
		const uint64_t len = m != nullptr	 ? m->pkt_len
				     : size > kTxPadSize ? size
							 : txq->bounce_dirty[slot];
		txq->packets -= std::min<uint64_t>(txq->packets, 1);
		txq->bytes -= std::min(txq->bytes, len);
		rte_pktmbuf_free(m);
		txq->sw_ring[slot] = nullptr;
		txq->errors++;
		port->rec.tx_fault_drops++;
		exec = (exec + 1) & WQ_IDX_MASK;
		txq->ci = exec;
		dropped = true;
	}
	if (!port->hw.tx_resume(exec & txq->mask)) {
		gaudi_rec_request_reset(port, "QPC gateway did not answer the QP restart");
		return;
	}
	port->rec.qp_recoveries++;
	if (exec != txq->pi && !rering(txq))
		port->rec.db_rering = true;
	if (gaudi_rec_log_ok(port))
		PMD_TX_LOG(ERR,
			   "port %u: TX QP error 0x%02x (%s): %s, queue restarted at WQE %u "
			   "(%" PRIu64 " recoveries)",
			   port->port_id, syn, syndrome_name(syn),
			   dropped ? "faulting frame dropped (oerrors)" : "no frame lost", exec,
			   port->rec.qp_recoveries);
}

} /* namespace */

void gaudi_tx_recover(gaudi_txq *txq)
{
	gaudi_port *port = txq->port;
	if (port->qp_err_pending) {
		port->qp_err_pending = false;
		qp_recover(txq);
	}
	if (port->rec.db_rering && rering(txq)) {
		port->rec.db_rering = false;
		port->rec.db_rerings++;
		if (gaudi_rec_log_ok(port))
			PMD_TX_LOG(WARNING,
				   "port %u: doorbell FIFO overrun: %" PRIu64 " doorbell(s) "
				   "lost, rang again at PI %u, no frame lost",
				   port->port_id, port->rec.db_lost, txq->pi);
	}
}

void gaudi_port_events_locked(gaudi_port *port, gaudi_txq *txq)
{
	gaudi_eq_found f;
	do {
		f = gaudi_eq_found();
		gaudi_eq_poll_locked(port, &f);
		/* Every WQE up to the newest completion is done (completions are cumulative, and
		 * the index is one of the queue's outstanding WQEs: at most nb_desc - 1). */
		if (f.has_tx_comp && txq != nullptr)
			gaudi_tx_complete(txq, gaudi_txq_unring(txq, f.tx_comp));
		if (unlikely((f.n_link | f.qp_errs | f.db_overruns | f.cq_overruns) != 0))
			gaudi_rec_found(port, f); /* [faults] */
	} while (unlikely(f.more));
}

void gaudi_port_events(gaudi_port *port, gaudi_txq *txq)
{
	if (txq != nullptr && !rte_spinlock_trylock(&txq->lock))
		return;
	if (rte_spinlock_trylock(&port->eq_lock)) {
		gaudi_port_events_locked(port, txq);
		rte_spinlock_unlock(&port->eq_lock);
	}
	if (txq != nullptr)
		rte_spinlock_unlock(&txq->lock);
}

void gaudi_tx_lock_all(gaudi_port *port, gaudi_txq *txq)
{
	if (txq != nullptr)
		rte_spinlock_lock(&txq->lock);
	rte_spinlock_lock(&port->eq_lock);
}

void gaudi_tx_unlock_all(gaudi_port *port, gaudi_txq *txq)
{
	rte_spinlock_unlock(&port->eq_lock);
	if (txq != nullptr)
		rte_spinlock_unlock(&txq->lock);
}
