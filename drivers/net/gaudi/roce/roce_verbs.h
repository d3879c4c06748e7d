/* SPDX-License-Identifier: BSD-3-Clause */
/* RoCE v2 transport in userspace: an RDMA-verbs-like API on top of any DPDK ethdev port.
 *
 * Objects (what a libibverbs programmer expects, same names where possible):
 *   Context           one ethdev port/queue; owns the progress engine (poll()), the QP and
 *                     key tables and the counters. ibv_context + the NIC's transport engine.
 *   ProtectionDomain  ibv_pd. MRs, AHs and QPs belong to one PD; remote access is allowed
 *                     only to MRs of the QP's PD (IBA 10.2.3).
 *   MemoryRegion      ibv_mr: registered user memory [addr, addr+length), lkey == rkey.
 *   AddressHandle     ibv_ah for UD sends (destination MAC + GID).
 *   CompletionQueue   ibv_cq of fixed depth; poll_cq() = ibv_poll_cq.
 *   SharedReceiveQueue ibv_srq: receive WQEs shared by the QPs created with it (post_recv =
 *                     ibv_post_srq_recv; a limit armed with arm_limit() = ibv_modify_srq).
 *   QueuePair         ibv_qp, types IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD; modify() =
 *                     ibv_modify_qp with ibv_qp_attr_mask bits; post_send / post_recv.
 *
 * Enums come from <infiniband/verbs.h> (rdma-core); libibverbs itself is not linked.
 *
 * Threading: single-threaded by design. A Context and every object created from it must be
 * used from one thread at a time (the one calling poll()); there are no locks. Use one
 * Context per lcore/port queue for parallelism.
 *
 * Lifetime: objects are returned as std::unique_ptr and owned by the caller. A Context must
 * outlive its PDs, CQs, QPs, MRs and AHs; a PD its MRs/AHs/QPs; a CQ its QPs. Destroying a
 * QP drops its outstanding work silently (like ibv_destroy_qp). Deregistering an MR that
 * posted WRs still reference is undefined (as with verbs).
 *
 * Memory: everything is allocated at creation (QP rings, inline buffers, CQ array, key and
 * QP tables). post_send/post_recv/poll/poll_cq never allocate heap memory; mbufs come from
 * the Context's TX mempool.
 *
 * Errors: calls return 0 / a count, or a negative errno (-EINVAL bad argument or wrong QP
 * state, -ENOMEM queue full or table full, -EPERM access violation at post time). Remote or
 * transport errors are reported as WorkCompletion::status (ibv_wc_status).
 *
 * Byte order: all values in this API are host order, including imm_data (unlike libibverbs,
 * where imm_data is __be32). The wire carries them big-endian.
 *
 * Spec references: IBA Vol 1 rel. 1.4 chapter 9 (transport), 10 (verbs semantics), 11
 * (QP state machine), Annex A17 (RoCE v2); roce_framing.h lists the public sources. */
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <infiniband/verbs.h>

#include "roce_addr.h"
#include "roce_framing.h"
#include "roce_neigh.h"

struct rte_mempool;
struct rte_mbuf;

namespace gaudi::roce {

class Context;
class ProtectionDomain;
class MemoryRegion;
class CompletionQueue;
class QueuePair;
class AddressHandle;
class SharedReceiveQueue;

/* ---------------------------------------------------------------------------------------
 * PSN arithmetic: 24-bit, modulo 2^24 (IBA 9.7.1). psn_diff(a, b) = a - b as a signed value
 * in [-2^23, 2^23); "a after b" <=> psn_diff(a, b) > 0.
 * --------------------------------------------------------------------------------------- */
inline constexpr uint32_t kPsnMask = 0xFFFFFF;
constexpr uint32_t psn_add(uint32_t a, int64_t b)
{
	return static_cast<uint32_t>(a + b) & kPsnMask;
}
constexpr int32_t psn_diff(uint32_t a, uint32_t b)
{
	return static_cast<int32_t>(static_cast<uint32_t>(a - b) << 8) >> 8;
}

/* IBA 9.7.5.2.8 Table 45: RNR NAK timer code (0..31) -> microseconds. Code 0 = 655.36 ms. */
uint32_t rnr_timer_us(uint8_t code);
/* IBA 9.7.6.1.3: local ACK timeout = 4.096 us * 2^timeout; 0 = infinite (returns 0). */
uint64_t ack_timeout_ns(uint8_t timeout);
/* ibv_mtu (IBV_MTU_256..IBV_MTU_4096) -> bytes; 0 if invalid. */
uint32_t mtu_bytes(ibv_mtu mtu);
/* Linux rdma_calc_flow_label(): 20-bit flow label from the two QPNs (symmetric). */
uint32_t calc_flow_label(uint32_t lqpn, uint32_t rqpn);

/* ---------------------------------------------------------------------------------------
 * Addresses
 * ---------------------------------------------------------------------------------------
 * Gid (RoCE v2 GID = IP address, IPv4-mapped or IPv6): roce_addr.h. */

/* ibv_ah_attr reduced to what RoCE v2 needs (IBA A17.4: the GRH fields map onto IP). */
struct AddressVector {
	MacAddr mac{};		   /* next-hop MAC (RoCE resolves it; here it is given) */
	Gid gid{};		   /* destination GID = IP address */
	uint32_t flow_label = 0;   /* 20 bits; 0 = derive from the QPNs (Annex A17.5.1 entropy) */
	uint8_t traffic_class = 0; /* DSCP in bits 7:2; ECN bits are set by the transport */
	/* IPv4 TTL / IPv6 hop limit. 0 or 1 (rdma-core's examples put 1 in grh.hop_limit) mean
	 * ContextConfig::hop_limit: for RoCE v2 Linux replaces the AV's value by the route's hop
	 * limit (ib_resolve_eth_dmac -> rdma_addr_find_l2_eth_by_grh), 64 by default, so rxe
	 * never sends TTL 1 on a routed or direct link. */
	uint8_t hop_limit = 64;
};

/* ---------------------------------------------------------------------------------------
 * Work requests and completions (ibv_sge, ibv_send_wr, ibv_recv_wr, ibv_wc)
 * --------------------------------------------------------------------------------------- */
inline constexpr uint32_t kMaxSge = 8;

struct Sge {
	uint64_t addr = 0;   /* virtual address inside the MR named by lkey */
	uint32_t length = 0; /* bytes */
	uint32_t lkey = 0;
};

struct SendWr {
	uint64_t wr_id = 0;
	std::span<const Sge> sg_list; /* <= QP cap.max_send_sge entries (ignored when inline) */
	ibv_wr_opcode opcode = IBV_WR_SEND;
	unsigned send_flags = 0;      /* IBV_SEND_SIGNALED | IBV_SEND_INLINE | IBV_SEND_SOLICITED */
	uint32_t imm_data = 0;	      /* *_WITH_IMM (host order) */
	uint32_t invalidate_rkey = 0; /* IBV_WR_SEND_WITH_INV */
	struct {
		uint64_t remote_addr = 0;
		uint32_t rkey = 0;
	} rdma; /* WRITE / READ */
	struct {
		uint64_t remote_addr = 0; /* 8-byte aligned (IBA 9.4.5) */
		uint64_t compare_add = 0; /* CAS: compare; FAA: add */
		uint64_t swap = 0;	  /* CAS: swap */
		uint32_t rkey = 0;
	} atomic; /* the single 8-byte SGE receives the original value */
	struct {
		const AddressHandle *ah = nullptr;
		uint32_t remote_qpn = 0;
		uint32_t remote_qkey = 0; /* high bit set: use the QP's own Q_Key (IBA 10.2.5) */
	} ud;
};

struct RecvWr {
	uint64_t wr_id = 0;
	std::span<const Sge> sg_list; /* <= cap.max_recv_sge; all need IBV_ACCESS_LOCAL_WRITE */
};

struct WorkCompletion {
	uint64_t wr_id = 0;
	ibv_wc_status status = IBV_WC_SUCCESS;
	ibv_wc_opcode opcode = IBV_WC_SEND;
	uint32_t vendor_err = 0;
	uint32_t byte_len = 0;	       /* receive: bytes placed (UD: + 40 B GRH area) */
	uint32_t imm_data = 0;	       /* host order; valid with IBV_WC_WITH_IMM */
	uint32_t invalidated_rkey = 0; /* valid with IBV_WC_WITH_INV */
	uint32_t qp_num = 0;
	uint32_t src_qp = 0;   /* UD receive */
	unsigned wc_flags = 0; /* IBV_WC_GRH | IBV_WC_WITH_IMM | IBV_WC_WITH_INV */
};

/* ---------------------------------------------------------------------------------------
 * QP attributes (ibv_qp_init_attr, ibv_qp_attr)
 * --------------------------------------------------------------------------------------- */
struct QpCap {
	uint32_t max_send_wr = 64; /* rounded up to a power of two */
	uint32_t max_recv_wr = 64;
	uint32_t max_send_sge = 4; /* <= kMaxSge */
	uint32_t max_recv_sge = 4; /* <= kMaxSge */
	uint32_t max_inline_data = 256;
};

struct QpInitAttr {
	ibv_qp_type qp_type = IBV_QPT_RC; /* RC, UC or UD */
	CompletionQueue *send_cq = nullptr;
	CompletionQueue *recv_cq = nullptr;
	/* ibv_qp_init_attr.srq: receives come from this SRQ (same PD, outlives the QP); the QP's
	 * own receive queue is unused (post_recv -EINVAL; cap.max_recv_wr ignored). */
	SharedReceiveQueue *srq = nullptr;
	QpCap cap;
	bool sq_sig_all = false;
};

/* ibv_qp_attr subset; which fields apply is given by an ibv_qp_attr_mask. */
struct QpAttr {
	ibv_qp_state qp_state = IBV_QPS_RESET;
	ibv_mtu path_mtu = IBV_MTU_1024; /* IBV_QP_PATH_MTU */
	uint32_t qkey = 0;		 /* IBV_QP_QKEY (UD) */
	uint32_t rq_psn = 0;		 /* IBV_QP_RQ_PSN: first expected PSN (24 bits) */
	uint32_t sq_psn = 0;		 /* IBV_QP_SQ_PSN: first PSN sent (24 bits) */
	uint32_t dest_qp_num = 0;	 /* IBV_QP_DEST_QPN */
	unsigned qp_access_flags = 0;	 /* IBV_QP_ACCESS_FLAGS: IBV_ACCESS_REMOTE_* */
	uint16_t pkey_index = 0;	 /* IBV_QP_PKEY_INDEX into Context's P_Key table */
	AddressVector ah_attr;		 /* IBV_QP_AV */
	uint8_t timeout = 14;		 /* IBV_QP_TIMEOUT: 4.096 us * 2^timeout, 0 = infinite */
	uint8_t retry_cnt = 7;		 /* IBV_QP_RETRY_CNT 0..7 */
	uint8_t rnr_retry = 7;		 /* IBV_QP_RNR_RETRY 0..7, 7 = infinite */
	uint8_t min_rnr_timer = 12;	 /* IBV_QP_MIN_RNR_TIMER: code sent in RNR NAKs */
	uint8_t max_rd_atomic =
		1; /* IBV_QP_MAX_QP_RD_ATOMIC: outstanding READ/atomic as requester */
	/* IBV_QP_MAX_DEST_RD_ATOMIC: responder resources (<= kMaxRdAtomic). More READ/atomic
	 * requests in flight than this get an Invalid Request NAK (0 refuses them all, as rxe);
	 * duplicates are replayed only from these resources (older ones are dropped, IBA class
	 * D). */
	uint8_t max_dest_rd_atomic = 1;
};

/* Largest max_rd_atomic / max_dest_rd_atomic accepted (rxe's RXE_MAX_QP_RD_ATOM). */
inline constexpr uint8_t kMaxRdAtomic = 128;

/* Transport knobs beyond ibverbs (set any time with QueuePair::set_tuning). */
struct QpTuning {
	uint32_t ack_every = 16;    /* responder: ACK at least every N packets (coalescing) */
	uint32_t ack_delay_us = 10; /* responder: coalesced ACK sent at the latest after this */
	uint32_t max_inflight_pkts =
		256; /* requester: unacknowledged PSN window (IBA has credits) */
	/* Requester: AckReq on a message's last packet and at least every N packets (clamped to
	 * max_inflight_pkts / 2). rxe's responder ACKs only packets that ask (rxe_resp.c
	 * acknowledge()); rxe's requester asks every RXE_MAX_PKT_PER_ACK (64) packets and keeps
	 * at most RXE_MAX_UNACKED_PSNS (128) unacknowledged. */
	uint32_t ack_req_every = 64;
	/* Requester: a window of packets in flight that adapts to what the path delivers (the ACK
	 * clock): it opens by the packets each ACK acknowledges up to ssthresh, then by one per
	 * window, and halves on a sequence NAK or a local ACK timeout (TCP's AIMD, RFC 5681 3.1,
	 * in packets), between min_window_pkts and max_inflight_pkts. A slower peer (an rxe
	 * guest whose socket buffer holds a few dozen frames) then loses no burst after the first,
	 * where a fixed 256-packet window lost and resent most of each. 0 = fixed window. */
	uint32_t min_window_pkts = 4;
	uint32_t initial_window_pkts = 16;
	/* Responder: READ responses have no ACK, so the same window (same bounds, 0 = off)
	 * limits the READ response packets sent and not yet known delivered. A new READ request
	 * confirms the oldest READ answered in full (the requester completed one, the window
	 * opens by its packets); a duplicate READ request is the loss signal (IBA 9.7.5.2.2, rxe
	 * req_retry re-requests from the gap) and halves it once per loss. The oldest READ in
	 * flight may always finish, and with no READ request for read_stall_us the packets in
	 * flight count as delivered (the requester's last READs). */
	uint32_t read_stall_us = 500;
	bool dcqcn = true; /* requester rate reaction to CNPs (if the Context allows) */
	bool ecn = true;   /* mark ECT(0) on sent packets */
};

/* ---------------------------------------------------------------------------------------
 * Research hooks: seeded, reproducible fault injection per QP and packet logging
 * --------------------------------------------------------------------------------------- */
struct FaultDir {
	double drop = 0;    /* probability a packet is discarded */
	double dup = 0;	    /* ... is delivered twice */
	double reorder = 0; /* ... is held back so that later packets overtake it */
	double corrupt = 0; /* ... gets a bad ICRC (TX: flipped bit; RX: treated as ICRC error) */
	double delay = 0;   /* ... is delayed by delay_ms */
	double delay_ms = 0;
	double ecn_ce = 0; /* ... is marked IP ECN = CE (congestion experienced) */
};
struct FaultConfig {
	uint64_t seed = 1;
	FaultDir tx; /* applied to packets this QP sends (requests and responses) */
	FaultDir rx; /* applied to packets addressed to this QP */
	bool enabled() const;
};

struct PacketLogEntry {
	bool tx = false;
	uint8_t opcode = 0;
	std::string_view opcode_name;
	uint32_t psn = 0;
	uint32_t dest_qpn = 0;	/* BTH DestQP */
	uint32_t local_qpn = 0; /* our QP concerned (0 if unknown) */
	uint32_t payload_len = 0;
	uint32_t frame_len = 0;
	std::string_view fate; /* "", "drop", "dup", "delay", "reorder", "corrupt", "ce" */
};
using PacketLogFn = std::function<void(const PacketLogEntry &)>;

/* ---------------------------------------------------------------------------------------
 * Context
 * ---------------------------------------------------------------------------------------
 * DCQCN reaction point (Zhu et al., SIGCOMM 2015; defaults after the mlx5 ones, scaled). */
struct DcqcnParams {
	double line_rate_gbps = 100.0; /* initial and maximum rate */
	double min_rate_gbps = 0.1;
	double g = 1.0 / 256;	      /* alpha gain */
	uint32_t alpha_timer_us = 55; /* alpha decays when no CNP arrived for this long */
	uint32_t rate_inc_timer_us = 300;
	uint32_t fast_recovery_stages = 5;
	double rai_gbps = 1.0;	      /* additive increase */
	uint32_t burst_bytes = 65536; /* token bucket depth */
};

struct ContextConfig {
	uint16_t port_id = 0;
	uint16_t queue_id = 0;		/* RX and TX queue used */
	rte_mempool *tx_pool = nullptr; /* mbufs for TX; data room must hold one frame of the MTU */
	bool mac_from_port = true;	/* else `mac` */
	MacAddr mac{};
	Gid gid{};	   /* local address (IPv4-mapped => IPv4 frames) */
	bool dcqcn = true; /* allow the rate reaction at all (per QP: QpTuning::dcqcn) */
	DcqcnParams dcqcn_params;
	uint32_t cnp_interval_us = 50; /* notification point: at most one CNP per QP per interval */
	uint32_t max_qps = 256;
	uint32_t max_mrs = 1024;
	uint8_t hop_limit = 64; /* IPv4 TTL / IPv6 hop limit (see AddressVector::hop_limit) */
	/* Answer ARP / IPv6 neighbour solicitations for `gid` and learn peers' MACs from the
	 * replies (roce_neigh.h); Context::resolve() asks for a peer's MAC. */
	bool neighbour = true;
	std::array<uint16_t, 4> pkey_table{0xFFFF, 0x7FFF, 0xFFFF, 0xFFFF};
	uint16_t rx_burst = 32;
};

/* Per-Context counters (named fields; all monotonic). */
struct Counters {
	uint64_t rx_frames = 0;
	uint64_t rx_not_roce = 0;  /* not IPv4/IPv6 UDP 4791, nor ARP/NDP for the neighbour code */
	uint64_t rx_neighbour = 0; /* ARP / NS / NA frames handled (Neighbour::stats() has more) */
	uint64_t tx_neighbour = 0; /* ARP replies/requests, NA/NS sent */
	uint64_t rx_malformed = 0; /* RoCE frames the parser rejected (other than ICRC) */
	uint64_t rx_icrc_errors = 0;
	uint64_t rx_not_for_us = 0; /* destination IP is not our GID */
	uint64_t rx_unknown_qp = 0;
	uint64_t rx_bad_pkey = 0;
	uint64_t rx_bad_qkey = 0;   /* UD Q_Key mismatch (IBA 10.2.5) */
	uint64_t rx_bad_state = 0;  /* QP not in RTR/RTS (or wrong transport for the QP) */
	uint64_t rx_bad_opcode = 0; /* opcode not valid for the QP type / sequence */
	uint64_t rx_duplicates = 0; /* duplicate requests (responder) or responses (requester) */
	uint64_t rx_out_of_sequence = 0; /* PSN ahead of the expected one */
	uint64_t rx_out_of_window = 0;	 /* responses/ACKs for PSNs never sent */
	uint64_t rx_no_recv_wqe = 0;	 /* UD/UC SEND with no receive posted (dropped) */
	uint64_t rx_hook_dropped = 0;
	uint64_t rx_hook_corrupted = 0;
	uint64_t rx_ecn_ce = 0; /* packets received with IP ECN = CE */
	uint64_t tx_frames = 0;
	uint64_t tx_bytes = 0;
	uint64_t tx_no_mbuf = 0;
	uint64_t tx_hook_dropped = 0;
	uint64_t acks_sent = 0, naks_sent = 0, rnr_naks_sent = 0;
	uint64_t acks_rcvd = 0, naks_rcvd = 0, rnr_naks_rcvd = 0;
	uint64_t retransmits = 0;  /* go-back-N restarts (NAK, timeout, RNR, missing response) */
	uint64_t timeouts = 0;	   /* local ACK timeouts */
	uint64_t read_replays = 0; /* duplicate READ requests re-executed */
	uint64_t read_window_waits = 0; /* READ response held back by the response window */
	uint64_t atomic_replays = 0;	/* duplicate atomics answered from the saved result */
	uint64_t dup_no_resource = 0; /* duplicate READ/atomic older than the responder resources */
	uint64_t rd_atomic_overflow =
		0;		  /* READ/atomic at max_dest_rd_atomic 0 (Invalid Request NAK) */
	uint64_t ud_oversize = 0; /* UD sends above the PMTU completed unsent (C10-93.1.1) */
	uint64_t cnps_sent = 0, cnps_rcvd = 0;
	uint64_t remote_access_errors = 0; /* requests refused by rkey/bounds/access checks */
	uint64_t cq_overflows = 0;
	uint64_t rx_gsi = 0;	     /* MADs handed to the GSI handler (QP1, roce_cm.h) */
	uint64_t rx_gsi_dropped = 0; /* QP1 packets not UD SEND_ONLY / wrong Q_Key / no handler */
	uint64_t tx_gsi = 0;	     /* MADs sent from QP1 */
};

/* A UD SEND_ONLY received on QP1 (the GSI): the parsed packet, valid during the call only. */
using GsiRecvFn = std::function<void(const Packet &pkt)>;

/* ---------------------------------------------------------------------------------------
 * Objects. Each class here is the public face of an implementation type private to the
 * library (roce_ctx.h, roce_qp.h) that embeds it, as rdma-core's providers embed struct
 * ibv_qp in their own QP: the header holds no state. Objects are made only by the factories;
 * the destructor is virtual so that the std::unique_ptr they return frees the whole object.
 * --------------------------------------------------------------------------------------- */

class Context {
public:
	/* Returns nullptr and sets *err (negative errno) on failure: bad port, no pool, ... */
	static std::unique_ptr<Context> create(const ContextConfig &cfg, int *err = nullptr);
	virtual ~Context() = default;
	Context(const Context &) = delete;
	Context &operator=(const Context &) = delete;

	std::unique_ptr<ProtectionDomain> alloc_pd();
	/* depth >= 1 entries; nullptr on bad depth. */
	std::unique_ptr<CompletionQueue> create_cq(uint32_t depth);
	/* nullptr + *err: -EINVAL (bad caps/type/CQs), -ENOMEM (QP table full). */
	std::unique_ptr<QueuePair> create_qp(ProtectionDomain &pd, const QpInitAttr &attr,
					     int *err = nullptr);
	/* access: IBV_ACCESS_LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC. REMOTE_WRITE
	 * and REMOTE_ATOMIC require LOCAL_WRITE (IBA 10.6.3.1). nullptr + *err on failure. */
	std::unique_ptr<MemoryRegion> reg_mr(ProtectionDomain &pd, void *addr, size_t length,
					     unsigned access, int *err = nullptr);
	std::unique_ptr<AddressHandle> create_ah(ProtectionDomain &pd, const AddressVector &av);
	/* ibv_create_srq: max_wr receives (rounded up to a power of two, <= 65536) of up to
	 * max_sge SGEs (<= kMaxSge). nullptr + *err (-EINVAL) on bad arguments. */
	std::unique_ptr<SharedReceiveQueue> create_srq(ProtectionDomain &pd, uint32_t max_wr,
						       uint32_t max_sge, int *err = nullptr);

	/* Progress engine: RX burst -> dispatch, ACK flush, timers, held packets, TX generation.
	 * Returns the number of packets received + sent (0 = idle). */
	unsigned poll();

	const Counters &counters() const;
	const MacAddr &mac() const;
	const Gid &gid() const;
	uint16_t port_id() const;
	const ContextConfig &config() const;
	/* Largest IB MTU whose RoCE v2 frame fits the port's MTU (ibv_port_attr.active_mtu): what
	 * an application reports to its peer, which then takes min(local, peer) as path MTU. */
	ibv_mtu active_mtu() const;

	/* Peer MAC from neighbour resolution: 0 and `mac` when known; else sends an ARP request
	 * or NS (at most one per 100 ms per call site) and returns -EAGAIN -- keep calling poll()
	 * and resolve() until it answers. -ENOTSUP without ContextConfig::neighbour, -EINVAL when
	 * the GID's family differs from ours. */
	int resolve(const Gid &peer, MacAddr &mac);
	Neighbour *neighbour();

	/* Packet log: one line per packet sent/received to `f`, or a callback; nullptr/{} = off.
	 * Line: "<tx|rx> <OPCODE_NAME> qpn=0x%06x psn=0x%06x len=<payload> frame=<bytes>
	 * [fate]". */
	void set_packet_log(FILE *f);
	void set_packet_log(PacketLogFn fn);

	/* QP1, the General Services Interface (IBA 13.5.1, Annex A17): the CM (roce_cm.h) takes
	 * the MADs received on it; {} = none (QP1 packets are then counted and dropped). */
	void set_gsi_handler(GsiRecvFn fn);
	/* Sends `mad` (256 bytes) as a UD SEND_ONLY from QP1 to `dest_qpn` (1 for the peer's GSI)
	 * with the GSI Q_Key and P_Key 0xFFFF. 0, or -ENOBUFS (no mbuf / TX room). */
	int send_gsi(const AddressVector &av, uint32_t dest_qpn, std::span<const uint8_t> mad);

protected:
	Context() = default;
};

class ProtectionDomain {
public:
	virtual ~ProtectionDomain() = default;
	Context &context() const;

protected:
	ProtectionDomain() = default;
};

class MemoryRegion {
public:
	virtual ~MemoryRegion() = default;
	void *addr() const;
	size_t length() const;
	uint32_t lkey() const;
	uint32_t rkey() const;
	unsigned access() const;
	const ProtectionDomain &pd() const;
	bool valid() const; /* false after a remote SEND_WITH_INV invalidated it */
	/* [va, va+len) inside the region (overflow-safe). */
	bool contains(uint64_t va, uint64_t len) const;

protected:
	MemoryRegion() = default;
};

class AddressHandle {
public:
	virtual ~AddressHandle() = default;
	const AddressVector &attr() const;
	const ProtectionDomain &pd() const;

protected:
	AddressHandle() = default;
};

class CompletionQueue {
public:
	virtual ~CompletionQueue() = default;
	/* Moves up to wc.size() completions (oldest first) into wc; returns the count. */
	int poll_cq(std::span<WorkCompletion> wc);
	uint32_t depth() const;
	uint32_t size() const; /* completions waiting (an overrun is counted in
				* Counters::cq_overflows) */

protected:
	CompletionQueue() = default;
};

class QueuePair {
public:
	virtual ~QueuePair() = default;
	uint32_t qp_num() const;
	ibv_qp_type type() const;
	ibv_qp_state state() const;
	const QpAttr &attr() const;

	/* ibv_modify_qp (IBA 11.2.1.2 / 10.3): RESET->INIT->RTR->RTS, any->RESET, any->ERR.
	 * Required mask bits per transition as in ibv_modify_qp(3); -EINVAL otherwise.
	 * IBV_QP_PATH_MTU (the peer's, as exchanged) is limited to Context::active_mtu(): the path
	 * MTU is min(local, peer); attr().path_mtu reports the one in use. */
	int modify(const QpAttr &attr, int mask);
	/* 0, or -EINVAL (state not RTS, bad opcode for the QP type, too many SGEs, bad lkey or
	 * range, unaligned/short atomic, inline too long), -ENOMEM (SQ full). A UD message above
	 * the PMTU is not sent and completes successfully (IBA C10-93.1.1, rxe fake_udp_send). */
	int post_send(const SendWr &wr);
	/* 0, or -EINVAL (state RESET, too many SGEs, bad lkey/range/no LOCAL_WRITE), -ENOMEM. */
	int post_recv(const RecvWr &wr);

	void set_tuning(const QpTuning &t);
	const QpTuning &tuning() const;
	/* Fault injection and the PRNG are (re)seeded by this call. */
	void set_faults(const FaultConfig &f);
	/* DCQCN state (requester): current rate and the number of CNPs reacted to. */
	double current_rate_gbps() const;
	uint64_t cnps_received() const;
	uint32_t sq_outstanding() const;
	uint32_t rq_posted() const;

protected:
	QueuePair() = default;
};

/* ibv_srq (IBA 10.2.9, rxe_srq.c): one ring of receive WQEs; a QP attached to it takes the
 * oldest one when a message that consumes a receive arrives (RC/UC: its first packet). A SEND
 * that finds it empty gets an RNR NAK (RC) or is dropped (UC/UD), as with a QP's own queue.
 * Completions go to the taking QP's receive CQ with its qp_num. */
class SharedReceiveQueue {
public:
	virtual ~SharedReceiveQueue() = default;
	/* ibv_post_srq_recv: 0, -EINVAL (too many SGEs, bad lkey/range/no LOCAL_WRITE), -ENOMEM
	 * (full). */
	int post_recv(const RecvWr &wr);
	/* ibv_modify_srq(IBV_SRQ_LIMIT): arms the limit; when a QP takes a WQE and fewer than
	 * `limit` remain, limit_events() counts one and the limit disarms
	 * (IBV_EVENT_SRQ_LIMIT_REACHED). 0 disarms; -EINVAL above max_wr. */
	int arm_limit(uint32_t limit);
	uint32_t limit() const; /* 0 once it fired (ibv_query_srq) */
	uint64_t limit_events() const;
	uint32_t posted() const;
	uint32_t max_wr() const;
	uint32_t max_sge() const;
	const ProtectionDomain &pd() const;

protected:
	SharedReceiveQueue() = default;
};

} /* namespace gaudi::roce */
