/* SPDX-License-Identifier: BSD-3-Clause
 * Model of RXB_CORE's raw address filter and of the flow control the receiving side drives:
 * TS_RAW0_MAC_{31_0,47_32}_n with their MASK registers (index 0 = even port, 2 = odd port;
 * mask bits set = don't care), TXB GLOBAL_PAUSE. Sources: nic0_rxb_core_regs.h / _masks.h,
 * gaudi2_cn.c config_hw_mac_filter.
 */
#include "gaudi_emu_impl.h"

namespace gaudi::emu {

using namespace detail;

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
	/* [choice] TXB GLOBAL_PAUSE bit (port & 1): this port's MAC may send PAUSE/PFC. */
	v.pause_gen = (v.cmd & reg::CMD_RX_ENA) &&
		      (rd(reg::txb(q) + reg::TXB_GLOBAL_PAUSE) & (1u << (q & 1)));
}

/* rxb_pass, the per-frame filter, is inline in gaudi_emu_impl.h. */

} // namespace gaudi::emu
