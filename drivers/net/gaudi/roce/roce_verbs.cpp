/* SPDX-License-Identifier: BSD-3-Clause */
/* Verbs objects: Context, ProtectionDomain, MemoryRegion, AddressHandle, CompletionQueue,
 * QueuePair creation and posting (rxe_verbs.c / rxe_mr.c).
 * API contract: roce_verbs.h; how the parts fit: roce_internal.h. */
#include "roce_ctx.h"
#include "roce_log.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <rte_cycles.h>
#include <rte_ethdev.h>

RTE_LOG_REGISTER(roce_logtype, lib.roce, NOTICE);

namespace gaudi::roce {

uint32_t rnr_timer_us(uint8_t code)
{
	/* IBA Table 45 (microseconds); NOT the rxe table (it has the 61410 typo). */
	static constexpr uint32_t kTable[32] = {
		655360, 10,    20,    30,    40,    60,	    80,	    120,    160,    240,   320,
		480,	640,   960,   1280,  1920,  2560,   3840,   5120,   7680,   10240, 15360,
		20480,	30720, 40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520};
	return kTable[code & 31];
}

uint64_t ack_timeout_ns(uint8_t timeout)
{
	if (timeout == 0)
		return 0;
	return 4096ull << std::min<uint8_t>(timeout, 31); /* 4.096 us = 4096 ns */
}

uint32_t mtu_bytes(ibv_mtu mtu)
{
	switch (mtu) {
	case IBV_MTU_256:
		return 256;
	case IBV_MTU_512:
		return 512;
	case IBV_MTU_1024:
		return 1024;
	case IBV_MTU_2048:
		return 2048;
	case IBV_MTU_4096:
		return 4096;
	default:
		return 0;
	}
}

uint32_t calc_flow_label(uint32_t lqpn, uint32_t rqpn)
{
	uint64_t v = uint64_t(lqpn) * rqpn;
	v ^= v >> 20;
	v ^= v >> 40;
	return static_cast<uint32_t>(v & 0xFFFFF);
}

bool MrImpl::contains(uint64_t va, uint64_t len) const
{
	uint64_t base = reinterpret_cast<uintptr_t>(addr_);
	return va >= base && len <= length_ && va - base <= length_ - len;
}

/* CompletionQueue */

bool CqImpl::push(const WorkCompletion &wc)
{
	if (count_ == ring_.size())
		return false;
	ring_[(head_ + count_) % ring_.size()] = wc;
	count_++;
	return true;
}

int CqImpl::poll_cq(std::span<WorkCompletion> wc)
{
	uint32_t n = std::min<uint32_t>(count_, static_cast<uint32_t>(wc.size()));
	for (uint32_t i = 0; i < n; i++) {
		wc[i] = ring_[head_];
		head_ = (head_ + 1) % ring_.size();
	}
	count_ -= n;
	return static_cast<int>(n);
}

/* Context */

ContextImpl::ContextImpl(const ContextConfig &cfg) : cfg_(cfg) {}

std::unique_ptr<ContextImpl> ContextImpl::create(const ContextConfig &cfg, int *err)
{
	auto fail = [err](int e) {
		if (err)
			*err = e;
		return std::unique_ptr<ContextImpl>();
	};
	if (!rte_eth_dev_is_valid_port(cfg.port_id) || cfg.tx_pool == nullptr || cfg.max_qps == 0 ||
	    cfg.max_mrs == 0 || cfg.max_mrs > 0xFFFFFF || cfg.rx_burst == 0)
		return fail(-EINVAL);
	std::unique_ptr<ContextImpl> c(new ContextImpl(cfg));
	if (cfg.mac_from_port) {
		rte_ether_addr a;
		if (rte_eth_macaddr_get(cfg.port_id, &a) != 0)
			return fail(-EINVAL);
		std::copy(a.addr_bytes, a.addr_bytes + 6, c->mac_.begin());
	} else {
		c->mac_ = cfg.mac;
	}
	c->gid_ = cfg.gid;
	c->v4_ = cfg.gid.is_ipv4();
	c->hz_ = rte_get_timer_hz();
	c->qps_.assign(cfg.max_qps, nullptr);
	c->mrs_.assign(cfg.max_mrs, nullptr);
	c->mr_gen_.assign(cfg.max_mrs, 0);
	c->tx_buf_.assign(kTxBufLen, nullptr);
	c->rx_buf_.assign(cfg.rx_burst, nullptr);
	c->held_.assign(kHeldLen, Held{});
	c->scratch_.assign(4096 + 64, 0);
	c->rx_linear_.assign(kIcrcScratchLen, 0);
	if (cfg.neighbour) {
		c->neigh_ = std::make_unique<Neighbour>(c->mac_);
		c->neigh_->add_address(c->gid_);
	}
	if (err)
		*err = 0;
	return c;
}

ContextImpl::~ContextImpl()
{
	if (live_objects_ != 0)
		ROCE_LOG(ERR, "Context destroyed with %u live objects (PD/CQ/SRQ/QP/MR/AH)",
			 live_objects_);
	for (uint32_t i = 0; i < tx_count_; i++)
		rte_pktmbuf_free(tx_buf_[i]);
	for (uint32_t i = 0; i < held_count_; i++)
		rte_pktmbuf_free(held_[i].m);
}

ibv_mtu ContextImpl::active_mtu() const
{
	uint16_t port_mtu = RTE_ETHER_MTU;
	rte_eth_dev_get_mtu(cfg_.port_id, &port_mtu);
	return ib_mtu_for_port(port_mtu);
}

std::unique_ptr<PdImpl> ContextImpl::alloc_pd()
{
	live_objects_++;
	return std::unique_ptr<PdImpl>(new PdImpl(*this));
}

PdImpl::~PdImpl()
{
	ctx_.live_objects_--;
}

std::unique_ptr<CqImpl> ContextImpl::create_cq(uint32_t depth)
{
	if (depth == 0 || depth > (1u << 22))
		return nullptr;
	return std::unique_ptr<CqImpl>(new CqImpl(depth));
}

std::unique_ptr<AhImpl> ContextImpl::create_ah(PdImpl &pd, const AddressVector &av)
{
	if (&pd.ctx_ != this || av.gid.is_ipv4() != v4_)
		return nullptr;
	return std::unique_ptr<AhImpl>(new AhImpl(pd, av));
}

std::unique_ptr<MrImpl> ContextImpl::reg_mr(PdImpl &pd, void *addr, size_t length, unsigned access,
					    int *err)
{
	auto fail = [err](int e) {
		if (err)
			*err = e;
		return std::unique_ptr<MrImpl>();
	};
	constexpr unsigned kKnown = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				    IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
	if (&pd.ctx_ != this || (addr == nullptr && length != 0) || (access & ~kKnown) != 0)
		return fail(-EINVAL);
	/* IBA 10.6.3.1 / ibv_reg_mr(3): remote write or atomic needs local write. */
	if ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IBV_ACCESS_LOCAL_WRITE))
		return fail(-EINVAL);
	std::unique_ptr<MrImpl> mr(new MrImpl(pd, addr, length, access));
	uint32_t key = register_mr(mr.get());
	if (key == 0)
		return fail(-ENOMEM);
	mr->key_ = key;
	live_objects_++;
	if (err)
		*err = 0;
	return mr;
}

uint32_t ContextImpl::register_mr(MrImpl *mr)
{
	for (uint32_t i = 0; i < mrs_.size(); i++) {
		if (mrs_[i] == nullptr) {
			mrs_[i] = mr;
			mr_gen_[i]++; /* a stale rkey of a freed MR does not match its slot's successor */
			return ((i + 1) << 8) | mr_gen_[i];
		}
	}
	return 0;
}

void ContextImpl::unregister_mr(uint32_t key)
{
	uint32_t idx = (key >> 8) - 1;
	if (idx < mrs_.size())
		mrs_[idx] = nullptr;
}

MrImpl *ContextImpl::lookup_mr(uint32_t key) const
{
	uint32_t idx = (key >> 8) - 1;
	if (idx >= mrs_.size() || mrs_[idx] == nullptr || mrs_[idx]->key_ != key)
		return nullptr;
	return mrs_[idx];
}

MrImpl::~MrImpl()
{
	pd_.ctx_.unregister_mr(key_);
	pd_.ctx_.live_objects_--;
}

std::unique_ptr<QpImpl> ContextImpl::create_qp(PdImpl &pd, const QpInitAttr &a, int *err)
{
	auto fail = [err](int e) {
		if (err)
			*err = e;
		return std::unique_ptr<QpImpl>();
	};
	if (&pd.ctx_ != this || a.send_cq == nullptr || a.recv_cq == nullptr ||
	    (a.qp_type != IBV_QPT_RC && a.qp_type != IBV_QPT_UC && a.qp_type != IBV_QPT_UD) ||
	    a.cap.max_send_wr == 0 || (a.cap.max_recv_wr == 0 && a.srq == nullptr) ||
	    a.cap.max_send_wr > 65536 || a.cap.max_recv_wr > 65536 ||
	    a.cap.max_send_sge > kMaxSge || a.cap.max_recv_sge > kMaxSge ||
	    a.cap.max_inline_data > 4096 || (a.srq != nullptr && &to_impl(a.srq)->pd_ != &pd))
		return fail(-EINVAL);
	for (uint32_t i = 0; i < qps_.size(); i++) {
		if (qps_[i] == nullptr) {
			std::unique_ptr<QpImpl> qp(new QpImpl(*this, pd, a, kQpnBase + i));
			qps_[i] = qp.get();
			live_objects_++;
			if (err)
				*err = 0;
			return qp;
		}
	}
	return fail(-ENOMEM);
}

std::unique_ptr<SrqImpl> ContextImpl::create_srq(PdImpl &pd, uint32_t max_wr, uint32_t max_sge,
						 int *err)
{
	if (&pd.ctx_ != this || max_wr == 0 || max_wr > 65536 || max_sge == 0 ||
	    max_sge > kMaxSge) {
		if (err)
			*err = -EINVAL;
		return nullptr;
	}
	live_objects_++;
	if (err)
		*err = 0;
	return std::unique_ptr<SrqImpl>(new SrqImpl(pd, pow2_at_least(max_wr), max_sge));
}

SrqImpl::SrqImpl(PdImpl &pd, uint32_t n, uint32_t max_sge)
    : pd_(pd), ring_(n), mask_(n - 1), max_sge_(max_sge)
{
}

SrqImpl::~SrqImpl()
{
	/* ibv_destroy_srq fails with EBUSY while QPs use it; here that is a lifetime bug. */
	if (attached_ != 0)
		ROCE_LOG(ERR, "SRQ destroyed with %u QPs attached", attached_);
	pd_.ctx_.live_objects_--;
}

int SrqImpl::post_recv(const RecvWr &wr)
{
	if (head_ - tail_ > mask_)
		return -ENOMEM;
	if (wr.sg_list.size() > max_sge_)
		return -EINVAL;
	QpImpl::RecvWqe &r = ring_[head_ & mask_];
	r.wr_id = wr.wr_id;
	if (!QpImpl::resolve_sges(pd_.ctx_, pd_, wr.sg_list, true, r.seg, r.nseg, r.len))
		return -EINVAL;
	head_++;
	return 0;
}

int SrqImpl::arm_limit(uint32_t limit)
{
	if (limit > mask_ + 1)
		return -EINVAL;
	limit_ = limit;
	return 0;
}

bool SrqImpl::take(QpImpl::RecvWqe &out)
{
	if (head_ == tail_)
		return false;
	out = ring_[tail_ & mask_];
	tail_++;
	if (limit_ != 0 && head_ - tail_ < limit_) {
		limit_events_++;
		limit_ = 0;
	}
	return true;
}

void ContextImpl::unregister_qp(QpImpl *qp)
{
	uint32_t slot = qp->qpn_ - kQpnBase;
	if (slot < qps_.size() && qps_[slot] == qp)
		qps_[slot] = nullptr;
	/* Held packets refer to the QP: drop them. */
	uint32_t w = 0;
	for (uint32_t i = 0; i < held_count_; i++) {
		if (held_[i].qp == qp)
			rte_pktmbuf_free(held_[i].m);
		else
			held_[w++] = held_[i];
	}
	held_count_ = w;
	live_objects_--;
}

bool QpImpl::resolve_sges(const ContextImpl &c, const PdImpl &pd, std::span<const Sge> sges,
			  bool need_write, std::array<Seg, kMaxSge> &out, uint32_t &n,
			  uint32_t &total)
{
	n = 0;
	uint64_t t = 0;
	for (const Sge &s : sges) {
		MrImpl *mr = c.lookup_mr(s.lkey);
		if (mr == nullptr || !mr->valid_ || &mr->pd_ != &pd ||
		    !mr->contains(s.addr, s.length) ||
		    (need_write && !(mr->access_ & IBV_ACCESS_LOCAL_WRITE)))
			return false;
		if (s.length == 0)
			continue;
		out[n++] = {reinterpret_cast<uint8_t *>(static_cast<uintptr_t>(s.addr)), s.length};
		t += s.length;
	}
	if (t > 0x80000000ull) /* IBA: messages up to 2^31 bytes */
		return false;
	total = static_cast<uint32_t>(t);
	return true;
}

void QpImpl::gather(const std::array<Seg, kMaxSge> &seg, uint32_t nseg, uint32_t off, uint32_t n,
		    uint8_t *dst)
{
	for (uint32_t i = 0; i < nseg && n > 0; i++) {
		if (off >= seg[i].len) {
			off -= seg[i].len;
			continue;
		}
		uint32_t c = std::min(n, seg[i].len - off);
		std::memcpy(dst, seg[i].addr + off, c);
		dst += c;
		n -= c;
		off = 0;
	}
}

bool QpImpl::scatter(const std::array<Seg, kMaxSge> &seg, uint32_t nseg, uint32_t off,
		     std::span<const uint8_t> src)
{
	uint64_t total = 0;
	for (uint32_t i = 0; i < nseg; i++)
		total += seg[i].len;
	if (uint64_t(off) + src.size() > total)
		return false;
	const uint8_t *s = src.data();
	size_t n = src.size();
	for (uint32_t i = 0; i < nseg && n > 0; i++) {
		if (off >= seg[i].len) {
			off -= seg[i].len;
			continue;
		}
		size_t c = std::min<size_t>(n, seg[i].len - off);
		std::memcpy(seg[i].addr + off, s, c);
		s += c;
		n -= c;
		off = 0;
	}
	return true;
}

int QpImpl::post_send(const SendWr &wr)
{
	if (state_ != IBV_QPS_RTS)
		return -EINVAL;
	if (sq_head_ - sq_tail_ >= sq_.size())
		return -ENOMEM;
	ibv_wr_opcode op = wr.opcode;
	const WrOpInfo &wi = wr_op_info(op);
	bool ok_op = wi.qp_types & (1u << type_);
	if (!ok_op)
		return -EINVAL;
	uint32_t slot = sq_head_ & sq_mask_;
	SendWqe &w = sq_[slot];
	w = SendWqe{};
	w.wr_id = wr.wr_id;
	w.opcode = op;
	w.signaled = sq_sig_all_ || (wr.send_flags & IBV_SEND_SIGNALED);
	w.solicited = wr.send_flags & IBV_SEND_SOLICITED;
	w.imm = wr.imm_data;
	w.inv_rkey = wr.invalidate_rkey;
	bool inl = (wr.send_flags & IBV_SEND_INLINE) && !is_read_or_atomic(op);
	if (inl) {
		uint64_t total = 0;
		for (const Sge &s : wr.sg_list)
			total += s.length;
		if (total > cap_.max_inline_data || wr.sg_list.size() > kMaxSge)
			return -EINVAL;
		uint8_t *buf =
			inline_.data() + size_t(slot) * std::max<uint32_t>(cap_.max_inline_data, 1);
		uint32_t off = 0;
		for (const Sge &s : wr.sg_list) {
			std::memcpy(buf + off,
				    reinterpret_cast<const void *>(static_cast<uintptr_t>(s.addr)),
				    s.length);
			off += s.length;
		}
		w.seg[0] = {buf, off};
		w.nseg = off ? 1 : 0;
		w.len = off;
	} else {
		if (wr.sg_list.size() > cap_.max_send_sge)
			return -EINVAL;
		if (!resolve(wr.sg_list, is_read_or_atomic(op), w.seg, w.nseg, w.len))
			return -EINVAL;
	}
	uint32_t mtu = pmtu();
	if (wi.remote == WrRemote::rdma) {
		w.raddr = wr.rdma.remote_addr;
		w.rkey = wr.rdma.rkey;
	} else if (wi.remote == WrRemote::atomic) {
		if (w.len != 8 || (wr.atomic.remote_addr & 7) != 0) /* IBA 9.4.5: 8-byte aligned */
			return -EINVAL;
		w.raddr = wr.atomic.remote_addr;
		w.rkey = wr.atomic.rkey;
		w.cmp = wr.atomic.compare_add;
		w.swap = wr.atomic.swap;
	}
	if (type_ == IBV_QPT_UD) {
		if (wr.ud.ah == nullptr || &to_impl(wr.ud.ah)->pd_ != &pd_ ||
		    wr.ud.remote_qpn > kPsnMask)
			return -EINVAL;
		/* IBA C10-93.1.1: a UD message above the port MTU emits nothing and is not an error
		 * (rxe_req.c fake_udp_send() completes it successfully). */
		w.oversize = w.len > mtu;
		w.ah = to_impl(wr.ud.ah);
		w.remote_qpn = wr.ud.remote_qpn;
		w.remote_qkey = (wr.ud.remote_qkey & 0x80000000u) ? attr_.qkey : wr.ud.remote_qkey;
	}
	w.npkts = (is_read_or_atomic(op) && op != IBV_WR_RDMA_READ) || type_ == IBV_QPT_UD
			  ? 1
			  : std::max<uint32_t>(1, (w.len + mtu - 1) / mtu);
	w.first_psn = req.next_psn;
	req.next_psn = psn_add(req.next_psn, w.npkts);
	sq_head_++;
	return 0;
}

int QpImpl::post_recv(const RecvWr &wr)
{
	if (state_ == IBV_QPS_RESET ||
	    srq_ != nullptr) /* an SRQ's QP takes no receives of its own */
		return -EINVAL;
	if (rq_head_ - rq_tail_ >= rq_.size())
		return -ENOMEM;
	if (wr.sg_list.size() > cap_.max_recv_sge)
		return -EINVAL;
	RecvWqe &r = rq_[rq_head_ & rq_mask_];
	r.wr_id = wr.wr_id;
	if (!resolve(wr.sg_list, true, r.seg, r.nseg, r.len))
		return -EINVAL;
	rq_head_++;
	if (state_ == IBV_QPS_ERR)
		flush();
	return 0;
}

} /* namespace gaudi::roce */
