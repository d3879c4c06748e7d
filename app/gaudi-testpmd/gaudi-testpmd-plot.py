#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot a gaudi-testpmd --json report: rate per port over time (frames/s with the target
line, and Gbit/s), when measured the latency histogram per port, and the traffic streams' rates,
loss and latency side by side; of an --rfc2544 run, the throughput per frame size and the loss
against the offered rate. Needs matplotlib (Debian python3-matplotlib). A report with nothing to
plot gets a message and exit status 1, no picture.

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
    rfc = rep.get("rfc2544", {})
    rfc_tput, rfc_loss = rfc.get("throughput", []), rfc.get("loss", [])
    # Empty axes would look like a run that moved nothing: say what is missing instead.
    if not series and not lat_ports and not rfc_tput and not rfc_loss:
        sys.exit(f"gaudi-testpmd-plot: {args.report}: nothing to plot: no time series (a run "
                 "with --stats-period=0, shorter than a period, or a prompt session that did "
                 "not forward) and no latency histogram (no stamped frames received)")
    if not series and not rfc:
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
    rows = (2 if series else 0) + sum(1 for x in (lat_ports, streams, rfc_tput, rfc_loss) if x)
    fig, axes = plt.subplots(rows, 1, figsize=(9, 4 * rows), squeeze=False)
    panels = iter(axes[:, 0])
    if series:
        plot_rates(next(panels), rep, series)
        plot_gbps(next(panels), rep, series)
    if lat_ports:
        plot_latency(next(panels), lat_ports)
    if streams:
        plot_streams(next(panels), streams)
    if rfc_tput:
        plot_rfc_throughput(next(panels), rfc, rfc_tput)
    if rfc_loss:
        plot_rfc_loss(next(panels), rfc_loss)
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
    target = rep.get("target_pps", 0) / 1e6
    if target > 0:
        ax.axhline(target, color="grey", linestyle=":", label=f"target {target:g} Mpps")
        top = max(top, target)
    ax.set_ylim(0, top * 1.15)
    ax.set_title(f"gaudi-testpmd {rep['forward_mode']}: rate per port "
                 f"({rep['duration_s']:.1f} s, {frames(rep)})")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")


def plot_gbps(ax, rep, series):
    t = [s["t"] for s in series]
    for i, p in enumerate(rep["ports"]):
        for key, style in (("rx_gbps", "-"), ("tx_gbps", "--")):
            y = [s["ports"][i][key] for s in series if i < len(s["ports"])]
            ax.plot(t[:len(y)], y, style, marker=".", label=f"port {p['port']} {key[:2]}")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("Gbit/s (frame bytes, no FCS)")
    top = max([s["ports"][i][k] for s in series for i in range(len(s["ports"]))
               for k in ("rx_gbps", "tx_gbps")] or [1])
    ax.set_ylim(0, (top or 1) * 1.15)
    ax.set_title("throughput per port")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")


def frames(rep):
    sizes = {s["size"] for s in rep.get("streams", [])}
    if len(sizes) == 1:
        size = sizes.pop()
        return f"{size}-byte frames" if size.isdigit() else f"frame sizes {size}"
    if sizes:
        return "frame sizes per stream"
    txpkts = rep.get("txpkts", "?")
    # A number for one length, the sizes as --txpkts takes them for a mix ("imix").
    return f"{txpkts}-byte frames" if isinstance(txpkts, int) else f"frame sizes {txpkts}"


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


def plot_rfc_throughput(ax, rfc, rows):
    """RFC 2544 throughput per frame size: frames/s per port (bars), percent of the line rate
    on the right axis; hatched where the generator, not the device, was the limit."""
    xs = list(range(len(rows)))
    fps = [r["frames_per_s"] / 1e6 for r in rows]
    bars = ax.bar(xs, fps, color="tab:blue", alpha=0.7, label="throughput (Mfps per port)")
    for b, r in zip(bars, rows):
        if r.get("generator_limited"):
            b.set_hatch("//")
    ax.set_xticks(xs, [str(r["frame_size"]) for r in rows])
    ax.set_xlabel("frame size (bytes, with FCS)")
    ax.set_ylabel("Mfps per port")
    pct = [r["percent_of_line"] for r in rows]
    if all(p is not None for p in pct):
        ax2 = ax.twinx()
        ax2.plot(xs, pct, "o-", color="tab:red", label="% of line rate")
        ax2.set_ylabel("% of line rate")
        ax2.set_ylim(0, max(pct + [1]) * 1.2)
    ax.set_title(f"RFC 2544 throughput (trials of {rfc.get('trial_s', '?')} s, loss accepted "
                 f"{rfc.get('loss_tolerance_pct', 0)} %; hatched: generator-limited)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", loc="upper left")


def plot_rfc_loss(ax, rows):
    """RFC 2544 frame loss rate against the offered rate, one line per frame size."""
    sizes = sorted({r["frame_size"] for r in rows})
    for size in sizes:
        pts = sorted((r["trial"]["offered_fps"] / 1e6, r["loss_pct"]) for r in rows
                     if r["frame_size"] == size)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=f"{size} B")
    ax.set_xlabel("offered rate (Mfps per port)")
    ax.set_ylabel("frame loss (%)")
    ax.set_title("RFC 2544 frame loss rate")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")


if __name__ == "__main__":
    main()
