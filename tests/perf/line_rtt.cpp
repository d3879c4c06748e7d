/* SPDX-License-Identifier: BSD-3-Clause
 * line_rtt: the round trip of one cache line between two CPUs, in TSC cycles. Each thread, pinned
 * to its CPU, waits for the other's store to a shared counter and answers with its own, so every
 * step moves the line once between the CPUs. bench.py prints it beside each row: with
 * engine=thread every descriptor and frame the driver and the model exchange crosses between
 * the forwarding CPU and the model's, and on a virtual machine the host may place the two
 * vCPUs near each other or far apart from one minute to the next (gaudi_perf.rst).
 *
 * Usage: line_rtt [CPU_A CPU_B [ROUND_TRIPS]]   (default 0 1 100000)
 * Prints the best of 5 runs, in TSC cycles per round trip. x86 only (the TSC).
 */
#include <pthread.h>
#include <sched.h>
#include <x86intrin.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

constexpr uint64_t kWarmUp = 1000; /* round trips before the clock starts */
constexpr long kMaxRoundTrips = 100000000;

struct alignas(64) Line {
	std::atomic<uint64_t> v{0};
};

bool pin(int cpu)
{
	if (cpu >= CPU_SETSIZE)
		return false;
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return pthread_setaffinity_np(pthread_self(), sizeof(s), &s) == 0;
}

/* Waits until the line holds `want`, then stores want + 1. */
void step(Line &line, uint64_t want)
{
	while (line.v.load(std::memory_order_acquire) != want)
		_mm_pause();
	line.v.store(want + 1, std::memory_order_release);
}

/* One run: n round trips after the warm-up, CPU a storing odd values, CPU b even ones. Both
 * threads are pinned before the first step: unpinned, both could share a CPU and every step
 * would wait for a scheduler slice. Returns -1 if either cannot be pinned. */
double run(int a, int b, uint64_t n)
{
	Line line;
	std::atomic<int> peer{0}; /* 1 pinned, -1 failed */
	const uint64_t total = kWarmUp + n;
	std::thread t([&line, &peer, b, total] {
		bool ok = pin(b);
		peer.store(ok ? 1 : -1, std::memory_order_release);
		if (!ok)
			return;
		for (uint64_t i = 1; i < 2 * total; i += 2)
			step(line, i);
	});
	int p;
	while ((p = peer.load(std::memory_order_acquire)) == 0)
		_mm_pause();
	if (p < 0 || !pin(a)) {
		if (p > 0) /* release the peer: play both sides to the end */
			for (uint64_t i = 0; i < 2 * total; i += 2) {
				line.v.store(i + 1, std::memory_order_release);
				while (line.v.load(std::memory_order_acquire) != i + 2)
					_mm_pause();
			}
		t.join();
		return -1;
	}
	uint64_t t0 = 0;
	for (uint64_t i = 0; i < 2 * total; i += 2) {
		if (i == 2 * kWarmUp)
			t0 = __rdtsc();
		step(line, i);
	}
	while (line.v.load(std::memory_order_acquire) != 2 * total)
		_mm_pause();
	const uint64_t t1 = __rdtsc();
	t.join();
	return double(t1 - t0) / double(n);
}

/* A non-negative decimal that is all digits, or -1. */
long number(const char *s)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	return (*s == '\0' || *end != '\0' || errno != 0 || v < 0) ? -1 : v;
}

} /* namespace */

int main(int argc, char **argv)
{
	if (argc != 1 && argc != 3 && argc != 4) {
		fprintf(stderr, "usage: %s [CPU_A CPU_B [ROUND_TRIPS]]\n", argv[0]);
		return 2;
	}
	long a = argc > 1 ? number(argv[1]) : 0, b = argc > 2 ? number(argv[2]) : 1;
	long n = argc > 3 ? number(argv[3]) : 100000;
	if (a < 0 || b < 0 || a == b) {
		fprintf(stderr, "%s: CPU_A and CPU_B: two different CPU numbers\n", argv[0]);
		return 2;
	}
	if (n < 1 || n > kMaxRoundTrips) {
		fprintf(stderr, "%s: ROUND_TRIPS: 1 to %ld\n", argv[0], kMaxRoundTrips);
		return 2;
	}
	double best = 0;
	for (int i = 0; i < 5; i++) {
		double c = run(int(a), int(b), uint64_t(n));
		if (c < 0) {
			fprintf(stderr,
				"%s: cannot run on CPUs %ld and %ld (offline, or not allowed)\n",
				argv[0], a, b);
			return 1;
		}
		best = i == 0 ? c : std::min(best, c);
	}
	printf("%.0f\n", best);
	return 0;
}
