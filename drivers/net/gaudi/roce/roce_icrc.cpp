/* SPDX-License-Identifier: BSD-3-Clause */
/* RoCE v2 ICRC (Annex A17.4.1): see roce_framing.h for the definition and the sources. */
#include "roce_framing.h"

#include <atomic>
#include <cstdint>
#include <cstring>

#include <rte_cpuflags.h>
#include <rte_net_crc.h>
extern "C" {
#include <rte_vect.h> /* its generic/ declarations lack extern "C" */
}

#include "../gaudi_compat.h"

#ifdef GAUDI_ROCE_ISAL
/* ISA-L's reflected CRC-32 (= zlib crc32, = CRC32_ETH), which unlike rte_net_crc takes the CRC so
 * far and so runs over the datagram where it lies, and folds 8 or 16 blocks in parallel where
 * DPDK 22.11 folds one: faster per byte from about 1 KiB on (1.3-1.6x for 4 KiB frames on the
 * SSE path, roce_bench --icrc), slower for short ones. Its dispatcher would choose AVX512
 * whatever EAL allows, so the variants are called by name (exported by libisal 2.30,
 * crc/crc_multibinary.asm) and chosen by rte_net_crc's rule: see icrc_fn(). */
extern "C" {
uint32_t crc32_gzip_refl_base(uint32_t init, const unsigned char *buf, uint64_t len);
uint32_t crc32_gzip_refl_by8(uint32_t init, const unsigned char *buf, uint64_t len);
uint32_t crc32_gzip_refl_by16_10(uint32_t init, const unsigned char *buf, uint64_t len);
}
#endif

namespace gaudi::roce {

namespace {

int g_crc_alg = -1; /* icrc_set_alg's choice; -1: none (rte_net_crc's default handler) */

} /* namespace */

#ifdef GAUDI_ROCE_ISAL
namespace {

/* Datagrams up to this length take rte_net_crc on a copy (see icrc_of). */
constexpr size_t kIcrcWholeMax = 512;

using CrcFn = uint32_t (*)(uint32_t, const unsigned char *, uint64_t);

CrcFn crc_fn_for(int alg)
{
	switch (alg) {
	case RTE_NET_CRC_AVX512:
		return crc32_gzip_refl_by16_10;
	case RTE_NET_CRC_SSE42:
		return crc32_gzip_refl_by8;
	default:
		return crc32_gzip_refl_base;
	}
}

std::atomic<CrcFn> g_crc_fn{nullptr};

/* The variant for icrc_alg(), latched at the first ICRC as rte_net_crc latches its choice. */
CrcFn icrc_fn()
{
	CrcFn f = g_crc_fn.load(std::memory_order_relaxed);
	if (f == nullptr) {
		f = crc_fn_for(icrc_alg());
		g_crc_fn.store(f, std::memory_order_relaxed);
	}
	return f;
}

} /* namespace */
#endif

int icrc_alg()
{
	/* DPDK 22.11 has no getter, so this applies rte_net_crc's own rule (lib/net/rte_net_crc.c)
	 * to read-only inputs -- the CPU flags and EAL's max SIMD width -- instead of capturing its
	 * log: AVX512/VPCLMULQDQ needs the AVX512 F/BW/DQ/VL, PCLMULQDQ and VPCLMULQDQ flags and a
	 * 512-bit width, SSE4.2 needs PCLMULQDQ and 128 bits, else scalar. The width is latched at
	 * rte_net_crc's first selection, so this assumes it did not change since. */
#if defined(RTE_ARCH_X86_64)
	unsigned width = rte_vect_get_max_simd_bitwidth();
	auto has = [](rte_cpu_flag_t f) { return rte_cpu_get_flag_enabled(f) > 0; };
	int want = g_crc_alg < 0 ? RTE_NET_CRC_AVX512 : g_crc_alg; /* default handler: the best */
	if (want == RTE_NET_CRC_AVX512 && width >= RTE_VECT_SIMD_512 && has(RTE_CPUFLAG_AVX512F) &&
	    has(RTE_CPUFLAG_AVX512BW) && has(RTE_CPUFLAG_AVX512DQ) && has(RTE_CPUFLAG_AVX512VL) &&
	    has(RTE_CPUFLAG_PCLMULQDQ) && has(RTE_CPUFLAG_VPCLMULQDQ))
		return RTE_NET_CRC_AVX512;
	if ((want == RTE_NET_CRC_AVX512 || want == RTE_NET_CRC_SSE42) &&
	    width >= RTE_VECT_SIMD_128 && has(RTE_CPUFLAG_PCLMULQDQ))
		return RTE_NET_CRC_SSE42;
	return RTE_NET_CRC_SCALAR;
#else
	return g_crc_alg < 0 ? -1 : g_crc_alg;
#endif
}

int icrc_set_alg(int alg)
{
	/* Application-level only: rte_net_crc_set_alg() switches the CRC of every user in the
	 * process. Nothing in this library calls it. */
	gaudi_net_crc_set_alg(static_cast<rte_net_crc_alg>(alg));
	g_crc_alg = alg;
#ifdef GAUDI_ROCE_ISAL
	g_crc_fn.store(crc_fn_for(icrc_alg()), std::memory_order_relaxed);
#endif
	return icrc_alg();
}

uint32_t crc32_eth(const void *data, uint32_t len)
{
	return gaudi_net_crc32_eth(data, len);
}

std::string_view crc_alg_name(int alg)
{
	switch (alg) {
	case RTE_NET_CRC_SCALAR:
		return "scalar";
	case RTE_NET_CRC_SSE42:
		return "SSE4.2/PCLMULQDQ";
	case RTE_NET_CRC_NEON:
		return "NEON/PMULL";
	case RTE_NET_CRC_AVX512:
		return "AVX512/VPCLMULQDQ";
	default:
		return "none";
	}
}

namespace {

/* compute_icrc; `scratch` (n + 8 bytes) is used only without ISA-L. */
bool icrc_of(std::span<const uint8_t> d, IpVersion v, size_t ip_hdr_len, uint32_t &icrc,
	     uint8_t *scratch)
{
	const size_t n = d.size();
	const size_t masked_len =
		ip_hdr_len + kUdpHdrLen + kBthLen; /* the last masked byte: BTH[4] */
	if (n < masked_len || n > kMaxIcrcDatagramLen)
		return false;
#ifdef GAUDI_ROCE_ISAL
	/* Up to kIcrcWholeMax the whole input is masked in a copy on the stack and rte_net_crc
	 * takes it in one call (faster for short frames); above, only the headers up to the BTH
	 * (at most 88 B) are copied and masked, and ISA-L goes on over the rest in place. */
	alignas(16) uint8_t h[8 + kIcrcWholeMax];
	const bool whole = n <= kIcrcWholeMax;
	if (masked_len > kIcrcWholeMax)
		return false;
	uint8_t *s = h;
	(void)scratch;
#else
	/* rte_net_crc has no incremental form: the whole input is built in the scratch buffer. */
	const bool whole = true;
	uint8_t *s = scratch;
#endif
	/* rte_net_crc's default handler picks its algorithm at the first call, within EAL's max
	 * SIMD width: the application's choice (--force-max-simd-bitwidth), not ours. */
	std::memset(s, 0xFF, 8); /* stands for the masked LRH of native IB */
	std::memcpy(s + 8, d.data(), whole ? n : masked_len);
	uint8_t *ip = s + 8;
	if (v == IpVersion::v4) {
		ip[1] = 0xFF;		/* TOS */
		ip[8] = 0xFF;		/* TTL */
		ip[10] = ip[11] = 0xFF; /* header checksum */
	} else {
		ip[0] |= 0x0F;		      /* traffic class high nibble (version stays) */
		ip[1] = ip[2] = ip[3] = 0xFF; /* traffic class low nibble + flow label */
		ip[7] = 0xFF;		      /* hop limit */
	}
	uint8_t *udp = ip + ip_hdr_len;
	udp[6] = udp[7] = 0xFF;	    /* UDP checksum */
	udp[kUdpHdrLen + 4] = 0xFF; /* BTH byte 4: FECN, BECN, resv6 */
	if (whole) {
		icrc = gaudi_net_crc32_eth(s, static_cast<uint32_t>(n + 8));
	} else {
#ifdef GAUDI_ROCE_ISAL
		CrcFn f = icrc_fn();
		icrc = f(f(0, s, masked_len + 8), d.data() + masked_len, n - masked_len);
#endif
	}
	return true;
}

} /* namespace */

bool compute_icrc(std::span<const uint8_t> d, IpVersion v, size_t ip_hdr_len, uint32_t &icrc,
		  std::span<uint8_t> scratch)
{
	if (scratch.size() < d.size() + 8)
		return false;
	return icrc_of(d, v, ip_hdr_len, icrc, scratch.data());
}

bool compute_icrc(std::span<const uint8_t> d, IpVersion v, size_t ip_hdr_len, uint32_t &icrc)
{
#ifdef GAUDI_ROCE_ISAL
	return icrc_of(d, v, ip_hdr_len, icrc, nullptr); /* copies to its stack only */
#else
	/* Per-thread so that lcores never share it; no heap per packet. */
	alignas(64) static thread_local uint8_t scratch[kIcrcScratchLen];
	return icrc_of(d, v, ip_hdr_len, icrc, scratch);
#endif
}

} /* namespace gaudi::roce */
