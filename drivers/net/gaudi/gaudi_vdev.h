/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: net_gaudi_emu, the NIC as a software model (gaudi_vdev.cpp: its Backend and
 * probe; gaudi_vdev_args.cpp: its devargs; gaudi_vdev_telemetry.cpp: its telemetry).
 */
#pragma once

#include "emu/gaudi_emu.h"

struct gaudi_adapter;
struct rte_device;

/* The model behind an adapter, when device is driven by net_gaudi_emu in the primary; null
 * otherwise. */
const gaudi::emu::Device *gaudi_vdev_model(const gaudi_adapter *ad, const rte_device *device);
