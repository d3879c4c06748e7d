/* SPDX-License-Identifier: BSD-3-Clause */
#pragma once

#include <cstdint>
#include <cstring>

#include "../base/gaudi_hw_defs.h"

namespace gaudi::emu {

inline constexpr uint32_t kEtherHdrLen = 14;

/* [model] Frames a host hands over (a capture taken at the sender, a TAP, a socket) lack
 * the padding the sending MAC adds on a cable: one of 14..59 bytes is zero-padded to 60.
 * Less than a header stays a runt, which the receiving MAC drops. dst holds at least
 * hw::kMinFrameNoFcs bytes and may be src. Returns the length on the wire. */
inline uint32_t pad_like_sender_mac(uint8_t *dst, const uint8_t *src, uint32_t len)
{
	if (len < kEtherHdrLen || len >= hw::kMinFrameNoFcs)
		return len;
	if (dst != src)
		std::memcpy(dst, src, len);
	std::memset(dst + len, 0, hw::kMinFrameNoFcs - len);
	return hw::kMinFrameNoFcs;
}

} /* namespace gaudi::emu */
