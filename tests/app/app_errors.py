#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gaudi-testpmd refuses bad input with one clear message on stderr and a non-zero exit,
before any port is configured: no report is written and no frame leaves a wire=pcap port.
"""
import os
import sys

from app_common import EAL_BASE, check, main, pcapfile, run, workdir

W = workdir()
TPL = os.path.join(W, "tpl.pcap")

CASES = [
    (["--frobnicate"], "unknown option"),
    (["--forward-mode=warp"], "not a mode"),
    (["--portlist=0,9"], "port 9 does not exist"),
    (["--portlist=0,x"], "not a port list"),
    (["--nb-cores=5"], "needs 6 lcores"),
    (["--burst=0"], "burst"),
    (["--forward-mode=txonly", "--rate=200000000"], "above port 0's line rate"),
    (["--forward-mode=txonly", "--rate-gbps=150"], "line rate"),
    (["--forward-mode=template", "--template=/nonexistent/t.pcap"], "No such file"),
    (["--forward-mode=template", f"--template={os.path.join(W, 'empty.pcap')}"], "no frames"),
    (["--forward-mode=io", "--rate=1000"], "apply to txonly"),
    (["--txpkts=64,64"], "multi-segment"),
    (["--rxq=2", "--txq=2"], "at most 1 rx"),
    (["--rxd=100"], "limits"),
    # Within the port's min, max and alignment but not a power of two, which the Gaudi PMD's
    # rings are: refused with the options, not by the queue set-up after configuring a port.
    (["--rxd=192"], "--rxd 192 / --txd 1024 out of its limits"),
    (["--txd=320"], "--rxd 512 / --txd 320 out of its limits"),
    (["--txd=8192"], "limits"),
    (["--capture=1:/nonexistent/x.pcapng"], "No such file"),
    (["--capture=1:x.pcapng", "--capture-filter=ip and"], "bad capture filter"),
    (["--eth-peer=0,zz:00:00:00:00:00"], "PORT,XX"),
    (["--capture=1:x.pcapng", "--capture-dir=0:rx"], "no --capture of port 0"),
    (["--capture=1:x.pcapng:tx", "--capture-dir=1:rx"], "in its --capture already"),
    (["--capture=1:x.pcapng", "--capture-dir=1:up"], "PORT:rx|tx|both"),
    (["--duration=-1"], "duration"),
]


def test_bad_input():
    pcapfile.write_pcap(os.path.join(W, "empty.pcap"), [])
    pcapfile.write_pcap(TPL, [bytes(60)] * 4)
    for args, words in CASES:
        out = os.path.join(W, "never.pcap")
        js = os.path.join(W, "never.json")
        vdev = (f"net_gaudi_emu0,ports=2,wire=pcap,rx_pcap=0:{TPL},tx_pcap=0:{out},"
                f"tx_pcap=1:{out}1")
        r = run(args, eal=EAL_BASE + ["--vdev", vdev], json_path=js, timeout=30)
        lines = [line for line in r.err.splitlines() if line.strip()]
        check(r.rc != 0, f"{args}: exit status 0")
        check(len(lines) == 1 and words in lines[0],
              f"{args}: expected one line with '{words}' on stderr, got {lines}")
        check(not os.path.exists(js), f"{args}: a report was written")
        for f in (out, out + "1"):  # created empty at probe; frames only once started
            check(not os.path.exists(f) or pcapfile.read_frames(f)[1] == [],
                  f"{args}: a port sent frames ({f})")


def test_help():
    r = run(["--help"])
    check(r.rc == 0 and "--forward-mode" in r.out and "--capture-filter" in r.out, "--help")


if __name__ == "__main__":
    sys.exit(main("app_errors", [test_bad_input, test_help]))
