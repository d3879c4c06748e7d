#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""roce_perftest against itself: two processes on net_gaudi_emu ports cabled over the `udp` wire
run the bandwidth tests (write, read, send, atomic) with the TCP exchange and with -R (perftest's
rdma_cm mode: the exchange over an RC connection of the RDMA CM, the test's QPs connected by
it), and a latency test each way. The client's report and the server's must name the same size
and iterations (write/read/atomic: the server prints the client's; send: its own count).
The interop test runs the same against perftest itself.

Environment: GAUDI_PMD, ROCE_PERFTEST (set by meson).
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
import example_procs  # noqa: E402
from example_procs import free_port, listening  # noqa: E402

ITERS = 40
REPORT_RE = re.compile(r'^\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$', re.M)
LAT_RE = re.compile(r'^\s+(\d+)\s+(\d+)' + r'\s+([\d.]+)' * 7 + r'\s*$', re.M)


def start(prefix, lcore, udp_local, udp_remote, args, log):
    return example_procs.start(os.environ['ROCE_PERFTEST'], prefix, lcore, udp_local,
                               udp_remote, args, log)


def pair(tmp, name, args, cm, lat, size, iters):
    """Server then client; returns a list of failures."""
    a, b, tcp = free_port(socket.SOCK_DGRAM), free_port(socket.SOCK_DGRAM), free_port(socket.SOCK_STREAM)
    common = [*args, '-n', str(ITERS), '-p', str(tcp)] + (['-R'] if cm else [])
    logs = {side: open(os.path.join(tmp, side + '.log'), 'w+') for side in ('server', 'client')}
    srv = start(f'pts{os.getpid()}', 0, a, b, common + ['--ip=10.0.0.1'], logs['server'])
    # The server is ready when it listens: a TCP socket, or (-R) the CM's listener it reports.
    for _ in range(400):
        if srv.poll() is not None:
            break
        if listening(tcp) if not cm else 'rdma_cm: listening' in open(logs['server'].name).read():
            break
        time.sleep(0.05)
    cli = start(f'ptc{os.getpid()}', 1, b, a,
                common + ['--ip=10.0.0.2', '10.0.0.1' if cm else '127.0.0.1'], logs['client'])
    bad, outs = [], {}
    for side, p in (('client', cli), ('server', srv)):
        try:
            p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            bad.append(f'{side} timed out')
        outs[side] = open(logs[side].name).read()
        logs[side].close()
        if p.returncode != 0:
            bad.append(f'{side} exited {p.returncode}')
    want = [(size, iters)]
    if lat:
        for side in ('client', 'server'):
            got = [(int(m[0]), int(m[1])) for m in LAT_RE.findall(outs[side])]
            if got != want:
                bad.append(f'{side} reported latencies {got}, expected {want}')
    else:
        c = [(int(m[0]), int(m[1])) for m in REPORT_RE.findall(outs['client'])]
        s = [(int(m[0]), int(m[1])) for m in REPORT_RE.findall(outs['server'])]
        if c != want or s != want:
            bad.append(f'client reported {c}, server {s}, expected {want}')
    if cm:
        for side in ('client', 'server'):
            n = 2 if '-q' in args else 1
            # perftest's QP settings (DEF_QP_TIME 14, retry and RNR retry 7) on both sides.
            for said in (f'rdma_cm: connected {n} QP(s) to port {tcp} (ACK timeout 14, retry 7, '
                         'RNR retry 7)', f'rdma_cm: disconnected {n} QP(s) and '
                         "the exchange's"):
                if said not in outs[side]:
                    bad.append(f'{side} did not print {said!r}')
    if bad or os.environ.get('PERFTEST_VERBOSE'):
        for side, out in outs.items():
            print(f'--- {name} {side}:\n{out}')
    return bad


def main():
    runs = []
    only = os.environ.get('PERFTEST_ONLY', '')
    for cm in (False, True):
        tag = '-R' if cm else 'tcp'
        runs += [(f'write {tag}', ['--test=write', '-s', '65536'], cm, False, 65536, ITERS),
                 (f'read {tag}', ['--test=read', '-s', '5000'], cm, False, 5000, ITERS),
                 (f'send {tag}', ['--test=send', '-s', '4093'], cm, False, 4093, ITERS),
                 (f'atomic {tag}', ['--test=atomic'], cm, False, 8, ITERS),
                 (f'write -q 2 {tag}', ['--test=write', '-s', '4096', '-q', '2'], cm, False, 4096,
                  2 * ITERS),
                 (f'write_lat {tag}', ['--test=write_lat', '-s', '64'], cm, True, 64, ITERS)]
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        # Bad input (-R's, the peer options'): one line naming the option, exit status 1.
        for args, said in ((['--test=write', '-R', '-x', '0'], "-R: the RDMA CM's addresses are IPv4"),
                           (['--test=write', '-R', 'localhost'], '-R: the server is an IPv4 address, not localhost'),
                           (['--test=write', '--ip=10.0.0'], 'roce_perftest: --ip 10.0.0: not an IPv4 address'),
                           (['--test=write', '--peer-mac=02:00'],
                            'roce_perftest: --peer-mac 02:00: not a MAC address')):
            if only and only not in 'bad input':
                break
            a, b = free_port(socket.SOCK_DGRAM), free_port(socket.SOCK_DGRAM)
            with open(os.path.join(tmp, 'bad.log'), 'w+') as log:
                p = start(f'ptb{os.getpid()}', 0, a, b, args, log)
                rc = p.wait(timeout=60)
                out = open(log.name).read()
            ok = rc == 1 and said in out
            print(f'{"ok" if ok else "FAIL"} bad input {args}' +
                  ('' if ok else f': exit {rc}, output:\n{out}'), flush=True)
            if not ok:
                failed.append(f'bad input {args}')
        for name, args, cm, lat, size, iters in runs:
            if only not in name:
                continue
            bad = pair(tmp, name, args, cm, lat, size, iters)
            print(f'{"FAIL" if bad else "ok"} {name}' + (': ' + '; '.join(bad) if bad else ''),
                  flush=True)
            if bad:
                failed.append(name)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
