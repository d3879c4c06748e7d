#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gaudi-testpmd's RoCE-aware capture summary: RoCE v2 frames (built with scapy, ICRC by
scapy) replayed in template mode and captured on the receiving port; the summary at exit
(and in the JSON report) counts them per opcode, finds the one missing PSN and the one bad
ICRC, and leaves out the frames that are not RoCE.
"""
import os
import sys

from app_common import check, check_report_matches, main, pcapfile, run_ok, workdir

W = workdir()


def frames():
    from scapy.all import IP, UDP, Ether, Raw, raw
    from scapy.contrib.roce import BTH

    def rc(qp, psn, opcode=4, payload=b"payload!"):
        return raw(Ether(src="02:00:00:00:00:aa", dst="02:1d:a3:00:00:01") /
                   IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=49152, dport=4791) /
                   BTH(opcode=opcode, dqpn=qp, psn=psn) / Raw(payload))

    out = [rc(0x11, n) for n in range(10) if n != 5]            # PSN 5 missing: one gap
    good = [rc(0x22, 100 + n, opcode=2) for n in range(5)]       # RC SEND LAST
    bad = bytearray(good[2])
    bad[-1] ^= 0xff                                              # one ICRC wrong
    good[2] = bytes(bad)
    out += good
    out += [raw(Ether(dst="02:1d:a3:00:00:01") / IP() / UDP(dport=9) / Raw(b"x" * 20))] * 3
    return out


def test_roce_summary():
    fr = frames()
    tpl = os.path.join(W, "roce.pcap")
    pcapfile.write_pcap(tpl, fr)
    cap = os.path.join(W, "rx.pcapng")
    r = run_ok(["--forward-mode=template", f"--template={tpl}", f"--packets={len(fr)}",
                "--stats-period=0", f"--capture=1:{cap}", "--capture-dir=rx"],
               json_path=os.path.join(W, "roce.json"))
    check_report_matches(r)
    s = r.report["captures"][0]["roce"]
    check(s["frames"] == 14, f"RoCE frames: {s['frames']}, expected 14 (3 plain UDP left out)")
    check(s["opcodes"] == {"RC_SEND_ONLY": 9, "RC_SEND_LAST": 5},
          f"opcodes: {s['opcodes']}")
    check(s["icrc_errors"] == 1, f"ICRC errors: {s['icrc_errors']}")
    check(s["psn_gaps"] == 1, f"PSN gaps: {s['psn_gaps']}")
    check(s["qps"] == 2 and s["errors"] == {}, f"QPs {s['qps']}, broken {s['errors']}")
    check("RoCE v2 in" in r.out and "ICRC errors 1, PSN gaps 1" in r.out,
          "no RoCE summary in the printed report")


if __name__ == "__main__":
    sys.exit(main("app_roce", [test_roce_summary]))
