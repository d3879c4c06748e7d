# SPDX-License-Identifier: BSD-3-Clause
"""Shared by the gaudi-testpmd tests (tests/app/*.py): running the app, reading its final
report (text and --json) and its captures.

Environment (set by tests/app/meson.build): GAUDI_TESTPMD (the app), GAUDI_PMD (the PMD the
app and the vdev arguments use), GAUDI_SHARED_DATA.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from e2e_common import Fail, check, checks_made  # noqa: E402,F401
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import pcapfile  # noqa: E402,F401

APP = os.environ.get("GAUDI_TESTPMD", "")
PMD = os.environ.get("GAUDI_PMD", "")
PLOT = os.environ.get("GAUDI_TESTPMD_PLOT", "")
# The EAL options the app adds itself when no device is named, for runs that name one (no -d:
# the PMD is linked into the app, and EAL refuses a -d plugin below a world-writable directory).
EAL_BASE = ["--no-pci", "--no-huge", "-m", "1024", "--no-shconf",
            "--iova-mode=va", "--log-level=lib.eal:warning", "--log-level=lib.ethdev:notice",
            "--log-level=lib.telemetry:error"]


_workdirs = []


def workdir():
    """A scratch directory below the build tree (EAL refuses -d plugins below /tmp, and the
    captures are read back by tshark)."""
    base = os.environ.get("MESON_BUILD_ROOT") or os.path.dirname(APP)
    d = tempfile.mkdtemp(prefix="app-test-", dir=base)
    _workdirs.append(d)
    return d


class Result:
    def __init__(self, rc, out, err, report):
        self.rc, self.out, self.err, self.report = rc, out, err, report

    def port(self, p):
        for e in self.report["ports"]:
            if e["port"] == p:
                return e
        raise Fail(f"port {p} not in the report")


def run(args, eal=None, json_path=None, timeout=60, sigint_after=None, sig=signal.SIGINT):
    """Run the app (EAL options `eal`, then '--' and `args`); returns a Result with the
    parsed --json report (None when not written)."""
    cmd = [APP] + ((eal + ["--"]) if eal is not None else []) + list(args)
    if json_path:
        cmd.append(f"--json={json_path}")
        if os.path.exists(json_path):
            os.unlink(json_path)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    head = ""
    if sigint_after is not None:
        # Signal sigint_after seconds after the first live line (traffic is running then).
        for line in proc.stdout:
            head += line
            if line.startswith("["):
                break
        time.sleep(sigint_after)
        proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=timeout)
        out = head + out
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise Fail(f"{' '.join(cmd)}: no exit after {timeout} s\n{out}\n{err}")
    report = None
    if json_path and os.path.exists(json_path):
        with open(json_path) as f:
            report = json.load(f)
    return Result(proc.returncode, out, err, report)


def run_ok(args, **kw):
    r = run(args, **kw)
    if r.rc != 0:
        raise Fail(f"gaudi-testpmd {' '.join(args)} exited {r.rc}:\n{r.out}\n{r.err}")
    return r


def check_one_line_error(args, words, eal=None, json_path=None, timeout=60):
    """gaudi-testpmd with args exits non-zero, with one line on stderr that holds words, and
    writes no report (json_path, when given: a --json it was asked for). Returns the Result."""
    r = run(args, eal=eal, json_path=json_path, timeout=timeout)
    lines = [line for line in r.err.splitlines() if line.strip()]
    check(r.rc != 0, f"{args}: exit status 0")
    check(len(lines) == 1 and words in lines[0],
          f"{args}: expected one line with '{words}' on stderr, got {lines}")
    check(r.report is None, f"{args}: a report was written")
    return r


def text_report(out):
    """The per-port counters of the final report printed on stdout."""
    ports = {}
    cur = None
    for line in out.splitlines():
        m = re.match(r"port (\d+) \(", line)
        if m:
            cur = ports.setdefault(int(m.group(1)), {})
            continue
        m = re.match(r"\s+(rx|tx)\s+(\d+) frames\s+(\d+) bytes", line)
        if m and cur is not None:
            cur[f"{m.group(1)}_packets"] = int(m.group(2))
            cur[f"{m.group(1)}_bytes"] = int(m.group(3))
            continue
        m = re.match(r"\s+rx errors (\d+), rx missed (\d+), rx nombuf (\d+), tx errors (\d+),"
                     r" tx dropped (\d+)", line)
        if m and cur is not None:
            for k, v in zip(("rx_errors", "rx_missed", "rx_nombuf", "tx_errors", "tx_dropped"),
                            m.groups()):
                cur[k] = int(v)
    m = re.search(r"mbufs in use at exit: (\d+)", out)
    return ports, (int(m.group(1)) if m else None)


def check_report_matches(r):
    """The --json report holds the same counters as the printed final report, and zero
    mbufs in use."""
    ports, in_use = text_report(r.out)
    check(r.report is not None, "no JSON report")
    check(in_use == 0 and r.report["mbufs_in_use"] == 0,
          f"mbufs in use at exit: text {in_use}, json {r.report['mbufs_in_use']}")
    check(set(ports) == {p["port"] for p in r.report["ports"]},
          f"ports: text {sorted(ports)}, json {[p['port'] for p in r.report['ports']]}")
    for p in r.report["ports"]:
        for k, v in ports[p["port"]].items():
            check(p[k] == v, f"port {p['port']} {k}: json {p[k]}, text {v}")
        for k in ("rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_errors", "rx_missed",
                  "tx_dropped", "rx_mpps", "tx_mpps"):
            check(k in p, f"port {p['port']}: no {k} in the JSON report")


def check_series_sums(r):
    """The --json time series covers the whole run, its last (partial) period included: per
    port, its frame counts sum to the report's totals and its rates times the periods'
    lengths to the same within rounding; the last period ends at duration_s."""
    series = r.report["series"]
    check(len(series) > 0, "no time series")
    check(abs(series[-1]["t"] - r.report["duration_s"]) < 1e-3,
          f"the series ends at {series[-1]['t']} s, the run at {r.report['duration_s']} s")
    for p in r.report["ports"]:
        i = [e["port"] for e in series[0]["ports"]].index(p["port"])
        for k in ("rx", "tx"):
            total = sum(s["ports"][i][f"{k}_packets"] for s in series)
            check(total == p[f"{k}_packets"],
                  f"port {p['port']}: the series sums to {total} {k} frames, the report says "
                  f"{p[f'{k}_packets']}")
            t0, by_rate = 0.0, 0.0
            for s in series:
                by_rate += s["ports"][i][f"{k}_pps"] * (s["t"] - t0)
                t0 = s["t"]
            check(abs(by_rate - total) <= 0.01 * total + len(series),
                  f"port {p['port']}: {k}_pps x period sums to {by_rate:.0f}, not {total}")


def tshark_fields(path, fields, filt=None):
    """tshark's decode of a capture: one tuple of `fields` per frame (fails if tshark
    cannot read the file)."""
    cmd = ["tshark", "-n", "-r", path, "-T", "fields"]
    for f in fields:
        cmd += ["-e", f]
    if filt:
        cmd += ["-Y", filt]
    p = subprocess.run(cmd, capture_output=True, text=True)
    check(p.returncode == 0, f"tshark cannot read {path}: {p.stderr}")
    return [tuple(line.split("\t")) for line in p.stdout.splitlines()]


def pad60(frame):
    """A frame a host hands to the emulated wire (pcap, TAP, UDP): padded as its MAC would."""
    return frame + bytes(max(0, 60 - len(frame)))


# The Gaudi PMD pads what it sends to NIC_SKB_PAD_SIZE: the chip's TXE rejects shorter raw
# frames (hardware issue H6-3399, doc/guides/gaudi_hw_model.rst).
TX_PAD = 187
# The largest frame the Gaudi PMD receives at MTU 1500: MTU + 22 (header, two VLAN tags).
MAX_FRAME = 1500 + 22


def pad_tx(frame):
    """A frame as a Gaudi port puts it on the wire."""
    return frame + bytes(max(0, TX_PAD - len(frame)))


def main(name, tests):
    """Run the test functions; 0 when all pass."""
    if not APP or not PMD:
        print("GAUDI_TESTPMD and GAUDI_PMD must be set", file=sys.stderr)
        return 1
    failed = 0
    for t in tests:
        try:
            t()
            print(f"ok   {t.__name__}")
        except Fail as e:
            failed += 1
            print(f"FAIL {t.__name__}: {e}", file=sys.stderr)
    print(f"{name}: {len(tests) - failed} passed, {failed} failed, {checks_made()} checks")
    if not failed:  # kept for a look when something failed
        for d in _workdirs:
            shutil.rmtree(d, ignore_errors=True)
    return 1 if failed else 0
