#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end: the Linux kernel pings a net_gaudi_emu port cabled to a TAP (wire=tap).

For each engine (inline, thread): stock dpdk-testpmd in icmpecho mode (it answers every ARP
request and ICMP echo request it receives) on `net_gaudi_emu0,ports=1,wire=tap`. The TAP is
moved into a private network namespace (the host's routing is never touched), given
192.168.77.1/24, and the kernel pings 192.168.77.2: ARP is answered by testpmd, then 3 echo
requests must get 3 replies. `ping` is used when installed, else an ICMP raw socket (this
script, run inside the namespace). With tshark, the replies are also seen on the TAP.
testpmd's counters must show the frames both ways and no errors.

Needs root, /dev/net/tun and `ip` (iproute2) with network namespaces; exits 77 (skip)
otherwise. Environment: GAUDI_PMD (the built librte_net_gaudi_emu.so; it loads
librte_net_gaudi.so), GAUDI_ENGINES.
"""
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time

from e2e_common import SKIP, Fail, check, engines, finish, gaudi_pmd
from testpmd_session import TestPmd, TestPmdError

HOST_IP, PORT_IP = "192.168.77.1", "192.168.77.2"
COUNT = 3


def sh(*args, check_rc=True, timeout=30):
    r = subprocess.run(list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout)
    out = r.stdout.decode(errors="replace")
    if check_rc and r.returncode != 0:
        raise Fail(f"{' '.join(args)}: exit {r.returncode}: {out.strip()}")
    return out


def skip_reason():
    if os.geteuid() != 0:
        return "needs root (TAP creation, network namespaces)"
    try:
        os.close(os.open("/dev/net/tun", os.O_RDWR))
    except OSError as e:
        return f"/dev/net/tun unavailable: {e}"
    if shutil.which("ip") is None:
        return "no 'ip' (iproute2)"
    ns = f"gaudi-probe-{os.getpid()}"
    r = subprocess.run(["ip", "netns", "add", ns], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    if r.returncode != 0:
        return f"cannot create a network namespace: {r.stdout.decode(errors='replace').strip()}"
    subprocess.run(["ip", "netns", "del", ns])
    return None


# ---- the fallback pinger: `tap_ping.py --ping ADDR COUNT`, run inside the namespace ----

def icmp_checksum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack(f"!{len(b) // 2}H", b))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def raw_ping(addr, count, timeout=2.0):
    """Sends count echo requests, one at a time; prints a ping-like summary line."""
    sk = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    ident = os.getpid() & 0xFFFF
    received = 0
    for seq in range(1, count + 1):
        payload = bytes((seq + i) & 0xFF for i in range(56))
        req = struct.pack("!BBHHH", 8, 0, 0, ident, seq) + payload
        req = req[:2] + struct.pack("!H", icmp_checksum(req)) + req[4:]
        t0 = time.monotonic()
        sk.sendto(req, (addr, 0))
        while True:
            left = timeout - (time.monotonic() - t0)
            if left <= 0:
                print(f"seq={seq} timeout")
                break
            sk.settimeout(left)
            try:
                data, src = sk.recvfrom(4096)
            except socket.timeout:
                continue
            ihl = (data[0] & 0xF) * 4
            typ, code, _, rid, rseq = struct.unpack("!BBHHH", data[ihl:ihl + 8])
            if src[0] == addr and typ == 0 and code == 0 and rid == ident and rseq == seq:
                if data[ihl + 8:] != payload:
                    print(f"seq={seq} reply with other payload")
                    break
                print(f"{len(data) - ihl} bytes from {addr}: icmp_seq={seq} "
                      f"time={(time.monotonic() - t0) * 1000:.2f} ms")
                received += 1
                break
        time.sleep(0.2)
    print(f"{count} packets transmitted, {received} received")
    return 0 if received == count else 1


# ---- the test ----

def ping(ns, tshark_ok):
    cap = None
    if tshark_ok:
        cap = subprocess.Popen(["ip", "netns", "exec", ns, "tshark", "-l", "-n", "-i",
                                TAP, "-f", "icmp", "-a", "duration:60"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # tshark says "Capturing on ..." on stderr once the capture runs.
        end = time.monotonic() + 15
        line = b""
        while time.monotonic() < end and b"Capturing on" not in line:
            line = cap.stderr.readline()
            if not line:
                break
        if b"Capturing on" not in line:
            cap.kill()
            cap.wait()
            print("  tshark did not start: capture check skipped")
            cap = None
        else:
            time.sleep(1.0)     # "Capturing on" can come just before the capture is live
    if shutil.which("ping"):
        out = sh("ip", "netns", "exec", ns, "ping", "-n", "-c", str(COUNT), "-W", "2",
                 "-i", "0.2", PORT_IP, check_rc=False)
        tool = "ping"
    else:
        out = sh("ip", "netns", "exec", ns, sys.executable, os.path.abspath(__file__),
                 "--ping", PORT_IP, str(COUNT), check_rc=False)
        tool = "raw socket"
    print("  " + "\n  ".join(out.strip().splitlines()))
    check(f"{COUNT} received" in out, f"{tool}: not {COUNT} replies")
    if cap is not None:
        time.sleep(1.0)
        cap.send_signal(signal.SIGINT)
        try:
            text, _ = cap.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            cap.kill()
            text, _ = cap.communicate()
        text = text.decode(errors="replace")
        requests = [ln for ln in text.splitlines() if "Echo (ping) request" in ln]
        replies = [ln for ln in text.splitlines() if "Echo (ping) reply" in ln]
        print(f"  tshark on {TAP}: {len(requests)} echo requests, {len(replies)} replies")
        # The capture may start a little late; every request it saw must have its reply.
        check(len(replies) == len(requests) >= COUNT - 1,
              f"tshark saw {len(requests)} requests, {len(replies)} replies:\n{text}")


def run(engine, pmd, ns, tshark_ok):
    vdev = f"net_gaudi_emu0,ports=1,wire=tap,tap_name=0:{TAP},engine={engine}"
    with TestPmd([vdev], pmd_path=pmd, app_args=["--forward-mode=icmpecho"]) as tp:
        try:
            mac = sh("ip", "-br", "link", "show", TAP).split()[2]
            check(mac != "02:1d:a3:00:00:00", f"TAP MAC {mac} is the port's")
            sh("ip", "link", "set", TAP, "netns", ns)
            sh("ip", "-n", ns, "addr", "add", f"{HOST_IP}/24", "dev", TAP)
            sh("ip", "-n", ns, "link", "set", TAP, "up")
            tp.cmd("start")
            ping(ns, tshark_ok)
            time.sleep(0.3)
            s = tp.port_stats()[0]
            tp.cmd("stop")
            tp.quit()
        except (Fail, TestPmdError):
            print(tp.transcript[-3000:])
            raise
    # ARP request + COUNT echo requests in (IPv6 noise may add more); the same out.
    check(s["RX-packets"] >= COUNT + 1, f"RX-packets {s['RX-packets']} < {COUNT + 1}")
    check(s["TX-packets"] >= COUNT + 1, f"TX-packets {s['TX-packets']} < {COUNT + 1}")
    for k in ("RX-errors", "RX-missed", "RX-nombuf", "TX-errors"):
        check(s[k] == 0, f"{k} = {s[k]}")
    return s


TAP = f"gtap{os.getpid() % 100000}"


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--ping":
        return raw_ping(sys.argv[2], int(sys.argv[3]))
    why = skip_reason()
    if why:
        print(f"SKIP: {why}")
        return SKIP
    pmd = gaudi_pmd()
    tshark_ok = shutil.which("tshark") is not None
    passed = failed = 0
    for engine in engines():
        ns = f"gaudi-tap-{os.getpid()}"
        sh("ip", "netns", "add", ns)
        try:
            sh("ip", "-n", ns, "link", "set", "lo", "up")
            s = run(engine, pmd, ns, tshark_ok)
            print(f"ok    {engine:6} rx={s['RX-packets']} tx={s['TX-packets']}")
            passed += 1
        except (Fail, TestPmdError, subprocess.TimeoutExpired) as e:
            print(f"FAIL  {engine:6}: {e}")
            failed += 1
        finally:
            subprocess.run(["ip", "netns", "del", ns])
        sys.stdout.flush()
    return finish(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
