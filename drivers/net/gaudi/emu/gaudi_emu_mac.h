/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model, MAC (gaudi_emu_mac.cpp): the MAC counters a batch of good frames
 * moves (MacTally), and the class of a frame they are counted by. The counters themselves are
 * in the shared region (SharedNic), the link state in PortModel.
 */
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <utility>

#include <rte_ether.h>

#include "../base/gaudi_mac_stats.h"
#include "gaudi_emu_common.h"

namespace gaudi::emu {

namespace detail {

/* The MAC counters every good frame moves, for a batch of frames: added to the shared
 * counters once per batch (MacTally::flush) instead of per frame. A reader of the counters
 * sees a batch's frames together at its end, the others at once. */
struct MacTallyMap {
	size_t octets_fcs, octets, frames, pkts, ucast, mcast, bcast, vlan, size64;
};
inline constexpr MacTallyMap kTxTally = {
	size_t(TxStat::ether_stats_octets),    size_t(TxStat::octets_transmitted_ok),
	size_t(TxStat::frames_transmitted_ok), size_t(TxStat::ether_stats_pkts),
	size_t(TxStat::if_out_ucast_pkts),     size_t(TxStat::if_out_multicast_pkts),
	size_t(TxStat::if_out_broadcast_pkts), size_t(TxStat::vlan_transmitted_ok),
	size_t(TxStat::ether_stats_pkts_64)};
inline constexpr MacTallyMap kRxTally = {
	size_t(RxStat::ether_stats_octets),   size_t(RxStat::octets_received_ok),
	size_t(RxStat::frames_received_ok),   size_t(RxStat::ether_stats_pkts),
	size_t(RxStat::if_in_ucast_pkts),     size_t(RxStat::if_in_multicast_pkts),
	size_t(RxStat::if_in_broadcast_pkts), size_t(RxStat::vlan_received_ok),
	size_t(RxStat::ether_stats_pkts_64)};

/* The EtherType field (bytes 12-13). */
inline uint16_t ether_type(const uint8_t *p)
{
	uint16_t v;
	std::memcpy(&v, p + 12, sizeof(v));
	return rte_be_to_cpu_16(v);
}
/* MAC control frames (PAUSE, PFC; IEEE 802.3 clause 31): rte_ether.h has no name for it. */
inline constexpr uint16_t kEtherTypeMacControl = 0x8808;

/* RMON size bucket of a frame of fl >= 64 bytes with FCS: 64, 65-127, 128-255, 256-511,
 * 512-1023, 1024-1518, 1519+ (ether_stats_pkts_64 .. _1519_to_max). 65..1518 are the powers of
 * two 2^6 .. 2^10 apart, so the bit width picks the bucket without a chain of compares. */
inline unsigned rmon_bucket(uint32_t fl)
{
	if (fl == 64)
		return 0;
	if (fl > 1518)
		return 6;
	return unsigned(std::bit_width(fl)) - 6;
}

/* What the MAC counters need of a good frame, worked out once per frame and shared by the
 * sending and the receiving MAC of a model cable: the RMON size bucket (kClsNoBucket below 64
 * bytes with FCS), the group bit (multicast, broadcast included), broadcast, an 802.1Q tag,
 * and whether it is a MAC control frame (not counted here: PAUSE/PFC have counters of their
 * own). */
inline constexpr uint32_t kClsBucketMask = 0x7, kClsNoBucket = 0x7;
inline constexpr uint32_t kClsMcast = 0x8, kClsBcast = 0x10, kClsVlan = 0x20;
inline constexpr uint32_t kClsTallyMask = 0x3F; /* the bits MacTally counts by */
inline constexpr uint32_t kClsMacCtrl = 0x40;
inline uint32_t frame_class(const uint8_t *data, uint32_t len)
{
	const uint64_t dst = len >= 6 ? mac48(data) : 0;
	uint32_t fl = len + kFcsLen;
	uint32_t c = fl >= 64 ? rmon_bucket(fl) : kClsNoBucket;
	c |= (dst & 1) ? kClsMcast : 0;
	c |= dst == kEtherBroadcast ? kClsBcast : 0;
	if (len >= 14) {
		uint16_t et = ether_type(data);
		c |= et == RTE_ETHER_TYPE_VLAN ? kClsVlan : 0;
		c |= et == kEtherTypeMacControl ? kClsMacCtrl : 0;
	}
	return c;
}

/* Good frames counted by class (frame_class & kClsTallyMask): one increment per frame, the
 * counters worked out at flush from the classes the batch touched. */
struct MacTally {
	uint64_t wire = 0;    /* frames on the wire (TxState::wire_tx / RxState::wire_rx) */
	uint64_t octets = 0;  /* without FCS */
	uint64_t touched = 0; /* bit per class with a frame since the last flush */
	std::array<uint64_t, kClsTallyMask + 1> n{};

	/* A good frame of len bytes (no FCS) of class cls (frame_class). */
	void frame(uint32_t len, uint32_t cls)
	{
		cls &= kClsTallyMask;
		n[cls]++;
		octets += len;
		touched |= 1ull << cls;
	}
	void flush(uint64_t *st, uint64_t &wire_ctr, const MacTallyMap &m)
	{
		if (wire != 0)
			bump(wire_ctr, wire);
		wire = 0;
		if (touched == 0)
			return;
		uint64_t frames = 0, mcast = 0, bcast = 0, vlan = 0;
		for (uint64_t t = touched; t != 0; t &= t - 1) { /* a batch has a class or two */
			unsigned c = unsigned(std::countr_zero(t));
			uint64_t k = std::exchange(n[c], 0);
			frames += k;
			mcast += (c & kClsMcast) ? k : 0;
			bcast += (c & kClsBcast) ? k : 0;
			vlan += (c & kClsVlan) ? k : 0;
			if ((c & kClsBucketMask) != kClsNoBucket)
				bump(st[m.size64 + (c & kClsBucketMask)], k);
		}
		touched = 0;
		bump(st[m.octets_fcs], octets + frames * kFcsLen);
		bump(st[m.octets], octets);
		octets = 0;
		bump(st[m.frames], frames);
		bump(st[m.pkts], frames);
		const std::pair<size_t, uint64_t> rest[] = {{m.ucast, frames - mcast},
							    {m.mcast, mcast - bcast},
							    {m.bcast, bcast},
							    {m.vlan, vlan}};
		for (const auto &[i, k] : rest)
			if (k != 0)
				bump(st[i], k);
	}
};

} /* namespace detail */

} /* namespace gaudi::emu */
