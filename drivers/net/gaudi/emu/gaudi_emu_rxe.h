/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model, RXE (gaudi_emu_rxe.cpp): a port's RX engine (the responder QPC of
 * the raw QP, its CQ indices and arm, RX counters, the rate limit) and the view of a receiving
 * port's registers a batch of frames is checked against.
 */
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <span>

#include <rte_spinlock.h>

#include "../base/gaudi_desc.h"
#include "../base/gaudi_qpc.h"
#include "gaudi_emu_common.h"
#include "gaudi_emu_iommu.h"
#include "gaudi_emu_mac.h"
#include "gaudi_emu_pcap.h"
#include "gaudi_emu_rxb.h"

namespace gaudi::emu {

struct alignas(64) RxState {
	rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER;
	std::array<uint32_t, qpc::kResDwords> res{};
	uint64_t qpc_base = 0; /* [seq_check] where res lives in device memory */
	bool valid = false;
	uint32_t pi = 0; /* free-running CQ producer index */
	/* The engine's copy of ci, refreshed when the CQ looks full (cq_room). */
	uint32_t ci_seen = 0;
	bool overrun = false; /* inside a CQ overrun episode: drops since the last frame */
	bool armed = false;
	uint32_t arm_index = 0;
	IommuCache cache;
	std::unique_ptr<PcapSource> source;
	std::span<uint64_t> stats; /* RxStat::count counters in SharedNic */
	uint64_t wire_rx = 0;
	/* Good frames since the last rx_publish, counted there. */
	detail::MacTally tally;
	/* [rx rate limit] GCRA form of the token bucket (ATM's virtual scheduling, ITU-T
	 * I.371): a frame conforms when it arrives no earlier than rl_tat - rl_tau; each
	 * conforming frame moves rl_tat one period (rl_period TSC cycles) on. Period 0:
	 * no limit. */
	uint64_t rl_period = 0, rl_tau = 0, rl_tat = 0;
	/* The period's fraction, hz % rate: added up in rl_acc, one more cycle whenever
	 * it reaches rl_fps (exact at any rate, as Bresenham's line). */
	uint64_t rl_rem = 0, rl_acc = 0, rl_fps = 0;
	uint64_t rl_drops = 0;
	/* Free-running CQ consumer index, written by the driver (cq_write_ci) without
	 * rx.lock with the thread engine: on a line of its own, read by the engine only
	 * when the CQ looks full. */
	alignas(64) std::atomic<uint32_t> ci{0};
	/* The port's share of its macro's RXB (gaudi_emu_rxb.h). */
	RxbState rxb;
};

/* What a receiving port's registers say, sampled once per batch under rx.lock. */
struct RxView {
	uint32_t cmd = 0;
	uint32_t frm_len = 0;
	uint32_t min_len = 0;		/* RXE PKT_SIZE_CHECK_RAW.MIN */
	uint64_t mac = 0, mac_mask = 0; /* RXB TS_RAW0 (mac48 order) */
	uint64_t station = 0;		/* MAC_128 MAC_ADDR (mac48 order) */
	bool enabled = false;		/* responder QPC valid and CQ enabled */
	uint8_t *slots = nullptr;
	uint32_t slot_log2 = 0, slot_mask = 0;
	Cqe *cq = nullptr;
	uint32_t cq_size = 0;
	uint32_t *pi_shadow = nullptr;
	bool write_pi = false;
	/* RXB thresholds of the port's priority 0 (its field of register _0), in 128-byte
	 * buffers: drop, drop for one-buffer frames, XOFF, XON (gaudi_emu_rxb.cpp). */
	uint32_t drop_th = 0, drop_small_th = 0, xoff_th = 0, xon_th = 0;
	/* [model] The batch's common case, decided once: the MAC receives, the raw QP takes
	 * frames and its rings are mapped. A frame of fast_min .. fast_min + fast_span bytes
	 * then passes every size check (runt, FRM_LENGTH, slot), and rx_frame skips them. */
	bool fast = false;
	uint32_t fast_min = 0, fast_span = 0;
	/* [model] PROMIS_EN and a TS_RAW0 mask that ignores every bit: rxb_pass passes
	 * every frame, decided once per batch. */
	bool pass_all = false;
	/* [model] rx_frame_in's per-batch conditions, sampled when a TX batch takes the
	 * port (Delivery): fast, the CQ not armed, no fault armed. */
	bool inline_ok = false;
	/* [seq_check] Steps the RX path misses (seq_missing & kSeqRx): frames refused. */
	uint32_t seq_missing = 0;
};

} /* namespace gaudi::emu */
