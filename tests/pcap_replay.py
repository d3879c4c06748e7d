#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end: replay every Ethernet capture of the shared test data through net_gaudi_emu.

Stock dpdk-testpmd, io forwarding, `wire=pcap`: port 2k receives file k (rx_pcap), testpmd
forwards it to port 2k+1, which writes what it transmits to a pcap (tx_pcap). Up to 12 files
per testpmd run (24 ports). Per file the test checks, for each engine:
  - the output holds exactly the input frames of at most MTU+22 bytes, in order, byte for
    byte, except frames shorter than 187 bytes, which are zero-padded to 187 (the PMD pads
    to NIC_SKB_PAD_SIZE: TXE rejects shorter raw frames, hardware issue H6-3399);
  - port 2k counted every longer frame in RX-errors and nothing in RX-missed (records are
    read as libpcap reads them: cut to the file's snapshot length);
  - RX-packets of port 2k and TX-packets of port 2k+1 equal the number of expected frames.
Environment: GAUDI_PMD (built librte_net_gaudi_emu.so), GAUDI_SHARED_DATA (shared/data),
GAUDI_ENGINES (default "inline,thread").
"""
import glob
import os
import shutil
import sys
import tempfile
import time

from e2e_common import HERE, SKIP, TX_PAD, engines, gaudi_pmd
import pcapfile
from testpmd_session import TestPmd, TestPmdError, wait_for

MTU = 1500                 # the PMD's default; testpmd does not change it
MAX_FRAME = MTU + 22       # HBL_EN_MAX_HEADERS_SZ (26) without the FCS: header + 2 VLAN tags
MIN_FRAME = TX_PAD         # the driver pads shorter frames with zeros on TX
# Records shorter than this are expected to be dropped by the receiving MAC (counted in
# RX-errors). The design delivers every record of at most MAX_FRAME bytes, runts included:
RX_MIN_FRAME = 0
FILES_PER_RUN = 12         # 24 ports, the most net_gaudi_emu has
DRAIN_TIMEOUT = 60


def expectation(path):
    linktypes, frames = pcapfile.read_frames(path)
    if linktypes != {pcapfile.LINKTYPE_ETHERNET}:
        return None
    out = [f + bytes(MIN_FRAME - len(f)) if len(f) < MIN_FRAME else f
           for f in frames if RX_MIN_FRAME <= len(f) <= MAX_FRAME]
    return {"path": path, "n_in": len(frames), "frames": out,
            "oversize": len(frames) - len(out)}


def compare(exp, got):
    """Return None if got matches the expected frames, else a one-line reason."""
    want = exp["frames"]
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            j = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            return f"frame {i}: expected {len(a)} bytes, got {len(b)}, first difference at byte {j}"
    if len(want) != len(got):
        return f"expected {len(want)} frames, got {len(got)}"
    return None


def run_batch(batch, engine, pmd, outdir):
    """One testpmd run over up to 12 files; returns a list of (name, error-or-None)."""
    devargs = [f"net_gaudi_emu0,ports={2 * len(batch)},wire=pcap,engine={engine}"]
    for k, exp in enumerate(batch):
        exp["out"] = os.path.join(outdir, f"{engine}-{os.path.basename(exp['path'])}.out.pcap")
        for p in (exp["path"], exp["out"]):
            if "," in p:
                raise TestPmdError(f"path with a comma cannot be a devarg: {p}")
        devargs.append(f"rx_pcap={2 * k}:{exp['path']},tx_pcap={2 * k + 1}:{exp['out']}")
    # --no-flush-rx: otherwise `start` drains (and loses) what the pcap already delivered.
    # start_timeout: 24 ports brought up (firmware, PHY) by an ASan build on a busy 2-core
    # machine once took over the default 60 s to reach the prompt.
    with TestPmd([",".join(devargs)], pmd_path=pmd, start_timeout=180,
                 app_args=["--forward-mode=io", "--no-flush-rx"]) as tp:
        try:
            tp.cmd("start")

            def drained(st):   # the whole file arrived, and all that was received went out
                return all(st[2 * k]["RX-packets"] + st[2 * k]["RX-errors"] >= e["n_in"]
                           and st[2 * k + 1]["TX-packets"] >= st[2 * k]["RX-packets"]
                           for k, e in enumerate(batch))
            stats = wait_for(tp, drained, DRAIN_TIMEOUT)
            time.sleep(0.3)         # anything beyond the expected count would show up now
            stats = tp.port_stats()
            tp.cmd("stop")
            tp.quit()
        except TestPmdError:
            sys.stdout.write(tp.transcript[-6000:])
            raise
    results = []
    for k, exp in enumerate(batch):
        rx, tx = stats[2 * k], stats[2 * k + 1]
        errs = []
        if rx["RX-errors"] != exp["oversize"]:
            errs.append(f"RX-errors {rx['RX-errors']} != {exp['oversize']} frames too long")
        if rx["RX-missed"] or rx["RX-nombuf"]:
            errs.append(f"RX-missed {rx['RX-missed']} RX-nombuf {rx['RX-nombuf']}")
        if rx["RX-packets"] != len(exp["frames"]) or tx["TX-packets"] != len(exp["frames"]):
            errs.append(f"RX-packets {rx['RX-packets']} / TX-packets {tx['TX-packets']} != "
                        f"{len(exp['frames'])} expected")
        if tx["TX-errors"]:
            errs.append(f"TX-errors {tx['TX-errors']}")
        try:
            lt, got = pcapfile.read_frames(exp["out"])
            why = compare(exp, got)
            if why:
                errs.append(why)
        except (OSError, pcapfile.PcapError) as e:
            errs.append(f"output capture: {e}")
        results.append((os.path.basename(exp["path"]), "; ".join(errs) or None))
    return results


def main():
    pmd = gaudi_pmd()
    data = os.environ.get("GAUDI_SHARED_DATA", os.path.join(HERE, "..", "..", "shared", "data"))
    srcdir = os.path.join(data, "pcap", "ethernet")
    files = sorted(glob.glob(os.path.join(srcdir, "*.pcap")) +
                   glob.glob(os.path.join(srcdir, "*.pcapng")))
    if not files:
        print(f"SKIP: no captures in {srcdir}")
        return SKIP
    exps, skipped = [], 0
    for f in files:
        e = expectation(f)
        if e is None:
            print(f"skip  {os.path.basename(f)}: not Ethernet")
            skipped += 1
        else:
            exps.append(e)
    engines_ = engines()
    outdir = tempfile.mkdtemp(prefix="gaudi-pcap-replay-")
    passed = failed = 0
    t0 = time.monotonic()
    for engine in engines_:
        for i in range(0, len(exps), FILES_PER_RUN):
            batch = exps[i:i + FILES_PER_RUN]
            try:
                results = run_batch(batch, engine, pmd, outdir)
            except TestPmdError as e:
                results = [(os.path.basename(x["path"]), f"testpmd: {e}") for x in batch]
            for (name, err), exp in zip(results, batch):
                tag = f"{engine:6} {name}: {exp['n_in']} frames, {exp['oversize']} oversize"
                if err:
                    failed += 1
                    print(f"FAIL  {tag}: {err}")
                else:
                    passed += 1
                    print(f"ok    {tag}")
            sys.stdout.flush()
    print(f"pcap_replay: {len(exps)} files x {len(engines_)} engines in "
          f"{time.monotonic() - t0:.0f}s")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    if failed:
        print(f"outputs kept in {outdir}")
        return 1
    shutil.rmtree(outdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
