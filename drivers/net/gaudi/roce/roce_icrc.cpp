/* SPDX-License-Identifier: BSD-3-Clause */
/* RoCE v2 ICRC (Annex A17.4.1): see roce_framing.h for the definition and the sources. */
#include "roce_framing.h"

#include <atomic>
#include <cstdint>
#include <cstring>

#if defined(RTE_ARCH_X86_64) || defined(__x86_64__)
#include <immintrin.h>
#endif

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
std::atomic<int> g_copy_impl{-1}; /* crc_copy_impl()'s CrcCopyImpl, latched at first use */

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
	g_copy_impl.store(-1, std::memory_order_relaxed); /* chosen again at the next use */
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

/* ---------------------------------------------------------------------------------------
 * CRC-32 folded into a copy (crc32_copy): the payload is read once, stored to the frame and
 * folded into the CRC from the same registers, instead of a memcpy and a second pass.
 *
 * Method: Intel, "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction"
 * (Gopal et al., 2009), bit-reflected form. Four 128-bit accumulators (four 256-bit ones in the
 * VPCLMULQDQ variant) hold the message so far; each is folded forward over the next block with
 * two carry-less products and XORed with it, which keeps its residue mod P. At the end they
 * are folded into one 128-bit value V with the same residue as the message, so that the CRC of
 * the message equals the zero-state CRC of the 16 bytes of V: ISA-L finishes over V and the
 * last partial block (which, below the block size, is copied by memcpy and CRC'd from the
 * destination, still in L1).
 * --------------------------------------------------------------------------------------- */
namespace {

/* x^e mod P(x), P = x^32 + 0x04C11DB7 (CRC-32/IEEE), normal bit order. */
constexpr uint32_t xpow_mod(unsigned e)
{
	uint32_t r = 1;
	for (unsigned i = 0; i < e; i++)
		r = (r & 0x80000000u) ? (r << 1) ^ 0x04C11DB7u : r << 1;
	return r;
}

constexpr uint32_t bit_reverse32(uint32_t v)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++)
		r |= ((v >> i) & 1u) << (31 - i);
	return r;
}

/* Fold constant of the reflected form for exponent e: the bit-reversed x^e mod P, shifted left
 * by one because the carry-less product of two reflected operands comes out one bit low. A
 * 128-bit lane moves forward by D bits with its low (earlier) quadword times fold_k(D + 32) and
 * its high quadword times fold_k(D - 32). */
constexpr uint64_t fold_k(unsigned e)
{
	return uint64_t(bit_reverse32(xpow_mod(e))) << 1;
}
/* As constants of the program (a call inside the vector code would loop at run time). */
template <unsigned E>
inline constexpr uint64_t kFold = fold_k(E);
/* The by-4 (512-bit) and by-1 (128-bit) pairs as printed in the CRC-32 PCLMULQDQ literature. */
static_assert(fold_k(544) == 0x154442bd4 && fold_k(480) == 0x1c6e41596);
static_assert(fold_k(160) == 0x1751997d0 && fold_k(96) == 0x0ccaa009e);

#if defined(RTE_ARCH_X86_64)
#define GAUDI_CRC_SSE __attribute__((target("pclmul,sse4.1")))
#define GAUDI_CRC_AVX2 __attribute__((target("pclmul,sse4.1,avx2,vpclmulqdq")))

GAUDI_CRC_SSE inline __m128i fold128(__m128i x, __m128i k, __m128i next)
{
	return _mm_xor_si128(
		_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11)),
		next);
}

/* The pair for a fold by Dist bits, in the lanes PCLMULQDQ's selectors 0x00 and 0x11 take. */
template <unsigned Dist>
GAUDI_CRC_SSE inline __m128i k128()
{
	constexpr auto lo = static_cast<long long>(kFold<Dist + 32>);
	constexpr auto hi = static_cast<long long>(kFold<Dist - 32>);
	return _mm_set_epi64x(hi, lo);
}

/* 64-byte blocks in four xmm accumulators; n >= 64. Returns V (see above); *done = bytes taken. */
template <bool Store>
GAUDI_CRC_SSE __m128i fold_sse(uint32_t state, uint8_t *dst, const uint8_t *src, size_t n,
			       size_t &done)
{
	const __m128i *s = reinterpret_cast<const __m128i *>(src);
	__m128i x0 = _mm_loadu_si128(s), x1 = _mm_loadu_si128(s + 1);
	__m128i x2 = _mm_loadu_si128(s + 2), x3 = _mm_loadu_si128(s + 3);
	if constexpr (Store) {
		__m128i *d = reinterpret_cast<__m128i *>(dst);
		_mm_storeu_si128(d, x0);
		_mm_storeu_si128(d + 1, x1);
		_mm_storeu_si128(d + 2, x2);
		_mm_storeu_si128(d + 3, x3);
	}
	x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128(static_cast<int>(state)));
	const __m128i k4 = k128<512>();
	size_t i = 64;
	for (; i + 64 <= n; i += 64) {
		s = reinterpret_cast<const __m128i *>(src + i);
		__m128i d0 = _mm_loadu_si128(s), d1 = _mm_loadu_si128(s + 1);
		__m128i d2 = _mm_loadu_si128(s + 2), d3 = _mm_loadu_si128(s + 3);
		if constexpr (Store) {
			__m128i *d = reinterpret_cast<__m128i *>(dst + i);
			_mm_storeu_si128(d, d0);
			_mm_storeu_si128(d + 1, d1);
			_mm_storeu_si128(d + 2, d2);
			_mm_storeu_si128(d + 3, d3);
		}
		x0 = fold128(x0, k4, d0);
		x1 = fold128(x1, k4, d1);
		x2 = fold128(x2, k4, d2);
		x3 = fold128(x3, k4, d3);
	}
	const __m128i k1 = k128<128>();
	done = i;
	return fold128(fold128(fold128(x0, k1, x1), k1, x2), k1, x3);
}

GAUDI_CRC_AVX2 inline __m256i fold256(__m256i y, __m256i k, __m256i next)
{
	return _mm256_xor_si256(_mm256_xor_si256(_mm256_clmulepi64_epi128(y, k, 0x00),
						 _mm256_clmulepi64_epi128(y, k, 0x11)),
				next);
}

template <unsigned Dist>
GAUDI_CRC_AVX2 inline __m256i k256()
{
	constexpr auto lo = static_cast<long long>(kFold<Dist + 32>);
	constexpr auto hi = static_cast<long long>(kFold<Dist - 32>);
	return _mm256_set_epi64x(hi, lo, hi, lo);
}

/* 128-byte blocks in four ymm accumulators (VEX-encoded VPCLMULQDQ: AVX2-class, within EAL's
 * default 256-bit SIMD width); n >= 128. */
template <bool Store>
GAUDI_CRC_AVX2 __m128i fold_avx2(uint32_t state, uint8_t *dst, const uint8_t *src, size_t n,
				 size_t &done)
{
	const __m256i *s = reinterpret_cast<const __m256i *>(src);
	__m256i y0 = _mm256_loadu_si256(s), y1 = _mm256_loadu_si256(s + 1);
	__m256i y2 = _mm256_loadu_si256(s + 2), y3 = _mm256_loadu_si256(s + 3);
	if constexpr (Store) {
		__m256i *d = reinterpret_cast<__m256i *>(dst);
		_mm256_storeu_si256(d, y0);
		_mm256_storeu_si256(d + 1, y1);
		_mm256_storeu_si256(d + 2, y2);
		_mm256_storeu_si256(d + 3, y3);
	}
	y0 = _mm256_xor_si256(y0, _mm256_set_epi64x(0, 0, 0, static_cast<long long>(state)));
	const __m256i k4 = k256<1024>();
	size_t i = 128;
	for (; i + 128 <= n; i += 128) {
		s = reinterpret_cast<const __m256i *>(src + i);
		__m256i d0 = _mm256_loadu_si256(s), d1 = _mm256_loadu_si256(s + 1);
		__m256i d2 = _mm256_loadu_si256(s + 2), d3 = _mm256_loadu_si256(s + 3);
		if constexpr (Store) {
			__m256i *d = reinterpret_cast<__m256i *>(dst + i);
			_mm256_storeu_si256(d, d0);
			_mm256_storeu_si256(d + 1, d1);
			_mm256_storeu_si256(d + 2, d2);
			_mm256_storeu_si256(d + 3, d3);
		}
		y0 = fold256(y0, k4, d0);
		y1 = fold256(y1, k4, d1);
		y2 = fold256(y2, k4, d2);
		y3 = fold256(y3, k4, d3);
	}
	const __m256i k1 = k256<256>();
	__m256i y = fold256(fold256(fold256(y0, k1, y1), k1, y2), k1, y3);
	done = i;
	return fold128(_mm256_castsi256_si128(y), k128<128>(), _mm256_extracti128_si256(y, 1));
}
#endif /* RTE_ARCH_X86_64 */

/* zlib-style continuation over n bytes in place: ISA-L's variant, else bitwise (tests only). */
uint32_t crc_tail(uint32_t crc, const uint8_t *p, size_t n)
{
#ifdef GAUDI_ROCE_ISAL
	return n ? icrc_fn()(crc, p, n) : crc;
#else
	uint32_t c = ~crc;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int b = 0; b < 8; b++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
	}
	return ~c;
#endif
}

/* Continues `crc` (zlib convention) over src[0, n), storing the bytes to dst if Store. */
template <bool Store>
uint32_t crc_run(CrcCopyImpl impl, uint32_t crc, uint8_t *dst, const uint8_t *src, size_t n)
{
	size_t done = 0;
#if defined(RTE_ARCH_X86_64)
	alignas(16) uint8_t v[16];
	if (impl == CrcCopyImpl::vpclmul256 && n >= 256) {
		_mm_store_si128(reinterpret_cast<__m128i *>(v),
				fold_avx2<Store>(~crc, dst, src, n, done));
		crc = crc_tail(0xFFFFFFFFu, v, sizeof(v));
	} else if (impl != CrcCopyImpl::plain && n >= 128) {
		_mm_store_si128(reinterpret_cast<__m128i *>(v),
				fold_sse<Store>(~crc, dst, src, n, done));
		crc = crc_tail(0xFFFFFFFFu, v, sizeof(v));
	}
#else
	(void)impl;
#endif
	if (done == n)
		return crc;
	if constexpr (Store) {
		std::memcpy(dst + done, src + done, n - done);
		return crc_tail(crc, dst + done, n - done);
	} else {
		(void)dst;
		return crc_tail(crc, src + done, n - done);
	}
}

} /* namespace */

namespace {

/* Bit per CrcCopyImpl the CPU can run. Read once: rte_cpu_get_flag_enabled executes CPUID,
 * which a hypervisor traps (microseconds), so never per packet. */
unsigned supported_mask()
{
	static const unsigned mask = [] {
		unsigned m = 1u << unsigned(CrcCopyImpl::plain);
#if defined(RTE_ARCH_X86_64)
		auto has = [](rte_cpu_flag_t f) { return rte_cpu_get_flag_enabled(f) > 0; };
		if (has(RTE_CPUFLAG_PCLMULQDQ) && has(RTE_CPUFLAG_SSE4_1)) {
			m |= 1u << unsigned(CrcCopyImpl::pclmul128);
			if (has(RTE_CPUFLAG_AVX2) && has(RTE_CPUFLAG_VPCLMULQDQ))
				m |= 1u << unsigned(CrcCopyImpl::vpclmul256);
		}
#endif
		return m;
	}();
	return mask;
}

} /* namespace */

bool crc_copy_supported(CrcCopyImpl impl)
{
	return (supported_mask() >> unsigned(impl)) & 1u;
}

CrcCopyImpl crc_copy_impl()
{
	int v = g_copy_impl.load(std::memory_order_relaxed);
	if (v >= 0)
		return static_cast<CrcCopyImpl>(v);
	/* The rule of icrc_alg() with the fused routines in place of rte_net_crc's: scalar stays
	 * scalar (memcpy, then ISA-L's base variant); else the 256-bit routine when EAL's SIMD
	 * width allows 256 bits (the x86 default) and the CPU has VPCLMULQDQ, unless the
	 * application asked for SSE4.2 by icrc_set_alg; else the 128-bit one. */
	CrcCopyImpl c = CrcCopyImpl::plain;
	const int alg = icrc_alg();
#if defined(RTE_ARCH_X86_64)
	if (alg != RTE_NET_CRC_SCALAR && crc_copy_supported(CrcCopyImpl::pclmul128))
		c = CrcCopyImpl::pclmul128;
	if (c == CrcCopyImpl::pclmul128 && g_crc_alg != RTE_NET_CRC_SSE42 &&
	    rte_vect_get_max_simd_bitwidth() >= RTE_VECT_SIMD_256 &&
	    crc_copy_supported(CrcCopyImpl::vpclmul256))
		c = CrcCopyImpl::vpclmul256;
#else
	(void)alg;
#endif
	g_copy_impl.store(static_cast<int>(c), std::memory_order_relaxed);
	return c;
}

std::string_view crc_copy_impl_name(CrcCopyImpl impl)
{
	switch (impl) {
	case CrcCopyImpl::plain:
		return "memcpy+CRC";
	case CrcCopyImpl::pclmul128:
		return "PCLMULQDQ/128";
	case CrcCopyImpl::vpclmul256:
		return "VPCLMULQDQ/256";
	}
	return "none";
}

uint32_t crc32_copy(CrcCopyImpl impl, uint32_t crc, void *dst, const void *src, size_t n)
{
	if (!crc_copy_supported(impl))
		impl = CrcCopyImpl::plain;
	return crc_run<true>(impl, crc, static_cast<uint8_t *>(dst),
			     static_cast<const uint8_t *>(src), n);
}

uint32_t crc32_copy(uint32_t crc, void *dst, const void *src, size_t n)
{
	return crc_run<true>(crc_copy_impl(), crc, static_cast<uint8_t *>(dst),
			     static_cast<const uint8_t *>(src), n);
}

uint32_t crc32_update(CrcCopyImpl impl, uint32_t crc, const void *data, size_t n)
{
	if (!crc_copy_supported(impl))
		impl = CrcCopyImpl::plain;
	return crc_run<false>(impl, crc, nullptr, static_cast<const uint8_t *>(data), n);
}

namespace {

/* The fields the ICRC covers as all ones (A17.4.1), in a copy of the datagram's headers. */
void mask_variant_fields(uint8_t *ip, IpVersion v, size_t ip_hdr_len)
{
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
}

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
	mask_variant_fields(s + 8, v, ip_hdr_len);
	if (whole) {
		icrc = gaudi_net_crc32_eth(s, static_cast<uint32_t>(n + 8));
	} else {
#ifdef GAUDI_ROCE_ISAL
		CrcFn f = icrc_fn();
		const uint32_t c = f(0, s, masked_len + 8);
		/* ISA-L has no 256-bit variant: where the fused copy runs on VPCLMULQDQ/256, so does
		 * the check in place (by16_10 stays with an application that allows 512 bits). */
		if (f != crc32_gzip_refl_by16_10 && crc_copy_impl() == CrcCopyImpl::vpclmul256)
			icrc = crc32_update(CrcCopyImpl::vpclmul256, c, d.data() + masked_len,
					    n - masked_len);
		else
			icrc = f(c, d.data() + masked_len, n - masked_len);
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

bool icrc_begin(std::span<const uint8_t> headers, IpVersion v, size_t ip_hdr_len, uint32_t &crc)
{
	const size_t n = headers.size();
	if (n < ip_hdr_len + kUdpHdrLen + kBthLen || n > kIcrcBeginMax)
		return false;
	alignas(16) uint8_t h[8 + kIcrcBeginMax];
	std::memset(h, 0xFF, 8);
	std::memcpy(h + 8, headers.data(), n);
	mask_variant_fields(h + 8, v, ip_hdr_len);
	crc = crc_tail(0, h, n + 8);
	return true;
}

} /* namespace gaudi::roce */
