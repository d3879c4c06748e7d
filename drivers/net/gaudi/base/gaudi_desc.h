/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC descriptors in host memory: TX WQE (32 B), CQE (16 B), EQE (16 B), doorbell (8 B).
 *
 * Layouts: include/linux/net/intel/gaudi2.h and coral-sim gaudi2_prm.h [regs "Gaudi2 hbl",
 * "Gaudi2 functional simulator"]. All words are little-endian as the device writes them.
 */
#pragma once

#include <cstdint>

namespace gaudi::hw {

/* TX send WQE, 32 bytes [regs "TX WQE 32B"]:
 *   w0: opcode [4:0], trace evt data [5], trace evt [6], wqe index [15:8], reduction [28:16],
 *       SE (solicited event) [29], INLINE [30], ACKREQ [31]; w1: SIZE (bytes);
 *   local address (qword 1); remote address (qword 2); tag (w6); remote SOB / completion (w7). */
struct TxWqe {
	uint32_t ctrl;
	uint32_t size;
	uint64_t local_addr;
	uint64_t remote_addr;
	uint32_t tag;
	uint32_t completion;
};
static_assert(sizeof(TxWqe) == 32);

enum class WqeOpcode : uint32_t {
	nop = 0, send = 1, linear = 2, stride = 3, multi_stride = 4,
	rendezvous_wr = 5, rendezvous_rd = 6, qos_update = 7,
};
inline constexpr uint32_t WQE_OPCODE_MASK = 0x1F;
inline constexpr uint32_t WQE_INDEX_SHIFT = 8;
inline constexpr uint32_t WQE_INDEX_MASK = 0xFF;
inline constexpr uint32_t WQE_SE = 1u << 29;
inline constexpr uint32_t WQE_INLINE = 1u << 30;
inline constexpr uint32_t WQE_ACKREQ = 1u << 31;

constexpr uint32_t wqe_ctrl(WqeOpcode op, uint32_t index, bool solicited)
{
	return static_cast<uint32_t>(op) | ((index & WQE_INDEX_MASK) << WQE_INDEX_SHIFT) |
	       (solicited ? WQE_SE : 0);
}
constexpr WqeOpcode wqe_opcode(uint32_t ctrl) { return WqeOpcode(ctrl & WQE_OPCODE_MASK); }
constexpr uint32_t wqe_index(uint32_t ctrl) { return (ctrl >> WQE_INDEX_SHIFT) & WQE_INDEX_MASK; }

/* CQE, 16 bytes [regs "CQE 16B"]: d0 valid [31], is_req [24], QPN [23:0]; d1 WQE index (for the
 * raw QP: the RX slot); d2 tag; d3 raw packet size in bytes (without FCS). Software clears valid. */
struct Cqe {
	uint32_t d0;
	uint32_t wqe_index;
	uint32_t tag;
	uint32_t size;
};
static_assert(sizeof(Cqe) == 16);
inline constexpr uint32_t CQE_VALID = 1u << 31;
inline constexpr uint32_t CQE_IS_REQ = 1u << 24;
inline constexpr uint32_t CQE_QPN_MASK = 0x00FFFFFF;

/* EQE, 16 bytes [regs "EQE types", gaudi2_prm.h]: d0 valid [31], type [3:0]; d1, d2 per type:
 *   COMP: d1 CQ number [15:0], d2 CQ PI     QP_ERR: d1 QPN [23:0] (bit 31 = requester), d2 syndrome
 *   LINK_STATUS: d1 timestamp, d2 status [3:0] (bit 0 = link up)
 *   RAW_TX_COMP: d1 QPN, d2 execution index of the completed (solicited) WQE
 *   DB_FIFO_OVERRUN: d1 doorbell FIFO number. Software clears valid. */
struct Eqe {
	uint32_t d0;
	uint32_t d1;
	uint32_t d2;
	uint32_t d3;
};
static_assert(sizeof(Eqe) == 16);
inline constexpr uint32_t EQE_VALID = 1u << 31;
inline constexpr uint32_t EQE_TYPE_MASK = 0xF;
enum class EqeType : uint32_t {
	comp = 0, comp_err = 1, qp_err = 2, link_status = 3, raw_tx_comp = 4,
	db_fifo_overrun = 5, cong = 6, cong_err = 7,
};
/* QP_ERR: d1 bit 31 is the "reset" flag [gaudi2.h EQE_QP_EVENT_RESET]. */
inline constexpr uint32_t EQE_QP_ERR_RESET = 1u << 31;
inline constexpr uint32_t EQE_QPN_MASK = 0x00FFFFFF;
/* EQ indices are 24 bits [gaudi2_cn_eq.c, EVENT_QUE_CONSUMER_INDEX.CI]. */
inline constexpr uint32_t EQ_IDX_MASK = 0x00FFFFFF;

/* QP error syndromes, 8 bits: [7:6] class (0 rx packet, 1 QPC, 2 tx packet) | 6-bit code
 * [regs "gaudi2_cn.c" RXE SPI causes]. Those marked [choice] have no public number. */
enum class QpErrSyndrome : uint32_t {
	req_db_qp_not_valid = 0x41,
	pi_exceeds_last_index = 0x43,
	wqe_index_mismatch = 0x91,
	raw_wqe_size_unsupported = 0x95,
	raw_wqe_opcode_unsupported = 0x96, /* [choice] */
	wqe_dma_fault = 0xA0,              /* [choice] IOMMU fault on WQE local address */
	raw_above_max_size = 0xB2,         /* "RAW above MIN": size > WQE_CHECK_CFG4 */
	raw_below_min_size = 0xB3,         /* "RAW below MAX": size < WQE_CHECK_CFG5 (H6-3399) */
	wqe_se_not_raw = 0xBC,
};

/* Doorbell, 8 bytes [gaudi2_cn.c, gaudi2_en.c]: FIRST32 = the new producer index of the QP's WQ as
 * a ring index ((slot + 1) mod ring size); SECOND32 = QPN. A dummy doorbell (FIFO drain) carries
 * PI 0 and the unused QPN NIC_MAX_QP_NUM [gaudi2_cn.c db_fifo_push_dummy]. */
inline constexpr uint32_t DB_PI_MASK = 0x3FFFFF; /* WQ indices are 22 bits (QPC LAST_IDX) */
inline constexpr uint32_t kMaxQpNum = 8192;      /* NIC_MAX_QP_NUM [gaudi2_cn.h] */
inline constexpr uint32_t WQ_IDX_MASK = DB_PI_MASK;

} // namespace gaudi::hw
