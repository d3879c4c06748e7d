/* SPDX-License-Identifier: BSD-3-Clause */
/* RDMA connection manager over RoCE v2: the IB CM protocol (IBA Vol 1 chapter 12) on QP1 with
 * the IP addressing of librdmacm (rdma_cm), so that rping, rdma_server/rdma_client and other
 * librdmacm applications can connect to or accept connections from our transport.
 *
 * API shaped after rdma_cm.h, without threads or file descriptors: the application polls.
 *   ConnectionManager  one per Context; takes the Context's QP1 (GSI). rdma_event_channel +
 *                      the kernel's ib_cm/rdma_cm state.
 *   CmId               rdma_cm_id: a listener (listen()) or one connection (connect(), or
 *                      the id a CONNECT_REQUEST event carries). Owned by the manager; the
 *                      application ends it with destroy_id().
 *   CmEvent            rdma_cm_event; get_event() = rdma_get_cm_event + rdma_ack_cm_event.
 *
 * Progress: call Context::poll() (receives the MADs) and ConnectionManager::get_event() (timers:
 * retransmissions, time-wait, address resolution) from the Context's thread.
 *
 * Connection setup (IBA 12.9.5, Figure 156) and what drives the QP:
 *   active side   connect(): QP -> INIT, ARP/ND for the peer, REQ ........ REQ_SENT
 *                 REP: QP -> RTR (REP's QPN) -> RTS, RTU, ESTABLISHED event
 *   passive side  REQ: CONNECT_REQUEST event with the peer's private data ..... REQ_RCVD
 *                 accept(): QP -> INIT -> RTR (REQ's QPN, path MTU) -> RTS, REP ..  REP_SENT
 *                 RTU: ESTABLISHED event
 *   PSNs          as Linux's ib_cm/rdma_cm: the Starting PSN a REQ or REP carries is the one its
 *                 sender receives at; each side sends at the peer's.
 *   teardown      disconnect(): QP -> ERR, DREQ ..... DREQ_SENT; DREP: DISCONNECTED, TIMEWAIT
 *                 DREQ received: QP -> ERR, DREP, DISCONNECTED event ........ TIMEWAIT
 *   REQ, REP and DREQ are resent every 4.096 us * 2^cm_response_timeout until answered, at most
 *   max_cm_retries times (then UNREACHABLE, and a REJ with reason Timeout); duplicates of REQ
 *   and REP are answered again with the REP and RTU.
 *
 * UD (port space UDP, udaddy): SIDR_REQ / SIDR_REP resolve the QPN and Q_Key behind a port
 * (IBA 12.11); connect_ud() and accept() on a UD id bring the UD QP to RTS with kRdmaUdpQkey.
 *
 * Not supported (yet): LAP/APR (alternate paths), MRA sending (an MRA received does extend the
 * peer's time), UC/XRC, port space IB/IPoIB. */
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "roce_mad.h"
#include "roce_verbs.h"

namespace gaudi::roce {

/* Per-connection CM state (IBA 12.9.6, the states of Figures 157-159, as the kernel's ib_cm
 * names them). */
enum class CmState : uint8_t {
	idle,
	addr_query, /* active: resolving the peer's MAC before the REQ */
	listen,
	req_sent,
	req_rcvd, /* passive: CONNECT_REQUEST delivered, waiting for accept()/reject() */
	rep_sent,
	established,
	dreq_sent,
	timewait,
	rejected,      /* a REJ went or came, or the peer never answered: the id is dead */
	sidr_req_sent, /* UD: SIDR_REQ sent, waiting for the SIDR_REP */
	sidr_req_rcvd, /* UD: CONNECT_REQUEST delivered, waiting for accept()/reject() */
};
std::string_view cm_state_name(CmState s);

/* rdma_cm_event_type subset (names as RDMA_CM_EVENT_*). */
enum class CmEventType : uint8_t {
	connect_request,
	established,
	rejected,     /* status: the REJ reason (mad::RejReason) */
	unreachable,  /* status: -ETIMEDOUT (no answer) or -EHOSTUNREACH (no ARP/ND answer) */
	disconnected, /* DREQ received or DREP received for ours (or DREQ unanswered) */
	timewait_exit,
};
std::string_view cm_event_name(CmEventType t);

/* rdma_conn_param. */
struct ConnParam {
	std::span<const uint8_t> private_data; /* REQ: <= 56 B (after the 36 B cma_hdr); REP 196 */
	uint8_t responder_resources = 1;       /* READ/atomic we accept (max_dest_rd_atomic) */
	uint8_t initiator_depth = 1;	       /* READ/atomic we issue (max_rd_atomic) */
	uint8_t retry_count = 7;
	uint8_t rnr_retry_count = 7;
	bool srq = false;
};

class CmId;

struct CmEvent {
	CmEventType type = CmEventType::established;
	CmId *id = nullptr;	   /* connect_request: the new connection's id */
	CmId *listen_id = nullptr; /* connect_request: the listener it came to */
	int status = 0;
	/* The peer's private data (REQ after the cma_hdr, REP, REJ, DREQ), its full MAD field. */
	std::array<uint8_t, 224> private_data{};
	uint8_t private_data_len = 0;
	/* connect_request / established: the peer's REQ or REP values. */
	uint8_t responder_resources = 0;
	uint8_t initiator_depth = 0;
	/* UD (SIDR) established: the peer's QPN and Q_Key (rdma_ud_param); the address is the
	 * id's av(). */
	uint32_t qp_num = 0;
	uint32_t qkey = 0;
};

/* The Q_Key librdmacm gives UD QPs of port space UDP (RDMA_UDP_QKEY). */
inline constexpr uint32_t kRdmaUdpQkey = 0x01234567;

struct CmConfig {
	/* 4.096 us * 2^x: our answer time told to the peer, and our retransmission period.
	 * 20 (4.3 s) is librdmacm's CMA_CM_RESPONSE_TIMEOUT; tests use less. */
	uint8_t cm_response_timeout = 20;
	uint8_t max_cm_retries = 15;	    /* CMA_MAX_CM_RETRIES */
	uint8_t local_ack_timeout = 14;	    /* QP ACK timeout both sides use (REQ primary path) */
	uint8_t packet_rate = 16;	    /* REQ path rate code (IB_RATE_100_GBPS) */
	uint32_t timewait_ms = 100;	    /* TIMEWAIT before the id may be reused */
	uint32_t resolve_timeout_ms = 2000; /* ARP/ND for connect() */
	uint64_t seed = 0;		    /* comm IDs and PSNs; 0 = from the TSC */
};

struct CmStats {
	uint64_t rx_mads = 0, tx_mads = 0;
	uint64_t rx_bad = 0;	    /* not a CM MAD (class, version, method) or not decodable */
	uint64_t rx_unmatched = 0;  /* no connection for the comm ID */
	uint64_t rx_duplicates = 0; /* REQ/REP/DREQ seen again (answered again) */
	uint64_t retransmits = 0;
	uint64_t timeouts = 0; /* connections given up (max_cm_retries) */
	std::array<uint64_t, 0x1B> rx_by_attr{}, tx_by_attr{}; /* index: AttributeID */
};

/* ---------------------------------------------------------------------------------------
 * Objects, shaped as the verbs' (roce_verbs.h): the public classes hold no CM state. A CmId
 * is the public face of CmIdImpl (roce_cm_internal.h), which embeds it; to_impl() is the
 * downcast. The manager is built by the application (std::make_unique<ConnectionManager>),
 * so it cannot be embedded the same way: it owns its CmImpl, and to_impl() follows that
 * pointer.
 * --------------------------------------------------------------------------------------- */

class CmId {
public:
	CmId(const CmId &) = delete;
	CmId &operator=(const CmId &) = delete;

	CmState state() const;
	QueuePair *qp() const;
	uint16_t local_port() const;
	uint16_t remote_port() const;
	const Gid &remote_gid() const;
	const AddressVector &av() const; /* the peer (UD: for its AddressHandle) */
	bool ud() const;
	uint32_t remote_qpn() const;
	uint32_t local_comm_id() const;
	uint32_t remote_comm_id() const;
	void *context = nullptr; /* the application's (rdma_cm_id.context) */

protected:
	/* Made and freed only by the manager (destroy_id()). */
	CmId() = default;
	~CmId() = default;
};

class CmImpl;

class ConnectionManager {
public:
	/* Takes the Context's GSI handler; the Context must outlive the manager. */
	explicit ConnectionManager(Context &ctx, const CmConfig &cfg = {});
	~ConnectionManager();
	ConnectionManager(const ConnectionManager &) = delete;
	ConnectionManager &operator=(const ConnectionManager &) = delete;

	/* rdma_bind_addr + rdma_listen on `port`, port space TCP (RC, REQ/REP) or, with ud, UDP
	 * (SIDR). -EADDRINUSE when taken. */
	int listen(uint16_t port, CmId **out, bool ud = false);
	/* The UD form of connect() (port space UDP): the QP (UD) is brought to RTS with
	 * kRdmaUdpQkey, a SIDR_REQ asks `dst` for the QPN behind `port`; ESTABLISHED carries the
	 * peer's QPN and Q_Key, REJECTED the SIDR_REP's status. */
	int connect_ud(const Gid &dst, uint16_t port, QueuePair &qp, CmId **out);
	/* rdma_resolve_addr + rdma_resolve_route + rdma_connect: RC QP `qp` (RESET or INIT; this
	 * CM moves it through RTR to RTS) to `dst` port `port`. -EINVAL (QP not RC, private data
	 * > 56 B, GID family not the Context's). */
	int connect(const Gid &dst, uint16_t port, QueuePair &qp, const ConnParam &p, CmId **out);
	/* rdma_accept / rdma_reject on an id from a CONNECT_REQUEST. -EINVAL when not REQ_RCVD. */
	int accept(CmId &id, QueuePair &qp, const ConnParam &p);
	int reject(CmId &id, std::span<const uint8_t> private_data = {});
	/* rdma_disconnect: QP -> ERR, DREQ. 0 when already disconnecting or disconnected. */
	int disconnect(CmId &id);
	/* rdma_destroy_id: a live connection is rejected or sent a DREQ first. Events not yet
	 * taken that name the id are dropped. */
	void destroy_id(CmId *id);

	/* Runs the timers, then returns the oldest event (false: none). */
	bool get_event(CmEvent &ev);
	/* Timers only (retransmission, time-wait, address resolution); get_event() calls it. */
	void progress();

	const CmStats &stats() const;
	uint64_t local_ca_guid() const;
	/* Connection ids alive (not counting listeners). */
	size_t connections() const;

private:
	friend CmImpl &to_impl(ConnectionManager &cm);
	friend const CmImpl &to_impl(const ConnectionManager &cm);
	std::unique_ptr<CmImpl> impl_;
};

} /* namespace gaudi::roce */
