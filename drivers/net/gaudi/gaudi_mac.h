/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: MAC addresses and receive filters (promiscuous, all-multicast, lists).
 */
#pragma once

#include <ethdev_driver.h>

#include "gaudi_adapter.h"

/* Station address (RXB TS_RAW0) + unicast addresses the driver filters in software. */
inline constexpr unsigned kGaudiMaxMacAddrs = 1 + 15;
inline constexpr unsigned kGaudiMaxMcAddrs = 32;
/* Program RXB and the software filter from the port's promisc/allmulti and address lists. */
void gaudi_rx_filter_apply(gaudi_port *port);

int gaudi_promisc_enable(rte_eth_dev *dev);
int gaudi_promisc_disable(rte_eth_dev *dev);
int gaudi_allmulti_enable(rte_eth_dev *dev);
int gaudi_allmulti_disable(rte_eth_dev *dev);
int gaudi_mac_addr_set(rte_eth_dev *dev, rte_ether_addr *addr);
int gaudi_mac_addr_add(rte_eth_dev *dev, rte_ether_addr *addr, uint32_t index, uint32_t vmdq);
void gaudi_mac_addr_remove(rte_eth_dev *dev, uint32_t index);
/* Re-write every extra unicast filter from dev->data->mac_addrs (start, reset). */
void gaudi_mac_filters_restore(rte_eth_dev *dev);
int gaudi_set_mc_addr_list(rte_eth_dev *dev, rte_ether_addr *list, uint32_t n);
