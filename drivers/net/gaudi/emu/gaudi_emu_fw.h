/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model, the device CPU (gaudi_emu_fw.cpp): boot status, COMMS, CPU queue,
 * cpucp results and the NIC memory set-up it did.
 */
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <rte_spinlock.h>

#include "../base/gaudi_bar.h"
#include "../base/gaudi_fw_if.h"
#include "../base/gaudi_hw_defs.h"
#include "gaudi_emu.h"
#include "gaudi_emu_iommu.h"

namespace gaudi::emu {

/* [firmware] The device CPU's state (gaudi_emu_fw.cpp), under fw.lock. */
struct FwModel {
	rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER;
	std::unique_ptr<uint8_t[]> regs; /* the firmware window, kFwWindowSize bytes */
	std::vector<uint8_t> map;	 /* per word: kKnown [| kReadOnly] */
	BarHooks hooks{}, sram_hooks{};
	Bar bar, sram_bar;
	/* COMMS */
	enum class Stage { preboot, boot_fit, linux } stage = Stage::preboot;
	bool reset_done = false;
	bool desc_ready = false;
	bool data_ready = false;
	uint32_t img_size = 0;
	uint64_t img_written = 0; /* bytes written into the image area (highest end) */
	uint32_t pending = 0;	  /* the status the next NOOP command reveals, 0 = none */
	fw::LkdFwCommsDesc desc{};
	/* CPU queue */
	std::atomic<bool> queues_ready{false};
	/* The CPU event queue the device CPU writes (fw_post_event), under ev_lock: events
	 * posted (free-running), lost, and the queue's cache. */
	rte_spinlock_t ev_lock = RTE_SPINLOCK_INITIALIZER;
	uint32_t ev_pi = 0;
	uint64_t ev_posted = 0, ev_lost = 0;
	IommuCache ev_cache;
	uint32_t ci = 0; /* PQ entries consumed (free-running, modulo 2 x entries) */
	/* The PQ as QUEUE_INIT found it: later writes to its registers do not move it. */
	uint64_t pq_iova = 0;
	uint32_t pq_entries = 0;
	IommuCache cache;
	/* cpucp results */
	bool pci_access = false;
	uint64_t msix_db = 0;
	uint64_t lpbk_mask = 0, pfc_mask = 0;
	uint64_t packets = 0, invalid = 0, comms_errors = 0, boot_fit_bytes = 0, fit_bytes = 0;
	std::atomic<uint64_t> gate_refused{0};
	std::atomic<bool> nic_open{false}; /* fw_gate: firmware up and queues ready */
	/* NIC memory (gaudi_nic_mem.h) and status */
	uint64_t clr_packets = 0, clr_bytes = 0, clr_lo = ~0ull, clr_hi = 0;
	bool ecc_unmasked = false;
	std::array<FwMemInit, kMacros> tmr{};
	std::array<FwMemInit, kMaxPorts> txs{};
	std::vector<std::pair<uint64_t, uint64_t>> cleared; /* [lo, hi), merged */
	/* The free list latched by PRODUCER_UPDATE_EN after its init (fw_order_check). */
	std::array<std::atomic<bool>, kMacros> tmr_latched{};
	std::array<std::atomic<bool>, kMaxPorts> txs_latched{};
	std::atomic<uint64_t> order_refused{0};
	uint64_t status_packets = 0;
	std::array<uint64_t, kMaxPorts> port_status_packets{};
	std::array<fw::CpucpNicStatus, kMaxPorts> status{};
};

} /* namespace gaudi::emu */
