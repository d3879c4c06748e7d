/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC SerDes ("raven") registers: the window of each port's SerDes, its per-lane and
 * global registers, the fields the PHY bring-up writes, and the MCU mailbox commands.
 *
 * Source: HabanaAI/drivers.gpu.linux-nic.kernel, drivers/net/ethernet/intel/hbl_cn/gaudi2/:
 * asic_reg/nic0_serdes0_regs.h and nic0_serdes1_regs.h (offsets), asic_reg/nic0_serdes0_masks.h
 * (fields), gaudi2_cn_phy.c (NIC_PHY_CFG_BASE, LANE_LO_OFF / LANE_HI_OFF, the command codes
 * and values). These registers are not in the NIC register map (base/gaudi_regmap_published.h); each constant
 * below names its header entry. Offsets are bytes from the NIC region of macro 0 (0x5400000),
 * like base/gaudi_regs.h.
 */
#pragma once

#include <cstdint>

#include "gaudi_hw_defs.h"
#include "gaudi_regs.h"

namespace gaudi::hw::serdes {

/* NIC0_SERDES0_LANE0_REGISTER_0P00 0x5458000, NIC0_SERDES1_LANE0_REGISTER_0P00 0x545C000:
 * the even port of a macro uses SerDes 0, the odd port SerDes 1 [gaudi2_cn_phy.c
 * NIC_PHY_CFG_BASE, NIC_PHY_CFG_SIZE]. */
inline constexpr uint32_t kSerdes0Base = 0x5458000 - reg::kNic0CfgBase;
inline constexpr uint32_t kSerdesStride = 0x545C000 - 0x5458000;
/* Window of one SerDes: 0P00 .. 9F0F (0x545BE3C). */
inline constexpr uint32_t kWindowSize = kSerdesStride;

/* Lane registers below AI00 repeat every LANE_LO_OFF bytes (LANE1_0P00 - LANE0_0P00), those
 * from AI00 up every LANE_HI_OFF (LANE1_AI00 0x545A400 - LANE0_AI00 0x5459000). */
inline constexpr uint32_t kLaneLoStride = 0x5458800 - 0x5458000;
inline constexpr uint32_t kLaneHiStride = 0x545A400 - 0x5459000;
inline constexpr uint32_t kAi00 = 0x5459000 - 0x5458000;

/* ---- Lane 0 registers, offsets in the SerDes window [nic0_serdes0_regs.h] ---- */
inline constexpr uint32_t R_0P11 = 0x044; /* PAM4 state machine (PAM4_SM_CONT 0x2000) */
inline constexpr uint32_t R_0P41 = 0x104; /* PAM4_EN */
inline constexpr uint32_t R_0P42 = 0x108; /* RX_GRAYCODE_EN, RX_PRECODE_EN */
inline constexpr uint32_t R_0P43 = 0x10C; /* RX_DATA_FLIP, PRBS checker, RX_SWAP_MSB_LSB */
inline constexpr uint32_t R_0PA0 = 0x280; /* TX_ANA_OUT_FLIP, TX PRBS generator */
inline constexpr uint32_t R_0PA1 = 0x284; /* TX_TEST_PAT_3 .. 0PA4 TX_TEST_PAT_0 */
inline constexpr uint32_t R_0PA2 = 0x288;
inline constexpr uint32_t R_0PA3 = 0x28C;
inline constexpr uint32_t R_0PA4 = 0x290;
inline constexpr uint32_t R_0PA5 = 0x294; /* TX_PRE_2 */
inline constexpr uint32_t R_0PA7 = 0x29C; /* TX_PRE_1 */
inline constexpr uint32_t R_0PA9 = 0x2A4; /* TX_MAIN */
inline constexpr uint32_t R_0PAB = 0x2AC; /* TX_POST_1 */
inline constexpr uint32_t R_0PAD = 0x2B4; /* TX_POST_2 */
inline constexpr uint32_t R_0PAF = 0x2BC; /* TX gray code, precode, MSB/LSB swap, scales */
inline constexpr uint32_t R_0PB0 = 0x2C0; /* TX NRZ mode and NRZ PRBS generator */
inline constexpr uint32_t R_0PCC = 0x330; /* clock distribution (clock_init first value) */
inline constexpr uint32_t R_0PEA = 0x3A8; /* VDACCLKPHASE0 */
inline constexpr uint32_t R_0PF8 = 0x3E0; /* AC_COUPLE_EN */
inline constexpr uint32_t R_0N0B = 0x42C; /* NRZ state machine (fw_unload_all) */
inline constexpr uint32_t R_0N0C = 0x430;
inline constexpr uint32_t R_0N61 = 0x584; /* PRBS_CHECK_FLIP, NRZ PRBS checker */
inline constexpr uint32_t R_0NF3 = 0x7CC; /* clock distribution (clock_init second value) */
/* Not in nic0_serdes0_regs.h: gaudi2_cn_phy.c set_pll_tx writes absolute 0x54587D4 bit 0
 * ("toggle FRACN LSB for better phase noise") at 50G, which is lane 0 offset 0x7D4, between
 * 0NF3 and 0NF6 (named 0NF5 here by its position). */
inline constexpr uint32_t R_0NF5_FRACN = 0x54587D4 - 0x5458000;
inline constexpr uint32_t R_0NF8 = 0x7E0; /* PU_VDRV: the TX driver */
inline constexpr uint32_t R_AN10 = 0x5459840 - 0x5458000; /* AN/LT mode (0: none) */
inline constexpr uint32_t R_AJ40 = 0x545A100 - 0x5458000; /* ANLT_LANE_SWAPPING_EN */

/* ---- Global registers of a SerDes (one MCU) ---- */
inline constexpr uint32_t R_980D = 0x545BC34 - 0x5458000; /* DOMAIN_RESET */
inline constexpr uint32_t R_980F = 0x545BC3C - 0x5458000; /* FIRMWARE_CTLE_MODE_ADDR: go bit */
inline constexpr uint32_t R_9812 = 0x545BC48 - 0x5458000; /* SPI_DATA: F/W register value */
inline constexpr uint32_t R_9814 = 0x545BC50 - 0x5458000; /* FIRMWARE_EXEC_CTRL (FW2) */
inline constexpr uint32_t R_9815 = 0x545BC54 - 0x5458000; /* command / response */
inline constexpr uint32_t R_9816 = 0x545BC58 - 0x5458000; /* command detail / status B */
inline constexpr uint32_t R_9825 = 0x545BC94 - 0x5458000; /* PLL 0 lock, lock source */
inline constexpr uint32_t R_982E = 0x545BCB8 - 0x5458000; /* PLL 1 lock */
inline constexpr uint32_t R_9F00 = 0x545BE00 - 0x5458000; /* FIRMWARE_DATA_0 (FW0) .. 9F0F */
inline constexpr uint32_t R_9F0C = R_9F00 + 4 * 0xC;	  /* section RAM address bits 31:16 */
inline constexpr uint32_t R_9F0D = R_9F00 + 4 * 0xD;	  /* section RAM address bits 15:0 */
inline constexpr uint32_t R_9F0E = R_9F00 + 4 * 0xE;	  /* section checksum */
inline constexpr uint32_t R_9F0F = R_9F00 + 4 * 0xF;	  /* section command */

/* ---- Fields [nic0_serdes0_masks.h], as reg::Field{lsb, width} ---- */
using reg::Field;
inline constexpr Field F_0P41_PAM4_EN{15, 1};
inline constexpr Field F_0P42_RX_GRAYCODE_EN{0, 1};
inline constexpr Field F_0P42_RX_PRECODE_EN{1, 1};
inline constexpr Field F_0P43_RX_PRBS_AUTO_SYNC_EN{1, 1};
inline constexpr Field F_0P43_PU_PRBS_SYNC_CHKR{3, 1};
inline constexpr Field F_0P43_PU_PRBS_CHKR{4, 1};
inline constexpr Field F_0P43_PRBS_MODE_SEL{5, 2};
inline constexpr Field F_0P43_RX_DATA_FLIP{7, 1};
inline constexpr Field F_0P43_RX_SWAP_MSB_LSB{15, 1};
inline constexpr Field F_0PA0_TX_ANA_OUT_FLIP{5, 1};
inline constexpr Field F_0PA0_TX_PRBS_MODE{8, 2};
inline constexpr Field F_0PA0_TX_PRBS_GEN_EN{11, 1};
inline constexpr Field F_0PA0_TX_PAM4_TEST_EN{13, 1};
inline constexpr Field F_0PA0_TX_PRBS_CLK_EN{14, 1};
inline constexpr Field F_0PA0_TX_TEST_DATA_SRC{15, 1};
inline constexpr Field F_0PA5_TX_PRE_2{8, 8};
inline constexpr Field F_0PA7_TX_PRE_1{8, 8};
inline constexpr Field F_0PA9_TX_MAIN{8, 8};
inline constexpr Field F_0PAB_TX_POST_1{8, 8};
inline constexpr Field F_0PAD_TX_POST_2{8, 8};
inline constexpr Field F_0PAF_TX_PRECODE_EN{8, 1};
inline constexpr Field F_0PAF_TX_GRAYCODE_EN{9, 1};
inline constexpr Field F_0PAF_TX_SWAP_MSB_LSB{10, 1};
inline constexpr Field F_0PB0_TX_HALF_RATE_EN{0, 1};
inline constexpr Field F_0PB0_TX_NRZ_MODE{1, 1};
inline constexpr Field F_0PB0_TX_NRZ_PRBS_GEN_EN{11, 1};
inline constexpr Field F_0PB0_TX_NRZ_PRBS_CLK_EN{14, 1};
inline constexpr Field F_0PEA_VDACCLKPHASE0{6, 7};
inline constexpr Field F_0PF8_AC_COUPLE_EN{10, 1};
inline constexpr Field F_0N61_PRBS_CHKR_EN{10, 1};
inline constexpr Field F_0N61_NRZ_PRBS_MODE_SEL{12, 2};
inline constexpr Field F_0N61_PRBS_CHECK_FLIP{14, 1};
inline constexpr Field F_0NF5_FRACN_LSB{0, 1}; /* gaudi2_cn_phy.c set_pll_tx mask 0x1 */
inline constexpr Field F_0NF8_PU_VDRV{13, 1};
inline constexpr Field F_AJ40_ANLT_LANE_SWAPPING_EN{15, 1};
inline constexpr Field F_980D_DOMAIN_RESET{0, 12};
inline constexpr Field F_9815_RESPONSE{8, 4};
inline constexpr Field F_9825_PLL_LOCK_SRC_SEL{0, 2};
inline constexpr Field F_9825_PLL_0_LOCK_EN{8, 1};
inline constexpr Field F_9825_PLL_0_LOCK_32T_CLK_SEL{15, 1};
inline constexpr Field F_982E_PLL_1_LOCK_EN{8, 1};
inline constexpr Field F_982E_PLL_1_LOCK_32T_CLK_SEL{15, 1};
/* 980F (FIRMWARE_CTLE_MODE_ADDR, one 16-bit field in the header): gaudi2_cn_phy.c fw_config
 * clears bit 15 ("go bit") before configuring and sets it last; PAM4 sets bits 11 and 8. */
inline constexpr uint32_t k980fGo = 0x8000;
inline constexpr uint32_t k980fPam4A = 0x800;
inline constexpr uint32_t k980fPam4B = 0x100;

/* DOMAIN_RESET values [gaudi2_cn_phy.c soft_reset, cpu_reset, logic_reset]. */
inline constexpr uint32_t kResetSoft = 0x888;
inline constexpr uint32_t kResetCpu = 0xAAA;
inline constexpr uint32_t kResetLogic = 0x777;

/* ---- MCU mailbox [gaudi2_cn_phy.c fw_cmd and callers] ---- */
/* The response nibble 9815[11:8] each command family expects. */
inline constexpr uint32_t kResStart = 0x8;	   /* 0x80Cx NRZ / 0x80Dx PAM4 start */
inline constexpr uint32_t kResStartTx = 0x7;	   /* 0x70xx TX-only start (lane swap) */
inline constexpr uint32_t kResConfig = 0xE;	   /* 0x6xxx vcocap, 0xE010 / 0xE020 F/W reg */
inline constexpr uint32_t kResDebug = 0xB;	   /* 0xBxxx rv_debug */
inline constexpr uint32_t kResInfo = 0xF;	   /* 0xF000 hash, 0xF001 CRC */
inline constexpr uint32_t kCmdStartNrz = 0x80C0;   /* | lane, detail speed 0x3 */
inline constexpr uint32_t kCmdStartPam4 = 0x80D0;  /* | lane, detail speed 0x9 */
inline constexpr uint32_t kSpeedNrz = 0x3;
inline constexpr uint32_t kSpeedPam4 = 0x9;
inline constexpr uint32_t kCmdVcocap = 0x6000;	   /* | mode << 4 | lane, detail: the value */
inline constexpr uint32_t kCmdGetFwReg = 0xE010;   /* detail: F/W address; value in 9812 */
inline constexpr uint32_t kCmdSetFwReg = 0xE020;   /* 9812: value; detail: F/W address */
inline constexpr uint32_t kCmdRvDebug = 0xB000;	   /* + (mode & 0xF) << 4 + lane, detail index */
inline constexpr uint32_t kCmdHash = 0xF000;	   /* hash: (res & 0xFF) << 16 | 9816 */
inline constexpr uint32_t kCmdCrc = 0xF001;	   /* CRC in 9816 */
inline constexpr uint32_t kCmdSilenceRx = 0x9000;  /* | lane, written at port stop, no answer */
/* F/W registers (get/set_fw_reg addresses). */
inline constexpr uint32_t kFwRegLtOption = 366;	   /* lane_swapping_config */
inline constexpr uint32_t kFwRegTimeConst = 357;   /* mcu_cal_enable_all */
inline constexpr uint32_t kTimeConstantRatio = 64; /* NIC_PHY_FW_TIME_CONSTANT_RATIO */
/* rv_debug(mode 2 PAM4 / 1 NRZ, index 0): the adaptation state once the F/W tuned the lane
 * [gaudi2_cn_phy.c fw_tuning]. */
inline constexpr uint32_t kTunedPam4 = 0x8F00;
inline constexpr uint32_t kTunedPam4Alt = 0x8F80;
inline constexpr uint32_t kTunedNrz = 0x9A00;
/* F/W CRCs gaudi2_cn_phy.c knows: the very old image the init refuses, and the one with
 * AN/LT support. */
inline constexpr uint32_t kCrcOldFw = 0x1723;
inline constexpr uint32_t kCrcAnltFw = 0x185E;

/* ---- Firmware load protocol [gaudi2_cn_phy.c gaudi2_cn_phy_fw_load_all] ---- */
inline constexpr uint32_t kImageSkip = 0x1000;	   /* the image starts 4 KB into the file */
inline constexpr uint32_t kImageHeader = 20;	   /* hash, CRC, date, entry, length, RAM addr */
inline constexpr uint32_t kImageEntryOff = 8;	   /* big-endian 32-bit fields */
inline constexpr uint32_t kImageLengthOff = 12;
inline constexpr uint32_t kImageRamAddrOff = 16;
inline constexpr uint32_t kSectionWords = 12;	   /* 16-bit data words per section (9F00..9F0B) */
inline constexpr uint32_t kSectionBytes = 24;	   /* DIV_ROUND_UP(length, 24) sections */
inline constexpr uint32_t kFwExecCtrlHalt = 0xFFF0; /* 9814: MCU halted for load/unload */
inline constexpr uint32_t kSectionCmd = 0x800C;	   /* 9F0F: write the section; checksum seed */
inline constexpr uint32_t kExecCmd = 0x4000;	   /* 9F0F: jump to the entry point */
inline constexpr uint32_t k0P11SmCont = 0x2000;	   /* fw_unload_all PAM4 toggle */
inline constexpr uint32_t k0N0CNrzCont = 0x8000;   /* fw_unload_all NRZ toggle */

/* clock_init values [gaudi2_cn_phy.c]: 0PCC then 0NF3, by SerDes (port & 1) and lane. */
constexpr uint32_t clock_init_0pcc(unsigned port, unsigned lane)
{
	return ((port & 1) == 0 && lane == 0) ? 0x59E0 : 0xA9E0;
}
constexpr uint32_t clock_init_0nf3(unsigned port, unsigned lane)
{
	return ((port & 1) == 0 && lane == 0) ? 0x9B5E : 0x9B9E;
}

/* ---- Addresses ---- */
/* The SerDes window of a port. */
constexpr uint32_t base(unsigned port)
{
	return reg::macro_base(port) + kSerdes0Base + (port & 1) * kSerdesStride;
}
/* A lane register (r: its lane-0 offset in the window) of lane `lane` [LANE_OFF]. */
constexpr uint32_t lane_reg(uint32_t r, unsigned lane)
{
	return r + lane * (r < kAi00 ? kLaneLoStride : kLaneHiStride);
}

/* PHY_ASYNC_LANE_SWAP value from the firmware's per-macro tx_swap_map (a nibble per lane:
 * 0x3210 is lanes 3/2/1/0), 2 bits per TX lane [gaudi2_cn_phy.c FW_PARSE_LANE_MAP,
 * NIC_MAC_LANE_MAP, set_fw_lane_mapping]. */
constexpr uint32_t lane_swap_from_fw(uint16_t tx_swap_map)
{
	uint32_t v = 0;
	for (unsigned l = 0; l < 4; l++)
		v |= ((uint32_t(tx_swap_map) >> (4 * l)) & 0x3) << (2 * l);
	return v;
}

/* NIC_PHY_TX/RX_POL_MASK_HL225 [gaudi2_cn_phy.c]: a bit per lane, (port << 1) + lane. */
inline constexpr uint64_t kPolTxMaskHl225 = 0xF00000000430ull;
inline constexpr uint64_t kPolRxMaskHl225 = 0x0FFFFFFFFBCFull;
/* default_cn_mac_lane_remap [gaudi2_cn_phy.c] for HL-225 in tx_swap_map form: macro 0 maps
 * TX lanes (3, 1, 0, 2), macro 11 (1, 0, 3, 2); the others keep the power-on mapping. */
inline constexpr uint16_t kTxSwapHl225Macro0 = 0x2013;
inline constexpr uint16_t kTxSwapHl225Macro11 = 0x2301;

} /* namespace gaudi::hw::serdes */
