#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gaudi-testpmd: every forwarding mode moves the right frames, counts and bytes checked at
both ends, and the --json report matches the printed final report (the ports' counters).

Generators (txonly, flowgen, template) run on the default emulated pair; the forwarding modes
(io, mac, macswap, rxonly, icmpecho) on wire=pcap ports, whose input and output are files
compared frame by frame. io over wire=pcap is the replay self-check the old wrapper ran.
"""
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import tempfile

from app_common import (APP, EAL_BASE, MAX_FRAME, PMD, TX_PAD, Fail, check,
                        check_report_matches, main, pad60, pad_tx, pcapfile, run, run_ok,
                        text_report, tshark_fields, workdir)

MAC0, MAC1 = "02:1d:a3:00:00:00", "02:1d:a3:00:00:01"
W = workdir()


def mac(s):
    return bytes.fromhex(s.replace(":", ""))


def udp_frame(seq, size):
    """Ethernet/IPv4/UDP frame of `size` bytes (no FCS) carrying seq (IP checksum left 0:
    the driver and the app do not look at it)."""
    payload = (struct.pack("!I", seq) + bytes((seq + i) & 0xFF for i in range(size)))[:size - 42]
    udp = struct.pack("!HHHH", 1024, 9, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), seq & 0xFFFF, 0, 64, 17, 0,
                     bytes([198, 18, 0, 1]), bytes([198, 18, 0, 2]))
    return mac(MAC1) + bytes.fromhex("020000000077") + b"\x08\x00" + ip + udp


def replay_input(name, count=450):
    """A capture of UDP frames 60..2000 bytes; the PMD drops those above MTU + 22 = 1522."""
    sizes = [60, 64, 128, 186, 187, 512, 1024, 1514, 1522, 1523, 2000]
    frames = [udp_frame(i, sizes[i % len(sizes)]) for i in range(count)]
    path = os.path.join(W, name)
    pcapfile.write_pcap(path, frames)
    return path, frames


def pcap_run(mode, frames_in, in_path, out_port, extra=(), engine="inline", expect_rx=None):
    out = os.path.join(W, f"{mode}-{engine}-out.pcap")
    vdev = (f"net_gaudi_emu0,ports=2,wire=pcap,engine={engine},rx_pcap=0:{in_path},"
            f"tx_pcap={out_port}:{out}")
    passed = [f for f in frames_in if len(f) <= MAX_FRAME]
    n = expect_rx if expect_rx is not None else len(passed)
    r = run_ok([f"--forward-mode={mode}", f"--packets={n}", "--stats-period=0"] + list(extra),
               eal=EAL_BASE + ["--vdev", vdev], json_path=os.path.join(W, f"{mode}.json"))
    check_report_matches(r)
    p0 = r.port(0)
    check(p0["rx_packets"] == len(passed), f"{mode}: port 0 rx {p0['rx_packets']}, "
          f"expected {len(passed)}")
    check(p0["rx_bytes"] == sum(len(pad60(f)) for f in passed),
          f"{mode}: port 0 rx bytes {p0['rx_bytes']} (frames from the wire are padded to 60)")
    check(p0["rx_errors"] == len(frames_in) - len(passed),
          f"{mode}: port 0 rx errors {p0['rx_errors']}, expected {len(frames_in) - len(passed)}")
    lt, got = pcapfile.read_frames(out) if os.path.exists(out) else (set(), [])
    return r, passed, got


def test_io_replay():
    for engine in ("inline", "thread"):
        path, frames = replay_input("replay.pcap")
        r, passed, got = pcap_run("io", frames, path, 1, engine=engine)
        expect = [pad_tx(f) for f in passed]
        check(got == expect, f"io/{engine}: port 1 sent {len(got)} frames, expected "
              f"{len(expect)} (in order, short ones padded to {TX_PAD})")
        p1 = r.port(1)
        check(p1["tx_packets"] == len(passed) and
              p1["tx_bytes"] == sum(len(f) for f in passed), f"io/{engine}: port 1 tx counters")
        check(p1["tx_dropped"] == 0, "io: tx dropped")


def test_mac():
    path, frames = replay_input("mac.pcap", 90)
    peer = "02:00:00:00:00:99"
    r, passed, got = pcap_run("mac", frames, path, 1, [f"--eth-peer=1,{peer}"])
    expect = [pad_tx(mac(peer) + mac(MAC1) + f[12:]) for f in passed]
    check(got == expect, f"mac: {len(got)} frames out, {len(expect)} expected with dst {peer}, "
          f"src {MAC1}")


def test_macswap():
    path, frames = replay_input("macswap.pcap", 90)
    r, passed, got = pcap_run("macswap", frames, path, 1)
    expect = [pad_tx(f[6:12] + f[0:6] + f[12:]) for f in passed]
    check(got == expect, f"macswap: {len(got)} frames out, {len(expect)} expected")


def test_rxonly():
    path, frames = replay_input("rxonly.pcap", 90)
    r, passed, got = pcap_run("rxonly", frames, path, 1)
    check(got == [] and r.port(1)["tx_packets"] == 0 and r.port(0)["tx_packets"] == 0,
          f"rxonly sent frames: {len(got)}")


def test_icmpecho():
    from scapy.all import ARP, ICMP, IP, UDP, Ether, raw
    src, me = "02:00:00:00:00:aa", MAC0
    reqs = [raw(Ether(src=src, dst=me) / IP(src="10.0.0.1", dst="10.0.0.2") /
                ICMP(type=8, id=7, seq=i) / (b"x" * (i * 10))) for i in range(8)]
    arps = [raw(Ether(src=src, dst="ff:ff:ff:ff:ff:ff") /
                ARP(op=1, hwsrc=src, psrc="10.0.0.1", pdst=f"10.0.0.{i}")) for i in (2, 3)]
    other = [raw(Ether(src=src, dst=me) / IP(src="10.0.0.1", dst="10.0.0.2") / UDP() / b"u"),
             raw(Ether(src=src, dst=me) / IP(src="10.0.0.1", dst="10.0.0.2") /
                 ICMP(type=0, id=1, seq=1))]
    frames = reqs[:4] + arps + other + reqs[4:]
    path = os.path.join(W, "icmp.pcap")
    pcapfile.write_pcap(path, frames)
    r, passed, got = pcap_run("icmpecho", frames, path, 0, ["--portlist=0"])
    check(len(got) == len(reqs) + len(arps), f"icmpecho: {len(got)} replies, expected "
          f"{len(reqs) + len(arps)}")
    replies = [Ether(f) for f in got]
    icmp = [p for p in replies if ICMP in p]
    arp = [p for p in replies if ARP in p]
    check(len(icmp) == len(reqs) and len(arp) == len(arps), "icmpecho: reply kinds")
    for i, p in enumerate(icmp):
        check(p[Ether].dst == src and p[Ether].src == me, "icmpecho: Ethernet addresses")
        check(p[IP].src == "10.0.0.2" and p[IP].dst == "10.0.0.1", "icmpecho: IP addresses")
        check(p[ICMP].type == 0 and p[ICMP].seq == [0, 1, 2, 3, 4, 5, 6, 7][i],
              f"icmpecho: reply {i} type/seq")
        ck = p[ICMP].chksum
        p2 = p.copy()
        del p2[ICMP].chksum
        check(Ether(raw(p2))[ICMP].chksum == ck, f"icmpecho: ICMP checksum of reply {i}")
        ck = p[IP].chksum
        del p2[IP].chksum
        check(Ether(raw(p2))[IP].chksum == ck, f"icmpecho: IP checksum of reply {i}")
    for p, want in zip(arp, ("10.0.0.2", "10.0.0.3")):
        check(p[ARP].op == 2 and p[ARP].hwsrc == me and p[ARP].psrc == want and
              p[ARP].hwdst == src and p[ARP].pdst == "10.0.0.1" and p[Ether].dst == src,
              f"icmpecho: ARP reply for {want}: {p.summary()}")


def test_txonly():
    n, size = 20000, 128
    r = run_ok(["--forward-mode=txonly", f"--packets={n}", f"--txpkts={size}",
                "--stats-period=0"], json_path=os.path.join(W, "txonly.json"))
    check_report_matches(r)
    for p in (0, 1):
        e = r.port(p)
        check(e["tx_packets"] == n and e["tx_bytes"] == n * size,
              f"txonly: port {p} tx {e['tx_packets']} frames {e['tx_bytes']} bytes")
        check(e["rx_packets"] == n and e["rx_bytes"] == n * max(size, TX_PAD),
              f"txonly: port {p} rx {e['rx_packets']} frames {e['rx_bytes']} bytes")
        lat = e.get("latency_ns")
        check(lat and lat["count"] == n, f"txonly: port {p} latency over {lat and lat['count']}")
        check(0 < lat["p50"] <= lat["p99"] <= lat["p999"] <= lat["max"],
              f"txonly: port {p} percentiles out of order: {lat}")
        check(sum(c for _, c in lat["histogram"]) == n, "txonly: histogram total")
        seq = e["sequence"]
        check(seq["lost"] == 0 and seq["reordered"] == 0 and seq["sent_by_peer"] == n,
              f"txonly: port {p} sequence {seq}")


def test_flowgen():
    n, flows = 4096, 64
    cap = os.path.join(W, "flowgen.pcapng")
    r = run_ok(["--forward-mode=flowgen", f"--packets={n}", f"--flowgen-flows={flows}",
                "--tx-ip=10.1.0.1,10.2.0.1", "--tx-udp=5000,6000", "--stats-period=0",
                f"--capture=1:{cap}", "--capture-dir=rx"], json_path=os.path.join(W, "fg.json"))
    check_report_matches(r)
    check(r.port(1)["rx_packets"] == n and r.port(0)["tx_packets"] == n, "flowgen: counts")
    rows = tshark_fields(cap, ["ip.src", "ip.dst", "udp.srcport", "udp.dstport"])
    check(len(rows) == n, f"flowgen: {len(rows)} frames captured, {n} sent")
    pairs = {(a, c) for a, b, c, d in rows}
    check(len(pairs) == flows, f"flowgen: {len(pairs)} flows, expected {flows}")
    check({b for a, b, c, d in rows} == {"10.2.0.1"} and {d for *_, d in rows} == {"6000"},
          "flowgen: destination address/port")
    check(("10.1.0.1", "5000") in pairs and (f"10.1.0.{flows}", str(5000 + flows - 1)) in pairs,
          "flowgen: flow range")


def test_template():
    lens = [20, 60, 114, 1014, 1514]
    frames = [mac(MAC1) + mac(MAC0) + b"\x88\xb5" + bytes([i]) * (n - 14)
              for i, n in enumerate(lens)]
    tpl = os.path.join(W, "template.pcap")
    pcapfile.write_pcap(tpl, frames)
    n = 1003
    cap = os.path.join(W, "template-rx.pcapng")
    r = run_ok(["--forward-mode=template", f"--template={tpl}", f"--packets={n}",
                "--stats-period=0", f"--capture=1:{cap}", "--capture-dir=rx"],
               json_path=os.path.join(W, "tpl.json"))
    check_report_matches(r)
    sent = [frames[i % len(frames)] for i in range(n)]
    p0, p1 = r.port(0), r.port(1)
    check(p0["tx_packets"] == n and p0["tx_bytes"] == sum(len(f) for f in sent),
          f"template: port 0 tx {p0['tx_packets']} / {p0['tx_bytes']} bytes")
    check(p1["rx_packets"] == n and p1["rx_bytes"] == sum(len(pad_tx(f)) for f in sent),
          f"template: port 1 rx {p1['rx_packets']} / {p1['rx_bytes']} bytes")
    lt, got = pcapfile.read_frames(cap)
    check(got == [pad_tx(f) for f in sent], f"template: port 1 received {len(got)} frames, "
          "not the template's in order")
    check(len(tshark_fields(cap, ["eth.type"], "eth.type == 0x88b5")) == n,
          "template: tshark decode")


def test_from_a_world_writable_directory():
    # The PMD is linked in: the app runs from a copy of the build under a world-writable
    # directory (a clone in /tmp), where DPDK refuses a -d plugin.
    top = tempfile.mkdtemp(prefix="gtp-ww-", dir="/tmp")
    try:
        os.chmod(top, 0o777)
        app = os.path.join(top, "app", "gaudi-testpmd", "gaudi-testpmd")
        pmd = os.path.join(top, "drivers", "net", "gaudi", os.path.basename(PMD))
        for src, dst in ((APP, app), (PMD, pmd)):
            os.makedirs(os.path.dirname(dst))
            shutil.copy2(src, dst)
        check(os.stat(top).st_mode & stat.S_IWOTH, "the directory is not world-writable")
        # GAUDI_PMD named the plugin the app passed to -d before it was linked in.
        p = subprocess.run([app, "--forward-mode=txonly", "--packets=1000", "--stats-period=0"],
                           capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, GAUDI_PMD=pmd))
        check(p.returncode == 0,
              f"gaudi-testpmd from {top} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
        rows, _ = text_report(p.stdout)
        check(len(rows) == 2 and all(r["tx_packets"] == 1000 for r in rows.values()),
              f"report from the copy: {rows}")
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_largest_frame():
    # One largest frame, the port's (max_rx_pktlen less the FCS): 'show port info' states it,
    # --txpkts takes exactly up to it, and the PMD receives a frame of that length and drops
    # one a byte longer. (--help said 42..9000, port info 8192, and 8189..8192 were taken
    # and failed at the MTU.)
    p = subprocess.run([APP, "-i"], input="show port info 0\n", capture_output=True,
                       text=True, timeout=60)
    m = re.search(r"max frame (\d+) bytes", p.stdout)
    check(p.returncode == 0 and m is not None, f"show port info: {p.stdout}\n{p.stderr}")
    n = int(m.group(1))
    # Gaudi2: NIC_RAW_MAX_MTU (8192 - 26) plus its 22 header bytes, without FCS.
    check(n == 8188, f"largest frame {n}, expected 8188")
    check("9000" not in subprocess.run([APP, "--help"], capture_output=True,
                                       text=True).stdout, "--help states 9000 bytes")
    r = run_ok(["--forward-mode=txonly", f"--txpkts={n}", "--packets=200", "--stats-period=0"],
               json_path=os.path.join(W, "max.json"))
    for q in r.report["ports"]:
        check(q["rx_packets"] == q["tx_packets"] == 200 and q["rx_bytes"] == 200 * n and
              q["rx_errors"] == 0, f"--txpkts={n}: {q}")
    r = run([f"--txpkts={n + 1}", "--forward-mode=txonly", "--packets=200"],
            json_path=os.path.join(W, "over.json"))
    lines = r.err.strip().splitlines()
    check(r.rc == 1 and r.report is None and len(lines) == 1 and
          f"{n + 1}-byte frames" in lines[0] and f"largest frame of {n}" in lines[0],
          f"--txpkts={n + 1}: status {r.rc}, {r.err}")
    # The PMD at the MTU of that frame: n bytes received, n + 1 dropped (rx_errors).
    frames = [udp_frame(0, n), udp_frame(1, n + 1), udp_frame(2, n)]
    path = os.path.join(W, "largest.pcap")
    pcapfile.write_pcap(path, frames)
    vdev = f"net_gaudi_emu0,ports=2,wire=pcap,rx_pcap=0:{path}"
    r = run_ok(["--forward-mode=rxonly", f"--txpkts={n}", "--packets=2", "--stats-period=0"],
               eal=EAL_BASE + ["--vdev", vdev], json_path=os.path.join(W, "largest.json"))
    p0 = r.port(0)
    check(p0["rx_packets"] == 2 and p0["rx_bytes"] == 2 * n and p0["rx_errors"] == 1,
          f"frames of {n} and {n + 1} bytes into port 0: {p0}")


if __name__ == "__main__":
    sys.exit(main("app_modes", [test_io_replay, test_mac, test_macswap, test_rxonly,
                                test_icmpecho, test_txonly, test_flowgen, test_template,
                                test_from_a_world_writable_directory, test_largest_frame]))
