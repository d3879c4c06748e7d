/* SPDX-License-Identifier: BSD-3-Clause
 * Programming one Gaudi2 NIC port for raw Ethernet: MAC, MAC filter, raw QP contexts, TX work
 * queue, doorbell FIFO, RX slot ring and CQ, event queue, counters.
 *
 * This is the hardware layer shared by the PCI device and the device model: it only touches
 * registers (through Bar) and never owns memory. Ring memory is the caller's; addresses passed
 * here are IOVAs the device DMAs to. Sequences follow hbl_cn gaudi2_cn.c / gaudi2_en.c.
 */
#pragma once

#include <cstdint>

#include "gaudi_bar.h"
#include "gaudi_desc.h"
#include "gaudi_hw_defs.h"
#include "gaudi_mac_stats.h"
#include "gaudi_macro.h"
#include "gaudi_qpc.h"
#include "gaudi_regs.h"

namespace gaudi::hw {

/* TX ring programming. wq_log2 = log2(entries) (kTxRingMin..kTxRingMax). */
struct TxRingCfg {
	uint64_t wq_iova; /* kRingAlign-aligned array of TxWqe */
	uint32_t wq_log2;
	uint64_t db_ci_iova; /* kDbFifoCiAlign-aligned uint32_t the HW writes the FIFO CI to */
	uint32_t mtu;	     /* bytes; encoded as log2(mtu) - 10 rounded up */
};

/* RX ring programming: slot ring of 2^count_log2 slots of 2^slot_log2 bytes, and the raw CQ of
 * the same number of entries. */
struct RxRingCfg {
	uint64_t slots_iova; /* kRingAlign-aligned */
	uint32_t slot_log2;
	uint32_t count_log2;
	uint64_t cq_iova;    /* kRingAlign-aligned array of Cqe */
	uint64_t cq_pi_iova; /* uint32_t the HW writes the CQ PI to (free-running) */
};

/* Flow control of a port's MAC [gaudi2_cn.c, gaudi2_cn_dcbnl.c]: PAUSE_IGNORE clear = honour received PAUSE
 * (rx_pause), TXB GLOBAL_PAUSE = send PAUSE (tx_pause), PFC_MODE = class-based (PFC) instead of
 * link-level pause, on the 4 priorities at once (all-or-none [gaudi2_cn_dcbnl.c]). */
struct FlowCfg {
	bool rx_pause;
	bool tx_pause;
	bool pfc;
	bool fwd;	 /* pass PAUSE frames up (PAUSE_FWD) */
	uint16_t quanta; /* pause time of class 0 (link pause) / every class (PFC) */
	uint16_t thresh; /* refresh threshold */
	uint32_t xoff;	 /* RXB thresholds of the PFC priorities, 128-byte buffers */
	uint32_t xon;
};
inline constexpr unsigned kPfcPriorities = 4;
/* RXB XOFF / XON threshold of a port without TX pause: the 13-bit fields' largest value, more
 * buffers than the RXB has (reg::kRxbBuffers), so the fill never passes it. [choice] hbl_cn has
 * no switch for TX pause: it arms XOFF / XON at set-up and writes TXB GLOBAL_PAUSE = 0 only
 * (searched GLOBAL_PAUSE, XOFF_THRESHOLD, set_pfc, pause in hbl_cn gaudi2 and hbl_en). */
inline constexpr uint32_t kRxbXoffNever =
	reg::RXB_CORE_XOFF_THRESHOLD_0_XOFF_THRESHOLD_FLOW0.mask();
static_assert(kRxbXoffNever == 0x1FFF && kRxbXoffNever > reg::kRxbBuffers);

/* Per-port QPC programming: the requester and responder context tables in device DRAM (the
 * raw QP is context 0 of each; base/gaudi_nic_mem.h carves them) and where the hardware writes
 * the secured doorbell FIFO's CI. */
struct QpcCfg {
	uint64_t req_qpc_base; /* 128-byte aligned */
	uint64_t res_qpc_base; /* 128-byte aligned */
	uint64_t db_ci_iova;   /* kDbFifoCiAlign-aligned uint32_t */
};

/* Event queue: 2^log2 Eqe entries, PI written by the HW to pi_iova (free-running). */
struct EqCfg {
	uint64_t eq_iova;
	uint32_t log2;
	uint64_t pi_iova;
};

class Port {
public:
	Port() = default;
	Port(Bar *bar, unsigned port) : bar_(bar), port_(port) {}

	unsigned id() const { return port_; }
	Bar *bar() const { return bar_; }

	/* enable: the MAC lanes as gaudi2_cn.c gaudi2_cn_hw_mac_port_config programs them at
	 * port open (channel reset, FRM_LENGTH = NIC_MAC_MAX_FRM_LEN, COMMAND_CONFIG 0x2913,
	 * FIFO sections, the pause quanta of the 16 classes, the PCS alignment markers of the
	 * port's speed), then the flow control (set_pfc's COMMAND_CONFIG, set_flow) as it was;
	 * false if a channel stayed in reset. !enable: TX_ENA / RX_ENA clear, FRM_LENGTH, flow
	 * control kept. Undoes PCS loopback (the channel reset): set_loopback after it. */
	bool mac_config(bool enable);
	/* Port speed (default 100G); the per-speed steps of mac_config and set_rs_fec use it. */
	void set_speed(Speed s) { speed_ = s; }
	Speed speed() const { return speed_; }
	/* Station address: MAC_ADDR of both lanes, TXE PORTn_MAC_CFG, RXB TS_RC and TS_RAW0. */
	void set_mac_addr(const uint8_t mac[6]);
	/* RXB raw filter: exact station address (accept_all false) or every destination (mask all
	 * ones: promiscuous, or a filter set the one hardware filter cannot express). */
	void set_rxb_accept_all(bool accept_all);
	/* MAC_PCS CONTROL1.LOOPBACK on both lanes [gaudi2_nic_hw_mac_loopback_cfg]. */
	void set_loopback(bool on);
	bool link_up() const;
	/* MAC TX_ENA | RX_ENA on both lanes, the rest of COMMAND_CONFIG kept. */
	void set_mac_enable(bool on);
	/* RS-FEC (clause 91) on or off for the port's lanes. */
	void set_rs_fec(bool on);
	bool rs_fec() const;
	/* RS-FEC corrected / uncorrected codewords since the Port was made. The MAC_RS_FEC
	 * counters clear when read [gaudi2_cn.c __gaudi2_cn_get_mac_fec_stats "read ... in order
	 * to clear them"]: each call reads them (LO, then HI) and adds them to a total kept here,
	 * as hbl_cn's correctable_errors_cnt. Safe from several threads. */
	uint64_t fec_corrected() const;
	uint64_t fec_uncorrected() const;
	void set_flow(const FlowCfg &f);
	FlowCfg flow() const;
	/* QPC interrupt source: MSI enable + unmask (or disable + mask); clear a pending cause. */
	void intr_enable(uint32_t index, bool on);
	uint32_t intr_cause() const
	{
		return bar_->rd32(reg::qpc(port_) + reg::QPC_INTERRUPT_CAUSE);
	}
	void intr_clear(uint32_t index)
	{
		bar_->wr32(reg::qpc(port_) + reg::QPC_INTERRUPT_CLR, reg::intr_bit(index));
	}
	/* The event queue's interrupt (source 9) goes to its sync object: INTERRUPT_BASE_9 =
	 * the port's SOB, INTERRUPT_DATA_9 = increment by one [gaudi2_cn_eq.c
	 * gaudi2_cn_eq_interrupts_enable_conditionally; base/gaudi_sm.h for the rest of the
	 * route]. */
	void eq_irq_route();
	/* Quiesce as habanalabs does after power-up (interrupts and RX are enabled there):
	 * EVENT_QUE_CFG 0, INTERRUPT_EN 0, INTERRUPT_MASK all ones [gaudi2_cn.c
	 * gaudi2_nic_disable_nics_interrupts]; CQ 0 off, raw QP contexts invalid, MAC off. */
	void quiesce();

	/* 64-bit MAC counters: LO word then DATA_HI latch. */
	uint64_t rx_stat(RxStat s) const;
	uint64_t tx_stat(TxStat s) const;
	/* The MAC counters of the macro, both ports' (hbl_cn gaudi2_cn_reset_mac_stats). */
	void stats_reset();

	/* Raw QP contexts through the QPC gateway: whole images (every bit written, as
	 * gaudi2_en.c does) or the masked fields of img. Return false if the gateway stays busy. */
	bool qpc_write_req(const qpc::ReqImage &img, bool whole);
	bool qpc_write_res(const qpc::ResImage &img, bool whole);
	/* Read the raw requester QPC back: all GW_MASK zero makes the gateway op a read. */
	bool qpc_read_req(qpc::ReqImage *img);
	/* [faults] Restart the raw QP after a QP error: VALID, ERROR clear, EXECUTION_IDX = exec
	 * (a ring index), the rest of the context kept. */
	bool tx_resume(uint32_t exec);
	/* gaudi2_cn.c config_port_hw_qpc, in its order: context table bases, cache invalidate
	 * pulses, INTERRUPT_CAUSE cleared, the AXI-user MMU-bypass overrides (DB FIFO, error
	 * FIFO, QPC requester and responder, congestion queue), the doorbell FIFO CI address,
	 * REQ_STATIC_CONFIG doorbell error policy, WTD back-pressure off. RETRY_COUNT_MAX
	 * (RDMA retries) is left out: gaudi_hw_model.rst. */
	void qpc_config(const QpcCfg &cfg);
	/* TXE as gaudi2_cn.c config_port_hw_txe (raw WQ base and size, PRIO_TO_DSCP, WQE MMU
	 * bypass, prefetch, BTH_MKEY, statistics windows at nicmem::kNicClkMhz; PORTn_MAC_CFG is
	 * set_mac_addr's), the doorbell FIFO CI address again (a TX queue restarted after
	 * db_fifo_reset needs it), then the raw requester QPC (gaudi2_en.c req_qpc_init). */
	bool tx_init(const TxRingCfg &cfg);
	/* tx_init in two halves: the TXE block (config_port_hw_txe, part of hbl_cn's port
	 * config, before the MAC) and the requester context (hbl_en's port open, after it). */
	void tx_config(const TxRingCfg &cfg);
	bool tx_qp_start(const TxRingCfg &cfg);
	bool tx_disable();
	/* Push one 8-byte doorbell: FIRST32 = new WQ producer index as a ring index, SECOND32 =
	 * QPN [gaudi2_en.c ring_tx_doorbell]. */
	void ring_doorbell(uint32_t ring_pi)
	{
		bar_->wr32(reg::qpc(port_) + reg::QPC_SECURED_DB_FIRST32, ring_pi & DB_PI_MASK);
		bar_->wr32(reg::qpc(port_) + reg::QPC_SECURED_DB_SECOND32, kRawQpn);
	}
	/* Doorbell FIFO reset work-around [gaudi2_cn.c __db_fifo_reset]: with the invalid-QP and
	 * PI > LAST_IDX error events off, push dummy doorbells (PI 0, QPN NIC_MAX_QP_NUM) until the
	 * CI the hardware writes to *ci reads 63, i.e. the FIFO's next position is 0. False if it
	 * never does (bounded wait). */
	bool db_fifo_align(volatile uint32_t *ci);
	/* __db_fifo_reset at port close: db_fifo_align, then the CI address cleared (31_7 first,
	 * then 63_32) so the hardware writes the CI nowhere until the next qpc_config. */
	bool db_fifo_reset(volatile uint32_t *ci);
	/* TX waits for XON: the MAC has a pause in force from the peer (RX_PAUSE_STATUS). */
	bool tx_paused() const
	{
		return bar_->rd32(reg::mac_128(port_, 0) + reg::MAC_128_RX_PAUSE_STATUS) &
		       reg::MAC_128_RX_PAUSE_STATUS_PAUSESTATUS.mask();
	}

	/* RXE as gaudi2_cn.c config_port_hw_rxe (raw rings of every priority, CQ block and CQ 0,
	 * the AXI user of each of the kRxeCqs CQs, CQ 0 enabled, CQs 1.. off, ARUSER MMU bypass,
	 * SPMU group), then the raw responder QPC (gaudi2_en.c res_qpc_init). */
	bool rx_init(const RxRingCfg &cfg);
	/* rx_init in two halves: the RXE block with the raw ring and CQ (config_port_hw_rxe,
	 * before the MAC) and the responder context (hbl_en's port open, after it). */
	void rx_config(const RxRingCfg &cfg);
	bool rx_qp_start();
	/* gaudi2_cn.c configure_cq with no RX coalescing (hbl_en's default rx_coalesce_usecs 0):
	 * the raw CQ's arm timer off (CQ_ARM_TIMEOUT_EN bit 0), read back. */
	void cq_arm_timer_off();
	void rx_disable();
	/* Return CQ entries up to free-running ci to the HW. */
	void rx_write_ci(uint32_t ci)
	{
		bar_->wr32(reg::qpc(port_) + reg::QPC_SECURED_CQ_NUMBER, kRawCq);
		bar_->wr32(reg::qpc(port_) + reg::QPC_SECURED_CQ_CONSUMER_INDEX, ci);
	}
	/* Arm the raw CQ: a COMP event fires once PI > index [gaudi2_en.c arm_cq]. */
	void arm_cq(uint32_t index)
	{
		bar_->wr32(reg::qpc(port_) + reg::QPC_ARM_CQ_NUM, kRawCq);
		bar_->wr32(reg::qpc(port_) + reg::QPC_ARM_CQ_INDEX, index);
	}

	void eq_init(const EqCfg &cfg);
	void eq_disable();
	/* EQ consumer index: 24 bits (EVENT_QUE_CONSUMER_INDEX.CI), EQ_NUM 0. */
	void eq_write_ci(uint32_t ci)
	{
		bar_->wr32(reg::qpc(port_) + reg::QPC_EVENT_QUE_CONSUMER_INDEX,
			   reg::QPC_EVENT_QUE_CONSUMER_INDEX_CI.put(ci));
	}

	/* MTU code of the requester QPC: log2(mtu + 26) - 10, rounded up [gaudi2_en.c]. */
	static uint32_t mtu_code(uint32_t mtu);

	/* gaudi2_cn_hw_mac_ch_reset's bound, in seconds: hbl_cn's pending_reset_long_timeout,
	 * which habanalabs sets to HL_HARD_RESET_MAX_TIMEOUT (120) [habanalabs.h, gaudi2_cn.c
	 * aux data]. */
	static constexpr unsigned kMacChResetTimeoutS = 120;

private:
	bool mac_ch_reset(unsigned lane);
	void mac_lane_speed(unsigned lane);
	bool gateway(uint32_t ctrl, const uint32_t *data, const uint32_t *mask, uint32_t n);
	/* Read-modify-write of one field, as gaudi2_cn.c NIC_RMWREG32. */
	void rmw(uint32_t off, reg::Field f, uint32_t v);
	void wr_lanes(uint32_t reg_in_ch, uint32_t val);

	Bar *bar_ = nullptr;
	/* fec_corrected / fec_uncorrected totals (atomic adds: readers in several threads) */
	mutable uint64_t fec_ccw_ = 0, fec_nccw_ = 0;
	unsigned port_ = 0;
	Speed speed_ = kDefaultSpeed;
	uint8_t mac_[6] = {};
};

/* Device-wide quiescence, once the firmware is up and before any port is configured: each of
 * the device's nports ports gets EVENT_QUE_CFG 0, INTERRUPT_EN 0, INTERRUPT_MASK all ones and
 * the PHY link-up interrupt masked (W/A H6-3339), then port 0's EVENT_QUE_CFG is read back
 * to flush the writes [habanalabs gaudi2_cn.c gaudi2_cn_disable_interrupts, from
 * gaudi2_hw_init's gaudi2_cn_quiescence: "enabled by default, need to disable them ASAP before
 * ports init"]. */
void nic_quiescence(Bar &bar, unsigned nports);

} /* namespace gaudi::hw */
