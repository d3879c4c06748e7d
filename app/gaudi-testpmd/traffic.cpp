/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: traffic streams: their options, sizes, field variation and frames.
 */
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <arpa/inet.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "traffic.h"

namespace gtp {

namespace {

bool to_u64(const std::string &s, uint64_t lo, uint64_t hi, uint64_t &out)
{
	if (s.empty() || s[0] == '-' || s[0] == '+' || isspace(uint8_t(s[0])))
		return false;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s.c_str(), &end, 0);
	if (errno || *end || v < lo || v > hi)
		return false;
	out = v;
	return true;
}

bool to_double(const std::string &s, double &out)
{
	if (s.empty() || isspace(uint8_t(s[0])))
		return false;
	errno = 0;
	char *end;
	double v = strtod(s.c_str(), &end);
	if (errno || *end || !std::isfinite(v))
		return false;
	out = v;
	return true;
}

std::vector<std::string> split(const std::string &s, char sep)
{
	std::vector<std::string> out;
	size_t pos = 0;
	for (;;) {
		size_t k = s.find(sep, pos);
		out.push_back(s.substr(pos, k == std::string::npos ? std::string::npos : k - pos));
		if (k == std::string::npos)
			return out;
		pos = k + 1;
	}
}

constexpr uint32_t kMinLen = 14, kMaxLen = 65535;

bool parse_len(const std::string &s, uint32_t &out)
{
	uint64_t v;
	if (!to_u64(s, kMinLen, kMaxLen, v))
		return false;
	out = uint32_t(v);
	return true;
}

void put_be(uint8_t *d, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		d[i] = uint8_t(v >> (8 * (bytes - 1 - i)));
}

uint64_t get_be(const uint8_t *d, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v = v << 8 | d[i];
	return v;
}

enum class FieldKind { mac, ipv4, ipv6, port };

bool parse_value(FieldKind k, const std::string &s, uint64_t &v, uint64_t &hi64)
{
	switch (k) {
	case FieldKind::mac: {
		rte_ether_addr a;
		if (rte_ether_unformat_addr(s.c_str(), &a) != 0)
			return false;
		v = get_be(a.addr_bytes, 6);
		return true;
	}
	case FieldKind::ipv4: {
		in_addr a;
		if (inet_pton(AF_INET, s.c_str(), &a) != 1)
			return false;
		v = ntohl(a.s_addr);
		return true;
	}
	case FieldKind::ipv6: {
		uint8_t a[16];
		if (inet_pton(AF_INET6, s.c_str(), a) != 1)
			return false;
		hi64 = get_be(a, 8);
		v = get_be(a + 8, 8);
		return true;
	}
	case FieldKind::port:
		return to_u64(s, 0, 65535, v);
	}
	return false;
}

const char *kind_what(FieldKind k)
{
	switch (k) {
	case FieldKind::mac:
		return "a MAC address";
	case FieldKind::ipv4:
		return "an IPv4 address";
	case FieldKind::ipv6:
		return "an IPv6 address";
	case FieldKind::port:
		return "a port number (0..65535)";
	}
	return "?";
}

/* A or A-B[/inc|dec|random]. */
bool parse_field(FieldKind k, const std::string &key, const std::string &s, FieldSpec &f,
		 std::string &err)
{
	std::string body = s, var;
	size_t slash = s.rfind('/');
	if (slash != std::string::npos) {
		body = s.substr(0, slash);
		var = s.substr(slash + 1);
	}
	size_t dash = body.find('-');
	std::string a = body.substr(0, dash);
	uint64_t hi64a = 0, hi64b = 0;
	auto bad = [&](const std::string &why) {
		err = key + "=" + s + ": " + why;
		return false;
	};
	if (!parse_value(k, a, f.lo, hi64a))
		return bad(std::string("not ") + kind_what(k) + " or a range A-B[/inc|dec|random]");
	f.hi = f.lo;
	f.hi64 = hi64a;
	f.var = FieldSpec::Var::fixed;
	if (dash != std::string::npos) {
		if (!parse_value(k, body.substr(dash + 1), f.hi, hi64b))
			return bad(std::string("the end of the range is not ") + kind_what(k));
		if (hi64a != hi64b)
			return bad("an IPv6 range varies the last 64 bits only");
		if (f.hi < f.lo)
			return bad("the range ends below its start");
		f.var = FieldSpec::Var::inc;
	}
	if (!var.empty() || slash != std::string::npos) {
		if (dash == std::string::npos)
			return bad("/" + var + " needs a range A-B");
		if (var == "inc")
			f.var = FieldSpec::Var::inc;
		else if (var == "dec")
			f.var = FieldSpec::Var::dec;
		else if (var == "random")
			f.var = FieldSpec::Var::random;
		else
			return bad("'" + var + "' is not inc, dec or random");
	}
	f.given = true;
	return true;
}

} /* namespace */

/* ---- sizes --------------------------------------------------------------------------------- */

uint32_t SizeSpec::min() const
{
	if (kind != Kind::list)
		return lo;
	uint32_t m = UINT32_MAX;
	for (auto &e : list)
		m = std::min(m, e.len);
	return m;
}

uint32_t SizeSpec::max() const
{
	if (kind == Kind::fixed)
		return lo;
	if (kind != Kind::list)
		return hi;
	uint32_t m = 0;
	for (auto &e : list)
		m = std::max(m, e.len);
	return m;
}

std::string SizeSpec::str() const
{
	switch (kind) {
	case Kind::fixed:
		return std::to_string(lo);
	case Kind::range:
		return std::to_string(lo) + "-" + std::to_string(hi);
	case Kind::random:
		return "random:" + std::to_string(lo) + "-" + std::to_string(hi);
	case Kind::list:
		break;
	}
	std::string o;
	if (imix && !raised)
		return "imix";
	for (auto &e : list)
		o += (o.empty() ? "" : ",") + std::to_string(e.len) + ":" +
		     std::to_string(e.weight);
	return imix ? "imix (" + o + ")" : o;
}

void SizeSpec::fit_headers(uint32_t hdr_len)
{
	if (!imix)
		return;
	for (auto &e : list)
		if (e.len < hdr_len) {
			e.len = hdr_len;
			raised = true;
		}
}

bool parse_size(const std::string &s, SizeSpec &out, std::string &err)
{
	SizeSpec z;
	if (s == "imix") {
		/* Simple IMIX: 64, 594, 1518-byte Ethernet frames (FCS included) at 7:4:1. */
		z.kind = SizeSpec::Kind::list;
		z.list = {{60, 7}, {590, 4}, {1514, 1}};
		z.imix = true;
		out = z;
		return true;
	}
	const std::string rnd = "random:";
	bool random = s.compare(0, rnd.size(), rnd) == 0;
	std::string body = random ? s.substr(rnd.size()) : s;
	if (!random && body.find(':') != std::string::npos) {
		z.kind = SizeSpec::Kind::list;
		auto items = split(body, ',');
		if (items.size() > SizeSpec::kMaxList) {
			err = "at most " + std::to_string(SizeSpec::kMaxList) +
			      " lengths in a list";
			return false;
		}
		for (auto &it : items) {
			size_t colon = it.find(':');
			uint64_t w;
			SizeSpec::Entry e{};
			if (colon == std::string::npos || !parse_len(it.substr(0, colon), e.len) ||
			    !to_u64(it.substr(colon + 1), 1, 1000000, w)) {
				err = "'" + it +
				      "' is not LENGTH:WEIGHT (length 14..65535, weight "
				      "1..1000000)";
				return false;
			}
			e.weight = uint32_t(w);
			z.list.push_back(e);
		}
		out = z;
		return true;
	}
	size_t dash = body.find('-');
	if (dash != std::string::npos) {
		z.kind = random ? SizeSpec::Kind::random : SizeSpec::Kind::range;
		if (!parse_len(body.substr(0, dash), z.lo) ||
		    !parse_len(body.substr(dash + 1), z.hi) || z.hi <= z.lo) {
			err = "'" + body + "' is not a range of lengths LO-HI (14..65535, LO < HI)";
			return false;
		}
		out = z;
		return true;
	}
	if (random) {
		err = "random needs a range: random:LO-HI";
		return false;
	}
	if (!parse_len(body, z.lo)) {
		err = "not a frame length (42 bytes or more, without FCS, up to the port's "
		      "largest), "
		      "imix, LEN:WEIGHT,..., LO-HI or random:LO-HI";
		return false;
	}
	z.hi = z.lo;
	out = z;
	return true;
}

void SizeSchedule::init(const SizeSpec &s, uint64_t seed)
{
	kind_ = s.kind;
	lo_ = s.lo;
	hi_ = s.hi;
	cur_ = s.lo;
	rng_.s = seed;
	n_ = 0;
	total_ = 0;
	for (auto &e : s.list) {
		if (n_ == SizeSpec::kMaxList)
			break;
		len_[n_] = e.len;
		w_[n_] = e.weight;
		cw_[n_] = 0;
		total_ += e.weight;
		n_++;
	}
	if (kind_ == SizeSpec::Kind::list && n_ == 0) { /* not from parse_size: one length */
		kind_ = SizeSpec::Kind::fixed;
	}
}

/* ---- rates --------------------------------------------------------------------------------- */

std::string RateSpec::str() const
{
	char b[64];
	switch (unit) {
	case Unit::none:
		/* No pacing: as fast as the lcore and the port go, which may be short of the
		 * line rate. */
		return "unpaced";
	case Unit::pps:
		snprintf(b, sizeof(b), "%.0f pps", value);
		break;
	case Unit::gbps:
		snprintf(b, sizeof(b), "%g Gbit/s", value);
		break;
	case Unit::percent:
		snprintf(b, sizeof(b), "%g%% of line rate", value);
		break;
	}
	return b;
}

bool parse_rate(const std::string &s, RateSpec &out, std::string &err)
{
	static const struct {
		const char *suffix;
		RateSpec::Unit unit;
		double scale;
	} units[] = {
		{"pps", RateSpec::Unit::pps, 1},      {"gbps", RateSpec::Unit::gbps, 1},
		{"mbps", RateSpec::Unit::gbps, 1e-3}, {"kbps", RateSpec::Unit::gbps, 1e-6},
		{"%", RateSpec::Unit::percent, 1},
	};
	RateSpec r;
	r.unit = RateSpec::Unit::pps;
	std::string num = s;
	double scale = 1;
	for (auto &u : units) {
		size_t l = strlen(u.suffix);
		if (s.size() > l && strcasecmp(s.c_str() + s.size() - l, u.suffix) == 0) {
			num = s.substr(0, s.size() - l);
			r.unit = u.unit;
			scale = u.scale;
			break;
		}
	}
	double v;
	if (!to_double(num, v) || v <= 0) {
		err = "not a rate: N[pps], Xgbps (or mbps, kbps) or P% of line rate, above 0";
		return false;
	}
	if (r.unit == RateSpec::Unit::percent && v > 100) {
		err = "a share of the line rate is at most 100%";
		return false;
	}
	if (r.unit == RateSpec::Unit::pps && v < 1) {
		err = "at least 1 frame per second";
		return false;
	}
	r.value = v * scale;
	out = r;
	return true;
}

double rate_pps(const RateSpec &r, const SizeSpec &s, double line_bps, uint32_t min_frame)
{
	switch (r.unit) {
	case RateSpec::Unit::none:
		return 0;
	case RateSpec::Unit::pps:
		return r.value;
	case RateSpec::Unit::gbps:
		return r.value * 1e9 / (8 * s.mean_len());
	case RateSpec::Unit::percent:
		return line_bps * r.value / 100 /
		       (8 * s.mean([min_frame](uint32_t l) { return wire_len(l, min_frame); }));
	}
	return 0;
}

/* ---- streams ------------------------------------------------------------------------------- */

uint32_t StreamSpec::hdr_len() const
{
	uint32_t l = RTE_ETHER_HDR_LEN + 4u * nvlan;
	if (l3 == L3::ipv4)
		l += sizeof(rte_ipv4_hdr);
	else if (l3 == L3::ipv6)
		l += sizeof(rte_ipv6_hdr);
	if (l3 != L3::none && l4 == L4::udp)
		l += sizeof(rte_udp_hdr);
	else if (l3 != L3::none && l4 == L4::tcp)
		l += sizeof(rte_tcp_hdr);
	return l;
}

bool parse_stream(const std::string &arg, StreamSpec &out, std::string &err)
{
	StreamSpec sp;
	sp.text = arg;
	size_t colon = arg.find(':');
	uint64_t u;
	if (colon == std::string::npos ||
	    !to_u64(arg.substr(0, colon), 0, RTE_MAX_ETHPORTS - 1, u)) {
		err = "expected PORT:key=value,... (see --help)";
		return false;
	}
	sp.port = uint16_t(u);
	/* key=value items; an item without '=' continues the previous value (size lists). */
	std::vector<std::pair<std::string, std::string>> kv;
	std::string rest = arg.substr(colon + 1);
	if (!rest.empty())
		for (auto &it : split(rest, ',')) {
			size_t eq = it.find('=');
			if (eq == std::string::npos) {
				if (kv.empty()) {
					err = "'" + it + "' is not key=value";
					return false;
				}
				kv.back().second += "," + it;
				continue;
			}
			std::string key = it.substr(0, eq);
			for (auto &p : kv)
				if (p.first == key) {
					err = key + " is given twice";
					return false;
				}
			kv.emplace_back(key, it.substr(eq + 1));
		}
	bool l3_given = false, l4_given = false, et_given = false;
	std::string src_ip, dst_ip;
	for (auto &[k, v] : kv) {
		auto bad = [&](const std::string &why) {
			err = k + "=" + v + ": " + why;
			return false;
		};
		if (k == "vlan") {
			if (!to_u64(v, 0, 4095, u))
				return bad("not a VLAN id (0..4095)");
			if (sp.nvlan == 2)
				return bad("vlan= and qinq= in one stream: qinq=OUTER.INNER "
					   "gives both tags");
			sp.nvlan = 1;
			sp.vlan[0] = uint16_t(u);
		} else if (k == "qinq") {
			size_t dot = v.find('.');
			uint64_t o, i;
			if (dot == std::string::npos || !to_u64(v.substr(0, dot), 0, 4095, o) ||
			    !to_u64(v.substr(dot + 1), 0, 4095, i))
				return bad("expected OUTER.INNER VLAN ids (0..4095 each)");
			if (sp.nvlan == 1)
				return bad("vlan= and qinq= in one stream: qinq=OUTER.INNER "
					   "gives both tags");
			sp.nvlan = 2;
			sp.vlan[0] = uint16_t(o);
			sp.vlan[1] = uint16_t(i);
		} else if (k == "l3") {
			if (v == "ipv4")
				sp.l3 = L3::ipv4;
			else if (v == "ipv6")
				sp.l3 = L3::ipv6;
			else if (v == "none")
				sp.l3 = L3::none;
			else
				return bad("expected ipv4, ipv6 or none");
			l3_given = true;
		} else if (k == "l4") {
			if (v == "udp")
				sp.l4 = L4::udp;
			else if (v == "tcp")
				sp.l4 = L4::tcp;
			else if (v == "raw")
				sp.l4 = L4::raw;
			else
				return bad("expected udp, tcp or raw");
			l4_given = true;
		} else if (k == "ethertype") {
			if (!to_u64(v, 0x600, 0xffff, u))
				return bad("not an EtherType (0x0600..0xffff)");
			/* The receiver reads these as headers (find_stamp) and would not find
			 * the stamp of a frame that does not have them. */
			if (u == RTE_ETHER_TYPE_IPV4 || u == RTE_ETHER_TYPE_IPV6)
				return bad(std::string("is ") +
					   (u == RTE_ETHER_TYPE_IPV4 ? "IPv4: use l3=ipv4"
								     : "IPv6: use l3=ipv6") +
					   " (ethertype= is for frames without IP)");
			if (u == RTE_ETHER_TYPE_VLAN || u == RTE_ETHER_TYPE_QINQ)
				return bad("is a VLAN tag: use vlan= or qinq=");
			sp.ethertype = uint16_t(u);
			et_given = true;
		} else if (k == "src_mac") {
			if (!parse_field(FieldKind::mac, k, v, sp.src_mac, err))
				return false;
		} else if (k == "dst_mac") {
			if (!parse_field(FieldKind::mac, k, v, sp.dst_mac, err))
				return false;
		} else if (k == "src_ip") {
			src_ip = v;
		} else if (k == "dst_ip") {
			dst_ip = v;
		} else if (k == "sport") {
			if (!parse_field(FieldKind::port, k, v, sp.sport, err))
				return false;
		} else if (k == "dport") {
			if (!parse_field(FieldKind::port, k, v, sp.dport, err))
				return false;
		} else if (k == "size") {
			std::string e;
			if (!parse_size(v, sp.size, e))
				return bad(e);
			sp.size_given = true;
		} else if (k == "rate") {
			std::string e;
			if (!parse_rate(v, sp.rate, e))
				return bad(e);
		} else {
			err = "unknown key '" + k +
			      "' (vlan, qinq, l3, l4, ethertype, src_mac, dst_mac, src_ip, dst_ip, "
			      "sport, dport, size, rate)";
			return false;
		}
	}
	/* A raw EtherType is a frame without IP. */
	if (et_given) {
		if (l3_given && sp.l3 != L3::none) {
			err = "ethertype= is for frames without IP (l3=none), not with l3=" +
			      std::string(sp.l3 == L3::ipv4 ? "ipv4" : "ipv6");
			return false;
		}
		sp.l3 = L3::none;
	}
	if (sp.l3 == L3::none) {
		if (l4_given && sp.l4 != L4::raw) {
			err = "l4=udp/tcp needs IP (l3=ipv4 or ipv6)";
			return false;
		}
		sp.l4 = L4::raw;
		if (!src_ip.empty() || !dst_ip.empty()) {
			err = "src_ip/dst_ip need IP (l3=ipv4 or ipv6)";
			return false;
		}
	}
	if (sp.l4 == L4::raw && (sp.sport.given || sp.dport.given)) {
		err = "sport/dport need l4=udp or tcp";
		return false;
	}
	FieldKind ik = sp.l3 == L3::ipv6 ? FieldKind::ipv6 : FieldKind::ipv4;
	if (!src_ip.empty() && !parse_field(ik, "src_ip", src_ip, sp.src_ip, err))
		return false;
	if (!dst_ip.empty() && !parse_field(ik, "dst_ip", dst_ip, sp.dst_ip, err))
		return false;
	out = sp;
	return true;
}

/* ---- frames -------------------------------------------------------------------------------- */

void FrameGen::init(const StreamSpec &s, const rte_ether_addr &src, const rte_ether_addr &dst,
		    uint16_t id, uint64_t seed)
{
	memset(hdr_, 0, sizeof(hdr_));
	id_ = id;
	l3_ = s.l3;
	l4_ = s.l4;
	rng_.s = seed;
	sizes_.init(s.size, seed ^ 0x5a5a5a5a5a5a5a5aull);
	FieldSpec smac = s.src_mac, dmac = s.dst_mac;
	if (!smac.given)
		smac.lo = smac.hi = get_be(src.addr_bytes, 6);
	if (!dmac.given)
		dmac.lo = dmac.hi = get_be(dst.addr_bytes, 6);
	src_mac_.init(smac);
	dst_mac_.init(dmac);
	src_ip_.init(s.src_ip);
	dst_ip_.init(s.dst_ip);
	sport_.init(s.sport);
	dport_.init(s.dport);
	vary_ = src_mac_.varies() || dst_mac_.varies() || src_ip_.varies() || dst_ip_.varies() ||
		sport_.varies() || dport_.varies();
	put_be(hdr_, dmac.lo, 6);
	put_be(hdr_ + 6, smac.lo, 6);
	uint32_t off = 12;
	if (s.nvlan == 2) {
		put_be(hdr_ + off, RTE_ETHER_TYPE_QINQ, 2);
		put_be(hdr_ + off + 2, s.vlan[0], 2);
		put_be(hdr_ + off + 4, RTE_ETHER_TYPE_VLAN, 2);
		put_be(hdr_ + off + 6, s.vlan[1], 2);
		off += 8;
	} else if (s.nvlan == 1) {
		put_be(hdr_ + off, RTE_ETHER_TYPE_VLAN, 2);
		put_be(hdr_ + off + 2, s.vlan[0], 2);
		off += 4;
	}
	uint16_t et = s.l3 == L3::ipv4	 ? RTE_ETHER_TYPE_IPV4
		      : s.l3 == L3::ipv6 ? RTE_ETHER_TYPE_IPV6
					 : s.ethertype;
	put_be(hdr_ + off, et, 2);
	off += 2;
	l3_off_ = off;
	/* IP protocol 253: for experimentation (RFC 3692), for IP frames without UDP/TCP. */
	uint8_t proto = s.l4 == L4::udp ? IPPROTO_UDP : s.l4 == L4::tcp ? IPPROTO_TCP : 253;
	if (s.l3 == L3::ipv4) {
		auto *ip = reinterpret_cast<rte_ipv4_hdr *>(hdr_ + off);
		ip->version_ihl = RTE_IPV4_VHL_DEF;
		ip->time_to_live = 64;
		ip->next_proto_id = proto;
		ip->src_addr = rte_cpu_to_be_32(uint32_t(s.src_ip.lo));
		ip->dst_addr = rte_cpu_to_be_32(uint32_t(s.dst_ip.lo));
		off += sizeof(*ip);
	} else if (s.l3 == L3::ipv6) {
		auto *ip = reinterpret_cast<rte_ipv6_hdr *>(hdr_ + off);
		ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
		ip->proto = proto;
		ip->hop_limits = 64;
		/* uint8_t[16] before DPDK 24.11, struct rte_ipv6_addr after: the same 16 bytes. */
		auto *src = reinterpret_cast<uint8_t *>(&ip->src_addr);
		auto *dst = reinterpret_cast<uint8_t *>(&ip->dst_addr);
		put_be(src, s.src_ip.hi64, 8);
		put_be(src + 8, s.src_ip.lo, 8);
		put_be(dst, s.dst_ip.hi64, 8);
		put_be(dst + 8, s.dst_ip.lo, 8);
		off += sizeof(*ip);
	}
	l4_off_ = off;
	if (s.l3 != L3::none && s.l4 == L4::udp) {
		auto *udp = reinterpret_cast<rte_udp_hdr *>(hdr_ + off);
		udp->src_port = rte_cpu_to_be_16(uint16_t(s.sport.lo));
		udp->dst_port = rte_cpu_to_be_16(uint16_t(s.dport.lo));
		off += sizeof(*udp);
	} else if (s.l3 != L3::none && s.l4 == L4::tcp) {
		auto *tcp = reinterpret_cast<rte_tcp_hdr *>(hdr_ + off);
		tcp->src_port = rte_cpu_to_be_16(uint16_t(s.sport.lo));
		tcp->dst_port = rte_cpu_to_be_16(uint16_t(s.dport.lo));
		tcp->data_off = 5 << 4;
		tcp->tcp_flags = RTE_TCP_PSH_FLAG | RTE_TCP_ACK_FLAG;
		tcp->rx_win = rte_cpu_to_be_16(65535);
		off += sizeof(*tcp);
	}
	hdr_len_ = off;
	fixed_len_ = 0;
	if (s.l3 == L3::ipv4 && s.l4 != L4::tcp && !vary_ && s.size.kind == SizeSpec::Kind::fixed &&
	    s.size.lo >= hdr_len_) {
		write_lengths(hdr_, s.size.lo);
		fixed_len_ = s.size.lo;
	}
}

/* The lengths, and the checksum that does not cover the payload (IPv4 header's); those that
 * do are build's, once the stamp is written. */
void FrameGen::write_lengths(uint8_t *d, uint32_t len) const
{
	if (l3_ == L3::ipv4) {
		auto *ip = reinterpret_cast<rte_ipv4_hdr *>(d + l3_off_);
		ip->total_length = rte_cpu_to_be_16(uint16_t(len - l3_off_));
		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		if (l4_ == L4::udp) {
			auto *udp = reinterpret_cast<rte_udp_hdr *>(d + l4_off_);
			udp->dgram_len = rte_cpu_to_be_16(uint16_t(len - l4_off_));
			/* No checksum: optional over IPv4 (RFC 768), as testpmd's txonly. */
		}
	} else if (l3_ == L3::ipv6) {
		auto *ip = reinterpret_cast<rte_ipv6_hdr *>(d + l3_off_);
		ip->payload_len = rte_cpu_to_be_16(uint16_t(len - l4_off_));
		if (l4_ == L4::udp) {
			auto *udp = reinterpret_cast<rte_udp_hdr *>(d + l4_off_);
			udp->dgram_len = rte_cpu_to_be_16(uint16_t(len - l4_off_));
		}
	}
}

bool FrameGen::build(uint8_t *d, uint32_t len, bool stamp, uint32_t seq, uint64_t tsc)
{
	memcpy(d, hdr_, kHdrRoom);
	if (vary_) {
		put_be(d, dst_mac_.next(rng_), 6);
		put_be(d + 6, src_mac_.next(rng_), 6);
		if (l3_ == L3::ipv4) {
			put_be(d + l3_off_ + 12, src_ip_.next(rng_), 4);
			put_be(d + l3_off_ + 16, dst_ip_.next(rng_), 4);
		} else if (l3_ == L3::ipv6) {
			put_be(d + l3_off_ + 16, src_ip_.next(rng_), 8);
			put_be(d + l3_off_ + 32, dst_ip_.next(rng_), 8);
		}
		if (l3_ != L3::none && l4_ != L4::raw) {
			put_be(d + l4_off_, sport_.next(rng_), 2);
			put_be(d + l4_off_ + 2, dport_.next(rng_), 2);
		}
	}
	bool stamped = stamp && len >= stamp_min();
	if (stamped) {
		LatencyStamp st{kStampMagic, id_, seq, tsc};
		memcpy(d + hdr_len_, &st, sizeof(st));
	}
	if (len != fixed_len_)
		write_lengths(d, len);
	/* Over the payload (the stamp): per frame. Mandatory over IPv6 for UDP too (RFC 8200
	 * 8.1). */
	if (l3_ == L3::ipv4 && l4_ == L4::tcp) {
		auto *ip = reinterpret_cast<rte_ipv4_hdr *>(d + l3_off_);
		auto *tcp = reinterpret_cast<rte_tcp_hdr *>(d + l4_off_);
		tcp->cksum = 0;
		tcp->cksum = rte_ipv4_udptcp_cksum(ip, tcp);
	} else if (l3_ == L3::ipv6 && l4_ != L4::raw) {
		auto *ip = reinterpret_cast<rte_ipv6_hdr *>(d + l3_off_);
		/* The checksum's offset: 6 in UDP's header, 16 in TCP's. */
		uint8_t *ck = d + l4_off_ + (l4_ == L4::udp ? 6 : 16);
		memset(ck, 0, 2);
		uint16_t v = rte_ipv6_udptcp_cksum(ip, d + l4_off_);
		memcpy(ck, &v, 2);
	}
	return stamped;
}

bool find_stamp(const uint8_t *d, uint32_t len, LatencyStamp &st)
{
	/* The default frames (IPv4 without options, UDP) first: the stamp at byte 42. */
	if (len >= kStampMinLen && d[12] == 0x08 && d[13] == 0x00 && d[14] == 0x45 &&
	    d[23] == IPPROTO_UDP) {
		memcpy(&st, d + kStampOffset, sizeof(st));
		return st.magic == kStampMagic;
	}
	if (len < RTE_ETHER_HDR_LEN)
		return false;
	uint32_t off = 12;
	uint16_t type = uint16_t(get_be(d + off, 2));
	off += 2;
	for (int tags = 0; (type == RTE_ETHER_TYPE_VLAN || type == RTE_ETHER_TYPE_QINQ) && tags < 2;
	     tags++) {
		if (len < off + 4)
			return false;
		type = uint16_t(get_be(d + off + 2, 2));
		off += 4;
	}
	int proto = -1;
	if (type == RTE_ETHER_TYPE_IPV4) {
		if (len < off + sizeof(rte_ipv4_hdr))
			return false;
		proto = d[off + 9];
		off += (d[off] & 0xf) * 4u;
	} else if (type == RTE_ETHER_TYPE_IPV6) {
		if (len < off + sizeof(rte_ipv6_hdr))
			return false;
		proto = d[off + 6];
		off += sizeof(rte_ipv6_hdr);
	}
	if (proto == IPPROTO_UDP) {
		off += sizeof(rte_udp_hdr);
	} else if (proto == IPPROTO_TCP) {
		if (len < off + sizeof(rte_tcp_hdr))
			return false;
		off += (d[off + 12] >> 4) * 4u;
	}
	if (len < off + sizeof(LatencyStamp))
		return false;
	memcpy(&st, d + off, sizeof(st));
	return st.magic == kStampMagic;
}

} /* namespace gtp */
