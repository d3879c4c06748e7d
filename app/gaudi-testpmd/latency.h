/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: latency stamps in generated frames, a log-linear histogram and the
 * sequence-number accounting (loss, reordering). No allocation after construction.
 */
#ifndef GTP_LATENCY_H
#define GTP_LATENCY_H

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace gtp {

/* Stamp right after the UDP header of txonly/flowgen frames (offset 42, so frames of at least
 * 58 bytes carry one). stream: index of the sending stream, for per-stream sequences. */
struct __attribute__((packed)) LatencyStamp {
	uint16_t magic;
	uint16_t stream;
	uint32_t seq;
	uint64_t tsc;
};
constexpr uint16_t kStampMagic = 0x4754; /* "GT" */
constexpr uint32_t kStampOffset = 14 + 20 + 8;
constexpr uint32_t kStampMinLen = kStampOffset + sizeof(LatencyStamp);
constexpr unsigned kMaxStreams = 256;

/* Log-linear histogram (as HdrHistogram does): exact below 64 ns, then 32 buckets per power
 * of two, so every bucket is within 1/32 (3%) of its values. Covers up to 2^40 ns. */
class Histogram {
public:
	static constexpr unsigned kSub = 32;
	static constexpr unsigned kLinear = 64;
	static constexpr unsigned kMaxExp = 40;
	static constexpr unsigned kBuckets = kLinear + (kMaxExp - 6 + 1) * kSub;

	static unsigned bucket(uint64_t ns)
	{
		if (ns < kLinear)
			return unsigned(ns);
		unsigned e = unsigned(std::bit_width(ns)) - 1; /* ns in [2^e, 2^(e+1)) */
		if (e > kMaxExp)
			return kBuckets - 1;
		return kLinear + (e - 6) * kSub + unsigned((ns >> (e - 5)) & (kSub - 1));
	}
	/* Smallest value of a bucket. */
	static uint64_t lower(unsigned b)
	{
		if (b < kLinear)
			return b;
		unsigned e = (b - kLinear) / kSub + 6, s = (b - kLinear) % kSub;
		return uint64_t(kSub + s) << (e - 5);
	}
	/* Largest value of a bucket. */
	static uint64_t upper(unsigned b)
	{
		return b + 1 < kBuckets ? lower(b + 1) - 1 : UINT64_MAX;
	}

	void add(uint64_t ns)
	{
		counts_[bucket(ns)]++;
		count_++;
		sum_ += ns;
		max_ = std::max(max_, ns);
		min_ = std::min(min_, ns);
	}
	void merge(const Histogram &o)
	{
		for (unsigned i = 0; i < kBuckets; i++)
			counts_[i] += o.counts_[i];
		count_ += o.count_;
		sum_ += o.sum_;
		max_ = std::max(max_, o.max_);
		min_ = std::min(min_, o.min_);
	}
	/* Value at quantile q (0..1): the upper end of the bucket that holds it, capped at max. */
	uint64_t quantile(double q) const
	{
		if (count_ == 0)
			return 0;
		uint64_t rank = uint64_t(q * double(count_ - 1)) + 1, seen = 0;
		for (unsigned i = 0; i < kBuckets; i++) {
			seen += counts_[i];
			if (seen >= rank)
				return std::min(upper(i), max_);
		}
		return max_;
	}
	uint64_t count() const { return count_; }
	uint64_t max() const { return max_; }
	uint64_t min() const { return count_ ? min_ : 0; }
	double mean() const { return count_ ? double(sum_) / double(count_) : 0; }
	uint64_t at(unsigned b) const { return counts_[b]; }

private:
	std::array<uint64_t, kBuckets> counts_{};
	uint64_t count_ = 0, sum_ = 0, max_ = 0, min_ = UINT64_MAX;
};

/* Sequence accounting of the frames one receiver got from each sending stream: a frame whose
 * sequence number is below the highest seen so far from its stream arrived out of order.
 * Loss is counted at the end from what the senders sent (tail losses have no later frame). */
class SeqTracker {
public:
	void add(uint16_t stream, uint32_t seq)
	{
		if (stream >= kMaxStreams)
			return;
		received_++;
		uint32_t &next = next_[stream];
		if (int32_t(seq - next) >= 0)
			next = seq + 1;
		else
			reordered_++;
	}
	/* Figures counted elsewhere (a SeqWindow of one stream). */
	void count(uint64_t received, uint64_t reordered)
	{
		received_ += received;
		reordered_ += reordered;
	}
	void merge(const SeqTracker &o)
	{
		received_ += o.received_;
		reordered_ += o.reordered_;
	}
	uint64_t received() const { return received_; }
	uint64_t reordered() const { return reordered_; }

private:
	std::array<uint32_t, kMaxStreams> next_{};
	uint64_t received_ = 0, reordered_ = 0;
};

/* The sequence numbers of one sending stream at one receiver, with duplicates told apart from
 * late frames: a window of the last kWindow sequence numbers remembers which arrived (as
 * IPsec's anti-replay window, RFC 4303 3.4.3). A frame below the highest seen so far is a
 * duplicate if its number is marked, else late (reordered); one more than kWindow behind is
 * counted reordered (too old to tell). */
class SeqWindow {
public:
	static constexpr uint32_t kWindow = 1024;

	void add(uint32_t seq)
	{
		received_++;
		int32_t d = int32_t(seq - next_);
		if (d >= 0) {
			/* The numbers next_..seq leave the window's far end. */
			if (uint32_t(d) >= kWindow)
				seen_.fill(0);
			else
				for (uint32_t s = next_; s != seq; s++)
					clear(s);
			set(seq);
			next_ = seq + 1;
		} else if (uint32_t(-d) <= kWindow) {
			if (test(seq)) {
				duplicates_++;
			} else {
				set(seq);
				reordered_++;
			}
		} else {
			reordered_++;
		}
	}
	uint64_t received() const { return received_; } /* duplicates included */
	uint64_t unique() const { return received_ - duplicates_; }
	uint64_t reordered() const { return reordered_; }
	uint64_t duplicates() const { return duplicates_; }

private:
	void set(uint32_t s) { seen_[(s % kWindow) / 64] |= 1ull << (s % 64); }
	void clear(uint32_t s) { seen_[(s % kWindow) / 64] &= ~(1ull << (s % 64)); }
	bool test(uint32_t s) const { return seen_[(s % kWindow) / 64] >> (s % 64) & 1; }

	std::array<uint64_t, kWindow / 64> seen_{};
	uint32_t next_ = 0;
	uint64_t received_ = 0, reordered_ = 0, duplicates_ = 0;
};

/* Jitter of one stream at one receiver from the transit times (arrival - departure, ns) of
 * consecutive frames: D = transit(i) - transit(i-1). jitter() is RFC 3550's interarrival
 * jitter estimate (6.4.1: J += (|D| - J) / 16) at the last frame, kept in integers (as the
 * RFC's appendix A.8 code does; in 1/256 ns here) so that the datapath has no floating point
 * and no long dependency chain; mean_abs_d() the
 * mean |D| over the whole run (RFC 3393's IPDV between consecutive frames, absolute). */
class Jitter {
public:
	void add(int64_t transit)
	{
		if (n_++) {
			int64_t d = transit - last_;
			d = d < 0 ? -d : d;
			j256_ += ((d << 8) - j256_) >> 4;
			sum_abs_ += uint64_t(d);
			diffs_++;
		}
		last_ = transit;
	}
	double jitter() const { return double(j256_) / 256; }
	double mean_abs_d() const { return diffs_ ? double(sum_abs_) / double(diffs_) : 0; }
	uint64_t count() const { return n_; }
	/* Across receivers (queues) of the same stream: J weighted by their frames. */
	void merge(const Jitter &o)
	{
		if (!o.n_)
			return;
		j256_ = int64_t((double(j256_) * double(n_) + double(o.j256_) * double(o.n_)) /
				(double(n_) + double(o.n_)));
		sum_abs_ += o.sum_abs_;
		diffs_ += o.diffs_;
		n_ += o.n_;
		last_ = o.last_;
	}

private:
	int64_t last_ = 0, j256_ = 0;
	uint64_t n_ = 0, diffs_ = 0, sum_abs_ = 0;
};

} /* namespace gtp */

#endif /* GTP_LATENCY_H */
