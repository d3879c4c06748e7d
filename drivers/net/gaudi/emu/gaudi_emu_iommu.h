/* SPDX-License-Identifier: BSD-3-Clause
 * The device model's IOMMU: IOVA -> host pointer for DPDK memory.
 *
 * The table is built from DPDK's IOVA-contiguous memseg ranges at create time and rebuilt on
 * DPDK memory events (hotplug alloc/free). A translation succeeds only if the whole
 * [iova, iova + len) lies inside one mapped range; anything else is a DMA fault for the caller
 * to report, so the model never touches memory the driver did not give the device.
 */
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <rte_memory.h>
#include <rte_rwlock.h>

namespace gaudi::emu {

/* One-entry cache of the last range hit. Owned by one context of the model (a port's TX, RX or
 * EQ state) and only used under that context's lock, so it needs no synchronisation itself. */
struct IommuCache {
	uint64_t gen = ~0ull; /* table generation the entry belongs to */
	uint64_t iova = 0;
	uint64_t end = 0;
	uint8_t *va = nullptr;
};

class Iommu {
public:
	Iommu() = default;
	~Iommu();
	Iommu(const Iommu &) = delete;
	Iommu &operator=(const Iommu &) = delete;

	/* Walks DPDK memory and subscribes to memory events. False with a reason on failure. */
	bool init(std::string *err);

	/* Host pointer of [iova, iova + len), or nullptr (DMA fault). Per-packet path: the cached
	 * range is checked without taking the table lock. */
	uint8_t *translate(uint64_t iova, uint64_t len, IommuCache &c) const
	{
		if (c.gen == gen_.load(std::memory_order_acquire) && iova >= c.iova && iova <= c.end &&
		    len <= c.end - iova)
			return c.va + (iova - c.iova);
		return translate_slow(iova, len, c);
	}

	size_t nranges() const;
	/* The table's generation: a cache entry of another generation is stale. */
	uint64_t gen() const { return gen_.load(std::memory_order_acquire); }

	struct Range {
		uint64_t iova;
		uint64_t len;
		uint8_t *va;
	};

private:

	uint8_t *translate_slow(uint64_t iova, uint64_t len, IommuCache &c) const;
	void rebuild_locked(const void *freed_va, size_t freed_len);
	static void mem_event(enum rte_mem_event type, const void *addr, size_t len, void *arg);

	mutable rte_rwlock_t lock_ = RTE_RWLOCK_INITIALIZER;
	std::vector<Range> ranges_; /* sorted by iova, disjoint */
	std::atomic<uint64_t> gen_{0};
	std::string cb_name_;
	bool cb_registered_ = false;
};

/* A batch's translations (a doorbell's frames): the cached range is sampled once, when the
 * batch starts, and each address is checked against it in registers. [model] Like the
 * registers a doorbell samples once, a remap (memory hotplug, under DPDK's memory lock)
 * applies from the next batch on. */
class IommuBatch {
public:
	IommuBatch(const Iommu &mmu, IommuCache &c) : mmu_(mmu), c_(c) { load(); }
	uint8_t *translate(uint64_t iova, uint64_t len)
	{
		uint64_t off = iova - iova_;
		if (__builtin_expect(off < size_ && len <= size_ - off, 1))
			return va_ + off;
		uint8_t *va = mmu_.translate(iova, len, c_); /* the slow path refills c_ */
		load();
		return va;
	}

private:
	void load()
	{
		iova_ = c_.iova;
		size_ = c_.gen == mmu_.gen() ? c_.end - c_.iova : 0; /* 0: no hit */
		va_ = c_.va;
	}
	const Iommu &mmu_;
	IommuCache &c_;
	uint64_t iova_ = 0, size_ = 0;
	uint8_t *va_ = nullptr;
};

} /* namespace gaudi::emu */
