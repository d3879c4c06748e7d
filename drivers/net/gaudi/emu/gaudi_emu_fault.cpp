/* SPDX-License-Identifier: BSD-3-Clause
 * Fault injection of the Gaudi2 NIC model: parsing, triggers (at once, after N frames, random
 * from a seed) and the per-port state the engines consult. See gaudi_emu_fault.h.
 */
#include "gaudi_emu_fault.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "../base/gaudi_desc.h"

namespace gaudi::emu {

namespace {

constexpr const char *kNames[kFaultKinds] = {
	"db_fifo_overrun", "cq_overrun",   "qp_err",	 "link_flap",
	"dma_fault",	   "stuck_engine", "eq_overrun", "wire_drop",
};
constexpr uint32_t kDefaultRandomKinds =
	(1u << unsigned(FaultKind::db_fifo_overrun)) | (1u << unsigned(FaultKind::cq_overrun)) |
	(1u << unsigned(FaultKind::qp_err)) | (1u << unsigned(FaultKind::link_flap)) |
	(1u << unsigned(FaultKind::dma_fault));
/* Syndromes a random qp_err picks from [gaudi2_cn.c QP error syndromes]. */
constexpr uint32_t kRandomSyndromes[] = {0x91, 0x95, 0x41, 0x43};
constexpr uint32_t kRandomLinkMs = 20;

class Guard {
public:
	explicit Guard(rte_spinlock_t &l) : l_(l) { rte_spinlock_lock(&l_); }
	~Guard() { rte_spinlock_unlock(&l_); }

private:
	rte_spinlock_t &l_;
};

bool parse_u64(const std::string &s, uint64_t *out)
{
	if (s.empty() || s[0] == '-' || s[0] == '+')
		return false;
	char *end = nullptr;
	errno = 0;
	unsigned long long v = strtoull(s.c_str(), &end, 0);
	if (errno != 0 || *end != '\0')
		return false;
	*out = v;
	return true;
}

uint64_t xorshift(uint64_t &x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

/* Under s.lock: make the fault happen now. Returns a link flap length to start. */
uint32_t apply(FaultState &s, FaultKind k, uint32_t arg)
{
	/* wire_drop counts the frames it lost (fault_on_tx_frame), the others their firings. */
	if (k != FaultKind::wire_drop)
		s.injected[unsigned(k)].fetch_add(1, std::memory_order_relaxed);
	uint32_t link_ms = 0;
	switch (k) {
	case FaultKind::db_fifo_overrun:
		s.db_drop += arg;
		break;
	case FaultKind::cq_overrun:
		s.cq_full += arg;
		break;
	case FaultKind::qp_err:
		/* [7:6] = 1: QPC class, seen when the doorbell is taken; 2/3: tx packet class, seen
		 * at the WQE the engine is about to execute [gaudi2_cn.c QP error syndromes]. */
		if ((arg >> 6) == 1)
			s.db_syndrome = arg;
		else
			s.wqe_syndrome = arg;
		break;
	case FaultKind::dma_fault:
		s.wqe_syndrome = uint32_t(hw::QpErrSyndrome::wqe_dma_fault);
		break;
	case FaultKind::link_flap:
		link_ms = arg;
		break;
	case FaultKind::stuck_engine:
		s.stuck.store(true, std::memory_order_relaxed);
		break;
	case FaultKind::eq_overrun:
		s.eq_full += arg;
		break;
	case FaultKind::wire_drop:
		s.wire_drop += arg;
		break;
	case FaultKind::count:
		break;
	}
	return link_ms;
}

} /* namespace */

const char *fault_kind_name(FaultKind k)
{
	return unsigned(k) < kFaultKinds ? kNames[unsigned(k)] : "?";
}

bool fault_kind_parse(const std::string &s, FaultKind *k)
{
	for (unsigned i = 0; i < kFaultKinds; i++)
		if (s == kNames[i]) {
			*k = FaultKind(i);
			return true;
		}
	return false;
}

bool fault_arg_check(FaultKind k, uint32_t *arg, std::string *err)
{
	uint32_t &a = *arg;
	switch (k) {
	case FaultKind::db_fifo_overrun:
		a = a ? a : 1;
		if (a > 1024) {
			*err = "db_fifo_overrun ARG is a doorbell count 1..1024";
			return false;
		}
		return true;
	case FaultKind::cq_overrun:
		a = a ? a : 64;
		if (a > (1u << 20)) {
			*err = "cq_overrun ARG is a frame count 1..1048576";
			return false;
		}
		return true;
	case FaultKind::qp_err:
		a = a ? a : 0x91;
		if (a < 0x40 || a > 0xFF) {
			*err = "qp_err ARG is a requester syndrome 0x40..0xff (class 1 QPC or 2 tx "
			       "packet), e.g. 0x91, 0x95, 0x41, 0x43";
			return false;
		}
		return true;
	case FaultKind::link_flap:
		a = a ? a : 100;
		if (a > 60000) {
			*err = "link_flap ARG is the down time in ms, 1..60000";
			return false;
		}
		return true;
	case FaultKind::eq_overrun:
		a = a ? a : 1;
		if (a > 4096) {
			*err = "eq_overrun ARG is an event count 1..4096";
			return false;
		}
		return true;
	case FaultKind::wire_drop:
		a = a ? a : 1;
		if (a > (1u << 20)) {
			*err = "wire_drop ARG is a frame count 1..1048576";
			return false;
		}
		return true;
	case FaultKind::dma_fault:
	case FaultKind::stuck_engine:
		if (a != 0) {
			*err = std::string(fault_kind_name(k)) + " takes no ARG";
			return false;
		}
		return true;
	case FaultKind::count:
		break;
	}
	*err = "unknown fault kind";
	return false;
}

bool fault_spec_parse(const std::string &s, unsigned nports, FaultSpec *f, std::string *err)
{
	std::vector<std::string> parts;
	size_t b = 0;
	for (;;) {
		size_t c = s.find(':', b);
		parts.push_back(s.substr(b, c == std::string::npos ? c : c - b));
		if (c == std::string::npos)
			break;
		b = c + 1;
	}
	const char *form = "KIND:PORT[:AFTER_FRAMES[:ARG]] with KIND db_fifo_overrun, cq_overrun, "
			   "qp_err, link_flap, dma_fault, stuck_engine, eq_overrun or wire_drop";
	uint64_t port = 0, after = 0, arg = 0;
	if (parts.size() < 2 || parts.size() > 4 || !fault_kind_parse(parts[0], &f->kind) ||
	    !parse_u64(parts[1], &port) || (parts.size() > 2 && !parse_u64(parts[2], &after)) ||
	    (parts.size() > 3 && !parse_u64(parts[3], &arg)) || arg > UINT32_MAX) {
		*err = form;
		return false;
	}
	if (port >= nports) {
		*err = "PORT must be < ports (" + std::to_string(nports) + ")";
		return false;
	}
	f->port = unsigned(port);
	f->after_frames = after;
	f->arg = uint32_t(arg);
	return fault_arg_check(f->kind, &f->arg, err);
}

bool fault_kinds_parse(const std::string &s, uint32_t *mask, std::string *err)
{
	*mask = 0;
	size_t b = 0;
	for (;;) {
		size_t c = s.find('+', b);
		std::string k = s.substr(b, c == std::string::npos ? c : c - b);
		FaultKind fk;
		if (!fault_kind_parse(k, &fk)) {
			*err = "'" + k + "' is not a fault kind (kinds joined with '+')";
			return false;
		}
		*mask |= 1u << unsigned(fk);
		if (c == std::string::npos)
			return true;
		b = c + 1;
	}
}

FaultStep fault_on_tx_frame(FaultState &s)
{
	FaultStep st;
	Guard g(s.lock);
	/* Delayed triggers count this frame; one that reaches 0 fires before it is sent. */
	for (unsigned i = 0; i < s.n_delayed;) {
		FaultState::Delayed &d = s.delayed[i];
		if (d.remaining > 0)
			d.remaining--;
		if (d.remaining == 0) {
			uint32_t ms = apply(s, d.kind, d.arg);
			if (ms)
				st.link_flap_ms = ms;
			s.delayed[i] = s.delayed[--s.n_delayed];
		} else {
			i++;
		}
	}
	if (s.threshold != 0 && xorshift(s.rng) < s.threshold) {
		uint32_t mask = s.kinds_mask;
		unsigned n = __builtin_popcount(mask);
		unsigned pick = unsigned(xorshift(s.rng) % n);
		unsigned kind = 0;
		for (unsigned i = 0; i < kFaultKinds; i++)
			if ((mask & (1u << i)) && pick-- == 0) {
				kind = i;
				break;
			}
		uint32_t arg = 0;
		if (FaultKind(kind) == FaultKind::qp_err)
			arg = kRandomSyndromes[xorshift(s.rng) % std::size(kRandomSyndromes)];
		else if (FaultKind(kind) == FaultKind::link_flap)
			arg = kRandomLinkMs;
		std::string e;
		fault_arg_check(FaultKind(kind), &arg, &e);
		uint32_t ms = apply(s, FaultKind(kind), arg);
		if (ms)
			st.link_flap_ms = ms;
	}
	st.wqe_syndrome = s.wqe_syndrome;
	s.wqe_syndrome = 0;
	/* A wire drop armed by this frame's own draw loses this frame. */
	if (s.wire_drop != 0) {
		st.wire_drop = true;
		s.wire_drop--;
		s.injected[unsigned(FaultKind::wire_drop)].fetch_add(1, std::memory_order_relaxed);
	}
	s.rearm();
	return st;
}

uint32_t fault_take_db_syndrome(FaultState &s)
{
	Guard g(s.lock);
	uint32_t v = s.db_syndrome;
	s.db_syndrome = 0;
	s.rearm();
	return v;
}

bool fault_take_db_drop(FaultState &s)
{
	Guard g(s.lock);
	if (s.db_drop == 0)
		return false;
	s.db_drop--;
	s.rearm();
	return true;
}

bool fault_take_cq_full(FaultState &s)
{
	Guard g(s.lock);
	if (s.cq_full == 0)
		return false;
	s.cq_full--;
	s.rearm();
	return true;
}

bool fault_take_eq_full(FaultState &s)
{
	Guard g(s.lock);
	if (s.eq_full == 0)
		return false;
	s.eq_full--;
	s.rearm();
	return true;
}

bool fault_arm(FaultState &s, const FaultSpec &f, uint32_t *link_ms)
{
	Guard g(s.lock);
	*link_ms = 0;
	if (f.after_frames == 0)
		*link_ms = apply(s, f.kind, f.arg);
	else if (s.n_delayed < FaultState::kMaxDelayed)
		s.delayed[s.n_delayed++] = {f.kind, f.arg, f.after_frames};
	else
		return false;
	s.rearm();
	return true;
}

void fault_random_init(FaultState &s, const FaultRandom &r, unsigned port)
{
	Guard g(s.lock);
	if (r.rate <= 0) {
		s.threshold = 0;
	} else {
		s.threshold = r.rate >= 1 ? UINT64_MAX : uint64_t(std::ldexp(r.rate, 64));
		s.rng = (r.seed ^ (0x9E3779B97F4A7C15ull * (port + 1))) | 1;
		s.kinds_mask = r.kinds_mask ? r.kinds_mask : kDefaultRandomKinds;
	}
	s.rearm();
}

} /* namespace gaudi::emu */
