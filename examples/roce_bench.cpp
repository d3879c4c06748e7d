/* SPDX-License-Identifier: BSD-3-Clause */
/* roce_bench: RC RDMA WRITE goodput and UD SEND message rate of the userspace RoCE v2
 * transport between the two ports of a net_gaudi_emu `pair`, one thread polling both ends;
 * with --icrc, the ICRC throughput of roce_framing (rte_net_crc) against zlib's crc32().
 *
 *   roce_bench [EAL args, e.g. --no-huge -m 1024 --vdev net_gaudi_emu0,ports=2,wire=pair,engine=inline]
 *              -- [--seconds S] [--mtu 256..4096] [--sizes LIST] [--ud-sizes LIST]
 *                 [--rxd N] [--txd N]
 *   roce_bench [EAL args, e.g. --no-huge -m 256 --no-pci] -- --icrc [--seconds S]
 * Prints one line per size (--sizes: RC WRITE, default 64 B .. 64 KiB in steps of 4x; --ud-sizes:
 * UD SEND, default 64 B .. 4 KiB; --rxd/--txd: ring sizes, default 2048), each with the Gbit/s
 * per CPU-second of the polling thread. Not a test: numbers depend on the machine.
 *
 * --icrc: one core, hot cache. For RC RDMA WRITE_ONLY frames (IPv4) of 64 B, 256 B, 1 KiB and
 * 4 KiB payload it times
 *   ICRC ours   compute_icrc(): up to 512 B of datagram, a copy behind 8 B of 0xFF, masking
 *               of the variant fields and rte_net_crc_calc; above, with libisal, the masked
 *               headers on a copy and ISA-L's CRC over the rest in place, on the variant
 *               rte_net_crc's rule picks for the row (what parse() does unless the 256-bit
 *               fold is chosen; build() folds the payload's CRC into its copy instead)
 *   ICRC zlib   the same copy and masking, then zlib crc32()
 *   raw rte     rte_net_crc_calc over the masked ICRC input (no copy, no masking)
 *   raw zlib    crc32() over the same bytes
 * for every rte_net_crc algorithm the CPU and EAL allow (scalar, SSE4.2, AVX512; the width
 * is raised to 512 bit for this mode unless --force-max-simd-bitwidth was given). GB/s counts
 * the ICRC input bytes (8 + IP header .. pad). The algorithm rte_net_crc really installed
 * is printed (icrc_set_alg applies DPDK's fallback rule). */
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include <zlib.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_net_crc.h>
extern "C" {
#include <rte_vect.h> /* its generic/ declarations lack extern "C" */
}

#include "example_common.h"
#include "qp_pair.h"
#include "roce_verbs.h"

using namespace gaudi::roce;
using gaudi::examples::bad_opt;
using gaudi::examples::parse_ib_mtu;
using gaudi::examples::prog_name;

namespace {

struct Side {
	std::unique_ptr<Context> ctx;
	std::unique_ptr<ProtectionDomain> pd;
	std::unique_ptr<CompletionQueue> cq;
	std::unique_ptr<QueuePair> qp;
	std::vector<uint8_t> buf;
	std::unique_ptr<MemoryRegion> mr;
	~Side()
	{
		mr.reset();
		qp.reset();
		cq.reset();
		pd.reset();
	}
};

void make_side(Side &s, uint16_t port, rte_mempool *mp, uint8_t ip, ibv_qp_type t, size_t buflen)
{
	ContextConfig c;
	c.port_id = port;
	c.tx_pool = mp;
	c.gid = Gid::from_ipv4({10, 0, 0, ip});
	c.dcqcn = false;
	s.ctx = Context::create(c);
	s.pd = s.ctx->alloc_pd();
	s.cq = s.ctx->create_cq(8192);
	QpInitAttr a;
	a.qp_type = t;
	a.send_cq = a.recv_cq = s.cq.get();
	a.cap.max_send_wr = 1024;
	a.cap.max_recv_wr = 1024;
	s.qp = s.ctx->create_qp(*s.pd, a);
	s.buf.assign(buflen, 0x5a);
	s.mr = s.ctx->reg_mr(*s.pd, s.buf.data(), s.buf.size(),
			     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				     IBV_ACCESS_REMOTE_READ);
}

bool connect(Side &a, Side &b, ibv_mtu mtu)
{
	return gaudi::examples::connect_qp_pair(*a.ctx, *a.qp, *b.ctx, *b.qp, mtu);
}

double seconds(uint64_t c)
{
	return double(c) / double(rte_get_timer_hz());
}

/* CPU time of this thread: on a shared machine the figure per CPU-second leaves out the time
 * the thread waited for a CPU (two syscalls per point, outside the loop). */
double cpu_seconds()
{
	timespec ts{};
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

void bench_write(rte_mempool *mp, uint32_t size, double secs, ibv_mtu mtu)
{
	Side a, b;
	make_side(a, 0, mp, 1, IBV_QPT_RC, size);
	make_side(b, 1, mp, 2, IBV_QPT_RC, size);
	if (!connect(a, b, mtu)) {
		fprintf(stderr, "connect failed\n");
		return;
	}
	Sge s{reinterpret_cast<uintptr_t>(a.buf.data()), size, a.mr->lkey()};
	SendWr w;
	w.sg_list = {&s, 1};
	w.opcode = IBV_WR_RDMA_WRITE;
	w.send_flags = IBV_SEND_SIGNALED;
	w.rdma = {reinterpret_cast<uintptr_t>(b.buf.data()), b.mr->rkey()};
	const double c0 = cpu_seconds();
	uint64_t done = 0, t0 = rte_get_timer_cycles(),
		 end = t0 + uint64_t(secs * rte_get_timer_hz());
	WorkCompletion wc[64];
	while (rte_get_timer_cycles() < end) {
		while (a.qp->sq_outstanding() < 256 && a.qp->post_send(w) == 0) {
		}
		a.ctx->poll();
		b.ctx->poll();
		int n = a.cq->poll_cq(wc);
		for (int i = 0; i < n; i++)
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "WRITE failed: %d\n", int(wc[i].status));
				return;
			}
		done += n;
	}
	double t = seconds(rte_get_timer_cycles() - t0), c = cpu_seconds() - c0;
	printf("RC WRITE %6u B: %10.0f msg/s  %7.3f Gbit/s goodput  (retransmits %lu)  "
	       "%7.3f Gbit/s per CPU-second, CPU %3.0f %%\n",
	       size, done / t, double(done) * size * 8 / t / 1e9, a.ctx->counters().retransmits,
	       double(done) * size * 8 / c / 1e9, 100 * c / t);
}

void bench_ud(rte_mempool *mp, uint32_t size, double secs)
{
	Side a, b;
	make_side(a, 0, mp, 1, IBV_QPT_UD, size + 40);
	make_side(b, 1, mp, 2, IBV_QPT_UD, size + 40);
	if (!connect(a, b, IBV_MTU_4096))
		return;
	auto ah = a.ctx->create_ah(*a.pd, {b.ctx->mac(), b.ctx->gid(), 0, 0, 64});
	Sge rs{reinterpret_cast<uintptr_t>(b.buf.data()), size + 40, b.mr->lkey()};
	for (int i = 0; i < 1024; i++)
		b.qp->post_recv({1, {&rs, 1}});
	Sge s{reinterpret_cast<uintptr_t>(a.buf.data()), size, a.mr->lkey()};
	SendWr w;
	w.sg_list = {&s, 1};
	w.opcode = IBV_WR_SEND;
	w.ud = {ah.get(), b.qp->qp_num(), gaudi::examples::kPairQkey};
	const double c0 = cpu_seconds();
	uint64_t rcvd = 0, t0 = rte_get_timer_cycles(),
		 end = t0 + uint64_t(secs * rte_get_timer_hz());
	WorkCompletion wc[64];
	while (rte_get_timer_cycles() < end) {
		/* Keep the sender at most 256 ahead of the receiver (UD has no flow control). */
		while (a.qp->sq_outstanding() < 64 && b.qp->rq_posted() > 300 &&
		       a.qp->post_send(w) == 0) {
		}
		a.ctx->poll();
		b.ctx->poll();
		int n = b.cq->poll_cq(wc);
		for (int i = 0; i < n; i++)
			b.qp->post_recv({1, {&rs, 1}});
		rcvd += n;
	}
	double t = seconds(rte_get_timer_cycles() - t0), c = cpu_seconds() - c0;
	printf("UD SEND  %6u B: %7.3f Mpps  %7.3f Gbit/s  (receiver drops %lu)  "
	       "%7.3f Gbit/s per CPU-second, CPU %3.0f %%\n",
	       size, rcvd / t / 1e6, double(rcvd) * size * 8 / t / 1e9,
	       b.ctx->counters().rx_no_recv_wqe, double(rcvd) * size * 8 / c / 1e9, 100 * c / t);
}

/* ---- --icrc ------------------------------------------------------------------------------ */
volatile uint32_t g_sink;

/* Calls f() repeatedly for about `secs`; returns calls per second (best of 3 runs). */
template <class F>
double calls_per_sec(F &&f, double secs)
{
	const uint64_t hz = rte_get_tsc_hz();
	double best = 0;
	for (int rep = 0; rep < 3; rep++) {
		uint64_t n = 0, t0 = rte_rdtsc(), end = t0 + uint64_t(secs / 3 * double(hz)), t;
		uint32_t acc = 0;
		do {
			for (int i = 0; i < 256; i++)
				acc ^= f();
			n += 256;
			t = rte_rdtsc();
		} while (t < end);
		g_sink = acc;
		best = std::max(best, double(n) * double(hz) / double(t - t0));
	}
	return best;
}

/* The ICRC input of a frame: 8 B of 0xFF + the IP datagram up to the ICRC, masked
 * (roce_framing.h, Annex A17.4.1), written to `out` (the same steps as compute_icrc). */
size_t icrc_input(const uint8_t *dgram, size_t n, uint8_t *out)
{
	memset(out, 0xFF, 8);
	memcpy(out + 8, dgram, n);
	uint8_t *ip = out + 8;
	ip[1] = 0xFF;
	ip[8] = 0xFF;
	ip[10] = ip[11] = 0xFF;
	uint8_t *udp = ip + kIpv4HdrMinLen;
	udp[6] = udp[7] = 0xFF;
	udp[kUdpHdrLen + 4] = 0xFF;
	return n + 8;
}

int bench_icrc(double secs)
{
	/* rte_net_crc reads EAL's SIMD width once, at its first selection (this mode makes it):
	 * allow 512 bits unless the user forced a width on the command line. */
	bool raised = rte_vect_set_max_simd_bitwidth(RTE_VECT_SIMD_512) == 0;
	printf("ICRC throughput, one core, hot cache, %.2f s per cell; zlib %s crc32(); EAL max "
	       "SIMD "
	       "width %u bit%s\n",
	       secs, zlibVersion(), unsigned(rte_vect_get_max_simd_bitwidth()),
	       raised ? " (raised for this benchmark)" : " (forced on the command line)");
	printf("GB/s = ICRC input bytes (8 B + IP datagram up to the ICRC) per second. "
	       "Frames: IPv4 RC_RDMA_WRITE_ONLY.\n\n");
	const uint32_t sizes[] = {64, 256, 1024, 4096};
	struct Frame {
		std::vector<uint8_t> buf;
		size_t dgram_len;
		std::vector<uint8_t> payload;
	};
	std::vector<Frame> frames;
	for (uint32_t sz : sizes) {
		Frame f;
		f.payload.resize(sz);
		for (uint32_t i = 0; i < sz; i++)
			f.payload[i] = uint8_t(i * 7 + 1);
		Packet p = make_packet(Opcode::RC_RDMA_WRITE_ONLY);
		p.ip4.src = {10, 0, 0, 1};
		p.ip4.dst = {10, 0, 0, 2};
		p.bth.dest_qp = 0x000101;
		p.bth.psn = 0x123456;
		p.reth = {0x7f0000001000ull, 0x1234, sz};
		p.payload = f.payload;
		f.buf.resize(sz + 256);
		BuildResult r = build(p, f.buf);
		if (!r) {
			fprintf(stderr, "build failed: %s\n",
				std::string(error_name(r.error)).c_str());
			return 1;
		}
		f.buf.resize(r.len);
		f.dgram_len = r.len - kEthHdrLen - kIcrcLen; /* IP header .. pad */
		Packet q;
		ParseStats st;
		if (parse(f.buf, q, st) != ParseError::ok) {
			fprintf(stderr, "built frame does not parse\n");
			return 1;
		}
		frames.push_back(std::move(f));
	}
	alignas(64) static uint8_t scratch[kIcrcScratchLen], scratch2[kIcrcScratchLen],
		masked[kIcrcScratchLen];

	printf("%-18s %7s %6s %6s | %9s %9s %6s | %9s %9s %6s\n", "rte_net_crc alg", "payload",
	       "frame", "crc-in", "ICRC ours", "ICRC zlib", "ratio", "raw rte", "raw zlib",
	       "ratio");
	int seen[8] = {};
	for (int want :
	     {int(RTE_NET_CRC_SCALAR), int(RTE_NET_CRC_SSE42), int(RTE_NET_CRC_AVX512)}) {
		int alg = icrc_set_alg(want);
		if (seen[alg & 7]++) {
			printf("%-18s (requested; rte_net_crc fell back to %s: CPU or SIMD "
			       "width)\n",
			       std::string(crc_alg_name(want)).c_str(),
			       std::string(crc_alg_name(alg)).c_str());
			continue;
		}
		for (size_t k = 0; k < frames.size(); k++) {
			const Frame &f = frames[k];
			const uint8_t *dg = f.buf.data() + kEthHdrLen;
			const size_t n = f.dgram_len;
			const size_t in = icrc_input(dg, n, masked);
			/* Correctness first: the four computations agree, and with the frame's ICRC. */
			uint32_t ours = 0;
			compute_icrc({dg, n}, IpVersion::v4, kIpv4HdrMinLen, ours, scratch);
			uint32_t zl = uint32_t(crc32(0, masked, uInt(in)));
			uint32_t raw = crc32_eth(masked, uint32_t(in));
			const uint8_t *w = f.buf.data() + kEthHdrLen + n;
			uint32_t wire = uint32_t(w[0]) | uint32_t(w[1]) << 8 |
					uint32_t(w[2]) << 16 | uint32_t(w[3]) << 24;
			if (ours != zl || raw != zl || wire != zl) {
				fprintf(stderr,
					"CRC mismatch: ours %08x zlib %08x raw %08x wire %08x\n",
					ours, zl, raw, wire);
				return 1;
			}
			double r_ours = calls_per_sec(
				[&] {
					uint32_t c = 0;
					compute_icrc({dg, n}, IpVersion::v4, kIpv4HdrMinLen, c,
						     scratch);
					return c;
				},
				secs);
			double r_zicrc = calls_per_sec(
				[&] {
					size_t m = icrc_input(dg, n, scratch2);
					return uint32_t(crc32(0, scratch2, uInt(m)));
				},
				secs);
			double r_raw = calls_per_sec(
				[&] { return crc32_eth(masked, uint32_t(in)); }, secs);
			double r_zraw = calls_per_sec(
				[&] { return uint32_t(crc32(0, masked, uInt(in))); }, secs);
			auto gbs = [&](double r) { return r * double(in) / 1e9; };
			printf("%-18s %7u %6zu %6zu | %9.2f %9.2f %5.2fx | %9.2f %9.2f %5.2fx\n",
			       k == 0 ? std::string(crc_alg_name(alg)).c_str() : "", sizes[k],
			       f.buf.size(), in, gbs(r_ours), gbs(r_zicrc), r_ours / r_zicrc,
			       gbs(r_raw), gbs(r_zraw), r_raw / r_zraw);
		}
	}
	/* What the transport gets in a normal process (first selection after rte_eal_init()). */
	printf("\nICRC ours/zlib: both include the copy+mask; raw: CRC only. Above 512 B of "
	       "datagram 'ICRC ours' runs ISA-L (with libisal), hence faster than 'raw rte'.\n"
	       "The transport: rte_net_crc's first-use choice (AVX512 only if EAL allows 512-bit "
	       "SIMD) up to 512 B; above, ISA-L");
#ifdef GAUDI_ROCE_CRC_COPY
	printf(" or the fold of crc32_copy (TX copy, RX check): %s",
	       std::string(crc_copy_impl_name(crc_copy_impl())).c_str());
#endif
	printf(".\n");
	return 0;
}

/* "64,4096" -> {64, 4096}; "" -> {}. False on anything but numbers 1..max. */
bool parse_sizes(const char *arg, uint32_t max, std::vector<uint32_t> &out)
{
	std::vector<uint32_t> v;
	for (const char *p = arg; *p != '\0';) {
		char *end;
		unsigned long n = strtoul(p, &end, 10);
		if (end == p || n == 0 || n > max || (*end != ',' && *end != '\0'))
			return false;
		v.push_back(uint32_t(n));
		p = *end == ',' ? end + 1 : end;
	}
	out = std::move(v);
	return true;
}

} /* namespace */

int main(int argc, char **argv)
{
	int n = rte_eal_init(argc, argv);
	if (n < 0)
		return 1;
	argc -= n;
	argv += n;
	double secs = 0.5;
	ibv_mtu mtu = IBV_MTU_4096;
	bool icrc = false;
	std::vector<uint32_t> sizes = {64, 256, 1024, 4096, 16384, 65536};
	std::vector<uint32_t> ud_sizes = {64, 256, 1024, 4096};
	uint16_t rxd = 2048, txd = 2048;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--icrc"))
			icrc = true;
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
			char *end = nullptr;
			const char *v = argv[++i];
			secs = strtod(v, &end);
			/* a point runs this long per size: a day is far beyond any use */
			if (end == v || *end != '\0' || !(secs > 0 && secs <= 86400))
				return !bad_opt("--seconds", v,
						"not a duration in seconds (0..86400]");
		} else if (!strcmp(argv[i], "--mtu") && i + 1 < argc) {
			if (!parse_ib_mtu("--mtu", argv[++i], mtu))
				return 1;
		} else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
			if (!parse_sizes(argv[++i], 1u << 30, sizes)) {
				return !bad_opt("--sizes", argv[i],
						"not comma-separated byte counts (1..1073741824)");
			}
		} else if (!strcmp(argv[i], "--ud-sizes") && i + 1 < argc) {
			if (!parse_sizes(argv[++i], 4096, ud_sizes)) {
				return !bad_opt("--ud-sizes", argv[i],
						"not comma-separated byte counts (1..4096, or '' "
						"for none)");
			}
		} else if ((!strcmp(argv[i], "--rxd") || !strcmp(argv[i], "--txd")) &&
			   i + 1 < argc) {
			char *end;
			unsigned long n = strtoul(argv[i + 1], &end, 10);
			if (*end != '\0' || n < 64 || n > 32768 || (n & (n - 1))) {
				return !bad_opt(argv[i], argv[i + 1],
						"not a power of two (64..32768)");
			}
			(argv[i][2] == 'r' ? rxd : txd) = uint16_t(n);
			i++;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: roce_bench [EAL args] -- [--seconds S] [--mtu 256..4096] "
			       "[--sizes LIST] [--ud-sizes LIST] [--rxd N] [--txd N] | --icrc "
			       "[--seconds S]\n");
			return 0;
		} else {
			static const char *const with_value[] = {"--seconds",  "--mtu", "--sizes",
								 "--ud-sizes", "--rxd", "--txd"};
			bool needs = false;
			for (const char *w : with_value)
				needs |= !strcmp(argv[i], w);
			fprintf(stderr, "%s: %s: %s (see --help)\n", prog_name(), argv[i],
				needs ? "a value is needed" : "unknown option");
			return 1;
		}
	}
	if (icrc) {
		int rc = bench_icrc(std::min(secs, 0.3));
		rte_eal_cleanup();
		return rc;
	}
	rte_mempool *mp = gaudi::examples::create_pool("bench_pool", 16383);
	if (mp == nullptr || rte_eth_dev_count_avail() < 2) {
		fprintf(stderr,
			"need a mempool and two ports (--vdev net_gaudi_emu0,ports=2,wire=pair)\n");
		return 1;
	}
	for (uint16_t p = 0; p < 2; p++) {
		if (gaudi::examples::setup_port(p, mp, rxd, txd) != 0) {
			fprintf(stderr, "port %u setup failed\n", p);
			return 1;
		}
	}
	printf("path MTU %u, %.2f s per point, one thread polling both ends, ICRC by %s\n",
	       mtu_bytes(mtu), secs, std::string(crc_alg_name(icrc_alg())).c_str());
#ifdef GAUDI_ROCE_CRC_COPY
	/* Above 512 B of datagram the TX copy and the RX check fold the CRC themselves. */
	printf("payload copy and ICRC fold by %s\n",
	       std::string(crc_copy_impl_name(crc_copy_impl())).c_str());
#endif
	for (uint32_t size : sizes)
		bench_write(mp, size, secs, mtu);
	for (uint32_t size : ud_sizes)
		bench_ud(mp, size, secs);
	for (uint16_t p = 0; p < 2; p++)
		rte_eth_dev_stop(p);
	rte_eal_cleanup();
	return 0;
}
