#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gaudi-testpmd --rfc2544: the RFC 2544 benchmark on the default emulated ports (a zero-loss
rate per frame size, the JSON fields, the plot), its throughput search against a port the
model lets take only N frames/s (net_gaudi_emu rx_rate_limit), the frame loss and
back-to-back tests against that port, and bad options refused with one line each.

The search's figures depend on the machine only through the generator: a trial the tester
could not pace is marked generator-limited, one whose lcore was preempted is run again and
then marked disturbed (the report says so); the checks below hold for every trial that is
neither, and the rest hold for all.
"""
import os
import subprocess
import sys

from app_common import EAL_BASE, check, check_one_line_error, main, run, run_ok, workdir

W = workdir()
SIZES = [64, 512, 1518]


def rfc_report(r):
    check(r.report is not None and "rfc2544" in r.report, "no rfc2544 member in the JSON")
    check(r.report["mbufs_in_use"] == 0, "mbufs in use at exit")
    return r.report["rfc2544"]


def test_must_show():
    js = os.path.join(W, "tput.json")
    r = run_ok(["--rfc2544=throughput", "--rfc2544-sizes=64,512,1518", "--rfc2544-trial=1"],
               json_path=js, timeout=200)
    rfc = rfc_report(r)
    rows = rfc["throughput"]
    check([t["frame_size"] for t in rows] == SIZES,
          f"throughput rows for {[t['frame_size'] for t in rows]}, not {SIZES}")
    for t in rows:
        for k in ("frame_size", "frames_per_s", "percent_of_line", "loss_frames"):
            check(k in t, f"{t['frame_size']} B: no {k}")
        check(t["found"] and t["frames_per_s"] > 0 and t["loss_frames"] == 0,
              f"{t['frame_size']} B: no zero-loss rate: {t}")
        # 100 Gbit/s, every frame padded to 187 bytes by the Gaudi port: + FCS, preamble, gap
        line = 100e9 / (8 * (max(t["frame_size"] - 4, 187) + 24))
        check(abs(t["line_rate_fps"] - line) < 1, f"line rate {t['line_rate_fps']}, not {line}")
        check(abs(t["percent_of_line"] - t["frames_per_s"] / line * 100) < 1e-3,
              f"{t['frame_size']} B: percent_of_line {t['percent_of_line']}")
        best = [x for x in t["trials"] if x["pass"]]
        check(best and best[-1]["offered"] == best[-1]["received"] and best[-1]["offered"] > 0,
              f"{t['frame_size']} B: the passing trial lost frames: {best}")
        for x in t["trials"]:
            check(x["offered"] - x["received"] == x["loss_frames"], f"loss of {x}")
    # The table on screen, with one row per size.
    for s in SIZES:
        check(any(line.split()[:1] == [str(s)] for line in r.out.splitlines()),
              f"no table row for {s} B:\n{r.out}")
    check("stopped by rfc2544" in r.out, "the final report's stop reason")
    # A trial line's offered rate is per port, its counts the two ports' sum: it says so, and
    # its figures are the JSON trial's.
    x = rows[0]["trials"][0]
    want = f"2 ports together sent {x['offered']}, received {x['received']}, loss"
    check(any(line.startswith("[rfc2544 throughput 64 B #1]") and want in line
              for line in r.out.splitlines()), f"no trial line with '{want}':\n{r.out}")
    # The plot of the report (matplotlib): a PNG image.
    png = os.path.join(W, "tput.png")
    p = subprocess.run([sys.executable, os.environ["GAUDI_TESTPMD_PLOT"], js, "-o", png],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"gaudi-testpmd-plot: {p.stderr}")
    with open(png, "rb") as f:
        check(f.read(8) == b"\x89PNG\r\n\x1a\n", "the plot is not a PNG")


def limit_eal(fps, burst):
    return EAL_BASE + ["--vdev",
                       f"net_gaudi_emu0,ports=2,wire=pair,rx_rate_limit=1:{fps}:{burst}"]


def achievable():
    """Frames per second per port this build sends unpaced here: the limit below stays well
    within it (an ASan build or a busy machine is slower)."""
    r = run_ok(["--forward-mode=txonly", "--duration=1", "--stats-period=0"],
               json_path=os.path.join(W, "max.json"))
    return min(p["tx_packets"] for p in r.report["ports"]) / r.report["duration_s"]


def test_search_finds_port_limit():
    # Port 1 takes N frames/s with a bucket of 2 ms of frames; port 0 takes all. A trial at
    # x > N loses (x - N) * T - burst frames on port 1, counted as its rx missed.
    n = int(min(200000, achievable() / 4))
    burst, trial, res = n // 500, 0.5, 0.2
    js = os.path.join(W, "limit.json")
    r = run_ok([f"--rfc2544=throughput,latency", "--rfc2544-sizes=64",
                f"--rfc2544-trial={trial}", f"--rfc2544-resolution={res}"],
               eal=limit_eal(n, burst), json_path=js, timeout=280)
    rfc = rfc_report(r)
    (t,) = rfc["throughput"]
    trials = t["trials"]
    slack = burst / trial  # a trial above N by less passes on the bucket's frames
    for x in trials:
        check(x["loss_frames"] == x["rx_missed"],
              f"loss {x['loss_frames']} is not the ports' rx missed {x['rx_missed']}: {x}")
        clean = not x["disturbed"] and not x["generator_limited"]
        if clean and x["pass"]:
            check(x["offered_fps"] <= n + slack,
                  f"a trial at {x['offered_fps']:.0f} frames/s passed, the port takes {n}")
        if clean and x["offered_fps"] < n * 0.99:
            check(x["pass"], f"a trial at {x['offered_fps']:.0f} < {n} frames/s lost frames")
    check(t["found"], f"no rate found: {t}")
    fps = t["frames_per_s"]
    if t["disturbed_trials"] == 0 and not t["generator_limited"]:
        # The search ends within its resolution below the port's limit.
        check(0.9 * n <= fps <= n + slack, f"throughput {fps:.0f} frames/s, the port takes {n}")
    else:
        # A preempted tester (a busy machine): the report says so, and the result is not
        # the port's; the checks of every clean trial above still hold.
        print(f"  tester disturbed ({t['disturbed_trials']} trial(s)) or generator-limited "
              f"({t['generator_limited']}): {fps:.0f} frames/s not checked against {n}")
        check("DISTURBED" in r.out or "generator-limited" in r.out,
              "the report does not say the tester was the limit")
    check(any(not x["pass"] for x in trials), "no trial lost frames")
    check(r.port(1)["rx_missed"] > 0 and r.port(0)["rx_missed"] == 0,
          f"rx missed: port 0 {r.port(0)['rx_missed']}, port 1 {r.port(1)['rx_missed']}")
    (lat,) = rfc["latency"]
    check(lat["frames_per_s"] == fps and lat["count"] > 0 and lat["p50_ns"] > 0,
          f"latency at the throughput rate: {lat}")
    # Its table row carries the trial's flag, as the JSON has it.
    row = [ln for ln in r.out.split("latency at the throughput rate")[1].splitlines()
           if ln.split()[:1] == ["64"]]
    note = ("DISTURBED" if lat["disturbed"] else
            "generator-limited" if lat["generator_limited"] else None)
    check(len(row) == 1 and (note in row[0] if note else
                             "DISTURBED" not in row[0] and "generator" not in row[0]),
          f"latency row {row} for disturbed {lat['disturbed']}, generator-limited "
          f"{lat['generator_limited']}")


def test_loss_and_back_to_back():
    n = int(min(200000, achievable() / 4))
    burst = n // 500
    r = run_ok(["--rfc2544=loss,back-to-back", "--rfc2544-sizes=64", "--rfc2544-trial=0.2"],
               eal=limit_eal(n, burst), json_path=os.path.join(W, "loss.json"), timeout=200)
    rfc = rfc_report(r)
    steps = rfc["loss"]
    # 100 % of the line rate down to 10 %: every step is above N, so every one loses, and
    # never more than what the port could not take.
    check([s["step_pct"] for s in steps] == list(range(100, 0, -10)),
          f"steps {[s['step_pct'] for s in steps]}")
    for s in steps:
        tr = s["trial"]
        check(s["loss_pct"] > 0 and tr["loss_frames"] == tr["rx_missed"], f"loss step {s}")
        # Port 0 takes all port 1 sends; port 1 loses what is above N frames/s (the
        # streams of the two ports share an lcore: their counts differ by a few bursts).
        took = n * (tr["seconds"] * 1.02 + 0.01) + burst + 1000
        check(tr["offered"] / 2 - took <= tr["loss_frames"] <= tr["offered"] / 2 + 1000,
              f"port 1 lost {tr['loss_frames']} frames of {tr['offered'] / 2:.0f}, taking "
              f"{n} frames/s: {tr}")
    (b,) = rfc["back_to_back"]
    # A burst at the generator's full rate G > 4N: the bucket's frames plus what it refills
    # while the burst lasts, burst / (1 - N/G) < 4/3 burst.
    check(b["found"] and burst <= b["frames"] <= 2 * burst,
          f"back-to-back {b['frames']} frames, the port's bucket holds {burst}: {b}")


def one_line_error(args, words, eal=None):
    check_one_line_error(args, words, eal=eal, json_path=os.path.join(W, "never.json"))


def test_bad_options():
    for args, words in [
        (["--rfc2544=speed"], "'speed' is not a test"),
        (["--rfc2544="], "'' is not a test"),
        (["--rfc2544=throughput", "--rfc2544-sizes=63"], "'63' is not a frame size"),
        (["--rfc2544=throughput", "--rfc2544-sizes=64,x"], "'x' is not a frame size"),
        (["--rfc2544=throughput", "--rfc2544-sizes=64,64"], "size 64 given twice"),
        (["--rfc2544=throughput", "--rfc2544-trial=0"], "not a trial duration"),
        (["--rfc2544=throughput", "--rfc2544-resolution=0"], "not a resolution"),
        (["--rfc2544=throughput", "--rfc2544-loss=100"], "not a loss"),
        (["--rfc2544-trial=1"], "--rfc2544-trial needs --rfc2544"),
        (["--rfc2544=throughput", "--rate=1000"], "--rate does not go with --rfc2544"),
        (["--rfc2544=throughput", "--txpkts=128"], "--txpkts does not go with --rfc2544"),
        (["--rfc2544=throughput", "--forward-mode=io"], "--forward-mode does not go with"),
        (["--rfc2544=throughput", "-i"], "not at the prompt"),
        # Larger than the Gaudi port's largest frame (8188 bytes without FCS).
        (["--rfc2544=throughput", "--rfc2544-sizes=64,9018"], "exceed its largest frame"),
    ]:
        one_line_error(args, words)


def test_bad_devarg():
    # The model refuses the devarg at probe and names it; no port, no run.
    for arg, words in [("rx_rate_limit=2:1000", "rx_rate_limit"),
                       ("rx_rate_limit=1:0", "rx_rate_limit"),
                       ("rx_rate_limit=1:1000:0", "rx_rate_limit"),
                       ("rx_rate_limit=1:1000,rx_rate_limit=1:2000", "given twice")]:
        r = run(["--forward-mode=txonly", "--duration=1"],
                eal=EAL_BASE + ["--vdev", f"net_gaudi_emu0,ports=2,wire=pair,{arg}"])
        check(r.rc != 0 and words in r.err, f"{arg}: rc {r.rc}, stderr {r.err}")


if __name__ == "__main__":
    sys.exit(main("app_rfc2544", [test_must_show, test_search_finds_port_limit,
                                  test_loss_and_back_to_back, test_bad_options,
                                  test_bad_devarg]))
