/* SPDX-License-Identifier: BSD-3-Clause
 * Software model of a Gaudi2 NIC (up to 24 ports) behind the same register interface
 * (hw::Bar) and host-memory descriptor formats the silicon has. See
 * doc/guides/gaudi_hw_model.rst for what is modelled and which facts are our choices.
 *
 * The model owns an in-memory NIC region; register writes/reads go through BarHooks so the
 * model reacts to them (doorbells, QPC gateway, CI writes, counter latch). It DMAs to and from
 * DPDK memory by translating IOVAs through its own IOMMU table built from DPDK's memsegs; an
 * address outside mapped memory is a DMA fault (QP error event), never a wild access.
 */
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../base/gaudi_bar.h"
#include "../base/gaudi_fw_if.h"
#include "../base/gaudi_hw_defs.h"
#include "gaudi_emu_fault.h"

namespace gaudi::emu {

/* [firmware] How the model's firmware fails bring-up (tests of the probe's error paths). */
enum class FwFault {
	none,
	boot_stuck,	/* preboot never reaches a ready boot status (stays IN_PREBOOT) */
	dirty,		/* HW_STATE reads dirty: a previous owner left the device initialised */
	image_rejected, /* DATA_RDY of every image answers VALID_ERR */
	cpucp_silent,	/* the device CPU takes packets but never writes a fence */
	/* the FIT's DEV_STS0 lacks NIC_MEM_CLEAR_EN */
	no_nic_mem_clear,
};

/* [phy] How the SerDes MCU misbehaves (tests of the PMD's PHY bring-up errors). */
enum class PhyFault {
	none,
	mcu_silent, /* the MCU takes the image but never answers a mailbox command */
	load_stuck, /* FW2 (9814) never clears: the F/W load cannot start */
};

/* Counters of the model's firmware (device CPU). */
struct FwCounters {
	uint64_t packets;	 /* cpucp packets served */
	uint64_t invalid;	 /* packets answered with a non-zero return code */
	uint64_t comms_errors;	 /* COMMS commands out of protocol order or size */
	uint64_t gate_refused;	 /* NIC register writes refused by fw_gate */
	uint32_t boot_status;	 /* CPU_BOOT_STATUS now */
	bool queues_ready;	 /* QUEUE_INIT handshake done */
	bool pci_access;	 /* ENABLE_PCI_ACCESS received (and no DISABLE since) */
	uint64_t msix_db_addr;	 /* its value */
	uint64_t lpbk_mask;	 /* ports NIC_LPBK_SET enabled */
	uint64_t pfc_mask;	 /* ports NIC_PFC_SET enabled */
	uint64_t boot_fit_bytes; /* image bytes received, boot FIT and FIT */
	uint64_t fit_bytes;
	/* NIC memory [gaudi_nic_mem.h]: NIC_CLR_MEM packets and bytes, the lowest and highest
	 * address cleared; NIC_ECC_INTRS_UNMASK received; macros whose TMR and ports whose TXS
	 * free list the firmware initialised (and not cleared since); TXS/TMR free-list latches
	 * (PRODUCER_UPDATE_EN) refused because that init had not come; NIC_STATUS packets. */
	uint64_t clr_mem_packets;
	uint64_t clr_mem_bytes;
	uint64_t clr_mem_lo, clr_mem_hi;
	bool ecc_unmasked;
	uint64_t tmr_init_mask; /* bit per macro */
	uint64_t txs_init_mask; /* bit per port */
	uint64_t order_refused;
	uint64_t nic_status_packets;
};

/* [firmware] What NIC_INIT_TXS_MEM / NIC_INIT_TMR_MEM gave (cpucp_cn_init_hw_mem_packet). */
struct FwMemInit {
	bool done;
	uint64_t addr;
	uint16_t entries, entry_size, granularity;
};

/* [firmware] What the device CPU keeps about one port: its TXS init, its macro's TMR init, the
 * NIC_STATUS packets it received for it and the last one. */
struct FwNicPort {
	FwMemInit txs;
	FwMemInit tmr;
	uint64_t status_packets;
	hw::fw::CpucpNicStatus status;
};

/* What a port's MAC is cabled to. */
enum class Wire {
	loopback, /* a port hears what it sends */
	pair,	  /* ports 2k and 2k+1 are cabled together (an odd last port hears nothing) */
	pcap,	  /* a port receives an rx pcap/pcapng file and writes what it sends to a pcap */
	tap,	  /* [wires tap/udp] each port is a Linux TAP interface (gaudi_emu_tap.h) */
	udp,	  /* [wires tap/udp] a port's frames are UDP datagrams, QEMU dgram style */
};

enum class Engine {
	inline_run, /* work runs in the caller's thread when a register is written (deterministic) */
	thread,	    /* work runs on the model's own thread, like silicon (asynchronous) */
};

struct Config {
	unsigned nports = 2;
	Wire wire = Wire::pair;
	Engine engine = Engine::inline_run;
	std::array<std::string, hw::kMaxPorts> rx_pcap{}; /* per port, empty = none */
	std::array<std::string, hw::kMaxPorts> tx_pcap{};
	/* [wires tap/udp] */
	unsigned instance = 0; /* N of net_gaudi_emuN: default TAP names are gaudi<N>p<port> */
	std::array<std::string, hw::kMaxPorts> tap_name{};   /* wire=tap; empty = default */
	std::array<std::string, hw::kMaxPorts> udp_local{};  /* wire=udp: IP:PORT, [IPV6]:PORT */
	std::array<std::string, hw::kMaxPorts> udp_remote{}; /* both or none per port */
	/* [multi-process] Name of the memzone that holds the register region and the MAC
	 * counters, so that secondary processes can read them (SharedView). Empty: process
	 * heap (unit tests). At most RTE_MEMZONE_NAMESIZE - 1 characters. */
	std::string shm_name;
	/* [faults] armed at creation (gaudi_emu_fault.h) and the random mode */
	std::vector<FaultSpec> faults;
	FaultRandom fault_random;
	/* Strict mode: an access to an offset the published register map does not define, or a
	 * write to a read-only register, stops the process with a message naming it (rte_panic).
	 * Off, such accesses are only counted (map_violations) and logged. */
	bool strict = true;
	/* [wire delay] Delay of the loopback and pair cables, in microseconds (0: none): a frame
	 * reaches the receiving MAC only this long after its MAC sent it (gaudi_emu_delay.h).
	 * Each sending port's line holds wire_delay_frames frames; more are dropped and counted
	 * (PortCounters::wire_delay_drops). */
	uint32_t wire_delay_us = 0;
	uint32_t wire_delay_frames = 2048;
	/* [rx rate limit] A receiving port that takes at most rx_rate_limit[p] frames per second
	 * (0: no limit), as a slow device under test would: a token bucket of
	 * rx_rate_burst[p] frames (0: 32) filled at that rate; a frame that finds it empty is
	 * dropped after the MAC counted it, as a CQ overrun is (ether_stats_drop_events, which
	 * the PMD reports as imissed), and counted in PortCounters::rx_rate_drops. loopback and
	 * pair wires only (a pcap or socket source is paced by the receiver already). */
	std::array<uint32_t, hw::kMaxPorts> rx_rate_limit{};
	std::array<uint32_t, hw::kMaxPorts> rx_rate_burst{};
	/* [profile] Count the TSC cycles the callers of the register window (the driver's
	 * threads) spend in the model: with the inline engine the model's work on their
	 * doorbells, CI writes and polls, besides the accesses themselves (Device::profile). */
	bool profile = false;
	/* [firmware] The device CPU the model plays (gaudi_emu_fw.cpp, hardware-model guide
	 * "Firmware"). fw_port_mask: the link_mask NIC_INFO_GET reports (0 = all nports
	 * ports). fw_mac: station MAC of port 0; port n gets fw_mac + n in its last 3 bytes. */
	uint64_t fw_port_mask = 0;
	std::array<uint8_t, 6> fw_mac{0x02, 0x1d, 0xa3, 0x00, 0x00, 0x00};
	uint64_t fw_auto_neg_mask = 0;
	uint16_t fw_serdes_type = 4; /* [choice] HLS2_SERDES_TYPE (cpucp_serdes_type) */
	/* Refuse NIC register writes until the firmware is up and the CPU queues are set up
	 * (strict: stop with a named message; else count them as map violations and drop
	 * them). Off until the PMD probe runs the handshake. */
	bool fw_gate = false;
	/* [firmware] Bring-up faults: the way the firmware fails (FwFault), the CPU_BOOT_ERR0
	 * bits preboot reports (ENABLED is added when non-zero), the return code NIC_INFO_GET
	 * answers with. */
	FwFault fw_fault = FwFault::none;
	uint32_t fw_boot_err0 = 0;
	uint32_t fw_nic_info_rc = 0;
	/* [firmware] One cpucp opcode the device CPU answers with fw_cpucp_fail_rc (0: none),
	 * to test each bring-up step's failure. */
	uint32_t fw_cpucp_fail_op = 0;
	uint32_t fw_cpucp_fail_rc = 2; /* cpucp_packet_fault */
	/* [phy] The SerDes (gaudi_emu_serdes.cpp, hardware-model guide "PHY"). phy_link: the
	 * link needs the PHY brought up (firmware loaded, port powered up with the board's
	 * polarity and lane map, go bit, TX drivers on, F/W tuned); off for direct users of
	 * the model, on in the PMD's probe. The board: the lanes whose TX / RX pairs the board
	 * inverts (bit (port << 1) + lane) and the TX lane map of each macro (tx_swap_map
	 * nibbles), reported by NIC_INFO_GET. [choice] HL-225's by default (gaudi2_cn_phy.c
	 * NIC_PHY_TX/RX_POL_MASK_HL225, default_cn_mac_lane_remap). phy_fw_crc: the CRC the
	 * MCU reports for any image (0: the CRC of the loaded image). */
	bool phy_link = false;
	uint64_t phy_pol_tx = 0xF00000000430ull;
	uint64_t phy_pol_rx = 0x0FFFFFFFFBCFull;
	std::array<uint16_t, hw::kMacros> phy_tx_swap{0x2013, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x2301};
	uint32_t phy_fw_crc = 0;
	PhyFault phy_fault = PhyFault::none;
	/* [trace] Every register access of the NIC region, one line each, to this file (empty:
	 * off): sequence number, R or W, configuration address, value, register name. */
	std::string trace;
	/* [seq_check] Traffic passes only once the public bring-up sequence's traffic-essential
	 * steps are done (SeqStep); each refusal is counted per step and logged once per port
	 * start. */
	bool seq_check = false;
};

/* [seq_check] The traffic-essential steps of the public bring-up sequence the model checks
 * (gaudi_emu_seq.cpp; hardware-model guide "Bring-up sequence checks"). */
enum class SeqStep {
	rxb_credits,	    /* RXB MAX_STATIC_CREDITS of the port's priority 0 */
	rxb_drop_threshold, /* RXB DROP_THRESHOLD of the port's priority 0 */
	txb_tdm,	    /* TXB TDM_PORT_ARB_MASK */
	txs,		    /* TXS BASE_ADDRESS, free list, producer */
	qpc_req_base,	    /* QPC REQ_BASE_ADDRESS */
	qpc_res_base,	    /* QPC RES_BASE_ADDRESS */
	db_fifo_axuser,	    /* QPC AXUSER_DB_FIFO HB_WR_OVRD_LO (CI write-back) */
	ev_que_axuser,	    /* QPC AXUSER_EV_QUE_LBW_INTR HB_WR_OVRD_LO (EQ writes) */
	cq_axuser,	    /* RXE AXUSER_CQ0 HB_WR_OVRD_LO (raw CQ writes) */
	rxe_aruser,	    /* RXE ARUSER_MMU_BP */
	txe_wqe_user,	    /* TXE WQE_USER_CFG MMU_BYPASS of WQ 0 */
	mac_reset,	    /* MAC_PCS CONTROL1 FLD_RESET written on both lanes */
	mac_fifo,	    /* MAC_128 TX_FIFO_SECTIONS / RX_FIFO_SECTIONS non-zero */
	mac_speed,	    /* the PCS lanes, MAC core and RS-FEC set up for one speed */
	count
};
inline constexpr unsigned kSeqSteps = unsigned(SeqStep::count);
/* The step as the model's log names it, e.g. "RXB MAX_STATIC_CREDITS not programmed
 * (gaudi2_cn_config_hw_rxb)". */
const char *seq_step_text(SeqStep s);
/* Its enumerator's name ("rxb_credits"), for telemetry. */
const char *seq_step_name(SeqStep s);

/* [phy] What a port's SerDes model saw (Device::phy_state). */
struct PhyState {
	bool mcu_running;      /* F/W loaded and started (entry point taken) */
	uint32_t sections;     /* F/W sections taken since the last load started */
	uint32_t bad_sections; /* sections refused for their checksum */
	uint32_t crc;	       /* CRC of the loaded image (or Config::phy_fw_crc) */
	bool go;	       /* 980F go bit */
	bool lane_started[2];  /* fw_start since the last reset */
	bool lane_tuned[2];    /* rv_debug would report the tuned state */
	bool tx_on[2];	       /* 0NF8 PU_VDRV */
	bool link_ok;	       /* the PHY side of the link holds */
	uint64_t commands;     /* mailbox commands answered */
};

/* Counters of the model itself, for tests and the hardware-model document. */
struct PortCounters {
	uint64_t wire_tx_frames;    /* frames put on the wire (or into the tx pcap) */
	uint64_t wire_rx_frames;    /* frames that arrived at the MAC */
	uint64_t rx_pcap_remaining; /* frames of the rx pcap not yet delivered */
	uint64_t qp_errors;	    /* QP_ERR events raised */
	uint32_t last_qp_syndrome;
	uint64_t wire_tx_lost; /* [wires tap/udp] sent frames the TAP/socket did not take */
	uint64_t eq_lost;      /* events the port's EQ could not take (full or unmapped) */
	/* [wire delay] frames the port sent that found its delay line full (dropped), and
	 * frames on the line not yet delivered */
	uint64_t wire_delay_drops;
	uint32_t wire_delay_in_flight;
	uint64_t rx_rate_drops; /* [rx rate limit] frames over the port's rx_rate_limit */
};

class Device {
public:
	/* Builds the model. Returns nullptr and a one-line reason in *err on failure (unreadable
	 * pcap, bad port count). Needs rte_eal_init() done (it walks DPDK memory). */
	static std::unique_ptr<Device> create(const Config &cfg, std::string *err);
	~Device();
	Device(const Device &) = delete;
	Device &operator=(const Device &) = delete;

	hw::Bar &bar();
	/* [firmware] The firmware register window: configuration addresses from
	 * hw::fw::kFwCfgBase, hw::fw::kFwWindowSize long (PSOC_GLOBAL_CONF and CPU_IF), and
	 * the device SRAM region the COMMS protocol copies images into (from
	 * hw::fw::kSramBaseAddr). Both serve the model's device CPU (gaudi_emu_fw.cpp). */
	hw::Bar &fw_bar();
	hw::Bar &fw_sram_bar();
	FwCounters fw_counters() const;
	/* [phy] The SerDes state of a port, and a valid PHY image (the built-in stand-in the
	 * vdev gives without fw_dir: gaudi2_cn_fw.bin's layout, [model] content). */
	PhyState phy_state(unsigned port) const;
	static std::vector<uint8_t> phy_fw_image();
	FwNicPort fw_nic_port(unsigned port) const;
	unsigned nports() const;
	/* The station address the firmware reports for a port: Config::fw_mac + port. */
	void fw_mac_addr(unsigned port, uint8_t out[6]) const;
	/* Port n's address from port 0's: + n in the last three bytes. */
	static void mac_of(const uint8_t base[6], unsigned port, uint8_t out[6]);
	PortCounters counters(unsigned port) const;
	/* Flush tx pcap files (also done at destruction). */
	void flush();
	/* Test hook: hold the engine (doorbell processing and pcap input) as if the device were
	 * busy, e.g. to fill the doorbell FIFO. Releasing it lets pending work run (inline: in the
	 * caller's thread, right away). Returns once the engine is actually held/released. */
	void hold_engine(bool hold);
	/* Where QPC interrupt `index` of `port` goes: an eventfd the model adds 1 to when the
	 * interrupt fires (-1 = nowhere). Stands in for INTERRUPT_BASE_n/DATA_n -> MSI-X vector ->
	 * vfio eventfd on silicon. */
	void bind_irq(unsigned port, unsigned index, int fd);
	/* The sync manager's objects (configuration addresses from hw::sm::kWindowBase,
	 * hw::sm::kWindowSize long), through which the EQ interrupt (QPC source 9) reaches
	 * MSI-X: INTERRUPT_BASE_9/DATA_9 -> SOB -> monitor -> virtual MSI-X doorbell (the
	 * address ENABLE_PCI_ACCESS gave) -> vector (gaudi_emu_sm.cpp). */
	hw::Bar &sm_bar();
	/* Where MSI-X vector `vector` goes: an eventfd the model adds 1 to (-1 = nowhere), as
	 * vfio-pci binds a vector to an eventfd. */
	void bind_msix(unsigned vector, int fd);
	/* Doorbell writes the sync manager turned into MSI-X, and monitor writes to addresses
	 * the model does not decode. */
	uint64_t msix_raised() const;
	uint64_t sm_lost() const;
	/* The plugged module's EEPROM: SFF-8636 lower page 0 + upper page 00h (256 bytes).
	 * On silicon firmware (cpucp) reads it over the module's I2C. */
	static constexpr unsigned kModuleEepromLen = 256;
	static void module_eeprom(unsigned port, uint8_t out[kModuleEepromLen]);
	/* [faults] Arm a fault (gaudi_emu_fault.h): at once (after_frames 0) or once the port
	 * has sent after_frames more frames. False with a reason on a bad port/arg. */
	bool inject_fault(const FaultSpec &f, std::string *err);
	/* [faults] Faults of each kind that fired on a port. */
	uint64_t faults_injected(unsigned port, FaultKind k) const;
	/* Version of the model (major.minor.patch), reported as the firmware version. */
	static constexpr uint32_t kFwVersion = (0u << 16) | (2u << 8) | 0u;
	/* [seq_check] Frames (TX, RX) or writes (EQ, DB FIFO CI) the model refused on a port
	 * because step s was missing, and the steps missing now (bit per SeqStep). */
	bool seq_check() const; /* Config::seq_check */
	uint64_t seq_refused(unsigned port, SeqStep s) const;
	uint32_t seq_missing(unsigned port) const;
	/* [seq_check] len bytes of the NIC's device memory at addr (where the QP contexts land:
	 * REQ/RES_BASE_ADDRESS + QPN x size); memory never written reads 0. False without
	 * seq_check (no device memory is kept then). */
	bool read_device_memory(uint64_t addr, void *out, size_t len) const;
	/* Driver accesses outside the published map or to read-only registers (strict off). */
	uint64_t map_violations() const;
	/* Driver accesses to published registers the model does not model (stored, read back). */
	uint64_t unmodeled_accesses() const;
	/* Register words the model knows that the published headers do not define (0 in a model
	 * true to the map). */
	uint64_t model_only_registers() const;
	/* Writes of a value the public driver never writes to a register traffic depends on
	 * (each register also logged once). */
	uint64_t unpublished_values() const;
	/* [profile] TSC cycles spent in the register window's accesses (Config::profile; 0
	 * without it) and their number. */
	struct Profile {
		bool on = false; /* Config::profile */
		uint64_t tsc_cycles = 0;
		uint64_t accesses = 0;
	};
	Profile profile() const;

	struct Impl;

private:
	explicit Device(std::unique_ptr<Impl> impl);
	std::unique_ptr<Impl> impl_;
};

/* [multi-process] Read-only access to a model's registers and MAC counters from another
 * process of the same DPDK application (a secondary, e.g. dpdk-proc-info or dpdk-dumpcap).
 * The primary's model keeps both in the memzone Config::shm_name; a view's Bar reads it the
 * way the driver's register reads do (a MAC counter read latches its high word for the
 * following DATA_HI read, per thread, so it never disturbs the primary) and drops writes.
 * No engine stands behind a view: doorbells, the QPC gateway and every other side effect
 * happen only in the primary, where the model runs. */
class SharedView {
public:
	/* Attaches to the model published under shm_name. Returns nullptr and a one-line reason
	 * in *err if there is none (the primary did not create it or is not a model). */
	static std::unique_ptr<SharedView> attach(const std::string &shm_name, std::string *err);
	~SharedView();
	SharedView(const SharedView &) = delete;
	SharedView &operator=(const SharedView &) = delete;

	hw::Bar &bar();
	/* [firmware] The firmware register window: configuration addresses from
	 * hw::fw::kFwCfgBase, hw::fw::kFwWindowSize long (PSOC_GLOBAL_CONF and CPU_IF), and
	 * the device SRAM region the COMMS protocol copies images into (from
	 * hw::fw::kSramBaseAddr). Both serve the model's device CPU (gaudi_emu_fw.cpp). */
	hw::Bar &fw_bar();
	hw::Bar &fw_sram_bar();
	FwCounters fw_counters() const;
	unsigned nports() const;

	struct Impl;

private:
	explicit SharedView(std::unique_ptr<Impl> impl);
	std::unique_ptr<Impl> impl_;
};

} /* namespace gaudi::emu */
