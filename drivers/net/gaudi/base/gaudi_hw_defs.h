/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC: identity and limits as software sees them.
 *
 * Every value cites its public source (files of HabanaAI/drivers.gpu.linux-nic.kernel: hbl_cn
 * gaudi2_cn.[ch], hbl_en gaudi2_en.c, include/linux/net/intel/gaudi2.h; of mainline Linux:
 * habanalabs), or is a [choice] = our decision, listed with its reason and the search behind it
 * in doc/guides/gaudi_hw_model.rst. Silicon data replaces a [choice] here, in one place.
 */
#pragma once

#include <cstdint>

namespace gaudi::hw {

/* PCI identity [hl-thunk-open include/specs/common/pci_ids.h; habanalabs_drv.c]. */
inline constexpr uint16_t kPciVendorHabana = 0x1da3;
inline constexpr uint16_t kPciDeviceGaudi2 = 0x1020;
inline constexpr uint16_t kPciDeviceGaudi2Hl288 = 0x1021;

/* Topology [gaudi2_cn.h NIC_NUMBER_OF_MACROS 12, NIC_NUMBER_OF_ENGINES = 2 per macro]: 24 x
 * 100G ports, 2 lanes per port (4 MAC lanes per macro). */
inline constexpr unsigned kMaxPorts = 24;
inline constexpr unsigned kPortsPerMacro = 2;
inline constexpr unsigned kMacros = 12;
inline constexpr unsigned kLanesPerPort = 2;
inline constexpr uint32_t kPortSpeedMbps = 100000;

/* BAR layout [habanalabs gaudi2.c gaudi2_pci_bars_map, include/gaudi2/gaudi2.h]: BAR0 (256 MB)
 * starts at STM_FLASH_BASE_ADDR 0x1000007FF4000000; the configuration space CFG_BASE
 * 0x1000007FF8000000 is at BAR0 + 0x4000000, and the NIC blocks of macro 0 at CFG + 0x5400000
 * [gaudi2_blocks_linux_driver.h]: BAR0 + 0x9400000. Macro stride 0x80000 [gaudi2_regs.h]. */
inline constexpr unsigned kCfgBar = 0;
inline constexpr uint64_t kCfgBarOffset = 0x4000000;
inline constexpr uint64_t kNicRegionBarOffset = kCfgBarOffset + 0x5400000;
inline constexpr uint64_t kCfgBarSize = 256ull << 20; /* CFG_BAR_SIZE */
inline constexpr uint32_t kMacroStride = 0x80000;
inline constexpr uint32_t kNicRegionSize = kMacros * kMacroStride;

/* MSI-X vector of NIC port p's event queue: GAUDI2_IRQ_NUM_NIC_PORT_FIRST + p [Linux
 * drivers/accel/habanalabs/gaudi2/gaudi2P.h, enum gaudi2_irq_num: EVENT_QUEUE 0
 * (GAUDI2_EVENT_QUEUE_MSIX_IDX), 20 decoder vectors (4 dcores x 2 decoders + 2 shared, normal
 * and abnormal each), COMPLETION 21, NIC_PORT_FIRST 22; gaudi2_nic_eq_request_irqs]. */
inline constexpr unsigned kMsixNicPortFirst = 22;

/* Where the Linux firmware loader looks for files ("habanalabs/gaudi2/...", fw::kBootFitFile
 * etc. in gaudi_fw_if.h): the firmware directory of the distribution. */
inline constexpr const char *kFwSearchDir = "/lib/firmware";
/* Raw Ethernet QP [gaudi2_en.c, gaudi2_cn.c]: QPN 0, transport RAW, one raw CQ (CQ 0). */
inline constexpr uint32_t kRawQpn = 0;
inline constexpr uint32_t kRawCq = 0;

/* MTU and frame sizes. HBL_EN_MAX_HEADERS_SZ = 26 (Ethernet header 14 + two VLAN tags 8 +
 * FCS 4) [cn_aux.h]; raw MTU NIC_RAW_MIN_MTU 1024 - 26 .. NIC_RAW_MAX_MTU 8192 - 26
 * [gaudi2_cn.h]. The MAC always takes frames up to NIC_MAC_MAX_FRM_LEN = NIC_MAX_FRM_LEN (8K +
 * 128) + 26 + NIC_MAX_TNL_HDRS (40) = 8386 in FRM_LENGTH [gaudi2_cn.c hw_mac_port_config]; a
 * frame longer than MTU + 26 is dropped by the driver, as hbl_en does (max_frm_len). */
inline constexpr uint32_t kFrameOverhead = 14 + 8 + 4;
inline constexpr uint32_t kMinMtu = 1024 - kFrameOverhead;
inline constexpr uint32_t kMaxMtu = 8192 - kFrameOverhead;
inline constexpr uint32_t kFcsLen = 4;
inline constexpr uint32_t kMaxFrameLen = 8192 + 128;                 /* NIC_MAX_FRM_LEN */
inline constexpr uint32_t kMacMaxFrameLen = kMaxFrameLen + 26 + 40; /* NIC_MAC_MAX_FRM_LEN */
/* Shortest frame the raw TX path takes: the TXE raw-size checker rejects WQEs below
 * WQE_CHECK_CFG5.MAX_RAW_UNSUPPORTED_SIZE = NIC_SKB_PAD_SIZE (187), the work-around for
 * hardware bug H6-3399 (bigger frames slow the rate at which the peer's MAC pushes them to RX);
 * the driver pads shorter frames with zeros to this size [gaudi2_cn.c set_txe_checkers,
 * gaudi2_en.c]. Frames longer than WQE_CHECK_CFG4 (NIC_MAX_FRM_LEN) are rejected too. */
inline constexpr uint32_t kTxPadSize = 187;
/* Minimum Ethernet frame without FCS (ETH_ZLEN): the RXE raw minimum size check
 * (PKT_SIZE_CHECK_RAW.MIN) and the padding of frames a host (pcap, TAP) hands to the model. */
inline constexpr uint32_t kMinFrameNoFcs = 60;

/* TX work queue [gaudi2.h WQE layout, gaudi2_en.c]: 32-byte WQEs; WQE index field is 8 bits; LOG_MAX_WQ_SIZE holds
 * log2(entries) - 2. Ring sizes offered: [choice] powers of two 64..4096. */
inline constexpr uint32_t kTxRingMin = 64;
inline constexpr uint32_t kTxRingMax = 4096;
/* RX slot ring [gaudi2_en.c, nic0_rxe0_masks.h]: RAW_MISC holds log2(slot size) in [3:0] and log2(count) in [19:15];
 * the Linux driver uses 256 x 16 KB. [choice] counts 64..4096, slot = pow2 >= max frame. The raw
 * CQ has as many entries as the slot ring (CQ_LOG_MAX_SIZE = 13 allows up to 8 K). */
inline constexpr uint32_t kRxRingMin = 64;
inline constexpr uint32_t kRxRingMax = 4096;
inline constexpr uint32_t kRxSlotMinLog2 = 10;
inline constexpr uint32_t kRxSlotMaxLog2 = 14; /* 16 KB = NIC_RAW_ELEM_SIZE */
inline constexpr uint32_t kCqMaxLog2 = 13;

/* Doorbell FIFO [gaudi2_cn.c, gaudi2_en.c]: 64 entries of 8 bytes, CI DMA-written to host memory. */
inline constexpr uint32_t kDbFifoEntries = 64;
inline constexpr uint32_t kDbFifoCiAlign = 128;

/* Event queue [gaudi2_cn_eq.c]: 16-byte EQEs, PI DMA-written to host memory,
 * SW writes the CI every quarter ring. [choice] 4096 entries per port (Linux: 256 K). */
inline constexpr uint32_t kEqLog2 = 12;

/* Ring base registers named _31_7 hold address bits 31:7: 128-byte alignment [asic_reg
 * *_masks.h]. */
inline constexpr uint32_t kRingAlign = 128;

/* Conformance rows: constants above keyed by the name the project's research digest of the
 * public structures prints them with (sections (a) and (g)); tests/test_regmap_conformance_docs.cpp
 * finds each name in the digest, when it is present, and compares the number given with it. Not in the digest, hence not here: the
 * [choice]s kTxRingMin/kTxRingMax, kRxRingMin/kRxRingMax, kRxSlotMinLog2, kEqLog2; and
 * kLanesPerPort, kPortsPerMacro ("two per macro", in words only), kPortSpeedMbps, kRawCq,
 * kDbFifoCiAlign, kRingAlign, the PCI IDs (not in that digest). */
struct ConstRow {
	const char *name;
	uint64_t value;
};
inline constexpr ConstRow kConstRows[] = {
	{"HBL_EN_MAX_HEADERS_SZ", kFrameOverhead},
	{"FCS", kFcsLen},
	{"NIC_RAW_MIN_MTU", kMinMtu},
	{"NIC_RAW_MAX_MTU", kMaxMtu},
	{"NIC_MAX_FRM_LEN", kMaxFrameLen},
	{"NIC_MAC_MAX_FRM_LEN", kMacMaxFrameLen},
	{"NIC_SKB_PAD_SIZE", kTxPadSize},
	{"ETH_ZLEN", kMinFrameNoFcs},
	{"NIC_RAW_ELEM_SIZE", uint64_t{1} << kRxSlotMaxLog2},
	{"NIC_CQ_MAX_ENTRIES", uint64_t{1} << kCqMaxLog2},
	{"NIC_FIFO_DB_SIZE", kDbFifoEntries},
	{"RAW_QPN", kRawQpn},
	{"CFG_BAR_ID", kCfgBar},
	{"CFG_BAR_SIZE", kCfgBarSize},
	{"CFG_BASE - STM_FLASH_BASE_ADDR", kCfgBarOffset},
	{"NIC0 macro start", kNicRegionBarOffset},
	{"NIC macro stride", kMacroStride},
	{"NIC macros", kMacros},
	{"NIC engines", kMaxPorts},
};

} /* namespace gaudi::hw */
