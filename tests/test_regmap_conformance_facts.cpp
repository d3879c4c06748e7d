/* SPDX-License-Identifier: BSD-3-Clause
 * Register-map conformance against the in-tree public facts table
 * (tests/data/gaudi2_public_facts.tsv): descriptors, QP context, SerDes and the sync manager.
 */

#include "test_regmap_conformance.h"

namespace {

/* ---- base/ against the public Gaudi2 drivers, from the in-tree facts table ---- */

namespace serdes = gaudi::hw::serdes;
namespace sm = gaudi::hw::sm;

std::string public_facts_path()
{
	if (const char *e = std::getenv("GAUDI_PUBLIC_FACTS"))
		return e;
#ifdef GAUDI_PUBLIC_FACTS_DEFAULT
	return GAUDI_PUBLIC_FACTS_DEFAULT;
#else
	return "tests/data/gaudi2_public_facts.tsv";
#endif
}

/* tests/data/gaudi2_public_facts.tsv: "kind name value source", keyed by (kind, name). */
struct PublicFacts {
	std::map<std::pair<std::string, std::string>, std::string> rows;
	std::string error;
};

const PublicFacts &public_facts()
{
	static const PublicFacts facts = [] {
		PublicFacts f;
		const std::string path = public_facts_path();
		std::ifstream in(path);
		if (!in) {
			f.error = "cannot open " + path;
			return f;
		}
		std::string line;
		bool header = false;
		unsigned n = 0;
		while (std::getline(in, line)) {
			n++;
			if (line.empty() || line[0] == '#')
				continue;
			auto c = split(line, '\t');
			if (!header) {
				if (line != "kind\tname\tvalue\tsource")
					f.error = path + ": unexpected header";
				header = true;
				continue;
			}
			if (c.size() != 4 ||
			    !f.rows.emplace(std::make_pair(c[0], c[1]), c[2]).second) {
				f.error = path + " line " + std::to_string(n) +
					  ": malformed or duplicate";
				return f;
			}
		}
		return f;
	}();
	return facts;
}

/* Looks a row up; a missing row is a failure of the calling test, reported with its name. */
std::optional<std::string> fact_text(const std::string &kind, const std::string &name)
{
	const auto &rows = public_facts().rows;
	auto it = rows.find({kind, name});
	if (it == rows.end()) {
		ADD_FAILURE() << kind << " " << name << ": not in " << public_facts_path();
		return std::nullopt;
	}
	return it->second;
}

std::vector<uint64_t> fact_values(const std::string &kind, const std::string &name)
{
	std::vector<uint64_t> out;
	auto t = fact_text(kind, name);
	if (!t)
		return out;
	for (const auto &c : split(*t, ',')) {
		auto v = parse_uint(c);
		if (!v) {
			ADD_FAILURE()
				<< kind << " " << name << ": '" << *t << "' is not a number list";
			return {};
		}
		out.push_back(*v);
	}
	return out;
}

/* One number; UINT64_MAX (never a valid value here) when absent. */
uint64_t num(const std::string &kind, const std::string &name, size_t i = 0)
{
	auto v = fact_values(kind, name);
	if (v.size() <= i) {
		if (!v.empty())
			ADD_FAILURE() << kind << " " << name << ": no value #" << i;
		return UINT64_MAX;
	}
	return v[i];
}

uint64_t def(const std::string &name)
{
	return num("define", name);
}
uint64_t enumerator(const std::string &name)
{
	return num("enum", name);
}

/* (lsb, width) of a public field; (UINT32_MAX, 0) when absent. */
std::pair<uint32_t, uint32_t> pub_field(const std::string &name)
{
	auto v = fact_values("field", name);
	if (v.size() != 2) {
		if (!v.empty())
			ADD_FAILURE() << "field " << name << ": not lsb,width";
		return {UINT32_MAX, 0};
	}
	return {static_cast<uint32_t>(v[0]), static_cast<uint32_t>(v[1])};
}

/* With GAUDI_PUBLIC_FACTS_LIST=<file>, every comparison is appended to that file as
 * "element<TAB>ours<TAB>public<TAB>agree", the audit's list. */
void list_comparison(const std::string &what, const std::string &ours, const std::string &pub,
		     bool agree)
{
	const char *path = std::getenv("GAUDI_PUBLIC_FACTS_LIST");
	if (path == nullptr)
		return;
	if (FILE *f = std::fopen(path, "a")) {
		std::fprintf(f, "%s\t%s\t%s\t%s\n", what.c_str(), ours.c_str(), pub.c_str(),
			     agree ? "yes" : "NO");
		std::fclose(f);
	}
}

/* Counts the comparisons so each test can show it checked what it claims. */
struct Tally {
	unsigned checked = 0, bad = 0;
	void eq(uint64_t ours, uint64_t pub, const std::string &what)
	{
		checked++;
		list_comparison(what, hex(ours), hex(pub), ours == pub);
		if (ours != pub) {
			bad++;
			ADD_FAILURE() << what << ": ours " << hex(ours) << ", public " << hex(pub);
		}
	}
	void field(uint32_t lsb, uint32_t width, const std::string &pub, const std::string &ours)
	{
		auto f = pub_field(pub);
		checked++;
		list_comparison(ours + " (" + pub + ")",
				std::to_string(lsb) + "," + std::to_string(width),
				std::to_string(f.first) + "," + std::to_string(f.second),
				f.first == lsb && f.second == width);
		if (f.first != lsb || f.second != width) {
			bad++;
			ADD_FAILURE() << ours << " {" << lsb << ", " << width << "}: public " << pub
				      << " {" << f.first << ", " << f.second << "}";
		}
	}
	void field(reg::Field f, const std::string &pub, const std::string &ours)
	{
		field(f.lsb, f.width, pub, ours);
	}
};

template <typename T>
constexpr uint32_t lsb_of(T mask)
{
	return static_cast<uint32_t>(std::countr_zero(mask));
}
template <typename T>
constexpr uint32_t width_of(T mask)
{
	return static_cast<uint32_t>(std::popcount(mask));
}

TEST(PublicFacts, TableLoads)
{
	const auto &f = public_facts();
	ASSERT_TRUE(f.error.empty()) << f.error;
	std::map<std::string, unsigned> kinds;
	for (const auto &r : f.rows)
		kinds[r.first.first]++;
	/* Every kind the generator writes is there, in the numbers it wrote when this was made. */
	EXPECT_GE(kinds["define"], 100u);
	EXPECT_GE(kinds["field"], 200u);
	EXPECT_GE(kinds["enum"], 40u);
	EXPECT_GE(kinds["fact"], 60u);
	EXPECT_GE(kinds["syndrome"], 70u);
	EXPECT_EQ(kinds["size"], 5u);
}

/* gaudi_desc.h: TX WQE, CQE, EQE layouts and enumerations against include/linux/net/intel/
 * gaudi2.h (TX_WQE_GET_*, CQE_*, EQE_*, enum gaudi2_wqe_opcode / gaudi2_eqe_type), sizes
 * against gaudi2_cn.h, syndromes against gaudi2_cn.c qp_syndromes. */
TEST(PublicFacts, DescriptorsMatchGaudi2H)
{
	using namespace gaudi::hw;
	ASSERT_TRUE(public_facts().error.empty()) << public_facts().error;
	Tally t;
	const uint32_t w0 = offsetof(TxWqe, ctrl) * 8;
	t.field(w0 + lsb_of(WQE_OPCODE_MASK), width_of(WQE_OPCODE_MASK), "TX_WQE_GET_OPCODE",
		"WQE_OPCODE_MASK");
	t.field(w0 + WQE_INDEX_SHIFT, width_of(WQE_INDEX_MASK), "TX_WQE_GET_WQE_INDEX",
		"WQE_INDEX_SHIFT/MASK");
	t.field(w0 + lsb_of(WQE_SE), width_of(WQE_SE), "TX_WQE_GET_SE", "WQE_SE");
	t.field(w0 + lsb_of(WQE_INLINE), width_of(WQE_INLINE), "TX_WQE_GET_INLINE", "WQE_INLINE");
	t.field(w0 + lsb_of(WQE_ACKREQ), width_of(WQE_ACKREQ), "TX_WQE_GET_ACKREQ", "WQE_ACKREQ");
	t.field(offsetof(TxWqe, size) * 8, sizeof(TxWqe::size) * 8, "TX_WQE_GET_SIZE",
		"TxWqe::size");
	t.field(offsetof(TxWqe, local_addr) * 8, 32, "TX_WQE_GET_LOCAL_ADDR_LSB",
		"TxWqe::local_addr low");
	t.field(offsetof(TxWqe, local_addr) * 8 + 32, 32, "TX_WQE_GET_LOCAL_ADDR_MSB",
		"TxWqe::local_addr high");
	t.field(offsetof(TxWqe, remote_addr) * 8, 32, "TX_WQE_GET_REMOTE_ADDR_LSB",
		"TxWqe::remote_addr low");
	t.field(offsetof(TxWqe, remote_addr) * 8 + 32, 32, "TX_WQE_GET_REMOTE_ADDR_MSB",
		"TxWqe::remote_addr high");
	t.field(offsetof(TxWqe, tag) * 8, sizeof(TxWqe::tag) * 8, "TX_WQE_GET_TAG", "TxWqe::tag");
	/* w7 "remote SOB / completion": REMOTE_SOB, REMOTE_SOB_DATA, SOB_CMD, COMPLETION_TYPE
	 * tile the dword exactly. */
	{
		uint32_t at = offsetof(TxWqe, completion) * 8;
		for (const char *n : {"TX_WQE_GET_REMOTE_SOB", "TX_WQE_GET_REMOTE_SOB_DATA",
				      "TX_WQE_GET_SOB_CMD", "TX_WQE_GET_COMPLETION_TYPE"}) {
			auto f = pub_field(n);
			t.eq(at, f.first, std::string("TxWqe::completion: ") + n + " lsb");
			at += f.second;
		}
		t.eq(at, offsetof(TxWqe, completion) * 8 + sizeof(TxWqe::completion) * 8,
		     "TxWqe::completion: end of the tiled fields");
	}
	t.eq(sizeof(TxWqe), def("NIC_SEND_WQE_SIZE"), "sizeof(TxWqe) vs NIC_SEND_WQE_SIZE");
	t.eq(sizeof(TxWqe), num("size", "gaudi2_sq_wqe"), "sizeof(TxWqe) vs gaudi2_sq_wqe");
	for (const auto &r : kWqeOpcodeRows)
		t.eq(r.value, enumerator(std::string("WQE_") + r.name),
		     std::string("WqeOpcode ") + r.name);

	/* CQE */
	const uint32_t c0 = offsetof(Cqe, d0) * 8;
	t.field(c0 + lsb_of(CQE_VALID), width_of(CQE_VALID), "CQE_IS_VALID", "CQE_VALID");
	t.field(c0 + lsb_of(CQE_IS_REQ), width_of(CQE_IS_REQ), "CQE_IS_REQ", "CQE_IS_REQ");
	t.field(c0 + lsb_of(CQE_QPN_MASK), width_of(CQE_QPN_MASK), "CQE_QPN", "CQE_QPN_MASK");
	t.field(offsetof(Cqe, wqe_index) * 8, 32, "CQE_WQE_IDX", "Cqe::wqe_index");
	t.field(offsetof(Cqe, tag) * 8, 32, "CQE_TAG", "Cqe::tag");
	t.field(offsetof(Cqe, size) * 8, 32, "CQE_RAW_PKT_SIZE", "Cqe::size");
	t.eq(sizeof(Cqe), num("size", "gaudi2_cqe"), "sizeof(Cqe) vs gaudi2_cqe");

	/* EQE */
	const uint32_t e0 = offsetof(Eqe, d0) * 8, e1 = offsetof(Eqe, d1) * 8;
	t.field(e0 + lsb_of(EQE_VALID), width_of(EQE_VALID), "EQE_IS_VALID", "EQE_VALID");
	t.field(e0 + lsb_of(EQE_TYPE_MASK), width_of(EQE_TYPE_MASK), "EQE_TYPE", "EQE_TYPE_MASK");
	t.field(e1 + lsb_of(EQE_QP_ERR_RESET), width_of(EQE_QP_ERR_RESET), "EQE_QP_EVENT_RESET",
		"EQE_QP_ERR_RESET");
	t.field(e1 + lsb_of(EQE_QPN_MASK), width_of(EQE_QPN_MASK), "EQE_QP_EVENT_QPN",
		"EQE_QPN_MASK (QP_ERR)");
	t.field(e1 + lsb_of(EQE_QPN_MASK), width_of(EQE_QPN_MASK), "EQE_RAW_TX_EVENT_QPN",
		"EQE_QPN_MASK (RAW_TX_COMP)");
	t.field(lsb_of(EQ_IDX_MASK), width_of(EQ_IDX_MASK), "EQ_IDX_MASK", "EQ_IDX_MASK");
	t.eq(sizeof(Eqe), def("NIC_RAW_EQE_SIZE"), "sizeof(Eqe) vs NIC_RAW_EQE_SIZE");
	for (const auto &r : kEqeTypeRows)
		t.eq(r.value, enumerator(std::string("EQE_") + r.name),
		     std::string("EqeType ") + r.name);

	/* Syndromes: each public one is in qp_syndromes under its code with this wording; the
	 * choices are absent there, their class bits (7:6) the right one. */
	const std::map<uint32_t, const char *> wording = {
		{0x41, "[req DB] QP not valid"},
		{0x43, "[req DB] PI > last-index"},
		{0x91, "WQE.wqe_index != execution-index [7.0]"},
		{0x95, "RAW packet but WQE.size not supported"},
		{0xB2, "RAW above MIN"},
		{0xB3, "RAW below MAX"},
		{0xBC, "WQE SE not RAW"},
	};
	for (const auto &r : kQpErrSyndromeRows) {
		char code[8];
		std::snprintf(code, sizeof(code), "0x%02X", r.value);
		auto text = fact_text("syndrome", code);
		auto w = wording.find(r.value);
		t.checked++;
		const bool ok =
			text && w != wording.end() && text->find(w->second) != std::string::npos;
		list_comparison(std::string("syndrome ") + code + " " + r.name, code,
				text ? *text : "(absent)", ok);
		if (!ok) {
			t.bad++;
			ADD_FAILURE() << "syndrome " << code << " (" << r.name << "): public text '"
				      << (text ? *text : "") << "'";
		}
	}
	const auto &rows = public_facts().rows;
	for (const auto &r : kQpErrSyndromeChoiceRows) {
		char code[8];
		std::snprintf(code, sizeof(code), "0x%02X", r.value);
		t.eq(rows.count({"syndrome", code}), 0,
		     std::string(r.name) + " [choice] is unused");
		t.eq(r.value >> 6, 2, std::string(r.name) + ": TX packet class (bits 7:6 = 2)");
	}

	/* Doorbell: a QPN past the last (NIC_MAX_QP_NUM) and PI 0 make the dummy one; indices
	 * are as wide as the QPC's LAST_IDX. */
	t.eq(kMaxQpNum, def("NIC_MAX_QP_NUM"), "kMaxQpNum");
	t.eq(0, num("fact", "cn.db_fifo_push_dummy", 0), "dummy doorbell PI");
	t.eq(kMaxQpNum, num("fact", "cn.db_fifo_push_dummy", 1), "dummy doorbell QPN");
	t.eq(width_of(DB_PI_MASK), pub_field("REQ_QPC_SET_LAST_IDX").second, "DB_PI_MASK width");
	t.eq(WQ_IDX_MASK, DB_PI_MASK, "WQ_IDX_MASK");
	std::printf("[ public   ] gaudi_desc.h: %u comparisons, %u disagree\n", t.checked, t.bad);
	EXPECT_EQ(t.checked, 64u);
}

/* gaudi_qpc.h against gaudi2.h's REQ_QPC_* / RES_QPC_* accessors, cn.h's enumerations,
 * gaudi2_cn.h's scheduling-queue constants and gaudi2_en.c's req_qpc_init. */
TEST(PublicFacts, QpcMatchesGaudi2H)
{
	ASSERT_TRUE(public_facts().error.empty()) << public_facts().error;
	const auto &rows = public_facts().rows;
	Tally t;
	for (const auto &r : qpc::kFieldRows) {
		const bool req = std::string(r.ctx) == "requester";
		std::string name = std::string(req ? "REQ_QPC_SET_" : "RES_QPC_SET_") + r.name;
		/* ERROR has only a getter. */
		if (!rows.count({"field", name}))
			name = std::string(req ? "REQ_QPC_GET_" : "RES_QPC_GET_") + r.name;
		t.field(r.f.bit, r.f.width, name, std::string(r.ctx) + " " + r.name);
	}
	t.eq(qpc::kReqDwords * 4, num("size", "gaudi2_qpc_requester"), "kReqDwords");
	t.eq(qpc::kResDwords * 4, num("size", "gaudi2_qpc_responder"), "kResDwords");
	t.eq(qpc::TS_RC, enumerator("TS_RC"), "TS_RC");
	t.eq(qpc::TS_RAW, enumerator("TS_RAW"), "TS_RAW");
	t.eq(qpc::WQ_TYPE_WRITE, enumerator("QPC_REQ_WQ_TYPE_WRITE"), "WQ_TYPE_WRITE");
	t.eq(qpc::TRUST_SECURED, enumerator("SECURED"), "TRUST_SECURED");
	/* The raw QP's requester values the Ethernet driver writes. */
	t.eq(qpc::TS_RAW, num("fact", "en.req_qpc_init.TRANSPORT_SERVICE"), "raw QP TS");
	t.eq(qpc::WQ_TYPE_WRITE, num("fact", "en.req_qpc_init.WQ_TYPE"), "raw QP WQ_TYPE");
	t.eq(qpc::TRUST_SECURED, num("fact", "en.req_qpc_init.TRUST_LEVEL"), "raw QP trust");
	t.eq(qpc::kRawRemoteWqLogSz, num("fact", "en.req_qpc_init.REMOTE_WQ_LOG_SZ"),
	     "kRawRemoteWqLogSz");
	/* group x HBL_EN_PFC_PRIO_NUM + priority, group TXS_PORT_RAW_SCHED_Q, priority
	 * GAUDI2_PFC_PRIO_DRIVER. */
	{
		char want[32];
		std::snprintf(want, sizeof(want), "0x%llx,priority",
			      static_cast<unsigned long long>(def("HBL_EN_PFC_PRIO_NUM")));
		auto f = fact_text("fact", "cn.txs_get_schedq_num");
		t.eq(f && *f == want, 1,
		     "schedq formula: group x HBL_EN_PFC_PRIO_NUM + priority, public '" +
			     (f ? *f : std::string()) + "'");
	}
	t.eq(qpc::kRawSchedQ,
	     def("TXS_PORT_RAW_SCHED_Q") * def("HBL_EN_PFC_PRIO_NUM") +
		     def("GAUDI2_PFC_PRIO_DRIVER"),
	     "kRawSchedQ");
	std::printf("[ public   ] gaudi_qpc.h: %u comparisons, %u disagree\n", t.checked, t.bad);
	EXPECT_EQ(t.checked, 35u);
}

/* gaudi_serdes.h offsets and fields against nic0_serdes0/1_regs.h, nic0_serdes0_masks.h,
 * nic0_phy_masks.h and gaudi2_cn_phy.c's address macros. */
TEST(PublicFacts, SerdesMatchesAsicRegs)
{
	ASSERT_TRUE(public_facts().error.empty()) << public_facts().error;
	Tally t;
	const uint64_t p00 = def("NIC0_SERDES0_LANE0_REGISTER_0P00");
	t.eq(serdes::kSerdes0Base + reg::kNic0CfgBase, p00, "kSerdes0Base");
	t.eq(serdes::kSerdesStride, def("NIC_PHY_CFG_SIZE"), "kSerdesStride");
	t.eq(serdes::kSerdesStride, def("NIC0_SERDES1_LANE0_REGISTER_0P00") - p00,
	     "kSerdesStride vs SERDES1");
	t.eq(serdes::kWindowSize, def("NIC_PHY_CFG_SIZE"), "kWindowSize");
	t.eq(serdes::kLaneLoStride, def("LANE_LO_OFF"), "kLaneLoStride");
	t.eq(serdes::kLaneHiStride, def("LANE_HI_OFF"), "kLaneHiStride");
	t.eq(serdes::kAi00, def("NIC0_SERDES0_LANE0_REGISTER_AI00") - p00, "kAi00");
	t.eq(serdes::lane_reg(0, 1), def("NIC0_SERDES0_LANE1_REGISTER_0P00") - p00,
	     "lane_reg(0P00, 1)");
	t.eq(serdes::lane_reg(serdes::kAi00, 1), def("NIC0_SERDES0_LANE1_REGISTER_AI00") - p00,
	     "lane_reg(AI00, 1)");
	t.eq(serdes::base(1) - serdes::base(0), def("NIC_PHY_CFG_SIZE"), "base(1) - base(0)");

	struct R {
		uint32_t ours;
		const char *pub;
	};
	const std::string l0 = "NIC0_SERDES0_LANE0_REGISTER_", g = "NIC0_SERDES0_REGISTER_";
	const R lane[] = {
		{serdes::R_0P11, "0P11"}, {serdes::R_0P41, "0P41"}, {serdes::R_0P42, "0P42"},
		{serdes::R_0P43, "0P43"}, {serdes::R_0PA0, "0PA0"}, {serdes::R_0PA1, "0PA1"},
		{serdes::R_0PA2, "0PA2"}, {serdes::R_0PA3, "0PA3"}, {serdes::R_0PA4, "0PA4"},
		{serdes::R_0PA5, "0PA5"}, {serdes::R_0PA7, "0PA7"}, {serdes::R_0PA9, "0PA9"},
		{serdes::R_0PAB, "0PAB"}, {serdes::R_0PAD, "0PAD"}, {serdes::R_0PAF, "0PAF"},
		{serdes::R_0PB0, "0PB0"}, {serdes::R_0PCC, "0PCC"}, {serdes::R_0PEA, "0PEA"},
		{serdes::R_0PF8, "0PF8"}, {serdes::R_0N0B, "0N0B"}, {serdes::R_0N0C, "0N0C"},
		{serdes::R_0N61, "0N61"}, {serdes::R_0NF3, "0NF3"}, {serdes::R_0NF8, "0NF8"},
		{serdes::R_AN10, "AN10"}, {serdes::R_AJ40, "AJ40"},
	};
	for (const auto &r : lane)
		t.eq(r.ours, def(l0 + r.pub) - p00, std::string("R_") + r.pub);
	const R global[] = {
		{serdes::R_980D, "980D"}, {serdes::R_980F, "980F"}, {serdes::R_9812, "9812"},
		{serdes::R_9814, "9814"}, {serdes::R_9815, "9815"}, {serdes::R_9816, "9816"},
		{serdes::R_9825, "9825"}, {serdes::R_982E, "982E"}, {serdes::R_9F00, "9F00"},
		{serdes::R_9F0C, "9F0C"}, {serdes::R_9F0D, "9F0D"}, {serdes::R_9F0E, "9F0E"},
		{serdes::R_9F0F, "9F0F"},
	};
	for (const auto &r : global)
		t.eq(r.ours, def(g + r.pub) - p00, std::string("R_") + r.pub);
	/* The FRACN register set_pll_tx writes by address: not in the header, between 0NF3 and
	 * 0NF6, bit 0, cleared. */
	t.eq(serdes::R_0NF5_FRACN, num("fact", "phy.set_pll_tx.fracn", 0) - p00, "R_0NF5_FRACN");
	t.eq(serdes::R_0NF5_FRACN > serdes::R_0NF3 && serdes::R_0NF5_FRACN < def(l0 + "0NF6") - p00,
	     1, "R_0NF5_FRACN between 0NF3 and 0NF6");
	t.eq(serdes::F_0NF5_FRACN_LSB.mask(), num("fact", "phy.set_pll_tx.fracn", 2),
	     "F_0NF5_FRACN_LSB");

	struct F {
		reg::Field ours;
		const char *pub;
	};
	const F fields[] = {
		{serdes::F_0P41_PAM4_EN, "0P41_PAM4_EN"},
		{serdes::F_0P42_RX_GRAYCODE_EN, "0P42_RX_GRAYCODE_EN"},
		{serdes::F_0P42_RX_PRECODE_EN, "0P42_RX_PRECODE_EN"},
		{serdes::F_0P43_RX_PRBS_AUTO_SYNC_EN, "0P43_RX_PRBS_AUTO_SYNC_EN"},
		{serdes::F_0P43_PU_PRBS_SYNC_CHKR, "0P43_PU_PRBS_SYNC_CHKR"},
		{serdes::F_0P43_PU_PRBS_CHKR, "0P43_PU_PRBS_CHKR"},
		{serdes::F_0P43_PRBS_MODE_SEL, "0P43_PRBS_MODE_SEL"},
		{serdes::F_0P43_RX_DATA_FLIP, "0P43_RX_DATA_FLIP"},
		{serdes::F_0P43_RX_SWAP_MSB_LSB, "0P43_RX_SWAP_MSB_LSB"},
		{serdes::F_0PA0_TX_ANA_OUT_FLIP, "0PA0_TX_ANA_OUT_FLIP"},
		{serdes::F_0PA0_TX_PRBS_MODE, "0PA0_TX_PRBS_MODE"},
		{serdes::F_0PA0_TX_PRBS_GEN_EN, "0PA0_TX_PRBS_GEN_EN"},
		{serdes::F_0PA0_TX_PAM4_TEST_EN, "0PA0_TX_PAM4_TEST_EN"},
		{serdes::F_0PA0_TX_PRBS_CLK_EN, "0PA0_TX_PRBS_CLK_EN"},
		{serdes::F_0PA0_TX_TEST_DATA_SRC, "0PA0_TX_TEST_DATA_SRC"},
		{serdes::F_0PA5_TX_PRE_2, "0PA5_TX_PRE_2"},
		{serdes::F_0PA7_TX_PRE_1, "0PA7_TX_PRE_1"},
		{serdes::F_0PA9_TX_MAIN, "0PA9_TX_MAIN"},
		{serdes::F_0PAB_TX_POST_1, "0PAB_TX_POST_1"},
		{serdes::F_0PAD_TX_POST_2, "0PAD_TX_POST_2"},
		{serdes::F_0PAF_TX_PRECODE_EN, "0PAF_TX_PRECODE_EN"},
		{serdes::F_0PAF_TX_GRAYCODE_EN, "0PAF_TX_GRAYCODE_EN"},
		{serdes::F_0PAF_TX_SWAP_MSB_LSB, "0PAF_TX_SWAP_MSB_LSB"},
		{serdes::F_0PB0_TX_HALF_RATE_EN, "0PB0_TX_HALF_RATE_EN"},
		{serdes::F_0PB0_TX_NRZ_MODE, "0PB0_TX_NRZ_MODE"},
		{serdes::F_0PB0_TX_NRZ_PRBS_GEN_EN, "0PB0_TX_NRZ_PRBS_GEN_EN"},
		{serdes::F_0PB0_TX_NRZ_PRBS_CLK_EN, "0PB0_TX_NRZ_PRBS_CLK_EN"},
		{serdes::F_0PEA_VDACCLKPHASE0, "0PEA_VDACCLKPHASE0"},
		{serdes::F_0PF8_AC_COUPLE_EN, "0PF8_AC_COUPLE_EN"},
		{serdes::F_0N61_PRBS_CHKR_EN, "0N61_PRBS_CHKR_EN"},
		{serdes::F_0N61_NRZ_PRBS_MODE_SEL, "0N61_NRZ_PRBS_MODE_SEL"},
		{serdes::F_0N61_PRBS_CHECK_FLIP, "0N61_PRBS_CHECK_FLIP"},
		{serdes::F_0NF8_PU_VDRV, "0NF8_PU_VDRV"},
	};
	for (const auto &f : fields)
		t.field(f.ours, l0 + f.pub, std::string("F_") + f.pub);
	/* AJ40 is laid out alike in every lane; the cached lines are lane 1's. */
	t.field(serdes::F_AJ40_ANLT_LANE_SWAPPING_EN,
		"NIC0_SERDES0_LANE1_REGISTER_AJ40_ANLT_LANE_SWAPPING_EN",
		"F_AJ40_ANLT_LANE_SWAPPING_EN");
	const F gfields[] = {
		{serdes::F_980D_DOMAIN_RESET, "980D_DOMAIN_RESET"},
		{serdes::F_9815_RESPONSE, "9815_RESPONSE"},
		{serdes::F_9825_PLL_LOCK_SRC_SEL, "9825_PLL_LOCK_SRC_SEL"},
		{serdes::F_9825_PLL_0_LOCK_EN, "9825_PLL_0_LOCK_EN"},
		{serdes::F_9825_PLL_0_LOCK_32T_CLK_SEL, "9825_PLL_0_LOCK_32T_CLK_SEL"},
		{serdes::F_982E_PLL_1_LOCK_EN, "982E_PLL_1_LOCK_EN"},
		{serdes::F_982E_PLL_1_LOCK_32T_CLK_SEL, "982E_PLL_1_LOCK_32T_CLK_SEL"},
	};
	for (const auto &f : gfields)
		t.field(f.ours, g + f.pub, std::string("F_") + f.pub);
	/* The state-machine toggles fw_unload_all writes are those fields' masks. */
	t.eq(serdes::k0P11SmCont,
	     reg::Field{pub_field(l0 + "0P11_PAM4_SM_CONT").first,
			pub_field(l0 + "0P11_PAM4_SM_CONT").second}
		     .mask(),
	     "k0P11SmCont vs 0P11 PAM4_SM_CONT");
	t.eq(serdes::k0N0CNrzCont,
	     reg::Field{pub_field(l0 + "0N0C_NRZ_SM_CONT").first,
			pub_field(l0 + "0N0C_NRZ_SM_CONT").second}
		     .mask(),
	     "k0N0CNrzCont vs 0N0C NRZ_SM_CONT");
	/* 980F bits fit its one 16-bit field. */
	t.eq((serdes::k980fGo | serdes::k980fPam4A | serdes::k980fPam4B) >>
		     pub_field(g + "980F_FIRMWARE_CTLE_MODE_ADDR").second,
	     0, "980F bits inside FIRMWARE_CTLE_MODE_ADDR");
	std::printf("[ public   ] gaudi_serdes.h registers/fields: %u comparisons, %u disagree\n",
		    t.checked, t.bad);
	EXPECT_EQ(t.checked, 96u);
}

/* gaudi_serdes.h's MCU commands, reset values, firmware-load protocol and board defaults, and
 * gaudi_phy.h's timings, against gaudi2_cn_phy.c. */
TEST(PublicFacts, SerdesConstantsMatchPhyC)
{
	ASSERT_TRUE(public_facts().error.empty()) << public_facts().error;
	Tally t;
	auto fact = [](const char *n, size_t i = 0) { return num("fact", n, i); };
	t.eq(serdes::kResetSoft, fact("phy.soft_reset.domain_reset"), "kResetSoft");
	t.eq(serdes::kResetLogic, fact("phy.logic_reset.domain_reset"), "kResetLogic");
	t.eq(serdes::kResetCpu, fact("phy.cpu_reset.domain_reset"), "kResetCpu");
	t.eq(serdes::F_9815_RESPONSE.lsb, fact("phy.fw_cmd.response", 0), "fw_cmd response shift");
	t.eq(serdes::F_9815_RESPONSE.mask() >> serdes::F_9815_RESPONSE.lsb,
	     fact("phy.fw_cmd.response", 1), "fw_cmd response mask");
	t.eq(serdes::kCmdStartPam4, fact("phy.fw_start.cmd_pam4_nrz", 0), "kCmdStartPam4");
	t.eq(serdes::kCmdStartNrz, fact("phy.fw_start.cmd_pam4_nrz", 1), "kCmdStartNrz");
	t.eq(serdes::kSpeedPam4, fact("phy.fw_start.speed_pam4_nrz", 0), "kSpeedPam4");
	t.eq(serdes::kSpeedNrz, fact("phy.fw_start.speed_pam4_nrz", 1), "kSpeedNrz");
	t.eq(serdes::kResStart, fact("phy.fw_start.response"), "kResStart");
	t.eq(serdes::kResStartTx, fact("phy.fw_start_tx.response"), "kResStartTx");
	t.eq(serdes::kCmdVcocap, fact("phy.fw_config_vcocap", 0), "kCmdVcocap");
	t.eq(4, fact("phy.fw_config_vcocap", 1), "vcocap mode shift (gaudi_phy.cpp's << 4)");
	t.eq(serdes::kResConfig, fact("phy.fw_config_vcocap", 2), "kResConfig (vcocap)");
	t.eq(serdes::kCmdGetFwReg, fact("phy.get_fw_reg", 0), "kCmdGetFwReg");
	t.eq(serdes::kResConfig, fact("phy.get_fw_reg", 1), "kResConfig (get_fw_reg)");
	t.eq(serdes::kCmdSetFwReg, fact("phy.set_fw_reg", 0), "kCmdSetFwReg");
	t.eq(serdes::kResConfig, fact("phy.set_fw_reg", 1), "kResConfig (set_fw_reg)");
	t.eq(serdes::kCmdRvDebug, fact("phy.rv_debug", 0), "kCmdRvDebug");
	t.eq(4, fact("phy.rv_debug", 1), "rv_debug mode shift (gaudi_phy.cpp's << 4)");
	t.eq(serdes::kResDebug, fact("phy.rv_debug", 2), "kResDebug");
	t.eq(serdes::kCmdHash, fact("phy.fw_hash", 0), "kCmdHash");
	t.eq(serdes::kResInfo, fact("phy.fw_hash", 1), "kResInfo (hash)");
	t.eq(serdes::kCmdCrc, fact("phy.fw_crc", 0), "kCmdCrc");
	t.eq(serdes::kResInfo, fact("phy.fw_crc", 1), "kResInfo (CRC)");
	t.eq(serdes::kCmdSilenceRx, fact("phy.port_stop.silence"), "kCmdSilenceRx");
	t.eq(serdes::kFwRegLtOption, fact("phy.lane_swapping_config.fw_reg"), "kFwRegLtOption");
	t.eq(serdes::kFwRegTimeConst, fact("phy.mcu_cal_enable_all.fw_reg"), "kFwRegTimeConst");
	t.eq(serdes::kTimeConstantRatio, def("NIC_PHY_FW_TIME_CONSTANT_RATIO"),
	     "kTimeConstantRatio");
	t.eq(serdes::kTunedPam4, fact("phy.fw_tuning.pam4", 0), "kTunedPam4");
	t.eq(serdes::kTunedPam4Alt, fact("phy.fw_tuning.pam4", 1), "kTunedPam4Alt");
	t.eq(serdes::kTunedNrz, fact("phy.fw_tuning.nrz"), "kTunedNrz");
	t.eq(serdes::kCrcOldFw, fact("phy.crc_old_fw"), "kCrcOldFw");
	t.eq(serdes::kCrcAnltFw, fact("phy.crc_anlt_fw"), "kCrcAnltFw");
	t.eq(serdes::k980fGo, fact("phy.fw_config.980f_go"), "k980fGo");
	t.eq(serdes::k980fPam4A, fact("phy.fw_config.980f_pam4", 0), "k980fPam4A");
	t.eq(serdes::k980fPam4B, fact("phy.fw_config.980f_pam4", 1), "k980fPam4B");
	t.eq(0, fact("phy.set_pll_tx.fracn", 1), "FRACN LSB written 0");
	/* Firmware load. */
	t.eq(serdes::kImageSkip, fact("phy.fw_load.skip"), "kImageSkip");
	t.eq(serdes::kImageEntryOff, fact("phy.fw_load.entry_length_ram_off", 0), "kImageEntryOff");
	t.eq(serdes::kImageLengthOff, fact("phy.fw_load.entry_length_ram_off", 1),
	     "kImageLengthOff");
	t.eq(serdes::kImageRamAddrOff, fact("phy.fw_load.entry_length_ram_off", 2),
	     "kImageRamAddrOff");
	t.eq(serdes::kImageHeader, fact("phy.fw_load.header"), "kImageHeader");
	t.eq(serdes::kSectionBytes, fact("phy.fw_load.section_bytes"), "kSectionBytes");
	t.eq(serdes::kSectionWords, fact("phy.fw_load.section_words"), "kSectionWords");
	t.eq(serdes::kFwExecCtrlHalt, fact("phy.fw_load.fw2_halt"), "kFwExecCtrlHalt (load)");
	t.eq(serdes::kFwExecCtrlHalt, fact("phy.fw_unload_all.halt"), "kFwExecCtrlHalt (unload)");
	t.eq(serdes::kSectionCmd, fact("phy.fw_load.section_cmd"), "kSectionCmd");
	t.eq(serdes::kExecCmd, fact("phy.fw_load.exec_cmd"), "kExecCmd");
	t.eq(serdes::k0P11SmCont, fact("phy.fw_unload_all.pam4_cont"), "k0P11SmCont");
	t.eq(serdes::k0N0CNrzCont, fact("phy.fw_unload_all.nrz_cont"), "k0N0CNrzCont");
	/* clock_init by SerDes (port & 1) and lane. */
	for (unsigned port = 0; port < 2; port++)
		for (unsigned lane = 0; lane < 2; lane++) {
			const char *n = port == 0 && lane == 0 ? "phy.clock_init.raven0_lane0"
					: port == 1	       ? "phy.clock_init.raven1_lane0"
							       : "phy.clock_init.raven0_lane1";
			std::string at =
				" port " + std::to_string(port) + " lane " + std::to_string(lane);
			t.eq(serdes::clock_init_0pcc(port, lane), fact(n, 0),
			     "clock_init_0pcc" + at);
			t.eq(serdes::clock_init_0nf3(port, lane), fact(n, 1),
			     "clock_init_0nf3" + at);
		}
	/* Board defaults: HL-225 polarity masks and lane remap; the F/W map's decoding. */
	t.eq(serdes::kPolTxMaskHl225, def("NIC_PHY_TX_POL_MASK_HL225"), "kPolTxMaskHl225");
	t.eq(serdes::kPolRxMaskHl225, def("NIC_PHY_RX_POL_MASK_HL225"), "kPolRxMaskHl225");
	const uint64_t nib = fact("phy.fw_parse_lane_map.bits", 0),
		       nib_bits = fact("phy.fw_parse_lane_map.bits", 1);
	const uint64_t id_mask =
		(1u << pub_field("NIC0_PHY_PHY_ASYNC_LANE_SWAP_SERDES0_TX0_SWAP_ID").second) - 1;
	const std::string swap = "NIC0_PHY_PHY_ASYNC_LANE_SWAP_";
	const uint32_t shift[4] = {pub_field(swap + "SERDES0_TX0_SWAP_ID").first,
				   pub_field(swap + "SERDES0_TX1_SWAP_ID").first,
				   pub_field(swap + "SERDES1_TX0_SWAP_ID").first,
				   pub_field(swap + "SERDES1_TX1_SWAP_ID").first};
	auto fw_map = [&](const char *n) {
		uint64_t m = 0;
		for (unsigned l = 0; l < 4; l++)
			m |= (fact(n, l) & nib) << (l * nib_bits);
		return m;
	};
	auto mac_lane_map = [&](uint64_t fw) {
		uint64_t v = 0;
		for (unsigned l = 0; l < 4; l++)
			v |= (((fw >> (l * nib_bits)) & nib) & id_mask) << shift[l];
		return v;
	};
	t.eq(serdes::kTxSwapHl225Macro0, fw_map("phy.mac_lane_remap.macro0"), "kTxSwapHl225Macro0");
	t.eq(serdes::kTxSwapHl225Macro11, fw_map("phy.mac_lane_remap.macro11"),
	     "kTxSwapHl225Macro11");
	for (uint16_t m : {uint16_t(0x3210), uint16_t(0x2013), uint16_t(0x2301), uint16_t(0x0123)})
		t.eq(serdes::lane_swap_from_fw(m), mac_lane_map(m),
		     "lane_swap_from_fw(" + hex(m) + ") vs NIC_MAC_LANE_MAP(FW_PARSE_LANE_MAP)");
	/* gaudi_phy.h's waits and poll bound. */
	const gaudi::hw::PhyTimings pt;
	t.eq(pt.cmd_poll_us, fact("phy.fw_cmd.poll_usleep"), "PhyTimings::cmd_poll_us");
	t.eq(pt.load_poll_us, fact("phy.fw_load.fw2_poll_usleep"), "PhyTimings::load_poll_us");
	t.eq(pt.section_poll_us, fact("phy.fw_load.section_poll_usleep"),
	     "PhyTimings::section_poll_us");
	t.eq(pt.max_polls, def("NIC_PHY_READ_COUNTS_PER_MS"), "PhyTimings::max_polls");
	t.eq(pt.unload_us, fact("phy.fw_unload_all.msleep") * 1000, "PhyTimings::unload_us");
	t.eq(pt.toggle_us, fact("phy.fw_unload_all.toggle_usleep"), "PhyTimings::toggle_us");
	t.eq(pt.exec_us, fact("phy.fw_load.exec_msleep") * 1000, "PhyTimings::exec_us");
	t.eq(pt.tuning_interval_us, def("NIC_PHY_FW_TUNING_INTERVAL_MS") * 1000,
	     "PhyTimings::tuning_interval_us");
	t.eq(pt.pcs_down_limit, def("NIC_PHY_PCS_LINK_DOWN_TH_S"), "PhyTimings::pcs_down_limit");
	std::printf("[ public   ] gaudi_serdes.h / gaudi_phy.h constants: %u comparisons, %u "
		    "disagree\n",
		    t.checked, t.bad);
	EXPECT_EQ(t.checked, 76u);
}

/* gaudi_sm.h against dcore0_sync_mngr_objs_regs.h / _masks.h, gaudi2_masks.h (SIGN),
 * habanalabs gaudi2.h (CFG_BASE), gaudi2P.h (reserved ids) and gaudi2.c's monitor recipe. */
TEST(PublicFacts, SyncManagerMatchesHabanalabs)
{
	ASSERT_TRUE(public_facts().error.empty()) << public_facts().error;
	Tally t;
	const std::string o = "DCORE0_SYNC_MNGR_OBJS_";
	t.eq(sm::SOB_OBJ_0, def(o + "SOB_OBJ_0"), "SOB_OBJ_0");
	t.eq(sm::MON_PAY_ADDRL_0, def(o + "MON_PAY_ADDRL_0"), "MON_PAY_ADDRL_0");
	t.eq(sm::MON_PAY_ADDRH_0, def(o + "MON_PAY_ADDRH_0"), "MON_PAY_ADDRH_0");
	t.eq(sm::MON_PAY_DATA_0, def(o + "MON_PAY_DATA_0"), "MON_PAY_DATA_0");
	t.eq(sm::MON_ARM_0, def(o + "MON_ARM_0"), "MON_ARM_0");
	t.eq(sm::MON_CONFIG_0, def(o + "MON_CONFIG_0"), "MON_CONFIG_0");
	t.eq(sm::kSobs, (def(o + "SOB_OBJ_8191") - def(o + "SOB_OBJ_0")) / 4 + 1, "kSobs");
	t.eq(sm::kMonitors, (def(o + "MON_PAY_ADDRL_2047") - def(o + "MON_PAY_ADDRL_0")) / 4 + 1,
	     "kMonitors (ADDRL)");
	t.eq(sm::kMonitors, (def(o + "MON_ARM_2047") - def(o + "MON_ARM_0")) / 4 + 1,
	     "kMonitors (ARM)");
	t.eq(sm::kCfgBase, def("CFG_BASE"), "kCfgBase");
	t.field(sm::SOB_OBJ_VAL, o + "SOB_OBJ_VAL", "SOB_OBJ_VAL");
	t.field(sm::SOB_OBJ_SIGN, o + "SOB_OBJ_SIGN", "SOB_OBJ_SIGN");
	t.field(sm::SOB_OBJ_INC, o + "SOB_OBJ_INC", "SOB_OBJ_INC");
	t.field(sm::MON_ARM_SID, o + "MON_ARM_SID", "MON_ARM_SID");
	t.field(sm::MON_ARM_MASK, o + "MON_ARM_MASK", "MON_ARM_MASK");
	t.field(sm::MON_ARM_SOP, o + "MON_ARM_SOP", "MON_ARM_SOP");
	t.field(sm::MON_ARM_SOD, o + "MON_ARM_SOD", "MON_ARM_SOD");
	t.field(sm::MON_CONFIG_WR_NUM, o + "MON_CONFIG_WR_NUM", "MON_CONFIG_WR_NUM");
	/* Payload values, composed from the public fields and the values gaudi2P.h / gaudi2.c put
	 * in them. */
	auto pf = [&](const char *n) {
		auto f = pub_field(o + n);
		return reg::Field{f.first, f.second};
	};
	t.eq(sm::kSobIncrementByOne,
	     pf("SOB_OBJ_VAL").put(num("fact", "sm.increment_by_one", 0)) |
		     pf("SOB_OBJ_INC").put(num("fact", "sm.increment_by_one", 1)),
	     "kSobIncrementByOne");
	const uint32_t dec = pf("SOB_OBJ_VAL").put(num("fact", "sm.decrement_payload", 0)) |
			     pf("SOB_OBJ_SIGN").put(num("fact", "sm.decrement_payload", 1)) |
			     pf("SOB_OBJ_INC").put(num("fact", "sm.decrement_payload", 2));
	t.eq(sm::kSobDecrementByOne, dec, "kSobDecrementByOne");
	/* Reserved ids. */
	t.eq(sm::kMaxPendingCs, def("GAUDI2_MAX_PENDING_CS"), "kMaxPendingCs");
	t.eq(sm::kNumberOfDec, def("NUMBER_OF_DEC"), "kNumberOfDec");
	t.eq(sm::kSobNicPortFirst, enumerator("GAUDI2_RESERVED_SOB_NIC_PORT_FIRST"),
	     "kSobNicPortFirst");
	t.eq(sm::kMonNicPortFirst, enumerator("GAUDI2_RESERVED_MON_NIC_PORT_FIRST"),
	     "kMonNicPortFirst");
	const uint64_t ports = def("NIC_NUMBER_OF_PORTS");
	t.eq(sm::nic_eq_sob(ports - 1), enumerator("GAUDI2_RESERVED_SOB_NIC_PORT_LAST"),
	     "nic_eq_sob(last port)");
	t.eq(sm::nic_eq_first_mon(ports - 1) + 2, enumerator("GAUDI2_RESERVED_MON_NIC_PORT_LAST"),
	     "nic_eq_first_mon(last port) + 2");

	/* arm_virt_msix_db on a memory window: what each monitor holds, against gaudi2.c's
	 * recipe (the decrement to SOB, the re-arm of the master, 3 writes, the interrupt id). */
	std::vector<uint32_t> mem(sm::kWindowSize / 4, 0xDEADBEEF);
	gaudi::hw::Bar bar(reinterpret_cast<volatile uint8_t *>(mem.data()), sm::kWindowSize);
	const unsigned port = 5, sob = sm::nic_eq_sob(port), mon = sm::nic_eq_first_mon(port);
	const uint64_t db = 0x0000123456789AB0ull;
	sm::arm_virt_msix_db(bar, sob, mon, 27, db);
	auto at = [&](uint64_t cfg_addr) { return mem[(cfg_addr - sm::kWindowBase) / 4]; };
	auto mon_reg = [&](const char *r, unsigned m) { return at(def(o + r) + 4 * m); };
	const uint64_t cfg = def("CFG_BASE");
	const uint32_t arm =
		pf("MON_ARM_SID").put(sob / num("fact", "sm.arm.sob_group_div")) |
		pf("MON_ARM_MASK").put(~(1u << (sob & num("fact", "sm.arm.mask_bits"))) & 0xFF) |
		pf("MON_ARM_SOP").put(num("fact", "sm.arm.mode")) |
		pf("MON_ARM_SOD").put(num("fact", "sm.arm.sod"));
	t.eq(at(def(o + "SOB_OBJ_0") + 4 * sob), 0, "SOB reset to 0");
	t.eq(mon_reg("MON_PAY_ADDRL_0", mon + 1), uint32_t(cfg + def(o + "SOB_OBJ_0") + 4 * sob),
	     "monitor 2 address low (the SOB)");
	t.eq(mon_reg("MON_PAY_ADDRH_0", mon + 1),
	     uint32_t((cfg + def(o + "SOB_OBJ_0") + 4 * sob) >> 32), "monitor 2 address high");
	t.eq(mon_reg("MON_PAY_DATA_0", mon + 1), dec, "monitor 2 data (-1)");
	t.eq(mon_reg("MON_PAY_ADDRL_0", mon + 2), uint32_t(cfg + def(o + "MON_ARM_0") + 4 * mon),
	     "monitor 3 address low (the master's ARM)");
	t.eq(mon_reg("MON_PAY_ADDRH_0", mon + 2),
	     uint32_t((cfg + def(o + "MON_ARM_0") + 4 * mon) >> 32), "monitor 3 address high");
	t.eq(mon_reg("MON_PAY_DATA_0", mon + 2), arm, "monitor 3 data (re-arm)");
	t.eq(mon_reg("MON_CONFIG_0", mon),
	     pf("MON_CONFIG_WR_NUM").put(num("fact", "sm.config.wr_num")),
	     "master CONFIG (3 writes)");
	t.eq(mon_reg("MON_PAY_ADDRL_0", mon), uint32_t(db), "master address low (doorbell)");
	t.eq(mon_reg("MON_PAY_ADDRH_0", mon), uint32_t(db >> 32), "master address high");
	t.eq(mon_reg("MON_PAY_DATA_0", mon), 27, "master data (interrupt id)");
	t.eq(mon_reg("MON_ARM_0", mon), arm, "master ARM");
	std::printf("[ public   ] gaudi_sm.h: %u comparisons, %u disagree\n", t.checked, t.bad);
	EXPECT_EQ(t.checked, 38u);
}

} /* namespace */
