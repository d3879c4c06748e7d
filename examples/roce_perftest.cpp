/* SPDX-License-Identifier: BSD-3-Clause */
/* roce_perftest: a peer for perftest's ib_write_bw, ib_read_bw, ib_send_bw, ib_atomic_bw and the
 * latency tests ib_write_lat, ib_read_lat, ib_send_lat (RC) on the
 * userspace RoCE v2 transport (drivers/net/gaudi/roce/roce_verbs.h) over any DPDK port.
 *
 *   roce_perftest [EAL args] -- --test=TEST [options]            server
 *   roce_perftest [EAL args] -- --test=TEST [options] <host>     client
 *   roce_perftest [EAL args] -- --test=TEST -R [options] <ip>    client, rdma_cm mode
 *
 * TEST: write, read, send, atomic (the ib_*_bw tests), write_lat, read_lat, send_lat.
 *
 * Options as perftest's where they apply (both sides must be given the same ones):
 *   -s, --size=<bytes>      message size (default 65536, latency tests 2; atomic: 8 only)
 *   -a, --all               all sizes 2 .. 2^23
 *   -n, --iters=<n>         messages per size (default 5000, latency tests 1000; at least 5)
 *   -m, --mtu=<bytes>       path MTU (default the port's; the smaller of both sides is used)
 *   -p, --port=<port>       TCP port (default 18515); with -R the RDMA CM's port (port space
 *                           TCP) of the server
 *   -t, --tx-depth=<n>      outstanding send WRs (default 128)
 *   -r, --rx-depth=<n>      receives posted by a send server (default 512)
 *   -x, --gid-index=0|1     as roce_pingpong's -g (default 1: IPv4)
 *   -A, --atomic_type=FETCH_AND_ADD|CMP_AND_SWAP   the atomic test's operation (default FAA)
 *   -q, --qp=<n>            QPs (1..64; bandwidth tests): each moves -n messages, the
 *                           report counts all (perftest's iterations x QPs)
 *   -b, --bidirectional     write and read: both sides run at once, each prints the sum
 *   -D, --duration=<sec>    write, read, atomic: run for this long instead of -n messages
 *   -I, --inline_size=<n>   WRITEs and SENDs of at most n bytes are posted inline (0..4096;
 *                           default 0, none)
 *   -R, --rdma_cm           perftest's rdma_cm mode: the exchange goes over an RC connection
 *                           of the RDMA CM to the server's IPv4 address (the client's <ip>,
 *                           on the RoCE link), the CM connects the test's QPs (-x 1 only)
 *   --ip, --peer-mac, --dpdk-port, --pcap   as roce_pingpong
 * The peer's MAC comes from neighbour resolution (ARP / IPv6 ND, peer_mac.h) of the GID in its
 * keys, unless --peer-mac gives it (with -R the CM resolves it); the Context answers the peer's
 * ARP/NS for our GID while we wait in the exchange (SideChannel::get polls it).
 *
 * The exchange with the peer and the flow of each test: roce_perftest.h. */
#include <getopt.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <rte_eal.h>

#include "port_capture.h"
#include "roce_perftest.h"

using namespace gaudi::examples;
using namespace gaudi::examples::perftest;

namespace {

/* -t, -r: a work queue of the RoCE layer holds up to 65536 requests (as its SRQ). */
constexpr uint32_t kMaxDepth = 65536;
#define TESTS "write|read|send|atomic|write_lat|read_lat|send_lat"

void usage(const char *argv0)
{
	printf("Usage: %s [EAL args] -- --test=TEST [options]          server\n"
	       "       %s [EAL args] -- --test=TEST [options] <host>   client (-R: the server's "
	       "IPv4 address)\n"
	       "A peer for perftest's ib_*_bw and ib_*_lat; both sides take the same options.\n"
	       "  --test=write|read|send|atomic|write_lat|read_lat|send_lat\n"
	       "  -s, --size=BYTES        message size (65536; latency tests 2; atomic 8 only)\n"
	       "  -a, --all               sizes 2 .. 2^23\n"
	       "  -n, --iters=N           messages per size (5000; latency tests 1000; >= 5)\n"
	       "  -m, --mtu=256..4096     path MTU (the port's)\n"
	       "  -p, --port=PORT         TCP port, with -R the RDMA CM port (18515)\n"
	       "  -t, --tx-depth=N        outstanding send WRs (128)\n"
	       "  -r, --rx-depth=N        receives posted by a send server (512)\n"
	       "  -x, --gid-index=0|1     0 link-local IPv6, 1 IPv4 (1)\n"
	       "  -A, --atomic_type=FETCH_AND_ADD|CMP_AND_SWAP\n"
	       "  -q, --qp=N              QPs, 1..64 (bandwidth tests)\n"
	       "  -b, --bidirectional     write and read: both sides run\n"
	       "  -D, --duration=SECONDS  write, read, atomic: run this long instead of -n\n"
	       "  -I, --inline_size=N     WRITEs and SENDs of at most N bytes inline (0)\n"
	       "  -R, --rdma_cm           perftest's rdma_cm mode: exchange and QP connection "
	       "through the RDMA CM, no TCP (-x 1)\n"
	       "  --ip=a.b.c.d            our IPv4 address (10.0.0.1 server, 10.0.0.2 client)\n"
	       "  --peer-mac=xx:..:xx     the peer's MAC (resolved by ARP/ND otherwise)\n"
	       "  --dpdk-port=N           the DPDK port (0)\n"
	       "  --pcap=FILE             every frame the port sends or receives\n",
	       argv0, argv0);
}

} /* namespace */

int main(int argc, char **argv)
{
	if (!eal_init(argc, argv))
		return 1;
	Opts o;
	static const option longopts[] = {
		{"test", 1, nullptr, 'T'},	{"size", 1, nullptr, 's'},
		{"all", 0, nullptr, 'a'},	{"iters", 1, nullptr, 'n'},
		{"mtu", 1, nullptr, 'm'},	{"port", 1, nullptr, 'p'},
		{"tx-depth", 1, nullptr, 't'},	{"rx-depth", 1, nullptr, 'r'},
		{"gid-index", 1, nullptr, 'x'}, {"atomic_type", 1, nullptr, 'A'},
		{"qp", 1, nullptr, 'q'},	{"bidirectional", 0, nullptr, 'b'},
		{"duration", 1, nullptr, 'D'},	{"inline_size", 1, nullptr, 'I'},
		EXAMPLE_PEER_LONGOPTS,		{"rdma_cm", 0, nullptr, 'R'},
		{"help", 0, nullptr, 'h'},	{}};
	const UintOpt nums[] = {
		{'s', "-s", 1, kMaxSize, o.size, &o.size_set},
		{'n', "-n", 5, UINT32_MAX, o.iters, &o.iters_set},
		{'p', "-p", 1, 65535, o.tcp_port},
		{'t', "-t", 1, kMaxDepth, o.tx_depth},
		{'r', "-r", 1, kMaxDepth, o.rx_depth},
		{'x', "-x", 0, 1, o.gid_idx}, /* the GID table: 0 link-local IPv6, 1 IPv4 */
		{'q', "-q", 1, 64, o.num_qps},
		{'D', "-D", 1, 3600, o.duration},
		{'I', "-I", 0, 4096, o.inline_size},
	};
	int c;
	while ((c = getopt_long(argc, argv, "T:s:an:m:p:t:r:x:A:q:bD:I:Rh", longopts, nullptr)) !=
	       -1) {
		if (int r = parse_peer_opt(c, optarg, o, nums); r != 0) {
			if (r < 0)
				return 1;
			continue;
		}
		switch (c) {
		case 'T':
			o.test_set = true;
			if (!strcmp(optarg, "write"))
				o.test = Test::write;
			else if (!strcmp(optarg, "read"))
				o.test = Test::read;
			else if (!strcmp(optarg, "send"))
				o.test = Test::send;
			else if (!strcmp(optarg, "atomic"))
				o.test = Test::atomic;
			else if (!strcmp(optarg, "write_lat"))
				o.test = Test::write, o.lat = true;
			else if (!strcmp(optarg, "read_lat"))
				o.test = Test::read, o.lat = true;
			else if (!strcmp(optarg, "send_lat"))
				o.test = Test::send, o.lat = true;
			else
				return !bad_opt("-T", optarg, "not a test (" TESTS ")");
			break;
		case 'R':
			o.rdma_cm = true;
			break;
		case 'b':
			o.duplex = true;
			break;
		case 'A':
			if (!strcmp(optarg, "FETCH_AND_ADD"))
				o.cas = false;
			else if (!strcmp(optarg, "CMP_AND_SWAP"))
				o.cas = true;
			else
				return !bad_opt("-A", optarg,
						"not an atomic type (FETCH_AND_ADD|CMP_AND_SWAP)");
			break;
		case 'a':
			o.all = true;
			break;
		case 'm':
			if (!parse_ib_mtu("-m", optarg, o.mtu))
				return 1;
			break;
		case 'h':
			usage(argv[0]);
			return 0;
		default:
			return 1; /* getopt named the unknown option or the missing value */
		}
	}
	if (!server_arg(argc, argv, o.server))
		return 1;
	if (!o.test_set) {
		fprintf(stderr, "%s: --test: missing (" TESTS ")\n", prog_name());
		return 1;
	}
	/* What this peer does not do (perftest does): say so instead of hanging the peer. */
	if (o.duplex && (o.test == Test::send || o.test == Test::atomic || o.lat)) {
		fprintf(stderr,
			"%s: -b: bidirectional write and read only (send_bw's run_iter_bi is "
			"not implemented)\n",
			prog_name());
		return 1;
	}
	if (o.duration && (o.test == Test::send || o.lat || o.all || o.duplex)) {
		fprintf(stderr,
			"%s: -D: write, read and atomic bandwidth only, without -a and -b\n",
			prog_name());
		return 1;
	}
	if (o.rdma_cm && (o.gid_idx != 1 || o.peer_mac_set)) {
		fprintf(stderr,
			"%s: -R: the RDMA CM's addresses are IPv4 (-x 1) and it resolves the "
			"peer's MAC itself (no --peer-mac)\n",
			prog_name());
		return 1;
	}
	if (o.num_qps > 1 && o.lat) {
		fprintf(stderr, "%s: -q: the latency tests use one QP (as perftest's)\n",
			prog_name());
		return 1;
	}
	if (o.lat) { /* DEF_SIZE_LAT, DEF_ITERS; one message at a time */
		if (!o.size_set)
			o.size = 2;
		if (!o.iters_set)
			o.iters = 1000;
	}
	if (o.test == Test::atomic) {
		/* perftest: "Message size cannot be changed for Atomic tests" (-a sets 2^23). */
		if (o.all || (o.size_set && o.size != kAtomicSize)) {
			fprintf(stderr, "%s: --test=atomic: the size is 8 bytes (no -s, no -a)\n",
				prog_name());
			return 1;
		}
		o.size = kAtomicSize;
	}
	o.tx_depth = std::min<uint64_t>(o.tx_depth, o.iters); /* perftest does the same */
	if (o.lat) /* one message at a time, but SEND completions may trail the peer's reply */
		o.tx_depth = std::max<uint32_t>(o.tx_depth, 16);
	rte_mempool *mp = start_ports("pt_pool", 8191, false, o.dpdk_port);
	if (mp == nullptr)
		return 1;
	int rc;
	{
		std::unique_ptr<PortCapture> cap;
		if (o.pcap != nullptr && !(cap = PortCapture::open(o.pcap, o.dpdk_port, 0)))
			return 1;
		Peer p(o);
		rc = p.run(mp);
	}
	rte_eal_cleanup();
	return rc;
}
