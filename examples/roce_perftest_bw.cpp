/* SPDX-License-Identifier: BSD-3-Clause */
/* roce_perftest: the bandwidth tests (run_iter_bw, run_iter_bw_server, -b, -D, atomics) (see roce_perftest.h). */
#include <arpa/inet.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "peer_mac.h"
#include "roce_perftest.h"

using namespace gaudi::roce;

namespace gaudi::examples::perftest {

/* run_iter_bw: every QP posts `iters` messages of `size` (with -D: until the duration is
 * over), at most tx_depth outstanding per QP; false on a failed completion. */
bool Peer::send_loop(uint64_t size, Report &rep)
{
	const uint32_t nq = o_.num_qps;
	const uint64_t hz = rte_get_timer_hz();
	const uint64_t t0 = rte_get_timer_cycles();
	const uint64_t stop = o_.duration ? t0 + uint64_t(o_.duration) * hz : UINT64_MAX;
	const uint64_t iters = o_.duration ? UINT64_MAX : o_.iters;
	Sge s{reinterpret_cast<uintptr_t>(buf_), uint32_t(size), mr_->lkey()};
	/* Atomics: each outstanding one fetches into its own word of the first half, a
	 * range per QP; each QP's atomics go to the one word the peer gave that QP. */
	const bool atomic = o_.test == Test::atomic;
	const uint64_t per_qp = half_ / kAtomicSize / nq;
	const uint64_t depth = atomic ? std::min<uint64_t>(o_.tx_depth, per_qp) : o_.tx_depth;
	auto *fetched = reinterpret_cast<volatile uint64_t *>(buf_);
	std::vector<uint64_t> posted(nq, 0), done(nq, 0), first(nq, 0);
	uint64_t total = 0, outstanding = 0;
	bool posting = true;
	WorkCompletion wc[32];
	while (posting || outstanding > 0) {
		if (posting && rte_get_timer_cycles() >= stop)
			posting = false; /* -D: time is up, drain what is in flight */
		bool more = false;
		for (uint32_t q = 0; posting && q < nq; q++) {
			while (posted[q] < iters && posted[q] - done[q] < depth) {
				SendWr w;
				w.wr_id = posted[q];
				w.sg_list = {&s, 1};
				w.send_flags = IBV_SEND_SIGNALED | inline_flag(size);
				w.opcode = o_.test == Test::write  ? IBV_WR_RDMA_WRITE
					   : o_.test == Test::read ? IBV_WR_RDMA_READ
								   : IBV_WR_SEND;
				w.rdma = {rem_[q].vaddr, rem_[q].rkey};
				if (atomic) {
					s.addr = reinterpret_cast<uintptr_t>(
						&fetched[q * per_qp + posted[q] % per_qp]);
					w.opcode = o_.cas ? IBV_WR_ATOMIC_CMP_AND_SWP
							  : IBV_WR_ATOMIC_FETCH_AND_ADD;
					w.atomic = {rem_[q].vaddr,
						    o_.cas ? kAtomicSwap : kAtomicAdd, kAtomicSwap,
						    rem_[q].rkey};
				}
				if (qps_[q]->post_send(w) != 0)
					break;
				posted[q]++;
				outstanding++;
			}
			more = more || posted[q] < iters;
		}
		posting = posting && more;
		unsigned moved = ctx_->poll();
		int n = cq_->poll_cq(wc);
		if (moved == 0 && n == 0)
			sched_yield();
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr,
					"Completion with error at client: status %d, wr_id "
					"%" PRIu64 "\n",
					int(wc[i].status), wc[i].wr_id);
				return false;
			}
			int q = qp_index(wc[i].qp_num);
			if (q < 0) {
				fprintf(stderr, "completion for unknown QPN %#x\n", wc[i].qp_num);
				return false;
			}
			if (atomic) {
				/* One word per QP, RC order: FAA's fetched values count up by
				 * the add; CAS swaps 0 for 0, so the word never changes. */
				uint64_t id = wc[i].wr_id;
				uint64_t v = fetched[q * per_qp + id % per_qp];
				uint64_t want = first[q] + (o_.cas ? 0 : id * kAtomicAdd);
				if (id == 0)
					first[q] = v;
				else if (v != want) {
					fprintf(stderr,
						"atomic %" PRIu64 " on QP %d fetched %" PRIu64
						", expected %" PRIu64 "\n",
						id, q, v, want);
					return false;
				}
			}
			done[q]++;
			total++;
			outstanding--;
		}
	}
	fill(rep, size, total, rte_get_timer_cycles() - t0);
	if (atomic && o_.cas)
		snprintf(atomic_check_, sizeof atomic_check_,
			 " atomic check: %" PRIu64 " compare-and-swaps fetched %" PRIu64 " each\n",
			 total, first[0]);
	else if (atomic)
		snprintf(atomic_check_, sizeof atomic_check_,
			 " atomic check: %" PRIu64 " fetch-and-adds fetched %" PRIu64 " .. %" PRIu64
			 " in order\n",
			 total, first[0], first[0] + (done[0] - 1) * kAtomicAdd);
	return true;
}
/* Our server after an atomic run: perftest's client added 1 per FETCH_AND_ADD to words of
 * our (zeroed) second half, or swapped 0 for 0; the words' sum says each executed once. */
bool Peer::check_atomic_target(uint64_t iters)
{
	const auto *w = reinterpret_cast<const uint64_t *>(buf_ + half_);
	uint64_t sum = 0;
	for (uint64_t i = 0; i < half_ / 8; i++)
		sum += w[i];
	uint64_t want = o_.cas ? 0 : iters * kAtomicAdd;
	printf(" atomic check: target words sum to %" PRIu64 ", expected %" PRIu64 "\n", sum, want);
	return sum == want;
}
void Peer::fill(Report &rep, uint64_t size, uint64_t n, uint64_t cycles)
{
	double sec = double(cycles) / double(rte_get_timer_hz());
	rep.size = size;
	rep.iters = n;
	rep.bw_avg = sec > 0 ? double(size) * double(n) / sec / 1048576.0 : 0;
	rep.bw_peak = rep.bw_avg; /* no per-message time stamps here */
	rep.msg_rate = sec > 0 ? double(n) / sec / 1e6 : 0;
}
int Peer::run_rdma()
{
	Report mine, theirs;
	if (o_.duplex) {
		/* write_bw.c / read_bw.c with -b: both sides run; a hand shake before each
		 * size (and after it with -a: the peer's version >= 4.6), then the reports
		 * cross and each prints the sum of both (print_full_bw_report). */
		for (uint64_t size = o_.all ? 2 : o_.size; size <= (o_.all ? kMaxSize : o_.size);
		     size *= 2) {
			if (!hand_shake())
				return fail("hand shake");
			if (!send_loop(size, mine))
				return fail("the run");
			if (o_.all && !hand_shake())
				return fail("hand shake");
			if (!xchg_reports(*ch_, mine, theirs))
				return fail("report exchange");
			Report sum = mine;
			sum.bw_peak += theirs.bw_peak;
			sum.bw_avg += theirs.bw_avg;
			sum.msg_rate += theirs.msg_rate;
			print_report(sum);
		}
		return 0;
	}
	if (o_.server) {
		for (uint64_t size = o_.all ? 2 : o_.size; size <= (o_.all ? kMaxSize : o_.size);
		     size *= 2) {
			if (!send_loop(size, mine))
				return fail("the run");
			print_report(mine);
			fputs(atomic_check_, stdout);
			atomic_check_[0] = '\0';
		}
		if (!hand_shake() || !xchg_reports(*ch_, mine, theirs))
			return fail("report exchange");
	} else {
		/* The server waits in a hand shake (answering the peer's RDMA meanwhile), then
		 * prints the client's report. */
		if (!hand_shake() || !xchg_reports(*ch_, mine, theirs))
			return fail("report exchange");
		print_report(theirs);
		if (o_.test == Test::atomic && !check_atomic_target(theirs.iters))
			return 1;
	}
	return 0;
}
int Peer::run_send()
{
	for (uint64_t size = o_.all ? 2 : o_.size; size <= (o_.all ? kMaxSize : o_.size);
	     size *= 2) {
		Report rep;
		if (o_.server) {
			if (!hand_shake())
				return fail("hand shake");
			if (!send_loop(size, rep))
				return fail("the run");
		} else if (!recv_loop(size, rep)) {
			return 1;
		}
		if (o_.all && !hand_shake())
			return fail("hand shake");
		print_report(rep);
	}
	return 0;
}

/* run_iter_bw_server: keep rx_depth receives posted on every QP until iters arrived on each;
 * the hand shake goes once the first are posted. false (said) on a failure. */
bool Peer::recv_loop(uint64_t size, Report &rep)
{
	Sge s{reinterpret_cast<uintptr_t>(buf_) + half_, uint32_t(size), mr_->lkey()};
	const uint32_t nq = o_.num_qps;
	std::vector<uint64_t> posted(nq, 0);
	uint64_t got = 0, bytes = 0;
	for (uint32_t q = 0; q < nq; q++)
		while (posted[q] < o_.iters && posted[q] < o_.rx_depth)
			if (qps_[q]->post_recv({posted[q]++, {&s, 1}}) != 0)
				return failed("post receive");
	if (!hand_shake())
		return failed("hand shake");
	uint64_t t0 = 0;
	WorkCompletion wc[32];
	while (got < o_.iters * nq) {
		unsigned moved = ctx_->poll();
		int n = rcq_->poll_cq(wc);
		if (moved == 0 && n == 0)
			sched_yield();
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "Completion with error at server: status %d\n",
					int(wc[i].status));
				return failed("the run");
			}
			int q = qp_index(wc[i].qp_num);
			if (q < 0)
				return failed("the run (unknown QPN)");
			if (got++ == 0)
				t0 = rte_get_timer_cycles();
			bytes += wc[i].byte_len;
			if (posted[q] < o_.iters && qps_[q]->post_recv({posted[q]++, {&s, 1}}) != 0)
				return failed("post receive");
		}
	}
	fill(rep, size, got, rte_get_timer_cycles() - t0);
	if (bytes != size * got) {
		fprintf(stderr, "received %" PRIu64 " bytes, expected %" PRIu64 "\n", bytes,
			size * got);
		return false;
	}
	return true;
}

} /* namespace gaudi::examples::perftest */
