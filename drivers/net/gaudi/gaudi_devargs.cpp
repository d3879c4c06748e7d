/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: devargs of net_gaudi_emu. See gaudi_devargs.h.
 */
#include "gaudi_devargs.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>

#include <unistd.h>

#include <rte_kvargs.h>

#include "emu/gaudi_emu_tap.h" /* [wires tap/udp] */
#include "emu/gaudi_emu_udp.h"
#include "gaudi_recovery.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

constexpr const char *kArgPorts = "ports";
constexpr const char *kArgWire = "wire";
constexpr const char *kArgRxPcap = "rx_pcap";
constexpr const char *kArgTxPcap = "tx_pcap";
constexpr const char *kArgEngine = "engine";
constexpr const char *kArgTapName = "tap_name";	    /* [wires tap/udp] */
constexpr const char *kArgUdpLocal = "udp_local";   /* [wires tap/udp] */
constexpr const char *kArgUdpRemote = "udp_remote"; /* [wires tap/udp] */
constexpr const char *kArgStrict = "strict";	    /* the model's published-map check */
constexpr const char *kValidArgs[] = {kArgPorts,    kArgWire,	   kArgRxPcap,
				      kArgTxPcap,   kArgEngine,	   kArgTapName,
				      kArgUdpLocal, kArgUdpRemote, kArgStrict};

struct ArgCtx {
	emu::Config cfg;
	std::string err;
};

bool parse_uint(const char *s, unsigned long lo, unsigned long hi, unsigned *out)
{
	if (s == nullptr || *s == '\0' || *s == '-' || *s == '+')
		return false;
	char *end = nullptr;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return false;
	*out = static_cast<unsigned>(v);
	return true;
}

/* ---- [wires tap/udp] begin ---- */

/* tap_name=PORT:NAME, udp_local=[PORT:]IP:UDPPORT, udp_remote=[PORT:]IP:UDPPORT (without
 * PORT: port 0; IPv6 as [ADDR] and only with PORT:, since kvargs takes a leading '[' for a
 * list). */
bool parse_wire_devarg(const char *k, const char *v, const std::string &kvs, emu::Config *cfg,
		       std::string *err)
{
	bool tap = strcmp(k, kArgTapName) == 0;
	std::string val(v), num, rest = val;
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
	    (!num.empty() && !parse_uint(num.c_str(), 0, cfg->nports - 1, &p))) {
		*err = "devarg " + kvs + ": must be " + (tap ? "PORT:NAME" : "[PORT:]IP:UDPPORT") +
		       " with PORT < ports (" + std::to_string(cfg->nports) + ")";
		return false;
	}
	auto &slot = tap			    ? cfg->tap_name[p]
		     : strcmp(k, kArgUdpLocal) == 0 ? cfg->udp_local[p]
						    : cfg->udp_remote[p];
	if (!slot.empty()) {
		*err = "devarg " + kvs + ": port " + std::to_string(p) + " given twice";
		return false;
	}
	std::string why;
	emu::UdpEndpoint ep;
	if (tap && !emu::tap_name_valid(rest)) {
		*err = "devarg " + kvs + ": '" + rest +
		       "' is not an interface name (1..15 bytes, no '/', ':', ',' or space)";
		return false;
	}
	if (!tap && !emu::parse_udp_endpoint(rest, &ep, &why)) {
		*err = "devarg " + kvs + ": " + why;
		return false;
	}
	slot = rest;
	return true;
}

/* The tap/udp devargs go with their wire; a UDP port needs both ends. */
bool check_wire_devargs(const emu::Config &cfg, std::string *err)
{
	for (unsigned p = 0; p < kMaxPorts; p++) {
		std::string ps = std::to_string(p) + ":";
		if (!cfg.tap_name[p].empty() && cfg.wire != emu::Wire::tap) {
			*err = "devarg tap_name=" + ps + cfg.tap_name[p] + ": needs wire=tap";
			return false;
		}
		bool l = !cfg.udp_local[p].empty(), r = !cfg.udp_remote[p].empty();
		std::string arg = l ? "udp_local=" + ps + cfg.udp_local[p]
				    : "udp_remote=" + ps + cfg.udp_remote[p];
		if ((l || r) && cfg.wire != emu::Wire::udp) {
			*err = "devarg " + arg + ": needs wire=udp";
			return false;
		}
		if (l != r) {
			*err = "devarg " + arg + ": port " + std::to_string(p) + " also needs " +
			       (l ? "udp_remote" : "udp_local");
			return false;
		}
	}
	return true;
}

/* ---- [wires tap/udp] end ---- */

} // namespace

bool gaudi_parse_devargs(const char *args, emu::Config *cfg, std::string *err)
{
	if (args == nullptr || *args == '\0')
		return true;
	rte_kvargs *kv = rte_kvargs_parse(args, nullptr);
	if (kv == nullptr) {
		*err = std::string("cannot parse devargs '") + args + "'";
		return false;
	}
	bool ok = true;
	/* Ports first: the pcap arguments are checked against it. */
	for (unsigned i = 0; ok && i < kv->count; i++) {
		const char *k = kv->pairs[i].key, *v = kv->pairs[i].value;
		if (strcmp(k, kArgPorts) == 0 && !parse_uint(v, 1, kMaxPorts, &cfg->nports)) {
			*err = std::string("devarg ports=") + (v ? v : "") + ": must be 1.." +
			       std::to_string(kMaxPorts);
			ok = false;
		}
	}
	/* A single-valued devarg given twice is a mistake, not a silent override. */
	for (unsigned i = 0; ok && i < kv->count; i++)
		for (const char *single : {kArgPorts, kArgWire, kArgEngine, kArgStrict})
			if (strcmp(kv->pairs[i].key, single) == 0 &&
			    rte_kvargs_count(kv, single) > 1) {
				*err = std::string("devarg ") + single + " given more than once";
				ok = false;
				break;
			}
	for (unsigned i = 0; ok && i < kv->count; i++) {
		const char *k = kv->pairs[i].key, *v = kv->pairs[i].value ? kv->pairs[i].value : "";
		std::string kvs = std::string(k) + "=" + v;
		if (int fr = gaudi_rec_parse_devarg(k, v, cfg, err); fr != 0) { /* [faults] */
			ok = fr > 0;
		} else if (std::find_if(std::begin(kValidArgs), std::end(kValidArgs),
					[&](const char *a) { return strcmp(a, k) == 0; }) ==
			   std::end(kValidArgs)) {
			*err = std::string("unknown devarg '") + k +
			       "' (valid: ports, wire, rx_pcap, tx_pcap, engine, tap_name, "
			       "udp_local, "
			       "udp_remote, strict, fault, fault_seed, fault_rate, fault_kinds, "
			       "tx_watchdog_ms)";
			ok = false;
		} else if (strcmp(k, kArgWire) == 0) {
			if (strcmp(v, "loopback") == 0)
				cfg->wire = emu::Wire::loopback;
			else if (strcmp(v, "pair") == 0)
				cfg->wire = emu::Wire::pair;
			else if (strcmp(v, "pcap") == 0)
				cfg->wire = emu::Wire::pcap;
			else if (strcmp(v, "tap") == 0) /* [wires tap/udp] */
				cfg->wire = emu::Wire::tap;
			else if (strcmp(v, "udp") == 0)
				cfg->wire = emu::Wire::udp;
			else {
				*err = "devarg " + kvs +
				       ": must be loopback, pair, pcap, tap or udp";
				ok = false;
			}
		} else if (strcmp(k, kArgStrict) == 0) {
			if (strcmp(v, "0") == 0 || strcmp(v, "1") == 0) {
				cfg->strict = v[0] == '1';
			} else {
				*err = "devarg " + kvs + ": must be 0 or 1";
				ok = false;
			}
		} else if (strcmp(k, kArgEngine) == 0) {
			if (strcmp(v, "inline") == 0)
				cfg->engine = emu::Engine::inline_run;
			else if (strcmp(v, "thread") == 0)
				cfg->engine = emu::Engine::thread;
			else {
				*err = "devarg " + kvs + ": must be inline or thread";
				ok = false;
			}
		} else if (strcmp(k, kArgRxPcap) == 0 || strcmp(k, kArgTxPcap) == 0) {
			const char *colon = strchr(v, ':');
			unsigned p = 0;
			std::string num = colon ? std::string(v, colon - v) : std::string();
			if (colon == nullptr || colon[1] == '\0' ||
			    !parse_uint(num.c_str(), 0, cfg->nports - 1, &p)) {
				*err = "devarg " + kvs + ": must be PORT:PATH with PORT < ports (" +
				       std::to_string(cfg->nports) + ")";
				ok = false;
				break;
			}
			std::string path(colon + 1);
			bool rx = strcmp(k, kArgRxPcap) == 0;
			auto &slot = rx ? cfg->rx_pcap[p] : cfg->tx_pcap[p];
			bool shared_out = false;
			for (unsigned o = 0; !rx && o < kMaxPorts; o++)
				shared_out |= o != p && cfg->tx_pcap[o] == path;
			if (!slot.empty()) {
				*err = "devarg " + kvs + ": port " + std::to_string(p) +
				       " given twice";
				ok = false;
			} else if (shared_out) {
				/* Two writers of one file would interleave and lose frames. */
				*err = "devarg " + kvs + ": " + path +
				       " is already another port's tx_pcap";
				ok = false;
			} else if (rx && access(path.c_str(), R_OK) != 0) {
				*err = "devarg " + kvs + ": cannot read " + path + ": " +
				       strerror(errno);
				ok = false;
			}
			slot = path;
		} else if ((strcmp(k, kArgTapName) == 0 || strcmp(k, kArgUdpLocal) == 0 ||
			    strcmp(k, kArgUdpRemote) == 0) && /* [wires tap/udp] */
			   !parse_wire_devarg(k, v, kvs, cfg, err)) {
			ok = false;
		}
	}
	if (ok) /* [wires tap/udp] */
		ok = check_wire_devargs(*cfg, err);
	if (ok && cfg->wire != emu::Wire::pcap) {
		for (unsigned p = 0; p < kMaxPorts; p++)
			if (!cfg->rx_pcap[p].empty() || !cfg->tx_pcap[p].empty()) {
				*err = std::string("devarg ") +
				       (cfg->rx_pcap[p].empty() ? "tx_pcap=" : "rx_pcap=") +
				       std::to_string(p) + ":" +
				       (cfg->rx_pcap[p].empty() ? cfg->tx_pcap[p]
								: cfg->rx_pcap[p]) +
				       ": needs wire=pcap";
				ok = false;
				break;
			}
	}
	rte_kvargs_free(kv);
	return ok;
}
