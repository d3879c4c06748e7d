/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: multi-process (secondary ops table, attach). See gaudi_mp.h.
 */
#include "gaudi_mp.h"

#include <algorithm>
#include <cstdio>
#include <new>
#include <type_traits>

#include "gaudi_ethdev.h"
#include "gaudi_info.h"
#include "gaudi_intr.h"
#include "gaudi_link.h"
#include "gaudi_logs.h"
#include "gaudi_mac.h"
#include "gaudi_rxq.h"
#include "gaudi_trigger.h"
#include "gaudi_txq.h"
#include "gaudi_stats.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* An op that changes the device, called in a secondary: refused with a log line naming the op
 * without its gaudi_ prefix (the ethdev op's name). The device and its model belong to the
 * primary. */
template <size_t N>
struct OpName {
	char s[N];
	constexpr OpName(const char (&a)[N]) { std::copy_n(a, N, s); }
};
template <auto Op, OpName Name>
struct Refuse;
template <typename R, typename... A, R (*Op)(rte_eth_dev *, A...), OpName Name>
struct Refuse<Op, Name> {
	static R fn(rte_eth_dev *dev, A...)
	{
		PMD_DRV_LOG(NOTICE,
			    "port %u: %s refused in a secondary process: only the primary "
			    "may change the device",
			    dev->data->port_id, Name.s + sizeof("gaudi_") - 1);
		if constexpr (!std::is_void_v<R>)
			return -E_RTE_SECONDARY;
	}
};
#define GAUDI_REFUSE(op) Refuse<op, #op>::fn /* op: gaudi_<name> */

/* What a secondary (dpdk-proc-info, dpdk-dumpcap, dpdk-pdump, ...) may call: queries that
 * read shared memory (dev->data, the queues, dev_private's event counters) or the registers
 * through its read-only view (gaudi_hw). Ops not listed here are absent: ethdev answers
 * -ENOTSUP. */
eth_dev_ops make_secondary_ops()
{
	eth_dev_ops o{};
	o.dev_infos_get = gaudi_dev_infos_get;
	o.dev_close = gaudi_dev_close;
	o.link_update = gaudi_link_update;
	o.stats_get = GAUDI_STATS_OP(gaudi_stats_get);
	o.xstats_get = gaudi_xstats_get;
	o.xstats_get_names = gaudi_xstats_get_names;
	o.fw_version_get = gaudi_fw_version_get;
	o.dev_supported_ptypes_get = GAUDI_PTYPES_OP(gaudi_ptypes_get);
	o.rx_burst_mode_get = gaudi_burst_mode_get;
	o.tx_burst_mode_get = gaudi_burst_mode_get;
	o.rxq_info_get = gaudi_rxq_info_get;
	o.txq_info_get = gaudi_txq_info_get;
	o.flow_ctrl_get = gaudi_flow_ctrl_get;
	o.get_reg = gaudi_get_reg;
	o.get_module_info = gaudi_get_module_info;
	o.get_module_eeprom = gaudi_get_module_eeprom;
	o.fec_get_capability = gaudi_fec_get_capability;
	o.fec_get = gaudi_fec_get;
	/* Refused with a reason. */
	o.dev_configure = GAUDI_REFUSE(gaudi_dev_configure);
	o.dev_start = GAUDI_REFUSE(gaudi_dev_start);
	o.dev_stop = GAUDI_REFUSE(gaudi_dev_stop);
	o.dev_reset = GAUDI_REFUSE(gaudi_dev_reset);
	o.dev_set_link_up = GAUDI_REFUSE(gaudi_dev_set_link_up);
	o.dev_set_link_down = GAUDI_REFUSE(gaudi_dev_set_link_down);
	o.promiscuous_enable = GAUDI_REFUSE(gaudi_promisc_enable);
	o.promiscuous_disable = GAUDI_REFUSE(gaudi_promisc_disable);
	o.allmulticast_enable = GAUDI_REFUSE(gaudi_allmulti_enable);
	o.allmulticast_disable = GAUDI_REFUSE(gaudi_allmulti_disable);
	o.mac_addr_add = GAUDI_REFUSE(gaudi_mac_addr_add);
	o.mac_addr_remove = GAUDI_REFUSE(gaudi_mac_addr_remove);
	o.mac_addr_set = GAUDI_REFUSE(gaudi_mac_addr_set);
	o.set_mc_addr_list = GAUDI_REFUSE(gaudi_set_mc_addr_list);
	o.mtu_set = GAUDI_REFUSE(gaudi_mtu_set);
	o.stats_reset = GAUDI_REFUSE(gaudi_stats_reset);
	o.xstats_reset = GAUDI_REFUSE(gaudi_xstats_reset);
	o.rx_queue_setup = GAUDI_REFUSE(gaudi_rx_queue_setup);
	o.tx_queue_setup = GAUDI_REFUSE(gaudi_tx_queue_setup);
	o.rx_queue_start = GAUDI_REFUSE(gaudi_rx_queue_start);
	o.rx_queue_stop = GAUDI_REFUSE(gaudi_rx_queue_stop);
	o.tx_queue_start = GAUDI_REFUSE(gaudi_tx_queue_start);
	o.tx_queue_stop = GAUDI_REFUSE(gaudi_tx_queue_stop);
	o.flow_ctrl_set = GAUDI_REFUSE(gaudi_flow_ctrl_set);
	o.priority_flow_ctrl_set = GAUDI_REFUSE(gaudi_priority_flow_ctrl_set);
	o.fec_set = GAUDI_REFUSE(gaudi_fec_set);
	return o;
}
const eth_dev_ops gaudi_secondary_ops = make_secondary_ops();
} /* namespace */

/* Secondary probe: attach to the ports the primary created ("<nic>_p<N>"). The datapath
 * stays in the primary (the model's engine and the queues' consumer state live there), so the
 * burst functions are dummies; pdump and dumpcap capture through callbacks in the primary. */
int gaudi_attach_ports(rte_device *device, gaudi_adapter *ad)
{
	int attached = 0;
	for (unsigned p = 0; p < ad->nports; p++) {
		char name[RTE_ETH_NAME_MAX_LEN];
		snprintf(name, sizeof(name), "%s_p%u", ad->name, p);
		rte_eth_dev *dev = rte_eth_dev_attach_secondary(name);
		if (dev == nullptr)
			continue; /* closed in the primary (or never created there) */
		auto *pp = new (std::nothrow) gaudi_proc{ad, Port(&ad->backend->nic_bar(), p)};
		if (pp == nullptr) {
			rte_eth_dev_release_port(dev);
			return -ENOMEM;
		}
		dev->process_private = pp;
		dev->device = device;
		dev->dev_ops = &gaudi_secondary_ops;
		dev->rx_pkt_burst = rte_eth_pkt_burst_dummy;
		dev->tx_pkt_burst = rte_eth_pkt_burst_dummy;
		ad->open_ports++;
		attached++;
		rte_eth_dev_probing_finish(dev);
	}
	if (attached == 0) {
		PMD_INIT_LOG(ERR, "%s: secondary process: the primary has no ports of this device",
			     ad->name);
		return -ENODEV;
	}
	PMD_INIT_LOG(INFO, "%s: secondary process attached to %d ports (read-only, no datapath)",
		     ad->name, attached);
	return 0;
}
