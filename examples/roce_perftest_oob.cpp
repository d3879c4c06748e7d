/* SPDX-License-Identifier: BSD-3-Clause */
/* roce_perftest: the out-of-band exchange over TCP (perftest_communication.c's ethernet_*) and
 * the report exchange (xchg_bw_reports), see roce_perftest.h. */
#include <endian.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "roce_perftest.h"

namespace gaudi::examples::perftest {

namespace {

/* ethernet_write_keys: KEY_PRINT_FMT_GID with its NUL, kKeyMsgSize bytes. */
std::string keys_msg(const Dest &d)
{
	char m[kKeyMsgSize] = {};
	int n = snprintf(m, sizeof m, "%04x:%04x:%06x:%06x:%08x:%016llx:", d.lid, d.out_reads,
			 d.qpn, d.psn, d.rkey, static_cast<unsigned long long>(d.vaddr));
	for (int i = 0; i < 16; i++)
		n += snprintf(m + n, sizeof m - n, "%02x:", d.gid.raw[i]);
	snprintf(m + n, sizeof m - n, "%08x:", d.srqn);
	return std::string(m, sizeof m);
}

/* ethernet_read_keys. */
bool parse_keys(const char *m, Dest &d)
{
	unsigned long long va;
	int n = 0;
	if (sscanf(m, "%x:%x:%x:%x:%x:%llx:%n", &d.lid, &d.out_reads, &d.qpn, &d.psn, &d.rkey, &va,
		   &n) != 6 ||
	    n == 0)
		return false;
	d.vaddr = va;
	const char *p = m + n;
	for (int i = 0; i < 16; i++) {
		unsigned b;
		int k = 0;
		if (sscanf(p, "%2x:%n", &b, &k) != 1 || k == 0)
			return false;
		d.gid.raw[i] = uint8_t(b);
		p += k;
	}
	return sscanf(p, "%x:", &d.srqn) == 1;
}

uint64_t be_double(double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof u);
	return htobe64(u);
}

double from_be_double(uint64_t u)
{
	u = be64toh(u);
	double v;
	memcpy(&v, &u, sizeof v);
	return v;
}

class TcpOob final : public Oob {
public:
	explicit TcpOob(roce::Context &ctx) : ch_(&ctx) {}
	bool open(const char *server, int tcp_port) { return ch_.open(server, tcp_port); }
	bool xchg(const void *mine, void *theirs, size_t n) override
	{
		return ch_.xchg(mine, theirs, n);
	}
	bool xchg_keys(const Dest &mine, Dest &theirs) override
	{
		std::string m = keys_msg(mine);
		char r[kKeyMsgSize + 1] = {};
		return ch_.xchg(m.data(), r, kKeyMsgSize) && parse_keys(r, theirs);
	}
	/* ctx_close_connection: "done" with its NUL after the hand shake. */
	bool close() override { return ch_.put("done", sizeof "done"); }

private:
	SideChannel ch_;
};

} /* namespace */

std::unique_ptr<Oob> open_tcp_oob(roce::Context &ctx, const char *server, int tcp_port)
{
	auto ch = std::make_unique<TcpOob>(ctx);
	if (!ch->open(server, tcp_port))
		return nullptr;
	return ch;
}

void print_report(const Report &r)
{
	printf(" %-7" PRIu64 "    %-10" PRIu64 "       %-7.2lf            %-7.2lf\t\t   %-7.6lf\n",
	       r.size, r.iters, r.bw_peak, r.bw_avg, r.msg_rate);
}

/* xchg_bw_reports() for peers >= 5.33: size, iters (8 bytes each), bw peak, bw avg, msg rate. */
bool xchg_reports(Oob &ch, const Report &mine, Report &theirs)
{
	uint64_t m[5] = {htobe64(mine.size), htobe64(mine.iters), be_double(mine.bw_peak),
			 be_double(mine.bw_avg), be_double(mine.msg_rate)};
	uint64_t t[5];
	for (int i = 0; i < 5; i++)
		if (!ch.xchg(&m[i], &t[i], 8))
			return false;
	theirs = {be64toh(t[0]), be64toh(t[1]), from_be_double(t[2]), from_be_double(t[3]),
		  from_be_double(t[4])};
	return true;
}

} /* namespace gaudi::examples::perftest */
