/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model, EQ (gaudi_emu_eq.cpp): a port's event queue.
 */
#pragma once

#include <cstdint>

#include <rte_spinlock.h>

#include "gaudi_emu_iommu.h"

namespace gaudi::emu {

struct alignas(64) EqState {
	rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER;
	uint32_t pi = 0;   /* 24-bit producer index */
	uint64_t lost = 0; /* events the full (or unmapped) EQ could not take */
	IommuCache cache;
};

} /* namespace gaudi::emu */
