/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd's traffic streams (app/gaudi-testpmd/traffic.cpp): the size schedule, the
 * field variation, the frames and their stamps, and the --stream/--txpkts/--rate options.
 */
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "gtp.h"
#include "traffic.h"

using namespace gtp;

namespace {

SizeSpec size(const std::string &s)
{
	SizeSpec z;
	std::string err;
	EXPECT_TRUE(parse_size(s, z, err)) << s << ": " << err;
	return z;
}

std::vector<uint32_t> lengths(const SizeSpec &z, size_t n, uint64_t seed = 1)
{
	SizeSchedule sch;
	sch.init(z, seed);
	std::vector<uint32_t> v;
	for (size_t i = 0; i < n; i++)
		v.push_back(sch.next());
	return v;
}

} /* namespace */

TEST(SizeSchedule, ImixIsExactlySevenFourOneInEveryCycleOfTwelve)
{
	SizeSpec z = size("imix");
	std::vector<uint32_t> v = lengths(z, 12 * 1000);
	for (size_t c = 0; c < 1000; c++) {
		std::map<uint32_t, int> n;
		for (size_t i = 0; i < 12; i++)
			n[v[c * 12 + i]]++;
		ASSERT_EQ(n.size(), 3u) << "cycle " << c;
		EXPECT_EQ(n[60], 7) << "cycle " << c;
		EXPECT_EQ(n[590], 4) << "cycle " << c;
		EXPECT_EQ(n[1514], 1) << "cycle " << c;
	}
	/* Spread out, not 7 x 60 then 4 x 590: no more than two 60s in a row. */
	int run = 0, longest = 0;
	for (uint32_t l : v) {
		run = l == 60 ? run + 1 : 0;
		longest = std::max(longest, run);
	}
	EXPECT_LE(longest, 2);
	EXPECT_EQ(z.min(), 60u);
	EXPECT_EQ(z.max(), 1514u);
	EXPECT_NEAR(z.mean_len(), (7 * 60 + 4 * 590 + 1514) / 12.0, 1e-9);
	EXPECT_EQ(z.str(), "imix");
}

TEST(SizeSchedule, ImixFitsHeadersLongerThanItsSmallestFrame)
{
	/* VLAN + IPv6 + TCP: 78 bytes of headers; imix's 60 becomes 78, order and weights kept. */
	SizeSpec z = size("imix");
	z.fit_headers(78);
	EXPECT_EQ(z.min(), 78u);
	EXPECT_EQ(z.str(), "imix (78:7,590:4,1514:1)");
	std::vector<uint32_t> a = lengths(z, 24), b = lengths(size("imix"), 24);
	for (size_t i = 0; i < a.size(); i++)
		EXPECT_EQ(a[i], b[i] == 60 ? 78u : b[i]) << i;
	/* Headers that fit (IPv4/UDP, 42 bytes): unchanged. */
	SizeSpec y = size("imix");
	y.fit_headers(42);
	EXPECT_EQ(y.str(), "imix");
	EXPECT_EQ(y.min(), 60u);
	/* A list of one's own is not imix: left as given (the caller refuses it). */
	SizeSpec x = size("60:7,590:4");
	x.fit_headers(78);
	EXPECT_EQ(x.min(), 60u);
	EXPECT_EQ(x.str(), "60:7,590:4");
	/* Through the options: a stream's imix fits its headers. */
	StreamSpec sp;
	std::string err;
	ASSERT_TRUE(parse_stream("0:vlan=1,l3=ipv6,l4=tcp,size=imix", sp, err)) << err;
	EXPECT_EQ(sp.hdr_len(), 78u);
}

TEST(SizeSchedule, CustomListHoldsItsWeightsPerCycle)
{
	SizeSpec z = size("64:3,128:1,1500:2");
	EXPECT_EQ(z.kind, SizeSpec::Kind::list);
	std::vector<uint32_t> v = lengths(z, 6 * 50);
	for (size_t c = 0; c < 50; c++) {
		std::map<uint32_t, int> n;
		for (size_t i = 0; i < 6; i++)
			n[v[c * 6 + i]]++;
		EXPECT_EQ(n[64], 3);
		EXPECT_EQ(n[128], 1);
		EXPECT_EQ(n[1500], 2);
	}
	EXPECT_EQ(z.str(), "64:3,128:1,1500:2");
	/* One entry: that length every time. */
	for (uint32_t l : lengths(size("100:5"), 20))
		EXPECT_EQ(l, 100u);
}

TEST(SizeSchedule, RangeTakesEachLengthInTurnAndWraps)
{
	SizeSpec z = size("64-67");
	EXPECT_EQ(z.kind, SizeSpec::Kind::range);
	EXPECT_EQ(lengths(z, 9), (std::vector<uint32_t>{64, 65, 66, 67, 64, 65, 66, 67, 64}));
	EXPECT_DOUBLE_EQ(z.mean_len(), 65.5);
}

TEST(SizeSchedule, RandomStaysWithinItsBoundsAndCoversThem)
{
	SizeSpec z = size("random:64-71");
	EXPECT_EQ(z.kind, SizeSpec::Kind::random);
	std::map<uint32_t, int> n;
	for (uint32_t l : lengths(z, 8000, 42)) {
		ASSERT_GE(l, 64u);
		ASSERT_LE(l, 71u);
		n[l]++;
	}
	EXPECT_EQ(n.size(), 8u);
	for (auto &[l, k] : n) /* 1000 expected each; 5 sigma is ~150 */
		EXPECT_NEAR(k, 1000, 200) << l;
	EXPECT_EQ(lengths(size("1000"), 3), (std::vector<uint32_t>{1000, 1000, 1000}));
}

TEST(SizeSpec, BadSizesAreRefused)
{
	for (const char *s :
	     {"", "13", "65536", "abc", "64-64", "100-64", "random:64", "random:abc-100", "64:0",
	      "64:x", "64:1,", ":3", "64-",
	      "1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,9:1,10:1,11:1,12:1,13:1,14:1,15:1,16:1,"
	      "17:1"}) {
		SizeSpec z;
		std::string err;
		EXPECT_FALSE(parse_size(s, z, err)) << "'" << s << "' was taken";
		EXPECT_FALSE(err.empty()) << s;
	}
}

TEST(Field, IncrementAndDecrementWrapWithinTheRange)
{
	Rng rng;
	Field f;
	f.init({FieldSpec::Var::inc, 10, 12, 0, true});
	std::vector<uint64_t> v;
	for (int i = 0; i < 7; i++)
		v.push_back(f.next(rng));
	EXPECT_EQ(v, (std::vector<uint64_t>{10, 11, 12, 10, 11, 12, 10}));
	f.init({FieldSpec::Var::dec, 10, 12, 0, true});
	v.clear();
	for (int i = 0; i < 7; i++)
		v.push_back(f.next(rng));
	EXPECT_EQ(v, (std::vector<uint64_t>{12, 11, 10, 12, 11, 10, 12}));
	/* The top of the value space wraps too. */
	f.init({FieldSpec::Var::inc, 65534, 65535, 0, true});
	EXPECT_EQ(f.next(rng), 65534u);
	EXPECT_EQ(f.next(rng), 65535u);
	EXPECT_EQ(f.next(rng), 65534u);
	f.init({FieldSpec::Var::fixed, 7, 7, 0, true});
	EXPECT_EQ(f.next(rng), 7u);
	EXPECT_EQ(f.next(rng), 7u);
	EXPECT_FALSE(f.varies());
}

TEST(Field, RandomStaysWithinTheRange)
{
	Rng rng;
	Field f;
	f.init({FieldSpec::Var::random, 1000, 1009, 0, true});
	std::map<uint64_t, int> n;
	for (int i = 0; i < 10000; i++) {
		uint64_t x = f.next(rng);
		ASSERT_GE(x, 1000u);
		ASSERT_LE(x, 1009u);
		n[x]++;
	}
	EXPECT_EQ(n.size(), 10u);
}

TEST(Rate, Parsed)
{
	RateSpec r;
	std::string err;
	ASSERT_TRUE(parse_rate("10000", r, err));
	EXPECT_EQ(r.unit, RateSpec::Unit::pps);
	EXPECT_EQ(r.value, 10000);
	ASSERT_TRUE(parse_rate("2500pps", r, err));
	EXPECT_EQ(r.value, 2500);
	ASSERT_TRUE(parse_rate("2.5gbps", r, err));
	EXPECT_EQ(r.unit, RateSpec::Unit::gbps);
	EXPECT_DOUBLE_EQ(r.value, 2.5);
	ASSERT_TRUE(parse_rate("500mbps", r, err));
	EXPECT_DOUBLE_EQ(r.value, 0.5);
	ASSERT_TRUE(parse_rate("40%", r, err));
	EXPECT_EQ(r.unit, RateSpec::Unit::percent);
	EXPECT_EQ(r.value, 40);
	for (const char *s : {"", "0", "-5", "101%", "0%", "abc", "5 gbps", "gbps", "0.5"})
		EXPECT_FALSE(parse_rate(s, r, err)) << s;
}

TEST(Rate, PercentCountsTheWireAndTheGaudiMinimum)
{
	SizeSpec z = size("64");
	RateSpec r{RateSpec::Unit::percent, 100};
	/* 100 Gbit/s, 64-byte frames (no FCS) on plain Ethernet: 64 + 24 = 88 bytes a frame. */
	EXPECT_NEAR(rate_pps(r, z, 100e9, kEthMinFrame), 100e9 / (88 * 8), 1);
	/* A Gaudi port sends 187 bytes at least: 211 on the wire. */
	EXPECT_NEAR(rate_pps(r, z, 100e9, kGaudiMinFrame), 100e9 / (211 * 8), 1);
	EXPECT_DOUBLE_EQ(wire_len(1514, kGaudiMinFrame), 1538);
	EXPECT_DOUBLE_EQ(wire_len(42, kEthMinFrame), 84);
	/* imix at 10%: the mean of the wire lengths over a cycle. */
	double mean = (7 * 211.0 + 4 * 614 + 1538) / 12;
	EXPECT_NEAR(rate_pps({RateSpec::Unit::percent, 10}, size("imix"), 100e9, kGaudiMinFrame),
		    10e9 / (8 * mean), 1e-6);
	EXPECT_NEAR(rate_pps({RateSpec::Unit::gbps, 1}, size("imix"), 0, kGaudiMinFrame),
		    1e9 / (8 * size("imix").mean_len()), 1e-6);
	/* No rate: as fast as it goes, which the report must not call the line rate. */
	EXPECT_EQ(RateSpec{}.str(), "unpaced");
	EXPECT_EQ(rate_pps(RateSpec{}, z, 100e9, kGaudiMinFrame), 0);
}

TEST(Stream, ParsedWithEveryKey)
{
	StreamSpec s;
	std::string err;
	ASSERT_TRUE(parse_stream("1:qinq=200.100,l3=ipv6,l4=tcp,src_mac=02:00:00:00:00:01,"
				 "dst_mac=02:00:00:00:00:10-02:00:00:00:00:1f/random,"
				 "src_ip=2001:db8::1-2001:db8::ff/dec,dst_ip=2001:db8::2,"
				 "sport=1000-1010,dport=80,size=64:7,594:4,1518:1,rate=40%",
				 s, err))
		<< err;
	EXPECT_EQ(s.port, 1);
	EXPECT_EQ(s.nvlan, 2);
	EXPECT_EQ(s.vlan[0], 200);
	EXPECT_EQ(s.vlan[1], 100);
	EXPECT_EQ(s.l3, L3::ipv6);
	EXPECT_EQ(s.l4, L4::tcp);
	EXPECT_EQ(s.src_mac.var, FieldSpec::Var::fixed);
	EXPECT_EQ(s.src_mac.lo, 0x020000000001u);
	EXPECT_EQ(s.dst_mac.var, FieldSpec::Var::random);
	EXPECT_EQ(s.dst_mac.lo, 0x020000000010u);
	EXPECT_EQ(s.dst_mac.hi, 0x02000000001fu);
	EXPECT_EQ(s.src_ip.var, FieldSpec::Var::dec);
	EXPECT_EQ(s.src_ip.hi64, 0x20010db800000000u);
	EXPECT_EQ(s.src_ip.lo, 1u);
	EXPECT_EQ(s.src_ip.hi, 0xffu);
	EXPECT_EQ(s.sport.var, FieldSpec::Var::inc); /* a range without /VAR increments */
	EXPECT_EQ(s.sport.count(), 11u);
	EXPECT_EQ(s.dport.lo, 80u);
	EXPECT_TRUE(s.size_given);
	EXPECT_EQ(s.size.str(), "64:7,594:4,1518:1");
	EXPECT_EQ(s.rate.unit, RateSpec::Unit::percent);
	EXPECT_EQ(s.hdr_len(), 14u + 8 + 40 + 20);

	ASSERT_TRUE(parse_stream("0:ethertype=0x88b5", s, err)) << err;
	EXPECT_EQ(s.l3, L3::none);
	EXPECT_EQ(s.l4, L4::raw);
	EXPECT_EQ(s.hdr_len(), 14u);
	ASSERT_TRUE(parse_stream("0:", s, err)) << err;
	EXPECT_EQ(s.l3, L3::ipv4);
	EXPECT_EQ(s.hdr_len(), 42u);
	ASSERT_TRUE(parse_stream("3:vlan=5,l4=raw", s, err)) << err;
	EXPECT_EQ(s.hdr_len(), 14u + 4 + 20);
}

TEST(Stream, BadInputGetsOneErrorNamingTheKey)
{
	const std::vector<std::pair<std::string, std::string>> bad = {
		{"", "PORT:"},
		{"x:vlan=1", "PORT:"},
		{"0:vlan=4096", "vlan="},
		{"0:qinq=5", "qinq="},
		{"0:l3=ipx", "l3="},
		{"0:l4=sctp", "l4="},
		{"0:ethertype=0x10", "ethertype="},
		{"0:l3=ipv4,ethertype=0x88b5", "ethertype="},
		{"0:l3=none,l4=udp", "l4="},
		{"0:src_mac=02:00:00:00:00", "src_mac="},
		{"0:src_ip=10.0.0.300", "src_ip="},
		{"0:src_ip=10.0.0.9-10.0.0.1", "src_ip="},
		{"0:src_ip=10.0.0.1/inc", "src_ip="},
		{"0:src_ip=10.0.0.1-10.0.0.5/up", "src_ip="},
		{"0:l3=ipv6,dst_ip=10.0.0.1", "dst_ip="},
		{"0:l3=ipv6,src_ip=2001:db8::1-2001:db9::1", "src_ip="},
		{"0:sport=70000", "sport="},
		{"0:l4=raw,dport=5", "dport"},
		{"0:size=10", "size="},
		{"0:rate=fast", "rate="},
		{"0:vlan=1,vlan=2", "vlan"},
		{"0:colour=red", "colour"},
		{"0:,vlan=1", "not key=value"},
	};
	for (auto &[arg, key] : bad) {
		StreamSpec s;
		std::string err;
		EXPECT_FALSE(parse_stream(arg, s, err)) << "'" << arg << "' was taken";
		EXPECT_NE(err.find(key), std::string::npos) << arg << ": " << err;
		EXPECT_EQ(err.find('\n'), std::string::npos) << arg << ": " << err;
	}
}

TEST(Frame, HeadersLengthsChecksumsAndStamp)
{
	StreamSpec s;
	std::string err;
	ASSERT_TRUE(parse_stream("0:vlan=100,l3=ipv6,l4=udp,src_ip=2001:2::1,dst_ip=2001:2::2,"
				 "sport=5,dport=6,size=200",
				 s, err))
		<< err;
	rte_ether_addr src{{2, 0, 0, 0, 0, 1}}, dst{{2, 0, 0, 0, 0, 2}};
	FrameGen g;
	g.init(s, src, dst, 7, 1);
	EXPECT_EQ(g.hdr_len(), 14u + 4 + 40 + 8);
	std::vector<uint8_t> d(256, 0xee);
	uint32_t len = g.next_len();
	ASSERT_EQ(len, 200u);
	ASSERT_TRUE(g.build(d.data(), len, true, 42, 12345));
	EXPECT_EQ(d[12], 0x81);
	EXPECT_EQ(d[13], 0x00);
	EXPECT_EQ(d[15], 100);
	EXPECT_EQ(d[16], 0x86);
	EXPECT_EQ(d[17], 0xdd);
	auto *ip = reinterpret_cast<rte_ipv6_hdr *>(d.data() + 18);
	EXPECT_EQ(rte_be_to_cpu_16(ip->payload_len), 200 - 58);
	auto *udp = reinterpret_cast<rte_udp_hdr *>(ip + 1);
	EXPECT_EQ(rte_be_to_cpu_16(udp->src_port), 5);
	EXPECT_EQ(rte_be_to_cpu_16(udp->dgram_len), 200 - 58);
	/* A correct checksum sums to 0xffff with the pseudo-header. */
	EXPECT_EQ(rte_ipv6_udptcp_cksum_verify(ip, udp), 0);
	LatencyStamp st;
	ASSERT_TRUE(find_stamp(d.data(), len, st));
	EXPECT_EQ(st.stream, 7);
	EXPECT_EQ(st.seq, 42u);
	EXPECT_EQ(st.tsc, 12345u);
	/* The payload after the stamp is cleared (up to 128 bytes), whatever was there. */
	for (uint32_t i = g.stamp_min(); i < 128; i++)
		ASSERT_EQ(d[i], 0) << i;
	/* Too short for a stamp: none written, none found. */
	std::vector<uint8_t> e(256, 0);
	EXPECT_FALSE(g.build(e.data(), g.hdr_len() + 8, true, 1, 1));
	EXPECT_FALSE(find_stamp(e.data(), g.hdr_len() + 8, st));

	ASSERT_TRUE(parse_stream("0:qinq=1.2,l4=tcp,src_ip=10.0.0.1-10.0.0.3,size=100", s, err));
	g.init(s, src, dst, 3, 1);
	for (uint32_t k = 0; k < 4; k++) {
		ASSERT_TRUE(g.build(d.data(), 100, true, k, 0));
		auto *ip4 = reinterpret_cast<rte_ipv4_hdr *>(d.data() + 22);
		EXPECT_EQ(rte_be_to_cpu_32(ip4->src_addr), 0x0a000001u + k % 3);
		EXPECT_EQ(rte_be_to_cpu_16(ip4->total_length), 100 - 22);
		EXPECT_EQ(rte_ipv4_cksum(ip4), 0); /* over a correct header: 0 */
		auto *tcp = reinterpret_cast<rte_tcp_hdr *>(ip4 + 1);
		EXPECT_EQ(rte_ipv4_udptcp_cksum_verify(ip4, tcp), 0);
		ASSERT_TRUE(find_stamp(d.data(), 100, st));
		EXPECT_EQ(st.seq, k);
	}
}

TEST(SeqWindow, ReorderAndDuplicatesToldApart)
{
	SeqWindow w;
	for (uint32_t s : {0u, 1u, 3u, 2u, 2u, 4u, 4u, 7u, 5u, 6u})
		w.add(s);
	EXPECT_EQ(w.received(), 10u);
	EXPECT_EQ(w.duplicates(), 2u); /* the second 2 and the second 4 */
	EXPECT_EQ(w.reordered(), 3u);  /* 2, 5, 6 after a higher number */
	EXPECT_EQ(w.unique(), 8u);
	/* Far ahead: the window starts over; a frame long gone is counted late. */
	w.add(100000);
	w.add(100000);
	w.add(1);
	EXPECT_EQ(w.duplicates(), 3u);
	EXPECT_EQ(w.reordered(), 4u);
}

TEST(Jitter, Rfc3550Estimate)
{
	Jitter j;
	for (int i = 0; i < 1000; i++)
		j.add(1000);
	EXPECT_EQ(j.jitter(), 0);
	/* Transit alternating 1000/1100: |D| = 100 each time; J converges on 100. */
	Jitter k;
	for (int i = 0; i < 1000; i++)
		k.add(i % 2 ? 1100 : 1000);
	EXPECT_NEAR(k.jitter(), 100, 1.0 / 16); /* kept in 1/256 ns, each step rounded down */
	EXPECT_NEAR(k.mean_abs_d(), 100, 1e-9);
	/* After one step of 160: J = 160 / 16. */
	Jitter l;
	l.add(0);
	l.add(160);
	EXPECT_DOUBLE_EQ(l.jitter(), 10);
}

namespace {

int parse(std::vector<std::string> args, Config &c, std::string &err)
{
	args.insert(args.begin(), "gaudi-testpmd");
	std::vector<char *> argv;
	for (auto &a : args)
		argv.push_back(a.data());
	testing::internal::CaptureStderr();
	int rc = parse_args(int(argv.size()), argv.data(), c);
	err = testing::internal::GetCapturedStderr();
	return rc;
}

} /* namespace */

TEST(Options, TxpktsImixImpliesTxonlyAndPlainLengthKeepsIo)
{
	Config c;
	std::string err;
	ASSERT_EQ(parse({"--txpkts=imix"}, c, err), 0) << err;
	EXPECT_EQ(c.mode, FwdMode::txonly);
	EXPECT_EQ(c.pkt_len, 1514u);
	Config d;
	ASSERT_EQ(parse({"--txpkts=128"}, d, err), 0) << err;
	EXPECT_EQ(d.mode, FwdMode::io);
	EXPECT_EQ(d.pkt_len, 128u);
	Config e;
	ASSERT_EQ(parse({"--forward-mode=flowgen", "--txpkts=64-1518"}, e, err), 0) << err;
	EXPECT_EQ(e.mode, FwdMode::flowgen);
	/* A rate implies txonly too (it paces generators only); with io given it is refused. */
	Config f;
	ASSERT_EQ(parse({"--rate=25%"}, f, err), 0) << err;
	EXPECT_EQ(f.mode, FwdMode::txonly);
	Config f2;
	ASSERT_EQ(parse({"--forward-mode=io", "--rate=25%"}, f2, err), 1);
	EXPECT_NE(err.find("--rate"), std::string::npos) << err;
	Config f3;
	ASSERT_EQ(parse({"--template=x.pcap", "--rate=1000"}, f3, err), 0) << err;
	EXPECT_EQ(f3.mode, FwdMode::template_);
	Config g;
	ASSERT_EQ(parse({"--forward-mode=txonly", "--rate=25%"}, g, err), 0) << err;
	EXPECT_EQ(g.rate_pct, 25);
}

TEST(Options, StreamsTakeTheOtherOptionsDefaults)
{
	Config c;
	std::string err;
	ASSERT_EQ(parse({"--stream=0:vlan=7", "--stream=1:l3=ipv6,size=1000,rate=1gbps",
			 "--tx-ip=10.0.0.1,10.0.0.2", "--txpkts=100", "--rate=5000"},
			c, err),
		  0)
		<< err;
	EXPECT_EQ(c.mode, FwdMode::txonly);
	ASSERT_EQ(c.streams.size(), 2u);
	EXPECT_EQ(c.streams[0].src_ip.lo, 0x0a000001u);
	EXPECT_EQ(c.streams[0].size.str(), "100");
	EXPECT_EQ(c.streams[0].rate.unit, RateSpec::Unit::pps);
	EXPECT_EQ(c.streams[0].rate.value, 5000);
	EXPECT_EQ(c.streams[1].src_ip.hi64, 0x2001000200000000u); /* RFC 5180's range */
	EXPECT_EQ(c.streams[1].rate.unit, RateSpec::Unit::gbps);
	EXPECT_EQ(c.pkt_len, 1000u);
}

TEST(Options, BadStreamOrSizeGetsOneLineNamingTheOption)
{
	const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
		{{"--stream=0:vlan=9999"}, "--stream=0:vlan=9999: vlan="},
		{{"--stream=0:size=imix,rate=2x"}, "--stream="},
		{{"--stream=0:l3=ipv4", "--forward-mode=io"}, "--stream is for"},
		{{"--txpkts=imix", "--forward-mode=io", "--stream=0:"}, "--txpkts=imix: a mix"},
		{{"--txpkts=imix", "--forward-mode=io"}, "--txpkts=imix: a mix of sizes is for"},
		{{"--stream=0:vlan=1,qinq=2.3"}, "qinq=2.3: vlan= and qinq= in one stream"},
		{{"--stream=0:qinq=2.3,vlan=1"}, "vlan=1: vlan= and qinq= in one stream"},
		{{"--stream=0:ethertype=0x800"}, "ethertype=0x800: is IPv4"},
		{{"--stream=0:ethertype=0x86DD"}, "is IPv6"},
		{{"--stream=0:ethertype=0x8100"}, "is a VLAN tag"},
		{{"--capture=0:x:sideways"},
		 "--capture=0:x:sideways: 'sideways' is not a direction"},
		{{"--txpkts=30:1,64:1"}, "--txpkts="},
		{{"--txpkts=random:64"}, "--txpkts="},
		{{"--txpkts=64,64"}, "multi-segment"},
		{{"--forward-mode=txonly", "--rate=150%"}, "--rate="},
		{{"--forward-mode=txonly", "--rate=5%", "--rate-gbps=1"}, "one of the two"},
	};
	for (auto &[args, what] : bad) {
		Config c;
		std::string err;
		EXPECT_EQ(parse(args, c, err), 1) << args[0];
		EXPECT_NE(err.find(what), std::string::npos) << args[0] << ": " << err;
		EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << args[0] << ": " << err;
	}
}
