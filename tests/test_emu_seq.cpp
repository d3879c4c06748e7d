/* SPDX-License-Identifier: BSD-3-Clause
 * Device-model tests: the public bring-up sequence the model holds the driver to (seq_check), and
 * the RS-FEC counters.
 */

#include "test_emu.h"

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
