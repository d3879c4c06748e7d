/* SPDX-License-Identifier: BSD-3-Clause */
/* RoCE v2 transport internals shared by its parts (not installed, not for applications):
 * constants, small helpers and the private types of Context and QueuePair.
 *
 * The transport is split the way Linux rxe splits its roles (drivers/infiniband/sw/rxe):
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

inline bool is_read_or_atomic(ibv_wr_opcode op)
{
	return op == IBV_WR_RDMA_READ || op == IBV_WR_ATOMIC_CMP_AND_SWP ||
	       op == IBV_WR_ATOMIC_FETCH_AND_ADD;
}

inline ibv_wc_opcode wc_opcode(ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return IBV_WC_RDMA_WRITE;
	case IBV_WR_RDMA_READ:
		return IBV_WC_RDMA_READ;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		return IBV_WC_COMP_SWAP;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return IBV_WC_FETCH_ADD;
	default:
		return IBV_WC_SEND;
	}
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

/* A packet held back by a research hook (delay/reorder), released at `release`. */
struct Context::Held {
	rte_mbuf *m;
	uint64_t release;
	QueuePair *qp;
	bool rx;
};

struct QueuePair::Seg {
	uint8_t *addr;
	uint32_t len;
};
struct QueuePair::SendWqe {
	uint64_t wr_id;
	ibv_wr_opcode opcode;
	bool signaled, solicited;
	uint32_t len, imm, inv_rkey;
	uint64_t raddr, cmp, swap;
	uint32_t rkey;
	const AddressHandle *ah;
	uint32_t remote_qpn, remote_qkey;
	uint32_t nseg;
	std::array<Seg, kMaxSge> seg;
	uint32_t first_psn, npkts;
	uint32_t resp_pkts;  /* READ response packets placed */
	uint32_t rereq_from; /* READ: resp_pkts when the request was last sent */
	bool done;	     /* READ/atomic: response complete */
	bool oversize;	     /* UD message above the PMTU: completes without being sent */
};
struct QueuePair::RecvWqe {
	uint64_t wr_id;
	uint32_t nseg;
	uint32_t len;
	std::array<Seg, kMaxSge> seg;
};
/* Responder output queue entries, sent in order (IBA 9.7.5.1: responses in PSN order). */
enum class QueuePair::RespKind : uint8_t { ack, nak, read, atomic_ack };
struct QueuePair::RespItem {
	RespKind kind;
	uint8_t syndrome;
	bool ready; /* ACK: coalescing finished */
	uint32_t psn, msn;
	uint64_t va;  /* READ: next byte to send */
	uint32_t len; /* READ: bytes left */
	uint32_t total_pkts, sent_pkts;
	uint8_t res;	   /* READ: index of its RdResource */
	uint64_t orig;	   /* atomic ACK */
	uint64_t deadline; /* ACK: latest send time */
};
/* Responder resource of one READ or atomic (rxe struct resp_res): what a duplicate of it
 * may replay. max_dest_rd_atomic of them, oldest overwritten. */
struct QueuePair::RdResource {
	bool valid, read;
	uint32_t first_psn, last_psn;
	uint64_t va;	    /* READ: first byte */
	uint32_t len, rkey; /* READ */
	uint64_t orig;	    /* atomic: original value returned */
	uint32_t flight;    /* READ: response packets sent and not confirmed */
	bool sent_all;	    /* READ: the latest generation of responses sent in full */
};

/* DCQCN reaction point state (Zhu et al. 2015). */
struct QueuePair::Rate {
	bool limited = false;
	double rc = 0, rt = 0, alpha = 1, tokens = 0;
	uint64_t last_token = 0, last_alpha = 0, last_inc = 0, last_cnp = 0;
	uint32_t stage = 0;
	uint64_t cnps = 0;
};

enum class QueuePair::InMsg : uint8_t { none = 0, send, write };

} /* namespace gaudi::roce */
