/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: net_gaudi_emu, the NIC as a software model: its devargs, its Backend and its
 * probe (gaudi_backend.h).
 */
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <memory>
#include <string>
#include <vector>

#include <strings.h>
#include <unistd.h>

#include <bus_vdev_driver.h>
#include <ethdev_driver.h>
#include <rte_cycles.h>
#include <rte_telemetry.h>

#include "base/gaudi_serdes.h"
#include "emu/gaudi_emu.h"
#include "emu/gaudi_emu_tap.h" /* [wires tap/udp] */
#include "emu/gaudi_emu_udp.h"
#include "gaudi_backend.h"
#include "gaudi_bringup.h"
#include "gaudi_compat.h"
#include "gaudi_devargs.h"
#include "gaudi_ethdev.h"
#include "gaudi_fw_status.h"
#include "gaudi_logs.h"
#include "gaudi_phy_port.h"
#include "gaudi_mp.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* ---- devargs of the model (emu::Config); the driver's own keys: gaudi_devargs.h ---- */

/* What the model's devargs fill (gaudi_devargs_ctx::backend): the model's settings, and the
 * text of each fault= as given (cfg.faults[i]), for the messages that name it. */
struct EmuArgs {
	/* The driver is held to the public bring-up sequence (seq_check=1) unless told otherwise:
	 * a port silicon would not run does not run here either. The model's unit tests switch
	 * it on where they build the sequence themselves. */
	emu::Config cfg = [] {
		emu::Config c;
		c.seq_check = true;
		return c;
	}();
	std::vector<std::string> fault_text;
};

EmuArgs &emu_args(void *opaque)
{
	return *static_cast<EmuArgs *>(static_cast<gaudi_devargs_ctx *>(opaque)->backend);
}

emu::Config &model_cfg(void *opaque)
{
	return emu_args(opaque).cfg;
}

int arg_ports(const char *k, const char *v, void *opaque)
{
	if (!gaudi_devarg_uint(v, 1, kMaxPorts, &model_cfg(opaque).nports))
		return gaudi_devarg_error(opaque, k, v, "must be 1.." + std::to_string(kMaxPorts));
	return 0;
}

int arg_wire(const char *k, const char *v, void *opaque)
{
	static constexpr struct {
		const char *name;
		emu::Wire wire;
	} kWires[] = {{"loopback", emu::Wire::loopback},
		      {"pair", emu::Wire::pair},
		      {"pcap", emu::Wire::pcap},
		      {"tap", emu::Wire::tap}, /* [wires tap/udp] */
		      {"udp", emu::Wire::udp}};
	for (const auto &w : kWires)
		if (v != nullptr && strcmp(v, w.name) == 0) {
			model_cfg(opaque).wire = w.wire;
			return 0;
		}
	return gaudi_devarg_error(opaque, k, v, "must be loopback, pair, pcap, tap or udp");
}

/* A 0|1 devarg into the model's flag `out`. */
int arg_01(const char *k, const char *v, void *opaque, bool &out)
{
	if (v == nullptr || (strcmp(v, "0") != 0 && strcmp(v, "1") != 0))
		return gaudi_devarg_error(opaque, k, v, "must be 0 or 1");
	out = v[0] == '1';
	return 0;
}

int arg_strict(const char *k, const char *v, void *opaque)
{
	return arg_01(k, v, opaque, model_cfg(opaque).strict);
}

/* [profile] TSC cycles the driver's threads spend in the model (telemetry /gaudi_emu/profile) */
int arg_profile(const char *k, const char *v, void *opaque)
{
	return arg_01(k, v, opaque, model_cfg(opaque).profile);
}

/* [trace] every register access to a file (opened by the model at probe) */
int arg_trace(const char *k, const char *v, void *opaque)
{
	if (v == nullptr || v[0] == '\0')
		return gaudi_devarg_error(opaque, k, v, "must be a file path");
	model_cfg(opaque).trace = v;
	return 0;
}

/* [seq_check] traffic only after the public sequence's traffic-essential steps */
int arg_seq_check(const char *k, const char *v, void *opaque)
{
	return arg_01(k, v, opaque, model_cfg(opaque).seq_check);
}

/* [wire delay] the loopback/pair cable's length in microseconds (model only) */
int arg_wire_delay(const char *k, const char *v, void *opaque)
{
	if (!gaudi_devarg_uint(v, 0, 1000000, &model_cfg(opaque).wire_delay_us))
		return gaudi_devarg_error(opaque, k, v, "must be 0..1000000 (microseconds)");
	return 0;
}

/* [rx rate limit] rx_rate_limit=PORT:FPS[:BURST]: port PORT takes at most FPS frames per second
 * (a token bucket of BURST frames, 32 by default), model only */
int arg_rx_rate_limit(const char *k, const char *val, void *opaque)
{
	emu::Config &cfg = model_cfg(opaque);
	std::string v(val != nullptr ? val : "");
	size_t c1 = v.find(':'), c2 = c1 == std::string::npos ? c1 : v.find(':', c1 + 1);
	unsigned p = 0, fps = 0, burst = 0;
	bool ok = c1 != std::string::npos &&
		  gaudi_devarg_uint(v.substr(0, c1).c_str(), 0, cfg.nports - 1, &p) &&
		  gaudi_devarg_uint(
			  v.substr(c1 + 1, c2 == std::string::npos ? c2 : c2 - c1 - 1).c_str(), 1,
			  1000000000, &fps) &&
		  (c2 == std::string::npos ||
		   gaudi_devarg_uint(v.substr(c2 + 1).c_str(), 1, 1000000000, &burst));
	if (!ok)
		return gaudi_devarg_error(
			opaque, k, val,
			"must be PORT:FRAMES_PER_S[:BURST] with PORT < ports (" +
				std::to_string(cfg.nports) +
				"), 1..1000000000 frames/s, a burst of 1 or more");
	if (cfg.rx_rate_limit[p] != 0)
		return gaudi_devarg_error(opaque, k, val,
					  "port " + std::to_string(p) + " given twice");
	cfg.rx_rate_limit[p] = fps;
	cfg.rx_rate_burst[p] = burst;
	return 0;
}

int arg_engine(const char *k, const char *v, void *opaque)
{
	if (v != nullptr && strcmp(v, "inline") == 0)
		model_cfg(opaque).engine = emu::Engine::inline_run;
	else if (v != nullptr && strcmp(v, "thread") == 0)
		model_cfg(opaque).engine = emu::Engine::thread;
	else
		return gaudi_devarg_error(opaque, k, v, "must be inline or thread");
	return 0;
}

/* rx_pcap=PORT:PATH, tx_pcap=PORT:PATH */
int arg_pcap(const char *k, const char *val, void *opaque)
{
	emu::Config *cfg = &model_cfg(opaque);
	const char *v = val != nullptr ? val : "";
	const char *colon = strchr(v, ':');
	unsigned p = 0;
	std::string num = colon ? std::string(v, colon - v) : std::string();
	if (colon == nullptr || colon[1] == '\0' ||
	    !gaudi_devarg_uint(num.c_str(), 0, cfg->nports - 1, &p))
		return gaudi_devarg_error(opaque, k, val,
					  "must be PORT:PATH with PORT < ports (" +
						  std::to_string(cfg->nports) + ")");
	std::string path(colon + 1);
	bool rx = strcmp(k, "rx_pcap") == 0;
	auto &slot = rx ? cfg->rx_pcap[p] : cfg->tx_pcap[p];
	bool shared_out = false;
	for (unsigned o = 0; !rx && o < kMaxPorts; o++)
		shared_out |= o != p && cfg->tx_pcap[o] == path;
	if (!slot.empty())
		return gaudi_devarg_error(opaque, k, val,
					  "port " + std::to_string(p) + " given twice");
	if (shared_out) /* Two writers of one file would interleave and lose frames. */
		return gaudi_devarg_error(opaque, k, val,
					  path + " is already another port's tx_pcap");
	if (rx && access(path.c_str(), R_OK) != 0)
		return gaudi_devarg_error(opaque, k, val,
					  "cannot read " + path + ": " + strerror(errno));
	slot = path;
	return 0;
}

/* ---- [wires tap/udp] begin ---- */

/* tap_name=PORT:NAME, udp_local=[PORT:]IP:UDPPORT, udp_remote=[PORT:]IP:UDPPORT (without
 * PORT: port 0; IPv6 as [ADDR] and only with PORT:, since kvargs takes a leading '[' for a
 * list). */
int arg_wire_end(const char *k, const char *v, void *opaque)
{
	emu::Config *cfg = &model_cfg(opaque);
	bool tap = strcmp(k, "tap_name") == 0;
	std::string val(v != nullptr ? v : ""), num, rest = val;
	size_t colon = val.find(':');
	if (colon != std::string::npos) {
		num = val.substr(0, colon);
		if (!num.empty() && num.find_first_not_of("0123456789") == std::string::npos &&
		    (tap || val.find(':', colon + 1) != std::string::npos))
			rest = val.substr(colon + 1);
		else
			num.clear();
	}
	unsigned p = 0;
	if ((tap && num.empty()) ||
	    (!num.empty() && !gaudi_devarg_uint(num.c_str(), 0, cfg->nports - 1, &p)))
		return gaudi_devarg_error(
			opaque, k, v,
			std::string("must be ") + (tap ? "PORT:NAME" : "[PORT:]IP:UDPPORT") +
				" with PORT < ports (" + std::to_string(cfg->nports) + ")");
	auto &slot = tap			   ? cfg->tap_name[p]
		     : strcmp(k, "udp_local") == 0 ? cfg->udp_local[p]
						   : cfg->udp_remote[p];
	if (!slot.empty())
		return gaudi_devarg_error(opaque, k, v,
					  "port " + std::to_string(p) + " given twice");
	std::string why;
	emu::UdpEndpoint ep;
	if (tap && !emu::tap_name_valid(rest))
		return gaudi_devarg_error(opaque, k, v,
					  "'" + rest +
						  "' is not an interface name (1..15 bytes, no "
						  "'/', ':', ',' or space)");
	if (!tap && !emu::parse_udp_endpoint(rest, &ep, &why))
		return gaudi_devarg_error(opaque, k, v, why);
	slot = rest;
	return 0;
}

/* ---- [wires tap/udp] end ---- */

/* ---- [faults] ---- */

int arg_fault(const char *k, const char *v, void *opaque)
{
	emu::Config *cfg = &model_cfg(opaque);
	emu::FaultSpec f;
	std::string why;
	if (!emu::fault_spec_parse(v != nullptr ? v : "", cfg->nports, &f, &why))
		return gaudi_devarg_error(opaque, k, v, why);
	cfg->faults.push_back(f);
	emu_args(opaque).fault_text.push_back(v);
	return 0;
}

int arg_fault_seed(const char *k, const char *val, void *opaque)
{
	const char *v = val != nullptr ? val : "";
	char *end = nullptr;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 0);
	if (*v == '\0' || *v == '-' || errno != 0 || *end != '\0')
		return gaudi_devarg_error(opaque, k, val, "must be an unsigned integer");
	model_cfg(opaque).fault_random.seed = n;
	return 0;
}

int arg_fault_rate(const char *k, const char *val, void *opaque)
{
	const char *v = val != nullptr ? val : "";
	char *end = nullptr;
	double r = strtod(v, &end);
	if (*v == '\0' || *end != '\0' || !(r >= 0 && r <= 1))
		return gaudi_devarg_error(opaque, k, val,
					  "must be a probability per sent frame, 0..1 (e.g. 1e-4)");
	model_cfg(opaque).fault_random.rate = r;
	return 0;
}

int arg_fault_kinds(const char *k, const char *v, void *opaque)
{
	std::string why;
	if (!emu::fault_kinds_parse(v != nullptr ? v : "",
				    &model_cfg(opaque).fault_random.kinds_mask, &why))
		return gaudi_devarg_error(opaque, k, v, why);
	return 0;
}

/* ---- [firmware] what the model's device CPU reports, and how it fails bring-up ---- */

/* fw_port_mask=HEX: NIC_INFO_GET's link_mask (ports beyond ports= are refused by the model). */
int arg_fw_port_mask(const char *k, const char *v, void *opaque)
{
	uint64_t m = 0;
	if (!gaudi_devarg_hex(v, (uint64_t(1) << kMaxPorts) - 1, &m) || m == 0)
		return gaudi_devarg_error(opaque, k, v,
					  "must be a non-zero hex mask of ports 0..23 (e.g. 0x5)");
	model_cfg(opaque).fw_port_mask = m;
	return 0;
}

/* fw_mac=XX:XX:XX:XX:XX:XX: station MAC of port 0; port n's is this + n (low 3 bytes). */
int arg_fw_mac(const char *k, const char *v, void *opaque)
{
	rte_ether_addr a;
	if (v == nullptr || rte_ether_unformat_addr(v, &a) != 0 ||
	    !rte_is_valid_assigned_ether_addr(&a))
		return gaudi_devarg_error(opaque, k, v,
					  "must be a non-zero unicast MAC xx:xx:xx:xx:xx:xx");
	memcpy(model_cfg(opaque).fw_mac.data(), a.addr_bytes, RTE_ETHER_ADDR_LEN);
	return 0;
}

/* fw_fault=KIND: the way the model's firmware fails bring-up (tests of the probe's errors). */
int arg_fw_fault(const char *k, const char *v, void *opaque)
{
	static constexpr struct {
		const char *name;
		emu::FwFault f;
	} kFaults[] = {{"none", emu::FwFault::none},
		       {"boot_stuck", emu::FwFault::boot_stuck},
		       {"dirty", emu::FwFault::dirty},
		       {"image_rejected", emu::FwFault::image_rejected},
		       {"cpucp_silent", emu::FwFault::cpucp_silent},
		       {"no_nic_mem_clear", emu::FwFault::no_nic_mem_clear}};
	for (const auto &f : kFaults)
		if (v != nullptr && strcmp(v, f.name) == 0) {
			model_cfg(opaque).fw_fault = f.f;
			return 0;
		}
	return gaudi_devarg_error(opaque, k, v,
				  "must be none, boot_stuck, dirty, image_rejected, cpucp_silent "
				  "or no_nic_mem_clear");
}

/* fw_cpucp_fail=OPCODE: the cpucp packet (its name, e.g. NIC_CLR_MEM, any case) the model's
 * device CPU answers with cpucp_packet_fault. */
int arg_fw_cpucp_fail(const char *k, const char *v, void *opaque)
{
	for (const auto &r : hw::fw::kOpcodeRows)
		if (v != nullptr && strcasecmp(v, r.name) == 0) {
			model_cfg(opaque).fw_cpucp_fail_op = uint32_t(r.value);
			return 0;
		}
	return gaudi_devarg_error(opaque, k, v,
				  "must name a cpucp opcode of gaudi_fw_if.h, e.g. NIC_CLR_MEM");
}

/* fw_boot_err0=HEX: CPU_BOOT_ERR0 bits preboot reports. */
int arg_fw_boot_err0(const char *k, const char *v, void *opaque)
{
	uint64_t m = 0;
	if (!gaudi_devarg_hex(v, 0x7FFFFFFF, &m))
		return gaudi_devarg_error(
			opaque, k, v,
			"must be hex 0..0x7fffffff (the CPU_BOOT_ERR0 error bits; the "
			"model sets bit 31, ENABLED, itself)");
	model_cfg(opaque).fw_boot_err0 = static_cast<uint32_t>(m);
	return 0;
}

/* fw_nic_info_rc=N: the cpucp return code NIC_INFO_GET answers with (0..15). */
int arg_fw_nic_info_rc(const char *k, const char *v, void *opaque)
{
	if (!gaudi_devarg_uint(v, 0, 15, &model_cfg(opaque).fw_nic_info_rc))
		return gaudi_devarg_error(opaque, k, v, "must be a cpucp return code 0..15");
	return 0;
}

/* ---- [phy] the board's lanes and the SerDes MCU (gaudi_emu_serdes.cpp) ---- */

/* phy_board=hl225|plain: the board's lane polarity and TX lane map NIC_INFO_GET reports;
 * hl225 (default) has gaudi2_cn_phy.c's HL-225 masks and macro 0 / 11 remaps, plain none. */
int arg_phy_board(const char *k, const char *v, void *opaque)
{
	emu::Config &c = model_cfg(opaque);
	if (v != nullptr && strcmp(v, "plain") == 0) {
		c.phy_pol_tx = c.phy_pol_rx = 0;
		c.phy_tx_swap.fill(0);
	} else if (v != nullptr && strcmp(v, "hl225") == 0) {
		c.phy_pol_tx = hw::serdes::kPolTxMaskHl225;
		c.phy_pol_rx = hw::serdes::kPolRxMaskHl225;
		c.phy_tx_swap.fill(0);
		c.phy_tx_swap[0] = hw::serdes::kTxSwapHl225Macro0;
		c.phy_tx_swap[kMacros - 1] = hw::serdes::kTxSwapHl225Macro11;
	} else {
		return gaudi_devarg_error(opaque, k, v, "must be hl225 or plain");
	}
	return 0;
}

/* phy_pol_tx=HEX / phy_pol_rx=HEX: the lanes (bit (port << 1) + lane) whose TX / RX pair the
 * board inverts, after phy_board. */
int arg_phy_pol(const char *k, const char *v, void *opaque)
{
	uint64_t m = 0;
	if (!gaudi_devarg_hex(v, (uint64_t(1) << (2 * kMaxPorts)) - 1, &m))
		return gaudi_devarg_error(opaque, k, v, "must be a hex mask of lanes 0..47");
	(strcmp(k, "phy_pol_tx") == 0 ? model_cfg(opaque).phy_pol_tx
				      : model_cfg(opaque).phy_pol_rx) = m;
	return 0;
}

/* phy_fw_crc=HEX: the CRC the SerDes MCU reports for any image (0x1723: the very old F/W). */
int arg_phy_fw_crc(const char *k, const char *v, void *opaque)
{
	uint64_t c = 0;
	if (!gaudi_devarg_hex(v, 0xFFFF, &c) || c == 0)
		return gaudi_devarg_error(opaque, k, v, "must be a non-zero 16-bit hex CRC");
	model_cfg(opaque).phy_fw_crc = uint32_t(c);
	return 0;
}

/* phy_fault=KIND: how the SerDes MCU fails the PHY bring-up. */
int arg_phy_fault(const char *k, const char *v, void *opaque)
{
	static constexpr struct {
		const char *name;
		emu::PhyFault f;
	} kFaults[] = {{"none", emu::PhyFault::none},
		       {"mcu_silent", emu::PhyFault::mcu_silent},
		       {"load_stuck", emu::PhyFault::load_stuck}};
	for (const auto &f : kFaults)
		if (v != nullptr && strcmp(v, f.name) == 0) {
			model_cfg(opaque).phy_fault = f.f;
			return 0;
		}
	return gaudi_devarg_error(opaque, k, v, "must be none, mcu_silent or load_stuck");
}

/* The rules across keys, in one place: tap/udp devargs go with their wire and a UDP port needs
 * both ends [wires tap/udp]; pcap files need wire=pcap. */
bool emu_devargs_check(gaudi_devargs_ctx *ctx)
{
	const emu::Config &cfg = model_cfg(ctx);
	if (cfg.fw_port_mask >> cfg.nports) {
		char m[64];
		snprintf(m, sizeof(m), "0x%llx", (unsigned long long)cfg.fw_port_mask);
		ctx->err = std::string("devarg fw_port_mask=") + m +
			   ": names ports beyond ports=" + std::to_string(cfg.nports);
		return false;
	}
	for (unsigned p = 0; p < kMaxPorts; p++) {
		std::string ps = std::to_string(p) + ":";
		if (!cfg.tap_name[p].empty() && cfg.wire != emu::Wire::tap) {
			ctx->err = "devarg tap_name=" + ps + cfg.tap_name[p] + ": needs wire=tap";
			return false;
		}
		bool l = !cfg.udp_local[p].empty(), r = !cfg.udp_remote[p].empty();
		std::string arg = l ? "udp_local=" + ps + cfg.udp_local[p]
				    : "udp_remote=" + ps + cfg.udp_remote[p];
		if ((l || r) && cfg.wire != emu::Wire::udp) {
			ctx->err = "devarg " + arg + ": needs wire=udp";
			return false;
		}
		if (l != r) {
			ctx->err = "devarg " + arg + ": port " + std::to_string(p) +
				   " also needs " + (l ? "udp_remote" : "udp_local");
			return false;
		}
	}
	if (cfg.wire == emu::Wire::pcap)
		return true;
	for (unsigned p = 0; p < kMaxPorts; p++)
		if (!cfg.rx_pcap[p].empty() || !cfg.tx_pcap[p].empty()) {
			bool rx = !cfg.rx_pcap[p].empty();
			ctx->err = std::string("devarg ") + (rx ? "rx_pcap=" : "tx_pcap=") +
				   std::to_string(p) + ":" +
				   (rx ? cfg.rx_pcap[p] : cfg.tx_pcap[p]) + ": needs wire=pcap";
			return false;
		}
	return true;
}

/* After bring-up: a per-port devarg naming a port that has no ethdev (masked off by the
 * firmware's link_mask, or left out of port_mask) cannot apply, and fails the probe as any bad
 * devarg does, naming the devarg and the port. */
bool emu_port_devargs_check(const EmuArgs &args, const std::vector<gaudi_bringup_port> &ports,
			    uint64_t link_mask, uint32_t port_mask, std::string *err)
{
	const emu::Config &cfg = args.cfg;
	uint64_t open = 0;
	for (const gaudi_bringup_port &bp : ports)
		open |= uint64_t(1) << bp.hw_port;
	auto why = [&](unsigned p) {
		char m[96];
		if (!(link_mask & (uint64_t(1) << p)))
			snprintf(m, sizeof(m),
				 "port %u is masked off by the firmware (NIC_INFO_GET link_mask "
				 "0x%llx)",
				 p, (unsigned long long)link_mask);
		else
			snprintf(m, sizeof(m), "port %u is not opened (port_mask=0x%x)", p,
				 port_mask);
		return std::string(m);
	};
	const struct {
		const char *key;
		const std::array<std::string, kMaxPorts> &v;
	} per_port[] = {{"rx_pcap", cfg.rx_pcap},
			{"tx_pcap", cfg.tx_pcap},
			{"tap_name", cfg.tap_name},
			{"udp_local", cfg.udp_local},
			{"udp_remote", cfg.udp_remote}};
	for (const auto &k : per_port)
		for (unsigned p = 0; p < kMaxPorts; p++)
			if (!k.v[p].empty() && !(open & (uint64_t(1) << p))) {
				*err = std::string("devarg ") + k.key + "=" + std::to_string(p) +
				       ":" + k.v[p] + ": " + why(p);
				return false;
			}
	for (size_t i = 0; i < cfg.faults.size(); i++)
		if (!(open & (uint64_t(1) << cfg.faults[i].port))) {
			*err = "devarg fault=" + args.fault_text[i] + ": " +
			       why(cfg.faults[i].port);
			return false;
		}
	return true;
}

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

constexpr gaudi_devarg_key kEmuDevargs[] = {GAUDI_EMU_DEVARGS(GAUDI_DEVARG_KEY)};

/* ---- the backend: the model in the primary, its shared registers in a secondary ---- */

class VdevBackend final : public Backend {
public:
	/* Primary: the device model. */
	VdevBackend(std::unique_ptr<emu::Device> dev, std::string fw_dir)
	    : dev_(std::move(dev)), fw_dir_(std::move(fw_dir))
	{
	}
	/* Secondary: read-only view of the primary's model. */
	explicit VdevBackend(std::unique_ptr<emu::SharedView> view) : view_(std::move(view)) {}

	emu::Device *device() { return dev_.get(); }

	hw::Bar &nic_bar() override { return dev_ ? dev_->bar() : view_->bar(); }
	hw::Bar &fw_bar() override { return dev_ ? dev_->fw_bar() : no_bar_; }
	hw::Bar &fw_sram_bar() override { return dev_ ? dev_->fw_sram_bar() : no_bar_; }
	hw::Bar &sm_bar() override { return dev_ ? dev_->sm_bar() : no_bar_; }
	hw::fw::FwTimeouts fw_timeouts() const override
	{
		/* The model's device CPU answers within the register access (either engine), so
		 * each step is bounded at 100 ms: a bring-up fault fails the probe quickly. */
		hw::fw::FwTimeouts t;
		t.preboot_us = t.comms_us = t.boot_fit_us = t.bl_us = t.cpu_us = t.msg_us =
			t.info_us = 100 * 1000;
		t.poll_us = 100;
		return t;
	}
	unsigned nports() const override { return dev_ ? dev_->nports() : view_->nports(); }
	/* [phy] The model's MCU answers within the register access: no waits, short bounds. */
	hw::PhyTimings phy_timings() const override
	{
		hw::PhyTimings t;
		t.cmd_poll_us = t.load_poll_us = t.section_poll_us = 50;
		t.max_polls = 2000; /* 100 ms */
		t.settle_us = t.unload_us = t.exec_us = t.pll_wait_us = t.mac_tx_reset_us =
			t.toggle_us = 0;
		t.tuning_interval_us = 1000;
		/* [choice] 500 ms without tuning (a peer that does not send) before the PHY is
		 * powered up again, so tests see the reconfiguration; 30 s on silicon. */
		t.tuning_timeout_us = 500000;
		return t;
	}

	/* fw_dir= given: the files there, as on silicon. Otherwise a built-in stand-in: the
	 * model's boot protocol takes any image; the PHY image is the model's (its layout is
	 * parsed and loaded section by section). */
	int read_firmware(const std::string &name, std::vector<uint8_t> *image, std::string *path,
			  std::string *err) const override
	{
		if (!fw_dir_.empty())
			return read_fw_file(fw_dir_, name, image, path, err);
		*path = name; /* no file: the name is all there is to tell */
		if (name == hw::fw::kPhyFwFile) {
			*image = emu::Device::phy_fw_image();
			return 0;
		}
		std::string stand_in = "gaudi2 emu firmware stand-in: " + name;
		image->assign(stand_in.begin(), stand_in.end());
		return 0;
	}
	bool firmware_builtin() const override { return fw_dir_.empty(); }

	int module_eeprom(unsigned port, uint8_t out[kModuleEepromLen]) const override
	{
		static_assert(kModuleEepromLen == emu::Device::kModuleEepromLen);
		emu::Device::module_eeprom(port, out);
		return 0;
	}

	bool irqs_routed() const override { return dev_ != nullptr; }
	int bind_irq(unsigned port, unsigned index, int fd) override
	{
		if (!dev_)
			return -ENOTSUP;
		if (index == reg::INTR_EQ) /* as vfio binds the port's MSI-X vector */
			dev_->bind_msix(kMsixNicPortFirst + port, fd);
		else
			dev_->bind_irq(port, index, fd);
		return 0;
	}

	int inject_fault(unsigned port, unsigned kind, uint64_t after_frames, uint32_t arg,
			 std::string *err) override
	{
		if (!dev_)
			return -ENOTSUP;
		if (kind >= emu::kFaultKinds)
			return -EINVAL;
		emu::FaultSpec f;
		f.kind = emu::FaultKind(kind);
		f.port = port;
		f.after_frames = after_frames;
		f.arg = arg;
		if (!dev_->inject_fault(f, err))
			return err->find("too many") != std::string::npos ? -ENOSPC : -EINVAL;
		return 0;
	}
	const char *fault_kind_name(unsigned kind) const override
	{
		return kind < emu::kFaultKinds ? emu::fault_kind_name(emu::FaultKind(kind)) : "?";
	}
	uint64_t faults_injected(unsigned port) const override
	{
		uint64_t n = 0;
		for (unsigned k = 0; dev_ && k < emu::kFaultKinds; k++)
			n += dev_->faults_injected(port, emu::FaultKind(k));
		return n;
	}

	void flush() override
	{
		if (dev_)
			dev_->flush();
	}
	int emu_fw_port(unsigned port, rte_pmd_gaudi_emu_fw_port *out) const override
	{
		if (!dev_)
			return -ENOTSUP;
		emu::FwCounters c = dev_->fw_counters();
		emu::FwNicPort r = dev_->fw_nic_port(port);
		*out = {};
		out->clr_mem_bytes = c.clr_mem_bytes;
		out->ecc_unmasked = c.ecc_unmasked;
		out->order_refused = uint32_t(c.order_refused);
		if (r.txs.done) {
			out->txs_entries = r.txs.entries;
			out->txs_free_list = r.txs.addr;
			out->txs_granularity = r.txs.granularity;
		}
		if (r.tmr.done) {
			out->tmr_entries = r.tmr.entries;
			out->tmr_free_list = r.tmr.addr;
			out->tmr_granularity = r.tmr.granularity;
		}
		out->nic_status_count = r.status_packets;
		out->status_port = r.status.port;
		out->up = r.status.up;
		out->pcs_link = r.status.pcs_link;
		out->phy_ready = r.status.phy_ready;
		out->auto_neg = r.status.auto_neg;
		out->correctable_err_cnt = r.status.correctable_err_cnt;
		out->uncorrectable_err_cnt = r.status.uncorrectable_err_cnt;
		out->port_toggle_cnt = r.status.port_toggle_cnt;
		return 0;
	}
	bool fw_version(std::string *out) const override
	{
		uint32_t v = emu::Device::kFwVersion;
		*out = "emu-" + std::to_string((v >> 16) & 0xFF) + "." +
		       std::to_string((v >> 8) & 0xFF) + "." + std::to_string(v & 0xFF);
		return true;
	}

private:
	std::unique_ptr<emu::Device> dev_;
	std::unique_ptr<emu::SharedView> view_;
	std::string fw_dir_;
	hw::Bar no_bar_;
};

/* The memzone the model shares its registers and MAC counters through (emu::SharedView). */
std::string emu_shm_name(const char *name)
{
	return std::string("gaudi_emu_") + name;
}

int emu_probe_secondary(rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	std::string err;
	auto view = emu::SharedView::attach(emu_shm_name(name), &err);
	if (!view) {
		GAUDI_LOG(ERR, "%s: secondary process: %s", name, err.c_str());
		return -ENODEV;
	}
	auto *ad = new (std::nothrow) gaudi_adapter;
	auto be = std::unique_ptr<VdevBackend>(new (std::nothrow) VdevBackend(std::move(view)));
	if (ad == nullptr || be == nullptr) {
		delete ad;
		return -ENOMEM;
	}
	snprintf(ad->name, sizeof(ad->name), "%s", name);
	ad->nports = be->nports();
	ad->backend = std::move(be);
	ad->open_ports = 1;
	int rc = gaudi_attach_ports(&vdev->device, ad);
	if (rc != 0)
		gaudi_remove_ports(&vdev->device);
	gaudi_adapter_put(ad);
	return rc;
}

int emu_probe(rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return emu_probe_secondary(vdev);
	EmuArgs ea;
	emu::Config &cfg = ea.cfg;
	gaudi_devargs drv;
	gaudi_devargs_ctx args{&drv, &ea, {}};
	if (!gaudi_devargs_parse(rte_vdev_device_args(vdev), kEmuDevargs, &args,
				 emu_devargs_check)) {
		GAUDI_LOG(ERR, "%s: %s", name, args.err.c_str());
		return -EINVAL;
	}
	std::string err;
	{ /* [wires tap/udp] N of net_gaudi_emuN names the default TAPs gaudi<N>p<port> */
		const char *d = name + strlen(name);
		while (d > name && d[-1] >= '0' && d[-1] <= '9')
			d--;
		cfg.instance = static_cast<unsigned>(strtoul(d, nullptr, 10));
	}
	cfg.shm_name = emu_shm_name(name);
	if (cfg.shm_name.size() >= RTE_MEMZONE_NAMESIZE) {
		GAUDI_LOG(NOTICE,
			  "%s: name too long to share the model: secondary processes will "
			  "not attach",
			  name);
		cfg.shm_name.clear();
	}
	cfg.fw_gate = true;  /* the model refuses NIC programming before the firmware is up */
	cfg.phy_link = true; /* [phy] the link needs the PHY bring-up, as on silicon */
	auto model = emu::Device::create(cfg, &err);
	if (!model) {
		GAUDI_LOG(ERR, "%s: %s", name, err.c_str());
		return -EINVAL;
	}
	auto be = std::unique_ptr<VdevBackend>(new (std::nothrow)
						       VdevBackend(std::move(model), drv.fw_dir));
	auto *ad = new (std::nothrow) gaudi_adapter;
	if (ad == nullptr || be == nullptr) {
		delete ad;
		return -ENOMEM;
	}
	/* The same bring-up as on silicon: the model's device CPU answers. */
	std::vector<gaudi_bringup_port> ports;
	auto fw = std::make_unique<gaudi_fw_state>();
	int rc = gaudi_bringup(*be, name, drv, fw.get(), &ports, &err);
	if (rc == 0 &&
	    !emu_port_devargs_check(ea, ports, fw->info.link_mask[0], drv.port_mask, &err))
		rc = -EINVAL;
	std::unique_ptr<hw::Phy> phy; /* [phy] */
	if (rc == 0)
		rc = gaudi_phy_bringup(*be, *fw, ports, &phy, &err);
	if (rc != 0) {
		GAUDI_LOG(ERR, "%s: %s", name, err.c_str());
		phy.reset();
		fw.reset(); /* before the model it talks to */
		delete ad;
		return rc;
	}
	snprintf(ad->name, sizeof(ad->name), "%s", name);
	ad->tx_watchdog_ms = drv.tx_watchdog_ms; /* [faults] */
	ad->rx_copy_max = drv.rx_copy_max;
	ad->speed = drv.speed;
	ad->nports = be->nports();
	ad->backend = std::move(be);
	ad->fw = std::move(fw);
	ad->phy = std::move(phy);
	ad->open_ports = 1; /* probe's own reference while ports are created */
	for (const gaudi_bringup_port &bp : ports) {
		rc = gaudi_port_create(ad, &vdev->device, bp.hw_port, bp.mac.data());
		if (rc != 0) {
			gaudi_remove_ports(&vdev->device);
			gaudi_adapter_put(ad);
			return rc;
		}
	}
	gaudi_fw_status_start(ad, drv.nic_status_ms);
	gaudi_adapter_put(ad);
	return 0;
}

int emu_remove(rte_vdev_device *vdev)
{
	return gaudi_remove_ports(&vdev->device);
}

rte_vdev_driver gaudi_emu_driver = {
	.next = {},
	.driver = {},
	.probe = emu_probe,
	.remove = emu_remove,
};

/* Telemetry of the model behind an open emulated port: params is the ethdev port id; read(m,
 * nic_port) runs on the model in the primary only, through gaudi_open_adapter under
 * gaudi_adapter_lock, so nothing of a port closed or released meanwhile is read. -EINVAL for
 * a bad id or no open port of this driver, -ENOTSUP in a secondary. */
template <typename Read>
int tel_model(const char *params, unsigned long *pid, Read read)
{
	char *end = nullptr;
	if (params == nullptr || *params < '0' || *params > '9')
		return -EINVAL;
	*pid = strtoul(params, &end, 10);
	if (*end != '\0' || *pid >= RTE_MAX_ETHPORTS)
		return -EINVAL;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return -ENOTSUP;
	rte_spinlock_lock(&gaudi_adapter_lock);
	const gaudi_adapter *ad = gaudi_open_adapter(uint16_t(*pid));
	const rte_device *device = rte_eth_devices[*pid].device;
	const bool ours =
		ad != nullptr && device != nullptr && device->driver == &gaudi_emu_driver.driver;
	if (ours)
		read(*static_cast<VdevBackend *>(ad->backend.get())->device(),
		     gaudi_hw(&rte_eth_devices[*pid]).id());
	rte_spinlock_unlock(&gaudi_adapter_lock);
	return ours ? 0 : -EINVAL;
}

/* [profile] telemetry /gaudi_emu/profile,<port id>: what Config::profile counted for the
 * model behind an open emulated port (one count per device, shared by its ports), with the
 * TSC rate. */
int tel_profile(const char *cmd, const char *params, rte_tel_data *d)
{
	(void)cmd;
	unsigned long pid = 0;
	emu::Device::Profile pr;
	int rc = tel_model(params, &pid, [&](const emu::Device &m, unsigned) { pr = m.profile(); });
	if (rc != 0)
		return rc;
	rte_tel_data_start_dict(d);
	gaudi_tel_dict_add_uint(d, "port_id", pid);
	gaudi_tel_dict_add_uint(d, "profile", pr.on ? 1 : 0);
	gaudi_tel_dict_add_uint(d, "tsc_cycles", pr.tsc_cycles);
	gaudi_tel_dict_add_uint(d, "accesses", pr.accesses);
	gaudi_tel_dict_add_uint(d, "tsc_hz", rte_get_tsc_hz());
	return 0;
}

/* [seq_check] telemetry /gaudi_emu/seq,<port id>: whether the model checks the bring-up
 * sequence, the steps the port misses now (bit per emu::SeqStep), per step the frames or
 * writes refused for it, and the device's register-map counts. */
int tel_seq(const char *cmd, const char *params, rte_tel_data *d)
{
	(void)cmd;
	unsigned long pid = 0;
	bool on = false;
	uint32_t missing = 0;
	std::array<uint64_t, emu::kSeqSteps> refused{};
	uint64_t violations = 0, unpublished = 0, unmodeled = 0;
	int rc = tel_model(params, &pid, [&](const emu::Device &m, unsigned nic_port) {
		on = m.seq_check();
		violations = m.map_violations();
		unpublished = m.unpublished_values();
		unmodeled = m.unmodeled_accesses();
		missing = m.seq_missing(nic_port);
		for (unsigned s = 0; s < emu::kSeqSteps; s++)
			refused[s] = m.seq_refused(nic_port, emu::SeqStep(s));
	});
	if (rc != 0)
		return rc;
	rte_tel_data_start_dict(d);
	gaudi_tel_dict_add_uint(d, "port_id", pid);
	gaudi_tel_dict_add_uint(d, "seq_check", on ? 1 : 0);
	gaudi_tel_dict_add_uint(d, "missing", missing);
	for (unsigned s = 0; s < emu::kSeqSteps; s++)
		gaudi_tel_dict_add_uint(d, emu::seq_step_name(emu::SeqStep(s)), refused[s]);
	/* The device's (all its ports'): accesses outside the published map (devarg strict),
	 * values the public driver never writes to a traffic register (each logged once), and
	 * accesses to published registers the model stores without modelling them. */
	gaudi_tel_dict_add_uint(d, "map_violations", violations);
	gaudi_tel_dict_add_uint(d, "unpublished_values", unpublished);
	gaudi_tel_dict_add_uint(d, "unmodeled_accesses", unmodeled);
	return 0;
}
} // namespace

RTE_PMD_REGISTER_VDEV(net_gaudi_emu, gaudi_emu_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_gaudi_emu, GAUDI_EMU_DEVARGS(GAUDI_DEVARG_HELP));

/* Help texts stay under RTE_TEL_MAX_STRING_LEN (128): a longer one fails registration. */
RTE_INIT(gaudi_emu_telemetry)
{
	rte_telemetry_register_cmd("/gaudi_emu/profile", tel_profile,
				   "TSC cycles the driver spent in the emulated NIC's model "
				   "(devarg profile=1). Parameters: int port_id");
	rte_telemetry_register_cmd(
		"/gaudi_emu/seq", tel_seq,
		"Emulated NIC bring-up checks: steps missing, refusals per step, "
		"register-map counts. Parameters: int port_id");
}
