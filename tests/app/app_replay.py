#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gaudi-testpmd template replay with the capture's own timing (--replay-speed), looped
(--replay-loop) or at a set rate, as tcpreplay does: the run ends when the replay is done
(stopped_by "replay"), the frames arrive once per loop in the capture's order, and their
spacing on the receiving port follows the capture's. pcap and pcapng sources; a capture of
the shared data set; bad input refused with one line.

No test times the machine: the inter-frame gaps are compared with the source's with a loose
bound (their sum within 20 %, the order equal), and a run cannot end before its schedule.
"""
import os
import re
import sys

from app_common import (EAL_BASE, TX_PAD, check, check_one_line_error, check_report_matches, main,
                        pad_tx, pcapfile, run_ok, workdir)

W = workdir()
MAC0, MAC1 = "02:1d:a3:00:00:00", "02:1d:a3:00:00:01"
SHARED = os.environ.get("GAUDI_SHARED_DATA", "")
N, GAP = 20, 0.025  # 20 frames 25 ms apart: 0.475 s from the first to the last
# (a shared machine may stall the lcore some 30 ms: well within 20 % of that)


def source(path, n=N, gap=GAP):
    """A pcap of n UDP frames `gap` s apart, made with scapy; returns the frames' bytes."""
    from scapy.all import IP, UDP, Ether, Raw, raw, wrpcap
    pkts = []
    for i in range(n):
        p = Ether(src=MAC0, dst=MAC1) / IP(src="10.0.0.1", dst="10.0.0.2") / \
            UDP(sport=1000 + i, dport=2000) / Raw(bytes([i]) * (30 + i))
        p.time = 1700000000 + i * gap
        pkts.append(p)
    wrpcap(path, pkts)
    return [raw(p) for p in pkts]


def capture_times(path):
    """Timestamps (s) of a pcapng's frames, as scapy reads them."""
    from scapy.all import rdpcap
    return [float(p.time) for p in rdpcap(path)]


def check_gaps(path, n, gap, what):
    """The captured frames' gaps follow the source's: as many; the median gap within 20 % of
    the source's, and the whole run not shorter than 80 % of it (a replay may be late where
    the machine took its core away, which the median rides over, but never early)."""
    t = capture_times(path)
    check(len(t) == n, f"{what}: {len(t)} frames captured, {n} sent")
    gaps = sorted(b - a for a, b in zip(t, t[1:]))
    want = gap * (n - 1)
    median = gaps[len(gaps) // 2]
    check(abs(median - gap) <= 0.2 * gap,
          f"{what}: the median gap is {median:.4f} s, the capture's {gap:.4f} s")
    check(sum(gaps) >= 0.8 * want,
          f"{what}: the gaps sum to {sum(gaps):.4f} s, the capture's to {want:.4f} s")
    check(min(gaps) >= 0, f"{what}: a frame arrived before its predecessor")


def test_speed_1():
    src = os.path.join(W, "src.pcap")
    frames = source(src)
    cap = os.path.join(W, "rx1.pcapng")
    r = run_ok([f"--template={src}", "--replay-speed=1", "--stats-period=0",
                f"--capture=1:{cap}:rx"], json_path=os.path.join(W, "s1.json"))
    check_report_matches(r)
    check(r.report["stopped_by"] == "replay", f"stopped by {r.report['stopped_by']}")
    check(r.port(0)["tx_packets"] == N and r.port(1)["rx_packets"] == N,
          f"port 0 sent {r.port(0)['tx_packets']}, port 1 received {r.port(1)['rx_packets']}")
    _, got = pcapfile.read_frames(cap)
    check(got == [pad_tx(f) for f in frames], "the frames did not arrive as captured, in order")
    # The schedule is 0.475 s: the run cannot end before it.
    check(r.report["duration_s"] >= GAP * (N - 1),
          f"the replay ended after {r.report['duration_s']} s, before its schedule")
    check("replay at x1 of the capture's timing (0.475000 s -> 0.475000 s), 1 loop(s)" in r.out,
          "start-up line")
    check_gaps(cap, N, GAP, "speed 1")
    # No latency stamping: the frames go out as captured (checked above) and no latency.
    check("latency_ns" not in r.port(1), "latency measured on replayed frames")


def test_speed_scales_the_gaps():
    src = os.path.join(W, "src2.pcap")
    source(src, n=11, gap=0.080)
    cap = os.path.join(W, "rx2.pcapng")
    r = run_ok([f"--template={src}", "--replay-speed=2", "--stats-period=0",
                f"--capture=1:{cap}:rx"], json_path=os.path.join(W, "s2.json"))
    check("(0.800000 s -> 0.400000 s)" in r.out, "speed 2: the schedule is not halved")
    check(r.report["duration_s"] >= 0.4, f"speed 2 ended after {r.report['duration_s']} s")
    check_gaps(cap, 11, 0.040, "speed 2")


def test_loop_3():
    src = os.path.join(W, "src.pcap")
    frames = source(src)
    cap = os.path.join(W, "rx3.pcapng")
    r = run_ok([f"--template={src}", "--replay-speed=50", "--replay-loop=3",
                "--stats-period=0", f"--capture=1:{cap}:rx"],
               json_path=os.path.join(W, "l3.json"))
    check_report_matches(r)
    check(r.report["stopped_by"] == "replay", f"stopped by {r.report['stopped_by']}")
    for p in (0, 1):
        check(r.port(p)["tx_packets"] == 3 * N and r.port(p)["rx_packets"] == 3 * N,
              f"port {p}: tx {r.port(p)['tx_packets']} rx {r.port(p)['rx_packets']}, "
              f"not {3 * N}")
    _, got = pcapfile.read_frames(cap)
    check(got == [pad_tx(f) for f in frames] * 3, "3 loops: not the capture 3 times in order")


def test_at_a_rate():
    src = os.path.join(W, "src.pcap")
    frames = source(src)
    r = run_ok([f"--template={src}", "--replay-loop=2", "--rate=2000", "--stats-period=0"],
               json_path=os.path.join(W, "rate.json"))
    check(r.report["stopped_by"] == "replay" and r.report["target_pps"] == 2000,
          f"stopped by {r.report['stopped_by']}, target {r.report['target_pps']}")
    check(r.port(0)["tx_packets"] == 2 * N and
          r.port(0)["tx_bytes"] == 2 * sum(len(f) for f in frames),
          f"port 0 sent {r.port(0)['tx_packets']} frames")
    check("replay at the set rate, 2 loop(s)" in r.out, "start-up line")


def test_pcapng_source():
    # The app's own capture (pcapng, nanosecond timestamps) replayed: libpcap reads both.
    src = os.path.join(W, "src.pcap")
    frames = source(src)
    ng = os.path.join(W, "ng-src.pcapng")
    run_ok([f"--template={src}", "--replay-speed=10", "--stats-period=0",
            f"--capture=1:{ng}:rx"])
    cap = os.path.join(W, "ng-rx.pcapng")
    r = run_ok([f"--template={ng}", "--replay-speed=1", "--stats-period=0",
                f"--capture=1:{cap}:rx"], json_path=os.path.join(W, "ng.json"))
    check(r.report["stopped_by"] == "replay", f"stopped by {r.report['stopped_by']}")
    _, got = pcapfile.read_frames(cap)
    check(got == [pad_tx(f) for f in frames], "pcapng replay: frames")
    t = capture_times(ng)
    span = t[-1] - t[0]
    m = re.search(r"replay at x1 of the capture's timing \(([\d.]+) s ->", r.out)
    check(m and abs(float(m.group(1)) - span) < 2e-6,
          f"pcapng: the schedule is not the capture's {span} s: {m and m.group(0)}")


def test_shared_capture():
    path = os.path.join(SHARED, "pcap", "ethernet", "HSRP_election.pcap")
    if not os.path.exists(path):
        print(f"skip test_shared_capture: {path} is absent (the shared data set)")
        return
    from scapy.all import rdpcap
    pk = rdpcap(path)
    span = float(pk[-1].time) - float(pk[0].time)
    speed = 100  # 57 s of capture in 0.57 s
    cap = os.path.join(W, "hsrp-rx.pcapng")
    r = run_ok([f"--template={path}", f"--replay-speed={speed}", "--stats-period=0",
                f"--capture=1:{cap}:rx"], json_path=os.path.join(W, "hsrp.json"))
    check(r.report["stopped_by"] == "replay", f"stopped by {r.report['stopped_by']}")
    _, got = pcapfile.read_frames(cap)
    check(got == [pad_tx(bytes(p)) for p in pk], f"{len(got)} frames of {len(pk)} as captured")
    check(r.report["duration_s"] >= span / speed,
          f"ended after {r.report['duration_s']} s, before its {span / speed:.3f} s schedule")


def test_bad_input():
    src = os.path.join(W, "src.pcap")
    source(src)
    cut = os.path.join(W, "cut.pcap")
    with open(src, "rb") as f, open(cut, "wb") as g:
        g.write(f.read()[:24 + 16 + 70])  # header, a record and part of the next
    notpcap = os.path.join(W, "not.pcap")
    with open(notpcap, "w") as f:
        f.write("not a capture\n")
    t = f"--template={src}"
    cases = [
        ([t, "--replay-speed=0"], "--replay-speed=0: not a replay speed"),
        ([t, "--replay-speed=fast"], "not a replay speed"),
        ([t, "--replay-loop=-1"], "not a number of loops"),
        (["--forward-mode=txonly", "--replay-speed=1"], "is for --forward-mode=template"),
        ([t, "--replay-speed=1", "--rate=1000"], "two timings"),
        ([t, "--replay-loop=2", "--packets=10"], "--replay-loop and --packets"),
        ([t, "--replay-loop=2", "--rxq=2", "--txq=2"], "one queue per port"),
        ([t, "--replay-loop=2", "-i"], "has no prompt"),
        ([f"--template={cut}", "--replay-speed=1"], "truncated"),
        ([f"--template={notpcap}", "--replay-speed=1"], "--template="),
    ]
    for args, words in cases:
        out = os.path.join(W, "never.pcap")
        js = os.path.join(W, "never.json")
        vdev = f"net_gaudi_emu0,ports=2,wire=pcap,rx_pcap=0:{src},tx_pcap=0:{out}"
        check_one_line_error(args, words, eal=EAL_BASE + ["--vdev", vdev], json_path=js,
                             timeout=30)


if __name__ == "__main__":
    sys.exit(main("app_replay", [test_speed_1, test_speed_scales_the_gaps, test_loop_3,
                                 test_at_a_rate, test_pcapng_source, test_shared_capture,
                                 test_bad_input]))
