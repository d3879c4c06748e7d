/* SPDX-License-Identifier: BSD-3-Clause */
#pragma once

/* The model's log type, pmd.net.gaudi.emu (registered in gaudi_emu.cpp): DPDK 24.11 removed
 * the generic RTE_LOGTYPE_PMD the model logged under before. */
extern int gaudi_emu_logtype;
