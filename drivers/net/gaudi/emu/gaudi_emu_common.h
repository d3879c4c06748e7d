/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model: what every block's code uses (locks, counters with lock-free
 * readers, publishing stores, addresses as the model compares them).
 */
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>

#include <rte_byteorder.h>
#include <rte_spinlock.h>

#include "../base/gaudi_hw_defs.h"

namespace gaudi::emu {

using namespace gaudi::hw;

namespace detail {

class SpinGuard {
public:
	explicit SpinGuard(rte_spinlock_t &l) : l_(l) { rte_spinlock_lock(&l_); }
	~SpinGuard() { rte_spinlock_unlock(&l_); }
	SpinGuard(const SpinGuard &) = delete;
	SpinGuard &operator=(const SpinGuard &) = delete;

private:
	rte_spinlock_t &l_;
};

/* Counters have one writer (under the owning lock) and lock-free readers (register reads). */
inline void bump(uint64_t &c, uint64_t n = 1)
{
	std::atomic_ref<uint64_t> a(c);
	a.store(a.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}
/* A counter that two engines may write (the PAUSE counters: a port's own frames and the
 * flow control of its peer's engine, which holds other locks). */
inline void bump_shared(uint64_t &c, uint64_t n = 1)
{
	std::atomic_ref<uint64_t>(c).fetch_add(n, std::memory_order_relaxed);
}
inline uint64_t peek64(const uint64_t &c)
{
	return std::atomic_ref<const uint64_t>(c).load(std::memory_order_relaxed);
}
/* Device writes that publish descriptors: body first, then this release store. */
inline void store_release(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* Every per-port and per-macro block spans 4 KB. */
inline constexpr uint32_t kBlockSize = 0x1000;
inline constexpr uint32_t kSecuredDbFifoId = 30; /* GAUDI2_DB_FIFO_SECURE_HW_ID [gaudi2_cn.h] */
inline constexpr uint32_t kRxDmaFaultSyndrome = 0x01; /* class 0 (rx packet) [model] */
inline constexpr uint64_t kEtherBroadcast = 0xFFFFFFFFFFFFull;

/* A destination address as the model compares it: byte 0 in bits 7:0 (two loads, not six). */
inline uint64_t mac48(const uint8_t *p)
{
	uint32_t lo;
	uint16_t hi;
	std::memcpy(&lo, p, sizeof(lo));
	std::memcpy(&hi, p + 4, sizeof(hi));
	return rte_le_to_cpu_32(lo) | (uint64_t(rte_le_to_cpu_16(hi)) << 32);
}
/* RXB TS_*_MAC_47_32 / _31_0 hold the address with byte 0 most significant (gaudi2_cn.c
 * builds it by shifting bytes 0..5 in): back to mac48 order. */
inline uint64_t rxb_mac48(uint32_t hi, uint32_t lo)
{
	uint64_t be = (uint64_t(hi & 0xFFFF) << 32) | lo, v = 0;
	for (int i = 0; i < 6; i++)
		v |= ((be >> (8 * (5 - i))) & 0xFF) << (8 * i);
	return v;
}

} /* namespace detail */

} /* namespace gaudi::emu */
