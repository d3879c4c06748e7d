/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: link, FEC and flow control. See gaudi_link.h.
 */
#include "gaudi_link.h"

#include "base/gaudi_macro.h"
#include "base/gaudi_regs.h"
#include "gaudi_eq.h"
#include "gaudi_logs.h"
#include "gaudi_phy_port.h"
#include "gaudi_tx.h"

using namespace gaudi;
using namespace gaudi::hw;

int gaudi_link_update(rte_eth_dev *dev, int wait)
{
	(void)wait;
	/* A secondary reports the link the primary published in dev->data->dev_link: the event
	 * queue and the link registers' owner is the primary. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	gaudi_port *port = gaudi_priv(dev);
	/* While started, the TX datapath owns the event queue (it completes TX from it): the
	 * started check is made under the EQ lock, which dev_start takes to set it. */
	rte_spinlock_lock(&port->eq_lock);
	if (!port->started && port->eq_live) /* not when the adapter holds our queue */
		gaudi_port_events_locked(port, nullptr);
	rte_spinlock_unlock(&port->eq_lock);
	gaudi_eq_report_events(port);
	rte_eth_link link = gaudi_link_get(port);
	return rte_eth_linkstatus_set(dev, &link);
}

/* ---- link ---- */

rte_eth_link gaudi_link_get(gaudi_port *port)
{
	rte_eth_link link{};
	/* [phy] Up once the PHY F/W tuned the lanes, as hbl_cn reports the PCS link only when
	 * phy_fw_tuned (do_fw_tuning). */
	link.link_status = port->started && port->hw.link_up() && gaudi_phy_link_ready(port)
				   ? RTE_ETH_LINK_UP
				   : RTE_ETH_LINK_DOWN;
	/* RTE_ETH_SPEED_NUM_* are Mb/s, as speed_mbps. */
	link.link_speed = link.link_status ? speed_mbps(port->hw.speed()) : RTE_ETH_SPEED_NUM_NONE;
	link.link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
	link.link_autoneg = RTE_ETH_LINK_FIXED;
	return link;
}

int gaudi_dev_set_link_up(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	if (!port->started)
		return -EINVAL; /* the port's MAC comes up with dev_start */
	port->hw.set_mac_enable(true);
	rte_eth_link link = gaudi_link_get(port);
	rte_eth_linkstatus_set(dev, &link);
	return 0;
}

int gaudi_dev_set_link_down(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	port->hw.set_mac_enable(false);
	rte_eth_link link = gaudi_link_get(port);
	rte_eth_linkstatus_set(dev, &link);
	return 0;
}

/* ---- FEC: RS-FEC (clause 91) or none, at the port's speed ---- */

namespace {
constexpr uint32_t kFecNone = RTE_ETH_FEC_MODE_CAPA_MASK(NOFEC);
constexpr uint32_t kFecRs = RTE_ETH_FEC_MODE_CAPA_MASK(RS);
constexpr uint32_t kFecAuto = RTE_ETH_FEC_MODE_CAPA_MASK(AUTO);
} /* namespace */

int gaudi_fec_get_capability(rte_eth_dev *dev, rte_eth_fec_capa *capa, unsigned num)
{
	if (capa == nullptr || num < 1)
		return 1;
	capa[0].speed = speed_mbps(gaudi_hw(dev).speed());
	capa[0].capa = kFecNone | kFecRs;
	return 1;
}

int gaudi_fec_get(rte_eth_dev *dev, uint32_t *capa)
{
	*capa = gaudi_hw(dev).rs_fec() ? kFecRs : kFecNone;
	return 0;
}

int gaudi_fec_set(rte_eth_dev *dev, uint32_t capa)
{
	if ((capa & ~(kFecNone | kFecRs | kFecAuto)) != 0 ||
	    (capa & (kFecNone | kFecRs)) == (kFecNone | kFecRs)) {
		PMD_DRV_LOG(ERR,
			    "port %u: FEC mode 0x%x: 100G offers RS (clause 91), no FEC or auto",
			    dev->data->port_id, capa);
		return -EINVAL;
	}
	/* AUTO alone picks RS-FEC, the 100G default (hbl_cn programs RS at 100G). */
	gaudi_priv(dev)->hw.set_rs_fec((capa & kFecNone) == 0);
	return 0;
}

/* ---- flow control ---- */

namespace {
/* hbl_cn's values: pause quanta 0xFFFF, refresh threshold 0x7FFF
 * [gaudi2_cn_hw_mac_port_config]; RXB XOFF 714 / XON 648 buffers [gaudi2_cn_config_hw_rxb]. */
constexpr uint16_t kDefaultQuanta = 0xFFFF;
constexpr uint32_t kDefaultXoff = macro::kRxbXoffTh;
constexpr uint32_t kDefaultXon = macro::kRxbXonTh;

int fc_conf_check(rte_eth_dev *dev, const rte_eth_fc_conf &fc)
{
	if (fc.autoneg) {
		PMD_DRV_LOG(ERR, "port %u: pause autonegotiation is not offered",
			    dev->data->port_id);
		return -EINVAL;
	}
	if (fc.mode > RTE_ETH_FC_FULL)
		return -EINVAL;
	bool tx = fc.mode == RTE_ETH_FC_TX_PAUSE || fc.mode == RTE_ETH_FC_FULL;
	/* XOFF must come before the RXB drops: at or below its DROP_THRESHOLD. */
	if (tx && (fc.high_water > macro::kRxbDropTh || fc.low_water > fc.high_water ||
		   fc.high_water == 0)) {
		PMD_DRV_LOG(ERR,
			    "port %u: water marks are 128-byte RXB buffers: 0 < low <= high <= %u "
			    "(the RXB drop threshold)",
			    dev->data->port_id, macro::kRxbDropTh);
		return -EINVAL;
	}
	return 0;
}

FlowCfg fc_to_cfg(const gaudi_port *port, const rte_eth_fc_conf &fc, bool pfc)
{
	FlowCfg f = port->hw.flow();
	f.rx_pause = fc.mode == RTE_ETH_FC_RX_PAUSE || fc.mode == RTE_ETH_FC_FULL;
	f.tx_pause = fc.mode == RTE_ETH_FC_TX_PAUSE || fc.mode == RTE_ETH_FC_FULL;
	f.pfc = pfc && fc.mode != RTE_ETH_FC_NONE;
	f.fwd = fc.mac_ctrl_frame_fwd != 0;
	if (fc.pause_time != 0)
		f.quanta = fc.pause_time;
	f.thresh = f.quanta / 2;
	if (f.tx_pause) {
		f.xoff = fc.high_water;
		f.xon = fc.low_water;
	}
	return f;
}
} /* namespace */

void gaudi_flow_defaults(gaudi_port *port)
{
	/* hbl_cn's: PAUSE received ignored (0x2913: PAUSE_IGNORE set, no PFC [gaudi2_cn.c]); PAUSE
	 * sent from the RXB's XOFF / XON thresholds it arms (gaudi2_cn_config_hw_rxb). */
	port->hw.set_flow({.rx_pause = false,
			   .tx_pause = true,
			   .pfc = false,
			   .fwd = false,
			   .quanta = kDefaultQuanta,
			   .thresh = kDefaultQuanta / 2,
			   .xoff = kDefaultXoff,
			   .xon = kDefaultXon});
}

int gaudi_flow_ctrl_get(rte_eth_dev *dev, rte_eth_fc_conf *fc)
{
	FlowCfg f = gaudi_hw(dev).flow();
	*fc = {};
	fc->high_water = f.xoff;
	fc->low_water = f.xon;
	fc->pause_time = f.quanta;
	fc->send_xon = 0;
	fc->mac_ctrl_frame_fwd = f.fwd;
	fc->autoneg = 0;
	/* With PFC on, link-level pause is off: the MAC sends and honours per-class frames. */
	if (f.pfc)
		fc->mode = RTE_ETH_FC_NONE;
	else if (f.rx_pause && f.tx_pause)
		fc->mode = RTE_ETH_FC_FULL;
	else if (f.rx_pause)
		fc->mode = RTE_ETH_FC_RX_PAUSE;
	else if (f.tx_pause)
		fc->mode = RTE_ETH_FC_TX_PAUSE;
	else
		fc->mode = RTE_ETH_FC_NONE;
	return 0;
}

int gaudi_flow_ctrl_set(rte_eth_dev *dev, rte_eth_fc_conf *fc)
{
	int rc = fc_conf_check(dev, *fc);
	if (rc != 0)
		return rc;
	gaudi_port *port = gaudi_priv(dev);
	port->hw.set_flow(fc_to_cfg(port, *fc, false));
	return 0;
}

int gaudi_priority_flow_ctrl_set(rte_eth_dev *dev, rte_eth_pfc_conf *pfc)
{
	if (pfc->priority >= kPfcPriorities) {
		PMD_DRV_LOG(ERR, "port %u: PFC priority %u: the NIC has priorities 0..%u",
			    dev->data->port_id, pfc->priority, kPfcPriorities - 1);
		return -EINVAL;
	}
	int rc = fc_conf_check(dev, pfc->fc);
	if (rc != 0)
		return rc;
	/* All-or-none [gaudi2_cn_dcbnl.c]: the setting applies to the 4 priorities together. */
	gaudi_port *port = gaudi_priv(dev);
	port->hw.set_flow(fc_to_cfg(port, pfc->fc, true));
	return 0;
}
