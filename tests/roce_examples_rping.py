#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""roce_rping's summary line against what crossed the wire: its client and server in one process
(--loop, a net_gaudi_emu pair) with --pcap (port 0, the server's, sees both directions), the
capture parsed here (Ethernet / IPv4 / UDP 4791 / BTH and its extension headers, IBA 9.2-9.3).

- rping (-C 3, -S 64 and 5000): "rping: N pings of S bytes, server answered N"; per ping the
  server RDMA READs S bytes from the client and RDMA WRITEs S back (rping.c: remote_len, and
  strlen + 1 of a buffer of S - 1 characters), so N READ requests and N WRITEs of S bytes (their
  RETH's DMA length).
- --msg (rdma_server / rdma_client's exchange): "rdma_client: 1 message(s) of 16 bytes,
  rdma_server answered 1": one SEND of 16 bytes each way (rdma_client.c's send_msg[16]),
  whatever -S says.
- --ud (udaddy's): "udaddy: 10 pings of 100 bytes, server answered 10": 10 UD SEND-with-
  immediates of 100 bytes each way (not counting QP1's CM MADs).
A retransmitted packet (same source, destination QP and PSN) counts once.

Then a server and a client as two processes (one emulated port each, cabled over the udp wire):
- -s --msg / -c --msg: the server's lines name it rdma_server (its listening line included);
- server -S 64, client -S 5000: the server refuses with one line naming its -S (64) and the
  client's buffer (5000 bytes); both exit 1 (the client did not get its ping).

Environment: GAUDI_PMD, ROCE_RPING (set by meson).
"""
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from example_procs import free_port, start  # noqa: E402

SERVER_IP = '10.0.0.1'  # --loop: the server on port 0, the client (10.0.0.2) on port 1

# BTH opcodes (IBA 9.2, table 38) and the extension headers after the BTH, in bytes.
RC_SEND_ONLY, RC_WRITE_FIRST, RC_WRITE_ONLY, RC_READ_REQUEST = 0x04, 0x06, 0x0a, 0x0c
UD_SEND_ONLY, UD_SEND_ONLY_IMM = 0x64, 0x65
EXT_LEN = {RC_SEND_ONLY: 0, RC_WRITE_FIRST: 16, RC_WRITE_ONLY: 16, RC_READ_REQUEST: 16,
           UD_SEND_ONLY: 8, UD_SEND_ONLY_IMM: 12}


def packets(path):
    """(source IP, opcode, destination QP, PSN, RETH DMA length or None, payload bytes) of every
    RoCE v2 packet of the capture whose opcode EXT_LEN knows; each (source, QP, PSN) once."""
    data = open(path, 'rb').read()
    order = '<' if data[:4] == b'\xd4\xc3\xb2\xa1' else '>'
    seen, out, off = set(), [], 24
    while off + 16 <= len(data):
        caplen = struct.unpack_from(order + 'I', data, off + 8)[0]
        f = data[off + 16:off + 16 + caplen]
        off += 16 + caplen
        if len(f) < 14 + 20 + 8 + 12 or f[12:14] != b'\x08\x00' or f[23] != 17:
            continue
        ip = f[14:]
        ihl = (ip[0] & 15) * 4
        udp = ip[ihl:]
        dport, ulen = struct.unpack_from('>HH', udp, 2)
        if dport != 4791:
            continue
        bth = udp[8:20]
        op, pad = bth[0], (bth[1] >> 4) & 3
        qp = int.from_bytes(bth[5:8], 'big')
        psn = int.from_bytes(bth[9:12], 'big') & 0xffffff
        if op not in EXT_LEN:
            continue
        src = '.'.join(str(b) for b in ip[12:16])
        if (src, qp, psn) in seen:
            continue
        seen.add((src, qp, psn))
        ext = udp[20:20 + EXT_LEN[op]]
        dma_len = struct.unpack_from('>I', ext, 12)[0] if op in (RC_WRITE_FIRST, RC_WRITE_ONLY,
                                                                  RC_READ_REQUEST) else None
        payload = ulen - 8 - 12 - EXT_LEN[op] - 4 - pad
        out.append((src, op, qp, psn, dma_len, payload))
    return out


def run(args, pcap):
    cmd = [os.environ['ROCE_RPING'], '--no-huge', '-m', '512', '--no-shconf', '--no-pci',
           '--iova-mode=va', f'--file-prefix=rpsum{os.getpid()}', '--log-level=lib.eal:warning',
           '-d', os.environ['GAUDI_PMD'], '--vdev', 'net_gaudi_emu0,ports=2,wire=pair', '--',
           '--loop', f'--pcap={pcap}', *args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


def pair(tmp, server_args, client_args):
    """Server (10.0.0.1) then client (10.0.0.2) as two processes: their exit statuses and
    outputs; the server is started first and the client once it says it listens."""
    a, b = free_port(socket.SOCK_DGRAM), free_port(socket.SOCK_DGRAM)
    port = str(free_port(socket.SOCK_STREAM))  # the RDMA CM's port (-p), on the emulated wire
    logs = {side: open(os.path.join(tmp, side + '.log'), 'w+') for side in ('server', 'client')}
    exe = os.environ['ROCE_RPING']
    srv = start(exe, f'rps{os.getpid()}', 0, a, b,
                ['-s', '-a', '10.0.0.1', '-p', port, *server_args], logs['server'])
    for _ in range(400):
        if srv.poll() is not None or 'listening' in open(logs['server'].name).read():
            break
        time.sleep(0.05)
    cli = start(exe, f'rpc{os.getpid()}', 1, b, a,
                ['-c', '-a', '10.0.0.1', '--ip=10.0.0.2', '-p', port, *client_args],
                logs['client'])
    rcs, outs = {}, {}
    for side, p in (('client', cli), ('server', srv)):
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        rcs[side] = p.returncode
        outs[side] = open(logs[side].name).read()
        logs[side].close()
    return rcs, outs


def main():
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        for args, summary_re in (
                (['-C', '3', '-S', '64'], r'^rping: (\d+) pings of (\d+) bytes, server answered '
                                          r'(\d+)$'),
                (['-C', '3', '-S', '5000'], r'^rping: (\d+) pings of (\d+) bytes, server '
                                            r'answered (\d+)$'),
                (['--msg', '-S', '100'], r'^rdma_client: (\d+) message\(s\) of (\d+) bytes, '
                                         r'rdma_server answered (\d+)$'),
                (['--ud'], r'^udaddy: (\d+) pings of (\d+) bytes, server answered (\d+)$')):
            pcap = os.path.join(tmp, 'rping.pcap')
            rc, out = run(args, pcap)
            m = re.search(summary_re, out, re.M)
            bad = []
            if rc != 0:
                bad.append(f'exit {rc}')
            if not m:
                bad.append(f'no summary line matching {summary_re!r}')
            else:
                n, size, answered = (int(x) for x in m.groups())
                pk = packets(pcap)
                from_client = [p for p in pk if p[0] != SERVER_IP]
                from_server = [p for p in pk if p[0] == SERVER_IP]
                if '--msg' in args:
                    want = ('SENDs', [16] * n, [16] * answered, 16)
                    got = ([p[5] for p in from_client if p[1] == RC_SEND_ONLY],
                           [p[5] for p in from_server if p[1] == RC_SEND_ONLY])
                elif '--ud' in args:  # QP1 (the CM's MADs) left out
                    want = ('UD SENDs', [size] * n, [size] * answered, 100)
                    got = ([p[5] for p in from_client if p[1] == UD_SEND_ONLY_IMM and p[2] != 1],
                           [p[5] for p in from_server if p[1] == UD_SEND_ONLY_IMM and p[2] != 1])
                else:  # the server READs and WRITEs; the client only SENDs
                    want = ('READs, WRITEs', [size] * n, [size] * answered,
                            int(args[args.index('-S') + 1]))
                    got = ([p[4] for p in from_server if p[1] == RC_READ_REQUEST],
                           [p[4] for p in from_server if p[1] in (RC_WRITE_FIRST, RC_WRITE_ONLY)])
                what, a, b, size_given = want
                if n != (10 if '--ud' in args else 1 if '--msg' in args else 3) or answered != n:
                    bad.append(f'summary says {n} and {answered}')
                if size != size_given:
                    bad.append(f'summary says {size} bytes, the messages are {size_given}')
                if list(got) != [a, b]:
                    bad.append(f'{what} on the wire: {got[0][:12]} and {got[1][:12]}, the summary '
                               f'implies {a[:12]} and {b[:12]}')
            print(f'{"FAIL" if bad else "ok"} roce_rping --loop {" ".join(args)}: '
                  + ('; '.join(bad) + f'\n{out}' if bad else m.group(0)), flush=True)
            if bad:
                failed.append(' '.join(args))
    with tempfile.TemporaryDirectory() as tmp:
        rcs, outs = pair(tmp, ['--msg'], ['--msg'])
        srv = outs['server']
        ok = (rcs == {'client': 0, 'server': 0} and
              re.search(r'^rdma_server: listening on 10\.0\.0\.1 port \d+$', srv, re.M) and
              'rdma_server: 1 message(s) of 16 bytes each way' in srv and 'rping' not in srv)
        print(f'{"ok" if ok else "FAIL"} roce_rping -s --msg / -c --msg: exits {rcs}, the server '
              f'named rdma_server' + ('' if ok else f'\n{srv}\n{outs["client"]}'), flush=True)
        if not ok:
            failed.append('-s --msg')

        rcs, outs = pair(tmp, ['-S', '64'], ['-S', '5000', '-C', '1'])
        said = [line for line in outs['server'].splitlines()
                if "roce_rping: -S 64: the client's buffer (5000 bytes) is larger" in line]
        ok = rcs == {'client': 1, 'server': 1} and len(said) == 1
        print(f'{"ok" if ok else "FAIL"} roce_rping -s -S 64 / -c -S 5000: exits {rcs}, '
              f'{said}' + ('' if ok else f'\n{outs["server"]}\n{outs["client"]}'), flush=True)
        if not ok:
            failed.append('-S 64 / -S 5000')
    print(f'{len(failed)} failed' if failed else 'all ok')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
