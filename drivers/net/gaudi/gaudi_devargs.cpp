/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: the devargs parser and the driver's own keys. See gaudi_devargs.h.
 */
#include "gaudi_devargs.h"

#include <cerrno>
#include <cstdlib>
#include <cctype>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

#include <rte_kvargs.h>

std::string gaudi_devarg_str(const char *key, const char *value)
{
	return std::string(key) + "=" + (value != nullptr ? value : "");
}

int gaudi_devarg_error(void *opaque, const char *key, const char *value, const std::string &why)
{
	static_cast<gaudi_devargs_ctx *>(opaque)->err =
		"devarg " + gaudi_devarg_str(key, value) + ": " + why;
	return -1;
}

bool gaudi_devarg_uint(const char *s, unsigned long lo, unsigned long hi, unsigned *out)
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

bool gaudi_devarg_u64(const char *s, uint64_t hi, uint64_t *out)
{
	const char *v = s != nullptr ? s : "";
	char *end = nullptr;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 0);
	if (*v == '\0' || *v == '-' || errno != 0 || *end != '\0' || n > hi)
		return false;
	*out = n;
	return true;
}

bool gaudi_devarg_hex(const char *s, uint64_t hi, uint64_t *out)
{
	if (s == nullptr)
		return false;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	uint64_t v = 0;
	size_t n = 0;
	for (; s[n] != '\0'; n++) {
		int d = isdigit((unsigned char)s[n])	? s[n] - '0'
			: isxdigit((unsigned char)s[n]) ? (tolower((unsigned char)s[n]) - 'a' + 10)
							: -1;
		if (d < 0 || v > (hi >> 4))
			return false;
		v = v << 4 | unsigned(d);
	}
	if (n == 0 || v > hi)
		return false;
	*out = v;
	return true;
}

/* fw_dir=PATH: where the firmware files are read from (instead of the default). */
int gaudi_devarg_fw_dir(const char *key, const char *value, void *opaque)
{
	struct stat st;
	if (value == nullptr || *value == '\0')
		return gaudi_devarg_error(opaque, key, value, "must be a directory");
	if (stat(value, &st) != 0 || !S_ISDIR(st.st_mode) || access(value, R_OK | X_OK) != 0)
		return gaudi_devarg_error(
			opaque, key, value,
			std::string("not a readable directory: ") +
				(errno != 0 ? strerror(errno) : "not a directory"));
	static_cast<gaudi_devargs_ctx *>(opaque)->drv->fw_dir = value;
	return 0;
}

/* port_mask=HEX: the NIC ports to open, among those the firmware enables (gaudi_bringup). */
int gaudi_devarg_port_mask(const char *key, const char *value, void *opaque)
{
	uint64_t m = 0;
	if (!gaudi_devarg_hex(value, (1u << 24) - 1, &m) || m == 0)
		return gaudi_devarg_error(opaque, key, value,
					  "must be a non-zero hex mask of ports 0..23 (e.g. 0x5)");
	static_cast<gaudi_devargs_ctx *>(opaque)->drv->port_mask = static_cast<uint32_t>(m);
	return 0;
}

/* tx_watchdog_ms=MS: [faults] how long a stalled TX queue waits before a reset is asked for. */
int gaudi_devarg_tx_watchdog_ms(const char *key, const char *value, void *opaque)
{
	uint64_t n = 0;
	if (!gaudi_devarg_u64(value, 600000, &n))
		return gaudi_devarg_error(opaque, key, value, "must be 0 (off) .. 600000 ms");
	static_cast<gaudi_devargs_ctx *>(opaque)->drv->tx_watchdog_ms = unsigned(n);
	return 0;
}

/* nic_status_ms=MS: how often each open port's status goes to the firmware (NIC_STATUS,
 * gaudi_fw_status.cpp); 0 = never. */
int gaudi_devarg_nic_status_ms(const char *key, const char *value, void *opaque)
{
	uint64_t n = 0;
	if (!gaudi_devarg_u64(value, 600000, &n))
		return gaudi_devarg_error(opaque, key, value, "must be 0 (never) .. 600000 ms");
	static_cast<gaudi_devargs_ctx *>(opaque)->drv->nic_status_ms = unsigned(n);
	return 0;
}

/* rx_copy_max=BYTES: RX frames longer than this are attached to the mbuf in their slot instead
 * of copied (gaudi_rx_burst); gaudi_rx_copy_all (the default) copies every frame. */
int gaudi_devarg_rx_copy_max(const char *key, const char *value, void *opaque)
{
	unsigned n = 0;
	if (!gaudi_devarg_uint(value, 0, gaudi_rx_copy_all, &n))
		return gaudi_devarg_error(
			opaque, key, value,
			"must be 0 .. " + std::to_string(gaudi_rx_copy_all) +
				" bytes (frames longer are attached, not copied; " +
				std::to_string(gaudi_rx_copy_all) + " = always copy)");
	static_cast<gaudi_devargs_ctx *>(opaque)->drv->rx_copy_max = n;
	return 0;
}

/* speed=MBPS (every port) or speed=PORT:MBPS (one port; may be given once per port): the
 * port's speed, 25000, 50000 or 100000 (the default), as hbl_cn's cn_port->speed. The two
 * ports of a macro share its MAC core and TXB, so they run one speed (gaudi_bringup). */
int gaudi_devarg_speed(const char *key, const char *value, void *opaque)
{
	using namespace gaudi::hw;
	gaudi_devargs *drv = static_cast<gaudi_devargs_ctx *>(opaque)->drv;
	const char *v = value != nullptr ? value : "";
	const char *colon = strchr(v, ':');
	unsigned port = 0, mbps = 0;
	Speed s{};
	bool one = colon != nullptr;
	std::string num = one ? std::string(v, colon - v) : std::string();
	if ((one && !gaudi_devarg_uint(num.c_str(), 0, kMaxPorts - 1, &port)) ||
	    !gaudi_devarg_uint(one ? colon + 1 : v, 0, 1000000, &mbps) ||
	    !speed_from_mbps(mbps, &s))
		return gaudi_devarg_error(opaque, key, value,
					  "must be [PORT:]SPEED with SPEED 25000, 50000 or 100000 "
					  "(Mb/s) and PORT 0.." +
						  std::to_string(kMaxPorts - 1));
	if (!one) { /* every port a speed=PORT:MBPS does not name */
		for (unsigned p = 0; p < kMaxPorts; p++)
			if (!(drv->speed_named & (1u << p)))
				drv->speed[p] = s;
		return 0;
	}
	if (drv->speed_named & (1u << port))
		return gaudi_devarg_error(opaque, key, value,
					  "port " + std::to_string(port) + " given twice");
	drv->speed_named |= 1u << port;
	drv->speed[port] = s;
	return 0;
}

bool gaudi_devargs_parse(const char *args, std::span<const gaudi_devarg_key> keys,
			 gaudi_devargs_ctx *ctx, bool (*check)(gaudi_devargs_ctx *ctx))
{
	if (args == nullptr || *args == '\0')
		return check == nullptr || check(ctx);
	rte_kvargs *kv = rte_kvargs_parse(args, nullptr);
	if (kv == nullptr) {
		ctx->err = std::string("cannot parse devargs '") + args + "'";
		return false;
	}
	bool ok = true;
	/* Unknown keys first: the line lists the valid ones, from the table. */
	for (unsigned i = 0; ok && i < kv->count; i++) {
		const char *k = kv->pairs[i].key;
		bool known = false;
		for (const gaudi_devarg_key &key : keys)
			known |= strcmp(key.name, k) == 0;
		if (!known) {
			std::string valid;
			for (const gaudi_devarg_key &key : keys)
				valid += (valid.empty() ? "" : ", ") + std::string(key.name);
			ctx->err = std::string("unknown devarg '") + k + "' (valid: " + valid + ")";
			ok = false;
		}
	}
	for (const gaudi_devarg_key &key : keys) {
		if (!ok)
			break;
		if (key.once && rte_kvargs_count(kv, key.name) > 1) {
			ctx->err = std::string("devarg ") + key.name + " given more than once";
			ok = false;
		} else if (rte_kvargs_process(kv, key.name, key.handler, ctx) != 0) {
			ok = false;
		}
	}
	rte_kvargs_free(kv);
	return ok && (check == nullptr || check(ctx));
}
