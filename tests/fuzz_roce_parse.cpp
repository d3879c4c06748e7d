/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target for gaudi::roce::parse (built and run by tests/run-fuzz.sh).
 * Properties checked besides "no crash / no out-of-bounds read" (ASan + UBSan):
 *  - the stats count every frame exactly once;
 *  - a frame that parses ok re-encodes byte-identically through the raw builder, and
 *    through the default builder (lengths, IP checksum, pad, ICRC recomputed) too when its
 *    pad bytes are zero and, for IPv6, the UDP checksum is the computed one. */
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "roce_framing.h"

namespace r = gaudi::roce;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[70000];
	r::ParseStats st;
	r::Packet p;
	r::ParseError e = r::parse({data, size}, p, st);
	if (st.frames != 1 || st.by_result[static_cast<size_t>(e)] != 1)
		abort();
	r::Packet q;
	r::parse_ip({data, size}, q, st); /* the raw-IP entry point too */
	if (e != r::ParseError::ok)
		return 0;
	if (!p.icrc_ok)
		abort();
	r::BuildResult br = r::build(p, {out, sizeof(out)}, r::BuildOptions::raw());
	if (!br || br.len != size || std::memcmp(out, data, size) != 0)
		abort();
	bool zero_pad = true;
	for (uint8_t b : p.pad)
		zero_pad = zero_pad && b == 0;
	r::BuildOptions o;
	o.trailer = true;
	o.udp_checksum = p.ip_version == r::IpVersion::v4 && p.udp.checksum != 0;
	o.udp_checksum_ipv6 = false;
	if (zero_pad && p.ip4.options.size() % 4 == 0 &&
	    !(p.ip_version == r::IpVersion::v4 && p.udp.checksum)) {
		/* Default encoding may only differ in fields it recomputes; those are all valid here
		 * except EtherType/IHL/protocol which parse() already checked. */
		br = r::build(p, {out, sizeof(out)}, o);
		if (!br || br.len != size || std::memcmp(out, data, size) != 0)
			abort();
	}
	return 0;
}
