/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 MAC statistics counters (MAC_GLOB_STAT): index n is the counter at RX/TX set base + 4 n,
 * in the order of nic0_mac_glob_stat_rx0_regs.h / nic0_mac_glob_stat_tx0_regs.h. Counters are
 * 64-bit: read the LO word, then MAC_GLOB_STAT_CONTROL DATA_HI holds bits 63:32 of it.
 */
#pragma once

#include <cstdint>
#include <iterator>

#include "gaudi_regs.h"

namespace gaudi::hw {

enum class RxStat : uint32_t {
	ether_stats_octets,
	octets_received_ok,
	alignment_errors,
	pause_mac_ctrl_frames_received,
	frame_too_long_errors,
	in_range_length_errors,
	frames_received_ok,
	frame_check_sequence_errors,
	vlan_received_ok,
	if_in_errors,
	if_in_ucast_pkts,
	if_in_multicast_pkts,
	if_in_broadcast_pkts,
	ether_stats_drop_events, /* frames the RX path could not take (CQ full) */
	ether_stats_pkts,
	ether_stats_undersize_pkts,
	ether_stats_pkts_64,
	ether_stats_pkts_65_to_127,
	ether_stats_pkts_128_to_255,
	ether_stats_pkts_256_to_511,
	ether_stats_pkts_512_to_1023,
	ether_stats_pkts_1024_to_1518,
	ether_stats_pkts_1519_to_max,
	ether_stats_oversize_pkts,
	ether_stats_jabbers,
	ether_stats_fragments,
	/* PFC (class-based flow control) PAUSE frames per priority [nic0_mac_glob_stat_regs.h ACBFCPAUSEFRAMESRECEIVED0
	 * + 4 * prio]. */
	cbfc_pause_frames_received_0,
	cbfc_pause_frames_received_7 = cbfc_pause_frames_received_0 + 7,
	mac_control_frames_received,
	count
};

inline constexpr const char *kRxStatNames[] = {
	"etherStatsOctets", "OctetsReceivedOK", "aAlignmentErrors",
	"aPAUSEMACCtrlFramesReceived", "aFrameTooLongErrors", "aInRangeLengthErrors",
	"aFramesReceivedOK", "aFrameCheckSequenceErrors", "VLANReceivedOK", "ifInErrors",
	"ifInUcastPkts", "ifInMulticastPkts", "ifInBroadcastPkts", "etherStatsDropEvents",
	"etherStatsPkts", "etherStatsUndersizePkts", "etherStatsPkts64Octets",
	"etherStatsPkts65to127Octets", "etherStatsPkts128to255Octets",
	"etherStatsPkts256to511Octets", "etherStatsPkts512to1023Octets",
	"etherStatsPkts1024to1518Octets", "etherStatsPkts1519toMaxOctets",
	"etherStatsOversizePkts", "etherStatsJabbers", "etherStatsFragments",
	"aCBFCPAUSEFramesReceived_0", "aCBFCPAUSEFramesReceived_1", "aCBFCPAUSEFramesReceived_2",
	"aCBFCPAUSEFramesReceived_3", "aCBFCPAUSEFramesReceived_4", "aCBFCPAUSEFramesReceived_5",
	"aCBFCPAUSEFramesReceived_6", "aCBFCPAUSEFramesReceived_7", "aMACControlFramesReceived",
};
static_assert(std::size(kRxStatNames) == static_cast<size_t>(RxStat::count));

enum class TxStat : uint32_t {
	ether_stats_octets,
	octets_transmitted_ok,
	pause_mac_ctrl_frames_transmitted,
	frames_transmitted_ok,
	vlan_transmitted_ok,
	if_out_errors,
	if_out_ucast_pkts,
	if_out_multicast_pkts,
	if_out_broadcast_pkts,
	ether_stats_pkts_64,
	ether_stats_pkts_65_to_127,
	ether_stats_pkts_128_to_255,
	ether_stats_pkts_256_to_511,
	ether_stats_pkts_512_to_1023,
	ether_stats_pkts_1024_to_1518,
	ether_stats_pkts_1519_to_max,
	cbfc_pause_frames_transmitted_0,
	cbfc_pause_frames_transmitted_7 = cbfc_pause_frames_transmitted_0 + 7,
	mac_control_frames_transmitted,
	ether_stats_pkts,
	count
};

inline constexpr const char *kTxStatNames[] = {
	"etherStatsOctets", "OctetsTransmittedOK", "aPAUSEMACCtrlFramesTransmitted",
	"aFramesTransmittedOK", "VLANTransmittedOK", "ifOutErrors", "ifOutUcastPkts",
	"ifOutMulticastPkts", "ifOutBroadcastPkts", "etherStatsPkts64Octets",
	"etherStatsPkts65to127Octets", "etherStatsPkts128to255Octets",
	"etherStatsPkts256to511Octets", "etherStatsPkts512to1023Octets",
	"etherStatsPkts1024to1518Octets", "etherStatsPkts1519toMaxOctets",
	"aCBFCPAUSEFramesTransmitted_0", "aCBFCPAUSEFramesTransmitted_1",
	"aCBFCPAUSEFramesTransmitted_2", "aCBFCPAUSEFramesTransmitted_3",
	"aCBFCPAUSEFramesTransmitted_4", "aCBFCPAUSEFramesTransmitted_5",
	"aCBFCPAUSEFramesTransmitted_6", "aCBFCPAUSEFramesTransmitted_7",
	"aMACControlFramesTransmitted", "etherStatsPkts",
};
static_assert(std::size(kTxStatNames) == static_cast<size_t>(TxStat::count));
/* The last counter of each set sits where the published map puts it. */
static_assert(4 * static_cast<uint32_t>(RxStat::mac_control_frames_received) ==
	      reg::MAC_GLOB_STAT_RX0_AMACCONTROLFRAMESRECEIVED);
static_assert(4 * static_cast<uint32_t>(TxStat::ether_stats_pkts) ==
	      reg::MAC_GLOB_STAT_TX0_ETHERSTATSPKTS_4);

} /* namespace gaudi::hw */
