/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: the driver's log types (gaudi_logs.h), named from RTE_LOG_DEFAULT_LOGTYPE
 * (pmd.net.gaudi, set in meson.build) as DPDK's drivers name theirs.
 */
#include <rte_log.h>

#include "gaudi_logs.h"

RTE_LOG_REGISTER_SUFFIX(gaudi_logtype_init, init, NOTICE);
RTE_LOG_REGISTER_SUFFIX(gaudi_logtype_driver, driver, NOTICE);
RTE_LOG_REGISTER_SUFFIX(gaudi_logtype_rx, rx, NOTICE);
RTE_LOG_REGISTER_SUFFIX(gaudi_logtype_tx, tx, NOTICE);
