/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: the port's DMA memory zones. See gaudi_mem.h.
 */
#include "gaudi_mem.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace gaudi::hw;

const rte_memzone *gaudi_dma_zone(const rte_eth_dev *dev, const char *what, uint16_t q, size_t len,
				  int socket, unsigned flags, size_t align)
{
	char name[RTE_MEMZONE_NAMESIZE];
	snprintf(name, sizeof(name), "gaudi_%u_%s%u", dev->data->port_id, what, q);
	const rte_memzone *mz = rte_memzone_lookup(name);
	if (mz != nullptr)
		rte_memzone_free(mz);
	mz = rte_memzone_reserve_aligned(name, len, socket, flags, align);
	if (mz != nullptr)
		memset(mz->addr, 0, len);
	return mz;
}

size_t gaudi_ring_align(size_t len)
{
	return std::clamp<size_t>(std::bit_ceil(len), kRingAlign, RTE_PGSIZE_2M);
}
