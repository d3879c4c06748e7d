/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: net_gaudi, the PCI function through vfio-pci (probe and remove).
 */
#include <cinttypes>
#include <new>

#include <bus_pci_driver.h>
#include <ethdev_driver.h>
#include <ethdev_pci.h>
#include <rte_devargs.h>

#include "emu/gaudi_emu.h" /* gaudi_adapter holds the model */
#include "gaudi_devargs.h"
#include "gaudi_ethdev.h"
#include "gaudi_logs.h"
#include "gaudi_mp.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* net_gaudi's keys, X(name, help, once, handler) (gaudi_devargs.h): the driver's own. */
#define GAUDI_PCI_DEVARGS(X) GAUDI_DRIVER_DEVARGS(X)

constexpr gaudi_devarg_key kPciDevargs[] = {GAUDI_PCI_DEVARGS(GAUDI_DEVARG_KEY)};

int pci_probe(rte_pci_driver *drv, rte_pci_device *pci)
{
	(void)drv;
	const rte_mem_resource &bar0 = pci->mem_resource[kCfgBar];
	if (bar0.addr == nullptr || bar0.len < kNicRegionBarOffset + kNicRegionSize) {
		GAUDI_LOG(ERR, "%s: BAR0 not mapped or too small (%" PRIu64 " bytes)",
			  pci->device.name, bar0.len);
		return -ENODEV;
	}
	gaudi_devargs settings;
	gaudi_devargs_ctx args{&settings, nullptr, {}};
	const char *devargs = pci->device.devargs != nullptr ? pci->device.devargs->args : nullptr;
	if (!gaudi_devargs_parse(devargs, kPciDevargs, &args, nullptr)) {
		GAUDI_LOG(ERR, "%s: %s", pci->device.name, args.err.c_str());
		return -EINVAL;
	}
	auto *ad = new (std::nothrow) gaudi_adapter;
	if (ad == nullptr)
		return -ENOMEM;
	snprintf(ad->name, sizeof(ad->name), "%s", pci->device.name);
	ad->bar = Bar(static_cast<volatile uint8_t *>(bar0.addr) + kNicRegionBarOffset,
		      kNicRegionSize);
	ad->nports = kMaxPorts;
	ad->tx_watchdog_ms = settings.tx_watchdog_ms; /* [faults] */
	ad->open_ports = 1;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		/* EAL maps the BAR in secondaries too; the secondary ops only read it. Untested
		 * on silicon. */
		int rc = gaudi_attach_ports(&pci->device, ad);
		if (rc != 0)
			gaudi_remove_ports(&pci->device);
		gaudi_adapter_put(ad);
		return rc;
	}
	for (unsigned p = 0; p < ad->nports; p++) {
		/* Firmware reports station addresses (cpucp); until that path exists use
		 * locally administered ones derived from the PCI address. */
		uint8_t mac[6] = {0x02,
				  0x1d,
				  0xa3,
				  static_cast<uint8_t>(pci->addr.bus),
				  static_cast<uint8_t>(pci->addr.devid << 3 | pci->addr.function),
				  static_cast<uint8_t>(p)};
		int rc = gaudi_port_create(ad, &pci->device, p, mac);
		if (rc != 0) {
			gaudi_remove_ports(&pci->device);
			gaudi_adapter_put(ad);
			return rc;
		}
	}
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
} // namespace

RTE_PMD_REGISTER_PCI(net_gaudi, gaudi_pci_driver);
RTE_PMD_REGISTER_PCI_TABLE(net_gaudi, gaudi_pci_ids);
RTE_PMD_REGISTER_KMOD_DEP(net_gaudi, "vfio-pci");
RTE_PMD_REGISTER_PARAM_STRING(net_gaudi, GAUDI_PCI_DEVARGS(GAUDI_DEVARG_HELP));
