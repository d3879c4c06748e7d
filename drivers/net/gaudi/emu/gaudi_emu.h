/* SPDX-License-Identifier: BSD-3-Clause
 * Software model of a Gaudi2 NIC (up to 24 ports) behind the same register interface
 * (hw::Bar) and host-memory descriptor formats the silicon has. See
 * doc/guides/gaudi_hw_model.rst for what is modelled and which facts are our choices.
 *
 * The model owns an in-memory NIC region; register writes/reads go through BarHooks so the
 * model reacts to them (doorbells, QPC gateway, CI writes, counter latch). It DMAs to and from
 * DPDK memory by translating IOVAs through its own IOMMU table built from DPDK's memsegs; an
 * address outside mapped memory is a DMA fault (QP error event), never a wild access.
 */
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "../base/gaudi_bar.h"
#include "../base/gaudi_hw_defs.h"

namespace gaudi::emu {

/* What a port's MAC is cabled to. */
enum class Wire {
	loopback, /* a port hears what it sends */
	pair,     /* ports 2k and 2k+1 are cabled together (an odd last port hears nothing) */
	pcap,     /* a port receives an rx pcap/pcapng file and writes what it sends to a pcap */
};

enum class Engine {
	inline_run, /* work runs in the caller's thread when a register is written (deterministic) */
	thread,     /* work runs on the model's own thread, like silicon (asynchronous) */
};

struct Config {
	unsigned nports = 2;
	Wire wire = Wire::pair;
	Engine engine = Engine::inline_run;
	std::array<std::string, hw::kMaxPorts> rx_pcap{}; /* per port, empty = none */
	std::array<std::string, hw::kMaxPorts> tx_pcap{};
};

/* Counters of the model itself, for tests and the hardware-model document. */
struct PortCounters {
	uint64_t wire_tx_frames;    /* frames put on the wire (or into the tx pcap) */
	uint64_t wire_rx_frames;    /* frames that arrived at the MAC */
	uint64_t rx_pcap_remaining; /* frames of the rx pcap not yet delivered */
	uint64_t qp_errors;         /* QP_ERR events raised */
	uint32_t last_qp_syndrome;
};

class Device {
public:
	/* Builds the model. Returns nullptr and a one-line reason in *err on failure (unreadable
	 * pcap, bad port count). Needs rte_eal_init() done (it walks DPDK memory). */
	static std::unique_ptr<Device> create(const Config &cfg, std::string *err);
	~Device();
	Device(const Device &) = delete;
	Device &operator=(const Device &) = delete;

	hw::Bar &bar();
	unsigned nports() const;
	/* The station address firmware reports for a port (locally administered 02:1d:a3:...). */
	void fw_mac_addr(unsigned port, uint8_t out[6]) const;
	PortCounters counters(unsigned port) const;
	/* Flush tx pcap files (also done at destruction). */
	void flush();
	/* Test hook: hold the engine (doorbell processing and pcap input) as if the device were
	 * busy, e.g. to fill the doorbell FIFO. Releasing it lets pending work run (inline: in the
	 * caller's thread, right away). Returns once the engine is actually held/released. */
	void hold_engine(bool hold);

	struct Impl;

private:
	explicit Device(std::unique_ptr<Impl> impl);
	std::unique_ptr<Impl> impl_;
};

} // namespace gaudi::emu
