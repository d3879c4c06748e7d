/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 QP contexts as written through the QPC gateway: requester 128 B, responder 32 B.
 * Bit offsets from include/linux/net/intel/gaudi2.h (REQ QPC 128 B, RES QPC 32 B).
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

/* Requester QPC [gaudi2.h REQ_QPC_SET_*; the research digest's table (b)]. */
inline constexpr uint32_t kReqDwords = 32;
inline constexpr Field REQ_SCHD_Q_NUM{312, 8};
inline constexpr Field REQ_WQ_BACK_PRESSURE{383, 1};
inline constexpr Field REQ_REMOTE_WQ_LOG_SZ{408, 5};
inline constexpr Field REQ_BURST_SIZE{544, 22};
inline constexpr Field REQ_LAST_IDX{576, 22};
inline constexpr Field REQ_EXECUTION_IDX{608, 22};
inline constexpr Field REQ_CONSUMER_IDX{640, 22};
inline constexpr Field REQ_DATA_MMU_BYPASS{1003, 1};
inline constexpr Field REQ_PORT{1005, 2};
inline constexpr Field REQ_WQ_TYPE{1007, 2};
inline constexpr Field REQ_TS{1010, 1};
inline constexpr Field REQ_MTU{1015, 2}; /* log2(mtu) - 10, rounded up */
inline constexpr Field REQ_WQ_BASE_ADDR{1017, 2};
inline constexpr Field REQ_TRUST{1019, 2};
inline constexpr Field REQ_ERROR{1022, 1};
inline constexpr Field REQ_VALID{1023, 1};

/* Responder QPC [gaudi2.h RES_QPC_SET_*]. */
inline constexpr uint32_t kResDwords = 8;
inline constexpr Field RES_PORT{24, 2};
inline constexpr Field RES_TS{149, 1};
inline constexpr Field RES_SCHD_Q_NUM{184, 8};
inline constexpr Field RES_TRUST{216, 2};
inline constexpr Field RES_MMU_BYPASS{219, 1};
inline constexpr Field RES_CQ_NUM{248, 5};
inline constexpr Field RES_VALID{255, 1};

/* The same fields by their public names, for the conformance test. */
struct FieldRow {
	const char *ctx; /* "requester" or "responder" */
	const char *name;
	Field f;
};
inline constexpr FieldRow kFieldRows[] = {
	{"requester", "SCHD_Q_NUM", REQ_SCHD_Q_NUM},
	{"requester", "WQ_BACK_PRESSURE", REQ_WQ_BACK_PRESSURE},
	{"requester", "REMOTE_WQ_LOG_SZ", REQ_REMOTE_WQ_LOG_SZ},
	{"requester", "BURST_SIZE", REQ_BURST_SIZE},
	{"requester", "LAST_IDX", REQ_LAST_IDX},
	{"requester", "EXECUTION_IDX", REQ_EXECUTION_IDX},
	{"requester", "CONSUMER_IDX", REQ_CONSUMER_IDX},
	{"requester", "DATA_MMU_BYPASS", REQ_DATA_MMU_BYPASS},
	{"requester", "PORT", REQ_PORT},
	{"requester", "WQ_TYPE", REQ_WQ_TYPE},
	{"requester", "TRANSPORT_SERVICE", REQ_TS},
	{"requester", "MTU", REQ_MTU},
	{"requester", "WQ_BASE_ADDR", REQ_WQ_BASE_ADDR},
	{"requester", "TRUST_LEVEL", REQ_TRUST},
	{"requester", "ERROR", REQ_ERROR},
	{"requester", "VALID", REQ_VALID},
	{"responder", "PORT", RES_PORT},
	{"responder", "TRANSPORT_SERVICE", RES_TS},
	{"responder", "SCHD_Q_NUM", RES_SCHD_Q_NUM},
	{"responder", "TRUST_LEVEL", RES_TRUST},
	{"responder", "DATA_MMU_BYPASS", RES_MMU_BYPASS},
	{"responder", "CQ_NUM", RES_CQ_NUM},
	{"responder", "VALID", RES_VALID},
};

inline constexpr uint32_t TS_RC = 0;
inline constexpr uint32_t TS_RAW = 1;
inline constexpr uint32_t WQ_TYPE_WRITE = 1;
inline constexpr uint32_t TRUST_SECURED = 1;
/* Scheduling queue of the raw QP: TXS_PORT_RAW_SCHED_Q (15) x HBL_EN_PFC_PRIO_NUM (4) +
 * GAUDI2_PFC_PRIO_DRIVER (0) [gaudi2_cn.h, cn.h, gaudi2_cn.c]: the group x priorities +
 * priority formula of gaudi2_cn_txs_get_schedq_num, which itself serves only the requester and
 * responder groups. [choice] in part: the line of gaudi2_cn.c that stores the raw value into
 * the Ethernet aux data was not found (searched "schedq_num =", "TXS_PORT_RAW_SCHED_Q *",
 * "schedq_num(GAUDI2_PFC_PRIO_DRIVER": only gaudi2_en.c's read of aux_data->schedq_num). */
inline constexpr uint32_t kRawSchedQ = 15 * 4 + 0;
/* REMOTE_WQ_LOG_SZ the Ethernet driver writes [gaudi2_en.c req_qpc_init]. */
inline constexpr uint32_t kRawRemoteWqLogSz = 1;

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

} /* namespace gaudi::hw::qpc */
