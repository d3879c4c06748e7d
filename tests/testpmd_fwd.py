#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end: stock dpdk-testpmd forwarding over a net_gaudi_emu port pair (wire=pair).

For each engine (inline, thread) and forwarding mode, one testpmd process:
  io, mac  `start tx_first 2` puts 2x32 frames per port on the loop; they must keep circulating
           (counters grow on both ports), with no error/drop counter set, and after `stop` the
           frames in flight (sum TX - sum RX) are between 0 and the 128 injected.
  txonly   both ports transmit; TX grows on both, TX-errors stays 0.
  rxonly   `start tx_first 2` sends exactly 64 frames per port and nothing else: each port must
           receive exactly the 64 frames its peer sent.
Then the firmware's port mask (issue 8): ports=4,fw_port_mask=0x5,fw_mac=00:1d:a3:10:20:30 on
wire=loopback gives testpmd two ports (NIC ports 0 and 2) whose MACs are the firmware's
(00:1D:A3:10:20:30 and :32), and io forwarding circulates frames on both.
Telemetry /gaudi_emu/profile: with profile=1 it counts the cycles spent in the model (the same
device behind both ports) and refuses a port id that names no port, or no number; without the
devarg it counts nothing (the io case). Telemetry /gaudi_emu/seq answers for an open port (the
io case: seq_check on by default, nothing missing or refused) and refuses other ids.
Environment: GAUDI_PMD (the built librte_net_gaudi_emu.so; it loads librte_net_gaudi.so),
GAUDI_ENGINES (default inline,thread).
"""
import sys
import time

from e2e_common import Fail, check, engines, finish, gaudi_pmd
from testpmd_session import TestPmd, TestPmdError, parse_fwd_stats, telemetry, wait_for

BURST = 32
ROUNDS = 2                       # start tx_first ROUNDS
INJECTED = BURST * ROUNDS        # frames per port put on the wire by tx_first
RUN_SECONDS = 2.0
# How long counters may take to move again. A loaded 2-CPU machine (the suite runs tests in
# parallel, ASan slows them) can leave a forwarding thread without a CPU for a second: growth
# is waited for, not assumed within a fixed window.
GROWTH_TIMEOUT = 20.0


def grown(tp, before, keys):
    """Stats once every port's `keys` counters passed `before` (or the last stats at the
    timeout)."""
    return wait_for(tp, lambda st: all(st[p][k] > before[p][k] for p in (0, 1) for k in keys),
                    GROWTH_TIMEOUT, stall=GROWTH_TIMEOUT)


def zero_errors(stats, ports=(0, 1), missed_ok=False):
    for p in ports:
        s = stats[p]
        for k in ("RX-errors", "RX-nombuf", "TX-errors") + (() if missed_ok else ("RX-missed",)):
            check(s[k] == 0, f"port {p} {k} = {s[k]}")


def looping(tp):
    """io / mac: frames injected by tx_first circulate between the two ports."""
    tp.cmd(f"start tx_first {ROUNDS}")
    time.sleep(RUN_SECONDS)
    a = tp.port_stats()
    b = grown(tp, a, ("RX-packets", "TX-packets"))
    for p in (0, 1):
        for k in ("RX-packets", "TX-packets"):
            check(b[p][k] > a[p][k] > INJECTED,
                  f"port {p} {k} not circulating: {a[p][k]} then {b[p][k]}")
    fwd = parse_fwd_stats(tp.cmd("stop"))
    check(set(fwd) == {0, 1}, f"no forward statistics after stop: {fwd}")
    for p in (0, 1):
        check(fwd[p]["RX-dropped"] == 0 and fwd[p]["TX-dropped"] == 0,
              f"port {p} forward drops: {fwd[p]}")
    time.sleep(0.3)
    s = tp.port_stats()
    zero_errors(s)
    in_flight = sum(s[p]["TX-packets"] for p in (0, 1)) - sum(s[p]["RX-packets"] for p in (0, 1))
    check(0 <= in_flight <= 2 * INJECTED, f"frames lost or invented: sum TX - sum RX = {in_flight}")
    return s


def txonly(tp):
    tp.cmd("start")
    time.sleep(RUN_SECONDS)
    a = tp.port_stats()
    b = grown(tp, a, ("TX-packets",))
    tp.cmd("stop")
    for p in (0, 1):
        check(b[p]["TX-packets"] > a[p]["TX-packets"] > 0, f"port {p} TX not growing: "
              f"{a[p]['TX-packets']} then {b[p]['TX-packets']}")
    zero_errors(b, missed_ok=True)     # nobody polls RX here: a full RX ring may count missed
    return b


def rxonly(tp):
    tp.cmd(f"start tx_first {ROUNDS}")
    s = wait_for(tp, lambda st: all(st[p]["RX-packets"] >= INJECTED for p in (0, 1)), 10)
    time.sleep(0.5)
    s = tp.port_stats()
    fwd = parse_fwd_stats(tp.cmd("stop"))
    for p in (0, 1):
        check(s[p]["TX-packets"] == INJECTED, f"port {p} TX-packets {s[p]['TX-packets']} "
              f"!= {INJECTED} sent by tx_first")
        check(s[p]["RX-packets"] == INJECTED, f"port {p} RX-packets {s[p]['RX-packets']} "
              f"!= {INJECTED} sent by its peer")
        check(fwd[p]["RX-packets"] == INJECTED, f"port {p} forward RX-packets {fwd[p]}")
    zero_errors(s)
    return s


def firmware_ports(tp):
    """Two ethdevs from the firmware's link_mask 0x5, MACs from NIC_INFO_GET, forwarding."""
    for port, mac in ((0, "00:1D:A3:10:20:30"), (1, "00:1D:A3:10:20:32")):
        info = tp.cmd(f"show port info {port}")
        check(f"MAC address: {mac}" in info, f"port {port}: MAC is not {mac}:\n{info}")
    check("Invalid port" in tp.cmd("show port info 2"), "a third port exists")
    return looping(tp)


def profiled(tp):
    """io with profile=1: telemetry /gaudi_emu/profile counts the cycles the forwarding
    thread spent in the model, the same device behind both ports; bad parameters refused."""
    s = looping(tp)
    p0 = telemetry(tp.prefix, "/gaudi_emu/profile,0")
    p1 = telemetry(tp.prefix, "/gaudi_emu/profile,1")
    check(p0 is not None and p1 is not None, f"/gaudi_emu/profile refused: {p0}, {p1}")
    check(p0["profile"] == 1, f"/gaudi_emu/profile,0: {p0}")
    check(p0["tsc_cycles"] > 0 and p0["accesses"] > 0 and p0["tsc_hz"] > 0,
          f"nothing counted: {p0}")
    check(p1["tsc_cycles"] >= p0["tsc_cycles"] and p1["port_id"] == 1,
          f"port 1 is not the same model counted later: {p0} then {p1}")
    for bad in ("/gaudi_emu/profile,9", "/gaudi_emu/profile,x", "/gaudi_emu/profile"):
        check(telemetry(tp.prefix, bad) is None, f"{bad} answered")
    return s


def unprofiled(tp):
    """io without the devarg: the model counts nothing."""
    s = looping(tp)
    p0 = telemetry(tp.prefix, "/gaudi_emu/profile,0")
    check(p0 is not None, "/gaudi_emu/profile,0 refused")
    check(p0 == {"port_id": 0, "profile": 0, "tsc_cycles": 0, "accesses": 0,
                 "tsc_hz": p0["tsc_hz"]}, f"counted without profile=1: {p0}")
    # /gaudi_emu/seq: the model checks the bring-up by default (seq_check=1), and the
    # driver's leaves no step missing and nothing refused on any of the 14 steps.
    q = telemetry(tp.prefix, "/gaudi_emu/seq,1")
    # With it the register-map counts: no access outside the published map, no value the
    # public driver never writes, and some accesses to registers the model only stores.
    check(q is not None and q.get("port_id") == 1 and q.get("seq_check") == 1
          and q.get("missing") == 0 and len(q) == 3 + 14 + 3 and "mac_speed" in q
          and q.get("unmodeled_accesses", 0) > 0
          and all(v == 0 for k, v in q.items()
                  if k not in ("port_id", "seq_check", "unmodeled_accesses")),
          f"/gaudi_emu/seq,1: {q}")
    check(telemetry(tp.prefix, "/gaudi_emu/seq,9") is None, "/gaudi_emu/seq,9 answered")
    return s


CASES = {"io": unprofiled, "mac": looping, "txonly": txonly, "rxonly": rxonly}


def run_case(name, vdev, mode, fn, pmd):
    """One testpmd process over vdev in forwarding mode `mode`, checked by fn; True if it
    passed (a FAIL line and the transcript's end if not)."""
    tp = None
    try:
        with TestPmd([vdev], pmd_path=pmd,
                     app_args=[f"--forward-mode={mode}", f"--burst={BURST}"]) as tp:
            s = fn(tp)
            tp.quit()
        print(f"ok    {name} " + "  ".join(
            f"p{p} rx={s[p]['RX-packets']} tx={s[p]['TX-packets']}" for p in (0, 1)))
        return True
    except (Fail, TestPmdError) as e:
        print(f"FAIL  {name}: {e}")
        if tp is not None:
            print(tp.transcript[-4000:])
        return False
    finally:
        sys.stdout.flush()


def main():
    pmd = gaudi_pmd()
    cases = [(f"{engine:6} {mode:6}", f"net_gaudi_emu0,ports=2,wire=pair,engine={engine}",
              mode, fn) for engine in engines() for mode, fn in CASES.items()]
    cases += [
        ("inline profile=1 io", "net_gaudi_emu0,ports=2,wire=pair,profile=1", "io", profiled),
        ("inline firmware-mask io",
         "net_gaudi_emu0,ports=4,wire=loopback,fw_port_mask=0x5,fw_mac=00:1d:a3:10:20:30",
         "io", firmware_ports),
    ]
    results = [run_case(name, vdev, mode, fn, pmd) for name, vdev, mode, fn in cases]
    return finish(results.count(True), results.count(False))


if __name__ == "__main__":
    sys.exit(main())
