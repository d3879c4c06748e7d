/* SPDX-License-Identifier: BSD-3-Clause
 * line_rtt: the round trip of one cache line between two CPUs, in TSC cycles. Each thread, pinned
 * to its CPU, waits for the other's store to a shared counter and answers with its own, so every
 * step moves the line once between the CPUs. bench.py prints it beside each row: with
 * engine=thread every descriptor and frame the driver and the model exchange crosses between
 * the forwarding CPU and the model's, and on a virtual machine the host may place the two
 * vCPUs near each other or far apart from one minute to the next (gaudi_perf.rst).
 *
 * Usage: line_rtt [CPU_A CPU_B [ROUND_TRIPS]]   (default 0 1 100000)
 * Prints the best of 5 runs, in TSC cycles per round trip.
 */
#include <pthread.h>
#include <sched.h>
#include <x86intrin.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

struct alignas(64) Line {
	std::atomic<uint64_t> v{0};
};

bool pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return pthread_setaffinity_np(pthread_self(), sizeof(s), &s) == 0;
}

/* One run: n round trips, CPU a starting each with an odd value, CPU b answering even. */
double run(int a, int b, uint64_t n, bool *ok)
{
	Line line;
	std::atomic<bool> peer_ok{true};
	std::thread peer([&] {
		peer_ok = pin(b);
		for (uint64_t i = 1; i < 2 * n; i += 2) {
			while (line.v.load(std::memory_order_acquire) != i)
				_mm_pause();
			line.v.store(i + 1, std::memory_order_release);
		}
	});
	*ok = pin(a);
	uint64_t t0 = __rdtsc();
	for (uint64_t i = 0; i < 2 * n; i += 2) {
		while (line.v.load(std::memory_order_acquire) != i)
			_mm_pause();
		line.v.store(i + 1, std::memory_order_release);
	}
	while (line.v.load(std::memory_order_acquire) != 2 * n)
		_mm_pause();
	uint64_t t1 = __rdtsc();
	peer.join();
	*ok = *ok && peer_ok;
	return double(t1 - t0) / double(n);
}

} // namespace

int main(int argc, char **argv)
{
	if (argc != 1 && argc != 3 && argc != 4) {
		fprintf(stderr, "usage: %s [CPU_A CPU_B [ROUND_TRIPS]]\n", argv[0]);
		return 2;
	}
	int a = argc > 1 ? atoi(argv[1]) : 0, b = argc > 2 ? atoi(argv[2]) : 1;
	long n = argc > 3 ? atol(argv[3]) : 100000;
	if (a < 0 || b < 0 || a == b || n <= 0) {
		fprintf(stderr, "%s: two different CPUs and a positive count, please\n", argv[0]);
		return 2;
	}
	double best = 0;
	for (int i = 0; i < 5; i++) {
		bool ok;
		double c = run(a, b, uint64_t(n), &ok);
		if (!ok) {
			fprintf(stderr, "%s: cannot run on CPUs %d and %d\n", argv[0], a, b);
			return 1;
		}
		best = i == 0 ? c : std::min(best, c);
	}
	printf("%.0f\n", best);
	return 0;
}
