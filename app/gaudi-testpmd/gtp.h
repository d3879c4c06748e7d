/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the configuration shared by the option parser, the ports, the forwarding
 * lcores and the report.
 */
#ifndef GTP_H
#define GTP_H

#include <cstdint>
#include <string>
#include <vector>

#include <rte_ether.h>

#include "traffic.h"

namespace gtp {

/* testpmd's forwarding modes (same names), plus template: frames replayed from a capture. */
enum class FwdMode { io, mac, macswap, txonly, rxonly, flowgen, icmpecho, template_, roce };

const char *mode_name(FwdMode m);

/* Generator modes build their frames; the others forward what they receive. */
inline bool is_generator(FwdMode m)
{
	return m == FwdMode::txonly || m == FwdMode::flowgen || m == FwdMode::template_;
}

enum class CaptureDir { rx, tx, both };

struct CaptureSpec {
	uint16_t port;
	std::string file;
	CaptureDir dir = CaptureDir::both; /* --capture=PORT:FILE:DIR, --capture-dir[=PORT:]DIR */
	bool dir_given = false;		   /* for this port (else the global --capture-dir) */
};

struct EthPeer {
	uint16_t port;
	rte_ether_addr addr;
};

struct Config {
	FwdMode mode = FwdMode::io;
	bool mode_given = false; /* --forward-mode */
	uint16_t burst = 32;
	uint32_t pkt_len = 64; /* the longest frame generated, without FCS (--txpkts, --stream) */
	SizeSpec txsize;       /* --txpkts: frame lengths without FCS */
	std::vector<StreamSpec> streams; /* --stream */
	uint16_t rxq = 1, txq = 1;
	uint16_t rxd = 0, txd = 0; /* 0: the port's default ring size, as testpmd */
	unsigned nb_cores = 1;
	double stats_period = 1.0; /* seconds; 0 = no live line */
	std::vector<EthPeer> eth_peers;
	uint32_t ip_src = 0xc6120001; /* 198.18.0.1, as testpmd's txonly (RFC 2544 range) */
	uint32_t ip_dst = 0xc6120002; /* 198.18.0.2 */
	uint16_t udp_src = 9, udp_dst = 9;
	unsigned flows = 1024;		/* --flowgen-flows */
	double duration = 0;		/* seconds; 0 = until --packets or Ctrl-C */
	uint64_t packets = 0;		/* 0 = no limit */
	double rate_pps = 0;		/* per port; 0 = as fast as possible */
	double rate_gbps = 0;		/* per port, L2 bytes (no FCS) */
	double rate_pct = 0;		/* per port, % of line rate on the wire (--rate=P%) */
	std::vector<uint16_t> portlist; /* empty = every probed port */
	bool tx_first = false;
	bool latency = true; /* stamp generated frames and measure */
	std::string template_file;
	std::string json_file;
	std::vector<CaptureSpec> captures;
	std::string capture_filter;
	CaptureDir capture_dir = CaptureDir::both;
	uint64_t capture_max = 0; /* frames per capture file; 0 = no limit */
	uint32_t snaplen = UINT32_MAX;
	bool interactive = false;
	bool quiet = false;
	int screen = -1; /* live view: 1 refreshing table, 0 plain lines, -1 table on a terminal */
	/* Template replay (replay.cpp): on with --replay-speed or --replay-loop. */
	bool replay = false;
	double replay_speed = 0;  /* x the capture's timing; 0 = at --rate/--rate-gbps */
	uint64_t replay_loop = 1; /* times the capture is sent; 0 = until stopped */
	/* roce mode: requester on the first port, responder on the second. */
	std::string roce_op = "rc-write"; /* ud-send, rc-send, rc-write, rc-read */
	uint32_t roce_msg = 4096;	  /* message size, bytes */
	uint32_t roce_depth = 64;	  /* messages outstanding */
	uint32_t roce_mtu = 1024;
	/* RoCE path MTU: 256, 512, 1024, 2048, 4096 */ /* --rfc2544: the RFC 2544 benchmark (rfc2544.h) instead of one run. */
	unsigned rfc2544 = 0;		     /* Rfc2544Test bits; 0 = not asked */
	std::vector<uint32_t> rfc2544_sizes; /* frame sizes with FCS; empty = RFC 2544's */
	double rfc2544_trial = 60;	     /* seconds of traffic per trial (RFC 2544 s. 24) */
	double rfc2544_resolution = 0.5;     /* search resolution, % of its upper bound */
	double rfc2544_loss = 0;	     /* acceptable loss in a throughput trial, % */
};

/* Parses the application's arguments (those after "--"). Returns 0, 1 after printing the
 * error, or -1 after printing --help (exit 0). Touches no port. */
int parse_args(int argc, char **argv, Config &cfg);

void usage(const char *prog);

} /* namespace gtp */

#endif /* GTP_H */
