/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: port start and stop (as DPDK's mlx5_trigger.c): the queues, the event queue, the
 * QPC, the MAC, interrupts, the watchdog and the PHY, in the order the public driver brings a
 * port up and down. See gaudi_trigger.h.
 */
#include "gaudi_trigger.h"

#include <ethdev_driver.h>

#include "base/gaudi_nic_mem.h"
#include "gaudi_eq.h"
#include "gaudi_intr.h"
#include "gaudi_link.h"
#include "gaudi_logs.h"
#include "gaudi_mac.h"
#include "gaudi_phy_port.h"
#include "gaudi_rxq.h"
#include "gaudi_txq.h"
#include "gaudi_watchdog.h"

using namespace gaudi;
using namespace gaudi::hw;

int gaudi_dev_start(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	auto *rxq = gaudi_rxq0(dev);
	auto *txq = gaudi_txq0(dev);
	if (rxq == nullptr || txq == nullptr) {
		PMD_DRV_LOG(ERR, "port %u: start needs rx and tx queue 0 set up",
			    dev->data->port_id);
		return -EINVAL;
	}
	uint32_t max_frame = gaudi_max_frame(dev->data->mtu);
	if (rxq->max_frame != max_frame) { /* MTU changed since setup */
		int rc = gaudi_rxq_alloc_ring(dev, rxq);
		if (rc != 0)
			return rc;
	}
	if (txq->bounce_stride < max_frame) { /* MTU raised since setup */
		int rc = gaudi_txq_alloc_bounce(dev, txq);
		if (rc != 0)
			return rc;
	}
	txq->max_frame = max_frame;
	uint32_t room = rte_pktmbuf_data_room_size(rxq->mp) - RTE_PKTMBUF_HEADROOM;
	if (!rxq->scatter && max_frame > room) {
		PMD_DRV_LOG(ERR, "port %u: MTU %u needs %u-byte mbufs or scattered rx (room %u)",
			    dev->data->port_id, dev->data->mtu, max_frame, room);
		return -EINVAL;
	}

	if (port->hw.id() & 1) /* the adapter may consume our EQ for the even sibling */
		gaudi_link_eq_release(port->adapter, port->hw.id());
	rte_spinlock_lock(&port->eq_lock);
	gaudi_port_eq_start(port);
	rte_spinlock_unlock(&port->eq_lock);
	/* gaudi2_cn.c hw_port_config: TXS is programmed at bring-up (gaudi_bringup), the QPC
	 * block here, then the TXE and RXE blocks with the queues' rings (a queue started
	 * deferred gets them at its own start, after the MAC). */
	unsigned hw_port = port->hw.id();
	port->hw.qpc_config({nicmem::req_qpc_addr(hw_port), nicmem::res_qpc_addr(hw_port),
			     gaudi_db_ci_iova(port)});
	rxq->started = txq->started = false;
	dev->data->rx_queue_state[0] = RTE_ETH_QUEUE_STATE_STOPPED;
	dev->data->tx_queue_state[0] = RTE_ETH_QUEUE_STATE_STOPPED;
	int rc = 0;
	if (!txq->deferred)
		gaudi_txq_hw_config(dev, txq);
	if (!rxq->deferred)
		rc = gaudi_rxq_hw_config(dev, rxq);
	if (rc != 0) {
		gaudi_link_eq_update(port->adapter, port->hw.id());
		return rc;
	}
	/* Then the MAC filter and the MAC lanes, and PCS loopback, before the raw QPs are made
	 * valid, as hbl_cn's port open: gaudi2_cn_hw_port_config (config_hw_mac_filter,
	 * hw_mac_port_config), gaudi2_cn_hw_mac_loopback_cfg (the channel reset clears
	 * loopback), then gaudi2_en_port_open. */
	port->hw.set_mac_addr(dev->data->mac_addrs[0].addr_bytes);
	gaudi_mac_filters_restore(dev);
	if (!port->hw.mac_config(true))
		PMD_DRV_LOG(ERR, "port %u: a MAC channel stayed in reset (PCS CONTROL1.FLD_RESET)",
			    dev->data->port_id);
	port->hw.set_loopback(dev->data->dev_conf.lpbk_mode == 1);

	/* The raw QP contexts, responder then requester [gaudi2_en.c config_qp]. */
	if (!rxq->deferred)
		rc = gaudi_rxq_hw_activate(dev, rxq);
	if (rc == 0 && !txq->deferred)
		rc = gaudi_txq_hw_activate(dev, txq);
	if (rc != 0) {
		PMD_DRV_LOG(ERR, "port %u: QPC gateway did not answer", dev->data->port_id);
		gaudi_link_eq_update(port->adapter, port->hw.id());
		return rc;
	}
	port->hw.cq_arm_timer_off(); /* gaudi2_en_port_open: configure_cq after config_qp */
	gaudi_intr_start(dev);
	rte_spinlock_lock(&port->eq_lock);
	port->started = true;
	rte_spinlock_unlock(&port->eq_lock);
	gaudi_link_eq_update(port->adapter, port->hw.id()); /* before the link comes up */
	gaudi_watchdog_start(dev);			    /* [faults] TX watchdog */
	/* [phy] Power-up and TX driver on; the link-state machine reports the link once the
	 * F/W tuned the lanes. A failed power-up leaves the port started with its link down. */
	port->phy.report = gaudi_intr_lsc_check; /* the PHY's tuned-state changes */
	gaudi_phy_start(dev);
	gaudi_link_update(dev, 0);
	PMD_DRV_LOG(DEBUG, "port %u: started", dev->data->port_id);
	return 0;
}

int gaudi_dev_stop(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	if (!port->started)
		return 0;
	gaudi_watchdog_stop(dev); /* [faults] */
	gaudi_phy_stop(dev);	  /* [phy] TX driver off */
	port->hw.mac_config(false);
	gaudi_intr_stop(dev);
	/* gaudi2_en_port_close's order: CQ arm timer off, requester QPC invalid, responder QPC
	 * invalid, then the doorbell FIFO reset (__db_fifo_reset: wrapped to 63, CI address
	 * cleared; qpc_config sets it again at the next start). */
	port->hw.cq_arm_timer_off();
	auto *txq = gaudi_txq0(dev);
	if (txq != nullptr && txq->started)
		gaudi_txq_hw_stop(dev, txq);
	if (auto *rxq = gaudi_rxq0(dev))
		gaudi_rxq_hw_stop(dev, rxq);
	if (!port->hw.db_fifo_reset(port->mem.db_ci))
		PMD_DRV_LOG(WARNING, "port %u: doorbell FIFO reset: CI did not reach 63 (reads %u)",
			    dev->data->port_id, *port->mem.db_ci);
	gaudi_tx_lock_all(port, txq);
	gaudi_port_events_locked(port, txq);
	port->hw.eq_disable();
	port->eq_live = false;
	port->started = false;
	gaudi_tx_unlock_all(port, txq);
	gaudi_link_eq_update(port->adapter, port->hw.id());
	if (txq != nullptr)
		gaudi_tx_drain(txq);
	port->adapter->backend->flush();
	dev->data->rx_queue_state[0] = RTE_ETH_QUEUE_STATE_STOPPED;
	dev->data->tx_queue_state[0] = RTE_ETH_QUEUE_STATE_STOPPED;
	gaudi_link_update(dev, 0);
	PMD_DRV_LOG(DEBUG, "port %u: stopped", dev->data->port_id);
	return 0;
}
