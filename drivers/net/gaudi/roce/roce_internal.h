/* SPDX-License-Identifier: BSD-3-Clause */
/* RoCE v2 transport internals shared by its parts (not installed, not for applications):
 * constants and small helpers. roce_verbs.h is the public API and holds no state; the
 * implementation types that embed its objects are in roce_qp.h (QpImpl) and roce_ctx.h
 * (ContextImpl, PdImpl, MrImpl, AhImpl, CqImpl, SrqImpl), which the .cpp files include.
 *
 * The transport is split the way Linux rxe splits its roles (drivers/infiniband/sw/rxe):
 *   roce_api.cpp     the public classes' methods, each through to_impl() (no logic)
 *   roce_verbs.cpp   verbs objects: Context/PD/MR/AH/CQ/QP creation, post_send/post_recv
 *                    (rxe_verbs.c, rxe_mr.c)
 *   roce_qp.cpp      QP state machine: modify, error/flush, timers (rxe_qp.c)
 *   roce_req.cpp     requester: WQE -> request packets, AckReq, PSN window (rxe_req.c)
 *   roce_comp.cpp    completer: ACK/NAK/READ response/atomic ACK handling, retries,
 *                    send completions (rxe_comp.c)
 *   roce_resp.cpp    responder: request execution, duplicates, responder resources, ACK
 *                    coalescing, receive completions (rxe_resp.c)
 *   roce_net.cpp     network TX/RX path: ethdev bursts, frame build/parse, dispatch, ARP/ND
 *                    (rxe_net.c, rxe_recv.c)
 *   roce_dcqcn.cpp   DCQCN: CNP generation (notification point) and rate reaction
 *   roce_hooks.cpp   research hooks: fault injection, held packets, packet log */
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include <rte_mbuf.h>

#include "roce_verbs.h"

namespace gaudi::roce {

constexpr uint32_t kQpnBase = 0x000100;
constexpr uint32_t kGsiQpn = 1;		  /* QP1 (IBA 13.5.1) */
constexpr uint32_t kGsiQkey = 0x80010000; /* IBA 13.5.1.1 */
constexpr uint32_t kTxBufLen = 256;
constexpr uint32_t kHeldLen = 1024;
constexpr uint32_t kRespQueueLen = 256;
constexpr size_t kGrhLen = 40;
/* Largest header stack we emit: Eth + IPv6 + UDP + BTH + AtomicETH + ICRC + pad. */
constexpr uint32_t kMaxHdr =
	kEthHdrLen + kIpv6HdrLen + kUdpHdrLen + kBthLen + kAtomicEthLen + kIcrcLen + 4;
/* AETH syndromes (IBA 9.7.5.2.8 Table 44 / rxe_hdr.h AETH_*). */
constexpr uint8_t kSynAck = 0x1F;    /* ACK, credit field "invalid" (no credit flow control) */
constexpr uint8_t kSynRnrNak = 0x20; /* RNR NAK: bits 4:0 = timer code */
constexpr uint8_t kSynTypeMask = 0x60;
constexpr uint8_t kNakSeq = 0x60, kNakInvReq = 0x61, kNakRemAccess = 0x62, kNakRemOp = 0x63;
constexpr uint8_t kNakDrop = 0xFF; /* internal: no response, the requester retries */

/* BTH opcode = transport (bits 7:5) | operation (bits 4:0); RC and UC share the operations. */
constexpr uint8_t kOpOperationMask = 0x1F;
constexpr uint8_t operation(Opcode o)
{
	return static_cast<uint8_t>(o) & kOpOperationMask;
}
constexpr uint8_t u8(Opcode o)
{
	return static_cast<uint8_t>(o);
}
/* The UC opcode of an RC operation (same operation, transport 001). */
constexpr Opcode uc_opcode(Opcode rc)
{
	return static_cast<Opcode>(u8(Opcode::UC_SEND_FIRST) | operation(rc));
}
/* What an RC/UC operation (BTH opcode bits 4:0) is, as mask bits: the shape of rxe_opcode.c's
 * rxe_opcode[].mask (RXE_SEND_MASK, RXE_START_MASK, ...), so the transport tests bits of one
 * table entry instead of listing opcodes. start|end is an ONLY packet; neither a MIDDLE. */
enum OpMask : uint16_t {
	kOpSend = 1u << 0,
	kOpWrite = 1u << 1,
	kOpRead = 1u << 2,   /* RDMA READ request */
	kOpAtomic = 1u << 3, /* CMP_SWAP or FETCH_ADD request */
	kOpCmpSwap = 1u << 4,
	kOpStart = 1u << 5,	/* FIRST or ONLY */
	kOpEnd = 1u << 6,	/* LAST or ONLY */
	kOpImm = 1u << 7,	/* carries ImmDt */
	kOpInv = 1u << 8,	/* carries IETH (SEND with Invalidate) */
	kOpRecv = 1u << 9,	/* consumes a receive WQE at its last packet (rxe RXE_RWR_MASK) */
	kOpReadResp = 1u << 10, /* RDMA READ response */
	kOpAck = 1u << 11,	/* ACKNOWLEDGE (AETH only) */
	kOpAtomicAck = 1u << 12,
};
constexpr std::array<uint16_t, 32> make_op_masks()
{
	std::array<uint16_t, 32> m{};
	auto at = [&m](Opcode o) -> uint16_t & { return m[static_cast<uint8_t>(o) & 0x1F]; };
	at(Opcode::RC_SEND_FIRST) = kOpSend | kOpStart;
	at(Opcode::RC_SEND_MIDDLE) = kOpSend;
	at(Opcode::RC_SEND_LAST) = kOpSend | kOpEnd | kOpRecv;
	at(Opcode::RC_SEND_LAST_WITH_IMMEDIATE) = kOpSend | kOpEnd | kOpImm | kOpRecv;
	at(Opcode::RC_SEND_ONLY) = kOpSend | kOpStart | kOpEnd | kOpRecv;
	at(Opcode::RC_SEND_ONLY_WITH_IMMEDIATE) = kOpSend | kOpStart | kOpEnd | kOpImm | kOpRecv;
	at(Opcode::RC_SEND_LAST_WITH_INVALIDATE) = kOpSend | kOpEnd | kOpInv | kOpRecv;
	at(Opcode::RC_SEND_ONLY_WITH_INVALIDATE) = kOpSend | kOpStart | kOpEnd | kOpInv | kOpRecv;
	at(Opcode::RC_RDMA_WRITE_FIRST) = kOpWrite | kOpStart;
	at(Opcode::RC_RDMA_WRITE_MIDDLE) = kOpWrite;
	at(Opcode::RC_RDMA_WRITE_LAST) = kOpWrite | kOpEnd;
	at(Opcode::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE) = kOpWrite | kOpEnd | kOpImm | kOpRecv;
	at(Opcode::RC_RDMA_WRITE_ONLY) = kOpWrite | kOpStart | kOpEnd;
	at(Opcode::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE) =
		kOpWrite | kOpStart | kOpEnd | kOpImm | kOpRecv;
	at(Opcode::RC_RDMA_READ_REQUEST) = kOpRead | kOpStart | kOpEnd;
	at(Opcode::RC_RDMA_READ_RESPONSE_FIRST) = kOpReadResp | kOpStart;
	at(Opcode::RC_RDMA_READ_RESPONSE_MIDDLE) = kOpReadResp;
	at(Opcode::RC_RDMA_READ_RESPONSE_LAST) = kOpReadResp | kOpEnd;
	at(Opcode::RC_RDMA_READ_RESPONSE_ONLY) = kOpReadResp | kOpStart | kOpEnd;
	at(Opcode::RC_ACKNOWLEDGE) = kOpAck;
	at(Opcode::RC_ATOMIC_ACKNOWLEDGE) = kOpAtomicAck;
	at(Opcode::RC_COMPARE_SWAP) = kOpAtomic | kOpCmpSwap | kOpStart | kOpEnd;
	at(Opcode::RC_FETCH_ADD) = kOpAtomic | kOpStart | kOpEnd;
	return m; /* FLUSH, ATOMIC_WRITE and reserved values: 0 (not supported) */
}
inline constexpr std::array<uint16_t, 32> kOpMasks = make_op_masks();
/* Mask bits of an RC or UC opcode (UC has the RC operations it supports at the same bits). */
constexpr uint16_t op_mask(uint8_t opcode)
{
	return kOpMasks[opcode & kOpOperationMask];
}

constexpr bool is_response(uint8_t op)
{
	return op >= u8(Opcode::RC_RDMA_READ_RESPONSE_FIRST) &&
	       op <= u8(Opcode::RC_ATOMIC_ACKNOWLEDGE);
}
constexpr bool is_rnr(uint8_t syndrome)
{
	return (syndrome & kSynTypeMask) == kSynRnrNak;
}
constexpr uint8_t kEcnMask = 0x03, kEcnEct0 = 0x02, kEcnCe = 0x03;

inline uint32_t pow2_at_least(uint32_t v)
{
	uint32_t p = 1;
	while (p < v)
		p <<= 1;
	return p;
}

/* What a work request opcode is (rxe_opcode.c's rxe_wr_opcode_info[]): the QP types that
 * take it (IBA 9.8.1 Table 40: UC has SEND and RDMA WRITE, UD SEND only), its request opcodes
 * by position in the message (RC; UC through uc_opcode(); UD sends are ONLY), whether it
 * carries payload, what it reads of the WR and its completion opcode. */
enum class WrRemote : uint8_t { none, rdma, atomic };
struct WrOpInfo {
	uint8_t qp_types = 0;	/* 1 << ibv_qp_type; 0: not supported */
	bool data = false;	/* payload split into PMTU packets (SEND, WRITE) */
	bool rd_atomic = false; /* READ or atomic: answered by responses, not ACKed */
	WrRemote remote = WrRemote::none;
	Opcode first{}, middle{}, last{}, only{}, ud_only{};
	ibv_wc_opcode wc = IBV_WC_SEND;
};
inline constexpr unsigned kQptRc = 1u << IBV_QPT_RC, kQptUc = 1u << IBV_QPT_UC,
			  kQptUd = 1u << IBV_QPT_UD;
constexpr std::array<WrOpInfo, IBV_WR_SEND_WITH_INV + 1> make_wr_ops()
{
	using O = Opcode;
	std::array<WrOpInfo, IBV_WR_SEND_WITH_INV + 1> t{};
	t[IBV_WR_SEND] = {kQptRc | kQptUc | kQptUd,
			  true,
			  false,
			  WrRemote::none,
			  O::RC_SEND_FIRST,
			  O::RC_SEND_MIDDLE,
			  O::RC_SEND_LAST,
			  O::RC_SEND_ONLY,
			  O::UD_SEND_ONLY,
			  IBV_WC_SEND};
	t[IBV_WR_SEND_WITH_IMM] = {kQptRc | kQptUc | kQptUd,
				   true,
				   false,
				   WrRemote::none,
				   O::RC_SEND_FIRST,
				   O::RC_SEND_MIDDLE,
				   O::RC_SEND_LAST_WITH_IMMEDIATE,
				   O::RC_SEND_ONLY_WITH_IMMEDIATE,
				   O::UD_SEND_ONLY_WITH_IMMEDIATE,
				   IBV_WC_SEND};
	t[IBV_WR_SEND_WITH_INV] = {kQptRc,
				   true,
				   false,
				   WrRemote::none,
				   O::RC_SEND_FIRST,
				   O::RC_SEND_MIDDLE,
				   O::RC_SEND_LAST_WITH_INVALIDATE,
				   O::RC_SEND_ONLY_WITH_INVALIDATE,
				   O::RC_SEND_ONLY,
				   IBV_WC_SEND};
	t[IBV_WR_RDMA_WRITE] = {kQptRc | kQptUc,
				true,
				false,
				WrRemote::rdma,
				O::RC_RDMA_WRITE_FIRST,
				O::RC_RDMA_WRITE_MIDDLE,
				O::RC_RDMA_WRITE_LAST,
				O::RC_RDMA_WRITE_ONLY,
				O::RC_RDMA_WRITE_ONLY,
				IBV_WC_RDMA_WRITE};
	t[IBV_WR_RDMA_WRITE_WITH_IMM] = {kQptRc | kQptUc,
					 true,
					 false,
					 WrRemote::rdma,
					 O::RC_RDMA_WRITE_FIRST,
					 O::RC_RDMA_WRITE_MIDDLE,
					 O::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE,
					 O::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
					 O::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
					 IBV_WC_RDMA_WRITE};
	/* One request packet whatever the length (npkts counts a READ's responses). */
	constexpr auto one = [](O o, WrRemote r, ibv_wc_opcode wc) {
		return WrOpInfo{kQptRc, false, true, r, o, o, o, o, o, wc};
	};
	t[IBV_WR_RDMA_READ] = one(O::RC_RDMA_READ_REQUEST, WrRemote::rdma, IBV_WC_RDMA_READ);
	t[IBV_WR_ATOMIC_CMP_AND_SWP] = one(O::RC_COMPARE_SWAP, WrRemote::atomic, IBV_WC_COMP_SWAP);
	t[IBV_WR_ATOMIC_FETCH_AND_ADD] = one(O::RC_FETCH_ADD, WrRemote::atomic, IBV_WC_FETCH_ADD);
	return t; /* LOCAL_INV, BIND_MW: 0 (not supported) */
}
inline constexpr std::array<WrOpInfo, IBV_WR_SEND_WITH_INV + 1> kWrOps = make_wr_ops();
/* The entry of `op`; qp_types 0 for an opcode this transport does not implement. */
constexpr const WrOpInfo &wr_op_info(ibv_wr_opcode op)
{
	return unsigned(op) < kWrOps.size() ? kWrOps[op] : kWrOps[IBV_WR_LOCAL_INV];
}

inline bool is_read_or_atomic(ibv_wr_opcode op)
{
	return wr_op_info(op).rd_atomic;
}

inline ibv_wc_opcode wc_opcode(ibv_wr_opcode op)
{
	return wr_op_info(op).wc;
}

/* Largest IB MTU whose RoCE v2 frame (headers without Ethernet, as ethdev counts its MTU) fits
 * `port_mtu`. */
inline ibv_mtu ib_mtu_for_port(uint16_t port_mtu)
{
	for (int m = IBV_MTU_4096; m > IBV_MTU_256; m--)
		if (mtu_bytes(ibv_mtu(m)) + kMaxHdr - kEthHdrLen <= port_mtu)
			return ibv_mtu(m);
	return IBV_MTU_256;
}

/* Mark a received frame's IP ECN field CE in place (roce_hooks.cpp). */
void mark_ce(uint8_t *frame, size_t len, Packet &pkt);

/* The downcast from a public object to the implementation type that embeds it (rdma-core's
 * to_<provider>_<obj>(), a container_of): roce_qp.h, roce_ctx.h. */
#define ROCE_TO_IMPL(Pub, Impl)                      \
	inline Impl *to_impl(Pub *p)                 \
	{                                            \
		return static_cast<Impl *>(p);       \
	}                                            \
	inline const Impl *to_impl(const Pub *p)     \
	{                                            \
		return static_cast<const Impl *>(p); \
	}                                            \
	inline Impl &to_impl(Pub &p)                 \
	{                                            \
		return static_cast<Impl &>(p);       \
	}                                            \
	inline const Impl &to_impl(const Pub &p)     \
	{                                            \
		return static_cast<const Impl &>(p); \
	}

} /* namespace gaudi::roce */
