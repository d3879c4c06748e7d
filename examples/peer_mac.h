/* SPDX-License-Identifier: BSD-3-Clause */
/* wait_peer_mac: the peer's MAC from neighbour resolution (Context::resolve(): ARP for an
 * IPv4-mapped GID, IPv6 Neighbour Solicitation otherwise), for the examples that connect to
 * a peer process. A kernel RoCE peer does the same for our GID when it moves its QP to RTR
 * (ib_resolve_eth_dmac), so the examples keep polling the Context -- which answers ARP/NS for
 * our address -- while they wait, here and during their TCP exchanges. */
#pragma once

#include <arpa/inet.h>
#include <sched.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <rte_cycles.h>

#include "roce_verbs.h"

namespace gaudi::examples {

/* 0 and `mac` once the peer answered (printed on stdout: "  peer MAC <mac> (resolved for
 * <ip>)"); -1 with a message on stderr when it did not within
 * `timeout_ms` (or resolution is impossible: no responder, or a GID of the other family). */
inline int wait_peer_mac(gaudi::roce::Context &ctx, const gaudi::roce::Gid &peer,
			 gaudi::roce::MacAddr &mac, unsigned timeout_ms)
{
	char ip[INET6_ADDRSTRLEN];
	if (peer.is_ipv4())
		inet_ntop(AF_INET, &peer.raw[12], ip, sizeof ip);
	else
		inet_ntop(AF_INET6, peer.raw.data(), ip, sizeof ip);
	const uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * timeout_ms / 1000;
	for (;;) {
		int r = ctx.resolve(peer, mac);
		if (r == 0) {
			printf("  peer MAC %02x:%02x:%02x:%02x:%02x:%02x (resolved for %s)\n", mac[0],
			       mac[1], mac[2], mac[3], mac[4], mac[5], ip);
			return 0;
		}
		if (r != -EAGAIN) {
			fprintf(stderr, "Cannot resolve the peer's MAC for %s: %s\n", ip, strerror(-r));
			return -1;
		}
		if (rte_get_timer_cycles() >= end)
			break;
		if (ctx.poll() == 0)
			sched_yield(); /* a peer sharing this CPU (a VM, say) gets it at once */
	}
	fprintf(stderr,
		"No %s from %s within %u ms: the peer's MAC is unknown (is it on this link and "
		"up? --peer-mac=xx:xx:xx:xx:xx:xx skips resolution)\n",
		peer.is_ipv4() ? "ARP reply" : "neighbour advertisement", ip, timeout_ms);
	return -1;
}

} /* namespace gaudi::examples */
