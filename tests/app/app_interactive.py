#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gaudi-testpmd -i: the prompt's commands drive the run (start/stop, set fwd/burst/txpkts,
show/clear port stats, port stop/start, loopback, link down/up, Gaudi fault injection and
recovery counters) and the counters they show are the ports' own.
"""
import json
import os
import re
import subprocess
import sys
import time

from app_common import APP, TX_PAD, Fail, check, main, workdir

W = workdir()


def session(cmds, extra=(), gap=0.3):
    """Run the prompt, typing each command `gap` s after the previous one; returns stdout split
    per command (the text after each prompt)."""
    p = subprocess.Popen([APP, "-i", f"--json={os.path.join(W, 'i.json')}"] + list(extra),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    for c in cmds:
        time.sleep(gap)
        p.stdin.write(c + "\n")
        p.stdin.flush()
    try:
        out, err = p.communicate(timeout=60)  # closes stdin: end of input ends the prompt
    except subprocess.TimeoutExpired:
        p.kill()
        raise Fail("the prompt did not end at end of input")
    check(p.returncode == 0, f"exit status {p.returncode}: {err}")
    check("mbufs in use at exit: 0" in out, "mbufs left at exit")
    parts = out.split("gaudi-testpmd> ")[1:]
    check(len(parts) >= len(cmds), f"{len(parts)} prompts for {len(cmds)} commands:\n{out}")
    return dict(zip(range(len(cmds)), parts))


def stats(text):
    """{port: (rx, tx, rx_bytes, tx_bytes)} from 'show port stats'."""
    res = {}
    for m in re.finditer(r"port (\d+): RX-packets (\d+) RX-missed \d+ RX-bytes (\d+).*?\n\s+"
                         r"TX-packets (\d+) TX-errors \d+ TX-bytes (\d+)", text):
        p, rx, rxb, tx, txb = map(int, m.groups())
        res[p] = (rx, tx, rxb, txb)
    return res


def test_generate_and_show():
    out = session(["set fwd txonly", "set txpkts 100", "set burst 16", "start", "stop",
                   "show port stats all", "clear port stats 1", "show port stats 1",
                   "set fwd io", "start tx_first", "stop", "bogus"])
    check("forwarding mode: txonly" in out[0], out[0])
    m = re.findall(r"port (\d): rx (\d+) tx (\d+) frames", out[4])
    check(len(m) == 2, f"stop output: {out[4]}")
    st = stats(out[5])
    check(set(st) == {0, 1}, f"show port stats all: {out[5]}")
    for p, rx, tx in m:
        p, rx, tx = int(p), int(rx), int(tx)
        check(tx > 0 and st[p][0] == rx and st[p][1] == tx,
              f"port {p}: stop said rx {rx} tx {tx}, show says {st[p]}")
        # 100-byte frames leave a Gaudi port padded to 187 bytes (TX_PAD): received so.
        check(st[p][2] == TX_PAD * rx and st[p][3] == 100 * tx,
              f"port {p}: bytes of 100-byte frames")
    check(st[0][1] == st[1][0] and st[1][1] == st[0][0], f"sent by one port != received: {st}")
    check(stats(out[7])[1][:2] == (0, 0), f"clear port stats 1: {out[7]}")
    m = re.findall(r"port (\d): rx (\d+) tx (\d+) frames", out[10])
    check(len(m) == 2 and all(int(rx) > 0 for _, rx, _ in m), f"io loop after tx_first: {out[10]}")
    check("unknown command 'bogus'" in out[11], out[11])


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
    out = session(["start", "stop", "show port stats 0", "port stop 0",
                   "port config 0 loopback 1", "port start 0", "clear port stats 0", "start",
                   "stop", "show port stats 0"], ["--forward-mode=txonly", "--portlist=0"])
    st = stats(out[2])[0]
    check(st[1] > 0 and st[0] == 0, f"port 0 without loopback: {st}")
    st = stats(out[9])[0]
    # txonly's 64-byte frames come back padded to 187 bytes (TX_PAD).
    check(st[1] > 0 and st[0] == st[1] and st[2] * 64 == st[3] * TX_PAD,
          f"port 0 in loopback: {st}")


def test_totals_survive_port_restart():
    # Port stop/start and a new configuration (loopback 0 -> reconfigure at start) wipe the
    # ports' own counters; the final report still covers the whole session.
    js = os.path.join(W, "i.json")
    out = session(["start", "stop", "port stop all", "port start all", "start", "stop",
                   "port stop all", "port config all loopback 0", "port start all", "start",
                   "stop", "show port stats all"], ["--forward-mode=txonly", "--rate=50000"],
                  gap=1.5)  # each run must send on both ports, even on a loaded machine
    runs = [re.findall(r"port (\d): rx (\d+) tx (\d+) frames", out[i]) for i in (1, 5, 10)]
    with open(js) as f:
        rep = {p["port"]: p for p in json.load(f)["ports"]}
    shown = stats(out[11])
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


if __name__ == "__main__":
    if not APP:
        sys.exit(1)
    sys.exit(main("app_interactive", [test_generate_and_show, test_port_commands,
                                      test_loopback, test_totals_survive_port_restart]))
