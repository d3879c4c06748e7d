/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: interrupts. LSC through the event queue (QPC interrupt 9), Rx through the
 * raw CQ arm (QPC interrupt 4). Offered when the backend routes them to eventfds
 * (Backend::irqs_routed): today net_gaudi_emu, whose model signals the eventfds; on silicon the
 * EQ interrupt's MSI-X routing is not programmed yet (gaudi_pci.cpp).
 */
#pragma once

#include <ethdev_driver.h>

int gaudi_intr_init(rte_eth_dev *dev);	    /* probe */
void gaudi_intr_uninit(rte_eth_dev *dev);   /* close */
int gaudi_intr_configure(rte_eth_dev *dev); /* dev_configure: intr_conf checks, rx eventfds */
void gaudi_intr_start(rte_eth_dev *dev);    /* dev_start, before the MAC is enabled */
void gaudi_intr_stop(rte_eth_dev *dev);	    /* dev_stop */
int gaudi_rx_queue_intr_enable(rte_eth_dev *dev, uint16_t qid);
int gaudi_rx_queue_intr_disable(rte_eth_dev *dev, uint16_t qid);
