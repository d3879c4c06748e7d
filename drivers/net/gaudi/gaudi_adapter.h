/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: per-NIC adapter and per-port private data, the bottom of the PMD core.
 *
 * One NIC (a PCI function or a net_gaudi_emu instance) has up to 24 ports; each port is one
 * ethdev. The adapter owns the backend (register windows, and for the emulated NIC the device
 * model); each port owns its event queue memory and its queues.
 *
 * Source layout, by role (as DPDK's mlx5 and ena split theirs), bottom to top; each X.cpp
 * implements X.h and calls only the files below it (tests/lint/pmd_cycles.py checks the
 * include and call graphs for cycles):
 *   gaudi_logs, gaudi_backend, gaudi_devargs, gaudi_bringup   log types; silicon vs model;
 *                                     devargs; bring-up shared by both probes
 *   gaudi_adapter.h                   adapter, port, per-process structs (this file)
 *   gaudi_mem                         the port's DMA memory zones
 *   gaudi_eq                          the event queue: memory, start, and the consumer, which
 *                                     returns what it found (gaudi_eq_found) and acts on none
 *   gaudi_recovery                    fault accounting, link events, reset requests, and the
 *                                     public API of rte_pmd_gaudi.h
 *   gaudi_phy_port                    the link-state machine of the PHY
 *   gaudi_rx, gaudi_tx                RX and TX datapaths (burst functions); gaudi_tx also acts
 *                                     on what the EQ found (TX completions, recovery of the queue)
 *   gaudi_rxq, gaudi_txq              RX and TX queue control: setup, release, start, stop, info
 *   gaudi_watchdog                    the TX watchdog (an EAL alarm per started port)
 *   gaudi_mac gaudi_link gaudi_stats gaudi_intr gaudi_info gaudi_fw_status
 *                                     MAC and filters; link, FEC, flow control; stats and
 *                                     xstats; interrupts; device info and dumps; NIC_STATUS
 *   gaudi_trigger                     dev_start, dev_stop (mlx5_trigger.c)
 *   gaudi_ethdev, gaudi_mp            life cycle and ops table; multi-process ops and attach
 *   gaudi_pci, gaudi_vdev*            the two probes (net_gaudi, net_gaudi_emu) and their
 *                                     Backends; only they include their bus, only gaudi_vdev*
 *                                     emu/ (built with it into librte_net_gaudi_emu.so)
 */
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>

#include <ethdev_driver.h>
#include <rte_ether.h>
#include <rte_memzone.h>
#include <rte_spinlock.h>

#include "base/gaudi_bar.h"
#include "base/gaudi_desc.h"
#include "base/gaudi_phy.h"
#include "base/gaudi_port.h"
#include "gaudi_backend.h"
#include "gaudi_bringup.h"
#include "gaudi_devargs.h"

struct gaudi_rxq;
struct gaudi_txq;
struct rte_intr_handle;

/* The adapter's consumer of an odd port's event queue (gaudi_intr.cpp). */
struct gaudi_link_eq;
struct gaudi_link_eq_free {
	void operator()(gaudi_link_eq *le) const;
};

/* [faults] Per-port recovery state and counters (gaudi_recovery.h), in gaudi_port (shared
 * memory, zeroed at probe). */
struct gaudi_recovery {
	uint64_t db_lost; /* doorbells the device dropped */
	uint64_t db_rerings;
	uint64_t qp_recoveries;
	uint64_t tx_fault_drops;
	uint64_t link_down;
	uint64_t link_up;
	uint64_t link_ups; /* every link-up of the port (NIC_STATUS port_toggle_cnt) */
	uint64_t tx_watchdog;
	uint64_t reset_events;
	uint64_t eq_error_resets; /* QPC cause 0x400 (EQ error) found, port reset requested */
	uint64_t cq_log_tsc;	  /* last CQ overrun log line (rate limit) */
	uint64_t log_tsc;	  /* start of the current recovery-log second */
	uint32_t log_lines;	  /* recovery log lines in that second */
	uint32_t log_suppressed;  /* lines not printed over the limit */
	bool db_rering;		  /* a doorbell was lost: ring the current PI again */
	bool link_seen;		  /* link state of the last LINK_STATUS event for this port */
	/* link_down / link_up count the link lost and regained while the port runs: from the
	 * port's first link-up after dev_start (its own, or the peer's start, is not counted)
	 * until dev_stop begins (its own link-down is not counted either). */
	bool link_watch;      /* between dev_start and dev_stop */
	bool link_had;	      /* the link was up since dev_start */
	bool reset_requested; /* INTR_RESET raised, until the next start */
	/* Watchdog (alarm) state. */
	bool wd_active;
	uint32_t watchdog_ms; /* stall time before a reset is requested; 0 = off */
	uint32_t wd_stalled_ms;
	uint32_t wd_eq_ci, wd_txq_ci, wd_db_ci, wd_hw_eq_pi;
};

/* [phy] A port's link-state machine (gaudi_phy_port.h; in gaudi_port, primary only). */
struct gaudi_phy_port {
	rte_spinlock_t lock; /* tuning polls and the state below (alarm, link_get, stop) */
	bool powered;	     /* powered up and TX on: dev_start .. dev_stop */
	bool tuned;	     /* the F/W reported both lanes tuned since the last power-up */
	bool mac_loopback;   /* started in MAC loopback (lpbk_mode 1): no PHY involved */
	bool reported;	     /* the tuned state the alarm last reported (interrupt thread) */
	uint64_t deadline;   /* TSC: tuning limit, then reconfigure */
	unsigned pcs_down;   /* steady state: consecutive samples without PCS link */
	uint64_t reconfigs;  /* power-ups after a tuning timeout or a lost link */
	/* Reports a change of the tuned state (the LSC report, gaudi_link_report): given by
	 * dev_start, so the PHY layer calls nothing above it. */
	void (*report)(rte_eth_dev *dev);
};

/* One per NIC and per process: its members are valid only in the process that made them (the
 * primary's backend holds the device; a secondary's only reads it, see gaudi_proc). */
struct gaudi_adapter {
	std::unique_ptr<gaudi::Backend> backend; /* gaudi_pci.cpp or gaudi_vdev.cpp */
	/* The firmware connection (primary only; gaudi_bringup). After backend: it goes first. */
	std::unique_ptr<gaudi_fw_state> fw;
	/* [phy] The ports' SerDes (primary only; gaudi_phy_port). After backend: goes first. */
	std::unique_ptr<gaudi::hw::Phy> phy;
	unsigned nports = 0;
	unsigned open_ports = 0; /* ethdevs not yet closed; the last close frees the adapter */
	char name[40] = {};	 /* device name; ports are "<name>_p<N>" */
	uint32_t tx_watchdog_ms = 1000; /* [faults] devarg tx_watchdog_ms (gaudi_devargs) */
	/* devarg rx_copy_max (gaudi_devargs): by default every RX frame is copied. */
	uint32_t rx_copy_max = gaudi_rx_copy_all;
	/* devarg speed (gaudi_devargs): each NIC port's speed. */
	std::array<gaudi::hw::Speed, gaudi::hw::kMaxPorts> speed =
		gaudi_devargs::all_default_speed();
	/* Periodic NIC_STATUS (gaudi_fw_status.cpp): devarg nic_status_ms, alarm armed, the
	 * statuses sent. */
	uint32_t nic_status_ms = 0;
	bool nic_status_armed = false;
	uint64_t nic_status_sent = 0;
	/* ethdev of each NIC port (UINT16_MAX: none): link events of both ports of a macro
	 * arrive on the odd port's event queue, whose handler looks at its even sibling too. */
	std::array<uint16_t, gaudi::hw::kMaxPorts> eth_port = no_ports();
	/* Held by the interrupt thread while it acts on a port other than the one whose interrupt
	 * fired (the odd port's handler checks its even sibling, gaudi_intr.cpp) and by close
	 * while it takes the port out of eth_port: a port being closed is not used after. */
	rte_spinlock_t ports_lock = RTE_SPINLOCK_INITIALIZER;
	/* The odd port's event queue of each macro, while no started ethdev of that port
	 * consumes it and the even port runs: its link events are the even port's too
	 * (gaudi_intr.cpp gaudi_link_eq_update). Made on first use; after backend: goes first. */
	std::array<std::unique_ptr<gaudi_link_eq, gaudi_link_eq_free>,
		   gaudi::hw::kMaxPorts / gaudi::hw::kPortsPerMacro>
		link_eq;

	static constexpr std::array<uint16_t, gaudi::hw::kMaxPorts> no_ports()
	{
		std::array<uint16_t, gaudi::hw::kMaxPorts> a{};
		a.fill(UINT16_MAX);
		return a;
	}
};

/* Event-queue and doorbell-FIFO shadow memory of a port (one IOVA-contiguous memzone). */
struct gaudi_port_mem {
	gaudi::hw::Eqe *eq;	  /* 2^kEqLog2 entries */
	volatile uint32_t *eq_pi; /* HW-written EQ PI (24 bits) */
	volatile uint32_t *db_ci; /* HW-written doorbell FIFO position, 6 bits (gaudi_db_*) */
	const rte_memzone *mz;
};

/* The port's basic counters of released queues (gaudi_stats.cpp). */
struct gaudi_stats_base {
	uint64_t ipackets, ibytes, ierrors, opackets, obytes, oerrors;
};

struct gaudi_port {
	gaudi_adapter *adapter;
	gaudi::hw::Port hw;
	uint16_t port_id;
	gaudi_port_mem mem;

	/* Event queue consumer (datapath and control path share it under eq_lock, which nests
	 * inside the TX queue's lock, gaudi_txq::lock, when a consumer holds both). */
	rte_spinlock_t eq_lock;
	uint32_t eq_ci;
	/* The QPC's EVENT_QUE registers hold this port's queue (set by gaudi_port_eq_start,
	 * cleared at stop and when the adapter takes an odd port's queue over): only then may
	 * this port write the CI register. Under eq_lock. */
	bool eq_live;
	uint32_t db_pushed;  /* doorbells pushed since the FIFO was last aligned (gaudi_db_align) */
	uint32_t db_ci_seen; /* mem.db_ci as last read (gaudi_db_full) */

	/* Counters of the queues released since the last stats_reset (probe and dev_reset
	 * included): a queue set up again counts from 0, the port's basic stats go on. */
	gaudi_stats_base stats_base;
	/* MAC counts a reset of the sibling port's counters took from this port: the reset
	 * (STATN_CONFIG.F_RESET, as hbl_cn) clears both ports' sets of the macro
	 * (gaudi_mac_stats_reset). Added to what the hardware counts. */
	std::array<uint64_t, size_t(gaudi::hw::RxStat::count)> mac_rx_base;
	std::array<uint64_t, size_t(gaudi::hw::TxStat::count)> mac_tx_base;

	/* What the event queue told us. */
	uint64_t ev_link; /* LINK_STATUS events that changed this port's link (gaudi_recovery) */
	uint64_t ev_qp_err;
	uint64_t ev_db_overrun;
	uint64_t ev_cq_overrun;
	uint32_t last_qp_syndrome;
	bool qp_err_pending;

	bool started; /* written under eq_lock: the EQ consumer depends on it */
	bool promisc;
	bool allmulti;
	/* Address filters beyond the one RXB TS_RAW0 filter the hardware has: while any is in
	 * use (or allmulti), RXB takes every address and rx_burst filters (sw_filter). */
	bool sw_filter;
	/* The packet-type families rx_burst reports (rte_eth_dev_set_ptypes; RTE_PTYPE_*_MASK
	 * bits): 0 skips the parse, as testpmd asks at port start. All at probe; kept by reset. */
	uint32_t ptype_mask;
	uint8_t n_uc, n_mc;
	rte_ether_addr uc[15];
	rte_ether_addr mc[32];

	/* Interrupts (when the backend routes them, gaudi_intr.h; null/-1 otherwise). The
	 * interrupt thread owns lsc_reported and rearm_pending. */
	rte_intr_handle *intr; /* also dev->intr_handle */
	int lsc_fd;	       /* eventfd of QPC interrupt 9 (event queue) */
	int rxq_fd;	       /* eventfd of QPC interrupt 4 (raw CQ arm), if intr_conf.rxq */
	uint8_t lsc_reported;  /* link status last reported through the LSC callback */
	bool rearm_pending;    /* an alarm will re-arm the EQ interrupt */

	gaudi_recovery rec; /* [faults] gaudi_recovery.h: under eq_lock; db_rering under the TX queue's lock too */
	gaudi_phy_port phy; /* [phy] the link-state machine (gaudi_phy_port.h) */
};

/* Per-process state of a port (eth_dev->process_private), set in secondary processes only.
 * dev_private (gaudi_port) is shared memory, but its adapter and hw members point at the
 * primary's heap objects; a secondary reads the registers through its own adapter instead
 * (doc/guides/nics/gaudi.rst, "Capture and tooling"). */
struct gaudi_proc {
	gaudi_adapter *adapter;
	gaudi::hw::Port hw; /* reads only: every state-changing op is refused in a secondary */
};

inline gaudi_port *gaudi_priv(rte_eth_dev *dev)
{
	return static_cast<gaudi_port *>(dev->data->dev_private);
}

/* Queue 0 of a port, or null when the port has none (not configured, or not set up). */
inline gaudi_rxq *gaudi_rxq0(const rte_eth_dev *dev)
{
	if (dev->data->rx_queues == nullptr || dev->data->nb_rx_queues == 0)
		return nullptr;
	return static_cast<gaudi_rxq *>(dev->data->rx_queues[0]);
}

inline gaudi_txq *gaudi_txq0(const rte_eth_dev *dev)
{
	if (dev->data->tx_queues == nullptr || dev->data->nb_tx_queues == 0)
		return nullptr;
	return static_cast<gaudi_txq *>(dev->data->tx_queues[0]);
}

/* The private data of the ethdev that drives NIC port hw of this adapter, or null if none does. */
inline gaudi_port *gaudi_adapter_port(const gaudi_adapter *ad, unsigned hw)
{
	uint16_t pid = ad->eth_port[hw];
	if (pid == UINT16_MAX || !rte_eth_dev_is_valid_port(pid))
		return nullptr;
	auto *p = static_cast<gaudi_port *>(rte_eth_devices[pid].data->dev_private);
	return p != nullptr && p->adapter == ad ? p : nullptr;
}

/* The adapter and the register access of the calling process. Ops a secondary may call use
 * these, never gaudi_port::adapter or gaudi_port::hw. */
inline gaudi_adapter *gaudi_adapter_of(const rte_eth_dev *dev)
{
	auto *pp = static_cast<const gaudi_proc *>(dev->process_private);
	return pp != nullptr ? pp->adapter
			     : static_cast<gaudi_port *>(dev->data->dev_private)->adapter;
}
inline const gaudi::hw::Port &gaudi_hw(const rte_eth_dev *dev)
{
	auto *pp = static_cast<const gaudi_proc *>(dev->process_private);
	return pp != nullptr ? pp->hw : static_cast<gaudi_port *>(dev->data->dev_private)->hw;
}
/* Max frame the port takes on RX and sends on TX, without FCS: MTU + Ethernet + VLAN header. */
static inline uint32_t gaudi_max_frame(uint16_t mtu)
{
	return mtu + gaudi::hw::kFrameOverhead - gaudi::hw::kFcsLen;
}

/* Doorbells pushed and not yet consumed. mem.db_ci holds the FIFO position of the last
 * doorbell the hardware consumed, one less than the count (mod 64), and it cannot be reset
 * [gaudi2_cn.c __db_fifo_reset]; db_pushed counts from the point gaudi_db_align left it at
 * position 63. At most kDbFifoEntries - 1 may be outstanding (64 would read as 0). */
static inline uint32_t gaudi_db_count(const gaudi_port *port, uint32_t ci)
{
	return (port->db_pushed - (ci + 1)) & (gaudi::hw::kDbFifoEntries - 1);
}
static inline uint32_t gaudi_db_outstanding(const gaudi_port *port)
{
	return gaudi_db_count(port, __atomic_load_n(port->mem.db_ci, __ATOMIC_ACQUIRE));
}
/* Whether the FIFO has no room for another doorbell, reading mem.db_ci only when the CI last
 * read says so: the device's CI only grows, so the count from an older CI is an upper bound,
 * and it stays below 64 as nothing is pushed once it reads 63. */
static inline bool gaudi_db_full(gaudi_port *port)
{
	constexpr uint32_t kMax = gaudi::hw::kDbFifoEntries - 1;
	if (likely(gaudi_db_count(port, port->db_ci_seen) < kMax))
		return false;
	port->db_ci_seen = __atomic_load_n(port->mem.db_ci, __ATOMIC_ACQUIRE);
	return gaudi_db_count(port, port->db_ci_seen) >= kMax;
}
