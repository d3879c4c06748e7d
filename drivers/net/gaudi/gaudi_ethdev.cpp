/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: port life cycle (configure, start, stop, close, reset, create) and the ops
 * table. The source layout is described in gaudi_ethdev.h.
 */
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <ethdev_driver.h>
#include <rte_malloc.h>

#include "gaudi_ethdev.h"
#include "gaudi_eq.h"
#include "gaudi_fw_status.h"
#include "gaudi_info.h"
#include "gaudi_intr.h"
#include "gaudi_link.h"
#include "gaudi_logs.h"
#include "gaudi_mac.h"
#include "gaudi_recovery.h"
#include "gaudi_rxq.h"
#include "gaudi_trigger.h"
#include "gaudi_txq.h"
#include "gaudi_stats.h"
#include "base/gaudi_nic_mem.h"

using namespace gaudi;
using namespace gaudi::hw;

int gaudi_dev_configure(rte_eth_dev *dev)
{
	const rte_eth_conf &conf = dev->data->dev_conf;
	if (conf.rxmode.mq_mode != RTE_ETH_MQ_RX_NONE) {
		PMD_DRV_LOG(ERR, "port %u: rx mq_mode %d not supported", dev->data->port_id,
			    conf.rxmode.mq_mode);
		return -ENOTSUP;
	}
	/* The port runs the one speed devarg speed chose at probe (no auto-negotiation). */
	const uint32_t capa = gaudi_speed_capa(gaudi_priv(dev)->hw.speed());
	if (conf.link_speeds & ~(RTE_ETH_LINK_SPEED_FIXED | capa)) {
		PMD_DRV_LOG(ERR,
			    "port %u: link_speeds 0x%x: the port runs %u Mb/s only (devarg speed)",
			    dev->data->port_id, conf.link_speeds,
			    speed_mbps(gaudi_priv(dev)->hw.speed()));
		return -EINVAL;
	}
	/* lpbk_mode 1: MAC loopback at the PCS (CONTROL1.LOOPBACK) [gaudi2_cn.c]. */
	if (conf.lpbk_mode > 1) {
		PMD_DRV_LOG(ERR, "port %u: lpbk_mode %u: 0 (none) or 1 (PCS loopback)",
			    dev->data->port_id, conf.lpbk_mode);
		return -EINVAL;
	}
	return gaudi_intr_configure(dev);
}

rte_spinlock_t gaudi_adapter_lock = RTE_SPINLOCK_INITIALIZER;
namespace {
gaudi_adapter *open_adapters[RTE_MAX_ETHPORTS]; /* under gaudi_adapter_lock */
}

gaudi_adapter *gaudi_open_adapter(uint16_t pid)
{
	return pid < RTE_MAX_ETHPORTS ? open_adapters[pid] : nullptr;
}

void gaudi_adapter_put(gaudi_adapter *ad)
{
	if (--ad->open_ports != 0)
		return;
	/* Device close [gaudi2_cn.c core_fini -> stop_traffic]: the primary, which holds the
	 * device, stops the caches of the ports it brought up. */
	if (ad->fw != nullptr)
		nicmem::stop_traffic(ad->backend->nic_bar(), ad->fw->open_mask);
	gaudi_fw_status_stop(ad); /* its alarm uses the adapter and the firmware */
	delete ad;
}

int gaudi_dev_close(rte_eth_dev *dev)
{
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		/* Secondary: release what this process made; the port lives on in the primary. */
		auto *pp = static_cast<gaudi_proc *>(dev->process_private);
		dev->process_private = nullptr;
		if (pp != nullptr) {
			gaudi_adapter_put(pp->adapter);
			delete pp;
		}
		return 0;
	}
	gaudi_port *port = gaudi_priv(dev);
	/* The status alarm reads every port: hold it while this one goes. */
	gaudi_fw_status_stop(port->adapter);
	gaudi_dev_stop(dev);
	/* Our interrupt teardown must not undo the adapter's hold on the odd EQ: let go, and
	 * take it again once this port is gone. */
	gaudi_link_eq_release(port->adapter, port->hw.id());
	gaudi_intr_uninit(dev);
	rte_spinlock_lock(&port->adapter->ports_lock);
	port->adapter->eth_port[port->hw.id()] = UINT16_MAX;
	rte_spinlock_unlock(&port->adapter->ports_lock);
	gaudi_fw_status_start(port->adapter, port->adapter->nic_status_ms);
	gaudi_link_eq_update(port->adapter, port->hw.id());
	gaudi_rxq_release(dev, 0);
	gaudi_txq_release(dev, 0);
	rte_memzone_free(port->mem.mz);
	port->mem.mz = nullptr;
	gaudi_adapter *ad = port->adapter;
	rte_spinlock_lock(&gaudi_adapter_lock);
	open_adapters[dev->data->port_id] = nullptr;
	port->adapter = nullptr;
	rte_spinlock_unlock(&gaudi_adapter_lock);
	dev->data->mac_addrs = nullptr; /* freed with dev_private by the release below */
	gaudi_adapter_put(ad);
	return 0;
}

int gaudi_mtu_set(rte_eth_dev *dev, uint16_t mtu)
{
	if (mtu < kMinMtu || mtu > kMaxMtu)
		return -EINVAL;
	gaudi_port *port = gaudi_priv(dev);
	auto *rxq = gaudi_rxq0(dev);
	if (port->started) {
		/* A running port keeps its RX slots: the new frame must fit them. */
		if (rxq != nullptr && gaudi_max_frame(mtu) > (1u << rxq->slot_log2)) {
			PMD_DRV_LOG(ERR,
				    "port %u: MTU %u needs larger rx slots: stop the port first",
				    dev->data->port_id, mtu);
			return -EBUSY;
		}
		if (rxq != nullptr && !rxq->scatter &&
		    gaudi_max_frame(mtu) >
			    uint32_t(rte_pktmbuf_data_room_size(rxq->mp) - RTE_PKTMBUF_HEADROOM))
			return -EINVAL;
		/* The MAC takes NIC_MAC_MAX_FRM_LEN always; the MTU is enforced by rx_burst, as
		 * hbl_en does (max_frm_len). */
		if (rxq != nullptr)
			rxq->max_frame = gaudi_max_frame(mtu);
		auto *txq = gaudi_txq0(dev);
		if (txq != nullptr && gaudi_max_frame(mtu) > txq->bounce_stride) {
			PMD_DRV_LOG(ERR,
				    "port %u: MTU %u needs larger tx bounce buffers: stop the "
				    "port first",
				    dev->data->port_id, mtu);
			return -EBUSY;
		}
		if (txq != nullptr)
			txq->max_frame = gaudi_max_frame(mtu);
	}
	return 0;
}

namespace {

/* Bring a port to its just-probed state: queues released, MAC off, counters cleared. */
int gaudi_port_hw_init(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	/* Power-up (and a hard reset) leave interrupts and RX enabled: quiesce first, as
	 * habanalabs does [gaudi2_cn.c gaudi2_nic_quiescence]. */
	port->hw.quiesce();
	port->hw.mac_config(false);
	port->hw.set_loopback(false);
	port->hw.set_rs_fec(true); /* 100G default: RS-FEC (clause 91) */
	gaudi_flow_defaults(port);
	gaudi_mac_stats_reset(port);
	port->stats_base = {}; /* its queues were released: the port counts from 0 again */
	port->promisc = false;
	port->allmulti = false;
	port->n_uc = port->n_mc = 0;
	gaudi_rx_filter_apply(port);
	dev->data->promiscuous = 0;
	dev->data->all_multicast = 0;
	return 0;
}

} /* namespace */

/* The hardware goes back to its probed state; the ethdev-level settings the application
 * made (promiscuous, all-multicast, MAC addresses in dev->data) stay, and ethdev replays
 * them on the next start, as it does after any stop. The packet types it asked for
 * (ptype_mask, set at probe only) stay too. */
int gaudi_dev_reset(rte_eth_dev *dev)
{
	gaudi_dev_stop(dev);
	gaudi_rxq_release(dev, 0);
	gaudi_txq_release(dev, 0);
	uint8_t promisc = dev->data->promiscuous, allmulti = dev->data->all_multicast;
	gaudi_link_eq_release(gaudi_priv(dev)->adapter, gaudi_priv(dev)->hw.id());
	int rc = gaudi_port_hw_init(dev); /* quiesces our EQ: the adapter takes it again below */
	gaudi_link_eq_update(gaudi_priv(dev)->adapter, gaudi_priv(dev)->hw.id());
	dev->data->promiscuous = promisc;
	dev->data->all_multicast = allmulti;
	return rc;
}

namespace {

const eth_dev_ops gaudi_ops = {
	.dev_configure = gaudi_dev_configure,
	.dev_start = gaudi_dev_start,
	.dev_stop = gaudi_dev_stop,
	.dev_set_link_up = gaudi_dev_set_link_up,
	.dev_set_link_down = gaudi_dev_set_link_down,
	.dev_close = gaudi_dev_close,
	.dev_reset = gaudi_dev_reset,
	.link_update = gaudi_link_update,
	.promiscuous_enable = gaudi_promisc_enable,
	.promiscuous_disable = gaudi_promisc_disable,
	.allmulticast_enable = gaudi_allmulti_enable,
	.allmulticast_disable = gaudi_allmulti_disable,
	.mac_addr_remove = gaudi_mac_addr_remove,
	.mac_addr_add = gaudi_mac_addr_add,
	.mac_addr_set = gaudi_mac_addr_set,
	.set_mc_addr_list = gaudi_set_mc_addr_list,
	.mtu_set = gaudi_mtu_set,
	.stats_get = GAUDI_STATS_OP(gaudi_stats_get),
	.stats_reset = gaudi_stats_reset,
	.xstats_get = gaudi_xstats_get,
	.xstats_reset = gaudi_xstats_reset,
	.xstats_get_names = gaudi_xstats_get_names,
	.dev_infos_get = gaudi_dev_infos_get,
	.rxq_info_get = gaudi_rxq_info_get,
	.txq_info_get = gaudi_txq_info_get,
	.rx_burst_mode_get = gaudi_burst_mode_get,
	.tx_burst_mode_get = gaudi_burst_mode_get,
	.fw_version_get = gaudi_fw_version_get,
	.dev_supported_ptypes_get = GAUDI_PTYPES_OP(gaudi_ptypes_get),
	.dev_ptypes_set = gaudi_ptypes_set,
	.rx_queue_start = gaudi_rx_queue_start,
	.rx_queue_stop = gaudi_rx_queue_stop,
	.tx_queue_start = gaudi_tx_queue_start,
	.tx_queue_stop = gaudi_tx_queue_stop,
	.rx_queue_setup = gaudi_rx_queue_setup,
	.rx_queue_release = gaudi_rxq_release,
	.rx_queue_intr_enable = gaudi_rx_queue_intr_enable,
	.rx_queue_intr_disable = gaudi_rx_queue_intr_disable,
	.tx_queue_setup = gaudi_tx_queue_setup,
	.tx_queue_release = gaudi_txq_release,
	.flow_ctrl_get = gaudi_flow_ctrl_get,
	.flow_ctrl_set = gaudi_flow_ctrl_set,
	.priority_flow_ctrl_set = gaudi_priority_flow_ctrl_set,
	.get_reg = gaudi_get_reg,
	.get_module_info = gaudi_get_module_info,
	.get_module_eeprom = gaudi_get_module_eeprom,
	.fec_get_capability = gaudi_fec_get_capability,
	.fec_get = gaudi_fec_get,
	.fec_set = gaudi_fec_set,
};

} /* namespace */

/* Create the ethdev of hardware port hw_port of an adapter. */
int gaudi_port_create(gaudi_adapter *ad, rte_device *device, unsigned hw_port, const uint8_t mac[6])
{
	char name[RTE_ETH_NAME_MAX_LEN];
	snprintf(name, sizeof(name), "%s_p%u", ad->name, hw_port);
	rte_eth_dev *dev = rte_eth_dev_allocate(name);
	if (dev == nullptr) {
		PMD_INIT_LOG(ERR, "%s: cannot allocate ethdev", name);
		return -ENOMEM;
	}
	/* Private data and the MAC address live in DPDK memory (shared with secondaries). */
	auto *port = static_cast<gaudi_port *>(rte_zmalloc_socket(
		name, sizeof(gaudi_port) + kGaudiMaxMacAddrs * sizeof(rte_ether_addr),
		RTE_CACHE_LINE_SIZE, device->numa_node));
	if (port == nullptr) {
		rte_eth_dev_release_port(dev);
		return -ENOMEM;
	}
	dev->data->dev_private = port;
	dev->device = device;
	dev->dev_ops = &gaudi_ops;
	dev->rx_pkt_burst = gaudi_rx_burst;
	dev->tx_pkt_burst = gaudi_tx_burst;
	dev->rx_queue_count = gaudi_rx_queue_count;
	dev->rx_descriptor_status = gaudi_rx_descriptor_status;
	dev->tx_descriptor_status = gaudi_tx_descriptor_status;
	dev->data->mac_addrs = reinterpret_cast<rte_ether_addr *>(port + 1);
	memcpy(dev->data->mac_addrs[0].addr_bytes, mac, RTE_ETHER_ADDR_LEN);
	dev->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS;
	dev->data->mtu = RTE_ETHER_MTU;

	port->adapter = ad;
	port->hw = Port(&ad->backend->nic_bar(), hw_port);
	port->hw.set_speed(ad->speed[hw_port]);
	port->port_id = dev->data->port_id;
	ad->eth_port[hw_port] = dev->data->port_id;
	rte_spinlock_init(&port->eq_lock);
	rte_spinlock_init(&port->phy.lock);
	int rc = gaudi_port_mem_alloc(dev);
	if (rc != 0) {
		dev->data->mac_addrs = nullptr;
		rte_eth_dev_release_port(dev);
		return rc;
	}
	port->ptype_mask = gaudi_ptype_mask_all; /* until rte_eth_dev_set_ptypes; reset keeps it */
	gaudi_port_hw_init(dev);
	gaudi_rec_init(port, ad->tx_watchdog_ms); /* [faults] */
	rc = gaudi_intr_init(dev);
	if (rc != 0) {
		rte_memzone_free(port->mem.mz);
		dev->data->mac_addrs = nullptr;
		rte_eth_dev_release_port(dev);
		return rc;
	}
	ad->open_ports++;
	rte_spinlock_lock(&gaudi_adapter_lock);
	open_adapters[dev->data->port_id] = ad;
	rte_spinlock_unlock(&gaudi_adapter_lock);
	rte_eth_dev_probing_finish(dev);
	PMD_INIT_LOG(INFO, "%s: port %u, MAC " RTE_ETHER_ADDR_PRT_FMT, name, dev->data->port_id,
		     RTE_ETHER_ADDR_BYTES(&dev->data->mac_addrs[0]));
	return 0;
}

/* Close every ethdev of a device (remove, or a failed probe). */
int gaudi_remove_ports(rte_device *device)
{
	uint16_t pid;
	RTE_ETH_FOREACH_DEV_OF(pid, device)
	{
		/* ethdev refuses to close a started port; a secondary only lets go of its own
		 * attachment (the port runs on in the primary). A port never started or stopped
		 * by the application is left alone (ethdev logs "already stopped" otherwise). */
		if (rte_eal_process_type() == RTE_PROC_PRIMARY &&
		    rte_eth_devices[pid].data->dev_started)
			rte_eth_dev_stop(pid);
		rte_eth_dev_close(pid);
	}
	return 0;
}
