/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: a port's life cycle (configure, close, reset, MTU, creation at probe) and the
 * adapter's references. Start and stop: gaudi_trigger.h. The structs: gaudi_adapter.h.
 */
#pragma once

#include <ethdev_driver.h>
#include <rte_spinlock.h>

#include "gaudi_adapter.h"

int gaudi_dev_configure(rte_eth_dev *dev);
int gaudi_dev_close(rte_eth_dev *dev);
int gaudi_dev_reset(rte_eth_dev *dev);
int gaudi_mtu_set(rte_eth_dev *dev, uint16_t mtu);
/* Create the ethdev of hardware port hw_port of an adapter (probe). */
int gaudi_port_create(gaudi_adapter *ad, rte_device *device, unsigned hw_port,
		      const uint8_t mac[6]);
/* Close every ethdev of a device (remove, or a failed probe). */
int gaudi_remove_ports(rte_device *device);
/* Drop a reference to the adapter: the last one (probe's or a port's) frees it. */
void gaudi_adapter_put(gaudi_adapter *ad);
/* Held to read an open port's adapter from a thread of DPDK's (telemetry), and by port
 * creation and dev_close to link and unlink it: gaudi_open_adapter's answer, its backend and
 * the port's rte_device stay alive while the lock is held. */
extern rte_spinlock_t gaudi_adapter_lock;
/* The adapter of ethdev port pid while that port is open, else null; under gaudi_adapter_lock.
 * For threads that must not read dev_private (freed when the port is released). */
gaudi_adapter *gaudi_open_adapter(uint16_t pid);
