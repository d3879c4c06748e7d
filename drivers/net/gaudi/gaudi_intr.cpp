/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: interrupts. See gaudi_intr.h.
 */
#include "gaudi_intr.h"

#include <cerrno>
#include <cstring>

#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_interrupts.h>

#include "base/gaudi_regs.h"
#include "gaudi_eq.h"
#include "gaudi_ethdev.h"
#include "gaudi_link.h"
#include "gaudi_logs.h"
#include "gaudi_rxtx.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* The backend, if the device's interrupts reach this process's eventfds (the model in the
 * primary); null otherwise: silicon until the EQ interrupt is routed to MSI-X (gaudi_pci.cpp),
 * and secondary processes. */
Backend *irq_backend(rte_eth_dev *dev)
{
	Backend *be = gaudi_adapter_of(dev)->backend.get();
	return be != nullptr && be->irqs_routed() ? be : nullptr;
}

} // namespace

namespace {

/* While the port runs, the EQ interrupt is re-armed at most once per this period: the TX
 * datapath's completions arrive as EQEs too and would otherwise wake the interrupt thread on
 * every burst. A link change is still seen: the re-arm re-reads the link. */
constexpr uint64_t kRearmUs = 1000;

void lsc_check(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	rte_eth_link link = gaudi_link_get(port);
	rte_eth_linkstatus_set(dev, &link);
	if (link.link_status != port->lsc_reported) {
		port->lsc_reported = link.link_status;
		if (dev->data->dev_conf.intr_conf.lsc)
			rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_LSC, nullptr);
	}
}

/* The odd port of a macro also receives its even sibling's link events (hardware bug, hbl_cn
 * SW-42306): its interrupt looks at the sibling's link as well. */
void lsc_check_sibling(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	unsigned hw = port->hw.id();
	if ((hw & 1) == 0)
		return;
	gaudi_port *sib = gaudi_adapter_port(port->adapter, hw - 1);
	if (sib != nullptr && sib->started && sib->intr != nullptr)
		lsc_check(&rte_eth_devices[sib->port_id]);
}

/* The event queue's consumer while the port is stopped (the TX datapath owns it otherwise). */
bool drain_if_stopped(gaudi_port *port)
{
	rte_spinlock_lock(&port->eq_lock);
	bool stopped = !port->started;
	if (stopped) {
		gaudi_eq_poll_locked(port, nullptr);
		port->hw.eq_write_ci(port->eq_ci); /* exact CI before the interrupt is re-armed */
	}
	rte_spinlock_unlock(&port->eq_lock);
	return stopped;
}

void rearm_alarm(void *arg)
{
	auto *dev = static_cast<rte_eth_dev *>(arg);
	gaudi_port *port = gaudi_priv(dev);
	port->rearm_pending = false;
	port->hw.intr_clear(reg::INTR_EQ);
	lsc_check(dev); /* a change while the cause was pending raised no new interrupt */
	lsc_check_sibling(dev);
}

/* EAL interrupt thread: the event-queue MSI (QPC interrupt 9) fired. */
void intr_handler(void *arg)
{
	auto *dev = static_cast<rte_eth_dev *>(arg);
	gaudi_port *port = gaudi_priv(dev);
	uint64_t n;
	if (read(port->lsc_fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		GAUDI_LOG(DEBUG, "port %u: eventfd read: %s", dev->data->port_id, strerror(errno));
	if (drain_if_stopped(port)) {
		port->hw.intr_clear(reg::INTR_EQ);
		drain_if_stopped(port); /* events between the drain and the re-arm */
		lsc_check(dev);
		lsc_check_sibling(dev);
		return;
	}
	/* Started: the TX datapath consumes the EQ, but an odd port's EQ also carries its
	 * sibling's link events, which must not wait for traffic: consume what is there (the EQ
	 * lock serialises with tx_burst; a busy lock means the datapath is at it). */
	if (port->hw.id() & 1)
		gaudi_eq_poll(port, gaudi_txq0(dev));
	lsc_check(dev);
	lsc_check_sibling(dev);
	if (!port->rearm_pending) {
		port->rearm_pending = true;
		if (rte_eal_alarm_set(kRearmUs, rearm_alarm, dev) != 0) {
			port->rearm_pending = false;
			port->hw.intr_clear(reg::INTR_EQ);
		}
	}
}

void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

} // namespace

int gaudi_intr_init(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	port->lsc_fd = port->rxq_fd = -1;
	port->intr = nullptr;
	if (irq_backend(dev) == nullptr)
		return 0; /* no interrupts: the driver polls */
	rte_intr_handle *h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_SHARED);
	if (h == nullptr)
		return -ENOMEM;
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fd < 0 || rte_intr_type_set(h, RTE_INTR_HANDLE_VDEV) != 0 ||
	    rte_intr_fd_set(h, fd) != 0 ||
	    rte_intr_efd_counter_size_set(h, sizeof(uint64_t)) != 0) {
		if (fd >= 0)
			close(fd);
		rte_intr_instance_free(h);
		return -EIO;
	}
	port->intr = h;
	port->lsc_fd = fd;
	dev->intr_handle = h;
	int rc = rte_intr_callback_register(h, intr_handler, dev);
	if (rc != 0) {
		GAUDI_LOG(ERR, "port %u: interrupt callback: %d", dev->data->port_id, rc);
		gaudi_intr_uninit(dev);
		return rc;
	}
	dev->data->dev_flags |= RTE_ETH_DEV_INTR_LSC;
	return 0;
}

namespace {
void rx_intr_release(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	if (port->intr != nullptr) {
		rte_intr_vec_list_free(port->intr);
		rte_intr_nb_efd_set(port->intr, 0);
		rte_intr_max_intr_set(port->intr, 0);
	}
	if (irq_backend(dev) != nullptr)
		irq_backend(dev)->bind_irq(port->hw.id(), reg::INTR_RX_RING0, -1);
	close_fd(&port->rxq_fd);
}
} // namespace

void gaudi_intr_uninit(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	if (port->intr == nullptr)
		return;
	port->hw.intr_enable(reg::INTR_EQ, false);
	port->hw.intr_enable(reg::INTR_RX_RING0, false);
	if (irq_backend(dev) != nullptr)
		irq_backend(dev)->bind_irq(port->hw.id(), reg::INTR_EQ, -1);
	rte_intr_callback_unregister_sync(port->intr, intr_handler, dev);
	rte_eal_alarm_cancel(rearm_alarm, dev);
	rx_intr_release(dev);
	close_fd(&port->lsc_fd);
	rte_intr_instance_free(port->intr);
	port->intr = nullptr;
	dev->intr_handle = nullptr;
}

int gaudi_intr_configure(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	const rte_eth_intr_conf &ic = dev->data->dev_conf.intr_conf;
	if ((ic.lsc || ic.rxq) && port->intr == nullptr) {
		GAUDI_LOG(ERR, "port %u: interrupts need net_gaudi_emu", dev->data->port_id);
		return -ENOTSUP;
	}
	if (ic.rmv)
		return -ENOTSUP;
	if (port->intr != nullptr)
		rx_intr_release(dev);
	if (!ic.rxq)
		return 0;
	/* One Rx queue, one vector: QPC interrupt 4 (rx_ring0), signalled when the raw CQ's arm
	 * fires. */
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	uint16_t nq = dev->data->nb_rx_queues;
	if (rte_intr_efds_index_set(port->intr, 0, fd) != 0 ||
	    rte_intr_nb_efd_set(port->intr, 1) != 0 || rte_intr_max_intr_set(port->intr, 2) != 0 ||
	    rte_intr_vec_list_alloc(port->intr, "gaudi_rxq_vec", nq) != 0 ||
	    rte_intr_vec_list_index_set(port->intr, 0, RTE_INTR_VEC_RXTX_OFFSET) != 0) {
		close(fd);
		rx_intr_release(dev);
		return -ENOMEM;
	}
	port->rxq_fd = fd;
	return 0;
}

void gaudi_intr_start(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	Backend *m = irq_backend(dev);
	if (port->intr == nullptr || m == nullptr)
		return;
	const rte_eth_intr_conf &ic = dev->data->dev_conf.intr_conf;
	if (port->rxq_fd >= 0) {
		m->bind_irq(port->hw.id(), reg::INTR_RX_RING0, port->rxq_fd);
		port->hw.intr_enable(reg::INTR_RX_RING0, false); /* until rx_queue_intr_enable */
	}
	/* An odd port takes its EQ interrupt even without LSC of its own: the link events of its
	 * even sibling arrive there (SW-42306). */
	bool eq_irq = ic.lsc != 0 || (port->hw.id() & 1) != 0;
	m->bind_irq(port->hw.id(), reg::INTR_EQ, eq_irq ? port->lsc_fd : -1);
	port->hw.intr_clear(reg::INTR_EQ);
	port->hw.intr_enable(reg::INTR_EQ, eq_irq);
}

void gaudi_intr_stop(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	if (port->intr == nullptr)
		return;
	port->hw.intr_enable(reg::INTR_RX_RING0, false);
	/* The EQ interrupt stays on: the link-down of our own stop is reported through it. */
}

int gaudi_rx_queue_intr_enable(rte_eth_dev *dev, uint16_t qid)
{
	gaudi_port *port = gaudi_priv(dev);
	auto *rxq = qid < dev->data->nb_rx_queues
			    ? static_cast<gaudi_rxq *>(dev->data->rx_queues[qid])
			    : nullptr;
	if (rxq == nullptr)
		return -EINVAL;
	if (port->rxq_fd < 0)
		return -ENOTSUP; /* intr_conf.rxq was not set at configure */
	/* Re-arm the vector, then the CQ: the arm fires at once if a frame is already waiting
	 * (PI > CI), so no frame is slept through. */
	port->hw.intr_clear(reg::INTR_RX_RING0);
	port->hw.intr_enable(reg::INTR_RX_RING0, true);
	port->hw.arm_cq(rxq->ci);
	return 0;
}

int gaudi_rx_queue_intr_disable(rte_eth_dev *dev, uint16_t qid)
{
	gaudi_port *port = gaudi_priv(dev);
	if (qid >= dev->data->nb_rx_queues || dev->data->rx_queues[qid] == nullptr)
		return -EINVAL;
	if (port->rxq_fd < 0)
		return -ENOTSUP;
	port->hw.intr_enable(reg::INTR_RX_RING0, false);
	return 0;
}
