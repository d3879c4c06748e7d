/* SPDX-License-Identifier: BSD-3-Clause */
#pragma once

#include <rte_log.h>

/* The log type of the model and of net_gaudi_emu, pmd.net.gaudi.emu (registered in
 * gaudi_emu.cpp): the emulated NIC's messages apart from the PMD core's (issue 23), and DPDK
 * 24.11 removed the generic RTE_LOGTYPE_PMD the model logged under before. */
extern int gaudi_emu_logtype;

/* net_gaudi_emu's probe messages (gaudi_vdev*.cpp): the driver's "gaudi: " prefix, as the PCI
 * probe's. The model's own lines start with "gaudi_emu: ". */
#define GAUDI_EMU_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, gaudi_emu_logtype, "gaudi: " fmt "\n", ##__VA_ARGS__)
