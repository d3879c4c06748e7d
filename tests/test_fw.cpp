/* SPDX-License-Identifier: BSD-3-Clause
 * The firmware layer (base/gaudi_fw) driven against the model's device CPU
 * (emu/gaudi_emu_fw.cpp): preboot, COMMS load of both images, CPU-queue handshake, cpucp
 * packets, NIC_INFO_GET from the model's configuration, every injected bring-up failure with
 * its own error, and the NIC gate (fw_gate) that refuses NIC programming before the firmware.
 */
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_memzone.h>

#include "gaudi_emu.h"
#include "gaudi_fw.h"
#include "gaudi_nic_mem.h"
#include "gaudi_port.h"
#include "gaudi_regs.h"
#include "gaudi_sm.h"
#include "gaudi_test_eal_env.h"

using namespace gaudi;
using emu::Config;
using emu::Device;
using emu::FwFault;
namespace fw = hw::fw;
using fw::FwErr;

namespace {

/* EAL once per process; the model needs no telemetry. */
const auto *eal_env = gaudi_test::register_eal_env(
	new gaudi_test::EalEnvBase("test_fw", "128", {"--no-telemetry"}));

/* DMA memory for the CPU queues: an IOVA-contiguous memzone, freed with the test. */
class Dma {
public:
	explicit Dma(size_t len)
	{
		static unsigned seq;
		char name[32];
		std::snprintf(name, sizeof(name), "test_fw_%u", seq++);
		mz_ = rte_memzone_reserve_aligned(name, len, SOCKET_ID_ANY, RTE_MEMZONE_IOVA_CONTIG,
						  4096);
		if (mz_ != nullptr) {
			std::memset(mz_->addr, 0, len);
			mem_ = {mz_->addr, mz_->iova, len};
		}
	}
	~Dma() { rte_memzone_free(mz_); }
	Dma(const Dma &) = delete;
	Dma &operator=(const Dma &) = delete;
	const fw::DmaMem &mem() const { return mem_; }

private:
	const rte_memzone *mz_ = nullptr;
	fw::DmaMem mem_{};
};

/* Timeouts shrunk so that the failure tests end quickly; the model answers at once. */
fw::FwTimeouts short_timeouts()
{
	fw::FwTimeouts t;
	t.preboot_us = t.comms_us = t.boot_fit_us = t.bl_us = t.cpu_us = 30000;
	t.msg_us = t.info_us = 20000;
	t.poll_us = 100;
	return t;
}

/* Stand-ins for the firmware files: any bytes (the model accepts any image); sizes not a
 * multiple of 4 exercise the last-word copy. */
const std::vector<uint8_t> &boot_fit_bytes()
{
	static const std::vector<uint8_t> v = [] {
		std::vector<uint8_t> b(4099);
		for (size_t i = 0; i < b.size(); i++)
			b[i] = uint8_t(i * 7);
		return b;
	}();
	return v;
}
const std::vector<uint8_t> &fit_bytes()
{
	static const std::vector<uint8_t> v(10001, 0x5A);
	return v;
}

struct Rig {
	std::unique_ptr<Device> dev;
	std::unique_ptr<fw::FwHost> host;
	Dma pq{fw::kPqBytes}, eq{fw::kEqBytes}, cq{64 * 1024};

	explicit Rig(Config c)
	{
		std::string err;
		dev = Device::create(c, &err);
		EXPECT_NE(dev, nullptr) << err;
		if (dev)
			host = std::make_unique<fw::FwHost>(dev->fw_bar(), dev->fw_sram_bar(),
							    short_timeouts());
	}
	FwErr boot()
	{
		FwErr e = host->read_preboot();
		if (e != FwErr::ok)
			return e;
		return host->load_firmware({fw::kBootFitFile, boot_fit_bytes()},
					   {fw::kFitFile, fit_bytes()});
	}
	FwErr queues() { return host->init_cpu_queues(pq.mem(), eq.mem(), cq.mem()); }
	FwErr bring_up()
	{
		FwErr e = boot();
		return e != FwErr::ok ? e : queues();
	}
};

Config cfg(unsigned nports = 2)
{
	Config c;
	c.nports = nports;
	c.wire = emu::Wire::loopback;
	return c;
}

bool contains(const std::string &s, const std::string &part)
{
	return s.find(part) != std::string::npos;
}

TEST(Fw, FullHandshake)
{
	Rig r(cfg());
	ASSERT_TRUE(r.dev);
	EXPECT_EQ(r.dev->fw_counters().boot_status, uint32_t(fw::BootStatus::WAITING_FOR_BOOT_FIT));
	ASSERT_EQ(r.host->read_preboot(), FwErr::ok) << r.host->error();
	EXPECT_TRUE(r.host->dev_sts0() & fw::dev_sts0::FW_LD_COM_EN);
	ASSERT_EQ(r.host->load_firmware({fw::kBootFitFile, boot_fit_bytes()},
					{fw::kFitFile, fit_bytes()}),
		  FwErr::ok)
		<< r.host->error();
	EXPECT_EQ(r.host->boot_status(), uint32_t(fw::BootStatus::SRAM_AVAIL));
	ASSERT_EQ(r.queues(), FwErr::ok) << r.host->error();
	auto c = r.dev->fw_counters();
	EXPECT_TRUE(c.queues_ready);
	EXPECT_EQ(c.boot_fit_bytes, boot_fit_bytes().size());
	EXPECT_EQ(c.fit_bytes, fit_bytes().size());
	EXPECT_EQ(c.comms_errors, 0u);

	uint64_t echo = 0;
	ASSERT_EQ(r.host->test(0x1122334455667788ull, &echo), FwErr::ok) << r.host->error();
	EXPECT_EQ(echo, 0x1122334455667788ull);
	ASSERT_EQ(r.host->enable_pci_access(0xFEE00000ull), FwErr::ok) << r.host->error();
	c = r.dev->fw_counters();
	EXPECT_TRUE(c.pci_access);
	EXPECT_EQ(c.msix_db_addr, 0xFEE00000ull);
	/* Many packets: the PQ index wraps (4096 entries, PI modulo 8192) without loss. */
	for (unsigned i = 0; i < 5000; i++)
		ASSERT_EQ(r.host->test(i, &echo), FwErr::ok) << i << ": " << r.host->error();
	EXPECT_EQ(r.dev->fw_counters().packets, 5002u);
	ASSERT_EQ(r.host->disable_pci_access(), FwErr::ok);
	EXPECT_FALSE(r.dev->fw_counters().pci_access);
	EXPECT_EQ(r.dev->map_violations(), 0u);
}

/* The EQ interrupt's route to MSI-X (base/gaudi_sm.h), as on silicon: with the QPC's
 * INTERRUPT_BASE_9/DATA_9 unprogrammed an EQ event raises nothing; with the route but no
 * monitor it only counts in the SOB; with the monitors armed it raises MSI-X vector 22 + port
 * through the doorbell ENABLE_PCI_ACCESS named, once per event, and the monitors re-arm. */
TEST(Fw, EqInterruptTakesThePublishedRouteToMsix)
{
	namespace sm = hw::sm;
	Rig r(cfg(2));
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	Dma db(4096);
	ASSERT_EQ(r.host->enable_pci_access(db.mem().iova), FwErr::ok) << r.host->error();
	const size_t eq_len = sizeof(hw::Eqe) << hw::kEqLog2;
	Dma eq(eq_len + 128);
	ASSERT_NE(eq.mem().va, nullptr);
	int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	ASSERT_GE(efd, 0);
	r.dev->bind_msix(hw::kMsixNicPortFirst + 1, efd);
	/* Port 1: link events of the macro land on the odd port's EQ. */
	hw::Port p1(&r.dev->bar(), 1);
	p1.eq_init({eq.mem().iova, hw::kEqLog2, eq.mem().iova + eq_len});
	p1.intr_clear(hw::reg::INTR_EQ);
	p1.intr_enable(hw::reg::INTR_EQ, true);
	auto events = [&] {
		return *reinterpret_cast<volatile uint32_t *>(static_cast<uint8_t *>(eq.mem().va) +
							      eq_len);
	};
	auto msix = [&] {
		uint64_t n = 0;
		return read(efd, &n, sizeof(n)) == sizeof(n) ? n : 0;
	};
	auto sob = [&] {
		return sm::SOB_OBJ_VAL.get(
			r.dev->sm_bar().rd32(sm::sob_addr(sm::nic_eq_sob(1)) - sm::kWindowBase));
	};
	auto flip = [&](bool up) {
		p1.intr_clear(hw::reg::INTR_EQ); /* as the handler re-arms */
		p1.mac_config(up);
	};

	flip(true); /* no route: the MSI goes nowhere */
	EXPECT_EQ(events(), 1u);
	EXPECT_EQ(msix(), 0u);
	EXPECT_EQ(r.dev->msix_raised(), 0u);

	p1.eq_irq_route(); /* route, no monitor: the SOB counts */
	EXPECT_EQ(r.dev->bar().rd32(hw::reg::qpc(1) + hw::reg::QPC_INTERRUPT_BASE_9),
		  sm::SOB_OBJ_0 + 4 * 86);
	EXPECT_EQ(r.dev->bar().rd32(hw::reg::qpc(1) + hw::reg::QPC_INTERRUPT_DATA_9), 0x80000001u);
	flip(false);
	EXPECT_EQ(events(), 2u);
	EXPECT_EQ(sob(), 1u);
	EXPECT_EQ(msix(), 0u);

	sm::arm_nic_eq_msix(r.dev->sm_bar(), 2, db.mem().iova); /* resets the SOB too */
	EXPECT_EQ(sob(), 0u);
	flip(true);
	EXPECT_EQ(events(), 3u);
	EXPECT_EQ(msix(), 1u);
	EXPECT_EQ(sob(), 0u) << "the second monitor takes the SOB back to 0";
	flip(false); /* the third monitor re-armed the first */
	EXPECT_EQ(events(), 4u);
	EXPECT_EQ(msix(), 1u);
	EXPECT_EQ(r.dev->msix_raised(), 2u);
	/* Port 0's vector stays quiet: its EQ is off, its SOB untouched. */
	EXPECT_EQ(sm::SOB_OBJ_VAL.get(
			  r.dev->sm_bar().rd32(sm::sob_addr(sm::nic_eq_sob(0)) - sm::kWindowBase)),
		  0u);
	close(efd);
	r.dev->bind_msix(hw::kMsixNicPortFirst + 1, -1);
	EXPECT_EQ(r.dev->map_violations(), 0u);
}

TEST(Fw, NicInfoFromConfig)
{
	Config c = cfg(3);
	c.fw_port_mask = 0x5;
	c.fw_mac = {0x00, 0x1d, 0xa3, 0x10, 0x20, 0x30};
	c.fw_auto_neg_mask = 0x4;
	Rig r(c);
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	auto info = std::make_unique<fw::CpucpNicInfo>();
	ASSERT_EQ(r.host->nic_info_get(info.get()), FwErr::ok) << r.host->error();
	EXPECT_EQ(info->link_mask[0], 0x5u);
	EXPECT_EQ(info->link_mask[1], 0u);
	EXPECT_EQ(info->link_ext_mask[0], 0x5u);
	EXPECT_EQ(info->auto_neg_mask[0], 0x4u);
	EXPECT_EQ(info->serdes_type, uint16_t(fw::SerdesType::HLS2));
	const uint8_t p0[6] = {0x00, 0x1D, 0xA3, 0x10, 0x20, 0x30};
	const uint8_t p2[6] = {0x00, 0x1D, 0xA3, 0x10, 0x20, 0x32};
	EXPECT_EQ(std::memcmp(info->mac_addrs[0], p0, 6), 0);
	EXPECT_EQ(std::memcmp(info->mac_addrs[2], p2, 6), 0);
	uint8_t m[6];
	r.dev->fw_mac_addr(2, m);
	EXPECT_EQ(std::memcmp(m, p2, 6), 0) << "Device::fw_mac_addr agrees with NIC_INFO_GET";
	uint8_t eeprom[Device::kModuleEepromLen];
	Device::module_eeprom(0, eeprom);
	EXPECT_EQ(std::memcmp(info->qsfp_eeprom, eeprom, sizeof(eeprom)), 0);
	EXPECT_EQ(info->qsfp_eeprom[0], 0x11); /* QSFP28 identifier */
	/* [phy] The board: HL-225's lane polarity and TX lane map by default
	 * (gaudi2_cn_phy.c NIC_PHY_TX/RX_POL_MASK_HL225, default_cn_mac_lane_remap). */
	EXPECT_EQ(info->pol_tx_mask[0], 0xF00000000430ull);
	EXPECT_EQ(info->pol_rx_mask[0], 0x0FFFFFFFFBCFull);
	for (unsigned i = 1; i < fw::kNicPolarityArrLen; i++)
		EXPECT_EQ(info->pol_tx_mask[i] | info->pol_rx_mask[i], 0u);
	EXPECT_EQ(info->tx_swap_map[0], 0x2013);
	EXPECT_EQ(info->tx_swap_map[1], 0);
	EXPECT_EQ(info->tx_swap_map[11], 0x2301);
}

TEST(Fw, NicInfoDefaults)
{
	Rig r(cfg(4));
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	auto info = std::make_unique<fw::CpucpNicInfo>();
	ASSERT_EQ(r.host->nic_info_get(info.get()), FwErr::ok) << r.host->error();
	EXPECT_EQ(info->link_mask[0], 0xFu); /* all nports */
	const uint8_t p1[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 0x01};
	EXPECT_EQ(std::memcmp(info->mac_addrs[1], p1, 6), 0);
}

TEST(Fw, MacCarryStaysInNicPart)
{
	const uint8_t base[6] = {0x00, 0x1d, 0xa3, 0x00, 0xFF, 0xFF};
	uint8_t out[6];
	Device::mac_of(base, 1, out);
	const uint8_t want[6] = {0x00, 0x1d, 0xa3, 0x01, 0x00, 0x00};
	EXPECT_EQ(std::memcmp(out, want, 6), 0);
}

TEST(Fw, BadConfigRefused)
{
	Config c = cfg(2);
	c.fw_port_mask = 0x4; /* port 2 of a 2-port model */
	std::string err;
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_TRUE(contains(err, "fw_port_mask 0x4")) << err;
}

TEST(Fw, BootStuck)
{
	Config c = cfg();
	c.fw_fault = FwFault::boot_stuck;
	Rig r(c);
	ASSERT_TRUE(r.dev);
	EXPECT_EQ(r.host->read_preboot(), FwErr::boot_state);
	EXPECT_TRUE(
		contains(r.host->error(), "device not in the expected boot state (boot status 5"))
		<< r.host->error();
}

TEST(Fw, DirtyDevice)
{
	Config c = cfg();
	c.fw_fault = FwFault::dirty;
	Rig r(c);
	ASSERT_TRUE(r.dev);
	EXPECT_EQ(r.host->read_preboot(), FwErr::dirty);
	EXPECT_TRUE(contains(r.host->error(), "device is dirty (HW_STATE 1)")) << r.host->error();
}

TEST(Fw, BootErrorBits)
{
	Config c = cfg();
	c.fw_boot_err0 = fw::err0::NIC_FW_FAIL;
	Rig r(c);
	ASSERT_TRUE(r.dev);
	EXPECT_EQ(r.host->read_preboot(), FwErr::boot_error);
	EXPECT_TRUE(contains(r.host->error(), "CPU_BOOT_ERR0 0x80000040: NIC_FW_FAIL)"))
		<< r.host->error();
	/* Only the fatal bits are named in the refusal (the probe warns of the others). */
	Config two = cfg();
	two.fw_boot_err0 = fw::err0::DRAM_INIT_FAIL | fw::err0::NIC_DATA_NOT_RDY |
			   fw::err0::ENG_ARC_MEM_SCRUB_FAIL;
	Rig r3(two);
	ASSERT_TRUE(r3.dev);
	EXPECT_EQ(r3.host->read_preboot(), FwErr::boot_error);
	EXPECT_EQ(r3.host->error(), "device reports boot errors at preboot (CPU_BOOT_ERR0 "
				    "0x80800021: DRAM_INIT_FAIL, ENG_ARC_MEM_SCRUB_FAIL)");
	EXPECT_STREQ(fw::err0_bit_name(5), "NIC_DATA_NOT_RDY");
	EXPECT_EQ(fw::err0_bit_name(15), nullptr);
	EXPECT_EQ(fw::err0_names(0x8020), "NIC_DATA_NOT_RDY, bit 15");

	/* A non-fatal bit (the BMC has not sent the NIC data yet) does not stop bring-up. */
	Config ok = cfg();
	ok.fw_boot_err0 = fw::err0::NIC_DATA_NOT_RDY;
	Rig r2(ok);
	ASSERT_TRUE(r2.dev);
	EXPECT_EQ(r2.bring_up(), FwErr::ok) << r2.host->error();
	EXPECT_EQ(r2.host->boot_err0(), fw::err0::ENABLED | fw::err0::NIC_DATA_NOT_RDY);
}

TEST(Fw, ImageRejected)
{
	Config c = cfg();
	c.fw_fault = FwFault::image_rejected;
	Rig r(c);
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.host->read_preboot(), FwErr::ok);
	EXPECT_EQ(r.host->load_firmware({fw::kBootFitFile, boot_fit_bytes()},
					{fw::kFitFile, fit_bytes()}),
		  FwErr::image_rejected);
	EXPECT_TRUE(contains(r.host->error(), std::string("firmware file ") + fw::kBootFitFile +
						      " rejected by the device"))
		<< r.host->error();
	EXPECT_EQ(r.dev->fw_counters().boot_fit_bytes, 0u);
}

TEST(Fw, ImageTooLarge)
{
	Rig r(cfg());
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.host->read_preboot(), FwErr::ok);
	std::vector<uint8_t> huge(fw::kCommsMaxSize + 1ull);
	EXPECT_EQ(r.host->load_firmware({fw::kBootFitFile, huge}, {fw::kFitFile, fit_bytes()}),
		  FwErr::image_too_large);
	EXPECT_TRUE(contains(r.host->error(), "over the COMMS size limit")) << r.host->error();
	/* Nothing reached the device, and an empty file is refused too. */
	EXPECT_EQ(r.dev->fw_counters().boot_fit_bytes, 0u);
	std::vector<uint8_t> none;
	EXPECT_EQ(r.host->load_firmware({fw::kBootFitFile, none}, {fw::kFitFile, fit_bytes()}),
		  FwErr::bad_arg);
	EXPECT_TRUE(contains(r.host->error(), "gaudi2-boot-fit.itb is empty")) << r.host->error();
}

TEST(Fw, CpucpSilentTimesOut)
{
	Config c = cfg();
	c.fw_fault = FwFault::cpucp_silent;
	Rig r(c);
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	auto info = std::make_unique<fw::CpucpNicInfo>();
	EXPECT_EQ(r.host->nic_info_get(info.get()), FwErr::cpucp_timeout);
	EXPECT_EQ(r.host->error(), "cpucp NIC_INFO_GET timed out after 20 ms");
	/* The public driver then treats the device CPU as gone. */
	uint64_t echo;
	EXPECT_EQ(r.host->test(1, &echo), FwErr::cpu_disabled);
	EXPECT_TRUE(contains(r.host->error(), "cpucp TEST: device CPU disabled"))
		<< r.host->error();
	EXPECT_EQ(r.dev->fw_counters().packets, 1u);
}

TEST(Fw, NicInfoReturnCode)
{
	Config c = cfg();
	c.fw_nic_info_rc = uint32_t(fw::CpucpRc::fault);
	Rig r(c);
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	auto info = std::make_unique<fw::CpucpNicInfo>();
	EXPECT_EQ(r.host->nic_info_get(info.get()), FwErr::cpucp_rc);
	EXPECT_EQ(r.host->last_rc(), 2u);
	EXPECT_EQ(r.host->error(), "cpucp NIC_INFO_GET failed: return code 2 (fault)");
	/* The queue still works. */
	uint64_t echo = 0;
	EXPECT_EQ(r.host->test(7, &echo), FwErr::ok);
}

TEST(Fw, UnknownOpcodeIsInvalidPacket)
{
	Rig r(cfg());
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	EXPECT_EQ(r.host->simple(fw::CpucpOp(99), 0, 0, nullptr), FwErr::cpucp_rc);
	EXPECT_EQ(r.host->last_rc(), uint32_t(fw::CpucpRc::invalid_pkt));
	EXPECT_TRUE(contains(r.host->error(), "cpucp opcode 99 failed: return code 3"))
		<< r.host->error();
	/* INFO_GET (the accelerator's cpucp_info) is not modelled either. */
	EXPECT_EQ(r.host->simple(fw::CpucpOp::INFO_GET, 0, 0, nullptr), FwErr::cpucp_rc);
	EXPECT_EQ(r.host->last_rc(), uint32_t(fw::CpucpRc::invalid_pkt));
	EXPECT_EQ(r.dev->fw_counters().invalid, 2u);
}

TEST(Fw, NicRequests)
{
	Rig r(cfg(3));
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	ASSERT_EQ(r.host->nic_lpbk_set(2, true, 0x3), FwErr::ok) << r.host->error();
	ASSERT_EQ(r.host->nic_pfc_set(1, true, 0xF), FwErr::ok) << r.host->error();
	auto c = r.dev->fw_counters();
	EXPECT_EQ(c.lpbk_mask, 0x4u);
	EXPECT_EQ(c.pfc_mask, 0x2u);
	ASSERT_EQ(r.host->nic_lpbk_set(2, false, 0x3), FwErr::ok);
	EXPECT_EQ(r.dev->fw_counters().lpbk_mask, 0u);
	/* A port the firmware does not have: invalid params. */
	EXPECT_EQ(r.host->nic_lpbk_set(5, true, 0x3), FwErr::cpucp_rc);
	EXPECT_EQ(r.host->last_rc(), uint32_t(fw::CpucpRc::invalid_params));
	fw::CpucpNicStatus st{};
	st.port = 1;
	st.up = 1;
	EXPECT_EQ(r.host->nic_status(st), FwErr::ok) << r.host->error();
	EXPECT_EQ(r.host->nic_set_checkers(0, 0x80, true, false), FwErr::ok);
	for (auto op : {fw::CpucpOp::NIC_WQE_ASID_SET, fw::CpucpOp::NIC_WQE_ASID_UNSET,
			fw::CpucpOp::NIC_MAC_CFG})
		EXPECT_EQ(r.host->simple(op, 0, 0, nullptr), FwErr::ok) << unsigned(op);
	/* The NIC memory packets are longer than a header: a bare header is refused. */
	for (auto op : {fw::CpucpOp::NIC_CLR_MEM, fw::CpucpOp::NIC_INIT_TXS_MEM,
			fw::CpucpOp::NIC_INIT_TMR_MEM}) {
		EXPECT_EQ(r.host->simple(op, 0, 0, nullptr), FwErr::cpucp_rc) << unsigned(op);
		EXPECT_EQ(r.host->last_rc(), uint32_t(fw::CpucpRc::invalid_params));
	}
}

/* The NIC memory steps of bring-up, as the model's device CPU keeps them: NIC_CLR_MEM, then
 * NIC_ECC_INTRS_UNMASK, then the TMR (per macro) and TXS (per port) free lists, in the public
 * order (gaudi2_late_init, then hbl_cn core and port init); out of that order the device CPU
 * answers cpucp_packet_invalid. */
TEST(Fw, NicMemoryStepsInThePublicOrder)
{
	namespace nm = hw::nicmem;
	Rig r(cfg(4));
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	EXPECT_TRUE(r.host->dev_sts0() & fw::dev_sts0::NIC_MEM_CLEAR_EN);
	auto txs = [&](unsigned p) {
		return r.host->nic_init_hw_mem(
			fw::CpucpOp::NIC_INIT_TXS_MEM, p, nm::txs_addr(p) + nm::kTxsFreeOff,
			uint16_t(nm::kTxsFreeEntries), 4, uint16_t(nm::kTxsGranularity));
	};
	auto tmr = [&](unsigned m) {
		return r.host->nic_init_hw_mem(
			fw::CpucpOp::NIC_INIT_TMR_MEM, m, nm::tmr_addr(m) + nm::kTmrFreeOff,
			uint16_t(nm::kTmrFreeEntries), 4, uint16_t(nm::kTmrGranularity));
	};
	/* Before the memory is cleared: refused. */
	EXPECT_EQ(r.host->nic_ecc_intrs_unmask(), FwErr::cpucp_rc);
	EXPECT_EQ(r.host->last_rc(), uint32_t(fw::CpucpRc::invalid));
	EXPECT_EQ(txs(0), FwErr::cpucp_rc);
	EXPECT_EQ(r.dev->fw_counters().order_refused, 2u);
	/* Clear the region in two packets, as the driver does (250 MB at most each). */
	ASSERT_EQ(r.host->nic_clr_mem(nm::kNicDrvAddr, uint32_t(nm::kClrMemChunk)), FwErr::ok)
		<< r.host->error();
	ASSERT_EQ(r.host->nic_clr_mem(nm::kNicDrvAddr + nm::kClrMemChunk,
				      uint32_t(nm::kNicDrvSize - nm::kClrMemChunk)),
		  FwErr::ok);
	/* Cleared but ECC still masked: the free lists wait. */
	EXPECT_EQ(tmr(0), FwErr::cpucp_rc);
	ASSERT_EQ(r.host->nic_ecc_intrs_unmask(), FwErr::ok) << r.host->error();
	ASSERT_EQ(tmr(1), FwErr::ok) << r.host->error();
	ASSERT_EQ(txs(3), FwErr::ok) << r.host->error();
	/* Outside the cleared region, a port or macro the device lacks, a bad entry size. */
	EXPECT_EQ(r.host->nic_init_hw_mem(fw::CpucpOp::NIC_INIT_TXS_MEM, 0,
					  nm::kNicDrvAddr + nm::kNicDrvSize, 768, 4, 256),
		  FwErr::cpucp_rc);
	EXPECT_EQ(txs(4), FwErr::cpucp_rc);
	EXPECT_EQ(r.host->last_rc(), uint32_t(fw::CpucpRc::invalid_params));
	EXPECT_EQ(tmr(2), FwErr::cpucp_rc);
	EXPECT_EQ(r.host->nic_init_hw_mem(fw::CpucpOp::NIC_INIT_TXS_MEM, 1, nm::txs_addr(1), 768, 8,
					  256),
		  FwErr::cpucp_rc);
	auto c = r.dev->fw_counters();
	EXPECT_EQ(c.clr_mem_packets, 2u);
	EXPECT_EQ(c.clr_mem_bytes, nm::kNicDrvSize);
	EXPECT_EQ(c.clr_mem_lo, nm::kNicDrvAddr);
	EXPECT_EQ(c.clr_mem_hi, nm::kNicDrvAddr + nm::kNicDrvSize);
	EXPECT_TRUE(c.ecc_unmasked);
	EXPECT_EQ(c.tmr_init_mask, 0x2u);
	EXPECT_EQ(c.txs_init_mask, 0x8u);
	EXPECT_EQ(c.order_refused, 4u); /* with the list outside the cleared region */
	emu::FwNicPort p3 = r.dev->fw_nic_port(3);
	EXPECT_TRUE(p3.txs.done);
	EXPECT_EQ(p3.txs.addr, nm::txs_addr(3));
	EXPECT_EQ(p3.txs.entries, 768u);
	EXPECT_EQ(p3.txs.entry_size, 4u);
	EXPECT_EQ(p3.txs.granularity, 256u);
	EXPECT_TRUE(p3.tmr.done) << "port 3 is in macro 1";
	EXPECT_EQ(p3.tmr.addr, nm::tmr_addr(1) + nm::kTmrFreeOff);
	EXPECT_FALSE(r.dev->fw_nic_port(0).tmr.done);
	/* Clearing the memory again wipes what the lists held. */
	ASSERT_EQ(r.host->nic_clr_mem(nm::kTxsBase, uint32_t(nm::kTxsPortSize * 4)), FwErr::ok);
	c = r.dev->fw_counters();
	EXPECT_EQ(c.txs_init_mask, 0u);
	EXPECT_EQ(c.tmr_init_mask, 0x2u);
}

/* The TXS and TMR free lists are latched (PRODUCER_UPDATE_EN) only after the firmware wrote
 * them, and only the list it wrote; the raw QP becomes valid only once both are latched. */
TEST(Fw, SchedulerSetUpBeforeTheRawQp)
{
	namespace nm = hw::nicmem;
	Config c = cfg(2);
	c.fw_gate = true;
	c.strict = false; /* count instead of stopping the process */
	Rig r(c);
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	hw::Port p0(&r.dev->bar(), 0);
	auto valid_req = [&] {
		hw::qpc::ReqImage img;
		img.set(hw::qpc::REQ_VALID, 1);
		return p0.qpc_write_req(img, false);
	};
	const uint32_t txs_pu = hw::reg::txs(0) + hw::reg::TXS_PRODUCER_UPDATE;
	const uint32_t tmr_pu = hw::reg::tmr(0) + hw::reg::TMR_TMR_PRODUCER_UPDATE;
	/* Nothing initialised: the latches and the raw QP are refused. */
	nm::tmr_config(r.dev->bar(), 0, nm::tmr_addr(0), nm::kNicClkMhz);
	nm::txs_config(r.dev->bar(), 0, nm::txs_addr(0));
	EXPECT_EQ(r.dev->fw_counters().order_refused, 2u);
	EXPECT_TRUE(valid_req());
	EXPECT_EQ(r.dev->fw_counters().order_refused, 3u);
	hw::qpc::ReqImage back;
	ASSERT_TRUE(p0.qpc_read_req(&back));
	EXPECT_EQ(back.get(hw::qpc::REQ_VALID), 0u) << "the refused context took effect";
	/* The firmware's part, then the registers: accepted. */
	ASSERT_EQ(r.host->nic_clr_mem(nm::kNicDrvAddr, uint32_t(nm::kClrMemChunk)), FwErr::ok);
	ASSERT_EQ(r.host->nic_ecc_intrs_unmask(), FwErr::ok);
	ASSERT_EQ(r.host->nic_init_hw_mem(fw::CpucpOp::NIC_INIT_TMR_MEM, 0,
					  nm::tmr_addr(0) + nm::kTmrFreeOff,
					  uint16_t(nm::kTmrFreeEntries), 4, 256),
		  FwErr::ok);
	nm::tmr_config(r.dev->bar(), 0, nm::tmr_addr(0), nm::kNicClkMhz);
	EXPECT_EQ(r.dev->fw_counters().order_refused, 3u);
	EXPECT_EQ(r.dev->bar().rd32(tmr_pu), nm::kTmrFreeEntries);
	/* TXS initialised at another address than the registers name: refused. */
	ASSERT_EQ(r.host->nic_init_hw_mem(fw::CpucpOp::NIC_INIT_TXS_MEM, 0,
					  nm::txs_addr(1) + nm::kTxsFreeOff,
					  uint16_t(nm::kTxsFreeEntries), 4, 256),
		  FwErr::ok);
	nm::txs_config(r.dev->bar(), 0, nm::txs_addr(0));
	EXPECT_EQ(r.dev->fw_counters().order_refused, 4u);
	EXPECT_TRUE(valid_req());
	EXPECT_EQ(r.dev->fw_counters().order_refused, 5u) << "TXS not latched yet";
	ASSERT_EQ(r.host->nic_init_hw_mem(fw::CpucpOp::NIC_INIT_TXS_MEM, 0,
					  nm::txs_addr(0) + nm::kTxsFreeOff,
					  uint16_t(nm::kTxsFreeEntries), 4, 256),
		  FwErr::ok);
	nm::txs_config(r.dev->bar(), 0, nm::txs_addr(0));
	EXPECT_EQ(r.dev->fw_counters().order_refused, 5u);
	EXPECT_EQ(r.dev->bar().rd32(txs_pu), nm::kTxsFreeEntries);
	EXPECT_EQ(r.dev->bar().rd32(hw::reg::txs(0) + hw::reg::TXS_BASE_ADDRESS_FREE_LIST_31_0),
		  uint32_t(nm::txs_addr(0)));
	EXPECT_TRUE(valid_req());
	ASSERT_TRUE(p0.qpc_read_req(&back));
	EXPECT_EQ(back.get(hw::qpc::REQ_VALID), 1u);
	EXPECT_EQ(r.dev->fw_counters().order_refused, 5u);
	EXPECT_EQ(r.dev->map_violations(), 5u) << "each refused latch or context is a violation";
}

/* NIC_STATUS: the device CPU keeps the last status of each port and counts them; the status
 * sits right after the length word (byte 28 of the packet). */
TEST(Fw, NicStatusKeptPerPort)
{
	Rig r(cfg(3));
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	fw::CpucpNicStatus st{};
	st.port = 2;
	st.up = 1;
	st.pcs_link = 1;
	st.correctable_err_cnt = 77;
	st.port_toggle_cnt = 3;
	ASSERT_EQ(r.host->nic_status(st), FwErr::ok) << r.host->error();
	st.correctable_err_cnt = 78;
	ASSERT_EQ(r.host->nic_status(st), FwErr::ok);
	emu::FwNicPort p2 = r.dev->fw_nic_port(2);
	EXPECT_EQ(p2.status_packets, 2u);
	EXPECT_EQ(p2.status.port, 2u);
	EXPECT_EQ(p2.status.up, 1u);
	EXPECT_EQ(p2.status.pcs_link, 1u);
	EXPECT_EQ(p2.status.correctable_err_cnt, 78u);
	EXPECT_EQ(p2.status.port_toggle_cnt, 3u);
	EXPECT_EQ(r.dev->fw_nic_port(0).status_packets, 0u);
	st.port = 3; /* no such port */
	EXPECT_EQ(r.host->nic_status(st), FwErr::cpucp_rc);
	EXPECT_EQ(r.host->last_rc(), uint32_t(fw::CpucpRc::invalid_params));
	EXPECT_EQ(r.dev->fw_counters().nic_status_packets, 2u);
}

/* A firmware without NIC_MEM_CLEAR_EN does not advertise the NIC memory packets. */
TEST(Fw, NoNicMemClearFault)
{
	Config c = cfg();
	c.fw_fault = FwFault::no_nic_mem_clear;
	Rig r(c);
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	EXPECT_FALSE(r.host->dev_sts0() & fw::dev_sts0::NIC_MEM_CLEAR_EN);
}

/* fw_cpucp_fail: the named opcode fails with the configured return code, the others work. */
TEST(Fw, CpucpFailOneOpcode)
{
	Config c = cfg();
	c.fw_cpucp_fail_op = uint32_t(fw::CpucpOp::NIC_ECC_INTRS_UNMASK);
	Rig r(c);
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	ASSERT_EQ(r.host->nic_clr_mem(hw::nicmem::kNicDrvAddr, 4096), FwErr::ok);
	EXPECT_EQ(r.host->nic_ecc_intrs_unmask(), FwErr::cpucp_rc);
	EXPECT_EQ(r.host->last_rc(), uint32_t(fw::CpucpRc::fault));
	EXPECT_TRUE(contains(r.host->error(), "cpucp NIC_ECC_INTRS_UNMASK failed: return code 2"))
		<< r.host->error();
}

TEST(Fw, StepsOutOfOrder)
{
	Rig r(cfg());
	ASSERT_TRUE(r.dev);
	/* cpucp before the queues. */
	EXPECT_EQ(r.host->test(1, nullptr), FwErr::not_ready);
	ASSERT_EQ(r.host->read_preboot(), FwErr::ok);
	/* Queues before the firmware runs: the preboot does not serve them. */
	EXPECT_EQ(r.queues(), FwErr::queue_init_timeout);
	EXPECT_TRUE(contains(r.host->error(), "QUEUE_INIT stayed 1")) << r.host->error();
	/* Raw COMMS: DATA_RDY without PREP_DESC is refused with ERR. */
	hw::Bar &b = r.dev->fw_bar();
	b.wr32(fw::KMD_MSG_TO_CPU, fw::comms_cmd(fw::CommsCmd::RST_STATE));
	b.wr32(fw::KMD_MSG_TO_CPU, fw::comms_cmd(fw::CommsCmd::NOOP));
	b.wr32(fw::KMD_MSG_TO_CPU, fw::comms_cmd(fw::CommsCmd::DATA_RDY));
	EXPECT_EQ(fw::kCommsStsStatus.get(b.rd32(fw::CPU_CMD_STATUS_TO_HOST)),
		  uint32_t(fw::CommsSts::ACK));
	b.wr32(fw::KMD_MSG_TO_CPU, fw::comms_cmd(fw::CommsCmd::CLR_STS));
	b.wr32(fw::KMD_MSG_TO_CPU, fw::comms_cmd(fw::CommsCmd::NOOP));
	EXPECT_EQ(fw::kCommsStsStatus.get(b.rd32(fw::CPU_CMD_STATUS_TO_HOST)),
		  uint32_t(fw::CommsSts::ERR));
	EXPECT_EQ(r.dev->fw_counters().comms_errors, 1u);
	/* And the proper sequence still works afterwards. */
	EXPECT_EQ(r.host->load_firmware({fw::kBootFitFile, boot_fit_bytes()},
					{fw::kFitFile, fit_bytes()}),
		  FwErr::ok)
		<< r.host->error();
	EXPECT_EQ(r.queues(), FwErr::ok) << r.host->error();
}

TEST(Fw, QueueStaysWhereInitFoundIt)
{
	Rig r(cfg());
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.bring_up(), FwErr::ok) << r.host->error();
	/* A driver rewriting the queue registers later does not move (or break) the queue. */
	r.dev->fw_bar().wr32(fw::PQ_LENGTH, 0);
	r.dev->fw_bar().wr32(fw::PQ_BASE_ADDR_LOW, 0x40);
	uint64_t echo = 0;
	EXPECT_EQ(r.host->test(0xABCD, &echo), FwErr::ok) << r.host->error();
	EXPECT_EQ(echo, 0xABCDu);
}

TEST(Fw, WindowIsThePublishedMap)
{
	Config c = cfg();
	c.strict = false;
	Rig r(c);
	ASSERT_TRUE(r.dev);
	hw::Bar &b = r.dev->fw_bar();
	EXPECT_EQ(b.len(), fw::kFwWindowSize);
	EXPECT_EQ(r.dev->map_violations(), 0u);
	b.rd32(0x4C4B308 - fw::kFwCfgBase); /* PSOC_GLOBAL_CONF_SPL_SOURCE: not in our map */
	EXPECT_EQ(r.dev->map_violations(), 1u);
	b.wr32(fw::CPU_BOOT_STATUS, 0); /* only the device CPU writes it */
	EXPECT_EQ(r.dev->map_violations(), 2u);
	EXPECT_EQ(b.rd32(fw::CPU_BOOT_STATUS), uint32_t(fw::BootStatus::WAITING_FOR_BOOT_FIT));
	/* SRAM outside the image area the descriptor gave. */
	r.dev->fw_sram_bar().wr32(fw::kBootFitSramOffset, 1);
	EXPECT_EQ(r.dev->map_violations(), 3u);
}

TEST(Fw, GateRefusesEarlyNicProgramming)
{
	const uint32_t mac_reg = hw::reg::txe(0) + hw::reg::TXE_PORT0_MAC_CFG_31_0;
	Config c = cfg();
	c.fw_gate = true;
	c.strict = false; /* count instead of stopping the process */
	Rig r(c);
	ASSERT_TRUE(r.dev);
	r.dev->bar().wr32(mac_reg, 0xA1B2C3D4);
	EXPECT_EQ(r.dev->bar().rd32(mac_reg), 0u) << "the refused write had an effect";
	EXPECT_EQ(r.dev->fw_counters().gate_refused, 1u);
	EXPECT_EQ(r.dev->map_violations(), 1u);
	/* Firmware loaded but no CPU queues yet: still closed. */
	ASSERT_EQ(r.boot(), FwErr::ok) << r.host->error();
	r.dev->bar().wr32(mac_reg, 0xA1B2C3D4);
	EXPECT_EQ(r.dev->fw_counters().gate_refused, 2u);
	ASSERT_EQ(r.queues(), FwErr::ok) << r.host->error();
	r.dev->bar().wr32(mac_reg, 0xA1B2C3D4);
	EXPECT_EQ(r.dev->bar().rd32(mac_reg), 0xA1B2C3D4u);
	EXPECT_EQ(r.dev->fw_counters().gate_refused, 2u);
	EXPECT_EQ(r.dev->map_violations(), 2u);
}

TEST(Fw, GateOffByDefault)
{
	const uint32_t mac_reg = hw::reg::txe(0) + hw::reg::TXE_PORT0_MAC_CFG_31_0;
	Rig r(cfg());
	ASSERT_TRUE(r.dev);
	r.dev->bar().wr32(mac_reg, 0x01020304);
	EXPECT_EQ(r.dev->bar().rd32(mac_reg), 0x01020304u);
	EXPECT_EQ(r.dev->fw_counters().gate_refused, 0u);
	EXPECT_EQ(r.dev->map_violations(), 0u);
}

TEST(Fw, HostRefusesBadQueues)
{
	Rig r(cfg());
	ASSERT_TRUE(r.dev);
	ASSERT_EQ(r.boot(), FwErr::ok) << r.host->error();
	fw::DmaMem pq = r.pq.mem();
	pq.len = 3 * sizeof(fw::PqBd);
	EXPECT_EQ(r.host->init_cpu_queues(pq, r.eq.mem(), r.cq.mem()), FwErr::bad_arg);
	/* An address outside DPDK memory: the model answers ILLEGAL_Q_ADDR_ERR. */
	fw::DmaMem eq = r.eq.mem();
	eq.iova = 0x10; /* nothing is mapped there */
	EXPECT_EQ(r.host->init_cpu_queues(r.pq.mem(), eq, r.cq.mem()), FwErr::queue_init_error);
	EXPECT_TRUE(contains(r.host->error(), "illegal queue address")) << r.host->error();
}

} /* namespace */
