/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: interrupts. LSC through the event queue (QPC interrupt 9), Rx through the
 * raw CQ arm (QPC interrupt 4). Offered when the backend routes them to eventfds
 * (Backend::irqs_routed). The EQ interrupt takes the published route on both backends:
 * INTERRUPT_BASE_9/DATA_9 -> the port's sync object -> monitor -> virtual MSI-X doorbell ->
 * MSI-X vector 22 + port (base/gaudi_sm.h; the monitors are armed at bring-up). The raw CQ's
 * has no published route: net_gaudi_emu only.
 */
#pragma once

#include <ethdev_driver.h>

struct gaudi_adapter;

int gaudi_intr_init(rte_eth_dev *dev);	    /* probe */
void gaudi_intr_uninit(rte_eth_dev *dev);   /* close */
int gaudi_intr_configure(rte_eth_dev *dev); /* dev_configure: intr_conf checks, rx eventfds */
void gaudi_intr_start(rte_eth_dev *dev);    /* dev_start, before the MAC is enabled */
void gaudi_intr_stop(rte_eth_dev *dev);	    /* dev_stop */
/* Reports a link change through the LSC callback if it differs from the last reported (the
 * interrupt thread's: its handlers and EAL alarms). */
void gaudi_intr_lsc_check(rte_eth_dev *dev);
int gaudi_rx_queue_intr_enable(rte_eth_dev *dev, uint16_t qid);
int gaudi_rx_queue_intr_disable(rte_eth_dev *dev, uint16_t qid);

/* Link events of both ports of a macro arrive on the odd port's event queue (hardware bug,
 * hbl_cn SW-42306). When the odd port has no started ethdev (masked off by the firmware, not
 * in port_mask, not started, stopped or closed) while the even port runs, the adapter
 * programs and consumes that queue itself, for the even port's LSC, as hbl_cn initialises
 * every port's EQ whatever the port mask [gaudi2_cn_eq.c gaudi2_cn_eq_init]. Re-decides the
 * owner of the odd EQ of NIC port hw's macro: called where a port of the macro starts, stops
 * or closes. Primary process, when the backend routes interrupts; otherwise a no-op. */
void gaudi_link_eq_update(gaudi_adapter *ad, unsigned hw);
/* The adapter lets go of the odd EQ of hw's macro (the odd port's dev_start, before it
 * programs the queue with its own memory). */
void gaudi_link_eq_release(gaudi_adapter *ad, unsigned hw);
