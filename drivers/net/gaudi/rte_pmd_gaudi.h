/* SPDX-License-Identifier: BSD-3-Clause
 * Public API of the Gaudi2 PMD (librte_net_gaudi): fault injection on net_gaudi_emu and the
 * recovery counters of a port. See doc/guides/nics/gaudi.rst, "Fault injection and recovery".
 *
 * The functions are exported by the plugin (version node EXPERIMENTAL). An application that
 * loads the PMD with EAL -d can reach them with dlsym().
 */
#ifndef RTE_PMD_GAUDI_H
#define RTE_PMD_GAUDI_H

#include <stdint.h>

#include <rte_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Faults the device model can inject (net_gaudi_emu devarg fault=KIND:...). */
enum rte_pmd_gaudi_fault {
	/** The next arg (default 1) doorbells are dropped as if the doorbell FIFO were full. */
	RTE_PMD_GAUDI_FAULT_DB_FIFO_OVERRUN = 0,
	/** The next arg (default 64) received frames meet a full RX CQ (dropped, COMP_ERR). */
	RTE_PMD_GAUDI_FAULT_CQ_OVERRUN = 1,
	/** QP_ERR with syndrome arg (default 0x91; 0x40..0x7f QPC class, 0x80..0xff TX packet). */
	RTE_PMD_GAUDI_FAULT_QP_ERR = 2,
	/** Link down for arg ms (default 100), then up again. */
	RTE_PMD_GAUDI_FAULT_LINK_FLAP = 3,
	/** The next WQE's local address does not translate (syndrome 0xA0). arg must be 0. */
	RTE_PMD_GAUDI_FAULT_DMA_FAULT = 4,
	/** The TX engine stops taking doorbells until the port is reset. arg must be 0. */
	RTE_PMD_GAUDI_FAULT_STUCK_ENGINE = 5,
	/** The next arg (default 1) events of the port find its event queue full: lost, and the
	 * QPC latches INTERRUPT_CAUSE bit 10 (the EQ error); the PMD resets the port. */
	RTE_PMD_GAUDI_FAULT_EQ_OVERRUN = 6,
	/** The next arg (default 1) frames the port sends leave the MAC (counted sent) and are
	 * lost on the wire: loss on the link, TX direction only (xstat tx_wire_drops). */
	RTE_PMD_GAUDI_FAULT_WIRE_DROP = 7,
};

/** What the PMD saw and did about faults on a port (also in xstats, recovery_*). */
struct rte_pmd_gaudi_recovery_stats {
	uint64_t db_fifo_overruns;   /**< doorbells the device dropped (FIFO overrun) */
	uint64_t db_rerings;         /**< doorbells rung again after an overrun */
	uint64_t cq_overrun_events;  /**< RX CQ overrun episodes (COMP_ERR); frames in imissed */
	uint64_t qp_errors;          /**< QP_ERR events */
	uint64_t qp_recoveries;      /**< TX queue restarted in place after a QP error */
	uint64_t tx_fault_drops;     /**< faulting WQEs dropped (in oerrors) */
	uint64_t link_down_events;   /**< link lost while started (not the port's own stop) */
	uint64_t link_up_events;     /**< link regained after such a loss (not the first up) */
	uint64_t tx_watchdog;        /**< TX stalls the watchdog detected */
	uint64_t reset_events;       /**< RTE_ETH_EVENT_INTR_RESET raised */
	uint32_t last_qp_syndrome;   /**< syndrome of the last QP_ERR */
	uint64_t faults_injected;    /**< faults the model fired on the port (0 on silicon) */
	uint64_t eq_error_resets;    /**< event queue errors (QPC cause 0x400) reset the port */
};

/**
 * Inject a fault on a net_gaudi_emu port now (it shows at the next doorbell, frame or WQE).
 *
 * @return 0; -ENODEV not a Gaudi port; -ENOTSUP on silicon (no injection there); -EINVAL bad
 *   kind or arg; -ENOSPC too many delayed faults waiting.
 */
__rte_experimental
int rte_pmd_gaudi_inject_fault(uint16_t port_id, enum rte_pmd_gaudi_fault kind, uint32_t arg);

/** As rte_pmd_gaudi_inject_fault, once the port has sent after_frames more frames. */
__rte_experimental
int rte_pmd_gaudi_inject_fault_after(uint16_t port_id, enum rte_pmd_gaudi_fault kind,
				     uint64_t after_frames, uint32_t arg);

/** Recovery counters of a port. @return 0, -ENODEV, -EINVAL (null stats). */
__rte_experimental
int rte_pmd_gaudi_get_recovery_stats(uint16_t port_id, struct rte_pmd_gaudi_recovery_stats *st);

/**
 * What the device CPU of net_gaudi_emu received from the driver for a port (the bring-up's
 * NIC memory steps and the periodic NIC_STATUS); for tests and debugging. See
 * doc/guides/gaudi_hw_model.rst, "Firmware".
 */
struct rte_pmd_gaudi_emu_fw_port {
	uint64_t clr_mem_bytes;      /**< device memory cleared (NIC_CLR_MEM), whole device */
	uint32_t ecc_unmasked;       /**< NIC_ECC_INTRS_UNMASK received */
	uint32_t txs_entries;        /**< NIC_INIT_TXS_MEM of the port: free-list entries, 0 none */
	uint64_t txs_free_list;      /**< its device address */
	uint32_t txs_granularity;    /**< its first entry's value */
	uint32_t tmr_entries;        /**< NIC_INIT_TMR_MEM of the port's macro, 0 none */
	uint64_t tmr_free_list;
	uint32_t tmr_granularity;
	uint32_t order_refused;      /**< requests and writes refused as out of order, device */
	uint64_t nic_status_count;   /**< NIC_STATUS packets for this port */
	/** The last NIC_STATUS (struct cpucp_nic_status): */
	uint32_t status_port;
	uint8_t up, pcs_link, phy_ready, auto_neg;
	uint32_t correctable_err_cnt;
	uint32_t uncorrectable_err_cnt;
	uint32_t port_toggle_cnt;
};

/**
 * The device CPU's record of a net_gaudi_emu port. @return 0; -ENODEV not a Gaudi port;
 * -ENOTSUP on silicon or in a secondary process; -EINVAL null out.
 */
__rte_experimental
int rte_pmd_gaudi_emu_fw_port_get(uint16_t port_id, struct rte_pmd_gaudi_emu_fw_port *out);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_GAUDI_H */
