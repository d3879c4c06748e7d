/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model, RXB (gaudi_emu_rxb.cpp): a port's share of its macro's RX buffer.
 */
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "../base/gaudi_hw_defs.h"
#include "../base/gaudi_regs.h"
#include "gaudi_emu_common.h"

namespace gaudi::emu {

/* The port's share of its macro's RXB (gaudi_emu_rxb.cpp): frames the MAC took
 * while the CQ was full wait here, oldest first, in 128-byte buffers, until the CQ
 * has room; one is dropped when the fill has reached the DROP_THRESHOLD of
 * priority 0, and the MAC sends XOFF while the fill is past XOFF_THRESHOLD, until
 * it is back at XON_THRESHOLD. Under rx.lock; frames also read without it (a
 * cheap look by the engine for work). */
struct RxbState {
	static constexpr uint32_t kBuffers = reg::kRxbBuffers; /* the macro's */
	static constexpr uint32_t kBytes = kBuffers * 128 + kMacMaxFrameLen;
	/* A frame that starts near the end runs on into the slack past kBuffers
	 * buffers (never wrapped), while its buffers are counted from 0. */
	std::unique_ptr<uint8_t[]> buf = std::make_unique_for_overwrite<uint8_t[]>(kBytes);
	std::unique_ptr<uint16_t[]> len = std::make_unique_for_overwrite<uint16_t[]>(kBuffers);
	uint32_t head = 0, tail = 0; /* free-running frame counts */
	uint32_t head_buf = 0;	     /* first buffer of the oldest frame */
	uint32_t fill = 0;	     /* buffers in use */
	bool xoff = false;	     /* the MAC is sending XOFF */
	std::atomic<uint32_t> frames{0};
};

} /* namespace gaudi::emu */
