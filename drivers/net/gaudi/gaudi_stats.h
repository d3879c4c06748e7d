/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: basic and extended statistics.
 */
#pragma once

#include <ethdev_driver.h>

#include "gaudi_compat.h"

int gaudi_stats_get(rte_eth_dev *dev, rte_eth_stats *st, gaudi_queue_stats *qs);
int gaudi_stats_reset(rte_eth_dev *dev);
struct gaudi_port;
struct gaudi_rxq;
struct gaudi_txq;
/* A queue about to be released: its counters go on in the port's (gaudi_port::stats_base). */
void gaudi_stats_base_add_rxq(gaudi_port *port, const gaudi_rxq *rxq);
void gaudi_stats_base_add_txq(gaudi_port *port, const gaudi_txq *txq);
/* The port's MAC counters from 0: the macro's counter sets cleared (hbl_cn
 * gaudi2_cn_reset_mac_stats), the sibling port's counts kept in its mac_*_base. */
void gaudi_mac_stats_reset(gaudi_port *port);
int gaudi_xstats_get(rte_eth_dev *dev, rte_eth_xstat *xs, unsigned n);
int gaudi_xstats_get_names(rte_eth_dev *dev, rte_eth_xstat_name *names, unsigned n);
int gaudi_xstats_reset(rte_eth_dev *dev);
