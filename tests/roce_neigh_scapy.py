#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Cross-check the ARP / IPv6 ND responder (drivers/net/gaudi/roce/roce_neigh) with scapy.

scapy builds an ARP who-has and an IPv6 Neighbor Solicitation (with source link-layer
option) for the responder's addresses 10.0.0.1 and fd00::1, plus frames it must ignore
(ARP for another address, an NS with a wrong hop limit, an NS with a bad checksum). The
test binary (test_roce_neigh, NeighbourPcap) answers them and adds its own ARP request and
NS; scapy then decodes everything: fields, the ICMPv6 checksums (recomputed by scapy) and
the solicited-node addressing.

Env: TEST_ROCE_NEIGH (the built gtest binary). Exit 0 on success, 1 on any mismatch.
"""
import os
import subprocess
import sys
import tempfile

try:
    from scapy.all import (ARP, Ether, ICMPv6ND_NA, ICMPv6ND_NS, ICMPv6NDOptDstLLAddr,
                           ICMPv6NDOptSrcLLAddr, IPv6, raw, rdpcap, wrpcap)
except ImportError:
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3") \
            and not os.environ.get("ROCE_NEIGH_REEXEC"):
        os.environ["ROCE_NEIGH_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print("FAIL: scapy (apt python3-scapy) is not importable", file=sys.stderr)
    sys.exit(1)

OUR_MAC = "02:00:00:00:00:01"
PEER_MAC = "52:54:00:12:34:56"
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg)


def check_cksum(pkt, layer, what):
    """The checksum of pkt's layer is the one scapy computes for the same bytes."""
    got = pkt[layer].cksum
    again = Ether(raw(pkt))
    del again[layer].cksum
    check(Ether(raw(again))[layer].cksum == got, f"{what} checksum (scapy recomputed)")


def main():
    binary = os.environ.get("TEST_ROCE_NEIGH")
    if not binary or not os.path.exists(binary):
        print("FAIL: TEST_ROCE_NEIGH not set or missing", file=sys.stderr)
        return 1
    frames = [
        Ether(src=PEER_MAC, dst="ff:ff:ff:ff:ff:ff") /
        ARP(op=1, hwsrc=PEER_MAC, psrc="10.0.0.2", pdst="10.0.0.1"),
        Ether(src=PEER_MAC, dst="ff:ff:ff:ff:ff:ff") /
        ARP(op=1, hwsrc=PEER_MAC, psrc="10.0.0.2", pdst="10.0.0.9"),          # not ours
        Ether(src=PEER_MAC, dst="33:33:ff:00:00:01") /
        IPv6(src="fd00::2", dst="ff02::1:ff00:1", hlim=255) /
        ICMPv6ND_NS(tgt="fd00::1") / ICMPv6NDOptSrcLLAddr(lladdr=PEER_MAC),
        Ether(src=PEER_MAC, dst="33:33:ff:00:00:01") /
        IPv6(src="fd00::2", dst="ff02::1:ff00:1", hlim=64) /                  # forwarded
        ICMPv6ND_NS(tgt="fd00::1") / ICMPv6NDOptSrcLLAddr(lladdr=PEER_MAC),
        Ether(src=PEER_MAC, dst="33:33:ff:00:00:01") /
        IPv6(src="fd00::2", dst="ff02::1:ff00:1", hlim=255) /
        ICMPv6ND_NS(tgt="fd00::1", cksum=0x1234) / ICMPv6NDOptSrcLLAddr(lladdr=PEER_MAC),
    ]
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in.pcap"), os.path.join(d, "out.pcap")
        wrpcap(src, frames)
        env = dict(os.environ, ROCE_NEIGH_IN=src, ROCE_NEIGH_OUT=dst)
        r = subprocess.run([binary, "--gtest_filter=NeighbourPcap.*"], env=env,
                           capture_output=True, text=True, timeout=60)
        print(r.stdout[-2000:])
        if r.returncode != 0:
            print(r.stderr[-2000:], file=sys.stderr)
            return 1
        out = rdpcap(dst)
    check(len(out) == 4, "expected 2 replies + 2 requests, got %d" % len(out))
    if len(out) != 4:
        return 1
    arp_rep, na, arp_req, ns = out
    # ARP reply
    check(arp_rep.haslayer(ARP) and arp_rep[ARP].op == 2, "ARP reply op")
    check(arp_rep[Ether].dst == PEER_MAC and arp_rep[Ether].src == OUR_MAC, "ARP reply MACs")
    check(arp_rep[ARP].hwsrc == OUR_MAC and arp_rep[ARP].psrc == "10.0.0.1", "ARP sender")
    check(arp_rep[ARP].hwdst == PEER_MAC and arp_rep[ARP].pdst == "10.0.0.2", "ARP target")
    check(len(raw(arp_rep)) == 60, "ARP reply padded to 60 bytes")
    # Neighbor Advertisement
    check(na.haslayer(ICMPv6ND_NA), "NA expected, got %s" % na.summary())
    if na.haslayer(ICMPv6ND_NA):
        check(na[IPv6].src == "fd00::1" and na[IPv6].dst == "fd00::2", "NA addresses")
        check(na[IPv6].hlim == 255, "NA hop limit")
        check(na[ICMPv6ND_NA].S == 1 and na[ICMPv6ND_NA].O == 1 and na[ICMPv6ND_NA].R == 0,
              "NA flags")
        check(na[ICMPv6ND_NA].tgt == "fd00::1", "NA target")
        check(na.haslayer(ICMPv6NDOptDstLLAddr) and na[ICMPv6NDOptDstLLAddr].lladdr == OUR_MAC,
              "NA target link-layer option")
        check_cksum(na, ICMPv6ND_NA, "NA")
    # Our ARP request
    check(arp_req.haslayer(ARP) and arp_req[ARP].op == 1, "ARP request op")
    check(arp_req[Ether].dst == "ff:ff:ff:ff:ff:ff", "ARP request broadcast")
    check(arp_req[ARP].psrc == "10.0.0.1" and arp_req[ARP].pdst == "10.0.0.2", "ARP request IPs")
    # Our Neighbor Solicitation
    check(ns.haslayer(ICMPv6ND_NS), "NS expected, got %s" % ns.summary())
    if ns.haslayer(ICMPv6ND_NS):
        check(ns[Ether].dst == "33:33:ff:00:00:02", "NS multicast MAC")
        check(ns[IPv6].dst == "ff02::1:ff00:2", "NS solicited-node group")
        check(ns[IPv6].src == "fd00::1" and ns[IPv6].hlim == 255, "NS source / hop limit")
        check(ns[ICMPv6ND_NS].tgt == "fd00::2", "NS target")
        check(ns.haslayer(ICMPv6NDOptSrcLLAddr) and ns[ICMPv6NDOptSrcLLAddr].lladdr == OUR_MAC,
              "NS source link-layer option")
        check_cksum(ns, ICMPv6ND_NS, "NS")
    print("roce_neigh_scapy: %d checks failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
