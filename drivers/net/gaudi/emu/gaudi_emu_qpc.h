/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model, QPC (gaudi_emu_qpc.cpp): the NIC's device memory the QP contexts
 * are stored in ([seq_check]). The contexts' images are the engines' (TxState::req,
 * RxState::res).
 */
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include <rte_spinlock.h>

namespace gaudi::emu {

/* [seq_check] The NIC's device memory, sparse: 4 KB pages made on first write; memory
 * never written reads 0. */
struct NicDram {
	rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER;
	std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages;
};

} /* namespace gaudi::emu */
