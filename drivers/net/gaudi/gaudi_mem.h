/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: the port's DMA memory zones (rings, event queue, bounce buffers) and ring sizes.
 */
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include <ethdev_driver.h>
#include <rte_memzone.h>

#include "gaudi_adapter.h"

/* A memzone of the port named gaudi_<port>_<what><q> (an old one of that name is freed first).
 * Rings the device walks by index must be IOVA-contiguous; with IOVA as PA and 2 MB pages that
 * only holds within one page, so a ring up to 2 MB is aligned to its own size (gaudi_ring_align)
 * to sit in a single page. */
const rte_memzone *gaudi_dma_zone(const rte_eth_dev *dev, const char *what, uint16_t q, size_t len,
				  int socket, unsigned flags = RTE_MEMZONE_IOVA_CONTIG,
				  size_t align = gaudi::hw::kRingAlign);
size_t gaudi_ring_align(size_t len);

inline bool gaudi_is_pow2(uint32_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

inline uint32_t gaudi_log2u(uint32_t v)
{
	return std::bit_width(v) - 1;
}

inline bool gaudi_ring_size_ok(uint16_t nb, uint32_t lo, uint32_t hi)
{
	return gaudi_is_pow2(nb) && nb >= lo && nb <= hi;
}
