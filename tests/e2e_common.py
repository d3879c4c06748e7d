# SPDX-License-Identifier: BSD-3-Clause
"""Preamble shared by the end-to-end tests (tests/*.py): puts tests/lib/ on the import path
(testpmd_session, pcapfile), and provides the checks, the environment lookups
(GAUDI_PMD, GAUDI_ENGINES) and the exit codes (77 = skip, as meson reads it).

Import it first: `from e2e_common import ...` also makes `from testpmd_session import ...`
work.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, "lib")
if LIB not in sys.path:
    sys.path.insert(0, LIB)

SKIP = 77
# The PMD pads frames shorter than this with zeros before TX: NIC_SKB_PAD_SIZE, because the
# TXE raw size checker rejects shorter frames (hardware issue H6-3399, gaudi_hw_model.rst).
TX_PAD = 187


class Fail(Exception):
    pass


_checks = 0


def check(cond, msg):
    """Raise Fail(msg) unless cond; counts the checks made (checks_made())."""
    global _checks
    _checks += 1
    if not cond:
        raise Fail(msg)


def checks_made():
    return _checks


def gaudi_pmd(required=False):
    """The built plugin of net_gaudi_emu, librte_net_gaudi_emu.so (GAUDI_PMD), which loads
    the PMD core librte_net_gaudi.so beside it. With required, None after printing why
    when it is not set (the caller then fails with exit status 1)."""
    pmd = os.environ.get("GAUDI_PMD")
    if required and not pmd:
        print("GAUDI_PMD is not set", file=sys.stderr)
        return None
    return pmd


def engines():
    """The engines to test (GAUDI_ENGINES, default inline,thread)."""
    return os.environ.get("GAUDI_ENGINES", "inline,thread").split(",")


def finish(passed, failed):
    """Print the pass/fail line and return the exit status."""
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def run_checks(name, run):
    """main() of a test that is one run(pmd) of checks: needs GAUDI_PMD, fails (1) on the
    first failed check or testpmd error, else prints how many checks passed (0)."""
    from testpmd_session import TestPmdError
    pmd = gaudi_pmd(required=True)
    if not pmd:
        return 1
    try:
        run(pmd)
    except (Fail, TestPmdError) as e:
        print(f"FAIL: {e}", file=sys.stderr)
        return 1
    print(f"{name}: {checks_made()} checks passed")
    return 0
