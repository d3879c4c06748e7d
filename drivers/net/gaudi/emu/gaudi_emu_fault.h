/* SPDX-License-Identifier: BSD-3-Clause
 * Fault injection of the Gaudi2 NIC model (net_gaudi_emu): the failures the PMD must recover
 * from, on command (API, devargs) or from a seed. See doc/guides/gaudi_hw_model.rst
 * ("Fault injection") and doc/guides/nics/gaudi.rst ("Fault injection and recovery").
 *
 * The engines check one relaxed atomic per doorbell batch / per frame (FaultState::armed);
 * everything else is behind it, so an unarmed model pays nothing measurable.
 */
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include <rte_spinlock.h>

namespace gaudi::emu {

enum class FaultKind : uint32_t {
	db_fifo_overrun, /* the next ARG (1) doorbells are dropped as if the FIFO were full */
	cq_overrun,      /* the next ARG (64) received frames meet a full CQ: dropped, COMP_ERR */
	qp_err,          /* QP_ERR with syndrome ARG (0x91), raw QP put in error */
	link_flap,       /* link down for ARG (100) ms, then up: LINK_STATUS both ways */
	dma_fault,       /* the next WQE's local address does not translate: syndrome 0xA0 */
	stuck_engine,    /* the TX engine stops taking doorbells until the requester QPC is written */
	eq_overrun,      /* the next ARG (1) events find the EQ full: lost, QPC cause 10 latched */
	wire_drop,       /* the next ARG (1) frames the port sends are lost on the wire (TX only) */
	count
};
inline constexpr unsigned kFaultKinds = unsigned(FaultKind::count);

const char *fault_kind_name(FaultKind k);
bool fault_kind_parse(const std::string &s, FaultKind *k);
/* Default for arg 0 and range check; false with a reason. */
bool fault_arg_check(FaultKind k, uint32_t *arg, std::string *err);

/* One injection: on port, after the port has sent after_frames more frames (0 = at once). */
struct FaultSpec {
	FaultKind kind = FaultKind::qp_err;
	unsigned port = 0;
	uint64_t after_frames = 0;
	uint32_t arg = 0; /* 0 = the kind's default */
};
/* "KIND:PORT[:AFTER_FRAMES[:ARG]]" (ARG decimal or 0x hex). */
bool fault_spec_parse(const std::string &s, unsigned nports, FaultSpec *f, std::string *err);

/* Random mode: every frame a port sends draws from a per-port xorshift generator seeded with
 * seed and the port number; with probability rate one fault of a kind in kinds_mask fires. */
struct FaultRandom {
	uint64_t seed = 0;
	double rate = 0; /* 0 = off */
	uint32_t kinds_mask = 0; /* 0 = default: all but stuck_engine, eq_overrun, wire_drop */
};
bool fault_kinds_parse(const std::string &s, uint32_t *mask, std::string *err); /* a+b+c */

/* Per-port fault state inside the model. */
struct FaultState {
	static constexpr unsigned kMaxDelayed = 8;
	struct Delayed {
		FaultKind kind;
		uint32_t arg;
		uint64_t remaining; /* frames still to send before it fires */
	};

	/* Non-zero while anything below needs looking at. */
	std::atomic<uint32_t> armed{0};
	/* Applied effects, read by the engines without the lock. */
	std::atomic<bool> stuck{false};
	std::atomic<bool> link_down{false};

	rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER; /* leaf lock: guards the rest */
	uint32_t db_drop = 0;       /* doorbells still to drop */
	uint32_t cq_full = 0;       /* received frames still to drop as CQ overrun */
	uint32_t eq_full = 0;       /* events still to lose as EQ overrun */
	uint32_t wire_drop = 0;     /* sent frames still to lose on the wire */
	uint32_t db_syndrome = 0;   /* QPC-class syndrome for the next doorbell */
	uint32_t wqe_syndrome = 0;  /* tx-packet-class syndrome for the next WQE */
	unsigned n_delayed = 0;
	Delayed delayed[kMaxDelayed]{};
	/* Random mode: rng state is touched only by the port's TX engine (under its tx.lock). */
	uint64_t rng = 0;
	uint64_t threshold = 0; /* draw < threshold fires */
	uint32_t kinds_mask = 0;
	std::atomic<uint64_t> injected[kFaultKinds]{}; /* firings; wire_drop: frames lost */
	void *owner = nullptr; /* the model (link flap alarms) */
	unsigned port = 0;

	/* Recompute armed; under lock. */
	void rearm()
	{
		bool any = db_drop || cq_full || eq_full || wire_drop || db_syndrome || wqe_syndrome || n_delayed ||
			   threshold || stuck.load(std::memory_order_relaxed) ||
			   link_down.load(std::memory_order_relaxed);
		armed.store(any ? 1 : 0, std::memory_order_relaxed);
	}
};

} /* namespace gaudi::emu */

namespace gaudi::emu {

/* The engine side (gaudi_emu.cpp calls these only when FaultState::armed is set). */
struct FaultStep {
	uint32_t wqe_syndrome = 0; /* non-zero: this WQE faults with it */
	uint32_t link_flap_ms = 0; /* non-zero: start a link flap of this length */
	bool wire_drop = false;    /* this frame leaves the MAC (counted sent) and is lost */
};
/* One frame about to be sent by the port (under its tx.lock): advances delayed and random
 * triggers, takes a pending WQE fault and a pending wire drop (for this frame). */
FaultStep fault_on_tx_frame(FaultState &s);
/* Doorbell about to run (under tx.lock): a pending QPC-class syndrome, taken (0 = none). */
uint32_t fault_take_db_syndrome(FaultState &s);
/* Doorbell being pushed: drop it? */
bool fault_take_db_drop(FaultState &s);
/* Frame received: drop it as a CQ overrun? */
bool fault_take_cq_full(FaultState &s);
/* An event the port posts meets a forced full EQ (eq_overrun). */
bool fault_take_eq_full(FaultState &s);
/* Arm a fault (API, devargs); *link_ms = link flap length to start now (0 = none). False
 * when kMaxDelayed delayed faults are already waiting. */
bool fault_arm(FaultState &s, const FaultSpec &f, uint32_t *link_ms);
void fault_random_init(FaultState &s, const FaultRandom &r, unsigned port);

} /* namespace gaudi::emu */
