/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the frames the generators build, and icmpecho's replies.
 */
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include <rte_arp.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "app.h"

namespace gtp {

void build_header(Stream &s, const Run &r)
{
	const Config &c = r.cfg;
	const Port &p = *r.by_id[s.tx_port];
	memset(s.hdr, 0, sizeof(s.hdr));
	auto *eth = reinterpret_cast<rte_ether_hdr *>(s.hdr);
	eth->dst_addr = p.dst;
	eth->src_addr = p.mac;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	auto *ip = reinterpret_cast<rte_ipv4_hdr *>(eth + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(uint16_t(c.pkt_len - sizeof(*eth)));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(c.ip_src);
	ip->dst_addr = rte_cpu_to_be_32(c.ip_dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	auto *udp = reinterpret_cast<rte_udp_hdr *>(ip + 1);
	udp->src_port = rte_cpu_to_be_16(c.udp_src);
	udp->dst_port = rte_cpu_to_be_16(c.udp_dst);
	udp->dgram_len = rte_cpu_to_be_16(uint16_t(c.pkt_len - sizeof(*eth) - sizeof(*ip)));
	udp->dgram_cksum = 0; /* optional in IPv4 (RFC 768) */
}

/* Up to n new frames of the stream's generator into pkts; returns how many (0 when the
 * generator mempool is empty: retried at the next turn). */
uint16_t generate(Stream &s, const Run &r, rte_mbuf **pkts, uint16_t n, uint64_t now)
{
	const Config &c = r.cfg;
	if (rte_pktmbuf_alloc_bulk(r.gen_mp, pkts, n) != 0)
		return 0;
	if (c.mode == FwdMode::template_) {
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
	const bool stamp = c.latency && c.pkt_len >= kStampMinLen;
	for (uint16_t i = 0; i < n; i++) {
		auto *d = rte_pktmbuf_mtod(pkts[i], uint8_t *);
		memcpy(d, s.hdr, kStampOffset);
		if (c.mode == FwdMode::flowgen) {
			/* Vary the source address and port over --flowgen-flows flows. */
			auto *ip = reinterpret_cast<rte_ipv4_hdr *>(d + sizeof(rte_ether_hdr));
			auto *udp = reinterpret_cast<rte_udp_hdr *>(ip + 1);
			ip->src_addr = rte_cpu_to_be_32(c.ip_src + s.flow);
			udp->src_port = rte_cpu_to_be_16(uint16_t(c.udp_src + s.flow));
			ip->hdr_checksum = 0;
			ip->hdr_checksum = rte_ipv4_cksum(ip);
			if (++s.flow == c.flows)
				s.flow = 0;
		}
		if (stamp) {
			LatencyStamp st{kStampMagic, s.id, s.seq++, now};
			memcpy(d + kStampOffset, &st, sizeof(st));
		}
		pkts[i]->data_len = uint16_t(c.pkt_len);
		pkts[i]->pkt_len = c.pkt_len;
	}
	if (stamp)
		bump(s.sent_stamped,
		     n); /* counted when built: frames freed unsent are rare (stop) */
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

} // namespace gtp
