/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: traffic streams (TRex's and pktgen's term: a sequence of frames with its own
 * headers, sizes and rate, sent on one port). What --stream and --txpkts describe (parsed
 * here), the frame sizes' schedule, the variation of header fields, and the frames built from
 * them. Not to be confused with app.h's Stream, one forwarding lcore's (port, queue) work unit:
 * that one runs the traffic streams of its port and queue (fwd.cpp).
 *
 * Nothing here allocates after set-up; parse_* print nothing (the caller names the option).
 */
#ifndef GTP_TRAFFIC_H
#define GTP_TRAFFIC_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <rte_ether.h>

#include "latency.h"

namespace gtp {

/* splitmix64 (Steele, Lea, Flood 2014): small, fast, good enough for sizes and fields. */
struct Rng {
	uint64_t s = 0x9e3779b97f4a7c15ull;
	uint64_t next()
	{
		uint64_t z = (s += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		return z ^ (z >> 31);
	}
	/* Uniform in [0, n) without a division (Lemire's multiply-shift); n = 0 means 2^64. */
	uint64_t below(uint64_t n)
	{
		uint64_t r = next();
		return n ? uint64_t((unsigned __int128)r * n >> 64) : r;
	}
};

/* ---- frame sizes -------------------------------------------------------------------------- */

/* Frame lengths without FCS, as --txpkts. imix is the simple IMIX (64, 594 and 1518-byte
 * Ethernet frames, 7:4:1), which counts the FCS: 60, 590 and 1514 bytes here, as TRex's imix
 * profile sends them. */
struct SizeSpec {
	enum class Kind { fixed, list, range, random };
	static constexpr unsigned kMaxList = 16;
	struct Entry {
		uint32_t len, weight;
	};
	Kind kind = Kind::fixed;
	uint32_t lo = 64, hi = 64; /* fixed: lo; range, random: lo..hi */
	std::vector<Entry> list;   /* list: lengths and weights */
	bool imix = false;	   /* list: given as "imix" */
	bool raised = false;	   /* imix: its shortest length raised to fit a stream's headers */

	uint32_t min() const;
	uint32_t max() const;
	/* The mean over one cycle of the schedule of f(len). */
	template <typename F>
	double mean(F f) const
	{
		double sum = 0, n = 0;
		if (kind == Kind::fixed)
			return f(lo);
		if (kind == Kind::list)
			for (auto &e : list) {
				sum += f(e.len) * e.weight;
				n += e.weight;
			}
		else
			for (uint32_t l = lo; l <= hi; l++) {
				sum += f(l);
				n += 1;
			}
		return sum / n;
	}
	double mean_len() const
	{
		return mean([](uint32_t l) { return double(l); });
	}
	std::string str() const; /* as the option takes it */
	/* imix for a stream whose headers are longer than 60 bytes (VLAN + IPv6 + TCP: 78):
	 * those frames are sent at the headers' length, as TRex pads a profile's packet only up
	 * to the size asked and pktgen raises an IPv6 frame to its minimum. Other sizes are the
	 * user's own and are refused when too short. */
	void fit_headers(uint32_t hdr_len);
};

/* "64", "imix", "64:7,594:4,1518:1" (length:weight), "64-1518" (each length in turn),
 * "random:64-1518" (uniform). Lengths 42..65535 (the ports' bound is checked later). */
bool parse_size(const std::string &s, SizeSpec &out, std::string &err);

/* The lengths of one stream's frames, in order. A list is a smooth weighted round robin
 * (nginx's): each cycle of sum(weights) frames holds each length exactly weight times, spread
 * out (imix: 60 60 590 60 60 590 60 1514 ...) rather than drawn at random. */
class SizeSchedule {
public:
	void init(const SizeSpec &s, uint64_t seed);
	uint32_t next()
	{
		switch (kind_) {
		case SizeSpec::Kind::fixed:
			return lo_;
		case SizeSpec::Kind::range: {
			uint32_t l = cur_;
			cur_ = cur_ == hi_ ? lo_ : cur_ + 1;
			return l;
		}
		case SizeSpec::Kind::random:
			return lo_ + uint32_t(rng_.below(uint64_t(hi_ - lo_) + 1));
		case SizeSpec::Kind::list:
			break;
		}
		unsigned best = 0;
		for (unsigned i = 0; i < n_; i++) {
			cw_[i] += w_[i];
			if (cw_[i] > cw_[best])
				best = i;
		}
		cw_[best] -= total_;
		return len_[best];
	}

private:
	SizeSpec::Kind kind_ = SizeSpec::Kind::fixed;
	uint32_t lo_ = 64, hi_ = 64, cur_ = 64;
	unsigned n_ = 0;
	std::array<uint32_t, SizeSpec::kMaxList> len_{};
	std::array<int64_t, SizeSpec::kMaxList> w_{}, cw_{};
	int64_t total_ = 0;
	Rng rng_;
};

/* ---- header fields ----------------------------------------------------------------------- */

/* A field's values: one, or lo..hi taken in turn upwards (inc) or downwards (dec), wrapping
 * within the range, or at random. Values are the field's low 64 bits (an IPv6 address varies
 * in its interface identifier, the high half is fixed). */
struct FieldSpec {
	enum class Var { fixed, inc, dec, random };
	Var var = Var::fixed;
	uint64_t lo = 0, hi = 0;
	uint64_t hi64 = 0; /* IPv6: the high 64 bits */
	bool given = false;
	uint64_t count() const { return hi - lo + 1; } /* 0: all 2^64 */
};

class Field {
public:
	void init(const FieldSpec &s)
	{
		var_ = s.var;
		lo_ = s.lo;
		hi_ = s.hi;
		cur_ = var_ == FieldSpec::Var::dec ? hi_ : lo_;
	}
	uint64_t next(Rng &rng)
	{
		uint64_t v = cur_;
		switch (var_) {
		case FieldSpec::Var::fixed:
			break;
		case FieldSpec::Var::inc:
			cur_ = cur_ == hi_ ? lo_ : cur_ + 1;
			break;
		case FieldSpec::Var::dec:
			cur_ = cur_ == lo_ ? hi_ : cur_ - 1;
			break;
		case FieldSpec::Var::random:
			v = lo_ + rng.below(hi_ - lo_ + 1);
			break;
		}
		return v;
	}
	bool varies() const { return var_ != FieldSpec::Var::fixed && lo_ != hi_; }

private:
	FieldSpec::Var var_ = FieldSpec::Var::fixed;
	uint64_t lo_ = 0, hi_ = 0, cur_ = 0;
};

/* ---- rates ------------------------------------------------------------------------------ */

/* frames/s; Gbit/s of frame bytes without FCS (as --rate-gbps and the ports' byte counters);
 * or % of the link's line rate, on the wire (FCS, preamble and inter-frame gap counted, and
 * the port's shortest frame: see wire_len). */
struct RateSpec {
	enum class Unit { none, pps, gbps, percent };
	Unit unit = Unit::none;
	double value = 0;
	std::string str() const;
};

/* "10000" or "10000pps", "2.5gbps" (also "mbps", "kbps"), "40%". */
bool parse_rate(const std::string &s, RateSpec &out, std::string &err);

/* The frame's bytes on the wire: FCS 4, preamble and SFD 8, inter-frame gap 12 (IEEE 802.3),
 * and a frame shorter than the port's minimum padded to it first: 60 bytes without FCS on
 * Ethernet, 187 on a Gaudi port (its TX pads, H6-3399; drivers/net/gaudi kTxPadSize). */
constexpr uint32_t kWireOverhead = 24;
constexpr uint32_t kEthMinFrame = 60;
constexpr uint32_t kGaudiMinFrame = 187;
inline double wire_len(double len, uint32_t min_frame)
{
	return (len < min_frame ? double(min_frame) : len) + kWireOverhead;
}

/* Mean frames/s of a rate for the sizes on a link of line_bps (0: unknown; then % is 0). */
double rate_pps(const RateSpec &r, const SizeSpec &s, double line_bps, uint32_t min_frame);

/* ---- streams ---------------------------------------------------------------------------- */

enum class L3 { ipv4, ipv6, none };
enum class L4 { udp, tcp, raw };

/* One --stream. */
struct StreamSpec {
	uint16_t port = 0;
	uint8_t nvlan = 0;
	uint16_t vlan[2] = {}; /* outer first: qinq=S.C (S-tag 0x88a8, C-tag 0x8100) */
	L3 l3 = L3::ipv4;
	L4 l4 = L4::udp;
	uint16_t ethertype = 0x88b5; /* l3=none: IEEE 802 local experimental EtherType 1 */
	FieldSpec src_mac, dst_mac;  /* not given: the port's MAC, the peer's (--eth-peer) */
	FieldSpec src_ip, dst_ip;
	FieldSpec sport, dport;
	SizeSpec size;
	bool size_given = false;
	RateSpec rate;
	std::string text; /* the option's value, for the report */
	/* The length of the headers (Ethernet, tags, L3, L4): the shortest frame. */
	uint32_t hdr_len() const;
};

/* --stream=PORT:key=val,...; keys: vlan, qinq, l3, l4, ethertype, src_mac, dst_mac, src_ip,
 * dst_ip, sport, dport, size, rate. Field values: A or A-B[/inc|dec|random]. Defaults
 * (addresses, ports, size, rate) are the Config's, filled in by the caller. */
bool parse_stream(const std::string &s, StreamSpec &out, std::string &err);

/* A stream's frames: its header with the fields varied per frame, its lengths, and the stamp
 * (stream id, sequence, TSC) after the headers when the frame is long enough. */
class FrameGen {
public:
	/* src, dst: the MACs when the spec names none. */
	void init(const StreamSpec &s, const rte_ether_addr &src, const rte_ether_addr &dst,
		  uint16_t id, uint64_t seed);
	uint32_t next_len() { return sizes_.next(); }
	/* Writes a frame of len bytes (at least hdr_len()) into d, which has room for 128
	 * bytes at least (an mbuf's data room); stamps it when it is long enough and stamp is
	 * true. Returns whether it carries a stamp. */
	bool build(uint8_t *d, uint32_t len, bool stamp, uint32_t seq, uint64_t tsc);
	uint32_t hdr_len() const { return hdr_len_; }
	uint32_t stamp_min() const { return hdr_len_ + uint32_t(sizeof(LatencyStamp)); }

private:
	void write_lengths(uint8_t *d, uint32_t len) const;

	/* The headers, then zeros: copied whole into each frame (a constant-size copy the
	 * compiler inlines), which also clears what a previous user of the mbuf left past them
	 * (the generator pool's mbufs are zeroed once, at creation). */
	static constexpr uint32_t kHdrRoom = 128;
	alignas(64) uint8_t hdr_[kHdrRoom] = {};
	uint32_t hdr_len_ = 0, l3_off_ = 0, l4_off_ = 0;
	L3 l3_ = L3::ipv4;
	L4 l4_ = L4::udp;
	uint16_t id_ = 0;
	Field src_mac_, dst_mac_, src_ip_, dst_ip_, sport_, dport_;
	bool vary_ = false;
	uint32_t fixed_len_ = 0; /* IPv4 without TCP, one length, no field varied: the header's
				  * lengths and checksum are written once, at init */
	SizeSchedule sizes_;
	Rng rng_;
};

/* The stamp of a frame a stream of this app built (any of the headers above); false when it
 * has none. */
bool find_stamp(const uint8_t *d, uint32_t len, LatencyStamp &st);

} /* namespace gtp */

#endif /* GTP_TRAFFIC_H */
