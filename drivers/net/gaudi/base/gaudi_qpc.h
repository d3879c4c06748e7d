/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 QP contexts as written through the QPC gateway: requester 128 B, responder 32 B.
 * Bit offsets from include/linux/net/intel/gaudi2.h [regs "REQ QPC 128B", "RES QPC 32B"].
 * Only the fields the raw Ethernet QP uses are named; the rest stay zero.
 */
#pragma once

#include <array>
#include <cstdint>

namespace gaudi::hw::qpc {

struct Field {
	uint32_t bit;
	uint32_t width;
};

/* Requester QPC. */
inline constexpr uint32_t kReqDwords = 32;
inline constexpr Field REQ_SCHD_Q_NUM{312, 8};
inline constexpr Field REQ_WQ_BACK_PRESSURE{383, 1};
inline constexpr Field REQ_BURST_SIZE{544, 22};
inline constexpr Field REQ_LAST_IDX{576, 22};
inline constexpr Field REQ_EXECUTION_IDX{608, 22};
inline constexpr Field REQ_DATA_MMU_BYPASS{1003, 1};
inline constexpr Field REQ_PORT{1005, 2};
inline constexpr Field REQ_WQ_TYPE{1007, 2};
inline constexpr Field REQ_TS{1010, 1};
inline constexpr Field REQ_MTU{1015, 2}; /* log2(mtu) - 10, rounded up */
inline constexpr Field REQ_TRUST{1019, 2};
inline constexpr Field REQ_ERROR{1022, 1};
inline constexpr Field REQ_VALID{1023, 1};

/* Responder QPC. */
inline constexpr uint32_t kResDwords = 8;
inline constexpr Field RES_PORT{24, 2};
inline constexpr Field RES_TS{149, 1};
inline constexpr Field RES_CQ_NUM{248, 5};
inline constexpr Field RES_MMU_BYPASS{219, 1};
inline constexpr Field RES_VALID{255, 1};

inline constexpr uint32_t TS_RC = 0;
inline constexpr uint32_t TS_RAW = 1;
inline constexpr uint32_t WQ_TYPE_WRITE = 1;
inline constexpr uint32_t TRUST_SECURED = 1;

/* A QPC image plus the gateway mask of the dwords/bits being written. */
template <uint32_t N>
struct Image {
	std::array<uint32_t, N> data{};
	std::array<uint32_t, N> mask{};

	constexpr void set(Field f, uint32_t v)
	{
		for (uint32_t i = 0; i < f.width; i++) {
			uint32_t b = f.bit + i, w = b / 32, s = b % 32;
			mask[w] |= 1u << s;
			data[w] = (data[w] & ~(1u << s)) | (((v >> i) & 1u) << s);
		}
	}
	constexpr uint32_t get(Field f) const
	{
		uint32_t v = 0;
		for (uint32_t i = 0; i < f.width; i++) {
			uint32_t b = f.bit + i;
			v |= ((data[b / 32] >> (b % 32)) & 1u) << i;
		}
		return v;
	}
};
using ReqImage = Image<kReqDwords>;
using ResImage = Image<kResDwords>;

} // namespace gaudi::hw::qpc
