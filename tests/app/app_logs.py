#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The PMD's log types, one per area (drivers/net/gaudi/gaudi_logs.h): EAL's
--log-level=pmd.net.gaudi.<area>:debug turns on that area's messages and no other's --
init (probe, firmware), driver (control path: start/stop), rx and tx (datapath: their DEBUG
messages are compiled out in a default build, and INFO and above come only on faults).
"""
import sys

from app_common import check, main, run_ok

# What each area says in an ordinary run of two emulated ports.
INIT = ["gaudi: net_gaudi_emu0: firmware up (boot status 3), link_mask 0x3, 2 port(s)",
        "gaudi: PHY F/W loaded (built-in image)",
        "gaudi: net_gaudi_emu0_p0: port 0, MAC 02:1D:A3:00:00:00",
        "gaudi: net_gaudi_emu0_p1: port 1, MAC 02:1D:A3:00:00:01"]
DRIVER = ["gaudi: port 0: started", "gaudi: port 1: started", "gaudi: port 0: stopped",
          "gaudi: port 1: stopped"]


def pmd_lines(level_args):
    r = run_ok(["--forward-mode=txonly", "--duration=0.5"],
               eal=level_args + ["--log-level=lib.eal:warning", "--log-level=lib.telemetry:error"])
    check("mbufs in use at exit: 0" in r.out, f"{level_args}: mbufs left\n{r.out}")
    return [ln for ln in (r.out + r.err).splitlines() if ln.startswith("gaudi: ")]


def has(lines, msg):
    return any(ln.startswith(msg) for ln in lines)


def test_default_quiet():
    lines = pmd_lines([])
    check(lines == [], f"default levels: the PMD printed {lines}")


def test_init_debug():
    lines = pmd_lines(["--log-level=pmd.net.gaudi.init:debug"])
    for msg in INIT:
        check(has(lines, msg), f"init:debug: no '{msg}' in {lines}")
    check(len(lines) == len(INIT), f"init:debug: other areas spoke too: {lines}")


def test_driver_debug():
    lines = pmd_lines(["--log-level=pmd.net.gaudi.driver:debug"])
    check(sorted(lines) == sorted(DRIVER), f"driver:debug: {lines}, want {DRIVER}")


def test_datapath_debug():
    lines = pmd_lines(["--log-level=pmd.net.gaudi.rx:debug", "--log-level=pmd.net.gaudi.tx:debug"])
    check(lines == [], f"rx/tx:debug on a clean run: {lines}")


def test_all_areas():
    lines = pmd_lines(["--log-level=pmd.net.gaudi.*:debug"])
    for msg in INIT + DRIVER:
        check(has(lines, msg), f"pmd.net.gaudi.*:debug: no '{msg}' in {lines}")


if __name__ == "__main__":
    sys.exit(main("app_logs", [test_default_quiet, test_init_debug, test_driver_debug,
                               test_datapath_debug, test_all_areas]))
