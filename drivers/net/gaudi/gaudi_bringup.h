/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: bring-up shared by both probes (net_gaudi and net_gaudi_emu), the same code on
 * silicon and on the model: preboot status, the boot protocol with the firmware files, the CPU
 * queue, ENABLE_PCI_ACCESS and NIC_INFO_GET, whose reply says which ports exist (link_mask)
 * and their station addresses. doc/guides/gaudi_hw_model.rst has the sequence.
 */
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <rte_memzone.h>

#include "base/gaudi_fw.h"
#include "base/gaudi_hw_defs.h"
#include "gaudi_backend.h"
#include "gaudi_devargs.h"

/* The firmware connection of an adapter (primary process only): the host side of the
 * protocol, the DMA memory of the CPU queue, and what NIC_INFO_GET reported. */
struct gaudi_fw_state {
	std::unique_ptr<gaudi::hw::fw::FwHost> host;
	const rte_memzone *mz = nullptr; /* PQ, EQ, CPU-accessible memory, MSI-X doorbell */
	gaudi::hw::fw::CpucpNicInfo info{};
	bool pci_access = false; /* ENABLE_PCI_ACCESS acknowledged */
	uint64_t open_mask = 0;	 /* NIC ports brought up (TMR/TXS programmed; stop_traffic) */

	gaudi_fw_state() = default;
	gaudi_fw_state(const gaudi_fw_state &) = delete;
	gaudi_fw_state &operator=(const gaudi_fw_state &) = delete;
	/* Tells the firmware the host stops (DISABLE_PCI_ACCESS, as habanalabs does before a
	 * reset or removal), then frees the queue memory. */
	~gaudi_fw_state();
};

/* One ethdev to create: NIC port and station address. */
struct gaudi_bringup_port {
	unsigned hw_port;
	std::array<uint8_t, 6> mac;
};

/* Brings the device's firmware up through the backend and returns, in NIC port order, the
 * ports to create: those the firmware enables (NIC_INFO_GET link_mask) and, if drv.port_mask
 * is not 0, the user asked for (a requested port the firmware masks off fails the probe).
 * Each macro's MAC core and TXB are set up for drv.speed of its open ports, which must agree
 * (they share them), and a speed=PORT:MBPS devarg must name an open port.
 * name names the device in memzones and logs. Returns 0, or a negative errno and a line
 * saying which step failed in *err. */
int gaudi_bringup(gaudi::Backend &be, const char *name, const gaudi_devargs &drv,
		  gaudi_fw_state *fw, std::vector<gaudi_bringup_port> *ports, std::string *err);
