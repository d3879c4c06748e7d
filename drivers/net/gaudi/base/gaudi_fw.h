/* SPDX-License-Identifier: BSD-3-Clause
 * The host side of the Gaudi2 firmware protocols, as the public habanalabs driver runs them
 * (firmware_if.c, gaudi2.c): preboot status, COMMS dynamic firmware load (boot FIT, then the
 * FIT), CPU-queue set-up and cpucp packets with their fence.
 *
 * It works on two register windows the caller maps (hw::Bar): the firmware registers, starting
 * at configuration address kFwCfgBase (BAR0 + kCfgBarOffset + kFwCfgBase on silicon), and the
 * device SRAM region (SRAM_BASE_ADDR, BAR0 + kSramBar0Offset) into which the images are
 * copied; and on DMA memory the caller allocates (the PQ, EQ and CPU-accessible memory). It
 * allocates no DPDK memory and never sleeps without a bound: every wait has a timeout
 * (FwTimeouts, microseconds) and sleeps through a callback (default rte_delay_us_sleep).
 *
 * Every failure returns a distinct FwErr and leaves a one-line message naming the step in
 * error(), e.g. "device not in the expected boot state (boot status 5)".
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>

#include "gaudi_bar.h"
#include "gaudi_fw_if.h"

namespace gaudi::hw::fw {

/* DMA memory the caller owns: host address, device (IO) address, length. */
struct DmaMem {
	void *va = nullptr;
	uint64_t iova = 0;
	size_t len = 0;
};

/* A firmware file: its name (as the public driver requests it) and its bytes. */
struct FwImage {
	const char *name = nullptr;
	std::span<const uint8_t> data;
};

/* Timeouts in microseconds; defaults are the public driver's [G2P][HLH]. */
struct FwTimeouts {
	uint32_t preboot_us = kPrebootReqTimeoutUs; /* preboot ready */
	uint32_t comms_us = kCpuTimeoutUs;	    /* each COMMS status (fw_loader->cpu_timeout) */
	uint32_t boot_fit_us = kBootFitReqTimeoutUs; /* EXEC of the boot FIT */
	uint32_t bl_us = kWaitForBlTimeoutUs;	     /* boot FIT running */
	uint32_t cpu_us = kCpuTimeoutUs;	     /* EXEC of the FIT, Linux up, queue init */
	uint32_t msg_us = kMsgToCpuTimeoutUs;	     /* a cpucp packet */
	uint32_t info_us = kCpucpInfoTimeoutUs;	     /* INFO / NIC_INFO / EEPROM packets */
	uint32_t poll_us = 1000;		     /* poll interval (the driver's 1 ms) */
};

enum class FwErr {
	ok = 0,
	bad_arg,	  /* a window or buffer the caller gave is too small */
	boot_state,	  /* preboot never reached a ready state */
	dirty,		  /* HW_STATE says a previous owner left the device initialised */
	boot_error,	  /* CPU_BOOT_ERR0 has a fatal bit */
	no_dynamic_load,  /* DEV_STS0 lacks FW_LD_COM_EN: legacy loading, not implemented */
	comms_timeout,	  /* a COMMS status did not come */
	comms_error,	  /* the firmware answered a COMMS command with ERR */
	desc_invalid,	  /* the COMMS descriptor is unusable (CRC, region, registers) */
	image_too_large,  /* the image does not fit the 25-bit size field or the SRAM region */
	image_rejected,	  /* the firmware failed to validate an image (VALID_ERR) */
	boot_fit_timeout, /* the boot FIT did not come up */
	linux_timeout,	  /* the FIT (Linux, CPU-CP) did not come up */
	queue_init_timeout,
	queue_init_error, /* QUEUE_INIT reported a length or address error */
	cpu_disabled,	  /* an earlier cpucp timeout disabled the device CPU */
	cpucp_timeout,	  /* no fence within the timeout */
	cpucp_rc,	  /* the firmware answered with a non-zero return code */
	not_ready,	  /* a step was called out of order */
};
const char *fw_err_name(FwErr e);

/* The name of CPU_BOOT_ERR0 bit `bit` (0..31) as hl_boot_if.h spells it without the
 * CPU_BOOT_ERR0_ prefix ("NIC_FW_FAIL"), or null for a bit it does not define. */
const char *err0_bit_name(unsigned bit);
/* The names of the bits set in `bits`, ", "-separated; an undefined bit as "bit N". */
std::string err0_names(uint32_t bits);

class FwHost {
public:
	using SleepFn = void (*)(void *ctx, uint32_t us);

	/* regs: window at kFwCfgBase, at least kFwWindowSize long. sram: the SRAM region at
	 * kSramBaseAddr (kSramSize on silicon). Both must outlive this object. */
	FwHost(Bar &regs, Bar &sram, const FwTimeouts &t = {}, SleepFn sleep = nullptr,
	       void *sleep_ctx = nullptr);

	/* Step 1: wait for a preboot ready state (NIC_FW_RDY, READY_TO_BOOT, WAITING_FOR_BOOT_FIT),
	 * refuse a dirty device and fatal CPU_BOOT_ERR0 bits, read DEV_STS0/1. */
	FwErr read_preboot();
	/* Step 2: COMMS load of the boot FIT, then of the FIT (CPU-CP Linux), each: PREP_DESC
	 * with the size, descriptor read and CRC-checked, image copied to img_addr, DATA_RDY,
	 * EXEC; then the boot status the next stage reports; finally CPU_BOOT_ERR0 again. */
	FwErr load_firmware(const FwImage &boot_fit, const FwImage &fit);
	/* Step 3: CPU queues: PQ (power of two, 16-byte descriptors), EQ and CPU-accessible
	 * memory (cq: packets and reply buffers live here, at least kCqMinBytes), then the
	 * QUEUE_INIT handshake (READY_FOR_CP -> READY_FOR_HOST). */
	static constexpr size_t kCqMinBytes = 8192;
	FwErr init_cpu_queues(const DmaMem &pq, const DmaMem &eq, const DmaMem &cq);

	/* Send one packet (header plus len - 24 payload bytes) and wait for its fence. On
	 * return pkt holds the firmware's answer (result, ctl); a non-zero return code is
	 * FwErr::cpucp_rc (rc in last_rc()). timeout_us 0 = msg_us. */
	FwErr send(void *pkt, size_t len, uint32_t timeout_us = 0);

	/* Typed requests. */
	FwErr test(uint64_t value, uint64_t *echo);	/* TEST: the firmware echoes value */
	FwErr enable_pci_access(uint64_t msix_db_addr); /* ENABLE_PCI_ACCESS */
	FwErr disable_pci_access();
	FwErr nic_info_get(CpucpNicInfo *out);	    /* NIC_INFO_GET, info timeout */
	FwErr nic_status(const CpucpNicStatus &st); /* NIC_STATUS, one port */
	/* The device CPU's events on the CPU event queue, oldest first, at most max: copied to
	 * out, given back (ctl cleared, EQ_RD_OFFS = entries consumed) [habanalabs
	 * hl_irq_handler_eq, polled here]. Returns how many. */
	unsigned take_events(EqEntry *out, unsigned max);
	FwErr nic_lpbk_set(unsigned port, bool enable, uint32_t lanes); /* NIC_LPBK_SET */
	FwErr nic_pfc_set(unsigned port, bool enable, uint32_t lanes);	/* NIC_PFC_SET */
	FwErr nic_set_checkers(unsigned port, uint32_t type, bool check, bool drop);
	/* NIC_CLR_MEM: zero size bytes of device memory at addr (cpucp_cn_clear_mem_packet). */
	FwErr nic_clr_mem(uint64_t addr, uint32_t size);
	/* NIC_ECC_INTRS_UNMASK: a header-only packet. */
	FwErr nic_ecc_intrs_unmask();
	/* NIC_INIT_TXS_MEM (index = port) / NIC_INIT_TMR_MEM (index = macro): the firmware writes
	 * the free list of entries x entry_size bytes at addr, entry i holding granularity + i
	 * (cpucp_cn_init_hw_mem_packet). */
	FwErr nic_init_hw_mem(CpucpOp op, unsigned index, uint64_t addr, uint16_t entries,
			      uint16_t entry_size, uint16_t granularity);
	/* Any header-only request: opcode, port_index, value; result out (may be null). */
	FwErr simple(CpucpOp op, unsigned port, uint64_t value, uint64_t *result,
		     uint32_t timeout_us = 0);

	/* State read by the steps. */
	uint32_t boot_status() const { return boot_status_; }
	uint32_t dev_sts0() const { return dev_sts0_; }
	uint32_t boot_err0() const { return err0_; }
	bool queues_ready() const { return queues_ready_; }
	uint32_t last_rc() const { return last_rc_; }
	/* The message of the last failure (empty after a success). */
	const std::string &error() const { return err_; }

	/* [choice] The value written to the PI-update interrupt register (the event id the
	 * public driver takes from gaudi2_irq_map_table, not found); the model accepts any. */
	uint32_t pi_upd_event = 0;

private:
	FwErr fail(FwErr e, std::string msg);
	bool wait_reg(uint32_t off, uint32_t timeout_us, uint32_t *val,
		      bool (*done)(uint32_t v, const void *arg), const void *arg);
	void sleep(uint32_t us);
	uint32_t rd(uint32_t off) const { return regs_.rd32(off); }
	void wr(uint32_t off, uint32_t v) { regs_.wr32(off, v); }
	uint32_t reg_of(uint32_t dyn_cfg, uint32_t fallback) const;
	FwErr comms_wait(CommsSts want, uint32_t timeout_us, uint32_t *status, const char *step);
	FwErr comms_cmd(CommsCmd c, uint32_t size, bool wait_ok, uint32_t timeout_us,
			const char *step);
	FwErr load_image(const FwImage &img, uint32_t exec_timeout_us);
	FwErr check_errors(const char *when);

	Bar &regs_;
	Bar &sram_;
	FwTimeouts t_;
	SleepFn sleep_;
	void *sleep_ctx_;
	std::string err_;
	uint32_t boot_status_ = 0, dev_sts0_ = 0, err0_ = 0;
	uint32_t last_rc_ = 0;
	uint32_t comms_resp_ = 0; /* last non-NOOP COMMS status */
	bool have_desc_ = false;
	LkdFwCommsDesc desc_{};
	/* CPU queue */
	DmaMem pq_{}, eq_{}, cq_{};
	uint32_t eq_ci_ = 0; /* CPU event queue entries consumed (free-running) */
	uint32_t pq_entries_ = 0;
	uint32_t pi_ = 0;
	bool queues_ready_ = false;
	bool cpu_disabled_ = false;
	/* One message in flight: the packet slot is shared (the public driver holds a mutex
	 * around hl_fw_send_cpu_message too); the periodic NIC status comes from the EAL
	 * interrupt thread while the control path may send its own. */
	std::mutex send_lock_;
};

/* Offsets in the CPU-accessible memory [choice]: one message is in flight at a time (the
 * public driver holds a mutex), so the packet and its reply buffer have fixed slots. */
inline constexpr size_t kCqPacketOff = 0;
inline constexpr size_t kCqDataOff = 4096;

} /* namespace gaudi::hw::fw */
