/* SPDX-License-Identifier: BSD-3-Clause
 * Model of the RXE block and the raw receive path: MAC receive checks and counters, the raw
 * ring (RAW_BASE / RAW_MISC of the priorities), CQ 0 (CQ_BASE_ADDR, CQ_LOG_SIZE_0, CQ_CFG_0,
 * CQ_PI_ADDR_*_0), CQ consumer index and arm, and paced wire input (pcap, TAP, UDP).
 * Sources: nic0_rxe0_regs.h / _masks.h, gaudi2_cn.c config_port_hw_rxe, gaudi2_en.c
 * (read_pkt_from_hw, arm_cq).
 */
#include "gaudi_emu_impl.h"

#include <algorithm>
#include <cstring>

#include <rte_cycles.h>

#include "gaudi_emu_tap.h" /* [wires tap/udp] */
#include "gaudi_emu_udp.h"

namespace gaudi::emu {

using namespace detail;

RxView Device::Impl::rx_view(unsigned q)
{
	RxState &r = ports_[q].rx;
	RxView v;
	uint32_t ch = reg::mac_128(q, 0), rxe = reg::rxe(q);
	v.cmd = rd(ch + reg::MAC_128_COMMAND_CONFIG);
	v.frm_len = rd(ch + reg::MAC_128_FRM_LENGTH);
	v.min_len = reg::RXE_PKT_SIZE_CHECK_RAW_MIN.get(rd(rxe + reg::RXE_PKT_SIZE_CHECK_RAW));
	rxb_view(q, v);
	/* [seq_check] Once per batch: a step RX needs was skipped, every frame takes rx_frame,
	 * which refuses it. */
	v.seq_missing = ports_[q].seq_missing.load(std::memory_order_relaxed) & kSeqRx;
	uint32_t cq_cfg = rd(rxe + reg::RXE_CQ_CFG_0);
	v.enabled = r.valid && (cq_cfg & reg::RXE_CQ_CFG_0_ENABLE.mask());
	if (!v.enabled)
		return v;
	/* Rings are translated whole, once per batch: a ring not inside mapped memory is a DMA
	 * fault for every frame that would use it. [model] Every priority is steered to the
	 * raw QP as gaudi2_cn.c programs them, so priority 0's ring (copy 0) is the ring. */
	uint32_t misc = rd(rxe + reg::RXE_RAW_MISC_P0_0);
	v.slot_log2 = reg::RXE_RAW_MISC_P0_0_LOG_RAW_ENTRY_SIZE_P0.get(misc);
	uint32_t count_log2 = reg::RXE_RAW_MISC_P0_0_LOG_BUFFER_SIZE_MASK_P0.get(misc);
	v.slot_mask = (1u << std::min<uint32_t>(count_log2, 24)) - 1;
	uint64_t slots = rd(rxe + reg::RXE_RAW_BASE_LO_P0_0) |
			 (uint64_t(rd(rxe + reg::RXE_RAW_BASE_HI_P0_0)) << 32);
	v.slots = iommu_.translate(slots, (uint64_t(v.slot_mask) + 1) << v.slot_log2, r.cache);
	v.cq_size = 1u << std::min<uint32_t>(rd(rxe + reg::RXE_CQ_LOG_SIZE_0), 24);
	uint64_t cq = rd_addr_inplace(rxe + reg::RXE_CQ_BASE_ADDR_63_32,
				      rxe + reg::RXE_CQ_BASE_ADDR_31_7);
	v.cq = reinterpret_cast<Cqe *>(
		iommu_.translate(cq, uint64_t(v.cq_size) * sizeof(Cqe), r.cache));
	v.write_pi = cq_cfg & reg::RXE_CQ_CFG_0_WRITE_PI_EN.mask();
	uint64_t pia =
		rd_addr_inplace(rxe + reg::RXE_CQ_PI_ADDR_HI_0, rxe + reg::RXE_CQ_PI_ADDR_LO_0);
	if (v.write_pi)
		v.pi_shadow = reinterpret_cast<uint32_t *>(iommu_.translate(pia, 4, r.cache));
	uint32_t lo = std::max<uint32_t>(64 - kFcsLen, v.min_len);
	uint32_t hi = std::min<uint32_t>(v.frm_len >= kFcsLen ? v.frm_len - kFcsLen : 0,
					 1u << v.slot_log2);
	v.fast = v.seq_missing == 0 && (v.cmd & reg::CMD_RX_ENA) && v.slots != nullptr &&
		 v.cq != nullptr && (!v.write_pi || v.pi_shadow != nullptr) && lo <= hi;
	v.fast_min = lo;
	v.fast_span = hi - lo;
	return v;
}

/* One frame of len bytes (no FCS) arriving at port q's MAC. Under rx.lock. */
void Device::Impl::rx_frame(unsigned q, const RxView &v, const uint8_t *data, uint32_t len)
{
	RxState &r = ports_[q].rx;
	uint64_t *st = r.stats.data();
	r.tally.wire++;
	uint32_t fl = len + kFcsLen;
	/* The checks below, in their order, only for a frame outside the batch's common case. */
	const bool fast = v.fast && len - v.fast_min <= v.fast_span;
	if (unlikely(!fast)) {
		if (!(v.cmd & reg::CMD_RX_ENA))
			return;
		if (v.seq_missing & kSeqMac) { /* [seq_check] the MAC passes nothing */
			seq_refuse(q, v.seq_missing & kSeqMac, "RX");
			return;
		}
		if (fl < 64 || len < v.min_len) { /* runt: the sender did not pad */
			bump(st[size_t(RxStat::ether_stats_undersize_pkts)]);
			return;
		}
		if (fl > v.frm_len) {
			bump(st[size_t(RxStat::frame_too_long_errors)]);
			bump(st[size_t(RxStat::ether_stats_oversize_pkts)]);
			return;
		}
	}
	/* Address filters after the MAC counters: MAC_ADDR unless PROMIS_EN (hbl_cn keeps the
	 * MAC promiscuous), then RXB TS_RAW0 (rxb_pass). Filtered frames are not errors. */
	uint64_t dst = mac48(data);
	/* The MAC counts every good frame it receives; the RXB address filter below drops
	 * after that, so filtered frames show in the MAC counters but reach no queue.
	 * [model] Octets without FCS in octets_received_ok. Counted at rx_publish. */
	const uint32_t cls = frame_class(data, len);
	r.tally.frame(len, cls);
	/* MAC control frames (EtherType 0x8808): PAUSE (opcode 1) and PFC (0x101) are counted and
	 * consumed by the MAC unless PAUSE_FWD [nic0_mac_ch0_mac_128_masks.h]. [model] Frames software sends do not
	 * pause the port: only the MAC's own XOFF does (run_doorbell). */
	if ((cls & kClsMacCtrl) && len >= 18) {
		uint16_t op = uint16_t(data[14] << 8 | data[15]);
		if (op == 0x0001) {
			bump_shared(st[size_t(RxStat::pause_mac_ctrl_frames_received)]);
		} else if (op == 0x0101) {
			uint8_t cev = data[17]; /* class-enable vector, low byte */
			for (unsigned c = 0; c < 8; c++)
				if (cev & (1u << c))
					bump_shared(
						st[size_t(RxStat::cbfc_pause_frames_received_0) +
						   c]);
		}
		if ((op == 0x0001 || op == 0x0101) && !(v.cmd & reg::CMD_PAUSE_FWD))
			return;
	}
	if (!rxb_pass(v, dst))
		return;

	if (unlikely(!fast) && (!v.enabled || v.seq_missing != 0)) {
		bump(st[size_t(RxStat::ether_stats_drop_events)]);
		if (v.seq_missing != 0) /* [seq_check] RXB / RXE / QPC step skipped */
			seq_refuse(q, v.seq_missing, "RX");
		return;
	}
	if (r.rl_period != 0) { /* [rx rate limit] the port takes no more than its rate */
		uint64_t now = rte_get_tsc_cycles();
		if (r.rl_tat < now)
			r.rl_tat = now;
		if (r.rl_tat - now > r.rl_tau) {
			bump(st[size_t(RxStat::ether_stats_drop_events)]);
			r.rl_drops++;
			return;
		}
		r.rl_tat += r.rl_period;
		if ((r.rl_acc += r.rl_rem) >= r.rl_fps) {
			r.rl_acc -= r.rl_fps;
			r.rl_tat++;
		}
	}
	if (unlikely(ports_[q].fault.armed.load(std::memory_order_relaxed)) && /* [faults] */
	    fault_take_cq_full(ports_[q].fault)) {
		/* A forced CQ overrun: dropped as by a CQ with OVERRUN_EN (no back-pressure), one
		 * COMP_ERR per episode [gaudi2_cn_eq.c]. */
		bump(st[size_t(RxStat::ether_stats_drop_events)]);
		if (!r.overrun) {
			r.overrun = true;
			post_eq(q, EqeType::comp_err, kRawCq, 0);
		}
		return;
	}
	/* A full CQ back-pressures into the RXB: the frame waits there behind the ones already
	 * waiting (which go first when the CQ has room), or is dropped at its threshold. */
	if (unlikely(r.rxb.head != r.rxb.tail))
		rxb_drain(q, v);
	if (r.rxb.head != r.rxb.tail || cq_room(q, v.cq_size) == 0) {
		rxb_hold(q, v, data, len);
		return;
	}
	cq_put(q, v, data, len);
}

/* The CQ's part of the receive path, for a frame that passed the MAC and RXB (room checked by
 * the caller): slot size, ring mapping, slot copy, CQE. Under rx.lock. */
void Device::Impl::cq_put(unsigned q, const RxView &v, const uint8_t *data, uint32_t len)
{
	RxState &r = ports_[q].rx;
	uint64_t *st = r.stats.data();
	const bool fast = v.fast && len - v.fast_min <= v.fast_span;
	if (unlikely(!fast) && len > (1u << v.slot_log2)) {
		bump(st[size_t(RxStat::if_in_errors)]);
		return;
	}
	if (unlikely(!fast) &&
	    (v.slots == nullptr || v.cq == nullptr || (v.write_pi && v.pi_shadow == nullptr))) {
		bump(st[size_t(RxStat::if_in_errors)]);
		ports_[q].qp_errors.fetch_add(1, std::memory_order_relaxed);
		ports_[q].last_syndrome.store(kRxDmaFaultSyndrome, std::memory_order_relaxed);
		post_eq(q, EqeType::qp_err, kRawQpn, kRxDmaFaultSyndrome);
		return;
	}
	uint32_t slot = r.pi & v.slot_mask;
	std::memcpy(v.slots + (size_t(slot) << v.slot_log2), data, len);
	Cqe *c = &v.cq[r.pi & (v.cq_size - 1)];
	c->wqe_index = slot;
	c->tag = 0;
	c->size = len;
	store_release(&c->d0, CQE_VALID | kRawQpn); /* body before valid */
	r.pi++;
	/* A frame the CQ takes ends an overrun episode (the CI moved). Decided here, by the
	 * engine, not at the driver's CI write: with the thread engine that write may land in
	 * the middle of a batch (no lock), and a forced overrun ([faults] cq_overrun) would then
	 * count two episodes for one run of drops. */
	r.overrun = false;
	/* The PI (shadow, registers) follows once per batch (rx_publish), or now when an armed CQ
	 * fires: the COMP event then carries this frame's PI and finds it visible. */
	if (unlikely(r.armed) && int32_t(r.pi - r.arm_index) > 0)
		rx_publish(q, v);
}

/* [model] The CQ's producer index is made visible once per batch of frames (a doorbell's, a
 * pump's), after their CQEs, as a DMA engine that coalesces its PI write-backs would: the
 * driver reads the PI shadow and trusts each CQE's valid bit [gaudi2_en.c read_pkt_from_hw].
 * The batch's good frames are added to the MAC counters here too: every rx_frame is followed
 * by an rx_publish under the same hold of rx.lock. Under rx.lock. */
void Device::Impl::rx_publish(unsigned q, const RxView &v)
{
	RxState &r = ports_[q].rx;
	r.tally.flush(r.stats.data(), r.wire_rx, kRxTally);
	if (v.pi_shadow != nullptr)
		store_release(v.pi_shadow, r.pi);
	wr(reg::rxe(q) + reg::RXE_CQ_PRODUCER_INDEX_0, r.pi);
	wr(reg::rxe(q) + reg::RXE_CQ_WRITE_INDEX_0, r.pi);
	if (r.armed)
		cq_check_arm(q);
}

void Device::Impl::cq_check_arm(unsigned p)
{
	RxState &r = ports_[p].rx;
	if (r.armed && int32_t(r.pi - r.arm_index) > 0) { /* "only when PI > IDX" [gaudi2_en.c] */
		r.armed = false;
		post_eq(p, EqeType::comp, kRawCq, r.pi);
		raise_irq(p, reg::INTR_RX_RING0); /* [model] rx_ring0 interrupt with the COMP EQE */
	}
}

/* The driver's CQ consumer index write. Release: the CQEs it gave back (valid cleared) are
 * seen cleared by an engine that sees the CI. The engine notices the new CI itself
 * (cq_room), so the thread engine's consumer takes no lock here: a TX batch holds the
 * receiver's rx.lock while it copies its frames. */
void Device::Impl::cq_write_ci(unsigned p, uint32_t ci)
{
	RxState &r = ports_[p].rx;
	if (cfg_.engine != Engine::inline_run) {
		r.ci.store(ci, std::memory_order_release);
		wr(reg::rxe(p) + reg::RXE_CQ_CONSUMER_INDEX_0, ci);
		return; /* the thread engine retries paused TX on its own */
	}
	{
		/* Inline: under rx.lock, so that a TX batch that found this CQ full and paused
		 * (under the lock) either sees this CI or is seen paused just below. */
		SpinGuard g(r.lock);
		r.ci.store(ci, std::memory_order_release);
		wr(reg::rxe(p) + reg::RXE_CQ_CONSUMER_INDEX_0, ci);
	}
	if (held_.load(std::memory_order_relaxed))
		return;
	/* The RXB's frames take the room first; then, its fill back at XON, TX the port paused
	 * resumes (a flag check when none is). */
	rxb_pump(p);
	for (unsigned s : {p, p ^ 1u})
		if (s < cfg_.nports && rd(reg::mac_128(s, 0) + reg::MAC_128_RX_PAUSE_STATUS) != 0)
			drain_tx(s);
	if (has_rx_pcap_)
		pump_all();
}

void Device::Impl::cq_arm(unsigned p, uint32_t index)
{
	RxState &r = ports_[p].rx;
	SpinGuard g(r.lock);
	r.armed = true;
	r.arm_index = index;
	cq_check_arm(p);
}

/* [model] Enabling the CQ (CQ_CFG ENABLE 0 -> 1) starts it empty at PI = CI = 0. */
void Device::Impl::cq_reset(unsigned p)
{
	RxState &r = ports_[p].rx;
	SpinGuard g(r.lock);
	r.pi = r.ci_seen = 0;
	r.ci.store(0, std::memory_order_release);
	r.overrun = r.armed = false;
	rxb_reset(p);
	wr(reg::rxe(p) + reg::RXE_CQ_PRODUCER_INDEX_0, 0);
	wr(reg::rxe(p) + reg::RXE_CQ_CONSUMER_INDEX_0, 0);
	wr(reg::rxe(p) + reg::RXE_CQ_WRITE_INDEX_0, 0);
}

/* RXE register writes with a side effect. gaudi2_cn.c writes 0 to the CQ's write, producer
 * and consumer indexes before enabling it: [model] such a write sets the index. */
void Device::Impl::on_rxe_write(unsigned p, uint32_t r, uint32_t val, uint32_t old)
{
	RxState &rx = ports_[p].rx;
	if (r == reg::RXE_CQ_CFG_0) {
		if (!(old & reg::RXE_CQ_CFG_0_ENABLE.mask()) &&
		    (val & reg::RXE_CQ_CFG_0_ENABLE.mask()))
			cq_reset(p);
	} else if (r == reg::RXE_CQ_PRODUCER_INDEX_0) {
		SpinGuard g(rx.lock);
		rx.pi = val;
		rx.ci_seen = rx.ci.load(std::memory_order_relaxed);
	} else if (r == reg::RXE_CQ_CONSUMER_INDEX_0) {
		SpinGuard g(rx.lock);
		rx.ci.store(val, std::memory_order_release);
		rx.ci_seen = val;
	}
}

/* Delivers the rx pcap of port q while the port can take frames. Under no lock. */
bool Device::Impl::pump_pcap(unsigned q)
{
	RxState &r = ports_[q].rx;
	if (!r.source)
		return ports_[q].net ? pump_net(q) : false; /* [wires tap/udp] */
	if (!rx_polled_.load(std::memory_order_relaxed))
		return false;
	SpinGuard g(r.lock);
	RxView v = rx_view(q);
	/* A file is a paced source: frames wait for raw RX enabled (and the MAC receiving,
	 * [model]) and for CQ room; they are never lost to an overrun. */
	if (!v.enabled || !(v.cmd & reg::CMD_RX_ENA))
		return false;
	bool moved = false;
	const uint8_t *data;
	uint32_t len;
	while (cq_room(q, v.cq_size) != 0 && r.source->peek(&data, &len)) {
		rx_frame(q, v, data, len);
		r.source->pop();
		moved = true;
	}
	if (moved)
		rx_publish(q, v);
	return moved;
}

/* [wire delay] The frames port p sent that have spent the wire's delay on the line reach their
 * MAC, oldest first. Under the engine lock (the line's single consumer). */
bool Device::Impl::pump_delay(unsigned p)
{
	DelayLine *dl = ports_[p].delay.get();
	if (dl == nullptr || dl->in_flight() == 0)
		return false;
	uint64_t now = rte_get_tsc_cycles();
	Delivery dlv(*this);
	bool moved = false;
	unsigned q;
	const uint8_t *data;
	uint32_t len;
	while (dl->front_due(now, &q, &data, &len)) {
		dlv.deliver(q, data, len, frame_class(data, len));
		dl->pop();
		moved = true;
	}
	return moved;
}

/* ---- [wires tap/udp] begin: TAP and UDP wires (gaudi_emu_tap.h, gaudi_emu_udp.h) ---- */

bool Device::Impl::open_net_wires(std::string *err)
{
	bool tap = cfg_.wire == Wire::tap, udp = cfg_.wire == Wire::udp;
	for (unsigned p = 0; p < kMaxPorts; p++) {
		bool has_udp = !cfg_.udp_local[p].empty() || !cfg_.udp_remote[p].empty();
		const char *what = !cfg_.tap_name[p].empty() && !tap ? "tap_name given"
				   : has_udp && !udp		     ? "udp_local/udp_remote given"
				   : (has_udp || !cfg_.tap_name[p].empty()) && p >= cfg_.nports
					   ? "tap/udp devarg given"
					   : nullptr;
		if (what != nullptr) {
			*err = std::string(what) + " for port " + std::to_string(p) +
			       (p >= cfg_.nports ? " beyond nports"
						 : " but the wire is not tap/udp");
			return false;
		}
	}
	for (unsigned p = 0; (tap || udp) && p < cfg_.nports; p++) {
		std::string e, arg;
		if (tap) {
			bool dflt = cfg_.tap_name[p].empty();
			std::string name = dflt ? "gaudi" + std::to_string(cfg_.instance) + "p" +
							   std::to_string(p)
						: cfg_.tap_name[p];
			/* The port's station address is fw_mac_addr()'s; the TAP's differs in byte 3
			 * [model]: 02:1d:a3:fe:<instance>:<port>. */
			const uint8_t port_mac[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, uint8_t(p)};
			const uint8_t tap_mac[6] = {
				0x02, 0x1d, 0xa3, 0xfe, uint8_t(cfg_.instance), uint8_t(p)};
			ports_[p].net = TapWire::open(name, tap_mac, port_mac, &e);
			arg = "tap_name=" + std::to_string(p) + ":" + name +
			      (dflt ? " (default)" : "");
		} else {
			bool l = !cfg_.udp_local[p].empty(), r = !cfg_.udp_remote[p].empty();
			if (!l && !r)
				continue; /* not cabled */
			if (l != r) {
				*err = "devarg " + std::string(l ? "udp_local=" : "udp_remote=") +
				       std::to_string(p) + ":" +
				       (l ? cfg_.udp_local[p] : cfg_.udp_remote[p]) + ": port " +
				       std::to_string(p) + " also needs " +
				       (l ? "udp_remote" : "udp_local");
				return false;
			}
			bool remote = false;
			ports_[p].net =
				UdpWire::open(cfg_.udp_local[p], cfg_.udp_remote[p], &e, &remote);
			arg = (remote ? "udp_remote=" : "udp_local=") + std::to_string(p) + ":" +
			      (remote ? cfg_.udp_remote[p] : cfg_.udp_local[p]);
		}
		if (!ports_[p].net) {
			*err = "devarg " + arg + ": " + e;
			return false;
		}
		has_rx_pcap_ = true; /* paced wire input to pump */
	}
	return true;
}

/* Like pump_pcap: frames are taken off the TAP/socket only while raw RX is enabled, the MAC
 * receives and the CQ has room, never more than the CQ has room for; the rest waits in the
 * kernel's queue (whose overflow is the kernel's to drop, uncounted by the MAC). At most one
 * CQ's worth per pass, so frames the MAC filters out cannot keep the pass going. Under no
 * lock. */
bool Device::Impl::pump_net(unsigned q)
{
	RxState &r = ports_[q].rx;
	NetWire &w = *ports_[q].net;
	SpinGuard g(r.lock);
	RxView v = rx_view(q);
	if (!v.enabled || !(v.cmd & reg::CMD_RX_ENA))
		return false;
	bool moved = false;
	for (uint32_t budget = v.cq_size; budget != 0;) {
		uint32_t room = cq_room(q, v.cq_size);
		if (room == 0)
			break;
		uint32_t want = std::min({room, budget, uint32_t(NetWire::kBatch)});
		unsigned n = w.recv(want);
		for (unsigned i = 0; i < n; i++)
			rx_frame(q, v, w.rx_data(i),
				 w.rx_len(i)); /* MAC checks: too long = dropped */
		if (n == 0)
			break;
		rx_publish(q, v);
		moved = true;
		budget -= n;
		if (n < want)
			break; /* the kernel queue is empty: come back on the next pass */
	}
	return moved;
}

/* ---- [wires tap/udp] end ---- */

} /* namespace gaudi::emu */
