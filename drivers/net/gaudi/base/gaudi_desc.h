/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC descriptors in host memory: TX WQE (32 B), CQE (16 B), EQE (16 B), doorbell (8 B).
 *
 * Layouts: include/linux/net/intel/gaudi2.h (HabanaAI/drivers.gpu.linux-nic.kernel) and
 * coral-sim gaudi2_prm.h (HabanaAI/Intel_Gaudi3_Software, the functional simulator). All words are little-endian as the device writes them.
 */
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace gaudi::hw {

/* TX send WQE, 32 bytes [gaudi2.h, gaudi2_prm.h]:
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
constexpr uint32_t wqe_index(uint32_t ctrl) { return (ctrl >> WQE_INDEX_SHIFT) & WQE_INDEX_MASK; }

/* CQE, 16 bytes [gaudi2.h, gaudi2_prm.h]: d0 valid [31], is_req [24], QPN [23:0]; d1 WQE index (for the
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

/* EQE, 16 bytes [gaudi2.h EQE types, gaudi2_prm.h]: d0 valid [31], type [3:0]; d1, d2 per type:
 *   COMP: d1 CQ number [15:0], d2 CQ PI     QP_ERR: d1 QPN [23:0] (bit 31 = reset), d2 syndrome
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
 * [gaudi2_cn.c RXE SPI causes]. Those marked [choice] have no public number. */
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

/* Conformance rows: what this header uses, in the terms of the research digest of the structures
 * section (c), computed from the constants and structs above so they cannot drift from them;
 * tests/test_regmap_conformance_docs.cpp checks each row against the digest. Bits are absolute
 * within the entry (dword d, bit b = d * 32 + b). */
struct DescFieldRow {
	const char *desc; /* "TxWqe", "Cqe", "Eqe", "EqIdx" */
	const char *name; /* digest's Field name (WQE) or a unique part of its Meaning (CQE/EQE) */
	uint32_t bit;
	uint32_t width;
};
inline constexpr DescFieldRow kDescFieldRows[] = {
	{"TxWqe", "OPCODE", std::countr_zero(WQE_OPCODE_MASK), std::popcount(WQE_OPCODE_MASK)},
	{"TxWqe", "WQE_INDEX", WQE_INDEX_SHIFT, std::popcount(WQE_INDEX_MASK)},
	{"TxWqe", "SE", std::countr_zero(WQE_SE), std::popcount(WQE_SE)},
	{"TxWqe", "INLINE", std::countr_zero(WQE_INLINE), std::popcount(WQE_INLINE)},
	{"TxWqe", "ACKREQ", std::countr_zero(WQE_ACKREQ), std::popcount(WQE_ACKREQ)},
	{"TxWqe", "SIZE", offsetof(TxWqe, size) * 8, sizeof(TxWqe::size) * 8},
	{"TxWqe", "LOCAL_ADDR", offsetof(TxWqe, local_addr) * 8, sizeof(TxWqe::local_addr) * 8},
	{"TxWqe", "REMOTE_ADDR", offsetof(TxWqe, remote_addr) * 8, sizeof(TxWqe::remote_addr) * 8},
	{"TxWqe", "TAG", offsetof(TxWqe, tag) * 8, sizeof(TxWqe::tag) * 8},
	{"Cqe", "valid", offsetof(Cqe, d0) * 8 + std::countr_zero(CQE_VALID),
	 std::popcount(CQE_VALID)},
	{"Cqe", "is-requester", offsetof(Cqe, d0) * 8 + std::countr_zero(CQE_IS_REQ),
	 std::popcount(CQE_IS_REQ)},
	{"Cqe", "QPN", offsetof(Cqe, d0) * 8 + std::countr_zero(CQE_QPN_MASK),
	 std::popcount(CQE_QPN_MASK)},
	{"Cqe", "WQE index", offsetof(Cqe, wqe_index) * 8, sizeof(Cqe::wqe_index) * 8},
	{"Cqe", "tag", offsetof(Cqe, tag) * 8, sizeof(Cqe::tag) * 8},
	{"Cqe", "raw packet size", offsetof(Cqe, size) * 8, sizeof(Cqe::size) * 8},
	{"Eqe", "valid", offsetof(Eqe, d0) * 8 + std::countr_zero(EQE_VALID),
	 std::popcount(EQE_VALID)},
	{"Eqe", "event type", offsetof(Eqe, d0) * 8 + std::countr_zero(EQE_TYPE_MASK),
	 std::popcount(EQE_TYPE_MASK)},
	{"Eqe", "QP_ERR: \"reset\" flag",
	 offsetof(Eqe, d1) * 8 + std::countr_zero(EQE_QP_ERR_RESET),
	 std::popcount(EQE_QP_ERR_RESET)},
	{"Eqe", "QPN", offsetof(Eqe, d1) * 8 + std::countr_zero(EQE_QPN_MASK),
	 std::popcount(EQE_QPN_MASK)},
	{"EqIdx", "EQ index mask", std::countr_zero(EQ_IDX_MASK), std::popcount(EQ_IDX_MASK)},
};

/* Enumerator values keyed by the digest's names (opcode list, "EQE type | Value" table) or, for
 * syndromes, by a part of the digest's Meaning text. */
struct EnumRow {
	const char *name;
	uint32_t value;
};
inline constexpr EnumRow kWqeOpcodeRows[] = {
	{"NOP", uint32_t(WqeOpcode::nop)},
	{"SEND", uint32_t(WqeOpcode::send)},
	{"LINEAR", uint32_t(WqeOpcode::linear)},
	{"STRIDE", uint32_t(WqeOpcode::stride)},
	{"MULTI_STRIDE", uint32_t(WqeOpcode::multi_stride)},
	{"RENDEZVOUS_WR", uint32_t(WqeOpcode::rendezvous_wr)},
	{"RENDEZVOUS_RD", uint32_t(WqeOpcode::rendezvous_rd)},
	{"QOS_UPDATE", uint32_t(WqeOpcode::qos_update)},
};
inline constexpr EnumRow kEqeTypeRows[] = {
	{"COMP", uint32_t(EqeType::comp)},
	{"COMP_ERR", uint32_t(EqeType::comp_err)},
	{"QP_ERR", uint32_t(EqeType::qp_err)},
	{"LINK_STATUS", uint32_t(EqeType::link_status)},
	{"RAW_TX_COMP", uint32_t(EqeType::raw_tx_comp)},
	{"DB_FIFO_OVERRUN", uint32_t(EqeType::db_fifo_overrun)},
	{"CONG", uint32_t(EqeType::cong)},
	{"CONG_ERR", uint32_t(EqeType::cong_err)},
};
/* Syndromes with a public code [CNC qp_syndromes]; the name is a part of the digest's Meaning. */
inline constexpr EnumRow kQpErrSyndromeRows[] = {
	{"requester doorbell on a QP that is not valid",
	 uint32_t(QpErrSyndrome::req_db_qp_not_valid)},
	{"requester doorbell PI > last index", uint32_t(QpErrSyndrome::pi_exceeds_last_index)},
	{"wqe_index ≠ execution index bits 7:0", uint32_t(QpErrSyndrome::wqe_index_mismatch)},
	{"raw packet size not supported", uint32_t(QpErrSyndrome::raw_wqe_size_unsupported)},
	{"raw above MIN", uint32_t(QpErrSyndrome::raw_above_max_size)},
	{"raw below MAX", uint32_t(QpErrSyndrome::raw_below_min_size)},
	{"SE on a non-raw QP", uint32_t(QpErrSyndrome::wqe_se_not_raw)},
};
/* Syndromes that are our [choice] (doc/guides/gaudi_hw_model.rst): their codes must NOT be in
 * the published table, or they would mean something else there. */
inline constexpr EnumRow kQpErrSyndromeChoiceRows[] = {
	{"raw_wqe_opcode_unsupported", uint32_t(QpErrSyndrome::raw_wqe_opcode_unsupported)},
	{"wqe_dma_fault", uint32_t(QpErrSyndrome::wqe_dma_fault)},
};

} /* namespace gaudi::hw */
