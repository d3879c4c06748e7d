#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Benchmark (figures, not a test): gaudi-testpmd against stock dpdk-testpmd, same ports, same
run, one forwarding core each.

1. io forwarding over net_gaudi_emu ports=2 wire=pair (both engines), one burst of 32 frames
   per port put in the loop first (testpmd `start tx_first`, gaudi-testpmd --tx-first), 64-
   and 1500-byte frames. Rate = frames received by both ports per second after 1 s of
   warm-up; the two apps alternate, `--rounds` times, and the median is printed with the ratio.
2. Rate accuracy of gaudi-testpmd txonly: the achievable rate per port (unpaced), then
   --rate at 10%, 50% and 90% of it; achieved = frames sent / run time.

Usage: tests/app/bench_app.py [--app build/app/gaudi-testpmd/gaudi-testpmd]
                              [--pmd build/drivers/net/gaudi/librte_net_gaudi_emu.so] [--seconds 5]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import bench  # noqa: E402

ROOT = os.path.join(HERE, "..", "..")


def cpu_model():
    out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"


def app_run(app, args, work):
    js = os.path.join(work, "r.json")
    p = subprocess.run([app] + args + [f"--json={js}"], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"gaudi-testpmd {' '.join(args)}: {p.stderr or p.stdout}")
    with open(js) as f:
        return json.load(f)


def gaudi_io(app, pmd, engine, size, seconds, work):
    eal = ["-l", "0,1", "-d", pmd, "--no-pci", "--no-huge", "-m", "1024", "--no-shconf",
           "--iova-mode=va", "--log-level=lib.eal:warning", "--log-level=lib.telemetry:error",
           "--vdev", f"net_gaudi_emu0,ports=2,wire=pair,engine={engine}"]
    r = app_run(app, eal + ["--", "--forward-mode=io", "--tx-first", f"--txpkts={size}",
                            "--burst=32", f"--duration={seconds + 1}", "--stats-period=0.5",
                            "--quiet"], work)
    # The periods after the first second: the same window as testpmd's.
    pts = [s for s in r["series"] if s["t"] > 1.01]
    return statistics.mean(sum(p["rx_pps"] for p in s["ports"]) for s in pts) / 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--app", default=os.path.join(ROOT, "build", "app", "gaudi-testpmd",
                                                  "gaudi-testpmd"))
    ap.add_argument("--pmd", default=os.path.join(ROOT, "build", "drivers", "net", "gaudi",
                                                  "librte_net_gaudi_emu.so"))
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    app, pmd = os.path.abspath(args.app), os.path.abspath(args.pmd)
    work = tempfile.mkdtemp(prefix="bench-app-", dir=os.path.dirname(app))
    print(f"# {time.strftime('%Y-%m-%d')}, {cpu_model()}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f} at start; "
          f"1 forwarding core, {args.seconds:g} s per point, median of {args.rounds}")
    print(f"{'io, emu engine':16} {'size':>5} {'gaudi-testpmd':>14} {'dpdk-testpmd':>13} "
          f"{'ratio':>6}")
    for engine in ("inline", "thread"):
        for size in (64, 1500):
            g, t = [], []
            for _ in range(args.rounds):
                g.append(gaudi_io(app, pmd, engine, size, args.seconds, work))
                t.append(bench.measure(f"gaudi-{engine}", size, args.seconds, pmd, 1,
                                       bursts=1)[0])  # Mpps
            gm, tm = statistics.median(g), statistics.median(t)
            print(f"{engine:16} {size:5} {gm:10.3f} Mpps {tm:9.3f} Mpps {gm / tm:6.2f}",
                  flush=True)
    eal = ["-l", "0,1", "--"]
    top = app_run(app, eal + ["--forward-mode=txonly", f"--duration={args.seconds}",
                              "--stats-period=0", "--quiet"], work)
    achievable = min(p["tx_packets"] for p in top["ports"]) / top["duration_s"]
    print(f"\ntxonly 64 B, 2 ports: achievable {achievable / 1e6:.3f} Mpps per port (unpaced)")
    print(f"{'target':>8} {'pps':>12} {'achieved':>12} {'error':>7}")
    for pct in (10, 50, 90):
        target = round(achievable * pct / 100)
        r = app_run(app, eal + ["--forward-mode=txonly", f"--rate={target}",
                                f"--duration={args.seconds}", "--stats-period=0", "--quiet"],
                    work)
        got = min(p["tx_packets"] for p in r["ports"]) / r["duration_s"]
        print(f"{pct:7}% {target:12} {got:12.0f} {(got - target) / target * 100:+6.2f}%",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
