/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model: register side effects, TX/RX engines, event queue, MAC, wires.
 *
 * Sources: [facts §N] = shared/research/gaudi2-hw-facts.md, [regs] =
 * shared/research/gaudi-hw-register-notes.md; [model] marks behaviour that is our own choice
 * where public sources say nothing (listed in doc/guides/gaudi_hw_model.rst).
 *
 * Locking (per port, always taken in this order, never the reverse):
 *   ctrl_lock (device)  ->  tx.lock  ->  rx.lock  ->  eq.lock
 *   tx.fifo_lock only guards doorbell pushes and is never held while taking another lock.
 * tx.lock owns the TX engine of a port (doorbell FIFO consumer, WQ state, TX counters, tx
 * pcap); rx.lock owns its RX path (CQ PI/CI, arm, RX counters, rx pcap); eq.lock its EQ. A TX
 * batch holds its own tx.lock and at most one receiver's rx.lock, so two forwarding cores
 * sending to each other never deadlock.
 */
#include "gaudi_emu.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <span>
#include <thread>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <rte_byteorder.h>

#include <rte_alarm.h> /* [faults] link flaps */
#include <rte_cycles.h>
#include <rte_memzone.h>
#include <rte_pause.h>
#include <rte_spinlock.h>

#include "../base/gaudi_desc.h"
#include "../base/gaudi_mac_stats.h"
#include "../base/gaudi_qpc.h"
#include "../base/gaudi_regs.h"
#include "gaudi_emu_iommu.h"
#include "gaudi_emu_pcap.h"
#include "gaudi_emu_tap.h" /* [wires tap/udp] */
#include "gaudi_emu_udp.h"

namespace gaudi::emu {

using namespace gaudi::hw;

namespace {

class SpinGuard {
public:
	explicit SpinGuard(rte_spinlock_t &l) : l_(l) { rte_spinlock_lock(&l_); }
	~SpinGuard() { rte_spinlock_unlock(&l_); }
	SpinGuard(const SpinGuard &) = delete;
	SpinGuard &operator=(const SpinGuard &) = delete;

private:
	rte_spinlock_t &l_;
};

/* Counters have one writer (under the owning lock) and lock-free readers (register reads). */
inline void bump(uint64_t &c, uint64_t n = 1)
{
	std::atomic_ref<uint64_t> a(c);
	a.store(a.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}
/* A counter that two engines may write (the PAUSE counters: a port's own frames and the
 * flow control of its peer's engine, which holds other locks). */
inline void bump_shared(uint64_t &c, uint64_t n = 1)
{
	std::atomic_ref<uint64_t>(c).fetch_add(n, std::memory_order_relaxed);
}
inline uint64_t peek64(const uint64_t &c)
{
	return std::atomic_ref<const uint64_t>(c).load(std::memory_order_relaxed);
}
/* Device writes that publish descriptors: body first, then this release store. */
inline void store_release(uint32_t *p, uint32_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

constexpr uint32_t kBlockSize = 0x1000; /* every per-port/per-macro block spans 4 KB [regs] */
constexpr uint32_t kSecuredDbFifoId = 30; /* DB FIFO 30 = secured [regs gaudi2_cn.h] */
constexpr uint32_t kRxDmaFaultSyndrome = 0x01; /* class 0 (rx packet) [model] */
constexpr uint64_t kEtherBroadcast = 0xFFFFFFFFFFFFull;

template <size_t N>
inline void apply_gateway(std::array<uint32_t, N> &img, const uint32_t *data, const uint32_t *mask)
{
	for (size_t i = 0; i < N; i++)
		img[i] = (img[i] & ~mask[i]) | (data[i] & mask[i]);
}

template <uint32_t N>
inline uint32_t field(const std::array<uint32_t, N> &img, qpc::Field f)
{
	qpc::Image<N> i;
	i.data = img;
	return i.get(f);
}

/* RMON size buckets on the frame length with FCS. */
template <typename E>
inline void count_size_bucket(uint64_t *c, uint32_t fl, E b64)
{
	uint32_t b = static_cast<uint32_t>(b64);
	if (fl < 64)
		return;
	if (fl == 64)
		bump(c[b]);
	else if (fl <= 127)
		bump(c[b + 1]);
	else if (fl <= 255)
		bump(c[b + 2]);
	else if (fl <= 511)
		bump(c[b + 3]);
	else if (fl <= 1023)
		bump(c[b + 4]);
	else if (fl <= 1518)
		bump(c[b + 5]);
	else
		bump(c[b + 6]);
}

inline uint64_t mac48(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 6; i++)
		v |= uint64_t(p[i]) << (8 * i); /* byte 0 in bits 7:0, as MAC_ADDR/RXB regs hold it */
	return v;
}

enum class Block { none, qpc, rxe, txe, rxb, mac_core, mac_stat, mac_ch };

struct RegAddr {
	Block block = Block::none;
	unsigned port = 0; /* per-macro blocks: the even port of the macro */
	unsigned lane = 0; /* mac_ch: lane of the port */
	uint32_t r = 0;    /* offset inside the block */
};

RegAddr decode(uint32_t off)
{
	unsigned macro = off / kMacroStride, even = macro * kPortsPerMacro;
	uint32_t o = off % kMacroStride;
	auto in = [o](uint32_t base) { return o >= base && o < base + kBlockSize; };
	for (unsigned s = 0; s < kPortsPerMacro; s++) {
		if (in(reg::qpc(s)))
			return {Block::qpc, even + s, 0, o - reg::qpc(s)};
		if (in(reg::rxe(s)))
			return {Block::rxe, even + s, 0, o - reg::rxe(s)};
		if (in(reg::txe(s)))
			return {Block::txe, even + s, 0, o - reg::txe(s)};
		for (unsigned l = 0; l < kLanesPerPort; l++)
			if (in(reg::mac_ch(s, l)))
				return {Block::mac_ch, even + s, l, o - reg::mac_ch(s, l)};
	}
	if (in(reg::rxb(0)))
		return {Block::rxb, even, 0, o - reg::rxb(0)};
	if (in(reg::mac_core(0)))
		return {Block::mac_core, even, 0, o - reg::mac_core(0)};
	if (in(reg::mac_stat(0)))
		return {Block::mac_stat, even, 0, o - reg::mac_stat(0)};
	return {};
}

struct Doorbell {
	uint32_t first;  /* WQ PI */
	uint32_t second; /* QPN | port << 24 */
};

/* [multi-process] What the model shares with secondary processes: the register region and
 * the MAC counters (the rest of its state, rings and engines, stays in the primary). One
 * memzone per model (Config::shm_name), or process heap without a name. */
struct SharedNic {
	static constexpr uint64_t kMagic = 0x474155444932454dull; /* "GAUDI2EM" */
	uint64_t magic;   /* written last: the model is ready */
	uint32_t nports;
	uint32_t size;    /* sizeof(SharedNic): layout check between builds */
	alignas(64) uint64_t rx_stats[kMaxPorts][size_t(RxStat::count)];
	uint64_t tx_stats[kMaxPorts][size_t(TxStat::count)];
	alignas(4096) uint8_t region[kNicRegionSize];
};

/* The MAC counter a MAC_GLOB_STAT read at off returns, or null; *hi_off = the macro's
 * STAT_CONTROL_REG_DATA_HI, where the counter's bits 63:32 are latched [regs, facts §4]. */
const uint64_t *stat_counter(const SharedNic &s, uint32_t off, uint32_t *hi_off)
{
	uint32_t o = off % kMacroStride;
	uint32_t stat = reg::mac_stat(0);
	if (o < stat || o >= stat + kBlockSize)
		return nullptr;
	unsigned even = off / kMacroStride * kPortsPerMacro;
	uint32_t r = o - stat;
	*hi_off = off - r + reg::STAT_CONTROL_REG_DATA_HI;
	for (unsigned sl = 0; sl < kPortsPerMacro; sl++) {
		unsigned p = even + sl;
		if (p >= s.nports)
			break;
		if (r >= reg::stat_rx(sl) && r < reg::stat_rx(sl) + 4 * uint32_t(RxStat::count))
			return &s.rx_stats[p][(r - reg::stat_rx(sl)) / 4];
		if (r >= reg::stat_tx(sl) && r < reg::stat_tx(sl) + 4 * uint32_t(TxStat::count))
			return &s.tx_stats[p][(r - reg::stat_tx(sl)) / 4];
	}
	return nullptr;
}

} // namespace

/* ---------------------------------------------------------------------------------------- */

struct Device::Impl {
	struct alignas(64) TxState {
		rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER;
		/* Requester QPC of QPN 0 and what the engine derives from it. */
		std::array<uint32_t, qpc::kReqDwords> req{};
		bool valid = false;
		bool raw = false;
		uint32_t last_idx = 0;
		uint32_t exec = 0; /* execution index, free-running 22 bits */
		bool error = false;
		IommuCache cache;
		std::unique_ptr<PcapSink> sink;
		std::span<uint64_t> stats; /* TxStat::count counters in SharedNic */
		uint64_t wire_tx = 0;
		/* Flow control: paused = inside a pause episode (the peer's XOFF honoured, mirrored
		 * in TXE_FC_STATUS); hold = the last run_doorbell stopped on it. */
		bool paused = false;
		bool hold = false;
	};
	struct alignas(64) DbFifo {
		rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER; /* producers */
		std::array<Doorbell, kDbFifoEntries> e{};
		std::atomic<uint32_t> pushed{0};
		std::atomic<uint32_t> popped{0}; /* written by the engine under tx.lock only */
	};
	struct alignas(64) RxState {
		rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER;
		std::array<uint32_t, qpc::kResDwords> res{};
		bool valid = false;
		uint32_t pi = 0; /* free-running CQ producer index */
		uint32_t ci = 0; /* free-running CQ consumer index, written by the driver */
		bool overrun = false; /* inside a CQ overrun episode */
		bool armed = false;
		uint32_t arm_index = 0;
		IommuCache cache;
		std::unique_ptr<PcapSource> source;
		std::span<uint64_t> stats; /* RxStat::count counters in SharedNic */
		uint64_t wire_rx = 0;
	};
	struct alignas(64) EqState {
		rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER;
		uint32_t pi = 0;
		IommuCache cache;
	};
	struct PortModel {
		TxState tx;
		DbFifo fifo;
		RxState rx;
		EqState eq;
		bool link = false; /* under ctrl_lock */
		/* QPC interrupts: INTERRUPT_CAUSE updates and the MSI stand-in (eventfds). */
		rte_spinlock_t intr_lock = RTE_SPINLOCK_INITIALIZER;
		std::array<std::atomic<int>, reg::INTR_EQ + 1> irq_fd;
		PortModel()
		{
			for (auto &f : irq_fd)
				f.store(-1, std::memory_order_relaxed);
		}
		std::atomic<uint64_t> qp_errors{0};
		std::atomic<uint32_t> last_syndrome{0};
		/* [wires tap/udp] the port's cable to a TAP or UDP socket: send side under
		 * tx.lock, receive side under rx.lock. */
		std::unique_ptr<NetWire> net;
		FaultState fault; /* [faults] gaudi_emu_fault.h */
	};

	/* What a receiving port's registers say, sampled once per batch under rx.lock. */
	struct RxView {
		uint32_t cmd = 0;
		uint32_t frm_len = 0;
		uint64_t mac = 0, mac_mask = 0;
		bool mcast = false;
		/* Extra exact-match filters ([model] RXB tables), valid entries only. */
		unsigned n_uc = 0, n_mc = 0;
		std::array<uint64_t, reg::kRxbUcFilters> uc{};
		std::array<uint64_t, reg::kRxbMcFilters> mc{};
		bool enabled = false; /* responder QPC valid and CQ enabled */
		uint8_t *slots = nullptr;
		uint32_t slot_log2 = 0, slot_mask = 0;
		Cqe *cq = nullptr;
		uint32_t cq_size = 0;
		uint32_t *pi_shadow = nullptr;
		bool write_pi = false;
		/* Flow control: the MAC sends PAUSE (TXB GLOBAL_PAUSE) when the CQ is full; PFC_MODE
		 * makes it PFC frames on the 4 priorities (global pause [facts §4]). */
		bool pause_gen = false;
	};

	/* A TX batch's hold on one receiving port (its rx.lock and register view). */
	class Delivery {
	public:
		explicit Delivery(Impl &m) : m_(m) {}
		~Delivery() { release(); }
		Delivery(const Delivery &) = delete;
		Delivery &operator=(const Delivery &) = delete;
		void deliver(unsigned q, const uint8_t *data, uint32_t len)
		{
			hold(q);
			m_.rx_frame(q, view_, data, len);
		}
		/* Port q's MAC is sending XOFF: flow control on and its CQ full. */
		bool xoff(unsigned q)
		{
			hold(q);
			const RxState &r = m_.ports_[q].rx;
			return view_.pause_gen && r.pi - r.ci >= view_.cq_size;
		}
		bool pfc() const { return view_.cmd & reg::CMD_PFC_MODE; }

	private:
		void hold(unsigned q)
		{
			if (port_ != int(q)) {
				release();
				rte_spinlock_lock(&m_.ports_[q].rx.lock);
				port_ = int(q);
				view_ = m_.rx_view(q);
			}
		}
		void release()
		{
			if (port_ >= 0)
				rte_spinlock_unlock(&m_.ports_[port_].rx.lock);
			port_ = -1;
		}
		Impl &m_;
		int port_ = -1;
		RxView view_;
	};

	explicit Impl(const Config &c) : cfg_(c) {}
	~Impl();

	bool init(std::string *err);

	/* ---- registers ---- */
	uint32_t rd(uint32_t off) const
	{
		return std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t *>(&region_[off]))
			.load(std::memory_order_relaxed);
	}
	void wr(uint32_t off, uint32_t v)
	{
		std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t *>(&region_[off]))
			.store(v, std::memory_order_relaxed);
	}
	uint64_t rd_addr_31_7(uint32_t hi, uint32_t lo) const
	{
		return (uint64_t(rd(hi)) << 32) | (uint64_t(rd(lo)) << 7);
	}
	static void hook_write(void *ctx, uint32_t off, uint32_t val);
	static uint32_t hook_read(void *ctx, uint32_t off);
	static void hook_service(void *ctx);
	void on_write(uint32_t off, uint32_t val);
	uint32_t on_read(uint32_t off);
	void on_qpc_write(unsigned p, uint32_t r, uint32_t val, uint32_t old);

	/* ---- engines ---- */
	void doorbell(unsigned p, uint32_t first, uint32_t second);
	bool drain_tx(unsigned p);
	void run_doorbell(unsigned p, const Doorbell &db, Delivery &dlv);
	void write_db_ci(unsigned p, uint32_t ci);
	void qp_error(unsigned p, uint32_t qpn, QpErrSyndrome s);
	void set_tx_paused(unsigned p, bool on);
	void count_pause(unsigned from, unsigned to, bool pfc);
	int rx_peer(unsigned q) const;
	RxView rx_view(unsigned q);
	void rx_frame(unsigned q, const RxView &v, const uint8_t *data, uint32_t len);
	bool pump_pcap(unsigned q);
	bool open_net_wires(std::string *err); /* [wires tap/udp] */
	bool pump_net(unsigned q);              /* [wires tap/udp] */
	bool pump_all();
	void run_pending();
	void engine_loop();

	/* ---- control ---- */
	void gateway(unsigned p);
	void cq_write_ci(unsigned p, uint32_t ci);
	void cq_arm(unsigned p, uint32_t index);
	void cq_check_arm(unsigned p);
	void cq_reset(unsigned p);
	void eq_reset(unsigned p);
	void post_eq(unsigned p, EqeType type, uint32_t d1, uint32_t d2);
	bool post_eqe(unsigned p, EqeType type, uint32_t d1, uint32_t d2);
	void raise_irq(unsigned p, uint32_t index);
	void clear_irq(unsigned p, uint32_t bits);
	void update_link(unsigned p);
	void update_link_one(unsigned p);
	bool mac_enabled(unsigned p) const;
	void stats_reset(unsigned p);
	bool cabled(unsigned p) const;
	/* [faults] */
	void start_link_flap(unsigned p, uint32_t ms);
	static void link_flap_cb(void *arg);
	static void link_down_cb(void *arg);
	bool forced_down(unsigned p) const;

	Config cfg_;
	/* Registers and MAC counters: in the memzone cfg_.shm_name (mz_) or on the heap. */
	SharedNic *shm_ = nullptr;
	const rte_memzone *mz_ = nullptr;
	std::unique_ptr<SharedNic> heap_shm_;
	uint8_t *region_ = nullptr; /* shm_->region: the NIC register region, zeroed */
	BarHooks hooks_{};
	Bar bar_;
	Iommu iommu_;
	std::unique_ptr<PortModel[]> ports_;
	rte_spinlock_t ctrl_lock_ = RTE_SPINLOCK_INITIALIZER;
	bool has_rx_pcap_ = false;

	std::thread engine_;
	std::atomic<bool> stop_{false};
	std::atomic<bool> held_{false};
	/* [model] Capture files start playing when the driver first polls an empty RX ring
	 * (Bar::service), so no file frame meets a port that is still being set up (e.g. not
	 * yet promiscuous): a replay delivers the whole file with either engine. */
	std::atomic<bool> rx_polled_{false};
	rte_spinlock_t engine_lock_ = RTE_SPINLOCK_INITIALIZER; /* one engine pass at a time */
};

/* ---------------------------------------------------------------------------------------- */
/* Setup */

bool Device::Impl::init(std::string *err)
{
	if (cfg_.nports == 0 || cfg_.nports > kMaxPorts) {
		*err = "nports must be 1.." + std::to_string(kMaxPorts);
		return false;
	}
	ports_ = std::make_unique<PortModel[]>(cfg_.nports);
	if (cfg_.shm_name.empty()) {
		heap_shm_ = std::make_unique<SharedNic>();
		shm_ = heap_shm_.get();
	} else {
		mz_ = rte_memzone_reserve_aligned(cfg_.shm_name.c_str(), sizeof(SharedNic),
						  SOCKET_ID_ANY, 0, 4096);
		if (mz_ == nullptr) {
			*err = "cannot reserve memzone " + cfg_.shm_name + " (" +
			       std::to_string(sizeof(SharedNic) >> 20) + " MB) for the registers";
			return false;
		}
		shm_ = static_cast<SharedNic *>(mz_->addr);
		std::memset(static_cast<void *>(shm_), 0, sizeof(SharedNic));
	}
	shm_->nports = cfg_.nports;
	shm_->size = sizeof(SharedNic);
	region_ = shm_->region;
	for (unsigned p = 0; p < cfg_.nports; p++) {
		ports_[p].rx.stats = shm_->rx_stats[p];
		ports_[p].tx.stats = shm_->tx_stats[p];
	}
	for (unsigned p = 0; p < kMaxPorts; p++) {
		bool any = !cfg_.rx_pcap[p].empty() || !cfg_.tx_pcap[p].empty();
		if (any && cfg_.wire != Wire::pcap) {
			*err = "pcap file given for port " + std::to_string(p) + " but the wire is not pcap";
			return false;
		}
		if (any && p >= cfg_.nports) {
			*err = "pcap file given for port " + std::to_string(p) + " beyond nports";
			return false;
		}
	}
	if (!iommu_.init(err))
		return false;
	for (unsigned p = 0; p < cfg_.nports; p++) {
		if (!cfg_.rx_pcap[p].empty()) {
			ports_[p].rx.source = PcapSource::open(cfg_.rx_pcap[p], err);
			if (!ports_[p].rx.source) {
				*err = "devarg rx_pcap=" + std::to_string(p) + ":" + *err;
				return false;
			}
			has_rx_pcap_ = true;
		}
		if (!cfg_.tx_pcap[p].empty()) {
			ports_[p].tx.sink = PcapSink::open(cfg_.tx_pcap[p], err);
			if (!ports_[p].tx.sink) {
				*err = "devarg tx_pcap=" + std::to_string(p) + ":" + *err;
				return false;
			}
		}
	}
	/* [wires tap/udp] Their input is pumped like rx pcap files (has_rx_pcap_ = the model
	 * has paced wire input). */
	if (!open_net_wires(err))
		return false;
	for (unsigned p = 0; p < cfg_.nports; p++)
		wr(reg::qpc(p) + reg::QPC_FW_VERSION, Device::kFwVersion);
	for (unsigned p = 0; p < cfg_.nports; p++) { /* [faults] */
		ports_[p].fault.owner = this;
		ports_[p].fault.port = p;
		fault_random_init(ports_[p].fault, cfg_.fault_random, p);
	}
	for (const FaultSpec &f : cfg_.faults) {
		uint32_t ms = 0;
		if (f.port >= cfg_.nports || !fault_arm(ports_[f.port].fault, f, &ms)) {
			*err = std::string("fault ") + fault_kind_name(f.kind) + ":" +
			       std::to_string(f.port) + ": bad port or too many delayed faults";
			return false;
		}
		if (ms != 0)
			start_link_flap(f.port, ms);
	}
	hooks_ = {this, &Impl::hook_write, &Impl::hook_read, &Impl::hook_service};
	bar_ = Bar(region_, kNicRegionSize, &hooks_);
	__atomic_store_n(&shm_->magic, SharedNic::kMagic, __ATOMIC_RELEASE);
	if (cfg_.engine == Engine::thread) {
		engine_ = std::thread([this] { engine_loop(); });
		/* A thread inherits the creator's affinity, and EAL pins its lcores to one CPU
		 * each: unpinned, the engine would share the driver's CPU and starve it. [model]
		 * Let it run on any online CPU, like a device that works next to the host. */
		cpu_set_t all;
		CPU_ZERO(&all);
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		for (long i = 0; i < ncpu && i < CPU_SETSIZE; i++)
			CPU_SET(i, &all);
		pthread_setaffinity_np(engine_.native_handle(), sizeof(all), &all);
		pthread_setname_np(engine_.native_handle(), "gaudi-emu");
	}
	return true;
}

Device::Impl::~Impl()
{
	for (unsigned p = 0; ports_ && p < cfg_.nports; p++) { /* [faults] pending link flaps */
		rte_eal_alarm_cancel(link_flap_cb, &ports_[p].fault);
		rte_eal_alarm_cancel(link_down_cb, &ports_[p].fault);
	}
	if (engine_.joinable()) {
		stop_.store(true);
		engine_.join();
	}
	if (mz_ != nullptr) {
		__atomic_store_n(&shm_->magic, 0, __ATOMIC_RELEASE);
		rte_memzone_free(mz_);
	}
	/* PcapSink destructors flush and close the tx files. */
}

/* ---------------------------------------------------------------------------------------- */
/* Register access */

void Device::Impl::hook_write(void *ctx, uint32_t off, uint32_t val)
{
	static_cast<Impl *>(ctx)->on_write(off, val);
}
uint32_t Device::Impl::hook_read(void *ctx, uint32_t off) { return static_cast<Impl *>(ctx)->on_read(off); }
void Device::Impl::hook_service(void *ctx)
{
	auto *m = static_cast<Impl *>(ctx);
	if (!m->rx_polled_.load(std::memory_order_relaxed)) /* no shared-line write per poll */
		m->rx_polled_.store(true, std::memory_order_relaxed);
	if (m->cfg_.engine == Engine::inline_run)
		m->run_pending();
}

void Device::Impl::on_write(uint32_t off, uint32_t val)
{
	if (off > kNicRegionSize - 4 || (off & 3) != 0)
		return; /* outside the region: the bus drops it */
	uint32_t old = rd(off);
	wr(off, val);
	RegAddr a = decode(off);
	if (a.block == Block::none || a.port >= cfg_.nports)
		return;
	unsigned p = a.port;
	switch (a.block) {
	case Block::qpc:
		on_qpc_write(p, a.r, val, old);
		break;
	case Block::rxe:
		if (a.r == reg::RXE_CQ_CFG_0 && !(old & reg::CQ_CFG_ENABLE) &&
		    (val & reg::CQ_CFG_ENABLE))
			cq_reset(p);
		else if (a.r == reg::RXE_CQ_PRODUCER_INDEX_0 || a.r == reg::RXE_CQ_CONSUMER_INDEX_0)
			wr(off, old); /* read-only mirrors */
		break;
	case Block::mac_ch:
		if (a.r == reg::PCS_STATUS1) {
			wr(off, old); /* read-only status */
		} else if (a.r == reg::PCS_CONTROL1) {
			wr(off, val & ~reg::PCS_CONTROL1_RESET); /* reset self-clears (clause 45) */
			if (a.lane == 0)
				update_link(p);
		} else if (a.r == reg::MAC_COMMAND_CONFIG && a.lane == 0) {
			update_link(p);
		}
		break;
	case Block::txe:
		if (a.r == reg::TXE_FC_STATUS)
			wr(off, old); /* read-only status */
		break;
	case Block::mac_core:
		if (a.r == reg::MAC_CORE_REC_STS0)
			wr(off, old); /* read-only status */
		else if (a.r == reg::MAC_CORE_FEC91_CFG)
			for (unsigned s = 0; s < kPortsPerMacro; s++)
				if (p + s < cfg_.nports)
					update_link(p + s);
		break;
	case Block::mac_stat:
		if (a.r == reg::STAT_STATN_CONFIG)
			for (unsigned s = 0; s < kPortsPerMacro; s++)
				if ((val & reg::statn_f_reset(s)) && p + s < cfg_.nports)
					stats_reset(p + s);
		break;
	default:
		break; /* TXE, RXB and the rest are read when used */
	}
}

void Device::Impl::on_qpc_write(unsigned p, uint32_t r, uint32_t val, uint32_t old)
{
	uint32_t q = reg::qpc(p);
	switch (r) {
	case reg::QPC_SECURED_DB_SECOND32: /* the second dword pushes the doorbell [facts §2] */
		doorbell(p, rd(q + reg::QPC_SECURED_DB_FIRST32), val);
		break;
	case reg::QPC_SECURED_CQ_CONSUMER_INDEX:
		if (rd(q + reg::QPC_SECURED_CQ_NUMBER) == kRawCq)
			cq_write_ci(p, val);
		break;
	case reg::QPC_ARM_CQ_INDEX:
		if (rd(q + reg::QPC_ARM_CQ_NUM) == kRawCq)
			cq_arm(p, val);
		break;
	case reg::QPC_GW_BUSY:
		if (val & 1)
			gateway(p);
		break;
	case reg::QPC_FW_VERSION:
	case reg::QPC_INTERRUPT_CAUSE:
		wr(q + r, old); /* read-only */
		break;
	case reg::QPC_INTERRUPT_CLR:
		clear_irq(p, val);
		break;
	case reg::QPC_EVENT_QUE_CFG:
		if (!(old & reg::EVENT_QUE_CFG_ENABLE) && (val & reg::EVENT_QUE_CFG_ENABLE))
			eq_reset(p);
		break;
	case reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_31_7:
		/* [model] Writing the CI address makes the device write the current CI there, so a
		 * driver restarting on a used FIFO learns where the free-running CI stands (software
		 * cannot reset it [facts §2]). */
		write_db_ci(p, ports_[p].fifo.popped.load(std::memory_order_acquire));
		break;
	default:
		break;
	}
}

uint32_t Device::Impl::on_read(uint32_t off)
{
	if (off > kNicRegionSize - 4 || (off & 3) != 0)
		return 0;
	uint32_t hi_off = 0;
	if (const uint64_t *c = stat_counter(*shm_, off, &hi_off)) {
		/* MAC_GLOB_STAT: LO word now, bits 63:32 latched into DATA_HI [regs, facts §4]. */
		uint64_t v = peek64(*c);
		wr(hi_off, uint32_t(v >> 32));
		return uint32_t(v);
	}
	return rd(off);
}

/* ---------------------------------------------------------------------------------------- */
/* QPC gateway [facts §2]: GW_MASK/GW_DATA + GW_CTRL, then GW_BUSY = 1; the model completes the
 * write at once and clears BUSY. Only the raw QP (QPN 0) exists in the model. */

void Device::Impl::gateway(unsigned p)
{
	uint32_t q = reg::qpc(p), ctrl = rd(q + reg::QPC_GW_CTRL);
	uint32_t data[32], mask[32];
	for (uint32_t i = 0; i < 32; i++) {
		data[i] = rd(q + reg::QPC_GW_DATA_0 + 4 * i);
		mask[i] = rd(q + reg::QPC_GW_MASK_0 + 4 * i);
	}
	if ((ctrl & reg::GW_CTRL_QPN_MASK) == kRawQpn && (ctrl & reg::GW_CTRL_READ)) {
		/* [faults] Read back: the image with the engine's execution index and error bit. */
		PortModel &pm = ports_[p];
		if (ctrl & reg::GW_CTRL_REQUESTER) {
			SpinGuard g(pm.tx.lock);
			qpc::Image<qpc::kReqDwords> img;
			img.data = pm.tx.req;
			img.set(qpc::REQ_EXECUTION_IDX, pm.tx.exec);
			img.set(qpc::REQ_ERROR, pm.tx.error ? 1 : 0);
			for (uint32_t i = 0; i < qpc::kReqDwords; i++)
				wr(q + reg::QPC_GW_DATA_0 + 4 * i, img.data[i] & mask[i]);
		} else {
			SpinGuard g(pm.rx.lock);
			for (uint32_t i = 0; i < qpc::kResDwords; i++)
				wr(q + reg::QPC_GW_DATA_0 + 4 * i, pm.rx.res[i] & mask[i]);
		}
	} else if ((ctrl & reg::GW_CTRL_QPN_MASK) == kRawQpn) {
		PortModel &pm = ports_[p];
		if (ctrl & reg::GW_CTRL_REQUESTER) {
			SpinGuard g(pm.tx.lock);
			TxState &t = pm.tx;
			apply_gateway(t.req, data, mask);
			if (pm.fault.stuck.load(std::memory_order_relaxed)) {
				/* [faults][model] A requester QPC write releases a stuck engine; the
				 * doorbells it left in the FIFO are discarded (consumed, no effect). */
				SpinGuard gf(pm.fault.lock);
				pm.fault.stuck.store(false, std::memory_order_relaxed);
				pm.fault.rearm();
				uint32_t n = pm.fifo.pushed.load(std::memory_order_acquire);
				pm.fifo.popped.store(n, std::memory_order_release);
				write_db_ci(p, n);
			}
			t.valid = field<qpc::kReqDwords>(t.req, qpc::REQ_VALID) != 0;
			if (t.paused && !t.valid) {
				/* [model] A QP invalidated while paused by flow control: the doorbells
				 * waiting for XON are discarded (consumed, no effect), like a stop. */
				uint32_t n = pm.fifo.pushed.load(std::memory_order_acquire);
				pm.fifo.popped.store(n, std::memory_order_release);
				write_db_ci(p, n);
				set_tx_paused(p, false);
			}
			t.raw = field<qpc::kReqDwords>(t.req, qpc::REQ_TS) == qpc::TS_RAW;
			t.last_idx = field<qpc::kReqDwords>(t.req, qpc::REQ_LAST_IDX);
			/* MTU is stored but not enforced: the MAC FRM_LENGTH bounds the WQE size. */
			if (t.valid) {
				/* A valid requester image (re)starts the QP: execution index from the
				 * image, error state cleared. */
				t.exec = field<qpc::kReqDwords>(t.req, qpc::REQ_EXECUTION_IDX) & WQ_IDX_MASK;
				t.error = false;
				uint32_t b = qpc::REQ_ERROR.bit;
				t.req[b / 32] &= ~(1u << (b % 32));
			}
		} else {
			SpinGuard g(pm.rx.lock);
			apply_gateway(pm.rx.res, data, mask);
			pm.rx.valid = field<qpc::kResDwords>(pm.rx.res, qpc::RES_VALID) != 0;
		}
	}
	wr(q + reg::QPC_GW_BUSY, 0);
}

/* ---------------------------------------------------------------------------------------- */
/* TX: doorbell FIFO and WQE execution [facts §2, regs gaudi2_en.c] */

void Device::Impl::doorbell(unsigned p, uint32_t first, uint32_t second)
{
	DbFifo &f = ports_[p].fifo;
	bool overrun = false;
	{
		SpinGuard g(f.lock);
		uint32_t n = f.pushed.load(std::memory_order_relaxed);
		if (n - f.popped.load(std::memory_order_acquire) >= kDbFifoEntries ||
		    (ports_[p].fault.armed.load(std::memory_order_relaxed) && /* [faults] */
		     fault_take_db_drop(ports_[p].fault))) {
			overrun = true;
			uint32_t c = reg::qpc(p) + reg::QPC_DB_FIFO_OVERRUN_CNT;
			wr(c, rd(c) + 1);
		} else {
			f.e[n % kDbFifoEntries] = {first, second};
			f.pushed.store(n + 1, std::memory_order_release);
		}
	}
	if (overrun)
		post_eq(p, EqeType::db_fifo_overrun, kSecuredDbFifoId, 0);
	else if (cfg_.engine == Engine::inline_run && !held_.load(std::memory_order_relaxed))
		drain_tx(p);
}

void Device::Impl::write_db_ci(unsigned p, uint32_t ci)
{
	uint32_t q = reg::qpc(p);
	uint64_t a = rd_addr_31_7(q + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_63_32,
				  q + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_31_7);
	IommuCache c; /* slow path only when the address is not where the last one was */
	auto *dst = reinterpret_cast<uint32_t *>(iommu_.translate(a, sizeof(uint32_t), c));
	if (dst != nullptr)
		store_release(dst, ci); /* [model] an unmapped CI address just loses the update */
}

bool Device::Impl::drain_tx(unsigned p)
{
	PortModel &pm = ports_[p];
	if (pm.fifo.popped.load(std::memory_order_relaxed) ==
	    pm.fifo.pushed.load(std::memory_order_acquire))
		return false;
	if (pm.fault.stuck.load(std::memory_order_relaxed)) /* [faults] engine takes nothing */
		return false;
	SpinGuard g(pm.tx.lock);
	Delivery dlv(*this);
	uint32_t q = reg::qpc(p);
	uint64_t ci_addr = rd_addr_31_7(q + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_63_32,
					q + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_31_7);
	auto *ci_ptr = reinterpret_cast<uint32_t *>(iommu_.translate(ci_addr, 4, pm.tx.cache));
	uint32_t popped0 = pm.fifo.popped.load(std::memory_order_relaxed), exec0 = pm.tx.exec;
	pm.tx.hold = false;
	for (;;) {
		uint32_t n = pm.fifo.popped.load(std::memory_order_relaxed);
		if (n == pm.fifo.pushed.load(std::memory_order_acquire))
			break;
		Doorbell db = pm.fifo.e[n % kDbFifoEntries];
		run_doorbell(p, db, dlv);
		if (pm.tx.hold) /* paused by the peer: the doorbell stays, retried later */
			break;
		if (pm.net) /* [wires tap/udp] a doorbell's frames leave before the next one */
			pm.net->flush();
		/* [model] The entry is retired, and the consumed count (free-running) DMA-written,
		 * once its WQEs have been executed: a CI the driver sees covers finished work. */
		pm.fifo.popped.store(n + 1, std::memory_order_release);
		if (ci_ptr != nullptr)
			store_release(ci_ptr, n + 1);
	}
	if (!pm.tx.hold) {
		if (unlikely(pm.tx.paused)) /* e.g. the held doorbell ended in a QP error */
			set_tx_paused(p, false);
		return true;
	}
	/* Paused: work only if something moved (the thread engine backs off otherwise). */
	return pm.tx.exec != exec0 || pm.fifo.popped.load(std::memory_order_relaxed) != popped0;
}

void Device::Impl::set_tx_paused(unsigned p, bool on)
{
	ports_[p].tx.paused = on;
	wr(reg::txe(p) + reg::TXE_FC_STATUS, on ? reg::TXE_FC_STATUS_PAUSED : 0);
}

/* One XOFF from port from's MAC to port to's: a PAUSE frame, or in PFC mode a PFC frame with
 * the 4 priorities' classes set (Gaudi2 pauses them together [facts §4]). Counted on both
 * sides; the frame itself is not put in the CQ or capture. */
void Device::Impl::count_pause(unsigned from, unsigned to, bool pfc)
{
	uint64_t *tx = ports_[from].tx.stats.data(), *rx = ports_[to].rx.stats.data();
	if (!pfc) {
		bump_shared(tx[size_t(TxStat::pause_mac_ctrl_frames_transmitted)]);
		bump_shared(rx[size_t(RxStat::pause_mac_ctrl_frames_received)]);
		return;
	}
	for (unsigned c = 0; c < 4; c++) {
		bump_shared(tx[size_t(TxStat::cbfc_pause_frames_transmitted_0) + c]);
		bump_shared(rx[size_t(RxStat::cbfc_pause_frames_received_0) + c]);
	}
}

/* The model port whose frames arrive at port q: itself in loopback (wire or PCS), its peer on
 * a pair cable; -1 on the other wires (pcap, tap, udp: no model port sends). */
int Device::Impl::rx_peer(unsigned q) const
{
	if (cfg_.wire == Wire::loopback ||
	    (rd(reg::mac_ch(q, 0) + reg::PCS_CONTROL1) & reg::PCS_CONTROL1_LOOPBACK))
		return int(q);
	return cfg_.wire == Wire::pair && (q ^ 1) < cfg_.nports ? int(q ^ 1) : -1;
}

void Device::Impl::qp_error(unsigned p, uint32_t qpn, QpErrSyndrome s)
{
	TxState &t = ports_[p].tx;
	t.error = true;
	uint32_t b = qpc::REQ_ERROR.bit;
	t.req[b / 32] |= 1u << (b % 32);
	ports_[p].qp_errors.fetch_add(1, std::memory_order_relaxed);
	ports_[p].last_syndrome.store(uint32_t(s), std::memory_order_relaxed);
	post_eq(p, EqeType::qp_err, qpn | EQE_QP_ERR_REQUESTER, uint32_t(s));
}

/* Runs one doorbell under tx.lock: WQEs exec..pi-1 of the raw QP. */
void Device::Impl::run_doorbell(unsigned p, const Doorbell &db, Delivery &dlv)
{
	TxState &t = ports_[p].tx;
	uint32_t qpn = db.second & 0xFFFFFF;
	if (t.error)
		return; /* a QP in error consumes doorbells and does nothing else */
	if (qpn != kRawQpn || !t.valid || !t.raw)
		return qp_error(p, qpn, QpErrSyndrome::req_db_qp_not_valid);
	FaultState &fs = ports_[p].fault; /* [faults] */
	if (fs.armed.load(std::memory_order_relaxed))
		if (uint32_t syn = fault_take_db_syndrome(fs))
			return qp_error(p, qpn, QpErrSyndrome(syn));
	uint32_t pi = db.first & WQ_IDX_MASK;
	uint32_t n = (pi - t.exec) & WQ_IDX_MASK;
	if (n > t.last_idx + 1)
		return qp_error(p, qpn, QpErrSyndrome::pi_exceeds_last_index);
	if (n == 0)
		return;

	uint32_t txe = reg::txe(p);
	uint32_t log2 = std::min<uint32_t>(rd(txe + reg::TXE_LOG_MAX_WQ_SIZE_0) + 2, 20);
	uint32_t entries = 1u << log2;
	uint64_t wq_iova = (uint64_t(rd(txe + reg::TXE_SQ_BASE_ADDRESS_63_32_0)) << 32) |
			   rd(txe + reg::TXE_SQ_BASE_ADDRESS_31_0_0);
	const uint8_t *wq = iommu_.translate(wq_iova, uint64_t(entries) * sizeof(TxWqe), t.cache);
	if (wq == nullptr)
		return qp_error(p, qpn, QpErrSyndrome::wqe_dma_fault);

	uint32_t ch = reg::mac_ch(p, 0);
	uint32_t cmd = rd(ch + reg::MAC_COMMAND_CONFIG);
	uint32_t frm_len = rd(ch + reg::MAC_FRM_LENGTH);
	uint32_t max_size = std::min(frm_len >= kFcsLen ? frm_len - kFcsLen : 0, kMaxFrameLen);
	/* Where the MAC's frames go: PCS loopback wins over the cable [facts §4]. */
	enum class Dest { self, peer, sink, net, none } dest;
	bool pcs_loop = rd(ch + reg::PCS_CONTROL1) & reg::PCS_CONTROL1_LOOPBACK;
	if (pcs_loop || cfg_.wire == Wire::loopback)
		dest = Dest::self;
	else if (cfg_.wire == Wire::pair)
		dest = (p ^ 1) < cfg_.nports ? Dest::peer : Dest::none;
	else
		dest = t.sink ? Dest::sink : ports_[p].net ? Dest::net : Dest::none; /* [wires tap/udp] */
	uint64_t *st = t.stats.data();
	/* Flow control on the cable [facts §4, model]: when the receiving MAC sends XOFF (its
	 * CQ is full and it may send PAUSE/PFC), a MAC that honours PAUSE (PAUSE_IGNORE clear)
	 * stops before this WQE; it stays pending until the CQ has room (XON). */
	bool honour = !(cmd & reg::CMD_PAUSE_IGNORE) && (cmd & reg::CMD_TX_ENA) &&
		      (dest == Dest::self || dest == Dest::peer);
	unsigned rq = dest == Dest::self ? p : (p ^ 1);

	for (; n != 0; n--) {
		if (honour) {
			if (dlv.xoff(rq)) {
				if (!t.paused) { /* one PAUSE per episode, not per retry */
					count_pause(rq, p, dlv.pfc());
					set_tx_paused(p, true);
				}
				t.hold = true;
				return;
			}
			if (unlikely(t.paused))
				set_tx_paused(p, false); /* XON: the episode is over */
		}
		bool link_down = false;
		if (fs.armed.load(std::memory_order_relaxed)) { /* [faults] per frame */
			FaultStep fst = fault_on_tx_frame(fs);
			if (fst.link_flap_ms != 0)
				start_link_flap(p, fst.link_flap_ms);
			if (fst.wqe_syndrome == uint32_t(QpErrSyndrome::wqe_dma_fault))
				return qp_error(p, qpn, QpErrSyndrome::wqe_dma_fault);
			if (fst.wqe_syndrome != 0)
				return qp_error(p, qpn, QpErrSyndrome(fst.wqe_syndrome));
			link_down = forced_down(p);
		}
		TxWqe w;
		std::memcpy(&w, wq + size_t(t.exec & (entries - 1)) * sizeof(TxWqe), sizeof(w));
		if (wqe_index(w.ctrl) != (t.exec & WQE_INDEX_MASK))
			return qp_error(p, qpn, QpErrSyndrome::wqe_index_mismatch);
		if (wqe_opcode(w.ctrl) != WqeOpcode::linear)
			return qp_error(p, qpn, QpErrSyndrome::raw_wqe_opcode_unsupported);
		if (w.size == 0 || w.size > max_size)
			return qp_error(p, qpn, QpErrSyndrome::raw_wqe_size_unsupported);
		const uint8_t *data = iommu_.translate(w.local_addr, w.size, t.cache);
		if (data == nullptr)
			return qp_error(p, qpn, QpErrSyndrome::wqe_dma_fault);

		if (!(cmd & reg::CMD_TX_ENA) || link_down) { /* [faults] a flapped link drops too */
			bump(st[size_t(TxStat::if_out_errors)]); /* consumed and dropped */
		} else {
			/* No padding: short frames leave as they are (H6-3399) [facts §2]. */
			uint32_t fl = w.size + kFcsLen;
			bump(st[size_t(TxStat::ether_stats_octets)], fl);
			bump(st[size_t(TxStat::octets_transmitted_ok)], w.size); /* [model] no FCS */
			bump(st[size_t(TxStat::frames_transmitted_ok)]);
			bump(st[size_t(TxStat::ether_stats_pkts)]);
			uint64_t dst = w.size >= 6 ? mac48(data) : 0;
			if (dst == kEtherBroadcast)
				bump(st[size_t(TxStat::if_out_broadcast_pkts)]);
			else if (dst & 1)
				bump(st[size_t(TxStat::if_out_multicast_pkts)]);
			else
				bump(st[size_t(TxStat::if_out_ucast_pkts)]);
			if (w.size >= 14 && data[12] == 0x81 && data[13] == 0x00)
				bump(st[size_t(TxStat::vlan_transmitted_ok)]);
			if (w.size >= 18 && data[12] == 0x88 && data[13] == 0x08) {
				/* MAC control frames software sends: PAUSE / PFC counted [facts §4]. */
				if (data[14] == 0x00 && data[15] == 0x01)
					bump_shared(st[size_t(TxStat::pause_mac_ctrl_frames_transmitted)]);
				else if (data[14] == 0x01 && data[15] == 0x01)
					for (unsigned c = 0; c < 8; c++)
						if (data[17] & (1u << c))
							bump_shared(st[size_t(TxStat::cbfc_pause_frames_transmitted_0) + c]);
			}
			count_size_bucket(st, fl, TxStat::ether_stats_pkts_64);
			if (!pcs_loop)
				bump(t.wire_tx);
			switch (dest) {
			case Dest::self:
				dlv.deliver(p, data, w.size);
				break;
			case Dest::peer:
				dlv.deliver(p ^ 1, data, w.size);
				break;
			case Dest::sink:
				t.sink->write(data, w.size);
				break;
			case Dest::net: /* [wires tap/udp] */
				ports_[p].net->send(data, w.size);
				break;
			case Dest::none:
				break;
			}
		}
		uint32_t idx = t.exec;
		t.exec = (t.exec + 1) & WQ_IDX_MASK;
		if (w.ctrl & WQE_SE) {
			if (ports_[p].net) /* [wires tap/udp] sent before the driver may free them */
				ports_[p].net->flush();
			post_eq(p, EqeType::raw_tx_comp, qpn, idx);
		}
	}
}

/* ---------------------------------------------------------------------------------------- */
/* RX: MAC checks, filter, counters, raw slot ring + CQ [facts §2, §4] */

Device::Impl::RxView Device::Impl::rx_view(unsigned q)
{
	RxState &r = ports_[q].rx;
	RxView v;
	uint32_t ch = reg::mac_ch(q, 0), rxb = reg::rxb(q), rxe = reg::rxe(q);
	v.cmd = rd(ch + reg::MAC_COMMAND_CONFIG);
	v.frm_len = rd(ch + reg::MAC_FRM_LENGTH);
	v.mac = rd(rxb + reg::rxb_raw_mac_31_0(q)) |
		(uint64_t(rd(rxb + reg::rxb_raw_mac_47_32(q)) & 0xFFFF) << 32);
	v.mac_mask = rd(rxb + reg::rxb_raw_mac_mask_31_0(q)) |
		     (uint64_t(rd(rxb + reg::rxb_raw_mac_mask_47_32(q)) & 0xFFFF) << 32);
	v.mcast = rd(rxb + reg::rxb_raw_mcast_accept(q)) & 1;
	uint32_t uc_valid = rd(rxb + reg::rxb_uc_valid(q)), mc_valid = rd(rxb + reg::rxb_mc_valid(q));
	for (unsigned i = 0; uc_valid != 0 && i < reg::kRxbUcFilters; i++)
		if (uc_valid & (1u << i))
			v.uc[v.n_uc++] = rd(rxb + reg::rxb_uc_mac_31_0(q, i)) |
					 (uint64_t(rd(rxb + reg::rxb_uc_mac_47_32(q, i)) & 0xFFFF) << 32);
	for (unsigned i = 0; mc_valid != 0 && i < reg::kRxbMcFilters; i++)
		if (mc_valid & (1u << i))
			v.mc[v.n_mc++] = rd(rxb + reg::rxb_mc_mac_31_0(q, i)) |
					 (uint64_t(rd(rxb + reg::rxb_mc_mac_47_32(q, i)) & 0xFFFF) << 32);
	uint32_t cq_cfg = rd(rxe + reg::RXE_CQ_CFG_0);
	v.enabled = r.valid && (cq_cfg & reg::CQ_CFG_ENABLE);
	if (!v.enabled)
		return v;
	v.pause_gen = (v.cmd & reg::CMD_RX_ENA) &&
		      (rd(reg::txb(q) + reg::TXB_GLOBAL_PAUSE) & (1u << (q & 1)));
	/* Rings are translated whole, once per batch: a ring not inside mapped memory is a DMA
	 * fault for every frame that would use it. */
	uint32_t misc = rd(rxe + reg::RXE_RAW_MISC_P0);
	v.slot_log2 = misc & reg::RAW_MISC_LOG_ELEM_MASK;
	uint32_t count_log2 = (misc >> reg::RAW_MISC_LOG_COUNT_SHIFT) & reg::RAW_MISC_LOG_COUNT_MASK;
	v.slot_mask = (1u << std::min<uint32_t>(count_log2, 24)) - 1;
	uint64_t slots = rd(rxe + reg::RXE_RAW_BASE_LO_P0) |
			 (uint64_t(rd(rxe + reg::RXE_RAW_BASE_HI_P0)) << 32);
	v.slots = iommu_.translate(slots, (uint64_t(v.slot_mask) + 1) << v.slot_log2, r.cache);
	v.cq_size = 1u << std::min<uint32_t>(rd(rxe + reg::RXE_CQ_LOG_SIZE_0), 24);
	uint64_t cq = rd_addr_31_7(rxe + reg::RXE_CQ_BASE_ADDR_63_32, rxe + reg::RXE_CQ_BASE_ADDR_31_7);
	v.cq = reinterpret_cast<Cqe *>(iommu_.translate(cq, uint64_t(v.cq_size) * sizeof(Cqe), r.cache));
	v.write_pi = cq_cfg & reg::CQ_CFG_WRITE_PI_EN;
	uint64_t pia = (uint64_t(rd(rxe + reg::RXE_CQ_PI_ADDR_HI_0)) << 32) |
		       rd(rxe + reg::RXE_CQ_PI_ADDR_LO_0);
	if (v.write_pi)
		v.pi_shadow = reinterpret_cast<uint32_t *>(iommu_.translate(pia, 4, r.cache));
	return v;
}

/* One frame of len bytes (no FCS) arriving at port q's MAC. Under rx.lock. */
void Device::Impl::rx_frame(unsigned q, const RxView &v, const uint8_t *data, uint32_t len)
{
	RxState &r = ports_[q].rx;
	uint64_t *st = r.stats.data();
	bump(r.wire_rx);
	if (!(v.cmd & reg::CMD_RX_ENA))
		return;
	uint32_t fl = len + kFcsLen;
	if (fl < 64) { /* the sender did not pad (H6-3399) [facts §2] */
		bump(st[size_t(RxStat::ether_stats_undersize_pkts)]);
		return;
	}
	if (fl > v.frm_len) {
		bump(st[size_t(RxStat::frame_too_long_errors)]);
		bump(st[size_t(RxStat::ether_stats_oversize_pkts)]);
		return;
	}
	/* MAC filter: RXB raw MAC, mask bits = don't care [regs]; promiscuous; broadcast;
	 * multicast with the allmulti bit ([model] register). Filtered frames are not errors. */
	uint64_t dst = mac48(data);
	bool bcast = dst == kEtherBroadcast, mcast = !bcast && (dst & 1);
	/* The MAC counts every good frame it receives; the RXB address filter below drops
	 * after that, so filtered frames show in the MAC counters but reach no queue. */
	bump(st[size_t(RxStat::ether_stats_octets)], fl);
	bump(st[size_t(RxStat::octets_received_ok)], len); /* [model] no FCS */
	bump(st[size_t(RxStat::frames_received_ok)]);
	bump(st[size_t(RxStat::ether_stats_pkts)]);
	bump(st[size_t(bcast ? RxStat::if_in_broadcast_pkts
			     : mcast ? RxStat::if_in_multicast_pkts : RxStat::if_in_ucast_pkts)]);
	if (data[12] == 0x81 && data[13] == 0x00)
		bump(st[size_t(RxStat::vlan_received_ok)]);
	count_size_bucket(st, fl, RxStat::ether_stats_pkts_64);
	/* MAC control frames (EtherType 0x8808): PAUSE (opcode 1) and PFC (0x101) are counted and
	 * consumed by the MAC unless PAUSE_FWD [facts §4]. [model] Frames software sends do not
	 * pause the port: only the MAC's own XOFF does (run_doorbell). */
	if (data[12] == 0x88 && data[13] == 0x08 && len >= 18) {
		uint16_t op = uint16_t(data[14] << 8 | data[15]);
		if (op == 0x0001) {
			bump_shared(st[size_t(RxStat::pause_mac_ctrl_frames_received)]);
		} else if (op == 0x0101) {
			uint8_t cev = data[17]; /* class-enable vector, low byte */
			for (unsigned c = 0; c < 8; c++)
				if (cev & (1u << c))
					bump_shared(st[size_t(RxStat::cbfc_pause_frames_received_0) + c]);
		}
		if ((op == 0x0001 || op == 0x0101) && !(v.cmd & reg::CMD_PAUSE_FWD))
			return;
	}
	if (!(v.cmd & reg::CMD_PROMIS_EN) && !bcast && ((dst ^ v.mac) & ~v.mac_mask) != 0 &&
	    !(mcast && v.mcast)) {
		bool hit = false;
		for (unsigned i = 0; !hit && i < v.n_uc; i++)
			hit = v.uc[i] == dst;
		for (unsigned i = 0; !hit && mcast && i < v.n_mc; i++)
			hit = v.mc[i] == dst;
		if (!hit)
			return;
	}

	if (!v.enabled) {
		bump(st[size_t(RxStat::ether_stats_drop_events)]);
		return;
	}
	if (r.pi - r.ci >= v.cq_size ||
	    (ports_[q].fault.armed.load(std::memory_order_relaxed) && /* [faults] */
	     fault_take_cq_full(ports_[q].fault))) {
		/* CQ overrun: drop and back-pressure; one COMP_ERR per episode [facts §2]. */
		bump(st[size_t(RxStat::ether_stats_drop_events)]);
		if (!r.overrun) {
			r.overrun = true;
			post_eq(q, EqeType::comp_err, kRawCq, 0);
			/* [model] With flow control on, the MAC still sends PAUSE to a sender that
			 * ignores it (PAUSE_IGNORE): one per episode, counted on both sides. */
			if (int s = v.pause_gen ? rx_peer(q) : -1; s >= 0)
				count_pause(q, unsigned(s), v.cmd & reg::CMD_PFC_MODE);
		}
		return;
	}
	if (len > (1u << v.slot_log2)) {
		bump(st[size_t(RxStat::if_in_errors)]);
		return;
	}
	if (v.slots == nullptr || v.cq == nullptr || (v.write_pi && v.pi_shadow == nullptr)) {
		bump(st[size_t(RxStat::if_in_errors)]);
		ports_[q].qp_errors.fetch_add(1, std::memory_order_relaxed);
		ports_[q].last_syndrome.store(kRxDmaFaultSyndrome, std::memory_order_relaxed);
		post_eq(q, EqeType::qp_err, kRawQpn, kRxDmaFaultSyndrome);
		return;
	}
	uint32_t slot = r.pi & v.slot_mask;
	std::memcpy(v.slots + (size_t(slot) << v.slot_log2), data, len);
	Cqe *c = &v.cq[r.pi & (v.cq_size - 1)];
	c->wqe_index = slot;
	c->tag = 0;
	c->size = len;
	store_release(&c->d0, CQE_VALID | kRawQpn); /* body before valid */
	r.pi++;
	if (v.pi_shadow != nullptr)
		store_release(v.pi_shadow, r.pi);
	wr(reg::rxe(q) + reg::RXE_CQ_PRODUCER_INDEX_0, r.pi);
	if (r.armed)
		cq_check_arm(q);
}

void Device::Impl::cq_check_arm(unsigned p)
{
	RxState &r = ports_[p].rx;
	if (r.armed && int32_t(r.pi - r.arm_index) > 0) { /* "only when PI > IDX" [regs] */
		r.armed = false;
		post_eq(p, EqeType::comp, kRawCq, r.pi);
		raise_irq(p, reg::INTR_RX_RING0); /* [model] rx_ring0 interrupt with the COMP EQE */
	}
}

void Device::Impl::cq_write_ci(unsigned p, uint32_t ci)
{
	{
		RxState &r = ports_[p].rx;
		SpinGuard g(r.lock);
		if (ci != r.ci)
			r.overrun = false; /* CI moved: the overrun episode is over */
		r.ci = ci;
		wr(reg::rxe(p) + reg::RXE_CQ_CONSUMER_INDEX_0, ci);
	}
	if (cfg_.engine != Engine::inline_run || held_.load(std::memory_order_relaxed))
		return; /* the thread engine retries paused TX on its own */
	/* XON: the CQ has room, so TX the port paused resumes (a flag check when none is). */
	for (unsigned s : {p, p ^ 1u})
		if (s < cfg_.nports && (rd(reg::txe(s) + reg::TXE_FC_STATUS) & reg::TXE_FC_STATUS_PAUSED))
			drain_tx(s);
	if (has_rx_pcap_)
		pump_all();
}

void Device::Impl::cq_arm(unsigned p, uint32_t index)
{
	RxState &r = ports_[p].rx;
	SpinGuard g(r.lock);
	r.armed = true;
	r.arm_index = index;
	cq_check_arm(p);
}

/* [model] Enabling the CQ (CQ_CFG ENABLE 0 -> 1) starts it empty at PI = CI = 0. */
void Device::Impl::cq_reset(unsigned p)
{
	RxState &r = ports_[p].rx;
	SpinGuard g(r.lock);
	r.pi = r.ci = 0;
	r.overrun = r.armed = false;
	wr(reg::rxe(p) + reg::RXE_CQ_PRODUCER_INDEX_0, 0);
	wr(reg::rxe(p) + reg::RXE_CQ_CONSUMER_INDEX_0, 0);
}

/* Delivers the rx pcap of port q while the port can take frames. Under no lock. */
bool Device::Impl::pump_pcap(unsigned q)
{
	RxState &r = ports_[q].rx;
	if (!r.source)
		return ports_[q].net ? pump_net(q) : false; /* [wires tap/udp] */
	if (!rx_polled_.load(std::memory_order_relaxed))
		return false;
	SpinGuard g(r.lock);
	RxView v = rx_view(q);
	/* A file is a paced source: frames wait for raw RX enabled (and the MAC receiving,
	 * [model]) and for CQ room; they are never lost to an overrun. */
	if (!v.enabled || !(v.cmd & reg::CMD_RX_ENA))
		return false;
	bool moved = false;
	const uint8_t *data;
	uint32_t len;
	while (r.pi - r.ci < v.cq_size && r.source->peek(&data, &len)) {
		rx_frame(q, v, data, len);
		r.source->pop();
		moved = true;
	}
	return moved;
}

/* ---- [wires tap/udp] begin: TAP and UDP wires (gaudi_emu_tap.h, gaudi_emu_udp.h) ---- */

bool Device::Impl::open_net_wires(std::string *err)
{
	bool tap = cfg_.wire == Wire::tap, udp = cfg_.wire == Wire::udp;
	for (unsigned p = 0; p < kMaxPorts; p++) {
		bool has_udp = !cfg_.udp_local[p].empty() || !cfg_.udp_remote[p].empty();
		const char *what = !cfg_.tap_name[p].empty() && !tap ? "tap_name given"
				   : has_udp && !udp		     ? "udp_local/udp_remote given"
				   : (has_udp || !cfg_.tap_name[p].empty()) && p >= cfg_.nports
					   ? "tap/udp devarg given"
					   : nullptr;
		if (what != nullptr) {
			*err = std::string(what) + " for port " + std::to_string(p) +
			       (p >= cfg_.nports ? " beyond nports" : " but the wire is not tap/udp");
			return false;
		}
	}
	for (unsigned p = 0; (tap || udp) && p < cfg_.nports; p++) {
		std::string e, arg;
		if (tap) {
			bool dflt = cfg_.tap_name[p].empty();
			std::string name = dflt ? "gaudi" + std::to_string(cfg_.instance) + "p" +
							  std::to_string(p)
						: cfg_.tap_name[p];
			/* The port's station address is fw_mac_addr()'s; the TAP's differs in byte 3
			 * [model]: 02:1d:a3:fe:<instance>:<port>. */
			const uint8_t port_mac[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, uint8_t(p)};
			const uint8_t tap_mac[6] = {0x02, 0x1d, 0xa3, 0xfe, uint8_t(cfg_.instance),
						    uint8_t(p)};
			ports_[p].net = TapWire::open(name, tap_mac, port_mac, &e);
			arg = "tap_name=" + std::to_string(p) + ":" + name + (dflt ? " (default)" : "");
		} else {
			bool l = !cfg_.udp_local[p].empty(), r = !cfg_.udp_remote[p].empty();
			if (!l && !r)
				continue; /* not cabled */
			if (l != r) {
				*err = "devarg " + std::string(l ? "udp_local=" : "udp_remote=") +
				       std::to_string(p) + ":" + (l ? cfg_.udp_local[p] : cfg_.udp_remote[p]) +
				       ": port " + std::to_string(p) + " also needs " +
				       (l ? "udp_remote" : "udp_local");
				return false;
			}
			bool remote = false;
			ports_[p].net = UdpWire::open(cfg_.udp_local[p], cfg_.udp_remote[p], &e, &remote);
			arg = (remote ? "udp_remote=" : "udp_local=") + std::to_string(p) + ":" +
			      (remote ? cfg_.udp_remote[p] : cfg_.udp_local[p]);
		}
		if (!ports_[p].net) {
			*err = "devarg " + arg + ": " + e;
			return false;
		}
		has_rx_pcap_ = true; /* paced wire input to pump */
	}
	return true;
}

/* Like pump_pcap: frames are taken off the TAP/socket only while raw RX is enabled, the MAC
 * receives and the CQ has room, never more than the CQ has room for; the rest waits in the
 * kernel's queue (whose overflow is the kernel's to drop, uncounted by the MAC). At most one
 * CQ's worth per pass, so frames the MAC filters out cannot keep the pass going. Under no
 * lock. */
bool Device::Impl::pump_net(unsigned q)
{
	RxState &r = ports_[q].rx;
	NetWire &w = *ports_[q].net;
	SpinGuard g(r.lock);
	RxView v = rx_view(q);
	if (!v.enabled || !(v.cmd & reg::CMD_RX_ENA))
		return false;
	bool moved = false;
	for (uint32_t budget = v.cq_size; budget != 0;) {
		uint32_t used = r.pi - r.ci;
		if (used >= v.cq_size)
			break;
		uint32_t want = std::min({v.cq_size - used, budget, uint32_t(NetWire::kBatch)});
		unsigned n = w.recv(want);
		for (unsigned i = 0; i < n; i++)
			rx_frame(q, v, w.rx_data(i), w.rx_len(i)); /* MAC checks: too long = dropped */
		if (n == 0)
			break;
		moved = true;
		budget -= n;
		if (n < want)
			break; /* the kernel queue is empty: come back on the next pass */
	}
	return moved;
}

/* ---- [wires tap/udp] end ---- */

bool Device::Impl::pump_all()
{
	bool moved = false;
	for (unsigned p = 0; p < cfg_.nports; p++)
		moved |= pump_pcap(p);
	return moved;
}

/* Everything the engine has pending: doorbells of every port, then pcap input. */
void Device::Impl::run_pending()
{
	SpinGuard g(engine_lock_);
	if (held_.load(std::memory_order_relaxed))
		return;
	for (unsigned p = 0; p < cfg_.nports; p++)
		drain_tx(p);
	if (has_rx_pcap_)
		pump_all();
}

void Device::Impl::engine_loop()
{
	unsigned idle = 0;
	while (!stop_.load(std::memory_order_relaxed)) {
		bool work = false;
		{
			SpinGuard g(engine_lock_);
			if (!held_.load(std::memory_order_relaxed)) {
				for (unsigned p = 0; p < cfg_.nports; p++)
					work |= drain_tx(p);
				if (has_rx_pcap_)
					work |= pump_all();
			}
		}
		/* [model] Back off when idle: spin briefly, then sleep so an idle model does not
		 * burn a core forever. */
		if (work)
			idle = 0;
		else if (++idle < 2000)
			rte_pause();
		else
			std::this_thread::sleep_for(std::chrono::microseconds(30));
	}
}

/* ---------------------------------------------------------------------------------------- */
/* Event queue [regs gaudi2_cn_eq.c, facts §2] */

/* [model] Enabling the EQ starts it empty (PI = 0); the driver sets CI = 0 before enabling. */
void Device::Impl::eq_reset(unsigned p)
{
	EqState &e = ports_[p].eq;
	SpinGuard g(e.lock);
	e.pi = 0;
	wr(reg::qpc(p) + reg::QPC_EVENT_QUE_PRODUCER_INDEX, 0);
}

void Device::Impl::post_eq(unsigned p, EqeType type, uint32_t d1, uint32_t d2)
{
	/* The interrupt is signalled once the EQE is visible and the EQ lock released. */
	if (post_eqe(p, type, d1, d2))
		raise_irq(p, reg::INTR_EQ);
}

bool Device::Impl::post_eqe(unsigned p, EqeType type, uint32_t d1, uint32_t d2)
{
	EqState &e = ports_[p].eq;
	uint32_t q = reg::qpc(p);
	SpinGuard g(e.lock);
	uint32_t cfg = rd(q + reg::QPC_EVENT_QUE_CFG);
	if (!(cfg & reg::EVENT_QUE_CFG_ENABLE))
		return false;
	uint32_t size = 1u << std::min<uint32_t>(rd(q + reg::QPC_EVENT_QUE_LOG_SIZE), 24);
	if (e.pi - rd(q + reg::QPC_EVENT_QUE_CONSUMER_INDEX) >= size) {
		uint32_t c = q + reg::QPC_EVENT_QUE_OVERRUN_CNT;
		wr(c, rd(c) + 1);
		return false;
	}
	uint64_t base = rd_addr_31_7(q + reg::QPC_EVENT_QUE_BASE_ADDR_63_32,
				     q + reg::QPC_EVENT_QUE_BASE_ADDR_31_7);
	auto *eqe = reinterpret_cast<Eqe *>(
		iommu_.translate(base + uint64_t(e.pi & (size - 1)) * sizeof(Eqe), sizeof(Eqe), e.cache));
	if (eqe == nullptr)
		return false; /* [model] an EQ outside mapped memory loses the event */
	eqe->d1 = d1;
	eqe->d2 = d2;
	eqe->d3 = 0;
	store_release(&eqe->d0, EQE_VALID | (uint32_t(type) & EQE_TYPE_MASK));
	e.pi++;
	wr(q + reg::QPC_EVENT_QUE_PRODUCER_INDEX, e.pi);
	if (cfg & reg::EVENT_QUE_CFG_WRITE_PI_EN) {
		uint64_t a = rd_addr_31_7(q + reg::QPC_EVENT_QUE_PI_ADDR_63_32,
					  q + reg::QPC_EVENT_QUE_PI_ADDR_31_7);
		auto *pi = reinterpret_cast<uint32_t *>(iommu_.translate(a, 4, e.cache));
		if (pi != nullptr)
			store_release(pi, e.pi);
	}
	/* [model] Only INTERRUPT_PER_EQE mode (what hbl_cn uses) interrupts. */
	return (cfg & reg::EVENT_QUE_CFG_INTERRUPT_PER_EQE) != 0;
}

/* A QPC interrupt source fired: latch its cause and, if enabled, unmasked and not already
 * pending, signal the MSI (one-shot until software writes INTERRUPT_CLR) [regs gaudi2_cn_eq.c]. */
void Device::Impl::raise_irq(unsigned p, uint32_t index)
{
	PortModel &pm = ports_[p];
	uint32_t q = reg::qpc(p), bit = reg::intr_bit(index);
	bool fire;
	{
		SpinGuard g(pm.intr_lock);
		uint32_t cause = rd(q + reg::QPC_INTERRUPT_CAUSE);
		bool on = (rd(q + reg::QPC_INTERRUPT_EN) & bit) && !(rd(q + reg::QPC_INTERRUPT_MASK) & bit);
		fire = on && !(cause & bit);
		if (on)
			wr(q + reg::QPC_INTERRUPT_CAUSE, cause | bit);
	}
	int fd = fire ? pm.irq_fd[index].load(std::memory_order_acquire) : -1;
	if (fd >= 0) {
		uint64_t one = 1;
		ssize_t n = write(fd, &one, sizeof(one)); /* eventfd: never blocks below 2^64-1 */
		(void)n;
	}
}

void Device::Impl::clear_irq(unsigned p, uint32_t bits)
{
	PortModel &pm = ports_[p];
	uint32_t q = reg::qpc(p);
	SpinGuard g(pm.intr_lock);
	wr(q + reg::QPC_INTERRUPT_CAUSE, rd(q + reg::QPC_INTERRUPT_CAUSE) & ~bits);
}

/* ---------------------------------------------------------------------------------------- */
/* MAC: link and counters [facts §4] */

bool Device::Impl::cabled(unsigned p) const
{
	switch (cfg_.wire) {
	case Wire::pair:
		return (p ^ 1) < cfg_.nports;
	case Wire::loopback:
	case Wire::pcap:
	case Wire::tap: /* [wires tap/udp] */
		return true;
	case Wire::udp: /* [wires tap/udp] a port without udp_local/udp_remote is not cabled */
		return ports_[p].net != nullptr;
	}
	return false;
}

bool Device::Impl::mac_enabled(unsigned p) const
{
	uint32_t cmd = rd(reg::mac_ch(p, 0) + reg::MAC_COMMAND_CONFIG);
	return (cmd & reg::CMD_TX_ENA) && (cmd & reg::CMD_RX_ENA);
}

/* A change on one end of a pair cable can change the link of both ends. */
void Device::Impl::update_link(unsigned p)
{
	update_link_one(p);
	if (cfg_.wire == Wire::pair && (p ^ 1) < cfg_.nports)
		update_link_one(p ^ 1);
}

/* Link = cabled and MAC TX+RX enabled, or PCS loopback. [model] On a pair cable the far end
 * must have its MAC enabled too, and both ends must agree on RS-FEC (a FEC mismatch never
 * locks, as on real links). Changes raise LINK_STATUS events and show in MAC_CORE REC_STS0
 * and PCS STATUS1 [regs gaudi2_cn_eq.c]. */
void Device::Impl::update_link_one(unsigned p)
{
	SpinGuard g(ctrl_lock_);
	uint32_t ch = reg::mac_ch(p, 0);
	bool up = (rd(ch + reg::PCS_CONTROL1) & reg::PCS_CONTROL1_LOOPBACK) ||
		  (cabled(p) && mac_enabled(p));
	if (up && !(rd(ch + reg::PCS_CONTROL1) & reg::PCS_CONTROL1_LOOPBACK) &&
	    cfg_.wire == Wire::pair) {
		unsigned f = p ^ 1;
		uint32_t fec = rd(reg::mac_core(p) + reg::MAC_CORE_FEC91_CFG);
		uint32_t ffec = rd(reg::mac_core(f) + reg::MAC_CORE_FEC91_CFG);
		bool rs = (fec & reg::fec91_lanes(p)) == reg::fec91_lanes(p);
		bool frs = (ffec & reg::fec91_lanes(f)) == reg::fec91_lanes(f);
		up = mac_enabled(f) && rs == frs;
	}
	if (up && forced_down(p)) /* [faults] link_flap */
		up = false;
	if (up == ports_[p].link)
		return;
	ports_[p].link = up;
	uint32_t sts = reg::mac_core(p) + reg::MAC_CORE_REC_STS0;
	uint32_t bit = 1u << reg::rec_link_sts_shift(p);
	wr(sts, up ? (rd(sts) | bit) : (rd(sts) & ~bit));
	for (unsigned l = 0; l < kLanesPerPort; l++) {
		uint32_t s1 = reg::mac_ch(p, l) + reg::PCS_STATUS1;
		wr(s1, up ? (rd(s1) | reg::PCS_STATUS1_LINK) : (rd(s1) & ~reg::PCS_STATUS1_LINK));
	}
	post_eq(p, EqeType::link_status, uint32_t(rte_rdtsc()), up ? 1 : 0);
}

/* ---- [faults] link flaps: the link goes down now (both ends of a pair cable) and comes back
 * after ms; EAL alarms post the LINK_STATUS events, outside the engine's locks. ---- */

bool Device::Impl::forced_down(unsigned p) const
{
	return ports_[p].fault.link_down.load(std::memory_order_relaxed);
}

void Device::Impl::start_link_flap(unsigned p, uint32_t ms)
{
	unsigned ends[2] = {p, p ^ 1};
	unsigned n = cfg_.wire == Wire::pair && (p ^ 1) < cfg_.nports ? 2 : 1;
	for (unsigned i = 0; i < n; i++) {
		FaultState &fs = ports_[ends[i]].fault;
		{
			SpinGuard g(fs.lock);
			fs.link_down.store(true, std::memory_order_relaxed);
			fs.rearm();
		}
		rte_eal_alarm_cancel(link_flap_cb, &fs); /* a flap in progress is extended */
		rte_eal_alarm_set(uint64_t(ms) * 1000, link_flap_cb, &fs);
	}
	rte_eal_alarm_set(1, link_down_cb, &ports_[p].fault);
}

void Device::Impl::link_down_cb(void *arg)
{
	auto *fs = static_cast<FaultState *>(arg);
	static_cast<Impl *>(fs->owner)->update_link(fs->port);
}

void Device::Impl::link_flap_cb(void *arg)
{
	auto *fs = static_cast<FaultState *>(arg);
	{
		SpinGuard g(fs->lock);
		fs->link_down.store(false, std::memory_order_relaxed);
		fs->rearm();
	}
	static_cast<Impl *>(fs->owner)->update_link_one(fs->port);
}

void Device::Impl::stats_reset(unsigned p)
{
	PortModel &pm = ports_[p];
	SpinGuard gt(pm.tx.lock);
	SpinGuard gr(pm.rx.lock);
	for (auto &c : pm.tx.stats)
		std::atomic_ref<uint64_t>(c).store(0, std::memory_order_relaxed);
	for (auto &c : pm.rx.stats)
		std::atomic_ref<uint64_t>(c).store(0, std::memory_order_relaxed);
}

/* ---------------------------------------------------------------------------------------- */
/* Device */

Device::Device(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Device::~Device() = default;

std::unique_ptr<Device> Device::create(const Config &cfg, std::string *err)
{
	std::string dummy;
	if (err == nullptr)
		err = &dummy;
	auto impl = std::make_unique<Impl>(cfg);
	if (!impl->init(err))
		return nullptr;
	return std::unique_ptr<Device>(new Device(std::move(impl)));
}

hw::Bar &Device::bar() { return impl_->bar_; }

bool Device::inject_fault(const FaultSpec &f, std::string *err)
{
	std::string dummy;
	if (err == nullptr)
		err = &dummy;
	FaultSpec s = f;
	if (s.port >= impl_->cfg_.nports) {
		*err = "port " + std::to_string(s.port) + " >= ports";
		return false;
	}
	if (!fault_arg_check(s.kind, &s.arg, err))
		return false;
	uint32_t ms = 0;
	if (!fault_arm(impl_->ports_[s.port].fault, s, &ms)) {
		*err = "too many delayed faults waiting on the port";
		return false;
	}
	if (ms != 0)
		impl_->start_link_flap(s.port, ms);
	return true;
}

uint64_t Device::faults_injected(unsigned port, FaultKind k) const
{
	if (port >= impl_->cfg_.nports || unsigned(k) >= kFaultKinds)
		return 0;
	return impl_->ports_[port].fault.injected[unsigned(k)].load(std::memory_order_relaxed);
}
unsigned Device::nports() const { return impl_->cfg_.nports; }

void Device::fw_mac_addr(unsigned port, uint8_t out[6]) const
{
	/* Locally administered (0x02) + Habana's vendor bytes 1d:a3 + port number [model]. */
	const uint8_t mac[6] = {0x02, 0x1d, 0xa3, 0x00, 0x00, uint8_t(port)};
	std::memcpy(out, mac, sizeof(mac));
}

PortCounters Device::counters(unsigned port) const
{
	PortCounters c{};
	if (port >= impl_->cfg_.nports)
		return c;
	auto &pm = impl_->ports_[port];
	c.wire_tx_frames = peek64(pm.tx.wire_tx);
	c.wire_rx_frames = peek64(pm.rx.wire_rx);
	{
		SpinGuard g(pm.rx.lock);
		c.rx_pcap_remaining = pm.rx.source ? pm.rx.source->remaining() : 0;
	}
	c.qp_errors = pm.qp_errors.load(std::memory_order_relaxed);
	c.last_qp_syndrome = pm.last_syndrome.load(std::memory_order_relaxed);
	c.wire_tx_lost = pm.net ? pm.net->tx_lost() : 0; /* [wires tap/udp] */
	return c;
}

void Device::flush()
{
	for (unsigned p = 0; p < impl_->cfg_.nports; p++) {
		auto &t = impl_->ports_[p].tx;
		SpinGuard g(t.lock);
		if (t.sink)
			t.sink->flush();
	}
}

void Device::bind_irq(unsigned port, unsigned index, int fd)
{
	if (port < impl_->cfg_.nports && index < impl_->ports_[port].irq_fd.size())
		impl_->ports_[port].irq_fd[index].store(fd, std::memory_order_release);
}

/* [model] A 100GBASE-SR4 QSFP28 module, SFF-8636 rev 2.8, flat memory (no pages 01h-03h). */
void Device::module_eeprom(unsigned port, uint8_t out[kModuleEepromLen])
{
	uint8_t *e = out;
	std::memset(e, 0, kModuleEepromLen);
	auto ascii = [e](unsigned off, unsigned len, const char *s) {
		std::memset(e + off, ' ', len);
		std::memcpy(e + off, s, std::min<size_t>(len, std::strlen(s)));
	};
	e[0] = 0x11;          /* identifier: QSFP28 (SFF-8024) */
	e[1] = 0x08;          /* revision compliance: SFF-8636 rev 2.8 */
	e[2] = 0x04;          /* status: flat memory, data ready */
	e[22] = 0x19;         /* temperature 25.0 C (1/256 C) */
	e[26] = 0x80;         /* Vcc 3.3 V (100 uV units) = 0x80E8 */
	e[27] = 0xE8;
	for (unsigned ch = 0; ch < 4; ch++) {
		e[34 + 2 * ch] = 0x1F; /* rx power 0.8 mW (0.1 uW units) */
		e[35 + 2 * ch] = 0x40;
		e[42 + 2 * ch] = 0x1F; /* tx bias 16 mA (2 uA units) */
		e[43 + 2 * ch] = 0x40;
		e[50 + 2 * ch] = 0x1F; /* tx power 0.8 mW */
		e[51 + 2 * ch] = 0x40;
	}
	e[128] = 0x11;        /* identifier (upper page 00h) */
	e[129] = 0x00;        /* power class 1 */
	e[130] = 0x0C;        /* connector: MPO 1x12 */
	e[131] = 0x80;        /* compliance: extended, see byte 192 */
	e[139] = 0x05;        /* encoding: 64B/66B */
	e[140] = 0xFF;        /* nominal rate: see byte 222 */
	e[143] = 35;          /* OM3 length, 2 m units: 70 m */
	e[146] = 50;          /* OM4 length, 2 m units: 100 m */
	ascii(148, 16, "GAUDI2-EMU");
	e[165] = 0x02;        /* vendor OUI 02:1d:a3 (locally administered, model) */
	e[166] = 0x1D;
	e[167] = 0xA3;
	ascii(168, 16, "QSFP28-SR4-EMU");
	ascii(184, 2, "01");
	e[186] = 0x42;        /* wavelength 850 nm (0.05 nm units) = 0x4268 */
	e[187] = 0x68;
	e[190] = 70;          /* max case temperature */
	uint8_t cc = 0;
	for (unsigned i = 128; i < 191; i++)
		cc += e[i];
	e[191] = cc;          /* CC_BASE */
	e[192] = 0x02;        /* extended compliance: 100GBASE-SR4 (SFF-8024 table 4-4) */
	char sn[17];
	snprintf(sn, sizeof(sn), "EMU%013u", port);
	ascii(196, 16, sn);
	ascii(212, 8, "240101");
	e[220] = 0x0C;        /* diagnostics: rx power average, tx power supported */
	e[222] = 103;         /* 25.78 Gb/s per lane (250 Mb/s units) */
	cc = 0;
	for (unsigned i = 192; i < 223; i++)
		cc += e[i];
	e[223] = cc;          /* CC_EXT */
}

void Device::hold_engine(bool hold)
{
	Impl &m = *impl_;
	m.held_.store(hold);
	/* Taking the engine lock waits out a pass that started before the flag was set. */
	rte_spinlock_lock(&m.engine_lock_);
	rte_spinlock_unlock(&m.engine_lock_);
	if (!hold && m.cfg_.engine == Engine::inline_run)
		m.run_pending();
}

/* ---------------------------------------------------------------------------------------- */
/* [multi-process] SharedView */

struct SharedView::Impl {
	const SharedNic *shm = nullptr;
	BarHooks hooks{};
	Bar bar;

	static uint32_t read(void *ctx, uint32_t off)
	{
		const SharedNic &s = *static_cast<Impl *>(ctx)->shm;
		/* This thread's DATA_HI latch: the primary's (in the region) belongs to its reads. */
		static thread_local uint32_t latch = 0;
		if (off > kNicRegionSize - 4 || (off & 3) != 0)
			return 0;
		uint32_t hi_off = 0;
		if (const uint64_t *c = stat_counter(s, off, &hi_off)) {
			uint64_t v = peek64(*c);
			latch = uint32_t(v >> 32);
			return uint32_t(v);
		}
		if (off % kMacroStride == reg::mac_stat(0) + reg::STAT_CONTROL_REG_DATA_HI)
			return latch;
		return std::atomic_ref<const uint32_t>(*reinterpret_cast<const uint32_t *>(&s.region[off]))
			.load(std::memory_order_relaxed);
	}
	static void write(void *, uint32_t, uint32_t) {} /* read-only: the bus drops it */
};

SharedView::SharedView(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SharedView::~SharedView() = default;

std::unique_ptr<SharedView> SharedView::attach(const std::string &shm_name, std::string *err)
{
	std::string dummy;
	if (err == nullptr)
		err = &dummy;
	const rte_memzone *mz = rte_memzone_lookup(shm_name.c_str());
	if (mz == nullptr) {
		*err = "no memzone " + shm_name + " (is the primary running this device?)";
		return nullptr;
	}
	auto *s = static_cast<const SharedNic *>(mz->addr);
	if (mz->len < sizeof(SharedNic) || __atomic_load_n(&s->magic, __ATOMIC_ACQUIRE) !=
	    SharedNic::kMagic || s->size != sizeof(SharedNic) || s->nports == 0 ||
	    s->nports > kMaxPorts) {
		*err = "memzone " + shm_name + " does not hold a device model of this build";
		return nullptr;
	}
	auto impl = std::make_unique<Impl>();
	impl->shm = s;
	impl->hooks = {impl.get(), &Impl::write, &Impl::read, nullptr};
	/* The base is only reported (Bar::base()); every access goes through the hooks. */
	impl->bar = Bar(const_cast<uint8_t *>(s->region), kNicRegionSize, &impl->hooks);
	return std::unique_ptr<SharedView>(new SharedView(std::move(impl)));
}

hw::Bar &SharedView::bar() { return impl_->bar; }
unsigned SharedView::nports() const { return impl_->shm->nports; }

} // namespace gaudi::emu
