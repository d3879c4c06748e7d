/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD RX datapath: the RX queue, its slot ring, rx_burst. Queue control: gaudi_rxq.h.
 */
#pragma once

#include <cstdint>

#include <rte_mbuf.h>
#include <rte_memzone.h>

#include "gaudi_adapter.h"
#include "gaudi_compat.h" /* after ethdev_driver.h (gaudi_adapter.h) */

/* The fewest descriptors an RX queue lends its slots with (gaudi_rx_queue_setup): an
 * application's burst held plus about two bursts of slots freed but not yet given back, at
 * DPDK's usual burst of 32. */
inline constexpr uint32_t kRxAttachMinDesc = 128;

/* The RX slot ring with what lets an mbuf hold a slot (devarg rx_copy_max): the HW writes
 * slot i only once CQ entry i is consumed (CQ and slot ring have the same size), so the CQ CI
 * stays behind every slot an attached mbuf still holds. Shared by the queue and the attached
 * mbufs: refs counts the queue's reference and one per held slot, and the last one frees the
 * ring, so queue release or a ring rebuilt for a new MTU never frees a slot still in use. */
struct gaudi_rx_ring {
	const rte_memzone *mz; /* the slots, IOVA-contiguous */
	uint8_t *slots;
	rte_iova_t iova;
	uint32_t slot_log2;
	uint32_t refs;			  /* atomic */
	uint8_t *held;			  /* per slot, atomic: 1 while an attached mbuf holds it */
	rte_mbuf_ext_shared_info *shinfo; /* per slot; free_cb releases the slot */
};

/* RX queue: the HW copies each frame into slot[i] and posts a CQE; we copy slot -> mbuf, or
 * attach the slot to the mbuf as an external buffer for frames above copy_max. */
struct gaudi_rxq {
	gaudi::hw::Cqe *cq;
	const uint8_t *slots;
	volatile uint32_t *cq_pi; /* HW-written CQ PI (free-running) */
	uint32_t ci;		  /* free-running index of the next CQE to read */
	/* The CQ PI last read: the PI shadow is read only once the CQEs it covered are taken, as
	 * hbl_en's gaudi2 RX poll does (a line the device writes: a cache miss per read). */
	uint32_t pi_seen;
	/* Free-running CQ CI given to the HW: ci, or behind it at the oldest slot an attached
	 * mbuf holds. */
	uint32_t hw_ci;
	uint32_t copy_max; /* frames up to it are copied, longer ones attached */
	/* From an mbuf to its data at the headroom when the pool's buffers follow their mbufs
	 * (rte_mbuf_buf_addr): rx_burst then writes the mbuf without loading buf_addr. 0 for a
	 * pool of pinned external buffers, whose buf_addr is read. */
	uint32_t data_off_abs;
	gaudi_rx_ring *ring;
	uint32_t mask; /* entries - 1 (CQ and slot ring have the same size) */
	uint32_t slot_log2;
	uint32_t max_frame; /* frames above this are dropped and counted */
	bool scatter;
	uint32_t buf_size;  /* an mbuf's data room past its headroom */
	uint64_t mbuf_init; /* rearm_data of a received mbuf (gaudi_rxq_mbuf_init) */
	/* ol_flags of a received mbuf: RTE_MBUF_F_EXTERNAL for a pool of pinned external
	 * buffers (their mbufs keep it: rte_pktmbuf_reset, mlx5's RX), 0 otherwise. */
	uint64_t ol_flags_init;
	rte_mempool *mp;
	gaudi_port *port;
	uint16_t queue_id;
	const rte_memzone *cq_mz; /* CQ and its PI shadow */
	uint16_t nb_desc;

	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;	/* oversize or inconsistent CQEs dropped by the driver */
	uint64_t cqe_not_valid; /* PI passed a CQE whose valid bit was not yet visible */
	uint64_t filtered;	/* frames the software address filter dropped */
	uint64_t attached;	/* frames handed out in their slot (rx_copy_max) */
	bool started;		/* queue started: rx_burst returns 0 otherwise */
	bool deferred;		/* rx_deferred_start */
};

uint16_t gaudi_rx_burst(void *rxq, rte_mbuf **pkts, uint16_t nb_pkts);
/* Give the HW back the CQ entries whose slots attached mbufs have released (rx_burst does it;
 * rx_queue_intr_enable too, before the application sleeps). On the queue's lcore. */
void gaudi_rx_release(gaudi_rxq *rxq);
/* Drop the queue's reference to its slot ring (the last holder frees it). */
void gaudi_rx_ring_put(gaudi_rx_ring *ring);
/* Slots attached mbufs hold now (0 when none). */
uint32_t gaudi_rx_ring_held(const gaudi_rx_ring *ring);
/* Fast-path status queries (rte_eth_rx_queue_count, rte_eth_rx_descriptor_status). */
gaudi_rx_queue_count_ret gaudi_rx_queue_count(void *rxq);
int gaudi_rx_descriptor_status(void *rxq, uint16_t offset);
/* Packet types rx_burst sets in mbuf->packet_type (RTE_PTYPE_UNKNOWN-terminated). */
extern const uint32_t gaudi_ptypes[];
/* The packet-type families gaudi_ptypes covers. */
inline constexpr uint32_t gaudi_ptype_mask_all =
	RTE_PTYPE_L2_MASK | RTE_PTYPE_L3_MASK | RTE_PTYPE_L4_MASK;
