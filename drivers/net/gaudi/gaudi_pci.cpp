/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: net_gaudi, the PCI function through vfio-pci: its devargs, its Backend (BAR0,
 * MSI-X, firmware files) and its probe (gaudi_backend.h). Untested on silicon.
 */
#include <array>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <bus_pci_driver.h>
#include <ethdev_driver.h>
#include <ethdev_pci.h>
#include <rte_devargs.h>
#include <rte_interrupts.h>

#include "base/gaudi_regs.h"
#include "base/gaudi_sm.h"
#include "gaudi_backend.h"
#include "gaudi_bringup.h"
#include "gaudi_devargs.h"
#include "gaudi_ethdev.h"
#include "gaudi_fw_status.h"
#include "gaudi_logs.h"
#include "gaudi_phy_port.h"
#include "gaudi_mp.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* net_gaudi's keys, X(name, help, once, handler) (gaudi_devargs.h): the driver's own. */
#define GAUDI_PCI_DEVARGS(X) GAUDI_DRIVER_DEVARGS(X)

constexpr gaudi_devarg_key kPciDevargs[] = {GAUDI_PCI_DEVARGS(GAUDI_DEVARG_KEY)};

/* ---- the backend: BAR0 through vfio-pci, MSI-X through rte_intr and VFIO eventfds ---- */

class PciBackend final : public Backend {
public:
	PciBackend(rte_pci_device *pci, std::string fw_dir) : pci_(pci), fw_dir_(std::move(fw_dir))
	{
		auto *bar0 = static_cast<volatile uint8_t *>(pci->mem_resource[kCfgBar].addr);
		nic_ = Bar(bar0 + kNicRegionBarOffset, kNicRegionSize);
		fw_ = Bar(bar0 + kCfgBarOffset + fw::kFwCfgBase, fw::kFwWindowSize);
		sram_ = Bar(bar0 + fw::kSramBar0Offset, fw::kSramSize);
		sm_ = Bar(bar0 + kCfgBarOffset + sm::kWindowBase, sm::kWindowSize);
		efds_.fill(-1);
	}
	~PciBackend() override
	{
		if (msix_on_)
			rte_intr_disable(pci_->intr_handle);
	}
	PciBackend(const PciBackend &) = delete;
	PciBackend &operator=(const PciBackend &) = delete;

	hw::Bar &nic_bar() override { return nic_; }
	hw::Bar &fw_bar() override { return fw_; }
	hw::Bar &fw_sram_bar() override { return sram_; }
	hw::Bar &sm_bar() override { return sm_; }
	hw::fw::FwTimeouts fw_timeouts() const override { return {}; } /* the public driver's */
	unsigned nports() const override { return kMaxPorts; }

	int read_firmware(const std::string &name, std::vector<uint8_t> *image, std::string *path,
			  std::string *err) const override
	{
		return read_fw_file(fw_dir_, name, image, path, err);
	}

	int module_eeprom(unsigned port, uint8_t out[kModuleEepromLen]) const override
	{
		/* The primary reads the firmware's NIC_INFO_GET copy (gaudi_info.cpp); a
		 * secondary has no firmware connection. */
		(void)port;
		(void)out;
		return -ENOTSUP;
	}

	bool irqs_routed() const override
	{
		/* The EQ interrupt reaches MSI-X vector kMsixNicPortFirst + port through the route
		 * the shared code programs (bring-up: the sync-manager monitors; port start:
		 * INTERRUPT_BASE_9/DATA_9, base/gaudi_sm.h), given VFIO MSI-X in the primary.
		 * Untested on silicon. */
		return rte_eal_process_type() == RTE_PROC_PRIMARY &&
		       rte_intr_type_get(pci_->intr_handle) == RTE_INTR_HANDLE_VFIO_MSIX;
	}
	/* The EQ interrupt of port p is MSI-X vector kMsixNicPortFirst + p. rte_intr_enable
	 * programs every vector of the PCI device's handle at once (VFIO_DEVICE_SET_IRQS): vector 0
	 * gets the handle's own eventfd, vector v >= 1 efds[v - 1]; -1 leaves a vector unbound. */
	int bind_irq(unsigned port, unsigned index, int fd) override
	{
		if (index != reg::INTR_EQ || port >= kMaxPorts)
			return -ENOTSUP; /* the raw CQ's interrupt has no known MSI-X vector */
		rte_intr_handle *h = pci_->intr_handle;
		if (rte_intr_type_get(h) != RTE_INTR_HANDLE_VFIO_MSIX)
			return -ENOTSUP;
		efds_[kMsixNicPortFirst + port - RTE_INTR_VEC_RXTX_OFFSET] = fd;
		for (unsigned i = 0; i < efds_.size(); i++)
			if (rte_intr_efds_index_set(h, i, efds_[i]) != 0)
				return -EIO;
		if (rte_intr_nb_efd_set(h, efds_.size()) != 0 ||
		    rte_intr_max_intr_set(h, efds_.size() + RTE_INTR_VEC_RXTX_OFFSET) != 0)
			return -EIO;
		if (msix_on_)
			rte_intr_disable(h);
		msix_on_ = rte_intr_enable(h) == 0;
		return msix_on_ ? 0 : -EIO;
	}

	int inject_fault(unsigned port, unsigned kind, uint64_t after_frames, uint32_t arg,
			 std::string *err) override
	{
		(void)port, (void)kind, (void)after_frames, (void)arg, (void)err;
		return -ENOTSUP; /* the model's; silicon has no fault injection */
	}
	const char *fault_kind_name(unsigned kind) const override
	{
		(void)kind;
		return "?";
	}
	uint64_t faults_injected(unsigned port) const override
	{
		(void)port;
		return 0;
	}

	void flush() override {}
	bool fw_version(std::string *out) const override
	{
		/* The device CPU reports it (cpucp INFO_GET cpucp_version): not read yet. */
		(void)out;
		return false;
	}

private:
	rte_pci_device *pci_;
	std::string fw_dir_;
	Bar nic_, fw_, sram_, sm_;
	/* eventfd of MSI-X vectors 1 .. (kMsixNicPortFirst + kMaxPorts - 1) */
	std::array<int, kMsixNicPortFirst + kMaxPorts - RTE_INTR_VEC_RXTX_OFFSET> efds_;
	bool msix_on_ = false;
};

int pci_probe(rte_pci_driver *drv, rte_pci_device *pci)
{
	(void)drv;
	/* The driver needs VFIO: DMA through the IOMMU and MSI-X through eventfds. EAL maps a
	 * UIO-bound function too, so refuse it here, by name. */
	if (pci->kdrv != RTE_PCI_KDRV_VFIO) {
		PMD_INIT_LOG(ERR,
			     "%s: not bound to vfio-pci (kernel driver %s): bind it with "
			     "dpdk-devbind.py -b vfio-pci %s, with every device of its IOMMU group",
			     pci->device.name,
			     pci->kdrv == RTE_PCI_KDRV_NONE ? "none" : "uio or other",
			     pci->device.name);
		return -ENODEV;
	}
	/* BAR0 holds the configuration space, the NIC and the SRAM window: CFG_BAR_SIZE
	 * [habanalabs gaudi2.c gaudi2_pci_bars_map checks it]. */
	const rte_mem_resource &bar0 = pci->mem_resource[kCfgBar];
	if (bar0.addr == nullptr || bar0.len < kCfgBarSize) {
		PMD_INIT_LOG(ERR,
			     "%s: BAR0 not mapped or smaller than %" PRIu64 " bytes (%" PRIu64 ")",
			     pci->device.name, kCfgBarSize, bar0.len);
		return -ENODEV;
	}
	gaudi_devargs settings;
	gaudi_devargs_ctx args{&settings, nullptr, {}};
	const char *devargs = pci->device.devargs != nullptr ? pci->device.devargs->args : nullptr;
	if (!gaudi_devargs_parse(devargs, kPciDevargs, &args, nullptr)) {
		PMD_INIT_LOG(ERR, "%s: %s", pci->device.name, args.err.c_str());
		return -EINVAL;
	}
	auto *ad = new (std::nothrow) gaudi_adapter;
	auto be = std::unique_ptr<PciBackend>(new (std::nothrow) PciBackend(pci, settings.fw_dir));
	if (ad == nullptr || be == nullptr) {
		delete ad;
		return -ENOMEM;
	}
	snprintf(ad->name, sizeof(ad->name), "%s", pci->device.name);
	ad->nports = be->nports();
	ad->tx_watchdog_ms = settings.tx_watchdog_ms; /* [faults] */
	ad->rx_copy_max = settings.rx_copy_max;
	ad->speed = settings.speed;
	ad->open_ports = 1;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		/* EAL maps the BAR in secondaries too; the secondary ops only read it. Untested
		 * on silicon. */
		ad->backend = std::move(be);
		int rc = gaudi_attach_ports(&pci->device, ad);
		if (rc != 0)
			gaudi_remove_ports(&pci->device);
		gaudi_adapter_put(ad);
		return rc;
	}
	std::vector<gaudi_bringup_port> ports;
	std::string err;
	auto fw = std::make_unique<gaudi_fw_state>();
	int rc = gaudi_bringup(*be, pci->device.name, settings, fw.get(), &ports, &err);
	std::unique_ptr<hw::Phy> phy; /* [phy] */
	if (rc == 0)
		rc = gaudi_phy_bringup(*be, *fw, ports, &phy, &err);
	if (rc != 0) {
		PMD_INIT_LOG(ERR, "%s: %s", pci->device.name, err.c_str());
		phy.reset();
		fw.reset(); /* before the backend whose registers it uses */
		delete ad;
		return rc;
	}
	ad->backend = std::move(be);
	ad->fw = std::move(fw);
	ad->phy = std::move(phy);
	for (const gaudi_bringup_port &bp : ports) {
		rc = gaudi_port_create(ad, &pci->device, bp.hw_port, bp.mac.data());
		if (rc != 0) {
			gaudi_remove_ports(&pci->device);
			gaudi_adapter_put(ad);
			return rc;
		}
	}
	gaudi_fw_status_start(ad, settings.nic_status_ms);
	gaudi_adapter_put(ad);
	return 0;
}

int pci_remove(rte_pci_device *pci)
{
	return gaudi_remove_ports(&pci->device);
}

const rte_pci_id gaudi_pci_ids[] = {
	{RTE_PCI_DEVICE(kPciVendorHabana, kPciDeviceGaudi2)},
	{RTE_PCI_DEVICE(kPciVendorHabana, kPciDeviceGaudi2Hl288)},
	{.vendor_id = 0},
};

rte_pci_driver gaudi_pci_driver = {
	.next = {},
	.driver = {},
	.probe = pci_probe,
	.remove = pci_remove,
	.dma_map = nullptr,
	.dma_unmap = nullptr,
	.id_table = gaudi_pci_ids,
	.drv_flags = RTE_PCI_DRV_NEED_MAPPING,
};
} /* namespace */

RTE_PMD_REGISTER_PCI(net_gaudi, gaudi_pci_driver);
RTE_PMD_REGISTER_PCI_TABLE(net_gaudi, gaudi_pci_ids);
RTE_PMD_REGISTER_KMOD_DEP(net_gaudi, "vfio-pci");
RTE_PMD_REGISTER_PARAM_STRING(net_gaudi, GAUDI_PCI_DEVARGS(GAUDI_DEVARG_HELP));
