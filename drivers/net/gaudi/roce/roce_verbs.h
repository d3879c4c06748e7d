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
		0;		  /* READ/atomic beyond max_dest_rd_atomic (Invalid Request NAK) */
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

class Context {
public:
	/* Returns nullptr and sets *err (negative errno) on failure: bad port, no pool, ... */
	static std::unique_ptr<Context> create(const ContextConfig &cfg, int *err = nullptr);
	~Context();
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

	const Counters &counters() const { return counters_; }
	void reset_counters() { counters_ = {}; }
	const MacAddr &mac() const { return mac_; }
	const Gid &gid() const { return gid_; }
	uint16_t port_id() const { return cfg_.port_id; }
	const ContextConfig &config() const { return cfg_; }
	/* Largest IB MTU whose RoCE v2 frame fits the port's MTU (ibv_port_attr.active_mtu): what
	 * an application reports to its peer, which then takes min(local, peer) as path MTU. */
	ibv_mtu active_mtu() const;

	/* Peer MAC from neighbour resolution: 0 and `mac` when known; else sends an ARP request
	 * or NS (at most one per 100 ms per call site) and returns -EAGAIN -- keep calling poll()
	 * and resolve() until it answers. -ENOTSUP without ContextConfig::neighbour, -EINVAL when
	 * the GID's family differs from ours. */
	int resolve(const Gid &peer, MacAddr &mac);
	Neighbour *neighbour() { return neigh_.get(); }

	/* Packet log: one line per packet sent/received to `f`, or a callback; nullptr/{} = off.
	 * Line: "<tx|rx> <OPCODE_NAME> qpn=0x%06x psn=0x%06x len=<payload> frame=<bytes>
	 * [fate]". */
	void set_packet_log(FILE *f) { log_file_ = f; }
	void set_packet_log(PacketLogFn fn) { log_fn_ = std::move(fn); }

	/* QP1, the General Services Interface (IBA 13.5.1, Annex A17): the CM (roce_cm.h) takes
	 * the MADs received on it; {} = none (QP1 packets are then counted and dropped). */
	void set_gsi_handler(GsiRecvFn fn) { gsi_fn_ = std::move(fn); }
	/* Sends `mad` (256 bytes) as a UD SEND_ONLY from QP1 to `dest_qpn` (1 for the peer's GSI)
	 * with the GSI Q_Key and P_Key 0xFFFF. 0, or -ENOBUFS (no mbuf / TX room). */
	int send_gsi(const AddressVector &av, uint32_t dest_qpn, std::span<const uint8_t> mad);

private:
	friend class QueuePair;
	friend class MemoryRegion;
	friend class ProtectionDomain;
	friend class SharedReceiveQueue;
	explicit Context(const ContextConfig &cfg);

	struct Held; /* roce_internal.h */

	/* TX staging */
	bool tx_reserve(); /* room for one more frame (flushes if needed) */
	void tx_flush();
	rte_mbuf *alloc_frame();
	/* Builds `pkt` into a fresh mbuf and queues it through qp's TX hooks; false: no
	 * mbuf/room. */
	bool emit(QueuePair *qp, Packet &pkt);
	void queue_tx(QueuePair *qp, rte_mbuf *m, const Packet &pkt);
	void tx_push(rte_mbuf *m); /* into the burst; the caller made room (tx_reserve) */
	void rx_frame(rte_mbuf *m, bool from_hold);
	/* Research hooks (roce_hooks.cpp): a filter on a QP's frames. */
	enum class HookVerdict : uint8_t { pass, pass_twice, consumed };
	HookVerdict tx_hook(QueuePair *qp, rte_mbuf *m, const Packet &pkt, std::string_view &fate);
	HookVerdict rx_hook(QueuePair *qp, rte_mbuf *m, uint8_t *data, uint32_t len, Packet &pkt);
	void hold(rte_mbuf *m, uint64_t release, QueuePair *qp, bool rx);
	void release_held(uint64_t now);
	void log(bool tx, const Packet &pkt, uint32_t local_qpn, uint32_t frame_len,
		 std::string_view fate);
	void send_cnp(const Packet &rx, uint32_t dest_qpn, QueuePair *qp);
	bool send_raw(std::span<const uint8_t> frame);
	MemoryRegion *lookup_mr(uint32_t key) const;
	uint32_t register_mr(MemoryRegion *mr);
	void unregister_mr(uint32_t key);
	void unregister_qp(QueuePair *qp);

	ContextConfig cfg_;
	MacAddr mac_{};
	Gid gid_{};
	bool v4_ = true;
	uint64_t hz_ = 1;
	Counters counters_;
	ParseStats parse_stats_;
	FILE *log_file_ = nullptr;
	PacketLogFn log_fn_;
	GsiRecvFn gsi_fn_;
	uint32_t gsi_psn_ = 0;
	std::vector<QueuePair *> qps_;	  /* slot -> QP (QPN = kQpnBase + slot) */
	std::vector<MemoryRegion *> mrs_; /* key index -> MR */
	std::vector<uint8_t> mr_gen_;
	std::vector<rte_mbuf *> tx_buf_;
	uint32_t tx_count_ = 0;
	std::vector<rte_mbuf *> rx_buf_;
	std::vector<Held> held_;
	uint32_t held_count_ = 0;
	std::vector<uint8_t> scratch_;	 /* payload gather (one PMTU) */
	std::vector<uint8_t> rx_linear_; /* multi-segment RX frames are linearised here */
	uint32_t live_objects_ = 0;
	uint16_t ip_id_ = 0;
	std::unique_ptr<Neighbour> neigh_;
	uint64_t last_solicit_ = 0;
	Gid last_solicit_gid_{};
};

class ProtectionDomain {
public:
	~ProtectionDomain();
	Context &context() const { return ctx_; }

private:
	friend class Context;
	friend class MemoryRegion;
	friend class QueuePair;
	friend class SharedReceiveQueue;
	explicit ProtectionDomain(Context &c) : ctx_(c) {}
	Context &ctx_;
};

class MemoryRegion {
public:
	~MemoryRegion();
	void *addr() const { return addr_; }
	size_t length() const { return length_; }
	uint32_t lkey() const { return key_; }
	uint32_t rkey() const { return key_; }
	unsigned access() const { return access_; }
	const ProtectionDomain &pd() const { return pd_; }
	bool valid() const
	{
		return valid_;
	} /* false after a remote SEND_WITH_INV invalidated it */
	/* [va, va+len) inside the region (overflow-safe). */
	bool contains(uint64_t va, uint64_t len) const;

private:
	friend class Context;
	friend class QueuePair;
	MemoryRegion(ProtectionDomain &pd, void *a, size_t l, unsigned acc)
	    : pd_(pd), addr_(a), length_(l), access_(acc)
	{
	}
	ProtectionDomain &pd_;
	void *addr_;
	size_t length_;
	unsigned access_;
	uint32_t key_ = 0;
	bool valid_ = true;
};

class AddressHandle {
public:
	const AddressVector &attr() const { return av_; }
	const ProtectionDomain &pd() const { return pd_; }

private:
	friend class Context;
	friend class QueuePair;
	AddressHandle(ProtectionDomain &pd, const AddressVector &av) : pd_(pd), av_(av) {}
	ProtectionDomain &pd_;
	AddressVector av_;
};

class CompletionQueue {
public:
	/* Moves up to wc.size() completions (oldest first) into wc; returns the count. */
	int poll_cq(std::span<WorkCompletion> wc);
	uint32_t depth() const { return static_cast<uint32_t>(ring_.size()); }
	uint32_t size() const { return count_; }
	uint64_t overflows() const { return overflows_; }

private:
	friend class Context;
	friend class QueuePair;
	explicit CompletionQueue(uint32_t depth) : ring_(depth) {}
	bool push(const WorkCompletion &wc); /* false on overrun (IBA 11.4.2.1: CQ overrun) */
	std::vector<WorkCompletion> ring_;
	uint32_t head_ = 0, count_ = 0;
	uint64_t overflows_ = 0;
};

class QueuePair {
public:
	~QueuePair();
	uint32_t qp_num() const { return qpn_; }
	ibv_qp_type type() const { return type_; }
	ibv_qp_state state() const { return state_; }
	const QpAttr &attr() const { return attr_; }

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

	void set_tuning(const QpTuning &t) { tuning_ = t; }
	const QpTuning &tuning() const { return tuning_; }
	/* Fault injection and the PRNG are (re)seeded by this call. */
	void set_faults(const FaultConfig &f);
	/* DCQCN state (requester): current rate and the number of CNPs reacted to. */
	double current_rate_gbps() const;
	uint64_t cnps_received() const;
	uint32_t sq_outstanding() const { return sq_head_ - sq_tail_; }
	uint32_t rq_posted() const { return rq_head_ - rq_tail_; }

private:
	friend class Context;
	friend class SharedReceiveQueue;
	QueuePair(Context &c, ProtectionDomain &pd, const QpInitAttr &a, uint32_t qpn);

	/* Private types, defined in roce_internal.h. */
	struct Seg;
	struct SendWqe;
	struct RecvWqe;
	enum class RespKind : uint8_t;
	struct RespItem;
	struct RdResource;
	struct Rate;
	enum class InMsg : uint8_t;

	bool is_rc() const { return type_ == IBV_QPT_RC; }
	uint32_t pmtu() const { return mtu_bytes(attr_.path_mtu); }
	bool resolve(std::span<const Sge> sges, bool need_write, std::array<Seg, kMaxSge> &out,
		     uint32_t &n, uint32_t &total) const
	{
		return resolve_sges(ctx_, pd_, sges, need_write, out, n, total);
	}
	/* Local SGEs -> segments: lkeys of valid MRs of `pd`, inside them, LOCAL_WRITE if asked. */
	static bool resolve_sges(const Context &c, const ProtectionDomain &pd,
				 std::span<const Sge> sges, bool need_write,
				 std::array<Seg, kMaxSge> &out, uint32_t &n, uint32_t &total);
	/* The receive WQE the next message lands in (the QP's own or one taken from its SRQ and
	 * held until consumed); nullptr: none posted. */
	RecvWqe *recv_wqe();
	void recv_consumed();
	static void gather(const std::array<Seg, kMaxSge> &seg, uint32_t nseg, uint32_t off,
			   uint32_t n, uint8_t *dst);
	static bool scatter(const std::array<Seg, kMaxSge> &seg, uint32_t nseg, uint32_t off,
			    std::span<const uint8_t> src);

	/* requester */
	void fill_headers(Packet &pkt, const AddressVector &av, uint32_t dest_qpn, uint32_t psn);
	unsigned tx_requests(uint64_t now, unsigned budget);
	bool tx_one_request(SendWqe &w, uint32_t pkt_idx, uint64_t now);
	void rx_response(const Packet &pkt, uint64_t now);
	bool process_ack(uint32_t psn, uint64_t now); /* cumulative ACK through psn */
	/* A NAK/RNR NAK for psn: ACKs everything before it and finds the WQE it names. */
	bool nak_target(uint32_t psn, uint64_t now, uint32_t *idx);
	void go_back(uint32_t psn, uint64_t now);
	/* Progress: the retry counter full again, no retry running (rxe reset_retry_counters). */
	void retry_reset()
	{
		retry_left_ = attr_.retry_cnt;
		retry_started_ = false;
	}
	/* A retry that spends one of retry_cnt: go back to psn (rxe COMPST_ERROR_RETRY). */
	void retry_spend(uint32_t psn, uint64_t now)
	{
		window_on_loss();
		retry_left_--;
		retry_started_ = true;
		go_back(psn, now);
	}
	SendWqe *find_wqe(uint32_t psn, uint32_t *idx);
	uint32_t window() const
	{
		return tuning_.initial_window_pkts == 0
			       ? tuning_.max_inflight_pkts
			       : std::min(cwnd_, tuning_.max_inflight_pkts);
	}
	void window_on_ack(uint32_t pkts);
	void window_on_loss();
	void window_reset();
	void complete_send(SendWqe &w, ibv_wc_status st);
	void fail_send(uint32_t idx, ibv_wc_status st);
	void requester_timers(uint64_t now);
	bool rate_allows(uint32_t bytes, uint64_t now);
	void rate_on_cnp(uint64_t now);
	void rate_timers(uint64_t now);
	/* responder */
	void rx_request(const Packet &pkt, uint64_t now, bool ce);
	void rx_rc_request(const Packet &pkt, uint64_t now);
	void rx_uc_request(const Packet &pkt);
	void rx_ud_request(const Packet &pkt);
	bool execute(const Packet &pkt, const OpcodeInfo &oi, uint64_t now, bool uc, uint8_t &nak);
	RespItem *push_resp(RespKind k);
	void queue_ack(uint32_t psn, bool now_ready, uint64_t now);
	void queue_nak(uint32_t psn, uint8_t syndrome);
	unsigned tx_responses(uint64_t now, unsigned budget);
	MemoryRegion *check_remote(uint32_t rkey, uint64_t va, uint64_t len, unsigned need) const;
	RdResource *find_resource(uint32_t psn);
	void save_resource(const RdResource &r);
	uint32_t rd_atomic_in_flight() const;
	void rx_rc_duplicate(const Packet &pkt, uint64_t now);
	/* READ response window (QpTuning::read_stall_us) */
	void rd_window_reset();
	bool rd_window_allows(const RdResource &r, uint64_t now);
	void rd_confirm_oldest();
	void rd_on_duplicate(const RdResource &r);
	void rd_forget(RdResource &r);
	void complete_recv(RecvWqe &r, ibv_wc_status st, ibv_wc_opcode op, uint32_t len,
			   unsigned flags, uint32_t imm, uint32_t inv, uint32_t src_qp);
	void to_error();
	void flush();
	/* hooks */
	double rnd();
	void timers(uint64_t now);

	Context &ctx_;
	ProtectionDomain &pd_;
	ibv_qp_type type_;
	CompletionQueue *scq_, *rcq_;
	QpCap cap_;
	bool sq_sig_all_;
	uint32_t qpn_;
	ibv_qp_state state_ = IBV_QPS_RESET;
	QpAttr attr_;
	QpTuning tuning_;
	uint64_t hz_;

	/* send queue: [tail_, head_) posted; cur_ = next WQE to transmit, cur_pkt_ = its packet. */
	std::vector<SendWqe> sq_;
	std::vector<uint8_t> inline_; /* cap.max_inline_data bytes per SQ slot */
	uint32_t sq_mask_ = 0, sq_head_ = 0, sq_tail_ = 0, cur_ = 0, cur_pkt_ = 0;
	uint32_t next_psn_ = 0;	      /* PSN of the next new WQE */
	uint32_t una_ = 0;	      /* oldest unacknowledged PSN */
	uint32_t sent_end_ = 0;	      /* highest PSN sent + 1 */
	uint32_t rd_outstanding_ = 0; /* READ/atomic WQEs sent and not done */
	uint32_t noack_pkts_ = 0;     /* packets sent since the last one with AckReq */
	uint64_t last_progress_ = 0;  /* retransmit timer base (cycles) */
	uint8_t retry_left_ = 7, rnr_left_ = 7;
	/* Congestion window (QpTuning::initial_window_pkts): cwnd_ packets and a fraction in
	 * 1/cwnd_ steps (cwnd_acc_) once at ssthresh_. */
	uint32_t cwnd_ = 16, ssthresh_ = 256, cwnd_acc_ = 0;
	/* A retry (go-back) started and no progress since: a sequence NAK then neither spends a
	 * retry nor goes back again, a timeout does both (rxe_comp.c comp.started_retry). */
	bool retry_started_ = false;
	bool rnr_wait_ = false;
	uint64_t rnr_until_ = 0;
	uint32_t rnr_psn_ = 0;

	/* receive queue */
	std::vector<RecvWqe> rq_;
	uint32_t rq_mask_ = 0, rq_head_ = 0, rq_tail_ = 0;
	SharedReceiveQueue *srq_ = nullptr;
	std::unique_ptr<RecvWqe> srq_wqe_; /* taken from srq_ for the message in progress */
	bool srq_held_ = false;

	/* responder */
	uint32_t epsn_ = 0, msn_ = 0;
	InMsg in_msg_{};       /* InMsg::none */
	uint32_t msg_off_ = 0; /* bytes placed of the current message */
	uint64_t wr_va_ = 0;   /* current WRITE */
	uint32_t wr_len_ = 0;
	bool nak_sent_ = false; /* one NAK per expected PSN (IBA 9.7.5.2.1) */
	uint32_t pkts_since_ack_ = 0;
	std::vector<RespItem> resp_;
	uint32_t resp_head_ = 0, resp_tail_ = 0;
	std::vector<RdResource> rd_res_; /* kMaxRdAtomic slots; max_dest_rd_atomic in use */
	uint32_t rd_res_next_ = 0;
	bool error_after_resp_ = false;
	uint64_t last_cnp_ = 0;
	/* READ response window: rd_cwnd_ packets, rd_flight_ sent and not confirmed (the sum of
	 * the resources' own counts); one halving per loss until a new READ confirms progress. */
	uint32_t rd_cwnd_ = 16, rd_ssthresh_ = 256, rd_cwnd_acc_ = 0, rd_flight_ = 0;
	bool rd_loss_armed_ = true;
	uint32_t rd_dup_psn_ = 0;
	uint64_t rd_last_req_ = 0; /* cycles at the last READ request, new or duplicate */

	/* DCQCN reaction point */
	std::unique_ptr<Rate> rate_;

	/* fault injection */
	FaultConfig faults_;
	bool faults_on_ = false;
	uint64_t rng_ = 1;
};

/* ibv_srq (IBA 10.2.9, rxe_srq.c): one ring of receive WQEs; a QP attached to it takes the
 * oldest one when a message that consumes a receive arrives (RC/UC: its first packet). A SEND
 * that finds it empty gets an RNR NAK (RC) or is dropped (UC/UD), as with a QP's own queue.
 * Completions go to the taking QP's receive CQ with its qp_num. */
class SharedReceiveQueue {
public:
	~SharedReceiveQueue();
	/* ibv_post_srq_recv: 0, -EINVAL (too many SGEs, bad lkey/range/no LOCAL_WRITE), -ENOMEM
	 * (full). */
	int post_recv(const RecvWr &wr);
	/* ibv_modify_srq(IBV_SRQ_LIMIT): arms the limit; when a QP takes a WQE and fewer than
	 * `limit` remain, limit_events() counts one and the limit disarms
	 * (IBV_EVENT_SRQ_LIMIT_REACHED). 0 disarms; -EINVAL above max_wr. */
	int arm_limit(uint32_t limit);
	uint32_t limit() const { return limit_; } /* 0 once it fired (ibv_query_srq) */
	uint64_t limit_events() const { return limit_events_; }
	uint32_t posted() const { return head_ - tail_; }
	uint32_t max_wr() const { return mask_ + 1; }
	uint32_t max_sge() const { return max_sge_; }
	const ProtectionDomain &pd() const { return pd_; }

private:
	friend class Context;
	friend class QueuePair;
	SharedReceiveQueue(ProtectionDomain &pd, uint32_t n, uint32_t max_sge);
	/* The oldest WQE for a QP (false: empty); fires the armed limit. */
	bool take(QueuePair::RecvWqe &out);
	ProtectionDomain &pd_;
	std::vector<QueuePair::RecvWqe> ring_; /* complete in roce_internal.h */
	uint32_t mask_ = 0, head_ = 0, tail_ = 0, max_sge_ = 0;
	uint32_t limit_ = 0;
	uint64_t limit_events_ = 0;
	uint32_t attached_ = 0; /* QPs using it (must be 0 at destruction) */
};

} /* namespace gaudi::roce */
