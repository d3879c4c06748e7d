#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gaudi-testpmd's report can be trusted and archived on its own: the --json report states its
schema, when and how the run was started (command line, the EAL arguments used with the
defaults the app added), the versions of the app, DPDK and the ports' drivers, the links, and
one phase per start/stop at the prompt with its mode and counts. The plot says so when there
is no series. The live view redraws a table on a terminal and prints plain lines elsewhere.
"""
import datetime
import json
import os
import pty
import re
import select
import subprocess
import sys
import time

from app_common import APP, PLOT, check, check_report_matches, main, run_ok, workdir
import app_interactive  # noqa: E402
from app_interactive import Prompt, stats, wait_moved

W = workdir()
CLEAR = b"\x1b[2J"


def test_schema_fields():
    js = os.path.join(W, "meta.json")
    args = ["--forward-mode=txonly", "--rate=20000", "--duration=0.5", "--stats-period=0.1"]
    r = run_ok(args, json_path=js)
    rep = r.report
    check_report_matches(r)
    check(rep["schema"] == "gaudi-testpmd/2", f"schema {rep.get('schema')}")
    check(rep["command_line"] == [APP] + args + [f"--json={js}"],
          f"command line {rep['command_line']}")
    eal = rep["eal_args"]
    for a in ("--vdev", "net_gaudi_emu0,ports=2,wire=pair", "--no-pci", "--no-huge",
              "--no-shconf", "--iova-mode=va", "--log-level=lib.eal:warning"):
        check(a in eal, f"EAL argument {a} (a default the app adds) not in {eal}")
    start = datetime.datetime.strptime(rep["start_time"], "%Y-%m-%dT%H:%M:%S.%fZ")
    now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    check(abs((now - start).total_seconds()) < 60, f"start time {rep['start_time']}, now {now}")
    v = rep["versions"]
    # The DPDK the build found (meson's test setup says which); 22.11 is Debian 12's.
    want = os.environ.get("DPDK_VERSION", "22.11")
    want = ".".join(want.split(".")[:2])
    check(v["app"] and v["gaudi_pmd"] and re.match(rf"DPDK {re.escape(want)}\b", v["dpdk"]),
          f"versions {v} (DPDK {want} expected)")
    check(v["drivers"] and v["drivers"][0]["driver"] == "net_gaudi_emu" and
          v["drivers"][0]["fw_version"], f"drivers {v['drivers']}")
    for p in rep["ports"]:
        check(p["driver"] == "net_gaudi_emu" and p["fw_version"], f"port {p['port']} driver")
        check(p["link"]["up"] and p["link"]["speed_mbps"] == 100000 and
              p["line_rate_mbps"] == 100000, f"port {p['port']} link {p['link']}")
    # One run without -i: one phase, holding the run's counts.
    ph = rep["phases"]
    check(len(ph) == 1 and ph[0]["mode"] == "txonly" and ph[0]["target_pps"] == 20000,
          f"phases {ph}")
    for p, q in zip(rep["ports"], ph[0]["ports"]):
        check(q["port"] == p["port"] and q["tx_packets"] == p["tx_packets"] and
              q["rx_packets"] == p["rx_packets"], f"phase counts {q}, report {p}")


def test_interactive_phases():
    js = os.path.join(app_interactive.W, "i.json")  # where Prompt has the app write it
    pr = Prompt(["--stats-period=0.2"])
    stops = []
    for mode, start in (("txonly", "start"), ("io", "start tx_first"), ("txonly", "start")):
        pr.cmd(f"set fwd {mode}")
        before = stats(pr.cmd("show port stats all"))
        pr.cmd(start)
        wait_moved(pr, (0, 1), rx=True, since=before)
        stops.append(pr.cmd("stop"))
    pr.close()
    with open(js) as f:
        rep = json.load(f)
    ph = rep["phases"]
    check([p["mode"] for p in ph] == ["txonly", "io", "txonly"], f"phase modes {ph}")
    for i, (p, out) in enumerate(zip(ph, stops)):
        said = {int(a): (int(b), int(c)) for a, b, c in
                re.findall(r"port (\d): rx (\d+) tx (\d+) frames", out)}
        check(len(said) == 2, f"stop output: {out}")
        for q in p["ports"]:
            check((q["rx_packets"], q["tx_packets"]) == said[q["port"]],
                  f"phase {i} port {q['port']}: {q}, stop said {said[q['port']]}")
        d = float(re.search(r"stopped after ([\d.]+) s", out).group(1))
        check(abs(p["duration_s"] - d) < 0.001, f"phase {i}: {p['duration_s']} s, stop {d} s")
    for k, port in enumerate(rep["ports"]):
        for key in ("rx_packets", "tx_packets"):
            check(sum(p["ports"][k][key] for p in ph) == port[key],
                  f"port {port['port']}: the phases' {key} do not sum to the total")


def test_plot_latency_without_series():
    # No series (--stats-period=0) but a latency histogram: the latency alone is drawn and
    # the script says the series is missing (exit 0); with neither, app_interactive checks
    # the message and exit status 1.
    js = os.path.join(W, "noseries.json")
    run_ok(["--forward-mode=txonly", "--packets=1000", "--stats-period=0"], json_path=js)
    png = os.path.join(W, "noseries.png")
    p = subprocess.run([sys.executable, PLOT, js, "-o", png], capture_output=True, text=True)
    check(p.returncode == 0 and "no time series" in p.stderr and os.path.exists(png),
          f"plot without a series: status {p.returncode}, {p.stderr}")


def pty_run(args, timeout=60):
    """The app with stdout on a terminal; returns everything it wrote."""
    master, slave = pty.openpty()
    p = subprocess.Popen([APP] + args, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    buf, end = b"", time.monotonic() + timeout
    while time.monotonic() < end:
        if select.select([master], [], [], 0.2)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the app ended
                break
            if not chunk:
                break
            buf += chunk
        elif p.poll() is not None:
            break
    os.close(master)
    rc = p.wait(timeout=30)
    check(rc == 0, f"exit status {rc}: {buf.decode(errors='replace')}")
    return buf


def test_screen_on_a_terminal():
    args = ["--forward-mode=txonly", "--rate=20000", "--duration=1", "--stats-period=0.1"]
    buf = pty_run(args)
    check(buf.count(CLEAR) >= 2, f"the table was not redrawn: {buf.count(CLEAR)} clears")
    text = buf.decode(errors="replace")
    check(re.search(r"tx line", text) and re.search(r"\n0 +\d+ +[\d.]+ +[\d.]+%", text),
          "no table with a port row and % of line")
    check("mbufs in use at exit: 0" in text, "no final report below the table")
    # --no-screen forces plain lines on a terminal.
    buf = pty_run(args + ["--no-screen"])
    check(CLEAR not in buf and b"[    0.1s] port 0  rx" in buf, "--no-screen on a terminal")


def test_plain_lines_in_a_pipe():
    args = ["--forward-mode=txonly", "--rate=20000", "--duration=0.5", "--stats-period=0.1"]
    r = run_ok(args)
    check("\x1b[" not in r.out, "escape sequences in a pipe")
    lines = [line for line in r.out.splitlines() if line.startswith("[")]
    check(len(lines) >= 4 and all(re.match(
        r"\[ *[\d.]+s\] port \d  rx +[\d.]+ M?pps +[\d.]+ Gbit/s  tx +[\d.]+ M?pps +[\d.]+ "
        r"Gbit/s  drops \d+  errors \d+$", line) for line in lines), f"live lines: {lines}")
    # --screen forces the table in a pipe.
    r = run_ok(args + ["--screen"])
    check("\x1b[2J" in r.out, "--screen in a pipe")
    # With --stream, a row per stream under the ports' table (tx and rx pps, what it is).
    r = run_ok(["--stream=0:rate=2000", "--stream=0:l3=ipv6,size=128,rate=3000",
                "--duration=1", "--stats-period=0.25", "--screen"])
    rows = re.findall(r"\n(\d) +0->1 +(\d+) +(\d+)  port 0 -> 1: (ipv\d)", r.out)
    check({(s, ip) for s, _, _, ip in rows} == {("0", "ipv4"), ("1", "ipv6")}
          and any(int(tx) > 0 for _, tx, _, _ in rows), f"stream rows on the screen: {rows}")


if __name__ == "__main__":
    sys.exit(main("app_report", [test_schema_fields, test_interactive_phases,
                                 test_plot_latency_without_series, test_screen_on_a_terminal,
                                 test_plain_lines_in_a_pipe]))
