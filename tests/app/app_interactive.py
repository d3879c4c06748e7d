#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gaudi-testpmd -i: the prompt's commands drive the run (start/stop, set fwd/burst/txpkts,
show/clear port stats, port stop/start, loopback, link down/up, Gaudi fault injection and
recovery counters) and the counters they show are the ports' own.
"""
import json
import os
import re
import select
import subprocess
import sys
import time

from app_common import APP, PLOT, TX_PAD, Fail, check, check_series_sums, main, workdir

W = workdir()


class Prompt:
    """The app's prompt, driven one command at a time: each command's output is read up to the
    next prompt, so a test can wait for traffic instead of sleeping a guessed time."""
    PS = b"gaudi-testpmd> "

    def __init__(self, extra=()):
        # stderr to a file: a pipe nobody reads while the prompt runs could fill and block it.
        self.err = open(os.path.join(W, "stderr.txt"), "w+")
        self.p = subprocess.Popen([APP, "-i", f"--json={os.path.join(W, 'i.json')}"] +
                                  list(extra), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=self.err)
        self.buf = b""
        self._read_prompt()  # the first prompt comes once the ports are up

    def _read_prompt(self, timeout=60):
        end = time.monotonic() + timeout
        while self.PS not in self.buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
                self.p.kill()
                raise Fail(f"no prompt after {timeout} s: {self.buf.decode(errors='replace')}")
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                raise Fail(f"the app ended: {self.buf.decode(errors='replace')}")
            self.buf += chunk
        head, _, self.buf = self.buf.partition(self.PS)
        return head.decode()

    def cmd(self, c):
        """Types one command; returns what it printed."""
        self.p.stdin.write(c.encode() + b"\n")
        self.p.stdin.flush()
        return self._read_prompt()

    def until(self, c, pred, what, timeout=30):
        """Repeats command c until pred(its output) holds; returns that output."""
        end = time.monotonic() + timeout
        while True:
            out = self.cmd(c)
            if pred(out):
                return out
            if time.monotonic() > end:
                raise Fail(f"{what}: not within {timeout} s: {out}")
            time.sleep(0.05)

    def close(self):
        """End of input ends the prompt; returns the rest of the output."""
        try:
            # Closes stdin (end of input ends the prompt) and reads stdout while it ends.
            rest, _ = self.p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            self.p.kill()
            raise Fail("the prompt did not end at end of input")
        out = (self.buf + rest).decode()
        self.err.seek(0)
        err = self.err.read()
        self.err.close()
        check(self.p.returncode == 0, f"exit status {self.p.returncode}: {err}")
        check("mbufs in use at exit: 0" in out, "mbufs left at exit")
        return out


def session(cmds, extra=()):
    """Types cmds one after the other; returns {index: output of that command}."""
    pr = Prompt(extra)
    out = {i: pr.cmd(c) for i, c in enumerate(cmds)}
    pr.close()
    return out


def stats(text):
    """{port: (rx, tx, rx_bytes, tx_bytes)} from 'show port stats'."""
    res = {}
    for m in re.finditer(r"port (\d+): RX-packets (\d+) RX-missed \d+ RX-bytes (\d+).*?\n\s+"
                         r"TX-packets (\d+) TX-errors \d+ TX-bytes (\d+)", text):
        p, rx, rxb, tx, txb = map(int, m.groups())
        res[p] = (rx, tx, rxb, txb)
    return res


def wait_moved(pr, ports, rx=False, since=None):
    """After 'start': waits until every port in ports has sent (and, with rx, received) a
    frame more than in since (a 'show port stats all' reading before it; the totals shown
    cover the whole run), however loaded the machine is."""
    since = since or {}
    def moved(out):
        st = stats(out)
        return all(p in st and st[p][1] > since.get(p, (0, 0))[1] and
                   (not rx or st[p][0] > since.get(p, (0, 0))[0]) for p in ports)
    pr.until("show port stats all", moved, f"ports {ports} moving frames")


def test_generate_and_show():
    pr = Prompt()
    out = {"fwd": pr.cmd("set fwd txonly")}
    pr.cmd("set txpkts 100")
    pr.cmd("set burst 16")
    pr.cmd("start")
    wait_moved(pr, (0, 1))
    out["stop"] = pr.cmd("stop")
    out["all"] = pr.cmd("show port stats all")
    pr.cmd("clear port stats 1")
    out["one"] = pr.cmd("show port stats 1")
    pr.cmd("set fwd io")
    before = stats(pr.cmd("show port stats all"))
    pr.cmd("start tx_first")
    wait_moved(pr, (0, 1), rx=True, since=before)
    out["io"] = pr.cmd("stop")
    out["bogus"] = pr.cmd("bogus")
    pr.close()
    check("forwarding mode: txonly" in out["fwd"], out["fwd"])
    m = re.findall(r"port (\d): rx (\d+) tx (\d+) frames", out["stop"])
    check(len(m) == 2, f"stop output: {out['stop']}")
    st = stats(out["all"])
    check(set(st) == {0, 1}, f"show port stats all: {out['all']}")
    for p, rx, tx in m:
        p, rx, tx = int(p), int(rx), int(tx)
        check(tx > 0 and st[p][0] == rx and st[p][1] == tx,
              f"port {p}: stop said rx {rx} tx {tx}, show says {st[p]}")
        # 100-byte frames leave a Gaudi port padded to 187 bytes (TX_PAD): received so.
        check(st[p][2] == TX_PAD * rx and st[p][3] == 100 * tx,
              f"port {p}: bytes of 100-byte frames")
    check(st[0][1] == st[1][0] and st[1][1] == st[0][0], f"sent by one port != received: {st}")
    check(stats(out["one"])[1][:2] == (0, 0), f"clear port stats 1: {out['one']}")
    m = re.findall(r"port (\d): rx (\d+) tx (\d+) frames", out["io"])
    check(len(m) == 2 and all(int(rx) > 0 for _, rx, _ in m),
          f"io loop after tx_first: {out['io']}")
    check("unknown command 'bogus'" in out["bogus"], out["bogus"])


def test_port_commands():
    out = session(["start", "port stop 1", "stop", "port stop 1", "start", "port config 0 "
                   "loopback 1", "port start all", "set link-down port 1", "show port info 1",
                   "set link-up port 1", "gaudi fault 0 link_flap 5", "gaudi recovery 0",
                   "gaudi fault 0 warp"], ["--forward-mode=io"])
    check("stop forwarding first" in out[1], out[1])
    check("port 1 stopped" in out[3] and "port 1 is stopped" in out[4], out[3] + out[4])
    check("'port stop 0' first" in out[5], out[5])
    check("port 1 started" in out[6], out[6])
    check("link-down: done" in out[7] and "link down" in out[8], out[7] + out[8])
    check("injected" in out[10], out[10])
    check(re.search(r"faults injected [1-9]", out[11]) is not None, out[11])
    check("not a fault kind" in out[12], out[12])


def test_loopback():
    # Port 0 alone (port 1, its cable peer, is not started): what it sends is lost on the
    # wire, until MAC loopback brings every frame back to it.
    pr = Prompt(["--forward-mode=txonly", "--portlist=0"])
    pr.cmd("start")
    wait_moved(pr, (0,))
    pr.cmd("stop")
    before = stats(pr.cmd("show port stats 0"))[0]
    for c in ("port stop 0", "port config 0 loopback 1", "port start 0", "clear port stats 0",
              "start"):
        pr.cmd(c)
    wait_moved(pr, (0,), rx=True)
    pr.cmd("stop")
    after = stats(pr.cmd("show port stats 0"))[0]
    pr.close()
    check(before[1] > 0 and before[0] == 0, f"port 0 without loopback: {before}")
    # txonly's 64-byte frames come back padded to 187 bytes (TX_PAD).
    check(after[1] > 0 and after[0] == after[1] and after[2] * 64 == after[3] * TX_PAD,
          f"port 0 in loopback: {after}")


def test_totals_survive_port_restart():
    # Port stop/start and a new configuration (loopback 0 -> reconfigure at start): whether
    # or not they wipe the ports' own counters (the Gaudi PMD's go on), the final report
    # covers the whole session.
    js = os.path.join(W, "i.json")
    pr = Prompt(["--forward-mode=txonly", "--rate=50000"])
    runs = []
    for restart in ((), ("port stop all", "port start all"),
                    ("port stop all", "port config all loopback 0", "port start all")):
        for c in restart:
            pr.cmd(c)
        before = stats(pr.cmd("show port stats all"))
        pr.cmd("start")
        # each run must send on both ports, even on a loaded machine
        wait_moved(pr, (0, 1), since=before)
        runs.append(re.findall(r"port (\d): rx (\d+) tx (\d+) frames", pr.cmd("stop")))
    shown = stats(pr.cmd("show port stats all"))
    pr.close()
    with open(js) as f:
        rep = {p["port"]: p for p in json.load(f)["ports"]}
    for p in (0, 1):
        rx = sum(int(m[p][1]) for m in runs)
        tx = sum(int(m[p][2]) for m in runs)
        check(all(int(m[p][2]) > 0 for m in runs), f"port {p}: a run sent nothing: {runs}")
        # A stop waits for the frames in flight: nothing moves between the runs.
        check(rep[p]["rx_packets"] == rx and rep[p]["tx_packets"] == tx,
              f"port {p}: JSON rx {rep[p]['rx_packets']} tx {rep[p]['tx_packets']}, the three "
              f"runs moved rx {rx} tx {tx}")
        check(shown[p][:2] == (rep[p]["rx_packets"], rep[p]["tx_packets"]),
              f"port {p}: show port stats {shown[p]} != JSON {rep[p]}")
    # Cross-check against the peer: what one port sent, the other received.
    check(rep[0]["tx_packets"] == rep[1]["rx_packets"] and
          rep[1]["tx_packets"] == rep[0]["rx_packets"], f"sent != received by the peer: {rep}")


def report_of(js):
    with open(js) as f:
        return json.load(f)


def test_report_after_changes():
    # A txonly session paced at --rate whose only forwarding is io after 'set fwd io': the io
    # phase was not paced, so the report states no target (it said 20000 frames/s).
    js = os.path.join(W, "i.json")
    pr = Prompt(["--forward-mode=txonly", "--rate=20000"])
    pr.cmd("set fwd io")
    pr.cmd("start tx_first")
    wait_moved(pr, (0, 1), rx=True)
    pr.cmd("stop")
    out = pr.close()
    rep = report_of(js)
    check("rate: target" not in out and rep["target_pps"] == 0,
          f"io phase reported against txonly's target: {rep['target_pps']}\n{out}")
    check(rep["forward_mode"] == "io", f"forward_mode {rep['forward_mode']}")


def test_clear_resets_latency():
    # Latency after 'clear port stats all': only the frames since the clear, as the counters.
    js = os.path.join(W, "i.json")
    pr = Prompt(["--forward-mode=txonly", "--rate=20000"])
    pr.cmd("start")
    wait_moved(pr, (0, 1), rx=True)
    pr.cmd("stop")
    pr.cmd("clear port stats all")
    pr.cmd("start")
    wait_moved(pr, (0, 1), rx=True)
    pr.cmd("stop")
    pr.close()
    rep = report_of(js)
    for p in rep["ports"]:
        check(p["rx_packets"] > 0 and p["latency_ns"]["count"] == p["rx_packets"] and
              p["sequence"]["received"] == p["rx_packets"] and p["sequence"]["lost"] == 0,
              f"port {p['port']} after clear port stats: rx {p['rx_packets']}, latency "
              f"{p['latency_ns']['count']}, sequence {p['sequence']}")


def test_series_at_the_prompt():
    # Two runs at the prompt: the --json series covers both (the forwarding time only) and sums
    # to the totals, as without -i.
    js = os.path.join(W, "i.json")
    pr = Prompt(["--forward-mode=txonly", "--rate=20000", "--stats-period=0.1"])
    for _ in range(2):
        before = stats(pr.cmd("show port stats all"))
        pr.cmd("start")
        wait_moved(pr, (0, 1), rx=True, since=before)
        time.sleep(0.5)
        pr.cmd("stop")
    pr.close()

    class R:
        report = report_of(js)
    check(len(R.report["series"]) >= 4, f"series of {len(R.report['series'])} entries")
    check_series_sums(R)


def test_plot_of_an_empty_report():
    # A report without a series nor latency: the plot says there is nothing to draw and
    # writes no picture (it drew empty axes).
    js = os.path.join(W, "i.json")
    pr = Prompt(["--forward-mode=io"])
    pr.close()
    png = os.path.join(W, "empty.png")
    p = subprocess.run([sys.executable, PLOT, js, "-o", png], capture_output=True, text=True)
    check(p.returncode != 0 and "nothing to plot" in p.stderr and not os.path.exists(png),
          f"plot of an empty report: status {p.returncode}, {p.stderr}")


def test_ctrl_c_on_a_terminal():
    # The prompt on a terminal: Ctrl-C ends the session as it ends a run without -i (it only
    # redrew the prompt), with the report and every mbuf back.
    import fcntl
    import pty
    import termios
    js = os.path.join(W, "tty.json")
    master, slave = pty.openpty()

    def ctty():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    p = subprocess.Popen([APP, "-i", "--forward-mode=txonly", "--rate=20000", f"--json={js}"],
                         stdin=slave, stdout=slave, stderr=slave, preexec_fn=ctty)
    os.close(slave)
    buf = b""

    def read_until(pred, timeout):
        nonlocal buf
        end = time.monotonic() + timeout
        while not pred(buf) and time.monotonic() < end:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the app closed the terminal
                    break
                if not chunk:
                    break
                buf += chunk
    try:
        read_until(lambda b: Prompt.PS in b, 60)
        check(Prompt.PS in buf, f"no prompt: {buf.decode(errors='replace')}")
        os.write(master, b"start\r")
        read_until(lambda b: b"forwarding started" in b, 30)
        time.sleep(0.5)
        os.write(master, b"\x03")
        try:
            rc = p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            rc = None
        read_until(lambda b: False, 1)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        os.close(master)
    out = buf.decode(errors="replace")
    check(rc == 0, f"Ctrl-C at the prompt: exit status {rc}\n{out}")
    check("stopped by signal" in out and "mbufs in use at exit: 0" in out, out)
    rep = report_of(js)
    check(rep["stopped_by"] == "signal" and all(q["tx_packets"] > 0 for q in rep["ports"]),
          f"report after Ctrl-C: {rep}")


if __name__ == "__main__":
    if not APP:
        sys.exit(1)
    sys.exit(main("app_interactive", [test_generate_and_show, test_port_commands,
                                      test_loopback, test_totals_survive_port_restart,
                                      test_report_after_changes, test_clear_resets_latency,
                                      test_series_at_the_prompt, test_plot_of_an_empty_report,
                                      test_ctrl_c_on_a_terminal]))
