/* SPDX-License-Identifier: BSD-3-Clause */
/* Implementation types of the verbs objects other than the QP (not installed, not for
 * applications): each embeds its public class of roce_verbs.h (ContextImpl : Context,
 * PdImpl : ProtectionDomain, MrImpl : MemoryRegion, AhImpl : AddressHandle,
 * CqImpl : CompletionQueue, SrqImpl : SharedReceiveQueue), as rdma-core's providers embed
 * struct ibv_context / ibv_pd / ibv_mr / ibv_cq in theirs; to_impl() is the downcast.
 * The library's .cpp files include this header (it brings roce_qp.h and roce_internal.h). */
#pragma once

#include <cstdio>
#include <memory>
#include <string_view>
#include <vector>

#include "roce_qp.h"

namespace gaudi::roce {

/* Context: the port queue, the progress engine, the QP and key tables, the counters. */
class ContextImpl final : public Context {
public:
	explicit ContextImpl(const ContextConfig &cfg);
	~ContextImpl() override;
	static std::unique_ptr<ContextImpl> create(const ContextConfig &cfg, int *err);

	/* The verbs (called through Context's methods in roce_api.cpp). */
	std::unique_ptr<PdImpl> alloc_pd();
	std::unique_ptr<CqImpl> create_cq(uint32_t depth);
	std::unique_ptr<QpImpl> create_qp(PdImpl &pd, const QpInitAttr &attr, int *err);
	std::unique_ptr<MrImpl> reg_mr(PdImpl &pd, void *addr, size_t length, unsigned access,
				       int *err);
	std::unique_ptr<AhImpl> create_ah(PdImpl &pd, const AddressVector &av);
	std::unique_ptr<SrqImpl> create_srq(PdImpl &pd, uint32_t max_wr, uint32_t max_sge,
					    int *err);
	unsigned poll();
	ibv_mtu active_mtu() const;
	int resolve(const Gid &peer, MacAddr &mac);
	int send_gsi(const AddressVector &av, uint32_t dest_qpn, std::span<const uint8_t> mad);

	/* A packet held back by a research hook (delay/reorder), released at `release`. */
	struct Held {
		rte_mbuf *m;
		uint64_t release;
		QpImpl *qp;
		bool rx;
	};

	/* TX staging */
	bool tx_reserve(); /* room for one more frame (flushes if needed) */
	void tx_flush();
	rte_mbuf *alloc_frame();
	/* Builds `pkt` into a fresh mbuf and queues it through qp's TX hooks; false: no
	 * mbuf/room. */
	bool emit(QpImpl *qp, Packet &pkt);
	void queue_tx(QpImpl *qp, rte_mbuf *m, const Packet &pkt);
	void tx_push(rte_mbuf *m); /* into the burst; the caller made room (tx_reserve) */
	void rx_frame(rte_mbuf *m, bool from_hold);
	/* Research hooks (roce_hooks.cpp): a filter on a QP's frames. */
	enum class HookVerdict : uint8_t { pass, pass_twice, consumed };
	HookVerdict tx_hook(QpImpl *qp, rte_mbuf *m, const Packet &pkt, std::string_view &fate);
	HookVerdict rx_hook(QpImpl *qp, rte_mbuf *m, uint8_t *data, uint32_t len, Packet &pkt);
	void hold(rte_mbuf *m, uint64_t release, QpImpl *qp, bool rx);
	void release_held(uint64_t now);
	void log(bool tx, const Packet &pkt, uint32_t local_qpn, uint32_t frame_len,
		 std::string_view fate);
	void send_cnp(const Packet &rx, uint32_t dest_qpn, QpImpl *qp);
	bool send_raw(std::span<const uint8_t> frame);
	MrImpl *lookup_mr(uint32_t key) const;
	uint32_t register_mr(MrImpl *mr);
	void unregister_mr(uint32_t key);
	void unregister_qp(QpImpl *qp);

	ContextConfig cfg_;
	bool debug_ = false; /* lib.roce at DEBUG: state transitions logged (set per poll()) */
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
	std::vector<QpImpl *> qps_; /* slot -> QP (QPN = kQpnBase + slot) */
	std::vector<MrImpl *> mrs_; /* key index -> MR */
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

class PdImpl final : public ProtectionDomain {
public:
	explicit PdImpl(ContextImpl &c) : ctx_(c) {}
	~PdImpl() override;
	ContextImpl &ctx_;
};

class MrImpl final : public MemoryRegion {
public:
	MrImpl(PdImpl &pd, void *a, size_t l, unsigned acc)
	    : pd_(pd), addr_(a), length_(l), access_(acc)
	{
	}
	~MrImpl() override;
	bool contains(uint64_t va, uint64_t len) const;
	PdImpl &pd_;
	void *addr_;
	size_t length_;
	unsigned access_;
	uint32_t key_ = 0;
	bool valid_ = true; /* false after a remote SEND_WITH_INV invalidated it */
};

class AhImpl final : public AddressHandle {
public:
	AhImpl(PdImpl &pd, const AddressVector &av) : pd_(pd), av_(av) {}
	PdImpl &pd_;
	AddressVector av_;
};

class CqImpl final : public CompletionQueue {
public:
	explicit CqImpl(uint32_t depth) : ring_(depth) {}
	int poll_cq(std::span<WorkCompletion> wc);
	bool push(const WorkCompletion &wc); /* false on overrun (IBA 11.4.2.1: CQ overrun) */
	std::vector<WorkCompletion> ring_;
	uint32_t head_ = 0, count_ = 0;
};

class SrqImpl final : public SharedReceiveQueue {
public:
	SrqImpl(PdImpl &pd, uint32_t n, uint32_t max_sge);
	~SrqImpl() override;
	int post_recv(const RecvWr &wr);
	int arm_limit(uint32_t limit);
	/* The oldest WQE for a QP (false: empty); fires the armed limit. */
	bool take(QpImpl::RecvWqe &out);
	PdImpl &pd_;
	std::vector<QpImpl::RecvWqe> ring_;
	uint32_t mask_ = 0, head_ = 0, tail_ = 0, max_sge_ = 0;
	uint32_t limit_ = 0;
	uint64_t limit_events_ = 0;
	uint32_t attached_ = 0; /* QPs using it (must be 0 at destruction) */
};

ROCE_TO_IMPL(Context, ContextImpl)
ROCE_TO_IMPL(ProtectionDomain, PdImpl)
ROCE_TO_IMPL(MemoryRegion, MrImpl)
ROCE_TO_IMPL(AddressHandle, AhImpl)
ROCE_TO_IMPL(CompletionQueue, CqImpl)
ROCE_TO_IMPL(SharedReceiveQueue, SrqImpl)

} /* namespace gaudi::roce */
