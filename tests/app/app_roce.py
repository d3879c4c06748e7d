#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gaudi-testpmd and RoCE v2.

- roce mode: UD SEND, RC SEND, RC RDMA WRITE and RC RDMA READ streams through the project's
  RoCE transport between the two emulated ports: every message completes, the data arrives
  as sent, and the frames counted at both ends are the packets the messages need.
- The RoCE-aware capture summary: RoCE v2 frames (built with scapy, ICRC by scapy) replayed
  in template mode and captured on the receiving port; the summary at exit (and in the JSON
  report) counts them per opcode, finds the one missing PSN and the one bad ICRC, and leaves
  out the frames that are not RoCE.
"""
import os
import sys

from app_common import TX_PAD, check, check_report_matches, main, pcapfile, run_ok, workdir

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


def test_roce_modes():
    n, mtu = 500, 1024
    for op, msg in (("rc-write", 3000), ("rc-send", 3000), ("rc-read", 3000), ("ud-send", 1000)):
        r = run_ok(["--forward-mode=roce", f"--roce-op={op}", f"--roce-msg={msg}",
                    f"--roce-mtu={mtu}", "--roce-depth=16", f"--packets={n}",
                    "--stats-period=0"], json_path=os.path.join(W, f"{op}.json"))
        check_report_matches(r)
        j = r.report["roce"]
        check(j["completed"] == n and j["errors"] == 0 and j["data_ok"] and j["error"] == "",
              f"{op}: {j}")
        if op.endswith("send"):
            check(j["responder_receives"] == n, f"{op}: responder got {j['responder_receives']}")
        pkts = n * -(-msg // mtu)   # packets per message: ceil(msg / MTU)
        req, resp = r.port(0), r.port(1)
        data_from, data_to = (resp, req) if op == "rc-read" else (req, resp)
        check(data_from["tx_packets"] == pkts and data_to["rx_packets"] == pkts,
              f"{op}: {pkts} data packets expected, sent {data_from['tx_packets']}, "
              f"received {data_to['rx_packets']}")
        # Every packet crosses; short ones (ACKs) arrive padded to 187 bytes by the sending
        # Gaudi port (TX_PAD), so the receiving end counts at most that much more.
        for a, b in ((req, resp), (resp, req)):
            extra = b["rx_bytes"] - a["tx_bytes"]
            check(a["tx_packets"] == b["rx_packets"] and
                  0 <= extra <= a["tx_packets"] * (TX_PAD - 42),
                  f"{op}: {a['tx_packets']} packets / {a['tx_bytes']} bytes sent, "
                  f"{b['rx_packets']} / {b['rx_bytes']} received")
        if op == "rc-read":
            check(req["tx_packets"] == n,
                  f"rc-read: {req['tx_packets']} READ requests for {n} messages")


def test_roce_large_mtu():
    # The path MTU asked for is the one the packets use (2048 and 4096 ran a size short: the
    # port MTU the app set left the RoCE layer too little room).
    n, msg = 100, 8192
    for mtu in (2048, 4096):
        r = run_ok(["--forward-mode=roce", "--roce-op=rc-write", f"--roce-msg={msg}",
                    f"--roce-mtu={mtu}", "--roce-depth=8", f"--packets={n}",
                    "--stats-period=0"], json_path=os.path.join(W, f"mtu{mtu}.json"))
        j = r.report["roce"]
        check(j["completed"] == n and j["data_ok"] and j["mtu"] == mtu, f"mtu {mtu}: {j}")
        sent = r.port(0)["tx_packets"]
        check(sent == n * (msg // mtu), f"--roce-mtu={mtu}: {sent} WRITE packets for {n} "
              f"messages of {msg} bytes, {n * (msg // mtu)} at that MTU")


if __name__ == "__main__":
    sys.exit(main("app_roce", [test_roce_summary, test_roce_modes, test_roce_large_mtu]))
