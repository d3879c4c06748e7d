/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: event queue memory, programming and consumer. See gaudi_eq.h.
 */
#include "gaudi_eq.h"

#include <cinttypes>
#include <cstring>

#include "gaudi_logs.h"
#include "gaudi_mem.h"

using namespace gaudi;
using namespace gaudi::hw;

int gaudi_port_mem_alloc(rte_eth_dev *dev)
{
	gaudi_port *port = gaudi_priv(dev);
	size_t eq_len = sizeof(Eqe) << kEqLog2;
	/* EQ, then the EQ PI shadow and the doorbell FIFO CI shadow, each 128-byte aligned. */
	const rte_memzone *mz =
		gaudi_dma_zone(dev, "eq", 0, eq_len + 2 * kRingAlign, dev->device->numa_node);
	if (mz == nullptr) {
		PMD_INIT_LOG(ERR, "port %u: cannot reserve event queue memory", dev->data->port_id);
		return -ENOMEM;
	}
	auto *base = static_cast<uint8_t *>(mz->addr);
	port->mem.mz = mz;
	port->mem.eq = reinterpret_cast<Eqe *>(base);
	port->mem.eq_pi = reinterpret_cast<volatile uint32_t *>(base + eq_len);
	port->mem.db_ci = reinterpret_cast<volatile uint32_t *>(base + eq_len + kRingAlign);
	return 0;
}

uint64_t gaudi_db_ci_iova(const gaudi_port *port)
{
	return port->mem.mz->iova + (sizeof(Eqe) << kEqLog2) + kRingAlign;
}

void gaudi_port_eq_start(gaudi_port *port)
{
	const rte_memzone *mz = port->mem.mz;
	size_t eq_len = sizeof(Eqe) << kEqLog2;
	/* Off first: the consumer trusts every valid bit (gaudi_eq_poll_locked), and an event the
	 * queue posted between the clearing and eq_init (a start retried after a failed one
	 * leaves the queue enabled) would stay valid ahead of the device's position. */
	port->hw.eq_disable();
	memset(port->mem.eq, 0, eq_len);
	*port->mem.eq_pi = 0;
	port->eq_ci = 0;
	port->hw.eq_init({mz->iova, kEqLog2, mz->iova + eq_len});
	port->eq_live = true;
}
void gaudi_eq_poll_locked(gaudi_port *port, gaudi_eq_found *found)
{
	/* The valid bit of the next EQE tells whether there is one, as gaudi2_cn_eq.c's consumer
	 * reads it: not the PI shadow first, a second line the device writes (each read of one
	 * misses the cache; with engine=thread, a transfer from the model's CPU). Consumed EQEs
	 * are cleared, and the queue is zeroed at start (gaudi_port_eq_start). */
	uint32_t ci = port->eq_ci;
	const uint32_t mask = (1u << kEqLog2) - 1;
	const uint32_t quarter = 1u << (kEqLog2 - 2);
	for (uint32_t taken = 0; taken <= mask; taken++) { /* one lap at most per call */
		Eqe *e = &port->mem.eq[ci & mask];
		uint32_t d0 = __atomic_load_n(&e->d0, __ATOMIC_ACQUIRE);
		if (!(d0 & EQE_VALID))
			break;
		switch (EqeType(d0 & EQE_TYPE_MASK)) {
		case EqeType::raw_tx_comp: /* d2: the ring index of the solicited WQE */
			found->tx_comp = e->d2;
			found->has_tx_comp = true;
			break;
		case EqeType::link_status: /* counted on the port(s) whose link it changed */
			if (found->n_link == gaudi_eq_found::kLinkMax) {
				found->more = true; /* left valid for the next pass */
				port->eq_ci = ci;
				return;
			}
			found->link[found->n_link++] = e->d2;
			break;
		case EqeType::qp_err:
			found->qp_errs++;
			found->qp_syndrome = e->d2;
			break;
		case EqeType::db_fifo_overrun:
			found->db_overruns++;
			break;
		case EqeType::comp_err:
			found->cq_overruns++;
			break;
		default:
			break;
		}
		e->d0 = 0;		     /* software clears the valid bit [gaudi2_cn_eq.c] */
		ci = (ci + 1) & EQ_IDX_MASK; /* the EQ indexes are 24 bits */
		/* The CI register is written every quarter ring, as the Linux driver does. */
		if ((ci & (quarter - 1)) == 0)
			port->hw.eq_write_ci(ci);
	}
	port->eq_ci = ci;
}

void gaudi_eq_report_events(gaudi_port *port)
{
	if (port->qp_err_pending) {
		port->qp_err_pending = false;
		PMD_DRV_LOG(ERR, "port %u: raw QP error, syndrome 0x%02x (%" PRIu64 " so far)",
			    port->port_id, port->last_qp_syndrome, port->ev_qp_err);
	}
}
