/* SPDX-License-Identifier: BSD-3-Clause
 * [wire delay] A delay line on the model's cable (Config::wire_delay_us): a frame a MAC puts
 * on a loopback or pair wire reaches the receiving MAC only once the delay has passed, as
 * over a long fibre or a WAN emulator. A model-only feature for latency tests: silicon has
 * no such thing.
 *
 * One line per sending port: a fixed ring of frame slots allocated when the model is built,
 * nothing allocated per frame. Single producer (the sending port's TX engine, under its
 * tx.lock) and single consumer (the engine pass, under the model's engine lock), so the ring
 * indices are the only shared state. A frame that finds the ring full is dropped and counted
 * (drops()), as a cable would lose it: the sending MAC is never back-pressured.
 */
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>

namespace gaudi::emu {

class DelayLine {
public:
	/* slots frames of up to slot_size bytes each. The frame buffers are not zero-filled:
	 * their pages are touched only by frames that use them. */
	DelayLine(uint32_t slots, uint32_t slot_size)
	    : slots_(slots), slot_size_(slot_size), meta_(new Meta[slots]),
	      data_(new uint8_t[size_t(slots) * slot_size])
	{
	}
	DelayLine(const DelayLine &) = delete;
	DelayLine &operator=(const DelayLine &) = delete;

	/* Producer: a frame of len bytes for port dest, due at TSC due. False (and counted)
	 * when the line is full or the frame longer than a slot. */
	bool push(unsigned dest, const uint8_t *data, uint32_t len, uint64_t due)
	{
		uint32_t h = head_.load(std::memory_order_relaxed);
		if (h - tail_.load(std::memory_order_acquire) >= slots_ || len > slot_size_) {
			drops_.fetch_add(1, std::memory_order_relaxed);
			return false;
		}
		uint32_t i = h % slots_;
		meta_[i] = {due, len, dest};
		std::memcpy(&data_[size_t(i) * slot_size_], data, len);
		head_.store(h + 1, std::memory_order_release);
		return true;
	}
	/* Consumer: the oldest frame if it is due at TSC now, else false. The frame stays valid
	 * until pop(). */
	bool front_due(uint64_t now, unsigned *dest, const uint8_t **data, uint32_t *len) const
	{
		uint32_t t = tail_.load(std::memory_order_relaxed);
		if (t == head_.load(std::memory_order_acquire))
			return false;
		const Meta &m = meta_[t % slots_];
		if (now < m.due)
			return false;
		*dest = m.dest;
		*data = &data_[size_t(t % slots_) * slot_size_];
		*len = m.len;
		return true;
	}
	void pop()
	{
		tail_.store(tail_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
	}
	/* Frames on the line (any thread; a snapshot). */
	uint32_t in_flight() const
	{
		return head_.load(std::memory_order_acquire) -
		       tail_.load(std::memory_order_acquire);
	}
	uint64_t drops() const { return drops_.load(std::memory_order_relaxed); }

private:
	struct Meta {
		uint64_t due; /* TSC */
		uint32_t len;
		uint32_t dest; /* receiving port */
	};
	const uint32_t slots_, slot_size_;
	std::unique_ptr<Meta[]> meta_;
	std::unique_ptr<uint8_t[]> data_;
	alignas(64) std::atomic<uint32_t> head_{0}; /* written by the producer */
	alignas(64) std::atomic<uint32_t> tail_{0}; /* written by the consumer */
	std::atomic<uint64_t> drops_{0};
};

} /* namespace gaudi::emu */
