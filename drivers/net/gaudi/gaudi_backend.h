/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: the one interface to what differs between the silicon and the software model.
 *
 * Two implementations, and only their files include their backend: gaudi_pci.cpp (net_gaudi:
 * the PCI function through vfio-pci, BAR0 mapping, MSI-X through rte_intr and VFIO eventfds,
 * firmware files from /lib/firmware) and gaudi_vdev.cpp (net_gaudi_emu: the device model,
 * emu::Device, or in a secondary process its emu::SharedView). Everything else is shared and
 * reaches the backend through gaudi_adapter::backend. This interface and the Bar hooks
 * (base/gaudi_bar.h) are the seam between the PMD (librte_net_gaudi.so) and the model: the vdev
 * driver and the model are a plugin of their own, librte_net_gaudi_emu.so.
 *
 * Not here on purpose: the station MACs and the port mask. The firmware reports them
 * (NIC_INFO_GET), which is shared code: gaudi_bringup.
 */
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/gaudi_bar.h"
#include "base/gaudi_fw.h"
#include "base/gaudi_phy.h"
#include "rte_pmd_gaudi.h"

namespace gaudi {

class Backend {
public:
	virtual ~Backend() = default;

	/* The NIC register window (silicon: BAR0 + kNicRegionBarOffset), valid as long as the
	 * backend is: ports keep a pointer to it. */
	virtual hw::Bar &nic_bar() = 0;
	/* The firmware registers' window (silicon: BAR0 + kCfgBarOffset + fw::kFwCfgBase,
	 * fw::kFwWindowSize bytes: boot status, COMMS, CPU queue registers) and the device SRAM
	 * the boot protocol copies images into (silicon: BAR0 + fw::kSramBar0Offset). Not
	 * valid() in a secondary process. */
	virtual hw::Bar &fw_bar() = 0;
	virtual hw::Bar &fw_sram_bar() = 0;
	/* The sync manager objects the EQ interrupt's route to MSI-X uses (hw::sm, silicon:
	 * BAR0 + kCfgBarOffset + sm::kWindowBase, sm::kWindowSize bytes). Not valid() in a
	 * secondary process. */
	virtual hw::Bar &sm_bar() = 0;
	/* How long each firmware step may take: the public driver's timeouts on silicon; the
	 * model's device CPU answers within the register access, so short bounds there. */
	virtual hw::fw::FwTimeouts fw_timeouts() const = 0;
	/* [phy] Waits and poll bounds of the PHY bring-up: the public driver's on silicon. */
	virtual hw::PhyTimings phy_timings() const { return hw::PhyTimings{}; }
	/* NIC ports the register window covers. */
	virtual unsigned nports() const = 0;

	/* Firmware image `name` (fw::kBootFitFile, ...: a path under /lib/firmware, as the
	 * public driver requests it): 0, its bytes and in *path the file they came from (what
	 * later messages about the image name), or a negative errno and a line naming the path
	 * in *err. */
	virtual int read_firmware(const std::string &name, std::vector<uint8_t> *image,
				  std::string *path, std::string *err) const = 0;
	/* True when read_firmware hands out built-in images, no file (the model without fw_dir):
	 * *path is then only the name, and messages say "built-in image" instead. */
	virtual bool firmware_builtin() const { return false; }

	/* The plugged module's EEPROM, SFF-8636 lower page 0 + upper page 00h, for a process
	 * that has not run the bring-up (a secondary): 0, or -ENOTSUP. The primary reads the
	 * copy the firmware reported in NIC_INFO_GET (gaudi_fw_state). */
	static constexpr unsigned kModuleEepromLen = 256;
	virtual int module_eeprom(unsigned port, uint8_t out[kModuleEepromLen]) const = 0;

	/* Whether the device's QPC interrupts reach the eventfds bind_irq names (the EQ's: once
	 * the driver programs its route, base/gaudi_sm.h). When false the driver offers no
	 * interrupts (LSC, Rx) and polls. */
	virtual bool irqs_routed() const = 0;
	/* Send QPC interrupt `index` (reg::INTR_*) of `port` to eventfd fd (-1: nowhere): for
	 * the EQ, MSI-X vector kMsixNicPortFirst + port. 0, -ENOTSUP (no such interrupt on this
	 * backend) or a negative errno. */
	virtual int bind_irq(unsigned port, unsigned index, int fd) = 0;

	/* [faults] Arm fault kind (rte_pmd_gaudi_fault) on port, at once (after_frames 0) or
	 * after that many sent frames: 0, -ENOTSUP (no fault injection), -EINVAL (bad kind or
	 * arg; *err says why), -ENOSPC (too many armed). */
	virtual int inject_fault(unsigned port, unsigned kind, uint64_t after_frames, uint32_t arg,
				 std::string *err) = 0;
	virtual const char *fault_kind_name(unsigned kind) const = 0;
	/* [faults] Faults of every kind that fired on port. */
	virtual uint64_t faults_injected(unsigned port) const = 0;
	/* [faults] Frames the model lost on port's wire (fault wire_drop; 0 on silicon). */
	virtual uint64_t wire_drops(unsigned port) const
	{
		(void)port;
		return 0;
	}

	/* Port stop: write out what the backend buffers (the model's tx pcap files). */
	virtual void flush() = 0;
	/* Firmware version as fw_version_get reports it; false if not known. */
	virtual bool fw_version(std::string *out) const = 0;
	/* [firmware] The model's device-CPU record of port (rte_pmd_gaudi_emu_fw_port_get):
	 * 0, or -ENOTSUP where there is no model (silicon, a secondary). */
	virtual int emu_fw_port(unsigned port, rte_pmd_gaudi_emu_fw_port *out) const
	{
		(void)port;
		(void)out;
		return -ENOTSUP;
	}
};

/* Reads firmware file name whole, for the backends' read_firmware: from /lib/firmware/name,
 * or with fw_dir (devarg) from fw_dir/<last component of name>. 0, or a negative errno and
 * "cannot read firmware file PATH: why" in *err. */
int read_fw_file(const std::string &fw_dir, const std::string &name, std::vector<uint8_t> *image,
		 std::string *path, std::string *err);

} /* namespace gaudi */
