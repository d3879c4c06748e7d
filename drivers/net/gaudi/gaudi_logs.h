/* SPDX-License-Identifier: BSD-3-Clause */
#pragma once

#include <rte_log.h>

extern int gaudi_logtype;

#define GAUDI_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, gaudi_logtype, "gaudi: " fmt "\n", ##__VA_ARGS__)
