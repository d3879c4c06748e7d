/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: basic and extended statistics.
 */
#pragma once

#include <ethdev_driver.h>

int gaudi_stats_get(rte_eth_dev *dev, rte_eth_stats *st);
int gaudi_stats_reset(rte_eth_dev *dev);
struct gaudi_port;
struct gaudi_rxq;
struct gaudi_txq;
/* A queue about to be released: its counters go on in the port's (gaudi_port::stats_base). */
void gaudi_stats_base_add_rxq(gaudi_port *port, const gaudi_rxq *rxq);
void gaudi_stats_base_add_txq(gaudi_port *port, const gaudi_txq *txq);
int gaudi_xstats_get(rte_eth_dev *dev, rte_eth_xstat *xs, unsigned n);
int gaudi_xstats_get_names(rte_eth_dev *dev, rte_eth_xstat_name *names, unsigned n);
int gaudi_xstats_reset(rte_eth_dev *dev);
