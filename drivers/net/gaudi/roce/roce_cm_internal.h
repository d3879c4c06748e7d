/* SPDX-License-Identifier: BSD-3-Clause */
/* What roce_cm.cpp (application calls, timers) and roce_cm_recv.cpp (received MADs) share. */
#ifndef GAUDI_ROCE_CM_INTERNAL_H
#define GAUDI_ROCE_CM_INTERNAL_H

#include <cstddef>
#include <cstdint>

#include "roce_cm.h"

namespace gaudi::roce::cm_detail {

/* REQ private data after librdmacm's cma_hdr: 92 - 36 = 56 bytes for the application. */
inline constexpr size_t kReqUserData = 92 - mad::kCmaHdrSize;

/* A REQ's path MTU code as the verbs enum; an out-of-range code reads as 1024. */
inline ibv_mtu mtu_code(uint8_t v)
{
	return v >= IBV_MTU_256 && v <= IBV_MTU_4096 ? ibv_mtu(v) : IBV_MTU_1024;
}

} /* namespace gaudi::roce::cm_detail */

#endif /* GAUDI_ROCE_CM_INTERNAL_H */
