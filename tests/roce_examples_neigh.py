#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""roce_pingpong without --peer-mac: two processes on net_gaudi_emu ports cabled over the
`udp` wire resolve each other's GID to a MAC (ARP for -g 1, IPv6 NS/NA for -g 0) and run RC
pingpong; and a client whose peer (a fake TCP server here) names a GID nobody answers for
exits 1 with the "No ARP reply" message after its bounded wait.

Environment: GAUDI_PMD, ROCE_PINGPONG (set by meson).
"""
import os
import re
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
import example_procs  # noqa: E402
from example_procs import free_port, listening  # noqa: E402

EMU_MAC = '02:1d:a3:00:00:00'  # port 0 of every net_gaudi_emu instance
ITERS = 50
SIZE = 4093


def start(prefix, lcore, udp_local, udp_remote, args):
    return example_procs.start(os.environ['ROCE_PINGPONG'], prefix, lcore, udp_local,
                               udp_remote, args)


def pair(gid_idx):
    """Server and client; returns a list of failures."""
    a, b, tcp = free_port(socket.SOCK_DGRAM), free_port(socket.SOCK_DGRAM), free_port(socket.SOCK_STREAM)
    common = ['-T', 'rc', '-s', str(SIZE), '-n', str(ITERS), '-g', str(gid_idx), '-c', '-p', str(tcp)]
    srv = start(f'nsrv{gid_idx}', 0, a, b, common)
    for _ in range(200):
        if listening(tcp) or srv.poll() is not None:
            break
        time.sleep(0.05)
    cli = start(f'ncli{gid_idx}', 1, b, a, common + ['127.0.0.1'])
    bad = []
    outs = {}
    for name, p in (('client', cli), ('server', srv)):
        try:
            out, _ = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            out, _ = p.communicate()
            bad.append(f'{name} timed out')
        outs[name] = out
        if p.returncode != 0:
            bad.append(f'{name} exited {p.returncode}')
        # Each side resolved the other's GID (IPv4: 10.0.0.1 server, 10.0.0.2 client).
        peer = ('10.0.0.2' if name == 'server' else '10.0.0.1') if gid_idx == 1 else 'fe80::1d:a3ff:fe00:0'
        if f'peer MAC {EMU_MAC} (resolved for {peer})' not in out:
            bad.append(f'{name} did not report resolving {peer} to {EMU_MAC}')
        got = [int(x) for x in re.findall(r'^(\d+) bytes in ', out, re.M)]
        if got != [SIZE * ITERS * 2]:
            bad.append(f'{name} reported bytes {got}, expected {SIZE * ITERS * 2}')
    if bad:
        for name, out in outs.items():
            print(f'--- {name} (-g {gid_idx}):\n{out}')
    return bad


def no_answer():
    """Client against a fake server whose GID (10.0.0.9) nobody answers ARP for."""
    tcp = free_port(socket.SOCK_STREAM)
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(('127.0.0.1', tcp))
    ls.listen(1)

    def fake_server():
        c, _ = ls.accept()
        with c:
            c.recv(52)
            c.sendall(b'0000:000100:000001:00000000000000000000ffff0a000009\0')
            c.settimeout(20)
            try:
                while c.recv(64):
                    pass
            except OSError:
                pass
    t = threading.Thread(target=fake_server, daemon=True)
    t.start()
    # The cable leads to a UDP port nobody reads.
    p = start('nnone', 1, free_port(socket.SOCK_DGRAM), free_port(socket.SOCK_DGRAM),
              ['-p', str(tcp), '127.0.0.1'])
    t0 = time.monotonic()
    try:
        out, _ = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
    took = time.monotonic() - t0
    ls.close()
    bad = []
    if p.returncode != 1:
        bad.append(f'no-answer client exited {p.returncode}, expected 1')
    if 'No ARP reply from 10.0.0.9 within 5000 ms' not in out:
        bad.append('no-answer client did not print the "No ARP reply" message')
    if 'bytes in' in out:
        bad.append('no-answer client ran the pingpong')
    if bad:
        print(f'--- no-answer client ({took:.1f} s):\n{out}')
    return bad


def main():
    bad = []
    for g in (1, 0):
        f = pair(g)
        print(f'{"PASS" if not f else "FAIL"} pingpong -g {g} with resolution: {"; ".join(f) or "ok"}')
        bad += f
    f = no_answer()
    print(f'{"PASS" if not f else "FAIL"} unanswered resolution: {"; ".join(f) or "ok"}')
    bad += f
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
