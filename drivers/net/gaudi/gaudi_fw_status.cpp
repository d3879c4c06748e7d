/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: periodic NIC_STATUS to the firmware. See gaudi_fw_status.h.
 */
#include "gaudi_fw_status.h"

#include <cerrno>
#include <cstring>

#include <rte_alarm.h>
#include <rte_eal.h>

#include "gaudi_bringup.h"
#include "gaudi_adapter.h"
#include "gaudi_logs.h"
#include "rte_pmd_gaudi.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

void tick(void *arg)
{
	auto *ad = static_cast<gaudi_adapter *>(arg);
	if (!ad->fw || !ad->fw->host)
		return;
	for (unsigned hw = 0; hw < ad->nports; hw++) {
		const gaudi_port *p = gaudi_adapter_port(ad, hw);
		if (p == nullptr)
			continue;
		fw::FwErr e = ad->fw->host->nic_status(gaudi_fw_status_of(p));
		if (e != fw::FwErr::ok) {
			/* As hbl_cn's status work: a failed send ends the periodic status. */
			PMD_DRV_LOG(ERR, "%s: NIC status of port %u: %s; periodic status stopped",
				    ad->name, hw, ad->fw->host->error().c_str());
			ad->nic_status_armed = false;
			return;
		}
		ad->nic_status_sent++;
	}
	if (rte_eal_alarm_set(uint64_t(ad->nic_status_ms) * 1000, tick, ad) != 0) {
		PMD_DRV_LOG(ERR, "%s: cannot re-arm the NIC status alarm", ad->name);
		ad->nic_status_armed = false;
	}
}

} /* namespace */

fw::CpucpNicStatus gaudi_fw_status_of(const gaudi_port *port)
{
	fw::CpucpNicStatus st{};
	unsigned hw = port->hw.id();
	st.port = hw;
	/* Toggles of the link, the first bring-up not counted [hbl_cn.c hbl_cn_get_status]. */
	st.port_toggle_cnt = port->rec.link_ups ? uint32_t(port->rec.link_ups - 1) : 0;
	st.up = port->started;
	if (!st.up)
		return st;
	st.pcs_link = port->hw.link_up();
	/* [choice] phy_ready (hbl_cn: the PHY firmware tuned the lanes) follows the PCS link:
	 * this driver keeps no separate PHY-tuned state. */
	st.phy_ready = st.pcs_link;
	const fw::CpucpNicInfo &info = port->adapter->fw->info;
	st.auto_neg = (info.auto_neg_mask[hw / 64] >> (hw % 64)) & 1;
	/* RS-FEC code words since reset [gaudi2_cn.c gaudi2_cn_get_fec_status: the accumulated
	 * corrected / uncorrected counts]. */
	st.correctable_err_cnt = uint32_t(port->hw.fec_corrected());
	st.uncorrectable_err_cnt = uint32_t(port->hw.fec_uncorrected());
	/* bad_format_cnt is 0 on Gaudi2 [gaudi2_cn_get_spmu_data]; high_ber_reinit,
	 * retraining_cnt, timeout_retransmission_cnt, high_ber_cnt, FEC SER, bandwidth and
	 * latency: [choice] 0, this driver has no source for them (no SPMU, PCS BER or TXE
	 * statistics registers programmed). */
	return st;
}

void gaudi_fw_status_start(gaudi_adapter *ad, uint32_t period_ms)
{
	ad->nic_status_ms = period_ms;
	if (period_ms == 0 || !ad->fw || !ad->fw->host || ad->nic_status_armed)
		return;
	if (rte_eal_alarm_set(uint64_t(period_ms) * 1000, tick, ad) != 0) {
		PMD_INIT_LOG(ERR, "%s: cannot arm the NIC status alarm", ad->name);
		return;
	}
	ad->nic_status_armed = true;
}

void gaudi_fw_status_stop(gaudi_adapter *ad)
{
	if (!ad->nic_status_armed)
		return;
	rte_eal_alarm_cancel(tick, ad); /* waits for a tick in progress on another thread */
	ad->nic_status_armed = false;
}

extern "C" int rte_pmd_gaudi_emu_fw_port_get(uint16_t port_id,
					     struct rte_pmd_gaudi_emu_fw_port *out)
{
	if (!rte_eth_dev_is_valid_port(port_id))
		return -ENODEV;
	rte_eth_dev *dev = &rte_eth_devices[port_id];
	if (dev->device == nullptr || dev->device->driver == nullptr ||
	    (strcmp(dev->device->driver->name, "net_gaudi_emu") != 0 &&
	     strcmp(dev->device->driver->name, "net_gaudi") != 0))
		return -ENODEV;
	auto *port = static_cast<gaudi_port *>(dev->data->dev_private);
	if (out == nullptr)
		return -EINVAL;
	/* A secondary's dev_private points at the primary's adapter: the model is the
	 * primary's. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY || port->adapter == nullptr)
		return -ENOTSUP;
	return port->adapter->backend->emu_fw_port(port->hw.id(), out);
}
