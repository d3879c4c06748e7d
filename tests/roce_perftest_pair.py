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

ITERS = 40
REPORT_RE = re.compile(r'^\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$', re.M)
LAT_RE = re.compile(r'^\s+(\d+)\s+(\d+)' + r'\s+([\d.]+)' * 7 + r'\s*$', re.M)


def free_port(kind):
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def start(prefix, lcore, udp_local, udp_remote, args, log):
    cmd = [os.environ['ROCE_PERFTEST'], '--no-huge', '-m', '512', '--no-shconf', '--no-pci',
           '--iova-mode=va', '-l', str(lcore), '--file-prefix', prefix,
           '--log-level=lib.eal:warning', '-d', os.environ['GAUDI_PMD'], '--vdev',
           f'net_gaudi_emu0,ports=1,wire=udp,udp_local=0:127.0.0.1:{udp_local},'
           f'udp_remote=0:127.0.0.1:{udp_remote}', '--', *args]
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, text=True)


def listening(port):
    for line in open('/proc/net/tcp').read().splitlines()[1:]:
        f = line.split()
        if f[3] == '0A' and int(f[1].rsplit(':', 1)[1], 16) == port:
            return True
    return False


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
            if 'rdma_cm: connected' not in outs[side]:
                bad.append(f'{side} did not report its RDMA CM connection')
    if bad:
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
