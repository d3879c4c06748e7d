/* SPDX-License-Identifier: BSD-3-Clause
 * What differs between the DPDK releases the project builds against (22.11, 24.11 and 25.11
 * LTS, and those between): one wrapper or alias per changed API, chosen by RTE_VERSION, so
 * that the rest of the code has no version checks. Changes that every supported release
 * accepts are made in place instead (the model's own log type, cmdline without cmdline_poll,
 * checked rte_eth_link_get / rte_eth_dev_info_get returns).
 *
 * Included by the PMD, gaudi-testpmd, the RoCE layer, the examples and the tests. The PMD
 * includes it after ethdev_driver.h, which enables the driver-ops part at the end.
 * Sources: each release's headers and doc/guides/rel_notes (API and ABI changes).
 */
#ifndef GAUDI_COMPAT_H
#define GAUDI_COMPAT_H

#include <array>
#include <atomic>
#include <cstdint>
#include <sys/types.h>

#include <rte_icmp.h>
#include <rte_mbuf.h>
#include <rte_net_crc.h>
#include <rte_pcapng.h>
#include <rte_telemetry.h>
#include <rte_version.h>

#define GAUDI_DPDK_SINCE(year, month) (RTE_VERSION >= RTE_VERSION_NUM(year, month, 0, 0))

/* Telemetry: rte_tel_data_add_dict_u64 is deprecated from 23.03 (rte_tel_data_add_dict_uint
 * replaces it) and gone in 25.11; 22.11 has only the former. */
static inline int gaudi_tel_dict_add_uint(rte_tel_data *d, const char *name, uint64_t v)
{
#if GAUDI_DPDK_SINCE(23, 3)
	return rte_tel_data_add_dict_uint(d, name, v);
#else
	return rte_tel_data_add_dict_u64(d, name, v);
#endif
}

/* ICMP: 24.11 names the echo types RTE_ICMP_TYPE_ECHO_* and deprecates RTE_IP_ICMP_ECHO_*. */
#ifndef RTE_ICMP_TYPE_ECHO_REQUEST
#define RTE_ICMP_TYPE_ECHO_REQUEST RTE_IP_ICMP_ECHO_REQUEST
#define RTE_ICMP_TYPE_ECHO_REPLY RTE_IP_ICMP_ECHO_REPLY
#endif

/* rte_net_crc. Until 25.03, rte_net_crc_set_alg switches the process's algorithm and
 * rte_net_crc_calc takes the CRC type. From 25.03 each computation takes a context that
 * rte_net_crc_set_alg allocates (rte_zmalloc: only once EAL is up). Here one context serves the
 * process, made at the first CRC with the best algorithm EAL's SIMD width allows (the old
 * default); before rte_eal_init, where none can be made, a table-driven CRC computes the same
 * value (what the old API's scalar path gave there). */
#if GAUDI_DPDK_SINCE(25, 3)
namespace gaudi_compat {
inline std::atomic<rte_net_crc *> crc32_eth_ctx{nullptr};

inline uint32_t crc32_eth_table(const uint8_t *p, uint32_t len)
{
	static constexpr auto table = [] {
		std::array<uint32_t, 256> t{};
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;
			for (int k = 0; k < 8; k++) /* 0xEDB88320: 0x04C11DB7 reflected */
				c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
			t[i] = c;
		}
		return t;
	}();
	uint32_t c = 0xFFFFFFFFu;
	for (uint32_t i = 0; i < len; i++)
		c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
	return ~c;
}
} /* namespace gaudi_compat */

/* A context replaced here is not freed: another thread may still be computing with it. */
static inline void gaudi_net_crc_set_alg(rte_net_crc_alg alg)
{
	rte_net_crc *c = rte_net_crc_set_alg(alg, RTE_NET_CRC32_ETH);
	if (c)
		gaudi_compat::crc32_eth_ctx.store(c, std::memory_order_release);
}

static inline uint32_t gaudi_net_crc32_eth(const void *data, uint32_t len)
{
	rte_net_crc *c = gaudi_compat::crc32_eth_ctx.load(std::memory_order_acquire);
	if (!c) {
		rte_net_crc *mine = rte_net_crc_set_alg(RTE_NET_CRC_AVX512, RTE_NET_CRC32_ETH);
		if (!mine)
			return gaudi_compat::crc32_eth_table(static_cast<const uint8_t *>(data),
							     len);
		c = mine;
		rte_net_crc *none = nullptr;
		if (!gaudi_compat::crc32_eth_ctx.compare_exchange_strong(none, mine)) {
			rte_net_crc_free(mine); /* another thread made one first */
			c = none;
		}
	}
	return rte_net_crc_calc(c, data, len);
}
#else
static inline void gaudi_net_crc_set_alg(rte_net_crc_alg alg)
{
	rte_net_crc_set_alg(alg);
}

static inline uint32_t gaudi_net_crc32_eth(const void *data, uint32_t len)
{
	return rte_net_crc_calc(data, len, RTE_NET_CRC32_ETH);
}
#endif

/* pcapng. 23.11: rte_pcapng_copy takes no timestamp (it stamps the copy itself) and a
 * comment; rte_pcapng_write_stats loses its start/end times and takes the comment last;
 * rte_pcapng_fdopen no longer writes an interface block per ethdev port, so each port whose
 * frames are written is added first (rte_pcapng_add_interface), which 25.11 gives a link
 * type. The library is experimental in 22.11: only for code built with ALLOW_EXPERIMENTAL_API. */
#ifdef ALLOW_EXPERIMENTAL_API
static inline rte_mbuf *gaudi_pcapng_copy(uint16_t port, uint32_t queue, const rte_mbuf *m,
					  rte_mempool *mp, uint32_t length, uint64_t tsc,
					  rte_pcapng_direction dir)
{
#if GAUDI_DPDK_SINCE(23, 11)
	(void)tsc;
	return rte_pcapng_copy(port, queue, m, mp, length, dir, nullptr);
#else
	return rte_pcapng_copy(port, queue, m, mp, length, tsc, dir);
#endif
}

/* The interface block of port: ethdev's name for it, no description or filter. */
static inline int gaudi_pcapng_add_port(rte_pcapng_t *p, uint16_t port)
{
#if GAUDI_DPDK_SINCE(25, 11)
	return rte_pcapng_add_interface(p, port, 1 /* LINKTYPE_ETHERNET */, nullptr, nullptr,
					nullptr);
#elif GAUDI_DPDK_SINCE(23, 11)
	return rte_pcapng_add_interface(p, port, nullptr, nullptr, nullptr);
#else
	(void)p;
	(void)port;
	return 0; /* rte_pcapng_fdopen wrote them all */
#endif
}

static inline ssize_t gaudi_pcapng_write_stats(rte_pcapng_t *p, uint16_t port, const char *comment,
					       uint64_t ifrecv, uint64_t ifdrop)
{
#if GAUDI_DPDK_SINCE(23, 11)
	return rte_pcapng_write_stats(p, port, ifrecv, ifdrop, comment);
#else
	return rte_pcapng_write_stats(p, port, comment, 0, 0, ifrecv, ifdrop);
#endif
}
#endif

#endif /* GAUDI_COMPAT_H */

/* Driver ops: for the files that included ethdev_driver.h before this header. */
#if defined(_RTE_ETHDEV_DRIVER_H_) && !defined(GAUDI_COMPAT_DRIVER_H)
#define GAUDI_COMPAT_DRIVER_H
#include <type_traits>

/* rx_queue_count returns int (a negative errno on error) from 25.11, uint32_t before. */
using gaudi_rx_queue_count_ret = std::invoke_result_t<eth_rx_queue_count_t, void *>;

/* dev_supported_ptypes_get reports the list's length from 24.03 (no_of_elements); before, the
 * list ends with RTE_PTYPE_UNKNOWN. The PMD's op has the new form; GAUDI_PTYPES_OP adapts it. */
using gaudi_ptypes_fn = const uint32_t *(rte_eth_dev *dev, size_t *no_of_elements);
#if GAUDI_DPDK_SINCE(24, 3)
#define GAUDI_PTYPES_OP(fn) (fn)
#else
template <gaudi_ptypes_fn F>
const uint32_t *gaudi_ptypes_op(rte_eth_dev *dev)
{
	size_t n;
	return F(dev, &n);
}
#define GAUDI_PTYPES_OP(fn) (gaudi_ptypes_op<fn>)
#endif

/* stats_get: from 25.11 the per-queue counters (q_ipackets ...) are no longer fields of
 * rte_eth_stats but of a separate eth_queue_stats, which ethdev passes only when it wants
 * them (else nullptr). Before, the same fields are in rte_eth_stats: the PMD's op takes both
 * and GAUDI_STATS_OP passes the rte_eth_stats twice. */
#if GAUDI_DPDK_SINCE(25, 11)
using gaudi_queue_stats = eth_queue_stats;
#define GAUDI_STATS_OP(fn) (fn)
#else
using gaudi_queue_stats = rte_eth_stats;
template <int (*F)(rte_eth_dev *, rte_eth_stats *, gaudi_queue_stats *)>
int gaudi_stats_op(rte_eth_dev *dev, rte_eth_stats *st)
{
	return F(dev, st, st);
}
#define GAUDI_STATS_OP(fn) (gaudi_stats_op<fn>)
#endif
#endif /* GAUDI_COMPAT_DRIVER_H */
