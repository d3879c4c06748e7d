#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end: two dpdk-testpmd processes cabled together over UDP (wire=udp).

Each process runs `net_gaudi_emu0,ports=1,wire=udp` with udp_local/udp_remote swapped on
127.0.0.1, so one frame = one datagram (QEMU `-netdev dgram` format). For each engine:
  txonly -> rxonly  B transmits for a while, A only receives: A's RX-packets > 0 and equal to
                    its forward RX count; no RX error on A; A's RX-packets + the datagrams the
                    kernel dropped at A's socket (/proc/net/udp) <= B's TX-packets.
  macswap <-> macswap  `start tx_first` on A puts 32 frames on the cable, both processes swap
                    and send them back: both RX and TX counters keep growing, no errors.
Environment: GAUDI_PMD (the built librte_net_gaudi_emu.so; it loads librte_net_gaudi.so),
GAUDI_ENGINES (default inline,thread).
"""
import socket
import sys
import time

from e2e_common import TX_PAD, Fail, check, engines, finish, gaudi_pmd
from testpmd_session import TestPmd, TestPmdError, parse_fwd_stats, wait_for

RUN_SECONDS = 1.5


def free_udp_ports(n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def udp_drops(port):
    """Datagrams the kernel dropped at the socket bound to 127.0.0.1:port (full buffer)."""
    want = f"0100007F:{port:04X}"
    with open("/proc/net/udp") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            if fields[1] == want:
                return int(fields[-1])
    return 0


def vdev(engine, local, remote):
    return (f"net_gaudi_emu0,ports=1,wire=udp,engine={engine},"
            f"udp_local=0:127.0.0.1:{local},udp_remote=0:127.0.0.1:{remote}")


def pair(engine, pmd, mode_a, mode_b):
    a_port, b_port = free_udp_ports(2)
    # Two processes on 2 cores: A forwards on lcore 1, B on lcore 0.
    a = TestPmd([vdev(engine, a_port, b_port)], pmd_path=pmd, cores="0,1",
                app_args=[f"--forward-mode={mode_a}"])
    try:
        b = TestPmd([vdev(engine, b_port, a_port)], pmd_path=pmd, cores="0,1",
                    extra_eal=["--main-lcore", "1"], app_args=[f"--forward-mode={mode_b}"])
    except TestPmdError:
        a.close()
        raise
    return a, b, a_port


def tx_to_rx(engine, pmd):
    a, b, a_port = pair(engine, pmd, "rxonly", "txonly")
    with a, b:
        try:
            a.cmd("start")
            b.cmd("start")
            time.sleep(RUN_SECONDS)
            b.cmd("stop")
            sb = b.port_stats()[0]
            # A drains what is still queued at its socket: its counters must stand still
            # for a second (a loaded machine may take longer than any fixed wait).
            sa = wait_for(a, lambda st: False, 30, stall=1.0)[0]
            drops = udp_drops(a_port)
            fwd = parse_fwd_stats(a.cmd("stop"))[0]
            a.quit()
            b.quit()
        except (Fail, TestPmdError):
            print(a.transcript[-2000:] + "\n----\n" + b.transcript[-2000:])
            raise
    check(sb["TX-packets"] > 0, "B sent nothing")
    check(sa["RX-packets"] > 0, "A received nothing")
    check(sa["RX-packets"] == fwd["RX-packets"],
          f"A RX-packets {sa['RX-packets']} != forward RX {fwd['RX-packets']}")
    for k in ("RX-errors", "RX-missed", "RX-nombuf"):
        check(sa[k] == 0, f"A {k} = {sa[k]}")
    check(sb["TX-errors"] == 0, f"B TX-errors = {sb['TX-errors']}")
    check(sa["RX-packets"] + drops <= sb["TX-packets"],
          f"A RX {sa['RX-packets']} + socket drops {drops} > B TX {sb['TX-packets']}")
    check(sa["RX-bytes"] == TX_PAD * sa["RX-packets"],
          f"A RX-bytes {sa['RX-bytes']} != {TX_PAD} x {sa['RX-packets']} (txonly frames, padded)")
    return (f"B tx={sb['TX-packets']} A rx={sa['RX-packets']} socket drops={drops} "
            f"lost elsewhere={sb['TX-packets'] - sa['RX-packets'] - drops}")


def swap_both_ways(engine, pmd):
    a, b, _ = pair(engine, pmd, "macswap", "macswap")
    with a, b:
        try:
            b.cmd("start")
            a.cmd("start tx_first")
            time.sleep(RUN_SECONDS)
            s1 = (a.port_stats()[0], b.port_stats()[0])
            # Growth is waited for (up to 20 s), not assumed within a fixed window.
            keys = ("RX-packets", "TX-packets")
            for _ in range(100):
                time.sleep(0.2)
                s2 = (a.port_stats()[0], b.port_stats()[0])
                if all(s2[i][k] > s1[i][k] for i in (0, 1) for k in keys):
                    break
            a.cmd("stop")
            b.cmd("stop")
            a.quit()
            b.quit()
        except (Fail, TestPmdError):
            print(a.transcript[-2000:] + "\n----\n" + b.transcript[-2000:])
            raise
    for name, x, y in (("A", s1[0], s2[0]), ("B", s1[1], s2[1])):
        for k in ("RX-packets", "TX-packets"):
            check(y[k] > x[k] > 0, f"{name} {k} not growing: {x[k]} then {y[k]}")
        for k in ("RX-errors", "RX-missed", "RX-nombuf", "TX-errors"):
            check(y[k] == 0, f"{name} {k} = {y[k]}")
    return (f"A rx={s2[0]['RX-packets']} tx={s2[0]['TX-packets']}  "
            f"B rx={s2[1]['RX-packets']} tx={s2[1]['TX-packets']}")


def main():
    pmd = gaudi_pmd()
    passed = failed = 0
    for engine in engines():
        for name, fn in (("txonly->rxonly", tx_to_rx), ("macswap<->macswap", swap_both_ways)):
            try:
                summary = fn(engine, pmd)
                print(f"ok    {engine:6} {name:18} {summary}")
                passed += 1
            except (Fail, TestPmdError) as e:
                print(f"FAIL  {engine:6} {name:18}: {e}")
                failed += 1
            sys.stdout.flush()
    return finish(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
