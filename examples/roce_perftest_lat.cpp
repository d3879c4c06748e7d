/* SPDX-License-Identifier: BSD-3-Clause */
/* roce_perftest: the latency tests (run_iter_lat_write, run_iter_lat, run_iter_lat_send) (see roce_perftest.h). */
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

/* Latency tests. Returns the exit status. */
int Peer::run_lat()
{
	const bool server = o_.server == nullptr; /* perftest's machine == SERVER */
	printf("---------------------------------------------------------------------------"
	       "------------\n");
	/* read_lat.c: only the client posts; the server closes at once and answers READs
	 * while it waits in that hand shake. */
	if (o_.test == Test::read && server)
		return close_lat();
	printf(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    "
	       "t_avg[usec]    t_stdev[usec]   99%% percentile[usec]   99.9%% "
	       "percentile[usec] \n");
	tposted_.assign(o_.iters, 0);
	for (uint64_t size = o_.all ? 2 : o_.size; size <= (o_.all ? kMaxSize : o_.size);
	     size *= 2) {
		bool ok;
		if (o_.test == Test::write) {
			ok = lat_write(size, server);
		} else if (o_.test == Test::read) {
			ok = lat_read(size);
		} else {
			/* send_lat.c: receives for this size, then a hand shake. */
			if (!post_lat_recvs(size) || !hand_shake())
				return fail("hand shake");
			ok = lat_send(size, server);
		}
		if (!ok)
			return fail("the run");
		print_lat(size);
	}
	/* write_lat.c ends without an exchange; read_lat.c and send_lat.c close. */
	return o_.test == Test::write ? linger_and_report(0) : close_lat();
}
int Peer::close_lat()
{
	if (!hand_shake() || !ch_->close())
		return fail("closing the connection");
	return linger_and_report(0);
}
/* Keeps answering briefly (the peer may wait for our last ACKs), prints the counters. */
int Peer::linger_and_report(int rc)
{
	finish();
	printf("---------------------------------------------------------------------------"
	       "------------\n");
	print_counters();
	return rc;
}
/* Polls the Context once; false when the QP failed (the peer's NAK, retries exceeded). */
bool Peer::progress()
{
	if (ctx_->poll() == 0)
		sched_yield();
	if (qps_[0]->state() == IBV_QPS_ERR) {
		fprintf(stderr, "QP in error state\n");
		return false;
	}
	return true;
}
/* Waits for one completion on cq; false on a failed one. */
bool Peer::wait_wc(CompletionQueue &cq, const char *what)
{
	WorkCompletion wc;
	int n;
	while ((n = cq.poll_cq({&wc, 1})) == 0)
		if (!progress())
			return false;
	if (wc.status != IBV_WC_SUCCESS) {
		fprintf(stderr, "Completion with error (%s): status %d, wr_id %" PRIu64 "\n", what,
			int(wc.status), wc.wr_id);
		return false;
	}
	return true;
}
/* Reaps send completions without waiting; false on a failed one. */
bool Peer::reap_sends(uint64_t &done)
{
	WorkCompletion wc[16];
	int n = cq_->poll_cq(wc);
	for (int i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS) {
			fprintf(stderr, "Completion with error at send: status %d\n",
				int(wc[i].status));
			return false;
		}
	}
	done += uint64_t(n);
	return true;
}
bool Peer::post_one(ibv_wr_opcode op, uint64_t size, uint64_t id)
{
	Sge s{reinterpret_cast<uintptr_t>(buf_), uint32_t(size), mr_->lkey()};
	SendWr w;
	w.wr_id = id;
	w.sg_list = {&s, 1};
	w.opcode = op;
	w.send_flags = IBV_SEND_SIGNALED | inline_flag(size);
	w.rdma = {rem_[0].vaddr, rem_[0].rkey};
	int rc = qps_[0]->post_send(w);
	if (rc != 0)
		fprintf(stderr, "Couldn't post send: %s\n", strerror(-rc));
	return rc == 0;
}
/* run_iter_lat_write: the last byte of what each side writes counts its messages; each
 * waits for the peer's count in its own buffer (at the vaddr it advertised) before the
 * next write. perftest's server writes first. */
bool Peer::lat_write(uint64_t size, bool server)
{
	volatile uint8_t *post = buf_ + size - 1;
	volatile uint8_t *seen = buf_ + half_ + size - 1;
	uint64_t scnt = 0, ccnt = 0, rcnt = 0;
	while (scnt < o_.iters || ccnt < o_.iters || rcnt < o_.iters) {
		if (rcnt < o_.iters && !(scnt < 1 && server)) {
			rcnt++;
			while (*seen != uint8_t(rcnt))
				if (!progress())
					return false;
		}
		if (scnt < o_.iters) {
			tposted_[scnt] = rte_rdtsc();
			*post = uint8_t(++scnt);
			if (!post_one(IBV_WR_RDMA_WRITE, size, scnt))
				return false;
		}
		if (ccnt < o_.iters) {
			if (!wait_wc(*cq_, "write"))
				return false;
			ccnt++;
		}
	}
	return true;
}
/* run_iter_lat: one READ at a time. */
bool Peer::lat_read(uint64_t size)
{
	for (uint64_t i = 0; i < o_.iters; i++) {
		tposted_[i] = rte_rdtsc();
		if (!post_one(IBV_WR_RDMA_READ, size, i) || !wait_wc(*cq_, "read"))
			return false;
	}
	return true;
}
/* ctx_set_recv_wqes: up to rx_depth receives of `size` in the second half. */
bool Peer::post_lat_recvs(uint64_t size)
{
	lat_rposted_ = std::min<uint64_t>(o_.rx_depth, o_.iters);
	for (uint64_t i = 0; i < lat_rposted_; i++)
		if (!post_lat_recv(size))
			return false;
	return true;
}
bool Peer::post_lat_recv(uint64_t size)
{
	Sge s{reinterpret_cast<uintptr_t>(buf_) + half_, uint32_t(size), mr_->lkey()};
	if (qps_[0]->post_recv({0, {&s, 1}}) != 0) {
		fprintf(stderr, "Couldn't post receive\n");
		return false;
	}
	return true;
}
/* run_iter_lat_send: each side waits for the peer's SEND before its own; the client sends
 * first. perftest signals only every cq_mod-th send; we signal all and reap them as they
 * come (the peer's reply proves the SEND arrived; its ACK may come later). */
bool Peer::lat_send(uint64_t size, bool server)
{
	uint64_t scnt = 0, rcnt = 0, sdone = 0;
	while (scnt < o_.iters || rcnt < o_.iters) {
		if (rcnt < o_.iters && !(scnt < 1 && !server)) {
			if (!wait_wc(*rcq_, "receive"))
				return false;
			rcnt++;
			if (lat_rposted_ < o_.iters) {
				if (!post_lat_recv(size))
					return false;
				lat_rposted_++;
			}
		}
		if (scnt < o_.iters) {
			tposted_[scnt++] = rte_rdtsc();
			if (!post_one(IBV_WR_SEND, size, scnt))
				return false;
		}
		if (!reap_sends(sdone))
			return false;
	}
	while (sdone < scnt)
		if (!progress() || !reap_sends(sdone))
			return false;
	return true;
}
/* print_report_lat (perftest_parameters.c): deltas between successive posts; a WRITE or
 * SEND round trip is two one-way latencies, a READ one. */
void Peer::print_lat(uint64_t size)
{
	const double per_us = double(rte_get_tsc_hz()) / 1e6 * (o_.test == Test::read ? 1.0 : 2.0);
	std::vector<uint64_t> d(o_.iters - 1);
	for (size_t i = 0; i < d.size(); i++)
		d[i] = tposted_[i + 1] - tposted_[i];
	std::sort(d.begin(), d.end());
	size_t n = d.size() - 2; /* LAT_MEASURE_TAIL */
	double median = (n - 1) % 2 ? double(d[n / 2] + d[n / 2 - 1]) / 2 : double(d[n / 2]);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += double(d[i]) / per_us;
	double avg = sum / double(n), var = 0;
	for (size_t i = 0; i < n; i++)
		var += (double(d[i]) / per_us - avg) * (double(d[i]) / per_us - avg);
	size_t p99 = size_t(std::ceil(double(n) * 0.99)),
	       p999 = size_t(std::ceil(double(n) * 0.999));
	printf(" %-7" PRIu64 " %" PRIu64 "          %-7.2f        %-7.2f      %-7.2f  "
	       "	       %-7.2f     	%-7.2f		%-7.2f 		%-7.2f\n",
	       size, o_.iters, double(d[0]) / per_us, double(d[n]) / per_us, median / per_us, avg,
	       std::sqrt(var / double(n)), double(d[p99]) / per_us, double(d[p999]) / per_us);
}

} /* namespace gaudi::examples::perftest */
