/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: the PHY (SerDes) of the ports, shared by both probes (base/gaudi_phy.h does the
 * register work). At probe, after NIC_INFO_GET: the PHY firmware is loaded into the SerDes of
 * every opened port and checked, the lane map and polarity of the board taken from
 * NIC_INFO_GET, the macros reset and the lanes remapped [hbl_cn_core_init ->
 * gaudi2_cn_phy_fw_load_all, gaudi2_cn_phy_init, gaudi2_cn_phy_reset_macro, mac_lane_remap].
 * At dev_start the port is powered up and its TX driver turned on; a per-port EAL alarm runs
 * the link-state machine (F/W tuning, then the PCS watch) [gaudi2_cn_phy_link_status_work];
 * the link is reported up only once the F/W tuned both lanes. dev_stop turns the TX driver off.
 */
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <rte_spinlock.h>

#include "base/gaudi_phy.h"
#include "gaudi_backend.h"
#include "gaudi_bringup.h"

struct rte_eth_dev;
struct gaudi_port;

/* Probe: load and check the PHY firmware, set the board's lane map and polarity, reset the
 * macros and remap the lanes of the ports to create. 0 and *phy, or a negative errno and a
 * line naming the file or step in *err. */
int gaudi_phy_bringup(gaudi::Backend &be, const gaudi_fw_state &fw,
		      const std::vector<gaudi_bringup_port> &ports,
		      std::unique_ptr<gaudi::hw::Phy> *phy, std::string *err);

/* dev_start / dev_stop of a port (primary). Start: 0 or a negative errno (logged). */
int gaudi_phy_start(rte_eth_dev *dev);
void gaudi_phy_stop(rte_eth_dev *dev);
/* Whether the PHY lets the link be reported up: tuned (polled once more if not yet). */
bool gaudi_phy_link_ready(gaudi_port *port);
