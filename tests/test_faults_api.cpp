/* SPDX-License-Identifier: BSD-3-Clause
 * Fault tests: the fault API (same seed, same faults; bad arguments and devargs) and the model
 * firmware's record of NIC memory steps and status reports.
 */

#include "test_faults.h"

namespace test_faults {

TEST(FaultsApi, SameSeedSameFaults)
{
	std::vector<uint64_t> got;
	for (int run = 0; run < 2; run++) {
		Nic nic("ports=2,engine=inline,fault_seed=42,fault_rate=0.002");
		ASSERT_EQ(nic.probe_rc(), 0);
		ASSERT_EQ(nic.setup(0), 0);
		ASSERT_EQ(nic.setup(1), 0);
		nic.send(3000);
		nic.settle(100);
		auto r = rstats(nic.port(0));
		got.push_back(r.faults_injected * 1000000 + nic.received_);
	}
	EXPECT_EQ(got[0], got[1]);
}

rte_pmd_gaudi_emu_fw_port fw_port(uint16_t port)
{
	rte_pmd_gaudi_emu_fw_port r{};
	EXPECT_EQ(g_fw_port(port, &r), 0);
	return r;
}

/* What the probe told the model's device CPU about the NIC memory: the whole NIC region
 * cleared, ECC interrupts unmasked, the TMR free list of the macro and the TXS free list of
 * each port at hbl_cn's carve-out, in the order the model accepts (nothing refused). */
TEST(FirmwareRecord, NicMemoryStepsOfTheOpenPorts)
{
	namespace nm = gaudi::hw::nicmem;
	Nic nic("ports=2,wire=pair");
	ASSERT_EQ(nic.probe_rc(), 0);
	for (unsigned i = 0; i < 2; i++) {
		auto r = fw_port(nic.port(i));
		EXPECT_EQ(r.clr_mem_bytes, nm::kNicDrvSize) << i;
		EXPECT_EQ(r.ecc_unmasked, 1u) << i;
		EXPECT_EQ(r.txs_entries, nm::kTxsFreeEntries) << i;
		EXPECT_EQ(r.txs_free_list, nm::txs_addr(i) + nm::kTxsFreeOff) << i;
		EXPECT_EQ(r.txs_granularity, nm::kTxsGranularity) << i;
		EXPECT_EQ(r.tmr_entries, nm::kTmrFreeEntries) << i;
		EXPECT_EQ(r.tmr_free_list, nm::tmr_addr(0) + nm::kTmrFreeOff) << i;
		EXPECT_EQ(r.tmr_granularity, nm::kTmrGranularity) << i;
		EXPECT_EQ(r.order_refused, 0u) << i;
	}
	rte_pmd_gaudi_emu_fw_port r{};
	EXPECT_EQ(g_fw_port(nic.port(0), nullptr), -EINVAL);
	EXPECT_EQ(g_fw_port(RTE_MAX_ETHPORTS - 1, &r), -ENODEV);
	nic.close();
}

/* The periodic NIC_STATUS reaches the device CPU for every port, with the port's state: up
 * and link while started, the link toggles (a flap, the first bring-up not counted), the FEC
 * counters the xstats show; down once stopped. */
TEST(FirmwareRecord, NicStatusEveryPeriodWithRealCounters)
{
	Nic nic("ports=2,wire=pair,nic_status_ms=10");
	ASSERT_EQ(nic.probe_rc(), 0);
	ASSERT_EQ(nic.setup(0, true), 0);
	ASSERT_EQ(nic.setup(1), 0);
	const uint16_t p0 = nic.port(0);
	EXPECT_TRUE(wait_for([&] {
		auto r = fw_port(p0);
		return r.nic_status_count >= 2 && r.up == 1 && r.pcs_link == 1;
	}));
	auto r0 = fw_port(p0);
	EXPECT_EQ(r0.status_port, 0u);
	EXPECT_EQ(r0.phy_ready, 1u);
	EXPECT_EQ(r0.auto_neg, 0u) << "fw_auto_neg_mask is 0";
	EXPECT_EQ(r0.port_toggle_cnt, 0u) << "the first link-up is not a toggle";
	auto x = xstats(p0);
	EXPECT_EQ(r0.correctable_err_cnt, x["rx_fec_corrected_codewords"]);
	EXPECT_EQ(r0.uncorrectable_err_cnt, x["rx_fec_uncorrected_codewords"]);
	EXPECT_TRUE(wait_for([&] { return fw_port(nic.port(1)).nic_status_count >= 2; }));
	EXPECT_EQ(fw_port(nic.port(1)).status_port, 1u);
	/* A link flap: one toggle, once the link is back; the recovery counters count the link
	 * regained, not the first bring-up either. */
	ASSERT_EQ(g_inject(p0, RTE_PMD_GAUDI_FAULT_LINK_FLAP, 50), 0);
	EXPECT_TRUE(wait_for([&] {
		return rstats(p0).link_up_events >= 1 && fw_port(p0).port_toggle_cnt >= 1;
	}));
	EXPECT_EQ(fw_port(p0).port_toggle_cnt, rstats(p0).link_up_events);
	/* Stopped: reported down. */
	ASSERT_EQ(rte_eth_dev_stop(p0), 0);
	uint64_t n = fw_port(p0).nic_status_count;
	EXPECT_TRUE(wait_for([&] {
		auto r = fw_port(p0);
		return r.nic_status_count > n && r.up == 0;
	}));
	EXPECT_EQ(fw_port(p0).pcs_link, 0u) << "only port and toggles are filled when down";
	nic.close();
}

TEST(FaultsApi, BadArgumentsAndDevargs)
{
	Nic nic("ports=2");
	ASSERT_EQ(nic.probe_rc(), 0);
	EXPECT_EQ(g_inject(RTE_MAX_ETHPORTS - 1, RTE_PMD_GAUDI_FAULT_QP_ERR, 0), -ENODEV);
	EXPECT_EQ(g_inject(nic.port(0), RTE_PMD_GAUDI_FAULT_QP_ERR, 0x10), -EINVAL);
	EXPECT_EQ(g_inject(nic.port(0), rte_pmd_gaudi_fault(17), 0), -EINVAL);
	EXPECT_EQ(g_inject(nic.port(0), RTE_PMD_GAUDI_FAULT_DMA_FAULT, 5), -EINVAL);
	EXPECT_EQ(g_stats(nic.port(0), nullptr), -EINVAL);
	if (rte_vdev_init("net_null_faults", nullptr) == 0) {
		uint16_t id;
		ASSERT_EQ(rte_eth_dev_get_port_by_name("net_null_faults", &id), 0);
		EXPECT_EQ(g_inject(id, RTE_PMD_GAUDI_FAULT_QP_ERR, 0), -ENODEV);
		rte_vdev_uninit("net_null_faults");
	}
	for (const char *bad : {"fault=bogus:0", "fault=qp_err:2", "fault=qp_err:0:1:0x10",
				"fault=link_flap", "fault_rate=2", "fault_kinds=qp_err+nope",
				"tx_watchdog_ms=-1", "fault=dma_fault:0:0:3"}) {
		std::string n = next_vdev_name();
		EXPECT_NE(rte_vdev_init(n.c_str(), (std::string("ports=2,") + bad).c_str()), 0) << bad;
	}
}

} /* namespace test_faults */
