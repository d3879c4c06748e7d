/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: interrupts. See gaudi_intr.h.
 */
#include "gaudi_intr.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>

#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_interrupts.h>

#include "base/gaudi_regs.h"
#include "gaudi_eq.h"
#include "gaudi_adapter.h"
#include "gaudi_link.h"
#include "gaudi_logs.h"
#include "gaudi_recovery.h"
#include "gaudi_rx.h"
#include "gaudi_tx.h"

using namespace gaudi;
using namespace gaudi::hw;

namespace {

/* The backend, if the device's interrupts reach this process's eventfds (the primary, on
 * silicon with VFIO MSI-X); null otherwise. */
Backend *irq_backend(rte_eth_dev *dev)
{
	Backend *be = gaudi_adapter_of(dev)->backend.get();
	return be != nullptr && be->irqs_routed() ? be : nullptr;
}

} /* namespace */

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

} /* namespace */

void gaudi_intr_lsc_check(rte_eth_dev *dev)
{
	lsc_check(dev);
}

namespace {

/* The odd port of a macro also receives its even sibling's link events (hardware bug, hbl_cn
 * SW-42306): its interrupt looks at the sibling's link as well. While the odd port is not
 * started the adapter consumes that queue instead (gaudi_link_eq_update, below). */
/* lsc_check of the adapter's port hw if it runs with interrupts. From the interrupt thread
 * for a port other than its own: under ports_lock, so that a close of that port on another
 * thread waits for the check or makes the port invisible to it (the check once found a port
 * whose dev_private the close had just released). */
void lsc_check_other(gaudi_adapter *ad, unsigned hw)
{
	rte_spinlock_lock(&ad->ports_lock);
	gaudi_port *p = gaudi_adapter_port(ad, hw);
	if (p != nullptr && p->started && p->intr != nullptr)
		lsc_check(&rte_eth_devices[p->port_id]);
	rte_spinlock_unlock(&ad->ports_lock);
}

void lsc_check_sibling(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	unsigned hw = port->hw.id();
	if ((hw & 1) != 0)
		lsc_check_other(port->adapter, hw - 1);
}

/* The event queue's consumer while the port is stopped (the TX datapath owns it otherwise). */
bool drain_if_stopped(gaudi_port *port)
{
	/* A started port is the common case, and its consumers (tx_burst first) hold eq_lock:
	 * answer it without the lock, so that this thread does not spin beside the datapath on
	 * every EQ interrupt (14 % of an inline 64-byte run's samples did). Deciding on a value
	 * about to change is no worse than deciding under the lock just before it changes. */
	if (__atomic_load_n(&port->started, __ATOMIC_RELAXED))
		return false;
	rte_spinlock_lock(&port->eq_lock);
	bool stopped = !port->started;
	/* A late interrupt (raised before the stop, run after it) finds the queue disabled or,
	 * on an odd port, programmed by the adapter with its own CI: a write of ours would
	 * make the model, and the chip, see that queue full. */
	if (stopped && port->eq_live) {
		gaudi_port_events_locked(port, nullptr);
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
	/* Nor did an event: an odd port's queue may hold its sibling's link events, which an
	 * idle datapath would leave there (their counters, gaudi_rec_link_event). */
	if (port->hw.id() & 1) {
		gaudi_txq *txq = gaudi_txq0(dev);
		if (txq == nullptr || rte_spinlock_trylock(&txq->lock)) {
			if (rte_spinlock_trylock(&port->eq_lock)) {
				if (port->started)
					gaudi_port_events_locked(port, txq);
				rte_spinlock_unlock(&port->eq_lock);
			}
			if (txq != nullptr)
				rte_spinlock_unlock(&txq->lock);
		}
	}
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
		PMD_DRV_LOG(DEBUG, "port %u: eventfd read: %s", dev->data->port_id,
			    strerror(errno));
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
		gaudi_port_events(port, gaudi_txq0(dev));
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

} /* namespace */

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
		PMD_DRV_LOG(ERR, "port %u: interrupt callback: %d", dev->data->port_id, rc);
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
} /* namespace */

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
		PMD_DRV_LOG(ERR,
			    "port %u: no interrupts in this process (they need the primary, and "
			    "on silicon VFIO MSI-X)",
			    dev->data->port_id);
		return -ENOTSUP;
	}
	if (ic.rmv)
		return -ENOTSUP;
	if (port->intr != nullptr)
		rx_intr_release(dev);
	if (!ic.rxq)
		return 0;
	/* The raw CQ's interrupt (source 4) has no published route to MSI-X: only the model
	 * delivers it. */
	if (irq_backend(dev)->bind_irq(port->hw.id(), reg::INTR_RX_RING0, -1) == -ENOTSUP) {
		PMD_DRV_LOG(ERR,
			    "port %u: Rx interrupts need net_gaudi_emu (no known route from "
			    "the raw CQ to MSI-X on silicon)",
			    dev->data->port_id);
		return -ENOTSUP;
	}
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
	port->hw.eq_irq_route(); /* source 9 -> the port's SOB -> MSI-X (base/gaudi_sm.h) */
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
	/* Slots of attached mbufs freed since the last rx_burst go back first: with the CQ full
	 * no frame, hence no interrupt, could come while the application sleeps. */
	if (rxq->started)
		gaudi_rx_release(rxq);
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

/* ---- the odd port's event queue, consumed by the adapter (gaudi_intr.h) ---- */

struct gaudi_link_eq {
	gaudi_adapter *ad;
	Port hw;	       /* the odd port's registers */
	const rte_memzone *mz; /* EQ, then its PI shadow */
	Eqe *eq;
	volatile uint32_t *pi;
	uint32_t ci;
	int fd; /* eventfd of the odd port's QPC interrupt 9 */
	rte_intr_handle *intr;
	rte_spinlock_t lock; /* owned, ci and the EQ: the interrupt thread vs start/stop */
	bool owned;	     /* the queue is programmed with mz and bound to fd */
};

namespace {

/* Consume the queue: only LINK_STATUS matters (the odd port sends nothing, so no TX
 * completion); other events are dropped, as hbl_cn's default dispatcher logs and drops events
 * of resources nobody registered [gaudi2_cn_eq.c gaudi2_cn_eq_dispatcher_default_handler].
 * Under le->lock. */
void link_eq_drain(gaudi_link_eq *le)
{
	const uint32_t mask = (1u << kEqLog2) - 1;
	uint32_t pi = __atomic_load_n(le->pi, __ATOMIC_ACQUIRE);
	uint32_t ci = le->ci;
	while (ci != pi) {
		Eqe *e = &le->eq[ci & mask];
		uint32_t d0 = __atomic_load_n(&e->d0, __ATOMIC_ACQUIRE);
		if (!(d0 & EQE_VALID))
			break;
		if (EqeType(d0 & EQE_TYPE_MASK) == EqeType::link_status)
			gaudi_rec_link_event_hw(le->ad, le->hw.id(), e->d2);
		e->d0 = 0;
		ci = (ci + 1) & EQ_IDX_MASK;
	}
	le->ci = ci;
	le->hw.eq_write_ci(ci); /* exact CI: the queue never fills */
}

/* EAL interrupt thread: QPC interrupt 9 of an odd port the adapter consumes. */
void link_eq_handler(void *arg)
{
	auto *le = static_cast<gaudi_link_eq *>(arg);
	uint64_t n;
	if (read(le->fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		PMD_DRV_LOG(DEBUG, "%s: port %u EQ eventfd read: %s", le->ad->name, le->hw.id(),
			    strerror(errno));
	rte_spinlock_lock(&le->lock);
	if (le->owned) {
		link_eq_drain(le);
		le->hw.intr_clear(reg::INTR_EQ); /* re-arm [gaudi2_cn_eq.c, INTERRUPT_CLR] */
		link_eq_drain(le);		 /* events between the drain and the re-arm */
	}
	rte_spinlock_unlock(&le->lock);
	/* The ports of the macro the link registers say changed (lsc_check compares). */
	for (unsigned hw = le->hw.id() & ~1u; hw <= le->hw.id(); hw++)
		lsc_check_other(le->ad, hw);
}

gaudi_link_eq *link_eq_make(gaudi_adapter *ad, unsigned odd)
{
	static std::atomic<unsigned> seq{0}; /* memzone names are process-wide */
	auto *le = new (std::nothrow) gaudi_link_eq{};
	if (le == nullptr)
		return nullptr;
	le->ad = ad;
	le->hw = Port(&ad->backend->nic_bar(), odd);
	le->fd = -1;
	rte_spinlock_init(&le->lock);
	size_t eq_len = sizeof(Eqe) << kEqLog2;
	char name[RTE_MEMZONE_NAMESIZE];
	snprintf(name, sizeof(name), "gaudi_leq%u", seq.fetch_add(1));
	le->mz = rte_memzone_reserve_aligned(name, eq_len + kRingAlign, SOCKET_ID_ANY,
					     RTE_MEMZONE_IOVA_CONTIG, kRingAlign);
	le->intr = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_SHARED);
	le->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (le->mz == nullptr || le->intr == nullptr || le->fd < 0 ||
	    rte_intr_type_set(le->intr, RTE_INTR_HANDLE_VDEV) != 0 ||
	    rte_intr_fd_set(le->intr, le->fd) != 0 ||
	    rte_intr_callback_register(le->intr, link_eq_handler, le) != 0) {
		PMD_DRV_LOG(ERR,
			    "%s: cannot set up the event queue of port %u for port %u's link "
			    "events: no LSC for port %u while port %u is not started",
			    ad->name, odd, odd - 1, odd - 1, odd);
		rte_memzone_free(le->mz);
		rte_intr_instance_free(le->intr);
		close_fd(&le->fd);
		delete le;
		return nullptr;
	}
	auto *base = static_cast<uint8_t *>(le->mz->addr);
	le->eq = reinterpret_cast<Eqe *>(base);
	le->pi = reinterpret_cast<volatile uint32_t *>(base + eq_len);
	return le;
}

/* Program the odd port's EQ with the adapter's memory, route its interrupt to le->fd. */
void link_eq_own(gaudi_link_eq *le)
{
	rte_spinlock_lock(&le->lock);
	if (!le->owned) {
		memset(le->eq, 0, sizeof(Eqe) << kEqLog2);
		*le->pi = 0;
		le->ci = 0;
		le->hw.eq_init({le->mz->iova, kEqLog2, le->mz->iova + (sizeof(Eqe) << kEqLog2)});
		le->ad->backend->bind_irq(le->hw.id(), reg::INTR_EQ, le->fd);
		le->hw.eq_irq_route();
		le->hw.intr_clear(reg::INTR_EQ);
		le->hw.intr_enable(reg::INTR_EQ, true);
		le->owned = true;
	}
	rte_spinlock_unlock(&le->lock);
}

void link_eq_disown(gaudi_link_eq *le)
{
	rte_spinlock_lock(&le->lock);
	if (le->owned) {
		le->hw.intr_enable(reg::INTR_EQ, false);
		le->ad->backend->bind_irq(le->hw.id(), reg::INTR_EQ, -1);
		le->hw.eq_disable();
		le->owned = false;
	}
	rte_spinlock_unlock(&le->lock);
}

} /* namespace */

void gaudi_link_eq_free::operator()(gaudi_link_eq *le) const
{
	link_eq_disown(le);
	rte_intr_callback_unregister_sync(le->intr, link_eq_handler, le);
	rte_intr_instance_free(le->intr);
	close_fd(&le->fd);
	rte_memzone_free(le->mz);
	delete le;
}

void gaudi_link_eq_release(gaudi_adapter *ad, unsigned hw)
{
	auto &le = ad->link_eq[hw / kPortsPerMacro];
	if (le)
		link_eq_disown(le.get());
}

void gaudi_link_eq_update(gaudi_adapter *ad, unsigned hw)
{
	Backend *be = ad->backend.get();
	unsigned odd = hw | 1;
	if (be == nullptr || !be->irqs_routed() || odd >= ad->nports ||
	    rte_eal_process_type() != RTE_PROC_PRIMARY)
		return;
	gaudi_port *even = gaudi_adapter_port(ad, odd - 1), *self = gaudi_adapter_port(ad, odd);
	bool want = even != nullptr && even->started && even->intr != nullptr &&
		    (self == nullptr || !self->started);
	auto &le = ad->link_eq[odd / kPortsPerMacro];
	if (!want) {
		if (le)
			link_eq_disown(le.get());
		return;
	}
	if (!le)
		le.reset(link_eq_make(ad, odd));
	if (!le)
		return;
	if (self != nullptr) { /* a failed start may have left the port's queue programmed */
		rte_spinlock_lock(&self->eq_lock);
		self->eq_live = false;
		rte_spinlock_unlock(&self->eq_lock);
	}
	link_eq_own(le.get());
}
