/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC device model, SerDes (gaudi_emu_serdes.cpp): a port's MCU and lanes.
 */
#pragma once

#include <array>
#include <cstdint>

#include "../base/gaudi_hw_defs.h"

namespace gaudi::emu {

/* [phy] A port's SerDes (gaudi_emu_serdes.cpp), under ctrl_lock; its registers are in
 * the region like the others'. */
struct SerdesModel {
	enum class Mcu { idle, loading, running } mcu = Mcu::idle;
	uint32_t sections = 0, bad_sections = 0;
	uint16_t crc = 0xFFFF;	     /* CRC-16/CCITT-FALSE of the words taken */
	uint32_t hash = 0x811C9DC5u; /* FNV-1a of the same words */
	bool lane_started[kLanesPerPort] = {};
	bool lane_pam4[kLanesPerPort] = {};
	bool silenced[kLanesPerPort] = {};
	uint8_t vco[kLanesPerPort] = {}; /* vcocap modes 1..4 received (bits) */
	std::array<uint32_t, 512> fw_regs{};
	uint64_t commands = 0;
};

} /* namespace gaudi::emu */
