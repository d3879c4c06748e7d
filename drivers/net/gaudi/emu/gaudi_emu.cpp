/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model: set-up and power-up state, register access (the decode and the
 * published map it is checked against: gaudi_emu_map.cpp), the engine loop, and the public
 * facade (gaudi_emu.h). The blocks' behaviour and state live in gaudi_emu_<block>.{h,cpp};
 * Device::Impl (gaudi_emu_impl.h) composes them.
 */
#include "gaudi_emu_impl.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <rte_alarm.h> /* [faults] link flaps */
#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_debug.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_pause.h>

RTE_LOG_REGISTER(gaudi_emu_logtype, pmd.net.gaudi.emu, NOTICE);

namespace gaudi::emu {

using namespace detail;

/* ---------------------------------------------------------------------------------------- */
/* Setup */

bool Device::Impl::init(std::string *err)
{
	if (cfg_.nports == 0 || cfg_.nports > kMaxPorts) {
		*err = "nports must be 1.." + std::to_string(kMaxPorts);
		return false;
	}
	uint64_t all = cfg_.nports >= 64 ? ~0ull : (1ull << cfg_.nports) - 1;
	if (cfg_.fw_port_mask & ~all) {
		char m[64];
		std::snprintf(m, sizeof(m), "fw_port_mask 0x%llx",
			      (unsigned long long)cfg_.fw_port_mask);
		*err = std::string(m) + " names ports beyond nports " + std::to_string(cfg_.nports);
		return false;
	}
	if (cfg_.fw_nic_info_rc > hw::fw::kPktCtlRc.get(hw::fw::kPktCtlRc.mask())) {
		*err = "fw_nic_info_rc must fit the 4-bit cpucp return code";
		return false;
	}
	ports_ = std::make_unique<PortModel[]>(cfg_.nports);
	serdes_ = std::make_unique<SerdesModel[]>(cfg_.nports);
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
			*err = "pcap file given for port " + std::to_string(p) +
			       " but the wire is not pcap";
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
	if (cfg_.wire_delay_us != 0) { /* [wire delay] */
		if (cfg_.wire != Wire::loopback && cfg_.wire != Wire::pair) {
			*err = "wire_delay_us needs wire=loopback or pair";
			return false;
		}
		if (cfg_.wire_delay_frames == 0) {
			*err = "wire_delay_frames must be at least 1";
			return false;
		}
		delay_tsc_ = std::max<uint64_t>(
			1, uint64_t(double(cfg_.wire_delay_us) * 1e-6 * double(rte_get_tsc_hz())));
		for (unsigned p = 0; p < cfg_.nports; p++)
			ports_[p].delay = std::make_unique<DelayLine>(cfg_.wire_delay_frames,
								      kMacMaxFrameLen);
	}
	for (unsigned p = 0; p < cfg_.nports; p++) { /* [rx rate limit] */
		uint32_t fps = cfg_.rx_rate_limit[p];
		if (fps == 0)
			continue;
		if (cfg_.wire != Wire::loopback && cfg_.wire != Wire::pair) {
			*err = "rx_rate_limit needs wire=loopback or pair";
			return false;
		}
		uint32_t burst = cfg_.rx_rate_burst[p] ? cfg_.rx_rate_burst[p] : 32;
		RxState &r = ports_[p].rx;
		r.rl_period = rte_get_tsc_hz() / fps;
		r.rl_rem = rte_get_tsc_hz() % fps;
		r.rl_fps = fps;
		if (r.rl_period == 0) {
			*err = "rx_rate_limit above the TSC frequency";
			return false;
		}
		r.rl_tau = r.rl_period * (burst - 1);
	}
	for (unsigned p = 0; p < cfg_.nports; p++)
		power_up(p);
	build_map();
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
	fw_init();
	sm_init();
	for (unsigned p = 0; p < cfg_.nports; p++) /* [seq_check] */
		seq_update(p);
	if (!cfg_.trace.empty() && !trace_open(err)) /* [trace] */
		return false;
	hooks_ = {this, &Impl::hook_write, &Impl::hook_read, &Impl::hook_service};
	bar_ = Bar(region_, kNicRegionSize, &hooks_);
	__atomic_store_n(&shm_->magic, SharedNic::kMagic, __ATOMIC_RELEASE);
	if (cfg_.engine == Engine::thread) {
		engine_ = std::thread([this] { engine_loop(); });
		cpu_set_t cpus = engine_cpus();
		pthread_setaffinity_np(engine_.native_handle(), sizeof(cpus), &cpus);
		pthread_setname_np(engine_.native_handle(), "gaudi-emu");
	}
	return true;
}

/* Where the thread engine runs. A thread inherits the creator's affinity, and EAL pins its
 * lcores to one CPU each: unpinned, the engine would share the driver's CPU and starve it.
 * [model] Like a device that works next to the host: the online CPUs but those of EAL's
 * worker lcores (the polling ones), or all online CPUs when the workers take every one. Left
 * to the scheduler among all CPUs, the engine was found on the forwarding lcore's CPU in 40 %
 * of its running time (2 CPUs, testpmd -l 0,1, a loaded machine): both then run at half
 * speed. */
cpu_set_t Device::Impl::engine_cpus()
{
	cpu_set_t all, free;
	CPU_ZERO(&all);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	for (long i = 0; i < ncpu && i < CPU_SETSIZE; i++)
		CPU_SET(i, &all);
	free = all;
	unsigned lc;
	RTE_LCORE_FOREACH_WORKER(lc)
	{
		rte_cpuset_t w = rte_lcore_cpuset(lc);
		for (unsigned c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &w))
				CPU_CLR(c, &free);
	}
	return CPU_COUNT(&free) != 0 ? free : all;
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
	if (trace_ != nullptr) { /* [trace]: a lost trace says so */
		bool bad = ferror(trace_) != 0;
		if (fclose(trace_) != 0 || bad)
			rte_log(RTE_LOG_ERR, gaudi_emu_logtype,
				"gaudi_emu: devarg trace=%s: writing the trace failed: it is "
				"incomplete\n",
				cfg_.trace.c_str());
	}
	if (mz_ != nullptr) {
		__atomic_store_n(&shm_->magic, 0, __ATOMIC_RELEASE);
		rte_memzone_free(mz_);
	}
	/* PcapSink destructors flush and close the tx files. */
}

/* The state the host finds: hardware power-up, then what the boot firmware's NIC set-up leaves
 * (the gaudi2_cn.c "no_fw" sequence: TXE raw size checkers, RXE raw minimum size, QPC error
 * pushes; FEC91 on at 100G). [model] where the sources give no value. Power-up has interrupts
 * and RX enabled [gaudi2_cn.c gaudi2_nic_quiescence]: a driver must quiesce before anything. */
void Device::Impl::power_up(unsigned p)
{
	uint32_t q = reg::qpc(p), t = reg::txe(p), r = reg::rxe(p);
	wr(q + reg::QPC_REQ_STATIC_CONFIG,
	   reg::QPC_REQ_STATIC_CONFIG_QM_PUSH_TO_ERR_FIFO_NON_V.mask() |
		   reg::QPC_REQ_STATIC_CONFIG_QM_PUSH_ERR_PI_EX_LAST.mask());
	uint32_t all_en = 0;
	for (uint32_t i = 0; i < reg::kIntrSources; i++)
		all_en |= reg::intr_msi_en(i) | reg::intr_wire_en(i);
	wr(q + reg::QPC_INTERRUPT_EN, all_en);
	wr(q + reg::QPC_INTERRUPT_MASK, 0);
	wr(q + reg::QPC_EVENT_QUE_CFG,
	   reg::QPC_EVENT_QUE_CFG_ENABLE.mask() | reg::QPC_EVENT_QUE_CFG_INTERRUPT_PER_EQE.mask());
	wr(t + reg::TXE_WQE_CHECK_EN2,
	   reg::TXE_WQE_CHECK_EN2_RAW_ABOVE_MIN_RAW_UNSUPPO.mask() |
		   reg::TXE_WQE_CHECK_EN2_RAW_BELOW_MAX_RAW_UNSUPPO.mask());
	wr(t + reg::TXE_WQE_CHECK_CFG4, kMaxFrameLen);
	wr(t + reg::TXE_WQE_CHECK_CFG5, kTxPadSize);
	wr(r + reg::RXE_PKT_SIZE_CHECK_RAW, reg::RXE_PKT_SIZE_CHECK_RAW_MIN.put(kMinFrameNoFcs));
	wr(r + reg::RXE_CQ_CFG_0, reg::RXE_CQ_CFG_0_ENABLE.mask());
	for (unsigned l = 0; l < kLanesPerPort; l++) {
		wr(reg::mac_128(p, l) + reg::MAC_128_COMMAND_CONFIG, reg::CMD_DEFAULT);
		wr(reg::mac_128(p, l) + reg::MAC_128_FRM_LENGTH, kMacMaxFrameLen);
	}
	uint32_t fec = reg::mac_core(p) + reg::MAC_CORE_MAC_FEC91_CFG;
	/* As gaudi2_cn_config_hw_mac leaves it at 100G: RS-FEC in KP mode (0xFF). */
	wr(fec, rd(fec) | reg::MAC_CORE_MAC_FEC91_CFG_FEC91_ENA_IN.put(reg::lane_bits(p)) |
			reg::MAC_CORE_MAC_FEC91_CFG_FEC91_KP_MODE_IN.put(reg::lane_bits(p)));
	/* The PI/CI mirrors of a CQ enabled at power-up. */
	ports_[p].rx.pi = ports_[p].rx.ci_seen = 0;
	ports_[p].rx.ci.store(0, std::memory_order_relaxed);
}

/* ---------------------------------------------------------------------------------------- */
/* Register access (the published map they are checked against: gaudi_emu_map.cpp) */

namespace {
/* [profile] The TSC cycles of one access, added when it returns; c null: not counted. A
 * plain load and store, not a locked add: what the count costs after the second TSC read lands
 * in the driver's share of the time. With locked adds profile=1 cost 157 cycles per 64-byte
 * frame against 144 without it, with these 147 (A/B, gaudi_perf.rst). Two threads adding at
 * the same instant can lose one access's count; nearly every access comes from the datapath's
 * thread. */
class Profiled {
public:
	explicit Profiled(Device::Impl::ProfCounts *c) : c_(c), t0_(c ? rte_rdtsc() : 0) {}
	~Profiled()
	{
		if (unlikely(c_ != nullptr)) {
			const uint64_t d = rte_rdtsc() - t0_;
			c_->tsc.store(c_->tsc.load(std::memory_order_relaxed) + d,
				      std::memory_order_relaxed);
			c_->accesses.store(c_->accesses.load(std::memory_order_relaxed) + 1,
					   std::memory_order_relaxed);
		}
	}
	Profiled(const Profiled &) = delete;
	Profiled &operator=(const Profiled &) = delete;

private:
	Device::Impl::ProfCounts *c_;
	uint64_t t0_;
};
} /* namespace */

void Device::Impl::hook_write(void *ctx, uint32_t off, uint32_t val)
{
	auto *m = static_cast<Impl *>(ctx);
	Profiled prof(m->cfg_.profile ? &m->prof_ : nullptr);
	if (unlikely(m->trace_ != nullptr)) /* [trace] */
		m->trace('W', off, val);
	m->on_write(off, val);
}
uint32_t Device::Impl::hook_read(void *ctx, uint32_t off)
{
	auto *m = static_cast<Impl *>(ctx);
	Profiled prof(m->cfg_.profile ? &m->prof_ : nullptr);
	uint32_t v = m->on_read(off);
	if (unlikely(m->trace_ != nullptr)) /* [trace] */
		m->trace('R', off, v);
	return v;
}
void Device::Impl::hook_service(void *ctx)
{
	auto *m = static_cast<Impl *>(ctx);
	Profiled prof(m->cfg_.profile ? &m->prof_ : nullptr);
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
	if (!check_access(off, true, val, old))
		return; /* not a register, or read-only: no effect */
	if (unlikely(map_[off / 4] & kValueRule))
		value_check(off, val); /* reported, stored all the same */
	if (!fw_gate_check(off, val))
		return; /* [firmware] the NIC is not usable before the firmware is up */
	RegAddr a = decode(off);
	if (!fw_order_check(a, off, val))
		return; /* [firmware] a free list latched before the firmware wrote it */
	wr(off, val);
	if (unlikely(map_[off / 4] & kSeq) && cfg_.seq_check) /* [seq_check] */
		seq_on_write(off);
	if (a.block == Block::none || a.port >= cfg_.nports)
		return;
	switch (a.block) {
	case Block::qpc:
		on_qpc_write(a.port, a.r, val, old);
		break;
	case Block::rxe:
		on_rxe_write(a.port, a.r, val, old);
		break;
	case Block::mac_ch:
	case Block::mac_core:
	case Block::mac_stat:
		on_mac_write(a, off, val, old);
		break;
	case Block::serdes: /* [phy] */
		on_serdes_write(a.port, a.r, val, old);
		break;
	case Block::phy:
		on_phy_write(a.port, a.r, val);
		break;
	default:
		break; /* TXE, RXB, TXB, RS-FEC: read when used */
	}
}

uint32_t Device::Impl::on_read(uint32_t off)
{
	if (off > kNicRegionSize - 4 || (off & 3) != 0)
		return 0;
	if (!check_access(off, false, 0, 0))
		return 0;
	if (unlikely(map_[off / 4] & kClearOnRead)) /* RS-FEC codeword counters */
		return std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t *>(&region_[off]))
			.exchange(0, std::memory_order_relaxed);
	uint32_t hi_off = 0;
	if (const uint64_t *c = stat_counter(*shm_, off, &hi_off)) {
		/* MAC_GLOB_STAT: LO word now, bits 63:32 latched into DATA_HI [gaudi2_cn.c MAC statistics read]. */
		uint64_t v = peek64(*c);
		wr(hi_off, uint32_t(v >> 32));
		return uint32_t(v);
	}
	return rd(off);
}

/* ---------------------------------------------------------------------------------------- */
/* Engine */

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
	for (unsigned p = 0; p < cfg_.nports; p++)
		rxb_pump(p);
	if (delay_tsc_ != 0) /* [wire delay] */
		for (unsigned p = 0; p < cfg_.nports; p++)
			pump_delay(p);
	if (has_rx_pcap_)
		pump_all();
}

void Device::Impl::engine_loop()
{
	/* The idle back-off below sleeps 30 us; with the default timer slack (50 us) the sleep
	 * lasted 80 us. This thread's own slack, 1 us. */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	unsigned idle = 0;
	while (!stop_.load(std::memory_order_relaxed)) {
		bool work = false;
		{
			SpinGuard g(engine_lock_);
			if (!held_.load(std::memory_order_relaxed)) {
				for (unsigned p = 0; p < cfg_.nports; p++)
					work |= drain_tx(p);
				/* The RXB's frames into CQs the driver gave room to (its CI
				 * write takes no lock with this engine). */
				for (unsigned p = 0; p < cfg_.nports; p++)
					work |= rxb_pump(p);
				for (unsigned p = 0; delay_tsc_ != 0 && p < cfg_.nports; p++)
					work |= pump_delay(p); /* [wire delay] */
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

hw::Bar &Device::bar()
{
	return impl_->bar_;
}

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

Device::Profile Device::profile() const
{
	return {impl_->cfg_.profile, impl_->prof_.tsc.load(std::memory_order_relaxed),
		impl_->prof_.accesses.load(std::memory_order_relaxed)};
}

uint64_t Device::map_violations() const
{
	return impl_->violations_.load(std::memory_order_relaxed);
}

uint64_t Device::unmodeled_accesses() const
{
	return impl_->unmodeled_.load(std::memory_order_relaxed);
}

uint64_t Device::model_only_registers() const
{
	return impl_->model_only_;
}

uint64_t Device::unpublished_values() const
{
	return impl_->unpublished_values_.load(std::memory_order_relaxed);
}

uint64_t Device::faults_injected(unsigned port, FaultKind k) const
{
	if (port >= impl_->cfg_.nports || unsigned(k) >= kFaultKinds)
		return 0;
	return impl_->ports_[port].fault.injected[unsigned(k)].load(std::memory_order_relaxed);
}
unsigned Device::nports() const
{
	return impl_->cfg_.nports;
}

void Device::fw_mac_addr(unsigned port, uint8_t out[6]) const
{
	/* What NIC_INFO_GET reports (gaudi_emu_fw.cpp); the default base is locally
	 * administered (0x02) + Habana's vendor bytes 1d:a3 [model]. */
	mac_of(impl_->cfg_.fw_mac.data(), port, out);
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
	c.eq_lost = peek64(pm.eq.lost);
	c.wire_delay_drops = pm.delay ? pm.delay->drops() : 0; /* [wire delay] */
	c.wire_delay_in_flight = pm.delay ? pm.delay->in_flight() : 0;
	{
		SpinGuard g(pm.rx.lock); /* [rx rate limit] */
		c.rx_rate_drops = pm.rx.rl_drops;
	}
	return c;
}

void Device::flush()
{
	if (impl_->trace_ != nullptr) { /* [trace] */
		SpinGuard g(impl_->trace_lock_);
		if (fflush(impl_->trace_) != 0 && !impl_->trace_failed_) {
			impl_->trace_failed_ = true;
			rte_log(RTE_LOG_ERR, gaudi_emu_logtype,
				"gaudi_emu: devarg trace=%s: writing the trace failed: %s\n",
				impl_->cfg_.trace.c_str(), strerror(errno));
		}
	}
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
	e[0] = 0x11;  /* identifier: QSFP28 (SFF-8024) */
	e[1] = 0x08;  /* revision compliance: SFF-8636 rev 2.8 */
	e[2] = 0x04;  /* status: flat memory, data ready */
	e[22] = 0x19; /* temperature 25.0 C (1/256 C) */
	e[26] = 0x80; /* Vcc 3.3 V (100 uV units) = 0x80E8 */
	e[27] = 0xE8;
	for (unsigned ch = 0; ch < 4; ch++) {
		e[34 + 2 * ch] = 0x1F; /* rx power 0.8 mW (0.1 uW units) */
		e[35 + 2 * ch] = 0x40;
		e[42 + 2 * ch] = 0x1F; /* tx bias 16 mA (2 uA units) */
		e[43 + 2 * ch] = 0x40;
		e[50 + 2 * ch] = 0x1F; /* tx power 0.8 mW */
		e[51 + 2 * ch] = 0x40;
	}
	e[128] = 0x11; /* identifier (upper page 00h) */
	e[129] = 0x00; /* power class 1 */
	e[130] = 0x0C; /* connector: MPO 1x12 */
	e[131] = 0x80; /* compliance: extended, see byte 192 */
	e[139] = 0x05; /* encoding: 64B/66B */
	e[140] = 0xFF; /* nominal rate: see byte 222 */
	e[143] = 35;   /* OM3 length, 2 m units: 70 m */
	e[146] = 50;   /* OM4 length, 2 m units: 100 m */
	ascii(148, 16, "GAUDI2-EMU");
	e[165] = 0x02; /* vendor OUI 02:1d:a3 (locally administered, model) */
	e[166] = 0x1D;
	e[167] = 0xA3;
	ascii(168, 16, "QSFP28-SR4-EMU");
	ascii(184, 2, "01");
	e[186] = 0x42; /* wavelength 850 nm (0.05 nm units) = 0x4268 */
	e[187] = 0x68;
	e[190] = 70; /* max case temperature */
	uint8_t cc = 0;
	for (unsigned i = 128; i < 191; i++)
		cc += e[i];
	e[191] = cc;   /* CC_BASE */
	e[192] = 0x02; /* extended compliance: 100GBASE-SR4 (SFF-8024 table 4-4) */
	char sn[17];
	snprintf(sn, sizeof(sn), "EMU%013u", port);
	ascii(196, 16, sn);
	ascii(212, 8, "240101");
	e[220] = 0x0C; /* diagnostics: rx power average, tx power supported */
	e[222] = 103;  /* 25.78 Gb/s per lane (250 Mb/s units) */
	cc = 0;
	for (unsigned i = 192; i < 223; i++)
		cc += e[i];
	e[223] = cc; /* CC_EXT */
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
		if (off % kMacroStride == reg::mac_stat(0) + reg::MAC_GLOB_STAT_CONTROL_DATA_HI)
			return latch;
		return std::atomic_ref<const uint32_t>(
			       *reinterpret_cast<const uint32_t *>(&s.region[off]))
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
	if (mz->len < sizeof(SharedNic) ||
	    __atomic_load_n(&s->magic, __ATOMIC_ACQUIRE) != SharedNic::kMagic ||
	    s->size != sizeof(SharedNic) || s->nports == 0 || s->nports > kMaxPorts) {
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

hw::Bar &SharedView::bar()
{
	return impl_->bar;
}
unsigned SharedView::nports() const
{
	return impl_->shm->nports;
}

} /* namespace gaudi::emu */
