/* SPDX-License-Identifier: BSD-3-Clause
 * Host side of the Gaudi2 firmware protocols (gaudi_fw.h). The step order and the waits follow
 * the public driver [FWIF hl_fw_dynamic_init_cpu, hl_fw_dynamic_send_protocol_cmd,
 * hl_fw_send_cpu_message; G2C gaudi2_init_cpu_queues]; sources are cited in gaudi_fw_if.h.
 */
#include "gaudi_fw.h"

#include <chrono>
#include <cstdio>
#include <cstring>

#include <rte_atomic.h>
#include <rte_cycles.h>

namespace gaudi::hw::fw {

namespace {

std::string hex(uint64_t v)
{
	char b[24];
	std::snprintf(b, sizeof(b), "0x%llx", static_cast<unsigned long long>(v));
	return b;
}

void default_sleep(void *, uint32_t us)
{
	rte_delay_us_sleep(us);
}

const char *comms_sts_name(uint32_t s)
{
	static const char *const n[] = {"NOOP", "ACK", "OK", "ERR", "VALID_ERR", "TIMEOUT_ERR"};
	return s < 6 ? n[s] : "unknown";
}

uint32_t load32(const void *p)
{
	return __atomic_load_n(static_cast<const uint32_t *>(p), __ATOMIC_ACQUIRE);
}

} /* namespace */

const char *fw_err_name(FwErr e)
{
	switch (e) {
	case FwErr::ok:
		return "ok";
	case FwErr::bad_arg:
		return "bad_arg";
	case FwErr::boot_state:
		return "boot_state";
	case FwErr::dirty:
		return "dirty";
	case FwErr::boot_error:
		return "boot_error";
	case FwErr::no_dynamic_load:
		return "no_dynamic_load";
	case FwErr::comms_timeout:
		return "comms_timeout";
	case FwErr::comms_error:
		return "comms_error";
	case FwErr::desc_invalid:
		return "desc_invalid";
	case FwErr::image_too_large:
		return "image_too_large";
	case FwErr::image_rejected:
		return "image_rejected";
	case FwErr::boot_fit_timeout:
		return "boot_fit_timeout";
	case FwErr::linux_timeout:
		return "linux_timeout";
	case FwErr::queue_init_timeout:
		return "queue_init_timeout";
	case FwErr::queue_init_error:
		return "queue_init_error";
	case FwErr::cpu_disabled:
		return "cpu_disabled";
	case FwErr::cpucp_timeout:
		return "cpucp_timeout";
	case FwErr::cpucp_rc:
		return "cpucp_rc";
	case FwErr::not_ready:
		return "not_ready";
	}
	return "unknown";
}

/* From the table the conformance test checks against hl_boot_if.h (kErr0Rows). */
const char *err0_bit_name(unsigned bit)
{
	for (const FwEnumRow &r : kErr0Rows)
		if (r.value == bit)
			return r.name;
	return nullptr;
}

std::string err0_names(uint32_t bits)
{
	std::string s;
	for (unsigned b = 0; b < 32; b++) {
		if (!(bits & (1u << b)))
			continue;
		if (!s.empty())
			s += ", ";
		const char *n = err0_bit_name(b);
		s += n != nullptr ? std::string(n) : "bit " + std::to_string(b);
	}
	return s;
}

FwHost::FwHost(Bar &regs, Bar &sram, const FwTimeouts &t, SleepFn sleep, void *sleep_ctx)
    : regs_(regs), sram_(sram), t_(t), sleep_(sleep ? sleep : default_sleep), sleep_ctx_(sleep_ctx)
{
}

FwErr FwHost::fail(FwErr e, std::string msg)
{
	err_ = std::move(msg);
	return e;
}

void FwHost::sleep(uint32_t us)
{
	sleep_(sleep_ctx_, us);
}

/* Polls a register until done() or the timeout; the last value read is in *val. The clock is
 * checked after each read, so a timeout of 0 still reads once. */
bool FwHost::wait_reg(uint32_t off, uint32_t timeout_us, uint32_t *val,
		      bool (*done)(uint32_t v, const void *arg), const void *arg)
{
	auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(timeout_us);
	for (;;) {
		*val = rd(off);
		if (done(*val, arg))
			return true;
		if (std::chrono::steady_clock::now() >= end)
			return false;
		sleep(t_.poll_us);
	}
}

/* A register address the firmware's descriptor supplies (cpu_dyn_regs, configuration
 * addresses) as an offset in the window; before the descriptor, or if it names a register
 * outside the window, the published static address. */
uint32_t FwHost::reg_of(uint32_t dyn_cfg, uint32_t fallback) const
{
	if (!have_desc_ || dyn_cfg < kFwCfgBase || dyn_cfg - kFwCfgBase + 4 > kFwWindowSize)
		return fallback;
	return dyn_cfg - kFwCfgBase;
}

FwErr FwHost::check_errors(const char *when)
{
	const CpuDynRegs &d = desc_.cpu_dyn_regs;
	err0_ = rd(reg_of(d.cpu_boot_err0, CPU_BOOT_ERR0));
	/* Each fatal bit by name, as fw_read_errors logs one line per error [FWIF]. */
	if ((err0_ & err0::ENABLED) && (err0_ & err0::kFatal))
		return fail(FwErr::boot_error, std::string("device reports boot errors ") + when +
						       " (CPU_BOOT_ERR0 " + hex(err0_) + ": " +
						       err0_names(err0_ & err0::kFatal) + ")");
	return FwErr::ok;
}

/* ---- Step 1: preboot ---- */

FwErr FwHost::read_preboot()
{
	err_.clear();
	if (!regs_.valid() || regs_.len() < kFwWindowSize)
		return fail(FwErr::bad_arg,
			    "firmware register window smaller than " + hex(kFwWindowSize));
	uint32_t st = 0;
	auto ready = [](uint32_t v, const void *) {
		return v == uint32_t(BootStatus::NIC_FW_RDY) ||
		       v == uint32_t(BootStatus::READY_TO_BOOT) ||
		       v == uint32_t(BootStatus::WAITING_FOR_BOOT_FIT);
	};
	bool ok = wait_reg(CPU_BOOT_STATUS, t_.preboot_us, &st, ready, nullptr);
	boot_status_ = st;
	if (!ok) {
		/* As fw_read_errors on a preboot timeout: say what the error register holds. */
		err0_ = rd(CPU_BOOT_ERR0);
		return fail(FwErr::boot_state,
			    "device not in the expected boot state (boot status " +
				    std::to_string(st) + " after " +
				    std::to_string(t_.preboot_us / 1000) + " ms, CPU_BOOT_ERR0 " +
				    hex(err0_) + ")");
	}
	uint32_t hw = rd(HW_STATE);
	if (hw == kHwStateDirty)
		return fail(FwErr::dirty, "device is dirty (HW_STATE " + std::to_string(hw) +
						  "): a previous owner left it initialised; it "
						  "needs a hard reset first");
	FwErr e = check_errors("at preboot");
	if (e != FwErr::ok)
		return e;
	dev_sts0_ = rd(CPU_BOOT_DEV_STS0);
	return FwErr::ok;
}

/* ---- Step 2: COMMS ---- */

FwErr FwHost::comms_wait(CommsSts want, uint32_t timeout_us, uint32_t *status, const char *step)
{
	uint32_t off = reg_of(desc_.cpu_dyn_regs.cpu_cmd_status_to_host, CPU_CMD_STATUS_TO_HOST);
	struct Arg {
		uint32_t want;
	} a{uint32_t(want)};
	/* Besides the awaited status, an error status ends the wait at once (the public driver
	 * waits for its timeout; the answer is the same, sooner). */
	auto done = [](uint32_t v, const void *p) {
		uint32_t s = kCommsStsStatus.get(v), w = static_cast<const Arg *>(p)->want;
		return s == w || (w != uint32_t(CommsSts::NOOP) && s >= uint32_t(CommsSts::ERR));
	};
	uint32_t v = 0;
	bool ok = wait_reg(off, timeout_us, &v, done, &a);
	*status = v;
	uint32_t s = kCommsStsStatus.get(v);
	if (ok && s == a.want) {
		if (want != CommsSts::NOOP)
			comms_resp_ = v;
		return FwErr::ok;
	}
	std::string what = std::string("COMMS ") + step + ": device status " + comms_sts_name(s) +
			   ", expected " + comms_sts_name(a.want);
	if (!ok)
		return fail(FwErr::comms_timeout, what + " (timed out after " +
							  std::to_string(timeout_us / 1000) +
							  " ms)");
	if (s == uint32_t(CommsSts::VALID_ERR))
		return fail(FwErr::image_rejected, what);
	return fail(FwErr::comms_error, what);
}

/* One protocol command: clear, command, ACK, clear, NOOP, [OK, clear, NOOP]. */
FwErr FwHost::comms_cmd(CommsCmd c, uint32_t size, bool wait_ok, uint32_t timeout_us,
			const char *step)
{
	uint32_t kmd = reg_of(desc_.cpu_dyn_regs.kmd_msg_to_cpu, KMD_MSG_TO_CPU);
	uint32_t st = 0;
	auto clear = [&]() {
		wr(kmd, fw::comms_cmd(CommsCmd::CLR_STS));
		return comms_wait(CommsSts::NOOP, t_.comms_us, &st, step);
	};
	FwErr e = clear();
	if (e != FwErr::ok)
		return e;
	wr(kmd, fw::comms_cmd(c, size));
	if ((e = comms_wait(CommsSts::ACK, timeout_us, &st, step)) != FwErr::ok)
		return e;
	if ((e = clear()) != FwErr::ok)
		return e;
	wr(kmd, fw::comms_cmd(CommsCmd::NOOP));
	if (!wait_ok)
		return FwErr::ok;
	if ((e = comms_wait(CommsSts::OK, timeout_us, &st, step)) != FwErr::ok)
		return e;
	if ((e = clear()) != FwErr::ok)
		return e;
	wr(kmd, fw::comms_cmd(CommsCmd::NOOP));
	return FwErr::ok;
}

FwErr FwHost::load_image(const FwImage &img, uint32_t exec_timeout_us)
{
	const char *name = img.name ? img.name : "(unnamed)";
	if (img.data.empty())
		return fail(FwErr::bad_arg, std::string("firmware file ") + name + " is empty");
	if (img.data.size() > kCommsMaxSize)
		return fail(FwErr::image_too_large, std::string("firmware file ") + name + " is " +
							    std::to_string(img.data.size()) +
							    " bytes, over the COMMS size limit " +
							    std::to_string(kCommsMaxSize));
	uint32_t size = uint32_t(img.data.size());
	FwErr e = comms_cmd(CommsCmd::PREP_DESC, size, true, t_.comms_us, "PREP_DESC");
	if (e != FwErr::ok)
		return e;
	/* The descriptor is where the OK status says: offset << 2 in SRAM or DRAM. */
	uint32_t type = kCommsStsRamType.get(comms_resp_);
	uint64_t off = uint64_t(kCommsStsOffset.get(comms_resp_)) << kCommsOffsetAlignShift;
	if (type != kCommsRamSram)
		return fail(FwErr::desc_invalid, "COMMS descriptor in DRAM (RAM type " +
							 std::to_string(type) +
							 "): only the SRAM region is mapped");
	if (off + sizeof(LkdFwCommsDesc) > sram_.len())
		return fail(FwErr::desc_invalid, "COMMS descriptor at SRAM offset " + hex(off) +
							 " beyond the SRAM window");
	LkdFwCommsDesc d{};
	for (size_t i = 0; i < sizeof(d) / 4; i++) {
		uint32_t v = sram_.rd32(uint32_t(off + 4 * i));
		std::memcpy(reinterpret_cast<uint8_t *>(&d) + 4 * i, &v, 4);
	}
	size_t data_size = d.header.size;
	if (data_size > sizeof(d) - sizeof(d.header))
		data_size = sizeof(d) -
			    sizeof(d.header); /* newer, longer descriptor: ours is a prefix */
	/* The CRC covers header.size bytes; a longer descriptor is read on for the CRC only. */
	uint32_t crc = 0;
	if (d.header.size <= sizeof(d) - sizeof(d.header)) {
		crc = comms_crc32(reinterpret_cast<const uint8_t *>(&d) + sizeof(d.header),
				  data_size);
	} else {
		std::string tail(d.header.size, '\0');
		std::memcpy(tail.data(), reinterpret_cast<const uint8_t *>(&d) + sizeof(d.header),
			    data_size);
		for (size_t i = data_size; i + 4 <= d.header.size; i += 4) {
			uint32_t v = sram_.rd32(uint32_t(off + sizeof(d.header) + i));
			std::memcpy(tail.data() + i, &v, 4);
		}
		crc = comms_crc32(reinterpret_cast<const uint8_t *>(tail.data()), tail.size());
	}
	if (crc != d.header.crc32)
		return fail(FwErr::desc_invalid, "COMMS descriptor CRC32 mismatch (computed " +
							 hex(crc) + ", descriptor says " +
							 hex(d.header.crc32) + ")");
	if (d.img_addr < kSramBaseAddr || d.img_addr - kSramBaseAddr + size > sram_.len())
		return fail(FwErr::image_too_large,
			    std::string("firmware file ") + name + " (" + std::to_string(size) +
				    " bytes) does not fit at device address " + hex(d.img_addr));
	desc_ = d;
	have_desc_ = true;
	/* Copy the image through the SRAM window, 32 bits at a time (last word zero-padded). */
	uint32_t base = uint32_t(d.img_addr - kSramBaseAddr);
	for (uint32_t i = 0; i < size; i += 4) {
		uint32_t v = 0;
		std::memcpy(&v, img.data.data() + i, size - i < 4 ? size - i : 4);
		sram_.wr32(base + i, v);
	}
	e = comms_cmd(CommsCmd::DATA_RDY, 0, true, t_.comms_us, "DATA_RDY");
	if (e == FwErr::image_rejected)
		return fail(e, std::string("firmware file ") + name +
				       " rejected by the device (COMMS VALID_ERR after DATA_RDY)");
	if (e != FwErr::ok)
		return e;
	return comms_cmd(CommsCmd::EXEC, 0, false, exec_timeout_us, "EXEC");
}

FwErr FwHost::load_firmware(const FwImage &boot_fit, const FwImage &fit)
{
	err_.clear();
	if (!(dev_sts0_ & dev_sts0::ENABLED) || !(dev_sts0_ & dev_sts0::FW_LD_COM_EN))
		return fail(FwErr::no_dynamic_load,
			    "device does not offer the dynamic (COMMS) firmware load "
			    "(CPU_BOOT_DEV_STS0 " +
				    hex(dev_sts0_) + "); the legacy load is not implemented");
	if (!sram_.valid() || sram_.len() < kBootFitSramOffset)
		return fail(FwErr::bad_arg, "SRAM window missing or too small");
	have_desc_ = false;
	FwErr e = comms_cmd(CommsCmd::RST_STATE, 0, true, t_.comms_us, "RST_STATE");
	if (e != FwErr::ok)
		return e;
	if ((e = load_image(boot_fit, t_.boot_fit_us)) != FwErr::ok)
		return e;
	const CpuDynRegs &d = desc_.cpu_dyn_regs;
	uint32_t st = 0;
	auto fit_up = [](uint32_t v, const void *) {
		return v == uint32_t(BootStatus::READY_TO_BOOT) ||
		       v == uint32_t(BootStatus::SRAM_AVAIL);
	};
	if (!wait_reg(reg_of(d.cpu_boot_status, CPU_BOOT_STATUS), t_.bl_us, &st, fit_up, nullptr))
		return fail(FwErr::boot_fit_timeout,
			    std::string("boot FIT ") + (boot_fit.name ? boot_fit.name : "") +
				    " did not come up (boot status " + std::to_string(st) + ")");
	dev_sts0_ = rd(reg_of(d.cpu_boot_dev_sts0, CPU_BOOT_DEV_STS0));
	if ((e = load_image(fit, t_.cpu_us)) != FwErr::ok)
		return e;
	auto linux_up = [](uint32_t v, const void *) {
		return v == uint32_t(BootStatus::SRAM_AVAIL);
	};
	if (!wait_reg(reg_of(d.cpu_boot_status, CPU_BOOT_STATUS), t_.cpu_us, &st, linux_up,
		      nullptr))
		return fail(FwErr::linux_timeout,
			    std::string("firmware ") + (fit.name ? fit.name : "") +
				    " did not come up (boot status " + std::to_string(st) + ")");
	boot_status_ = st;
	dev_sts0_ = rd(reg_of(d.cpu_boot_dev_sts0, CPU_BOOT_DEV_STS0));
	return check_errors("after the firmware load");
}

/* ---- Step 3: CPU queues ---- */

FwErr FwHost::init_cpu_queues(const DmaMem &pq, const DmaMem &eq, const DmaMem &cq)
{
	err_.clear();
	if (!pq.va || pq.len < 2 * sizeof(PqBd) || (pq.len & (pq.len - 1)) != 0)
		return fail(FwErr::bad_arg, "CPU PQ must be a power of two of at least 32 bytes");
	if (!eq.va || eq.len == 0 || !cq.va || cq.len < kCqMinBytes)
		return fail(FwErr::bad_arg, "CPU EQ or CPU-accessible memory missing or too small");
	if (pq.len > 0xFFFFFFFFu || eq.len > 0xFFFFFFFFu || cq.len > 0xFFFFFFFFu)
		return fail(FwErr::bad_arg, "CPU queue longer than 4 GB");
	pq_ = pq;
	eq_ = eq;
	cq_ = cq;
	pq_entries_ = uint32_t(pq.len / sizeof(PqBd));
	pi_ = 0;
	eq_ci_ = 0;
	std::memset(eq.va, 0, eq.len);
	queues_ready_ = false;
	cpu_disabled_ = false;
	std::memset(pq.va, 0, pq.len);
	const CpuDynRegs &d = desc_.cpu_dyn_regs;
	wr(reg_of(d.cpu_pq_base_addr_low, PQ_BASE_ADDR_LOW), uint32_t(pq.iova));
	wr(reg_of(d.cpu_pq_base_addr_high, PQ_BASE_ADDR_HIGH), uint32_t(pq.iova >> 32));
	wr(reg_of(d.cpu_eq_base_addr_low, EQ_BASE_ADDR_LOW), uint32_t(eq.iova));
	wr(reg_of(d.cpu_eq_base_addr_high, EQ_BASE_ADDR_HIGH), uint32_t(eq.iova >> 32));
	wr(reg_of(d.cpu_cq_base_addr_low, CQ_BASE_ADDR_LOW), uint32_t(cq.iova));
	wr(reg_of(d.cpu_cq_base_addr_high, CQ_BASE_ADDR_HIGH), uint32_t(cq.iova >> 32));
	wr(reg_of(d.cpu_pq_length, PQ_LENGTH), uint32_t(pq.len));
	wr(reg_of(d.cpu_eq_length, EQ_LENGTH), uint32_t(eq.len));
	wr(reg_of(d.cpu_cq_length, CQ_LENGTH), uint32_t(cq.len));
	wr(reg_of(d.cpu_eq_ci, EQ_RD_OFFS), 0);
	wr(reg_of(d.cpu_pf_pq_pi, PF_PQ_PI), 0);
	uint32_t qi = reg_of(d.cpu_pq_init_status, QUEUE_INIT);
	wr(qi, uint32_t(PqInit::READY_FOR_CP));
	/* Interrupt the device CPU (gic_host_pi_upd_irq): it reads the queue registers. */
	if (have_desc_ && d.gic_host_pi_upd_irq != 0)
		wr(reg_of(d.gic_host_pi_upd_irq, 0), pi_upd_event);
	uint32_t st = 0;
	auto done = [](uint32_t v, const void *) {
		return v == uint32_t(PqInit::READY_FOR_HOST) ||
		       v == uint32_t(PqInit::LEN_NOT_POWER_OF_TWO_ERR) ||
		       v == uint32_t(PqInit::ILLEGAL_Q_ADDR_ERR);
	};
	if (!wait_reg(qi, t_.cpu_us, &st, done, nullptr))
		return fail(FwErr::queue_init_timeout,
			    "CPU queue init: QUEUE_INIT stayed " + std::to_string(st) +
				    " (expected READY_FOR_HOST) after " +
				    std::to_string(t_.cpu_us / 1000) + " ms");
	if (st != uint32_t(PqInit::READY_FOR_HOST))
		return fail(FwErr::queue_init_error,
			    std::string("CPU queue init refused: QUEUE_INIT ") +
				    std::to_string(st) +
				    (st == uint32_t(PqInit::LEN_NOT_POWER_OF_TWO_ERR)
					     ? " (length not a power of two)"
					     : " (illegal queue address)"));
	dev_sts0_ = rd(reg_of(d.cpu_boot_dev_sts0, CPU_BOOT_DEV_STS0));
	queues_ready_ = true;
	return FwErr::ok;
}

/* ---- cpucp packets ---- */

FwErr FwHost::send(void *pkt, size_t len, uint32_t timeout_us)
{
	std::lock_guard<std::mutex> g(send_lock_);
	err_.clear();
	last_rc_ = 0;
	auto *p = static_cast<CpucpPacket *>(pkt);
	uint32_t op = kPktCtlOpcode.get(p->ctl);
	std::string opname = "cpucp opcode " + std::to_string(op);
	for (const auto &r : kOpcodeRows)
		if (r.value == op)
			opname = std::string("cpucp ") + r.name;
	if (!queues_ready_)
		return fail(FwErr::not_ready, opname + ": CPU queues not initialised");
	if (cpu_disabled_)
		return fail(FwErr::cpu_disabled,
			    opname + ": device CPU disabled after an earlier cpucp timeout");
	if (len < sizeof(CpucpPacket) || len > kCqDataOff)
		return fail(FwErr::bad_arg, opname + ": packet length " + std::to_string(len));
	if (timeout_us == 0)
		timeout_us = t_.msg_us;
	auto *slot = static_cast<uint8_t *>(cq_.va) + kCqPacketOff;
	p->fence = kFencePreset;
	std::memcpy(slot, pkt, len);
	/* The buffer descriptor for this PI; ctl = the PI after it [FWIF]. PI runs modulo twice
	 * the queue length, as the host's queue pointers do. */
	uint32_t idx = pi_ % pq_entries_;
	uint32_t next = (pi_ + 1) % (2 * pq_entries_);
	auto *bd = static_cast<PqBd *>(pq_.va) + idx;
	bd->ptr = cq_.iova + kCqPacketOff;
	bd->len = uint32_t(len);
	bd->ctl = next;
	pi_ = next;
	rte_wmb();
	const CpuDynRegs &d = desc_.cpu_dyn_regs;
	wr(reg_of(d.cpu_pf_pq_pi, PF_PQ_PI), pi_);
	if (have_desc_ && d.gic_host_pi_upd_irq != 0)
		wr(reg_of(d.gic_host_pi_upd_irq, 0), pi_upd_event);
	uint32_t want = (dev_sts0_ & dev_sts0::PKT_PI_ACK_EN) ? pi_ : kFenceVal;
	auto *fence = slot + offsetof(CpucpPacket, fence);
	auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(timeout_us);
	bool ok;
	for (;;) {
		regs_.service();
		if ((ok = load32(fence) == want))
			break;
		if (std::chrono::steady_clock::now() >= end)
			break;
		sleep(t_.poll_us);
	}
	bd->ctl = kPqBdCtlUsed;
	if (!ok) {
		cpu_disabled_ = true;
		return fail(FwErr::cpucp_timeout, opname + " timed out after " +
							  std::to_string(timeout_us / 1000) +
							  " ms");
	}
	rte_rmb();
	std::memcpy(pkt, slot, len);
	last_rc_ = kPktCtlRc.get(p->ctl);
	if (last_rc_ != 0) {
		static const char *const rcn[] = {"success", "invalid", "fault", "invalid_pkt",
						  "invalid_params"};
		return fail(FwErr::cpucp_rc,
			    opname + " failed: return code " + std::to_string(last_rc_) + " (" +
				    (last_rc_ < 5 ? rcn[last_rc_] : "unknown") + ")");
	}
	return FwErr::ok;
}

FwErr FwHost::simple(CpucpOp op, unsigned port, uint64_t value, uint64_t *result,
		     uint32_t timeout_us)
{
	CpucpPacket p{};
	p.ctl = kPktCtlOpcode.put(uint32_t(op));
	p.value = value;
	p.port_index = port;
	FwErr e = send(&p, sizeof(p), timeout_us);
	if (e == FwErr::ok && result != nullptr)
		*result = p.value;
	return e;
}

FwErr FwHost::test(uint64_t value, uint64_t *echo)
{
	uint64_t r = 0;
	FwErr e = simple(CpucpOp::TEST, 0, value, &r);
	if (echo)
		*echo = r;
	if (e == FwErr::ok && r != value)
		return fail(FwErr::cpucp_rc,
			    "cpucp TEST: the firmware echoed " + hex(r) + " for " + hex(value));
	return e;
}

FwErr FwHost::enable_pci_access(uint64_t msix_db_addr)
{
	return simple(CpucpOp::ENABLE_PCI_ACCESS, 0, msix_db_addr, nullptr);
}

FwErr FwHost::disable_pci_access()
{
	return simple(CpucpOp::DISABLE_PCI_ACCESS, 0, 0, nullptr);
}

FwErr FwHost::nic_info_get(CpucpNicInfo *out)
{
	if (!queues_ready_)
		return fail(FwErr::not_ready, "cpucp NIC_INFO_GET: CPU queues not initialised");
	if (cq_.len < kCqDataOff + sizeof(CpucpNicInfo))
		return fail(FwErr::bad_arg, "cpucp NIC_INFO_GET: CPU-accessible memory too small");
	auto *buf = static_cast<uint8_t *>(cq_.va) + kCqDataOff;
	std::memset(buf, 0, sizeof(CpucpNicInfo));
	CpucpPacket p{};
	p.ctl = kPktCtlOpcode.put(uint32_t(CpucpOp::NIC_INFO_GET));
	p.value = cq_.iova + kCqDataOff;
	p.index = sizeof(CpucpNicInfo); /* data_max_size */
	FwErr e = send(&p, sizeof(p), t_.info_us);
	if (e != FwErr::ok)
		return e;
	std::memcpy(out, buf, sizeof(*out));
	return FwErr::ok;
}

unsigned FwHost::take_events(EqEntry *out, unsigned max)
{
	const uint32_t entries = uint32_t(eq_.len / sizeof(EqEntry));
	if (eq_.va == nullptr || entries == 0)
		return 0;
	auto *q = static_cast<EqEntry *>(eq_.va);
	unsigned n = 0;
	while (n < max) {
		EqEntry *e = &q[eq_ci_ % entries];
		uint32_t ctl = __atomic_load_n(&e->ctl, __ATOMIC_ACQUIRE);
		if (!kEqCtlReady.get(ctl))
			break;
		out[n++] = *e;
		__atomic_store_n(&e->ctl, 0, __ATOMIC_RELAXED);
		eq_ci_++;
	}
	if (n != 0)
		wr(reg_of(desc_.cpu_dyn_regs.cpu_eq_ci, EQ_RD_OFFS), eq_ci_);
	return n;
}

FwErr FwHost::nic_status(const CpucpNicStatus &st)
{
	CpucpNicStatusPacket p{};
	p.pkt.ctl = kPktCtlOpcode.put(uint32_t(CpucpOp::NIC_STATUS));
	p.pkt.port_index = st.port;
	p.length = sizeof(CpucpNicStatus) / 4;
	std::memcpy(p.data, &st, sizeof(st));
	return send(&p, sizeof(p));
}

FwErr FwHost::nic_clr_mem(uint64_t addr, uint32_t size)
{
	CpucpCnClearMemPacket p{};
	p.pkt.ctl = kPktCtlOpcode.put(uint32_t(CpucpOp::NIC_CLR_MEM));
	p.mem_base_addr = addr;
	p.size = size;
	return send(&p, sizeof(p));
}

FwErr FwHost::nic_ecc_intrs_unmask()
{
	return simple(CpucpOp::NIC_ECC_INTRS_UNMASK, 0, 0, nullptr);
}

FwErr FwHost::nic_init_hw_mem(CpucpOp op, unsigned index, uint64_t addr, uint16_t entries,
			      uint16_t entry_size, uint16_t granularity)
{
	if (op != CpucpOp::NIC_INIT_TXS_MEM && op != CpucpOp::NIC_INIT_TMR_MEM)
		return fail(FwErr::bad_arg, "nic_init_hw_mem: not a TXS/TMR init opcode");
	CpucpCnInitHwMemPacket p{};
	p.pkt.ctl = kPktCtlOpcode.put(uint32_t(op));
	p.pkt.port_index = index; /* port_index (TXS) or macro_index (TMR): one field */
	p.mem_base_addr = addr;
	p.num_entries = entries;
	p.entry_size = entry_size;
	p.granularity = granularity;
	return send(&p, sizeof(p));
}

FwErr FwHost::nic_lpbk_set(unsigned port, bool enable, uint32_t lanes)
{
	return simple(CpucpOp::NIC_LPBK_SET, port,
		      kPktValEnable.put(enable) | kPktValLanes.put(lanes), nullptr);
}

FwErr FwHost::nic_pfc_set(unsigned port, bool enable, uint32_t lanes)
{
	return simple(CpucpOp::NIC_PFC_SET, port,
		      kPktValEnable.put(enable) | kPktValLanes.put(lanes), nullptr);
}

FwErr FwHost::nic_set_checkers(unsigned port, uint32_t type, bool check, bool drop)
{
	return simple(CpucpOp::NIC_SET_CHECKERS, port,
		      kCheckersType.put(type) | kCheckersCheck.put(check) | kCheckersDrop.put(drop),
		      nullptr);
}

} /* namespace gaudi::hw::fw */
