/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: link state, FEC, flow control (PAUSE and PFC).
 */
#pragma once

#include <ethdev_driver.h>

#include "gaudi_adapter.h"

/* rte_eth_dev_info speed_capa of a port running at s (devarg speed): that speed only. */
constexpr uint32_t gaudi_speed_capa(gaudi::hw::Speed s)
{
	return s == gaudi::hw::Speed::g25   ? RTE_ETH_LINK_SPEED_25G
	       : s == gaudi::hw::Speed::g50 ? RTE_ETH_LINK_SPEED_50G
					    : RTE_ETH_LINK_SPEED_100G;
}

int gaudi_link_update(rte_eth_dev *dev, int wait);
int gaudi_dev_set_link_up(rte_eth_dev *dev);
int gaudi_dev_set_link_down(rte_eth_dev *dev);
/* Current link of a port as ethdev reports it (down while the port is stopped). */
rte_eth_link gaudi_link_get(gaudi_port *port);

int gaudi_fec_get_capability(rte_eth_dev *dev, rte_eth_fec_capa *capa, unsigned num);
int gaudi_fec_get(rte_eth_dev *dev, uint32_t *capa);
int gaudi_fec_set(rte_eth_dev *dev, uint32_t capa);

int gaudi_flow_ctrl_get(rte_eth_dev *dev, rte_eth_fc_conf *fc);
int gaudi_flow_ctrl_set(rte_eth_dev *dev, rte_eth_fc_conf *fc);
int gaudi_priority_flow_ctrl_set(rte_eth_dev *dev, rte_eth_pfc_conf *pfc);
/* Power-up flow control: none, PAUSE ignored, default quanta and RXB thresholds. */
void gaudi_flow_defaults(gaudi_port *port);
