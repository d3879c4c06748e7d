/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model, sync manager (gaudi_emu_sm.cpp): the objects the EQ interrupt's
 * route to MSI-X uses.
 */
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>

#include <rte_spinlock.h>

#include "../base/gaudi_bar.h"
#include "../base/gaudi_hw_defs.h"
#include "../base/gaudi_sm.h"

namespace gaudi::emu {

/* The sync manager's objects (gaudi_emu_sm.cpp), as far as the NIC's EQ interrupt uses
 * them: SOBs, monitors and the virtual MSI-X doorbell (base/gaudi_sm.h). Under lock. */
struct SmModel {
	static constexpr unsigned kMsixVectors = kMsixNicPortFirst + kMaxPorts;
	rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER;
	std::unique_ptr<uint32_t[]> regs; /* the window, sm::kWindowSize bytes */
	std::array<uint64_t, hw::sm::kMonitors / 64> armed{}; /* bit per monitor */
	BarHooks hooks{};
	Bar bar;
	std::array<std::atomic<int>, kMsixVectors> msix_fd; /* eventfd per vector, or -1 */
	uint64_t msix = 0;				    /* doorbell writes turned into MSI-X */
	uint64_t lost = 0; /* monitor writes the model has nowhere to put */
};

} /* namespace gaudi::emu */
