/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 firmware interface: the boot-status and CPU-queue registers, the COMMS (dynamic
 * firmware load) protocol, the cpucp packet and the NIC's cpucp opcodes and reply layouts.
 *
 * Sources (mainline Linux unless noted):
 *   [PSOC]  drivers/accel/habanalabs/include/gaudi2/asic_reg/psoc_global_conf_regs.h
 *   [CPUIF] drivers/accel/habanalabs/include/gaudi2/asic_reg/cpu_if_regs.h
 *   [G2MAP] drivers/accel/habanalabs/include/gaudi2/gaudi2_reg_map.h (scratchpad roles)
 *   [G2INC] drivers/accel/habanalabs/include/gaudi2/gaudi2.h (address map)
 *   [BOOT]  include/linux/habanalabs/hl_boot_if.h
 *   [CPUCP] include/linux/habanalabs/cpucp_if.h; NIC opcodes from the NIC copy in
 *           HabanaAI/drivers.gpu.linux-nic.kernel include/linux/habanalabs/cpucp_if.h
 *   [FWIF]  drivers/accel/habanalabs/common/firmware_if.c (the host side of both protocols)
 *   [G2P]   drivers/accel/habanalabs/gaudi2/gaudi2P.h (timeouts, file names)
 *   [CNSER] the Gaudi2 network-scaling patch series on dri-devel/netdev (2024-06-13,
 *           "[PATCH 15/15] accel/habanalabs/gaudi2: network scaling support")
 * as the research digest of the structures tabulates them ((e), (f)); the regmap_conformance test
 * checks the rows below against that digest by name. [choice] marks a value no public source
 * gave; each is listed with its search in doc/guides/gaudi_hw_model.rst ("Firmware").
 */
#pragma once

#include <cstddef>
#include <cstdint>

namespace gaudi::hw::fw {

/* ---- Register window ----
 * The firmware registers live in two blocks of the configuration space: PSOC_GLOBAL_CONF
 * (boot status, COMMS command, scratchpads) and CPU_IF (CPU queues). One window covers both:
 * it starts at the first PSOC_GLOBAL_CONF register (mmPSOC_GLOBAL_CONF_NON_RST_FLOPS_0) and
 * ends after the CPU_IF block. Offsets in the window = configuration address - kFwCfgBase;
 * BAR0 offset = configuration address + kCfgBarOffset (gaudi_hw_defs.h). */
inline constexpr uint32_t kFwCfgBase = 0x4C4B000;    /* [PSOC] NON_RST_FLOPS_0 */
inline constexpr uint32_t kCpuIfCfgBase = 0x4CC1000; /* [CPUIF] block (first reg +0x104) */
inline constexpr uint32_t kFwWindowSize = 0x77000;   /* through the CPU_IF block's 4 KB */

/* X(name, register as published, configuration address) */
#define GAUDI_FW_REGS(X)                                                                          \
	/* [PSOC] boot progress and the COMMS command register */                                 \
	X(CPU_BOOT_STATUS, PSOC_GLOBAL_CONF_CPU_BOOT_STATUS, 0x4C4B300)                           \
	X(KMD_MSG_TO_CPU, PSOC_GLOBAL_CONF_KMD_MSG_TO_CPU, 0x4C4B304)                             \
	/* [PSOC][G2MAP] scratchpads the firmware fills: mmCPU_BOOT_DEV_STS0/1,                 \
	 * mmCPU_CMD_STATUS_TO_HOST, mmCPU_BOOT_ERR0/1 */ \
	X(SCRATCHPAD_0, PSOC_GLOBAL_CONF_SCRATCHPAD_0, 0x4C4B100)                                 \
	X(CPU_BOOT_DEV_STS0, PSOC_GLOBAL_CONF_SCRATCHPAD_20, 0x4C4B150)                           \
	X(CPU_BOOT_DEV_STS1, PSOC_GLOBAL_CONF_SCRATCHPAD_21, 0x4C4B154)                           \
	X(CPU_CMD_STATUS_TO_HOST, PSOC_GLOBAL_CONF_SCRATCHPAD_23, 0x4C4B15C)                      \
	X(CPU_BOOT_ERR0, PSOC_GLOBAL_CONF_SCRATCHPAD_24, 0x4C4B160)                               \
	X(CPU_BOOT_ERR1, PSOC_GLOBAL_CONF_SCRATCHPAD_25, 0x4C4B164)                               \
	/* [CPUIF] mmHW_STATE: the dirty flag a previous owner leaves */                          \
	X(HW_STATE, CPU_IF_KMD_HW_DIRTY_STATUS, 0x4CC1174)                                        \
	/* [CPUIF] CPU queues */                                                                  \
	X(PF_PQ_PI, CPU_IF_PF_PQ_PI, 0x4CC1200)                                                   \
	X(PQ_BASE_ADDR_LOW, CPU_IF_PQ_BASE_ADDR_LOW, 0x4CC1204)                                   \
	X(PQ_BASE_ADDR_HIGH, CPU_IF_PQ_BASE_ADDR_HIGH, 0x4CC1208)                                 \
	X(PQ_LENGTH, CPU_IF_PQ_LENGTH, 0x4CC120C)                                                 \
	X(CQ_BASE_ADDR_LOW, CPU_IF_CQ_BASE_ADDR_LOW, 0x4CC1210)                                   \
	X(CQ_BASE_ADDR_HIGH, CPU_IF_CQ_BASE_ADDR_HIGH, 0x4CC1214)                                 \
	X(CQ_LENGTH, CPU_IF_CQ_LENGTH, 0x4CC1218)                                                 \
	X(EQ_BASE_ADDR_LOW, CPU_IF_EQ_BASE_ADDR_LOW, 0x4CC1220)                                   \
	X(EQ_BASE_ADDR_HIGH, CPU_IF_EQ_BASE_ADDR_HIGH, 0x4CC1224)                                 \
	X(EQ_LENGTH, CPU_IF_EQ_LENGTH, 0x4CC1228)                                                 \
	X(EQ_RD_OFFS, CPU_IF_EQ_RD_OFFS, 0x4CC122C)                                               \
	X(QUEUE_INIT, CPU_IF_QUEUE_INIT, 0x4CC1230)

#define GAUDI_FW_DEF_REG(n, r, a) inline constexpr uint32_t n = (a)-kFwCfgBase;
GAUDI_FW_REGS(GAUDI_FW_DEF_REG)
#undef GAUDI_FW_DEF_REG
static_assert(QUEUE_INIT + 4 <= kFwWindowSize);

/* [choice] The register the host writes to interrupt the device CPU after a PI update
 * (cpu_dyn_regs.gic_host_pi_upd_irq) is supplied by the firmware in its COMMS descriptor
 * [FWIF]; the host uses what the descriptor says. The model names SCRATCHPAD_1, the register
 * Gaudi1's gaudi_reg_map.h gives mmGIC_HOST_PI_UPD_IRQ_POLL_REG; no Gaudi2 value was found. */
inline constexpr uint32_t kModelPiUpdIrqCfg = 0x4C4B104; /* PSOC_GLOBAL_CONF_SCRATCHPAD_1 */

struct FwRegRow {
	const char *name;
	const char *reg;
	uint32_t cfg_addr;
};
#define GAUDI_FW_ROW(n, r, a) FwRegRow{#n, #r, a},
inline constexpr FwRegRow kFwRegRows[] = {GAUDI_FW_REGS(GAUDI_FW_ROW)};
#undef GAUDI_FW_ROW

/* ---- Address map [G2INC] ---- */
inline constexpr uint64_t kSramBaseAddr = 0x1000FFFFFD000000ull; /* SRAM_BASE_ADDR */
inline constexpr uint64_t kSramSize = 0x3000000;		 /* SRAM_SIZE, 48 MB */
/* BAR0 holds CFG_REGION_SIZE (192 MB), then BAR0_RSRVD_SIZE (16 MB), then SRAM (48 MB) [G2INC
 * "CFG_BAR_SIZE refers to CFG_REGION_SIZE, BAR0_RSRVD_SIZE and SRAM_SIZE"]. */
inline constexpr uint64_t kSramBar0Offset = 0xC000000ull + 0x1000000ull;
/* Where the boot loader takes the boot FIT in SRAM [BOOT BOOT_FIT_SRAM_OFFSET]. */
inline constexpr uint32_t kBootFitSramOffset = 0x200000;

/* ---- Boot status (enum cpu_boot_status) [BOOT] ---- */
/* X(name, value) */
#define GAUDI_FW_BOOT_STATUS(X)     \
	X(NA, 0)                    \
	X(IN_WFE, 1)                \
	X(DRAM_RDY, 2)              \
	X(SRAM_AVAIL, 3)            \
	X(IN_BTL, 4)                \
	X(IN_PREBOOT, 5)            \
	X(IN_UBOOT, 7)              \
	X(UBOOT_NOT_READY, 10)      \
	X(NIC_FW_RDY, 11)           \
	X(READY_TO_BOOT, 15)        \
	X(WAITING_FOR_BOOT_FIT, 16) \
	X(SECURITY_READY, 17)       \
	X(FW_SHUTDOWN_PREP, 18)

enum class BootStatus : uint32_t {
#define GAUDI_FW_ENUM(n, v) n = v,
	GAUDI_FW_BOOT_STATUS(GAUDI_FW_ENUM)
#undef GAUDI_FW_ENUM
};

/* CPU_BOOT_DEV_STS0 bits (CPU_BOOT_DEV_STS0_*) [BOOT]; a register is valid only with ENABLED. */
#define GAUDI_FW_DEV_STS0(X)         \
	X(SECURITY_EN, 0)            \
	X(DEBUG_EN, 1)               \
	X(WATCHDOG_EN, 2)            \
	X(DRAM_INIT_EN, 3)           \
	X(BMC_WAIT_EN, 4)            \
	X(E2E_CRED_EN, 5)            \
	X(HBM_CRED_EN, 6)            \
	X(RL_EN, 7)                  \
	X(SRAM_SCR_EN, 8)            \
	X(DRAM_SCR_EN, 9)            \
	X(FW_HARD_RST_EN, 10)        \
	X(PLL_INFO_EN, 11)           \
	X(SP_SRAM_EN, 12)            \
	X(CLK_GATE_EN, 13)           \
	X(HBM_ECC_EN, 14)            \
	X(PKT_PI_ACK_EN, 15)         \
	X(FW_LD_COM_EN, 16)          \
	X(FW_IATU_CONF_EN, 17)       \
	X(FW_NIC_MAC_EN, 18)         \
	X(DYN_PLL_EN, 19)            \
	X(GIC_PRIVILEGED_EN, 20)     \
	X(EQ_INDEX_EN, 21)           \
	X(MULTI_IRQ_POLL_EN, 22)     \
	X(FW_NIC_STAT_XPCS91_EN, 23) \
	X(FW_NIC_STAT_EXT_EN, 24)    \
	X(IS_IDLE_CHECK_EN, 25)      \
	X(MAP_HWMON_EN, 26)          \
	X(ENABLED, 31)

/* CPU_BOOT_ERR0 bits (CPU_BOOT_ERR0_*) [BOOT]; valid only with ENABLED. */
#define GAUDI_FW_ERR0(X)              \
	X(DRAM_INIT_FAIL, 0)          \
	X(FIT_CORRUPTED, 1)           \
	X(TS_INIT_FAIL, 2)            \
	X(DRAM_SKIPPED, 3)            \
	X(BMC_WAIT_SKIPPED, 4)        \
	X(NIC_DATA_NOT_RDY, 5)        \
	X(NIC_FW_FAIL, 6)             \
	X(SECURITY_NOT_RDY, 7)        \
	X(SECURITY_FAIL, 8)           \
	X(EFUSE_FAIL, 9)              \
	X(PRI_IMG_VER_FAIL, 10)       \
	X(SEC_IMG_VER_FAIL, 11)       \
	X(PLL_FAIL, 12)               \
	X(DEVICE_UNUSABLE_FAIL, 13)   \
	X(BOOT_FW_CRIT_ERR, 18)       \
	X(BINNING_FAIL, 19)           \
	X(TPM_FAIL, 20)               \
	X(TMP_THRESH_INIT_FAIL, 21)   \
	X(EEPROM_FAIL, 22)            \
	X(ENG_ARC_MEM_SCRUB_FAIL, 23) \
	X(ENABLED, 31)

namespace dev_sts0 {
#define GAUDI_FW_BIT(n, b) inline constexpr uint32_t n = 1u << (b);
GAUDI_FW_DEV_STS0(GAUDI_FW_BIT)
/* CPU_BOOT_DEV_STS0_NIC_MEM_CLEAR_EN, bit 27: the firmware clears the NIC's device memory and
 * initialises the TXS and TMR free lists on request (NIC_CLR_MEM, NIC_INIT_TXS_MEM,
 * NIC_INIT_TMR_MEM) [BOOT, the newer copy the CN series uses: "f/w supports nic hbm memory
 * clear and tmr,txs hbm memory init"]. Kept out of the list above: the digest's DEV_STS0 table
 * stops at bit 26. */
inline constexpr uint32_t NIC_MEM_CLEAR_EN = 1u << 27;
} /* namespace dev_sts0 */
namespace err0 {
GAUDI_FW_ERR0(GAUDI_FW_BIT)
#undef GAUDI_FW_BIT
/* Errors that make the device unusable [FWIF fw_read_errors, the fatal mask], plus the NIC's
 * own: NIC_FW_FAIL means the NICs are unusable [BOOT], so a NIC driver must stop on it too. */
inline constexpr uint32_t kFatal = DRAM_INIT_FAIL | DRAM_SKIPPED | PLL_FAIL | DEVICE_UNUSABLE_FAIL |
				   BINNING_FAIL | EEPROM_FAIL | ENG_ARC_MEM_SCRUB_FAIL |
				   NIC_FW_FAIL;
} /* namespace err0 */

/* mmHW_STATE values (enum hl_device_hw_state, habanalabs.h): 0 clean, 1 dirty. */
inline constexpr uint32_t kHwStateDirty = 1;

/* ---- COMMS: dynamic firmware load [BOOT][FWIF] ---- */
#define GAUDI_FW_COMMS_CMDS(X) \
	X(NOOP, 0)             \
	X(CLR_STS, 1)          \
	X(RST_STATE, 2)        \
	X(PREP_DESC, 3)        \
	X(DATA_RDY, 4)         \
	X(EXEC, 5)             \
	X(RST_DEV, 6)          \
	X(GOTO_WFE, 7)         \
	X(SKIP_BMC, 8)         \
	X(PREP_DESC_ELBI, 10)
#define GAUDI_FW_COMMS_STS(X) \
	X(NOOP, 0)            \
	X(ACK, 1)             \
	X(OK, 2)              \
	X(ERR, 3)             \
	X(VALID_ERR, 4)       \
	X(TIMEOUT_ERR, 5)

enum class CommsCmd : uint32_t {
#define GAUDI_FW_ENUM(n, v) n = v,
	GAUDI_FW_COMMS_CMDS(GAUDI_FW_ENUM)
};
enum class CommsSts : uint32_t {
	GAUDI_FW_COMMS_STS(GAUDI_FW_ENUM)
#undef GAUDI_FW_ENUM
};

/* A bit field of a firmware register or control word: lsb and width. */
struct FwField {
	uint32_t lsb;
	uint32_t width;
	constexpr uint32_t mask() const
	{
		return width >= 32 ? 0xFFFFFFFFu : ((1u << width) - 1) << lsb;
	}
	constexpr uint32_t get(uint32_t v) const { return (v & mask()) >> lsb; }
	constexpr uint32_t put(uint32_t v) const { return (v << lsb) & mask(); }
};
/* KMD_MSG_TO_CPU (struct comms_command): size 24:0 (32 MB max), command 31:27. */
inline constexpr FwField kCommsCmdSize{0, 25};
inline constexpr FwField kCommsCmdCmd{27, 5};
/* CPU_CMD_STATUS_TO_HOST (struct comms_status): RAM offset >> 2 in 25:0, RAM type 27:26
 * (0 SRAM, 1 DRAM), status 31:28. */
inline constexpr FwField kCommsStsOffset{0, 26};
inline constexpr FwField kCommsStsRamType{26, 2};
inline constexpr FwField kCommsStsStatus{28, 4};
inline constexpr uint32_t kCommsOffsetAlignShift = 2;
inline constexpr uint32_t kCommsRamSram = 0, kCommsRamDram = 1;
inline constexpr uint32_t kCommsMaxSize = kCommsCmdSize.mask();

constexpr uint32_t comms_cmd(CommsCmd c, uint32_t size = 0)
{
	return kCommsCmdCmd.put(uint32_t(c)) | kCommsCmdSize.put(size);
}
constexpr uint32_t comms_status(CommsSts s, uint32_t ram_type = 0, uint32_t offset = 0)
{
	return kCommsStsStatus.put(uint32_t(s)) | kCommsStsRamType.put(ram_type) |
	       kCommsStsOffset.put(offset >> kCommsOffsetAlignShift);
}

/* The descriptor the firmware prepares on PREP_DESC (struct lkd_fw_comms_desc) [BOOT]: its
 * header's magic "HCDM", version 3, size = bytes after the header, crc32 over them (the
 * standard CRC-32: the kernel computes ~crc32_le(~0, ...) [FWIF hl_fw_compat_crc32]). */
inline constexpr uint32_t kCommsDescMagic = 0x4843444D; /* HL_COMMS_DESC_MAGIC */
inline constexpr uint8_t kCommsDescVer = 3;		/* HL_COMMS_DESC_VER */
inline constexpr uint32_t kCommsMsgMagic = 0x48434D00;	/* HL_COMMS_MSG_MAGIC_VALUE */
inline constexpr unsigned kVersionMaxLen = 128;		/* VERSION_MAX_LEN */

struct CommsDescHeader {
	uint32_t magic;
	uint32_t crc32;
	uint16_t size;
	uint8_t version;
	uint8_t reserved[5];
};
static_assert(sizeof(CommsDescHeader) == 16);

/* struct cpu_dyn_regs: configuration addresses of the registers the firmware wants the host
 * to use from now on [BOOT]. */
struct CpuDynRegs {
	uint32_t cpu_pq_base_addr_low;
	uint32_t cpu_pq_base_addr_high;
	uint32_t cpu_pq_length;
	uint32_t cpu_pq_init_status;
	uint32_t cpu_eq_base_addr_low;
	uint32_t cpu_eq_base_addr_high;
	uint32_t cpu_eq_length;
	uint32_t cpu_eq_ci;
	uint32_t cpu_cq_base_addr_low;
	uint32_t cpu_cq_base_addr_high;
	uint32_t cpu_cq_length;
	uint32_t cpu_pf_pq_pi;
	uint32_t cpu_boot_dev_sts0;
	uint32_t cpu_boot_dev_sts1;
	uint32_t cpu_boot_err0;
	uint32_t cpu_boot_err1;
	uint32_t cpu_boot_status;
	uint32_t fw_upd_sts;
	uint32_t fw_upd_cmd;
	uint32_t fw_upd_pending_sts;
	uint32_t fuse_ver_offset;
	uint32_t preboot_ver_offset;
	uint32_t uboot_ver_offset;
	uint32_t hw_state;
	uint32_t kmd_msg_to_cpu;
	uint32_t cpu_cmd_status_to_host;
	uint32_t gic_host_pi_upd_irq;
	uint32_t gic_tpc_qm_irq_ctrl;
	uint32_t gic_mme_qm_irq_ctrl;
	uint32_t gic_dma_qm_irq_ctrl;
	uint32_t gic_nic_qm_irq_ctrl;
	uint32_t gic_dma_core_irq_ctrl;
	uint32_t gic_host_halt_irq;
	uint32_t gic_host_ints_irq;
	uint32_t gic_host_soft_rst_irq;
	uint32_t gic_rot_qm_irq_ctrl;
	uint32_t cpu_rst_status;
	uint32_t eng_arc_irq_ctrl;
	uint32_t reserved1[20];
};
static_assert(sizeof(CpuDynRegs) == 58 * 4);

struct LkdFwBinningInfo {
	uint64_t tpc_mask_l;
	uint32_t dec_mask, dram_mask, edma_mask, mme_mask_l, mme_mask_h, rot_mask, xbar_mask;
	uint32_t reserved0;
	uint64_t tpc_mask_h;
	uint64_t nic_mask;
	uint32_t reserved1[8];
};
static_assert(sizeof(LkdFwBinningInfo) == 88);

struct LkdFwAsciiMsg {
	uint8_t valid;
	uint8_t msg_lvl;
	uint8_t reserved[6];
	char msg[128];
};

struct LkdFwCommsDesc {
	CommsDescHeader header;
	CpuDynRegs cpu_dyn_regs;
	char fuse_ver[kVersionMaxLen];
	char cur_fw_ver[kVersionMaxLen];
	char reserved0[kVersionMaxLen];
	uint64_t img_addr; /* device address where the next image goes */
	LkdFwBinningInfo binning_info;
	LkdFwAsciiMsg ascii_msg[4];
	uint32_t rsvd_mem_size_mb;
	char reserved1[4];
};
static_assert(offsetof(LkdFwCommsDesc, img_addr) == 632);
static_assert(sizeof(LkdFwCommsDesc) == 1280);

/* CRC-32 (IEEE 802.3, reflected, init and final xor ~0) as the COMMS descriptor uses it. Not
 * rte_net_crc (RTE_NET_CRC32_ETH is the same CRC): its first call picks a SIMD path for the
 * whole process and logs the choice in every probe; this runs once per image at bring-up. */
constexpr uint32_t comms_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
	}
	return ~c;
}

/* ---- CPU queues [CPUCP][FWIF][G2C gaudi2_init_cpu_queues] ---- */
/* QUEUE_INIT handshake values (enum pq_init_status). */
#define GAUDI_FW_PQ_INIT(X)            \
	X(NA, 0)                       \
	X(READY_FOR_CP, 1)             \
	X(READY_FOR_HOST, 2)           \
	X(READY_FOR_CP_SINGLE_MSI, 3)  \
	X(LEN_NOT_POWER_OF_TWO_ERR, 4) \
	X(ILLEGAL_Q_ADDR_ERR, 5)
enum class PqInit : uint32_t {
#define GAUDI_FW_ENUM(n, v) n = v,
	GAUDI_FW_PQ_INIT(GAUDI_FW_ENUM)
#undef GAUDI_FW_ENUM
};

/* Sizes the public driver gives the queues [HLH]: PQ 4096 buffer descriptors x 16 B
 * (HL_QUEUE_SIZE_IN_BYTES), EQ 64 entries x 64 B (HL_EQ_SIZE_IN_BYTES), CPU-accessible memory
 * 2 MB (HL_CPU_ACCESSIBLE_MEM_SIZE). */
inline constexpr uint32_t kPqBytes = 64 * 1024;
inline constexpr uint32_t kEqBytes = 4 * 1024;
inline constexpr uint32_t kCqBytes = 2 * 1024 * 1024;

/* One PQ entry: struct hl_bd, 16 bytes. ctl carries the producer index after this entry. */
struct PqBd {
	uint64_t ptr; /* IOVA of the packet */
	uint32_t len;
	uint32_t ctl;
};
static_assert(sizeof(PqBd) == 16);
/* The host overwrites a consumed descriptor's ctl with this so a wrapped PI is never
 * mistaken for a new entry [FWIF hl_fw_send_cpu_message]. */
inline constexpr uint32_t kPqBdCtlUsed = 0xFFFFFFFF;

/* ---- CPU event queue [CPUCP cpucp_if.h] ---- */
/* One entry: struct hl_eq_entry, a header (reserved, ctl) and 56 bytes of data
 * (HL_EQ_ENTRY_SIZE 64). The device CPU writes it with ctl.READY set; the host clears ctl and
 * writes its consumer count to EQ_RD_OFFS (CPU_IF_EQ_RD_OFFS). */
struct EqEntry {
	uint32_t reserved;
	uint32_t ctl;
	uint64_t data[7];
};
static_assert(sizeof(EqEntry) == 64);
inline constexpr FwField kEqCtlReady{31, 1};	  /* EQ_CTL_READY_MASK 0x80000000 */
inline constexpr FwField kEqCtlEventType{16, 12}; /* EQ_CTL_EVENT_TYPE_MASK 0x0FFF0000 */
inline constexpr FwField kEqCtlIndex{0, 16};	  /* EQ_CTL_INDEX_MASK 0x0000FFFF */
/* The data of a NIC event: struct hl_eq_nic_intr_cause (intr_type, pad, one intr_cause_data
 * per port of the NIC, MAX_PORTS_PER_NIC 4). */
struct EqNicIntrCause {
	uint32_t intr_type; /* enum hl_nic_interrupt_type, NIC_INTR_NONE 0 */
	uint32_t pad;
	uint64_t intr_cause[4];
};
static_assert(sizeof(EqNicIntrCause) <= sizeof(EqEntry::data));
/* GAUDI2_EVENT_NIC0_SW_ERROR .. NIC11_SW_ERROR: 952 + 4 x NIC macro [gaudi2_async_events.h];
 * habanalabs hands it to hbl_cn gaudi2_cn_sw_err_event, which checks QPC INTERRUPT_CAUSE bit 10
 * of the macro's ports. */
inline constexpr uint32_t kEventNic0SwError = 952;
inline constexpr uint32_t kEventNicSwErrorStride = 4;
constexpr uint32_t event_nic_sw_error(unsigned macro)
{
	return kEventNic0SwError + kEventNicSwErrorStride * macro;
}
static_assert(event_nic_sw_error(11) == 996);

/* ---- cpucp packets [CPUCP] ---- */
struct CpucpPacket {
	uint64_t value; /* value (SET) / result (GET) / addr (buffer IOVA) */
	uint32_t ctl;
	uint32_t fence;
	uint32_t index;	     /* sensor/pll/... index, data_max_size, status_mask */
	uint32_t port_index; /* port_index / macro_index / pkt_subidx */
};
static_assert(sizeof(CpucpPacket) == 24);
static_assert(offsetof(CpucpPacket, ctl) == 8 && offsetof(CpucpPacket, fence) == 12);
static_assert(offsetof(CpucpPacket, index) == 16 && offsetof(CpucpPacket, port_index) == 20);

inline constexpr FwField kPktCtlOpcode{16, 13};	  /* CPUCP_PKT_CTL_OPCODE_MASK 0x1FFF0000 */
inline constexpr FwField kPktCtlRc{12, 4};	  /* CPUCP_PKT_CTL_RC_MASK 0x0000F000 */
inline constexpr uint32_t kFenceVal = 0xFE8CE7A5; /* CPUCP_PACKET_FENCE_VAL */
/* The host presets fence to this before sending [FWIF]. */
inline constexpr uint32_t kFencePreset = 0xFFFFFFFF;

/* enum cpucp_packet_rc */
#define GAUDI_FW_CPUCP_RC(X) \
	X(success, 0)        \
	X(invalid, 1)        \
	X(fault, 2)          \
	X(invalid_pkt, 3)    \
	X(invalid_params, 4)
enum class CpucpRc : uint32_t {
#define GAUDI_FW_ENUM(n, v) n = v,
	GAUDI_FW_CPUCP_RC(GAUDI_FW_ENUM)
#undef GAUDI_FW_ENUM
};

/* The opcodes (enum cpucp_packet_id, numbered from 1) a NIC driver sends [CPUCP][CPUCP NIC
 * copy]. 55 and 68 are named by [CNSER] (gaudi2_nic_unmask_ecc_interrupts,
 * gaudi2_cn_clear_mem); their numbers follow the enum order of the newer vendor copy, which
 * agrees with every number of the NIC copy (see gaudi_hw_model.rst). */
#define GAUDI_FW_OPCODES(X)           \
	X(DISABLE_PCI_ACCESS, 1)      \
	X(ENABLE_PCI_ACCESS, 2)       \
	X(INFO_GET, 14)               \
	X(UNMASK_RAZWI_IRQ_ARRAY, 17) \
	X(TEST, 18)                   \
	X(EEPROM_DATA_GET, 22)        \
	X(NIC_INFO_GET, 23)           \
	X(PLL_INFO_GET, 30)           \
	X(NIC_STATUS, 31)             \
	X(NIC_PFC_SET, 33)            \
	X(NIC_FAULT_GET, 34)          \
	X(NIC_LPBK_SET, 35)           \
	X(NIC_MAC_CFG, 36)            \
	X(MSI_INFO_SET, 37)           \
	X(NIC_XPCS91_REGS_GET, 38)    \
	X(NIC_STAT_REGS_GET, 39)      \
	X(NIC_STAT_REGS_CLR, 40)      \
	X(NIC_STAT_REGS_ALL_GET, 41)  \
	X(NIC_SET_CHECKERS, 51)       \
	X(NIC_WQE_ASID_SET, 54)       \
	X(NIC_ECC_INTRS_UNMASK, 55)   \
	X(NIC_MAC_TX_RESET, 59)       \
	X(NIC_WQE_ASID_UNSET, 61)     \
	X(NIC_INIT_TXS_MEM, 66)       \
	X(NIC_INIT_TMR_MEM, 67)       \
	X(NIC_CLR_MEM, 68)

enum class CpucpOp : uint32_t {
#define GAUDI_FW_ENUM(n, v) n = v,
	GAUDI_FW_OPCODES(GAUDI_FW_ENUM)
#undef GAUDI_FW_ENUM
};

/* NIC_PFC_SET / NIC_LPBK_SET value: bit 0 enable, bits 4:1 lanes (CPUCP_PKT_VAL_*_IN1/IN2). */
inline constexpr FwField kPktValEnable{0, 1};
inline constexpr FwField kPktValLanes{1, 4};
/* NIC_SET_CHECKERS value: type 15:0, check 16, drop 17 (NIC_CHECKERS_*). */
inline constexpr FwField kCheckersType{0, 16};
inline constexpr FwField kCheckersCheck{16, 1};
inline constexpr FwField kCheckersDrop{17, 1};

/* ---- NIC reply layouts [CPUCP] ---- */
inline constexpr unsigned kCpucpMaxNics = 128;	    /* CPUCP_MAX_NICS */
inline constexpr unsigned kCpucpLanesPerNic = 4;    /* CPUCP_LANES_PER_NIC */
inline constexpr unsigned kQsfpEepromMaxLen = 1024; /* CPUCP_NIC_QSFP_EEPROM_MAX_LEN */
inline constexpr unsigned kNicMaskArrLen = (kCpucpMaxNics + 63) / 64;
inline constexpr unsigned kNicPolarityArrLen = (kCpucpMaxNics * kCpucpLanesPerNic + 63) / 64;

struct CpucpNicInfo {
	uint8_t mac_addrs[kCpucpMaxNics][6];
	uint64_t link_mask[kNicMaskArrLen];
	uint64_t pol_tx_mask[kNicPolarityArrLen];
	uint64_t pol_rx_mask[kNicPolarityArrLen];
	uint64_t link_ext_mask[kNicMaskArrLen];
	uint8_t qsfp_eeprom[kQsfpEepromMaxLen];
	uint64_t auto_neg_mask[kNicMaskArrLen];
	uint16_t serdes_type;
	uint16_t tx_swap_map[kCpucpMaxNics];
	uint8_t reserved[6];
};
static_assert(sizeof(CpucpNicInfo) == 2232 && alignof(CpucpNicInfo) == 8);
static_assert(offsetof(CpucpNicInfo, link_mask) == 768);
static_assert(offsetof(CpucpNicInfo, pol_tx_mask) == 784);
static_assert(offsetof(CpucpNicInfo, pol_rx_mask) == 848);
static_assert(offsetof(CpucpNicInfo, link_ext_mask) == 912);
static_assert(offsetof(CpucpNicInfo, qsfp_eeprom) == 928);
static_assert(offsetof(CpucpNicInfo, auto_neg_mask) == 1952);
static_assert(offsetof(CpucpNicInfo, serdes_type) == 1968);
static_assert(offsetof(CpucpNicInfo, tx_swap_map) == 1970);
static_assert(offsetof(CpucpNicInfo, reserved) == 2226);

/* enum cpucp_serdes_type */
enum class SerdesType : uint16_t {
	TYPE_1 = 0,
	TYPE_2 = 1,
	HLS1 = 2,
	HLS1H = 3,
	HLS2 = 4,
	HLS2_TYPE_1 = 5,
	UNKNOWN = 0xFFFF,
};

/* struct cpucp_nic_status, one port (NIC copy: 64 bytes). */
struct CpucpNicStatus {
	uint32_t port;
	uint32_t bad_format_cnt;
	uint32_t responder_out_of_sequence_psn_cnt;
	uint32_t high_ber_reinit;
	uint32_t correctable_err_cnt;
	uint32_t uncorrectable_err_cnt;
	uint32_t retraining_cnt;
	uint8_t up;
	uint8_t pcs_link;
	uint8_t phy_ready;
	uint8_t auto_neg;
	uint32_t timeout_retransmission_cnt;
	uint32_t high_ber_cnt;
	uint32_t pre_fec_ser;
	uint32_t post_fec_ser;
	uint32_t bandwidth;
	uint32_t latency;
	uint32_t port_toggle_cnt;
	uint32_t reserved;
};
static_assert(sizeof(CpucpNicStatus) == 64);
static_assert(offsetof(CpucpNicStatus, up) == 28);
static_assert(offsetof(CpucpNicStatus, timeout_retransmission_cnt) == 32);
static_assert(offsetof(CpucpNicStatus, port_toggle_cnt) == 56);

/* Variable-length packets (struct cpucp_nic_status_packet): header, u32 length (in 32-bit
 * words), then the data at once, at byte 28 [CPUCP]; the host sends the whole rounded up to 8
 * bytes [hbl_cn.c hbl_cn_send_cpucp_status]. The status is copied into data (it is not
 * 8-byte aligned there). */
struct CpucpNicStatusPacket {
	CpucpPacket pkt;
	uint32_t length;
	uint32_t data[sizeof(CpucpNicStatus) / 4];
	uint32_t pad;
};
static_assert(offsetof(CpucpNicStatusPacket, length) == 24);
static_assert(offsetof(CpucpNicStatusPacket, data) == 28);
static_assert(sizeof(CpucpNicStatusPacket) == 96);

/* cpucp_cn_init_hw_mem_packet (NIC_INIT_TXS_MEM / NIC_INIT_TMR_MEM), 40 bytes. */
struct CpucpCnInitHwMemPacket {
	CpucpPacket pkt;
	uint64_t mem_base_addr;
	uint16_t num_entries;
	uint16_t entry_size;
	uint16_t granularity;
	uint16_t pad;
};
static_assert(sizeof(CpucpCnInitHwMemPacket) == 40);
static_assert(offsetof(CpucpCnInitHwMemPacket, mem_base_addr) == 24);

/* cpucp_cn_clear_mem_packet (NIC_CLR_MEM), 40 bytes: the header, then the device address and
 * the byte count to clear [CPUCP NIC copy]. Not in kLayoutRows: the digest has no table of it. */
struct CpucpCnClearMemPacket {
	CpucpPacket pkt;
	uint64_t mem_base_addr;
	uint32_t size;
	uint8_t pad[4];
};
static_assert(sizeof(CpucpCnClearMemPacket) == 40);
static_assert(offsetof(CpucpCnClearMemPacket, mem_base_addr) == 24);
static_assert(offsetof(CpucpCnClearMemPacket, size) == 32);

/* ---- Rows for the conformance test ---- */
struct FwEnumRow {
	const char *name;
	uint64_t value;
};
#define GAUDI_FW_ROW(n, v) FwEnumRow{#n, v},
inline constexpr FwEnumRow kBootStatusRows[] = {GAUDI_FW_BOOT_STATUS(GAUDI_FW_ROW)};
inline constexpr FwEnumRow kDevSts0Rows[] = {GAUDI_FW_DEV_STS0(GAUDI_FW_ROW)};
inline constexpr FwEnumRow kErr0Rows[] = {GAUDI_FW_ERR0(GAUDI_FW_ROW)};
inline constexpr FwEnumRow kCommsCmdRows[] = {GAUDI_FW_COMMS_CMDS(GAUDI_FW_ROW)};
inline constexpr FwEnumRow kCommsStsRows[] = {GAUDI_FW_COMMS_STS(GAUDI_FW_ROW)};
inline constexpr FwEnumRow kOpcodeRows[] = {GAUDI_FW_OPCODES(GAUDI_FW_ROW)};
inline constexpr FwEnumRow kCpucpRcRows[] = {GAUDI_FW_CPUCP_RC(GAUDI_FW_ROW)};
#undef GAUDI_FW_ROW

/* Layout rows: X(struct, field); offset and size come from the declarations above. */
#define GAUDI_FW_LAYOUT(X)                                   \
	X(CpucpPacket, value)                                \
	X(CpucpPacket, ctl)                                  \
	X(CpucpPacket, fence)                                \
	X(CpucpNicInfo, mac_addrs)                           \
	X(CpucpNicInfo, link_mask)                           \
	X(CpucpNicInfo, pol_tx_mask)                         \
	X(CpucpNicInfo, pol_rx_mask)                         \
	X(CpucpNicInfo, link_ext_mask)                       \
	X(CpucpNicInfo, qsfp_eeprom)                         \
	X(CpucpNicInfo, auto_neg_mask)                       \
	X(CpucpNicInfo, serdes_type)                         \
	X(CpucpNicInfo, tx_swap_map)                         \
	X(CpucpNicInfo, reserved)                            \
	X(CpucpNicStatus, port)                              \
	X(CpucpNicStatus, bad_format_cnt)                    \
	X(CpucpNicStatus, responder_out_of_sequence_psn_cnt) \
	X(CpucpNicStatus, high_ber_reinit)                   \
	X(CpucpNicStatus, correctable_err_cnt)               \
	X(CpucpNicStatus, uncorrectable_err_cnt)             \
	X(CpucpNicStatus, retraining_cnt)                    \
	X(CpucpNicStatus, up)                                \
	X(CpucpNicStatus, pcs_link)                          \
	X(CpucpNicStatus, phy_ready)                         \
	X(CpucpNicStatus, auto_neg)                          \
	X(CpucpNicStatus, timeout_retransmission_cnt)        \
	X(CpucpNicStatus, high_ber_cnt)                      \
	X(CpucpNicStatus, pre_fec_ser)                       \
	X(CpucpNicStatus, post_fec_ser)                      \
	X(CpucpNicStatus, bandwidth)                         \
	X(CpucpNicStatus, latency)                           \
	X(CpucpNicStatus, port_toggle_cnt)                   \
	X(CpucpNicStatus, reserved)                          \
	X(CpucpCnInitHwMemPacket, mem_base_addr)             \
	X(CpucpCnInitHwMemPacket, num_entries)               \
	X(CpucpCnInitHwMemPacket, entry_size)                \
	X(CpucpCnInitHwMemPacket, granularity)

struct FwLayoutRow {
	const char *strct;
	const char *field;
	uint32_t offset;
	uint32_t size;
};
#define GAUDI_FW_LAYOUT_ROW(s, f) \
	FwLayoutRow{#s, #f, uint32_t(offsetof(s, f)), uint32_t(sizeof(s::f))},
inline constexpr FwLayoutRow kLayoutRows[] = {GAUDI_FW_LAYOUT(GAUDI_FW_LAYOUT_ROW)};
#undef GAUDI_FW_LAYOUT_ROW

/* ---- Firmware files [G2P][PHYC] ---- */
inline constexpr const char *kBootFitFile = "habanalabs/gaudi2/gaudi2-boot-fit.itb";
inline constexpr const char *kFitFile = "habanalabs/gaudi2/gaudi2-fit.itb";
inline constexpr const char *kPhyFwFile = "habanalabs/gaudi2/gaudi2_cn_fw.bin";

/* ---- Timeouts [G2P][HLH], in microseconds ---- */
inline constexpr uint32_t kPrebootReqTimeoutUs = 25000000; /* GAUDI2_PREBOOT_REQ_TIMEOUT_USEC */
inline constexpr uint32_t kBootFitReqTimeoutUs = 10000000; /* GAUDI2_BOOT_FIT_REQ_TIMEOUT_USEC */
inline constexpr uint32_t kWaitForBlTimeoutUs = 25000000;  /* GAUDI2_WAIT_FOR_BL_TIMEOUT_USEC */
inline constexpr uint32_t kCpuTimeoutUs = 30000000;	   /* GAUDI2_CPU_TIMEOUT_USEC */
inline constexpr uint32_t kMsgToCpuTimeoutUs = 4000000;	   /* GAUDI2_MSG_TO_CPU_TIMEOUT_USEC */
inline constexpr uint32_t kCpucpInfoTimeoutUs = 10000000;  /* HL_CPUCP_INFO_TIMEOUT_USEC */

} /* namespace gaudi::hw::fw */
