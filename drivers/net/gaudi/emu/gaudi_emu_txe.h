/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model, TXE (gaudi_emu_txe.cpp): a port's TX engine (the requester QPC of
 * the raw QP, the WQ it executes, TX counters) and its doorbell FIFO (gaudi_emu_qpc.cpp pushes).
 */
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <span>

#include <rte_spinlock.h>

#include "../base/gaudi_qpc.h"
#include "gaudi_emu_common.h"
#include "gaudi_emu_iommu.h"
#include "gaudi_emu_mac.h"
#include "gaudi_emu_pcap.h"

namespace gaudi::emu {

namespace detail {

struct Doorbell {
	uint32_t first;	 /* WQ producer index (ring index) */
	uint32_t second; /* QPN */
};

} /* namespace detail */

struct alignas(64) TxState {
	rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER;
	/* Requester QPC of QPN 0 and what the engine derives from it. */
	std::array<uint32_t, qpc::kReqDwords> req{};
	uint64_t qpc_base = 0; /* [seq_check] where req lives in device memory */
	bool valid = false;
	bool raw = false;
	uint32_t last_idx = 0;
	uint32_t exec = 0; /* execution index: a ring index, 0..LAST_IDX */
	bool error = false;
	IommuCache cache;    /* frames, doorbell CI */
	IommuCache wq_cache; /* the send queue */
	std::unique_ptr<PcapSink> sink;
	std::span<uint64_t> stats; /* TxStat::count counters in SharedNic */
	uint64_t wire_tx = 0;
	/* Good frames of the running doorbell, counted when it ends (run_doorbell). */
	detail::MacTally tally;
	/* Flow control: paused = inside a pause episode (the peer's XOFF honoured, shown in
	 * MAC_128 RX_PAUSE_STATUS); hold = the last run_doorbell stopped on it. */
	bool paused = false;
	bool hold = false;
};

/* The producer's index and the engine's on lines of their own: with the thread engine
 * they are written from two cores. */
struct alignas(64) DbFifo {
	rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER; /* producers */
	std::atomic<uint32_t> pushed{0};
	std::array<detail::Doorbell, kDbFifoEntries> e{};
	alignas(64) std::atomic<uint32_t> popped{0}; /* the engine's, under tx.lock only */
};

} /* namespace gaudi::emu */
