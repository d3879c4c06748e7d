/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: net_gaudi_emu's devargs, the model's settings (emu::Config) and the rules across
 * them. The driver's own keys are in gaudi_devargs.h; the probe is gaudi_vdev.cpp.
 */
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "emu/gaudi_emu.h"
#include "gaudi_bringup.h"
#include "gaudi_devargs.h"

/* What the model's devargs fill (gaudi_devargs_ctx::backend): the model's settings, and the
 * text of each fault= as given (cfg.faults[i]), for the messages that name it. */
struct EmuArgs {
	/* The driver is held to the public bring-up sequence (seq_check=1) unless told otherwise:
	 * a port silicon would not run does not run here either. The model's unit tests switch
	 * it on where they build the sequence themselves. */
	gaudi::emu::Config cfg = [] {
		gaudi::emu::Config c;
		c.seq_check = true;
		return c;
	}();
	std::vector<std::string> fault_text;
};

/* net_gaudi_emu's keys, X(name, help, once, handler) (gaudi_devargs.h). ports comes first: the
 * per-port keys are checked against it. */
#define GAUDI_EMU_DEVARGS(X)                                                      \
	X(ports, "<1..24>", true, arg_ports)                                      \
	X(wire, "loopback|pair|pcap|tap|udp", true, arg_wire)                     \
	X(rx_pcap, "<port>:<path>", false, arg_pcap)                              \
	X(tx_pcap, "<port>:<path>", false, arg_pcap)                              \
	X(engine, "inline|thread", true, arg_engine)                              \
	X(tap_name, "<port>:<ifname>", false, arg_wire_end)                       \
	X(udp_local, "[<port>:]<ip>:<udp port>", false, arg_wire_end)             \
	X(udp_remote, "[<port>:]<ip>:<udp port>", false, arg_wire_end)            \
	X(strict, "<0|1>", true, arg_strict)                                      \
	X(profile, "<0|1>", true, arg_profile)                                    \
	X(trace, "<file>", true, arg_trace)                                       \
	X(seq_check, "<0|1>", true, arg_seq_check)                                \
	X(wire_delay_us, "<0..1000000>", true, arg_wire_delay)                    \
	X(rx_rate_limit, "<port>:<frames/s>[:<burst>]", false, arg_rx_rate_limit) \
	X(fw_port_mask, "<hex>", true, arg_fw_port_mask)                          \
	X(fw_mac, "<xx:xx:xx:xx:xx:xx>", true, arg_fw_mac)                        \
	X(fw_fault, "<kind>", true, arg_fw_fault)                                 \
	X(fw_boot_err0, "<hex>", true, arg_fw_boot_err0)                          \
	X(fw_nic_info_rc, "<0..15>", true, arg_fw_nic_info_rc)                    \
	X(fw_cpucp_fail, "<cpucp opcode name>", true, arg_fw_cpucp_fail)          \
	X(fault, "<kind>:<port>[:<after frames>[:<arg>]]", false, arg_fault)      \
	X(fault_seed, "<n>", true, arg_fault_seed)                                \
	X(fault_rate, "<0..1>", true, arg_fault_rate)                             \
	X(fault_kinds, "<kind>[+<kind>...]", true, arg_fault_kinds)               \
	X(phy_board, "hl225|plain", true, arg_phy_board)                          \
	X(phy_pol_tx, "<hex>", true, arg_phy_pol)                                 \
	X(phy_pol_rx, "<hex>", true, arg_phy_pol)                                 \
	X(phy_fw_crc, "<hex>", true, arg_phy_fw_crc)                              \
	X(phy_fault, "none|mcu_silent|load_stuck", true, arg_phy_fault)           \
	GAUDI_DRIVER_DEVARGS(X)

/* The keys of GAUDI_EMU_DEVARGS with their handlers, for gaudi_devargs_parse. */
std::span<const gaudi_devarg_key> gaudi_emu_devargs();
/* The rules across keys (gaudi_devargs_parse's check). */
bool gaudi_emu_devargs_check(gaudi_devargs_ctx *ctx);
/* After bring-up: every per-port devarg names a port that has an ethdev. */
bool gaudi_emu_port_devargs_check(const EmuArgs &args, const std::vector<gaudi_bringup_port> &ports,
				  uint64_t link_mask, uint32_t port_mask, std::string *err);
