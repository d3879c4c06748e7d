#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gaudi-testpmd refuses bad input with one clear message on stderr and a non-zero exit,
before any port is configured: no report is written and no frame leaves a wire=pcap port.
"""
import os
import sys

from app_common import EAL_BASE, check, check_one_line_error, main, pcapfile, run, workdir

W = workdir()
TPL = os.path.join(W, "tpl.pcap")

CASES = [
    (["--frobnicate"], "unknown option"),
    (["--forward-mode=warp"], "not a mode"),
    (["--portlist=0,9"], "port 9 does not exist"),
    (["--portlist=0,x"], "not a port list"),
    (["--nb-cores=5"], "needs 6 lcores"),
    (["--burst=0"], "burst"),
    # The line-rate error names the option that set the rate (issue 22).
    (["--forward-mode=txonly", "--rate=200000000"], "--rate=200000000: 337.600 Gbit/s on the "
     "wire"),
    (["--forward-mode=txonly", "--rate-gbps=150"], "--rate-gbps=150: "),
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
    # Honoured nowhere, so refused (issue 22: silently ignored before).
    (["--txpkts=imix", "--forward-mode=io"],
     "--txpkts=imix: a mix of sizes is for txonly and flowgen"),
    (["--txpkts=64:1,128:1", "--forward-mode=mac"], "not mac"),
    (["--capture=0:x:sideways"], "--capture=0:x:sideways: 'sideways' is not a direction"),
]


def test_bad_input():
    pcapfile.write_pcap(os.path.join(W, "empty.pcap"), [])
    pcapfile.write_pcap(TPL, [bytes(60)] * 4)
    for args, words in CASES:
        out = os.path.join(W, "never.pcap")
        js = os.path.join(W, "never.json")
        vdev = (f"net_gaudi_emu0,ports=2,wire=pcap,rx_pcap=0:{TPL},tx_pcap=0:{out},"
                f"tx_pcap=1:{out}1")
        check_one_line_error(args, words, eal=EAL_BASE + ["--vdev", vdev], json_path=js,
                             timeout=30)
        for f in (out, out + "1"):  # created empty at probe; frames only once started
            check(not os.path.exists(f) or pcapfile.read_frames(f)[1] == [],
                  f"{args}: a port sent frames ({f})")


def test_help():
    r = run(["--help"])
    check(r.rc == 0 and "--forward-mode" in r.out and "--capture-filter" in r.out, "--help")
    # The PMD is linked into the app (no -d plugin).
    check("linked in" in r.out and "loaded with -d" not in r.out, "--help on the PMD")


def test_capture_names_with_colons():
    # A file name with a ':' and an extension, or a path, is a file; with a direction after
    # it, the direction is taken off.
    w = workdir()
    for spec, name, d in (("a:b.pcapng", "a:b.pcapng", "rx+tx"), ("a:b:tx", "a:b", "tx"),
                          ("d:e/f.pcapng", None, None)):
        if name is None:
            os.makedirs(os.path.join(w, "d:e"), exist_ok=True)
            name, d = "d:e/f.pcapng", "rx+tx"
        path = os.path.join(w, name)
        r = run(["--forward-mode=txonly", "--packets=10", "--stats-period=0",
                 f"--capture=1:{os.path.join(w, spec)}"])
        check(r.rc == 0, f"--capture=1:{spec}: status {r.rc}: {r.err}")
        n = 20 if d == "rx+tx" else 10  # 10 frames each way
        check(f"capture of port 1 ({d}): {path}, {n} frames written" in r.out,
              f"--capture=1:{spec}: {r.out}")


if __name__ == "__main__":
    sys.exit(main("app_errors", [test_bad_input, test_help, test_capture_names_with_colons]))
