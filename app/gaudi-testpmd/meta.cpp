/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the report's metadata and phases (meta.h).
 */
#include <cinttypes>
#include <ctime>

#include <rte_version.h>

#include "app.h"

#ifndef GTP_VERSION
#error "GTP_VERSION must be defined (app/gaudi-testpmd/meson.build)"
#endif

namespace gtp {

void meta_begin(Meta &m, int argc, char **argv)
{
	m.argv.assign(argv, argv + argc);
	timespec ts{};
	clock_gettime(CLOCK_REALTIME, &ts);
	tm t{};
	gmtime_r(&ts.tv_sec, &t);
	char b[64];
	size_t n = strftime(b, sizeof(b), "%Y-%m-%dT%H:%M:%S", &t);
	snprintf(b + n, sizeof(b) - n, ".%03ldZ", ts.tv_nsec / 1000000);
	m.start_utc = b;
}

void meta_ports(Run &r)
{
	Meta &m = r.meta;
	m.ports.assign(r.ports.size(), {});
	for (size_t k = 0; k < r.ports.size(); k++) {
		PortMeta &pm = m.ports[k];
		uint16_t id = r.ports[k].id;
		rte_eth_dev_info info;
		if (rte_eth_dev_info_get(id, &info) == 0 && info.driver_name)
			pm.driver = info.driver_name;
		char fw[256];
		if (rte_eth_dev_fw_version_get(id, fw, sizeof(fw)) == 0)
			pm.fw_version = fw;
		rte_eth_link link{};
		if (rte_eth_link_get_nowait(id, &link) == 0) {
			pm.link_up = link.link_status == RTE_ETH_LINK_UP;
			if (link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
				pm.link_speed_mbps = link.link_speed;
		}
	}
}

uint64_t line_mbps(const Run &r, size_t k)
{
	if (k < r.meta.ports.size() && r.meta.ports[k].link_speed_mbps)
		return r.meta.ports[k].link_speed_mbps;
	return r.ports[k].speed_mbps;
}

void phase_begin(Run &r, double target_pps)
{
	Meta &m = r.meta;
	m.cur = {};
	m.cur.mode = mode_name(r.cfg.mode);
	m.cur.target_pps = target_pps;
	m.at_start.resize(r.ports.size());
	for (size_t k = 0; k < r.ports.size(); k++)
		m.at_start[k] = port_stats(r.ports[k]);
}

void phase_end(Run &r, double duration_s)
{
	Meta &m = r.meta;
	m.cur.duration_s = duration_s;
	m.cur.ports.resize(r.ports.size());
	for (size_t k = 0; k < r.ports.size(); k++) {
		rte_eth_stats st = port_stats(r.ports[k]);
		const rte_eth_stats &a = m.at_start[k];
		rte_eth_stats &d = m.cur.ports[k];
		/* clear port stats is refused while forwarding: the counters only grew. */
		d.ipackets = st.ipackets - a.ipackets;
		d.opackets = st.opackets - a.opackets;
		d.ibytes = st.ibytes - a.ibytes;
		d.obytes = st.obytes - a.obytes;
		d.imissed = st.imissed - a.imissed;
		d.ierrors = st.ierrors - a.ierrors;
		d.oerrors = st.oerrors - a.oerrors;
		d.rx_nombuf = st.rx_nombuf - a.rx_nombuf;
	}
	m.phases.push_back(std::move(m.cur));
	m.cur = {};
}

static void json_strings(FILE *f, const std::vector<std::string> &v)
{
	fprintf(f, "[");
	for (size_t i = 0; i < v.size(); i++)
		fprintf(f, "%s%s", i ? ", " : "", json_str(v[i]).c_str());
	fprintf(f, "]");
}

void meta_json(FILE *f, const Run &r)
{
	const Meta &m = r.meta;
	fprintf(f, " \"schema\": %s,\n \"app\": \"gaudi-testpmd\",\n",
		json_str(kReportSchema).c_str());
	fprintf(f, " \"start_time\": %s,\n \"command_line\": ", json_str(m.start_utc).c_str());
	json_strings(f, m.argv);
	fprintf(f, ",\n \"eal_args\": ");
	json_strings(f, m.eal);
	/* The PMD linked into the app is built from the same tree: the app's version. The
	 * drivers are named per port, with the firmware version the port reports. */
	fprintf(f,
		",\n \"versions\": {\"app\": %s, \"dpdk\": %s, \"gaudi_pmd\": %s, \"drivers\": [",
		json_str(GTP_VERSION).c_str(), json_str(rte_version()).c_str(),
		json_str(GTP_VERSION).c_str());
	std::vector<std::string> seen;
	for (const PortMeta &pm : m.ports) {
		std::string key = pm.driver + "\n" + pm.fw_version;
		bool dup = false;
		for (auto &s : seen)
			dup = dup || s == key;
		if (dup)
			continue;
		fprintf(f, "%s{\"driver\": %s, \"fw_version\": %s}", seen.empty() ? "" : ", ",
			json_str(pm.driver).c_str(),
			pm.fw_version.empty() ? "null" : json_str(pm.fw_version).c_str());
		seen.push_back(key);
	}
	fprintf(f, "]},\n");
}

void meta_port_json(FILE *f, const Run &r, size_t k)
{
	if (k >= r.meta.ports.size())
		return;
	const PortMeta &pm = r.meta.ports[k];
	fprintf(f,
		",\n   \"driver\": %s, \"fw_version\": %s, \"link\": {\"up\": %s, "
		"\"speed_mbps\": %u}, \"line_rate_mbps\": %" PRIu64,
		json_str(pm.driver).c_str(),
		pm.fw_version.empty() ? "null" : json_str(pm.fw_version).c_str(),
		pm.link_up ? "true" : "false", pm.link_speed_mbps, line_mbps(r, k));
}

void phases_json(FILE *f, const Run &r)
{
	const Meta &m = r.meta;
	fprintf(f, " \"phases\": [");
	for (size_t i = 0; i < m.phases.size(); i++) {
		const Phase &ph = m.phases[i];
		fprintf(f,
			"%s\n  {\"mode\": %s, \"target_pps\": %.3f, \"duration_s\": %.6f, "
			"\"ports\": [",
			i ? "," : "", json_str(ph.mode).c_str(), ph.target_pps, ph.duration_s);
		for (size_t k = 0; k < ph.ports.size() && k < r.ports.size(); k++) {
			const rte_eth_stats &d = ph.ports[k];
			fprintf(f,
				"%s{\"port\": %u, \"rx_packets\": %" PRIu64
				", \"tx_packets\": %" PRIu64 ", \"rx_bytes\": %" PRIu64
				", \"tx_bytes\": %" PRIu64 ", \"rx_missed\": %" PRIu64
				", \"rx_errors\": %" PRIu64 ", \"tx_errors\": %" PRIu64 "}",
				k ? ", " : "", r.ports[k].id, d.ipackets, d.opackets, d.ibytes,
				d.obytes, d.imissed, d.ierrors, d.oerrors);
		}
		fprintf(f, "]}");
	}
	fprintf(f, "%s],\n", m.phases.empty() ? "" : "\n ");
}

} /* namespace gtp */
