/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: net_gaudi_emu's devarg handlers and checks. See gaudi_vdev_args.h.
 */
#include "gaudi_vdev_args.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <strings.h>

#include <rte_ether.h>

#include "base/gaudi_serdes.h"
#include "emu/gaudi_emu_tap.h" /* [wires tap/udp] */
#include "emu/gaudi_emu_udp.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* ---- devargs of the model (emu::Config); the driver's own keys: gaudi_devargs.h ---- */

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
	uint64_t n = 0;
	if (!gaudi_devarg_u64(val, UINT64_MAX, &n))
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

constexpr gaudi_devarg_key kEmuDevargs[] = {GAUDI_EMU_DEVARGS(GAUDI_DEVARG_KEY)};

} /* namespace */

std::span<const gaudi_devarg_key> gaudi_emu_devargs()
{
	return kEmuDevargs;
}

/* The rules across keys, in one place: tap/udp devargs go with their wire and a UDP port needs
 * both ends [wires tap/udp]; pcap files need wire=pcap. */
bool gaudi_emu_devargs_check(gaudi_devargs_ctx *ctx)
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
bool gaudi_emu_port_devargs_check(const EmuArgs &args, const std::vector<gaudi_bringup_port> &ports,
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
