/* SPDX-License-Identifier: BSD-3-Clause
 * Model of the TXE block and the requester side of the raw QP: doorbells consumed from the
 * secured FIFO, WQEs fetched from the SQ (TXE SQ_BASE_ADDRESS_0, LOG_MAX_WQ_SIZE_0), checked
 * (WQE index, opcode, raw size: WQE_CHECK_EN2 / CFG4 / CFG5) and sent by the port's MAC.
 * Sources: nic0_txe0_regs.h / _masks.h, gaudi2_cn.c set_txe_checkers and qp_syndromes,
 * gaudi2_en.c (ring-index doorbells, RAW_TX_COMP with a ring index).
 */
#include "gaudi_emu_impl.h"

#include <cstring>

#include <rte_cycles.h>

namespace gaudi::emu {

using namespace detail;

bool Device::Impl::drain_tx(unsigned p)
{
	PortModel &pm = ports_[p];
	if (pm.fifo.popped.load(std::memory_order_relaxed) ==
	    pm.fifo.pushed.load(std::memory_order_acquire))
		return false;
	if (pm.fault.stuck.load(std::memory_order_relaxed)) /* [faults] engine takes nothing */
		return false;
	SpinGuard g(pm.tx.lock);
	Delivery dlv(*this);
	uint32_t d = reg::qpc_dbfifosecur(p);
	uint64_t ci_addr =
		rd_addr_shift7(d + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_63_32,
			       d + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_31_7);
	auto *ci_ptr = reinterpret_cast<uint32_t *>(iommu_.translate(ci_addr, 4, pm.tx.cache));
	/* [seq_check] Without the DB FIFO's MMU-bypass override its CI write-back does not reach
	 * host memory. */
	const uint32_t ci_seq = pm.seq_missing.load(std::memory_order_relaxed) & kSeqCi;
	if (ci_seq != 0)
		ci_ptr = nullptr;
	uint32_t popped0 = pm.fifo.popped.load(std::memory_order_relaxed), exec0 = pm.tx.exec;
	pm.tx.hold = false;
	for (;;) {
		uint32_t n = pm.fifo.popped.load(std::memory_order_relaxed);
		if (n == pm.fifo.pushed.load(std::memory_order_acquire))
			break;
		Doorbell db = pm.fifo.e[n % kDbFifoEntries];
		run_doorbell(p, db, dlv);
		if (pm.tx.hold) /* paused by the peer: the doorbell stays, retried later */
			break;
		if (pm.net) /* [wires tap/udp] a doorbell's frames leave before the next one */
			pm.net->flush();
		/* [model] The entry is retired, and its FIFO position DMA-written (one less than the
		 * count consumed, see write_db_ci), once its WQEs have been executed: a CI the driver
		 * sees covers finished work. */
		pm.fifo.popped.store(n + 1, std::memory_order_release);
		if (ci_ptr != nullptr)
			store_release(ci_ptr, n % kDbFifoEntries);
		else if (ci_seq != 0)
			seq_refuse(p, ci_seq, "DB FIFO CI write");
	}
	if (!pm.tx.hold) {
		if (unlikely(pm.tx.paused)) /* e.g. the held doorbell ended in a QP error */
			set_tx_paused(p, false);
		return true;
	}
	/* Paused: work only if something moved (the thread engine backs off otherwise). */
	return pm.tx.exec != exec0 || pm.fifo.popped.load(std::memory_order_relaxed) != popped0;
}

/* A pause in force shows in the MAC's RX_PAUSE_STATUS (one bit per class; the 4 PFC classes
 * pause together on Gaudi2, link pause is class 0). */
void Device::Impl::set_tx_paused(unsigned p, bool on)
{
	ports_[p].tx.paused = on;
	for (unsigned l = 0; l < kLanesPerPort; l++)
		wr(reg::mac_128(p, l) + reg::MAC_128_RX_PAUSE_STATUS, on ? 0xF : 0);
}

/* The model port whose frames arrive at port q: itself in loopback (wire or PCS), its peer on
 * a pair cable; -1 on the other wires (pcap, tap, udp: no model port sends). */
int Device::Impl::rx_peer(unsigned q) const
{
	if (cfg_.wire == Wire::loopback || pcs_loopback(q))
		return int(q);
	return cfg_.wire == Wire::pair && (q ^ 1) < cfg_.nports ? int(q ^ 1) : -1;
}

void Device::Impl::qp_error(unsigned p, uint32_t qpn, QpErrSyndrome s)
{
	TxState &t = ports_[p].tx;
	t.error = true;
	uint32_t b = qpc::REQ_ERROR.bit;
	t.req[b / 32] |= 1u << (b % 32);
	ports_[p].qp_errors.fetch_add(1, std::memory_order_relaxed);
	ports_[p].last_syndrome.store(uint32_t(s), std::memory_order_relaxed);
	post_eq(p, EqeType::qp_err, qpn & EQE_QPN_MASK, uint32_t(s));
}

/* Runs one doorbell under tx.lock: WQEs exec .. pi - 1 (ring indices) of the raw QP. */
void Device::Impl::run_doorbell(unsigned p, const Doorbell &db, Delivery &dlv)
{
	TxState &t = ports_[p].tx;
	uint32_t qpn = db.second & EQE_QPN_MASK;
	uint32_t stat = rd(reg::qpc(p) + reg::QPC_REQ_STATIC_CONFIG);
	if (t.error)
		return; /* a QP in error consumes doorbells and does nothing else */
	if (qpn != kRawQpn || !t.valid || !t.raw) {
		/* Error event only while REQ_STATIC_CONFIG asks for it: the doorbell FIFO reset
		 * work-around turns it off to push dummies to QPN NIC_MAX_QP_NUM [gaudi2_cn.c]. */
		if (stat & reg::QPC_REQ_STATIC_CONFIG_QM_PUSH_TO_ERR_FIFO_NON_V.mask())
			qp_error(p, qpn, QpErrSyndrome::req_db_qp_not_valid);
		return;
	}
	FaultState &fs = ports_[p].fault; /* [faults] */
	if (fs.armed.load(std::memory_order_relaxed))
		if (uint32_t syn = fault_take_db_syndrome(fs))
			return qp_error(p, qpn, QpErrSyndrome(syn));
	uint32_t pi = db.first & WQ_IDX_MASK;
	uint32_t ring = t.last_idx + 1;
	if (pi > t.last_idx) {
		if (stat & reg::QPC_REQ_STATIC_CONFIG_QM_PUSH_ERR_PI_EX_LAST.mask())
			qp_error(p, qpn, QpErrSyndrome::pi_exceeds_last_index);
		return;
	}
	uint32_t n = (pi + ring - t.exec) % ring;
	if (n == 0)
		return;

	uint32_t txe = reg::txe(p);
	uint32_t log2 = std::min<uint32_t>(
		reg::TXE_LOG_MAX_WQ_SIZE_0_R.get(rd(txe + reg::TXE_LOG_MAX_WQ_SIZE_0)) + 2, 20);
	uint32_t entries = 1u << log2;
	uint64_t wq_iova = (uint64_t(rd(txe + reg::TXE_SQ_BASE_ADDRESS_63_32_0)) << 32) |
			   rd(txe + reg::TXE_SQ_BASE_ADDRESS_31_0_0);
	/* The ring has a translation cache of its own: the frames' (t.cache) keeps its range. */
	const uint8_t *wq =
		iommu_.translate(wq_iova, uint64_t(entries) * sizeof(TxWqe), t.wq_cache);
	if (wq == nullptr)
		return qp_error(p, qpn, QpErrSyndrome::wqe_dma_fault);

	/* Raw size checkers [gaudi2_cn.c set_txe_checkers]: CFG4 (named MIN) holds the largest
	 * size, CFG5 (named MAX) the smallest, NIC_SKB_PAD_SIZE, because of H6-3399. */
	uint32_t en2 = rd(txe + reg::TXE_WQE_CHECK_EN2);
	uint32_t raw_max = (en2 & reg::TXE_WQE_CHECK_EN2_RAW_ABOVE_MIN_RAW_UNSUPPO.mask())
				   ? rd(txe + reg::TXE_WQE_CHECK_CFG4)
				   : UINT32_MAX;
	uint32_t raw_min = (en2 & reg::TXE_WQE_CHECK_EN2_RAW_BELOW_MAX_RAW_UNSUPPO.mask())
				   ? rd(txe + reg::TXE_WQE_CHECK_CFG5)
				   : 1;
	uint32_t ch = reg::mac_128(p, 0);
	uint32_t cmd = rd(ch + reg::MAC_128_COMMAND_CONFIG);
	uint32_t frm_len = rd(ch + reg::MAC_128_FRM_LENGTH);
	uint32_t max_size = std::min(frm_len >= kFcsLen ? frm_len - kFcsLen : 0, kMacMaxFrameLen);
	/* Where the MAC's frames go: PCS loopback wins over the cable. */
	enum class Dest { self, peer, sink, net, none } dest;
	bool pcs_loop = pcs_loopback(p);
	if (pcs_loop || cfg_.wire == Wire::loopback)
		dest = Dest::self;
	else if (cfg_.wire == Wire::pair)
		dest = (p ^ 1) < cfg_.nports ? Dest::peer : Dest::none;
	else
		dest = t.sink	       ? Dest::sink
		       : ports_[p].net ? Dest::net
				       : Dest::none; /* [wires tap/udp] */
	uint64_t *st = t.stats.data();
	constexpr size_t kCbfcTx0 = size_t(TxStat::cbfc_pause_frames_transmitted_0);
	/* Flow control on the cable [model]: while the receiving MAC sends XOFF (its RXB past
	 * XOFF_THRESHOLD, gaudi_emu_rxb.cpp), a MAC that honours PAUSE (PAUSE_IGNORE clear, or
	 * PFC_MODE) stops before this WQE; it stays pending until XON. */
	bool honour = (!(cmd & reg::CMD_PAUSE_IGNORE) || (cmd & reg::CMD_PFC_MODE)) &&
		      (cmd & reg::CMD_TX_ENA) && (dest == Dest::self || dest == Dest::peer);
	unsigned rq = dest == Dest::self ? p : (p ^ 1);
	DelayLine *line = ports_[p].delay.get(); /* [wire delay] */
	uint64_t due = line != nullptr ? rte_get_tsc_cycles() + delay_tsc_ : 0;
	/* A far end in PCS loopback ignores its line side (sampled once per doorbell, like the
	 * registers above). */
	bool peer_deaf = dest == Dest::peer && pcs_loopback(p ^ 1);
	/* [model] Without link (no peer, SerDes not tuned, cable out) the MAC has no carrier:
	 * the frames are consumed and dropped, counted in if_out_errors as on a flapped link.
	 * Sampled once per doorbell, like the registers above. */
	bool no_carrier = !pcs_loop && !__atomic_load_n(&ports_[p].link, __ATOMIC_RELAXED);
	/* [seq_check] A step TX needs was skipped: the frames are consumed and dropped. */
	const uint32_t seq_missing = ports_[p].seq_missing.load(std::memory_order_relaxed) & kSeqTx;
	const bool mac_drops = !(cmd & reg::CMD_TX_ENA) || no_carrier || seq_missing != 0;
	/* [model] A size all the checks below accept, decided once: a WQE of
	 * size_min .. size_min + size_span bytes skips them (then checked in order if not). */
	const uint32_t size_min = std::max<uint32_t>(raw_min, 1);
	const uint32_t size_max = std::min(raw_max, max_size);
	const uint32_t size_span = size_max >= size_min ? size_max - size_min : 0;
	const bool size_fast = size_max >= size_min;
	constexpr uint32_t kCtrlCheck = WQE_OPCODE_MASK | (WQE_INDEX_MASK << WQE_INDEX_SHIFT);
	/* The good frames' MAC counters, added once when the doorbell ends (any return). */
	struct TallyGuard {
		TxState &t;
		~TallyGuard() { t.tally.flush(t.stats.data(), t.wire_tx, kTxTally); }
	} tg{t};

	/* [model] The common case, decided once per doorbell: no flow control to honour, no
	 * fault armed, no delay line, the MAC sending with carrier to a model port that
	 * listens. The loop is then built without those checks (kPlain). */
	const bool plain = !honour && !fs.armed.load(std::memory_order_relaxed) &&
			   line == nullptr && !mac_drops &&
			   (dest == Dest::self || (dest == Dest::peer && !peer_deaf));
	IommuBatch frames(iommu_, t.cache);
	/* With engine=thread the WQEs and frames are lines the driver's CPU wrote, and the slots
	 * and CQEs lines it read: each access a transfer between CPUs, which the look-ahead
	 * overlaps (with the two vCPUs far apart, a line's round trip about 1000 TSC cycles: 11 %
	 * more frames per second at 64 bytes, gaudi_perf.rst). Inline they are in this CPU's
	 * cache already, and the look-ahead only costs (4 to 6 cycles per frame). */
	constexpr uint32_t kWqeAhead = 8, kDataAhead = 4;
	constexpr uint32_t kAheadBytes = 3 * RTE_CACHE_LINE_SIZE; /* a padded 187-byte frame */
	const bool ahead = cfg_.engine == Engine::thread;
	auto run = [&]<bool kPlain>() {
		for (; n != 0; n--) {
			if (!kPlain && honour) {
				if (dlv.xoff(rq)) {
					if (!t.paused) /* (its PAUSE counted by the RXB's XOFF) */
						set_tx_paused(p, true);
					t.hold = true;
					return;
				}
				if (unlikely(t.paused))
					set_tx_paused(p, false); /* XON: the episode is over */
			}
			bool link_down = false, wire_drop = false;
			if (!kPlain && fs.armed.load(std::memory_order_relaxed)) { /* [faults] */
				FaultStep fst = fault_on_tx_frame(fs);
				wire_drop = fst.wire_drop;
				if (fst.link_flap_ms != 0)
					start_link_flap(p, fst.link_flap_ms);
				if (fst.wqe_syndrome == uint32_t(QpErrSyndrome::wqe_dma_fault))
					return qp_error(p, qpn, QpErrSyndrome::wqe_dma_fault);
				if (fst.wqe_syndrome != 0)
					return qp_error(p, qpn, QpErrSyndrome(fst.wqe_syndrome));
				link_down = forced_down(p);
			}
			if (kPlain && ahead) {
				/* [model] Look ahead, as a DMA engine keeps reads in flight: the
				 * WQE kWqeAhead entries on, the first lines of the frame kDataAhead
				 * on (its WQE loaded by then) and the slot and CQE it will take. */
				const uint32_t mask = entries - 1;
				if (n > kWqeAhead)
					rte_prefetch0(wq + size_t((t.exec + kWqeAhead) & mask) *
								   sizeof(TxWqe));
				if (n > kDataAhead) {
					const size_t at = (t.exec + kDataAhead) & mask;
					const auto *wa = reinterpret_cast<const TxWqe *>(
						wq + at * sizeof(TxWqe));
					const uint32_t sz = std::min(wa->size, kAheadBytes);
					constexpr uint32_t kLine = RTE_CACHE_LINE_SIZE;
					if (const uint8_t *d = frames.translate(wa->local_addr, sz))
						for (uint32_t o = 0; o < sz; o += kLine)
							rte_prefetch0(d + o);
					dlv.prefetch(rq, kDataAhead);
				}
			}
			/* The three fields raw TX uses, each loaded as the driver stored it: one
			 * 16-byte load over its smaller stores, still in flight with the inline
			 * engine, cannot be forwarded from the store buffer and waits for them. */
			const auto *wqe = reinterpret_cast<const TxWqe *>(
				wq + size_t(t.exec & (entries - 1)) * sizeof(TxWqe));
			const struct {
				uint32_t ctrl, size;
				uint64_t local_addr;
			} w = {wqe->ctrl, wqe->size, wqe->local_addr};
			/* The expected index and opcode in one compare; each check in its order if
			 * not. */
			const uint32_t ctrl_ok = uint32_t(WqeOpcode::linear) |
						 ((t.exec & WQE_INDEX_MASK) << WQE_INDEX_SHIFT);
			if (unlikely((w.ctrl & kCtrlCheck) != ctrl_ok)) {
				if (wqe_index(w.ctrl) != (t.exec & WQE_INDEX_MASK))
					return qp_error(p, qpn, QpErrSyndrome::wqe_index_mismatch);
				return qp_error(p, qpn, QpErrSyndrome::raw_wqe_opcode_unsupported);
			}
			if (unlikely(!size_fast || w.size - size_min > size_span)) {
				if (w.size == 0)
					return qp_error(p, qpn,
							QpErrSyndrome::raw_wqe_size_unsupported);
				if (w.size < raw_min)
					return qp_error(p, qpn, QpErrSyndrome::raw_below_min_size);
				if (w.size > raw_max)
					return qp_error(p, qpn, QpErrSyndrome::raw_above_max_size);
				/* [model] longer than the MAC's FRM_LENGTH */
				if (w.size > max_size)
					return qp_error(p, qpn,
							QpErrSyndrome::raw_wqe_size_unsupported);
			}
			const uint8_t *data = frames.translate(w.local_addr, w.size);
			if (data == nullptr)
				return qp_error(p, qpn, QpErrSyndrome::wqe_dma_fault);

			if (!kPlain && unlikely(mac_drops || link_down)) { /* [faults] flap too */
				bump(st[size_t(TxStat::if_out_errors)]); /* consumed and dropped */
				if (seq_missing != 0)
					seq_refuse(p, seq_missing, "TX");
			} else {
				const uint32_t cls = frame_class(data, w.size);
				/* [model] octets_transmitted_ok without FCS */
				t.tally.frame(w.size, cls);
				if (unlikely(cls & kClsMacCtrl) && w.size >= 18) {
					/* MAC control frames software sends: PAUSE / PFC
					 * counted. */
					constexpr size_t kPauseTx =
						size_t(TxStat::pause_mac_ctrl_frames_transmitted);
					if (data[14] == 0x00 && data[15] == 0x01)
						bump_shared(st[kPauseTx]);
					else if (data[14] == 0x01 && data[15] == 0x01)
						for (unsigned c = 0; c < 8; c++)
							if (data[17] & (1u << c))
								bump_shared(st[kCbfcTx0 + c]);
				}
				if (!pcs_loop)
					t.tally.wire++;
				if constexpr (kPlain) {
					dlv.deliver(rq, data, w.size, cls);
				} else if (wire_drop) {
					/* [faults] wire_drop: sent by the MAC, lost on the cable */
				} else {
					switch (dest) {
					case Dest::self:
						/* [wire delay] on the cable */
						if (line != nullptr && !pcs_loop)
							line->push(p, data, w.size, due);
						else
							dlv.deliver(p, data, w.size, cls);
						break;
					case Dest::peer:
						if (peer_deaf)
							break;
						if (line != nullptr) /* [wire delay] */
							line->push(p ^ 1, data, w.size, due);
						else
							dlv.deliver(p ^ 1, data, w.size, cls);
						break;
					case Dest::sink:
						t.sink->write(data, w.size);
						break;
					case Dest::net: /* [wires tap/udp] */
						ports_[p].net->send(data, w.size);
						break;
					case Dest::none:
						break;
					}
				}
			}
			uint32_t idx = t.exec;
			uint32_t nx = t.exec + 1;
			t.exec = nx < ring ? nx : nx % ring; /* a division only at the wrap */
			if (w.ctrl & WQE_SE) {
				/* [wires tap/udp] sent before the driver may free them */
				if (ports_[p].net)
					ports_[p].net->flush();

				/* ring index [gaudi2_en.c] */
				post_eq(p, EqeType::raw_tx_comp, qpn, idx);
			}
		}
	};
	if (plain)
		run.template operator()<true>();
	else
		run.template operator()<false>();
}

} /* namespace gaudi::emu */
