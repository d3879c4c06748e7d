#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Cross-check the RoCE v2 framing library against independent decoders.

1. examples/roce_gen writes one frame per opcode (IPv4/IPv6, with/without VLAN, several
   payload sizes). TShark must decode every frame without a malformed mark or expert
   warning, and its BTH fields (opcode, DestQP, PSN, AckReq, PadCnt) and ICRC must equal
   what roce_decode --json prints.
2. scapy's contrib.roce recomputes the ICRC of every IPv4 frame (scapy 2.5 has no IPv6
   ICRC); an independent zlib implementation of the Annex A17 masking checks IPv6.
3. Frames written with --bad-icrc are reported as icrc_mismatch by roce_decode, and scapy
   disagrees with their ICRC.
4. The shared hardware captures: roce_decode, tshark and scapy agree on every frame.

TShark's heuristic payload dissectors (RPCoRDMA, EoIB, ...) are disabled: they guess upper
layers from the synthetic payload bytes and would mark them malformed.
RD opcodes (0x40-0x55) are left out of the TShark check: Wireshark decodes that range as
Mellanox DC (different headers), not IBA RD.

Env: ROCE_GEN, ROCE_DECODE (built tools), GAUDI_SHARED_DATA (../shared/data).
Exit 0 on success, 1 on any mismatch or missing tool.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

try:
    from scapy.all import Ether, IP, IPv6, UDP, raw, rdpcap  # noqa: F401
    from scapy.contrib.roce import BTH
except ImportError:
    # pyenv/venv interpreters lack Debian's python3-scapy: re-run under the system one.
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3") \
            and not os.environ.get("ROCE_CROSSCHECK_REEXEC"):
        os.environ["ROCE_CROSSCHECK_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print("FAIL: scapy (apt python3-scapy) is not importable", file=sys.stderr)
    sys.exit(1)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.environ.get("GAUDI_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def tool(env, name):
    p = os.environ.get(env)
    if p and os.path.exists(p):
        return p
    for b in ("build", "build-roce"):
        c = os.path.join(ROOT, b, "examples", name)
        if os.path.exists(c):
            return c
    print(f"FAIL: {name} not found (set {env})", file=sys.stderr)
    sys.exit(1)


ROCE_GEN = tool("ROCE_GEN", "roce_gen")
ROCE_DECODE = tool("ROCE_DECODE", "roce_decode")
TSHARK = shutil.which("tshark")
if not TSHARK:
    print("FAIL: tshark not found", file=sys.stderr)
    sys.exit(1)


def decode(path):
    r = subprocess.run([ROCE_DECODE, "--json", path], check=True, capture_output=True, text=True)
    # A normal decode is quiet on stderr (no DPDK log lines, e.g. rte_net_crc's SIMD choice).
    if r.stderr:
        fail(f"roce_decode {path}: stderr not empty: {r.stderr!r}")
    return [json.loads(line) for line in r.stdout.splitlines()]


TS_FIELDS = ["frame.number", "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn",
             "infiniband.bth.a", "infiniband.bth.padcnt", "infiniband.invariant.crc"]


def payload_heuristics():
    """Wireshark guesses upper layers (RPCoRDMA, EoIB, SMB Direct...) from SEND payloads and
    marks our synthetic payload bytes malformed; we check the RoCE framing, so turn them off."""
    out = subprocess.run([TSHARK, "-G", "heuristic-decodes"], check=True, capture_output=True, text=True).stdout
    args = []
    for line in out.splitlines():
        v = line.split("\t")
        # column 2 is the protocol; "ethertype" also dispatches Ethernet itself, keep it
        if len(v) >= 2 and v[0] == "infiniband.payload" and v[1] != "ethertype":
            args += ["--disable-protocol", v[1]]
    return args


TS_BASE = [TSHARK, "-d", "udp.port==4791,infiniband"] + payload_heuristics()


def tshark_fields(path):
    args = TS_BASE + ["-r", path, "-T", "fields", "-E", "separator=,"]
    for f in TS_FIELDS:
        args += ["-e", f]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        v = line.split(",")
        if v[1]:
            rows[int(v[0])] = v
    return rows


def tshark_problems(path):
    out = subprocess.run(TS_BASE + ["-r", path, "-Y", "_ws.malformed || _ws.expert.severity >= \"warning\""],
                         check=True, capture_output=True, text=True).stdout
    return out.strip()


def as_int(s):
    s = s.strip()
    if s in ("True", "False"):
        return int(s == "True")
    return int(s, 0)


def icrc_zlib(ip_bytes):
    """Independent Annex A17 ICRC over IP..pad (no ICRC), returned as the 4 wire bytes."""
    b = bytearray(ip_bytes)
    if b[0] >> 4 == 4:
        ihl = (b[0] & 0xF) * 4
        b[1] = 0xFF
        b[8] = 0xFF
        b[10:12] = b"\xff\xff"
    else:
        ihl = 40
        b[0] |= 0x0F
        b[1:4] = b"\xff\xff\xff"
        b[7] = 0xFF
    b[ihl + 6:ihl + 8] = b"\xff\xff"
    b[ihl + 8 + 4] = 0xFF
    return struct.pack("<I", zlib.crc32(b"\xff" * 8 + bytes(b)) & 0xFFFFFFFF)


def scapy_icrc(frame_bytes):
    """scapy's own ICRC (IPv4 only in scapy 2.5), as the 4 wire bytes, or None."""
    p = Ether(frame_bytes)
    if IP not in p or BTH not in p:
        return None
    p[BTH].icrc = None
    # keep scapy from recomputing lengths/checksums: they are already in the parsed fields
    rebuilt = raw(p)  # lengths/checksums stay as parsed; only the ICRC is recomputed
    ip_off = len(rebuilt) - len(raw(p[IP]))
    ip_len = p[IP].len
    return rebuilt[ip_off + ip_len - 4: ip_off + ip_len]


def ip_slice(frame_bytes):
    p = Ether(frame_bytes)
    lay = p[IP] if IP in p else p[IPv6]
    ip_off = len(frame_bytes) - len(raw(lay))
    ip_len = lay.len if IP in p else 40 + lay.plen
    return frame_bytes[ip_off: ip_off + ip_len]


def check_file(path, want_icrc_ok, with_tshark=True, label=""):
    frames = [raw(x) for x in rdpcap(path)]
    dec = decode(path)
    if len(dec) != len(frames):
        fail(f"{label}: roce_decode printed {len(dec)} lines for {len(frames)} frames")
        return 0
    ts = tshark_fields(path) if with_tshark else {}
    n_roce = n_scapy = n_zlib = n_ts = 0
    for i, (f, d) in enumerate(zip(frames, dec), 1):
        if d["frame"] != i:
            fail(f"{label} frame {i}: json frame={d['frame']}")
        if not d["roce"]:
            if i in ts:
                fail(f"{label} frame {i}: tshark sees RoCE, roce_decode does not ({d['status']})")
            continue
        n_roce += 1
        want = "ok" if want_icrc_ok else "icrc_mismatch"
        if d["status"] != want or d["icrc_ok"] != want_icrc_ok:
            fail(f"{label} frame {i}: status {d['status']} icrc_ok {d['icrc_ok']}, want {want}")
        ip = ip_slice(f)
        wire = ip[-4:]
        if wire.hex() != d["icrc_wire"]:
            fail(f"{label} frame {i}: icrc_wire {d['icrc_wire']} != frame bytes {wire.hex()}")
        z = icrc_zlib(ip[:-4])
        n_zlib += 1
        if (z == wire) != want_icrc_ok:
            fail(f"{label} frame {i}: zlib ICRC {z.hex()} vs wire {wire.hex()}")
        if ip[0] >> 4 == 4:
            s = scapy_icrc(f)
            n_scapy += 1
            if s != z:
                fail(f"{label} frame {i}: scapy ICRC {s.hex() if s else None} != zlib {z.hex()}")
        if with_tshark:
            t = ts.get(i)
            if not t:
                fail(f"{label} frame {i}: tshark did not decode a BTH")
                continue
            n_ts += 1
            got = dict(opcode=as_int(t[1]), dest_qp=as_int(t[2]), psn=as_int(t[3]), ack_req=as_int(t[4]),
                       pad_cnt=as_int(t[5]))
            exp = dict(opcode=d["opcode_value"], dest_qp=d["dest_qp"], psn=d["psn"], ack_req=int(d["ack_req"]),
                       pad_cnt=d["pad_cnt"])
            if got != exp:
                fail(f"{label} frame {i} ({d['opcode']}): tshark {got} != roce_decode {exp}")
            if t[6] and as_int(t[6]) != int.from_bytes(wire, "big"):
                fail(f"{label} frame {i}: tshark ICRC {t[6]} != wire {wire.hex()}")
    if with_tshark:
        probs = tshark_problems(path)
        if probs:
            fail(f"{label}: tshark reports malformed/warnings:\n{probs}")
    print(f"{label}: {len(frames)} frames, {n_roce} RoCE, zlib-checked {n_zlib}, scapy-checked {n_scapy}, "
          f"tshark-compared {n_ts}")
    return n_roce


def main():
    with tempfile.TemporaryDirectory() as tmp:
        total = 0
        for plen in (0, 1, 13, 256, 1024):
            g = os.path.join(tmp, f"gen{plen}.pcap")
            subprocess.run([ROCE_GEN, "--all", "--no-rd", "--payload", str(plen), g], check=True,
                           capture_output=True)
            total += check_file(g, True, label=f"roce_gen payload={plen}")
        # RD range: no tshark oracle (decoded as DC), scapy/zlib only.
        g = os.path.join(tmp, "gen-rd.pcap")
        subprocess.run([ROCE_GEN, "--all", "--payload", "13", g], check=True, capture_output=True)
        check_file(g, True, with_tshark=False, label="roce_gen all opcodes incl. RD")
        b = os.path.join(tmp, "bad.pcap")
        subprocess.run([ROCE_GEN, "--all", "--no-rd", "--bad-icrc", b], check=True, capture_output=True)
        check_file(b, False, label="roce_gen --bad-icrc")
        # The hardware captures live in the shared corpus beside the repository: without it
        # (a bare clone) they are skipped, saying so; with it, a missing file is a failure.
        hw = ("rc-write-read-hw.pcap", "rc-write-hw.pcap", "rc-send-hw.pcap", "rc-send-multi-qp-hw.pcap")
        if not os.path.isdir(SHARED):
            print(f"skip: the shared capture corpus {SHARED} is absent (GAUDI_SHARED_DATA): "
                  f"{len(hw)} hardware captures not checked")
            hw = ()
        for name in hw:
            path = os.path.join(SHARED, "pcap", "roce", name)
            if not os.path.exists(path):
                fail(f"missing shared capture {path}")
                continue
            check_file(path, True, label=name)
        # Unreadable file: non-zero exit, message on stderr.
        r = subprocess.run([ROCE_DECODE, "--json", os.path.join(tmp, "nope.pcap")], capture_output=True, text=True)
        if r.returncode == 0 or not r.stderr:
            fail("roce_decode on a missing file must fail with a message")
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("all cross-checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
