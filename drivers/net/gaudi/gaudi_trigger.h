/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: port start and stop (gaudi_trigger.cpp).
 */
#pragma once

#include <ethdev_driver.h>

int gaudi_dev_start(rte_eth_dev *dev);
int gaudi_dev_stop(rte_eth_dev *dev);
