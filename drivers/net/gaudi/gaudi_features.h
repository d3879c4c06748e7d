/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: ethdev control-path features beyond the basic port life cycle (interrupts, MAC
 * filters, flow control, FEC, statistics, module and register dumps). gaudi_ethdev.cpp puts
 * these into its eth_dev_ops.
 */
#pragma once

#include <ethdev_driver.h>

#include "base/gaudi_regs.h"
#include "gaudi_ethdev.h"

/* Station address (RXB TS_RAW0) + unicast addresses the driver filters in software. */
inline constexpr unsigned kGaudiMaxMacAddrs = 1 + 15;
inline constexpr unsigned kGaudiMaxMcAddrs = 32;
/* Program RXB and the software filter from the port's promisc/allmulti and address lists. */
void gaudi_rx_filter_apply(gaudi_port *port);

int gaudi_burst_mode_get(rte_eth_dev *dev, uint16_t qid, rte_eth_burst_mode *mode);
int gaudi_fw_version_get(rte_eth_dev *dev, char *fw, size_t len);
const uint32_t *gaudi_ptypes_get(rte_eth_dev *dev);

int gaudi_xstats_get(rte_eth_dev *dev, rte_eth_xstat *xs, unsigned n);
int gaudi_xstats_get_names(rte_eth_dev *dev, rte_eth_xstat_name *names, unsigned n);
int gaudi_xstats_reset(rte_eth_dev *dev);

int gaudi_fec_get_capability(rte_eth_dev *dev, rte_eth_fec_capa *capa, unsigned num);
int gaudi_fec_get(rte_eth_dev *dev, uint32_t *capa);
int gaudi_fec_set(rte_eth_dev *dev, uint32_t capa);

int gaudi_get_module_info(rte_eth_dev *dev, rte_eth_dev_module_info *info);
int gaudi_get_module_eeprom(rte_eth_dev *dev, rte_dev_eeprom_info *info);
int gaudi_get_reg(rte_eth_dev *dev, rte_dev_reg_info *info);

int gaudi_flow_ctrl_get(rte_eth_dev *dev, rte_eth_fc_conf *fc);
int gaudi_flow_ctrl_set(rte_eth_dev *dev, rte_eth_fc_conf *fc);
int gaudi_priority_flow_ctrl_set(rte_eth_dev *dev, rte_eth_pfc_conf *pfc);
/* Power-up flow control: none, PAUSE ignored, default quanta and RXB thresholds. */
void gaudi_flow_defaults(gaudi_port *port);

int gaudi_mac_addr_add(rte_eth_dev *dev, rte_ether_addr *addr, uint32_t index, uint32_t vmdq);
void gaudi_mac_addr_remove(rte_eth_dev *dev, uint32_t index);
/* Re-write every extra unicast filter from dev->data->mac_addrs (start, reset). */
void gaudi_mac_filters_restore(rte_eth_dev *dev);
int gaudi_set_mc_addr_list(rte_eth_dev *dev, rte_ether_addr *list, uint32_t n);

int gaudi_dev_set_link_up(rte_eth_dev *dev);
int gaudi_dev_set_link_down(rte_eth_dev *dev);
/* Current link of a port as ethdev reports it (down while the port is stopped). */
rte_eth_link gaudi_link_get(gaudi_port *port);

/* Interrupts: LSC through the event queue (QPC interrupt 9), Rx through the raw CQ arm (QPC
 * interrupt 4). Only net_gaudi_emu can deliver them (the model signals eventfds). */
int gaudi_intr_init(rte_eth_dev *dev);      /* probe */
void gaudi_intr_uninit(rte_eth_dev *dev);   /* close */
int gaudi_intr_configure(rte_eth_dev *dev); /* dev_configure: intr_conf checks, rx eventfds */
void gaudi_intr_start(rte_eth_dev *dev);    /* dev_start, before the MAC is enabled */
void gaudi_intr_stop(rte_eth_dev *dev);     /* dev_stop */
int gaudi_rx_queue_intr_enable(rte_eth_dev *dev, uint16_t qid);
int gaudi_rx_queue_intr_disable(rte_eth_dev *dev, uint16_t qid);
