/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the Gaudi2 NIC device model, driven through hw::Port exactly as a driver
 * drives the silicon: rings in IOVA-contiguous memzones, registers through the model's Bar.
 * Traffic tests run with both engines (inline and thread).
 */
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <pcap/pcap.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_memzone.h>

#include "gaudi_emu.h"
#include "gaudi_macro.h"
#include "gaudi_nic_mem.h"
#include "gaudi_port.h"
#include "gaudi_regmap.h"
#include "gaudi_test_eal_env.h"

using namespace gaudi;
using gaudi::emu::Config;
using gaudi::emu::Device;
using gaudi::emu::Engine;
using gaudi::emu::Wire;
using hw::Cqe;
using hw::Eqe;
using hw::EqeType;
using hw::QpErrSyndrome;
using hw::RxStat;
using hw::TxStat;
using hw::TxWqe;

namespace {

/* EAL once per process; the model needs no telemetry. */
const auto *eal_env = gaudi_test::register_eal_env(
	new gaudi_test::EalEnvBase("test_emu", "256", {"--no-telemetry"}));

/* ---- Ring geometry used by the tests ---- */
constexpr uint32_t kWqLog2 = 8;	   /* 256 WQEs */
constexpr uint32_t kRxLog2 = 6;	   /* 64 slots, 64 CQEs */
constexpr uint32_t kSlotLog2 = 11; /* 2 KB slots */
constexpr uint32_t kEqLog2 = 8;	   /* 256 EQEs */
constexpr uint32_t kFrm = 1518;	   /* MAC FRM_LENGTH: 1514 + FCS */
constexpr uint32_t kTxBufs = 256;

uint32_t load(const volatile uint32_t *p)
{
	return __atomic_load_n(const_cast<const uint32_t *>(p), __ATOMIC_ACQUIRE);
}

bool wait_until(const std::function<bool()> &pred,
		std::chrono::milliseconds timeout = std::chrono::seconds(5))
{
	auto end = std::chrono::steady_clock::now() + timeout;
	while (!pred()) {
		if (std::chrono::steady_clock::now() > end)
			return pred();
		std::this_thread::sleep_for(std::chrono::microseconds(100));
	}
	return true;
}

/* One port as a driver sets it up: all its rings in one IOVA-contiguous memzone. */
class PortRig {
public:
	static constexpr size_t kWq = 0;
	static constexpr size_t kDbCi = kWq + (size_t(1) << kWqLog2) * sizeof(TxWqe);
	static constexpr size_t kCq = kDbCi + 128;
	static constexpr size_t kCqPi = kCq + (size_t(1) << kRxLog2) * sizeof(Cqe);
	static constexpr size_t kEq = kCqPi + 128;
	static constexpr size_t kEqPi = kEq + (size_t(1) << kEqLog2) * sizeof(Eqe);
	static constexpr size_t kSlots = kEqPi + 128;
	static constexpr size_t kTx = kSlots + (size_t(1) << (kRxLog2 + kSlotLog2));
	static constexpr size_t kSize = kTx + kTxBufs * 2048;

	PortRig(Device &dev, unsigned port) : hw(&dev.bar(), port)
	{
		static unsigned seq;
		char name[RTE_MEMZONE_NAMESIZE];
		snprintf(name, sizeof(name), "emu_test_%u", seq++);
		mz = rte_memzone_reserve_aligned(name, kSize, SOCKET_ID_ANY,
						 RTE_MEMZONE_IOVA_CONTIG, hw::kRingAlign);
		if (mz != nullptr)
			std::memset(mz->addr, 0, kSize);
	}
	~PortRig()
	{
		if (mz != nullptr)
			rte_memzone_free(mz);
	}
	PortRig(const PortRig &) = delete;
	PortRig &operator=(const PortRig &) = delete;

	uint8_t *va(size_t off) const { return static_cast<uint8_t *>(mz->addr) + off; }
	uint64_t iova(size_t off) const { return mz->iova + off; }
	TxWqe *wq() const { return reinterpret_cast<TxWqe *>(va(kWq)); }
	volatile uint32_t *db_ci() const { return reinterpret_cast<uint32_t *>(va(kDbCi)); }
	Cqe *cq() const { return reinterpret_cast<Cqe *>(va(kCq)); }
	volatile uint32_t *cq_pi() const { return reinterpret_cast<uint32_t *>(va(kCqPi)); }
	Eqe *eq() const { return reinterpret_cast<Eqe *>(va(kEq)); }
	volatile uint32_t *eq_pi() const { return reinterpret_cast<uint32_t *>(va(kEqPi)); }
	uint8_t *slot(uint32_t i) const { return va(kSlots + (size_t(i) << kSlotLog2)); }
	uint8_t *txbuf(uint32_t i) const { return va(kTx + size_t(i % kTxBufs) * 2048); }
	uint64_t txbuf_iova(uint32_t i) const { return iova(kTx + size_t(i % kTxBufs) * 2048); }

	hw::TxRingCfg tx_cfg() const { return {iova(kWq), kWqLog2, iova(kDbCi), 1500}; }
	hw::RxRingCfg rx_cfg() const
	{
		return {iova(kSlots), kSlotLog2, kRxLog2, iova(kCq), iova(kCqPi)};
	}

	/* EQ, MAC (enabled), station address, TX and RX rings. */
	void bring_up(bool promisc = true, uint32_t eq_log2 = kEqLog2, bool mac_port_config = true)
	{
		hw.quiesce();
		hw.eq_init({iova(kEq), eq_log2, iova(kEqPi)});
		if (mac_port_config)
			hw.mac_config(true);
		else
			hw.set_mac_enable(true); /* a driver that skips hbl_cn's MAC port config */
		uint8_t mac[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, uint8_t(hw.id())};
		hw.set_mac_addr(mac);
		hw.set_rxb_accept_all(promisc);
		ASSERT_TRUE(hw.tx_init(tx_cfg()));
		ASSERT_TRUE(hw.db_fifo_align(db_ci()));
		ASSERT_TRUE(hw.rx_init(rx_cfg()));
		/* These tests drive the model with frames of any size: the TXE raw minimum-size
		 * check (187 B, H6-3399) is off unless a test turns it on (raw_min_check). */
		raw_min_check(false);
	}
	void raw_min_check(bool on)
	{
		uint32_t off = hw::reg::txe(hw.id()) + hw::reg::TXE_WQE_CHECK_EN2;
		uint32_t bit = hw::reg::TXE_WQE_CHECK_EN2_RAW_BELOW_MAX_RAW_UNSUPPO.mask();
		uint32_t v = hw.bar()->rd32(off);
		hw.bar()->wr32(off, on ? (v | bit) : (v & ~bit));
	}
	/* MAC_128 FRM_LENGTH of both lanes (the driver leaves NIC_MAC_MAX_FRM_LEN there). */
	void set_frm_length(uint32_t len)
	{
		for (unsigned l = 0; l < hw::kLanesPerPort; l++)
			hw.bar()->wr32(hw::reg::mac_128(hw.id(), l) + hw::reg::MAC_128_FRM_LENGTH,
				       len);
	}

	/* Queue one WQE for buffer `buf` (already filled) and advance the local PI. */
	void post_raw(uint32_t ctrl, uint32_t size, uint64_t addr)
	{
		TxWqe &w = wq()[tx_pi & ((1u << kWqLog2) - 1)];
		w = {ctrl, size, addr, 0, 0, 0};
		tx_pi = (tx_pi + 1) & hw::WQ_IDX_MASK;
	}
	void post(uint32_t buf, uint32_t size, bool se)
	{
		post_raw(hw::wqe_ctrl(hw::WqeOpcode::linear, tx_pi, se), size, txbuf_iova(buf));
	}
	void ring()
	{
		hw.ring_doorbell(tx_pi & ((1u << kWqLog2) - 1)); /* a ring index */
		db_rung++;
	}
	/* Doorbells not consumed: the CI is the FIFO position of the last one (count - 1). */
	uint32_t db_outstanding() const { return (db_rung - (load(db_ci()) + 1)) & 63; }
	/* Thread engine: the doorbell CI covers executed doorbells; wait for all we rang. */
	bool settle() const
	{
		return wait_until([&] { return db_outstanding() == 0; });
	}

	std::vector<Cqe> take_cqes(bool write_ci = true)
	{
		std::vector<Cqe> out;
		for (;;) {
			Cqe *c = &cq()[cq_ci & ((1u << kRxLog2) - 1)];
			if (!(load(&c->d0) & hw::CQE_VALID))
				break;
			out.push_back(*c);
			c->d0 = 0;
			cq_ci++;
		}
		if (write_ci && !out.empty())
			hw.rx_write_ci(cq_ci);
		return out;
	}
	std::vector<Eqe> take_events(uint32_t eq_log2 = kEqLog2)
	{
		std::vector<Eqe> out;
		for (;;) {
			Eqe *e = &eq()[eq_ci & ((1u << eq_log2) - 1)];
			if (!(load(&e->d0) & hw::EQE_VALID))
				break;
			out.push_back(*e);
			e->d0 = 0;
			eq_ci++;
		}
		hw.eq_write_ci(eq_ci);
		return out;
	}

	hw::Port hw;
	const rte_memzone *mz = nullptr;
	uint32_t tx_pi = 0;
	uint32_t db_rung = 0;
	uint32_t cq_ci = 0;
	uint32_t eq_ci = 0;
};

std::vector<Eqe> of_type(const std::vector<Eqe> &v, EqeType t)
{
	std::vector<Eqe> out;
	for (const Eqe &e : v)
		if ((e.d0 & hw::EQE_TYPE_MASK) == uint32_t(t))
			out.push_back(e);
	return out;
}

/* An Ethernet frame of `len` bytes to `dst`, payload tagged with `seq`. */
void make_frame(uint8_t *p, uint32_t len, const uint8_t dst[6], uint32_t seq)
{
	static const uint8_t src[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x99};
	for (uint32_t i = 0; i < len; i++)
		p[i] = uint8_t(seq * 7 + i);
	std::memcpy(p, dst, 6);
	std::memcpy(p + 6, src, 6);
	p[12] = 0x08;
	p[13] = 0x00;
	if (len >= 18)
		std::memcpy(p + 14, &seq, 4);
}

const uint8_t kBcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
const uint8_t kPort1Mac[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 0x01};

std::string tmp_dir()
{
	std::string d = "/var/tmp/gaudi_emu_test_" + std::to_string(getpid());
	std::filesystem::create_directories(d);
	return d;
}

struct PcapRec {
	std::vector<uint8_t> bytes;
	uint32_t wire_len;
};

void write_pcap(const std::string &path, const std::vector<PcapRec> &recs, int dlt = DLT_EN10MB)
{
	pcap_t *dead = pcap_open_dead(dlt, 65535);
	pcap_dumper_t *d = pcap_dump_open(dead, path.c_str());
	ASSERT_NE(d, nullptr) << pcap_geterr(dead);
	for (const PcapRec &r : recs) {
		struct pcap_pkthdr h {};
		h.caplen = uint32_t(r.bytes.size());
		h.len = r.wire_len;
		pcap_dump(reinterpret_cast<u_char *>(d), &h, r.bytes.data());
	}
	pcap_dump_close(d);
	pcap_close(dead);
}

std::vector<std::vector<uint8_t>> read_pcap(const std::string &path)
{
	std::vector<std::vector<uint8_t>> out;
	char eb[PCAP_ERRBUF_SIZE];
	pcap_t *h = pcap_open_offline(path.c_str(), eb);
	if (h == nullptr)
		return out;
	struct pcap_pkthdr *hdr;
	const u_char *data;
	while (pcap_next_ex(h, &hdr, &data) == 1)
		out.emplace_back(data, data + hdr->caplen);
	pcap_close(h);
	return out;
}

/* ---- Fixture: a device with both engines ---- */
class Emu : public ::testing::TestWithParam<Engine> {
protected:
	void make(unsigned nports = 2, Wire wire = Wire::pair)
	{
		Config c;
		c.nports = nports;
		c.wire = wire;
		c.engine = GetParam();
		make(c);
	}
	void make(const Config &c)
	{
		std::string err;
		dev = Device::create(c, &err);
		ASSERT_NE(dev, nullptr) << err;
		for (unsigned p = 0; p < c.nports; p++) {
			rig.push_back(std::make_unique<PortRig>(*dev, p));
			ASSERT_NE(rig.back()->mz, nullptr);
		}
	}
	bool thread() const { return GetParam() == Engine::thread; }
	/* Send frames on rig[p]; frames[i] = size, dst; SE on the last. */
	void send(unsigned p, const std::vector<uint32_t> &sizes, const uint8_t *dst = kPort1Mac,
		  bool se_last = true)
	{
		PortRig &r = *rig[p];
		for (size_t i = 0; i < sizes.size(); i++) {
			uint32_t b = r.tx_pi;
			make_frame(r.txbuf(b), sizes[i], dst, b);
			r.post(b, sizes[i], se_last && i + 1 == sizes.size());
		}
		r.ring();
		ASSERT_TRUE(r.settle()) << "doorbells not consumed";
	}
	uint64_t rx(unsigned p, RxStat s) { return rig[p]->hw.rx_stat(s); }
	uint64_t tx(unsigned p, TxStat s) { return rig[p]->hw.tx_stat(s); }
	uint32_t reg(uint32_t off) { return dev->bar().rd32(off); }

	void TearDown() override
	{
		rig.clear();
		dev.reset();
	}

	std::unique_ptr<Device> dev;
	std::vector<std::unique_ptr<PortRig>> rig;
};

std::string engine_name(const ::testing::TestParamInfo<Engine> &i)
{
	return i.param == Engine::inline_run ? "inline" : "thread";
}

/* ===================================================================================== */

TEST_P(Emu, PairWireDeliversFramesCqesAndTxCompletion)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	const std::vector<uint32_t> sizes = {60, 64, 100, 128, 500, 1000, 1400, 1514};
	send(0, sizes);

	std::vector<Cqe> c = rig[1]->take_cqes();
	ASSERT_EQ(c.size(), sizes.size());
	uint64_t bytes = 0;
	for (uint32_t i = 0; i < sizes.size(); i++) {
		EXPECT_EQ(c[i].d0, hw::CQE_VALID | hw::kRawQpn) << i;
		EXPECT_EQ(c[i].wqe_index, i);
		EXPECT_EQ(c[i].size, sizes[i]);
		EXPECT_EQ(std::memcmp(rig[1]->slot(i), rig[0]->txbuf(i), sizes[i]), 0) << i;
		bytes += sizes[i];
	}
	EXPECT_EQ(load(rig[1]->cq_pi()), sizes.size());
	EXPECT_EQ(reg(hw::reg::rxe(1) + hw::reg::RXE_CQ_PRODUCER_INDEX_0), sizes.size());
	EXPECT_EQ(load(rig[0]->db_ci()), 0u); /* FIFO position of the one doorbell, from 63 */

	auto ev = of_type(rig[0]->take_events(), EqeType::raw_tx_comp);
	ASSERT_EQ(ev.size(), 1u); /* SE on the last WQE only */
	EXPECT_EQ(ev[0].d1, hw::kRawQpn);
	EXPECT_EQ(ev[0].d2, sizes.size() - 1);
	EXPECT_EQ(load(rig[0]->eq_pi()), rig[0]->eq_ci);

	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), sizes.size());
	EXPECT_EQ(tx(0, TxStat::ether_stats_octets), bytes + 4 * sizes.size());
	EXPECT_EQ(tx(0, TxStat::if_out_ucast_pkts), sizes.size());
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), sizes.size());
	EXPECT_EQ(rx(1, RxStat::ether_stats_octets), bytes + 4 * sizes.size());
	EXPECT_EQ(rx(1, RxStat::octets_received_ok), bytes);
	/* Buckets count the frame with FCS: 64 | 68, 104 | 132 | 504 | 1004 | 1404, 1518. */
	EXPECT_EQ(rx(1, RxStat::ether_stats_pkts_64), 1u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_pkts_65_to_127), 2u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_pkts_1024_to_1518), 2u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_pkts_1519_to_max), 0u);
	EXPECT_EQ(tx(0, TxStat::ether_stats_pkts_1024_to_1518), 2u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 0u);
	EXPECT_EQ(dev->counters(0).wire_tx_frames, sizes.size());
	EXPECT_EQ(dev->counters(1).wire_rx_frames, sizes.size());
	EXPECT_EQ(dev->counters(1).wire_tx_frames, 0u);

	/* And back: port 1 -> port 0, ring wraps nothing yet; CQ of port 0 starts at slot 0. */
	uint8_t mac0[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 0x00};
	send(1, {200, 300}, mac0);
	c = rig[0]->take_cqes();
	ASSERT_EQ(c.size(), 2u);
	EXPECT_EQ(c[1].wqe_index, 1u);
	EXPECT_EQ(c[1].size, 300u);
}

/* Port open and close program what the public drivers do, with their values, on the port's
 * copy of each block (port 1: the odd copies), and leave the rest of each register alone:
 * gaudi2_cn.c config_port_hw_qpc / _txe / _rxe, gaudi2_cn_eq.c eq_hw_config, gaudi2_en.c
 * port_close (__db_fifo_reset) and gaudi2_cn.c stop_traffic. Frames still move after it. */
TEST_P(Emu, PortOpenAndCloseProgramming)
{
	make();
	namespace hr = hw::reg;
	PortRig &r = *rig[1];
	const uint32_t q = hr::qpc(1), t = hr::txe(1), x = hr::rxe(1);
	auto wr = [this](uint32_t off, uint32_t v) { dev->bar().wr32(off, v); };
	/* Bits the RMWs must keep or clear, and registers the open must overwrite. */
	const uint32_t st0 = reg(q + hr::QPC_REQ_STATIC_CONFIG);
	wr(q + hr::QPC_REQ_STATIC_CONFIG,
	   st0 | hr::QPC_REQ_STATIC_CONFIG_QM_PUSH_TO_ERROR_ASID.mask() |
		   hr::QPC_REQ_STATIC_CONFIG_QM_MOVEQP2ERR_ASID_ERR.mask());
	wr(q + hr::QPC_WTD_CONFIG, 0xFFFFFFFF);
	wr(q + hr::QPC_REQ_QPC_CACHE_INVALIDATE, 1);
	wr(q + hr::QPC_EVENT_QUE_CONSUMER_INDEX_CB, 5);
	wr(t + hr::TXE_STATS_CFG1,
	   hr::TXE_STATS_CFG1_WIN_TYPE.mask() | hr::TXE_STATS_CFG1_WIN_SAMP_LATENCY.mask());
	wr(t + hr::TXE_STATS_CFG2, hr::TXE_STATS_CFG2_LATENCY_WRAP_EN.mask());
	for (unsigned cq = 1; cq < hr::kRxeCqs; cq++)
		wr(x + hr::rxe_cq(hr::RXE_CQ_CFG_0, cq), hr::RXE_CQ_CFG_0_ENABLE.mask());
	wr(x + hr::RXE_CQ_ARM_TIMEOUT_EN, 0x3);

	r.hw.quiesce();
	r.hw.eq_init({r.iova(PortRig::kEq), kEqLog2, r.iova(PortRig::kEqPi)});
	const uint64_t req = hw::nicmem::req_qpc_addr(1), res = hw::nicmem::res_qpc_addr(1);
	r.hw.qpc_config({req, res, r.iova(PortRig::kDbCi)});
	ASSERT_TRUE(r.hw.tx_init(r.tx_cfg()));
	ASSERT_TRUE(r.hw.db_fifo_align(r.db_ci()));
	ASSERT_TRUE(r.hw.rx_init(r.rx_cfg()));
	r.hw.cq_arm_timer_off();

	/* QPC: the raw QP's context tables are the port's slice of the carve-out. */
	EXPECT_EQ(reg(q + hr::QPC_REQ_BASE_ADDRESS_63_32), uint32_t(req >> 32));
	EXPECT_EQ(reg(q + hr::QPC_REQ_BASE_ADDRESS_31_7), uint32_t(req) >> 7);
	EXPECT_EQ(reg(q + hr::QPC_RES_BASE_ADDRESS_63_32), uint32_t(res >> 32));
	EXPECT_EQ(reg(q + hr::QPC_RES_BASE_ADDRESS_31_7), uint32_t(res) >> 7);
	EXPECT_NE(req, hw::nicmem::req_qpc_addr(0));
	EXPECT_EQ(reg(q + hr::QPC_REQ_QPC_CACHE_INVALIDATE), 0u); /* pulse ends at 0 */
	EXPECT_EQ(reg(q + hr::QPC_RES_QPC_CACHE_INVALIDATE), 0u);
	for (uint32_t b : {hr::QPC_AXUSER_DB_FIFO_BASE, hr::QPC_AXUSER_ERR_FIFO_BASE,
			   hr::QPC_AXUSER_QPC_REQ_BASE, hr::QPC_AXUSER_QPC_RESP_BASE,
			   hr::QPC_AXUSER_CONG_QUE_BASE, hr::QPC_AXUSER_EV_QUE_LBW_INTR_BASE}) {
		EXPECT_EQ(reg(hr::qpc_axuser(1, b) + hr::QPC_AXUSER_DB_FIFO_HB_WR_OVRD_LO),
			  0xFFFFFBFFu)
			<< std::hex << b;
		EXPECT_EQ(reg(hr::qpc_axuser(1, b) + hr::QPC_AXUSER_DB_FIFO_HB_RD_OVRD_LO),
			  0xFFFFFBFFu)
			<< std::hex << b;
		/* port 0's copy is its own */
		EXPECT_EQ(reg(hr::qpc_axuser(0, b) + hr::QPC_AXUSER_DB_FIFO_HB_WR_OVRD_LO), 0u);
	}
	const uint32_t st = reg(q + hr::QPC_REQ_STATIC_CONFIG);
	EXPECT_EQ(st, (st0 | hr::QPC_REQ_STATIC_CONFIG_QM_MOVEQP2ERR_SECUR_ERR.mask() |
		       hr::QPC_REQ_STATIC_CONFIG_QM_UPD_IGNORE_ASID_ERR.mask() |
		       hr::QPC_REQ_STATIC_CONFIG_QM_PUSH_TO_ERROR_SECURITY.mask()))
		<< std::hex << st;
	EXPECT_EQ(reg(q + hr::QPC_WTD_CONFIG), 0xFFFFFFCFu); /* WQ_BP_2ARC_EN, _2QMAN_EN off */
	const uint32_t d = hr::qpc_dbfifosecur(1);
	const uint64_t ci = r.iova(PortRig::kDbCi);
	EXPECT_EQ(reg(d + hr::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_31_7),
		  uint32_t(ci) >> 7);
	EXPECT_EQ(reg(q + hr::QPC_EVENT_QUE_CONSUMER_INDEX_CB), 0u);
	/* TXE */
	EXPECT_EQ(reg(t + hr::TXE_PRIO_TO_DSCP_0), 0x18100000u);
	EXPECT_EQ(reg(t + hr::TXE_WQE_USER_CFG), 1u);
	EXPECT_EQ(reg(t + hr::TXE_WQE_PREFETCH_CFG), 3u);
	EXPECT_EQ(reg(t + hr::TXE_BTH_MKEY), 0xFFFFu);
	EXPECT_EQ(reg(t + hr::TXE_STATS_CFG0), 488u * 100000u); /* 100 ms at 488 MHz */
	EXPECT_EQ(reg(t + hr::TXE_STATS_CFG1), 0x903u);	   /* TOT_TYPE 3, ENABLE, LATENCY_ENABLE */
	EXPECT_EQ(reg(t + hr::TXE_STATS_CFG2), 2u * 488u); /* 2 us, no wrap */
	/* RXE */
	for (unsigned cq = 0; cq < hr::kRxeCqs; cq++)
		EXPECT_EQ(reg(hr::rxe_axuser_cq(1, cq) + hr::RXE_AXUSER_AXUSER_CQ0_HB_WR_OVRD_LO),
			  0xFFFFFBFFu)
			<< cq;
	EXPECT_EQ(hr::rxe_axuser_cq(1, 15) - hr::rxe_axuser_cq(0, 0), 0x1000u + 15 * 0x50u);
	EXPECT_EQ(reg(x + hr::RXE_CQ_CFG_0), 0x9u);
	for (unsigned cq = 1; cq < hr::kRxeCqs; cq++)
		EXPECT_EQ(reg(x + hr::rxe_cq(hr::RXE_CQ_CFG_0, cq)), 0u) << cq;
	EXPECT_EQ(reg(x + hr::RXE_ARUSER_MMU_BP), 1u);
	EXPECT_EQ(reg(x + hr::RXE_DBG_SPMU_SELECT), 1u);
	EXPECT_EQ(reg(x + hr::RXE_CQ_ARM_TIMEOUT_EN), 0x2u); /* raw CQ's timer off, CQ 1 kept */

	/* Frames still move: port 0 to port 1. */
	rig[0]->bring_up();
	r.hw.mac_config(true);
	uint8_t mac[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 1};
	r.hw.set_mac_addr(mac);
	r.hw.set_rxb_accept_all(true);
	r.raw_min_check(false);
	send(0, {100, 200});
	ASSERT_TRUE(wait_until([&] { return load(r.cq_pi()) == 2; }))
		<< "no frames on the reprogrammed port";
	EXPECT_EQ(r.take_cqes().size(), 2u);

	/* Close: QPs invalid, then __db_fifo_reset: FIFO wrapped to 63, CI address cleared. */
	ASSERT_TRUE(r.hw.tx_disable());
	r.hw.rx_disable();
	ASSERT_TRUE(r.hw.db_fifo_reset(r.db_ci()));
	EXPECT_EQ(load(r.db_ci()), 63u);
	EXPECT_EQ(reg(d + hr::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_31_7), 0u);
	EXPECT_EQ(reg(d + hr::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_63_32), 0u);

	/* Device close: stop_traffic of port 1 only (and its macro's timers). */
	hw::nicmem::stop_traffic(dev->bar(), 1u << 1);
	EXPECT_TRUE(reg(q + hr::QPC_REQ_STATIC_CONFIG) &
		    hr::QPC_REQ_STATIC_CONFIG_CACHE_STOP.mask());
	EXPECT_TRUE(reg(q + hr::QPC_RES_STATIC_CONFIG) &
		    hr::QPC_RES_STATIC_CONFIG_CACHE_STOP.mask());
	EXPECT_FALSE(reg(hr::qpc(0) + hr::QPC_REQ_STATIC_CONFIG) &
		     hr::QPC_REQ_STATIC_CONFIG_CACHE_STOP.mask());
	EXPECT_EQ(reg(hr::txs(1) + hr::TXS_CACHE_CFG) & 0x12u, 0x12u);
	EXPECT_EQ(reg(hr::txs(0) + hr::TXS_CACHE_CFG) & 0x12u, 0u);
	EXPECT_EQ(reg(hr::tmr(1) + hr::TMR_TMR_CACHES_CFG) & 0x92u, 0x92u);
}

TEST_P(Emu, RingsWrapOverManyDoorbells)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	/* 40 bursts of 25 = 1000 frames: WQ (256) and CQ (64) wrap many times. */
	uint32_t got = 0;
	for (int b = 0; b < 40; b++) {
		send(0, std::vector<uint32_t>(25, 64 + b), kPort1Mac, b % 4 == 0);
		for (const Cqe &c : rig[1]->take_cqes()) {
			EXPECT_EQ(c.wqe_index, got % 64);
			EXPECT_EQ(c.size, 64u + b);
			uint32_t seq;
			std::memcpy(&seq, rig[1]->slot(c.wqe_index) + 14, 4);
			EXPECT_EQ(seq, got);
			got++;
		}
	}
	EXPECT_EQ(got, 1000u);
	auto ev = of_type(rig[0]->take_events(), EqeType::raw_tx_comp);
	ASSERT_EQ(ev.size(), 10u);
	EXPECT_EQ(ev.back().d2, (36u * 25 + 24) % 256); /* a ring index */
	EXPECT_EQ(load(rig[0]->db_ci()), 39u);		/* 40 doorbells after the wrap to 63 */
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 0u);
}

TEST_P(Emu, CqOverrunDropsAndRaisesOneCompErrPerEpisode)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	send(0, std::vector<uint32_t>(74, 100));
	EXPECT_EQ(load(rig[1]->cq_pi()), 64u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 10u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 74u); /* the MAC took them all */
	auto ce = of_type(rig[1]->take_events(), EqeType::comp_err);
	ASSERT_EQ(ce.size(), 1u);
	EXPECT_EQ(ce[0].d1, hw::kRawCq);

	/* Still full, no CI yet: more drops, no second event. */
	send(0, {100});
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 11u);
	EXPECT_TRUE(of_type(rig[1]->take_events(), EqeType::comp_err).empty());

	/* Consume: CI = 64 ends the episode; 64 more fit, the 65th starts a new one. */
	EXPECT_EQ(rig[1]->take_cqes().size(), 64u);
	EXPECT_EQ(reg(hw::reg::rxe(1) + hw::reg::RXE_CQ_CONSUMER_INDEX_0), 64u);
	send(0, std::vector<uint32_t>(65, 100));
	EXPECT_EQ(load(rig[1]->cq_pi()), 128u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 12u);
	EXPECT_EQ(of_type(rig[1]->take_events(), EqeType::comp_err).size(), 1u);
}

/* With the RXB programmed as gaudi2_cn_config_hw_rxb does, a full CQ back-pressures into it:
 * frames wait and reach the CQ in order when it has room; at DROP_THRESHOLD (1374 buffers of
 * 128 bytes) the RXB drops (etherStatsDropEvents, SPI_INTR_CAUSE.PKT_DROP_NO_CRDT, one
 * COMP_ERR); past XOFF (714) the MAC sends one PAUSE, and again only after XON (648). */
TEST_P(Emu, FullCqBackPressuresIntoTheRxb)
{
	namespace r = hw::reg;
	make();
	hw::macro::rxb_config(dev->bar(), 0);
	rig[0]->bring_up();
	rig[1]->bring_up();
	const uint32_t cause = r::rxb(1) + r::RXB_CORE_SPI_INTR_CAUSE;
	auto pauses = [&] { return tx(1, TxStat::pause_mac_ctrl_frames_transmitted); };
	/* 1000-byte frames, 8 buffers each: 64 to the CQ, 100 into the RXB (800 buffers, past
	 * XOFF at the 90th: one PAUSE, counted on both sides; the sender ignores it). */
	send(0, std::vector<uint32_t>(164, 1000));
	EXPECT_EQ(load(rig[1]->cq_pi()), 64u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 0u);
	EXPECT_EQ(pauses(), 1u);
	EXPECT_EQ(rx(0, RxStat::pause_mac_ctrl_frames_received), 1u);
	EXPECT_EQ(reg(cause), 0u);
	/* 80 more: 72 fit below the drop threshold (fill 800 + 8 x 71 = 1368 < 1374), 8 drop. */
	send(0, std::vector<uint32_t>(80, 1000));
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 8u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 244u); /* the MAC took them all */
	EXPECT_EQ(reg(cause), r::RXB_CORE_SPI_INTR_CAUSE_PKT_DROP_NO_CRDT.mask());
	EXPECT_EQ(of_type(rig[1]->take_events(), EqeType::comp_err).size(), 1u);
	EXPECT_EQ(pauses(), 1u);
	/* The application takes the CQ three times: the RXB's 172 frames follow the first 64, in
	 * sending order, and the 8 dropped were the last ones. */
	uint32_t got = 0;
	for (int round = 0; round < 8 && got < 236; round++) {
		ASSERT_TRUE(wait_until([&] { return load(rig[1]->cq_pi()) != got; })) << got;
		/* Slots read before the CI gives them back (the RXB refills them at once). */
		for (const Cqe &c : rig[1]->take_cqes(false)) {
			uint32_t seq;
			std::memcpy(&seq, rig[1]->slot(c.wqe_index) + 14, 4);
			EXPECT_EQ(seq, got);
			EXPECT_EQ(c.size, 1000u);
			got++;
		}
		rig[1]->hw.rx_write_ci(rig[1]->cq_ci);
	}
	EXPECT_EQ(got, 236u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 8u);
	/* Empty again (XON passed): a new episode sends a second PAUSE. */
	send(0, std::vector<uint32_t>(64 + 90, 1000));
	EXPECT_EQ(pauses(), 2u);
	/* Without TX pause (XOFF / XON past any fill, as the PMD writes them) no PAUSE. */
	for (unsigned i = 0; i < r::kRxbPrioRegs; i++) {
		dev->bar().wr32(r::rxb(1) + r::rxb_prio_reg(r::RXB_CORE_XOFF_THRESHOLD_0, i),
				hw::macro::pair(0x1FFF));
		dev->bar().wr32(r::rxb(1) + r::rxb_prio_reg(r::RXB_CORE_XON_THRESHOLD_0, i),
				hw::macro::pair(0x1FFF));
	}
	while (got < 236 + 154) {
		ASSERT_TRUE(wait_until([&] { return load(rig[1]->cq_pi()) != got; })) << got;
		got += uint32_t(rig[1]->take_cqes().size());
	}
	send(0, std::vector<uint32_t>(64 + 100, 1000));
	EXPECT_EQ(pauses(), 2u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 8u);
}

TEST_P(Emu, DoorbellFifoOverrun)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	PortRig &r = *rig[0];
	dev->hold_engine(true);
	for (uint32_t i = 0; i < hw::kDbFifoEntries; i++) {
		make_frame(r.txbuf(i), 80, kPort1Mac, i);
		r.post(i, 80, false);
		r.ring();
	}
	EXPECT_EQ(load(r.db_ci()), 63u);   /* engine held: nothing consumed since the alignment */
	r.hw.ring_doorbell(r.tx_pi & 255); /* 65th: dropped */
	auto ov = of_type(r.take_events(), EqeType::db_fifo_overrun);
	ASSERT_EQ(ov.size(), 1u);
	EXPECT_EQ(ov[0].d1, 30u); /* GAUDI2_DB_FIFO_SECURE_HW_ID */

	dev->hold_engine(false);
	/* 64 outstanding read as 0 through the 6-bit CI: wait for the frames instead. */
	ASSERT_TRUE(wait_until([&] { return load(rig[1]->cq_pi()) == 64; }));
	ASSERT_TRUE(wait_until([&] { return load(r.db_ci()) == 63; })); /* 64 more: one lap */
	EXPECT_EQ(rig[1]->take_cqes().size(), 64u);
	EXPECT_TRUE(of_type(r.take_events(), EqeType::db_fifo_overrun).empty());
}

TEST_P(Emu, QpErrorOnDmaFaultStopsTheQpUntilQpcRewritten)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	PortRig &r = *rig[0];
	r.post_raw(hw::wqe_ctrl(hw::WqeOpcode::linear, 0, true), 100, 0x10); /* unmapped */
	make_frame(r.txbuf(1), 100, kPort1Mac, 1);
	r.post(1, 100, true); /* a good one behind it */
	r.ring();
	ASSERT_TRUE(r.settle());
	auto ev = r.take_events();
	auto qe = of_type(ev, EqeType::qp_err);
	ASSERT_EQ(qe.size(), 1u);
	EXPECT_EQ(qe[0].d1, hw::kRawQpn); /* bit 31 (reset flag) clear */
	EXPECT_EQ(qe[0].d2, uint32_t(QpErrSyndrome::wqe_dma_fault));
	EXPECT_TRUE(of_type(ev, EqeType::raw_tx_comp).empty());
	EXPECT_EQ(dev->counters(0).wire_tx_frames, 0u);
	EXPECT_EQ(dev->counters(0).qp_errors, 1u);
	EXPECT_EQ(dev->counters(0).last_qp_syndrome, uint32_t(QpErrSyndrome::wqe_dma_fault));
	EXPECT_TRUE(rig[1]->take_cqes().empty());

	/* In error: doorbells are consumed (CI moves) but nothing runs, no new event. */
	r.ring();
	ASSERT_TRUE(r.settle());
	EXPECT_TRUE(r.take_events().empty());
	EXPECT_EQ(dev->counters(0).wire_tx_frames, 0u);

	/* Recovery: rewrite the requester QPC valid with the execution index past the bad WQE. */
	hw::qpc::ReqImage img;
	img.set(hw::qpc::REQ_EXECUTION_IDX, 1);
	img.set(hw::qpc::REQ_ERROR, 0);
	img.set(hw::qpc::REQ_VALID, 1);
	ASSERT_TRUE(r.hw.qpc_write_req(img, false));
	r.ring();
	ASSERT_TRUE(r.settle());
	auto c = rig[1]->take_cqes();
	ASSERT_EQ(c.size(), 1u);
	EXPECT_EQ(std::memcmp(rig[1]->slot(0), r.txbuf(1), 100), 0);
	auto tc = of_type(r.take_events(), EqeType::raw_tx_comp);
	ASSERT_EQ(tc.size(), 1u);
	EXPECT_EQ(tc[0].d2, 1u);
}

struct BadWqe {
	const char *name;
	uint32_t ctrl_index_delta;
	hw::WqeOpcode op;
	uint32_t size;
	QpErrSyndrome syndrome;
};

TEST_P(Emu, BadWqeSyndromes)
{
	const BadWqe cases[] = {
		{"index", 5, hw::WqeOpcode::linear, 100, QpErrSyndrome::wqe_index_mismatch},
		{"opcode", 0, hw::WqeOpcode::send, 100, QpErrSyndrome::raw_wqe_opcode_unsupported},
		{"size0", 0, hw::WqeOpcode::linear, 0, QpErrSyndrome::raw_wqe_size_unsupported},
		/* TXE raw size checkers as the boot firmware sets them [set_txe_checkers]. */
		{"above8320", 0, hw::WqeOpcode::linear, hw::kMaxFrameLen + 1,
		 QpErrSyndrome::raw_above_max_size},
		{"below187", 0, hw::WqeOpcode::linear, hw::kTxPadSize - 1,
		 QpErrSyndrome::raw_below_min_size},
	};
	for (const BadWqe &bc : cases) {
		SCOPED_TRACE(bc.name);
		rig.clear();
		dev.reset();
		make();
		rig[0]->bring_up();
		rig[1]->bring_up();
		PortRig &r = *rig[0];
		r.raw_min_check(true);
		make_frame(r.txbuf(0), 1600, kPort1Mac, 0);
		r.post_raw(hw::wqe_ctrl(bc.op, r.tx_pi + bc.ctrl_index_delta, true), bc.size,
			   r.txbuf_iova(0));
		r.ring();
		ASSERT_TRUE(r.settle());
		auto qe = of_type(r.take_events(), EqeType::qp_err);
		ASSERT_EQ(qe.size(), 1u);
		EXPECT_EQ(qe[0].d2, uint32_t(bc.syndrome));
		EXPECT_EQ(dev->counters(0).wire_tx_frames, 0u);
	}
	/* The largest legal WQE passes: FRM_LENGTH - FCS. */
	rig.clear();
	dev.reset();
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	send(0, {kFrm - 4});
	EXPECT_EQ(rig[1]->take_cqes().size(), 1u);
}

TEST_P(Emu, PiBeyondLastIndexAndInvalidQp)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	PortRig &r = *rig[0];
	r.hw.ring_doorbell(300); /* a producer index beyond LAST_IDX (255) */
	r.db_rung++;
	ASSERT_TRUE(r.settle());
	auto qe = of_type(r.take_events(), EqeType::qp_err);
	ASSERT_EQ(qe.size(), 1u);
	EXPECT_EQ(qe[0].d2, uint32_t(QpErrSyndrome::pi_exceeds_last_index));

	/* tx_disable clears VALID: a doorbell then reports the QP not valid. */
	ASSERT_TRUE(r.hw.tx_init(r.tx_cfg())); /* recover first (error cleared) */
	ASSERT_TRUE(r.hw.tx_disable());
	r.hw.ring_doorbell(1);
	r.db_rung++;
	ASSERT_TRUE(r.settle());
	qe = of_type(r.take_events(), EqeType::qp_err);
	ASSERT_EQ(qe.size(), 1u);
	EXPECT_EQ(qe[0].d2, uint32_t(QpErrSyndrome::req_db_qp_not_valid));
}

TEST_P(Emu, UndersizeAndTooLongFramesAreCountedAndDropped)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	rig[0]->set_frm_length(2000);
	rig[1]->set_frm_length(1000);
	/* 40 B leaves port 0 unpadded (H6-3399) and is undersize at port 1; 1200 B is too long
	 * for port 1's FRM_LENGTH. */
	/* Boundaries: 59 + FCS = 63 is undersize, 60 is not; 996 + FCS = FRM_LENGTH passes. */
	send(0, {40, 59, 60, 1200, 997, 996});
	auto c = rig[1]->take_cqes();
	ASSERT_EQ(c.size(), 2u);
	EXPECT_EQ(c[0].size, 60u);
	EXPECT_EQ(c[1].size, 996u);
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 6u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_undersize_pkts), 2u);
	EXPECT_EQ(rx(1, RxStat::frame_too_long_errors), 2u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_oversize_pkts), 2u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 2u);
	EXPECT_EQ(dev->counters(1).wire_rx_frames, 6u);
}

/* The MAC counters by class and size, on both MACs of the cable: every RMON bucket boundary
 * (frame length with FCS), 802.1Q tagged frames, multicast apart from broadcast, and a second
 * batch adding to the first. */
TEST_P(Emu, MacCountersByClassAndRmonBoundary)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	rig[0]->set_frm_length(2000);
	rig[1]->set_frm_length(2000);
	/* With FCS: 64 | 65 127 | 128 255 | 256 511 | 512 1023 | 1024 1518 | 1519. */
	const std::vector<uint32_t> sizes = {60,  61,  123,  124,  251,	 252,
					     507, 508, 1019, 1020, 1514, 1515};
	const uint64_t want[7] = {1, 2, 2, 2, 2, 2, 1};
	const uint8_t mcast[6] = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01};
	for (unsigned round = 1; round <= 2; round++) {
		send(0, sizes);
		/* Three tagged frames (TPID 0x8100): one unicast, one multicast, one broadcast. */
		PortRig &r = *rig[0];
		const uint8_t *dsts[3] = {kPort1Mac, mcast, kBcast};
		for (unsigned i = 0; i < 3; i++) {
			uint32_t b = r.tx_pi;
			make_frame(r.txbuf(b), 100, dsts[i], b);
			r.txbuf(b)[12] = 0x81;
			r.txbuf(b)[13] = 0x00;
			r.post(b, 100, i == 2);
		}
		r.ring();
		ASSERT_TRUE(r.settle());
		EXPECT_EQ(rig[1]->take_cqes().size(), sizes.size() + 3);
		const uint64_t n = sizes.size() + 3;
		for (unsigned b = 0; b < 7; b++) {
			uint64_t w = round * (want[b] + (b == 1 ? 3 : 0)); /* 104 B with FCS */
			EXPECT_EQ(rx(1, RxStat(size_t(RxStat::ether_stats_pkts_64) + b)), w) << b;
			EXPECT_EQ(tx(0, TxStat(size_t(TxStat::ether_stats_pkts_64) + b)), w) << b;
		}
		EXPECT_EQ(rx(1, RxStat::frames_received_ok), round * n);
		EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), round * n);
		EXPECT_EQ(rx(1, RxStat::if_in_ucast_pkts), round * (sizes.size() + 1));
		EXPECT_EQ(tx(0, TxStat::if_out_ucast_pkts), round * (sizes.size() + 1));
		EXPECT_EQ(rx(1, RxStat::if_in_multicast_pkts), round);
		EXPECT_EQ(tx(0, TxStat::if_out_multicast_pkts), round);
		EXPECT_EQ(rx(1, RxStat::if_in_broadcast_pkts), round);
		EXPECT_EQ(tx(0, TxStat::if_out_broadcast_pkts), round);
		EXPECT_EQ(rx(1, RxStat::vlan_received_ok), round * 3);
		EXPECT_EQ(tx(0, TxStat::vlan_transmitted_ok), round * 3);
	}
}

TEST_P(Emu, MacFilter)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up(/*promisc=*/false);
	const uint8_t other[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 0x07};
	const uint8_t mcast[6] = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01};
	send(0, {100}, kPort1Mac);
	send(0, {101}, other);
	send(0, {102}, kBcast);
	send(0, {103}, mcast);
	auto c = rig[1]->take_cqes();
	ASSERT_EQ(c.size(), 2u);
	EXPECT_EQ(c[0].size, 100u);
	EXPECT_EQ(c[1].size, 102u);
	/* The MAC counts every good frame; the RXB filter drops after counting. */
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 4u);
	EXPECT_EQ(rx(1, RxStat::if_in_ucast_pkts), 2u);
	EXPECT_EQ(rx(1, RxStat::if_in_broadcast_pkts), 1u);
	EXPECT_EQ(rx(1, RxStat::if_in_multicast_pkts), 1u);
	EXPECT_EQ(rx(1, RxStat::if_in_errors), 0u);

	/* The one RXB raw filter opened (mask all ones): every destination passes. */
	rig[1]->hw.set_rxb_accept_all(true);
	send(0, {104}, mcast);
	send(0, {105}, other);
	rig[1]->hw.set_rxb_accept_all(false);
	send(0, {106}, other);
	c = rig[1]->take_cqes();
	ASSERT_EQ(c.size(), 2u);
	EXPECT_EQ(c[0].size, 104u);
	EXPECT_EQ(c[1].size, 105u);
	EXPECT_EQ(rx(1, RxStat::if_in_multicast_pkts), 2u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 7u);
	EXPECT_EQ(dev->counters(1).wire_rx_frames, 7u);
}

TEST_P(Emu, LoopbackWireAndUnpairedPort)
{
	make(1, Wire::loopback);
	rig[0]->bring_up();
	uint8_t mac0[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 0x00};
	send(0, {123}, mac0);
	auto c = rig[0]->take_cqes();
	ASSERT_EQ(c.size(), 1u);
	EXPECT_EQ(c[0].size, 123u);
	EXPECT_EQ(std::memcmp(rig[0]->slot(0), rig[0]->txbuf(0), 123), 0);
	EXPECT_TRUE(rig[0]->hw.link_up());
}

TEST_P(Emu, UnpairedLastPortDropsAndHasNoLink)
{
	make(3, Wire::pair);
	for (auto &r : rig)
		r->bring_up();
	EXPECT_TRUE(rig[0]->hw.link_up());
	EXPECT_FALSE(rig[2]->hw.link_up());
	/* No carrier: the frame is consumed and dropped by the MAC, counted as an error. */
	send(2, {100}, kBcast);
	EXPECT_EQ(dev->counters(2).wire_tx_frames, 0u);
	EXPECT_EQ(tx(2, TxStat::if_out_errors), 1u);
	EXPECT_EQ(tx(2, TxStat::frames_transmitted_ok), 0u);
	for (auto &r : rig)
		EXPECT_TRUE(r->take_cqes().empty());
}

TEST_P(Emu, PcsLoopbackKeepsFramesOffTheWire)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	rig[0]->hw.set_loopback(true);
	send(0, {150}, kBcast);
	EXPECT_EQ(rig[0]->take_cqes().size(), 1u);
	EXPECT_TRUE(rig[1]->take_cqes().empty());
	EXPECT_EQ(dev->counters(1).wire_rx_frames, 0u);
	rig[0]->hw.set_loopback(false);
	send(0, {151}, kBcast);
	EXPECT_TRUE(rig[0]->take_cqes().empty());
	EXPECT_EQ(rig[1]->take_cqes().size(), 1u);
}

/* [wire delay] A frame spends the wire's delay on the line: it is not at the far MAC before the
 * delay has passed, it is there after, in order and byte for byte. A full line drops and
 * counts what does not fit; the sending MAC counts every frame it sent. */
TEST_P(Emu, WireDelayHoldsFramesUntilDue)
{
	constexpr uint32_t kDelayUs = 200000;
	Config c;
	c.nports = 2;
	c.wire = Wire::pair;
	c.engine = GetParam();
	c.wire_delay_us = kDelayUs;
	c.wire_delay_frames = 4;
	make(c);
	rig[0]->bring_up();
	rig[1]->bring_up();
	uint64_t t0 = rte_get_tsc_cycles();
	send(0, {100, 101, 102, 103, 104, 105}); /* the line holds 4: 2 are dropped */
	dev->bar().service();			 /* inline engine: a driver's poll */
	std::vector<Cqe> early = rig[1]->take_cqes();
	uint64_t in_flight = dev->counters(0).wire_delay_in_flight;
	uint64_t wire_rx = dev->counters(1).wire_rx_frames;
	double waited_us = double(rte_get_tsc_cycles() - t0) * 1e6 / double(rte_get_tsc_hz());
	/* Deterministic: only a look taken before the frames were due says they are held. */
	if (waited_us < kDelayUs) {
		EXPECT_TRUE(early.empty());
		EXPECT_EQ(wire_rx, 0u);
		EXPECT_EQ(in_flight, 4u);
	}
	EXPECT_EQ(dev->counters(0).wire_delay_drops, 2u);
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 6u);
	EXPECT_EQ(dev->counters(0).wire_tx_frames, 6u);

	std::this_thread::sleep_for(std::chrono::microseconds(kDelayUs + 50000));
	std::vector<Cqe> got = early;
	ASSERT_TRUE(wait_until([&] {
		dev->bar().service();
		for (const Cqe &e : rig[1]->take_cqes())
			got.push_back(e);
		return got.size() >= 4;
	}));
	double arrived_us = double(rte_get_tsc_cycles() - t0) * 1e6 / double(rte_get_tsc_hz());
	EXPECT_GE(arrived_us, kDelayUs);
	ASSERT_EQ(got.size(), 4u);
	for (uint32_t i = 0; i < 4; i++) {
		EXPECT_EQ(got[i].size, 100 + i) << i;
		EXPECT_EQ(std::memcmp(rig[1]->slot(i), rig[0]->txbuf(i), 100 + i), 0) << i;
	}
	EXPECT_EQ(dev->counters(1).wire_rx_frames, 4u);
	EXPECT_EQ(dev->counters(0).wire_delay_in_flight, 0u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 4u);

	/* The line keeps no state once empty: the next frame also waits, then arrives. */
	uint64_t t1 = rte_get_tsc_cycles();
	send(0, {300});
	dev->bar().service();
	early = rig[1]->take_cqes();
	if (double(rte_get_tsc_cycles() - t1) * 1e6 / double(rte_get_tsc_hz()) < kDelayUs) {
		EXPECT_TRUE(early.empty());
	}
	got = early;
	std::this_thread::sleep_for(std::chrono::microseconds(kDelayUs));
	ASSERT_TRUE(wait_until([&] {
		dev->bar().service();
		for (const Cqe &e : rig[1]->take_cqes())
			got.push_back(e);
		return !got.empty();
	}));
	ASSERT_EQ(got.size(), 1u);
	EXPECT_EQ(got[0].size, 300u);
}

/* [wire delay] Only the model's own cables have a delay line. */
TEST(EmuDevice, WireDelayNeedsLoopbackOrPair)
{
	Config c;
	c.nports = 1;
	c.wire = Wire::pcap;
	c.wire_delay_us = 10;
	std::string err;
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_EQ(err, "wire_delay_us needs wire=loopback or pair");
}

/* [rx rate limit] A port limited to 1 frame/s with a bucket of 3 takes 3 of 6 frames sent at
 * once (the next token is a second away), drops the rest after its MAC counted them (drop
 * events, which the PMD reports as imissed) and counts them apart; its peer takes all. */
TEST_P(Emu, RxRateLimitDropsAboveTheBucket)
{
	Config c;
	c.nports = 2;
	c.wire = Wire::pair;
	c.engine = GetParam();
	c.rx_rate_limit[1] = 1;
	c.rx_rate_burst[1] = 3;
	make(c);
	rig[0]->bring_up();
	rig[1]->bring_up();
	send(0, {100, 101, 102, 103, 104, 105});
	send(1, {200, 201, 202, 203, 204, 205});
	std::vector<Cqe> got1, got0;
	ASSERT_TRUE(wait_until([&] {
		dev->bar().service();
		for (const Cqe &e : rig[1]->take_cqes())
			got1.push_back(e);
		for (const Cqe &e : rig[0]->take_cqes())
			got0.push_back(e);
		return got1.size() >= 3 && got0.size() >= 6 && dev->counters(1).rx_rate_drops >= 3;
	}));
	ASSERT_EQ(got1.size(), 3u);
	for (uint32_t i = 0; i < 3; i++)
		EXPECT_EQ(got1[i].size, 100 + i) << i;
	EXPECT_EQ(got0.size(), 6u);
	EXPECT_EQ(dev->counters(1).rx_rate_drops, 3u);
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 3u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 6u);
	EXPECT_EQ(dev->counters(0).rx_rate_drops, 0u);
	EXPECT_EQ(rx(0, RxStat::ether_stats_drop_events), 0u);
}

/* [rx rate limit] Only the model's own cables have it. */
TEST(EmuDevice, RxRateLimitNeedsLoopbackOrPair)
{
	Config c;
	c.nports = 1;
	c.wire = Wire::pcap;
	c.rx_rate_limit[0] = 1000;
	std::string err;
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_EQ(err, "rx_rate_limit needs wire=loopback or pair");
}

TEST_P(Emu, LinkStatusBitsAndEvents)
{
	make(3, Wire::pair);
	PortRig &r = *rig[0];
	EXPECT_FALSE(r.hw.link_up());
	/* Power-up leaves the MACs enabled (RX on): quiesce as a driver does. Link events of
	 * both ports of a macro arrive on the odd port's EQ (hbl_cn SW-42306): port 1's. */
	for (auto &p : rig)
		p->hw.quiesce();
	PortRig &ev = *rig[1];
	ev.hw.eq_init({ev.iova(PortRig::kEq), kEqLog2, ev.iova(PortRig::kEqPi)});
	r.hw.eq_init({r.iova(PortRig::kEq), kEqLog2, r.iova(PortRig::kEqPi)});
	r.hw.mac_config(true);
	/* A pair link needs both ends' MACs enabled. */
	EXPECT_FALSE(r.hw.link_up());
	EXPECT_TRUE(of_type(r.take_events(), EqeType::link_status).empty());
	/* Port 1 shares the macro's REC_STS0: its bit is separate. */
	EXPECT_FALSE(rig[1]->hw.link_up());
	rig[1]->hw.mac_config(true);
	EXPECT_TRUE(rig[1]->hw.link_up());
	EXPECT_TRUE(r.hw.link_up());
	const uint32_t pcs_link = hw::reg::MAC_PCS_STATUS1_PCS_RECEIVE_LINK.mask();
	EXPECT_TRUE(reg(hw::reg::mac_pcs(0, 0) + hw::reg::MAC_PCS_STATUS1) & pcs_link);
	/* MAC_REC_STS0.REC_LINK_STS: lanes 0-1 (port 0) and 2-3 (port 1) of the macro. */
	EXPECT_EQ(hw::reg::MAC_CORE_MAC_REC_STS0_REC_LINK_STS.get(
			  reg(hw::reg::mac_core(0) + hw::reg::MAC_CORE_MAC_REC_STS0)),
		  0xFu);
	/* Both ends came up: two events, both on port 1's EQ, none on port 0's; the status is
	 * the macro's REC_LINK_STS, a bit per lane (port 1's lanes 2-3 first). */
	auto ls = of_type(ev.take_events(), EqeType::link_status);
	ASSERT_EQ(ls.size(), 2u);
	EXPECT_EQ(ls[0].d2, 0xCu);
	EXPECT_EQ(ls[1].d2, 0xFu);
	EXPECT_TRUE(of_type(r.take_events(), EqeType::link_status).empty());
	/* RS-FEC on one end only: no lock on either end (power-up has it on: FEC91_CFG). */
	r.hw.set_rs_fec(false);
	EXPECT_FALSE(r.hw.link_up());
	EXPECT_FALSE(rig[1]->hw.link_up());
	rig[1]->hw.set_rs_fec(false);
	EXPECT_TRUE(r.hw.link_up());
	EXPECT_TRUE(rig[1]->hw.link_up());
	ls = of_type(ev.take_events(), EqeType::link_status);
	ASSERT_EQ(ls.size(), 4u); /* down and up, each end */
	/* Same state again: no event. */
	r.hw.set_rxb_accept_all(false);
	EXPECT_TRUE(ev.take_events().empty());
	r.hw.mac_config(false);
	EXPECT_FALSE(r.hw.link_up());
	EXPECT_FALSE(reg(hw::reg::mac_pcs(0, 0) + hw::reg::MAC_PCS_STATUS1) & pcs_link);
	ls = of_type(ev.take_events(), EqeType::link_status);
	ASSERT_EQ(ls.size(), 2u);
	EXPECT_EQ(ls[0].d2, 0xCu); /* port 0 down first, then port 1 */
	EXPECT_EQ(ls[1].d2, 0u);
	EXPECT_TRUE(r.take_events().empty());
	EXPECT_FALSE(rig[1]->hw.link_up()); /* the far end loses the link too */
	/* Unpaired port 2: no cable, but PCS loopback brings the link up. */
	rig[2]->hw.mac_config(true);
	EXPECT_FALSE(rig[2]->hw.link_up());
	rig[2]->hw.set_loopback(true);
	EXPECT_TRUE(rig[2]->hw.link_up());
}

TEST_P(Emu, CqArmFiresOnceWhenPiPassesIndex)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	rig[1]->hw.arm_cq(2);
	send(0, {100, 100});
	EXPECT_TRUE(of_type(rig[1]->take_events(), EqeType::comp).empty()); /* PI 2, not > 2 */
	send(0, {100, 100});
	auto cp = of_type(rig[1]->take_events(), EqeType::comp);
	ASSERT_EQ(cp.size(), 1u);
	EXPECT_EQ(cp[0].d1, hw::kRawCq);
	EXPECT_EQ(cp[0].d2, 3u);
	send(0, {100});
	EXPECT_TRUE(of_type(rig[1]->take_events(), EqeType::comp).empty()); /* disarmed */
	rig[1]->hw.arm_cq(1); /* PI 5 > 1 already: fires at once */
	EXPECT_EQ(of_type(rig[1]->take_events(), EqeType::comp).size(), 1u);
}

TEST_P(Emu, EventQueueOverrun)
{
	make();
	rig[0]->bring_up(true, 2); /* 4-entry EQ */
	rig[1]->bring_up();
	rig[0]->take_events(2); /* the link events of both ports' bring-up */
	uint32_t pi0 = reg(hw::reg::qpc(0) + hw::reg::QPC_EVENT_QUE_PRODUCER_INDEX);
	std::vector<uint32_t> six(6, 100);
	PortRig &r = *rig[0];
	for (uint32_t i = 0; i < 6; i++) {
		make_frame(r.txbuf(i), 100, kPort1Mac, i);
		r.post(i, 100, true);
	}
	r.ring();
	ASSERT_TRUE(r.settle());
	EXPECT_EQ(dev->counters(0).eq_lost, 2u);
	auto ev = r.take_events(2);
	ASSERT_EQ(ev.size(), 4u);
	EXPECT_EQ(ev[3].d2, 3u);
	EXPECT_EQ(reg(hw::reg::qpc(0) + hw::reg::QPC_EVENT_QUE_PRODUCER_INDEX), pi0 + 4);
}

TEST_P(Emu, MacTxDisabledConsumesAndDrops)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	rig[0]->hw.mac_config(false);
	send(0, {100, 100});
	EXPECT_TRUE(rig[1]->take_cqes().empty());
	EXPECT_EQ(tx(0, TxStat::if_out_errors), 2u);
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 0u);
	auto tc = of_type(rig[0]->take_events(), EqeType::raw_tx_comp);
	ASSERT_EQ(tc.size(), 1u);
	EXPECT_EQ(tc[0].d2, 1u);
}

TEST_P(Emu, RxDisabledAndRxDmaFault)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	rig[1]->hw.rx_disable();
	send(0, {100});
	EXPECT_EQ(rx(1, RxStat::ether_stats_drop_events), 1u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 1u);
	/* Slot ring programmed outside DPDK memory: DMA fault, QP_ERR class 0. */
	hw::RxRingCfg bad = rig[1]->rx_cfg();
	bad.slots_iova = 0x1000;
	ASSERT_TRUE(rig[1]->hw.rx_init(bad));
	rig[1]->take_events();
	send(0, {100});
	EXPECT_EQ(rx(1, RxStat::if_in_errors), 1u);
	auto qe = of_type(rig[1]->take_events(), EqeType::qp_err);
	ASSERT_EQ(qe.size(), 1u);
	EXPECT_EQ(qe[0].d1, hw::kRawQpn);
	EXPECT_EQ(qe[0].d2, 0x01u);
	EXPECT_TRUE(rig[1]->take_cqes().empty());
}

/* The per-macro and per-lane programming of hbl_cn gaudi2_cn.c, read back through the model:
 * gaudi2_cn_hw_macro_config (MAC core, RXB, TXB) at 100G, then a port open
 * (gaudi2_cn_hw_mac_port_config, set_pfc); 50G and 25G one argument away. */
TEST_P(Emu, MacroAndLaneProgrammingAsHblCn)
{
	namespace r = hw::reg;
	make();
	hw::Bar &bar = dev->bar();
	hw::macro::config(bar, 0, hw::Speed::g100);
	rig[0]->bring_up();
	rig[1]->bring_up();
	/* MAC core: RS-FEC with KP mode on the four lanes. */
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_FEC91_CFG), 0xFFu);
	/* RXB: the published credit and threshold pairs on all 8 entries. */
	const uint32_t rxb = r::rxb(0);
	for (unsigned i = 0; i < r::kRxbPrioRegs; i++) {
		EXPECT_EQ(reg(rxb + r::rxb_prio_reg(r::RXB_CORE_MAX_STATIC_CREDITS_0, i)),
			  0xB405A0u);
		EXPECT_EQ(reg(rxb + r::rxb_prio_reg(r::RXB_CORE_DROP_THRESHOLD_0, i)), 0xABC55Eu);
		EXPECT_EQ(reg(rxb + r::rxb_prio_reg(r::RXB_CORE_DROP_SMALL_THRESHOLD_0, i)),
			  0xB3A59Du);
		EXPECT_EQ(reg(rxb + r::rxb_prio_reg(r::RXB_CORE_DSCP2PRIO_0, i)), 0u);
	}
	/* XOFF / XON of the 4 entries set_flow owns hold the flow-control settings (this rig
	 * sets none); the other 4 keep the published 714 / 648 pairs. */
	EXPECT_EQ(reg(rxb + r::rxb_xoff_threshold(5)), 0x5942CAu);
	EXPECT_EQ(reg(rxb + r::rxb_xon_threshold(7)), 0x510288u);
	EXPECT_EQ(reg(rxb + r::RXB_CORE_ICRC_CFG), 0x2u);
	EXPECT_EQ(reg(rxb + r::RXB_CORE_MAC_PFC_MODE), 0x2u);
	/* TXB: not paused, the 100G TDM arbitration. */
	EXPECT_EQ(reg(r::txb(0) + r::TXB_GLOBAL_PAUSE), 0u);
	EXPECT_EQ(reg(r::txb(0) + r::TXB_TDM_PORT_ARB_MASK), 0xBBEEu);
	EXPECT_EQ(reg(r::txb(0) + r::TXB_ICRC_CFG), 0x2u);
	/* Quiesce masked the PHY link-up interrupt (H6-3339). */
	EXPECT_EQ(reg(r::phy(0) + r::PHY_PHY_LINK_STS_INTR), 0x1u);
	/* The lanes of both ports (port 1: MAC channels 2 and 3). */
	for (unsigned p = 0; p < 2; p++)
		for (unsigned l = 0; l < hw::kLanesPerPort; l++) {
			uint32_t ch = r::mac_128(p, l), pcs = r::mac_pcs(p, l);
			EXPECT_EQ(reg(pcs + r::MAC_PCS_CONTROL1) &
					  r::MAC_PCS_CONTROL1_FLD_RESET.mask(),
				  0u);
			EXPECT_EQ(reg(ch + r::MAC_128_FRM_LENGTH), 0x20C2u);
			EXPECT_EQ(reg(ch + r::MAC_128_COMMAND_CONFIG), 0x2913u);
			EXPECT_EQ(reg(ch + r::MAC_128_TX_FIFO_SECTIONS), 4u);
			EXPECT_EQ(reg(ch + r::MAC_128_RX_FIFO_SECTIONS), 4u);
			EXPECT_EQ(reg(ch + r::mac_pause_quanta(14)), 0xFFFFFFFFu);
			EXPECT_EQ(reg(ch + r::mac_quanta_thresh(14)), 0x7FFF7FFFu);
			EXPECT_EQ(reg(pcs + r::MAC_PCS_VENDOR_VL_INTVL), 0x3FFFu);
			EXPECT_EQ(reg(pcs + r::MAC_PCS_VENDOR_PCS_MODE), 0u);
			EXPECT_EQ(reg(pcs + r::pcs_vl(0, 0)), 0x68C1u);
			EXPECT_EQ(reg(pcs + r::pcs_vl(0, 1)), 0x21u);
			EXPECT_EQ(reg(pcs + r::pcs_vl(3, 0)), 0x954Du);
			EXPECT_EQ(reg(pcs + r::pcs_vl(4, 0)), 0x07F5u);
			EXPECT_EQ(reg(pcs + r::pcs_vl(19, 0)), 0xF0C0u);
			EXPECT_EQ(reg(pcs + r::pcs_vl(19, 1)), 0xE5u);
		}
	/* Frames pass with all of it. */
	send(0, {100});
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 1u);
	/* RS-FEC off and on again for port 1: its lanes' ENA and KP bits only. */
	rig[1]->hw.set_rs_fec(false);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_FEC91_CFG), 0x33u);
	rig[1]->hw.set_rs_fec(true);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_FEC91_CFG), 0xFFu);

	/* 50G: SerDes width, RS-FEC control of the 4 lanes, TDM mask, 4 markers. */
	hw::macro::config(bar, 0, hw::Speed::g50);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_SD_CFG), 0xF0FFF0u);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_FEC91_CFG), 0xFFu);
	for (unsigned l = 0; l < 4; l++)
		EXPECT_EQ(reg(r::mac_rs_fec(0) + r::rsfec_control(l)), 0x400u) << l;
	EXPECT_EQ(reg(r::txb(0) + r::TXB_TDM_PORT_ARB_MASK), 0x7BDEu);
	rig[0]->hw.set_speed(hw::Speed::g50);
	ASSERT_TRUE(rig[0]->hw.mac_config(true));
	EXPECT_EQ(reg(r::mac_pcs(0, 1) + r::MAC_PCS_VENDOR_VL_INTVL), 0x4FFFu);
	EXPECT_EQ(reg(r::mac_pcs(0, 1) + r::pcs_vl(0, 0)), 0x7690u);
	EXPECT_EQ(reg(r::mac_pcs(0, 1) + r::pcs_vl(0, 1)), 0x47u);
	EXPECT_EQ(reg(r::mac_pcs(0, 1) + r::pcs_vl(1, 0)), 0xC4F0u);
	/* 25G: one-lane RS-FEC without KP mode, clause-49 PCS. */
	hw::macro::config(bar, 0, hw::Speed::g25);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_SD_CFG), 0xF0FF00u);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_FEC91_CFG), 0x60Fu);
	EXPECT_EQ(reg(r::txb(0) + r::TXB_TDM_PORT_ARB_MASK), 0x7BDEu);
	rig[0]->hw.set_speed(hw::Speed::g25);
	ASSERT_TRUE(rig[0]->hw.mac_config(true));
	EXPECT_EQ(reg(r::mac_pcs(0, 0) + r::MAC_PCS_VENDOR_PCS_MODE), 0x5u);
	EXPECT_EQ(reg(r::mac_pcs(0, 0) + r::MAC_PCS_VENDOR_VL_INTVL), 0x4FFFu);
	EXPECT_EQ(reg(r::mac_pcs(0, 0) + r::pcs_vl(0, 0)), 0x68C1u);
	rig[0]->hw.set_rs_fec(false);
	EXPECT_EQ(reg(r::mac_core(0) + r::MAC_CORE_MAC_FEC91_CFG), 0x60Cu) << "no KP bits at 25G";

	/* Device close (gaudi2_cn_stop_traffic_macro): the RXB drops every frame first. */
	hw::nicmem::stop_traffic(bar, 0x3);
	for (unsigned i = 0; i < r::kRxbPrioRegs; i++) {
		EXPECT_EQ(reg(rxb + r::rxb_prio_reg(r::RXB_CORE_DROP_THRESHOLD_0, i)), 0u) << i;
		EXPECT_EQ(reg(rxb + r::rxb_prio_reg(r::RXB_CORE_DROP_SMALL_THRESHOLD_0, i)),
			  0xB3A59Du);
	}
}

TEST_P(Emu, StatsResetAndHighWordLatch)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	send(0, {100, 200});
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 2u);
	EXPECT_EQ(reg(hw::reg::mac_stat(0) + hw::reg::MAC_GLOB_STAT_CONTROL_DATA_HI), 0u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 2u);
	/* STATN_CONFIG.F_RESET, as hbl_cn: the macro's counter sets, both ports'. */
	rig[0]->hw.stats_reset();
	EXPECT_EQ(reg(hw::reg::mac_stat(0) + hw::reg::MAC_GLOB_STAT_CONTROL_STATN_CONFIG), 0u);
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 0u);
	EXPECT_EQ(tx(0, TxStat::ether_stats_octets), 0u);
	EXPECT_EQ(rx(1, RxStat::frames_received_ok), 0u);
}

/* [multi-process] A secondary's read-only view of the model's memzone: the same registers
 * and live MAC counters as the model's own Bar, writes dropped, gone with the model. */
TEST_P(Emu, SharedViewReadsRegistersAndCountersReadOnly)
{
	Config c;
	c.nports = 2;
	c.engine = GetParam();
	c.shm_name = "gaudi_emu_test_view";
	make(c);
	std::string err;
	EXPECT_EQ(emu::SharedView::attach("gaudi_emu_no_such", &err), nullptr);
	EXPECT_FALSE(err.empty());
	auto view = emu::SharedView::attach(c.shm_name, &err);
	ASSERT_NE(view, nullptr) << err;
	EXPECT_EQ(view->nports(), 2u);
	rig[0]->bring_up();
	rig[1]->bring_up();
	send(0, {100, 200, 1514});
	hw::Port v0(&view->bar(), 0), v1(&view->bar(), 1);
	EXPECT_EQ(v0.tx_stat(TxStat::frames_transmitted_ok), 3u);
	EXPECT_EQ(v0.tx_stat(TxStat::ether_stats_octets), tx(0, TxStat::ether_stats_octets));
	EXPECT_EQ(v1.rx_stat(RxStat::frames_received_ok), 3u);
	EXPECT_EQ(v1.rx_stat(RxStat::ether_stats_pkts_1024_to_1518), 1u);
	EXPECT_EQ(v0.link_up(), rig[0]->hw.link_up());
	EXPECT_TRUE(v1.link_up());
	/* Writes through the view change nothing: no stats reset, no MAC disable. */
	uint32_t cmd = reg(hw::reg::mac_128(0, 0) + hw::reg::MAC_128_COMMAND_CONFIG);
	v0.stats_reset();
	v0.set_mac_enable(false);
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 3u);
	EXPECT_EQ(reg(hw::reg::mac_128(0, 0) + hw::reg::MAC_128_COMMAND_CONFIG), cmd);
	EXPECT_TRUE(rig[0]->hw.link_up());
	/* The model's reset is seen live. */
	rig[0]->hw.stats_reset();
	EXPECT_EQ(v0.tx_stat(TxStat::frames_transmitted_ok), 0u);
	view.reset();
	rig.clear();
	dev.reset();
	EXPECT_EQ(emu::SharedView::attach(c.shm_name, &err), nullptr); /* memzone freed */
}

TEST_P(Emu, PcapRxPacedInOrderAndTxWritten)
{
	std::string dir = tmp_dir();
	std::string in = dir + "/in_" + engine_name({GetParam(), 0}) + ".pcap";
	std::string out = dir + "/out_" + engine_name({GetParam(), 0}) + ".pcap";
	std::vector<PcapRec> recs;
	for (uint32_t i = 0; i < 70; i++) {
		std::vector<uint8_t> f(100 + i);
		make_frame(f.data(), uint32_t(f.size()), kBcast, i);
		uint32_t wire = uint32_t(f.size());
		if (i == 3)
			f.resize(80); /* truncated record: caplen 80 of 103 */
		recs.push_back({f, wire});
	}
	write_pcap(in, recs);

	Config c;
	c.nports = 1;
	c.wire = Wire::pcap;
	c.engine = GetParam();
	c.rx_pcap[0] = in;
	c.tx_pcap[0] = out;
	make(c);
	EXPECT_EQ(dev->counters(0).rx_pcap_remaining, 70u);
	PortRig &r = *rig[0];
	r.bring_up();
	EXPECT_TRUE(r.hw.link_up());
	dev->bar().service(); /* inline: the driver polls an empty ring */
	ASSERT_TRUE(wait_until([&] { return load(r.cq_pi()) == 64; }));
	EXPECT_EQ(dev->counters(0).rx_pcap_remaining, 6u); /* paced: waits for CQ room */
	auto cq = r.take_cqes(false);
	ASSERT_EQ(cq.size(), 64u);
	for (uint32_t i = 0; i < 64; i++) {
		EXPECT_EQ(cq[i].size, i == 3 ? 80u : 100u + i) << i;
		uint32_t seq;
		std::memcpy(&seq, r.slot(cq[i].wqe_index) + 14, 4);
		EXPECT_EQ(seq, i);
	}
	EXPECT_EQ(rx(0, RxStat::ether_stats_drop_events), 0u);
	r.hw.rx_write_ci(r.cq_ci);
	ASSERT_TRUE(wait_until([&] { return dev->counters(0).rx_pcap_remaining == 0; }));
	ASSERT_TRUE(wait_until([&] { return load(r.cq_pi()) == 70; }));
	cq = r.take_cqes();
	ASSERT_EQ(cq.size(), 6u);
	EXPECT_EQ(cq[5].size, 169u);
	EXPECT_EQ(rx(0, RxStat::frames_received_ok), 70u);
	EXPECT_EQ(rx(0, RxStat::ether_stats_drop_events), 0u);

	/* TX goes to the tx pcap, byte for byte. */
	send(0, {60, 300, 1514}, kBcast);
	EXPECT_EQ(dev->counters(0).wire_tx_frames, 3u);
	dev->flush();
	auto got = read_pcap(out);
	ASSERT_EQ(got.size(), 3u);
	EXPECT_EQ(got[0].size(), 60u);
	EXPECT_EQ(got[2].size(), 1514u);
	EXPECT_EQ(std::memcmp(got[1].data(), r.txbuf(1), 300), 0);
	rig.clear();
	dev.reset();
	std::filesystem::remove(in);
	std::filesystem::remove(out);
}

TEST_P(Emu, PcapCreateErrors)
{
	std::string dir = tmp_dir();
	std::string raw = dir + "/raw_ip.pcap";
	write_pcap(raw, {{std::vector<uint8_t>(40, 0x45), 40}}, DLT_RAW);
	std::string err;
	Config c;
	c.nports = 1;
	c.wire = Wire::pcap;
	c.engine = GetParam();
	c.rx_pcap[0] = raw;
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_NE(err.find(raw), std::string::npos) << err;
	c.rx_pcap[0] = dir + "/does_not_exist.pcap";
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_NE(err.find("does_not_exist.pcap"), std::string::npos) << err;
	c.rx_pcap[0].clear();
	c.tx_pcap[0] = dir + "/no/such/dir/out.pcap";
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_NE(err.find("out.pcap"), std::string::npos) << err;
	std::filesystem::remove(raw);
}

TEST_P(Emu, TwoThreadsForwardConcurrently)
{
	/* Both ports transmit from their own threads at once (testpmd with 2 cores). */
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	uint8_t mac0[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 0x00};
	auto worker = [&](unsigned p, const uint8_t *dst) {
		PortRig &r = *rig[p];
		for (int b = 0; b < 200; b++) {
			for (int i = 0; i < 16; i++) {
				make_frame(r.txbuf(r.tx_pi), 64, dst, r.tx_pi);
				r.post(r.tx_pi, 64, false);
			}
			r.ring();
			if (!r.settle())
				return;
		}
	};
	/* Receivers keep their CQ drained while the senders run. */
	std::atomic<bool> done{false};
	std::atomic<uint32_t> got[2] = {0, 0};
	auto drain = [&](unsigned p) {
		while (!done.load()) {
			got[p] += uint32_t(rig[p]->take_cqes().size());
			std::this_thread::yield();
		}
		got[p] += uint32_t(rig[p]->take_cqes().size());
	};
	std::thread d0(drain, 0), d1(drain, 1);
	std::thread t0(worker, 0, kPort1Mac), t1(worker, 1, mac0);
	t0.join();
	t1.join();
	done = true;
	d0.join();
	d1.join();
	EXPECT_EQ(rig[0]->db_outstanding(), 0u);
	EXPECT_EQ(load(rig[1]->db_ci()), 199u % 64); /* 200 doorbells after the wrap to 63 */
	EXPECT_EQ(tx(0, TxStat::frames_transmitted_ok), 3200u);
	EXPECT_EQ(tx(1, TxStat::frames_transmitted_ok), 3200u);
	/* Received + dropped (CQ full while the drainer lagged) = sent. */
	EXPECT_EQ(got[1] + rx(1, RxStat::ether_stats_drop_events), 3200u);
	EXPECT_EQ(got[0] + rx(0, RxStat::ether_stats_drop_events), 3200u);
}

/* Not a pass/fail test: prints the model's 64 B rate through the inline engine
 * (run with --gtest_also_run_disabled_tests --gtest_filter=*Throughput*). */
TEST_P(Emu, DISABLED_Throughput64B)
{
	make();
	rig[0]->bring_up();
	rig[1]->bring_up();
	PortRig &s = *rig[0], &d = *rig[1];
	for (uint32_t i = 0; i < kTxBufs; i++)
		make_frame(s.txbuf(i), 60, kPort1Mac, i);
	constexpr uint32_t kBurst = 32, kIters = 200000;
	uint64_t got = 0;
	auto t0 = std::chrono::steady_clock::now();
	for (uint32_t it = 0; it < kIters; it++) {
		for (uint32_t i = 0; i < kBurst; i++)
			s.post(s.tx_pi, 60, i == kBurst - 1);
		s.ring();
		/* Thread engine: keep at most 4 bursts (128 of 256 WQEs) in flight. */
		while (thread() && s.db_outstanding() > 4)
			std::this_thread::yield();
		got += d.take_cqes().size();
		if ((it & 63) == 0)
			s.take_events();
	}
	double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	printf("%s: %.2f Mpps (%lu of %u frames received)\n", thread() ? "thread" : "inline",
	       got / sec / 1e6, got, kIters * kBurst);
	EXPECT_GT(got, 0u);
}

INSTANTIATE_TEST_SUITE_P(Engines, Emu, ::testing::Values(Engine::inline_run, Engine::thread),
			 engine_name);

/* ---- Engine-independent ---- */

/* The model knows the published map: with strict mode off, a driver access outside it or a
 * write to a register only the hardware writes is counted and has no effect (strict mode, the
 * default, stops the process instead). */
TEST(EmuDevice, PublishedMapViolationsAreCountedAndIgnored)
{
	std::string err;
	Config c;
	c.nports = 2;
	c.strict = false;
	auto d = Device::create(c, &err);
	ASSERT_NE(d, nullptr) << err;
	EXPECT_EQ(d->map_violations(), 0u);
	/* The first word of port 1's QPC block that no header defines. */
	uint32_t unmapped = hw::reg::qpc(1);
	while (hw::regmap::find(unmapped) != nullptr)
		unmapped += 4;
	d->bar().wr32(unmapped, 0x1234);
	EXPECT_EQ(d->map_violations(), 1u);
	EXPECT_EQ(d->bar().rd32(unmapped), 0u);
	EXPECT_EQ(d->map_violations(), 2u);
	/* PCS STATUS1 is the hardware's: a write is refused, the link bit stays as it was. */
	const uint32_t sts = hw::reg::mac_pcs(0, 0) + hw::reg::MAC_PCS_STATUS1;
	uint32_t before = d->bar().rd32(sts);
	d->bar().wr32(sts, ~before);
	EXPECT_EQ(d->map_violations(), 3u);
	EXPECT_EQ(d->bar().rd32(sts), before);
	/* Registers of the map, every port and lane, count nothing. */
	hw::Port p(&d->bar(), 1);
	p.quiesce();
	p.set_loopback(true);
	(void)p.rx_stat(RxStat::frames_received_ok);
	p.stats_reset();
	EXPECT_EQ(d->map_violations(), 3u);
}

/* The model holds the whole published map (base/gaudi_regmap_published.h, generated from the
 * public asic_reg headers): in strict mode every published register of every macro is accepted;
 * one the model gives no behaviour is stored and read back, and counted; the model knows no
 * register the headers do not define; an offset no header defines is refused. */
TEST(EmuDevice, PublishedMapIsAcceptedAndTheRestRefused)
{
	namespace regmap = hw::regmap;
	std::string err;
	Config c;
	c.nports = 24;
	auto d = Device::create(c, &err);
	ASSERT_NE(d, nullptr) << err;
	EXPECT_EQ(d->model_only_registers(), 0u);
	ASSERT_GT(regmap::kRegs.size(), 7000u);
	uint64_t stored = 0;
	for (unsigned m = 0; m < hw::kMacros; m++)
		for (const regmap::PublishedReg &r : regmap::kRegs) {
			const uint32_t off =
				m * hw::kMacroStride + r.cfg_addr - hw::reg::kNic0CfgBase;
			const uint64_t before = d->unmodeled_accesses();
			const uint32_t v = d->bar().rd32(off);
			if (d->unmodeled_accesses() == before)
				continue; /* modelled: its behaviour is tested elsewhere */
			const uint32_t pattern = ~v ^ off;
			d->bar().wr32(off, pattern);
			ASSERT_EQ(d->bar().rd32(off), pattern) << r.name << " of macro " << m;
			stored++;
		}
	EXPECT_GT(stored, 5000u * hw::kMacros);
	EXPECT_EQ(d->map_violations(), 0u);

	/* Unpublished words inside published blocks: refused (counted with strict off). */
	Config c2;
	c2.nports = 2;
	c2.strict = false;
	auto d2 = Device::create(c2, &err);
	ASSERT_NE(d2, nullptr) << err;
	unsigned refused = 0;
	for (const regmap::PublishedBlock &b : regmap::kBlocks) {
		for (uint32_t a = b.base; a < b.end && refused < 64; a += 4) {
			const uint32_t off = a - hw::reg::kNic0CfgBase;
			if (regmap::find(off) != nullptr)
				continue;
			const uint64_t before = d2->map_violations();
			d2->bar().wr32(off, 0x5A5A5A5A);
			EXPECT_EQ(d2->map_violations(), before + 1) << "0x" << std::hex << a;
			EXPECT_EQ(d2->bar().rd32(off), 0u) << "0x" << std::hex << a;
			refused++;
			break; /* one gap per block */
		}
	}
	EXPECT_GT(refused, 10u);
}

/* A value the public driver never writes to a register traffic depends on is stored, as
 * silicon would, and reported (counted; logged once per register). */
TEST(EmuDevice, UnpublishedValuesOfTrafficRegistersAreReported)
{
	namespace hr = hw::reg;
	std::string err;
	Config c;
	c.nports = 2;
	auto d = Device::create(c, &err);
	ASSERT_NE(d, nullptr) << err;
	auto wr = [&](uint32_t off, uint32_t v) { d->bar().wr32(off, v); };
	const uint32_t dscp = hr::txe(1) + hr::TXE_PRIO_TO_DSCP_0;
	wr(dscp, 0x18100000); /* gaudi2_cn.c config_port_hw_txe */
	EXPECT_EQ(d->unpublished_values(), 0u);
	wr(dscp, 0); /* what this driver wrote before issue 21 */
	EXPECT_EQ(d->unpublished_values(), 1u);
	EXPECT_EQ(d->bar().rd32(dscp), 0u) << "stored all the same";
	wr(hr::txb(0) + hr::TXB_TDM_PORT_ARB_MASK, 0xBBEE);
	wr(hr::txb(0) + hr::TXB_TDM_PORT_ARB_MASK, 0x7BDE);
	EXPECT_EQ(d->unpublished_values(), 1u);
	wr(hr::txb(0) + hr::TXB_TDM_PORT_ARB_MASK, 0);
	wr(hr::qpc_axuser(1, hr::QPC_AXUSER_DB_FIFO_BASE) + hr::QPC_AXUSER_DB_FIFO_HB_WR_OVRD_LO,
	   0);
	wr(hr::txb(0) + hr::TXB_GLOBAL_PAUSE, 1);
	EXPECT_EQ(d->unpublished_values(), 4u);
	/* Registers outside the rules take any value. */
	wr(hr::txe(1) + hr::TXE_LOG_MAX_WQ_SIZE_0, 3);
	EXPECT_EQ(d->unpublished_values(), 4u);
}

/* Power-up is what habanalabs finds: interrupts enabled and unmasked, the event queue and RX
 * on, and the boot firmware's TXE raw size checkers (187..8320). */
TEST(EmuDevice, PowerUpStateIsPublished)
{
	std::string err;
	Config c;
	c.nports = 2;
	auto d = Device::create(c, &err);
	ASSERT_NE(d, nullptr) << err;
	namespace reg = hw::reg;
	auto rd = [&](uint32_t off) { return d->bar().rd32(off); };
	EXPECT_NE(rd(reg::qpc(1) + reg::QPC_INTERRUPT_EN) & reg::intr_msi_en(reg::INTR_EQ), 0u);
	EXPECT_EQ(rd(reg::qpc(1) + reg::QPC_INTERRUPT_MASK), 0u);
	EXPECT_TRUE(rd(reg::qpc(1) + reg::QPC_EVENT_QUE_CFG) &
		    reg::QPC_EVENT_QUE_CFG_ENABLE.mask());
	EXPECT_EQ(rd(reg::mac_128(1, 0) + reg::MAC_128_COMMAND_CONFIG), 0x2913u);
	EXPECT_EQ(rd(reg::txe(0) + reg::TXE_WQE_CHECK_CFG5), 187u);
	EXPECT_EQ(rd(reg::txe(0) + reg::TXE_WQE_CHECK_CFG4), 8320u);
	/* After quiesce, as gaudi2_nic_disable_nics_interrupts leaves it. */
	hw::Port p(&d->bar(), 1);
	p.quiesce();
	EXPECT_EQ(rd(reg::qpc(1) + reg::QPC_INTERRUPT_EN), 0u);
	EXPECT_EQ(rd(reg::qpc(1) + reg::QPC_INTERRUPT_MASK), 0xFFFFFFFFu);
	EXPECT_EQ(rd(reg::qpc(1) + reg::QPC_EVENT_QUE_CFG), 0u);
}

TEST(EmuDevice, CreateChecksAndFirmwareMac)
{
	std::string err;
	Config c;
	c.nports = 0;
	EXPECT_EQ(Device::create(c, &err), nullptr);
	EXPECT_FALSE(err.empty());
	c.nports = 25;
	EXPECT_EQ(Device::create(c, &err), nullptr);
	c.nports = 24;
	auto d = Device::create(c, &err);
	ASSERT_NE(d, nullptr) << err;
	EXPECT_EQ(d->nports(), 24u);
	uint8_t mac[6];
	d->fw_mac_addr(13, mac);
	const uint8_t want[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, 13};
	EXPECT_EQ(std::memcmp(mac, want, 6), 0);
	/* Gateway completes at once; BUSY reads 0. */
	hw::Port p(&d->bar(), 23);
	hw::qpc::ResImage res;
	res.set(hw::qpc::RES_VALID, 0);
	EXPECT_TRUE(p.qpc_write_res(res, false));
	EXPECT_EQ(d->bar().rd32(hw::reg::qpc(23) + hw::reg::QPC_GW_BUSY), 0u);
	/* Accesses outside the region are ignored, reads give 0. */
	d->bar().wr32(hw::kNicRegionSize, 1);
	EXPECT_EQ(d->bar().rd32(hw::kNicRegionSize), 0u);
}

} /* namespace */

/* ===================================================================================== */
/* [seq_check] The model holds the driver to the public sequence's traffic-essential steps. */

namespace seq {

namespace reg = hw::reg;
using gaudi::emu::SeqStep;

/* What the model logs while alive (its messages go through rte_log). */
class LogText {
public:
	LogText()
	{
		f_ = open_memstream(&buf_, &len_);
		rte_openlog_stream(f_);
	}
	~LogText()
	{
		rte_openlog_stream(nullptr);
		fclose(f_);
		free(buf_);
	}
	std::string text()
	{
		fflush(f_);
		return std::string(buf_, len_);
	}
	/* Occurrences of s in the log so far. */
	size_t count(const std::string &s)
	{
		std::string t = text();
		size_t n = 0;
		for (size_t at = t.find(s); at != std::string::npos; at = t.find(s, at + 1))
			n++;
		return n;
	}

private:
	FILE *f_ = nullptr;
	char *buf_ = nullptr;
	size_t len_ = 0;
};

/* The values hbl_cn programs (gaudi2_cn.c; the bring-up digest's rows b7, b8, b18, c2-c13,
 * c29-c32, c38, a30, c61, c65, c23, c73, c76): a register, its good value and the step it
 * belongs to. RXB values carry both ports' fields, as hbl_cn writes them. */
struct StepReg {
	SeqStep step;
	uint32_t off;
	uint32_t good;
};
/* REQ/RES_BASE_ADDRESS_31_7 of the tests: address >> 7. */
constexpr uint32_t kReqBase7 = 0x4000, kResBase7 = 0x8000;

std::vector<StepReg> step_regs(unsigned p)
{
	std::vector<StepReg> v = {
		{SeqStep::rxb_credits, reg::rxb(p) + reg::RXB_CORE_MAX_STATIC_CREDITS_0, 0xB405A0},
		{SeqStep::rxb_drop_threshold, reg::rxb(p) + reg::RXB_CORE_DROP_THRESHOLD_0,
		 0xABC55E},
		{SeqStep::txb_tdm, reg::txb(p) + reg::TXB_TDM_PORT_ARB_MASK, 0xBBEE},
		{SeqStep::txs, reg::txs(p) + reg::TXS_BASE_ADDRESS_31_7, 0x200},
		{SeqStep::txs, reg::txs(p) + reg::TXS_BASE_ADDRESS_FREE_LIST_31_0, 0x10000},
		{SeqStep::txs, reg::txs(p) + reg::TXS_PRODUCER_UPDATE, 768},
		{SeqStep::qpc_req_base, reg::qpc(p) + reg::QPC_REQ_BASE_ADDRESS_31_7, kReqBase7},
		{SeqStep::qpc_res_base, reg::qpc(p) + reg::QPC_RES_BASE_ADDRESS_31_7, kResBase7},
		{SeqStep::db_fifo_axuser,
		 reg::qpc_axuser_db_fifo(p) + reg::QPC_AXUSER_DB_FIFO_HB_WR_OVRD_LO, 0xFFFFFBFF},
		{SeqStep::ev_que_axuser,
		 reg::qpc_axuser_ev_que(p) + reg::QPC_AXUSER_EV_QUE_LBW_INTR_HB_WR_OVRD_LO,
		 0xFFFFFBFF},
		{SeqStep::cq_axuser,
		 reg::rxe_axuser_cq(p, hw::kRawCq) + reg::RXE_AXUSER_AXUSER_CQ0_HB_WR_OVRD_LO,
		 0xFFFFFBFF},
		{SeqStep::rxe_aruser, reg::rxe(p) + reg::RXE_ARUSER_MMU_BP, 1},
		{SeqStep::txe_wqe_user, reg::txe(p) + reg::TXE_WQE_USER_CFG, 1},
	};
	for (unsigned l = 0; l < hw::kLanesPerPort; l++) {
		v.push_back(
			{SeqStep::mac_fifo, reg::mac_128(p, l) + reg::MAC_128_TX_FIFO_SECTIONS, 4});
		v.push_back(
			{SeqStep::mac_fifo, reg::mac_128(p, l) + reg::MAC_128_RX_FIFO_SECTIONS, 4});
		/* The lane's PCS at 100G: marker interval and the VL0 / VL1 markers
		 * (gaudi2_cn_hw_mac_port_config_lane_speed; PCS_MODE stays 0). */
		uint32_t pcs = reg::mac_pcs(p, l);
		v.push_back({SeqStep::mac_speed, pcs + reg::MAC_PCS_VENDOR_VL_INTVL, 0x3FFF});
		v.push_back({SeqStep::mac_speed, pcs + reg::pcs_vl(0, 0), 0x68C1});
		v.push_back({SeqStep::mac_speed, pcs + reg::pcs_vl(1, 0), 0x719D});
	}
	return v;
}

/* The steps, as a driver following gaudi2_cn.c does them; with_reset: the MAC channel reset
 * too (PCS CONTROL1 FLD_RESET, both lanes). */
void do_steps(Device &d, unsigned p, bool with_reset = true)
{
	for (const StepReg &r : step_regs(p))
		d.bar().wr32(r.off, r.good);
	for (unsigned l = 0; with_reset && l < hw::kLanesPerPort; l++) {
		uint32_t c1 = reg::mac_pcs(p, l) + reg::MAC_PCS_CONTROL1;
		d.bar().wr32(c1, d.bar().rd32(c1) | reg::MAC_PCS_CONTROL1_FLD_RESET.mask());
	}
}

class SeqCheck : public ::testing::Test {
protected:
	void SetUp() override { make(true); }
	/* mac_port_config1: port 1 brought up with the MAC port config (and its channel reset). */
	void make(bool mac_port_config1)
	{
		rig.clear();
		dev.reset();
		Config c;
		c.nports = 2;
		c.wire = Wire::pair;
		c.engine = Engine::inline_run;
		c.seq_check = true;
		std::string err;
		dev = Device::create(c, &err);
		ASSERT_NE(dev, nullptr) << err;
		for (unsigned p = 0; p < 2; p++) {
			rig.push_back(std::make_unique<PortRig>(*dev, p));
			ASSERT_NE(rig.back()->mz, nullptr);
			/* The DB FIFO's override comes before its CI is used (config_port_hw_qpc
			 * before the port opens): the doorbell FIFO alignment needs the CI. */
			dev->bar().wr32(reg::qpc_axuser_db_fifo(p) +
						reg::QPC_AXUSER_DB_FIFO_HB_WR_OVRD_LO,
					reg::kAxuserOvrdMmuBp);
			/* The QPC tables' bases come before the QP contexts are written
			 * (config_port_hw_qpc, then the port opens): the contexts land there. */
			dev->bar().wr32(reg::qpc(p) + reg::QPC_REQ_BASE_ADDRESS_31_7, kReqBase7);
			dev->bar().wr32(reg::qpc(p) + reg::QPC_RES_BASE_ADDRESS_31_7, kResBase7);
			rig.back()->bring_up(true, kEqLog2, p == 0 || mac_port_config1);
		}
	}
	void TearDown() override
	{
		rig.clear();
		dev.reset();
	}
	/* One 100-byte frame from port 0 to port 1 (inline engine: done on return). Returns the
	 * frames port 1 received. */
	size_t send_one()
	{
		PortRig &r = *rig[0];
		uint32_t b = r.tx_pi;
		make_frame(r.txbuf(b), 100, kPort1Mac, b);
		r.post(b, 100, true);
		r.ring();
		return rig[1]->take_cqes().size();
	}
	std::unique_ptr<Device> dev;
	std::vector<std::unique_ptr<PortRig>> rig;
};

/* Before the steps nothing passes and the first missing step is named; after them frames
 * pass and nothing is missing. */
TEST_F(SeqCheck, NoTrafficBeforeTheSteps)
{
	LogText log;
	EXPECT_NE(dev->seq_missing(0), 0u);
	EXPECT_EQ(send_one(), 0u);
	/* TX refused on port 0 for its first missing TX step: TXB TDM_PORT_ARB_MASK. */
	EXPECT_EQ(dev->seq_refused(0, SeqStep::txb_tdm), 1u);
	EXPECT_EQ(rig[0]->hw.tx_stat(TxStat::if_out_errors), 1u);
	EXPECT_EQ(log.count("gaudi_emu: port 0: TX dropped: TXB TDM_PORT_ARB_MASK not programmed "
			    "for the port's speed (gaudi2_cn_config_hw_txb)"),
		  1u)
		<< log.text();
	/* Every missing TX step is logged, once per port start. */
	EXPECT_EQ(log.count("port 0: TX dropped: TXS BASE_ADDRESS / free list not set up"), 1u);
	EXPECT_EQ(send_one(), 0u);
	EXPECT_EQ(dev->seq_refused(0, SeqStep::txb_tdm), 2u);
	EXPECT_EQ(log.count("port 0: TX dropped: TXB TDM_PORT_ARB_MASK"), 1u);
	/* The port starts again (requester QPC made valid): logged again. */
	ASSERT_TRUE(rig[0]->hw.tx_init(rig[0]->tx_cfg()));
	rig[0]->tx_pi = 0;
	EXPECT_EQ(send_one(), 0u);
	EXPECT_EQ(log.count("port 0: TX dropped: TXB TDM_PORT_ARB_MASK"), 2u);

	do_steps(*dev, 0);
	do_steps(*dev, 1);
	EXPECT_EQ(dev->seq_missing(0), 0u);
	EXPECT_EQ(dev->seq_missing(1), 0u);
	EXPECT_EQ(send_one(), 1u);
}

/* A port whose driver skipped the MAC channel reset passes nothing: RX refused at the MAC. */
TEST_F(SeqCheck, MacChannelResetNeeded)
{
	make(false);
	LogText log;
	do_steps(*dev, 0);
	do_steps(*dev, 1, false);
	EXPECT_EQ(dev->seq_missing(1), 1u << unsigned(SeqStep::mac_reset));
	EXPECT_EQ(send_one(), 0u);
	EXPECT_EQ(dev->seq_refused(1, SeqStep::mac_reset), 1u);
	EXPECT_EQ(log.count("gaudi_emu: port 1: RX dropped: MAC channel not reset: PCS CONTROL1 "
			    "FLD_RESET not written (gaudi2_cn_hw_mac_ch_reset)"),
		  1u)
		<< log.text();
	/* One lane reset is not enough. */
	uint32_t c1 = reg::mac_pcs(1, 0) + reg::MAC_PCS_CONTROL1;
	dev->bar().wr32(c1, reg::MAC_PCS_CONTROL1_FLD_RESET.mask());
	EXPECT_EQ(send_one(), 0u);
	do_steps(*dev, 1);
	EXPECT_EQ(send_one(), 1u);
}

/* Each step undone after start (its register written back to 0, as a driver that skipped it
 * leaves it): traffic stops, the refusal is counted on the step and logged once; the step
 * redone, traffic passes again. */
TEST_F(SeqCheck, EachStepUndoneStopsItsPath)
{
	do_steps(*dev, 0);
	do_steps(*dev, 1);
	ASSERT_EQ(send_one(), 1u);
	rig[0]->take_events();
	struct Case {
		SeqStep step;
		unsigned port; /* whose register is undone */
		uint32_t off;
		uint32_t bad;
		const char *log;
	};
	const Case cases[] = {
		/* the odd port's field only: port 0's credits stay */
		{SeqStep::rxb_credits, 1, reg::rxb(1) + reg::RXB_CORE_MAX_STATIC_CREDITS_0, 1440,
		 "port 1: RX dropped: RXB MAX_STATIC_CREDITS not programmed "
		 "(gaudi2_cn_config_hw_rxb)"},
		{SeqStep::rxb_drop_threshold, 1, reg::rxb(1) + reg::RXB_CORE_DROP_THRESHOLD_0, 1374,
		 "port 1: RX dropped: RXB DROP_THRESHOLD is 0"},
		{SeqStep::txb_tdm, 0, reg::txb(0) + reg::TXB_TDM_PORT_ARB_MASK, 0,
		 "port 0: TX dropped: TXB TDM_PORT_ARB_MASK"},
		{SeqStep::txb_tdm, 0, reg::txb(0) + reg::TXB_TDM_PORT_ARB_MASK, 0x1234,
		 "port 0: TX dropped: TXB TDM_PORT_ARB_MASK"},
		{SeqStep::txs, 0, reg::txs(0) + reg::TXS_BASE_ADDRESS_31_7, 0,
		 "port 0: TX dropped: TXS BASE_ADDRESS / free list not set up"},
		{SeqStep::txs, 0, reg::txs(0) + reg::TXS_BASE_ADDRESS_FREE_LIST_31_0, 0,
		 "port 0: TX dropped: TXS BASE_ADDRESS / free list not set up"},
		{SeqStep::txs, 0, reg::txs(0) + reg::TXS_PRODUCER_UPDATE, 0,
		 "port 0: TX dropped: TXS BASE_ADDRESS / free list not set up"},
		{SeqStep::qpc_req_base, 0, reg::qpc(0) + reg::QPC_REQ_BASE_ADDRESS_31_7, 0,
		 "port 0: TX dropped: QPC REQ_BASE_ADDRESS not programmed"},
		{SeqStep::qpc_res_base, 1, reg::qpc(1) + reg::QPC_RES_BASE_ADDRESS_31_7, 0,
		 "port 1: RX dropped: QPC RES_BASE_ADDRESS not programmed"},
		{SeqStep::cq_axuser, 1,
		 reg::rxe_axuser_cq(1, hw::kRawCq) + reg::RXE_AXUSER_AXUSER_CQ0_HB_WR_OVRD_LO, 0,
		 "port 1: RX dropped: RXE AXUSER_CQ0 HB_WR_OVRD_LO not the MMU bypass"},
		{SeqStep::rxe_aruser, 1, reg::rxe(1) + reg::RXE_ARUSER_MMU_BP, 0,
		 "port 1: RX dropped: RXE ARUSER_MMU_BP not set"},
		{SeqStep::txe_wqe_user, 0, reg::txe(0) + reg::TXE_WQE_USER_CFG, 0,
		 "port 0: TX dropped: TXE WQE_USER_CFG MMU_BYPASS not set"},
		{SeqStep::mac_fifo, 0, reg::mac_128(0, 0) + reg::MAC_128_TX_FIFO_SECTIONS, 0,
		 "port 0: TX dropped: MAC_128 TX_FIFO_SECTIONS / RX_FIFO_SECTIONS are 0"},
		{SeqStep::mac_fifo, 1, reg::mac_128(1, 1) + reg::MAC_128_RX_FIFO_SECTIONS, 0,
		 "port 1: RX dropped: MAC_128 TX_FIFO_SECTIONS / RX_FIFO_SECTIONS are 0"},
	};
	uint32_t logged[2] = {0, 0}; /* steps logged per port: once per port start */
	for (const Case &c : cases) {
		SCOPED_TRACE(gaudi::emu::seq_step_text(c.step));
		LogText log;
		uint64_t before = dev->seq_refused(c.port, c.step);
		uint32_t good = dev->bar().rd32(c.off);
		dev->bar().wr32(c.off, c.bad);
		EXPECT_EQ(dev->seq_missing(c.port), 1u << unsigned(c.step));
		EXPECT_EQ(send_one(), 0u);
		EXPECT_EQ(send_one(), 0u);
		EXPECT_EQ(dev->seq_refused(c.port, c.step), before + 2);
		uint32_t bit = 1u << unsigned(c.step);
		EXPECT_EQ(log.count(c.log), (logged[c.port] & bit) ? 0u : 1u) << log.text();
		logged[c.port] |= bit;
		dev->bar().wr32(c.off, good);
		EXPECT_EQ(dev->seq_missing(c.port), 0u);
		EXPECT_EQ(send_one(), 1u);
	}
}

/* The MMU-bypass overrides of the DB FIFO and EQ writers: without them the CI write-back and
 * the events do not reach host memory (frames still move). */
TEST_F(SeqCheck, CiAndEventWritesNeedTheirOverride)
{
	do_steps(*dev, 0);
	do_steps(*dev, 1);
	ASSERT_EQ(send_one(), 1u);
	ASSERT_EQ(rig[0]->db_outstanding(), 0u);
	rig[0]->take_events();
	LogText log;
	uint32_t ev = reg::qpc_axuser_ev_que(0) + reg::QPC_AXUSER_EV_QUE_LBW_INTR_HB_WR_OVRD_LO;
	dev->bar().wr32(ev, 0);
	EXPECT_EQ(send_one(), 1u);
	EXPECT_TRUE(of_type(rig[0]->take_events(), EqeType::raw_tx_comp).empty());
	EXPECT_EQ(dev->seq_refused(0, SeqStep::ev_que_axuser), 1u);
	EXPECT_EQ(dev->counters(0).eq_lost, 1u);
	EXPECT_EQ(log.count("gaudi_emu: port 0: EQ write dropped: QPC AXUSER_EV_QUE_LBW_INTR "
			    "HB_WR_OVRD_LO not the MMU bypass (gaudi2_cn_eq_hw_config)"),
		  1u)
		<< log.text();
	dev->bar().wr32(ev, 0xFFFFFBFF);
	EXPECT_EQ(send_one(), 1u);
	EXPECT_EQ(of_type(rig[0]->take_events(), EqeType::raw_tx_comp).size(), 1u);

	uint32_t db = reg::qpc_axuser_db_fifo(0) + reg::QPC_AXUSER_DB_FIFO_HB_WR_OVRD_LO;
	dev->bar().wr32(db, 0);
	uint32_t ci = load(rig[0]->db_ci());
	EXPECT_EQ(send_one(), 1u);
	EXPECT_EQ(load(rig[0]->db_ci()), ci); /* the CI write-back was lost */
	EXPECT_EQ(rig[0]->db_outstanding(), 1u);
	EXPECT_EQ(dev->seq_refused(0, SeqStep::db_fifo_axuser), 1u);
	EXPECT_EQ(log.count("gaudi_emu: port 0: DB FIFO CI write dropped: QPC AXUSER_DB_FIFO "
			    "HB_WR_OVRD_LO not the MMU bypass (gaudi2_cn_config_port_hw_qpc)"),
		  1u)
		<< log.text();
	dev->bar().wr32(db, 0xFFFFFBFF);
	EXPECT_EQ(send_one(), 1u);
	EXPECT_EQ(rig[0]->db_outstanding(), 0u);
}

/* QP contexts written through the gateway land in device memory at REQ/RES_BASE_ADDRESS
 * (+ QPN x 128 / 32 bytes), and the model takes them from there: a table moved to memory
 * nobody wrote has no valid raw QP; moved back, the context is found as it was left. */
/* The port's speed is one speed everywhere: the PCS lanes, the macro's MAC core and TXB
 * (gaudi2_cn_config_hw_mac / _txb take the even port's speed for both). Port 0's lanes set up
 * for 50G under a macro left at 100G pass nothing (mac_speed: MAC_SD_CFG not 50G's; txb_tdm:
 * 0xBBEE is 100G's mask); the macro at 50G too, and the far end's lanes at 50G, traffic
 * passes; the lanes of both ends at 25G under a 50G macro stop it again. */
TEST_F(SeqCheck, MacroAndLanesAtOneSpeed)
{
	do_steps(*dev, 0);
	do_steps(*dev, 1);
	ASSERT_EQ(send_one(), 1u);
	LogText log;
	rig[0]->hw.set_speed(hw::Speed::g50);
	ASSERT_TRUE(rig[0]->hw.mac_config(true));
	rig[0]->hw.set_mac_enable(true);
	EXPECT_EQ(dev->seq_missing(0),
		  (1u << unsigned(SeqStep::mac_speed)) | (1u << unsigned(SeqStep::txb_tdm)));
	EXPECT_EQ(send_one(), 0u);
	EXPECT_EQ(dev->seq_refused(0, SeqStep::txb_tdm), 1u);
	EXPECT_EQ(log.count("port 0: TX dropped: MAC not set up for one speed"), 1u) << log.text();
	hw::macro::config(dev->bar(), 0, hw::Speed::g50);
	EXPECT_EQ(dev->seq_missing(0), 0u);
	/* The far end's lanes still at 100G: the PCS of the two ends never align. */
	EXPECT_EQ(send_one(), 0u);
	rig[1]->hw.set_speed(hw::Speed::g50);
	ASSERT_TRUE(rig[1]->hw.mac_config(true));
	rig[1]->hw.set_mac_enable(true);
	EXPECT_EQ(dev->seq_missing(1), 0u);
	EXPECT_EQ(send_one(), 1u);
	/* 25G lanes under a 50G macro: MAC_SD_CFG and RS-FEC KP mode are 50G's. */
	for (unsigned p = 0; p < 2; p++) {
		rig[p]->hw.set_speed(hw::Speed::g25);
		ASSERT_TRUE(rig[p]->hw.mac_config(true));
		rig[p]->hw.set_mac_enable(true);
		EXPECT_EQ(dev->seq_missing(p), 1u << unsigned(SeqStep::mac_speed));
	}
	EXPECT_EQ(send_one(), 0u);
	hw::macro::config(dev->bar(), 0, hw::Speed::g25);
	EXPECT_EQ(dev->seq_missing(0), 0u);
	EXPECT_EQ(dev->seq_missing(1), 0u);
	EXPECT_EQ(send_one(), 1u);
}

TEST_F(SeqCheck, QpContextsLiveInDeviceMemoryAtTheirBase)
{
	do_steps(*dev, 0);
	do_steps(*dev, 1);
	ASSERT_EQ(send_one(), 1u);
	hw::qpc::ReqImage req{};
	ASSERT_TRUE(dev->read_device_memory(uint64_t(kReqBase7) << 7, req.data.data(), 128));
	EXPECT_EQ(req.get(hw::qpc::REQ_VALID), 1u);
	EXPECT_EQ(req.get(hw::qpc::REQ_TS), hw::qpc::TS_RAW);
	hw::qpc::ResImage res{};
	ASSERT_TRUE(dev->read_device_memory(uint64_t(kResBase7) << 7, res.data.data(), 32));
	EXPECT_EQ(res.get(hw::qpc::RES_VALID), 1u);
	hw::qpc::ReqImage none{};
	ASSERT_TRUE(dev->read_device_memory(0x5000ull << 7, none.data.data(), 128));
	EXPECT_EQ(none.get(hw::qpc::REQ_VALID), 0u);

	const uint32_t rb = reg::qpc(0) + reg::QPC_REQ_BASE_ADDRESS_31_7;
	dev->bar().wr32(rb, 0x5000);
	rig[0]->take_events();
	EXPECT_EQ(send_one(), 0u);
	auto qe = of_type(rig[0]->take_events(), EqeType::qp_err);
	ASSERT_EQ(qe.size(), 1u);
	EXPECT_EQ(qe[0].d2, uint32_t(QpErrSyndrome::req_db_qp_not_valid));
	dev->bar().wr32(rb, kReqBase7);
	EXPECT_EQ(send_one(), 2u); /* the frame posted meanwhile goes out too */

	const uint32_t sb = reg::qpc(1) + reg::QPC_RES_BASE_ADDRESS_31_7;
	dev->bar().wr32(sb, 0x9000);
	EXPECT_EQ(send_one(), 0u);
	dev->bar().wr32(sb, kResBase7);
	EXPECT_EQ(send_one(), 1u);
}

/* seq_check off (the default): the steps are not needed. */
TEST(EmuDevice, SeqCheckOffPassesWithoutTheSteps)
{
	Config c;
	c.nports = 2;
	std::string err;
	auto d = Device::create(c, &err);
	ASSERT_NE(d, nullptr) << err;
	PortRig a(*d, 0), b(*d, 1);
	a.bring_up();
	b.bring_up();
	EXPECT_EQ(d->seq_missing(0), 0u);
	make_frame(a.txbuf(0), 100, kPort1Mac, 0);
	a.post(0, 100, true);
	a.ring();
	EXPECT_EQ(b.take_cqes().size(), 1u);
	EXPECT_EQ(d->seq_refused(0, SeqStep::txb_tdm), 0u);
}

} /* namespace seq */

/* RS-FEC codeword counters clear when read [gaudi2_cn.c __gaudi2_cn_get_mac_fec_stats]; the
 * driver's reader (hw::Port) accumulates them, as hbl_cn's correctable_errors_cnt. */
TEST(EmuDevice, RsFecCountersClearOnReadAndPortAccumulates)
{
	Config c;
	c.nports = 2;
	std::string err;
	auto d = Device::create(c, &err);
	ASSERT_NE(d, nullptr) << err;
	namespace reg = hw::reg;
	hw::Bar &b = d->bar();
	const uint32_t fec = reg::mac_rs_fec(1);
	/* The counters take what the test writes (the model has no FEC errors of its own). */
	b.wr32(fec + reg::rsfec_ccw_lo(1), 5);
	b.wr32(fec + reg::rsfec_ccw_hi(1), 1);
	EXPECT_EQ(b.rd32(fec + reg::rsfec_ccw_lo(1)), 5u);
	EXPECT_EQ(b.rd32(fec + reg::rsfec_ccw_lo(1)), 0u);
	EXPECT_EQ(b.rd32(fec + reg::rsfec_ccw_hi(1)), 1u);
	EXPECT_EQ(b.rd32(fec + reg::rsfec_ccw_hi(1)), 0u);

	hw::Port p(&b, 1);
	EXPECT_EQ(p.fec_corrected(), 0u);
	b.wr32(fec + reg::rsfec_ccw_lo(1), 7);
	b.wr32(fec + reg::rsfec_ccw_hi(1), 2);
	EXPECT_EQ(p.fec_corrected(), 7u + (2u << 16));
	b.wr32(fec + reg::rsfec_ccw_lo(1), 3);
	EXPECT_EQ(p.fec_corrected(), 10u + (2u << 16));
	EXPECT_EQ(p.fec_corrected(), 10u + (2u << 16)); /* nothing new: the total stays */
	b.wr32(fec + reg::rsfec_nccw_lo(1), 4);
	EXPECT_EQ(p.fec_uncorrected(), 4u);
	EXPECT_EQ(b.rd32(fec + reg::rsfec_nccw_lo(1)), 0u);
	EXPECT_EQ(p.fec_uncorrected(), 4u);
	/* The even port reads lane 0's (RSFEC): untouched by the odd port's. */
	hw::Port p0(&b, 0);
	EXPECT_EQ(p0.fec_corrected(), 0u);
}
