/* SPDX-License-Identifier: BSD-3-Clause
 * Model of the port's event queue and QPC interrupts: EVENT_QUE_* (base and PI address >> 7,
 * LOG_SIZE, 24-bit producer and consumer indexes, CFG), INTERRUPT_CAUSE / MASK / CLR / EN
 * (a WIRE_EN / MSI_EN pair per source). Sources: nic0_qpc0_regs.h / _masks.h, gaudi2_cn_eq.c,
 * gaudi2.h (EQE layout).
 */
#include "gaudi_emu_impl.h"

#include <unistd.h>

namespace gaudi::emu {

using namespace detail;

/* [model] Enabling the EQ (CFG.ENABLE 0 -> 1) starts it at the producer index software left
 * (gaudi2_cn_eq.c writes 0 to it first). */
void Device::Impl::eq_reset(unsigned p)
{
	EqState &e = ports_[p].eq;
	SpinGuard g(e.lock);
	wr(reg::qpc(p) + reg::QPC_EVENT_QUE_PRODUCER_INDEX, e.pi);
}

void Device::Impl::post_eq(unsigned p, EqeType type, uint32_t d1, uint32_t d2)
{
	/* The interrupt is signalled once the EQE is visible and the EQ lock released; so is the
	 * EQ error (source 10) of an event a full EQ lost. */
	bool overrun = false;
	if (post_eqe(p, type, d1, d2, &overrun))
		raise_irq(p, reg::INTR_EQ);
	else if (overrun)
		raise_irq(p, reg::INTR_EQ_ERR);
}

bool Device::Impl::post_eqe(unsigned p, EqeType type, uint32_t d1, uint32_t d2, bool *overrun)
{
	EqState &e = ports_[p].eq;
	uint32_t q = reg::qpc(p);
	SpinGuard g(e.lock);
	uint32_t cfg = rd(q + reg::QPC_EVENT_QUE_CFG);
	if (!(cfg & reg::QPC_EVENT_QUE_CFG_ENABLE.mask()))
		return false;
	if (uint32_t m = ports_[p].seq_missing.load(std::memory_order_relaxed) & kSeqEq) {
		/* [seq_check] Without the EQ writer's MMU-bypass override the EQE does not reach
		 * host memory: the event is lost. */
		bump(e.lost);
		seq_refuse(p, m, "EQ write");
		return false;
	}
	uint32_t log2 = reg::QPC_EVENT_QUE_LOG_SIZE_R.get(rd(q + reg::QPC_EVENT_QUE_LOG_SIZE));
	uint32_t size = 1u << std::min<uint32_t>(log2, 24);
	uint32_t ci =
		reg::QPC_EVENT_QUE_CONSUMER_INDEX_CI.get(rd(q + reg::QPC_EVENT_QUE_CONSUMER_INDEX));
	if (((e.pi - ci) & EQ_IDX_MASK) >= size ||
	    (ports_[p].fault.armed.load(std::memory_order_relaxed) && /* [faults] */
	     fault_take_eq_full(ports_[p].fault))) {
		/* [model] A full EQ drops the event (OVERRUN_EN ignored) and raises its error
		 * source, 10 [gaudi2_cn.c gaudi2_cn_sw_err_event: "interrupt on error event
		 * queue"]. */
		bump(e.lost);
		*overrun = true;
		return false;
	}
	uint64_t base = rd_addr_shift7(q + reg::QPC_EVENT_QUE_BASE_ADDR_63_32,
				       q + reg::QPC_EVENT_QUE_BASE_ADDR_31_7);
	auto *eqe = reinterpret_cast<Eqe *>(iommu_.translate(
		base + uint64_t(e.pi & (size - 1)) * sizeof(Eqe), sizeof(Eqe), e.cache));
	if (eqe == nullptr) {
		bump(e.lost); /* [model] an EQ outside mapped memory loses the event */
		return false;
	}
	eqe->d1 = d1;
	eqe->d2 = d2;
	eqe->d3 = 0;
	store_release(&eqe->d0, EQE_VALID | (uint32_t(type) & EQE_TYPE_MASK));
	e.pi = (e.pi + 1) & EQ_IDX_MASK;
	wr(q + reg::QPC_EVENT_QUE_PRODUCER_INDEX, e.pi);
	wr(q + reg::QPC_EVENT_QUE_WRITE_INDEX, e.pi);
	if (cfg & reg::QPC_EVENT_QUE_CFG_WRITE_PI_EN.mask()) {
		uint64_t a = rd_addr_shift7(q + reg::QPC_EVENT_QUE_PI_ADDR_63_32,
					    q + reg::QPC_EVENT_QUE_PI_ADDR_31_7);
		auto *pi = reinterpret_cast<uint32_t *>(iommu_.translate(a, 4, e.cache));
		if (pi != nullptr)
			store_release(pi, e.pi);
	}
	/* [model] Only INTERRUPT_PER_EQE mode (what hbl_cn uses) interrupts. */
	return (cfg & reg::QPC_EVENT_QUE_CFG_INTERRUPT_PER_EQE.mask()) != 0;
}

/* A QPC interrupt source fired: latch its cause and, if its MSI is enabled (INTERRUPT_EN
 * INTERRUPTn_MSI_EN), it is unmasked and not already pending, signal the MSI (one-shot until
 * software writes INTERRUPT_CLR) [gaudi2_cn_eq.c]. */
void Device::Impl::raise_irq(unsigned p, uint32_t index)
{
	PortModel &pm = ports_[p];
	uint32_t q = reg::qpc(p), bit = reg::intr_bit(index);
	bool fire, wire;
	{
		SpinGuard g(pm.intr_lock);
		uint32_t cause = rd(q + reg::QPC_INTERRUPT_CAUSE),
			 en = rd(q + reg::QPC_INTERRUPT_EN);
		wire = en & reg::intr_wire_en(index);
		bool on = (wire || (en & reg::intr_msi_en(index))) &&
			  !(rd(q + reg::QPC_INTERRUPT_MASK) & bit);
		fire = on && !(cause & bit);
		if (on)
			wr(q + reg::QPC_INTERRUPT_CAUSE, cause | bit);
	}
	if (fire && wire && index == reg::INTR_EQ_ERR) {
		/* The wire goes to the device CPU: it reports GAUDI2_EVENT_NICn_SW_ERROR of the
		 * port's macro on the host's CPU event queue [gaudi2.c gaudi2_handle_eqe]. */
		fw_nic_sw_error(p);
		return;
	}
	if (fire && index == reg::INTR_EQ) {
		/* The MSI is an LBW write of INTERRUPT_DATA_9 to INTERRUPT_BASE_9: the port's
		 * sync object, whose monitor writes the MSI-X doorbell (gaudi_emu_sm.cpp). An
		 * unprogrammed route (BASE 0) reaches nothing, as on silicon. */
		lbw_write(reg::QPC_INTERRUPT_BASE_9_R.get(rd(q + reg::QPC_INTERRUPT_BASE_9)),
			  rd(q + reg::QPC_INTERRUPT_DATA_9));
		return;
	}
	/* [choice] Source 4 (rx_ring0) has no published route: it stays an eventfd the driver
	 * hands over (bind_irq), see gaudi_hw_model.rst. */
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

} /* namespace gaudi::emu */
