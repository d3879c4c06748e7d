/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: ethdev features of the control path. See gaudi_features.h and
 * doc/guides/nics/gaudi.rst ("Features").
 */
#include "gaudi_features.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string_view>

#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_interrupts.h>
#include <rte_malloc.h>

#include "base/gaudi_mac_stats.h"
#include "emu/gaudi_emu.h"
#include "gaudi_logs.h"
#include "gaudi_rxtx.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

gaudi_port *priv(rte_eth_dev *dev) { return static_cast<gaudi_port *>(dev->data->dev_private); }

gaudi_rxq *rxq0(const rte_eth_dev *dev)
{
	if (dev->data->rx_queues == nullptr || dev->data->nb_rx_queues == 0)
		return nullptr;
	return static_cast<gaudi_rxq *>(dev->data->rx_queues[0]);
}

gaudi_txq *txq0(const rte_eth_dev *dev)
{
	if (dev->data->tx_queues == nullptr || dev->data->nb_tx_queues == 0)
		return nullptr;
	return static_cast<gaudi_txq *>(dev->data->tx_queues[0]);
}

/* The device model (primary only: null on silicon and in secondary processes). */
emu::Device *model(rte_eth_dev *dev) { return gaudi_adapter_of(dev)->emu.get(); }

} // namespace

/* ---- burst mode, firmware version, packet types ---- */

int gaudi_burst_mode_get(rte_eth_dev *dev, uint16_t qid, rte_eth_burst_mode *mode)
{
	(void)dev;
	(void)qid;
	mode->flags = 0;
	snprintf(mode->info, sizeof(mode->info), "Scalar");
	return 0;
}

int gaudi_fw_version_get(rte_eth_dev *dev, char *fw, size_t len)
{
	/* On silicon the version comes from the device CPU (cpucp INFO_GET), not a NIC register:
	 * not read by this driver yet. The model reports its own version. */
	if (!gaudi_is_emulated(dev))
		return -ENOTSUP;
	uint32_t v = emu::Device::kFwVersion;
	int n = snprintf(fw, len, "emu-%u.%u.%u", (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF);
	if (n < 0)
		return -EINVAL;
	size_t need = static_cast<size_t>(n) + 1;
	return need > len ? static_cast<int>(need) : 0;
}

const uint32_t *gaudi_ptypes_get(rte_eth_dev *dev)
{
	(void)dev;
	return gaudi_ptypes;
}

/* ---- extended statistics ---- */

namespace {

/* MAC counters as xstats: mac_<rx|tx>_<what>, in gaudi_mac_stats.h order. */
constexpr const char *kRxNames[] = {
	"mac_rx_octets", "mac_rx_good_octets", "mac_rx_alignment_errors", "mac_rx_pause_frames",
	"mac_rx_frame_too_long_errors", "mac_rx_in_range_length_errors", "mac_rx_good_frames",
	"mac_rx_fcs_errors", "mac_rx_vlan_frames", "mac_rx_errors", "mac_rx_unicast_packets",
	"mac_rx_multicast_packets", "mac_rx_broadcast_packets", "mac_rx_drop_events",
	"mac_rx_packets", "mac_rx_undersize_packets", "mac_rx_size_64_packets",
	"mac_rx_size_65_to_127_packets", "mac_rx_size_128_to_255_packets",
	"mac_rx_size_256_to_511_packets", "mac_rx_size_512_to_1023_packets",
	"mac_rx_size_1024_to_1518_packets", "mac_rx_size_1519_to_max_packets",
	"mac_rx_oversize_packets", "mac_rx_jabbers", "mac_rx_fragments",
	"mac_rx_pfc_prio0_pause_frames", "mac_rx_pfc_prio1_pause_frames",
	"mac_rx_pfc_prio2_pause_frames", "mac_rx_pfc_prio3_pause_frames",
	"mac_rx_pfc_prio4_pause_frames", "mac_rx_pfc_prio5_pause_frames",
	"mac_rx_pfc_prio6_pause_frames", "mac_rx_pfc_prio7_pause_frames",
	"mac_rx_control_frames",
};
static_assert(std::size(kRxNames) == size_t(RxStat::count));

constexpr const char *kTxNames[] = {
	"mac_tx_octets", "mac_tx_good_octets", "mac_tx_pause_frames", "mac_tx_good_frames",
	"mac_tx_vlan_frames", "mac_tx_errors", "mac_tx_unicast_packets",
	"mac_tx_multicast_packets", "mac_tx_broadcast_packets", "mac_tx_size_64_packets", "mac_tx_size_65_to_127_packets",
	"mac_tx_size_128_to_255_packets", "mac_tx_size_256_to_511_packets",
	"mac_tx_size_512_to_1023_packets", "mac_tx_size_1024_to_1518_packets",
	"mac_tx_size_1519_to_max_packets",
	"mac_tx_pfc_prio0_pause_frames", "mac_tx_pfc_prio1_pause_frames",
	"mac_tx_pfc_prio2_pause_frames", "mac_tx_pfc_prio3_pause_frames",
	"mac_tx_pfc_prio4_pause_frames", "mac_tx_pfc_prio5_pause_frames",
	"mac_tx_pfc_prio6_pause_frames", "mac_tx_pfc_prio7_pause_frames",
	"mac_tx_control_frames", "mac_tx_packets",
};
static_assert(std::size(kTxNames) == size_t(TxStat::count));

/* Port-level counters: RS-FEC, doorbells lost to FIFO overruns, event-queue events. */
enum PortX : unsigned {
	fec_corrected, fec_uncorrected, db_fifo_overruns, ev_cq_overrun,
	ev_db_overrun, ev_qp_err, ev_link,
	/* [faults] gaudi_recovery.h */
	rec_db_rerings, rec_qp_recoveries, rec_tx_fault_drops, rec_link_down, rec_link_up,
	rec_tx_watchdog, rec_reset_events, port_x_count
};
constexpr const char *kPortNames[] = {
	"rx_fec_corrected_codewords", "rx_fec_uncorrected_codewords", "tx_doorbell_fifo_overruns",
	"rx_cq_overrun_events", "tx_doorbell_fifo_overrun_events",
	"qp_error_events", "link_status_events",
	"recovery_db_rerings", "recovery_qp_resets", "recovery_tx_fault_drops",
	"recovery_link_down_events", "recovery_link_up_events", "recovery_tx_watchdog",
	"recovery_reset_events",
};
static_assert(std::size(kPortNames) == port_x_count);

/* Driver counters of queue 0 the basic per-queue stats do not carry. */
constexpr const char *kQueueNames[] = {
	"rx_q0_cqe_not_valid", "rx_q0_address_filtered", "tx_q0_errors", "tx_q0_doorbell_busy",
};

constexpr unsigned kNbMac = unsigned(RxStat::count) + unsigned(TxStat::count);
constexpr unsigned kNbXstats = kNbMac + port_x_count + std::size(kQueueNames);

uint64_t port_x(const gaudi_port *port, const Port &hw, unsigned i)
{
	switch (i) {
	case fec_corrected: return hw.fec_corrected();
	case fec_uncorrected: return hw.fec_uncorrected();
	case db_fifo_overruns: return port->rec.db_lost;
	case ev_cq_overrun: return port->ev_cq_overrun;
	case ev_db_overrun: return port->ev_db_overrun;
	case ev_qp_err: return port->ev_qp_err;
	case ev_link: return port->ev_link;
	case rec_db_rerings: return port->rec.db_rerings;
	case rec_qp_recoveries: return port->rec.qp_recoveries;
	case rec_tx_fault_drops: return port->rec.tx_fault_drops;
	case rec_link_down: return port->rec.link_down;
	case rec_link_up: return port->rec.link_up;
	case rec_tx_watchdog: return port->rec.tx_watchdog;
	case rec_reset_events: return port->rec.reset_events;
	default: return 0;
	}
}

} // namespace

int gaudi_xstats_get_names(rte_eth_dev *dev, rte_eth_xstat_name *names, unsigned n)
{
	(void)dev;
	if (names == nullptr || n < kNbXstats)
		return kNbXstats;
	unsigned k = 0;
	for (const char *s : kRxNames)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s", s);
	for (const char *s : kTxNames)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s", s);
	for (const char *s : kPortNames)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s", s);
	for (const char *s : kQueueNames)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s", s);
	return kNbXstats;
}

int gaudi_xstats_get(rte_eth_dev *dev, rte_eth_xstat *xs, unsigned n)
{
	if (xs == nullptr || n < kNbXstats)
		return kNbXstats;
	gaudi_port *port = priv(dev);
	const Port &hw = gaudi_hw(dev); /* secondary-safe */
	unsigned k = 0;
	for (unsigned i = 0; i < unsigned(RxStat::count); i++, k++)
		xs[k] = {k, hw.rx_stat(RxStat(i))};
	for (unsigned i = 0; i < unsigned(TxStat::count); i++, k++)
		xs[k] = {k, hw.tx_stat(TxStat(i))};
	for (unsigned i = 0; i < port_x_count; i++, k++)
		xs[k] = {k, port_x(port, hw, i)};
	gaudi_rxq *rxq = rxq0(dev);
	gaudi_txq *txq = txq0(dev);
	xs[k] = {k, rxq ? rxq->cqe_not_valid : 0};
	k++;
	xs[k] = {k, rxq ? rxq->filtered : 0};
	k++;
	xs[k] = {k, txq ? txq->errors : 0};
	k++;
	xs[k] = {k, txq ? txq->db_busy : 0};
	k++;
	return kNbXstats;
}

int gaudi_xstats_reset(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	/* Basic stats and MAC counters (stats_reset), then what only xstats show. The device's
	 * overrun registers and FEC counters are not cleared by software: they keep counting. */
	int rc = dev->dev_ops->stats_reset(dev);
	port->ev_cq_overrun = port->ev_db_overrun = port->ev_qp_err = port->ev_link = 0;
	return rc;
}

/* ---- FEC: RS-FEC (clause 91) or none at 100G ---- */

namespace {
constexpr uint32_t kFecNone = RTE_ETH_FEC_MODE_CAPA_MASK(NOFEC);
constexpr uint32_t kFecRs = RTE_ETH_FEC_MODE_CAPA_MASK(RS);
constexpr uint32_t kFecAuto = RTE_ETH_FEC_MODE_CAPA_MASK(AUTO);
} // namespace

int gaudi_fec_get_capability(rte_eth_dev *dev, rte_eth_fec_capa *capa, unsigned num)
{
	(void)dev;
	if (capa == nullptr || num < 1)
		return 1;
	capa[0].speed = RTE_ETH_SPEED_NUM_100G;
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
	if ((capa & ~(kFecNone | kFecRs | kFecAuto)) != 0 || (capa & (kFecNone | kFecRs)) ==
	    (kFecNone | kFecRs)) {
		GAUDI_LOG(ERR, "port %u: FEC mode 0x%x: 100G offers RS (clause 91), no FEC or auto",
			  dev->data->port_id, capa);
		return -EINVAL;
	}
	/* AUTO alone picks RS-FEC, the 100G default (hbl_cn programs RS at 100G). */
	priv(dev)->hw.set_rs_fec((capa & kFecNone) == 0);
	return 0;
}

/* ---- module EEPROM (QSFP28, SFF-8636) ---- */

int gaudi_get_module_info(rte_eth_dev *dev, rte_eth_dev_module_info *info)
{
	if (!gaudi_is_emulated(dev))
		return -ENOTSUP; /* silicon: firmware (cpucp) module access not implemented */
	info->type = RTE_ETH_MODULE_SFF_8636;
	info->eeprom_len = RTE_ETH_MODULE_SFF_8636_LEN;
	return 0;
}

int gaudi_get_module_eeprom(rte_eth_dev *dev, rte_dev_eeprom_info *info)
{
	if (!gaudi_is_emulated(dev))
		return -ENOTSUP;
	if (info->offset >= emu::Device::kModuleEepromLen ||
	    info->length > emu::Device::kModuleEepromLen - info->offset)
		return -EINVAL;
	uint8_t buf[emu::Device::kModuleEepromLen];
	emu::Device::module_eeprom(gaudi_hw(dev).id(), buf);
	memcpy(info->data, buf + info->offset, info->length);
	return 0;
}

/* ---- register dump: the registers of the published map the driver knows (base/gaudi_regs.h
 * kRegRows), in table order, for this port's copy of each block (MAC_PCS and MAC_128: both
 * of its lanes). Only mapped registers are read: the rest of a block is not the driver's. ---- */

namespace {
/* Offsets of row r for port p; returns how many (0, 1 or 2 lanes). */
unsigned reg_row_offsets(unsigned p, const reg::RegRow &r, uint32_t out[2])
{
	std::string_view b(r.block);
	if (b == "QPC")
		out[0] = reg::qpc(p);
	else if (b == "QPC_DBFIFOSECUR_CI_UPD_ADDR")
		out[0] = reg::qpc_dbfifosecur(p);
	else if (b == "RXE")
		out[0] = reg::rxe(p);
	else if (b == "TXE")
		out[0] = reg::txe(p);
	else if (b == "RXB_CORE")
		out[0] = reg::rxb(p);
	else if (b == "TXB")
		out[0] = reg::txb(p);
	else if (b == "MAC_CORE")
		out[0] = reg::mac_core(p);
	else if (b == "MAC_RS_FEC")
		out[0] = reg::mac_rs_fec(p);
	else if (b == "MAC_GLOB_STAT_CONTROL")
		out[0] = reg::mac_stat(p);
	else if (b == "MAC_GLOB_STAT_RX0")
		out[0] = reg::mac_stat(p) + reg::stat_rx(p);
	else if (b == "MAC_GLOB_STAT_TX0")
		out[0] = reg::mac_stat(p) + reg::stat_tx(p);
	else if (b == "MAC_PCS" || b == "MAC_128") {
		bool pcs = b == "MAC_PCS";
		for (unsigned l = 0; l < kLanesPerPort; l++)
			out[l] = pcs ? reg::mac_pcs(p, l) : reg::mac_128(p, l);
		for (unsigned l = 0; l < kLanesPerPort; l++)
			out[l] += r.off;
		return kLanesPerPort;
	} else
		return 0;
	out[0] += r.off;
	return 1;
}
unsigned reg_dump_words(unsigned p)
{
	unsigned n = 0;
	uint32_t o[2];
	for (const reg::RegRow &r : reg::kRegRows)
		n += reg_row_offsets(p, r, o);
	return n;
}
} // namespace

int gaudi_get_reg(rte_eth_dev *dev, rte_dev_reg_info *info)
{
	const Port &hw = gaudi_hw(dev); /* secondary-safe */
	uint32_t words = reg_dump_words(hw.id());
	if (info->data == nullptr) {
		info->length = words;
		info->width = sizeof(uint32_t);
		return 0;
	}
	if (info->length != 0 && info->length != words)
		return -ENOTSUP; /* full dumps only */
	auto *out = static_cast<uint32_t *>(info->data);
	unsigned k = 0;
	for (const reg::RegRow &r : reg::kRegRows) {
		uint32_t o[2];
		unsigned n = reg_row_offsets(hw.id(), r, o);
		for (unsigned i = 0; i < n; i++)
			out[k++] = hw.bar()->rd32(o[i]);
	}
	info->length = words;
	info->width = sizeof(uint32_t);
	info->offset = 0;
	/* Device id and dump layout version 2 (the published map's rows). */
	info->version = (uint32_t(kPciDeviceGaudi2) << 16) | 2;
	return 0;
}

/* ---- flow control ---- */

namespace {
constexpr uint16_t kDefaultQuanta = 0xFFFF;
constexpr uint32_t kDefaultXoff = reg::kRxbBuffers / 2; /* Linux's static credits per port */
constexpr uint32_t kDefaultXon = reg::kRxbBuffers / 4;

int fc_conf_check(rte_eth_dev *dev, const rte_eth_fc_conf &fc)
{
	if (fc.autoneg) {
		GAUDI_LOG(ERR, "port %u: pause autonegotiation is not offered", dev->data->port_id);
		return -EINVAL;
	}
	if (fc.mode > RTE_ETH_FC_FULL)
		return -EINVAL;
	bool tx = fc.mode == RTE_ETH_FC_TX_PAUSE || fc.mode == RTE_ETH_FC_FULL;
	if (tx && (fc.high_water > reg::kRxbBuffers || fc.low_water > fc.high_water ||
		   fc.high_water == 0)) {
		GAUDI_LOG(ERR, "port %u: water marks are RXB buffers: 0 < low <= high <= %u",
			  dev->data->port_id, reg::kRxbBuffers);
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
} // namespace

void gaudi_flow_defaults(gaudi_port *port)
{
	/* 0x2913: PAUSE_IGNORE set, no PFC [facts §4]. */
	port->hw.set_flow({.rx_pause = false, .tx_pause = false, .pfc = false, .fwd = false,
			   .quanta = kDefaultQuanta, .thresh = kDefaultQuanta / 2,
			   .xoff = kDefaultXoff, .xon = kDefaultXon});
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
	gaudi_port *port = priv(dev);
	port->hw.set_flow(fc_to_cfg(port, *fc, false));
	return 0;
}

int gaudi_priority_flow_ctrl_set(rte_eth_dev *dev, rte_eth_pfc_conf *pfc)
{
	if (pfc->priority >= kPfcPriorities) {
		GAUDI_LOG(ERR, "port %u: PFC priority %u: the NIC has priorities 0..%u",
			  dev->data->port_id, pfc->priority, kPfcPriorities - 1);
		return -EINVAL;
	}
	int rc = fc_conf_check(dev, pfc->fc);
	if (rc != 0)
		return rc;
	/* All-or-none [facts §4]: the setting applies to the 4 priorities together. */
	gaudi_port *port = priv(dev);
	port->hw.set_flow(fc_to_cfg(port, pfc->fc, true));
	return 0;
}

/* ---- MAC filters ---- */

int gaudi_mac_addr_add(rte_eth_dev *dev, rte_ether_addr *addr, uint32_t index, uint32_t vmdq)
{
	if (vmdq != 0)
		return -ENOTSUP;
	if (index == 0 || index >= kGaudiMaxMacAddrs)
		return -EINVAL;
	if (rte_is_zero_ether_addr(addr) || rte_is_broadcast_ether_addr(addr))
		return -EINVAL;
	/* ethdev stores addr in mac_addrs[index] after this returns: filter from a copy. */
	dev->data->mac_addrs[index] = *addr;
	gaudi_mac_filters_restore(dev);
	return 0;
}

void gaudi_mac_addr_remove(rte_eth_dev *dev, uint32_t index)
{
	if (index == 0 || index >= kGaudiMaxMacAddrs)
		return;
	memset(&dev->data->mac_addrs[index], 0, sizeof(rte_ether_addr));
	gaudi_mac_filters_restore(dev);
}

void gaudi_mac_filters_restore(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	port->n_uc = 0;
	for (unsigned i = 1; i < kGaudiMaxMacAddrs; i++) {
		const rte_ether_addr *a = &dev->data->mac_addrs[i];
		if (!rte_is_zero_ether_addr(a))
			port->uc[port->n_uc++] = *a;
	}
	gaudi_rx_filter_apply(port);
}

int gaudi_set_mc_addr_list(rte_eth_dev *dev, rte_ether_addr *list, uint32_t n)
{
	if (n > kGaudiMaxMcAddrs) {
		GAUDI_LOG(ERR, "port %u: %u multicast addresses, the filter holds %u",
			  dev->data->port_id, n, kGaudiMaxMcAddrs);
		return -ENOSPC;
	}
	for (uint32_t i = 0; i < n; i++)
		if (!rte_is_multicast_ether_addr(&list[i]) || rte_is_broadcast_ether_addr(&list[i]))
			return -EINVAL;
	gaudi_port *port = priv(dev);
	for (uint32_t i = 0; i < n; i++)
		port->mc[i] = list[i];
	port->n_mc = uint8_t(n);
	gaudi_rx_filter_apply(port);
	return 0;
}

/* The hardware has one raw address filter per port, RXB TS_RAW0 (value and don't-care mask)
 * [gaudi2_cn.c config_hw_mac_filter]; the MAC stays promiscuous as hbl_cn leaves it. More
 * addresses, allmulti or multicast lists open the filter (mask all ones) and rx_burst keeps
 * what the lists allow; promiscuous opens it with no software filter. */
void gaudi_rx_filter_apply(gaudi_port *port)
{
	bool sw = !port->promisc && (port->allmulti || port->n_uc != 0 || port->n_mc != 0);
	port->hw.set_rxb_accept_all(port->promisc || sw);
	__atomic_store_n(&port->sw_filter, sw, __ATOMIC_RELEASE);
}

/* ---- link ---- */

rte_eth_link gaudi_link_get(gaudi_port *port)
{
	rte_eth_link link{};
	link.link_status = port->started && port->hw.link_up() ? RTE_ETH_LINK_UP
							       : RTE_ETH_LINK_DOWN;
	link.link_speed = link.link_status ? RTE_ETH_SPEED_NUM_100G : RTE_ETH_SPEED_NUM_NONE;
	link.link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
	link.link_autoneg = RTE_ETH_LINK_FIXED;
	return link;
}

int gaudi_dev_set_link_up(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	if (!port->started)
		return -EINVAL; /* the port's MAC comes up with dev_start */
	port->hw.set_mac_enable(true);
	rte_eth_link link = gaudi_link_get(port);
	rte_eth_linkstatus_set(dev, &link);
	return 0;
}

int gaudi_dev_set_link_down(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	port->hw.set_mac_enable(false);
	rte_eth_link link = gaudi_link_get(port);
	rte_eth_linkstatus_set(dev, &link);
	return 0;
}

/* ---- interrupts ---- */

namespace {

/* While the port runs, the EQ interrupt is re-armed at most once per this period: the TX
 * datapath's completions arrive as EQEs too and would otherwise wake the interrupt thread on
 * every burst. A link change is still seen: the re-arm re-reads the link. */
constexpr uint64_t kRearmUs = 1000;

void lsc_check(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	rte_eth_link link = gaudi_link_get(port);
	rte_eth_linkstatus_set(dev, &link);
	if (link.link_status != port->lsc_reported) {
		port->lsc_reported = link.link_status;
		if (dev->data->dev_conf.intr_conf.lsc)
			rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_LSC, nullptr);
	}
}

/* The odd port of a macro also receives its even sibling's link events (hardware bug, hbl_cn
 * SW-42306): its interrupt looks at the sibling's link as well. */
void lsc_check_sibling(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	unsigned hw = port->hw.id();
	if ((hw & 1) == 0)
		return;
	gaudi_port *sib = gaudi_adapter_port(port->adapter, hw - 1);
	if (sib != nullptr && sib->started && sib->intr != nullptr)
		lsc_check(&rte_eth_devices[sib->port_id]);
}

/* The event queue's consumer while the port is stopped (the TX datapath owns it otherwise). */
bool drain_if_stopped(gaudi_port *port)
{
	rte_spinlock_lock(&port->eq_lock);
	bool stopped = !port->started;
	if (stopped) {
		gaudi_eq_poll_locked(port, nullptr);
		port->hw.eq_write_ci(port->eq_ci); /* exact CI before the interrupt is re-armed */
	}
	rte_spinlock_unlock(&port->eq_lock);
	return stopped;
}

void rearm_alarm(void *arg)
{
	auto *dev = static_cast<rte_eth_dev *>(arg);
	gaudi_port *port = priv(dev);
	port->rearm_pending = false;
	port->hw.intr_clear(reg::INTR_EQ);
	lsc_check(dev); /* a change while the cause was pending raised no new interrupt */
	lsc_check_sibling(dev);
}

/* EAL interrupt thread: the event-queue MSI (QPC interrupt 9) fired. */
void intr_handler(void *arg)
{
	auto *dev = static_cast<rte_eth_dev *>(arg);
	gaudi_port *port = priv(dev);
	uint64_t n;
	if (read(port->lsc_fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		GAUDI_LOG(DEBUG, "port %u: eventfd read: %s", dev->data->port_id, strerror(errno));
	if (drain_if_stopped(port)) {
		port->hw.intr_clear(reg::INTR_EQ);
		drain_if_stopped(port); /* events between the drain and the re-arm */
		lsc_check(dev);
		lsc_check_sibling(dev);
		return;
	}
	/* Started: the TX datapath consumes the EQ, but an odd port's EQ also carries its
	 * sibling's link events, which must not wait for traffic: consume what is there (the EQ
	 * lock serialises with tx_burst; a busy lock means the datapath is at it). */
	if (port->hw.id() & 1)
		gaudi_eq_poll(port, txq0(dev));
	lsc_check(dev);
	lsc_check_sibling(dev);
	if (!port->rearm_pending) {
		port->rearm_pending = true;
		if (rte_eal_alarm_set(kRearmUs, rearm_alarm, dev) != 0) {
			port->rearm_pending = false;
			port->hw.intr_clear(reg::INTR_EQ);
		}
	}
}

void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

} // namespace

int gaudi_intr_init(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	port->lsc_fd = port->rxq_fd = -1;
	port->intr = nullptr;
	if (model(dev) == nullptr)
		return 0; /* silicon: MSI-X through vfio is not wired up yet */
	rte_intr_handle *h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_SHARED);
	if (h == nullptr)
		return -ENOMEM;
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fd < 0 || rte_intr_type_set(h, RTE_INTR_HANDLE_VDEV) != 0 || rte_intr_fd_set(h, fd) != 0 ||
	    rte_intr_efd_counter_size_set(h, sizeof(uint64_t)) != 0) {
		if (fd >= 0)
			close(fd);
		rte_intr_instance_free(h);
		return -EIO;
	}
	port->intr = h;
	port->lsc_fd = fd;
	dev->intr_handle = h;
	int rc = rte_intr_callback_register(h, intr_handler, dev);
	if (rc != 0) {
		GAUDI_LOG(ERR, "port %u: interrupt callback: %d", dev->data->port_id, rc);
		gaudi_intr_uninit(dev);
		return rc;
	}
	dev->data->dev_flags |= RTE_ETH_DEV_INTR_LSC;
	return 0;
}

namespace {
void rx_intr_release(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	if (port->intr != nullptr) {
		rte_intr_vec_list_free(port->intr);
		rte_intr_nb_efd_set(port->intr, 0);
		rte_intr_max_intr_set(port->intr, 0);
	}
	if (model(dev) != nullptr)
		model(dev)->bind_irq(port->hw.id(), reg::INTR_RX_RING0, -1);
	close_fd(&port->rxq_fd);
}
} // namespace

void gaudi_intr_uninit(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	if (port->intr == nullptr)
		return;
	port->hw.intr_enable(reg::INTR_EQ, false);
	port->hw.intr_enable(reg::INTR_RX_RING0, false);
	if (model(dev) != nullptr)
		model(dev)->bind_irq(port->hw.id(), reg::INTR_EQ, -1);
	rte_intr_callback_unregister_sync(port->intr, intr_handler, dev);
	rte_eal_alarm_cancel(rearm_alarm, dev);
	rx_intr_release(dev);
	close_fd(&port->lsc_fd);
	rte_intr_instance_free(port->intr);
	port->intr = nullptr;
	dev->intr_handle = nullptr;
}

int gaudi_intr_configure(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	const rte_eth_intr_conf &ic = dev->data->dev_conf.intr_conf;
	if ((ic.lsc || ic.rxq) && port->intr == nullptr) {
		GAUDI_LOG(ERR, "port %u: interrupts need net_gaudi_emu", dev->data->port_id);
		return -ENOTSUP;
	}
	if (ic.rmv)
		return -ENOTSUP;
	if (port->intr != nullptr)
		rx_intr_release(dev);
	if (!ic.rxq)
		return 0;
	/* One Rx queue, one vector: QPC interrupt 4 (rx_ring0), signalled when the raw CQ's arm
	 * fires. */
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	uint16_t nq = dev->data->nb_rx_queues;
	if (rte_intr_efds_index_set(port->intr, 0, fd) != 0 || rte_intr_nb_efd_set(port->intr, 1) != 0 ||
	    rte_intr_max_intr_set(port->intr, 2) != 0 ||
	    rte_intr_vec_list_alloc(port->intr, "gaudi_rxq_vec", nq) != 0 ||
	    rte_intr_vec_list_index_set(port->intr, 0, RTE_INTR_VEC_RXTX_OFFSET) != 0) {
		close(fd);
		rx_intr_release(dev);
		return -ENOMEM;
	}
	port->rxq_fd = fd;
	return 0;
}

void gaudi_intr_start(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	emu::Device *m = model(dev);
	if (port->intr == nullptr || m == nullptr)
		return;
	const rte_eth_intr_conf &ic = dev->data->dev_conf.intr_conf;
	if (port->rxq_fd >= 0) {
		m->bind_irq(port->hw.id(), reg::INTR_RX_RING0, port->rxq_fd);
		port->hw.intr_enable(reg::INTR_RX_RING0, false); /* until rx_queue_intr_enable */
	}
	/* An odd port takes its EQ interrupt even without LSC of its own: the link events of its
	 * even sibling arrive there (SW-42306). */
	bool eq_irq = ic.lsc != 0 || (port->hw.id() & 1) != 0;
	m->bind_irq(port->hw.id(), reg::INTR_EQ, eq_irq ? port->lsc_fd : -1);
	port->hw.intr_clear(reg::INTR_EQ);
	port->hw.intr_enable(reg::INTR_EQ, eq_irq);
}

void gaudi_intr_stop(rte_eth_dev *dev)
{
	gaudi_port *port = priv(dev);
	if (port->intr == nullptr)
		return;
	port->hw.intr_enable(reg::INTR_RX_RING0, false);
	/* The EQ interrupt stays on: the link-down of our own stop is reported through it. */
}

int gaudi_rx_queue_intr_enable(rte_eth_dev *dev, uint16_t qid)
{
	gaudi_port *port = priv(dev);
	auto *rxq = qid < dev->data->nb_rx_queues
			    ? static_cast<gaudi_rxq *>(dev->data->rx_queues[qid]) : nullptr;
	if (rxq == nullptr)
		return -EINVAL;
	if (port->rxq_fd < 0)
		return -ENOTSUP; /* intr_conf.rxq was not set at configure */
	/* Re-arm the vector, then the CQ: the arm fires at once if a frame is already waiting
	 * (PI > CI), so no frame is slept through. */
	port->hw.intr_clear(reg::INTR_RX_RING0);
	port->hw.intr_enable(reg::INTR_RX_RING0, true);
	port->hw.arm_cq(rxq->ci);
	return 0;
}

int gaudi_rx_queue_intr_disable(rte_eth_dev *dev, uint16_t qid)
{
	gaudi_port *port = priv(dev);
	if (qid >= dev->data->nb_rx_queues || dev->data->rx_queues[qid] == nullptr)
		return -EINVAL;
	if (port->rxq_fd < 0)
		return -ENOTSUP;
	port->hw.intr_enable(reg::INTR_RX_RING0, false);
	return 0;
}
