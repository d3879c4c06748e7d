/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 sync manager (DCORE0_SYNC_MNGR_OBJS): the path of a NIC port's event-queue interrupt
 * to its MSI-X vector, as the public drivers set it up.
 *
 * The QPC cannot write the host's MSI-X doorbell itself (LBW only): its interrupt 9 writes
 * INTERRUPT_DATA_9 to the LBW address INTERRUPT_BASE_9, a sync object (SOB) it increments
 * [hbl_cn gaudi2_cn_eq.c gaudi2_cn_eq_interrupts_enable_conditionally]. A master monitor armed
 * on that SOB (value >= 1) then makes three writes: the interrupt id to the virtual MSI-X
 * doorbell (the host page named in ENABLE_PCI_ACCESS, which the device turns into MSI-X
 * vector <id>), -1 to the SOB, and the re-arm of the master [habanalabs gaudi2.c
 * gaudi2_arm_monitors_for_virt_msix_db, gaudi2_prepare_sm_for_virt_msix_db "NIC EQ
 * interrupts": SOB GAUDI2_RESERVED_SOB_NIC_PORT_FIRST + port, monitors
 * GAUDI2_RESERVED_MON_NIC_PORT_FIRST + 3 * port, interrupt GAUDI2_IRQ_NUM_NIC_PORT_FIRST +
 * port]. Addresses: dcore0_sync_mngr_objs_regs.h; fields: dcore0_sync_mngr_objs_masks.h and
 * gaudi2_masks.h (SOB SIGN); reserved ids: gaudi2P.h (HabanaAI/drivers.gpu.linux-nic.kernel).
 */
#pragma once

#include <cstdint>

#include "gaudi_bar.h"
#include "gaudi_hw_defs.h"
#include "gaudi_regs.h"

namespace gaudi::hw::sm {

using reg::Field;

/* Configuration addresses (DCORE0_SYNC_MNGR_OBJS_*_0; object n at + 4 n). */
inline constexpr uint32_t SOB_OBJ_0 = 0x4100000;
inline constexpr uint32_t MON_PAY_ADDRL_0 = 0x4108000;
inline constexpr uint32_t MON_PAY_ADDRH_0 = 0x410A000;
inline constexpr uint32_t MON_PAY_DATA_0 = 0x410C000;
inline constexpr uint32_t MON_ARM_0 = 0x410E000;
inline constexpr uint32_t MON_CONFIG_0 = 0x4110000;
inline constexpr unsigned kSobs = 8192;	    /* SOB_OBJ_0 .. SOB_OBJ_8191 */
inline constexpr unsigned kMonitors = 2048; /* MON_*_0 .. MON_*_2047 */
/* The window the driver maps: SOB_OBJ_0 up to the end of MON_CONFIG_2047 (BAR0 +
 * kCfgBarOffset + SOB_OBJ_0 on silicon). */
inline constexpr uint32_t kWindowBase = SOB_OBJ_0;
inline constexpr uint32_t kWindowSize = MON_CONFIG_0 + 4 * kMonitors - SOB_OBJ_0;
/* CFG_BASE: the device address of configuration address 0, for monitor payload addresses
 * [gaudi2.c: "addr = CFG_BASE + mmDCORE0_SYNC_MNGR_OBJS_SOB_OBJ_0 + sob_offset"; CFG_BASE in
 * include/gaudi2/gaudi2.h, see gaudi_hw_defs.h kCfgBarOffset]. */
inline constexpr uint64_t kCfgBase = 0x1000007FF8000000ull;

/* SOB_OBJ fields: VAL 14:0, SIGN 15, INC 31 (write: add VAL, negative with SIGN). */
inline constexpr Field SOB_OBJ_VAL{0, 15};
inline constexpr Field SOB_OBJ_SIGN{15, 1};
inline constexpr Field SOB_OBJ_INC{31, 1};
/* MON_ARM: SID 7:0 (SOB group = id / 8), MASK 15:8 (1 = SOB of the group ignored), SOP 16
 * (0: "greater than or equal to"), SOD 31:17 (the value compared with). */
inline constexpr Field MON_ARM_SID{0, 8};
inline constexpr Field MON_ARM_MASK{8, 8};
inline constexpr Field MON_ARM_SOP{16, 1};
inline constexpr Field MON_ARM_SOD{17, 15};
/* MON_CONFIG: WR_NUM 6:5, writes the monitor makes when it fires, minus one ("2": 3 writes,
 * its own payload then the next monitors'). */
inline constexpr Field MON_CONFIG_WR_NUM{5, 2};

/* GAUDI2_SOB_INCREMENT_BY_ONE [gaudi2P.h]: VAL 1 | INC. */
inline constexpr uint32_t kSobIncrementByOne = SOB_OBJ_VAL.put(1) | SOB_OBJ_INC.put(1);
/* The "-1" the second monitor writes: VAL 0x7FFF | SIGN | INC [gaudi2.c]. */
inline constexpr uint32_t kSobDecrementByOne =
	SOB_OBJ_VAL.put(0x7FFF) | SOB_OBJ_SIGN.put(1) | SOB_OBJ_INC.put(1);

/* Reserved ids [gaudi2P.h enum gaudi2_reserved_sob_id / _mon_id]: GAUDI2_MAX_PENDING_CS (64)
 * completion objects, 1 for KDMA, then NUMBER_OF_DEC (10: 4 dcores x 2 + 2 PCIe decoders)
 * normal and 10 abnormal decoder objects (3 monitors each), then the NIC ports'. */
inline constexpr unsigned kMaxPendingCs = 64, kNumberOfDec = 10;
inline constexpr unsigned kSobNicPortFirst = kMaxPendingCs + 1 + 2 * kNumberOfDec;     /* 85 */
inline constexpr unsigned kMonNicPortFirst = kMaxPendingCs + 1 + 2 * 3 * kNumberOfDec; /* 125 */
static_assert(kSobNicPortFirst == 85 && kMonNicPortFirst == 125);

constexpr uint32_t sob_addr(unsigned sob)
{
	return SOB_OBJ_0 + 4 * sob;
}
constexpr unsigned nic_eq_sob(unsigned port)
{
	return kSobNicPortFirst + port;
}
constexpr unsigned nic_eq_first_mon(unsigned port)
{
	return kMonNicPortFirst + 3 * port;
}

/* Arms the three monitors that turn SOB sob >= 1 into a write of interrupt_id to the virtual
 * MSI-X doorbell at msix_db (a device address), in the order gaudi2.c does: SOB to 0, the
 * decrement monitor, the re-arm monitor, then the master's config, payload and arm. sm is the
 * window at kWindowBase. */
inline void arm_virt_msix_db(Bar &sm, unsigned sob, unsigned first_mon, uint32_t interrupt_id,
			     uint64_t msix_db)
{
	auto wr = [&sm](uint32_t cfg_addr, uint32_t v) { sm.wr32(cfg_addr - kWindowBase, v); };
	auto payload = [&wr](unsigned mon, uint64_t addr, uint32_t data) {
		wr(MON_PAY_ADDRL_0 + 4 * mon, uint32_t(addr));
		wr(MON_PAY_ADDRH_0 + 4 * mon, uint32_t(addr >> 32));
		wr(MON_PAY_DATA_0 + 4 * mon, data);
	};
	wr(sob_addr(sob), 0);
	payload(first_mon + 1, kCfgBase + sob_addr(sob), kSobDecrementByOne);
	uint32_t arm = MON_ARM_SID.put(sob / 8) | MON_ARM_MASK.put(~(1u << (sob & 7)) & 0xFF) |
		       MON_ARM_SOP.put(0) | MON_ARM_SOD.put(1);
	payload(first_mon + 2, kCfgBase + MON_ARM_0 + 4 * first_mon, arm);
	wr(MON_CONFIG_0 + 4 * first_mon, MON_CONFIG_WR_NUM.put(2));
	payload(first_mon, msix_db, interrupt_id);
	wr(MON_ARM_0 + 4 * first_mon, arm);
}

/* The NIC ports' EQ interrupts, every port of the device [gaudi2_prepare_sm_for_virt_msix_db]. */
inline void arm_nic_eq_msix(Bar &sm, unsigned nports, uint64_t msix_db)
{
	for (unsigned p = 0; p < nports; p++)
		arm_virt_msix_db(sm, nic_eq_sob(p), nic_eq_first_mon(p), kMsixNicPortFirst + p,
				 msix_db);
}

} /* namespace gaudi::hw::sm */
