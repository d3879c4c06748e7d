/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: what the port reports about itself: device info, burst mode, firmware
 * version, packet types, module EEPROM, register dump.
 */
#pragma once

#include <ethdev_driver.h>

#include "gaudi_compat.h"

int gaudi_dev_infos_get(rte_eth_dev *dev, rte_eth_dev_info *info);
int gaudi_burst_mode_get(rte_eth_dev *dev, uint16_t qid, rte_eth_burst_mode *mode);
int gaudi_fw_version_get(rte_eth_dev *dev, char *fw, size_t len);
const uint32_t *gaudi_ptypes_get(rte_eth_dev *dev, size_t *no_of_elements);
int gaudi_ptypes_set(rte_eth_dev *dev, uint32_t ptype_mask);
int gaudi_get_module_info(rte_eth_dev *dev, rte_eth_dev_module_info *info);
int gaudi_get_module_eeprom(rte_eth_dev *dev, rte_dev_eeprom_info *info);
int gaudi_get_reg(rte_eth_dev *dev, rte_dev_reg_info *info);
