/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC register map for the raw Ethernet datapath.
 *
 * Offsets are bytes from the NIC region (BAR0 + kNicRegionBarOffset).
 * Block bases come from hl-thunk-open gaudi2_blocks.h [regs "Address maps"]; register names
 * from hbl_cn gaudi2_cn.c / gaudi2_cn_eq.c [regs]. The offset of a register *inside* its block
 * is not public: those are [choice], all in this file, listed in doc/guides/gaudi_hw_model.rst.
 * Field layouts cite their source per register.
 */
#pragma once

#include <cstdint>

#include "gaudi_hw_defs.h"

namespace gaudi::hw::reg {

/* ---- Block bases [regs "Address maps", NIC0 offsets from 0x1000007FFD400000] ---- */
constexpr uint32_t macro_base(unsigned port) { return (port / kPortsPerMacro) * kMacroStride; }
/* QPC0 0x1F000 / QPC1 0x3F000: one QPC block per port of the macro. */
constexpr uint32_t qpc(unsigned port) { return macro_base(port) + 0x1F000 + (port & 1) * 0x20000; }
/* RXE0 0x4A000 / RXE1 0x4B000. */
constexpr uint32_t rxe(unsigned port) { return macro_base(port) + 0x4A000 + (port & 1) * 0x1000; }
/* TXE0 0x52000 / TXE1 0x53000. */
constexpr uint32_t txe(unsigned port) { return macro_base(port) + 0x52000 + (port & 1) * 0x1000; }
/* RXB_CORE 0x49000, per macro. */
constexpr uint32_t rxb(unsigned port) { return macro_base(port) + 0x49000; }
/* PRT0_MAC_CORE 0x69000, per macro. */
constexpr uint32_t mac_core(unsigned port) { return macro_base(port) + 0x69000; }
/* MAC_GLOB_STAT 0x6B000, per macro (RX0 at +0x100, TX0 at +0x330). */
constexpr uint32_t mac_stat(unsigned port) { return macro_base(port) + 0x6B000; }
/* MAC_CHn (n = lane 0..3) at 0x6C000 + n * 0x1000: MAC_PCS at +0, MAC_128 at +0x400.
 * Even port owns lanes 0-1, odd port lanes 2-3 [regs "MAC loopback"]. */
constexpr uint32_t mac_ch(unsigned port, unsigned lane_of_port)
{
	return macro_base(port) + 0x6C000 + ((port & 1) * 2 + lane_of_port) * 0x1000;
}

/* ---- QPC block (per port) ---- */
/* Host address the HW DMA-writes the secured doorbell FIFO CI to [regs: DBFIFOSECUR at +0x810].
 * _63_32 holds address bits 63:32, _31_7 bits 31:7. */
inline constexpr uint32_t QPC_DBFIFOSECUR_CI_UPD_ADDR_63_32 = 0x810;
inline constexpr uint32_t QPC_DBFIFOSECUR_CI_UPD_ADDR_31_7 = 0x814;  /* [choice] */
/* Secured doorbell [facts §2]: FIRST32 = new WQ PI (bits 21:0), SECOND32 = QPN (23:0) | port
 * (31:24). The write of SECOND32 pushes the 8-byte doorbell into the FIFO. [choice] offsets. */
inline constexpr uint32_t QPC_SECURED_DB_FIRST32 = 0x900;
inline constexpr uint32_t QPC_SECURED_DB_SECOND32 = 0x904;
/* CQ consumer index [facts §2]: write CQ number, then CI (free-running, 32 bits [choice]). */
inline constexpr uint32_t QPC_SECURED_CQ_NUMBER = 0x908;
inline constexpr uint32_t QPC_SECURED_CQ_CONSUMER_INDEX = 0x90C;
/* CQ arm [facts §2]: fires when PI > index. */
inline constexpr uint32_t QPC_ARM_CQ_NUM = 0x910;
inline constexpr uint32_t QPC_ARM_CQ_INDEX = 0x914;
/* QPC gateway [facts §2]: GW_MASK_0..31 / GW_DATA_0..31, GW_CTRL, then GW_BUSY = 1; poll 0. */
inline constexpr uint32_t QPC_GW_CTRL = 0x920;
inline constexpr uint32_t QPC_GW_BUSY = 0x924;
inline constexpr uint32_t QPC_GW_MASK_0 = 0x980;
inline constexpr uint32_t QPC_GW_DATA_0 = 0xA00;
inline constexpr uint32_t GW_CTRL_QPN_MASK = 0x00FFFFFF;
inline constexpr uint32_t GW_CTRL_REQUESTER = 1u << 24;     /* [choice] bit position */
inline constexpr uint32_t GW_CTRL_DOORBELL_FORCE = 1u << 25; /* [choice] bit position */
/* [choice] GW_CTRL READ: the gateway copies the QPC image (masked fields) into GW_DATA instead
 * of writing it; the raw QP's execution index and error bit can be read back this way. */
inline constexpr uint32_t GW_CTRL_READ = 1u << 26;
/* Event queue [regs gaudi2_cn_eq.c]. */
inline constexpr uint32_t QPC_EVENT_QUE_BASE_ADDR_63_32 = 0xB00;
inline constexpr uint32_t QPC_EVENT_QUE_BASE_ADDR_31_7 = 0xB04;
inline constexpr uint32_t QPC_EVENT_QUE_PI_ADDR_63_32 = 0xB08;
inline constexpr uint32_t QPC_EVENT_QUE_PI_ADDR_31_7 = 0xB0C;
inline constexpr uint32_t QPC_EVENT_QUE_LOG_SIZE = 0xB10;
inline constexpr uint32_t QPC_EVENT_QUE_PRODUCER_INDEX = 0xB18;
inline constexpr uint32_t QPC_EVENT_QUE_CONSUMER_INDEX = 0xB1C;
inline constexpr uint32_t QPC_EVENT_QUE_CFG = 0xB20;
inline constexpr uint32_t EVENT_QUE_CFG_ENABLE = 1u << 0;
inline constexpr uint32_t EVENT_QUE_CFG_WRITE_PI_EN = 1u << 1;
inline constexpr uint32_t EVENT_QUE_CFG_INTERRUPT_PER_EQE = 1u << 2;
/* Events the EQ could not take because it was full ([choice]: not in public sources). */
inline constexpr uint32_t QPC_EVENT_QUE_OVERRUN_CNT = 0xB24;
/* Interrupt control [regs gaudi2_cn_eq.c]: INTERRUPT_CLR = 0x200 re-arms the EQ interrupt. */
inline constexpr uint32_t QPC_INTERRUPT_CAUSE = 0xC00;
inline constexpr uint32_t QPC_INTERRUPT_MASK = 0xC04;
inline constexpr uint32_t QPC_INTERRUPT_CLR = 0xC08;
inline constexpr uint32_t QPC_INTERRUPT_EN = 0xC0C;
/* Doorbells dropped because the FIFO was full ([choice]). */
inline constexpr uint32_t QPC_DB_FIFO_OVERRUN_CNT = 0xC20;
/* Interrupt indices of INTERRUPT_CAUSE/MASK/CLR/EN [regs fs_nic.h: tx_ring0-3 = 0-3,
 * rx_ring0-3 = 4-7, qp_err = 8, event_queue = 9]. EN holds the MSI enable of index i in bit i
 * ([choice]: Linux names the bit INTERRUPTn_MSI_EN, its position is not public); MASK bit i = 1
 * masks index i; CLR bit i clears a pending cause (0x200 re-arms the EQ) [regs gaudi2_cn_eq.c].
 * [choice] The raw CQ raises index 4 (rx_ring0) when its arm fires, next to the COMP EQE. */
inline constexpr uint32_t INTR_RX_RING0 = 4;
inline constexpr uint32_t INTR_EQ = 9;
constexpr uint32_t intr_bit(uint32_t index) { return 1u << index; }
/* [choice] Firmware version of the NIC's management firmware, read-only:
 * major [23:16], minor [15:8], patch [7:0]. On Gaudi2 this comes from cpucp; see hw model doc. */
inline constexpr uint32_t QPC_FW_VERSION = 0xD00;

/* ---- TXE block (per port) [regs: TXE SQ_BASE_ADDRESS_63_32_0/31_0_0, LOG_MAX_WQ_SIZE_0] ---- */
inline constexpr uint32_t TXE_SQ_BASE_ADDRESS_63_32_0 = 0x000;
inline constexpr uint32_t TXE_SQ_BASE_ADDRESS_31_0_0 = 0x004;
/* log2(entries) - 2 [regs "LOG_MAX_WQ_SIZE_0 = 8-2"]. */
inline constexpr uint32_t TXE_LOG_MAX_WQ_SIZE_0 = 0x008;
/* [choice] Flow-control status of the port's TX, read-only: bit 0 = TX paused, i.e. the peer
 * sent XOFF (PAUSE, or PFC = global pause [facts §4]), the MAC honours it (PAUSE_IGNORE
 * clear) and WQEs wait for XON. Not in public sources; the PMD's TX watchdog reads it. */
inline constexpr uint32_t TXE_FC_STATUS = 0x00C;
inline constexpr uint32_t TXE_FC_STATUS_PAUSED = 1u << 0;

/* ---- RXE block (per port) [regs: RAW_BASE_LO/HI, RAW_MISC, RAW_QPN, CQ_*] ---- */
/* Raw ring of priority 0; the driver steers all priorities to QPN 0 [facts §2] and the model
 * reads priority 0's ring for every frame ([choice], see hw model doc). */
inline constexpr uint32_t RXE_RAW_QPN_P0 = 0x000;
inline constexpr uint32_t RXE_RAW_BASE_LO_P0 = 0x004;
inline constexpr uint32_t RXE_RAW_BASE_HI_P0 = 0x008;
inline constexpr uint32_t RXE_RAW_MISC_P0 = 0x00C;
/* RAW_MISC = log2(slot size) [3:0] | log2(slot count) [19:15]. */
inline constexpr uint32_t RAW_MISC_LOG_ELEM_MASK = 0xF;
inline constexpr uint32_t RAW_MISC_LOG_COUNT_SHIFT = 15;
inline constexpr uint32_t RAW_MISC_LOG_COUNT_MASK = 0x1F;
inline constexpr uint32_t RXE_CQ_BASE_ADDR_63_32 = 0x100;
inline constexpr uint32_t RXE_CQ_BASE_ADDR_31_7 = 0x104;
inline constexpr uint32_t RXE_CQ_PI_ADDR_HI_0 = 0x108;
inline constexpr uint32_t RXE_CQ_PI_ADDR_LO_0 = 0x10C;
inline constexpr uint32_t RXE_CQ_LOG_SIZE_0 = 0x110;
inline constexpr uint32_t RXE_CQ_PRODUCER_INDEX_0 = 0x118; /* read-only mirror */
inline constexpr uint32_t RXE_CQ_CONSUMER_INDEX_0 = 0x11C; /* read-only mirror */
inline constexpr uint32_t RXE_CQ_CFG_0 = 0x120;
inline constexpr uint32_t CQ_CFG_ENABLE = 1u << 0;
inline constexpr uint32_t CQ_CFG_WRITE_PI_EN = 1u << 1;
inline constexpr uint32_t CQ_CFG_OVERRUN_EN = 1u << 2;
/* CQ arm coalesce timer in clock ticks [facts §2]. */
inline constexpr uint32_t RXE_CQ_ARM_TIMEOUT_EN = 0x140;
inline constexpr uint32_t RXE_CQ_ARM_TIMEOUT = 0x144;

/* ---- RXB_CORE (per macro) MAC filter [regs: TS_RAW0_MAC_{31_0,47_32}_{0,2} + MASK; even port
 * index 0, odd port index 2; mask 0 = exact match, all-ones = accept any]. ---- */
constexpr uint32_t rxb_raw_mac_31_0(unsigned port) { return 0x100 + (port & 1) * 2 * 0x10; }
constexpr uint32_t rxb_raw_mac_47_32(unsigned port) { return rxb_raw_mac_31_0(port) + 0x4; }
constexpr uint32_t rxb_raw_mac_mask_31_0(unsigned port) { return rxb_raw_mac_31_0(port) + 0x8; }
constexpr uint32_t rxb_raw_mac_mask_47_32(unsigned port) { return rxb_raw_mac_31_0(port) + 0xC; }
/* [choice] Multicast accept per port (bit 0): not in public sources. */
constexpr uint32_t rxb_raw_mcast_accept(unsigned port) { return 0x200 + (port & 1) * 4; }
/* [choice] Additional exact-match raw MAC filters per port (unicast or multicast), beyond
 * TS_RAW0_MAC: entry i = {MAC bytes 0..3, MAC bytes 4..5}; an entry takes part when bit i of
 * the port's VALID register is set. Public sources name only TS_RAW0/TS_RC filters. */
inline constexpr unsigned kRxbUcFilters = 15;
constexpr uint32_t rxb_uc_mac_31_0(unsigned port, unsigned i) { return 0x400 + (port & 1) * 0x100 + i * 8; }
constexpr uint32_t rxb_uc_mac_47_32(unsigned port, unsigned i) { return rxb_uc_mac_31_0(port, i) + 4; }
constexpr uint32_t rxb_uc_valid(unsigned port) { return 0x208 + (port & 1) * 4; }
/* [choice] Multicast hash-free table: exact multicast addresses accepted per port, same layout. */
inline constexpr unsigned kRxbMcFilters = 32;
constexpr uint32_t rxb_mc_mac_31_0(unsigned port, unsigned i) { return 0x600 + (port & 1) * 0x100 + i * 8; }
constexpr uint32_t rxb_mc_mac_47_32(unsigned port, unsigned i) { return rxb_mc_mac_31_0(port, i) + 4; }
constexpr uint32_t rxb_mc_valid(unsigned port) { return 0x210 + (port & 1) * 4; }
/* [regs "RXB XOFF/XON thresholds per port/prio (val | val << 13)"], in 128-byte RXB buffers
 * (2880 per macro); [choice] offsets, one register per port (priorities share it). */
inline constexpr uint32_t kRxbBuffers = 2880;
constexpr uint32_t rxb_xoff_threshold(unsigned port) { return 0x300 + (port & 1) * 8; }
constexpr uint32_t rxb_xon_threshold(unsigned port) { return 0x304 + (port & 1) * 8; }

/* ---- TXB (per macro, 0x54000) [regs: TXB GLOBAL_PAUSE]: [choice] bit p&1 = the port's MAC
 * may send PAUSE/PFC frames (the TX side of flow control); offset is [choice]. ---- */
constexpr uint32_t txb(unsigned port) { return macro_base(port) + 0x54000; }
inline constexpr uint32_t TXB_GLOBAL_PAUSE = 0x010;

/* ---- MAC_128 (per lane) [facts §4; MoreThanIP layout as in the Gaudi1 driver's MAC regs] ---- */
inline constexpr uint32_t MAC_128 = 0x400;
inline constexpr uint32_t MAC_COMMAND_CONFIG = MAC_128 + 0x08;
inline constexpr uint32_t MAC_ADDR_0 = MAC_128 + 0x0C; /* MAC bytes 0..3, byte 0 in bits 7:0 */
inline constexpr uint32_t MAC_ADDR_1 = MAC_128 + 0x10; /* MAC bytes 4..5 */
inline constexpr uint32_t MAC_FRM_LENGTH = MAC_128 + 0x14; /* max frame incl. FCS */
inline constexpr uint32_t MAC_STATUS = MAC_128 + 0x40;
/* Pause quanta of classes 0/1 (class 2k in [15:0], 2k+1 in [31:16]) and the refresh threshold
 * [facts §4 "per-class pause quanta are programmed"]; [choice] offsets as in the MoreThanIP
 * 100G MAC (CL01_PAUSE_QUANTA 0x54 .. CL67 0x60, CL01_QUANTA_THRESH 0x64). */
constexpr uint32_t mac_pause_quanta(unsigned cls) { return MAC_128 + 0x54 + (cls / 2) * 4; }
constexpr uint32_t mac_quanta_thresh(unsigned cls) { return MAC_128 + 0x64 + (cls / 2) * 4; }
/* COMMAND_CONFIG bits: 0x2913 = TX_ENA|RX_ENA|PROMIS_EN|PAUSE_IGNORE|CNTL_FRAME_ENA|TX_PAD_EN,
 * 0x80813 with PFC_MODE [facts §4, regs]. */
inline constexpr uint32_t CMD_TX_ENA = 1u << 0;
inline constexpr uint32_t CMD_RX_ENA = 1u << 1;
inline constexpr uint32_t CMD_PROMIS_EN = 1u << 4;
inline constexpr uint32_t CMD_PAUSE_FWD = 1u << 7; /* [choice] MoreThanIP position */
inline constexpr uint32_t CMD_PAUSE_IGNORE = 1u << 8;
inline constexpr uint32_t CMD_CNTL_FRAME_ENA = 1u << 11;
inline constexpr uint32_t CMD_TX_PAD_EN = 1u << 13;
inline constexpr uint32_t CMD_PFC_MODE = 1u << 19;
inline constexpr uint32_t CMD_DEFAULT = 0x2913;
/* MAC_PCS CONTROL1 (clause 45 PCS control 1): bit 15 reset, bit 14 loopback [facts §4]. */
inline constexpr uint32_t PCS_CONTROL1 = 0x000;
inline constexpr uint32_t PCS_STATUS1 = 0x004;
inline constexpr uint32_t PCS_CONTROL1_RESET = 1u << 15;
inline constexpr uint32_t PCS_CONTROL1_LOOPBACK = 1u << 14;
inline constexpr uint32_t PCS_STATUS1_LINK = 1u << 2; /* clause 45 receive link status */

/* ---- PRT0_MAC_CORE (per macro): MAC_REC_STS0.REC_LINK_STS, 2 bits per port [regs]. ---- */
inline constexpr uint32_t MAC_CORE_REC_STS0 = 0x040; /* [choice] offset */
constexpr uint32_t rec_link_sts_shift(unsigned port) { return (port & 1) * 2; }
/* MAC_CORE FEC91_CFG selects RS-FEC (clause 91) [facts §4]; [choice] offset, one bit per lane:
 * the port's 2 lanes at bits (port & 1) * 2 .. + 1; both set = RS-FEC, both clear = no FEC. */
inline constexpr uint32_t MAC_CORE_FEC91_CFG = 0x044;
constexpr uint32_t fec91_lanes(unsigned port) { return 0x3u << ((port & 1) * 2); }

/* ---- MAC_RS_FEC (per macro, 0x6A000) [regs: RSFEC(_2)_CCW_LO/HI, NCCW_LO/HI, 16-bit halves]:
 * corrected / uncorrected codewords; [choice] offsets, odd port at +0x20. ---- */
constexpr uint32_t mac_rs_fec(unsigned port) { return macro_base(port) + 0x6A000; }
constexpr uint32_t rsfec_ccw_lo(unsigned port) { return 0x10 + (port & 1) * 0x20; }
constexpr uint32_t rsfec_ccw_hi(unsigned port) { return rsfec_ccw_lo(port) + 4; }
constexpr uint32_t rsfec_nccw_lo(unsigned port) { return rsfec_ccw_lo(port) + 8; }
constexpr uint32_t rsfec_nccw_hi(unsigned port) { return rsfec_ccw_lo(port) + 12; }

/* ---- MAC_GLOB_STAT (per macro) [regs: read LO, then CONTROL_REG_DATA_HI latches bits 63:32;
 * STATN_CONFIG F_RESET clears]. Counter n of port p at rx/tx base + 4 n. ---- */
inline constexpr uint32_t STAT_CONTROL_REG_DATA_HI = 0x004; /* [choice] offset */
inline constexpr uint32_t STAT_STATN_CONFIG = 0x008;        /* [choice] offset */
constexpr uint32_t statn_f_reset(unsigned port) { return 1u << (port & 1); } /* [choice] */
constexpr uint32_t stat_rx(unsigned port) { return 0x100 + (port & 1) * 0x110; }
constexpr uint32_t stat_tx(unsigned port) { return 0x330 + (port & 1) * 0x110; }

} // namespace gaudi::hw::reg
