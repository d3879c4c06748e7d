/* SPDX-License-Identifier: BSD-3-Clause
 * Model of RXB_CORE: the raw address filter (TS_RAW0_MAC_{31_0,47_32}_n with their MASK
 * registers; index 0 = even port, 2 = odd port; mask bits set = don't care), and the receive
 * buffer with its thresholds. Sources: nic0_rxb_core_regs.h / _masks.h, gaudi2_cn.c
 * config_hw_mac_filter, config_hw_rxb, stop_traffic_macro, qpc_invalidate ("In case PFC is
 * sent due to CQ overflow, no Tx can be sent until CQ releases the back-pressure").
 *
 * The buffer, as published: frames wait in the RXB while the completion queue cannot take
 * them (a full CQ back-pressures into the RXB, CQ_CFG OVERRUN_EN clear); the RXB drops a frame
 * when its fill has reached DROP_THRESHOLD (DROP_SMALL_THRESHOLD for small frames), and the
 * MAC sends XOFF once the fill passes XOFF_THRESHOLD, XON when it is back at XON_THRESHOLD
 * (MAC_PFC_MODE: one global pause for every priority). Thresholds count 128-byte buffers
 * (gaudi2_cn.h RXB_BUFF_SIZE; the driver derives them from NIC_MAX_FRM_LEN / 128 + 1 buffers
 * per frame). A drop latches SPI_INTR_CAUSE.PKT_DROP_NO_CRDT ("Packet dropped due to no
 * available buffers", gaudi2_cn.c rxb_core_spi_interrupts_cause).
 * [model] The buffer holds only what the CQ could not take: a frame the CQ has room for
 * passes at once. Each port has the macro's 2880 buffers to itself (its thresholds, 1374 at
 * most as hbl_cn programs them, bound it first).
 * [choice] A "small" frame is one of a single buffer (the small-drop threshold is not defined
 * in the sources beyond its value, RXB_DROP_SMALL_TH_DEPTH 3: searched DROP_SMALL, small_pkt).
 * [choice] The port's field of priority 0's register, as for the credits (rxb_port_field).
 */
#include "gaudi_emu_impl.h"

#include <cstring>

namespace gaudi::emu {

using namespace detail;

namespace {
constexpr uint32_t kRxbBuff = 128; /* RXB_BUFF_SIZE */

constexpr uint32_t buffers_of(uint32_t len)
{
	return (len + kRxbBuff - 1) / kRxbBuff;
}
} /* namespace */

void Device::Impl::rxb_view(unsigned q, RxView &v) const
{
	uint32_t rxb = reg::rxb(q), ch = reg::mac_128(q, 0);
	auto filter = [&](uint32_t reg0) { return rd(rxb + reg::rxb_filter_reg(reg0, q)); };
	v.mac = rxb_mac48(filter(reg::RXB_CORE_TS_RAW0_MAC_47_32_0),
			  filter(reg::RXB_CORE_TS_RAW0_MAC_31_0_0));
	v.mac_mask = rxb_mac48(filter(reg::RXB_CORE_TS_RAW0_MAC_47_32_MASK_0),
			       filter(reg::RXB_CORE_TS_RAW0_MAC_31_0_MASK_0));
	v.station = rd(ch + reg::MAC_128_MAC_ADDR_0) |
		    (uint64_t(rd(ch + reg::MAC_128_MAC_ADDR_1) & 0xFFFF) << 32);
	v.pass_all = (v.cmd & reg::CMD_PROMIS_EN) && (~v.mac_mask & 0xFFFFFFFFFFFFull) == 0;
	const reg::Field f = reg::rxb_port_field(q);
	v.drop_th = f.get(rd(rxb + reg::RXB_CORE_DROP_THRESHOLD_0));
	v.drop_small_th = f.get(rd(rxb + reg::RXB_CORE_DROP_SMALL_THRESHOLD_0));
	v.xoff_th = f.get(rd(rxb + reg::rxb_xoff_threshold(0)));
	v.xon_th = f.get(rd(rxb + reg::rxb_xon_threshold(0)));
}

/* rxb_pass, the per-frame filter, is inline in gaudi_emu_impl.h. */

void Device::Impl::rxb_hold(unsigned q, const RxView &v, const uint8_t *data, uint32_t len)
{
	RxState &r = ports_[q].rx;
	auto &b = r.rxb;
	const uint32_t n = buffers_of(len);
	const uint32_t th = n == 1 ? v.drop_small_th : v.drop_th;
	/* (A frame the MAC took is at most NIC_MAC_MAX_FRM_LEN: the buffer's slack holds it.) */
	if (b.fill >= th || b.fill + n > b.kBuffers || len > kMacMaxFrameLen) {
		/* Dropped after the MAC counted it: etherStatsDropEvents (imissed), the RXB's
		 * interrupt cause, and one COMP_ERR per episode of a full CQ [gaudi2_cn_eq.c]. */
		bump(r.stats[size_t(RxStat::ether_stats_drop_events)]);
		const uint32_t cause = reg::rxb(q) + reg::RXB_CORE_SPI_INTR_CAUSE;
		wr(cause, rd(cause) | reg::RXB_CORE_SPI_INTR_CAUSE_PKT_DROP_NO_CRDT.mask());
		if (!r.overrun) {
			r.overrun = true;
			post_eq(q, EqeType::comp_err, kRawCq, 0);
		}
		return;
	}
	const uint32_t at = (b.head_buf + b.fill) % b.kBuffers;
	std::memcpy(b.buf.get() + size_t(at) * kRxbBuff, data, len);
	b.len[b.tail % b.kBuffers] = uint16_t(len);
	b.tail++;
	b.fill += n;
	b.frames.store(b.tail - b.head, std::memory_order_relaxed);
	/* XOFF: the MAC (sending, TX_ENA) tells the port whose frames arrive here, one PAUSE
	 * (or PFC frame, PFC_MODE) per episode, counted on both sides. */
	if (!b.xoff && b.fill >= v.xoff_th && (v.cmd & reg::CMD_TX_ENA)) {
		b.xoff = true;
		if (int s = rx_peer(q); s >= 0)
			count_pause(q, unsigned(s), v.cmd & reg::CMD_PFC_MODE);
	}
}

bool Device::Impl::rxb_drain(unsigned q, const RxView &v)
{
	RxState &r = ports_[q].rx;
	auto &b = r.rxb;
	if (!v.enabled || v.seq_missing != 0)
		return false;
	bool moved = false;
	while (b.head != b.tail && cq_room(q, v.cq_size) != 0) {
		const uint32_t len = b.len[b.head % b.kBuffers];
		cq_put(q, v, b.buf.get() + size_t(b.head_buf) * kRxbBuff, len);
		const uint32_t n = buffers_of(len);
		b.head_buf = (b.head_buf + n) % b.kBuffers;
		b.fill -= n;
		b.head++;
		moved = true;
	}
	b.frames.store(b.tail - b.head, std::memory_order_relaxed);
	if (b.xoff && b.fill <= v.xon_th)
		b.xoff = false; /* XON */
	return moved;
}

bool Device::Impl::rxb_pump(unsigned q)
{
	RxState &r = ports_[q].rx;
	if (r.rxb.frames.load(std::memory_order_relaxed) == 0)
		return false;
	SpinGuard g(r.lock);
	RxView v = rx_view(q);
	if (!rxb_drain(q, v))
		return false;
	rx_publish(q, v);
	return true;
}

/* [model] The RXB empties with the CQ it feeds (CQ enabled again) or stopped traffic. */
void Device::Impl::rxb_reset(unsigned q)
{
	auto &b = ports_[q].rx.rxb;
	b.head = b.tail = b.head_buf = b.fill = 0;
	b.xoff = false;
	b.frames.store(0, std::memory_order_relaxed);
}

} /* namespace gaudi::emu */
