/* SPDX-License-Identifier: BSD-3-Clause
 * Scaffolding shared by the GoogleTest binaries that run the Gaudi PMD through ethdev: the EAL
 * environment (one per binary), the stale-installed-plugin check, one net_gaudi_emu instance
 * with its ports and mempool, and small rx/tx helpers.
 *
 * The binaries link the PMD (as gaudi-testpmd does) rather than load it with EAL -d: DPDK
 * refuses a -d plugin under a world-writable directory, so a clone in /tmp could not run them.
 * Header-only; the binary defines DPDK_PLUGIN_DIR for the plugin check.
 */
#ifndef GAUDI_TEST_EAL_H
#define GAUDI_TEST_EAL_H

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <iterator>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gaudi_test_eal_env.h"

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <dlfcn.h>

#include "rte_pmd_gaudi.h"


namespace gaudi_test {

/* The file the PMD linked into this binary was loaded from (a PMD symbol's object). */
inline std::string linked_pmd()
{
	Dl_info info{};
	if (dladdr(reinterpret_cast<void *>(&rte_pmd_gaudi_inject_fault), &info) == 0 ||
	    !info.dli_fname)
		return "";
	return info.dli_fname;
}

#ifdef DPDK_PLUGIN_DIR
/* EAL autoloads every plugin in DPDK's plugin dir: an installed copy of this PMD or of its
 * emulated NIC (linked from the same directory) that differs from the build's would register
 * the same drivers beside the one under test. */
inline void check_no_stale_plugin()
{
	std::string linked_dir = linked_pmd();
	linked_dir = linked_dir.substr(0, linked_dir.rfind('/') + 1);
	for (const char *so : {"librte_net_gaudi.so", "librte_net_gaudi_emu.so"}) {
		std::string installed = std::string(DPDK_PLUGIN_DIR) + "/" + so;
		std::string linked = linked_dir + so;
		std::ifstream a(installed, std::ios::binary), b(linked, std::ios::binary);
		if (!a)
			continue;
		std::string da((std::istreambuf_iterator<char>(a)), {}),
			db((std::istreambuf_iterator<char>(b)), {});
		if (da != db) {
			fprintf(stderr,
				"%s is installed and differs from the build's %s: remove it or run "
				"'meson install' first\n",
				installed.c_str(), linked.c_str());
			std::exit(1);
		}
	}
}
#endif

/* The EAL environment of a binary that links the PMD: EalEnvBase after the stale installed
 * plugin check (when DPDK_PLUGIN_DIR is defined). */
class EalEnv : public EalEnvBase {
public:
	using EalEnvBase::EalEnvBase;

protected:
	void preflight() override
	{
#ifdef DPDK_PLUGIN_DIR
		check_no_stale_plugin();
#endif
	}
};

/* Instance numbers of the net_gaudi_emu vdevs a binary creates (vdev names must be unique). */
inline int next_emu_instance()
{
	static int counter = 0;
	return counter++;
}

/* Port id with one RX queue of nb_desc descriptors from mp and one TX queue of nb_desc, MTU mtu,
 * promiscuous, started (the RoCE tests' wire ports): 0, or non-zero at the first step that
 * failed. */
inline int start_roce_port(uint16_t id, uint16_t mtu, uint16_t nb_desc, rte_mempool *mp)
{
	rte_eth_conf conf{};
	conf.rxmode.mtu = mtu;
	return rte_eth_dev_configure(id, 1, 1, &conf) != 0 ||
	       rte_eth_rx_queue_setup(id, 0, nb_desc, SOCKET_ID_ANY, nullptr, mp) != 0 ||
	       rte_eth_tx_queue_setup(id, 0, nb_desc, SOCKET_ID_ANY, nullptr) != 0 ||
	       rte_eth_promiscuous_enable(id) != 0 || rte_eth_dev_start(id) != 0;
}

/* One net_gaudi_emu instance "net_gaudi_emu<instance>" with nports ports (<name>_p<i>) and a
 * mempool "<name>_mp"; uninit and freed on destruction. */
class EmuVdev {
public:
	EmuVdev(int instance, const std::string &args, unsigned nports, unsigned mbufs,
		uint16_t data_room = RTE_MBUF_DEFAULT_BUF_SIZE)
		: instance_(instance), name_("net_gaudi_emu" + std::to_string(instance))
	{
		rc_ = rte_vdev_init(name_.c_str(), args.c_str());
		for (unsigned p = 0; rc_ == 0 && p < nports; p++) {
			uint16_t id;
			std::string pn = name_ + "_p" + std::to_string(p);
			EXPECT_EQ(rte_eth_dev_get_port_by_name(pn.c_str(), &id), 0) << pn;
			ports_.push_back(id);
		}
		mp_ = rte_pktmbuf_pool_create((name_ + "_mp").c_str(), mbufs, 0, 0, data_room,
					      SOCKET_ID_ANY);
		EXPECT_NE(mp_, nullptr);
	}
	~EmuVdev()
	{
		close();
		rte_mempool_free(mp_);
	}
	EmuVdev(const EmuVdev &) = delete;
	EmuVdev &operator=(const EmuVdev &) = delete;

	/* Uninit the vdev now (its ports close); the mempool lives on. */
	void close()
	{
		if (rc_ == 0 && !closed_)
			rte_vdev_uninit(name_.c_str());
		closed_ = true;
	}
	int probe_rc() const { return rc_; }
	int instance() const { return instance_; }
	const std::string &name() const { return name_; }
	uint16_t port(unsigned i) const { return ports_.at(i); }
	rte_mempool *mp() const { return mp_; }

protected:
	int instance_;
	std::string name_;
	int rc_ = -1;
	bool closed_ = false;
	std::vector<uint16_t> ports_;
	rte_mempool *mp_ = nullptr;
};

/* Receive from queue 0 of port until want frames arrived or timeout_ms passed (the thread
 * engine is asynchronous), at most burst (<= 64) per rte_eth_rx_burst. */
inline std::vector<rte_mbuf *> rx_until(uint16_t port, size_t want, int timeout_ms,
					uint16_t burst = 64)
{
	std::vector<rte_mbuf *> got;
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
	rte_mbuf *b[64];
	while (got.size() < want && std::chrono::steady_clock::now() < end) {
		uint16_t n = rte_eth_rx_burst(port, 0, b,
					      std::min<size_t>(std::min<uint16_t>(burst, 64), want - got.size()));
		got.insert(got.end(), b, b + n);
	}
	return got;
}

/* Send all of pkts on queue 0 of port, retrying while the ring is full, at most max_burst per
 * rte_eth_tx_burst, for at most timeout_ms. Returns frames accepted (the rest stay owned by
 * the caller). */
inline size_t tx_all(uint16_t port, std::vector<rte_mbuf *> &pkts, int timeout_ms,
		     size_t max_burst = SIZE_MAX)
{
	size_t done = 0;
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
	while (done < pkts.size() && std::chrono::steady_clock::now() < end)
		done += rte_eth_tx_burst(port, 0, &pkts[done],
					 uint16_t(std::min<size_t>(max_burst, pkts.size() - done)));
	return done;
}

/* The bytes of a (possibly multi-segment) mbuf. */
inline std::vector<uint8_t> bytes_of(const rte_mbuf *m)
{
	std::vector<uint8_t> b(m->pkt_len);
	const void *p = rte_pktmbuf_read(m, 0, m->pkt_len, b.data());
	if (p != b.data())
		memcpy(b.data(), p, m->pkt_len);
	return b;
}

inline void free_all(std::vector<rte_mbuf *> &v)
{
	for (auto *m : v)
		rte_pktmbuf_free(m);
	v.clear();
}

/* Poll cond every millisecond for up to ms; returns its last value. */
inline bool wait_for(const std::function<bool()> &cond, int ms = 3000)
{
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
	while (std::chrono::steady_clock::now() < end) {
		if (cond())
			return true;
		std::this_thread::sleep_for(std::chrono::milliseconds(1));
	}
	return cond();
}

/* Collects what the PMD logs while alive (probe failures are one line each), with each
 * message's level: the stream is unbuffered, so each message reaches write() inside rte_vlog,
 * whose per-lcore current level (rte_log_cur_msg_loglevel) is then the message's. */
class LogCapture {
public:
	LogCapture()
	{
		cookie_io_functions_t io{};
		io.write = write_cb;
		f_ = fopencookie(this, "w", io);
		setvbuf(f_, nullptr, _IONBF, 0);
		rte_openlog_stream(f_);
	}
	~LogCapture()
	{
		rte_openlog_stream(nullptr);
		fclose(f_);
	}
	std::string text()
	{
		std::lock_guard<std::mutex> g(lock_);
		return all_;
	}
	/* What was logged at `level` (RTE_LOG_WARNING, ...) only. */
	std::string text_at(uint32_t level)
	{
		std::lock_guard<std::mutex> g(lock_);
		std::string s;
		for (const auto &[l, m] : msgs_)
			if (l == level)
				s += m;
		return s;
	}

private:
	static ssize_t write_cb(void *cookie, const char *buf, size_t len)
	{
		auto *self = static_cast<LogCapture *>(cookie);
		std::lock_guard<std::mutex> g(self->lock_);
		self->all_.append(buf, len);
		uint32_t level = uint32_t(rte_log_cur_msg_loglevel());
		self->msgs_.emplace_back(level, std::string(buf, len));
		return ssize_t(len);
	}
	std::mutex lock_;
	std::string all_;
	std::vector<std::pair<uint32_t, std::string>> msgs_;
	FILE *f_;
};

} /* namespace gaudi_test */

#endif /* GAUDI_TEST_EAL_H */
