#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end: fault injection devargs of net_gaudi_emu under stock dpdk-testpmd.

Each scenario starts testpmd on net_gaudi_emu (ports=2, wire=pair) with fault devargs,
forwards for a few seconds and checks that testpmd keeps forwarding after the fault (counters
increase), that the PMD printed its one log line for it, the recovery xstats, and that testpmd
quits cleanly (no crash, ports close).
Environment: GAUDI_PMD (the built librte_net_gaudi_emu.so; it loads librte_net_gaudi.so).
"""
import re
import sys
import time

from e2e_common import Fail, check, run_checks
from testpmd_session import TestPmd


def xstats(tp, port):
    out = tp.cmd(f"show port xstats {port}")
    return {k: int(v) for k, v in re.findall(r"^(\w+):\s+(\d+)\s*$", out, re.M)}


def rx_total(tp):
    """Frames that crossed the cable: received, or missed by a port txonly does not poll."""
    st = tp.port_stats()
    return sum(p.get("RX-packets", 0) + p.get("RX-missed", 0) for p in st.values())


def scenario(pmd, name, devargs, mode, start, log_re, xstat=None, settle=1.5):
    vdev = "net_gaudi_emu0,ports=2,wire=pair," + devargs
    with TestPmd([vdev], pmd_path=pmd,
                 app_args=[f"--forward-mode={mode}", "--burst=32"]) as tp:
        try:
            tp.cmd(start)
            time.sleep(settle)  # the fault fires and is recovered
            a = b = rx_total(tp)
            # Frames move again: waited for (up to 20 s), not assumed within a fixed window
            # (a loaded machine can leave the forwarding lcore without a CPU for a second).
            end = time.monotonic() + 20
            while b <= a and time.monotonic() < end:
                time.sleep(0.2)
                b = rx_total(tp)
            check(b > a, f"{name}: forwarding stopped after the fault ({a} -> {b})")
            tp.cmd("stop")
            if xstat:
                port, key, least = xstat
                x = xstats(tp, port)
                check(x.get(key, 0) >= least, f"{name}: xstat {key} of port {port}: "
                      f"{x.get(key)} < {least}")
            tp.quit()
            check(re.search(log_re, tp.transcript),
                  f"{name}: PMD log line /{log_re}/ not printed")
            check("Bye..." in tp.transcript, f"{name}: testpmd did not exit cleanly")
        except Fail:
            print(tp.transcript[-6000:], file=sys.stderr)
            raise
    print(f"  {name}: ok")


def run(pmd):
    # A QP error with a WQE-class syndrome after 1000 frames of port 0: its frame is dropped,
    # the queue restarts in place, io forwarding goes on with the 63 other frames.
    scenario(pmd, "qp_err", "fault=qp_err:0:1000:0x91", "io", "start tx_first",
             r"port 0: TX QP error 0x91 .*restarted", ("0", "recovery_qp_resets", 1))
    # A lost doorbell while io forwarding: the burst it carried is the only traffic of its
    # loop, so nobody calls tx_burst again; the TX watchdog rings it again.
    scenario(pmd, "db_fifo_overrun", "fault=db_fifo_overrun:0:2000", "io", "start tx_first",
             r"port 0: doorbell FIFO overrun: .* rang again", ("0", "recovery_db_rerings", 1))
    # Link flap of port 1 (both ends of the cable): LSC down and up events, txonly traffic
    # flows again once the link is back.
    scenario(pmd, "link_flap", "fault=link_flap:1:5000:50", "txonly", "start",
             r"Port 1: link state change event", ("1", "recovery_link_up_events", 1))
    # Random faults from a seed, with both engines.
    for engine in ("inline", "thread"):
        scenario(pmd, f"random/{engine}",
                 f"engine={engine},fault_seed=11,fault_rate=0.0002,"
                 "fault_kinds=db_fifo_overrun+qp_err+dma_fault+cq_overrun",
                 "txonly", "start", r"TX QP error 0x[0-9a-f]+ ", ("0", "qp_error_events", 1))


def main():
    return run_checks("testpmd_faults", run)


if __name__ == "__main__":
    sys.exit(main())
