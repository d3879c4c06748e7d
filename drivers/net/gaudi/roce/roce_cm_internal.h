/* SPDX-License-Identifier: BSD-3-Clause */
/* The CM's implementation types (not installed, not for applications), shaped as the verbs'
 * (roce_ctx.h, roce_qp.h): CmIdImpl embeds its public CmId, CmImpl is what a
 * ConnectionManager owns; to_impl() reaches either. roce_cm.cpp has the public methods
 * (through to_impl(), no logic), the application calls and the timers; roce_cm_recv.cpp the
 * received MADs. */
#ifndef GAUDI_ROCE_CM_INTERNAL_H
#define GAUDI_ROCE_CM_INTERNAL_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <span>
#include <vector>

#include "roce_cm.h"

namespace gaudi::roce::cm_detail {

/* REQ private data after librdmacm's cma_hdr: 92 - 36 = 56 bytes for the application. */
inline constexpr size_t kReqUserData = 92 - mad::kCmaHdrSize;

/* A REQ's path MTU code as the verbs enum; an out-of-range code reads as 1024. */
inline ibv_mtu mtu_code(uint8_t v)
{
	return v >= IBV_MTU_256 && v <= IBV_MTU_4096 ? ibv_mtu(v) : IBV_MTU_1024;
}

} /* namespace gaudi::roce::cm_detail */

namespace gaudi::roce {

/* rdma_cm_id's state as the kernel's cm_id_private: the connection's IBA 12.9 values. */
class CmIdImpl final : public CmId {
public:
	CmIdImpl() = default;
	~CmIdImpl() = default;

	CmState state_ = CmState::idle;
	bool listener_ = false;
	bool ud_ = false; /* port space UDP: SIDR instead of REQ/REP */
	uint16_t local_port_ = 0, remote_port_ = 0;
	uint32_t local_comm_id_ = 0, remote_comm_id_ = 0;
	uint64_t remote_ca_guid_ = 0;
	uint32_t remote_qpn_ = 0;
	uint32_t local_psn_ = 0;
	uint64_t tid_ = 0;
	AddressVector av_;
	QueuePair *qp_ = nullptr;
	ConnParam param_;
	std::array<uint8_t, 196> param_data_{}; /* copy of param_.private_data */
	mad::CmReq req_;			/* the REQ sent or received */
	mad::Mad last_;				/* the last MAD sent, for retransmission */
	bool retransmit_ = false;		/* last_ is resent when the timer fires */
	uint8_t retries_left_ = 0;
	uint64_t deadline_ = 0; /* TSC; 0 = no timer */
	uint64_t started_ = 0;	/* addr_query start */
};

inline CmIdImpl *to_impl(CmId *p)
{
	return static_cast<CmIdImpl *>(p);
}
inline const CmIdImpl *to_impl(const CmId *p)
{
	return static_cast<const CmIdImpl *>(p);
}
inline CmIdImpl &to_impl(CmId &p)
{
	return static_cast<CmIdImpl &>(p);
}
inline const CmIdImpl &to_impl(const CmId &p)
{
	return static_cast<const CmIdImpl &>(p);
}

/* The manager: the ids, the event queue, the timers and the MAD handlers. */
class CmImpl {
public:
	/* Takes the Context's GSI handler (given back by the destructor). */
	CmImpl(Context &ctx, const CmConfig &cfg);
	~CmImpl();
	CmImpl(const CmImpl &) = delete;
	CmImpl &operator=(const CmImpl &) = delete;

	/* The application calls (ConnectionManager's, through to_impl()). */
	int listen(uint16_t port, CmId **out, bool ud);
	int connect_ud(const Gid &dst, uint16_t port, QueuePair &qp, CmId **out);
	int connect(const Gid &dst, uint16_t port, QueuePair &qp, const ConnParam &p, CmId **out);
	int accept(CmIdImpl &id, QueuePair &qp, const ConnParam &p);
	int reject(CmIdImpl &id, std::span<const uint8_t> private_data = {});
	int disconnect(CmIdImpl &id);
	void destroy_id(CmIdImpl *id);
	bool get_event(CmEvent &ev);
	void progress();
	size_t connections() const;

	void rx(const Packet &pkt);
	void rx_req(const Packet &pkt, const mad::MadHeader &h, std::span<const uint8_t> m);
	void rx_rep(const mad::MadHeader &h, std::span<const uint8_t> m);
	void rx_rtu(std::span<const uint8_t> m);
	void rx_rej(std::span<const uint8_t> m);
	void rx_mra(std::span<const uint8_t> m);
	void rx_dreq(const Packet &pkt, const mad::MadHeader &h, std::span<const uint8_t> m);
	void rx_drep(std::span<const uint8_t> m);
	void rx_sidr_req(const Packet &pkt, const mad::MadHeader &h, std::span<const uint8_t> m);
	void rx_sidr_rep(std::span<const uint8_t> m);
	void send_sidr_req(CmIdImpl &id);
	void send_sidr_rep(const AddressVector &av, uint64_t tid, uint32_t request_id, uint64_t sid,
			   uint8_t status, uint32_t qpn);
	int ud_to_rts(QueuePair &qp);
	CmIdImpl *find_local(uint32_t local_comm_id);
	void send(CmIdImpl &id, bool retransmit);
	void send_to(const AddressVector &av, const mad::Mad &mad);
	void send_req(CmIdImpl &id);
	void send_rej(const AddressVector &av, uint64_t tid, uint32_t local_comm_id,
		      uint32_t remote_comm_id, mad::MsgKind kind, mad::RejReason reason,
		      std::span<const uint8_t> private_data = {});
	void set_timer(CmIdImpl &id, uint64_t ns);
	void arm_retry(CmIdImpl &id);
	void enter_timewait(CmIdImpl &id);
	void push(CmEventType t, CmIdImpl *id, int status = 0);
	int qp_to_init(QueuePair &qp, bool rd);
	uint64_t response_ns() const;
	uint64_t next_tid();
	/* The IP CM header of id's REQ / SIDR_REQ: our address and port, the peer's address. */
	mad::CmaHdr cma_hdr(const CmIdImpl &id) const;

	Context &ctx_;
	CmConfig cfg_;
	uint64_t hz_;
	uint64_t guid_;
	std::mt19937_64 rng_;
	uint32_t next_comm_id_;
	uint16_t next_port_ = 0;
	uint32_t tid_lo_ = 0;
	std::vector<std::unique_ptr<CmIdImpl>> ids_;
	std::deque<CmEvent> events_;
	CmStats stats_;
};

inline CmImpl &to_impl(ConnectionManager &cm)
{
	return *cm.impl_;
}
inline const CmImpl &to_impl(const ConnectionManager &cm)
{
	return *cm.impl_;
}

} /* namespace gaudi::roce */

#endif /* GAUDI_ROCE_CM_INTERNAL_H */
