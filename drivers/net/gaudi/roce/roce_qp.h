/* SPDX-License-Identifier: BSD-3-Clause */
/* The QP's implementation type (not installed, not for applications): QpImpl embeds the
 * public QueuePair of roce_verbs.h as rdma-core's providers embed struct ibv_qp in theirs
 * (struct rxe_qp, struct efa_qp; to_rqp()/to_efa_qp() are container_of). to_impl() is the
 * downcast; only the library makes QPs, so every QueuePair is a QpImpl.
 * Which file holds which part of the QP: roce_internal.h. */
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "roce_internal.h"

namespace gaudi::roce {

class ContextImpl;
class PdImpl;
class CqImpl;
class SrqImpl;
class MrImpl;
class AhImpl;

/* All members are reachable by the library's own files (the engine in roce_net.cpp drives
 * the QP's roles); the application sees only QueuePair. */
class QpImpl final : public QueuePair {
public:
	QpImpl(ContextImpl &c, PdImpl &pd, const QpInitAttr &a, uint32_t qpn);
	~QpImpl() override;
	QpImpl(const QpImpl &) = delete;
	QpImpl &operator=(const QpImpl &) = delete;

	/* The verbs (called through QueuePair's methods in roce_api.cpp). */
	int modify(const QpAttr &attr, int mask);
	int post_send(const SendWr &wr);
	int post_recv(const RecvWr &wr);
	void set_faults(const FaultConfig &f);
	double current_rate_gbps() const;
	uint64_t cnps_received() const;

	/* Types of the QP's parts, defined below. */
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
	static bool resolve_sges(const ContextImpl &c, const PdImpl &pd, std::span<const Sge> sges,
				 bool need_write, std::array<Seg, kMaxSge> &out, uint32_t &n,
				 uint32_t &total);
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
	/* Response packets through the completer's states (roce_comp.cpp, rxe_comp.c): one
	 * response packet and what the checks found, the states, the steps. */
	struct CompPkt {
		const Packet &pkt;
		uint16_t mask; /* op_mask() bits */
		uint64_t now;
		uint32_t idx = 0;		       /* the WQE named (send queue index) */
		SendWqe *wqe = nullptr;		       /* READ response / atomic ACK: that WQE */
		ibv_wc_status status = IBV_WC_SUCCESS; /* `error`: its completion status */
	};
	enum class CompState : uint8_t {
		get_ack,
		check_psn,
		check_ack,
		read,
		atomic,
		write_send,
		update_comp,
		complete,
		error_retry,
		rnr_retry,
		error,
		done,
	};
	void rx_response(const Packet &pkt, uint64_t now);
	CompState comp_get_ack(CompPkt &p);
	CompState comp_check_psn(CompPkt &p);
	CompState comp_check_ack(CompPkt &p);
	CompState comp_read(CompPkt &p);
	CompState comp_atomic(CompPkt &p);
	CompState comp_write_send(CompPkt &p);
	CompState comp_update_comp(CompPkt &p);
	CompState comp_complete(CompPkt &p);
	CompState comp_error_retry(CompPkt &p);
	CompState comp_rnr_retry(CompPkt &p);
	CompState comp_error(CompPkt &p);
	bool process_ack(uint32_t psn, uint64_t now); /* cumulative ACK through psn */
	/* A NAK/RNR NAK for psn: ACKs everything before it and finds the WQE it names. */
	bool nak_target(uint32_t psn, uint64_t now, uint32_t *idx);
	void go_back(uint32_t psn, uint64_t now);
	/* Progress: the retry counter full again, no retry running (rxe reset_retry_counters). */
	void retry_reset()
	{
		comp.retry_left = attr_.retry_cnt;
		comp.retry_started = false;
	}
	/* A retry that spends one of retry_cnt: go back to psn (rxe COMPST_ERROR_RETRY). */
	void retry_spend(uint32_t psn, uint64_t now)
	{
		window_on_loss();
		comp.retry_left--;
		comp.retry_started = true;
		go_back(psn, now);
	}
	SendWqe *find_wqe(uint32_t psn, uint32_t *idx);
	uint32_t window() const
	{
		return tuning_.initial_window_pkts == 0
			       ? tuning_.max_inflight_pkts
			       : std::min(req.cwnd, tuning_.max_inflight_pkts);
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
	void rx_ud_request(const Packet &pkt);
	/* RC/UC request packets through the responder's states (roce_resp.cpp, rxe_resp.c). */
	enum class RespState : uint8_t {
		chk_psn,
		chk_op_seq,
		chk_op_valid,
		chk_resource,
		chk_length,
		chk_rkey,
		execute,
		complete,
		acknowledge,
		duplicate,
		error,
		done,
	};
	/* One request packet and what the checks found (rxe struct rxe_pkt_info). */
	struct RespPkt {
		const Packet &pkt;
		uint16_t mask; /* op_mask() bits */
		uint32_t n;    /* payload bytes */
		uint64_t now;
		bool uc;
		uint8_t nak = kNakInvReq; /* answer of a failed check: AETH syndrome or kNakDrop */
		MrImpl *inv_mr = nullptr; /* SEND with Invalidate: the MR named by the IETH */
	};
	void responder(const Packet &pkt, uint64_t now);
	RespState resp_chk_psn(RespPkt &p);
	RespState resp_chk_op_seq(RespPkt &p);
	RespState resp_chk_op_valid(RespPkt &p);
	RespState resp_chk_resource(RespPkt &p);
	RespState resp_chk_length(RespPkt &p);
	RespState resp_chk_rkey(RespPkt &p);
	RespState resp_execute(RespPkt &p);
	RespState resp_complete(RespPkt &p);
	RespState resp_acknowledge(RespPkt &p);
	RespState resp_duplicate(RespPkt &p);
	RespState resp_error(RespPkt &p);
	RespItem *push_resp(RespKind k);
	void queue_ack(uint32_t psn, bool now_ready, uint64_t now);
	void queue_nak(uint32_t psn, uint8_t syndrome);
	unsigned tx_responses(uint64_t now, unsigned budget);
	MrImpl *check_remote(uint32_t rkey, uint64_t va, uint64_t len, unsigned need) const;
	RdResource *find_resource(uint32_t psn);
	void save_resource(const RdResource &r);
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

	ContextImpl &ctx_;
	PdImpl &pd_;
	ibv_qp_type type_;
	CqImpl *scq_, *rcq_;
	QpCap cap_;
	bool sq_sig_all_;
	uint32_t qpn_;
	ibv_qp_state state_ = IBV_QPS_RESET;
	QpAttr attr_;
	QpTuning tuning_;
	uint64_t hz_;

	/* send queue: [sq_tail_, sq_head_) posted (rxe struct rxe_sq). */
	std::vector<SendWqe> sq_;
	std::vector<uint8_t> inline_; /* cap.max_inline_data bytes per SQ slot */
	uint32_t sq_mask_ = 0, sq_head_ = 0, sq_tail_ = 0;

	/* receive queue */
	std::vector<RecvWqe> rq_;
	uint32_t rq_mask_ = 0, rq_head_ = 0, rq_tail_ = 0;
	SrqImpl *srq_ = nullptr;
	std::unique_ptr<RecvWqe> srq_wqe_; /* taken from srq_ for the message in progress */
	bool srq_held_ = false;

	/* The three roles' state, as rxe_qp's req / comp / resp. */
	struct Requester {		       /* roce_req.cpp: WQEs -> request packets */
		uint32_t cur = 0, cur_pkt = 0; /* next WQE to transmit, its next packet */
		uint32_t next_psn = 0;	       /* PSN of the next new WQE */
		uint32_t sent_end = 0;	       /* highest PSN sent + 1 */
		uint32_t rd_outstanding = 0;   /* READ/atomic WQEs sent and not done */
		uint32_t noack_pkts = 0;       /* packets sent since the last one with AckReq */
		/* Congestion window (QpTuning::initial_window_pkts): cwnd packets and a fraction
		 * in 1/cwnd steps (cwnd_acc) once at ssthresh. */
		uint32_t cwnd = 16, ssthresh = 256, cwnd_acc = 0;
	};
	struct Completer {		    /* roce_comp.cpp: responses -> send completions */
		uint32_t una = 0;	    /* oldest unacknowledged PSN */
		uint64_t last_progress = 0; /* retransmit timer base (cycles) */
		uint8_t retry_left = 7, rnr_left = 7;
		/* A retry (go-back) started and no progress since: a sequence NAK then neither
		 * spends a retry nor goes back again, a timeout does both (rxe_comp.c
		 * comp.started_retry). */
		bool retry_started = false;
		bool rnr_wait = false;
		uint64_t rnr_until = 0;
		uint32_t rnr_psn = 0;
	};
	struct Responder { /* roce_resp.cpp: requests -> execution, ACKs, READ responses */
		uint32_t epsn = 0, msn = 0;
		InMsg in_msg{};	      /* InMsg::none */
		uint32_t msg_off = 0; /* bytes placed of the current message */
		uint64_t wr_va = 0;   /* current WRITE */
		uint32_t wr_len = 0;
		bool nak_sent = false; /* one NAK per expected PSN (IBA 9.7.5.2.1) */
		uint32_t pkts_since_ack = 0;
		std::vector<RespItem> out; /* responses to send, in PSN order */
		uint32_t out_head = 0, out_tail = 0;
		std::vector<RdResource> rd_res; /* kMaxRdAtomic slots; max_dest_rd_atomic in use */
		uint32_t rd_res_next = 0;
		bool error_after_resp = false;
		uint64_t last_cnp = 0; /* DCQCN notification point: last CNP sent */
		/* READ response window: rd_cwnd packets, rd_flight sent and not confirmed (the sum
		 * of the resources' own counts); one halving per loss until a new READ confirms
		 * progress. */
		uint32_t rd_cwnd = 16, rd_ssthresh = 256, rd_cwnd_acc = 0, rd_flight = 0;
		bool rd_loss_armed = true;
		uint32_t rd_dup_psn = 0;
		uint64_t rd_last_req = 0; /* cycles at the last READ request, new or duplicate */
	};
	Requester req;
	Completer comp;
	Responder resp;

	/* DCQCN reaction point */
	std::unique_ptr<Rate> rate_;

	/* fault injection */
	FaultConfig faults_;
	bool faults_on_ = false;
	uint64_t rng_ = 1;
};

struct QpImpl::Seg {
	uint8_t *addr;
	uint32_t len;
};
struct QpImpl::SendWqe {
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
struct QpImpl::RecvWqe {
	uint64_t wr_id;
	uint32_t nseg;
	uint32_t len;
	std::array<Seg, kMaxSge> seg;
};
/* Responder output queue entries, sent in order (IBA 9.7.5.1: responses in PSN order). */
enum class QpImpl::RespKind : uint8_t { ack, nak, read, atomic_ack };
struct QpImpl::RespItem {
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
struct QpImpl::RdResource {
	bool valid, read;
	uint32_t first_psn, last_psn;
	uint64_t va;	    /* READ: first byte */
	uint32_t len, rkey; /* READ */
	uint64_t orig;	    /* atomic: original value returned */
	uint32_t flight;    /* READ: response packets sent and not confirmed */
	bool sent_all;	    /* READ: the latest generation of responses sent in full */
};

/* DCQCN reaction point state (Zhu et al. 2015). */
struct QpImpl::Rate {
	bool limited = false;
	double rc = 0, rt = 0, alpha = 1, tokens = 0;
	uint64_t last_token = 0, last_alpha = 0, last_inc = 0, last_cnp = 0;
	uint32_t stage = 0;
	uint64_t cnps = 0;
};

enum class QpImpl::InMsg : uint8_t { none = 0, send, write };

ROCE_TO_IMPL(QueuePair, QpImpl)

} /* namespace gaudi::roce */
