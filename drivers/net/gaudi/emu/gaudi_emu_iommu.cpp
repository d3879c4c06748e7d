/* SPDX-License-Identifier: BSD-3-Clause */
#include "gaudi_emu_iommu.h"

#include <algorithm>
#include <cstdio>

#include <rte_errno.h>

namespace gaudi::emu {

namespace {

/* rte_memseg_walk callback: one entry per run of memsegs contiguous in both VA and IOVA.
 * Memsegs are walked one by one because VA-contiguous pages need not be IOVA-contiguous
 * (IOVA as PA with hugepages): each page keeps its own IOVA. */
int collect(const struct rte_memseg_list *, const struct rte_memseg *ms, void *arg)
{
	auto *out = static_cast<std::vector<Iommu::Range> *>(arg);
	if (ms->iova == RTE_BAD_IOVA || ms->addr == nullptr)
		return 0;
	auto *va = static_cast<uint8_t *>(ms->addr);
	if (!out->empty()) {
		Iommu::Range &last = out->back();
		if (last.va + last.len == va && last.iova + last.len == ms->iova) {
			last.len += ms->len;
			return 0;
		}
	}
	out->push_back({ms->iova, ms->len, va});
	return 0;
}

} /* namespace */

Iommu::~Iommu()
{
	if (cb_registered_)
		rte_mem_event_callback_unregister(cb_name_.c_str(), this);
}

bool Iommu::init(std::string *err)
{
	char name[64];
	std::snprintf(name, sizeof(name), "gaudi_emu_%p", static_cast<void *>(this));
	cb_name_ = name;
	/* Register first, then walk: an allocation between the two is then not missed. The
	 * callback runs with the memory hotplug lock held and uses the thread-unsafe walk. */
	if (rte_mem_event_callback_register(cb_name_.c_str(), &Iommu::mem_event, this) == 0)
		cb_registered_ = true;
	else if (rte_errno != ENOTSUP) { /* ENOTSUP: legacy memory, which never changes */
		*err = "cannot register DPDK memory event callback: " +
		       std::string(rte_strerror(rte_errno));
		return false;
	}
	std::vector<Iommu::Range> found;
	if (rte_memseg_walk(collect, &found) < 0) {
		*err = "cannot walk DPDK memory";
		return false;
	}
	rte_rwlock_write_lock(&lock_);
	ranges_ = std::move(found);
	std::sort(ranges_.begin(), ranges_.end(),
		  [](const Range &a, const Range &b) { return a.iova < b.iova; });
	gen_.fetch_add(1, std::memory_order_release);
	rte_rwlock_write_unlock(&lock_);
	if (ranges_.empty()) {
		*err = "no IOVA-addressable DPDK memory (EAL not initialised, or --no-huge without "
		       "--iova-mode=va: memsegs then have no IOVA)";
		return false;
	}
	return true;
}

size_t Iommu::nranges() const
{
	rte_rwlock_read_lock(&lock_);
	size_t n = ranges_.size();
	rte_rwlock_read_unlock(&lock_);
	return n;
}

uint8_t *Iommu::translate_slow(uint64_t iova, uint64_t len, IommuCache &c) const
{
	uint8_t *va = nullptr;
	rte_rwlock_read_lock(&lock_);
	/* Last range starting at or below iova. */
	auto it = std::upper_bound(ranges_.begin(), ranges_.end(), iova,
				   [](uint64_t a, const Range &r) { return a < r.iova; });
	if (it != ranges_.begin()) {
		const Range &r = *std::prev(it);
		uint64_t end = r.iova + r.len;
		if (iova <= end && len <= end - iova) {
			c = {gen_.load(std::memory_order_relaxed), r.iova, end, r.va};
			va = r.va + (iova - r.iova);
		}
	}
	rte_rwlock_read_unlock(&lock_);
	return va;
}

/* Rebuild from DPDK's current memsegs; on a FREE event the freed VA range is still listed by
 * the walk (the callback runs before the pages go), so it is cut out explicitly. */
void Iommu::rebuild_locked(const void *freed_va, size_t freed_len)
{
	std::vector<Iommu::Range> found;
	rte_memseg_walk_thread_unsafe(collect, &found);
	const uint8_t *fs = static_cast<const uint8_t *>(freed_va), *fe = fs + freed_len;
	ranges_.clear();
	for (const Range &r : found) {
		uint8_t *s = r.va, *e = s + r.len;
		if (freed_len == 0 || fe <= s || fs >= e) {
			ranges_.push_back(r);
			continue;
		}
		if (fs > s)
			ranges_.push_back({r.iova, uint64_t(fs - s), s});
		if (fe < e)
			ranges_.push_back({r.iova + uint64_t(fe - s), uint64_t(e - fe), s + (fe - s)});
	}
	std::sort(ranges_.begin(), ranges_.end(),
		  [](const Range &a, const Range &b) { return a.iova < b.iova; });
	gen_.fetch_add(1, std::memory_order_release);
}

void Iommu::mem_event(enum rte_mem_event type, const void *addr, size_t len, void *arg)
{
	auto *self = static_cast<Iommu *>(arg);
	rte_rwlock_write_lock(&self->lock_);
	if (type == RTE_MEM_EVENT_FREE)
		self->rebuild_locked(addr, len);
	else
		self->rebuild_locked(nullptr, 0);
	rte_rwlock_write_unlock(&self->lock_);
}

} /* namespace gaudi::emu */
