/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: devargs. Each driver has one table of keys, an X-macro list
 * X(name, help, once, handler): the parser's table (GAUDI_DEVARG_KEY) and the parameter string
 * of RTE_PMD_REGISTER_PARAM_STRING (GAUDI_DEVARG_HELP, a string literal) are both made from it,
 * so they cannot disagree. Keys are parsed with rte_kvargs_process, one key at a time, in table
 * order; rules that involve several keys live in one check function per driver.
 *
 * net_gaudi_emu's table (model keys, gaudi_vdev_args.h) and net_gaudi's (gaudi_pci.cpp) both end
 * with GAUDI_DRIVER_DEVARGS, the driver's own settings (struct gaudi_devargs).
 */
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include <array>

#include "base/gaudi_hw_defs.h"
#include "base/gaudi_macro.h"

/* rx_copy_max that copies every frame: the largest RX slot (NIC_RAW_ELEM_SIZE, 16 KB). */
inline constexpr uint32_t gaudi_rx_copy_all = 1u << gaudi::hw::kRxSlotMaxLog2;

/* Driver settings, the same for both drivers. The model's settings (emu::Config) are
 * net_gaudi_emu's own and never carry these. */
struct gaudi_devargs {
	uint32_t tx_watchdog_ms = 1000; /* [faults] TX watchdog period; 0 = off */
	std::string fw_dir;		/* directory of the firmware files; empty = default */
	uint32_t port_mask = 0;		/* NIC ports to open; 0 = every port the firmware enables */
	uint32_t nic_status_ms = 1000;	/* period of NIC_STATUS to the firmware; 0 = never */
	/* RX frames up to this many bytes are copied into the mbuf, longer ones handed out in
	 * their slot (gaudi_rx_ring); the largest slot, the default, copies every frame. */
	uint32_t rx_copy_max = gaudi_rx_copy_all;
	/* Speed of each NIC port (devarg speed); speed_named: the ports a speed=PORT:MBPS
	 * names (such a port must be opened, gaudi_bringup). */
	std::array<gaudi::hw::Speed, gaudi::hw::kMaxPorts> speed = all_default_speed();
	uint32_t speed_named = 0;

	static constexpr std::array<gaudi::hw::Speed, gaudi::hw::kMaxPorts> all_default_speed()
	{
		std::array<gaudi::hw::Speed, gaudi::hw::kMaxPorts> a{};
		a.fill(gaudi::hw::kDefaultSpeed);
		return a;
	}
};

/* What the handlers write: the driver settings, the backend's settings (net_gaudi_emu:
 * emu::Config) and the reason of the first bad devarg. */
struct gaudi_devargs_ctx {
	gaudi_devargs *drv;
	void *backend;
	std::string err;
};

/* An rte_kvargs_process handler; opaque is the gaudi_devargs_ctx. 0, or -1 with ctx->err set
 * to a line that names the devarg ("devarg key=value: why"). value may be null. */
using gaudi_devarg_handler = int (*)(const char *key, const char *value, void *opaque);

struct gaudi_devarg_key {
	const char *name;
	bool once; /* given twice is a mistake, not a silent override */
	gaudi_devarg_handler handler;
};

#define GAUDI_DEVARG_KEY(name, help, once, handler) {#name, once, handler},
#define GAUDI_DEVARG_HELP(name, help, once, handler) #name "=" help " "

/* The driver's own keys (handlers in gaudi_devargs.cpp, writing ctx->drv). */
#define GAUDI_DRIVER_DEVARGS(X)                                      \
	X(fw_dir, "<path>", true, gaudi_devarg_fw_dir)               \
	X(port_mask, "<hex>", true, gaudi_devarg_port_mask)          \
	X(tx_watchdog_ms, "<ms>", true, gaudi_devarg_tx_watchdog_ms) \
	X(nic_status_ms, "<ms>", true, gaudi_devarg_nic_status_ms)   \
	X(rx_copy_max, "<bytes>", true, gaudi_devarg_rx_copy_max)    \
	X(speed, "[<port>:]<25000|50000|100000>", false, gaudi_devarg_speed)

int gaudi_devarg_fw_dir(const char *key, const char *value, void *opaque);
int gaudi_devarg_port_mask(const char *key, const char *value, void *opaque);
int gaudi_devarg_tx_watchdog_ms(const char *key, const char *value, void *opaque);
int gaudi_devarg_nic_status_ms(const char *key, const char *value, void *opaque);
int gaudi_devarg_rx_copy_max(const char *key, const char *value, void *opaque);
int gaudi_devarg_speed(const char *key, const char *value, void *opaque);

/* Parse args (may be null or empty) with a driver's table, then run check (may be null) for
 * the rules across keys. False with ctx->err naming the devarg on: args kvargs cannot parse,
 * a key not in the table (the line lists the table's keys), a once key given twice, a
 * handler's or check's error. */
bool gaudi_devargs_parse(const char *args, std::span<const gaudi_devarg_key> keys,
			 gaudi_devargs_ctx *ctx, bool (*check)(gaudi_devargs_ctx *ctx));

/* Handler helpers. */
std::string gaudi_devarg_str(const char *key, const char *value); /* "key=value" */
int gaudi_devarg_error(void *opaque, const char *key, const char *value, const std::string &why);
/* Hexadecimal, with or without 0x, in 0..hi: no sign, space or other characters. */
bool gaudi_devarg_hex(const char *s, uint64_t hi, uint64_t *out);
/* Unsigned decimal in lo..hi: no sign, no other characters. */
bool gaudi_devarg_uint(const char *s, unsigned long lo, unsigned long hi, unsigned *out);
/* Unsigned integer in 0..hi, decimal or 0x hex (strtoull's base 0): no sign, no other
 * characters, no overflow. */
bool gaudi_devarg_u64(const char *s, uint64_t hi, uint64_t *out);
