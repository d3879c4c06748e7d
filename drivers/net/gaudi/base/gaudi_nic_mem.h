/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC: the NIC driver's region of device DRAM (HBM) and how hbl_cn carves it, and the
 * TXS (per port) and TMR (per macro) programming around the firmware's free-list init.
 *
 * Sources:
 *   [G2INC] habanalabs include/gaudi2/gaudi2.h (DRAM_PHYS_BASE)
 *   [G2P]   habanalabs gaudi2/gaudi2P.h (CPU_FW_IMAGE_SIZE, GAUDI2_HBM_NUM, HMMU_PAGE_TABLES_SIZE,
 *           EDMA_PQS_SIZE, EDMA_SCRATCHPAD_SIZE; GAUDI2_NIC_CLK_FREQ as the CN series sets it)
 *   [HL2]   habanalabs gaudi2/gaudi2.c gaudi2_set_dram_properties (dram_page_size =
 *           GAUDI2_COMPENSATE_TLB_PAGE_SIZE_FACTOR x HBMs x 8 MB, hbm_drv_base_offset,
 *           nic_drv_addr / nic_drv_size as the CN series computes them), gaudi2_cn_clear_mem
 *   [CNH]   hbl_cn gaudi2/gaudi2_cn.h (TXS_*, TMR_*, *_QPC_TOTAL_PORT_SIZE, *_BASE_ADDR)
 *   [CNC]   hbl_cn gaudi2/gaudi2_cn.c gaudi2_cn_config_hw_tmr, gaudi2_cn_config_port_hw_txs
 * [choice] marks a value the sources leave to the running system; each is listed with its
 * search in doc/guides/gaudi_hw_model.rst ("NIC memory and status").
 */
#pragma once

#include <cstdint>

#include "gaudi_bar.h"
#include "gaudi_hw_defs.h"
#include "gaudi_qpc.h"

namespace gaudi::hw::nicmem {

constexpr uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* ---- Where the NIC driver region lies [HL2] ---- */
inline constexpr uint64_t kDramPhysBase = 0x1001000000000000ull; /* [G2INC] DRAM_PHYS_BASE */
inline constexpr uint64_t kCpuFwImageSize = 0x10000000;		 /* [G2P] 256 MB */
/* [choice] All GAUDI2_HBM_NUM (6) HBMs functional: habanalabs takes the count from the
 * firmware's binning mask (num_functional_hbms), which NIC_INFO_GET does not carry. */
inline constexpr uint64_t kFunctionalHbms = 6;
inline constexpr uint64_t kBasicHbmPage = kFunctionalHbms * (8ull << 20);
inline constexpr uint64_t kDramPageSize = 16 * kBasicHbmPage; /* TLB factor 16 [HL2] */
inline constexpr uint64_t kHbmDrvBaseOffset = align_up(kCpuFwImageSize, kBasicHbmPage);
/* HMMU page tables, EDMA PQs and EDMA scratchpad follow the NIC region in the first DRAM
 * page [G2P: 1 MB, 2 MB, 1 MB]. */
inline constexpr uint64_t kAfterNic = (1ull << 20) + (2ull << 20) + (1ull << 20);
inline constexpr uint64_t kNicDrvAddr = kDramPhysBase + kHbmDrvBaseOffset;
inline constexpr uint64_t kNicDrvSize = kDramPageSize - kHbmDrvBaseOffset - kAfterNic;
static_assert(kNicDrvAddr == 0x1001000012000000ull && kNicDrvSize == 476ull << 20);

/* NIC_CLR_MEM clears at most 250 MB per packet, "to avoid CPUCP packet timeout" [HL2
 * gaudi2_cn_clear_mem]. */
inline constexpr uint64_t kClrMemChunk = 250ull << 20;

/* ---- The carve-out [CNH] ---- */
inline constexpr uint64_t kCacheLine = 128;	  /* DEVICE_CACHE_LINE_SIZE */
inline constexpr uint64_t kSection = 0x100000ull; /* SECTION_ALIGN_SIZE */
inline constexpr uint64_t kMaxQpNum = 8192;	  /* NIC_MAX_QP_NUM */
/* One more context per port: the dummy QP. */
inline constexpr uint64_t kReqQpcPortSize = (kMaxQpNum + 1) * qpc::kReqDwords * 4;
inline constexpr uint64_t kResQpcPortSize =
	align_up((kMaxQpNum + 1) * qpc::kResDwords * 4, kCacheLine);

/* TMR (timers, one block per macro serving both its ports) and TXS (scheduler, per port):
 * entries of 4 bytes, 256 scheduling queues; the FIFO holds 2 entries per QP plus one cache
 * line per queue, the free list one entry per FIFO cache line. */
inline constexpr uint64_t kTmrEntSize = 4;	 /* TMR_ENT_SIZE */
inline constexpr uint64_t kTmrGranularity = 256; /* TMR_GRANULARITY */
inline constexpr uint64_t kTmrFsmSize = align_up(kMaxQpNum, kCacheLine);
inline constexpr uint64_t kTmrFifoSize =
	align_up(kMaxQpNum * 2 * kTmrEntSize + kCacheLine * kTmrGranularity, kCacheLine);
inline constexpr uint64_t kTmrFreeEntries = kTmrFifoSize / kCacheLine;
inline constexpr uint64_t kTmrFreeSize = align_up(kTmrFreeEntries * kTmrEntSize, kCacheLine);
inline constexpr uint64_t kTmrMacroSize = kTmrFsmSize * 2 + kTmrFreeSize + kTmrFifoSize;
inline constexpr uint64_t kTmrFsm0Off = 0;
inline constexpr uint64_t kTmrFreeOff = kTmrFsm0Off + 2 * kTmrFsmSize;
inline constexpr uint64_t kTmrFifoOff = kTmrFreeOff + kTmrFreeSize;

inline constexpr uint64_t kTxsEntSize = 4;	 /* TXS_ENT_SIZE */
inline constexpr uint64_t kTxsGranularity = 256; /* TXS_GRANULARITY = TXS_SCHEDQ */
inline constexpr uint64_t kTxsFifoSize =
	align_up(kMaxQpNum * 2 * kTxsEntSize + kCacheLine * kTxsGranularity, kCacheLine);
inline constexpr uint64_t kTxsFreeEntries = kTxsFifoSize / kCacheLine;
inline constexpr uint64_t kTxsFreeSize = align_up(kTxsFreeEntries * kTxsEntSize, kCacheLine);
inline constexpr uint64_t kTxsPortSize = kTxsFreeSize + kTxsFifoSize;
inline constexpr uint64_t kTxsFreeOff = 0;
inline constexpr uint64_t kTxsFifoOff = kTxsFreeOff + kTxsFreeSize;
static_assert(kTmrFreeEntries == 768 && kTxsFreeEntries == 768);

/* Requester contexts of every port, then responder contexts, TMR of every macro, TXS of
 * every port, then the WQ area, each section 1 MB aligned [CNH *_BASE_ADDR]. */
inline constexpr uint64_t kDrvBase = align_up(kNicDrvAddr, kSection);
inline constexpr uint64_t kReqQpcBase = kDrvBase;
inline constexpr uint64_t kResQpcBase =
	kReqQpcBase + align_up(kMaxPorts * kReqQpcPortSize, kSection);
inline constexpr uint64_t kTmrBase = kResQpcBase + align_up(kMaxPorts * kResQpcPortSize, kSection);
inline constexpr uint64_t kTxsBase = kTmrBase + align_up(kMacros * kTmrMacroSize, kSection);
inline constexpr uint64_t kWqBase = kTxsBase + align_up(kMaxPorts * kTxsPortSize, kSection);
static_assert(kWqBase < kNicDrvAddr + kNicDrvSize);

/* The raw QP's context tables of a port: requester and responder contexts 0.. of the port's
 * slice [CNC gaudi2_cn_config_port_hw_qpc: base + port x *_QPC_TOTAL_PORT_SIZE]. */
constexpr uint64_t req_qpc_addr(unsigned port)
{
	return kReqQpcBase + port * kReqQpcPortSize;
}
constexpr uint64_t res_qpc_addr(unsigned port)
{
	return kResQpcBase + port * kResQpcPortSize;
}
constexpr uint64_t tmr_addr(unsigned macro)
{
	return kTmrBase + macro * kTmrMacroSize;
}
constexpr uint64_t txs_addr(unsigned port)
{
	return kTxsBase + port * kTxsPortSize;
}

/* The NIC clock in MHz: TMR ticks once per microsecond at TICK_WRAP = clock cycles
 * [CNC gaudi2_cn_config_hw_tmr]. 488 MHz is GAUDI2_NIC_CLK_FREQ as the CN series sets it
 * [G2P]; habanalabs replaces it with the NIC PLL's output when PLL_INFO_GET answers, which this
 * driver does not ask (the model does not serve it). */
inline constexpr uint32_t kNicClkMhz = 488;

/* The TMR register sequence of a macro after NIC_INIT_TMR_MEM [CNC gaudi2_cn_config_hw_tmr]:
 * FIFO, free list and FSM cache bases, MMU bypass of its three AXI users, the 256 timer
 * queues (queue i times out after 2^(i+2) us, queue 0 and 32.. never), scan period, tick,
 * list mask, producer = the free-list entries (latched), then timers on. bar is the NIC
 * region; macro_port is the even port of the macro. */
void tmr_config(Bar &bar, unsigned macro_port, uint64_t tmr_addr, uint32_t clk_mhz);
/* The TXS register sequence of a port after NIC_INIT_TXS_MEM [CNC
 * gaudi2_cn_config_port_hw_txs]: FIFO base, MMU bypass, the 256 scheduling queues (port
 * i / 64, priority i % 4), tick and scan, free-list base, list mask, producer = the free-list
 * entries (latched), push lock, burst optimisation off. */
void txs_config(Bar &bar, unsigned port, uint64_t txs_addr);
/* gaudi2_cn_stop_traffic at device close, for the ports in open: per macro the RXB set to drop
 * every frame (DROP_THRESHOLD_i = 0) and 1 ms, then the timer caches stopped (state, list, free
 * list), waited for and read back; per port the requester and responder QPC caches and the TXS
 * list caches stopped, then the macro's TXS copy read. */
void stop_traffic(Bar &bar, uint64_t open);

} /* namespace gaudi::hw::nicmem */
