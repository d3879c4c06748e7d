/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: what the --json report says of the run itself, so that a report can be
 * trusted and archived on its own: the schema version, when and how the run was started
 * (command line, the EAL arguments used), the versions of the app, DPDK and the ports'
 * drivers, the ports' links, and the phases of a run (each start/stop at the prompt).
 */
#ifndef GTP_META_H
#define GTP_META_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <rte_ethdev.h>

namespace gtp {

struct Run;

/* The report's layout version ("schema"); doc/guides/gaudi_testpmd.rst says what changed. */
constexpr const char *kReportSchema = "gaudi-testpmd/2";

struct PortMeta {
	std::string driver;	/* rte_eth_dev_info.driver_name */
	std::string fw_version; /* rte_eth_dev_fw_version_get; empty: the port reports none */
	bool link_up = false;
	uint32_t link_speed_mbps = 0; /* rte_eth_link at start; 0 = unknown */
};

/* One forwarding phase: a run without -i is one, each start/stop at the prompt another. */
struct Phase {
	std::string mode;
	double target_pps = 0; /* 0: not paced */
	double duration_s = 0;
	std::vector<rte_eth_stats> ports; /* what each port counted during the phase */
};

struct Meta {
	std::vector<std::string> argv; /* as given */
	std::vector<std::string> eal;  /* the EAL arguments used, with the ones the app added */
	std::string start_utc;	       /* ISO 8601 */
	std::vector<PortMeta> ports;   /* as Run::ports */
	std::vector<Phase> phases;
	Phase cur;			     /* the phase under way */
	std::vector<rte_eth_stats> at_start; /* its ports' counters when it began */
};

/* At the start of main: the command line and the time. */
void meta_begin(Meta &m, int argc, char **argv);
/* Once the ports are up: drivers, firmware versions and links. */
void meta_ports(Run &r);
/* Around each forwarding phase (before launch, after halt). */
void phase_begin(Run &r, double target_pps);
void phase_end(Run &r, double duration_s);
/* The link speed a port's % of line rate counts against (Mbit/s; 0 = unknown). */
uint64_t line_mbps(const Run &r, size_t k);

/* JSON: the report's first members (each followed by a comma), a port's extra members
 * (each preceded by one) and the "phases" member (followed by a comma). */
void meta_json(FILE *f, const Run &r);
void meta_port_json(FILE *f, const Run &r, size_t k);
void phases_json(FILE *f, const Run &r);

} /* namespace gtp */

#endif /* GTP_META_H */
