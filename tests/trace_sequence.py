#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end: the driver's register trace holds the public bring-up sequence.

Stock dpdk-testpmd runs net_gaudi_emu0,ports=2,wire=pair with trace=FILE (every register access
of the driver, one line each: sequence number, R or W, configuration address, value, published
name), once per port speed (devarg speed: 100000, the default, then 50000 and 25000). It checks
the ports' links report that speed (speed_capa: test_ethdev), forwards at least 1000 frames each way (io,
`start tx_first`), stops the ports and quits (device close). Then the trace is checked against
tests/trace/gaudi2_raw_port_<speed>.tsv, the writes hbl_cn / hbl_en make to open, run and close a
raw-Ethernet port at that speed, written from the public sources (see the tables' headers): every
row must be in the trace for each port (or macro, lane, SerDes) with the public value, and rows of
one group in the order of their rank.

Also checked: the model reports no value the public driver never writes to a register traffic
depends on (gaudi_emu_values.cpp), and the trace's format (sequence numbers counting up from 1, R/W, upper-case hex
addresses in the NIC's configuration range, a published name on every line).
Environment: GAUDI_PMD (the built librte_net_gaudi_emu.so; it loads librte_net_gaudi.so).
"""
import os
import re
import sys
import tempfile

from e2e_common import Fail, check, finish, gaudi_pmd
from testpmd_session import TestPmd, TestPmdError, wait_for

HERE = os.path.dirname(os.path.abspath(__file__))
# (devarg speed, its table, what testpmd prints as the link speed)
SPEEDS = ((100000, "gaudi2_raw_port_100g.tsv", "100 Gbps"),
          (50000, "gaudi2_raw_port_50g.tsv", "50 Gbps"),
          (25000, "gaudi2_raw_port_25g.tsv", "25 Gbps"))
FRAMES = 1000
PORTS = (0, 1)

NIC0_CFG = 0x5400000
NIC_END = NIC0_CFG + 12 * 0x80000
# gaudi2_cn.h NIC_CFG_BASE: an odd port's copy of a per-port register is 0x20000 further below
# NIC0_RXE0 (QPC and its AXUSER blocks), 0x1000 further from it (RXE, TXS, TXE).
RXE0 = 0x544A000
LINE = re.compile(r"^(\d+) ([RW]) (0x[0-9A-F]+) (0x[0-9A-F]+) (\S+)$")


def load_table(name):
    rows = []
    with open(os.path.join(HERE, "trace", name)) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            step, scope, addr, value, group, rank, what = line.rstrip("\n").split("\t")
            rows.append(dict(line=n, step=step, scope=scope, addr=int(addr, 16),
                             value=None if value == "*" else int(value, 16), group=group,
                             rank=int(rank), what=what))
    return rows


def instances(row):
    """(instance, address) pairs a row stands for on macro 0 with ports 0 and 1: the instance
    is None (macro), the port, or (port, lane)."""
    a, scope = row["addr"], row["scope"]
    if scope == "macro":
        return [(None, a)]
    if scope == "port":
        return [(p, a + p * (0x20000 if a < RXE0 else 0x1000)) for p in PORTS]
    if scope == "rxbport":
        return [(p, a + p * 8) for p in PORTS]
    if scope == "lane":  # ordered per lane: hbl_cn configures one lane after the other
        return [((p, lane), a + (2 * p + lane) * 0x1000) for p in PORTS for lane in (0, 1)]
    if scope == "serdes":  # the port's SerDes block: SERDES0 even port, SERDES1 (+0x4000) odd
        return [(("serdes", p), a + p * 0x4000) for p in PORTS]
    if scope == "serdeslane":
        return [(("serdes", p, lane), a + p * 0x4000 + lane * 0x800)
                for p in PORTS for lane in (0, 1)]
    raise Fail(f"table line {row['line']}: unknown scope {scope}")


def unnamed_ok(addr):
    """The one register the public driver writes by bare address and no header names:
    SerDes lane register 0NF5 (gaudi2_cn_phy.c set_pll_tx, 0x54587D4 for SERDES0 lane 0; the
    odd port's SERDES1 at +0x4000, lane 1 at +0x800, every macro at +0x80000)."""
    off = (addr - NIC0_CFG) % 0x80000
    return off in {0x587D4 + s * 0x4000 + lane * 0x800 for s in (0, 1) for lane in (0, 1)}


def read_trace(path):
    writes, names, n = [], {}, 0
    with open(path) as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            check(m is not None, f"trace line {n + 1} malformed: {line!r}")
            seq, kind, addr, value, name = m.groups()
            n += 1
            check(int(seq) == n, f"trace line {n}: sequence number {seq}")
            addr = int(addr, 16)
            check(NIC0_CFG <= addr < NIC_END and addr % 4 == 0,
                  f"trace line {n}: address 0x{addr:X} outside the NIC's registers")
            check(name != "?" or unnamed_ok(addr),
                  f"trace line {n}: 0x{addr:X} has no published name")
            names[addr] = name
            if kind == "W":
                writes.append((addr, int(value, 16)))
    return writes, names, n


def check_sequence(rows, writes):
    """Every row's writes are in the trace; a group's ranks in order. Returns the rows checked."""
    where = {}
    for i, (a, v) in enumerate(writes):
        where.setdefault(a, []).append((i, v))
    missing, order, checked = [], [], 0
    groups = {}
    for row in rows:
        for port, addr in instances(row):
            key = (row["group"], port) if row["group"] != "-" else None
            groups.setdefault(key, []).append((row, addr))
    for key, members in groups.items():
        cursor = -1
        for rank in sorted({r["rank"] for r, _ in members}):
            reached = cursor
            for row, addr in (m for m in members if m[0]["rank"] == rank):
                checked += 1
                hits = [i for i, v in where.get(addr, [])
                        if row["value"] is None or v == row["value"]]
                tag = (f"{row['step']} 0x{addr:X} "
                       f"{'*' if row['value'] is None else hex(row['value'])} ({row['what']})")
                if not hits:
                    missing.append(tag)
                    continue
                after = [i for i in hits if i > cursor] if key else hits
                if not after:
                    order.append(f"{tag}: written only before the earlier steps of its group")
                    continue
                reached = max(reached, after[0])
            cursor = reached
    return checked, missing, order


def run(pmd, trace, speed, shown):
    vdev = f"net_gaudi_emu0,ports=2,wire=pair,trace={trace}"
    if speed != 100000:  # 100G is the default: its run has no speed devarg
        vdev += f",speed={speed}"
    with TestPmd([vdev], pmd_path=pmd) as tp:
        tp.cmd("start tx_first")
        for p in PORTS:
            info = tp.cmd(f"show port info {p}")
            check(f"Link speed: {shown}" in info,
                  f"port {p} at speed={speed}: link speed not {shown}:\n{info}")
        st = wait_for(tp, lambda s: all(s[p]["RX-packets"] >= FRAMES for p in PORTS), 60)
        # Said after the table check: a missing step is then named by its row.
        traffic = (None if all(st[p]["RX-packets"] >= FRAMES for p in PORTS)
                   else f"fewer than {FRAMES} frames each way: {st}")
        tp.cmd("stop")
        tp.cmd("port stop all")
        tp.quit()
        # The model reports a value the public driver never writes to a traffic register.
        bad = [ln for ln in tp.transcript.splitlines() if "the public driver never writes" in ln]
        check(not bad, "values the public driver never writes:\n" + "\n".join(bad))
    return traffic


def one_speed(pmd, speed, table, shown):
    """The run and the check at one speed; True if green."""
    rows = load_table(table)
    with tempfile.TemporaryDirectory(prefix="gaudi-trace-") as d:
        trace = os.path.join(d, "regs.trace")
        try:
            traffic = run(pmd, trace, speed, shown)
            writes, names, n = read_trace(trace)
            checked, missing, order = check_sequence(rows, writes)
        except (Fail, TestPmdError) as e:
            print(f"FAIL at {speed} Mb/s: {e}")
            return False
    print(f"{speed} Mb/s: trace: {n} accesses, {len(writes)} writes, {len(names)} registers")
    print(f"{speed} Mb/s: public sequence ({table}): {len(rows)} table rows, "
          f"{checked} writes looked for")
    for m in missing:
        print(f"{speed} Mb/s: missing: {m}")
    for o in order:
        print(f"{speed} Mb/s: out of order: {o}")
    ok = not missing and not order
    if traffic:
        print(f"FAIL at {speed} Mb/s: {traffic}")
        ok = False
    check_name = names.get(0x545413C)
    if check_name != "NIC0_TXB_TDM_PORT_ARB_MASK":
        print(f"0x545413C is named {check_name!r}, not NIC0_TXB_TDM_PORT_ARB_MASK")
        ok = False
    return ok


def main():
    pmd = gaudi_pmd(required=True)
    if pmd is None:
        return 1
    only = sys.argv[1:]  # e.g. 50000: that speed only
    good = bad = 0
    for speed, table, shown in SPEEDS:
        if only and str(speed) not in only:
            continue
        if one_speed(pmd, speed, table, shown):
            good += 1
        else:
            bad += 1
    return finish(good, bad)


if __name__ == "__main__":
    sys.exit(main())
