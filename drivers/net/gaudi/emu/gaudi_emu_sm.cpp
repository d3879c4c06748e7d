/* SPDX-License-Identifier: BSD-3-Clause
 * Model of the path a NIC event-queue interrupt takes to MSI-X on Gaudi2 (base/gaudi_sm.h):
 * the QPC's LBW write (INTERRUPT_BASE_9 / DATA_9) into a sync object, the monitors armed on
 * it, and the virtual MSI-X doorbell their payload writes. Sources: dcore0_sync_mngr_objs
 * regs/masks, gaudi2.c gaudi2_arm_monitors_for_virt_msix_db, gaudi2_cn_eq.c.
 *
 * [model] What the model keeps of the sync manager: SOB values (15 bits, INC writes add a
 * signed VAL), monitors in "greater than or equal" mode (SOP 0; SOP 1 never fires), a fired
 * monitor disarms and makes WR_NUM + 1 writes from its own payload and the next monitors'.
 * A write to the sync manager's configuration addresses (CFG_BASE + ...) lands there; one to
 * the doorbell ENABLE_PCI_ACCESS named, while PCI access is on, raises MSI-X vector <data>;
 * any other is counted (sm_lost) and dropped. Long SOBs, CQ mode and the other dcores' sync
 * managers are not modelled.
 */
#include "gaudi_emu_impl.h"

#include <unistd.h>

namespace gaudi::emu {

using namespace detail;

namespace {

constexpr uint32_t kSobEnd = hw::sm::SOB_OBJ_0 + 4 * hw::sm::kSobs - hw::sm::kWindowBase;
constexpr uint32_t mon_off(uint32_t reg0, unsigned mon)
{
	return reg0 - hw::sm::kWindowBase + 4 * mon;
}

} /* namespace */

void Device::Impl::sm_init()
{
	SmModel &s = sm_;
	s.regs = std::make_unique<uint32_t[]>(hw::sm::kWindowSize / 4);
	for (auto &f : s.msix_fd)
		f.store(-1, std::memory_order_relaxed);
	s.hooks = {this, &Impl::sm_hook_write, &Impl::sm_hook_read, nullptr};
	s.bar = Bar(reinterpret_cast<uint8_t *>(s.regs.get()), hw::sm::kWindowSize, &s.hooks);
}

uint32_t Device::Impl::sm_hook_read(void *ctx, uint32_t off)
{
	auto *m = static_cast<Impl *>(ctx);
	SpinGuard g(m->sm_.lock);
	return off < hw::sm::kWindowSize ? m->sm_.regs[off / 4] : 0;
}

void Device::Impl::sm_hook_write(void *ctx, uint32_t off, uint32_t val)
{
	auto *m = static_cast<Impl *>(ctx);
	m->sm_write(hw::sm::kCfgBase + hw::sm::kWindowBase + off, val);
}

void Device::Impl::lbw_write(uint32_t addr, uint32_t val)
{
	/* The LBW address is a configuration address (INTERRUPT_BASE_n is 28 bits). */
	sm_write(hw::sm::kCfgBase + addr, val);
}

/* One write at device address dev_addr, and whatever monitors it fires, in order. */
void Device::Impl::sm_write(uint64_t dev_addr, uint32_t val)
{
	using namespace hw::sm;
	SmModel &s = sm_;
	struct Wr {
		uint64_t addr;
		uint32_t val;
	};
	/* A fired monitor queues at most 4 writes; a chain is bounded by the SOB decrements. */
	std::array<Wr, 64> q;
	unsigned head = 0, tail = 0;
	std::array<uint32_t, 8> vectors;
	unsigned nvec = 0;
	q[tail++] = {dev_addr, val};
	const uint64_t window = kCfgBase + kWindowBase;
	uint64_t db = __atomic_load_n(&fw_.msix_db, __ATOMIC_RELAXED);
	bool pci = __atomic_load_n(&fw_.pci_access, __ATOMIC_RELAXED);
	{
		SpinGuard g(s.lock);
		auto evaluate = [&](unsigned mon) {
			uint64_t bit = uint64_t(1) << (mon % 64);
			if (!(s.armed[mon / 64] & bit))
				return;
			uint32_t arm = s.regs[mon_off(MON_ARM_0, mon) / 4];
			if (MON_ARM_SOP.get(arm) != 0)
				return;
			uint32_t group = MON_ARM_SID.get(arm), mask = MON_ARM_MASK.get(arm);
			uint32_t sod = MON_ARM_SOD.get(arm);
			for (unsigned i = 0; i < 8; i++)
				if (!(mask & (1u << i)) &&
				    SOB_OBJ_VAL.get(s.regs[(group * 8 + i)]) < sod)
					return;
			s.armed[mon / 64] &= ~bit;
			uint32_t n =
				MON_CONFIG_WR_NUM.get(s.regs[mon_off(MON_CONFIG_0, mon) / 4]) + 1;
			for (unsigned k = 0; k < n && mon + k < kMonitors && tail < q.size(); k++) {
				unsigned w = mon + k;
				uint64_t a = uint64_t(s.regs[mon_off(MON_PAY_ADDRH_0, w) / 4])
						     << 32 |
					     s.regs[mon_off(MON_PAY_ADDRL_0, w) / 4];
				q[tail++] = {a, s.regs[mon_off(MON_PAY_DATA_0, w) / 4]};
			}
		};
		/* The armed monitors watching SOB group `group` (SID): a bit walk, not all
		 * 2048 monitors per SOB write. */
		auto evaluate_group = [&](unsigned group) {
			for (unsigned wd = 0; wd < s.armed.size(); wd++)
				for (uint64_t b = s.armed[wd]; b != 0; b &= b - 1) {
					unsigned m = wd * 64 + unsigned(__builtin_ctzll(b));
					uint32_t arm = s.regs[mon_off(MON_ARM_0, m) / 4];
					if (MON_ARM_SID.get(arm) == group)
						evaluate(m);
				}
		};
		while (head < tail) {
			Wr w = q[head++];
			if (w.addr >= window && w.addr < window + kWindowSize) {
				uint32_t off = uint32_t(w.addr - window);
				uint32_t &r = s.regs[off / 4];
				if (off < kSobEnd) {
					if (SOB_OBJ_INC.get(
						    w.val)) { /* add VAL, negative with SIGN */
						int32_t d = int32_t(SOB_OBJ_VAL.get(w.val));
						if (SOB_OBJ_SIGN.get(w.val))
							d -= 1 << SOB_OBJ_VAL.width;
						r = SOB_OBJ_VAL.put(
							uint32_t(int32_t(SOB_OBJ_VAL.get(r)) + d));
					} else {
						r = w.val;
					}
					evaluate_group(off / 4 / 8);
				} else {
					r = w.val;
					if (off >= mon_off(MON_ARM_0, 0) &&
					    off < mon_off(MON_CONFIG_0, 0)) {
						unsigned m = (off - mon_off(MON_ARM_0, 0)) / 4;
						s.armed[m / 64] |= uint64_t(1) << (m % 64);
						evaluate(m);
					}
				}
			} else if (pci && db != 0 && w.addr == db && w.val < s.msix_fd.size()) {
				s.msix++;
				if (nvec < vectors.size())
					vectors[nvec++] = w.val;
			} else {
				s.lost++;
			}
		}
	}
	/* The MSI-X messages, once the sync manager is consistent again. */
	for (unsigned i = 0; i < nvec; i++) {
		int fd = s.msix_fd[vectors[i]].load(std::memory_order_acquire);
		if (fd >= 0) {
			uint64_t one = 1;
			ssize_t n = write(fd, &one, sizeof(one)); /* eventfd: never blocks */
			(void)n;
		}
	}
}

/* ---- facade ---- */

hw::Bar &Device::sm_bar()
{
	return impl_->sm_.bar;
}

void Device::bind_msix(unsigned vector, int fd)
{
	if (vector < impl_->sm_.msix_fd.size())
		impl_->sm_.msix_fd[vector].store(fd, std::memory_order_release);
}

uint64_t Device::msix_raised() const
{
	SpinGuard g(impl_->sm_.lock);
	return impl_->sm_.msix;
}

uint64_t Device::sm_lost() const
{
	SpinGuard g(impl_->sm_.lock);
	return impl_->sm_.lost;
}

} /* namespace gaudi::emu */
