/* SPDX-License-Identifier: BSD-3-Clause
 * Ethdev contract tests: devargs (bad values, errors naming the devarg, logs, trace, firmware
 * directory, speeds) and the firmware bring-up.
 */

#include "test_ethdev.h"

namespace test_ethdev {

/* Every bad devarg fails the probe and leaves no port behind. */
TEST(Devargs, BadValuesFailProbe)
{
	uint16_t before = rte_eth_dev_count_avail();
	for (const char *bad :
	     {"bogus=1", "ports=0", "ports=25", "ports=two", "wire=fiber", "engine=fast",
	      "strict=2", "strict=1,strict=0", "wire=pcap,rx_pcap=0:/nonexistent/file.pcap",
	      "wire=pcap,ports=2,tx_pcap=2:/var/tmp/x.pcap", "wire=pcap,rx_pcap=/no/port",
	      "wire=pair,tx_pcap=0:/var/tmp/x.pcap"}) {
		Nic nic(bad, 0);
		EXPECT_NE(nic.probe_rc(), 0) << bad;
		EXPECT_EQ(rte_eth_dev_count_avail(), before) << bad;
	}
	Nic ok("ports=24,wire=pair,engine=inline,strict=1", 24);
	EXPECT_EQ(ok.probe_rc(), 0);
	EXPECT_EQ(rte_eth_dev_count_avail(), before + 24);
}

/* Each refusal is one line naming the devarg; the valid keys come from the driver's table. */
TEST(Devargs, ErrorsNameTheDevarg)
{
	const char *bad[][2] = {
		{"bogus=1",
		 "unknown devarg 'bogus' (valid: ports, wire, rx_pcap, tx_pcap, engine, "
		 "tap_name, udp_local, udp_remote, strict, profile, trace, seq_check, "
		 "wire_delay_us, rx_rate_limit, fw_port_mask, fw_mac, fw_fault, "
		 "fw_boot_err0, "
		 "fw_nic_info_rc, fw_cpucp_fail, fault, "
		 "fault_seed, fault_rate, fault_kinds, phy_board, phy_pol_tx, phy_pol_rx, "
		 "phy_fw_crc, phy_fault, fw_dir, port_mask, tx_watchdog_ms, "
		 "nic_status_ms, rx_copy_max, speed)"},
		{"fw_port_mask=0", "devarg fw_port_mask=0: must be a non-zero hex mask of ports "
				   "0..23 (e.g. 0x5)"},
		{"fw_mac=01:00:5e:00:00:01", "devarg fw_mac=01:00:5e:00:00:01: must be a non-zero "
					     "unicast MAC xx:xx:xx:xx:xx:xx"},
		{"fw_port_mask=+0x3", "devarg fw_port_mask=+0x3: must be a non-zero hex mask"},
		{"ports=2,fw_port_mask=0x5", "devarg fw_port_mask=0x5: names ports beyond ports=2"},
		{"fw_boot_err0=0x80000000", "devarg fw_boot_err0=0x80000000: must be hex "
					    "0..0x7fffffff"},
		{"fw_fault=late", "devarg fw_fault=late: must be none, boot_stuck, dirty, "
				  "image_rejected, cpucp_silent or no_nic_mem_clear"},
		{"fw_cpucp_fail=NIC_FOO", "devarg fw_cpucp_fail=NIC_FOO: must name a cpucp opcode"},
		{"nic_status_ms=-1", "devarg nic_status_ms=-1: must be 0 (never) .. 600000 ms"},
		{"rx_copy_max=16385", "devarg rx_copy_max=16385: must be 0 .. 16384 bytes"},
		{"rx_copy_max=1k", "devarg rx_copy_max=1k: must be 0 .. 16384 bytes"},
		{"rx_copy_max=", "devarg rx_copy_max=: must be 0 .. 16384 bytes"},
		{"rx_copy_max=0,rx_copy_max=64", "devarg rx_copy_max given more than once"},
		{"port_mask=0x1000000", "devarg port_mask=0x1000000: must be a non-zero hex mask"},
		{"ports=25", "devarg ports=25: must be 1..24"},
		{"wire=fiber", "devarg wire=fiber: must be loopback, pair, pcap, tap or udp"},
		{"strict=1,strict=0", "devarg strict given more than once"},
		{"profile=yes", "devarg profile=yes: must be 0 or 1"},
		{"seq_check=2", "devarg seq_check=2: must be 0 or 1"},
		{"trace=/nonexistent/dir/t.txt",
		 "devarg trace=/nonexistent/dir/t.txt: cannot open for "
		 "writing: No such file or directory"},
		{"tx_watchdog_ms=10,tx_watchdog_ms=20",
		 "devarg tx_watchdog_ms given more than once"},
		{"tx_watchdog_ms=600001",
		 "devarg tx_watchdog_ms=600001: must be 0 (off) .. 600000 ms"},
		{"fw_dir=/nonexistent/gaudi2", "devarg fw_dir=/nonexistent/gaudi2: not a readable "
					       "directory: No such file or directory"},
		{"fw_dir=/dev/null", "devarg fw_dir=/dev/null: not a readable directory"},
		{"wire=pair,tx_pcap=0:/var/tmp/x.pcap",
		 "devarg tx_pcap=0:/var/tmp/x.pcap: needs wire=pcap"},
		{"ports=2,rx_rate_limit=2:1000", "devarg rx_rate_limit=2:1000: must be "
						 "PORT:FRAMES_PER_S[:BURST] with PORT < ports (2)"},
		{"rx_rate_limit=0:1000:0", "devarg rx_rate_limit=0:1000:0: must be PORT:FRAMES"},
		{"rx_rate_limit=0:1000,rx_rate_limit=0:10",
		 "devarg rx_rate_limit=0:10: port 0 given "
		 "twice"},
	};
	for (auto &c : bad) {
		gaudi_test::LogCapture log;
		Nic nic(c[0], 0);
		EXPECT_NE(nic.probe_rc(), 0) << c[0];
		EXPECT_NE(log.text().find(c[1]), std::string::npos)
			<< c[0] << "\nlogged: " << log.text();
	}
	Nic ok("ports=1,wire=loopback,tx_watchdog_ms=0", 1);
	EXPECT_EQ(ok.probe_rc(), 0);
}

/* net_gaudi_emu's probe (its plugin, librte_net_gaudi_emu.so) logs under the model's log type,
 * pmd.net.gaudi.emu, not the PMD core's probe type (pmd.net.gaudi.init, issue 23): with the
 * core's type at CRIT its devarg error is still printed, with its own there it is not. */
TEST(Devargs, EmuProbeLogsUnderItsLogType)
{
	const int emu = rte_log_register("pmd.net.gaudi.emu");
	const int core = rte_log_register("pmd.net.gaudi.init");
	ASSERT_GE(emu, 0);
	ASSERT_GE(core, 0);
	ASSERT_NE(emu, core);
	const int emu_level = rte_log_get_level(emu), core_level = rte_log_get_level(core);
	const std::string why = "devarg wire=bogus: must be loopback, pair, pcap, tap or udp";
	auto probe_log = [] {
		gaudi_test::LogCapture log;
		Nic nic("wire=bogus", 0);
		EXPECT_NE(nic.probe_rc(), 0);
		return log.text();
	};
	rte_log_set_level(uint32_t(core), RTE_LOG_CRIT);
	std::string logged = probe_log();
	rte_log_set_level(uint32_t(core), uint32_t(core_level));
	EXPECT_NE(logged.find(why), std::string::npos) << logged;
	rte_log_set_level(uint32_t(emu), RTE_LOG_CRIT);
	logged = probe_log();
	rte_log_set_level(uint32_t(emu), uint32_t(emu_level));
	EXPECT_EQ(logged.find(why), std::string::npos) << logged;
}

/* [trace] trace=FILE: every register access of the driver, one line each (sequence number,
 * R/W, configuration address, value, published name), written by the time the port closes. */
TEST(Devargs, TraceHasEveryRegisterAccess)
{
	std::string path = "/var/tmp/gaudi_trace_" + std::to_string(getpid()) + ".txt";
	{
		Nic nic("ports=2,wire=pair,trace=" + path, 2);
		ASSERT_EQ(nic.up(256, 256), 0);
		std::vector<rte_mbuf *> tx = {nic.frame(1, 100)};
		ASSERT_EQ(nic.send_all(0, tx), 1u);
		auto rx = nic.receive(1, 1);
		EXPECT_EQ(rx.size(), 1u);
		free_all(rx);
	}
	FILE *f = fopen(path.c_str(), "r");
	ASSERT_NE(f, nullptr);
	char line[256];
	unsigned long long last = 0, lines = 0, bad = 0, reads = 0;
	std::vector<std::string> all;
	while (fgets(line, sizeof(line), f) != nullptr) {
		unsigned long long n;
		char rw;
		unsigned addr, val;
		char name[128];
		if (sscanf(line, "%llu %c 0x%X 0x%X %127s", &n, &rw, &addr, &val, name) != 5 ||
		    n != last + 1 || (rw != 'R' && rw != 'W') || addr < 0x5400000 ||
		    addr >= 0x5400000 + 12 * 0x80000)
			bad++;
		last = n;
		lines++;
		reads += rw == 'R';
		all.push_back(line);
	}
	fclose(f);
	unlink(path.c_str());
	EXPECT_GT(lines, 1000u);
	EXPECT_EQ(bad, 0u);
	EXPECT_GT(reads, 0u);
	auto has = [&all](const char *suffix) {
		for (const std::string &l : all)
			if (l.find(suffix) != std::string::npos)
				return true;
		return false;
	};
	/* The EQ enabled (gaudi2_cn_eq_hw_config's 0x19) on both ports, the QPC gateway polled,
	 * a doorbell rung: each named as the public headers name it. */
	EXPECT_TRUE(has(" W 0x541F850 0x19 NIC0_QPC0_EVENT_QUE_CFG\n"));
	EXPECT_TRUE(has(" W 0x543F850 0x19 NIC0_QPC1_EVENT_QUE_CFG\n"));
	EXPECT_TRUE(has(" R 0x541F080 0x0 NIC0_QPC0_GW_BUSY\n"));
	EXPECT_TRUE(has(" W 0x541F464 0x0 NIC0_QPC0_SECURED_DB_SECOND32\n"));
	EXPECT_TRUE(has(" W 0x546C408 0x2913 NIC0_MAC_CH0_MAC_128_COMMAND_CONFIG\n"));
}

/* [phy] A PHY image in gaudi2_cn_fw.bin's layout [gaudi2_cn_phy_fw_load_all]: 4 KB, then
 * hash, CRC, date, big-endian entry point, length and RAM address, then len bytes of code. */
std::vector<uint8_t> phy_image(uint32_t len)
{
	std::vector<uint8_t> img(0x1000 + 20 + len, 0);
	auto put32 = [&img](size_t off, uint32_t v) {
		for (int i = 0; i < 4; i++)
			img[off + i] = uint8_t(v >> (24 - 8 * i));
	};
	put32(0x1000 + 8, 0x20000);  /* entry point */
	put32(0x1000 + 12, len);     /* length */
	put32(0x1000 + 16, 0x20000); /* RAM address */
	for (uint32_t i = 0; i < len; i++)
		img[0x1000 + 20 + i] = uint8_t(i * 13 + 1);
	return img;
}

/* A probe with args (no port expected) that fails with rc (with any error when rc is 0) and logs
 * the line want. */
void expect_probe_logs(const std::string &args, int rc, const std::string &want)
{
	gaudi_test::LogCapture log;
	Nic nic(args, 0);
	if (rc != 0)
		EXPECT_EQ(nic.probe_rc(), rc) << args;
	else
		EXPECT_NE(nic.probe_rc(), 0) << args;
	EXPECT_NE(log.text().find(want), std::string::npos) << "logged: " << log.text();
}

/* fw_dir=: the probe reads the firmware files from there and names the one it cannot read;
 * without fw_dir the model uses its built-in stand-in (the other tests). */
TEST(Devargs, FirmwareDirectory)
{
	char dir[] = "/var/tmp/gaudi_fw_XXXXXX";
	ASSERT_NE(mkdtemp(dir), nullptr);
	std::string d(dir), boot = d + "/gaudi2-boot-fit.itb", fit = d + "/gaudi2-fit.itb";
	auto put = [](const std::string &path, const char *bytes) {
		FILE *f = fopen(path.c_str(), "w");
		ASSERT_NE(f, nullptr) << path;
		fputs(bytes, f);
		fclose(f);
	};
	put(boot, "boot fit");
	const std::string one = "ports=1,wire=loopback,fw_dir=" + d;
	expect_probe_logs(one, -ENOENT,
			  "cannot read firmware file " + fit + ": No such file or directory");
	put(fit, "");
	expect_probe_logs(one, 0, "cannot read firmware file " + fit + ": empty file");
	/* A FIFO (or any non-regular file) is refused at once, never read (it would block). */
	unlink(fit.c_str());
	ASSERT_EQ(mkfifo(fit.c_str(), 0600), 0);
	expect_probe_logs(one, -EINVAL,
			  "cannot read firmware file " + fit + ": not a regular file");
	unlink(fit.c_str());
	put(fit, "cpu-cp fit");
	/* [phy] The PHY image comes from there too: missing, then too short to be one. */
	std::string phy = d + "/gaudi2_cn_fw.bin";
	const std::string pair = "ports=2,wire=pair,fw_dir=" + d;
	expect_probe_logs(pair, -ENOENT,
			  "cannot read firmware file " + phy + ": No such file or directory");
	put(phy, "not a PHY image");
	expect_probe_logs(pair, -EINVAL,
			  "PHY firmware file " + phy +
				  " is 15 bytes, shorter than a PHY image (4116)");
	{
		std::vector<uint8_t> img = phy_image(240);
		FILE *f = fopen(phy.c_str(), "w");
		ASSERT_NE(f, nullptr);
		ASSERT_EQ(fwrite(img.data(), 1, img.size(), f), img.size());
		fclose(f);
	}
	/* A PHY error names the file the image came from ("built-in image" without fw_dir,
	 * Firmware.EachBringupFailureNamesItsStep). */
	expect_probe_logs("ports=2,wire=pair,phy_fw_crc=0x1723,fw_dir=" + d, -EINVAL,
			  "PHY F/W is very old (CRC 0x1723): not supported (PHY firmware file " +
				  phy + ")");
	{
		Nic nic("ports=2,wire=pair,fw_dir=" + d, 2);
		EXPECT_EQ(nic.probe_rc(), 0);
		ASSERT_EQ(nic.setup(0, 128, 128), 0);
		ASSERT_EQ(nic.setup(1, 128, 128), 0);
		rte_eth_link link;
		ASSERT_EQ(rte_eth_link_get_nowait(nic.port(0), &link), 0);
		EXPECT_EQ(link.link_status, RTE_ETH_LINK_UP)
			<< "the image from fw_dir runs the PHY";
	}
	unlink(boot.c_str());
	unlink(fit.c_str());
	unlink(phy.c_str());
	rmdir(dir);
}

/* Each {devargs, message} fails the probe with -EINVAL, logs the message naming the devarg, and
 * leaves no port and no firmware memory behind. */
void expect_probe_fails(std::span<const std::array<std::string, 2>> cases)
{
	uint16_t before = rte_eth_dev_count_avail();
	for (const auto &c : cases) {
		gaudi_test::LogCapture log;
		Nic nic(c[0], 0);
		EXPECT_EQ(nic.probe_rc(), -EINVAL) << c[0];
		EXPECT_NE(log.text().find(c[1]), std::string::npos)
			<< c[0] << "\nlogged: " << log.text();
		EXPECT_EQ(rte_eth_dev_count_avail(), before) << c[0];
		EXPECT_EQ(rte_memzone_lookup(("gaudi_fw_" + nic.name()).c_str()), nullptr) << c[0];
	}
}

/* A per-port devarg for a port that gets no ethdev (masked off by the firmware's link_mask, or
 * left out of port_mask) cannot apply: the probe fails, naming the devarg and the port, and
 * leaves nothing behind. */
TEST(Devargs, PerPortDevargOfAClosedPortFailsProbe)
{
	const char *pcap = "/var/tmp/gaudi_test_closed_port.pcap";
	const std::string mask = "ports=4,fw_port_mask=0x5,";
	const std::string masked =
		": port 1 is masked off by the firmware (NIC_INFO_GET link_mask 0x5)";
	const std::array<std::string, 2> cases[] = {
		{mask + "wire=pcap,tx_pcap=1:" + pcap,
		 std::string("devarg tx_pcap=1:") + pcap + masked},
		{mask + "wire=udp,udp_local=1:127.0.0.1:47001,udp_remote=1:127.0.0.1:47002",
		 "devarg udp_local=1:127.0.0.1:47001" + masked},
		{mask + "wire=loopback,fault=qp_err:1:100", "devarg fault=qp_err:1:100" + masked},
		{mask + "wire=loopback,fault=link_flap:3",
		 "devarg fault=link_flap:3: port 3 is masked off"},
		{"ports=4,port_mask=0x1,wire=loopback,fault=qp_err:2",
		 "devarg fault=qp_err:2: port 2 is not opened (port_mask=0x1)"},
	};
	uint16_t before = rte_eth_dev_count_avail();
	expect_probe_fails(cases);
	unlink(pcap);
	/* The same devargs for an opened port are fine. */
	Nic ok(mask + "wire=loopback,fault=qp_err:2:100", 0);
	EXPECT_EQ(ok.probe_rc(), 0);
	EXPECT_EQ(rte_eth_dev_count_avail(), before + 2);
}

/* ---- Port speed (devarg speed) ---- */

/* A pair at each published speed: the ports report it (link, speed_capa, FEC capability),
 * take only it as a fixed link_speeds, and 1000 frames cross each way intact (the model passes
 * them only when the PCS lanes, MAC core, TXB mask, RS-FEC and SerDes rate are that speed's). */
class Speed : public ::testing::TestWithParam<uint32_t> {};

TEST_P(Speed, PairPassesTrafficAtTheSpeed)
{
	const uint32_t mbps = GetParam();
	const uint32_t capa = mbps == 25000   ? RTE_ETH_LINK_SPEED_25G
			      : mbps == 50000 ? RTE_ETH_LINK_SPEED_50G
					      : RTE_ETH_LINK_SPEED_100G;
	Nic nic("ports=2,wire=pair,engine=inline,speed=" + std::to_string(mbps), 2);
	ASSERT_EQ(nic.probe_rc(), 0);
	for (unsigned i = 0; i < 2; i++) {
		rte_eth_dev_info info;
		ASSERT_EQ(rte_eth_dev_info_get(nic.port(i), &info), 0);
		EXPECT_EQ(info.speed_capa, capa);
		rte_eth_fec_capa fec[4];
		ASSERT_EQ(rte_eth_fec_get_capability(nic.port(i), fec, 4), 1);
		EXPECT_EQ(fec[0].speed, mbps);
		/* A fixed speed other than the port's is refused, its own accepted. */
		rte_eth_conf conf{};
		conf.link_speeds = RTE_ETH_LINK_SPEED_FIXED |
				   (capa == RTE_ETH_LINK_SPEED_100G ? RTE_ETH_LINK_SPEED_50G
								    : RTE_ETH_LINK_SPEED_100G);
		EXPECT_NE(rte_eth_dev_configure(nic.port(i), 1, 1, &conf), 0);
		conf.link_speeds = RTE_ETH_LINK_SPEED_FIXED | capa;
		EXPECT_EQ(rte_eth_dev_configure(nic.port(i), 1, 1, &conf), 0);
		ASSERT_EQ(nic.setup(i, 512, 512), 0);
	}
	for (unsigned i = 0; i < 2; i++) {
		rte_eth_link link;
		ASSERT_EQ(rte_eth_link_get_nowait(nic.port(i), &link), 0);
		EXPECT_EQ(link.link_status, RTE_ETH_LINK_UP);
		EXPECT_EQ(link.link_speed, mbps);
	}
	/* 1000 frames each way, in bursts the RX ring holds. */
	constexpr unsigned kFrames = 1000, kBurstFrames = 100;
	for (unsigned from = 0; from < 2; from++) {
		for (uint32_t first = 0; first < kFrames; first += kBurstFrames) {
			std::vector<rte_mbuf *> tx;
			for (uint32_t n = first; n < first + kBurstFrames; n++)
				tx.push_back(nic.frame(n, uint16_t(200 + n % 1200)));
			ASSERT_EQ(nic.send_all(from, tx), kBurstFrames);
			auto rx = nic.receive(from ^ 1, kBurstFrames);
			ASSERT_EQ(rx.size(), kBurstFrames) << mbps << " Mb/s, port " << from;
			for (uint32_t i = 0; i < kBurstFrames; i++)
				EXPECT_EQ(bytes_of(rx[i]),
					  Nic::wire(first + i, uint16_t(200 + (first + i) % 1200)));
			free_all(rx);
		}
	}
}

INSTANTIATE_TEST_SUITE_P(Gaudi, Speed, ::testing::Values(25000u, 50000u, 100000u));

/* A bad speed fails the probe with a line naming the devarg: a value that is no published
 * speed, a port given twice, the two ports of a macro at different speeds (they share its MAC
 * core and TXB), a port that is not opened. A speed per port of a macro, alike, is fine. */
TEST(Devargs, BadSpeedFailsProbe)
{
	const std::array<std::string, 2> cases[] = {
		{"ports=2,wire=pair,speed=40000", "devarg speed=40000: must be [PORT:]SPEED with "
						  "SPEED 25000, 50000 or 100000 (Mb/s) "
						  "and PORT 0..23"},
		{"ports=2,wire=pair,speed=24:50000", "devarg speed=24:50000: must be [PORT:]SPEED"},
		{"ports=2,wire=pair,speed=0:50G", "devarg speed=0:50G: must be [PORT:]SPEED"},
		{"ports=2,wire=pair,speed=0:50000,speed=0:25000",
		 "devarg speed=0:25000: port 0 given twice"},
		{"ports=2,wire=pair,speed=1:50000",
		 "devarg speed=1:50000: port 0 of the same macro runs 100000 (the two ports of a "
		 "macro share its MAC core and TXB, so one speed)"},
		{"ports=4,port_mask=0x1,wire=loopback,speed=2:25000",
		 "devarg speed=2:25000: port 2 is not opened (port_mask)"},
		{"ports=4,fw_port_mask=0x5,wire=loopback,speed=1:25000",
		 "devarg speed=1:25000: port 1 is masked off by the firmware"},
	};
	expect_probe_fails(cases);
	Nic ok("ports=4,wire=pair,speed=25000,speed=2:50000,speed=3:50000", 4);
	ASSERT_EQ(ok.probe_rc(), 0);
	rte_eth_dev_info info;
	ASSERT_EQ(rte_eth_dev_info_get(ok.port(0), &info), 0);
	EXPECT_EQ(info.speed_capa, RTE_ETH_LINK_SPEED_25G);
	ASSERT_EQ(rte_eth_dev_info_get(ok.port(3), &info), 0);
	EXPECT_EQ(info.speed_capa, RTE_ETH_LINK_SPEED_50G);
}

/* ---- Bring-up through the firmware (gaudi_bringup, the model's device CPU) ---- */

uint16_t port_by_name(const std::string &name)
{
	uint16_t id = UINT16_MAX;
	return rte_eth_dev_get_port_by_name(name.c_str(), &id) == 0 ? id : UINT16_MAX;
}

/* The ethdevs are the ports of NIC_INFO_GET's link_mask, with its station addresses (issue 8:
 * fw_port_mask=0x5,fw_mac=00:1d:a3:10:20:30 gives ports 0 and 2, 00:1D:A3:10:20:30 and :32);
 * port_mask= opens a subset. */
TEST(Firmware, PortsAndMacsFromNicInfo)
{
	uint16_t before = rte_eth_dev_count_avail();
	{
		Nic nic("ports=4,wire=loopback,fw_port_mask=0x5,fw_mac=00:1d:a3:10:20:30", 0);
		ASSERT_EQ(nic.probe_rc(), 0);
		EXPECT_EQ(rte_eth_dev_count_avail(), before + 2);
		uint16_t p0 = port_by_name(nic.name() + "_p0"),
			 p2 = port_by_name(nic.name() + "_p2");
		ASSERT_NE(p0, UINT16_MAX);
		ASSERT_NE(p2, UINT16_MAX);
		EXPECT_EQ(port_by_name(nic.name() + "_p1"), UINT16_MAX);
		EXPECT_EQ(port_by_name(nic.name() + "_p3"), UINT16_MAX);
		rte_ether_addr a0, a2;
		ASSERT_EQ(rte_eth_macaddr_get(p0, &a0), 0);
		ASSERT_EQ(rte_eth_macaddr_get(p2, &a2), 0);
		const uint8_t want0[6] = {0x00, 0x1d, 0xa3, 0x10, 0x20, 0x30};
		const uint8_t want2[6] = {0x00, 0x1d, 0xa3, 0x10, 0x20, 0x32};
		EXPECT_EQ(memcmp(a0.addr_bytes, want0, 6), 0);
		EXPECT_EQ(memcmp(a2.addr_bytes, want2, 6), 0);
		/* The firmware's queue memory lives as long as the adapter. */
		EXPECT_NE(rte_memzone_lookup(("gaudi_fw_" + nic.name()).c_str()), nullptr);
		nic.close();
		EXPECT_EQ(rte_memzone_lookup(("gaudi_fw_" + nic.name()).c_str()), nullptr);
	}
	{
		Nic nic("ports=4,wire=loopback,fw_port_mask=0x5,port_mask=0x4", 0);
		ASSERT_EQ(nic.probe_rc(), 0);
		EXPECT_EQ(rte_eth_dev_count_avail(), before + 1);
		EXPECT_EQ(port_by_name(nic.name() + "_p0"), UINT16_MAX);
		EXPECT_NE(port_by_name(nic.name() + "_p2"), UINT16_MAX);
	}
	EXPECT_EQ(rte_eth_dev_count_avail(), before);
}

/* An image over the COMMS size limit (25 bits) is refused before anything is sent, and the
 * message names the file it read, not the name the driver asked for. */
TEST(Firmware, OversizeImageNamesItsPath)
{
	char dir[] = "/var/tmp/gaudi_fw_XXXXXX";
	ASSERT_NE(mkdtemp(dir), nullptr);
	std::string d(dir), boot = d + "/gaudi2-boot-fit.itb", fit = d + "/gaudi2-fit.itb";
	const off_t size = off_t(1) << 25; /* kCommsMaxSize + 1 */
	for (const std::string &f : {boot, fit}) {
		FILE *fp = fopen(f.c_str(), "w");
		ASSERT_NE(fp, nullptr) << f;
		fputs("fit", fp);
		fclose(fp);
	}
	ASSERT_EQ(truncate(boot.c_str(), size), 0); /* sparse: no 32 MB on disk */
	{
		gaudi_test::LogCapture log;
		Nic nic("ports=1,wire=loopback,fw_dir=" + d, 0);
		EXPECT_EQ(nic.probe_rc(), -EINVAL);
		std::string want = "firmware: firmware file " + boot +
				   " is 33554432 bytes, over the "
				   "COMMS size limit 33554431";
		EXPECT_NE(log.text().find(want), std::string::npos) << "logged: " << log.text();
		EXPECT_EQ(rte_memzone_lookup(("gaudi_fw_" + nic.name()).c_str()), nullptr);
	}
	unlink(boot.c_str());
	unlink(fit.c_str());
	rmdir(dir);
}

/* Each way bring-up fails on the model gives its message, fails the probe, and leaves
 * neither a port nor the firmware's memory behind. */
TEST(Firmware, EachBringupFailureNamesItsStep)
{
	const struct {
		const char *args;
		const char *msg;
		int rc;
	} cases[] = {
		{"fw_fault=boot_stuck",
		 "firmware: device not in the expected boot state (boot status 5", -ETIMEDOUT},
		{"fw_fault=dirty", "firmware: device is dirty (HW_STATE 1)", -EBUSY},
		/* Each fatal bit by name, the register in hex too. */
		{"fw_boot_err0=0x1040",
		 "firmware: device reports boot errors at preboot (CPU_BOOT_ERR0 0x80001040: "
		 "NIC_FW_FAIL, PLL_FAIL)",
		 -EIO},
		{"fw_fault=image_rejected",
		 "firmware: firmware file habanalabs/gaudi2/gaudi2-boot-fit.itb rejected", -EINVAL},
		{"fw_fault=cpucp_silent",
		 "firmware: cpucp ENABLE_PCI_ACCESS timed out after 100 ms", -ETIMEDOUT},
		{"fw_nic_info_rc=2", "firmware: cpucp NIC_INFO_GET failed: return code 2 (fault)",
		 -EIO},
		/* [phy] the PHY F/W the init refuses, the MCU that never answers, the load
		 * that never starts */
		{"phy_fw_crc=0x1723",
		 "PHY F/W is very old (CRC 0x1723): not supported (PHY firmware built-in image)",
		 -EINVAL},
		{"phy_fault=mcu_silent",
		 "PHY F/W command 0xf001 on port 0 timed out (PHY firmware built-in image)",
		 -ETIMEDOUT},
		{"phy_fault=load_stuck", "PHY firmware load: FW2 (9814) stuck at 0xfff0",
		 -ETIMEDOUT},
		{"ports=4,fw_port_mask=0x5,port_mask=0x3",
		 "devarg port_mask=0x3: port 1 is masked off by the firmware (NIC_INFO_GET "
		 "link_mask 0x5)",
		 -ENODEV},
		/* The NIC memory steps [gaudi2_late_init; hbl_cn core and port init]. */
		{"fw_fault=no_nic_mem_clear",
		 "firmware: CPU_BOOT_DEV_STS0 0x80010000 lacks NIC_MEM_CLEAR_EN (bit 27)",
		 -ENOTSUP},
		{"fw_cpucp_fail=NIC_CLR_MEM",
		 "firmware: NIC memory clear: cpucp NIC_CLR_MEM failed: return code 2 (fault)",
		 -EIO},
		{"fw_cpucp_fail=nic_ecc_intrs_unmask",
		 "firmware: NIC ECC interrupt unmask: cpucp NIC_ECC_INTRS_UNMASK failed: return "
		 "code 2 (fault)",
		 -EIO},
		{"ports=4,port_mask=0x4,fw_cpucp_fail=NIC_INIT_TMR_MEM",
		 "firmware: TMR memory init of macro 1: cpucp NIC_INIT_TMR_MEM failed: return "
		 "code 2",
		 -EIO},
		{"ports=4,port_mask=0x8,fw_cpucp_fail=NIC_INIT_TXS_MEM",
		 "firmware: TXS memory init of port 3: cpucp NIC_INIT_TXS_MEM failed: return "
		 "code 2",
		 -EIO},
	};
	uint16_t before = rte_eth_dev_count_avail();
	for (const auto &c : cases) {
		gaudi_test::LogCapture log;
		Nic nic(std::string("wire=loopback,") + c.args, 0);
		EXPECT_EQ(nic.probe_rc(), c.rc) << c.args;
		EXPECT_NE(log.text().find(c.msg), std::string::npos)
			<< c.args << "\nlogged: " << log.text();
		EXPECT_EQ(rte_eth_dev_count_avail(), before) << c.args;
		EXPECT_EQ(rte_memzone_lookup(("gaudi_fw_" + nic.name()).c_str()), nullptr)
			<< c.args;
	}
}

/* Non-fatal CPU_BOOT_ERR0 bits [FWIF fw_read_errors: warnings, or bits outside the fatal
 * mask]: one WARNING line each, naming the bit, and the probe goes on; with a fatal bit among
 * them the probe fails naming the fatal bits, and the others are still warned of. */
TEST(Firmware, NonFatalBootErrorBitsAreWarnedOfByName)
{
	/* This program logs the PMD's errors only: warnings too for this test. */
	struct WarningsOn {
		WarningsOn() { rte_log_set_level_pattern("pmd.net.gaudi*", RTE_LOG_WARNING); }
		~WarningsOn() { rte_log_set_level_pattern("pmd.net.gaudi*", RTE_LOG_ERR); }
	} on;
	{
		/* BMC_WAIT_SKIPPED (4), NIC_DATA_NOT_RDY (5), PRI_IMG_VER_FAIL (10), bit 15
		 * (undefined) */
		gaudi_test::LogCapture log;
		Nic nic("wire=loopback,ports=1,fw_boot_err0=0x8430", 1);
		ASSERT_EQ(nic.probe_rc(), 0) << log.text();
		std::string w = log.text_at(RTE_LOG_WARNING);
		for (const char *bit : {"bit 4 (BMC_WAIT_SKIPPED)", "bit 5 (NIC_DATA_NOT_RDY)",
					"bit 10 (PRI_IMG_VER_FAIL)", "bit 15 (undefined)"}) {
			std::string want = std::string("firmware: boot warning: CPU_BOOT_ERR0 ") +
					   bit + " set; not fatal to the NIC, going on";
			EXPECT_NE(w.find(want), std::string::npos) << "warnings: " << w;
		}
		/* Once each, though the register is read twice (preboot, after the load). */
		size_t n = 0;
		for (size_t at = w.find("boot warning"); at != std::string::npos;
		     at = w.find("boot warning", at + 1))
			n++;
		EXPECT_EQ(n, 4u) << "warnings: " << w;
	}
	{
		gaudi_test::LogCapture log;
		Nic nic("wire=loopback,ports=1,fw_boot_err0=0x1060", 0);
		EXPECT_EQ(nic.probe_rc(), -EIO);
		EXPECT_NE(log.text_at(RTE_LOG_ERR)
				  .find("(CPU_BOOT_ERR0 0x80001060: NIC_FW_FAIL, "
					"PLL_FAIL)"),
			  std::string::npos)
			<< log.text();
		/* With a fatal bit set, no "going on" warning before the refusal (trial). */
		EXPECT_EQ(log.text_at(RTE_LOG_WARNING).find("going on"), std::string::npos)
			<< log.text();
	}
	{
		/* A fatal bit alone: refused, no warning. */
		gaudi_test::LogCapture log;
		Nic nic("wire=loopback,ports=1,fw_boot_err0=0x40", 0);
		EXPECT_EQ(nic.probe_rc(), -EIO);
		EXPECT_EQ(log.text_at(RTE_LOG_WARNING), "");
		EXPECT_NE(log.text_at(RTE_LOG_ERR).find("(CPU_BOOT_ERR0 0x80000040: NIC_FW_FAIL)"),
			  std::string::npos)
			<< log.text();
	}
}

} /* namespace test_ethdev */
