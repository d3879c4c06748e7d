/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: bring-up shared by both probes. See gaudi_bringup.h and
 * doc/guides/gaudi_hw_model.rst for the sequence on silicon and its public sources.
 */
#include "gaudi_bringup.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <span>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ether.h>

#include "base/gaudi_macro.h"
#include "base/gaudi_nic_mem.h"
#include "base/gaudi_port.h"
#include "base/gaudi_sm.h"
#include "gaudi_logs.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* DMA memory of the CPU queue, at the public driver's sizes [gaudi2.c gaudi2_init_cpu_queues,
 * HL_QUEUE_SIZE_IN_BYTES, HL_EQ_SIZE_IN_BYTES, HL_CPU_ACCESSIBLE_MEM_SIZE], then one page
 * for the virtual MSI-X doorbell ENABLE_PCI_ACCESS names [gaudi2.c virt_msix_db]. */
constexpr size_t kPqOff = 0;
constexpr size_t kEqOff = kPqOff + fw::kPqBytes;
constexpr size_t kCqOff = kEqOff + fw::kEqBytes;
constexpr size_t kMsixDbOff = kCqOff + fw::kCqBytes;
constexpr size_t kFwMemLen = kMsixDbOff + 4096;

int fw_errno(fw::FwErr e)
{
	switch (e) {
	case fw::FwErr::boot_state:
	case fw::FwErr::comms_timeout:
	case fw::FwErr::boot_fit_timeout:
	case fw::FwErr::linux_timeout:
	case fw::FwErr::queue_init_timeout:
	case fw::FwErr::cpucp_timeout:
		return -ETIMEDOUT;
	case fw::FwErr::dirty:
		return -EBUSY;
	case fw::FwErr::image_too_large:
	case fw::FwErr::image_rejected:
		return -EINVAL;
	default:
		return -EIO;
	}
}

/* "firmware: <the step's message>" with the errno of the step. */
int step_failed(const fw::FwHost &h, fw::FwErr e, std::string *err)
{
	*err = "firmware: " + h.error();
	return fw_errno(e);
}

/* The same, naming the bring-up step and its object: "firmware: <step>: <message>". */
int step_failed(const fw::FwHost &h, fw::FwErr e, const std::string &step, std::string *err)
{
	*err = "firmware: " + step + ": " + h.error();
	return fw_errno(e);
}

/* Late init's NIC steps [CNSER gaudi2_late_init, after ENABLE_PCI_ACCESS and the NIC clock]:
 * the NIC driver region of device memory cleared by the firmware in chunks of at most 250 MB
 * (gaudi2_cn_clear_mem), then the NIC ECC interrupts unmasked
 * (gaudi2_nic_unmask_ecc_interrupts). Without NIC_MEM_CLEAR_EN the public driver writes the
 * memory itself through the DRAM BAR, which this driver does not map. */
int nic_mem_clear(fw::FwHost &h, std::string *err)
{
	if (!(h.dev_sts0() & fw::dev_sts0::NIC_MEM_CLEAR_EN)) {
		char m[200];
		snprintf(m, sizeof(m),
			 "firmware: CPU_BOOT_DEV_STS0 0x%08x lacks NIC_MEM_CLEAR_EN (bit 27): "
			 "clearing NIC memory through the DRAM BAR is not implemented",
			 h.dev_sts0());
		*err = m;
		return -ENOTSUP;
	}
	for (uint64_t off = 0; off < nicmem::kNicDrvSize; off += nicmem::kClrMemChunk) {
		uint64_t n = std::min(nicmem::kClrMemChunk, nicmem::kNicDrvSize - off);
		fw::FwErr e = h.nic_clr_mem(nicmem::kNicDrvAddr + off, uint32_t(n));
		if (e != fw::FwErr::ok)
			return step_failed(h, e, "NIC memory clear", err);
	}
	fw::FwErr e = h.nic_ecc_intrs_unmask();
	if (e != fw::FwErr::ok)
		return step_failed(h, e, "NIC ECC interrupt unmask", err);
	return 0;
}

/* The devarg speed against the ports opened: a speed=PORT:MBPS names an open port, and the
 * open ports of one macro run one speed (they share its MAC core and TXB: hbl_cn's
 * gaudi2_cn_hw_macro_config takes the even port's speed for both). */
int speed_check(const gaudi_devargs &drv, uint64_t open, uint64_t link, std::string *err)
{
	for (unsigned p = 0; p < kMaxPorts; p++) {
		std::string arg = "devarg speed=" + std::to_string(p) + ":" +
				  std::to_string(speed_mbps(drv.speed[p]));
		if ((drv.speed_named >> p) & 1 && !((open >> p) & 1)) {
			char lm[48];
			snprintf(lm, sizeof(lm), " (NIC_INFO_GET link_mask 0x%" PRIx64 ")", link);
			*err = arg + ": port " + std::to_string(p) +
			       (((link >> p) & 1)
					? " is not opened (port_mask)"
					: std::string(" is masked off by the firmware") + lm);
			return -EINVAL;
		}
		unsigned q = p ^ 1;
		if (p % kPortsPerMacro != 0 && ((open >> p) & 1) && ((open >> q) & 1) &&
		    drv.speed[p] != drv.speed[q]) {
			*err = arg + ": port " + std::to_string(q) + " of the same macro runs " +
			       std::to_string(speed_mbps(drv.speed[q])) +
			       " (the two ports of a macro share its MAC core and TXB, so one "
			       "speed)";
			return -EINVAL;
		}
	}
	return 0;
}

/* hbl_cn core init, then port init, for the ports we drive [CNC gaudi2_cn_macros_hw_config ->
 * gaudi2_cn_hw_macro_config (MAC core, RXB, TXB, TMR); gaudi2_cn_hw_port_config ->
 * gaudi2_cn_config_port_hw_txs, its first step]: each macro's MAC core, RXB and TXB, its timer
 * free list by the firmware (NIC_INIT_TMR_MEM), then the TMR registers; then each port's
 * scheduler free list (NIC_INIT_TXS_MEM), then the TXS registers. */
int nic_sched_init(fw::FwHost &h, hw::Bar &nic, uint64_t open,
		   std::span<const hw::Speed, kMaxPorts> speed, std::string *err)
{
	char what[40];
	for (unsigned m = 0; m < kMacros; m++) {
		unsigned even = m * kPortsPerMacro;
		if (!((open >> even) & ((1u << kPortsPerMacro) - 1)))
			continue;
		/* gaudi2_cn_hw_macro_config: MAC core, RXB and TXB, then TMR (its free list by
		 * the firmware, then its registers). */
		/* hbl_cn takes the even port's speed; both ports agree (speed_check). */
		unsigned sp = (open >> even) & 1 ? even : even + 1;
		macro::config(nic, even, speed[sp]);
		uint64_t a = nicmem::tmr_addr(m);
		fw::FwErr e = h.nic_init_hw_mem(
			fw::CpucpOp::NIC_INIT_TMR_MEM, m, a + nicmem::kTmrFreeOff,
			uint16_t(nicmem::kTmrFreeEntries), uint16_t(nicmem::kTmrEntSize),
			uint16_t(nicmem::kTmrGranularity));
		snprintf(what, sizeof(what), "TMR memory init of macro %u", m);
		if (e != fw::FwErr::ok)
			return step_failed(h, e, what, err);
		nicmem::tmr_config(nic, even, a, nicmem::kNicClkMhz);
	}
	for (unsigned p = 0; p < kMaxPorts; p++) {
		if (!((open >> p) & 1))
			continue;
		uint64_t a = nicmem::txs_addr(p);
		fw::FwErr e = h.nic_init_hw_mem(
			fw::CpucpOp::NIC_INIT_TXS_MEM, p, a + nicmem::kTxsFreeOff,
			uint16_t(nicmem::kTxsFreeEntries), uint16_t(nicmem::kTxsEntSize),
			uint16_t(nicmem::kTxsGranularity));
		snprintf(what, sizeof(what), "TXS memory init of port %u", p);
		if (e != fw::FwErr::ok)
			return step_failed(h, e, what, err);
		nicmem::txs_config(nic, p, a);
	}
	return 0;
}

/* The non-fatal CPU_BOOT_ERR0 bits: one WARNING each, naming it, as fw_read_errors gives
 * each warning its dev_warn line [FWIF]; bring-up goes on. The register is read at preboot
 * and again after the firmware load: *warned holds the bits already reported. */
void warn_boot_bits(const char *name, uint32_t err0, uint32_t *warned)
{
	if (!(err0 & fw::err0::ENABLED))
		return; /* the bits are valid only with ENABLED [BOOT] */
	if (err0 & fw::err0::kFatal)
		return; /* the probe stops on the fatal ones, which its error line names */
	uint32_t bits = err0 & ~(fw::err0::ENABLED | fw::err0::kFatal | *warned);
	*warned |= bits;
	for (unsigned b = 0; b < 32; b++) {
		if (!(bits & (1u << b)))
			continue;
		const char *n = fw::err0_bit_name(b);
		PMD_INIT_LOG(WARNING,
			     "%s: firmware: boot warning: CPU_BOOT_ERR0 bit %u (%s) set; not fatal "
			     "to the NIC, going on",
			     name, b, n != nullptr ? n : "undefined");
	}
}

} /* namespace */

gaudi_fw_state::~gaudi_fw_state()
{
	if (host && pci_access)
		host->disable_pci_access();
	host.reset();
	if (mz != nullptr)
		rte_memzone_free(mz);
}

int gaudi_bringup(Backend &be, const char *name, const gaudi_devargs &drv, gaudi_fw_state *fw,
		  std::vector<gaudi_bringup_port> *ports, std::string *err)
{
	const uint32_t port_mask = drv.port_mask;
	fw->host = std::make_unique<fw::FwHost>(be.fw_bar(), be.fw_sram_bar(), be.fw_timeouts());
	fw::FwHost &h = *fw->host;

	/* 1. Preboot: a ready boot status, a clean device, no fatal boot error [firmware_if.c
	 *    hl_fw_read_preboot_status]. */
	fw::FwErr e = h.read_preboot();
	uint32_t warned = 0;
	if (e == fw::FwErr::ok || e == fw::FwErr::boot_error)
		warn_boot_bits(name, h.boot_err0(), &warned);
	if (e != fw::FwErr::ok)
		return step_failed(h, e, err);

	/* 2. The boot FIT, then the CPU-CP firmware, through the COMMS protocol [firmware_if.c
	 *    hl_fw_dynamic_init_cpu]. A missing file fails the probe with its path. */
	std::vector<uint8_t> boot_fit, fit;
	std::string boot_fit_path, fit_path; /* what the step's messages name */
	int rc = be.read_firmware(fw::kBootFitFile, &boot_fit, &boot_fit_path, err);
	if (rc == 0)
		rc = be.read_firmware(fw::kFitFile, &fit, &fit_path, err);
	if (rc != 0)
		return rc;
	e = h.load_firmware({boot_fit_path.c_str(), boot_fit}, {fit_path.c_str(), fit});
	if (e == fw::FwErr::ok || e == fw::FwErr::boot_error)
		warn_boot_bits(name, h.boot_err0(), &warned);
	if (e != fw::FwErr::ok)
		return step_failed(h, e, err);

	/* 3. The CPU queue [gaudi2.c gaudi2_init_cpu_queues]. */
	char mzname[RTE_MEMZONE_NAMESIZE];
	snprintf(mzname, sizeof(mzname), "gaudi_fw_%s", name);
	fw->mz = rte_memzone_reserve_aligned(mzname, kFwMemLen, SOCKET_ID_ANY,
					     RTE_MEMZONE_IOVA_CONTIG, 4096);
	if (fw->mz == nullptr) {
		*err = std::string("cannot reserve the firmware queue memory (2.1 MB, "
				   "IOVA-contiguous): ") +
		       rte_strerror(rte_errno) +
		       (rte_eal_iova_mode() == RTE_IOVA_PA
				? " (too few free hugepages? with IOVA as PA it needs physically "
				  "adjacent ones: run EAL with --iova-mode=va)"
				: " (too few free hugepages, or -m too small?)");
		return -ENOMEM;
	}
	auto *base = static_cast<uint8_t *>(fw->mz->addr);
	memset(base, 0, kFwMemLen);
	auto at = [&](size_t off, size_t len) {
		return fw::DmaMem{base + off, fw->mz->iova + off, len};
	};
	e = h.init_cpu_queues(at(kPqOff, fw::kPqBytes), at(kEqOff, fw::kEqBytes),
			      at(kCqOff, fw::kCqBytes));
	if (e != fw::FwErr::ok)
		return step_failed(h, e, err);

	/* Quiescence: the NIC's interrupts and EQs are on at power-up; off before any port or
	 *    macro is configured [gaudi2.c gaudi2_hw_init -> gaudi2_cn_quiescence]. */
	hw::nic_quiescence(be.nic_bar(), be.nports());

	/* 4. Late init: the device may reach host memory [gaudi2.c gaudi2_late_init]; then the
	 *    NIC's data [hbl_cn NIC_INFO_GET]. */
	e = h.enable_pci_access(fw->mz->iova + kMsixDbOff);
	if (e != fw::FwErr::ok)
		return step_failed(h, e, err);
	fw->pci_access = true;
	/* The EQ interrupts' monitors: SOB of port p >= 1 -> interrupt 22 + p written to the
	 * virtual MSI-X doorbell [gaudi2.c gaudi2_prepare_sm_for_virt_msix_db, in hw_init]; each
	 * port's QPC points at its SOB when its EQ interrupt is enabled (gaudi_intr.cpp). */
	sm::arm_nic_eq_msix(be.sm_bar(), be.nports(), fw->mz->iova + kMsixDbOff);
	e = h.nic_info_get(&fw->info);
	if (e != fw::FwErr::ok)
		return step_failed(h, e, err);

	/* 5. The ports: those in link_mask, with their station addresses. Ports the firmware
	 *    masks off stay closed (hbl_cn keeps only the ports of link_mask). */
	const uint64_t all = (uint64_t(1) << be.nports()) - 1;
	const uint64_t link = fw->info.link_mask[0] & all;
	if (port_mask != 0 && (port_mask & ~link) != 0) {
		unsigned p = __builtin_ctzll(port_mask & ~link);
		char m[160];
		snprintf(m, sizeof(m),
			 "devarg port_mask=0x%x: port %u is masked off by the firmware "
			 "(NIC_INFO_GET link_mask 0x%" PRIx64 ")",
			 port_mask, p, fw->info.link_mask[0]);
		*err = m;
		return -ENODEV;
	}
	const uint64_t open = port_mask != 0 ? port_mask : link;
	fw->open_mask = open;
	ports->clear();
	for (unsigned p = 0; p < be.nports(); p++) {
		if (!(open & (uint64_t(1) << p))) {
			PMD_INIT_LOG(INFO, "%s: port %u %s", name, p,
				     link & (uint64_t(1) << p) ? "not requested (port_mask)"
							       : "masked off by the firmware");
			continue;
		}
		gaudi_bringup_port bp{p, {}};
		memcpy(bp.mac.data(), fw->info.mac_addrs[p], bp.mac.size());
		rte_ether_addr a;
		memcpy(a.addr_bytes, bp.mac.data(), RTE_ETHER_ADDR_LEN);
		if (!rte_is_valid_assigned_ether_addr(&a)) {
			char m[120];
			snprintf(m, sizeof(m),
				 "firmware: NIC_INFO_GET gives port %u an unusable station "
				 "address " RTE_ETHER_ADDR_PRT_FMT,
				 p, RTE_ETHER_ADDR_BYTES(&a));
			*err = m;
			return -EIO;
		}
		ports->push_back(bp);
	}
	if (ports->empty()) {
		char m[120];
		snprintf(m, sizeof(m),
			 "firmware: no NIC port enabled (NIC_INFO_GET link_mask 0x%" PRIx64 ")",
			 fw->info.link_mask[0]);
		*err = m;
		return -ENODEV;
	}
	/* 6. NIC memory: cleared, ECC interrupts unmasked; then the timer and scheduler free
	 *    lists of the macros and ports we drive, each followed by its registers. */
	rc = speed_check(drv, open, link, err);
	if (rc == 0)
		rc = nic_mem_clear(h, err);
	if (rc == 0)
		rc = nic_sched_init(h, be.nic_bar(), open, drv.speed, err);
	if (rc != 0)
		return rc;
	PMD_INIT_LOG(INFO, "%s: firmware up (boot status %u), link_mask 0x%" PRIx64 ", %zu port(s)",
		     name, h.boot_status(), fw->info.link_mask[0], ports->size());
	return 0;
}
