/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: the driver's log type (gaudi_logs.h).
 */
#include <rte_log.h>

#include "gaudi_logs.h"

RTE_LOG_REGISTER_DEFAULT(gaudi_logtype, NOTICE);
