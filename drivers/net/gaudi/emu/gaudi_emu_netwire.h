/* SPDX-License-Identifier: BSD-3-Clause
 * A port's cable to the world outside the process: the base of the TAP (gaudi_emu_tap.h) and
 * UDP (gaudi_emu_udp.h) wires of the device model.
 *
 * The send side is used under the port's tx.lock and the receive side under its rx.lock, so
 * both may run at once on two threads: each side has its own buffers, they share only the
 * (non-blocking) file descriptor. All buffers are allocated when the wire opens; nothing is
 * allocated per frame.
 */
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>

#include <unistd.h>

#include "gaudi_emu_frame.h"

namespace gaudi::emu {

class NetWire {
public:
	static constexpr unsigned kBatch = 32; /* frames per send/receive batch */
	/* Larger than any UDP datagram (65507 bytes over IPv4) and any TAP frame (MTU 65535 +
	 * header): a frame is never truncated on the way in; the MAC drops what is too long. */
	static constexpr uint32_t kRxBufSize = 65536 + 128;

	virtual ~NetWire()
	{
		if (fd_ >= 0)
			::close(fd_);
	}
	NetWire(const NetWire &) = delete;
	NetWire &operator=(const NetWire &) = delete;

	/* Puts one frame on the wire, maybe only queued: data must stay valid until flush().
	 * A frame the other end cannot take (socket buffer full, interface gone) is lost and
	 * counted in tx_lost(), as on a cable: the MAC is never back-pressured. */
	virtual void send(const uint8_t *data, uint32_t len) = 0;
	/* Sends whatever send() queued. */
	virtual void flush() = 0;
	/* Takes up to max (<= kBatch) frames that arrived into this wire's receive buffers and
	 * returns how many. Frames not taken stay queued in the kernel. Frame i is valid until
	 * the next recv(). Frames of 14..59 bytes are zero-padded to 60 [model]: the
	 * kernel and QEMU hand over frames unpadded, where on a cable the sending MAC pads. */
	virtual unsigned recv(unsigned max) = 0;

	const uint8_t *rx_data(unsigned i) const { return rx_buf_.get() + size_t(i) * kRxBufSize; }
	uint32_t rx_len(unsigned i) const { return rx_len_[i]; }
	uint64_t tx_lost() const { return tx_lost_.load(std::memory_order_relaxed); }
	int fd() const { return fd_; }

protected:
	/* Not zero-filled: the pages are touched only by frames that arrive. */
	NetWire() : rx_buf_(new uint8_t[size_t(kBatch) * kRxBufSize]) {}
	uint8_t *rx_slot(unsigned i) { return rx_buf_.get() + size_t(i) * kRxBufSize; }
	void lost(uint64_t n = 1) { tx_lost_.fetch_add(n, std::memory_order_relaxed); }
	/* Frame i of len bytes has arrived in rx_slot(i). */
	void arrived(unsigned i, uint32_t len)
	{
		rx_len_[i] = pad_like_sender_mac(rx_slot(i), rx_slot(i), len);
	}

	int fd_ = -1;
	std::unique_ptr<uint8_t[]> rx_buf_;
	std::array<uint32_t, kBatch> rx_len_{};

private:
	std::atomic<uint64_t> tx_lost_{0};
};

} /* namespace gaudi::emu */
