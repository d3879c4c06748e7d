/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: bring-up shared by both probes (net_gaudi and net_gaudi_emu): firmware, then the
 * list of ports to create with their station addresses.
 */
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/gaudi_hw_defs.h"
#include "gaudi_backend.h"

/* What each probe knows of the ports today, until the firmware handshake reports them.
 * TODO(firmware handshake, issue 8 item 1/2): NIC_INFO_GET's reply gives the link mask and the
 * station MACs; then this goes away and gaudi_bringup fills gaudi_bringup_port from it. */
struct gaudi_interim_ports {
	uint32_t port_mask = 0;
	std::array<std::array<uint8_t, 6>, gaudi::hw::kMaxPorts> mac{};
};

/* One ethdev to create: NIC port and station address. */
struct gaudi_bringup_port {
	unsigned hw_port;
	std::array<uint8_t, 6> mac;
};

/* Loads the firmware images through the backend and returns the ports to create, in NIC port
 * order. Returns 0, or a negative errno and a line saying what failed in *err. */
int gaudi_bringup(gaudi::Backend &be, const gaudi_interim_ports &interim,
		  std::vector<gaudi_bringup_port> *ports, std::string *err);
