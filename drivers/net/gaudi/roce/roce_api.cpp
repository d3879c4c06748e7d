/* SPDX-License-Identifier: BSD-3-Clause */
/* The public classes of roce_verbs.h: each method reaches the implementation type that embeds
 * the object (roce_ctx.h, roce_qp.h) through to_impl(), as rdma-core's ibv_* entry points call
 * into a provider's struct. No state and no logic here: the verbs live in roce_verbs.cpp,
 * roce_qp.cpp and the role files. */
#include "roce_ctx.h"

namespace gaudi::roce {

/* ---------------------------------------------------------------------------------------
 * The public classes' methods: each reaches its implementation type through to_impl().
 * --------------------------------------------------------------------------------------- */

std::unique_ptr<Context> Context::create(const ContextConfig &cfg, int *err)
{
	return ContextImpl::create(cfg, err);
}
std::unique_ptr<ProtectionDomain> Context::alloc_pd()
{
	return to_impl(this)->alloc_pd();
}
std::unique_ptr<CompletionQueue> Context::create_cq(uint32_t depth)
{
	return to_impl(this)->create_cq(depth);
}
std::unique_ptr<QueuePair> Context::create_qp(ProtectionDomain &pd, const QpInitAttr &attr,
					      int *err)
{
	return to_impl(this)->create_qp(to_impl(pd), attr, err);
}
std::unique_ptr<MemoryRegion> Context::reg_mr(ProtectionDomain &pd, void *addr, size_t length,
					      unsigned access, int *err)
{
	return to_impl(this)->reg_mr(to_impl(pd), addr, length, access, err);
}
std::unique_ptr<AddressHandle> Context::create_ah(ProtectionDomain &pd, const AddressVector &av)
{
	return to_impl(this)->create_ah(to_impl(pd), av);
}
std::unique_ptr<SharedReceiveQueue> Context::create_srq(ProtectionDomain &pd, uint32_t max_wr,
							uint32_t max_sge, int *err)
{
	return to_impl(this)->create_srq(to_impl(pd), max_wr, max_sge, err);
}
unsigned Context::poll()
{
	return to_impl(this)->poll();
}
const Counters &Context::counters() const
{
	return to_impl(this)->counters_;
}
const MacAddr &Context::mac() const
{
	return to_impl(this)->mac_;
}
const Gid &Context::gid() const
{
	return to_impl(this)->gid_;
}
uint16_t Context::port_id() const
{
	return to_impl(this)->cfg_.port_id;
}
const ContextConfig &Context::config() const
{
	return to_impl(this)->cfg_;
}
ibv_mtu Context::active_mtu() const
{
	return to_impl(this)->active_mtu();
}
int Context::resolve(const Gid &peer, MacAddr &mac)
{
	return to_impl(this)->resolve(peer, mac);
}
Neighbour *Context::neighbour()
{
	return to_impl(this)->neigh_.get();
}
void Context::set_packet_log(FILE *f)
{
	to_impl(this)->log_file_ = f;
}
void Context::set_packet_log(PacketLogFn fn)
{
	to_impl(this)->log_fn_ = std::move(fn);
}
void Context::set_gsi_handler(GsiRecvFn fn)
{
	to_impl(this)->gsi_fn_ = std::move(fn);
}
int Context::send_gsi(const AddressVector &av, uint32_t dest_qpn, std::span<const uint8_t> mad)
{
	return to_impl(this)->send_gsi(av, dest_qpn, mad);
}

Context &ProtectionDomain::context() const
{
	return to_impl(this)->ctx_;
}

void *MemoryRegion::addr() const
{
	return to_impl(this)->addr_;
}
size_t MemoryRegion::length() const
{
	return to_impl(this)->length_;
}
uint32_t MemoryRegion::lkey() const
{
	return to_impl(this)->key_;
}
uint32_t MemoryRegion::rkey() const
{
	return to_impl(this)->key_;
}
unsigned MemoryRegion::access() const
{
	return to_impl(this)->access_;
}
const ProtectionDomain &MemoryRegion::pd() const
{
	return to_impl(this)->pd_;
}
bool MemoryRegion::valid() const
{
	return to_impl(this)->valid_;
}
bool MemoryRegion::contains(uint64_t va, uint64_t len) const
{
	return to_impl(this)->contains(va, len);
}

const AddressVector &AddressHandle::attr() const
{
	return to_impl(this)->av_;
}
const ProtectionDomain &AddressHandle::pd() const
{
	return to_impl(this)->pd_;
}

int CompletionQueue::poll_cq(std::span<WorkCompletion> wc)
{
	return to_impl(this)->poll_cq(wc);
}
uint32_t CompletionQueue::depth() const
{
	return static_cast<uint32_t>(to_impl(this)->ring_.size());
}
uint32_t CompletionQueue::size() const
{
	return to_impl(this)->count_;
}

uint32_t QueuePair::qp_num() const
{
	return to_impl(this)->qpn_;
}
ibv_qp_type QueuePair::type() const
{
	return to_impl(this)->type_;
}
ibv_qp_state QueuePair::state() const
{
	return to_impl(this)->state_;
}
const QpAttr &QueuePair::attr() const
{
	return to_impl(this)->attr_;
}
int QueuePair::modify(const QpAttr &attr, int mask)
{
	return to_impl(this)->modify(attr, mask);
}
int QueuePair::post_send(const SendWr &wr)
{
	return to_impl(this)->post_send(wr);
}
int QueuePair::post_recv(const RecvWr &wr)
{
	return to_impl(this)->post_recv(wr);
}
void QueuePair::set_tuning(const QpTuning &t)
{
	to_impl(this)->tuning_ = t;
}
const QpTuning &QueuePair::tuning() const
{
	return to_impl(this)->tuning_;
}
void QueuePair::set_faults(const FaultConfig &f)
{
	to_impl(this)->set_faults(f);
}
double QueuePair::current_rate_gbps() const
{
	return to_impl(this)->current_rate_gbps();
}
uint64_t QueuePair::cnps_received() const
{
	return to_impl(this)->cnps_received();
}
uint32_t QueuePair::sq_outstanding() const
{
	const QpImpl *q = to_impl(this);
	return q->sq_head_ - q->sq_tail_;
}
uint32_t QueuePair::rq_posted() const
{
	const QpImpl *q = to_impl(this);
	return q->rq_head_ - q->rq_tail_;
}

int SharedReceiveQueue::post_recv(const RecvWr &wr)
{
	return to_impl(this)->post_recv(wr);
}
int SharedReceiveQueue::arm_limit(uint32_t limit)
{
	return to_impl(this)->arm_limit(limit);
}
uint32_t SharedReceiveQueue::limit() const
{
	return to_impl(this)->limit_;
}
uint64_t SharedReceiveQueue::limit_events() const
{
	return to_impl(this)->limit_events_;
}
uint32_t SharedReceiveQueue::posted() const
{
	const SrqImpl *s = to_impl(this);
	return s->head_ - s->tail_;
}
uint32_t SharedReceiveQueue::max_wr() const
{
	return to_impl(this)->mask_ + 1;
}
uint32_t SharedReceiveQueue::max_sge() const
{
	return to_impl(this)->max_sge_;
}
const ProtectionDomain &SharedReceiveQueue::pd() const
{
	return to_impl(this)->pd_;
}

} /* namespace gaudi::roce */
