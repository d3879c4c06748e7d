#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gaudi-testpmd --capture: the pcapng files decode with tshark and hold exactly the frames
the port forwarded (tx) or received (rx), and only those --capture-filter passes, while
forwarding goes on (the forwarded output is complete too).
"""
import os
import shlex
import subprocess
import sys
import time

from app_common import (APP, EAL_BASE, MAX_FRAME, check, check_report_matches, main, pad_tx, pcapfile,
                        run_ok,
                        tshark_fields, workdir)
from app_modes import replay_input

W = workdir()


def io_capture(name, extra):
    path, frames = replay_input(f"{name}-in.pcap", 180)
    out = os.path.join(W, f"{name}-out.pcap")
    cap = os.path.join(W, f"{name}.pcapng")
    passed = [f for f in frames if len(f) <= MAX_FRAME]
    vdev = f"net_gaudi_emu0,ports=2,wire=pcap,rx_pcap=0:{path},tx_pcap=1:{out}"
    r = run_ok(["--forward-mode=io", f"--packets={len(passed)}", "--stats-period=0",
                f"--capture=1:{cap}", "--capture-dir=tx"] + extra,
               eal=EAL_BASE + ["--vdev", vdev], json_path=os.path.join(W, f"{name}.json"))
    check_report_matches(r)
    got_out = pcapfile.read_frames(out)[1]
    check(got_out == [pad_tx(f) for f in passed], f"{name}: forwarding output incomplete "
          f"({len(got_out)} of {len(passed)})")
    return r, passed, cap


def test_tx_capture_is_the_forwarded_frames():
    r, passed, cap = io_capture("io-tx", [])
    rows = tshark_fields(cap, ["frame.len", "ip.id"])
    check(len(rows) == len(passed), f"tshark decodes {len(rows)} frames, {len(passed)} forwarded")
    check([int(a) for a, _ in rows] == [len(f) for f in passed], "captured frame lengths")
    got = pcapfile.read_frames(cap)[1]
    check(got == passed, "captured bytes are not the frames port 1 sent")
    c = r.report["captures"][0]
    check(c["written"] == len(passed) and c["dropped"] == 0 and c["filtered_out"] == 0,
          f"capture counters {c}")


def test_filter():
    flt = "udp and len >= 500"
    r, passed, cap = io_capture("io-filter", [f"--capture-filter={flt}"])
    want = [f for f in passed if len(f) >= 500]
    got = pcapfile.read_frames(cap)[1]
    check(got == want, f"filter '{flt}': {len(got)} frames captured, {len(want)} expected")
    check(len(tshark_fields(cap, ["frame.len"], "frame.len < 500")) == 0,
          "tshark finds frames the filter should have dropped")
    c = r.report["captures"][0]
    check(c["written"] == len(want) and c["filtered_out"] == len(passed) - len(want),
          f"capture counters {c}")


def test_rx_and_tx_while_generating():
    n = 5000
    cap = os.path.join(W, "txonly.pcapng")
    before = time.time()
    r = run_ok(["--forward-mode=txonly", f"--packets={n}", "--stats-period=0",
                f"--capture=0:{cap}"], json_path=os.path.join(W, "txonly-cap.json"))
    check_report_matches(r)
    p0 = r.port(0)
    rows = tshark_fields(cap, ["frame.len", "eth.src"])
    check(len(rows) == p0["tx_packets"] + p0["rx_packets"] == 2 * n,
          f"{len(rows)} frames captured on port 0, it sent {p0['tx_packets']} and received "
          f"{p0['rx_packets']}")
    src = [s for _, s in rows]
    check(src.count("02:1d:a3:00:00:00") == n and src.count("02:1d:a3:00:00:01") == n,
          "captured frames: n sent by port 0 and n from port 1")
    # Timestamps on the wall clock: within the run (a second of slack each side); DPDK 22.11's
    # pcapng put every one in the year 2305 unless its clock was started before the first stamp.
    after = time.time()
    stamps = [float(t) for (t,) in tshark_fields(cap, ["frame.time_epoch"])]
    check(stamps and before - 1 <= min(stamps) and max(stamps) <= after + 1,
          f"capture timestamps {min(stamps):.3f}..{max(stamps):.3f} outside the run "
          f"{before:.3f}..{after:.3f}")


def test_capture_max():
    cap = os.path.join(W, "max.pcapng")
    r = run_ok(["--forward-mode=txonly", "--packets=3000", "--stats-period=0",
                f"--capture=1:{cap}", "--capture-max=100"], json_path=os.path.join(W, "m.json"))
    check(len(tshark_fields(cap, ["frame.len"])) == 100, "--capture-max=100")


def test_capture_dir_per_port():
    # The direction is per port: --capture=PORT:FILE:DIR, or --capture-dir=PORT:DIR beside the
    # global --capture-dir=DIR (the default of the others). Port 0 sends from MAC0, port 1
    # from MAC1: a port's rx capture holds the peer's frames, its tx capture its own.
    n = 500
    mac0, mac1 = "02:1d:a3:00:00:00", "02:1d:a3:00:00:01"
    for name, args, want in (
            ("suffix", ["--capture=0:{a}:rx", "--capture=1:{b}", "--capture-dir=tx"],
             ((0, "rx", mac1), (1, "tx", mac1))),
            ("per-port", ["--capture=0:{a}", "--capture=1:{b}", "--capture-dir=0:tx",
                          "--capture-dir=1:rx"], ((0, "tx", mac0), (1, "rx", mac0)))):
        files = {"a": os.path.join(W, f"{name}-0.pcapng"), "b": os.path.join(W, f"{name}-1.pcapng")}
        r = run_ok(["--forward-mode=txonly", f"--packets={n}", "--stats-period=0"] +
                   [a.format(**files) for a in args], json_path=os.path.join(W, f"{name}.json"))
        for (port, d, src), f in zip(want, (files["a"], files["b"])):
            check(f"capture of port {port} ({d}): {f}, {n} frames written" in r.out,
                  f"{name}: port {port} not captured {d} only:\n{r.out}")
            rows = tshark_fields(f, ["eth.src"])
            check(rows == [(src,)] * n, f"{name}: port {port} {d}: {len(rows)} frames, sources "
                  f"{sorted(set(rows))}, expected {n} from {src}")


def test_readme_capture_examples_are_bounded():
    # Each capture example of the README names a bound (--capture-max): the io loop of one
    # wrote 3 GB in 2 s. Run as written (in a scratch directory), its file holds that bound.
    readme = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md")
    cmds, cur = [], None
    with open(readme) as f:
        for ln in f:
            if ln.startswith("$A "):
                cur = ""
            if cur is not None:
                cur += ln.split("#")[0].rstrip().rstrip("\\") + " "
                if not ln.split("#")[0].rstrip().endswith("\\"):
                    cmds.append(shlex.split(cur))
                    cur = None
    lines = [c for c in cmds if any(a.startswith("--capture=") for a in c)]
    check(lines, "no capture example in the README")
    for args in lines:
        mx = [a for a in args if a.startswith("--capture-max=")]
        check(mx, f"README example without --capture-max: {' '.join(args)}")
        args = args[1:]
        cap = [a.split(":")[1] for a in args if a.startswith("--capture=")][0]
        p = subprocess.run([APP] + args, cwd=W, capture_output=True, text=True, timeout=60)
        check(p.returncode == 0, f"{args}: status {p.returncode}\n{p.stdout}\n{p.stderr}")
        got = len(tshark_fields(os.path.join(W, cap), ["frame.len"]))
        check(got == int(mx[0].split("=")[1]), f"README example wrote {got} frames: {args}")


if __name__ == "__main__":
    sys.exit(main("app_capture", [test_tx_capture_is_the_forwarded_frames, test_filter,
                                  test_rx_and_tx_while_generating, test_capture_max,
                                  test_capture_dir_per_port,
                                  test_readme_capture_examples_are_bounded]))
