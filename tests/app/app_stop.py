#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gaudi-testpmd stopped mid-run (SIGINT as Ctrl-C sends, SIGTERM): exit status 0, the
report is written and matches the final counters, and every mbuf is back in its pool --
generating, forwarding a loop (--tx-first) and capturing.
"""
import os
import signal
import sys

from app_common import (check, check_report_matches, check_series_sums, main, run, tshark_fields,
                        workdir)

W = workdir()


def stopped(args, sig, name):
    r = run(args + ["--stats-period=0.2"], json_path=os.path.join(W, f"{name}.json"),
            sigint_after=1.5, sig=sig)
    check(r.rc == 0, f"{name}: exit status {r.rc} after {sig.name}\n{r.out}\n{r.err}")
    check(r.report is not None and r.report["stopped_by"] == "signal",
          f"{name}: no report or not stopped by the signal")
    check_report_matches(r)
    check_series_sums(r)
    check("every mbuf returned to its pool" in r.out, f"{name}: no mbuf statement")
    return r


def test_sigint_txonly():
    r = stopped(["--forward-mode=txonly"], signal.SIGINT, "int-txonly")
    for p in r.report["ports"]:
        check(p["tx_packets"] > 0 and p["rx_packets"] == p["latency_ns"]["count"],
              f"port {p['port']}: {p}")
        check(p["sequence"]["lost"] == 0, f"port {p['port']}: frames lost at the stop")
    check(len(r.report["series"]) >= 3, "no time series")


def test_sigterm_io_loop():
    r = stopped(["--forward-mode=io", "--tx-first"], signal.SIGTERM, "term-io")
    check(all(p["rx_packets"] > 0 for p in r.report["ports"]), "the io loop did not run")


def test_sigint_capturing():
    cap = os.path.join(W, "int.pcapng")
    r = stopped(["--forward-mode=flowgen", "--rate=20000", f"--capture=1:{cap}"],
                signal.SIGINT, "int-cap")
    rows = tshark_fields(cap, ["frame.len"])
    p1 = r.port(1)
    c = r.report["captures"][0]
    # Every frame is in the file or counted as not captured (the main lcore writing the file
    # can be preempted long enough for the capture ring to fill on a busy machine).
    check(len(rows) == c["written"] > 0 and
          c["written"] + c["dropped"] == p1["rx_packets"] + p1["tx_packets"],
          f"capture after SIGINT: {len(rows)} frames in the file, {c['dropped']} not captured, "
          f"port 1 moved {p1['rx_packets'] + p1['tx_packets']}")


if __name__ == "__main__":
    sys.exit(main("app_stop", [test_sigint_txonly, test_sigterm_io_loop, test_sigint_capturing]))
