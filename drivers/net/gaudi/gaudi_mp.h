/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: multi-process: what a secondary process may call, and its probe.
 */
#pragma once

#include <ethdev_driver.h>

#include "gaudi_adapter.h"

/* Secondary probe: attach to the ports the primary created ("<nic>_p<N>"). */
int gaudi_attach_ports(rte_device *device, gaudi_adapter *ad);
