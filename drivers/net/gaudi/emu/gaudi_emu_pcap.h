/* SPDX-License-Identifier: BSD-3-Clause
 * pcap ends of the model's wire: a paced frame source (rx) and a frame sink (tx).
 * Each wraps one libpcap handle (RAII); the owner serialises access with its port lock.
 */
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <pcap/pcap.h>

#include "../base/gaudi_hw_defs.h"

namespace gaudi::emu {

/* Frames of a pcap or pcapng file (libpcap reads both), in file order. Only Ethernet
 * (DLT_EN10MB) files are accepted. A truncated record yields its caplen bytes; records of
 * 14..59 bytes are zero-padded to 60, as the sending MAC pads them on a cable. */
class PcapSource {
public:
	static std::unique_ptr<PcapSource> open(const std::string &path, std::string *err);
	~PcapSource();
	PcapSource(const PcapSource &) = delete;
	PcapSource &operator=(const PcapSource &) = delete;

	/* The next frame without consuming it; false at end of file. The bytes stay valid until
	 * pop(). */
	bool peek(const uint8_t **data, uint32_t *len);
	void pop();
	uint64_t remaining() const { return remaining_; }

private:
	PcapSource() = default;
	pcap_t *h_ = nullptr;
	const uint8_t *data_ = nullptr;
	uint32_t len_ = 0;
	bool have_ = false;
	uint8_t pad_[hw::kMinFrameNoFcs] = {};
	uint64_t remaining_ = 0;
};

/* Writes every frame given to it as an Ethernet pcap (snaplen 262144). */
class PcapSink {
public:
	static std::unique_ptr<PcapSink> open(const std::string &path, std::string *err);
	~PcapSink();
	PcapSink(const PcapSink &) = delete;
	PcapSink &operator=(const PcapSink &) = delete;

	void write(const uint8_t *data, uint32_t len);
	void flush();

private:
	PcapSink() = default;
	pcap_t *dead_ = nullptr;
	pcap_dumper_t *dumper_ = nullptr;
};

} /* namespace gaudi::emu */
