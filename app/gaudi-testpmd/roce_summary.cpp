/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: RoCE v2 summary of a capture (see roce_summary.h).
 */
#include <pcap/pcap.h>

#include "roce_framing.h"
#include "roce_summary.h"

namespace gtp {

namespace roce = gaudi::roce;

RoceSummary summarize_roce(const std::string &file)
{
	RoceSummary s;
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(file.c_str(), err);
	if (!p)
		return s;
	s.read = true;
	/* Next PSN per (destination address, destination QP): libpcap does not expose the
	 * pcapng direction flag, and the address tells the two directions of a QP pair apart. */
	std::map<std::pair<uint64_t, uint32_t>, uint32_t> next_psn;
	roce::ParseStats stats;
	pcap_pkthdr *h;
	const u_char *data;
	while (pcap_next_ex(p, &h, &data) == 1) {
		s.frames++;
		roce::Packet pkt;
		roce::ParseError e = roce::parse({data, h->caplen}, pkt, stats, {});
		if (roce::is_not_roce(e) || e == roce::ParseError::truncated_eth ||
		    e == roce::ParseError::truncated_ip || e == roce::ParseError::bad_ip_version ||
		    e == roce::ParseError::bad_ip_header_len ||
		    e == roce::ParseError::ip_len_mismatch || e == roce::ParseError::ip_fragment ||
		    e == roce::ParseError::truncated_udp || e == roce::ParseError::udp_len_mismatch)
			continue;
		s.roce++;
		if (e == roce::ParseError::icrc_mismatch)
			s.icrc_errors++;
		else if (!roce::fully_decoded(e))
			s.errors[std::string(roce::error_name(e))]++;
		if (!roce::bth_decoded(e))
			continue;
		if (roce::fully_decoded(e))
			s.opcodes[std::string(roce::name(pkt.bth.opcode))]++;
		uint64_t dir = 0;
		if (pkt.ip_version == roce::IpVersion::v4)
			for (uint8_t b : pkt.ip4.dst)
				dir = dir << 8 | b;
		else
			for (uint8_t b : pkt.ip6.dst)
				dir = dir * 131 + b;
		auto key = std::make_pair(dir, pkt.bth.dest_qp);
		auto it = next_psn.find(key);
		if (it != next_psn.end() && it->second != pkt.bth.psn)
			s.psn_gaps++;
		next_psn[key] = (pkt.bth.psn + 1) & 0xffffff;
	}
	pcap_close(p);
	s.qps = next_psn.size();
	return s;
}

} /* namespace gtp */
