/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the frames the generators build (the traffic streams' headers and sizes are
 * traffic.cpp's), and icmpecho's replies.
 */
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include <rte_arp.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "app.h"

namespace gtp {

/* Up to n frames of the template into pkts, in a loop over its frames; returns how many (0
 * when the generator mempool is empty: retried at the next turn). */
uint16_t generate(Stream &s, const Run &r, rte_mbuf **pkts, uint16_t n, uint64_t)
{
	if (rte_pktmbuf_alloc_bulk(r.gen_mp, pkts, n) != 0)
		return 0;
	for (uint16_t i = 0; i < n; i++) {
		const auto &f = r.tmpl.frames[s.tmpl_idx];
		if (++s.tmpl_idx == r.tmpl.frames.size())
			s.tmpl_idx = 0;
		memcpy(rte_pktmbuf_mtod(pkts[i], void *), f.data(), f.size());
		pkts[i]->data_len = uint16_t(f.size());
		pkts[i]->pkt_len = uint32_t(f.size());
	}
	return n;
}

uint16_t generate_flows(Stream &s, const Run &r, uint16_t want, uint64_t now)
{
	const bool stamp = r.cfg.latency;
	const size_t nf = s.flows.size();
	/* Only unpaced streams (a line-rate run): a full burst, its mbufs taken at once. */
	bool any_paced = false;
	for (const TxFlow *f : s.flows)
		any_paced = any_paced || f->paced;
	uint16_t bulk = 0;
	if (!any_paced) {
		if (rte_pktmbuf_alloc_bulk(r.gen_mp, s.pending, want) != 0)
			return 0;
		bulk = want;
	}
	uint16_t n = 0;
	while (n < want) {
		/* The paced stream whose next frame is due first, else an unpaced one in turn. */
		size_t k = nf;
		double best = double(now);
		for (size_t i = 0; any_paced && i < nf; i++)
			if (s.flows[i]->paced && s.flows[i]->next_tsc <= best) {
				best = s.flows[i]->next_tsc;
				k = i;
			}
		if (k == nf)
			for (size_t j = 0; j < nf; j++) {
				size_t i = s.rr + j < nf ? s.rr + j : s.rr + j - nf;
				if (!s.flows[i]->paced) {
					k = i;
					s.rr = uint16_t(i + 1 < nf ? i + 1 : 0);
					break;
				}
			}
		if (k == nf)
			break;
		rte_mbuf *m = bulk ? s.pending[n] : rte_pktmbuf_alloc(r.gen_mp);
		if (!m)
			break;
		TxFlow &f = *s.flows[k];
		uint32_t len = f.gen.next_len();
		bool stamped = f.gen.build(rte_pktmbuf_mtod(m, uint8_t *), len, stamp, f.seq, now);
		if (stamped)
			f.seq++;
		m->data_len = uint16_t(len);
		m->pkt_len = len;
		if (f.paced) {
			/* After a stall (the lcore was preempted, the ring was full) up to 250 ms
			 * of schedule is caught up, so the average holds; a longer lag is forgiven
			 * rather than sent back to back. */
			double g = f.gap(len);
			f.next_tsc += g;
			double lag = std::max(4.0 * r.cfg.burst * g, 0.25 * double(r.hz));
			if (f.next_tsc + lag < double(now))
				f.next_tsc = double(now) - lag;
		}
		s.pending[n] = m;
		s.pending_flow[n] = uint16_t(k | (stamped ? 0x8000 : 0));
		s.pending_len[n] = uint16_t(len);
		n++;
	}
	return n;
}

/* icmpecho: turn an ARP request or ICMP echo request into its reply in place; false for
 * anything else (freed by the caller). As testpmd's icmpecho, replies to any address. */
bool icmp_echo(rte_mbuf *m, const rte_ether_addr &mac)
{
	auto *eth = rte_pktmbuf_mtod(m, rte_ether_hdr *);
	uint16_t type = rte_be_to_cpu_16(eth->ether_type);
	if (type == RTE_ETHER_TYPE_ARP) {
		if (m->data_len < sizeof(*eth) + sizeof(rte_arp_hdr))
			return false;
		auto *arp = reinterpret_cast<rte_arp_hdr *>(eth + 1);
		if (arp->arp_opcode != rte_cpu_to_be_16(RTE_ARP_OP_REQUEST) ||
		    arp->arp_hardware != rte_cpu_to_be_16(RTE_ARP_HRD_ETHER) ||
		    arp->arp_protocol != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4))
			return false;
		arp->arp_opcode = rte_cpu_to_be_16(RTE_ARP_OP_REPLY);
		uint32_t ip = arp->arp_data.arp_tip;
		arp->arp_data.arp_tha = arp->arp_data.arp_sha;
		arp->arp_data.arp_tip = arp->arp_data.arp_sip;
		arp->arp_data.arp_sha = mac;
		arp->arp_data.arp_sip = ip;
		eth->dst_addr = eth->src_addr;
		eth->src_addr = mac;
		return true;
	}
	if (type != RTE_ETHER_TYPE_IPV4 ||
	    m->data_len < sizeof(*eth) + sizeof(rte_ipv4_hdr) + sizeof(rte_icmp_hdr))
		return false;
	auto *ip = reinterpret_cast<rte_ipv4_hdr *>(eth + 1);
	uint32_t ihl = rte_ipv4_hdr_len(ip);
	uint32_t tot = rte_be_to_cpu_16(ip->total_length);
	if (ip->next_proto_id != IPPROTO_ICMP || ihl < 20 || tot < ihl + sizeof(rte_icmp_hdr) ||
	    sizeof(*eth) + tot > m->data_len || (ip->fragment_offset & rte_cpu_to_be_16(0x3fff)))
		return false;
	auto *icmp = reinterpret_cast<rte_icmp_hdr *>(reinterpret_cast<uint8_t *>(ip) + ihl);
	if (icmp->icmp_type != RTE_ICMP_TYPE_ECHO_REQUEST || icmp->icmp_code != 0)
		return false;
	icmp->icmp_type = RTE_ICMP_TYPE_ECHO_REPLY;
	icmp->icmp_cksum = 0;
	icmp->icmp_cksum = uint16_t(~rte_raw_cksum(icmp, tot - ihl));
	uint32_t a = ip->src_addr; /* swapped: the header checksum does not change */
	ip->src_addr = ip->dst_addr;
	ip->dst_addr = a;
	eth->dst_addr = eth->src_addr;
	eth->src_addr = mac;
	return true;
}

} /* namespace gtp */
