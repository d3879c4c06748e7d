/* SPDX-License-Identifier: BSD-3-Clause
 * TMR and TXS programming after the firmware initialised their free lists (gaudi_nic_mem.h).
 * The sequences are those of hbl_cn gaudi2_cn.c (gaudi2_cn_config_hw_tmr,
 * gaudi2_cn_config_port_hw_txs), register by register, in our words.
 */
#include "gaudi_nic_mem.h"

#include "gaudi_macro.h"
#include "gaudi_regs.h"

#include <rte_cycles.h>

namespace gaudi::hw::nicmem {

namespace {

uint32_t lo(uint64_t v)
{
	return uint32_t(v);
}
uint32_t hi(uint64_t v)
{
	return uint32_t(v >> 32);
}
/* LIST_MASK: ~(~0 << (log2(free entries) - 5)) [CNC]; 768 entries: log2 9, mask 0xF. */
constexpr uint32_t list_mask(uint64_t entries)
{
	unsigned log2 = 63 - __builtin_clzll(entries);
	return ~(0xFFFFFFFFu << (log2 - 5));
}
static_assert(list_mask(kTxsFreeEntries) == 0xF);
using reg::kAxuserOvrdMmuBp;
/* TXS AXI_USER_LO: MMU bypass, "old style configuration" [CNC 0x400]. */
constexpr uint32_t kTxsAxiUserMmuBp = 0x400;
/* The timeout, in ticks (us), of a TMR queue: queue 0 and queues 32.. never expire (47 bits
 * of ones), queue i otherwise after 2^(i+2) [CNC]. */
constexpr uint64_t tmr_timeout(unsigned i)
{
	return (i == 0 || i >= 32) ? (1ull << 47) - 1 : 1ull << (i + 2);
}
/* TXS scheduling queues per TXS port and PFC priorities [CNH TXS_PORT_NUM_SCHEDQS,
 * HBL_EN_PFC_PRIO_NUM]. */
constexpr unsigned kTxsPortSchedQs = 64;
constexpr unsigned kPfcPrios = 4;

} /* namespace */

void tmr_config(Bar &bar, unsigned macro_port, uint64_t tmr_addr, uint32_t clk_mhz)
{
	const uint32_t t = reg::tmr(macro_port);
	const uint32_t m = reg::macro_base(macro_port);
	bar.wr32(t + reg::TMR_TMR_BASE_ADDRESS_63_32, hi(tmr_addr + kTmrFifoOff));
	bar.wr32(t + reg::TMR_TMR_BASE_ADDRESS_31_7, lo(tmr_addr + kTmrFifoOff) >> 7);
	bar.wr32(t + reg::TMR_TMR_BASE_ADDRESS_FREE_LIST_63_32, hi(tmr_addr + kTmrFreeOff));
	bar.wr32(t + reg::TMR_TMR_BASE_ADDRESS_FREE_LIST_31_0, lo(tmr_addr + kTmrFreeOff));
	bar.wr32(t + reg::TMR_TMR_CACHE_BASE_ADDR_63_32, hi(tmr_addr + kTmrFsm0Off));
	bar.wr32(t + reg::TMR_TMR_CACHE_BASE_ADDR_31_7, lo(tmr_addr + kTmrFsm0Off) >> 7);
	for (uint32_t ax : {reg::TMR_AXUSER_TMR_FREE_LIST_BASE, reg::TMR_AXUSER_TMR_FIFO_BASE,
			    reg::TMR_AXUSER_TMR_FSM_BASE}) {
		bar.wr32(m + ax + reg::TMR_AXUSER_TMR_FIFO_HB_WR_OVRD_LO, kAxuserOvrdMmuBp);
		bar.wr32(m + ax + reg::TMR_AXUSER_TMR_FIFO_HB_RD_OVRD_LO, kAxuserOvrdMmuBp);
	}
	(void)bar.rd32(m + reg::TMR_AXUSER_TMR_FSM_BASE + reg::TMR_AXUSER_TMR_FSM_HB_RD_OVRD_LO);
	bar.wr32(t + reg::TMR_TMR_SCHEDQ_UPDATE_DESC_31_0, 0);
	bar.wr32(t + reg::TMR_TMR_SCHEDQ_UPDATE_DESC_63_32, 0);
	bar.wr32(t + reg::TMR_TMR_SCHEDQ_UPDATE_DESC_95_64, 0);
	for (unsigned i = 0; i < kTmrGranularity; i++) {
		uint64_t to = tmr_timeout(i);
		bar.wr32(t + reg::TMR_TMR_SCHEDQ_UPDATE_DESC_191_160, lo(to));
		bar.wr32(t + reg::TMR_TMR_SCHEDQ_UPDATE_DESC_216_192, hi(to));
		bar.wr32(t + reg::TMR_TMR_SCHEDQ_UPDATE_DESC_127_96, i);
		bar.wr32(t + reg::TMR_TMR_SCHEDQ_UPDATE_DESC_159_128, i);
		bar.wr32(t + reg::TMR_TMR_SCHEDQ_UPDATE_FIFO, i);
		bar.wr32(t + reg::TMR_TMR_SCHEDQ_UPDATE_EN, 1);
	}
	bar.wr32(t + reg::TMR_TMR_SCAN_TIMER_COMP_31_0, 10);
	bar.wr32(t + reg::TMR_TMR_TICK_WRAP, clk_mhz); /* one tick per microsecond */
	bar.wr32(t + reg::TMR_TMR_LIST_MASK, list_mask(kTmrFreeEntries));
	bar.wr32(t + reg::TMR_TMR_PRODUCER_UPDATE, uint32_t(kTmrFreeEntries));
	bar.wr32(t + reg::TMR_TMR_PRODUCER_UPDATE_EN, 1); /* latch the producer */
	bar.wr32(t + reg::TMR_TMR_PRODUCER_UPDATE_EN, 0);
	bar.wr32(t + reg::TMR_TMR_LIST_MEM_READ_MASK, 0);
	bar.wr32(t + reg::TMR_TMR_PUSH_LOCK_EN, 1);
	bar.wr32(t + reg::TMR_TMR_TIMER_EN, 1);
	bar.wr32(t + reg::TMR_FREE_LIST_PUSH_MASK_EN, 0);
	(void)bar.rd32(t + reg::TMR_TMR_TIMER_EN); /* flush */
}

void txs_config(Bar &bar, unsigned port, uint64_t txs_addr)
{
	const uint32_t t = reg::txs(port);
	bar.wr32(t + reg::TXS_BASE_ADDRESS_63_32, hi(txs_addr + kTxsFifoOff));
	bar.wr32(t + reg::TXS_BASE_ADDRESS_31_7, lo(txs_addr + kTxsFifoOff) >> 7);
	bar.wr32(t + reg::TXS_AXI_USER_LO, kTxsAxiUserMmuBp);
	bar.wr32(t + reg::TXS_FREE_LIST_PUSH_MASK_EN, 1);
	/* 256 queues, 64 per TXS port, each port's split over the 4 PFC priorities; descriptor
	 * bits 217:192 = timeout 47:32 (0), priority at 16, TXS port bit 0 at 18, rate-limit log
	 * time at 19 (0); head = tail = the queue [CNC]. */
	for (unsigned i = 0; i < kTxsGranularity; i++) {
		uint32_t desc = (i % kPfcPrios) << 16 | ((i / kTxsPortSchedQs) & 1) << 18;
		bar.wr32(t + reg::TXS_SCHEDQ_UPDATE_DESC_31_0, 0);
		bar.wr32(t + reg::TXS_SCHEDQ_UPDATE_DESC_63_32, 0);
		bar.wr32(t + reg::TXS_SCHEDQ_UPDATE_DESC_95_64, 0);
		bar.wr32(t + reg::TXS_SCHEDQ_UPDATE_DESC_127_96, i);
		bar.wr32(t + reg::TXS_SCHEDQ_UPDATE_DESC_159_128, i);
		bar.wr32(t + reg::TXS_SCHEDQ_UPDATE_DESC_191_160, 0);
		bar.wr32(t + reg::TXS_SCHEDQ_UPDATE_DESC_217_192, desc);
		bar.wr32(t + reg::TXS_SCHEDQ_UPDATE_FIFO, i);
		bar.wr32(t + reg::TXS_SCHEDQ_UPDATE_EN, 1);
	}
	bar.wr32(t + reg::TXS_TICK_WRAP, 100);
	bar.wr32(t + reg::TXS_SCAN_TIME_COMPARE_0, 4);
	bar.wr32(t + reg::TXS_SCAN_TIME_COMPARE_1, 0);
	bar.wr32(t + reg::TXS_TMR_SCAN_EN, 1);
	bar.wr32(t + reg::TXS_BASE_ADDRESS_FREE_LIST_63_32, hi(txs_addr + kTxsFreeOff));
	bar.wr32(t + reg::TXS_BASE_ADDRESS_FREE_LIST_31_0, lo(txs_addr + kTxsFreeOff));
	bar.wr32(t + reg::TXS_LIST_MASK, list_mask(kTxsFreeEntries));
	bar.wr32(t + reg::TXS_PRODUCER_UPDATE, uint32_t(kTxsFreeEntries));
	bar.wr32(t + reg::TXS_PRODUCER_UPDATE_EN, 1); /* latch the producer */
	bar.wr32(t + reg::TXS_PRODUCER_UPDATE_EN, 0);
	bar.wr32(t + reg::TXS_LIST_MEM_READ_MASK, 0);
	bar.wr32(t + reg::TXS_PUSH_LOCK_EN, 1);
	bar.wr32(t + reg::TXS_IGNORE_BURST_EN, 0); /* burst-size optimisation off */
}

void stop_traffic(Bar &bar, uint64_t open)
{
	/* One field per read-modify-write, in the source's order. */
	auto set = [&bar](uint32_t off, reg::Field f) { bar.wr32(off, bar.rd32(off) | f.mask()); };
	for (unsigned m = 0; m < kMacros; m++) {
		unsigned even = m * kPortsPerMacro;
		if (!((open >> even) & ((1u << kPortsPerMacro) - 1)))
			continue;
		/* [CNC stop_traffic_macro]: RXB drops everything, 1-2 ms, then the timer caches */
		macro::rxb_drop_all(bar, even);
		rte_delay_us_sleep(1000);
		uint32_t c = reg::tmr(even) + reg::TMR_TMR_CACHES_CFG;
		set(c, reg::TMR_TMR_CACHES_CFG_LIST_CACHE_STOP);
		set(c, reg::TMR_TMR_CACHES_CFG_FREE_LIST_CACHE_STOP);
		set(c, reg::TMR_TMR_CACHES_CFG_STATE_CACHE_STOP);
		rte_delay_us_sleep(1000);
		(void)bar.rd32(c); /* flush */
	}
	for (unsigned p = 0; p < kMaxPorts; p++) {
		if (!((open >> p) & 1))
			continue;
		/* [CNC stop_traffic_port] */
		set(reg::qpc(p) + reg::QPC_REQ_STATIC_CONFIG,
		    reg::QPC_REQ_STATIC_CONFIG_CACHE_STOP);
		set(reg::qpc(p) + reg::QPC_RES_STATIC_CONFIG,
		    reg::QPC_RES_STATIC_CONFIG_CACHE_STOP);
		set(reg::txs(p) + reg::TXS_CACHE_CFG, reg::TXS_CACHE_CFG_LIST_CACHE_STOP);
		set(reg::txs(p) + reg::TXS_CACHE_CFG, reg::TXS_CACHE_CFG_FREE_LIST_CACHE_STOP);
		/* NIC_MACRO_RREG32: the macro's even-port copy, flushing the writes */
		(void)bar.rd32(reg::macro_base(p) + reg::TXS_BASE + reg::TXS_CACHE_CFG);
	}
}

} /* namespace gaudi::hw::nicmem */
