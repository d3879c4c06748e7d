/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: device info, firmware version, module EEPROM, register dump.
 */
#include "gaudi_info.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "base/gaudi_regs.h"
#include "gaudi_adapter.h"
#include "gaudi_link.h"
#include "gaudi_mac.h"
#include "gaudi_rx.h"
#include "gaudi_tx.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* Default ring sizes. RX 512: its slot ring (512 x 2 KB at MTU 1500) plus the allocator's
 * header stays inside one 2 MB page, so it is IOVA-contiguous even with IOVA as PA. */
constexpr uint16_t kDefaultRxRing = 512;
constexpr uint16_t kDefaultTxRing = 1024;
constexpr uint16_t kBurst = 32;

} /* namespace */

int gaudi_dev_infos_get(rte_eth_dev *dev, rte_eth_dev_info *info)
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
	/* MBUF_FAST_FREE: one mempool, direct mbufs, refcnt 1: completions put them back in bulk. */
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS | RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	info->rx_desc_lim = {.nb_max = kRxRingMax, .nb_min = kRxRingMin, .nb_align = kRxRingMin};
	info->tx_desc_lim = {.nb_max = kTxRingMax,
			     .nb_min = kTxRingMin,
			     .nb_align = kTxRingMin,
			     .nb_seg_max = UINT16_MAX,
			     .nb_mtu_seg_max = UINT16_MAX};
	info->default_rxportconf = {
		.burst_size = kBurst, .ring_size = kDefaultRxRing, .nb_queues = 1};
	info->default_txportconf = {
		.burst_size = kBurst, .ring_size = kDefaultTxRing, .nb_queues = 1};
	info->speed_capa = gaudi_speed_capa(gaudi_hw(dev).speed()); /* devarg speed */
	info->dev_capa = 0;
	return 0;
}

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
	std::string v;
	if (!gaudi_adapter_of(dev)->backend->fw_version(&v))
		return -ENOTSUP;
	int n = snprintf(fw, len, "%s", v.c_str());
	if (n < 0)
		return -EINVAL;
	size_t need = static_cast<size_t>(n) + 1;
	return need > len ? static_cast<int>(need) : 0;
}

const uint32_t *gaudi_ptypes_get(rte_eth_dev *dev, size_t *no_of_elements)
{
	(void)dev;
	size_t n = 0; /* the list without its RTE_PTYPE_UNKNOWN end mark */
	while (gaudi_ptypes[n] != RTE_PTYPE_UNKNOWN)
		n++;
	*no_of_elements = n;
	return gaudi_ptypes;
}

/* rte_eth_dev_set_ptypes: the families the application wants (0: none). The datapath reads it
 * once per burst, so a change applies from the next burst on. */
int gaudi_ptypes_set(rte_eth_dev *dev, uint32_t ptype_mask)
{
	__atomic_store_n(&gaudi_priv(dev)->ptype_mask, ptype_mask & gaudi_ptype_mask_all,
			 __ATOMIC_RELAXED);
	return 0;
}

/* ---- module EEPROM (QSFP28, SFF-8636) ---- */

namespace {

/* The backend's copy (the model's modules, one per port), else the one the firmware reported
 * in NIC_INFO_GET's qsfp_eeprom (silicon, in the process that ran the bring-up). */
int module_eeprom(const rte_eth_dev *dev, uint8_t out[Backend::kModuleEepromLen])
{
	gaudi_adapter *ad = gaudi_adapter_of(dev);
	int rc = ad->backend->module_eeprom(gaudi_hw(dev).id(), out);
	if (rc == -ENOTSUP && ad->fw) {
		static_assert(sizeof(ad->fw->info.qsfp_eeprom) >= Backend::kModuleEepromLen);
		memcpy(out, ad->fw->info.qsfp_eeprom, Backend::kModuleEepromLen);
		return 0;
	}
	return rc;
}

} /* namespace */

int gaudi_get_module_info(rte_eth_dev *dev, rte_eth_dev_module_info *info)
{
	uint8_t buf[Backend::kModuleEepromLen];
	int rc = module_eeprom(dev, buf);
	if (rc != 0)
		return rc;
	info->type = RTE_ETH_MODULE_SFF_8636;
	info->eeprom_len = RTE_ETH_MODULE_SFF_8636_LEN;
	return 0;
}

int gaudi_get_module_eeprom(rte_eth_dev *dev, rte_dev_eeprom_info *info)
{
	uint8_t buf[Backend::kModuleEepromLen];
	int rc = module_eeprom(dev, buf);
	if (rc != 0)
		return rc;
	if (info->offset >= Backend::kModuleEepromLen ||
	    info->length > Backend::kModuleEepromLen - info->offset)
		return -EINVAL;
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
	else if (b == "TXS")
		out[0] = reg::txs(p);
	else if (b == "QPC_AXUSER_DB_FIFO")
		out[0] = reg::qpc_axuser_db_fifo(p);
	else if (b == "QPC_AXUSER_EV_QUE_LBW_INTR")
		out[0] = reg::qpc_axuser_ev_que(p);
	else if (b == "RXE_AXUSER_AXUSER_CQ0")
		out[0] = reg::rxe_axuser_cq(p, kRawCq);
	else if (b == "TMR")
		out[0] = reg::tmr(p);
	else if (b == "TMR_AXUSER_TMR_FREE_LIST")
		out[0] = reg::macro_base(p) + reg::TMR_AXUSER_TMR_FREE_LIST_BASE;
	else if (b == "TMR_AXUSER_TMR_FIFO")
		out[0] = reg::macro_base(p) + reg::TMR_AXUSER_TMR_FIFO_BASE;
	else if (b == "TMR_AXUSER_TMR_FSM")
		out[0] = reg::macro_base(p) + reg::TMR_AXUSER_TMR_FSM_BASE;
	else if (b == "RXB_CORE")
		out[0] = reg::rxb(p);
	else if (b == "TXB")
		out[0] = reg::txb(p);
	else if (b == "MAC_CORE")
		out[0] = reg::mac_core(p);
	else if (b == "MAC_RS_FEC")
		out[0] = reg::mac_rs_fec(p);
	else if (b == "PHY")
		out[0] = reg::phy(p);
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
	} else if (b.starts_with("QPC_AXUSER_") || b.starts_with("RXE_AXUSER_")) {
		/* Per-port AXI users: the port's copy, as its QPC's or RXE's. */
		uint32_t base = 0;
		for (const reg::BlockRow &k : reg::kBlockRows)
			if (b == k.block)
				base = k.cfg_addr - reg::kNic0CfgBase;
		out[0] = b.starts_with("QPC_")
				 ? reg::qpc_axuser(p, base)
				 : reg::macro_base(p) + base + (p & 1) * reg::kOddPortHighStride;
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
} /* namespace */

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
		/* The RS-FEC codeword counters clear when read: only fec_corrected/uncorrected
		 * read them (and keep the totals), so a dump shows 0 there rather than take
		 * counts from the xstats. */
		const bool clear_on_read = std::string_view(r.block) == "MAC_RS_FEC";
		for (unsigned i = 0; i < n; i++)
			out[k++] = clear_on_read ? 0 : hw.bar()->rd32(o[i]);
	}
	info->length = words;
	info->width = sizeof(uint32_t);
	info->offset = 0;
	/* Device id and dump layout version 2 (the published map's rows). */
	info->version = (uint32_t(kPciDeviceGaudi2) << 16) | 2;
	return 0;
}
