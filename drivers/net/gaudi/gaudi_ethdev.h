/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: per-NIC adapter and per-port private data.
 *
 * One NIC (a PCI function or a net_gaudi_emu instance) has up to 24 ports; each port is one
 * ethdev. The adapter owns the register window (and, for the emulated NIC, the device model);
 * each port owns its event queue memory and its queues.
 */
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include <rte_ether.h>
#include <rte_memzone.h>
#include <rte_spinlock.h>

#include "base/gaudi_bar.h"
#include "base/gaudi_desc.h"
#include "base/gaudi_port.h"

namespace gaudi::emu {
class Device;
}

struct gaudi_rxq;
struct gaudi_txq;
struct rte_intr_handle;

struct gaudi_adapter {
	gaudi::hw::Bar bar;
	std::unique_ptr<gaudi::emu::Device> emu; /* null on silicon */
	unsigned nports = 0;
	unsigned open_ports = 0; /* ethdevs not yet closed; the last close frees the adapter */
	char name[40] = {}; /* device name; ports are "<name>_p<N>" */
};

/* Event-queue and doorbell-FIFO shadow memory of a port (one IOVA-contiguous memzone). */
struct gaudi_port_mem {
	gaudi::hw::Eqe *eq;              /* 2^kEqLog2 entries */
	volatile uint32_t *eq_pi;        /* HW-written EQ PI (free-running) */
	volatile uint32_t *db_ci;        /* HW-written count of doorbells consumed */
	const rte_memzone *mz;
};

struct gaudi_port {
	gaudi_adapter *adapter;
	gaudi::hw::Port hw;
	uint16_t port_id;
	gaudi_port_mem mem;

	/* Event queue consumer (datapath and control path share it under eq_lock). */
	rte_spinlock_t eq_lock;
	uint32_t eq_ci;
	uint32_t db_pushed; /* doorbells pushed, free-running; the HW CI counts the same way */

	/* What the event queue told us. */
	uint64_t ev_link;
	uint64_t ev_qp_err;
	uint64_t ev_db_overrun;
	uint64_t ev_cq_overrun;
	uint32_t last_qp_syndrome;
	bool qp_err_pending;

	bool started; /* written under eq_lock: the EQ consumer depends on it */
	bool promisc;
	bool allmulti;

	/* Interrupts (net_gaudi_emu only; null/-1 otherwise). The interrupt thread owns
	 * lsc_reported and rearm_pending. */
	rte_intr_handle *intr;      /* also dev->intr_handle */
	int lsc_fd;                 /* eventfd of QPC interrupt 9 (event queue) */
	int rxq_fd;                 /* eventfd of QPC interrupt 4 (raw CQ arm), if intr_conf.rxq */
	uint8_t lsc_reported;       /* link status last reported through the LSC callback */
	bool rearm_pending;         /* an alarm will re-arm the EQ interrupt */
};

/* Max frame the port takes on RX and sends on TX, without FCS: MTU + Ethernet + VLAN header. */
static inline uint32_t gaudi_max_frame(uint16_t mtu)
{
	return mtu + gaudi::hw::kFrameOverhead - gaudi::hw::kFcsLen;
}

/* Drain the port's event queue: TX completions go to txq; other events are counted. Returns
 * without waiting if another thread is draining it. */
void gaudi_eq_poll(gaudi_port *port, gaudi_txq *txq);
/* The same with eq_lock held by the caller. */
void gaudi_eq_poll_locked(gaudi_port *port, gaudi_txq *txq);
