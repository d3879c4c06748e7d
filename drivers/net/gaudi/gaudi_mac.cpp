/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: MAC addresses and receive filters. See gaudi_mac.h.
 */
#include "gaudi_mac.h"

#include <cstring>

#include "gaudi_logs.h"

int gaudi_promisc_enable(rte_eth_dev *dev)
{
	gaudi_priv(dev)->promisc = true;
	gaudi_rx_filter_apply(gaudi_priv(dev));
	return 0;
}

int gaudi_promisc_disable(rte_eth_dev *dev)
{
	gaudi_priv(dev)->promisc = false;
	gaudi_rx_filter_apply(gaudi_priv(dev));
	return 0;
}

int gaudi_allmulti_enable(rte_eth_dev *dev)
{
	gaudi_priv(dev)->allmulti = true;
	gaudi_rx_filter_apply(gaudi_priv(dev));
	return 0;
}

int gaudi_allmulti_disable(rte_eth_dev *dev)
{
	gaudi_priv(dev)->allmulti = false;
	gaudi_rx_filter_apply(gaudi_priv(dev));
	return 0;
}

int gaudi_mac_addr_set(rte_eth_dev *dev, rte_ether_addr *addr)
{
	if (!rte_is_valid_assigned_ether_addr(addr)) {
		PMD_DRV_LOG(ERR, "port %u: MAC address must be unicast and non-zero",
			    dev->data->port_id);
		return -EINVAL;
	}
	gaudi_priv(dev)->hw.set_mac_addr(addr->addr_bytes);
	return 0;
}

/* ---- MAC filters ---- */

int gaudi_mac_addr_add(rte_eth_dev *dev, rte_ether_addr *addr, uint32_t index, uint32_t vmdq)
{
	if (vmdq != 0)
		return -ENOTSUP;
	if (index == 0 || index >= kGaudiMaxMacAddrs)
		return -EINVAL;
	if (rte_is_zero_ether_addr(addr) || rte_is_broadcast_ether_addr(addr))
		return -EINVAL;
	/* ethdev stores addr in mac_addrs[index] after this returns: filter from a copy. */
	dev->data->mac_addrs[index] = *addr;
	gaudi_mac_filters_restore(dev);
	return 0;
}

void gaudi_mac_addr_remove(rte_eth_dev *dev, uint32_t index)
{
	if (index == 0 || index >= kGaudiMaxMacAddrs)
		return;
	memset(&dev->data->mac_addrs[index], 0, sizeof(rte_ether_addr));
	gaudi_mac_filters_restore(dev);
}

void gaudi_mac_filters_restore(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	port->n_uc = 0;
	for (unsigned i = 1; i < kGaudiMaxMacAddrs; i++) {
		const rte_ether_addr *a = &dev->data->mac_addrs[i];
		if (!rte_is_zero_ether_addr(a))
			port->uc[port->n_uc++] = *a;
	}
	gaudi_rx_filter_apply(port);
}

int gaudi_set_mc_addr_list(rte_eth_dev *dev, rte_ether_addr *list, uint32_t n)
{
	if (n > kGaudiMaxMcAddrs) {
		PMD_DRV_LOG(ERR, "port %u: %u multicast addresses, the filter holds %u",
			    dev->data->port_id, n, kGaudiMaxMcAddrs);
		return -ENOSPC;
	}
	for (uint32_t i = 0; i < n; i++)
		if (!rte_is_multicast_ether_addr(&list[i]) || rte_is_broadcast_ether_addr(&list[i]))
			return -EINVAL;
	gaudi_port *port = gaudi_priv(dev);
	for (uint32_t i = 0; i < n; i++)
		port->mc[i] = list[i];
	port->n_mc = uint8_t(n);
	gaudi_rx_filter_apply(port);
	return 0;
}

/* The hardware has one raw address filter per port, RXB TS_RAW0 (value and don't-care mask)
 * [gaudi2_cn.c config_hw_mac_filter]; the MAC stays promiscuous as hbl_cn leaves it. More
 * addresses, allmulti or multicast lists open the filter (mask all ones) and rx_burst keeps
 * what the lists allow; promiscuous opens it with no software filter. */
void gaudi_rx_filter_apply(gaudi_port *port)
{
	bool sw = !port->promisc && (port->allmulti || port->n_uc != 0 || port->n_mc != 0);
	port->hw.set_rxb_accept_all(port->promisc || sw);
	__atomic_store_n(&port->sw_filter, sw, __ATOMIC_RELEASE);
}
