/* SPDX-License-Identifier: BSD-3-Clause */
#pragma once

#include <rte_log.h>

/* The PMD's log types, one per area as net/ena and mlx5 have them (registered in
 * gaudi_logs.cpp, levels set with EAL's --log-level=pmd.net.gaudi.<area>:<level>):
 *   pmd.net.gaudi.init    probe, bring-up, firmware (PMD_INIT_LOG)
 *   pmd.net.gaudi.driver  control path: configure, queue setup, start/stop, link, events,
 *                         recovery (PMD_DRV_LOG)
 *   pmd.net.gaudi.rx      rx datapath (PMD_RX_LOG)
 *   pmd.net.gaudi.tx      tx datapath (PMD_TX_LOG)
 * The model behind net_gaudi_emu logs under pmd.net.gaudi.emu (emu/gaudi_emu_log.h). */
extern int gaudi_logtype_init;
extern int gaudi_logtype_driver;
extern int gaudi_logtype_rx;
extern int gaudi_logtype_tx;

#define GAUDI_LOG_TYPE(type, level, fmt, ...) \
	rte_log(RTE_LOG_##level, type, "gaudi: " fmt "\n", ##__VA_ARGS__)

#define PMD_INIT_LOG(level, fmt, ...) GAUDI_LOG_TYPE(gaudi_logtype_init, level, fmt, ##__VA_ARGS__)
#define PMD_DRV_LOG(level, fmt, ...) GAUDI_LOG_TYPE(gaudi_logtype_driver, level, fmt, ##__VA_ARGS__)

/* The datapath's messages below GAUDI_LOG_DP_LEVEL are compiled out, as RTE_LOG_DP does (its
 * level, RTE_LOG_DP_LEVEL, is INFO in DPDK's rte_config.h): a build with
 * -Dcpp_args=-DGAUDI_LOG_DP_LEVEL=RTE_LOG_DEBUG keeps the DEBUG ones too. */
#ifndef GAUDI_LOG_DP_LEVEL
#define GAUDI_LOG_DP_LEVEL RTE_LOG_DP_LEVEL
#endif
#define GAUDI_LOG_DP(type, level, fmt, ...)                              \
	(void)((RTE_LOG_##level <= GAUDI_LOG_DP_LEVEL)                   \
		       ? GAUDI_LOG_TYPE(type, level, fmt, ##__VA_ARGS__) \
		       : 0)
#define PMD_RX_LOG(level, fmt, ...) GAUDI_LOG_DP(gaudi_logtype_rx, level, fmt, ##__VA_ARGS__)
#define PMD_TX_LOG(level, fmt, ...) GAUDI_LOG_DP(gaudi_logtype_tx, level, fmt, ##__VA_ARGS__)
