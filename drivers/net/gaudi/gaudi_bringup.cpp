/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: bring-up shared by both probes. See gaudi_bringup.h and
 * ../shared/research/gaudi2-bringup.md for the sequence on silicon.
 */
#include "gaudi_bringup.h"

#include <cerrno>

#include "gaudi_logs.h"

using namespace gaudi;

int gaudi_bringup(Backend &be, const gaudi_interim_ports &interim,
		  std::vector<gaudi_bringup_port> *ports, std::string *err)
{
	/* The boot FIT and the CPU-CP firmware, in the order the host loads them after preboot
	 * [habanalabs gaudi2.c, firmware_if.c]. A missing file fails the probe here, with its
	 * path, before anything is programmed.
	 * TODO(firmware handshake, issue 8 item 1/2): check the preboot status
	 * (CPU_BOOT_STATUS through be.fw_bar()), hand these images to the boot protocol (COMMS),
	 * set up the CPU queue and send INFO_GET, ENABLE_PCI_ACCESS and NIC_INFO_GET. */
	for (const char *name : {hw::kFwBootFitFile, hw::kFwFitFile}) {
		std::vector<uint8_t> image;
		int rc = be.read_firmware(name, &image, err);
		if (rc != 0)
			return rc;
		GAUDI_LOG(DEBUG, "firmware %s: %zu bytes", name, image.size());
	}

	/* TODO(firmware handshake): port mask and MACs from NIC_INFO_GET (link_mask, mac_addr);
	 * until then each probe's interim values. */
	ports->clear();
	for (unsigned p = 0; p < be.nports(); p++)
		if (interim.port_mask & (1u << p))
			ports->push_back({p, interim.mac[p]});
	if (ports->empty()) {
		*err = "no NIC port to create (port mask 0)";
		return -ENODEV;
	}
	return 0;
}
