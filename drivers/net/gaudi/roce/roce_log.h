/* SPDX-License-Identifier: BSD-3-Clause */
#pragma once

#include <rte_log.h>

/* The RoCE layer's log type, lib.roce (registered in roce_verbs.cpp): the layer is a library
 * over any ethdev port, not part of a PMD, so it is named as DPDK's libraries name theirs.
 * Levels as for any type: EAL's --log-level=lib.roce:debug. */
extern int roce_logtype;

#define ROCE_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, roce_logtype, "roce: " fmt "\n", ##__VA_ARGS__)
