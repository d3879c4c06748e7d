/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: net_gaudi_emu, the NIC as a software model: its Backend and its probe
 * (gaudi_backend.h). Its devargs: gaudi_vdev_args.cpp; its telemetry: gaudi_vdev_telemetry.cpp.
 */
#include "gaudi_vdev.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include <bus_vdev_driver.h>
#include <ethdev_driver.h>

#include "base/gaudi_serdes.h"
#include "emu/gaudi_emu.h"
#include "emu/gaudi_emu_log.h"
#include "gaudi_backend.h"
#include "gaudi_bringup.h"
#include "gaudi_devargs.h"
#include "gaudi_ethdev.h"
#include "gaudi_fw_status.h"
#include "gaudi_mp.h"
#include "gaudi_phy_port.h"
#include "gaudi_vdev_args.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* ---- the backend: the model in the primary, its shared registers in a secondary ---- */

class VdevBackend final : public Backend {
public:
	/* Primary: the device model. */
	VdevBackend(std::unique_ptr<emu::Device> dev, std::string fw_dir)
	    : dev_(std::move(dev)), fw_dir_(std::move(fw_dir))
	{
	}
	/* Secondary: read-only view of the primary's model. */
	explicit VdevBackend(std::unique_ptr<emu::SharedView> view) : view_(std::move(view)) {}

	emu::Device *device() { return dev_.get(); }

	hw::Bar &nic_bar() override { return dev_ ? dev_->bar() : view_->bar(); }
	hw::Bar &fw_bar() override { return dev_ ? dev_->fw_bar() : no_bar_; }
	hw::Bar &fw_sram_bar() override { return dev_ ? dev_->fw_sram_bar() : no_bar_; }
	hw::Bar &sm_bar() override { return dev_ ? dev_->sm_bar() : no_bar_; }
	hw::fw::FwTimeouts fw_timeouts() const override
	{
		/* The model's device CPU answers within the register access (either engine), so
		 * each step is bounded at 100 ms: a bring-up fault fails the probe quickly. */
		hw::fw::FwTimeouts t;
		t.preboot_us = t.comms_us = t.boot_fit_us = t.bl_us = t.cpu_us = t.msg_us =
			t.info_us = 100 * 1000;
		t.poll_us = 100;
		return t;
	}
	unsigned nports() const override { return dev_ ? dev_->nports() : view_->nports(); }
	/* [phy] The model's MCU answers within the register access: no waits, short bounds. */
	hw::PhyTimings phy_timings() const override
	{
		hw::PhyTimings t;
		t.cmd_poll_us = t.load_poll_us = t.section_poll_us = 50;
		t.max_polls = 2000; /* 100 ms */
		t.settle_us = t.unload_us = t.exec_us = t.pll_wait_us = t.mac_tx_reset_us =
			t.toggle_us = 0;
		t.tuning_interval_us = 1000;
		/* [choice] 500 ms without tuning (a peer that does not send) before the PHY is
		 * powered up again, so tests see the reconfiguration; 30 s on silicon. */
		t.tuning_timeout_us = 500000;
		return t;
	}

	/* fw_dir= given: the files there, as on silicon. Otherwise a built-in stand-in: the
	 * model's boot protocol takes any image; the PHY image is the model's (its layout is
	 * parsed and loaded section by section). */
	int read_firmware(const std::string &name, std::vector<uint8_t> *image, std::string *path,
			  std::string *err) const override
	{
		if (!fw_dir_.empty())
			return read_fw_file(fw_dir_, name, image, path, err);
		*path = name; /* no file: the name is all there is to tell */
		if (name == hw::fw::kPhyFwFile) {
			*image = emu::Device::phy_fw_image();
			return 0;
		}
		std::string stand_in = "gaudi2 emu firmware stand-in: " + name;
		image->assign(stand_in.begin(), stand_in.end());
		return 0;
	}
	bool firmware_builtin() const override { return fw_dir_.empty(); }

	int module_eeprom(unsigned port, uint8_t out[kModuleEepromLen]) const override
	{
		static_assert(kModuleEepromLen == emu::Device::kModuleEepromLen);
		emu::Device::module_eeprom(port, out);
		return 0;
	}

	bool irqs_routed() const override { return dev_ != nullptr; }
	int bind_irq(unsigned port, unsigned index, int fd) override
	{
		if (!dev_)
			return -ENOTSUP;
		if (index == reg::INTR_EQ) /* as vfio binds the port's MSI-X vector */
			dev_->bind_msix(kMsixNicPortFirst + port, fd);
		else
			dev_->bind_irq(port, index, fd);
		return 0;
	}

	int inject_fault(unsigned port, unsigned kind, uint64_t after_frames, uint32_t arg,
			 std::string *err) override
	{
		if (!dev_)
			return -ENOTSUP;
		if (kind >= emu::kFaultKinds)
			return -EINVAL;
		emu::FaultSpec f;
		f.kind = emu::FaultKind(kind);
		f.port = port;
		f.after_frames = after_frames;
		f.arg = arg;
		if (!dev_->inject_fault(f, err))
			return err->find("too many") != std::string::npos ? -ENOSPC : -EINVAL;
		return 0;
	}
	const char *fault_kind_name(unsigned kind) const override
	{
		return kind < emu::kFaultKinds ? emu::fault_kind_name(emu::FaultKind(kind)) : "?";
	}
	uint64_t faults_injected(unsigned port) const override
	{
		uint64_t n = 0;
		for (unsigned k = 0; dev_ && k < emu::kFaultKinds; k++)
			n += dev_->faults_injected(port, emu::FaultKind(k));
		return n;
	}
	uint64_t wire_drops(unsigned port) const override
	{
		return dev_ ? dev_->faults_injected(port, emu::FaultKind::wire_drop) : 0;
	}

	void flush() override
	{
		if (dev_)
			dev_->flush();
	}
	int emu_fw_port(unsigned port, rte_pmd_gaudi_emu_fw_port *out) const override
	{
		if (!dev_)
			return -ENOTSUP;
		emu::FwCounters c = dev_->fw_counters();
		emu::FwNicPort r = dev_->fw_nic_port(port);
		*out = {};
		out->clr_mem_bytes = c.clr_mem_bytes;
		out->ecc_unmasked = c.ecc_unmasked;
		out->order_refused = uint32_t(c.order_refused);
		if (r.txs.done) {
			out->txs_entries = r.txs.entries;
			out->txs_free_list = r.txs.addr;
			out->txs_granularity = r.txs.granularity;
		}
		if (r.tmr.done) {
			out->tmr_entries = r.tmr.entries;
			out->tmr_free_list = r.tmr.addr;
			out->tmr_granularity = r.tmr.granularity;
		}
		out->nic_status_count = r.status_packets;
		out->status_port = r.status.port;
		out->up = r.status.up;
		out->pcs_link = r.status.pcs_link;
		out->phy_ready = r.status.phy_ready;
		out->auto_neg = r.status.auto_neg;
		out->correctable_err_cnt = r.status.correctable_err_cnt;
		out->uncorrectable_err_cnt = r.status.uncorrectable_err_cnt;
		out->port_toggle_cnt = r.status.port_toggle_cnt;
		return 0;
	}
	bool fw_version(std::string *out) const override
	{
		uint32_t v = emu::Device::kFwVersion;
		*out = "emu-" + std::to_string((v >> 16) & 0xFF) + "." +
		       std::to_string((v >> 8) & 0xFF) + "." + std::to_string(v & 0xFF);
		return true;
	}

private:
	std::unique_ptr<emu::Device> dev_;
	std::unique_ptr<emu::SharedView> view_;
	std::string fw_dir_;
	hw::Bar no_bar_;
};

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
		GAUDI_EMU_LOG(ERR, "%s: secondary process: %s", name, err.c_str());
		return -ENODEV;
	}
	auto *ad = new (std::nothrow) gaudi_adapter;
	auto be = std::unique_ptr<VdevBackend>(new (std::nothrow) VdevBackend(std::move(view)));
	if (ad == nullptr || be == nullptr) {
		delete ad;
		return -ENOMEM;
	}
	snprintf(ad->name, sizeof(ad->name), "%s", name);
	ad->nports = be->nports();
	ad->backend = std::move(be);
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
	EmuArgs ea;
	emu::Config &cfg = ea.cfg;
	gaudi_devargs drv;
	gaudi_devargs_ctx args{&drv, &ea, {}};
	if (!gaudi_devargs_parse(rte_vdev_device_args(vdev), gaudi_emu_devargs(), &args,
				 gaudi_emu_devargs_check)) {
		GAUDI_EMU_LOG(ERR, "%s: %s", name, args.err.c_str());
		return -EINVAL;
	}
	std::string err;
	{ /* [wires tap/udp] N of net_gaudi_emuN names the default TAPs gaudi<N>p<port> */
		const char *d = name + strlen(name);
		while (d > name && d[-1] >= '0' && d[-1] <= '9')
			d--;
		cfg.instance = static_cast<unsigned>(strtoul(d, nullptr, 10));
	}
	cfg.shm_name = emu_shm_name(name);
	if (cfg.shm_name.size() >= RTE_MEMZONE_NAMESIZE) {
		GAUDI_EMU_LOG(NOTICE,
			      "%s: name too long to share the model: secondary processes will "
			      "not attach",
			      name);
		cfg.shm_name.clear();
	}
	cfg.fw_gate = true;  /* the model refuses NIC programming before the firmware is up */
	cfg.phy_link = true; /* [phy] the link needs the PHY bring-up, as on silicon */
	auto model = emu::Device::create(cfg, &err);
	if (!model) {
		GAUDI_EMU_LOG(ERR, "%s: %s", name, err.c_str());
		return -EINVAL;
	}
	auto be = std::unique_ptr<VdevBackend>(new (std::nothrow)
						       VdevBackend(std::move(model), drv.fw_dir));
	auto *ad = new (std::nothrow) gaudi_adapter;
	if (ad == nullptr || be == nullptr) {
		delete ad;
		return -ENOMEM;
	}
	/* The same bring-up as on silicon: the model's device CPU answers. */
	std::vector<gaudi_bringup_port> ports;
	auto fw = std::make_unique<gaudi_fw_state>();
	int rc = gaudi_bringup(*be, name, drv, fw.get(), &ports, &err);
	if (rc == 0 &&
	    !gaudi_emu_port_devargs_check(ea, ports, fw->info.link_mask[0], drv.port_mask, &err))
		rc = -EINVAL;
	std::unique_ptr<hw::Phy> phy; /* [phy] */
	if (rc == 0)
		rc = gaudi_phy_bringup(*be, *fw, ports, &phy, &err);
	if (rc != 0) {
		GAUDI_EMU_LOG(ERR, "%s: %s", name, err.c_str());
		phy.reset();
		fw.reset(); /* before the model it talks to */
		delete ad;
		return rc;
	}
	snprintf(ad->name, sizeof(ad->name), "%s", name);
	ad->tx_watchdog_ms = drv.tx_watchdog_ms; /* [faults] */
	ad->rx_copy_max = drv.rx_copy_max;
	ad->speed = drv.speed;
	ad->nports = be->nports();
	ad->backend = std::move(be);
	ad->fw = std::move(fw);
	ad->phy = std::move(phy);
	ad->open_ports = 1; /* probe's own reference while ports are created */
	for (const gaudi_bringup_port &bp : ports) {
		rc = gaudi_port_create(ad, &vdev->device, bp.hw_port, bp.mac.data());
		if (rc != 0) {
			gaudi_remove_ports(&vdev->device);
			gaudi_adapter_put(ad);
			return rc;
		}
	}
	gaudi_fw_status_start(ad, drv.nic_status_ms);
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
} /* namespace */

const emu::Device *gaudi_vdev_model(const gaudi_adapter *ad, const rte_device *device)
{
	if (device == nullptr || device->driver != &gaudi_emu_driver.driver)
		return nullptr;
	return static_cast<VdevBackend *>(ad->backend.get())->device();
}

RTE_PMD_REGISTER_VDEV(net_gaudi_emu, gaudi_emu_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_gaudi_emu, GAUDI_EMU_DEVARGS(GAUDI_DEVARG_HELP));
