/* SPDX-License-Identifier: BSD-3-Clause
 * Register access to the NIC region of BAR0.
 *
 * On silicon the region is the vfio-mapped BAR and accesses are plain MMIO. The device model
 * sets hooks: a register write or read then runs the model's side effects (doorbell push,
 * gateway, counter latch) the way the hardware reacts to the bus cycle. The driver code is the
 * same in both cases.
 */
#pragma once

#include <cstdint>

#include <rte_io.h>

namespace gaudi::hw {

struct BarHooks {
	void *ctx;
	void (*write32)(void *ctx, uint32_t off, uint32_t val);
	uint32_t (*read32)(void *ctx, uint32_t off);
	/* Device-model only: let an inline engine advance (wire input, pending work) when the
	 * driver finds a ring empty. Silicon needs no such call; Bar::service() is then a no-op. */
	void (*service)(void *ctx);
};

class Bar {
public:
	Bar() = default;
	Bar(volatile uint8_t *base, uint32_t len, const BarHooks *hooks = nullptr)
		: base_(base), len_(len), hooks_(hooks) {}

	uint32_t rd32(uint32_t off) const
	{
		if (hooks_ != nullptr)
			return hooks_->read32(hooks_->ctx, off);
		return rte_read32(base_ + off);
	}
	/* rte_write32 carries the I/O write barrier that orders prior descriptor stores. */
	void wr32(uint32_t off, uint32_t val)
	{
		if (hooks_ != nullptr) {
			rte_io_wmb();
			hooks_->write32(hooks_->ctx, off, val);
			return;
		}
		rte_write32(val, base_ + off);
	}
	void wr64_split(uint32_t off_hi, uint32_t off_lo_31_7, uint64_t addr)
	{
		wr32(off_hi, static_cast<uint32_t>(addr >> 32));
		wr32(off_lo_31_7, static_cast<uint32_t>(addr) >> 7);
	}
	void service() const
	{
		if (hooks_ != nullptr && hooks_->service != nullptr)
			hooks_->service(hooks_->ctx);
	}
	volatile uint8_t *base() const { return base_; }
	uint32_t len() const { return len_; }
	bool valid() const { return base_ != nullptr; }

private:
	volatile uint8_t *base_ = nullptr;
	uint32_t len_ = 0;
	const BarHooks *hooks_ = nullptr;
};

} /* namespace gaudi::hw */
