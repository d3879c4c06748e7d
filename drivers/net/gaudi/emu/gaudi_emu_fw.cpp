/* SPDX-License-Identifier: BSD-3-Clause
 * The model's device CPU: what the Gaudi2 firmware shows the host through the firmware register
 * window (PSOC_GLOBAL_CONF, CPU_IF) and the SRAM region.
 *
 *   preboot      CPU_BOOT_STATUS = WAITING_FOR_BOOT_FIT, DEV_STS0 = ENABLED | FW_LD_COM_EN,
 *                CPU_BOOT_ERR0 and HW_STATE from the configuration [BOOT]
 *   COMMS        RST_STATE, PREP_DESC (descriptor at SRAM offset 0, image at
 *                BOOT_FIT_SRAM_OFFSET), DATA_RDY, EXEC, with the ACK / NOOP / OK handshake of
 *                hl_fw_dynamic_send_protocol_cmd [BOOT][FWIF]; any image is accepted, the
 *                order and the sizes are checked
 *   CPU queue    QUEUE_INIT READY_FOR_CP -> READY_FOR_HOST once the FIT runs; PQ buffer
 *                descriptors and packets read from host memory through the model's IOMMU;
 *                result, return code and fence written back [FWIF][CPUCP]
 *   cpucp        TEST, ENABLE/DISABLE_PCI_ACCESS, NIC_INFO_GET (from Config), and the NIC's
 *                set-up opcodes (accepted; loopback and PFC remembered)
 *
 * [model] marks behaviour the public sources do not describe (the firmware is closed); all of
 * it is listed in doc/guides/gaudi_hw_model.rst, "Firmware".
 */
#include "gaudi_emu_impl.h"

#include <cstdarg>
#include <cstdio>

#include "../base/gaudi_nic_mem.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include <rte_debug.h>
#include <rte_log.h>

namespace gaudi::emu {

using namespace detail;
namespace fw = hw::fw;

namespace {

constexpr uint32_t kPiUpdIrq = fw::kModelPiUpdIrqCfg - fw::kFwCfgBase;
constexpr uint32_t kMaxPacket = 4096; /* [model] longest packet the CPU reads */
/* Device DRAM: from DRAM_PHYS_BASE, 6 HBMs of 16 GB [gaudi2.h; gaudi2.c dram_size]. */
constexpr uint64_t kDramBase = hw::nicmem::kDramPhysBase;
constexpr uint64_t kDramSize = 6 * (16ull << 30);

const char *fw_reg_name(uint32_t off)
{
	for (const auto &r : fw::kFwRegRows)
		if (r.cfg_addr - fw::kFwCfgBase == off)
			return r.reg;
	if (off == kPiUpdIrq)
		return "PSOC_GLOBAL_CONF_SCRATCHPAD_1";
	return "none";
}

} /* namespace */

/* ---- set-up ---- */

void Device::Impl::fw_init()
{
	FwModel &f = fw_;
	f.regs = std::make_unique<uint8_t[]>(fw::kFwWindowSize);
	std::memset(f.regs.get(), 0, fw::kFwWindowSize);
	f.map.assign(fw::kFwWindowSize / 4, 0);
	for (const auto &r : fw::kFwRegRows)
		f.map[(r.cfg_addr - fw::kFwCfgBase) / 4] = kKnown;
	f.map[kPiUpdIrq / 4] = kKnown;
	for (uint32_t ro : {fw::CPU_BOOT_STATUS, fw::CPU_BOOT_DEV_STS0, fw::CPU_BOOT_DEV_STS1,
			    fw::CPU_CMD_STATUS_TO_HOST, fw::CPU_BOOT_ERR0, fw::CPU_BOOT_ERR1})
		f.map[ro / 4] = kKnown | kReadOnly;
	/* Preboot ready and offering the dynamic load [model: one of the three ready states]. */
	fw_wr(fw::CPU_BOOT_STATUS, uint32_t(cfg_.fw_fault == FwFault::boot_stuck
						    ? fw::BootStatus::IN_PREBOOT
						    : fw::BootStatus::WAITING_FOR_BOOT_FIT));
	fw_wr(fw::CPU_BOOT_DEV_STS0, fw::dev_sts0::ENABLED | fw::dev_sts0::FW_LD_COM_EN);
	fw_wr(fw::CPU_BOOT_DEV_STS1, fw::dev_sts0::ENABLED);
	fw_wr(fw::CPU_BOOT_ERR0, cfg_.fw_boot_err0 ? cfg_.fw_boot_err0 | fw::err0::ENABLED : 0);
	fw_wr(fw::HW_STATE, cfg_.fw_fault == FwFault::dirty ? fw::kHwStateDirty : 0);
	f.hooks = {this, &Impl::fw_hook_write, &Impl::fw_hook_read, nullptr};
	f.bar = Bar(f.regs.get(), fw::kFwWindowSize, &f.hooks);
	f.sram_hooks = {this, &Impl::fw_sram_write, &Impl::fw_sram_read, nullptr};
	f.sram_bar =
		Bar(reinterpret_cast<uint8_t *>(&f.desc), uint32_t(fw::kSramSize), &f.sram_hooks);
}

uint32_t Device::Impl::fw_rd(uint32_t off) const
{
	uint32_t v;
	std::memcpy(&v, fw_.regs.get() + off, 4);
	return v;
}

void Device::Impl::fw_wr(uint32_t off, uint32_t v)
{
	std::memcpy(fw_.regs.get() + off, &v, 4);
}

void Device::Impl::fw_violation(const char *what, uint32_t off, uint32_t val)
{
	uint64_t n = violations_.fetch_add(1, std::memory_order_relaxed) + 1;
	rte_log(RTE_LOG_ERR, gaudi_emu_logtype,
		"gaudi_emu: firmware window: %s at configuration address 0x%x (%s) value 0x%x "
		"[%llu so far]\n",
		what, off + fw::kFwCfgBase, fw_reg_name(off), val, (unsigned long long)n);
	if (cfg_.strict)
		rte_panic("gaudi_emu: strict mode: the driver left the published firmware "
			  "interface\n");
}

/* ---- the firmware window ---- */

void Device::Impl::fw_hook_write(void *ctx, uint32_t off, uint32_t val)
{
	auto *m = static_cast<Impl *>(ctx);
	FwModel &f = m->fw_;
	SpinGuard g(f.lock);
	if (off > fw::kFwWindowSize - 4 || (off & 3) != 0) {
		m->fw_violation("unaligned or out-of-window write", off, val);
		return;
	}
	uint8_t k = f.map[off / 4];
	if (!(k & kKnown)) {
		m->fw_violation("write to an offset the published map does not define", off, val);
		return;
	}
	if (k & kReadOnly) {
		m->fw_violation("write to a register only the device CPU writes", off, val);
		return;
	}
	m->fw_wr(off, val);
	if (off == fw::KMD_MSG_TO_CPU)
		m->fw_comms(val);
	else if (off == kPiUpdIrq) {
		/* The host interrupts the device CPU: queue set-up, or new PQ entries. */
		if (!f.queues_ready &&
		    m->fw_rd(fw::QUEUE_INIT) == uint32_t(fw::PqInit::READY_FOR_CP))
			m->fw_queue_init();
		else if (f.queues_ready)
			m->fw_serve_pq();
	}
}

uint32_t Device::Impl::fw_hook_read(void *ctx, uint32_t off)
{
	auto *m = static_cast<Impl *>(ctx);
	SpinGuard g(m->fw_.lock);
	if (off > fw::kFwWindowSize - 4 || (off & 3) != 0 || !(m->fw_.map[off / 4] & kKnown)) {
		m->fw_violation("read of an offset the published map does not define", off, 0);
		return 0;
	}
	return m->fw_rd(off);
}

/* ---- COMMS [BOOT][FWIF] ---- */

void Device::Impl::fw_comms(uint32_t val)
{
	FwModel &f = fw_;
	auto cmd = fw::CommsCmd(fw::kCommsCmdCmd.get(val));
	uint32_t size = fw::kCommsCmdSize.get(val);
	auto status = [this](fw::CommsSts s, uint32_t off = 0) {
		fw_wr(fw::CPU_CMD_STATUS_TO_HOST, fw::comms_status(s, fw::kCommsRamSram, off));
	};
	auto refuse = [&](const char *why) {
		f.comms_errors++;
		rte_log(RTE_LOG_ERR, gaudi_emu_logtype, "gaudi_emu: firmware: COMMS %s\n", why);
		status(fw::CommsSts::ACK);
		f.pending = fw::comms_status(fw::CommsSts::ERR);
	};
	auto accept = [&](uint32_t off = 0) {
		status(fw::CommsSts::ACK, off);
		f.pending = fw::comms_status(fw::CommsSts::OK, fw::kCommsRamSram, off);
	};
	switch (cmd) {
	case fw::CommsCmd::CLR_STS:
		status(fw::CommsSts::NOOP);
		return;
	case fw::CommsCmd::NOOP:
		/* The host's NOOP after the clear: the command's outcome [FWIF]. */
		if (f.pending != 0)
			fw_wr(fw::CPU_CMD_STATUS_TO_HOST, f.pending);
		f.pending = 0;
		return;
	case fw::CommsCmd::RST_STATE:
		f.reset_done = true;
		f.desc_ready = f.data_ready = false;
		f.img_written = 0;
		accept();
		return;
	case fw::CommsCmd::PREP_DESC: {
		if (!f.reset_done)
			return refuse("PREP_DESC before RST_STATE");
		if (f.stage == FwModel::Stage::linux)
			return refuse("PREP_DESC after the FIT runs: nothing more to load");
		if (size == 0 || size > fw::kSramSize - fw::kBootFitSramOffset)
			return refuse("PREP_DESC with a size the SRAM image area cannot take");
		/* The descriptor at SRAM offset 0 [model], the image at BOOT_FIT_SRAM_OFFSET. */
		fw::LkdFwCommsDesc &d = f.desc;
		std::memset(&d, 0, sizeof(d));
		fw::CpuDynRegs &r = d.cpu_dyn_regs;
		r.cpu_pq_base_addr_low = fw::kFwCfgBase + fw::PQ_BASE_ADDR_LOW;
		r.cpu_pq_base_addr_high = fw::kFwCfgBase + fw::PQ_BASE_ADDR_HIGH;
		r.cpu_pq_length = fw::kFwCfgBase + fw::PQ_LENGTH;
		r.cpu_pq_init_status = fw::kFwCfgBase + fw::QUEUE_INIT;
		r.cpu_eq_base_addr_low = fw::kFwCfgBase + fw::EQ_BASE_ADDR_LOW;
		r.cpu_eq_base_addr_high = fw::kFwCfgBase + fw::EQ_BASE_ADDR_HIGH;
		r.cpu_eq_length = fw::kFwCfgBase + fw::EQ_LENGTH;
		r.cpu_eq_ci = fw::kFwCfgBase + fw::EQ_RD_OFFS;
		r.cpu_cq_base_addr_low = fw::kFwCfgBase + fw::CQ_BASE_ADDR_LOW;
		r.cpu_cq_base_addr_high = fw::kFwCfgBase + fw::CQ_BASE_ADDR_HIGH;
		r.cpu_cq_length = fw::kFwCfgBase + fw::CQ_LENGTH;
		r.cpu_pf_pq_pi = fw::kFwCfgBase + fw::PF_PQ_PI;
		r.cpu_boot_dev_sts0 = fw::kFwCfgBase + fw::CPU_BOOT_DEV_STS0;
		r.cpu_boot_dev_sts1 = fw::kFwCfgBase + fw::CPU_BOOT_DEV_STS1;
		r.cpu_boot_err0 = fw::kFwCfgBase + fw::CPU_BOOT_ERR0;
		r.cpu_boot_err1 = fw::kFwCfgBase + fw::CPU_BOOT_ERR1;
		r.cpu_boot_status = fw::kFwCfgBase + fw::CPU_BOOT_STATUS;
		r.hw_state = fw::kFwCfgBase + fw::HW_STATE;
		r.kmd_msg_to_cpu = fw::kFwCfgBase + fw::KMD_MSG_TO_CPU;
		r.cpu_cmd_status_to_host = fw::kFwCfgBase + fw::CPU_CMD_STATUS_TO_HOST;
		r.gic_host_pi_upd_irq = fw::kModelPiUpdIrqCfg;
		std::snprintf(d.cur_fw_ver, sizeof(d.cur_fw_ver), "gaudi_emu %s %u.%u.%u",
			      f.stage == FwModel::Stage::preboot ? "preboot" : "boot-fit",
			      Device::kFwVersion >> 16, (Device::kFwVersion >> 8) & 0xFF,
			      Device::kFwVersion & 0xFF);
		d.img_addr = fw::kSramBaseAddr + fw::kBootFitSramOffset;
		d.header.magic = fw::kCommsDescMagic;
		d.header.version = fw::kCommsDescVer;
		d.header.size = uint16_t(sizeof(d) - sizeof(d.header));
		d.header.crc32 = fw::comms_crc32(
			reinterpret_cast<const uint8_t *>(&d) + sizeof(d.header), d.header.size);
		f.desc_ready = true;
		f.data_ready = false;
		f.img_size = size;
		f.img_written = 0;
		accept(0);
		return;
	}
	case fw::CommsCmd::DATA_RDY:
		if (!f.desc_ready)
			return refuse("DATA_RDY before PREP_DESC");
		if (f.img_written < f.img_size)
			return refuse("DATA_RDY before the whole image was written");
		if (cfg_.fw_fault == FwFault::image_rejected) {
			f.comms_errors++;
			status(fw::CommsSts::ACK);
			f.pending = fw::comms_status(fw::CommsSts::VALID_ERR);
			return;
		}
		f.data_ready = true;
		accept();
		return;
	case fw::CommsCmd::EXEC:
		if (!f.data_ready)
			return refuse("EXEC before DATA_RDY");
		/* The loaded stage runs at once [model]: the boot FIT reports READY_TO_BOOT, the
		 * FIT (Linux, CPU-CP) SRAM_AVAIL [FWIF the statuses the host waits for]. */
		if (f.stage == FwModel::Stage::preboot) {
			f.stage = FwModel::Stage::boot_fit;
			f.boot_fit_bytes += f.img_size;
			fw_wr(fw::CPU_BOOT_STATUS, uint32_t(fw::BootStatus::READY_TO_BOOT));
		} else {
			f.stage = FwModel::Stage::linux;
			f.fit_bytes += f.img_size;
			fw_wr(fw::CPU_BOOT_STATUS, uint32_t(fw::BootStatus::SRAM_AVAIL));
			/* The application firmware offers the NIC memory clear and TXS/TMR init
			 * ("Initialized in: zephyr-mgmt" [BOOT]). */
			if (cfg_.fw_fault != FwFault::no_nic_mem_clear)
				fw_wr(fw::CPU_BOOT_DEV_STS0,
				      fw_rd(fw::CPU_BOOT_DEV_STS0) |
					      fw::dev_sts0::NIC_MEM_CLEAR_EN);
		}
		f.desc_ready = f.data_ready = false;
		accept();
		return;
	case fw::CommsCmd::SKIP_BMC:
		accept();
		return;
	default:
		return refuse("command the model does not implement");
	}
}

/* ---- SRAM: the descriptor (read) and the image area (written) ---- */

void Device::Impl::fw_sram_write(void *ctx, uint32_t off, uint32_t val)
{
	auto *m = static_cast<Impl *>(ctx);
	FwModel &f = m->fw_;
	SpinGuard g(f.lock);
	uint64_t end = uint64_t(fw::kBootFitSramOffset) + ((uint64_t(f.img_size) + 3) & ~3ull);
	if (!f.desc_ready || f.data_ready || off < fw::kBootFitSramOffset || off + 4ull > end ||
	    (off & 3) != 0) {
		rte_log(RTE_LOG_ERR, gaudi_emu_logtype,
			"gaudi_emu: firmware: SRAM write at offset 0x%x outside the image area "
			"the COMMS descriptor gave\n",
			off);
		m->violations_.fetch_add(1, std::memory_order_relaxed);
		if (m->cfg_.strict)
			rte_panic("gaudi_emu: strict mode: SRAM write outside the COMMS image "
				  "area\n");
		return;
	}
	(void)val; /* [model] any image is accepted: only its extent is kept */
	f.img_written = std::max<uint64_t>(f.img_written, off + 4ull - fw::kBootFitSramOffset);
}

uint32_t Device::Impl::fw_sram_read(void *ctx, uint32_t off)
{
	auto *m = static_cast<Impl *>(ctx);
	SpinGuard g(m->fw_.lock);
	if ((off & 3) == 0 && off + 4ull <= sizeof(fw::LkdFwCommsDesc)) {
		uint32_t v;
		std::memcpy(&v, reinterpret_cast<const uint8_t *>(&m->fw_.desc) + off, 4);
		return v;
	}
	return 0; /* [model] the rest of SRAM reads as zero */
}

/* ---- CPU queue ---- */

void Device::Impl::fw_queue_init()
{
	FwModel &f = fw_;
	if (f.stage != FwModel::Stage::linux)
		return; /* no CPU-CP yet: nobody answers, the host times out */
	auto addr = [this](uint32_t lo, uint32_t hi) {
		return (uint64_t(fw_rd(hi)) << 32) | fw_rd(lo);
	};
	uint64_t pq = addr(fw::PQ_BASE_ADDR_LOW, fw::PQ_BASE_ADDR_HIGH);
	uint64_t eq = addr(fw::EQ_BASE_ADDR_LOW, fw::EQ_BASE_ADDR_HIGH);
	uint64_t cq = addr(fw::CQ_BASE_ADDR_LOW, fw::CQ_BASE_ADDR_HIGH);
	uint32_t pql = fw_rd(fw::PQ_LENGTH), eql = fw_rd(fw::EQ_LENGTH), cql = fw_rd(fw::CQ_LENGTH);
	if (pql < 2 * sizeof(fw::PqBd) || (pql & (pql - 1)) != 0) {
		fw_wr(fw::QUEUE_INIT, uint32_t(fw::PqInit::LEN_NOT_POWER_OF_TWO_ERR));
		return;
	}
	IommuCache c;
	if (eql == 0 || cql == 0 || !iommu_.translate(pq, pql, c) ||
	    !iommu_.translate(eq, eql, c) || !iommu_.translate(cq, cql, c)) {
		fw_wr(fw::QUEUE_INIT, uint32_t(fw::PqInit::ILLEGAL_Q_ADDR_ERR));
		return;
	}
	f.ci = 0;
	f.pq_iova = pq;
	f.pq_entries = pql / sizeof(fw::PqBd);
	{
		SpinGuard g(f.ev_lock); /* the host starts its EQ consumer at 0 (EQ_RD_OFFS) */
		f.ev_pi = 0;
	}
	f.queues_ready = true;
	fw_wr(fw::QUEUE_INIT, uint32_t(fw::PqInit::READY_FOR_HOST));
	/* [choice] The NIC may be programmed from here: silicon's NIC blocks are usable once
	 * the firmware runs (gaudi2_hw_init quiesces them right after the CPU queues, before
	 * late init's ENABLE_PCI_ACCESS). */
	f.nic_open.store(true, std::memory_order_release);
}

bool Device::Impl::fw_post_event(uint32_t type, const void *data, size_t len)
{
	FwModel &f = fw_;
	SpinGuard g(f.ev_lock);
	const uint32_t entries = fw_rd(fw::EQ_LENGTH) / sizeof(fw::EqEntry);
	const uint32_t consumed = fw_rd(fw::EQ_RD_OFFS); /* [model] the host's count */
	const uint64_t eq =
		(uint64_t(fw_rd(fw::EQ_BASE_ADDR_HIGH)) << 32) | fw_rd(fw::EQ_BASE_ADDR_LOW);
	fw::EqEntry *e = nullptr;
	if (f.queues_ready.load(std::memory_order_acquire) && entries != 0 &&
	    f.ev_pi - consumed < entries)
		e = reinterpret_cast<fw::EqEntry *>(
			iommu_.translate(eq + uint64_t(f.ev_pi % entries) * sizeof(fw::EqEntry),
					 sizeof(fw::EqEntry), f.ev_cache));
	if (e == nullptr || len > sizeof(e->data)) {
		f.ev_lost++;
		return false;
	}
	std::memset(e->data, 0, sizeof(e->data));
	std::memcpy(e->data, data, len);
	f.ev_pi++;
	/* [model] The entry's index is the count of entries posted (16 bits), as the host's
	 * EQ_INDEX_EN check expects one more than the previous. */
	store_release(&e->ctl, fw::kEqCtlReady.put(1) | fw::kEqCtlEventType.put(type) |
				       fw::kEqCtlIndex.put(f.ev_pi));
	f.ev_posted++;
	return true;
}

void Device::Impl::fw_nic_sw_error(unsigned p)
{
	/* [choice] intr_type NIC_INTR_NONE and no cause data: hbl_cn reads the QPC's
	 * INTERRUPT_CAUSE itself for the EQ error (gaudi2_cn_sw_err_event); what the firmware
	 * puts in the entry for it is not public. */
	fw::EqNicIntrCause c{};
	fw_post_event(fw::event_nic_sw_error(p / kPortsPerMacro), &c, sizeof(c));
}

void Device::Impl::fw_serve_pq()
{
	FwModel &f = fw_;
	uint64_t pq = f.pq_iova;
	uint32_t entries = f.pq_entries;
	uint32_t pi = fw_rd(fw::PF_PQ_PI) % (2 * entries);
	while (f.ci != pi) {
		auto *bd = reinterpret_cast<fw::PqBd *>(
			iommu_.translate(pq + uint64_t(f.ci % entries) * sizeof(fw::PqBd),
					 sizeof(fw::PqBd), f.cache));
		f.ci = (f.ci + 1) % (2 * entries);
		if (bd == nullptr) {
			f.invalid++;
			continue;
		}
		fw::PqBd b;
		std::memcpy(&b, bd, sizeof(b));
		/* [model] 8-byte aligned packets of a sane length only (the fence is written
		 * with an aligned atomic store). */
		uint8_t *pkt =
			b.len >= sizeof(fw::CpucpPacket) && b.len <= kMaxPacket && (b.ptr & 7) == 0
				? iommu_.translate(b.ptr, b.len, f.cache)
				: nullptr;
		if (pkt == nullptr) {
			f.invalid++; /* [model] nowhere to answer: the host times out */
			continue;
		}
		f.packets++;
		if (cfg_.fw_fault == FwFault::cpucp_silent)
			continue;
		uint32_t rc = fw_packet(pkt, b.len);
		if (rc != 0)
			f.invalid++;
		uint32_t ctl;
		std::memcpy(&ctl, pkt + offsetof(fw::CpucpPacket, ctl), 4);
		ctl = (ctl & ~fw::kPktCtlRc.mask()) | fw::kPktCtlRc.put(rc);
		std::memcpy(pkt + offsetof(fw::CpucpPacket, ctl), &ctl, 4);
		/* The fence last: the host reads the answer once it sees it. DEV_STS0 does not
		 * offer PKT_PI_ACK_EN, so the fence is CPUCP_PACKET_FENCE_VAL. */
		store_release(reinterpret_cast<uint32_t *>(pkt + offsetof(fw::CpucpPacket, fence)),
			      fw::kFenceVal);
	}
}

/* One cpucp packet: the return code; the result goes into the packet's value. */
uint32_t Device::Impl::fw_packet(uint8_t *pkt, uint32_t len)
{
	FwModel &f = fw_;
	fw::CpucpPacket p;
	std::memcpy(&p, pkt, sizeof(p));
	auto op = fw::CpucpOp(fw::kPktCtlOpcode.get(p.ctl));
	auto rc = [](fw::CpucpRc r) { return uint32_t(r); };
	auto result = [pkt](uint64_t v) { std::memcpy(pkt, &v, sizeof(v)); };
	bool port_ok = p.port_index < cfg_.nports;
	uint64_t bit = port_ok ? 1ull << p.port_index : 0;
	if (cfg_.fw_cpucp_fail_op != 0 && uint32_t(op) == cfg_.fw_cpucp_fail_op)
		return cfg_.fw_cpucp_fail_rc; /* [faults] this opcode fails */
	switch (op) {
	case fw::CpucpOp::TEST:
		return rc(fw::CpucpRc::success); /* value stays: the echo */
	case fw::CpucpOp::ENABLE_PCI_ACCESS:
		f.pci_access = true;
		f.msix_db = p.value;
		return rc(fw::CpucpRc::success);
	case fw::CpucpOp::DISABLE_PCI_ACCESS:
		f.pci_access = false;
		return rc(fw::CpucpRc::success);
	case fw::CpucpOp::NIC_INFO_GET: {
		if (cfg_.fw_nic_info_rc != 0)
			return cfg_.fw_nic_info_rc;
		if (p.index < sizeof(fw::CpucpNicInfo))
			return rc(fw::CpucpRc::invalid_params);
		auto *out = reinterpret_cast<fw::CpucpNicInfo *>(
			iommu_.translate(p.value, sizeof(fw::CpucpNicInfo), f.cache));
		if (out == nullptr)
			return rc(fw::CpucpRc::fault);
		fw::CpucpNicInfo info{};
		uint64_t all = cfg_.nports >= 64 ? ~0ull : (1ull << cfg_.nports) - 1;
		uint64_t mask = cfg_.fw_port_mask ? cfg_.fw_port_mask : all;
		info.link_mask[0] = mask;
		/* [choice] every port external, as on the PCI cards [hbl_cn: all ports of a PCI
		 * card are external]. [phy] The board's lane polarity and TX lane map. */
		info.link_ext_mask[0] = mask;
		info.pol_tx_mask[0] = cfg_.phy_pol_tx;
		info.pol_rx_mask[0] = cfg_.phy_pol_rx;
		for (unsigned m = 0; m < kMacros; m++)
			info.tx_swap_map[m] = cfg_.phy_tx_swap[m];
		info.auto_neg_mask[0] = cfg_.fw_auto_neg_mask;
		info.serdes_type = cfg_.fw_serdes_type;
		for (unsigned port = 0; port < kMaxPorts; port++)
			Device::mac_of(cfg_.fw_mac.data(), port, info.mac_addrs[port]);
		uint8_t eeprom[Device::kModuleEepromLen];
		Device::module_eeprom(0, eeprom);
		std::memcpy(info.qsfp_eeprom, eeprom, sizeof(eeprom));
		std::memcpy(out, &info, sizeof(info));
		result(sizeof(info));
		return rc(fw::CpucpRc::success);
	}
	case fw::CpucpOp::NIC_STATUS: {
		/* cpucp_nic_status_packet: length in words, then one port's cpucp_nic_status,
		 * whose port field names the port [hbl_cn.c hbl_cn_send_cpucp_status]. */
		fw::CpucpNicStatusPacket sp{};
		if (len < offsetof(fw::CpucpNicStatusPacket, data) + sizeof(fw::CpucpNicStatus))
			return rc(fw::CpucpRc::invalid_params);
		std::memcpy(&sp, pkt,
			    offsetof(fw::CpucpNicStatusPacket, data) + sizeof(fw::CpucpNicStatus));
		fw::CpucpNicStatus st;
		std::memcpy(&st, sp.data, sizeof(st));
		if (sp.length != sizeof(fw::CpucpNicStatus) / 4 || st.port >= cfg_.nports)
			return rc(fw::CpucpRc::invalid_params);
		f.status_packets++;
		f.port_status_packets[st.port]++;
		f.status[st.port] = st; /* [model] kept: the last one per port */
		return rc(fw::CpucpRc::success);
	}
	case fw::CpucpOp::NIC_CLR_MEM: {
		/* cpucp_cn_clear_mem_packet. [model] The range must lie in device DRAM; clearing
		 * a free list the firmware wrote undoes that init. */
		fw::CpucpCnClearMemPacket cp;
		if (len < sizeof(cp))
			return rc(fw::CpucpRc::invalid_params);
		std::memcpy(&cp, pkt, sizeof(cp));
		if (cp.size == 0 || cp.mem_base_addr < kDramBase ||
		    cp.mem_base_addr + cp.size > kDramBase + kDramSize)
			return rc(fw::CpucpRc::invalid_params);
		f.clr_packets++;
		f.clr_bytes += cp.size;
		f.clr_lo = std::min(f.clr_lo, cp.mem_base_addr);
		f.clr_hi = std::max(f.clr_hi, cp.mem_base_addr + cp.size);
		fw_clear_range(cp.mem_base_addr, cp.mem_base_addr + cp.size);
		f.cleared.emplace_back(cp.mem_base_addr, cp.mem_base_addr + cp.size);
		std::sort(f.cleared.begin(), f.cleared.end());
		std::vector<std::pair<uint64_t, uint64_t>> merged;
		for (const auto &r : f.cleared)
			if (!merged.empty() && r.first <= merged.back().second)
				merged.back().second = std::max(merged.back().second, r.second);
			else
				merged.push_back(r);
		f.cleared.swap(merged);
		return rc(fw::CpucpRc::success);
	}
	case fw::CpucpOp::NIC_ECC_INTRS_UNMASK:
		/* [model] The public order: memory cleared, then ECC interrupts unmasked
		 * [CNSER gaudi2_late_init]; uninitialised memory would raise ECC errors. */
		if (f.clr_packets == 0)
			return fw_refuse_order("NIC_ECC_INTRS_UNMASK before any NIC_CLR_MEM");
		f.ecc_unmasked = true;
		return rc(fw::CpucpRc::success);
	case fw::CpucpOp::NIC_INIT_TXS_MEM:
	case fw::CpucpOp::NIC_INIT_TMR_MEM: {
		/* cpucp_cn_init_hw_mem_packet: port_index names the port (TXS) or the macro
		 * (TMR) [gaudi2_cn.c]. [model] A list of 4-byte entries inside device DRAM. */
		fw::CpucpCnInitHwMemPacket ip;
		if (len < sizeof(ip))
			return rc(fw::CpucpRc::invalid_params);
		std::memcpy(&ip, pkt, sizeof(ip));
		bool tmr = op == fw::CpucpOp::NIC_INIT_TMR_MEM;
		unsigned n =
			tmr ? (cfg_.nports + kPortsPerMacro - 1) / kPortsPerMacro : cfg_.nports;
		uint64_t end = ip.mem_base_addr + uint64_t(ip.num_entries) * ip.entry_size;
		if (ip.pkt.port_index >= n || ip.num_entries == 0 || ip.entry_size != 4 ||
		    ip.mem_base_addr < kDramBase || end > kDramBase + kDramSize)
			return rc(fw::CpucpRc::invalid_params);
		/* [model] The public order: late init clears the NIC memory and unmasks its ECC
		 * interrupts [CNSER gaudi2_late_init] before hbl_cn initialises the free lists
		 * [gaudi2_cn.c core init, port init]; a list written first would be cleared. */
		if (!f.ecc_unmasked)
			return fw_refuse_order(
				tmr ? "NIC_INIT_TMR_MEM before NIC_ECC_INTRS_UNMASK"
				    : "NIC_INIT_TXS_MEM before NIC_ECC_INTRS_UNMASK");
		if (!fw_cleared(ip.mem_base_addr, end))
			return fw_refuse_order(tmr ? "NIC_INIT_TMR_MEM of memory NIC_CLR_MEM did "
						     "not clear"
						   : "NIC_INIT_TXS_MEM of memory NIC_CLR_MEM did "
						     "not clear");
		FwMemInit &m = tmr ? f.tmr[ip.pkt.port_index] : f.txs[ip.pkt.port_index];
		m = {true, ip.mem_base_addr, ip.num_entries, ip.entry_size, ip.granularity};
		(tmr ? f.tmr_latched[ip.pkt.port_index] : f.txs_latched[ip.pkt.port_index])
			.store(false, std::memory_order_release); /* a new list: latch it again */
		return rc(fw::CpucpRc::success);
	}
	case fw::CpucpOp::NIC_LPBK_SET:
	case fw::CpucpOp::NIC_PFC_SET: {
		if (!port_ok)
			return rc(fw::CpucpRc::invalid_params);
		uint64_t &m = op == fw::CpucpOp::NIC_LPBK_SET ? f.lpbk_mask : f.pfc_mask;
		m = fw::kPktValEnable.get(uint32_t(p.value)) ? m | bit : m & ~bit;
		return rc(fw::CpucpRc::success);
	}
	case fw::CpucpOp::NIC_FAULT_GET:
		if (!port_ok)
			return rc(fw::CpucpRc::invalid_params);
		result(0); /* no local or remote fault */
		return rc(fw::CpucpRc::success);
	case fw::CpucpOp::NIC_MAC_CFG:
	case fw::CpucpOp::NIC_SET_CHECKERS:
	case fw::CpucpOp::NIC_WQE_ASID_SET:
	case fw::CpucpOp::NIC_WQE_ASID_UNSET:
	case fw::CpucpOp::NIC_MAC_TX_RESET:
		if (!port_ok)
			return rc(fw::CpucpRc::invalid_params);
		return rc(fw::CpucpRc::success); /* [model] accepted; the model's NIC needs none */
	case fw::CpucpOp::MSI_INFO_SET:
	case fw::CpucpOp::UNMASK_RAZWI_IRQ_ARRAY:
		return rc(fw::CpucpRc::success); /* [model] accepted, no effect */
	default:
		/* cpucp_packet_invalid_pkt: "when cpucp packet is un-supported" [CPUCP]. */
		return rc(fw::CpucpRc::invalid_pkt);
	}
}

/* ---- the NIC gate ---- */

bool Device::Impl::fw_gate_check(uint32_t off, uint32_t val)
{
	if (!cfg_.fw_gate || fw_.nic_open.load(std::memory_order_acquire))
		return true;
	fw_.gate_refused.fetch_add(1, std::memory_order_relaxed);
	uint64_t n = violations_.fetch_add(1, std::memory_order_relaxed) + 1;
	RegAddr a = decode(off);
	rte_log(RTE_LOG_ERR, gaudi_emu_logtype,
		"gaudi_emu: fw_gate: NIC register write at NIC offset 0x%x (port %u) value 0x%x "
		"before the firmware is up (boot FIT, FIT, CPU queue init) [%llu so far]\n",
		off, a.port, val, (unsigned long long)n);
	if (cfg_.strict)
		rte_panic("gaudi_emu: strict mode: NIC programmed before the firmware handshake\n");
	return false;
}

/* Clearing device memory wipes any free list in it: its init no longer holds [model]. */
void Device::Impl::fw_clear_range(uint64_t lo, uint64_t hi)
{
	auto wipe = [lo, hi](FwMemInit &m, std::atomic<bool> &latched) {
		uint64_t end = m.addr + uint64_t(m.entries) * m.entry_size;
		if (m.done && m.addr < hi && end > lo) {
			m.done = false;
			latched.store(false, std::memory_order_release);
		}
	};
	for (unsigned i = 0; i < kMacros; i++)
		wipe(fw_.tmr[i], fw_.tmr_latched[i]);
	for (unsigned i = 0; i < kMaxPorts; i++)
		wipe(fw_.txs[i], fw_.txs_latched[i]);
}

bool Device::Impl::fw_cleared(uint64_t lo, uint64_t hi) const
{
	for (const auto &r : fw_.cleared)
		if (r.first <= lo && hi <= r.second)
			return true;
	return false;
}

/* A cpucp request out of the public order: logged, counted, answered cpucp_packet_invalid
 * [model]. */
uint32_t Device::Impl::fw_refuse_order(const char *why)
{
	fw_.order_refused.fetch_add(1, std::memory_order_relaxed);
	rte_log(RTE_LOG_ERR, gaudi_emu_logtype, "gaudi_emu: firmware: %s: refused\n", why);
	return uint32_t(fw::CpucpRc::invalid);
}

/* hbl_cn sets up every enabled macro's TMR (core init) and then, first thing at a port's open,
 * its TXS, before it writes any QP context [gaudi2_cn.c gaudi2_cn_core_init,
 * gaudi2_cn_hw_port_config]; the raw QP's contexts name TXS scheduling queue 60. The model
 * refuses a gateway write that makes the raw QP valid before both free lists are latched
 * (fw_gate only; strict: stops). */
bool Device::Impl::fw_qp_check(unsigned p, bool req, const uint32_t *data, const uint32_t *mask)
{
	if (!cfg_.fw_gate)
		return true;
	uint32_t b = req ? qpc::REQ_VALID.bit : qpc::RES_VALID.bit;
	uint32_t w = b / 32, bit = 1u << (b % 32);
	if (!(mask[w] & bit) || !(data[w] & bit))
		return true; /* not making it valid */
	bool txs = fw_.txs_latched[p].load(std::memory_order_acquire);
	bool tmr = fw_.tmr_latched[p / kPortsPerMacro].load(std::memory_order_acquire);
	if (txs && tmr)
		return true;
	return fw_order_refuse("port %u: raw QP %s context made valid before %s was set up", p,
			       req ? "requester" : "responder",
			       !txs ? "the port's TXS (NIC_INIT_TXS_MEM, free list latched)"
				    : "the macro's TMR (NIC_INIT_TMR_MEM, free list latched)");
}

bool Device::Impl::fw_order_refuse(const char *fmt, ...)
{
	fw_.order_refused.fetch_add(1, std::memory_order_relaxed);
	uint64_t n = violations_.fetch_add(1, std::memory_order_relaxed) + 1;
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rte_log(RTE_LOG_ERR, gaudi_emu_logtype, "gaudi_emu: %s [%llu so far]\n", msg,
		(unsigned long long)n);
	if (cfg_.strict)
		rte_panic("gaudi_emu: strict mode: a NIC set-up step before the firmware's: %s\n",
			  msg);
	return false;
}

/* The TXS (per port) and TMR (per macro) free lists are in device memory the firmware writes
 * (NIC_INIT_TXS_MEM / NIC_INIT_TMR_MEM); PRODUCER_UPDATE_EN = 1 latches PRODUCER_UPDATE free
 * entries from BASE_ADDRESS_FREE_LIST. hbl_cn sends the packet before programming the block
 * [gaudi2_cn.c gaudi2_cn_config_hw_tmr, gaudi2_cn_config_port_hw_txs]; a latch before it, or
 * of another list or length than the firmware wrote, would hand the scheduler garbage: the
 * model refuses the write (strict: stops), as fw_gate does. */
bool Device::Impl::fw_order_check(const RegAddr &a, uint32_t off, uint32_t val)
{
	if (!cfg_.fw_gate || (val & 1) == 0)
		return true;
	bool txs = a.block == Block::txs && a.r == reg::TXS_PRODUCER_UPDATE_EN;
	bool tmr = a.block == Block::tmr && a.r == reg::TMR_TMR_PRODUCER_UPDATE_EN;
	if (!txs && !tmr)
		return true;
	uint32_t b = off - a.r;
	uint64_t base;
	uint32_t count;
	FwMemInit m;
	{
		SpinGuard g(fw_.lock);
		m = txs ? fw_.txs[a.port] : fw_.tmr[a.port / kPortsPerMacro];
	}
	if (txs) {
		base = uint64_t(rd(b + reg::TXS_BASE_ADDRESS_FREE_LIST_63_32)) << 32 |
		       rd(b + reg::TXS_BASE_ADDRESS_FREE_LIST_31_0);
		count = rd(b + reg::TXS_PRODUCER_UPDATE);
	} else {
		base = uint64_t(rd(b + reg::TMR_TMR_BASE_ADDRESS_FREE_LIST_63_32)) << 32 |
		       rd(b + reg::TMR_TMR_BASE_ADDRESS_FREE_LIST_31_0);
		count = rd(b + reg::TMR_TMR_PRODUCER_UPDATE);
	}
	const char *why = nullptr;
	if (!m.done)
		why = txs ? "before NIC_INIT_TXS_MEM of the port"
			  : "before NIC_INIT_TMR_MEM of the macro";
	else if (base != m.addr || count != m.entries)
		why = "of another free list than the firmware initialised";
	if (why == nullptr) {
		(txs ? fw_.txs_latched[a.port] : fw_.tmr_latched[a.port / kPortsPerMacro])
			.store(true, std::memory_order_release);
		return true;
	}
	return fw_order_refuse("%s free list latched (PRODUCER_UPDATE_EN) %s: port %u, list "
			       "0x%llx x %u, firmware wrote 0x%llx x %u",
			       txs ? "TXS" : "TMR", why, a.port, (unsigned long long)base, count,
			       (unsigned long long)m.addr, m.entries);
}

/* ---- facade ---- */

hw::Bar &Device::fw_bar()
{
	return impl_->fw_.bar;
}

hw::Bar &Device::fw_sram_bar()
{
	return impl_->fw_.sram_bar;
}

FwCounters Device::fw_counters() const
{
	auto &f = impl_->fw_;
	SpinGuard g(f.lock);
	FwCounters c{};
	c.packets = f.packets;
	c.invalid = f.invalid;
	c.comms_errors = f.comms_errors;
	c.gate_refused = f.gate_refused.load(std::memory_order_relaxed);
	c.boot_status = impl_->fw_rd(fw::CPU_BOOT_STATUS);
	c.queues_ready = f.queues_ready;
	c.pci_access = f.pci_access;
	c.msix_db_addr = f.msix_db;
	c.lpbk_mask = f.lpbk_mask;
	c.pfc_mask = f.pfc_mask;
	c.boot_fit_bytes = f.boot_fit_bytes;
	c.fit_bytes = f.fit_bytes;
	c.clr_mem_packets = f.clr_packets;
	c.clr_mem_bytes = f.clr_bytes;
	c.clr_mem_lo = f.clr_packets ? f.clr_lo : 0;
	c.clr_mem_hi = f.clr_hi;
	c.ecc_unmasked = f.ecc_unmasked;
	c.tmr_init_mask = c.txs_init_mask = 0;
	for (unsigned m = 0; m < kMacros; m++)
		c.tmr_init_mask |= uint64_t(f.tmr[m].done) << m;
	for (unsigned p = 0; p < kMaxPorts; p++)
		c.txs_init_mask |= uint64_t(f.txs[p].done) << p;
	c.order_refused = f.order_refused.load(std::memory_order_relaxed);
	c.nic_status_packets = f.status_packets;
	return c;
}

FwNicPort Device::fw_nic_port(unsigned port) const
{
	auto &f = impl_->fw_;
	SpinGuard g(f.lock);
	FwNicPort r{};
	if (port >= kMaxPorts)
		return r;
	r.txs = f.txs[port];
	r.tmr = f.tmr[port / kPortsPerMacro];
	r.status_packets = f.port_status_packets[port];
	r.status = f.status[port];
	return r;
}

/* [choice] Port n's address is port 0's plus n in the last three bytes (the NIC-specific
 * part of the address, carry kept inside it); the firmware's own assignment is not public. */
void Device::mac_of(const uint8_t base[6], unsigned port, uint8_t out[6])
{
	uint32_t low = (uint32_t(base[3]) << 16 | uint32_t(base[4]) << 8 | base[5]) + port;
	out[0] = base[0];
	out[1] = base[1];
	out[2] = base[2];
	out[3] = uint8_t(low >> 16);
	out[4] = uint8_t(low >> 8);
	out[5] = uint8_t(low);
}

} /* namespace gaudi::emu */
