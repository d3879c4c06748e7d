#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot a gaudi-testpmd --json report: rate per port over time, when measured the latency
histogram per port, and the traffic streams' rates, loss and latency side by side. Needs matplotlib (Debian python3-matplotlib).

Usage: gaudi-testpmd-plot REPORT.json [-o OUT.png]   (default OUT: REPORT.png)
"""
import argparse
import json
import os
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("report")
    ap.add_argument("-o", "--out")
    args = ap.parse_args()
    try:
        with open(args.report) as f:
            rep = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"gaudi-testpmd-plot: {args.report}: {e}")
    series = rep.get("series", [])
    lat_ports = [p for p in rep["ports"] if "latency_ns" in p]
    # Empty axes would look like a run that moved nothing: say what is missing instead.
    if not series and not lat_ports:
        sys.exit(f"gaudi-testpmd-plot: {args.report}: nothing to plot: no time series (a run "
                 "with --stats-period=0, shorter than a period, or a prompt session that did "
                 "not forward) and no latency histogram (no stamped frames received)")
    if not series:
        print(f"gaudi-testpmd-plot: {args.report}: no time series, only the latency is drawn",
              file=sys.stderr)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("gaudi-testpmd-plot: matplotlib is missing (apt install python3-matplotlib)")
    out = args.out or os.path.splitext(args.report)[0] + ".png"
    streams = rep.get("streams", [])
    rows = (1 if series else 0) + (1 if lat_ports else 0) + (1 if streams else 0)
    fig, axes = plt.subplots(rows, 1, figsize=(9, 4 * rows), squeeze=False)
    panels = iter(axes[:, 0])
    if series:
        plot_rates(next(panels), rep, series)
    if lat_ports:
        plot_latency(next(panels), lat_ports)
    if streams:
        plot_streams(next(panels), streams)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"plot: {out}")


def plot_rates(ax, rep, series):
    t = [s["t"] for s in series]
    for i, p in enumerate(rep["ports"]):
        for key, style in (("rx_pps", "-"), ("tx_pps", "--")):
            y = [s["ports"][i][key] / 1e6 for s in series if i < len(s["ports"])]
            ax.plot(t[:len(y)], y, style, marker=".", label=f"port {p['port']} {key[:2]}")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("Mpps")
    top = max([s["ports"][i][k] / 1e6 for s in series for i in range(len(s["ports"]))
               for k in ("rx_pps", "tx_pps")] or [1])
    ax.set_ylim(0, top * 1.15)
    ax.set_title(f"gaudi-testpmd {rep['forward_mode']}: rate per port "
                 f"({rep['duration_s']:.1f} s, {frames(rep)})")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")


def frames(rep):
    sizes = {s["size"] for s in rep.get("streams", [])}
    if len(sizes) == 1:
        size = sizes.pop()
        return f"{size}-byte frames" if size.isdigit() else f"frame sizes {size}"
    if sizes:
        return "frame sizes per stream"
    return f"{rep.get('txpkts', '?')}-byte frames"


def plot_streams(ax, streams):
    """Per stream: tx and rx rates (bars, left axis) and latency p50/p99 (points, right
    axis); the lost, reordered and duplicate frames under each stream's name."""
    x = range(len(streams))
    w = 0.38
    ax.bar([i - w / 2 for i in x], [s["tx_pps"] / 1e6 for s in streams], w, label="tx")
    ax.bar([i + w / 2 for i in x], [s["rx_pps"] / 1e6 for s in streams], w, label="rx")
    ax.set_ylabel("Mpps")
    ax.set_xticks(list(x))
    ax.set_xticklabels([f"{s['id']}: {s['port']}->{s['rx_port']}\n"
                        f"lost {s['lost']} reord {s['reordered']} dup {s['duplicates']}"
                        for s in streams], fontsize="x-small")
    ax.set_title("streams: rate (bars), latency p50/p99 (points)")
    ax.grid(True, axis="y", alpha=0.3)
    measured = [i for i, s in enumerate(streams) if s["latency_ns"]["count"]]
    if measured:
        ax2 = ax.twinx()
        for key, marker in (("p50", "o"), ("p99", "^")):
            ax2.plot(measured, [streams[i]["latency_ns"][key] / 1e3 for i in measured],
                     marker, color="k" if key == "p50" else "tab:red", linestyle="none",
                     label=f"latency {key}")
        ax2.set_ylabel("latency (us)")
        ax2.set_ylim(bottom=0)
        ax2.legend(fontsize="small", loc="upper right")
    ax.legend(fontsize="small", loc="upper left")


def plot_latency(ax, lat_ports):
    for p in lat_ports:
        # Buckets as gaudi-testpmd makes them: 1 ns wide below 64 ns, then 32 per
        # power of two; [lower bound, frames] for the non-empty ones.
        h = p["latency_ns"]["histogram"]
        xs = [lo / 1e3 for lo, _ in h]
        ws = [(1 if lo < 64 else (1 << (lo.bit_length() - 1)) >> 5) / 1e3 for lo, _ in h]
        ys = [n for _, n in h]
        ax.bar(xs, ys, width=ws, align="edge", alpha=0.6,
               label=f"port {p['port']}: p50 {p['latency_ns']['p50'] / 1e3:.2f} us, "
                      f"p99 {p['latency_ns']['p99'] / 1e3:.2f} us")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("latency (us)")
    ax.set_ylabel("frames")
    ax.set_title("latency histogram (receiving port)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")


if __name__ == "__main__":
    main()
