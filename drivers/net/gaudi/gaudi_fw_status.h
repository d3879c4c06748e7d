/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: each open port's status to the firmware (cpucp NIC_STATUS), from an EAL alarm
 * in the primary process; no datapath cost.
 *
 * hbl_cn fills struct cpucp_nic_status from its port state (hbl_cn.c hbl_cn_get_status,
 * gaudi2_cn.c gaudi2_cn_get_status) and sends it from a delayed work (hbl_cn_fw_status_work),
 * once when the firmware asks (on Gaudi2 the event GAUDI2_EVENT_CPU0_STATUS_NIC0_ENG0 + port,
 * answered with a one-shot status) or every `period` seconds after the firmware's
 * PERIODIC_START. This driver does not read the firmware's event queue: it sends the status
 * of every port it drives every nic_status_ms (devarg, default 1000 ms [choice]).
 */
#pragma once

#include <cstdint>

#include "base/gaudi_fw_if.h"

struct gaudi_adapter;
struct gaudi_port;

/* Start (period_ms > 0, primary with a firmware connection) the periodic status. */
void gaudi_fw_status_start(gaudi_adapter *ad, uint32_t period_ms);
/* Stop it; waits for a tick in progress. Before the adapter or its firmware goes. */
void gaudi_fw_status_stop(gaudi_adapter *ad);
/* The status of one port as hbl_cn fills it: port, up, and, when up, the link, auto-negotiation
 * and error counters; port_toggle_cnt always. */
gaudi::hw::fw::CpucpNicStatus gaudi_fw_status_of(const gaudi_port *port);
