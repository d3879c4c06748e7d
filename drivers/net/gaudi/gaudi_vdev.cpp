/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: net_gaudi_emu, the NIC as a software model (vdev probe and remove).
 */
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include <bus_vdev_driver.h>
#include <ethdev_driver.h>

#include "emu/gaudi_emu.h"
#include "gaudi_devargs.h"
#include "gaudi_ethdev.h"
#include "gaudi_logs.h"
#include "gaudi_mp.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* The memzone the model shares its registers and MAC counters through (emu::SharedView). */
std::string emu_shm_name(const char *name)
{
	return std::string("gaudi_emu_") + name;
}

int emu_probe_secondary(rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	std::string err;
	auto view = emu::SharedView::attach(emu_shm_name(name), &err);
	if (!view) {
		GAUDI_LOG(ERR, "%s: secondary process: %s", name, err.c_str());
		return -ENODEV;
	}
	auto *ad = new (std::nothrow) gaudi_adapter;
	if (ad == nullptr)
		return -ENOMEM;
	snprintf(ad->name, sizeof(ad->name), "%s", name);
	ad->bar = view->bar();
	ad->nports = view->nports();
	ad->view = std::move(view);
	ad->open_ports = 1;
	int rc = gaudi_attach_ports(&vdev->device, ad);
	if (rc != 0)
		gaudi_remove_ports(&vdev->device);
	gaudi_adapter_put(ad);
	return rc;
}

int emu_probe(rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return emu_probe_secondary(vdev);
	emu::Config cfg;
	std::string err;
	if (!gaudi_parse_devargs(rte_vdev_device_args(vdev), &cfg, &err)) {
		GAUDI_LOG(ERR, "%s: %s", name, err.c_str());
		return -EINVAL;
	}
	{ /* [wires tap/udp] N of net_gaudi_emuN names the default TAPs gaudi<N>p<port> */
		const char *d = name + strlen(name);
		while (d > name && d[-1] >= '0' && d[-1] <= '9')
			d--;
		cfg.instance = static_cast<unsigned>(strtoul(d, nullptr, 10));
	}
	cfg.shm_name = emu_shm_name(name);
	if (cfg.shm_name.size() >= RTE_MEMZONE_NAMESIZE) {
		GAUDI_LOG(NOTICE,
			  "%s: name too long to share the model: secondary processes will "
			  "not attach",
			  name);
		cfg.shm_name.clear();
	}
	auto *ad = new (std::nothrow) gaudi_adapter;
	if (ad == nullptr)
		return -ENOMEM;
	snprintf(ad->name, sizeof(ad->name), "%s", name);
	ad->emu = emu::Device::create(cfg, &err);
	if (!ad->emu) {
		GAUDI_LOG(ERR, "%s: %s", name, err.c_str());
		delete ad;
		return -EINVAL;
	}
	ad->tx_watchdog_ms = cfg.tx_watchdog_ms; /* [faults] */
	ad->bar = ad->emu->bar();
	ad->nports = ad->emu->nports();
	ad->open_ports = 1; /* probe's own reference while ports are created */
	for (unsigned p = 0; p < ad->nports; p++) {
		uint8_t mac[6];
		ad->emu->fw_mac_addr(p, mac);
		int rc = gaudi_port_create(ad, &vdev->device, p, mac);
		if (rc != 0) {
			gaudi_remove_ports(&vdev->device);
			gaudi_adapter_put(ad);
			return rc;
		}
	}
	gaudi_adapter_put(ad);
	return 0;
}

int emu_remove(rte_vdev_device *vdev)
{
	return gaudi_remove_ports(&vdev->device);
}

rte_vdev_driver gaudi_emu_driver = {
	.next = {},
	.driver = {},
	.probe = emu_probe,
	.remove = emu_remove,
};
} // namespace

RTE_PMD_REGISTER_VDEV(net_gaudi_emu, gaudi_emu_driver);
RTE_PMD_REGISTER_PARAM_STRING(
	net_gaudi_emu, "ports=<1..24> wire=loopback|pair|pcap|tap|udp rx_pcap=<port>:<path> "
		       "tx_pcap=<port>:<path> engine=inline|thread "
		       "tap_name=<port>:<ifname> udp_local=[<port>:]<ip>:<udp port> "
		       "udp_remote=[<port>:]<ip>:<udp port> "
		       "fault=<kind>:<port>[:<after frames>[:<arg>]] fault_seed=<n> "
		       "fault_rate=<0..1> fault_kinds=<kind>[+<kind>...] tx_watchdog_ms=<ms> "
		       "strict=<0|1>");
