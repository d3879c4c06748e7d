/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: probe (PCI net_gaudi, virtual net_gaudi_emu), devargs and ethdev ops.
 */
#include <algorithm>
#include <bit>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>

#include <unistd.h>

#include <bus_pci_driver.h>
#include <bus_vdev_driver.h>
#include <ethdev_driver.h>
#include <ethdev_pci.h>
#include <rte_kvargs.h>
#include <rte_malloc.h>

#include "emu/gaudi_emu.h"
#include "emu/gaudi_emu_tap.h" /* [wires tap/udp] */
#include "emu/gaudi_emu_udp.h"
#include "gaudi_ethdev.h"
#include "gaudi_features.h"
#include "gaudi_logs.h"
#include "gaudi_rxtx.h"

using namespace gaudi;
using namespace gaudi::hw;

RTE_LOG_REGISTER_DEFAULT(gaudi_logtype, NOTICE);

namespace {

/* Default ring sizes. RX 512: its slot ring (512 x 2 KB at MTU 1500) plus the allocator's
 * header stays inside one 2 MB page, so it is IOVA-contiguous even with IOVA as PA. */
constexpr uint16_t kDefaultRxRing = 512;
constexpr uint16_t kDefaultTxRing = 1024;
constexpr uint16_t kBurst = 32;

gaudi_port *priv(rte_eth_dev *dev) { return static_cast<gaudi_port *>(dev->data->dev_private); }

/* Queue 0 of a port, or null when the port has none (not configured, or not set up). */
gaudi_rxq *rxq_of(const rte_eth_dev *dev)
{
	if (dev->data->rx_queues == nullptr || dev->data->nb_rx_queues == 0)
		return nullptr;
	return static_cast<gaudi_rxq *>(dev->data->rx_queues[0]);
}

gaudi_txq *txq_of(const rte_eth_dev *dev)
{
	if (dev->data->tx_queues == nullptr || dev->data->nb_tx_queues == 0)
		return nullptr;
	return static_cast<gaudi_txq *>(dev->data->tx_queues[0]);
}

bool is_pow2(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

uint32_t log2u(uint32_t v) { return std::bit_width(v) - 1; }

/* Slot size for a max frame: power of two, at least 1 KB, at most 16 KB [facts §2]. */
uint32_t slot_log2_for(uint32_t max_frame)
{
	uint32_t l = std::bit_width(max_frame - 1);
	return std::clamp<uint32_t>(l, kRxSlotMinLog2, kRxSlotMaxLog2);
}

/* DMA memory of a port. Rings the device walks by index must be IOVA-contiguous; with IOVA
 * as PA and 2 MB pages that only holds within one page, so a ring up to 2 MB is aligned to
 * its own (power-of-two) size to sit in a single page. */
const rte_memzone *zone(const rte_eth_dev *dev, const char *what, uint16_t q, size_t len,
			int socket, unsigned flags = RTE_MEMZONE_IOVA_CONTIG, size_t align = kRingAlign)
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

size_t ring_align(size_t len)
{
	return std::clamp<size_t>(std::bit_ceil(len), kRingAlign, RTE_PGSIZE_2M);
}

/* ---- event queue ---- */

int port_mem_alloc(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	size_t eq_len = sizeof(Eqe) << kEqLog2;
	/* EQ, then the EQ PI shadow and the doorbell FIFO CI shadow, each 128-byte aligned. */
	const rte_memzone *mz = zone(dev, "eq", 0, eq_len + 2 * kRingAlign, dev->device->numa_node);
	if (mz == nullptr) {
		GAUDI_LOG(ERR, "port %u: cannot reserve event queue memory", dev->data->port_id);
		return -ENOMEM;
	}
	auto *base = static_cast<uint8_t *>(mz->addr);
	port->mem.mz = mz;
	port->mem.eq = reinterpret_cast<Eqe *>(base);
	port->mem.eq_pi = reinterpret_cast<volatile uint32_t *>(base + eq_len);
	port->mem.db_ci = reinterpret_cast<volatile uint32_t *>(base + eq_len + kRingAlign);
	return 0;
}

void port_eq_start(gaudi_port *port)
{
	const rte_memzone *mz = port->mem.mz;
	size_t eq_len = sizeof(Eqe) << kEqLog2;
	memset(port->mem.eq, 0, eq_len);
	*port->mem.eq_pi = 0;
	port->eq_ci = 0;
	port->hw.eq_init({mz->iova, kEqLog2, mz->iova + eq_len});
}

} // namespace

void gaudi_eq_poll(gaudi_port *port, gaudi_txq *txq)
{
	if (!rte_spinlock_trylock(&port->eq_lock))
		return;
	gaudi_eq_poll_locked(port, txq);
	rte_spinlock_unlock(&port->eq_lock);
}

void gaudi_eq_poll_locked(gaudi_port *port, gaudi_txq *txq)
{
	uint32_t pi = __atomic_load_n(port->mem.eq_pi, __ATOMIC_ACQUIRE);
	uint32_t ci = port->eq_ci;
	const uint32_t mask = (1u << kEqLog2) - 1;
	const uint32_t quarter = 1u << (kEqLog2 - 2);
	while (ci != pi) {
		Eqe *e = &port->mem.eq[ci & mask];
		uint32_t d0 = __atomic_load_n(&e->d0, __ATOMIC_ACQUIRE);
		if (!(d0 & EQE_VALID))
			break;
		switch (EqeType(d0 & EQE_TYPE_MASK)) {
		case EqeType::raw_tx_comp:
			if (txq != nullptr) /* d2: the ring index of the solicited WQE */
				gaudi_tx_complete(txq, gaudi_txq_unring(txq, e->d2));
			break;
		case EqeType::link_status:
			port->ev_link++;
			gaudi_rec_link_event(port, e->d2); /* [faults] */
			break;
		case EqeType::qp_err:
			port->ev_qp_err++;
			port->last_qp_syndrome = e->d2;
			port->qp_err_pending = true;
			break;
		case EqeType::db_fifo_overrun:
			port->ev_db_overrun++;
			gaudi_rec_db_overrun(port); /* [faults] ring again */
			break;
		case EqeType::comp_err:
			port->ev_cq_overrun++;
			gaudi_rec_cq_overrun(port); /* [faults] log, rate-limited */
			break;
		default:
			break;
		}
		e->d0 = 0; /* software clears the valid bit [regs gaudi2_cn_eq.c] */
		ci = (ci + 1) & EQ_IDX_MASK; /* the EQ indexes are 24 bits */
		/* The CI register is written every quarter ring, as the Linux driver does. */
		if ((ci & (quarter - 1)) == 0)
			port->hw.eq_write_ci(ci);
	}
	port->eq_ci = ci;
}

namespace {

/* Report QP errors once, from the control path (one clear log line each). */
void report_events(gaudi_port *port)
{
	if (port->qp_err_pending) {
		port->qp_err_pending = false;
		GAUDI_LOG(ERR, "port %u: raw QP error, syndrome 0x%02x (%" PRIu64 " so far)",
			  port->port_id, port->last_qp_syndrome, port->ev_qp_err);
	}
}

/* ---- ethdev ops ---- */

int dev_infos_get(rte_eth_dev *dev, rte_eth_dev_info *info)
{
	(void)dev;
	info->max_rx_queues = 1;
	info->max_tx_queues = 1;
	info->max_mac_addrs = kGaudiMaxMacAddrs;
	info->min_mtu = kMinMtu;
	info->max_mtu = kMaxMtu;
	info->max_rx_pktlen = kMaxMtu + kFrameOverhead;
	info->min_rx_bufsize = 64;
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_SCATTER;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	info->rx_desc_lim = {.nb_max = kRxRingMax, .nb_min = kRxRingMin, .nb_align = kRxRingMin};
	info->tx_desc_lim = {.nb_max = kTxRingMax, .nb_min = kTxRingMin, .nb_align = kTxRingMin,
			     .nb_seg_max = UINT16_MAX, .nb_mtu_seg_max = UINT16_MAX};
	info->default_rxportconf = {.burst_size = kBurst, .ring_size = kDefaultRxRing, .nb_queues = 1};
	info->default_txportconf = {.burst_size = kBurst, .ring_size = kDefaultTxRing, .nb_queues = 1};
	info->speed_capa = RTE_ETH_LINK_SPEED_100G;
	info->dev_capa = 0;
	return 0;
}

int dev_configure(rte_eth_dev *dev)
{
	const rte_eth_conf &conf = dev->data->dev_conf;
	if (conf.rxmode.mq_mode != RTE_ETH_MQ_RX_NONE) {
		GAUDI_LOG(ERR, "port %u: rx mq_mode %d not supported", dev->data->port_id,
			  conf.rxmode.mq_mode);
		return -ENOTSUP;
	}
	if (conf.link_speeds & ~(RTE_ETH_LINK_SPEED_FIXED | RTE_ETH_LINK_SPEED_100G)) {
		GAUDI_LOG(ERR, "port %u: only 100G link speed", dev->data->port_id);
		return -EINVAL;
	}
	/* lpbk_mode 1: MAC loopback at the PCS (CONTROL1.LOOPBACK) [facts §4]. */
	if (conf.lpbk_mode > 1) {
		GAUDI_LOG(ERR, "port %u: lpbk_mode %u: 0 (none) or 1 (PCS loopback)",
			  dev->data->port_id, conf.lpbk_mode);
		return -EINVAL;
	}
	return gaudi_intr_configure(dev);
}

void rxq_release(rte_eth_dev *dev, uint16_t qid)
{
	if (dev->data->rx_queues == nullptr || qid >= dev->data->nb_rx_queues)
		return;
	auto *rxq = static_cast<gaudi_rxq *>(dev->data->rx_queues[qid]);
	if (rxq == nullptr)
		return;
	rte_memzone_free(rxq->mz);
	rte_memzone_free(rxq->cq_mz);
	rte_free(rxq);
	dev->data->rx_queues[qid] = nullptr;
}

void txq_release(rte_eth_dev *dev, uint16_t qid)
{
	if (dev->data->tx_queues == nullptr || qid >= dev->data->nb_tx_queues)
		return;
	auto *txq = static_cast<gaudi_txq *>(dev->data->tx_queues[qid]);
	if (txq == nullptr)
		return;
	gaudi_tx_drain(txq);
	rte_memzone_free(txq->mz);
	rte_memzone_free(txq->bounce_mz);
	rte_free(txq->bounce_iova);
	rte_free(txq->sw_ring);
	rte_free(txq);
	dev->data->tx_queues[qid] = nullptr;
}

bool ring_size_ok(uint16_t nb, uint32_t lo, uint32_t hi)
{
	return is_pow2(nb) && nb >= lo && nb <= hi;
}

/* (Re)build RX ring memory for the port's current MTU. */
int rxq_alloc_ring(rte_eth_dev *dev, gaudi_rxq *rxq)
{
	uint32_t max_frame = gaudi_max_frame(dev->data->mtu);
	uint32_t slot_log2 = slot_log2_for(max_frame);
	size_t slots_len = static_cast<size_t>(rxq->nb_desc) << slot_log2;
	size_t cq_len = sizeof(Cqe) * rxq->nb_desc;
	int socket = dev->device->numa_node;
	/* Slot ring and CQ apart: each is walked by index, so each must be IOVA-contiguous. */
	const rte_memzone *mz = zone(dev, "rxs", rxq->queue_id, slots_len, socket,
				     RTE_MEMZONE_IOVA_CONTIG, ring_align(slots_len));
	const rte_memzone *cq_mz = zone(dev, "rxc", rxq->queue_id, cq_len + kRingAlign, socket,
					RTE_MEMZONE_IOVA_CONTIG, ring_align(cq_len + kRingAlign));
	if (mz == nullptr || cq_mz == nullptr) {
		GAUDI_LOG(ERR, "port %u: cannot reserve %zu IOVA-contiguous bytes for the rx slot "
			  "ring (%u x %u B): use a smaller ring (--rxd) or MTU, 1 GB pages or --iova-mode=va",
			  dev->data->port_id, slots_len, rxq->nb_desc, 1u << slot_log2);
		rte_memzone_free(mz);
		rte_memzone_free(cq_mz);
		rxq->mz = rxq->cq_mz = nullptr; /* zone() freed the old ones by name */
		return -ENOMEM;
	}
	rxq->mz = mz;
	rxq->cq_mz = cq_mz;
	rxq->slots = static_cast<uint8_t *>(mz->addr);
	rxq->cq = static_cast<Cqe *>(cq_mz->addr);
	rxq->cq_pi = reinterpret_cast<volatile uint32_t *>(static_cast<uint8_t *>(cq_mz->addr) +
							   cq_len);
	rxq->slot_log2 = slot_log2;
	rxq->max_frame = max_frame;
	return 0;
}

int rx_queue_setup(rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc, unsigned int socket,
		   const rte_eth_rxconf *conf, rte_mempool *mp)
{
	(void)socket;
	if (!ring_size_ok(nb_desc, kRxRingMin, kRxRingMax)) {
		GAUDI_LOG(ERR, "port %u: rx ring size %u: must be a power of two in %u..%u",
			  dev->data->port_id, nb_desc, kRxRingMin, kRxRingMax);
		return -EINVAL;
	}
	uint64_t offloads = conf->offloads | dev->data->dev_conf.rxmode.offloads;
	bool scatter = offloads & RTE_ETH_RX_OFFLOAD_SCATTER;
	uint32_t buf = rte_pktmbuf_data_room_size(mp) - RTE_PKTMBUF_HEADROOM;
	if (!scatter && gaudi_max_frame(dev->data->mtu) > buf) {
		GAUDI_LOG(ERR, "port %u: mbuf data room %u < max frame %u and scattered rx is off",
			  dev->data->port_id, buf, gaudi_max_frame(dev->data->mtu));
		return -EINVAL;
	}
	rxq_release(dev, qid);
	auto *rxq = static_cast<gaudi_rxq *>(
		rte_zmalloc_socket("gaudi_rxq", sizeof(gaudi_rxq), RTE_CACHE_LINE_SIZE,
				   dev->device->numa_node));
	if (rxq == nullptr)
		return -ENOMEM;
	rxq->nb_desc = nb_desc;
	rxq->mask = nb_desc - 1;
	rxq->mp = mp;
	rxq->port = priv(dev);
	rxq->queue_id = qid;
	rxq->scatter = scatter;
	rxq->deferred = conf->rx_deferred_start != 0;
	int rc = rxq_alloc_ring(dev, rxq);
	if (rc != 0) {
		rte_free(rxq);
		return rc;
	}
	dev->data->rx_queues[qid] = rxq;
	return 0;
}

/* Bounce slots for frames the WQE cannot point at (multi-segment, or short and needing
 * padding), one per WQ slot, sized for the port's current MTU. A slot is a power of two
 * aligned to its size, so it never crosses a page and needs no IOVA-contiguous zone: each
 * slot's IOVA is looked up once here. */
int txq_alloc_bounce(rte_eth_dev *dev, gaudi_txq *txq)
{
	uint32_t stride = std::bit_ceil(std::max<uint32_t>(gaudi_max_frame(dev->data->mtu), 64));
	size_t len = static_cast<size_t>(stride) * txq->nb_desc;
	const rte_memzone *mz = zone(dev, "txb", txq->queue_id, len, dev->device->numa_node, 0,
				     stride);
	auto *iova = static_cast<uint64_t *>(rte_zmalloc_socket(
		"gaudi_txb_iova", sizeof(uint64_t) * txq->nb_desc, RTE_CACHE_LINE_SIZE,
		dev->device->numa_node));
	if (mz == nullptr || iova == nullptr) {
		GAUDI_LOG(ERR, "port %u: cannot reserve %zu bytes of tx bounce buffers",
			  dev->data->port_id, len);
		rte_memzone_free(mz);
		rte_free(iova);
		txq->bounce_mz = nullptr; /* zone() freed the old one by name */
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < txq->nb_desc; i++)
		iova[i] = rte_mem_virt2iova(static_cast<uint8_t *>(mz->addr) + size_t(i) * stride);
	rte_free(txq->bounce_iova);
	txq->bounce_mz = mz;
	txq->bounce = static_cast<uint8_t *>(mz->addr);
	txq->bounce_iova = iova;
	txq->bounce_stride = stride;
	return 0;
}

int tx_queue_setup(rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc, unsigned int socket,
		   const rte_eth_txconf *conf)
{
	(void)socket;
	if (!ring_size_ok(nb_desc, kTxRingMin, kTxRingMax)) {
		GAUDI_LOG(ERR, "port %u: tx ring size %u: must be a power of two in %u..%u",
			  dev->data->port_id, nb_desc, kTxRingMin, kTxRingMax);
		return -EINVAL;
	}
	txq_release(dev, qid);
	auto *txq = static_cast<gaudi_txq *>(rte_zmalloc_socket(
		"gaudi_txq", sizeof(gaudi_txq), RTE_CACHE_LINE_SIZE, dev->device->numa_node));
	if (txq == nullptr)
		return -ENOMEM;
	txq->sw_ring = static_cast<rte_mbuf **>(rte_zmalloc_socket(
		"gaudi_txq_sw", sizeof(rte_mbuf *) * nb_desc, RTE_CACHE_LINE_SIZE,
		dev->device->numa_node));
	size_t wq_len = sizeof(TxWqe) * nb_desc;
	const rte_memzone *mz =
		txq->sw_ring == nullptr
			? nullptr
			: zone(dev, "txq", qid, wq_len, dev->device->numa_node,
			       RTE_MEMZONE_IOVA_CONTIG, ring_align(wq_len));
	if (mz == nullptr) {
		GAUDI_LOG(ERR, "port %u: cannot reserve tx ring memory", dev->data->port_id);
		rte_free(txq->sw_ring);
		rte_free(txq);
		return -ENOMEM;
	}
	txq->mz = mz;
	txq->wq = static_cast<TxWqe *>(mz->addr);
	txq->nb_desc = nb_desc;
	int rc = txq_alloc_bounce(dev, txq);
	if (rc != 0) {
		rte_memzone_free(mz);
		rte_free(txq->sw_ring);
		rte_free(txq);
		return rc;
	}
	txq->mask = nb_desc - 1;
	txq->port = priv(dev);
	txq->queue_id = qid;
	txq->max_frame = gaudi_max_frame(dev->data->mtu);
	txq->deferred = conf->tx_deferred_start != 0;
	dev->data->tx_queues[qid] = txq;
	return 0;
}

int link_update(rte_eth_dev *dev, int wait)
{
	(void)wait;
	/* A secondary reports the link the primary published in dev->data->dev_link: the event
	 * queue and the link registers' owner is the primary. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	gaudi_port *port = priv(dev);
	/* While started, the TX datapath owns the event queue (it completes TX from it): the
	 * started check is made under the EQ lock, which dev_start takes to set it. */
	rte_spinlock_lock(&port->eq_lock);
	if (!port->started)
		gaudi_eq_poll_locked(port, nullptr);
	rte_spinlock_unlock(&port->eq_lock);
	report_events(port);
	rte_eth_link link = gaudi_link_get(port);
	return rte_eth_linkstatus_set(dev, &link);
}

/* (Re)start the raw RX path of queue 0: empty CQ, responder QPC valid. */
int rxq_hw_start(rte_eth_dev *dev, gaudi_rxq *rxq)
{
	gaudi_port *port = priv(dev);
	memset(rxq->cq, 0, sizeof(Cqe) * rxq->nb_desc);
	*rxq->cq_pi = 0;
	rxq->ci = 0;
	size_t cq_len = sizeof(Cqe) * rxq->nb_desc;
	RxRingCfg rcfg{rxq->mz->iova, rxq->slot_log2, log2u(rxq->nb_desc), rxq->cq_mz->iova,
		       rxq->cq_mz->iova + cq_len};
	if (!port->hw.rx_init(rcfg))
		return -EIO;
	rxq->started = true;
	dev->data->rx_queue_state[rxq->queue_id] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

void rxq_hw_stop(rte_eth_dev *dev, gaudi_rxq *rxq)
{
	rxq->started = false;
	priv(dev)->hw.rx_disable();
	dev->data->rx_queue_state[rxq->queue_id] = RTE_ETH_QUEUE_STATE_STOPPED;
}

/* (Re)start the raw TX QP: WQ from index 0, requester QPC valid. */
int txq_hw_start(rte_eth_dev *dev, gaudi_txq *txq)
{
	gaudi_port *port = priv(dev);
	TxRingCfg tcfg{txq->mz->iova, log2u(txq->nb_desc),
		       port->mem.mz->iova + (sizeof(Eqe) << kEqLog2) + kRingAlign,
		       dev->data->mtu};
	txq->pi = txq->ci = 0;
	if (!port->hw.tx_init(tcfg))
		return -EIO;
	/* Software cannot reset the doorbell FIFO's CI: push dummies until it wraps to 63, as
	 * gaudi2_cn.c db_fifo_reset does, then count doorbells from there. */
	if (!port->hw.db_fifo_align(port->mem.db_ci)) {
		GAUDI_LOG(ERR, "port %u: doorbell FIFO CI did not reach 63 (reads %u)",
			  dev->data->port_id, *port->mem.db_ci);
		return -EIO;
	}
	port->db_pushed = 0;
	txq->started = true;
	dev->data->tx_queue_state[txq->queue_id] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

/* Stop the raw TX QP: let the device finish what it was given (bounded wait), reap the
 * completions, invalidate the QPC, return every mbuf still on the ring. */
void txq_hw_stop(rte_eth_dev *dev, gaudi_txq *txq)
{
	gaudi_port *port = priv(dev);
	txq->started = false;
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 10; /* 100 ms */
	while (gaudi_db_outstanding(port) != 0 && rte_get_timer_cycles() < end) {
		port->hw.bar()->service();
		rte_pause();
	}
	gaudi_eq_poll(port, txq);
	port->hw.tx_disable();
	gaudi_tx_drain(txq); /* WQEs never completed: their mbufs go back to the pool */
	dev->data->tx_queue_state[txq->queue_id] = RTE_ETH_QUEUE_STATE_STOPPED;
}

int rx_queue_start(rte_eth_dev *dev, uint16_t qid)
{
	auto *rxq = static_cast<gaudi_rxq *>(dev->data->rx_queues[qid]);
	if (rxq == nullptr)
		return -EINVAL;
	if (rxq->max_frame != gaudi_max_frame(dev->data->mtu))
		return -EINVAL; /* MTU changed while stopped: the slots need the port restarted */
	return rxq_hw_start(dev, rxq);
}

int rx_queue_stop(rte_eth_dev *dev, uint16_t qid)
{
	auto *rxq = static_cast<gaudi_rxq *>(dev->data->rx_queues[qid]);
	if (rxq == nullptr)
		return -EINVAL;
	rxq_hw_stop(dev, rxq);
	return 0;
}

int tx_queue_start(rte_eth_dev *dev, uint16_t qid)
{
	auto *txq = static_cast<gaudi_txq *>(dev->data->tx_queues[qid]);
	if (txq == nullptr)
		return -EINVAL;
	return txq_hw_start(dev, txq);
}

int tx_queue_stop(rte_eth_dev *dev, uint16_t qid)
{
	auto *txq = static_cast<gaudi_txq *>(dev->data->tx_queues[qid]);
	if (txq == nullptr)
		return -EINVAL;
	txq_hw_stop(dev, txq);
	return 0;
}

int dev_start(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	auto *rxq = rxq_of(dev);
	auto *txq = txq_of(dev);
	if (rxq == nullptr || txq == nullptr) {
		GAUDI_LOG(ERR, "port %u: start needs rx and tx queue 0 set up", dev->data->port_id);
		return -EINVAL;
	}
	uint32_t max_frame = gaudi_max_frame(dev->data->mtu);
	if (rxq->max_frame != max_frame) { /* MTU changed since setup */
		int rc = rxq_alloc_ring(dev, rxq);
		if (rc != 0)
			return rc;
	}
	if (txq->bounce_stride < max_frame) { /* MTU raised since setup */
		int rc = txq_alloc_bounce(dev, txq);
		if (rc != 0)
			return rc;
	}
	txq->max_frame = max_frame;
	uint32_t room = rte_pktmbuf_data_room_size(rxq->mp) - RTE_PKTMBUF_HEADROOM;
	if (!rxq->scatter && max_frame > room) {
		GAUDI_LOG(ERR, "port %u: MTU %u needs %u-byte mbufs or scattered rx (room %u)",
			  dev->data->port_id, dev->data->mtu, max_frame, room);
		return -EINVAL;
	}

	rte_spinlock_lock(&port->eq_lock);
	port_eq_start(port);
	rte_spinlock_unlock(&port->eq_lock);

	rxq->started = txq->started = false;
	dev->data->rx_queue_state[0] = RTE_ETH_QUEUE_STATE_STOPPED;
	dev->data->tx_queue_state[0] = RTE_ETH_QUEUE_STATE_STOPPED;
	int rc = 0;
	if (!rxq->deferred)
		rc = rxq_hw_start(dev, rxq);
	if (rc == 0 && !txq->deferred)
		rc = txq_hw_start(dev, txq);
	if (rc != 0) {
		GAUDI_LOG(ERR, "port %u: QPC gateway did not answer", dev->data->port_id);
		return rc;
	}
	port->hw.set_mac_addr(dev->data->mac_addrs[0].addr_bytes);
	gaudi_mac_filters_restore(dev);
	port->hw.set_loopback(dev->data->dev_conf.lpbk_mode == 1);
	gaudi_intr_start(dev);
	rte_spinlock_lock(&port->eq_lock);
	port->started = true;
	rte_spinlock_unlock(&port->eq_lock);
	gaudi_rec_start(dev); /* [faults] TX watchdog */
	port->hw.mac_config(true);
	link_update(dev, 0);
	return 0;
}

int dev_stop(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	if (!port->started)
		return 0;
	gaudi_rec_stop(dev); /* [faults] */
	port->hw.mac_config(false);
	gaudi_intr_stop(dev);
	if (auto *rxq = rxq_of(dev))
		rxq_hw_stop(dev, rxq);
	auto *txq = txq_of(dev);
	if (txq != nullptr && txq->started)
		txq_hw_stop(dev, txq);
	rte_spinlock_lock(&port->eq_lock);
	gaudi_eq_poll_locked(port, txq);
	port->hw.eq_disable();
	port->started = false;
	rte_spinlock_unlock(&port->eq_lock);
	if (txq != nullptr)
		gaudi_tx_drain(txq);
	if (port->adapter->emu)
		port->adapter->emu->flush();
	dev->data->rx_queue_state[0] = RTE_ETH_QUEUE_STATE_STOPPED;
	dev->data->tx_queue_state[0] = RTE_ETH_QUEUE_STATE_STOPPED;
	link_update(dev, 0);
	return 0;
}

void adapter_put(gaudi_adapter *ad)
{
	if (--ad->open_ports == 0)
		delete ad;
}

int dev_close(rte_eth_dev *dev)
{
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		/* Secondary: release what this process made; the port lives on in the primary. */
		auto *pp = static_cast<gaudi_proc *>(dev->process_private);
		dev->process_private = nullptr;
		if (pp != nullptr) {
			adapter_put(pp->adapter);
			delete pp;
		}
		return 0;
	}
	gaudi_port *port = priv(dev);
	dev_stop(dev);
	gaudi_intr_uninit(dev);
	port->adapter->eth_port[port->hw.id()] = UINT16_MAX;
	rxq_release(dev, 0);
	txq_release(dev, 0);
	rte_memzone_free(port->mem.mz);
	port->mem.mz = nullptr;
	gaudi_adapter *ad = port->adapter;
	port->adapter = nullptr;
	dev->data->mac_addrs = nullptr; /* freed with dev_private by the release below */
	adapter_put(ad);
	return 0;
}

int promisc_enable(rte_eth_dev *dev)
{
	priv(dev)->promisc = true;
	gaudi_rx_filter_apply(priv(dev));
	return 0;
}

int promisc_disable(rte_eth_dev *dev)
{
	priv(dev)->promisc = false;
	gaudi_rx_filter_apply(priv(dev));
	return 0;
}

int allmulti_enable(rte_eth_dev *dev)
{
	priv(dev)->allmulti = true;
	gaudi_rx_filter_apply(priv(dev));
	return 0;
}

int allmulti_disable(rte_eth_dev *dev)
{
	priv(dev)->allmulti = false;
	gaudi_rx_filter_apply(priv(dev));
	return 0;
}

int mac_addr_set(rte_eth_dev *dev, rte_ether_addr *addr)
{
	if (!rte_is_valid_assigned_ether_addr(addr)) {
		GAUDI_LOG(ERR, "port %u: MAC address must be unicast and non-zero",
			  dev->data->port_id);
		return -EINVAL;
	}
	priv(dev)->hw.set_mac_addr(addr->addr_bytes);
	return 0;
}

int mtu_set(rte_eth_dev *dev, uint16_t mtu)
{
	if (mtu < kMinMtu || mtu > kMaxMtu)
		return -EINVAL;
	gaudi_port *port = priv(dev);
	auto *rxq = rxq_of(dev);
	if (port->started) {
		/* A running port keeps its RX slots: the new frame must fit them. */
		if (rxq != nullptr && gaudi_max_frame(mtu) > (1u << rxq->slot_log2)) {
			GAUDI_LOG(ERR, "port %u: MTU %u needs larger rx slots: stop the port first",
				  dev->data->port_id, mtu);
			return -EBUSY;
		}
		if (rxq != nullptr && !rxq->scatter &&
		    gaudi_max_frame(mtu) >
			    uint32_t(rte_pktmbuf_data_room_size(rxq->mp) - RTE_PKTMBUF_HEADROOM))
			return -EINVAL;
		/* The MAC takes NIC_MAC_MAX_FRM_LEN always; the MTU is enforced by rx_burst, as
		 * hbl_en does (max_frm_len). */
		if (rxq != nullptr)
			rxq->max_frame = gaudi_max_frame(mtu);
		auto *txq = txq_of(dev);
		if (txq != nullptr && gaudi_max_frame(mtu) > txq->bounce_stride) {
			GAUDI_LOG(ERR, "port %u: MTU %u needs larger tx bounce buffers: stop the "
				  "port first", dev->data->port_id, mtu);
			return -EBUSY;
		}
		if (txq != nullptr)
			txq->max_frame = gaudi_max_frame(mtu);
	}
	return 0;
}

int stats_get(rte_eth_dev *dev, rte_eth_stats *st)
{
	const Port &hw = gaudi_hw(dev); /* secondary-safe: queue counters are shared memory */
	auto *rxq = rxq_of(dev);
	auto *txq = txq_of(dev);
	if (rxq != nullptr) {
		st->ipackets = st->q_ipackets[0] = rxq->packets;
		st->ibytes = st->q_ibytes[0] = rxq->bytes;
		st->ierrors = st->q_errors[0] = rxq->errors;
	}
	if (txq != nullptr) {
		st->opackets = st->q_opackets[0] = txq->packets;
		st->obytes = st->q_obytes[0] = txq->bytes;
		st->oerrors = txq->errors;
	}
	/* Frames the MAC refused: too long, runts, FCS, and other receive errors. */
	st->ierrors += hw.rx_stat(RxStat::frame_too_long_errors) +
		       hw.rx_stat(RxStat::ether_stats_undersize_pkts) +
		       hw.rx_stat(RxStat::frame_check_sequence_errors) +
		       hw.rx_stat(RxStat::if_in_errors);
	/* Frames the RX path had no room for (CQ full). */
	st->imissed = hw.rx_stat(RxStat::ether_stats_drop_events);
	st->oerrors += hw.tx_stat(TxStat::if_out_errors);
	return 0;
}

int stats_reset(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	if (auto *rxq = rxq_of(dev)) {
		rxq->packets = rxq->bytes = rxq->errors = rxq->cqe_not_valid = rxq->filtered = 0;
	}
	if (auto *txq = txq_of(dev)) {
		txq->packets = txq->bytes = txq->errors = txq->db_busy = 0;
	}
	port->hw.stats_reset();
	return 0;
}

void rxq_info_get(rte_eth_dev *dev, uint16_t qid, rte_eth_rxq_info *qinfo)
{
	auto *rxq = static_cast<const gaudi_rxq *>(dev->data->rx_queues[qid]);
	qinfo->mp = rxq->mp;
	qinfo->scattered_rx = rxq->scatter;
	qinfo->nb_desc = rxq->nb_desc;
	qinfo->rx_buf_size = rte_pktmbuf_data_room_size(rxq->mp) - RTE_PKTMBUF_HEADROOM;
	qinfo->conf.rx_deferred_start = rxq->deferred;
	qinfo->conf.offloads = rxq->scatter ? RTE_ETH_RX_OFFLOAD_SCATTER : 0;
	qinfo->queue_state = dev->data->rx_queue_state[qid];
}

void txq_info_get(rte_eth_dev *dev, uint16_t qid, rte_eth_txq_info *qinfo)
{
	auto *txq = static_cast<const gaudi_txq *>(dev->data->tx_queues[qid]);
	qinfo->nb_desc = txq->nb_desc;
	qinfo->conf.tx_deferred_start = txq->deferred;
	qinfo->conf.offloads = dev->data->dev_conf.txmode.offloads;
	qinfo->queue_state = dev->data->tx_queue_state[qid];
}

int dev_reset(rte_eth_dev *dev);

const eth_dev_ops gaudi_ops = {
	.dev_configure = dev_configure,
	.dev_start = dev_start,
	.dev_stop = dev_stop,
	.dev_set_link_up = gaudi_dev_set_link_up,
	.dev_set_link_down = gaudi_dev_set_link_down,
	.dev_close = dev_close,
	.dev_reset = dev_reset,
	.link_update = link_update,
	.promiscuous_enable = promisc_enable,
	.promiscuous_disable = promisc_disable,
	.allmulticast_enable = allmulti_enable,
	.allmulticast_disable = allmulti_disable,
	.mac_addr_remove = gaudi_mac_addr_remove,
	.mac_addr_add = gaudi_mac_addr_add,
	.mac_addr_set = mac_addr_set,
	.set_mc_addr_list = gaudi_set_mc_addr_list,
	.mtu_set = mtu_set,
	.stats_get = stats_get,
	.stats_reset = stats_reset,
	.xstats_get = gaudi_xstats_get,
	.xstats_reset = gaudi_xstats_reset,
	.xstats_get_names = gaudi_xstats_get_names,
	.dev_infos_get = dev_infos_get,
	.rxq_info_get = rxq_info_get,
	.txq_info_get = txq_info_get,
	.rx_burst_mode_get = gaudi_burst_mode_get,
	.tx_burst_mode_get = gaudi_burst_mode_get,
	.fw_version_get = gaudi_fw_version_get,
	.dev_supported_ptypes_get = gaudi_ptypes_get,
	.rx_queue_start = rx_queue_start,
	.rx_queue_stop = rx_queue_stop,
	.tx_queue_start = tx_queue_start,
	.tx_queue_stop = tx_queue_stop,
	.rx_queue_setup = rx_queue_setup,
	.rx_queue_release = rxq_release,
	.rx_queue_intr_enable = gaudi_rx_queue_intr_enable,
	.rx_queue_intr_disable = gaudi_rx_queue_intr_disable,
	.tx_queue_setup = tx_queue_setup,
	.tx_queue_release = txq_release,
	.flow_ctrl_get = gaudi_flow_ctrl_get,
	.flow_ctrl_set = gaudi_flow_ctrl_set,
	.priority_flow_ctrl_set = gaudi_priority_flow_ctrl_set,
	.get_reg = gaudi_get_reg,
	.get_module_info = gaudi_get_module_info,
	.get_module_eeprom = gaudi_get_module_eeprom,
	.fec_get_capability = gaudi_fec_get_capability,
	.fec_get = gaudi_fec_get,
	.fec_set = gaudi_fec_set,
};

/* ---- secondary processes ---- */

/* An op that changes the device, called in a secondary: refused with a log line. The device
 * and its model belong to the primary. */
template <size_t N>
struct OpName {
	char s[N];
	constexpr OpName(const char (&a)[N]) { std::copy_n(a, N, s); }
};
template <auto Op, OpName Name>
struct Refuse;
template <typename R, typename... A, R (*Op)(rte_eth_dev *, A...), OpName Name>
struct Refuse<Op, Name> {
	static R fn(rte_eth_dev *dev, A...)
	{
		GAUDI_LOG(NOTICE, "port %u: %s refused in a secondary process: only the primary "
			  "may change the device", dev->data->port_id, Name.s);
		if constexpr (!std::is_void_v<R>)
			return -E_RTE_SECONDARY;
	}
};
#define GAUDI_REFUSE(op) Refuse<op, #op>::fn

/* What a secondary (dpdk-proc-info, dpdk-dumpcap, dpdk-pdump, ...) may call: queries that
 * read shared memory (dev->data, the queues, dev_private's event counters) or the registers
 * through its read-only view (gaudi_hw). Ops not listed here are absent: ethdev answers
 * -ENOTSUP. */
eth_dev_ops make_secondary_ops()
{
	eth_dev_ops o{};
	o.dev_infos_get = dev_infos_get;
	o.dev_close = dev_close;
	o.link_update = link_update;
	o.stats_get = stats_get;
	o.xstats_get = gaudi_xstats_get;
	o.xstats_get_names = gaudi_xstats_get_names;
	o.fw_version_get = gaudi_fw_version_get;
	o.dev_supported_ptypes_get = gaudi_ptypes_get;
	o.rx_burst_mode_get = gaudi_burst_mode_get;
	o.tx_burst_mode_get = gaudi_burst_mode_get;
	o.rxq_info_get = rxq_info_get;
	o.txq_info_get = txq_info_get;
	o.flow_ctrl_get = gaudi_flow_ctrl_get;
	o.get_reg = gaudi_get_reg;
	o.get_module_info = gaudi_get_module_info;
	o.get_module_eeprom = gaudi_get_module_eeprom;
	o.fec_get_capability = gaudi_fec_get_capability;
	o.fec_get = gaudi_fec_get;
	/* Refused with a reason. */
	o.dev_configure = GAUDI_REFUSE(dev_configure);
	o.dev_start = GAUDI_REFUSE(dev_start);
	o.dev_stop = GAUDI_REFUSE(dev_stop);
	o.dev_reset = GAUDI_REFUSE(dev_reset);
	o.dev_set_link_up = GAUDI_REFUSE(gaudi_dev_set_link_up);
	o.dev_set_link_down = GAUDI_REFUSE(gaudi_dev_set_link_down);
	o.promiscuous_enable = GAUDI_REFUSE(promisc_enable);
	o.promiscuous_disable = GAUDI_REFUSE(promisc_disable);
	o.allmulticast_enable = GAUDI_REFUSE(allmulti_enable);
	o.allmulticast_disable = GAUDI_REFUSE(allmulti_disable);
	o.mac_addr_add = GAUDI_REFUSE(gaudi_mac_addr_add);
	o.mac_addr_remove = GAUDI_REFUSE(gaudi_mac_addr_remove);
	o.mac_addr_set = GAUDI_REFUSE(mac_addr_set);
	o.set_mc_addr_list = GAUDI_REFUSE(gaudi_set_mc_addr_list);
	o.mtu_set = GAUDI_REFUSE(mtu_set);
	o.stats_reset = GAUDI_REFUSE(stats_reset);
	o.xstats_reset = GAUDI_REFUSE(gaudi_xstats_reset);
	o.rx_queue_setup = GAUDI_REFUSE(rx_queue_setup);
	o.tx_queue_setup = GAUDI_REFUSE(tx_queue_setup);
	o.rx_queue_start = GAUDI_REFUSE(rx_queue_start);
	o.rx_queue_stop = GAUDI_REFUSE(rx_queue_stop);
	o.tx_queue_start = GAUDI_REFUSE(tx_queue_start);
	o.tx_queue_stop = GAUDI_REFUSE(tx_queue_stop);
	o.flow_ctrl_set = GAUDI_REFUSE(gaudi_flow_ctrl_set);
	o.priority_flow_ctrl_set = GAUDI_REFUSE(gaudi_priority_flow_ctrl_set);
	o.fec_set = GAUDI_REFUSE(gaudi_fec_set);
	return o;
}
const eth_dev_ops gaudi_secondary_ops = make_secondary_ops();

/* Secondary probe: attach to the ports the primary created ("<nic>_p<N>"). The datapath
 * stays in the primary (the model's engine and the queues' consumer state live there), so the
 * burst functions are dummies; pdump and dumpcap capture through callbacks in the primary. */
int attach_ports(rte_device *device, gaudi_adapter *ad)
{
	int attached = 0;
	for (unsigned p = 0; p < ad->nports; p++) {
		char name[RTE_ETH_NAME_MAX_LEN];
		snprintf(name, sizeof(name), "%s_p%u", ad->name, p);
		rte_eth_dev *dev = rte_eth_dev_attach_secondary(name);
		if (dev == nullptr)
			continue; /* closed in the primary (or never created there) */
		auto *pp = new (std::nothrow) gaudi_proc{ad, Port(&ad->bar, p)};
		if (pp == nullptr) {
			rte_eth_dev_release_port(dev);
			return -ENOMEM;
		}
		dev->process_private = pp;
		dev->device = device;
		dev->dev_ops = &gaudi_secondary_ops;
		dev->rx_pkt_burst = rte_eth_pkt_burst_dummy;
		dev->tx_pkt_burst = rte_eth_pkt_burst_dummy;
		ad->open_ports++;
		attached++;
		rte_eth_dev_probing_finish(dev);
	}
	if (attached == 0) {
		GAUDI_LOG(ERR, "%s: secondary process: the primary has no ports of this device",
			  ad->name);
		return -ENODEV;
	}
	GAUDI_LOG(INFO, "%s: secondary process attached to %d ports (read-only, no datapath)",
		  ad->name, attached);
	return 0;
}

/* Bring a port to its just-probed state: queues released, MAC off, counters cleared. */
int port_hw_init(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	/* Power-up (and a hard reset) leave interrupts and RX enabled: quiesce first, as
	 * habanalabs does [gaudi2_cn.c gaudi2_nic_quiescence]. */
	port->hw.quiesce();
	port->hw.mac_config(false);
	port->hw.set_loopback(false);
	port->hw.set_rs_fec(true); /* 100G default: RS-FEC (clause 91) */
	gaudi_flow_defaults(port);
	port->hw.stats_reset();
	port->promisc = false;
	port->allmulti = false;
	port->n_uc = port->n_mc = 0;
	gaudi_rx_filter_apply(port);
	dev->data->promiscuous = 0;
	dev->data->all_multicast = 0;
	return 0;
}

/* The hardware goes back to its probed state; the ethdev-level settings the application
 * made (promiscuous, all-multicast, MAC addresses in dev->data) stay, and ethdev replays
 * them on the next start, as it does after any stop. */
int dev_reset(rte_eth_dev *dev)
{
	dev_stop(dev);
	rxq_release(dev, 0);
	txq_release(dev, 0);
	uint8_t promisc = dev->data->promiscuous, allmulti = dev->data->all_multicast;
	int rc = port_hw_init(dev);
	dev->data->promiscuous = promisc;
	dev->data->all_multicast = allmulti;
	return rc;
}

/* Create the ethdev of hardware port hw_port of an adapter. */
int port_create(gaudi_adapter *ad, rte_device *device, unsigned hw_port, const uint8_t mac[6])
{
	char name[RTE_ETH_NAME_MAX_LEN];
	snprintf(name, sizeof(name), "%s_p%u", ad->name, hw_port);
	rte_eth_dev *dev = rte_eth_dev_allocate(name);
	if (dev == nullptr) {
		GAUDI_LOG(ERR, "%s: cannot allocate ethdev", name);
		return -ENOMEM;
	}
	/* Private data and the MAC address live in DPDK memory (shared with secondaries). */
	auto *port = static_cast<gaudi_port *>(rte_zmalloc_socket(
		name, sizeof(gaudi_port) + kGaudiMaxMacAddrs * sizeof(rte_ether_addr),
		RTE_CACHE_LINE_SIZE, device->numa_node));
	if (port == nullptr) {
		rte_eth_dev_release_port(dev);
		return -ENOMEM;
	}
	dev->data->dev_private = port;
	dev->device = device;
	dev->dev_ops = &gaudi_ops;
	dev->rx_pkt_burst = gaudi_rx_burst;
	dev->tx_pkt_burst = gaudi_tx_burst;
	dev->rx_queue_count = gaudi_rx_queue_count;
	dev->rx_descriptor_status = gaudi_rx_descriptor_status;
	dev->tx_descriptor_status = gaudi_tx_descriptor_status;
	dev->data->mac_addrs = reinterpret_cast<rte_ether_addr *>(port + 1);
	memcpy(dev->data->mac_addrs[0].addr_bytes, mac, RTE_ETHER_ADDR_LEN);
	dev->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS;
	dev->data->mtu = RTE_ETHER_MTU;

	port->adapter = ad;
	port->hw = Port(&ad->bar, hw_port);
	port->port_id = dev->data->port_id;
	ad->eth_port[hw_port] = dev->data->port_id;
	rte_spinlock_init(&port->eq_lock);
	int rc = port_mem_alloc(dev);
	if (rc != 0) {
		dev->data->mac_addrs = nullptr;
		rte_eth_dev_release_port(dev);
		return rc;
	}
	port_hw_init(dev);
	gaudi_rec_init(port, ad->tx_watchdog_ms); /* [faults] */
	rc = gaudi_intr_init(dev);
	if (rc != 0) {
		rte_memzone_free(port->mem.mz);
		dev->data->mac_addrs = nullptr;
		rte_eth_dev_release_port(dev);
		return rc;
	}
	ad->open_ports++;
	rte_eth_dev_probing_finish(dev);
	GAUDI_LOG(INFO, "%s: port %u, MAC " RTE_ETHER_ADDR_PRT_FMT, name, dev->data->port_id,
		  RTE_ETHER_ADDR_BYTES(&dev->data->mac_addrs[0]));
	return 0;
}

/* Close every ethdev of a device (remove, or a failed probe). */
int remove_ports(rte_device *device)
{
	uint16_t pid;
	RTE_ETH_FOREACH_DEV_OF(pid, device)
	{
		/* ethdev refuses to close a started port; a secondary only lets go of its own
		 * attachment (the port runs on in the primary). */
		if (rte_eal_process_type() == RTE_PROC_PRIMARY)
			rte_eth_dev_stop(pid);
		rte_eth_dev_close(pid);
	}
	return 0;
}

/* ---- net_gaudi_emu devargs ---- */

constexpr const char *kArgPorts = "ports";
constexpr const char *kArgWire = "wire";
constexpr const char *kArgRxPcap = "rx_pcap";
constexpr const char *kArgTxPcap = "tx_pcap";
constexpr const char *kArgEngine = "engine";
constexpr const char *kArgTapName = "tap_name";     /* [wires tap/udp] */
constexpr const char *kArgUdpLocal = "udp_local";   /* [wires tap/udp] */
constexpr const char *kArgUdpRemote = "udp_remote"; /* [wires tap/udp] */
constexpr const char *kArgStrict = "strict"; /* the model's published-map check */
constexpr const char *kArgWireDelay = "wire_delay_us"; /* [wire delay] loopback/pair cable */
constexpr const char *kValidArgs[] = {kArgPorts,   kArgWire,     kArgRxPcap,
				      kArgTxPcap,  kArgEngine,   kArgTapName,
				      kArgUdpLocal, kArgUdpRemote, kArgStrict, kArgWireDelay};

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
	if ((tap && num.empty()) || (!num.empty() && !parse_uint(num.c_str(), 0, cfg->nports - 1, &p))) {
		*err = "devarg " + kvs + ": must be " + (tap ? "PORT:NAME" : "[PORT:]IP:UDPPORT") +
		       " with PORT < ports (" + std::to_string(cfg->nports) + ")";
		return false;
	}
	auto &slot = tap ? cfg->tap_name[p]
		     : strcmp(k, kArgUdpLocal) == 0 ? cfg->udp_local[p] : cfg->udp_remote[p];
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

/* Parse devargs into a model configuration; on error returns false with a reason that names
 * the devarg. */
bool parse_devargs(const char *args, emu::Config *cfg, std::string *err)
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
		if (strcmp(k, kArgPorts) == 0 &&
		    !parse_uint(v, 1, kMaxPorts, &cfg->nports)) {
			*err = std::string("devarg ports=") + (v ? v : "") + ": must be 1.." +
			       std::to_string(kMaxPorts);
			ok = false;
		}
	}
	/* A single-valued devarg given twice is a mistake, not a silent override. */
	for (unsigned i = 0; ok && i < kv->count; i++)
		for (const char *single :
		     {kArgPorts, kArgWire, kArgEngine, kArgStrict, kArgWireDelay})
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
		} else if (std::find_if(std::begin(kValidArgs), std::end(kValidArgs), [&](const char *a) {
			    return strcmp(a, k) == 0;
		    }) == std::end(kValidArgs)) {
			*err = std::string("unknown devarg '") + k +
			       "' (valid: ports, wire, rx_pcap, tx_pcap, engine, tap_name, udp_local, "
			       "udp_remote, strict, wire_delay_us, fault, fault_seed, fault_rate, "
			       "fault_kinds, tx_watchdog_ms)";
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
				*err = "devarg " + kvs + ": must be loopback, pair, pcap, tap or udp";
				ok = false;
			}
		} else if (strcmp(k, kArgStrict) == 0) {
			if (strcmp(v, "0") == 0 || strcmp(v, "1") == 0) {
				cfg->strict = v[0] == '1';
			} else {
				*err = "devarg " + kvs + ": must be 0 or 1";
				ok = false;
			}
		} else if (strcmp(k, kArgWireDelay) == 0) { /* [wire delay] */
			if (!parse_uint(v, 0, 1000000, &cfg->wire_delay_us)) {
				*err = "devarg " + kvs + ": must be 0..1000000 (microseconds)";
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
				*err = "devarg " + kvs + ": port " + std::to_string(p) + " given twice";
				ok = false;
			} else if (shared_out) {
				/* Two writers of one file would interleave and lose frames. */
				*err = "devarg " + kvs + ": " + path + " is already another port's tx_pcap";
				ok = false;
			} else if (rx && access(path.c_str(), R_OK) != 0) {
				*err = "devarg " + kvs + ": cannot read " + path + ": " + strerror(errno);
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
				       (cfg->rx_pcap[p].empty() ? cfg->tx_pcap[p] : cfg->rx_pcap[p]) +
				       ": needs wire=pcap";
				ok = false;
				break;
			}
	}
	rte_kvargs_free(kv);
	return ok;
}

/* The memzone the model shares its registers and MAC counters through (emu::SharedView). */
std::string emu_shm_name(const char *name) { return std::string("gaudi_emu_") + name; }

int emu_probe_secondary(rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	std::string err;
	auto view = emu::SharedView::attach(emu_shm_name(name), &err);
	if (!view) {
		GAUDI_LOG(ERR, "%s: secondary process: %s", name, err.c_str());
		return -ENODEV;
	}
	auto *ad = new (std::nothrow) gaudi_adapter;
	if (ad == nullptr)
		return -ENOMEM;
	snprintf(ad->name, sizeof(ad->name), "%s", name);
	ad->bar = view->bar();
	ad->nports = view->nports();
	ad->view = std::move(view);
	ad->open_ports = 1;
	int rc = attach_ports(&vdev->device, ad);
	if (rc != 0)
		remove_ports(&vdev->device);
	adapter_put(ad);
	return rc;
}

int emu_probe(rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return emu_probe_secondary(vdev);
	emu::Config cfg;
	std::string err;
	if (!parse_devargs(rte_vdev_device_args(vdev), &cfg, &err)) {
		GAUDI_LOG(ERR, "%s: %s", name, err.c_str());
		return -EINVAL;
	}
	{ /* [wires tap/udp] N of net_gaudi_emuN names the default TAPs gaudi<N>p<port> */
		const char *d = name + strlen(name);
		while (d > name && d[-1] >= '0' && d[-1] <= '9')
			d--;
		cfg.instance = static_cast<unsigned>(strtoul(d, nullptr, 10));
	}
	cfg.shm_name = emu_shm_name(name);
	if (cfg.shm_name.size() >= RTE_MEMZONE_NAMESIZE) {
		GAUDI_LOG(NOTICE, "%s: name too long to share the model: secondary processes will "
			  "not attach", name);
		cfg.shm_name.clear();
	}
	auto *ad = new (std::nothrow) gaudi_adapter;
	if (ad == nullptr)
		return -ENOMEM;
	snprintf(ad->name, sizeof(ad->name), "%s", name);
	ad->emu = emu::Device::create(cfg, &err);
	if (!ad->emu) {
		GAUDI_LOG(ERR, "%s: %s", name, err.c_str());
		delete ad;
		return -EINVAL;
	}
	ad->tx_watchdog_ms = cfg.tx_watchdog_ms; /* [faults] */
	ad->bar = ad->emu->bar();
	ad->nports = ad->emu->nports();
	ad->open_ports = 1; /* probe's own reference while ports are created */
	for (unsigned p = 0; p < ad->nports; p++) {
		uint8_t mac[6];
		ad->emu->fw_mac_addr(p, mac);
		int rc = port_create(ad, &vdev->device, p, mac);
		if (rc != 0) {
			remove_ports(&vdev->device);
			adapter_put(ad);
			return rc;
		}
	}
	adapter_put(ad);
	return 0;
}

int emu_remove(rte_vdev_device *vdev) { return remove_ports(&vdev->device); }

rte_vdev_driver gaudi_emu_driver = {
	.next = {},
	.driver = {},
	.probe = emu_probe,
	.remove = emu_remove,
};

/* ---- net_gaudi: the PCI function through vfio-pci ---- */

int pci_probe(rte_pci_driver *drv, rte_pci_device *pci)
{
	(void)drv;
	const rte_mem_resource &bar0 = pci->mem_resource[kCfgBar];
	if (bar0.addr == nullptr || bar0.len < kNicRegionBarOffset + kNicRegionSize) {
		GAUDI_LOG(ERR, "%s: BAR0 not mapped or too small (%" PRIu64 " bytes)",
			  pci->device.name, bar0.len);
		return -ENODEV;
	}
	auto *ad = new (std::nothrow) gaudi_adapter;
	if (ad == nullptr)
		return -ENOMEM;
	snprintf(ad->name, sizeof(ad->name), "%s", pci->device.name);
	ad->bar = Bar(static_cast<volatile uint8_t *>(bar0.addr) + kNicRegionBarOffset,
		      kNicRegionSize);
	ad->nports = kMaxPorts;
	ad->open_ports = 1;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		/* EAL maps the BAR in secondaries too; the secondary ops only read it. Untested
		 * on silicon. */
		int rc = attach_ports(&pci->device, ad);
		if (rc != 0)
			remove_ports(&pci->device);
		adapter_put(ad);
		return rc;
	}
	for (unsigned p = 0; p < ad->nports; p++) {
		/* Firmware reports station addresses (cpucp); until that path exists use
		 * locally administered ones derived from the PCI address. */
		uint8_t mac[6] = {0x02, 0x1d, 0xa3, static_cast<uint8_t>(pci->addr.bus),
				  static_cast<uint8_t>(pci->addr.devid << 3 | pci->addr.function),
				  static_cast<uint8_t>(p)};
		int rc = port_create(ad, &pci->device, p, mac);
		if (rc != 0) {
			remove_ports(&pci->device);
			adapter_put(ad);
			return rc;
		}
	}
	adapter_put(ad);
	return 0;
}

int pci_remove(rte_pci_device *pci) { return remove_ports(&pci->device); }

const rte_pci_id gaudi_pci_ids[] = {
	{RTE_PCI_DEVICE(kPciVendorHabana, kPciDeviceGaudi2)},
	{RTE_PCI_DEVICE(kPciVendorHabana, kPciDeviceGaudi2Hl288)},
	{.vendor_id = 0},
};

rte_pci_driver gaudi_pci_driver = {
	.next = {},
	.driver = {},
	.probe = pci_probe,
	.remove = pci_remove,
	.dma_map = nullptr,
	.dma_unmap = nullptr,
	.id_table = gaudi_pci_ids,
	.drv_flags = RTE_PCI_DRV_NEED_MAPPING,
};

} // namespace

RTE_PMD_REGISTER_VDEV(net_gaudi_emu, gaudi_emu_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_gaudi_emu,
			      "ports=<1..24> wire=loopback|pair|pcap|tap|udp rx_pcap=<port>:<path> "
			      "tx_pcap=<port>:<path> engine=inline|thread "
			      "tap_name=<port>:<ifname> udp_local=[<port>:]<ip>:<udp port> "
			      "udp_remote=[<port>:]<ip>:<udp port> "
			      "fault=<kind>:<port>[:<after frames>[:<arg>]] fault_seed=<n> "
			      "fault_rate=<0..1> fault_kinds=<kind>[+<kind>...] tx_watchdog_ms=<ms> "
			      "strict=<0|1> wire_delay_us=<0..1000000>");
RTE_PMD_REGISTER_PCI(net_gaudi, gaudi_pci_driver);
RTE_PMD_REGISTER_PCI_TABLE(net_gaudi, gaudi_pci_ids);
RTE_PMD_REGISTER_KMOD_DEP(net_gaudi, "vfio-pci");
