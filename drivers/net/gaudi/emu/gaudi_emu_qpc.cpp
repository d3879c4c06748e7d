/* SPDX-License-Identifier: BSD-3-Clause
 * Model of the QPC block: QP context gateway, secured doorbell FIFO, CQ consumer index and CQ
 * arm writes, interrupt clear. Registers: nic0_qpc0_regs.h / _masks.h; behaviour: gaudi2_cn.c
 * (qpc_write_masked, qpc_read, db_fifo_reset) and gaudi2_en.c.
 */
#include "gaudi_emu_impl.h"

#include <algorithm>
#include <cstring>

namespace gaudi::emu {

using namespace detail;

namespace {
template <size_t N>
inline void apply_gateway(std::array<uint32_t, N> &img, const uint32_t *data, const uint32_t *mask)
{
	for (size_t i = 0; i < N; i++)
		img[i] = (img[i] & ~mask[i]) | (data[i] & mask[i]);
}
} /* namespace */

void Device::Impl::on_qpc_write(unsigned p, uint32_t r, uint32_t val, uint32_t old)
{
	uint32_t q = reg::qpc(p);
	(void)old;
	switch (r) {
	case reg::QPC_SECURED_DB_SECOND32: /* the second dword pushes the 8-byte doorbell */
		doorbell(p, rd(q + reg::QPC_SECURED_DB_FIRST32), val);
		break;
	case reg::QPC_SECURED_CQ_CONSUMER_INDEX:
		if (reg::QPC_SECURED_CQ_NUMBER_CQ_NUM.get(rd(q + reg::QPC_SECURED_CQ_NUMBER)) ==
		    kRawCq)
			cq_write_ci(p, val);
		break;
	case reg::QPC_ARM_CQ_INDEX:
		if (reg::QPC_ARM_CQ_NUM_CQ_NUM.get(rd(q + reg::QPC_ARM_CQ_NUM)) == kRawCq)
			cq_arm(p, val);
		break;
	case reg::QPC_REQ_BASE_ADDRESS_63_32: /* [seq_check] contexts in device memory */
	case reg::QPC_REQ_BASE_ADDRESS_31_7:
		if (cfg_.seq_check)
			qpc_rebase(p, true);
		break;
	case reg::QPC_RES_BASE_ADDRESS_63_32:
	case reg::QPC_RES_BASE_ADDRESS_31_7:
		if (cfg_.seq_check)
			qpc_rebase(p, false);
		break;
	case reg::QPC_GW_BUSY:
		if (val & reg::QPC_GW_BUSY_R.mask())
			gateway(p);
		break;
	case reg::QPC_INTERRUPT_CLR:
		clear_irq(p, val);
		wr(q + r, 0); /* a command, not a state */
		break;
	case reg::QPC_EVENT_QUE_CFG:
		if (!(old & reg::QPC_EVENT_QUE_CFG_ENABLE.mask()) &&
		    (val & reg::QPC_EVENT_QUE_CFG_ENABLE.mask()))
			eq_reset(p);
		break;
	case reg::QPC_EVENT_QUE_PRODUCER_INDEX: {
		/* gaudi2_cn_eq.c zeroes the indexes before enabling the EQ. */
		SpinGuard g(ports_[p].eq.lock);
		ports_[p].eq.pi = reg::QPC_EVENT_QUE_PRODUCER_INDEX_R.get(val);
		break;
	}
	default:
		break;
	}
}

/* QPC gateway [gaudi2_cn.c qpc_write_masked / qpc_read]: GW_MASK and GW_DATA, GW_CTRL (QPN,
 * REQUESTER), then GW_BUSY = 1. Masked bits are written; with every mask bit clear the
 * operation is a read that fills GW_DATA with the context. The model completes at once and
 * clears BUSY. Only the raw QP (QPN 0) exists in the model. */
void Device::Impl::gateway(unsigned p)
{
	uint32_t q = reg::qpc(p), ctrl = rd(q + reg::QPC_GW_CTRL);
	uint32_t data[32], mask[32];
	bool any = false;
	for (uint32_t i = 0; i < 32; i++) {
		data[i] = rd(q + reg::QPC_GW_DATA_0 + 4 * i);
		mask[i] = rd(q + reg::QPC_GW_MASK_0 + 4 * i);
		any |= mask[i] != 0;
	}
	uint32_t qpn = reg::QPC_GW_CTRL_QPN.get(ctrl);
	bool req = ctrl & reg::QPC_GW_CTRL_REQUESTER.mask();
	PortModel &pm = ports_[p];
	if (qpn != kRawQpn) {
		/* [model] contexts other than the raw QP read as zero and ignore writes */
		if (!any)
			for (uint32_t i = 0; i < 32; i++)
				wr(q + reg::QPC_GW_DATA_0 + 4 * i, 0);
	} else if (any && !fw_qp_check(p, req, data, mask)) {
		/* [firmware] refused: no effect (fw_qp_check logged it) */
	} else if (!any) {
		if (req) {
			SpinGuard g(pm.tx.lock);
			qpc::Image<qpc::kReqDwords> img;
			img.data = pm.tx.req;
			img.set(qpc::REQ_EXECUTION_IDX, pm.tx.exec);
			img.set(qpc::REQ_ERROR, pm.tx.error ? 1 : 0);
			for (uint32_t i = 0; i < qpc::kReqDwords; i++)
				wr(q + reg::QPC_GW_DATA_0 + 4 * i, img.data[i]);
		} else {
			SpinGuard g(pm.rx.lock);
			for (uint32_t i = 0; i < qpc::kResDwords; i++)
				wr(q + reg::QPC_GW_DATA_0 + 4 * i, pm.rx.res[i]);
		}
	} else if (req) {
		SpinGuard g(pm.tx.lock);
		TxState &t = pm.tx;
		apply_gateway(t.req, data, mask);
		if (pm.fault.stuck.load(std::memory_order_relaxed)) {
			/* [faults][model] A requester QPC write releases a stuck engine; the doorbells
			 * it left in the FIFO are discarded (consumed, no effect). */
			SpinGuard gf(pm.fault.lock);
			pm.fault.stuck.store(false, std::memory_order_relaxed);
			pm.fault.rearm();
			uint32_t n = pm.fifo.pushed.load(std::memory_order_acquire);
			pm.fifo.popped.store(n, std::memory_order_release);
			write_db_ci(p, n);
		}
		req_apply(p, true);
		if (cfg_.seq_check) /* [seq_check] the context lands in device memory */
			qpc_store(p, true);
	} else {
		SpinGuard g(pm.rx.lock);
		apply_gateway(pm.rx.res, data, mask);
		if (cfg_.seq_check)
			qpc_store(p, false);
		pm.rx.valid = field<qpc::kResDwords>(pm.rx.res, qpc::RES_VALID) != 0;
	}
	wr(q + reg::QPC_GW_BUSY, 0);
}

/* What the TX engine derives from its requester context. restart: a gateway write, which
 * (re)starts a valid QP (error cleared); otherwise the context was loaded from device memory
 * as it was left there (error kept). Under tx.lock. */
void Device::Impl::req_apply(unsigned p, bool restart)
{
	PortModel &pm = ports_[p];
	TxState &t = pm.tx;
	t.valid = field<qpc::kReqDwords>(t.req, qpc::REQ_VALID) != 0;
	if (t.paused && !t.valid) {
		/* [model] A QP invalidated while paused by flow control: the doorbells waiting
		 * for XON are discarded (consumed, no effect), like a stop. */
		uint32_t n = pm.fifo.pushed.load(std::memory_order_acquire);
		pm.fifo.popped.store(n, std::memory_order_release);
		write_db_ci(p, n);
		set_tx_paused(p, false);
	}
	t.raw = field<qpc::kReqDwords>(t.req, qpc::REQ_TS) == qpc::TS_RAW;
	t.last_idx = field<qpc::kReqDwords>(t.req, qpc::REQ_LAST_IDX);
	/* MTU is stored but not enforced: TXE's raw size checker bounds the WQE size. */
	if (t.valid) {
		/* A valid requester image (re)starts the QP: execution index from the image,
		 * error state cleared. */
		t.exec = field<qpc::kReqDwords>(t.req, qpc::REQ_EXECUTION_IDX) & t.last_idx;
		t.error = !restart && field<qpc::kReqDwords>(t.req, qpc::REQ_ERROR) != 0;
		if (restart) {
			seq_port_start(p); /* [seq_check] missing steps are logged again */
			uint32_t b = qpc::REQ_ERROR.bit;
			t.req[b / 32] &= ~(1u << (b % 32));
		}
	}
}

/* ---- [seq_check] QP contexts in device memory ---- */

/* Where the contexts of a port's QPs start: REQ/RES_BASE_ADDRESS_63_32 and _31_7 (address >> 7)
 * [gaudi2_cn.c config_port_hw_qpc]; context n at + n x its size (128 B requester, 32 B
 * responder [gaudi2.h]). */
uint64_t Device::Impl::qpc_base(unsigned p, bool req) const
{
	uint32_t q = reg::qpc(p);
	return req ? rd_addr_shift7(q + reg::QPC_REQ_BASE_ADDRESS_63_32,
				    q + reg::QPC_REQ_BASE_ADDRESS_31_7)
		   : rd_addr_shift7(q + reg::QPC_RES_BASE_ADDRESS_63_32,
				    q + reg::QPC_RES_BASE_ADDRESS_31_7);
}

/* The raw QP's context, as the engine holds it, written to its place in device memory. Under
 * tx.lock (req) or rx.lock. [model] A base of 0 is "not programmed": nothing is written (the
 * seq_check step names the missing base). */
void Device::Impl::qpc_store(unsigned p, bool req)
{
	PortModel &pm = ports_[p];
	uint64_t base = req ? pm.tx.qpc_base : pm.rx.qpc_base;
	if (base == 0)
		return;
	if (req) {
		qpc::Image<qpc::kReqDwords> img;
		img.data = pm.tx.req;
		img.set(qpc::REQ_EXECUTION_IDX, pm.tx.exec);
		img.set(qpc::REQ_ERROR, pm.tx.error ? 1 : 0);
		dram_write(base + uint64_t(kRawQpn) * kReqQpcBytes, img.data.data(), kReqQpcBytes);
	} else {
		dram_write(base + uint64_t(kRawQpn) * kResQpcBytes, pm.rx.res.data(), kResQpcBytes);
	}
}

/* REQ/RES_BASE_ADDRESS written: [model] the engine's context is a write-back cache of the one
 * at the base: it is written back to the old base and read from the new one (unwritten
 * memory reads 0: no valid QP there). A base of 0 (not programmed; the seq_check step refuses
 * the traffic) moves nothing: the contexts stay where they were. */
void Device::Impl::qpc_rebase(unsigned p, bool req)
{
	PortModel &pm = ports_[p];
	const uint64_t nb = qpc_base(p, req);
	if (req) {
		SpinGuard g(pm.tx.lock);
		if (nb == 0 || nb == pm.tx.qpc_base)
			return;
		qpc_store(p, true);
		pm.tx.qpc_base = nb;
		dram_read(nb + uint64_t(kRawQpn) * kReqQpcBytes, pm.tx.req.data(), kReqQpcBytes);
		req_apply(p, false);
	} else {
		SpinGuard g(pm.rx.lock);
		if (nb == 0 || nb == pm.rx.qpc_base)
			return;
		qpc_store(p, false);
		pm.rx.qpc_base = nb;
		dram_read(nb + uint64_t(kRawQpn) * kResQpcBytes, pm.rx.res.data(), kResQpcBytes);
		pm.rx.valid = field<qpc::kResDwords>(pm.rx.res, qpc::RES_VALID) != 0;
	}
}

void Device::Impl::dram_write(uint64_t a, const void *src, size_t n)
{
	SpinGuard g(dram_.lock);
	const auto *s = static_cast<const uint8_t *>(src);
	while (n != 0) {
		uint64_t page = a / kDramPage, off = a % kDramPage;
		size_t k = std::min<size_t>(n, kDramPage - off);
		auto &pg = dram_.pages[page];
		if (!pg) {
			pg = std::make_unique<uint8_t[]>(kDramPage);
			std::memset(pg.get(), 0, kDramPage);
		}
		std::memcpy(pg.get() + off, s, k);
		a += k, s += k, n -= k;
	}
}

void Device::Impl::dram_read(uint64_t a, void *dst, size_t n)
{
	SpinGuard g(dram_.lock);
	auto *d = static_cast<uint8_t *>(dst);
	while (n != 0) {
		uint64_t page = a / kDramPage, off = a % kDramPage;
		size_t k = std::min<size_t>(n, kDramPage - off);
		auto it = dram_.pages.find(page);
		if (it == dram_.pages.end())
			std::memset(d, 0, k);
		else
			std::memcpy(d, it->second.get() + off, k);
		a += k, d += k, n -= k;
	}
}

bool Device::read_device_memory(uint64_t addr, void *out, size_t len) const
{
	if (!impl_->cfg_.seq_check)
		return false;
	impl_->dram_read(addr, out, len);
	return true;
}

/* Secured doorbell FIFO: 64 entries of 8 bytes [gaudi2_cn.h NIC_FIFO_DB_SIZE]. A push into a
 * full FIFO is lost and raises DB_FIFO_OVERRUN with the FIFO id. */
void Device::Impl::doorbell(unsigned p, uint32_t first, uint32_t second)
{
	DbFifo &f = ports_[p].fifo;
	bool overrun = false;
	{
		SpinGuard g(f.lock);
		uint32_t n = f.pushed.load(std::memory_order_relaxed);
		if (n - f.popped.load(std::memory_order_acquire) >= kDbFifoEntries ||
		    ((second & EQE_QPN_MASK) == kRawQpn && /* [faults] not the FIFO-reset dummies */
		     ports_[p].fault.armed.load(std::memory_order_relaxed) &&
		     fault_take_db_drop(ports_[p].fault))) {
			overrun = true;
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

/* The CI the hardware DMA-writes after consuming doorbells: a FIFO position (6 bits) one less
 * than the number consumed, never reset by software [gaudi2_cn.c __db_fifo_reset: "CI updated
 * by HW is one less than number of doorbells pushed", "no provision for S/W to reset H/W CI"].
 * Before the first doorbell nothing is written (the driver's zeroed buffer reads 0). */
void Device::Impl::write_db_ci(unsigned p, uint32_t consumed)
{
	if (consumed == 0)
		return;
	if (uint32_t m = ports_[p].seq_missing.load(std::memory_order_relaxed) & kSeqCi) {
		seq_refuse(p, m, "DB FIFO CI write"); /* [seq_check] no MMU-bypass override */
		return;
	}
	uint32_t d = reg::qpc_dbfifosecur(p);
	uint64_t a = rd_addr_shift7(d + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_63_32,
				    d + reg::QPC_DBFIFOSECUR_CI_UPD_ADDR_DBFIFO_CI_UPD_ADDR_31_7);
	IommuCache c; /* slow path only when the address is not where the last one was */
	auto *dst = reinterpret_cast<uint32_t *>(iommu_.translate(a, sizeof(uint32_t), c));
	if (dst != nullptr)
		store_release(dst, (consumed - 1) % kDbFifoEntries); /* unmapped: update lost */
}

} /* namespace gaudi::emu */
