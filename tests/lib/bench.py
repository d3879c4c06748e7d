#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Benchmark: stock dpdk-testpmd io forwarding on one forwarding core (lcore 1; lcore 0 is the
main lcore) over two ports of each backend, 64- and 1500-byte frames. Figures, not a test.

Traffic: `start tx_first 8` puts 8 bursts of 32 frames per port on the loop; after 1 s of
warm-up the rate is (RX packets of both ports in the window) / window = frames forwarded per
second. Backends: net_gaudi_emu (wire=pair, engine inline and thread), net_memif (server and
client in the same process), net_ring (each port a ring looped onto itself) and net_null.
Usage: tests/lib/bench.py [--pmd build/drivers/net/gaudi/librte_net_gaudi.so] [--seconds 5]
"""
import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_session import TestPmd, TestPmdError  # noqa: E402

SOCK = "/run/gaudi-bench.sock"
BACKENDS = {
    "gaudi-inline": ["net_gaudi_emu0,ports=2,wire=pair,engine=inline"],
    "gaudi-thread": ["net_gaudi_emu0,ports=2,wire=pair,engine=thread"],
    "memif": [f"net_memif0,role=server,socket={SOCK}", f"net_memif1,role=client,socket={SOCK}"],
    "ring": ["net_ring0", "net_ring1"],
    "null": ["net_null0", "net_null1"],
}


def measure(name, size, seconds, pmd, bursts=8):
    """Frames forwarded per second (millions) after `start tx_first <bursts>`."""
    vdevs = BACKENDS[name]
    if name == "null":
        vdevs = [f"{v},size={size}" for v in vdevs]
    if name == "memif" and os.path.exists(SOCK):
        os.unlink(SOCK)
    with TestPmd(vdevs, pmd_path=pmd if name.startswith("gaudi") else None,
                 app_args=["--forward-mode=io", "--nb-cores=1", "--burst=32",
                           f"--txpkts={size}"]) as tp:
        if name == "memif":   # the control channel connects asynchronously
            for _ in range(50):
                if tp.cmd("show port info 1").count("Link status: up"):
                    break
                time.sleep(0.1)
        tp.cmd(f"start tx_first {bursts}")
        time.sleep(1)
        a, t0 = tp.port_stats(), time.monotonic()
        time.sleep(seconds)
        b, t1 = tp.port_stats(), time.monotonic()
        tp.cmd("stop")
        tp.quit()
    rx = sum(b[p]["RX-packets"] - a[p]["RX-packets"] for p in (0, 1))
    return rx / (t1 - t0) / 1e6


def main():
    ap = argparse.ArgumentParser(description="testpmd io-forwarding Mpps per backend")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--pmd", default=os.path.join(here, "..", "build", "drivers", "net", "gaudi",
                                                  "librte_net_gaudi.so"))
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--backends", default=",".join(BACKENDS))
    ap.add_argument("--sizes", default="64,1500")
    args = ap.parse_args()
    names = args.backends.split(",")
    sizes = [int(s) for s in args.sizes.split(",")]
    res = {}
    for size in sizes:
        for name in names:
            try:
                res[name, size] = measure(name, size, args.seconds, args.pmd)
            except TestPmdError as e:
                print(f"{name} {size}B: {str(e).splitlines()[0]}", file=sys.stderr)
                res[name, size] = None
            print(f"  {name:13} {size:5}B  "
                  f"{'n/a' if res[name, size] is None else f'{res[name, size]:.3f} Mpps'}",
                  file=sys.stderr)
    cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo")
                if ln.startswith("model name")), platform.machine())
    print(f"# {time.strftime('%Y-%m-%d')}, {cpu}, {os.cpu_count()} CPUs, "
          f"testpmd io, 1 forwarding core, {args.seconds:g}s per point")
    refs = [n for n in names if not n.startswith("gaudi")]
    print(f"{'backend':13} {'size':>5} {'Mpps':>8}" + "".join(f" {'vs ' + r:>10}" for r in refs))
    for size in sizes:
        for name in names:
            v = res[name, size]
            line = f"{name:13} {size:5} {'n/a' if v is None else f'{v:8.3f}':>8}"
            if name.startswith("gaudi"):
                for r in refs:
                    ref = res[r, size]
                    line += f" {f'{v / ref:.2f}x' if v and ref else 'n/a':>10}"
            print(line)
    return 0 if all(v is not None for v in res.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
