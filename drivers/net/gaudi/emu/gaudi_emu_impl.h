/* SPDX-License-Identifier: BSD-3-Clause
 * Private state of the Gaudi2 NIC model: Device::Impl, composed of the blocks' state, each
 * declared with its code, one file pair per hardware block as the register map names them:
 *   gaudi_emu.cpp      set-up, register access, engine loop, public facade
 *   gaudi_emu_map.cpp  register decode and the map of published offsets (strict mode)
 *   gaudi_emu_qpc      QPC: gateway, secured doorbell FIFO, CQ consumer index and arm writes;
 *                      the device memory the contexts live in (NicDram)
 *   gaudi_emu_txe      TXE: WQE fetch, checkers, frame transmission (TxState, DbFifo)
 *   gaudi_emu_rxe      RXE: raw rings, CQ, paced wire input (RxState, RxView)
 *   gaudi_emu_rxb      RXB: TS_RAW0 address filter, flow-control thresholds (RxbState)
 *   gaudi_emu_mac      MAC_128 / MAC_PCS / MAC_CORE / RS-FEC / MAC_GLOB_STAT (MacTally)
 *   gaudi_emu_eq       event queue and QPC interrupts (EqState)
 *   gaudi_emu_fw       the device CPU: boot status, COMMS firmware load, CPU queue, cpucp
 *                      (FwModel)
 *   gaudi_emu_serdes   SerDes: the MCU (F/W load, mailbox), lanes, PHY lane swap, and what the
 *                      link needs of them ([phy]) (SerdesModel)
 *   gaudi_emu_sm       the sync manager objects of the EQ interrupt's route (SmModel)
 *   gaudi_emu_seq.cpp  [seq_check] the public bring-up sequence's traffic-essential steps;
 *                      [trace] the register trace
 *   gaudi_emu_common.h what every block uses (SpinGuard, counters, mac48)
 *
 * Sources: the register map (base/gaudi_regs.h, from the hbl_cn asic_reg headers) and the public
 * drivers' use of it (gaudi2_cn.c, gaudi2_cn_eq.c, gaudi2_en.c); [model] marks behaviour the
 * sources do not describe, listed in doc/guides/gaudi_hw_model.rst.
 *
 * Locking (per port, always taken in this order, never the reverse):
 *   ctrl_lock (device)  ->  tx.lock  ->  rx.lock  ->  eq.lock
 *   tx.fifo_lock only guards doorbell pushes and is never held while taking another lock;
 *   dram_.lock and trace_lock_ are leaves too.
 * tx.lock owns the TX engine of a port (doorbell FIFO consumer, WQ state, TX counters, tx
 * pcap); rx.lock owns its RX path (CQ PI/CI, arm, RX counters, rx pcap); eq.lock its EQ. A TX
 * batch holds its own tx.lock and at most one receiver's rx.lock, so two forwarding cores
 * sending to each other never deadlock.
 */
#pragma once

#include <algorithm>
#include <cstdio>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <memory>
#include <span>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_memzone.h>
#include <rte_spinlock.h>

#include "../base/gaudi_desc.h"
#include "../base/gaudi_fw_if.h"
#include "../base/gaudi_mac_stats.h"
#include "../base/gaudi_qpc.h"
#include "../base/gaudi_regmap.h"
#include "../base/gaudi_macro.h"
#include "../base/gaudi_regs.h"
#include "../base/gaudi_serdes.h"
#include "../base/gaudi_sm.h"
#include "gaudi_emu.h"
#include "gaudi_emu_common.h"
#include "gaudi_emu_delay.h"
#include "gaudi_emu_eq.h"
#include "gaudi_emu_fw.h"
#include "gaudi_emu_iommu.h"
#include "gaudi_emu_log.h"
#include "gaudi_emu_mac.h"
#include "gaudi_emu_netwire.h"
#include "gaudi_emu_pcap.h"
#include "gaudi_emu_qpc.h"
#include "gaudi_emu_rxb.h"
#include "gaudi_emu_rxe.h"
#include "gaudi_emu_serdes.h"
#include "gaudi_emu_sm.h"
#include "gaudi_emu_txe.h"

namespace gaudi::emu {

using namespace gaudi::hw;

namespace detail {

template <uint32_t N>
inline uint32_t field(const std::array<uint32_t, N> &img, qpc::Field f)
{
	qpc::Image<N> i;
	i.data = img;
	return i.get(f);
}

enum class Block {
	none,
	qpc,
	rxe,
	txe,
	rxb,
	txb,
	mac_core,
	mac_rs_fec,
	mac_stat,
	mac_ch,
	txs,
	tmr,
	serdes,
	phy
};

struct RegAddr {
	Block block = Block::none;
	unsigned port = 0; /* per-macro blocks: the even port of the macro */
	unsigned lane = 0; /* mac_ch: lane of the port */
	/* Offset inside the block (mac_ch: inside the channel, MAC_PCS first). */
	uint32_t r = 0;
};
RegAddr decode(uint32_t off);
/* MAC_128 registers seen from the channel base (MAC_PCS at +0, MAC_128 at +0x400). */
inline constexpr uint32_t kMac128InCh = reg::MAC_128_BASE - reg::MAC_PCS_BASE;

/* [multi-process] What the model shares with secondary processes: the register region and
 * the MAC counters (the rest of its state, rings and engines, stays in the primary). One
 * memzone per model (Config::shm_name), or process heap without a name. */
struct SharedNic {
	static constexpr uint64_t kMagic = 0x474155444932454dull; /* "GAUDI2EM" */
	uint64_t magic; /* written last: the model is ready */
	uint32_t nports;
	uint32_t size; /* sizeof(SharedNic): layout check between builds */
	alignas(64) uint64_t rx_stats[kMaxPorts][size_t(RxStat::count)];
	uint64_t tx_stats[kMaxPorts][size_t(TxStat::count)];
	alignas(4096) uint8_t region[kNicRegionSize];
};

/* The MAC counter a MAC_GLOB_STAT read at off returns, or null; *hi_off = the macro's
 * DATA_HI, where the counter's bits 63:32 are latched. */
const uint64_t *stat_counter(const SharedNic &s, uint32_t off, uint32_t *hi_off);

/* [seq_check] The steps each path needs (bit per SeqStep). */
constexpr uint32_t seq_bit(SeqStep s)
{
	return 1u << unsigned(s);
}
inline constexpr uint32_t kSeqMac =
	seq_bit(SeqStep::mac_reset) | seq_bit(SeqStep::mac_fifo) | seq_bit(SeqStep::mac_speed);
inline constexpr uint32_t kSeqRx = seq_bit(SeqStep::rxb_credits) |
				   seq_bit(SeqStep::rxb_drop_threshold) |
				   seq_bit(SeqStep::qpc_res_base) | seq_bit(SeqStep::cq_axuser) |
				   seq_bit(SeqStep::rxe_aruser) | kSeqMac;
inline constexpr uint32_t kSeqTx = seq_bit(SeqStep::txb_tdm) | seq_bit(SeqStep::txs) |
				   seq_bit(SeqStep::qpc_req_base) | seq_bit(SeqStep::txe_wqe_user) |
				   kSeqMac;
inline constexpr uint32_t kSeqEq = seq_bit(SeqStep::ev_que_axuser);
inline constexpr uint32_t kSeqCi = seq_bit(SeqStep::db_fifo_axuser);

} /* namespace detail */

struct Device::Impl {
	struct PortModel {
		TxState tx;
		DbFifo fifo;
		RxState rx;
		EqState eq;
		bool link = false; /* written under ctrl_lock; TX reads it once per doorbell */
		/* QPC interrupts: INTERRUPT_CAUSE updates and the MSI stand-in (eventfds). */
		rte_spinlock_t intr_lock = RTE_SPINLOCK_INITIALIZER;
		std::array<std::atomic<int>, reg::kIntrSources> irq_fd;
		PortModel()
		{
			for (auto &f : irq_fd)
				f.store(-1, std::memory_order_relaxed);
		}
		std::atomic<uint64_t> qp_errors{0};
		std::atomic<uint32_t> last_syndrome{0};
		/* [wires tap/udp] the port's cable to a TAP or UDP socket: send side under
		 * tx.lock, receive side under rx.lock. */
		std::unique_ptr<NetWire> net;
		FaultState fault; /* [faults] gaudi_emu_fault.h */
		/* [wire delay] frames this port sent, on their way to the receiving MAC */
		std::unique_ptr<DelayLine> delay;
		/* [seq_check] Steps missing now (bit per SeqStep, recomputed when one of their
		 * registers is written; 0 without seq_check), steps logged since the port last
		 * started, refusals per step, and the MAC lanes whose channel reset was written. */
		std::atomic<uint32_t> seq_missing{0};
		std::atomic<uint32_t> seq_logged{0};
		std::array<std::atomic<uint64_t>, kSeqSteps> seq_refused{};
		std::atomic<uint32_t> pcs_reset_lanes{0};
	};

	/* A prefetch for writing: the line comes exclusive, so the store does not wait for other
	 * CPUs to drop it (PREFETCHW; a hint older x86 CPUs ignore). rte_prefetch0_write is
	 * experimental in DPDK 22.11 and without -mprfchw compiles to a read prefetch. */
	static void prefetch_w(const void *p)
	{
#ifdef RTE_ARCH_X86
		asm volatile("prefetchw %0" : : "m"(*static_cast<const char *>(p)));
#else
		__builtin_prefetch(p, 1, 3);
#endif
	}

	/* A TX batch's hold on one receiving port (its rx.lock and register view). */
	class Delivery {
	public:
		explicit Delivery(Impl &m) : m_(m) {}
		~Delivery() { release(); }
		Delivery(const Delivery &) = delete;
		Delivery &operator=(const Delivery &) = delete;
		/* cls: frame_class of the frame, as its sender worked it out. */
		__attribute__((always_inline)) void deliver(unsigned q, const uint8_t *data,
							    uint32_t len, uint32_t cls)
		{
			hold(q);
			m_.rx_frame_in(q, view_, data, len, cls);
			delivered_ = true;
		}
		/* Port q's MAC is sending XOFF: its RXB, after giving the CQ what it has room
		 * for, is still past XOFF_THRESHOLD (and not yet back at XON). */
		bool xoff(unsigned q)
		{
			hold(q);
			RxState &r = m_.ports_[q].rx;
			if (r.rxb.frames.load(std::memory_order_relaxed) != 0 &&
			    m_.rxb_drain(q, view_))
				delivered_ = true;
			return r.rxb.xoff;
		}
		/* Prefetch, for writing, the slot and the CQE the frame `ahead` frames after the
		 * next one would take on port q, if q is held (a DMA engine's posted writes do not
		 * wait; the model's stores would, on lines the driver's CPU last read). */
		void prefetch(unsigned q, uint32_t ahead) const
		{
			if (port_ != int(q) || !view_.fast)
				return;
			/* Not past the CQ's room (as last seen: no read of the driver's line),
			 * where the lines are entries the driver is about to read. */
			const RxState &r = m_.ports_[q].rx;
			if (r.pi + ahead - r.ci_seen >= view_.cq_size)
				return;
			const uint32_t pi = r.pi + ahead;
			prefetch_w(view_.slots + (size_t(pi & view_.slot_mask) << view_.slot_log2));
			/* (the slot's first line: more paid nothing, gaudi_perf.rst) */
			prefetch_w(&view_.cq[pi & (view_.cq_size - 1)]);
		}

	private:
		void hold(unsigned q)
		{
			if (port_ != int(q)) {
				release();
				rte_spinlock_lock(&m_.ports_[q].rx.lock);
				port_ = int(q);
				view_ = m_.rx_view(q);
				const PortModel &pm = m_.ports_[q];
				view_.inline_ok = view_.fast && !pm.rx.armed &&
						  !pm.fault.armed.load(std::memory_order_relaxed) &&
						  pm.rx.rl_period == 0; /* [rx rate limit] */
			}
		}
		void release()
		{
			if (port_ >= 0) {
				if (delivered_)
					m_.rx_publish(unsigned(port_), view_);
				rte_spinlock_unlock(&m_.ports_[port_].rx.lock);
			}
			port_ = -1;
			delivered_ = false;
		}
		Impl &m_;
		int port_ = -1;
		bool delivered_ = false; /* frames given to port_ since hold: PI to publish */
		RxView view_;
	};

	explicit Impl(const Config &c) : cfg_(c) {}
	~Impl();

	bool init(std::string *err);
	void power_up(unsigned p);

	/* ---- registers (gaudi_emu.cpp) ---- */
	uint32_t rd(uint32_t off) const
	{
		return std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t *>(&region_[off]))
			.load(std::memory_order_relaxed);
	}
	void wr(uint32_t off, uint32_t v)
	{
		std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t *>(&region_[off]))
			.store(v, std::memory_order_relaxed);
	}
	/* _63_32 + _31_7 pairs that hold address >> 7 (EQ, doorbell CI) [gaudi2_cn_eq.c]. */
	uint64_t rd_addr_shift7(uint32_t hi, uint32_t lo) const
	{
		return (uint64_t(rd(hi)) << 32) | (uint64_t(rd(lo)) << 7);
	}
	/* _63_32 + _31_7 pairs that hold address bits 31:7 in place (RXE CQ). */
	uint64_t rd_addr_inplace(uint32_t hi, uint32_t lo) const
	{
		return (uint64_t(rd(hi)) << 32) | (rd(lo) & 0xFFFFFF80u);
	}
	static void hook_write(void *ctx, uint32_t off, uint32_t val);
	static uint32_t hook_read(void *ctx, uint32_t off);
	static void hook_service(void *ctx);
	void on_write(uint32_t off, uint32_t val);
	uint32_t on_read(uint32_t off);
	void build_map();
	bool check_access(uint32_t off, bool write, uint32_t val, uint32_t old);
	void violation(const char *what, bool write, uint32_t off, uint32_t val);

	/* ---- QPC (gaudi_emu_qpc.cpp) ---- */
	void on_qpc_write(unsigned p, uint32_t r, uint32_t val, uint32_t old);
	void gateway(unsigned p);
	void req_apply(unsigned p, bool restart);
	/* [seq_check] QP contexts in the NIC's device memory */
	static constexpr size_t kReqQpcBytes = qpc::kReqDwords * 4,
				kResQpcBytes = qpc::kResDwords * 4;
	static constexpr uint64_t kDramPage = 4096;
	uint64_t qpc_base(unsigned p, bool req) const;
	void qpc_store(unsigned p, bool req);
	void qpc_rebase(unsigned p, bool req);
	void dram_write(uint64_t a, const void *src, size_t n);
	void dram_read(uint64_t a, void *dst, size_t n);
	void doorbell(unsigned p, uint32_t first, uint32_t second);
	void write_db_ci(unsigned p, uint32_t consumed);

	/* ---- TXE (gaudi_emu_txe.cpp) ---- */
	bool drain_tx(unsigned p);
	void run_doorbell(unsigned p, const detail::Doorbell &db, Delivery &dlv);
	void qp_error(unsigned p, uint32_t qpn, QpErrSyndrome s);
	void set_tx_paused(unsigned p, bool on);
	int rx_peer(unsigned q) const;

	/* ---- RXE and CQ (gaudi_emu_rxe.cpp) ---- */
	RxView rx_view(unsigned q);
	/* Free CQ entries of port q (under rx.lock): from the engine's copy of the CI, which is
	 * read again from the driver's only when the CQ looks full (a line the driver writes is
	 * not touched per frame). */
	uint32_t cq_room(unsigned q, uint32_t cq_size)
	{
		RxState &r = ports_[q].rx;
		if (r.pi - r.ci_seen >= cq_size)
			r.ci_seen = r.ci.load(std::memory_order_acquire);
		uint32_t used = r.pi - r.ci_seen;
		return used >= cq_size ? 0 : cq_size - used;
	}
	void rx_frame(unsigned q, const RxView &v, const uint8_t *data, uint32_t len);
	/* rx_frame for a frame of the batch's common case, inline in the TX loop that delivers
	 * it, with its class (frame_class) from the sending MAC: RxView::inline_ok, a size every
	 * check accepts (RxView::fast), not MAC control, with CQ room the engine already knows
	 * of, passing the address filter. Every other frame takes rx_frame, which checks it in
	 * order; the effect (slot, CQE, counters) is the same. Under rx.lock. */
	__attribute__((always_inline)) void
	rx_frame_in(unsigned q, const RxView &v, const uint8_t *data, uint32_t len, uint32_t cls)
	{
		RxState &r = ports_[q].rx;
		if (likely(v.inline_ok && len - v.fast_min <= v.fast_span &&
			   !(cls & detail::kClsMacCtrl) && r.pi - r.ci_seen < v.cq_size &&
			   (v.pass_all || rxb_pass(v, detail::mac48(data))))) {
			r.tally.wire++;
			r.tally.frame(len, cls);
			const uint32_t slot = r.pi & v.slot_mask;
			std::memcpy(v.slots + (size_t(slot) << v.slot_log2), data, len);
			Cqe *c = &v.cq[r.pi & (v.cq_size - 1)];
			c->wqe_index = slot;
			c->tag = 0;
			c->size = len;
			detail::store_release(&c->d0, CQE_VALID | kRawQpn); /* body first */
			r.pi++;
			r.overrun = false;
			return;
		}
		rx_frame(q, v, data, len);
	}
	void rx_publish(unsigned q, const RxView &v);
	void on_rxe_write(unsigned p, uint32_t r, uint32_t val, uint32_t old);
	void cq_write_ci(unsigned p, uint32_t ci);
	void cq_arm(unsigned p, uint32_t index);
	void cq_check_arm(unsigned p);
	void cq_reset(unsigned p);
	bool pump_pcap(unsigned q);
	bool open_net_wires(std::string *err); /* [wires tap/udp] */
	bool pump_net(unsigned q);	       /* [wires tap/udp] */
	/* [wire delay] Delivers the frames of port p's delay line that are due. Engine lock. */
	bool pump_delay(unsigned p);

	/* ---- RXB (gaudi_emu_rxb.cpp) ---- */
	void rxb_view(unsigned q, RxView &v) const;
	/* A frame the full CQ cannot take: into port q's RXB, or dropped at its threshold. */
	void rxb_hold(unsigned q, const RxView &v, const uint8_t *data, uint32_t len);
	/* The RXB's frames, oldest first, into the CQ while it has room; XON when the fill is
	 * back at XON_THRESHOLD. True if a frame moved (its PI to publish). Under rx.lock. */
	bool rxb_drain(unsigned q, const RxView &v);
	/* rxb_drain from outside a delivery (a CI write, the engine's loop). Takes rx.lock. */
	bool rxb_pump(unsigned q);
	void rxb_reset(unsigned q);
	/* The CQ's part of rx_frame: slot, CQE, PI (room checked by the caller). */
	void cq_put(unsigned q, const RxView &v, const uint8_t *data, uint32_t len);
	/* [model] The MAC drops what is not for its MAC_ADDR (nor broadcast or multicast) unless
	 * PROMIS_EN; RXB passes to the raw QP what TS_RAW0 matches under its mask, and
	 * broadcast. Inline: it runs for every frame. */
	static bool rxb_pass(const RxView &v, uint64_t dst)
	{
		bool bcast = dst == detail::kEtherBroadcast, mcast = dst & 1;
		if (!(v.cmd & reg::CMD_PROMIS_EN) && !bcast && !mcast && dst != v.station)
			return false;
		return bcast || ((dst ^ v.mac) & ~v.mac_mask & 0xFFFFFFFFFFFFull) == 0;
	}

	/* ---- MAC (gaudi_emu_mac.cpp) ---- */
	void on_mac_write(const detail::RegAddr &a, uint32_t off, uint32_t val, uint32_t old);
	void count_pause(unsigned from, unsigned to, bool pfc);
	void update_link(unsigned p);
	void update_link_one(unsigned p);
	bool mac_enabled(unsigned p) const;
	bool pcs_loopback(unsigned p) const;
	bool rs_fec_on(unsigned p) const;
	/* The speed p's PCS lanes were set up for (VL_INTVL, PCS_MODE, the VL0 / VL1 markers
	 * as gaudi2_cn_hw_mac_port_config_lane_speed writes them, both lanes alike); false if
	 * they match none of 25G, 50G and 100G. */
	bool pcs_speed(unsigned p, hw::Speed *s) const;
	void stats_reset(unsigned p);
	bool cabled(unsigned p) const;
	/* [faults] */
	void start_link_flap(unsigned p, uint32_t ms);
	static void link_flap_cb(void *arg);
	static void link_down_cb(void *arg);
	bool forced_down(unsigned p) const;

	/* ---- SerDes and PHY (gaudi_emu_serdes.cpp) ---- */
	void on_serdes_write(unsigned p, uint32_t r, uint32_t val, uint32_t old);
	void on_phy_write(unsigned p, uint32_t r, uint32_t val);
	void serdes_command(unsigned p, uint32_t cmd);
	void serdes_mark_map();
	bool phy_link_ok(unsigned p) const; /* under ctrl_lock */
	bool lane_tuned(unsigned p, unsigned l) const;
	bool lane_signal(unsigned p, unsigned l) const;
	bool lane_data_ok(unsigned p, unsigned l) const;
	bool tx_lane_on(unsigned p, unsigned l) const;
	int phy_peer(unsigned p) const; /* the port whose TX p's RX sees, -1 outside */
	uint32_t serdes_rd(unsigned p, uint32_t r) const;

	/* ---- EQ and interrupts (gaudi_emu_eq.cpp) ---- */
	void eq_reset(unsigned p);
	void post_eq(unsigned p, EqeType type, uint32_t d1, uint32_t d2);
	/* False: not to interrupt; *overrun set when a full EQ lost the event. */
	bool post_eqe(unsigned p, EqeType type, uint32_t d1, uint32_t d2, bool *overrun);
	void raise_irq(unsigned p, uint32_t index);
	void clear_irq(unsigned p, uint32_t bits);

	/* ---- firmware (gaudi_emu_fw.cpp) ---- */
	void fw_init();
	static void fw_hook_write(void *ctx, uint32_t off, uint32_t val);
	static uint32_t fw_hook_read(void *ctx, uint32_t off);
	static void fw_sram_write(void *ctx, uint32_t off, uint32_t val);
	static uint32_t fw_sram_read(void *ctx, uint32_t off);
	uint32_t fw_rd(uint32_t off) const;
	void fw_wr(uint32_t off, uint32_t v);
	void fw_violation(const char *what, uint32_t off, uint32_t val);
	void fw_comms(uint32_t cmd);
	void fw_queue_init();
	void fw_serve_pq();
	/* The device CPU reports an event on the host's CPU event queue (hl_eq_entry); lost
	 * when the queues are not up, or the queue is full or unmapped. Takes fw.ev_lock. */
	bool fw_post_event(uint32_t type, const void *data, size_t len);
	/* Port p's QPC raised its EQ error wire: NIC SW error event of its macro. */
	void fw_nic_sw_error(unsigned p);
	uint32_t fw_packet(uint8_t *pkt, uint32_t len);
	/* fw_gate: a NIC register write before the firmware is up. False = refused. */
	bool fw_gate_check(uint32_t off, uint32_t val);
	/* A TXS/TMR free-list latch before the firmware initialised that free list, or of
	 * another list than the one it did. False = refused. a = decode(off). */
	bool fw_order_check(const detail::RegAddr &a, uint32_t off, uint32_t val);
	void fw_clear_range(uint64_t lo, uint64_t hi);
	/* A raw QP context made valid (gateway data/mask) before its port's TXS and its macro's
	 * TMR were set up. False = refused. */
	bool fw_qp_check(unsigned p, bool req, const uint32_t *data, const uint32_t *mask);
	/* A set-up step refused for its order (fw_order_check, fw_qp_check): counted, logged
	 * with the running violation count, fatal in strict mode. Returns false. */
	bool fw_order_refuse(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
	/* [lo, hi) lies in device memory NIC_CLR_MEM cleared. Under fw.lock. */
	bool fw_cleared(uint64_t lo, uint64_t hi) const;
	uint32_t fw_refuse_order(const char *why);

	/* ---- values the public driver writes (gaudi_emu_values.cpp) ---- */
	void value_rules_build();
	void value_check(uint32_t off, uint32_t val);

	/* ---- sync manager (gaudi_emu_sm.cpp) ---- */
	void sm_init();
	static void sm_hook_write(void *ctx, uint32_t off, uint32_t val);
	static uint32_t sm_hook_read(void *ctx, uint32_t off);
	/* A device-side LBW write to configuration address addr (a QPC interrupt's
	 * INTERRUPT_BASE_n / DATA_n): into the sync manager, or nowhere. */
	void lbw_write(uint32_t addr, uint32_t val);
	void sm_write(uint64_t dev_addr, uint32_t val);

	/* ---- [seq_check] and [trace] (gaudi_emu_seq.cpp) ---- */
	void seq_mark_map();
	/* Recomputes the steps port p misses (no-op without seq_check). */
	void seq_update(unsigned p);
	/* A write to a register some step reads (map kSeq): both ports of its macro. */
	void seq_on_write(uint32_t off);
	/* n frames or writes of `path` refused on port p for the steps `missing` lacks: counted
	 * on the first of them, each missing step logged once per port start. */
	void seq_refuse(unsigned p, uint32_t missing, const char *path, uint64_t n = 1);
	/* The requester QPC made valid: the port (re)starts, its steps are logged afresh. */
	void seq_port_start(unsigned p);
	bool trace_open(std::string *err);
	void trace(char rw, uint32_t off, uint32_t val);
	/* The published name of the register at NIC offset off, or "?" (the one name lookup of
	 * the trace). */

	/* ---- engine (gaudi_emu.cpp) ---- */
	bool pump_all();
	void run_pending();
	void engine_loop();
	static cpu_set_t engine_cpus();

	Config cfg_;
	/* Registers and MAC counters: in the memzone cfg_.shm_name (mz_) or on the heap. */
	detail::SharedNic *shm_ = nullptr;
	const rte_memzone *mz_ = nullptr;
	std::unique_ptr<detail::SharedNic> heap_shm_;
	uint8_t *region_ = nullptr; /* shm_->region: the NIC register region */
	BarHooks hooks_{};
	Bar bar_;
	Iommu iommu_;
	std::unique_ptr<PortModel[]> ports_;
	rte_spinlock_t ctrl_lock_ = RTE_SPINLOCK_INITIALIZER;
	bool has_rx_pcap_ = false;
	uint64_t delay_tsc_ = 0; /* [wire delay] cfg_.wire_delay_us in TSC cycles; 0: no line */
	/* The published map: per 4-byte word of the region, 0 = not a register of the map,
	 * kKnown = a register the model gives behaviour (kKnown | kReadOnly = a status/counter
	 * register), kPublished = a register of the published headers the model does not model:
	 * stored and read back, each access counted in unmodeled_. */
	static constexpr uint8_t kKnown = 1, kReadOnly = 2, kPublished = 4;
	/* A register traffic depends on, whose values the public driver's are checked against
	 * (gaudi_emu_values.cpp): value_rule_ holds the rule; kValueReported, its one warning. */
	static constexpr uint8_t kValueRule = 8;
	static constexpr uint8_t kSeq = 16; /* [seq_check] a register some step reads */
	/* RS-FEC CCW/NCCW LO/HI: a read returns the count and clears it [gaudi2_cn.c
	 * __gaudi2_cn_get_mac_fec_stats]. */
	static constexpr uint8_t kClearOnRead = 32;
	static constexpr uint8_t kValueReported = 64;
	std::vector<uint8_t> map_;
	std::vector<uint8_t> value_rule_;
	std::atomic<uint64_t> violations_{0};
	std::atomic<uint64_t> unmodeled_{0};
	std::atomic<uint64_t> unpublished_values_{0};
	uint64_t model_only_ = 0; /* words the model knows that no header publishes */
	/* [profile] Config::profile's counts (hook_write, hook_read, hook_service), on a line
	 * of their own: every access adds to them, from each driver thread. */
	struct alignas(RTE_CACHE_LINE_SIZE) ProfCounts {
		std::atomic<uint64_t> tsc{0}, accesses{0};
	} prof_;

	/* [seq_check] The NIC's device memory (gaudi_emu_qpc.h). */
	NicDram dram_;
	/* [trace] Config::trace's file (null: off), its line count and lock. */
	FILE *trace_ = nullptr;
	uint64_t trace_seq_ = 0;
	rte_spinlock_t trace_lock_ = RTE_SPINLOCK_INITIALIZER;
	bool trace_failed_ = false; /* [trace] its write error was reported */

	FwModel fw_;
	SmModel sm_;
	std::unique_ptr<SerdesModel[]> serdes_; /* [phy] one per port */

	std::thread engine_;
	std::atomic<bool> stop_{false};
	std::atomic<bool> held_{false};
	/* [model] Capture files start playing when the driver first polls an empty RX ring
	 * (Bar::service), so no file frame meets a port that is still being set up: a replay
	 * delivers the whole file with either engine. */
	std::atomic<bool> rx_polled_{false};
	rte_spinlock_t engine_lock_ = RTE_SPINLOCK_INITIALIZER; /* one engine pass at a time */
};

} /* namespace gaudi::emu */
