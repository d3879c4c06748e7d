/* SPDX-License-Identifier: BSD-3-Clause
 * Programming one Gaudi2 NIC port for raw Ethernet: MAC, MAC filter, raw QP contexts, TX work
 * queue, doorbell FIFO, RX slot ring and CQ, event queue, counters.
 *
 * This is the hardware layer shared by the PCI device and the device model: it only touches
 * registers (through Bar) and never owns memory. Ring memory is the caller's; addresses passed
 * here are IOVAs the device DMAs to. Sequences follow hbl_cn gaudi2_cn.c / gaudi2_en.c [regs].
 */
#pragma once

#include <cstdint>

#include "gaudi_bar.h"
#include "gaudi_desc.h"
#include "gaudi_hw_defs.h"
#include "gaudi_mac_stats.h"
#include "gaudi_qpc.h"
#include "gaudi_regs.h"

namespace gaudi::hw {

/* TX ring programming. wq_log2 = log2(entries) (kTxRingMin..kTxRingMax). */
struct TxRingCfg {
	uint64_t wq_iova;       /* kRingAlign-aligned array of TxWqe */
	uint32_t wq_log2;
	uint64_t db_ci_iova;    /* kDbFifoCiAlign-aligned uint32_t the HW writes the FIFO CI to */
	uint32_t mtu;           /* bytes; encoded as log2(mtu) - 10 rounded up */
};

/* RX ring programming: slot ring of 2^count_log2 slots of 2^slot_log2 bytes, and the raw CQ of
 * the same number of entries. */
struct RxRingCfg {
	uint64_t slots_iova;    /* kRingAlign-aligned */
	uint32_t slot_log2;
	uint32_t count_log2;
	uint64_t cq_iova;       /* kRingAlign-aligned array of Cqe */
	uint64_t cq_pi_iova;    /* uint32_t the HW writes the CQ PI to (free-running) */
};

/* Flow control of a port's MAC [facts §4]: PAUSE_IGNORE clear = honour received PAUSE
 * (rx_pause), TXB GLOBAL_PAUSE = send PAUSE (tx_pause), PFC_MODE = class-based (PFC) instead of
 * link-level pause, on the 4 priorities at once (all-or-none [facts §4]). */
struct FlowCfg {
	bool rx_pause;
	bool tx_pause;
	bool pfc;
	bool fwd;           /* pass PAUSE frames up (PAUSE_FWD) */
	uint16_t quanta;    /* pause time of class 0 (link pause) / every class (PFC) */
	uint16_t thresh;    /* refresh threshold */
	uint32_t xoff;      /* RXB thresholds, 128-byte buffers */
	uint32_t xon;
};
inline constexpr unsigned kPfcPriorities = 4;

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

	/* MAC: COMMAND_CONFIG on both lanes of the port; frm_length includes FCS. */
	void mac_config(bool enable, bool promisc, uint32_t frm_length);
	void set_promisc(bool on);
	void set_allmulti(bool on);
	void set_frm_length(uint32_t frm_length);
	/* Station address: MAC_ADDR on both lanes and the RXB exact-match raw filter. */
	void set_mac_addr(const uint8_t mac[6]);
	/* MAC_PCS CONTROL1.LOOPBACK on both lanes [facts §4]. */
	void set_loopback(bool on);
	bool link_up() const;
	/* MAC TX_ENA | RX_ENA on both lanes, the rest of COMMAND_CONFIG kept. */
	void set_mac_enable(bool on);
	/* Extra exact-match MAC filters: unicast slot i (< kRxbUcFilters), null mac = clear. */
	void set_uc_filter(unsigned i, const uint8_t *mac);
	/* Multicast filter table: n (<= kRxbMcFilters) addresses, replacing the previous list. */
	void set_mc_filters(const uint8_t (*macs)[6], unsigned n);
	/* RS-FEC (clause 91) on or off for the port's lanes. */
	void set_rs_fec(bool on);
	bool rs_fec() const;
	uint64_t fec_corrected() const;
	uint64_t fec_uncorrected() const;
	void set_flow(const FlowCfg &f);
	FlowCfg flow() const;
	/* QPC interrupt index: MSI enable + unmask (or disable + mask); clear a pending cause. */
	void intr_enable(uint32_t index, bool on);
	void intr_clear(uint32_t index)
	{
		bar_->wr32(reg::qpc(port_) + reg::QPC_INTERRUPT_CLR, reg::intr_bit(index));
	}
	uint32_t fw_version() const { return bar_->rd32(reg::qpc(port_) + reg::QPC_FW_VERSION); }

	/* 64-bit MAC counters: LO word then DATA_HI latch [facts §4]. */
	uint64_t rx_stat(RxStat s) const;
	uint64_t tx_stat(TxStat s) const;
	void stats_reset();

	/* Raw QP contexts through the QPC gateway. Return false if the gateway stays busy. */
	bool qpc_write_req(const qpc::ReqImage &img);
	bool qpc_write_res(const qpc::ResImage &img);

	/* [faults] Read the raw requester QPC back (GW_CTRL READ): fields in img.mask. */
	bool qpc_read_req(qpc::ReqImage *img);
	/* [faults] Restart the raw QP after a QP error: VALID, ERROR clear, EXECUTION_IDX = exec,
	 * the rest of the context kept. */
	bool tx_resume(uint32_t exec);
	bool tx_init(const TxRingCfg &cfg);
	bool tx_disable();
	/* Push one 8-byte doorbell: new free-running WQ PI for the raw QP. */
	void ring_doorbell(uint32_t pi)
	{
		bar_->wr32(reg::qpc(port_) + reg::QPC_SECURED_DB_FIRST32, pi & DB_PI_MASK);
		bar_->wr32(reg::qpc(port_) + reg::QPC_SECURED_DB_SECOND32,
			   db_second32(kRawQpn, port_));
	}
	uint32_t db_fifo_overruns() const
	{
		return bar_->rd32(reg::qpc(port_) + reg::QPC_DB_FIFO_OVERRUN_CNT);
	}
	/* TX waits for XON: the peer's PAUSE/PFC is honoured (TXE_FC_STATUS). */
	bool tx_paused() const
	{
		return bar_->rd32(reg::txe(port_) + reg::TXE_FC_STATUS) & reg::TXE_FC_STATUS_PAUSED;
	}

	bool rx_init(const RxRingCfg &cfg);
	void rx_disable();
	/* Return CQ entries up to free-running ci to the HW. */
	void rx_write_ci(uint32_t ci)
	{
		bar_->wr32(reg::qpc(port_) + reg::QPC_SECURED_CQ_NUMBER, kRawCq);
		bar_->wr32(reg::qpc(port_) + reg::QPC_SECURED_CQ_CONSUMER_INDEX, ci);
	}
	/* Arm the raw CQ: an EQ COMP event fires once PI > index [facts §2]. */
	void arm_cq(uint32_t index)
	{
		bar_->wr32(reg::qpc(port_) + reg::QPC_ARM_CQ_NUM, kRawCq);
		bar_->wr32(reg::qpc(port_) + reg::QPC_ARM_CQ_INDEX, index);
	}

	void eq_init(const EqCfg &cfg);
	void eq_disable();
	void eq_write_ci(uint32_t ci)
	{
		bar_->wr32(reg::qpc(port_) + reg::QPC_EVENT_QUE_CONSUMER_INDEX, ci);
	}
	uint32_t eq_overruns() const
	{
		return bar_->rd32(reg::qpc(port_) + reg::QPC_EVENT_QUE_OVERRUN_CNT);
	}

	/* MTU code of the requester QPC: log2(mtu) - 10, rounded up [facts §2]. */
	static uint32_t mtu_code(uint32_t mtu);

private:
	bool gateway(uint32_t ctrl, const uint32_t *data, const uint32_t *mask, uint32_t n);
	void wr_lanes(uint32_t reg_in_ch, uint32_t val);
	uint64_t stat(uint32_t off) const;

	Bar *bar_ = nullptr;
	unsigned port_ = 0;
};

} // namespace gaudi::hw
