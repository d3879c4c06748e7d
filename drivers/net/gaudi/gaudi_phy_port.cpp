/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: the ports' PHY. See gaudi_phy_port.h.
 */
#include "gaudi_phy_port.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>

#include <rte_alarm.h>
#include <rte_cycles.h>
#include <rte_eal.h>

#include "base/gaudi_fw_if.h"
#include "gaudi_adapter.h"
#include "gaudi_logs.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* The lanes' data rate for the port's speed [hbl_cn_phy.c get_data_rate]: NIC_DR_50 (PAM4) at
 * 100G and 50G, NIC_DR_25 (NRZ) at 25G. */
constexpr PhyRate phy_rate(Speed s)
{
	return s == Speed::g25 ? PhyRate::dr25 : PhyRate::dr50;
}

int phy_errno(PhyErr e)
{
	switch (e) {
	case PhyErr::load_timeout:
	case PhyErr::cmd_timeout:
		return -ETIMEDOUT;
	case PhyErr::image:
	case PhyErr::old_fw:
	case PhyErr::rate:
		return -EINVAL;
	default:
		return -EIO;
	}
}

uint64_t tsc_after_us(uint64_t us)
{
	return rte_get_timer_cycles() + us * rte_get_timer_hz() / 1000000;
}

void link_alarm(void *arg);

void schedule(rte_eth_dev *dev, uint32_t us)
{
	rte_eal_alarm_set(us != 0 ? us : 1, link_alarm, dev);
}

/* Power the port up and turn its TX driver on. The lock is not held across the power-up
 * (hundreds of milliseconds of waits on silicon): powered is false meanwhile, which keeps
 * gaudi_phy_link_ready off the mailbox, and the alarm is not running (dev_start) or is the
 * caller (reconfiguration). Then one tuning poll: on the model the F/W tunes within the
 * power-up when the far end sends, so the link comes up within dev_start as it did before
 * the PHY was modelled. */
int power_up(gaudi_port *port)
{
	Phy &phy = *port->adapter->phy;
	unsigned hw = port->hw.id();
	rte_spinlock_lock(&port->phy.lock);
	port->phy.powered = false;
	port->phy.tuned = false;
	rte_spinlock_unlock(&port->phy.lock);
	PhyErr e = phy.power_up(hw, phy_rate(port->hw.speed()));
	if (e != PhyErr::ok) {
		PMD_DRV_LOG(ERR, "port %u: PHY power-up failed: %s", port->port_id,
			    phy.error().c_str());
		return phy_errno(e);
	}
	phy.port_start_stop(hw, true);
	rte_spinlock_lock(&port->phy.lock);
	port->phy.pcs_down = 0;
	port->phy.deadline = tsc_after_us(port->adapter->backend->phy_timings().tuning_timeout_us);
	port->phy.tuned = phy.tuned(hw, phy_rate(port->hw.speed()));
	port->phy.powered = true;
	rte_spinlock_unlock(&port->phy.lock);
	return 0;
}

/* gaudi2_cn_phy_link_status_work: until tuned, do_fw_tuning every tuning interval and
 * reconfigure past the tuning limit; once tuned, watch the PCS link every second and
 * reconfigure after pcs_down_limit samples without it (check_pcs_link's link-down rule).
 * Runs on the interrupt thread, which owns the LSC report: a change of the tuned state since
 * the last tick is reported (the report, gaudi_phy_port::report, is of a change of the link only). */
void link_alarm(void *arg)
{
	auto *dev = static_cast<rte_eth_dev *>(arg);
	gaudi_port *port = gaudi_priv(dev);
	if (!port->started || !port->phy.powered)
		return;
	const PhyTimings t = port->adapter->backend->phy_timings();
	Phy &phy = *port->adapter->phy;
	uint32_t next = t.tuning_interval_us;
	bool reconfigure = false;
	rte_spinlock_lock(&port->phy.lock);
	if (!port->phy.tuned) {
		if (phy.tuned(port->hw.id(), phy_rate(port->hw.speed()))) {
			port->phy.tuned = true;
			next = t.steady_interval_us;
		} else if (rte_get_timer_cycles() > port->phy.deadline) {
			PMD_DRV_LOG(INFO, "port %u: PHY F/W tuning limit, reconfiguring the PHY",
				    port->port_id);
			reconfigure = true;
		}
	} else {
		next = t.steady_interval_us;
		if (port->hw.link_up()) {
			port->phy.pcs_down = 0;
		} else if (++port->phy.pcs_down >= t.pcs_down_limit) {
			PMD_DRV_LOG(INFO, "port %u: %u s of PCS link down, reconfiguring the PHY",
				    port->port_id, port->phy.pcs_down);
			reconfigure = true;
		}
	}
	rte_spinlock_unlock(&port->phy.lock);
	if (reconfigure) {
		port->phy.reconfigs++;
		power_up(port);
		next = port->phy.tuned ? t.steady_interval_us : t.tuning_interval_us;
	}
	if (port->phy.tuned != port->phy.reported) {
		port->phy.reported = port->phy.tuned;
		if (port->phy.report != nullptr)
			port->phy.report(dev);
	}
	schedule(dev, next);
}

} /* namespace */

int gaudi_phy_bringup(Backend &be, const gaudi_fw_state &fw,
		      const std::vector<gaudi_bringup_port> &ports, std::unique_ptr<Phy> *out,
		      std::string *err)
{
	uint64_t mask = 0;
	for (const gaudi_bringup_port &bp : ports)
		mask |= uint64_t(1) << bp.hw_port;
	auto phy = std::make_unique<Phy>(be.nic_bar(), mask, be.phy_timings());

	/* The PHY image, by the same rules as the boot files (fw_dir or /lib/firmware); a
	 * missing or unreadable file fails the probe with its path. */
	std::vector<uint8_t> image;
	std::string path;
	int rc = be.read_firmware(fw::kPhyFwFile, &image, &path, err);
	if (rc != 0)
		return rc;
	/* What the messages call the image: its file, or the model's built-in one (no file). */
	const std::string source = be.firmware_builtin() ? "built-in image" : "file " + path;
	PhyErr e = phy->load_firmware(image, source);
	if (e == PhyErr::ok)
		e = phy->check_firmware();
	if (e != PhyErr::ok) {
		*err = phy->error();
		if (e != PhyErr::image)
			*err += " (PHY firmware " + source + ")";
		return phy_errno(e);
	}
	/* use_fw_serdes_info (HLS2 with the CPU-CP F/W): the lane map and polarity of the board
	 * as NIC_INFO_GET gives them [set_fw_lane_mapping, hbl_cn_phy_set_fw_polarity]. */
	phy->set_lane_map(std::span<const uint16_t>(fw.info.tx_swap_map, kMacros));
	phy->set_polarity(fw.info.pol_tx_mask[0], fw.info.pol_rx_mask[0]);
	uint32_t macros = 0;
	for (const gaudi_bringup_port &bp : ports)
		macros |= 1u << (bp.hw_port / kPortsPerMacro);
	for (unsigned m = 0; m < kMacros; m++)
		if (macros & (1u << m))
			phy->reset_macro(m);
	for (const gaudi_bringup_port &bp : ports)
		phy->lane_remap(bp.hw_port);
	PMD_INIT_LOG(INFO, "PHY F/W loaded (%s): CRC 0x%x, hash 0x%x", source.c_str(),
		     phy->fw_crc(), phy->fw_hash());
	*out = std::move(phy);
	return 0;
}

int gaudi_phy_start(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	gaudi_adapter *ad = port->adapter;
	port->phy.mac_loopback = dev->data->dev_conf.lpbk_mode == 1;
	/* A port in MAC (PCS) loopback keeps its frames inside the MAC: its PHY is not
	 * configured, as the public drivers skip the PHY for mac_loopback (gaudi_nic.c
	 * "nic_phy_config_fw && !mac_loopback"). */
	if (!ad->phy || port->phy.mac_loopback)
		return 0;
	port->phy.reported = false;
	int rc = power_up(port);
	if (rc != 0)
		return rc;
	/* Port 8 resets the macro clock port 9 depends on: port 9 is brought up again
	 * [gaudi2_cn_phy_port_power_up, port_9_reinit]. */
	if (port->hw.id() == 8) {
		gaudi_port *p9 = gaudi_adapter_port(ad, 9);
		if (p9 != nullptr && p9->phy.powered)
			power_up(p9);
	}
	schedule(dev, ad->backend->phy_timings().tuning_interval_us);
	return 0;
}

void gaudi_phy_stop(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	if (!port->adapter->phy)
		return;
	rte_eal_alarm_cancel(link_alarm, dev); /* waits for a running tick */
	rte_spinlock_lock(&port->phy.lock);
	if (port->phy.powered)
		port->adapter->phy->port_start_stop(port->hw.id(), false);
	port->phy.powered = false;
	port->phy.tuned = false;
	rte_spinlock_unlock(&port->phy.lock);
}

bool gaudi_phy_link_ready(gaudi_port *port)
{
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return port->phy.tuned || port->phy.mac_loopback;
	if (!port->adapter->phy || port->phy.tuned || port->phy.mac_loopback)
		return true;
	if (!port->phy.powered)
		return false;
	/* Not cached: the alarm (the interrupt thread) takes the tuned state and reports the
	 * change through LSC; this only answers the caller. The lock is held only for a tuning
	 * poll (two mailbox commands) by the others. */
	rte_spinlock_lock(&port->phy.lock);
	bool t = port->phy.tuned ||
		 (port->phy.powered &&
		  port->adapter->phy->tuned(port->hw.id(), phy_rate(port->hw.speed())));
	rte_spinlock_unlock(&port->phy.lock);
	return t;
}
