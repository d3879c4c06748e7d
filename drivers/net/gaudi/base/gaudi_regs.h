/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC register map: every block, register and field the driver or the model touches,
 * with the name and position the public sources give it.
 *
 * Source: HabanaAI/drivers.gpu.linux-nic.kernel, drivers/net/ethernet/intel/hbl_cn/gaudi2/
 * asic_reg/ (gaudi2_blocks_linux_driver.h for block bases, nic0_*_regs.h for offsets,
 * nic0_*_masks.h for fields), as buildtools/gen-regmap.py tabulates them (base/gaudi_regmap_published.h). The
 * regmap_conformance test checks every row below against that table by name.
 *
 * Offsets are bytes from the NIC region of macro 0 (configuration address 0x5400000, BAR0 +
 * kNicRegionBarOffset). Blocks are declared with their published configuration address
 * (NIC macro 0, port 0); per-port and per-lane copies follow the strides of gaudi2_cn.h
 * NIC_CFG_BASE and MAC_CH_OFFSET.
 */
#pragma once

#include <cstdint>
#include <span>

#include "gaudi_hw_defs.h"

namespace gaudi::hw::reg {

/* Configuration address of NIC macro 0 [gaudi2_blocks_linux_driver.h mmNIC0_UMR0_0_... base]. */
inline constexpr uint32_t kNic0CfgBase = 0x5400000;

/* X(block, cfg_address): block bases of NIC macro 0, port 0. */
#define GAUDI_BLOCKS(X)                           \
	X(QPC, 0x541F000)                         \
	X(QPC_DBFIFOSECUR_CI_UPD_ADDR, 0x541F810) \
	X(RXB_CORE, 0x5449000)                    \
	X(RXE, 0x544A000)                         \
	X(TXE, 0x5452000)                         \
	X(TXB, 0x5454000)                         \
	X(MAC_CORE, 0x5469000)                    \
	X(PHY, 0x5460000)                         \
	X(MAC_RS_FEC, 0x546A000)                  \
	X(MAC_GLOB_STAT_CONTROL, 0x546B000)       \
	X(MAC_GLOB_STAT_RX0, 0x546B100)           \
	X(MAC_GLOB_STAT_RX2, 0x546B218)           \
	X(MAC_GLOB_STAT_TX0, 0x546B330)           \
	X(MAC_GLOB_STAT_TX2, 0x546B400)           \
	X(MAC_PCS, 0x546C000)                     \
	X(MAC_128, 0x546C400)                     \
	X(TXS, 0x5450000)                         \
	X(TMR, 0x5448000)                         \
	X(TMR_AXUSER_TMR_FREE_LIST, 0x5448D60)    \
	X(TMR_AXUSER_TMR_FIFO, 0x5448DC0)         \
	X(TMR_AXUSER_TMR_FSM, 0x5448E20)          \
	X(QPC_AXUSER_CONG_QUE, 0x541FB80)         \
	X(QPC_AXUSER_DB_FIFO, 0x541FCA0)          \
	X(QPC_AXUSER_EV_QUE_LBW_INTR, 0x541FD00)  \
	X(QPC_AXUSER_ERR_FIFO, 0x541FD60)         \
	X(QPC_AXUSER_QPC_RESP, 0x541FDC0)         \
	X(QPC_AXUSER_QPC_REQ, 0x541FE20)          \
	X(RXE_AXUSER_AXUSER_CQ0, 0x544C000)       \
	X(RXE_AXUSER_AXUSER_CQ1, 0x544C050)

/* X(block, register, offset in block) */
#define GAUDI_REGS(X)                                                                           \
	/* QPC (per port): gateway, doorbell, CQ CI / arm, EQ, interrupts [nic0_qpc0_regs.h] */ \
	X(QPC, REQ_QPC_CACHE_INVALIDATE, 0x0)                                                   \
	X(QPC, REQ_STATIC_CONFIG, 0x8)                                                          \
	X(QPC, REQ_BASE_ADDRESS_63_32, 0xC)                                                     \
	X(QPC, REQ_BASE_ADDRESS_31_7, 0x10)                                                     \
	X(QPC, RES_QPC_CACHE_INVALIDATE, 0x34)                                                  \
	X(QPC, RES_STATIC_CONFIG, 0x3C)                                                         \
	X(QPC, RES_BASE_ADDRESS_63_32, 0x40)                                                    \
	X(QPC, RES_BASE_ADDRESS_31_7, 0x44)                                                     \
	X(QPC, GW_BUSY, 0x80)                                                                   \
	X(QPC, GW_CTRL, 0x84)                                                                   \
	X(QPC, GW_DATA_0, 0x8C)                                                                 \
	X(QPC, GW_MASK_0, 0x124)                                                                \
	X(QPC, SECURED_DB_FIRST32, 0x460)                                                       \
	X(QPC, SECURED_DB_SECOND32, 0x464)                                                      \
	X(QPC, INTERRUPT_BASE_0, 0x4B0)                                                         \
	X(QPC, INTERRUPT_BASE_9, 0x4D4)                                                         \
	X(QPC, INTERRUPT_DATA_0, 0x4DC)                                                         \
	X(QPC, INTERRUPT_DATA_9, 0x500)                                                         \
	X(QPC, INTERRUPT_CAUSE, 0x690)                                                          \
	X(QPC, INTERRUPT_MASK, 0x694)                                                           \
	X(QPC, INTERRUPT_CLR, 0x698)                                                            \
	X(QPC, INTERRUPT_EN, 0x69C)                                                             \
	X(QPC, EVENT_QUE_BASE_ADDR_63_32, 0x830)                                                \
	X(QPC, EVENT_QUE_BASE_ADDR_31_7, 0x834)                                                 \
	X(QPC, EVENT_QUE_LOG_SIZE, 0x838)                                                       \
	X(QPC, EVENT_QUE_WRITE_INDEX, 0x83C)                                                    \
	X(QPC, EVENT_QUE_PRODUCER_INDEX, 0x840)                                                 \
	X(QPC, EVENT_QUE_PI_ADDR_63_32, 0x844)                                                  \
	X(QPC, EVENT_QUE_PI_ADDR_31_7, 0x848)                                                   \
	X(QPC, EVENT_QUE_CONSUMER_INDEX_CB, 0x84C)                                              \
	X(QPC, EVENT_QUE_CFG, 0x850)                                                            \
	X(QPC, SECURED_CQ_NUMBER, 0x8F0)                                                        \
	X(QPC, SECURED_CQ_CONSUMER_INDEX, 0x8F4)                                                \
	X(QPC, EVENT_QUE_CONSUMER_INDEX, 0x9A8)                                                 \
	X(QPC, ARM_CQ_NUM, 0x9AC)                                                               \
	X(QPC, WTD_CONFIG, 0x994)                                                               \
	X(QPC, ARM_CQ_INDEX, 0x9B0)                                                             \
	/* [nic0_qpc0_dbfifosecur_ci_upd_addr_regs.h] */                                        \
	X(QPC_DBFIFOSECUR_CI_UPD_ADDR, DBFIFO_CI_UPD_ADDR_63_32, 0x0)                           \
	X(QPC_DBFIFOSECUR_CI_UPD_ADDR, DBFIFO_CI_UPD_ADDR_31_7, 0x4)                            \
	/* RXE (per port): raw rings (4 priorities, 2 copies), CQs [nic0_rxe0_regs.h] */        \
	X(RXE, RAW_QPN_P0_0, 0x10)                                                              \
	X(RXE, RAW_QPN_P0_1, 0x14)                                                              \
	X(RXE, PKT_SIZE_CHECK_RAW, 0x3C)                                                        \
	X(RXE, ARUSER_MMU_BP, 0x64)                                                             \
	X(RXE, CQ_BASE_ADDR_31_7, 0x100)                                                        \
	X(RXE, CQ_BASE_ADDR_63_32, 0x104)                                                       \
	X(RXE, CQ_LOG_MAX_SIZE, 0x108)                                                          \
	X(RXE, CQ_ARM_TIMEOUT_EN, 0x110)                                                        \
	X(RXE, CQ_ARM_TIMEOUT, 0x114)                                                           \
	X(RXE, CQ_CFG_0, 0x180)                                                                 \
	X(RXE, CQ_WRITE_INDEX_0, 0x200)                                                         \
	X(RXE, CQ_PRODUCER_INDEX_0, 0x280)                                                      \
	X(RXE, CQ_CONSUMER_INDEX_0, 0x300)                                                      \
	X(RXE, CQ_PI_ADDR_LO_0, 0x380)                                                          \
	X(RXE, CQ_PI_ADDR_HI_0, 0x400)                                                          \
	X(RXE, CQ_LOG_SIZE_0, 0x500)                                                            \
	X(RXE, RAW_BASE_LO_P0_0, 0x710)                                                         \
	X(RXE, RAW_BASE_LO_P0_1, 0x714)                                                         \
	X(RXE, RAW_BASE_HI_P0_0, 0x720)                                                         \
	X(RXE, RAW_BASE_HI_P0_1, 0x724)                                                         \
	X(RXE, RAW_MISC_P0_0, 0x730)                                                            \
	X(RXE, RAW_MISC_P0_1, 0x734)                                                            \
	X(RXE, RAW_BASE_LO_P1_0, 0x750)                                                         \
	X(RXE, RAW_BASE_LO_P2_0, 0x790)                                                         \
	X(RXE, RAW_BASE_LO_P3_0, 0x7D0)                                                         \
	X(RXE, RAW_QPN_P1_0, 0x18)                                                              \
	X(RXE, RAW_QPN_P2_0, 0x20)                                                              \
	X(RXE, RAW_QPN_P3_0, 0x28)                                                              \
	X(RXE, DBG_SPMU_SELECT, 0xA00)                                                          \
	/* TXE (per port) [nic0_txe0_regs.h] */                                                 \
	X(TXE, LOG_MAX_WQ_SIZE_0, 0x10)                                                         \
	X(TXE, SQ_BASE_ADDRESS_63_32_0, 0x20)                                                   \
	X(TXE, SQ_BASE_ADDRESS_31_0_0, 0x30)                                                    \
	X(TXE, WQE_USER_CFG, 0x40)                                                              \
	X(TXE, PORT0_MAC_CFG_47_32, 0x88)                                                       \
	X(TXE, PORT0_MAC_CFG_31_0, 0x8C)                                                        \
	X(TXE, PORT1_MAC_CFG_47_32, 0x90)                                                       \
	X(TXE, PORT1_MAC_CFG_31_0, 0x94)                                                        \
	X(TXE, PRIO_TO_DSCP_0, 0x9C)                                                            \
	X(TXE, WQE_PREFETCH_CFG, 0x164)                                                         \
	X(TXE, BTH_MKEY, 0x1B0)                                                                 \
	X(TXE, WQE_CHECK_EN2, 0x224)                                                            \
	X(TXE, WQE_CHECK_CFG4, 0x458)                                                           \
	X(TXE, WQE_CHECK_CFG5, 0x45C)                                                           \
	X(TXE, STATS_CFG0, 0x2B0)                                                               \
	X(TXE, STATS_CFG1, 0x2B4)                                                               \
	X(TXE, STATS_CFG2, 0x2B8)                                                               \
	/* RXB_CORE (per macro; index 0: even port, 2: odd) [nic0_rxb_core_regs.h] */           \
	X(RXB_CORE, MAX_DYNAMIC, 0x108)                                                         \
	X(RXB_CORE, MAX_STATIC_CREDITS_0, 0x12C)                                                \
	X(RXB_CORE, XOFF_THRESHOLD_0, 0x14C)                                                    \
	X(RXB_CORE, DROP_THRESHOLD_0, 0x18C)                                                    \
	X(RXB_CORE, XON_THRESHOLD_0, 0x16C)                                                     \
	X(RXB_CORE, DROP_SMALL_THRESHOLD_0, 0x1AC)                                              \
	X(RXB_CORE, MAC_PFC_MODE, 0x200)                                                        \
	X(RXB_CORE, PORT_TRUST_LEVEL, 0x240)                                                    \
	X(RXB_CORE, PORT_DEFAULT_PRIO, 0x250)                                                   \
	X(RXB_CORE, DSCP2PRIO_0, 0x260)                                                         \
	X(RXB_CORE, ICRC_CFG, 0x280)                                                            \
	X(RXB_CORE, TS_RC_MAC_31_0_0, 0x2C0)                                                    \
	X(RXB_CORE, TS_RC_MAC_47_32_0, 0x2D0)                                                   \
	X(RXB_CORE, TS_RAW0_MAC_31_0_0, 0x2E0)                                                  \
	X(RXB_CORE, TS_RAW0_MAC_47_32_0, 0x2F0)                                                 \
	X(RXB_CORE, TS_RC_MAC_31_0_MASK_0, 0x320)                                               \
	X(RXB_CORE, TS_RC_MAC_47_32_MASK_0, 0x330)                                              \
	X(RXB_CORE, TS_RAW0_MAC_31_0_MASK_0, 0x340)                                             \
	X(RXB_CORE, TS_RAW0_MAC_47_32_MASK_0, 0x350)                                            \
	X(RXB_CORE, SPI_INTR_CAUSE, 0x990)                                                      \
	/* TXB (per macro) [nic0_txb_regs.h] */                                                 \
	X(TXB, GLOBAL_PAUSE, 0xC)                                                               \
	X(TXB, ICRC_CFG, 0xD0)                                                                  \
	X(TXB, TDM_PORT_ARB_MASK, 0x13C)                                                        \
	/* PRT0_MAC_CORE (per macro) [prt0_mac_core_regs.h] */                                  \
	X(MAC_CORE, MAC_SD_CFG, 0x0)                                                            \
	X(MAC_CORE, MAC_REC_STS0, 0x8)                                                          \
	X(MAC_CORE, MAC_FC_FEC_CFG, 0x10)                                                       \
	X(MAC_CORE, MAC_FEC91_CFG, 0x18)                                                        \
	X(MAC_CORE, MAC_PCS_CFG, 0x1C)                                                          \
	X(MAC_CORE, MAC_GNRL_STS_0, 0x20)                                                       \
	X(MAC_CORE, MAC_GNRL_STS_2, 0x28)                                                       \
	X(MAC_CORE, MAC_RST_CFG, 0x50)                                                          \
	/* PHY (per macro): reference clock power-down, TX lane swap [nic0_phy_regs.h] */       \
	X(PHY, PHY_LINK_STS_INTR, 0x50)                                                         \
	X(PHY, PHY_IDDQ_0, 0x60)                                                                \
	X(PHY, PHY_IDDQ_1, 0x64)                                                                \
	X(PHY, PHY_ASYNC_LANE_SWAP, 0x68)                                                       \
	/* MAC_RS_FEC (per macro; RSFEC: lane 0, RSFEC2: lane 2) [nic0_mac_rs_fec_regs.h] */    \
	X(MAC_RS_FEC, RSFEC_CONTROL, 0x0)                                                       \
	X(MAC_RS_FEC, RSFEC_CCW_LO, 0x8)                                                        \
	X(MAC_RS_FEC, RSFEC_CCW_HI, 0xC)                                                        \
	X(MAC_RS_FEC, RSFEC_NCCW_LO, 0x10)                                                      \
	X(MAC_RS_FEC, RSFEC_NCCW_HI, 0x14)                                                      \
	X(MAC_RS_FEC, RSFEC1_CONTROL, 0x20)                                                     \
	X(MAC_RS_FEC, RSFEC2_CCW_LO, 0x48)                                                      \
	/* MAC_GLOB_STAT (per macro) [nic0_mac_glob_stat_*_regs.h] */                           \
	X(MAC_GLOB_STAT_CONTROL, DATA_HI, 0x0)                                                  \
	X(MAC_GLOB_STAT_CONTROL, STATN_CONFIG, 0x8)                                             \
	X(MAC_GLOB_STAT_CONTROL, STATN_CONTROL, 0xC)                                            \
	X(MAC_GLOB_STAT_RX0, ETHERSTATSOCTETS, 0x0)                                             \
	X(MAC_GLOB_STAT_RX0, AMACCONTROLFRAMESRECEIVED, 0x88)                                   \
	X(MAC_GLOB_STAT_TX0, ETHERSTATSOCTETS_4, 0x0)                                           \
	X(MAC_GLOB_STAT_TX0, ETHERSTATSPKTS_4, 0x64)                                            \
	/* MAC_PCS, MAC_128 (per lane, MAC_CH_OFFSET 0x1000) [nic0_mac_ch0_mac_*_regs.h] */     \
	X(MAC_PCS, CONTROL1, 0x0)                                                               \
	X(MAC_PCS, STATUS1, 0x4)                                                                \
	X(MAC_PCS, VENDOR_VL_INTVL, 0x184)                                                      \
	X(MAC_PCS, VENDOR_VL0_0, 0x19C)                                                         \
	X(MAC_PCS, VENDOR_VL0_1, 0x1A0)                                                         \
	X(MAC_PCS, VENDOR_VL1_0, 0x1A4)                                                         \
	X(MAC_PCS, VENDOR_PCS_MODE, 0x1BC)                                                      \
	X(MAC_PCS, VL4_0, 0x29C)                                                                \
	X(MAC_PCS, VL4_1, 0x2A0)                                                                \
	X(MAC_PCS, VL5_0, 0x2A4)                                                                \
	X(MAC_128, COMMAND_CONFIG, 0x8)                                                         \
	X(MAC_128, MAC_ADDR_0, 0xC)                                                             \
	X(MAC_128, MAC_ADDR_1, 0x10)                                                            \
	X(MAC_128, FRM_LENGTH, 0x14)                                                            \
	X(MAC_128, RX_FIFO_SECTIONS, 0x1C)                                                      \
	X(MAC_128, TX_FIFO_SECTIONS, 0x20)                                                      \
	X(MAC_128, CL01_PAUSE_QUANTA, 0x54)                                                     \
	X(MAC_128, CL01_QUANTA_THRESH, 0x64)                                                    \
	X(MAC_128, RX_PAUSE_STATUS, 0x74)                                                       \
	X(MAC_128, CL89_PAUSE_QUANTA, 0x84)                                                     \
	X(MAC_128, CL89_QUANTA_THRESH, 0x94)                                                    \
	/* TXS (per port, odd copy at +0x1000) [nic0_txs0_regs.h] */                            \
	X(TXS, TMR_SCAN_EN, 0x0)                                                                \
	X(TXS, TICK_WRAP, 0x4)                                                                  \
	X(TXS, SCAN_TIME_COMPARE_0, 0x8)                                                        \
	X(TXS, SCAN_TIME_COMPARE_1, 0xC)                                                        \
	X(TXS, LIST_MEM_READ_MASK, 0x30)                                                        \
	X(TXS, BASE_ADDRESS_63_32, 0x40)                                                        \
	X(TXS, BASE_ADDRESS_31_7, 0x44)                                                         \
	X(TXS, SCHEDQ_UPDATE_EN, 0x5C)                                                          \
	X(TXS, SCHEDQ_UPDATE_FIFO, 0x60)                                                        \
	X(TXS, SCHEDQ_UPDATE_DESC_31_0, 0x64)                                                   \
	X(TXS, SCHEDQ_UPDATE_DESC_63_32, 0x68)                                                  \
	X(TXS, SCHEDQ_UPDATE_DESC_95_64, 0x6C)                                                  \
	X(TXS, SCHEDQ_UPDATE_DESC_127_96, 0x70)                                                 \
	X(TXS, SCHEDQ_UPDATE_DESC_159_128, 0x74)                                                \
	X(TXS, SCHEDQ_UPDATE_DESC_191_160, 0x78)                                                \
	X(TXS, SCHEDQ_UPDATE_DESC_217_192, 0x7C)                                                \
	X(TXS, PUSH_LOCK_EN, 0x9C)                                                              \
	X(TXS, LIST_MASK, 0xB4)                                                                 \
	X(TXS, BASE_ADDRESS_FREE_LIST_63_32, 0xBC)                                              \
	X(TXS, BASE_ADDRESS_FREE_LIST_31_0, 0xC0)                                               \
	X(TXS, PRODUCER_UPDATE_EN, 0xCC)                                                        \
	X(TXS, PRODUCER_UPDATE, 0xD0)                                                           \
	X(TXS, IGNORE_BURST_EN, 0x140)                                                          \
	X(TXS, FREE_LIST_PUSH_MASK_EN, 0x194)                                                   \
	X(TXS, AXI_USER_LO, 0x200)                                                              \
	X(TXS, CACHE_CFG, 0x54)                                                                 \
	/* TMR (per macro) and its AXI users [nic0_tmr_regs.h, nic0_tmr_axuser_*_regs.h] */     \
	X(TMR, TMR_LIST_MEM_READ_MASK, 0x10)                                                    \
	X(TMR, TMR_BASE_ADDRESS_63_32, 0x20)                                                    \
	X(TMR, TMR_BASE_ADDRESS_31_7, 0x24)                                                     \
	X(TMR, TMR_SCHEDQ_UPDATE_EN, 0x3C)                                                      \
	X(TMR, TMR_SCHEDQ_UPDATE_FIFO, 0x40)                                                    \
	X(TMR, TMR_SCHEDQ_UPDATE_DESC_31_0, 0x44)                                               \
	X(TMR, TMR_SCHEDQ_UPDATE_DESC_63_32, 0x48)                                              \
	X(TMR, TMR_SCHEDQ_UPDATE_DESC_95_64, 0x4C)                                              \
	X(TMR, TMR_SCHEDQ_UPDATE_DESC_127_96, 0x50)                                             \
	X(TMR, TMR_SCHEDQ_UPDATE_DESC_159_128, 0x54)                                            \
	X(TMR, TMR_SCHEDQ_UPDATE_DESC_191_160, 0x58)                                            \
	X(TMR, TMR_SCHEDQ_UPDATE_DESC_216_192, 0x5C)                                            \
	X(TMR, TMR_PUSH_LOCK_EN, 0x7C)                                                          \
	X(TMR, TMR_LIST_MASK, 0x94)                                                             \
	X(TMR, TMR_BASE_ADDRESS_FREE_LIST_63_32, 0x9C)                                          \
	X(TMR, TMR_BASE_ADDRESS_FREE_LIST_31_0, 0xA0)                                           \
	X(TMR, TMR_PRODUCER_UPDATE_EN, 0xAC)                                                    \
	X(TMR, TMR_PRODUCER_UPDATE, 0xB0)                                                       \
	X(TMR, TMR_CACHE_BASE_ADDR_63_32, 0xC4)                                                 \
	X(TMR, TMR_CACHE_BASE_ADDR_31_7, 0xC8)                                                  \
	X(TMR, TMR_TIMER_EN, 0xCC)                                                              \
	X(TMR, TMR_TICK_WRAP, 0xD0)                                                             \
	X(TMR, TMR_SCAN_TIMER_COMP_31_0, 0xD8)                                                  \
	X(TMR, FREE_LIST_PUSH_MASK_EN, 0x158)                                                   \
	X(TMR, TMR_CACHES_CFG, 0xEC)                                                            \
	X(TMR_AXUSER_TMR_FREE_LIST, HB_WR_OVRD_LO, 0x30)                                        \
	X(TMR_AXUSER_TMR_FREE_LIST, HB_RD_OVRD_LO, 0x38)                                        \
	X(TMR_AXUSER_TMR_FIFO, HB_WR_OVRD_LO, 0x30)                                             \
	X(TMR_AXUSER_TMR_FIFO, HB_RD_OVRD_LO, 0x38)                                             \
	X(TMR_AXUSER_TMR_FSM, HB_WR_OVRD_LO, 0x30)                                              \
	X(TMR_AXUSER_TMR_FSM, HB_RD_OVRD_LO, 0x38)                                              \
	/* QPC AXI users (per port) [nic0_qpc0_axuser_*_regs.h] */                              \
	X(QPC_AXUSER_CONG_QUE, HB_WR_OVRD_LO, 0x30)                                             \
	X(QPC_AXUSER_CONG_QUE, HB_RD_OVRD_LO, 0x38)                                             \
	X(QPC_AXUSER_DB_FIFO, HB_WR_OVRD_LO, 0x30)                                              \
	X(QPC_AXUSER_DB_FIFO, HB_RD_OVRD_LO, 0x38)                                              \
	X(QPC_AXUSER_EV_QUE_LBW_INTR, HB_WR_OVRD_LO, 0x30)                                      \
	X(QPC_AXUSER_EV_QUE_LBW_INTR, HB_RD_OVRD_LO, 0x38)                                      \
	X(QPC_AXUSER_ERR_FIFO, HB_WR_OVRD_LO, 0x30)                                             \
	X(QPC_AXUSER_ERR_FIFO, HB_RD_OVRD_LO, 0x38)                                             \
	X(QPC_AXUSER_QPC_RESP, HB_WR_OVRD_LO, 0x30)                                             \
	X(QPC_AXUSER_QPC_RESP, HB_RD_OVRD_LO, 0x38)                                             \
	X(QPC_AXUSER_QPC_REQ, HB_WR_OVRD_LO, 0x30)                                              \
	X(QPC_AXUSER_QPC_REQ, HB_RD_OVRD_LO, 0x38)                                              \
	/* RXE AXI users of the 16 CQs (per port) [nic0_rxe0_axuser_axuser_cq*_regs.h] */       \
	X(RXE_AXUSER_AXUSER_CQ0, HB_WR_OVRD_LO, 0x30)                                           \
	X(RXE_AXUSER_AXUSER_CQ1, HB_WR_OVRD_LO, 0x30)

/* X(block, register, field, lsb, width) [the matching *_masks.h] */
#define GAUDI_FIELDS(X)                                             \
	X(QPC, REQ_STATIC_CONFIG, QM_PUSH_TO_ERR_FIFO_NON_V, 4, 1)  \
	X(QPC, REQ_STATIC_CONFIG, QM_PUSH_ERR_PI_EX_LAST, 9, 1)     \
	X(QPC, REQ_STATIC_CONFIG, CACHE_STOP, 6, 1)                 \
	X(QPC, REQ_STATIC_CONFIG, QM_PUSH_TO_ERROR_SECURITY, 8, 1)  \
	X(QPC, REQ_STATIC_CONFIG, QM_MOVEQP2ERR_SECUR_ERR, 23, 1)   \
	X(QPC, REQ_STATIC_CONFIG, QM_PUSH_TO_ERROR_ASID, 26, 1)     \
	X(QPC, REQ_STATIC_CONFIG, QM_UPD_IGNORE_ASID_ERR, 27, 1)    \
	X(QPC, REQ_STATIC_CONFIG, QM_MOVEQP2ERR_ASID_ERR, 28, 1)    \
	X(QPC, RES_STATIC_CONFIG, CACHE_STOP, 5, 1)                 \
	X(QPC, WTD_CONFIG, WQ_BP_2ARC_EN, 4, 1)                     \
	X(QPC, WTD_CONFIG, WQ_BP_2QMAN_EN, 5, 1)                    \
	X(QPC, REQ_BASE_ADDRESS_31_7, R, 0, 25)                     \
	X(QPC, RES_BASE_ADDRESS_31_7, R, 0, 25)                     \
	X(QPC, GW_BUSY, R, 0, 1)                                    \
	X(QPC, GW_CTRL, QPN, 0, 24)                                 \
	X(QPC, GW_CTRL, REQUESTER, 24, 1)                           \
	X(QPC, GW_CTRL, DOORBELL_MASK, 25, 1)                       \
	X(QPC, GW_CTRL, DOORBELL_FORCE, 26, 1)                      \
	X(QPC, INTERRUPT_BASE_9, R, 0, 28)                          \
	X(QPC, INTERRUPT_CAUSE, R, 0, 11)                           \
	X(QPC, INTERRUPT_MASK, R, 0, 11)                            \
	X(QPC, INTERRUPT_EN, INTERRUPT0_WIRE_EN, 0, 1)              \
	X(QPC, INTERRUPT_EN, INTERRUPT0_MSI_EN, 1, 1)               \
	X(QPC, INTERRUPT_EN, INTERRUPT9_WIRE_EN, 18, 1)             \
	X(QPC, INTERRUPT_EN, INTERRUPT9_MSI_EN, 19, 1)              \
	X(QPC, INTERRUPT_EN, INTERRUPT10_WIRE_EN, 20, 1)            \
	X(QPC, EVENT_QUE_BASE_ADDR_31_7, R, 0, 25)                  \
	X(QPC, EVENT_QUE_LOG_SIZE, R, 0, 5)                         \
	X(QPC, EVENT_QUE_PRODUCER_INDEX, R, 0, 24)                  \
	X(QPC, EVENT_QUE_PI_ADDR_31_7, R, 0, 25)                    \
	X(QPC, EVENT_QUE_CFG, ENABLE, 0, 1)                         \
	X(QPC, EVENT_QUE_CFG, OVERRUN_EN, 1, 1)                     \
	X(QPC, EVENT_QUE_CFG, WRITE_PI_EN, 3, 1)                    \
	X(QPC, EVENT_QUE_CFG, INTERRUPT_PER_EQE, 4, 1)              \
	X(QPC, SECURED_CQ_NUMBER, CQ_NUM, 0, 16)                    \
	X(QPC, SECURED_CQ_CONSUMER_INDEX, CONSUMER_INDEX, 0, 32)    \
	X(QPC, EVENT_QUE_CONSUMER_INDEX, CI, 0, 24)                 \
	X(QPC, EVENT_QUE_CONSUMER_INDEX, EQ_NUM, 24, 8)             \
	X(QPC, ARM_CQ_NUM, CQ_NUM, 0, 16)                           \
	X(QPC, ARM_CQ_INDEX, ARM_INDEX, 0, 32)                      \
	X(RXE, RAW_QPN_P0_0, RAW_QPN_P0, 0, 24)                     \
	X(RXE, PKT_SIZE_CHECK_RAW, MIN, 0, 16)                      \
	X(RXE, ARUSER_MMU_BP, VAL, 0, 4)                            \
	X(RXE, CQ_BASE_ADDR_31_7, R, 7, 25)                         \
	X(RXE, CQ_CFG_0, ENABLE, 0, 1)                              \
	X(RXE, CQ_CFG_0, OVERRUN_EN, 1, 1)                          \
	X(RXE, CQ_CFG_0, WRITE_PI_EN, 3, 1)                         \
	X(RXE, RAW_MISC_P0_0, LOG_RAW_ENTRY_SIZE_P0, 0, 4)          \
	X(RXE, RAW_MISC_P0_0, LOG_BUFFER_SIZE_MASK_P0, 15, 5)       \
	X(TXE, LOG_MAX_WQ_SIZE_0, R, 0, 5)                          \
	X(TXE, WQE_USER_CFG, MMU_BYPASS, 0, 4)                      \
	X(TXE, WQE_PREFETCH_CFG, ENABLE, 0, 1)                      \
	X(TXE, WQE_PREFETCH_CFG, ALWAYS_ENABLE, 1, 1)               \
	X(TXE, WQE_CHECK_EN2, RAW_ABOVE_MIN_RAW_UNSUPPO, 17, 1)     \
	X(TXE, WQE_CHECK_EN2, RAW_BELOW_MAX_RAW_UNSUPPO, 18, 1)     \
	X(TXE, WQE_CHECK_CFG4, MIN_RAW_UNSUPPORTED_SIZE, 0, 32)     \
	X(TXE, WQE_CHECK_CFG5, MAX_RAW_UNSUPPORTED_SIZE, 0, 32)     \
	X(TXE, STATS_CFG0, MEAS_WIN_SIZE, 0, 32)                    \
	X(TXE, STATS_CFG1, TOT_TYPE, 0, 2)                          \
	X(TXE, STATS_CFG1, WIN_TYPE, 4, 2)                          \
	X(TXE, STATS_CFG1, ENABLE, 8, 1)                            \
	X(TXE, STATS_CFG1, WIN_SAMP_LATENCY, 9, 1)                  \
	X(TXE, STATS_CFG1, LATENCY_ENABLE, 11, 1)                   \
	X(TXE, STATS_CFG2, LATENCY_MAX_VAL, 0, 16)                  \
	X(TXE, STATS_CFG2, LATENCY_WRAP_EN, 16, 1)                  \
	X(TXS, CACHE_CFG, LIST_CACHE_STOP, 1, 1)                    \
	X(TXS, CACHE_CFG, FREE_LIST_CACHE_STOP, 4, 1)               \
	X(TMR, TMR_CACHES_CFG, STATE_CACHE_STOP, 1, 1)              \
	X(TMR, TMR_CACHES_CFG, LIST_CACHE_STOP, 4, 1)               \
	X(TMR, TMR_CACHES_CFG, FREE_LIST_CACHE_STOP, 7, 1)          \
	X(RXE, DBG_SPMU_SELECT, VAL, 0, 2)                          \
	X(RXB_CORE, XOFF_THRESHOLD_0, XOFF_THRESHOLD_FLOW0, 0, 13)  \
	X(RXB_CORE, XOFF_THRESHOLD_0, XOFF_THRESHOLD_FLOW1, 13, 13) \
	X(RXB_CORE, XON_THRESHOLD_0, XON_THRESHOLD_FLOW0, 0, 13)    \
	X(RXB_CORE, XON_THRESHOLD_0, XON_THRESHOLD_FLOW1, 13, 13)   \
	X(RXB_CORE, MAC_PFC_MODE, VAL, 1, 1)                        \
	X(RXB_CORE, ICRC_CFG, ICRC_REV_BYTES, 1, 1)                 \
	X(RXB_CORE, TS_RAW0_MAC_31_0_MASK_0, MASK, 0, 32)           \
	X(MAC_CORE, MAC_REC_STS0, REC_LINK_STS, 6, 4)               \
	X(MAC_CORE, MAC_FEC91_CFG, FEC91_ENA_IN, 0, 4)              \
	X(MAC_CORE, MAC_FEC91_CFG, FEC91_KP_MODE_IN, 4, 4)          \
	X(MAC_CORE, MAC_FEC91_CFG, FEC91_1LANE_IN0, 9, 1)           \
	X(MAC_CORE, MAC_FEC91_CFG, FEC91_1LANE_IN2, 10, 1)          \
	X(MAC_CORE, MAC_GNRL_STS_0, LOC_FAULT, 2, 1)                \
	X(MAC_CORE, MAC_GNRL_STS_0, REM_FAULT, 3, 1)                \
	X(MAC_CORE, MAC_RST_CFG, SD_TX_SW_RST_N, 4, 4)              \
	X(PHY, PHY_LINK_STS_INTR, MASK, 0, 1)                       \
	X(PHY, PHY_IDDQ_0, IDDQ, 0, 1)                              \
	X(PHY, PHY_ASYNC_LANE_SWAP, SERDES0_TX0_SWAP_ID, 0, 2)      \
	X(PHY, PHY_ASYNC_LANE_SWAP, SERDES0_TX1_SWAP_ID, 2, 2)      \
	X(PHY, PHY_ASYNC_LANE_SWAP, SERDES1_TX0_SWAP_ID, 4, 2)      \
	X(PHY, PHY_ASYNC_LANE_SWAP, SERDES1_TX1_SWAP_ID, 6, 2)      \
	X(MAC_GLOB_STAT_CONTROL, DATA_HI, DATAHI, 0, 32)            \
	X(MAC_GLOB_STAT_CONTROL, STATN_CONFIG, F_RESET, 31, 1)      \
	X(MAC_GLOB_STAT_CONTROL, STATN_CONTROL, PORTMASK, 0, 8)     \
	X(MAC_GLOB_STAT_CONTROL, STATN_CONTROL, CMDCLEARRX, 30, 1)  \
	X(MAC_GLOB_STAT_CONTROL, STATN_CONTROL, CMDCLEARTX, 31, 1)  \
	X(MAC_PCS, CONTROL1, LOOPBACK, 14, 1)                       \
	X(MAC_PCS, CONTROL1, FLD_RESET, 15, 1)                      \
	X(MAC_PCS, STATUS1, PCS_RECEIVE_LINK, 2, 1)                 \
	X(MAC_PCS, VENDOR_VL_INTVL, MARKER_COUNTER, 0, 16)          \
	X(MAC_PCS, VENDOR_VL0_0, M0, 0, 8)                          \
	X(MAC_PCS, VENDOR_VL0_0, M1, 8, 8)                          \
	X(MAC_PCS, VENDOR_VL0_1, M2, 0, 8)                          \
	X(MAC_PCS, VENDOR_PCS_MODE, ENA_CLAUSE49, 0, 1)             \
	X(MAC_PCS, VENDOR_PCS_MODE, HI_BER25, 2, 1)                 \
	X(MAC_PCS, VL4_0, VL4_0, 0, 16)                             \
	X(MAC_PCS, VL4_1, VL4_1, 0, 8)                              \
	X(MAC_128, TX_FIFO_SECTIONS, TX_SECTION_FULL, 0, 16)        \
	X(MAC_128, RX_FIFO_SECTIONS, RX_SECTION_FULL, 0, 16)        \
	X(MAC_128, COMMAND_CONFIG, TX_ENA, 0, 1)                    \
	X(MAC_128, COMMAND_CONFIG, RX_ENA, 1, 1)                    \
	X(MAC_128, COMMAND_CONFIG, PROMIS_EN, 4, 1)                 \
	X(MAC_128, COMMAND_CONFIG, PAUSE_FWD, 7, 1)                 \
	X(MAC_128, COMMAND_CONFIG, PAUSE_IGNORE, 8, 1)              \
	X(MAC_128, COMMAND_CONFIG, TX_PAD_EN, 11, 1)                \
	X(MAC_128, COMMAND_CONFIG, CNTL_FRAME_ENA, 13, 1)           \
	X(MAC_128, COMMAND_CONFIG, PFC_MODE, 19, 1)                 \
	X(MAC_128, RX_PAUSE_STATUS, PAUSESTATUS, 0, 16)

/* RXB credit and drop-threshold fields (a list of their own: their names are wider than the rows
 * above) [nic0_rxb_core_masks.h]. */
#define GAUDI_FIELDS_RXB(X)                                            \
	X(RXB_CORE, MAX_STATIC_CREDITS_0, MAX_STATIC_CREDITS0, 0, 13)  \
	X(RXB_CORE, MAX_STATIC_CREDITS_0, MAX_STATIC_CREDITS1, 13, 13) \
	X(RXB_CORE, DROP_THRESHOLD_0, DROP_THRESHOLD_FLOW0, 0, 13)     \
	X(RXB_CORE, DROP_THRESHOLD_0, DROP_THRESHOLD_FLOW1, 13, 13)    \
	X(RXB_CORE, SPI_INTR_CAUSE, PKT_DROP_NO_CRDT, 0, 1)

/* ---- Named constants ---- */
#define GAUDI_DEF_BLOCK(b, addr) inline constexpr uint32_t b##_BASE = (addr)-kNic0CfgBase;
#define GAUDI_DEF_REG(b, r, off) inline constexpr uint32_t b##_##r = (off);
GAUDI_BLOCKS(GAUDI_DEF_BLOCK)
GAUDI_REGS(GAUDI_DEF_REG)
#undef GAUDI_DEF_BLOCK
#undef GAUDI_DEF_REG

/* A register field: lsb and width, as in the *_masks.h SHIFT / MASK pairs. */
struct Field {
	uint32_t lsb;
	uint32_t width;
	constexpr uint32_t mask() const
	{
		return width >= 32 ? 0xFFFFFFFFu : ((1u << width) - 1) << lsb;
	}
	constexpr uint32_t get(uint32_t reg) const { return (reg & mask()) >> lsb; }
	constexpr uint32_t put(uint32_t v) const { return (v << lsb) & mask(); }
};
#define GAUDI_DEF_FIELD(b, r, f, lsb, w) inline constexpr Field b##_##r##_##f{lsb, w};
GAUDI_FIELDS(GAUDI_DEF_FIELD)
GAUDI_FIELDS_RXB(GAUDI_DEF_FIELD)
#undef GAUDI_DEF_FIELD

/* ---- The same rows as data, for the conformance test and the model's map of known offsets ---- */
struct BlockRow {
	const char *block;
	uint32_t cfg_addr;
};
struct RegRow {
	const char *block;
	const char *reg;
	uint32_t off;
};
struct FieldRow {
	const char *block;
	const char *reg;
	const char *field;
	uint32_t lsb;
	uint32_t width;
};
#define GAUDI_ROW_BLOCK(b, a) BlockRow{#b, a},
#define GAUDI_ROW_REG(b, r, o) RegRow{#b, #r, o},
#define GAUDI_ROW_FIELD(b, r, f, l, w) FieldRow{#b, #r, #f, l, w},
inline constexpr BlockRow kBlockRows[] = {GAUDI_BLOCKS(GAUDI_ROW_BLOCK)};
inline constexpr RegRow kRegRows[] = {GAUDI_REGS(GAUDI_ROW_REG)};
inline constexpr FieldRow kFieldRows[] = {GAUDI_FIELDS(GAUDI_ROW_FIELD)
						  GAUDI_FIELDS_RXB(GAUDI_ROW_FIELD)};
#undef GAUDI_ROW_BLOCK
#undef GAUDI_ROW_REG
#undef GAUDI_ROW_FIELD

/* ---- Instances: per-port and per-lane copies ---- */
/* Macro m at m x 0x80000 [gaudi2_regs.h NIC_MACRO offset]. */
constexpr uint32_t macro_base(unsigned port)
{
	return (port / kPortsPerMacro) * kMacroStride;
}
/* NIC_CFG_BASE [gaudi2_cn.h]: odd port's QPC/UMR at +0x20000 (QPC1 - QPC0), RXE/TXS/TXE at
 * +0x1000 (RXE1 - RXE0). */
inline constexpr uint32_t kOddPortLowStride = 0x20000;
inline constexpr uint32_t kOddPortHighStride = 0x1000;
constexpr uint32_t qpc(unsigned port)
{
	return macro_base(port) + QPC_BASE + (port & 1) * kOddPortLowStride;
}
constexpr uint32_t qpc_dbfifosecur(unsigned port)
{
	return macro_base(port) + QPC_DBFIFOSECUR_CI_UPD_ADDR_BASE + (port & 1) * kOddPortLowStride;
}
constexpr uint32_t rxe(unsigned port)
{
	return macro_base(port) + RXE_BASE + (port & 1) * kOddPortHighStride;
}
constexpr uint32_t txe(unsigned port)
{
	return macro_base(port) + TXE_BASE + (port & 1) * kOddPortHighStride;
}
constexpr uint32_t txs(unsigned port)
{
	return macro_base(port) + TXS_BASE + (port & 1) * kOddPortHighStride;
}
/* The port's copy of a QPC AXI-user block (QPC_AXUSER_*_BASE): per port, like the QPC. */
constexpr uint32_t qpc_axuser(unsigned port, uint32_t block_base)
{
	return macro_base(port) + block_base + (port & 1) * kOddPortLowStride;
}
/* RXE AXI user of CQ n: blocks AXUSER_CQ0.. at a fixed stride, per port like the RXE
 * [gaudi2_cn.c config_port_hw_rxe, NIC_RXE_AXUSER_AXUSER_CQ_OFFSET]. */
inline constexpr uint32_t kRxeAxuserCqStride =
	RXE_AXUSER_AXUSER_CQ1_BASE - RXE_AXUSER_AXUSER_CQ0_BASE;
constexpr uint32_t rxe_axuser_cq(unsigned port, unsigned cq)
{
	return macro_base(port) + RXE_AXUSER_AXUSER_CQ0_BASE + (port & 1) * kOddPortHighStride +
	       cq * kRxeAxuserCqStride;
}
/* HB_WR/RD_OVRD_LO value of every AXI user the public driver overrides: all fields overridden
 * but bit 10, the "MMU-BP override" [gaudi2_cn.c, gaudi2_cn_eq.c: 0xFFFFFBFF]. */
inline constexpr uint32_t kAxuserOvrdMmuBp = 0xFFFFFBFF;
/* The CQs of a port's RXE: the raw CQ (0) and the RDMA/user ones, whose AXI users are
 * overridden and whose CQ_CFG is cleared at port open [gaudi2_cn.c config_port_hw_rxe,
 * cn_prop->max_cqs = GAUDI2_NIC_MAX_CQS_NUM]. */
inline constexpr unsigned kRxeCqs = 16;
constexpr uint32_t tmr(unsigned port)
{
	return macro_base(port) + TMR_BASE;
}
constexpr uint32_t rxb(unsigned port)
{
	return macro_base(port) + RXB_CORE_BASE;
}
constexpr uint32_t txb(unsigned port)
{
	return macro_base(port) + TXB_BASE;
}
constexpr uint32_t mac_core(unsigned port)
{
	return macro_base(port) + MAC_CORE_BASE;
}
constexpr uint32_t phy(unsigned port)
{
	return macro_base(port) + PHY_BASE;
}
constexpr uint32_t mac_rs_fec(unsigned port)
{
	return macro_base(port) + MAC_RS_FEC_BASE;
}
constexpr uint32_t mac_stat(unsigned port)
{
	return macro_base(port) + MAC_GLOB_STAT_CONTROL_BASE;
}
/* MAC channels (lanes) of a macro: ch n at + n x MAC_CH_OFFSET [gaudi2_cn.h]. The even port owns
 * lanes 0-1, the odd port lanes 2-3 [gaudi2_cn.c gaudi2_nic_hw_mac_loopback_cfg]. */
inline constexpr uint32_t kMacChStride = 0x1000;
constexpr unsigned mac_lane(unsigned port, unsigned lane_of_port)
{
	return (port & 1) * 2 + lane_of_port;
}
constexpr uint32_t mac_pcs(unsigned port, unsigned lane_of_port)
{
	return macro_base(port) + MAC_PCS_BASE + mac_lane(port, lane_of_port) * kMacChStride;
}
constexpr uint32_t mac_128(unsigned port, unsigned lane_of_port)
{
	return macro_base(port) + MAC_128_BASE + mac_lane(port, lane_of_port) * kMacChStride;
}
/* MAC counters of a port, relative to mac_stat(): the even port reads the lane-0 sets (RX0, TX0),
 * the odd port the lane-2 sets (RX2, TX2) [hbl_cn gaudi2_cn.c counters; register-notes]. */
constexpr uint32_t stat_rx(unsigned port)
{
	return ((port & 1) ? MAC_GLOB_STAT_RX2_BASE : MAC_GLOB_STAT_RX0_BASE) -
	       MAC_GLOB_STAT_CONTROL_BASE;
}
constexpr uint32_t stat_tx(unsigned port)
{
	return ((port & 1) ? MAC_GLOB_STAT_TX2_BASE : MAC_GLOB_STAT_TX0_BASE) -
	       MAC_GLOB_STAT_CONTROL_BASE;
}
/* STATN_CONTROL.PORTMASK bit of a port's counter set (set 0 = lane 0, set 2 = lane 2).
 * [choice] which bit clears which set: the field is published, its per-set meaning is the
 * MoreThanIP statistics block's (one bit per MAC channel); see gaudi_hw_model.rst. */
constexpr uint32_t stat_portmask(unsigned port)
{
	return 1u << ((port & 1) * 2);
}
/* RS-FEC counters of a port: RSFEC (lane 0) or RSFEC2 (lane 2), 16-bit LO/HI halves. */
constexpr uint32_t rsfec_ccw_lo(unsigned port)
{
	return MAC_RS_FEC_RSFEC_CCW_LO +
	       (port & 1) * (MAC_RS_FEC_RSFEC2_CCW_LO - MAC_RS_FEC_RSFEC_CCW_LO);
}
constexpr uint32_t rsfec_ccw_hi(unsigned port)
{
	return rsfec_ccw_lo(port) + (MAC_RS_FEC_RSFEC_CCW_HI - MAC_RS_FEC_RSFEC_CCW_LO);
}
constexpr uint32_t rsfec_nccw_lo(unsigned port)
{
	return rsfec_ccw_lo(port) + (MAC_RS_FEC_RSFEC_NCCW_LO - MAC_RS_FEC_RSFEC_CCW_LO);
}
constexpr uint32_t rsfec_nccw_hi(unsigned port)
{
	return rsfec_ccw_lo(port) + (MAC_RS_FEC_RSFEC_NCCW_HI - MAC_RS_FEC_RSFEC_CCW_LO);
}
/* MAC_FEC91_CFG.FEC91_ENA_IN and MAC_REC_STS0.REC_LINK_STS: one bit per lane of the macro. */
constexpr uint32_t lane_bits(unsigned port)
{
	return 0x3u << ((port & 1) * 2);
}

/* AXUSER blocks of a port: the DB FIFO CI and EQ writers (QPC side, odd port at +0x20000)
 * [gaudi2_blocks_linux_driver.h @base_port1]. */
constexpr uint32_t qpc_axuser_db_fifo(unsigned port)
{
	return qpc_axuser(port, QPC_AXUSER_DB_FIFO_BASE);
}
constexpr uint32_t qpc_axuser_ev_que(unsigned port)
{
	return qpc_axuser(port, QPC_AXUSER_EV_QUE_LBW_INTR_BASE);
}
/* TXE PRIO_TO_DSCP_0: priority 0 -> DSCP 0, 1 -> 0, 2 -> 16, 3 -> 24, a byte each
 * [gaudi2_cn.c config_port_hw_txe 0x18100000]. */
inline constexpr uint32_t kPrioToDscp0 = 0x18100000;
/* TXB TDM_PORT_ARB_MASK per speed [gaudi2_cn.c gaudi2_cn_config_hw_txb]. */
inline constexpr uint32_t kTdmPortArbMask25G50G = 0x7BDE;
inline constexpr uint32_t kTdmPortArbMask100G = 0xBBEE;
/* RXB static credits and drop threshold of a port's priority 0: register _0, field FLOW0
 * (MAX_STATIC_CREDITS0) for the even port, FLOW1 (MAX_STATIC_CREDITS1) for the odd one.
 * [choice] hbl_cn writes one value to both fields of all 8 registers ("1 effective priority per
 * port divided between 2 physical ports", gaudi2_cn_config_hw_rxb) and uses priority 0 only
 * (DSCP2PRIO 0, PORT_DEFAULT_PRIO 0); which field is whose port is not published (search:
 * MAX_STATIC_CREDITS, DROP_THRESHOLD in hbl_cn gaudi2: whole-register writes only). See
 * gaudi_hw_model.rst. */
constexpr Field rxb_port_field(unsigned port)
{
	return (port & 1) ? RXB_CORE_MAX_STATIC_CREDITS_0_MAX_STATIC_CREDITS1
			  : RXB_CORE_MAX_STATIC_CREDITS_0_MAX_STATIC_CREDITS0;
}
static_assert(RXB_CORE_DROP_THRESHOLD_0_DROP_THRESHOLD_FLOW0.lsb ==
		      RXB_CORE_MAX_STATIC_CREDITS_0_MAX_STATIC_CREDITS0.lsb &&
	      RXB_CORE_DROP_THRESHOLD_0_DROP_THRESHOLD_FLOW1.lsb ==
		      RXB_CORE_MAX_STATIC_CREDITS_0_MAX_STATIC_CREDITS1.lsb);

/* RXB filters: index 0 serves the even port, 2 the odd port [gaudi2_cn.c config_hw_mac_filter]. */
constexpr uint32_t rxb_index(unsigned port)
{
	return (port & 1) * 2;
}
/* The register of port's filter in the RXB_CORE_TS_{RAW0,RC}_MAC_* arrays whose entry 0 is reg0. */
constexpr uint32_t rxb_filter_reg(uint32_t reg0, unsigned port)
{
	return reg0 + 4 * rxb_index(port);
}
/* XOFF/XON thresholds of PFC priority p (FLOW0/FLOW1 fields written alike, as gaudi2_cn.c does). */
constexpr uint32_t rxb_xoff_threshold(unsigned prio)
{
	return RXB_CORE_XOFF_THRESHOLD_0 + 4 * prio;
}
constexpr uint32_t rxb_xon_threshold(unsigned prio)
{
	return RXB_CORE_XON_THRESHOLD_0 + 4 * prio;
}
/* RXB_CORE per port/priority arrays of 8 (MAX_STATIC_CREDITS_i, DROP_THRESHOLD_i,
 * DROP_SMALL_THRESHOLD_i, XOFF/XON_THRESHOLD_i, DSCP2PRIO_i): entry i of the array whose entry 0
 * is reg0 [nic0_rxb_core_regs.h, 4-byte stride]. */
inline constexpr unsigned kRxbPrioRegs = 8;
constexpr uint32_t rxb_prio_reg(uint32_t reg0, unsigned i)
{
	return reg0 + 4 * i;
}
/* 128-byte RXB buffers of a macro [gaudi2_cn.h RXB_NUM_BUFFS]. */
inline constexpr uint32_t kRxbBuffers = 2880;
/* MAC_128 pause quanta / thresholds of classes 2k, 2k+1: CL01..CL67 from CL01, CL89..CL1415
 * from CL89 [nic0_mac_ch0_mac_128_regs.h]. */
inline constexpr unsigned kMacPauseClasses = 16;
constexpr uint32_t mac_pause_quanta(unsigned cls)
{
	return cls < 8 ? MAC_128_CL01_PAUSE_QUANTA + (cls / 2) * 4
		       : MAC_128_CL89_PAUSE_QUANTA + (cls / 2 - 4) * 4;
}
constexpr uint32_t mac_quanta_thresh(unsigned cls)
{
	return cls < 8 ? MAC_128_CL01_QUANTA_THRESH + (cls / 2) * 4
		       : MAC_128_CL89_QUANTA_THRESH + (cls / 2 - 4) * 4;
}
static_assert(mac_pause_quanta(14) == 0x90 && mac_quanta_thresh(14) == 0xA0);
/* RSFEC_CONTROL of MAC lane l (RSFEC, RSFEC1, RSFEC2, RSFEC3) [nic0_mac_rs_fec_regs.h]. */
constexpr uint32_t rsfec_control(unsigned lane)
{
	return MAC_RS_FEC_RSFEC_CONTROL +
	       lane * (MAC_RS_FEC_RSFEC1_CONTROL - MAC_RS_FEC_RSFEC_CONTROL);
}
/* Alignment marker of PCS virtual lane n, word w (VLn_0: bits 15:0, VLn_1: bits 23:16):
 * VENDOR_VL0..3 for n < 4, VL4..VL19 above [nic0_mac_ch0_mac_pcs_regs.h]. */
inline constexpr unsigned kPcsVls = 20;
constexpr uint32_t pcs_vl(unsigned n, unsigned w)
{
	return n < 4 ? MAC_PCS_VENDOR_VL0_0 + n * (MAC_PCS_VENDOR_VL1_0 - MAC_PCS_VENDOR_VL0_0) +
			       w * (MAC_PCS_VENDOR_VL0_1 - MAC_PCS_VENDOR_VL0_0)
		     : MAC_PCS_VL4_0 + (n - 4) * (MAC_PCS_VL5_0 - MAC_PCS_VL4_0) +
			       w * (MAC_PCS_VL4_1 - MAC_PCS_VL4_0);
}
static_assert(pcs_vl(3, 1) == 0x1B8 && pcs_vl(19, 1) == 0x318);
/* RXE raw ring registers of priority p (copy 0; copy 1 is at +4) [nic0_rxe0_regs.h]. */
inline constexpr uint32_t kRawPrioStride = RXE_RAW_BASE_LO_P1_0 - RXE_RAW_BASE_LO_P0_0;
inline constexpr uint32_t kRawCopyStride = RXE_RAW_BASE_LO_P0_1 - RXE_RAW_BASE_LO_P0_0;
constexpr uint32_t rxe_raw_qpn(unsigned prio)
{
	return RXE_RAW_QPN_P0_0 + prio * (RXE_RAW_QPN_P1_0 - RXE_RAW_QPN_P0_0);
}
constexpr uint32_t rxe_raw_base_lo(unsigned prio)
{
	return RXE_RAW_BASE_LO_P0_0 + prio * kRawPrioStride;
}
constexpr uint32_t rxe_raw_base_hi(unsigned prio)
{
	return RXE_RAW_BASE_HI_P0_0 + prio * kRawPrioStride;
}
constexpr uint32_t rxe_raw_misc(unsigned prio)
{
	return RXE_RAW_MISC_P0_0 + prio * kRawPrioStride;
}
inline constexpr unsigned kRawPriorities = 4;
/* CQ n registers of RXE (CQ_CFG_n, CQ_PI_ADDR_LO_n, ...): 4-byte stride. */
constexpr uint32_t rxe_cq(uint32_t reg0, unsigned cq)
{
	return reg0 + 4 * cq;
}
/* QPC interrupt sources [gaudi2_cn_eq.c]: 9 is the event queue; INTERRUPT_EN holds a WIRE/MSI
 * enable pair per source (WIRE_EN bit 2i, MSI_EN bit 2i+1). */
inline constexpr uint32_t INTR_EQ = 9;
/* [choice] Source 4 for the raw CQ's armed completion (rx_ring0 in the Gaudi1 driver's
 * fs_nic.h list, whose event queue is 9 as on Gaudi2); Gaudi2's public drivers take RX
 * completions from the COMP EQE on source 9 instead. See gaudi_hw_model.rst. */
inline constexpr uint32_t INTR_RX_RING0 = 4;
/* Source 10, the event queue's error (overflow): its wire (INTERRUPT10_WIRE_EN) goes to the
 * device CPU, which reports a NIC SW error event to the host; hbl_cn then finds cause bit 10
 * (0x400) and resets the port [gaudi2_cn.c gaudi2_cn_sw_err_event,
 * gaudi2_cn_eq.c gaudi2_cn_eq_interrupts_enable_conditionally]. */
inline constexpr uint32_t INTR_EQ_ERR = 10;
inline constexpr uint32_t kIntrSources = 11;
constexpr uint32_t intr_bit(uint32_t index)
{
	return 1u << index;
}
constexpr uint32_t intr_msi_en(uint32_t index)
{
	return 1u << (2 * index + 1);
}
constexpr uint32_t intr_wire_en(uint32_t index)
{
	return 1u << (2 * index);
}
/* COMMAND_CONFIG the public driver writes: TX_ENA | RX_ENA | PROMIS_EN | PAUSE_IGNORE |
 * TX_PAD_EN | CNTL_FRAME_ENA = 0x2913 [gaudi2_cn.c hw_mac_port_config]. */
inline constexpr uint32_t CMD_TX_ENA = MAC_128_COMMAND_CONFIG_TX_ENA.mask();
inline constexpr uint32_t CMD_RX_ENA = MAC_128_COMMAND_CONFIG_RX_ENA.mask();
inline constexpr uint32_t CMD_PROMIS_EN = MAC_128_COMMAND_CONFIG_PROMIS_EN.mask();
inline constexpr uint32_t CMD_PAUSE_FWD = MAC_128_COMMAND_CONFIG_PAUSE_FWD.mask();
inline constexpr uint32_t CMD_PAUSE_IGNORE = MAC_128_COMMAND_CONFIG_PAUSE_IGNORE.mask();
inline constexpr uint32_t CMD_TX_PAD_EN = MAC_128_COMMAND_CONFIG_TX_PAD_EN.mask();
inline constexpr uint32_t CMD_CNTL_FRAME_ENA = MAC_128_COMMAND_CONFIG_CNTL_FRAME_ENA.mask();
inline constexpr uint32_t CMD_PFC_MODE = MAC_128_COMMAND_CONFIG_PFC_MODE.mask();
inline constexpr uint32_t CMD_DEFAULT = CMD_TX_ENA | CMD_RX_ENA | CMD_PROMIS_EN | CMD_PAUSE_IGNORE |
					CMD_TX_PAD_EN | CMD_CNTL_FRAME_ENA;
static_assert(CMD_DEFAULT == 0x2913);

} /* namespace gaudi::hw::reg */
