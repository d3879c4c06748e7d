#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Interop test: our RoCE v2 transport against Linux Soft-RoCE (rdma_rxe) and rdma-core's own
tools (ibv_rc_pingpong, ibv_ud_pingpong, perftest) in a QEMU guest, over an emulated Gaudi port.

Our side runs on the host: examples/roce_pingpong and examples/roce_perftest on a
net_gaudi_emu port whose `udp` wire is cabled to the guest NIC. Each run is done with each
side as server and as client; it passes when both sides exit 0 and report the same byte count
(the one the parameters imply). On failure our side's capture (--pcap) is kept next to the
log and decoded with examples/roce_decode.

Environment: GAUDI_PMD, ROCE_PINGPONG, ROCE_PERFTEST, ROCE_RPING, ROCE_DECODE (set by meson);
INTEROP_CACHE (guest cache; default INTEROP_DEFAULT_CACHE, under the build dir);
INTEROP_OUT (logs and captures); INTEROP_ONLY (regex on run names); INTEROP_KEEP_PCAP=1 keeps
the captures of passed runs too.
Exit status 77 (skip) only when qemu or Debian's kernel package cannot be had.

The guest, a small Linux with Soft-RoCE under QEMU TCG built from Debian packages, is in
interop_guest.py; our side (an example on a net_gaudi_emu port) and the Runner in
interop_runner.py.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

# The guest (interop_guest.py) and our side and the runs (interop_runner.py), beside this file.
from interop_guest import (GUEST_IP, GUEST_NETDEV_MTU, Guest, GuestError, HOST_IP, TC,
                           build_initramfs, fetch_kernel, free_tcp_port, free_udp_port)
from interop_runner import (CLOCK_WARNING_RE, GUEST_TCP, OUR_MAC, REPORT_RE, SKIP, Runner,
                            bytes_reported, client_bw, cm_pair, exit_problems)


def check_rping(guest_is_server):
    """Both exit 0; the client saw all pings come back intact (-V), the server served them:
    rping -v prints one 'ping data:' line per ping on the client, 'server ping data:' on the
    server; ours prints 'rping client|server: N pings'."""
    def check(rc, our_out, gst, guest_out, count):
        bad = exit_problems(rc, gst)
        if 'data mismatch' in our_out + guest_out:
            bad.append('data mismatch')
        guest_lines = len(re.findall(r'^server ping data: rdma-ping-\d+: ' if guest_is_server
                                     else r'^ping data: rdma-ping-\d+: ', guest_out, re.M))
        m = re.search(r'^rping (?:client|server): (\d+) pings', our_out, re.M)
        ours_n = int(m.group(1)) if m else None
        if guest_lines != count or ours_n != count:
            bad.append(f'pings: guest printed {guest_lines}, ours {ours_n}, expected {count}')
        if bad:
            return False, '; '.join(bad)
        return True, f'{count} pings, data validated by the client'
    return check


def rping_runs(r: Runner, exe):
    """librdmacm's rping against ours (examples/roce_rping): RDMA CM connection set-up (REQ,
    REP, RTU), the SEND / RDMA READ / RDMA WRITE ping loop, DREQ/DREP teardown."""
    count, size = 10, 64
    for size in (64, 5000):
        ours_srv = ['-s', '-a', HOST_IP, '-S', str(size), '-v']
        ours_cli = ['-c', '-a', GUEST_IP, f'--ip={HOST_IP}', '-S', str(size), '-C', str(count),
                    '-V', '-v']
        cm_pair(r, f'rping-guest_server-S{size}',
                f'rping -s -a {GUEST_IP} -S {size} -v', exe, ours_cli, True, count,
                check_rping(True))
        cm_pair(r, f'rping-guest_client-S{size}',
                f'rping -c -a {HOST_IP} -S {size} -C {count} -V -v', exe, ours_srv, False,
                count, check_rping(False))
    # librdmacm's rdma_server / rdma_client (rdma_create_ep, inline SENDs, port 7471).
    cm_pair(r, 'rdma_server-guest_server', f'rdma_server -s {GUEST_IP}', exe,
            ['--msg', '-c', '-a', GUEST_IP, f'--ip={HOST_IP}'], True, 1, check_rdma_msg)
    cm_pair(r, 'rdma_client-guest_client', f'rdma_client -s {HOST_IP}', exe,
            ['--msg', '-s', '-a', HOST_IP], False, 1, check_rdma_msg)
    # udaddy: UD over the RDMA CM (port space UDP, SIDR_REQ / SIDR_REP), 10 x 100 bytes.
    cm_pair(r, 'udaddy-guest_server', 'udaddy', exe,
            ['--ud', '-c', '-a', GUEST_IP, f'--ip={HOST_IP}'], True, 10, check_udaddy)
    cm_pair(r, 'udaddy-guest_client', f'udaddy -s {HOST_IP}', exe,
            ['--ud', '-s', '-a', HOST_IP], False, 10, check_udaddy)


def check_rdma_msg(rc, our_out, gst, guest_out, expect):
    """rdma_server / rdma_client: each prints 'end 0' when its SEND completed and the peer's
    message arrived; ours prints '1 message(s) of 16 bytes each way' for the same."""
    bad = []
    if rc != 0:
        bad.append(f'ours exited {rc}')
    if gst != 0 or not re.search(r'^rdma_(server|client): end 0$', guest_out, re.M):
        bad.append(f'guest exited {gst}: {guest_out.strip().splitlines()[-1:]}')
    if not re.search(r'^rdma_(client|server): 1 message\(s\) of 16 bytes each way$', our_out,
                     re.M):
        bad.append('ours did not complete the exchange')
    if bad:
        return False, '; '.join(bad)
    return True, 'one 16-byte SEND each way, both disconnected'


def check_udaddy(rc, our_out, gst, guest_out, count):
    """udaddy: SIDR gives the client the server's QPN and Q_Key, the client sends `count` UD
    messages, the server answers with as many; udaddy ends with 'return status 0', ours with
    'udaddy client|server: N pings'."""
    bad = []
    if rc != 0:
        bad.append(f'ours exited {rc}')
    if gst != 0 or 'return status 0' not in guest_out:
        bad.append(f'guest exited {gst}: {guest_out.strip().splitlines()[-2:]}')
    m = re.search(r'^udaddy (?:client|server): (\d+) pings', our_out, re.M)
    if not m or int(m.group(1)) != count:
        bad.append(f'ours: {m.group(0) if m else "no summary"}, expected {count} messages')
    if bad:
        return False, '; '.join(bad)
    return True, f'SIDR resolved the QPN, {count} UD messages each way'


def check_pingpong(rc, our_out, gst, guest_out, expect):
    ours_b, guest_b = bytes_reported(our_out), bytes_reported(guest_out)
    bad = exit_problems(rc, gst)
    if 'invalid data' in our_out or 'invalid data' in guest_out:
        bad.append('-c found invalid data')
    if ours_b != [expect] or guest_b != [expect]:
        bad.append(f'bytes ours {ours_b} guest {guest_b}, expected {expect}')
    if bad:
        return False, '; '.join(bad)
    return True, f'{expect} bytes each side'


def pingpong_runs(r: Runner, exe):
    def both_ways(kind, params, gcmd, args, expect):
        """The exchange with the guest's tool as server, then as client (ours the other end)."""
        r.pair(f'{kind}-guest_server-{params}', gcmd, exe, args, True, expect, check_pingpong)
        r.pair(f'{kind}-guest_client-{params}', gcmd + ' 10.0.2.2 -p @PORT@', exe, args, False,
               expect, check_pingpong)

    iters = 20
    # RC: sizes with and without pad bytes, one and several packets, path MTU 1024 and 4096.
    for mtu, sizes in ((1024, (1, 1021, 4096, 10001)), (4096, (4093, 10001))):
        for size in sizes:
            args = ['-T', 'rc', '-s', str(size), '-m', str(mtu), '-n', str(iters), '-g', '1', '-c',
                    f'--ip={HOST_IP}']
            gcmd = f'ibv_rc_pingpong -d rxe0 -g 1 -s {size} -m {mtu} -n {iters} -c'
            expect = size * iters * 2
            both_ways('rc_pingpong', f'mtu{mtu}-s{size}', gcmd, args, expect)
    # SRQ: several RC QPs whose receives all come from one shared receive queue on each side
    # (srq_pingpong.c: -n counts all QPs' messages together).
    for qps, mtu, size in ((16, 1024, 4096), (4, 4096, 10001)):
        iters = 200
        args = ['--srq', '-q', str(qps), '-s', str(size), '-m', str(mtu), '-n', str(iters),
                '-g', '1', '-c', f'--ip={HOST_IP}']
        gcmd = f'ibv_srq_pingpong -d rxe0 -g 1 -q {qps} -s {size} -m {mtu} -n {iters} -c'
        expect = size * iters * 2
        both_ways('srq_pingpong', f'q{qps}-mtu{mtu}-s{size}', gcmd, args, expect)
    iters = 20
    # RoCE v2 over IPv6: GID index 0, the link-local addresses from the MACs, on both sides.
    size, mtu = 4093, 1024
    args = ['-T', 'rc', '-s', str(size), '-m', str(mtu), '-n', str(iters), '-g', '0', '-c',
            f'--ip={HOST_IP}']
    gcmd = f'ibv_rc_pingpong -d rxe0 -g 0 -s {size} -m {mtu} -n {iters} -c'
    both_ways('rc_pingpong_ipv6', f'mtu{mtu}-s{size}', gcmd, args, size * iters * 2)
    # UD: messages go at the port's active MTU (ibv_ud_pingpong has no -m); the guest's
    # netdev MTU sets rxe's (1500: 1024, 4200: 4096), ours is given with -m.
    for mtu, netdev_mtu, sizes in ((1024, 1500, (1, 1021, 1024)), (4096, GUEST_NETDEV_MTU, (2049, 4093))):
        r.g.sh(f'ip link set {r.g.roce_dev} mtu {netdev_mtu}')
        for size in sizes:
            args = ['-T', 'ud', '-s', str(size), '-m', str(mtu), '-n', str(iters), '-g', '1', '-c',
                    f'--ip={HOST_IP}']
            gcmd = f'ibv_ud_pingpong -d rxe0 -g 1 -s {size} -n {iters} -c'
            expect = size * iters * 2
            both_ways('ud_pingpong', f'mtu{mtu}-s{size}', gcmd, args, expect)


def neighbour_check(r: Runner):
    """The guest learned our address from our ARP responder: a dynamic (not PERMANENT) entry
    with the emulated port's MAC; nothing static was ever added."""
    st, out = r.g.sh(f'ip -4 neigh show {HOST_IP} dev {r.g.roce_dev}')
    ok = st == 0 and f'lladdr {OUR_MAC}' in out and 'PERMANENT' not in out
    r.results.append(('neighbour-guest-learned-us', ok, out.strip()))
    print(f'{"PASS" if ok else "FAIL"} neighbour-guest-learned-us: {out.strip()}', flush=True)


def on_sigterm(signum, frame):
    # meson's timeout: unwind so that `finally` powers the guest off and no QEMU is left.
    raise SystemExit(f'killed by signal {signum}')


def main():
    signal.signal(signal.SIGTERM, on_sigterm)
    t_start = time.monotonic()
    if shutil.which('qemu-system-x86_64') is None:
        print('SKIP: qemu-system-x86_64 not installed (buildtools/setup-debian.sh installs '
              'qemu-system-x86)')
        return SKIP
    cache = Path(os.environ.get('INTEROP_CACHE') or os.environ.get('INTEROP_DEFAULT_CACHE')
                 or Path.cwd() / 'interop-cache')
    cache.mkdir(parents=True, exist_ok=True)
    default_cache = os.environ.get('INTEROP_DEFAULT_CACHE')
    out = Path(os.environ.get('INTEROP_OUT') or
               (Path(default_cache).parent if default_cache else Path.cwd()) / 'interop-runs')
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    try:
        vmlinuz, mods = fetch_kernel(cache)
    except (subprocess.CalledProcessError, GuestError) as e:
        err = e.stderr.strip() if isinstance(e, subprocess.CalledProcessError) else str(e)
        print(f'SKIP: Debian kernel package unavailable: {err}')
        return SKIP
    initrd = build_initramfs(cache, mods)
    print(f'guest: {vmlinuz.name}, initramfs {initrd.stat().st_size // 1024} KiB '
          f'({time.monotonic() - t_start:.1f} s)', flush=True)
    udp_ours, udp_guest, host_fwd = free_udp_port(), free_udp_port(), free_tcp_port()
    g = Guest(vmlinuz, initrd, udp_guest, udp_ours, {host_fwd: GUEST_TCP}, out / 'console.log')
    try:
        g.boot()
        g.wait_active()
        print(f'guest booted ({time.monotonic() - t_start:.1f} s)', flush=True)
        # No static neighbour entries: the guest resolves our address through our side's
        # ARP/ND responder, and our side resolves the guest's (examples/peer_mac.h).
        r = Runner(g, out, udp_ours, udp_guest, host_fwd)
        pingpong_runs(r, os.environ['ROCE_PINGPONG'])
        if os.environ.get('ROCE_PERFTEST'):
            perftest_runs(r, os.environ['ROCE_PERFTEST'])
            loss_runs(r, os.environ['ROCE_PERFTEST'])
            perftest_cm_runs(r, os.environ['ROCE_PERFTEST'])
        if os.environ.get('ROCE_RPING'):
            rping_runs(r, os.environ['ROCE_RPING'])
        if any('ipv6' not in n for n, _, _ in r.results):  # an IPv4 run took place
            neighbour_check(r)
    finally:
        g.close()
    if os.environ.get('ROCE_PERFTEST'):
        r.results += reference_runs(vmlinuz, initrd, out, r)
    failed = [n for n, ok, _ in r.results if not ok]
    print(f'\n{len(r.results) - len(failed)} of {len(r.results)} runs passed '
          f'in {time.monotonic() - t_start:.0f} s; logs in {out}')
    for n in failed:
        print('  failed: ' + n)
    return 1 if failed or not r.results else 0




def perftest_reports(text):
    """(bytes, iterations) of every report line perftest's format prints."""
    text = CLOCK_WARNING_RE.sub('', text)
    return [(int(m.group(1)), int(m.group(2))) for m in REPORT_RE.finditer(text)]


# REPORT_FMT_LAT: bytes, iterations, t_min, t_max, t_typical, t_avg, t_stdev, 99 %, 99.9 %.
LAT_RE = re.compile(r'^\s+(\d+)\s+(\d+)' + r'\s+([\d.]+)' * 7 + r'\s*$', re.M)


def check_perftest_lat(test, client_is_guest):
    """ib_{write,send}_lat: both sides print their latencies; ib_read_lat: the client only."""
    def check(rc, our_out, gst, guest_out, expect):
        size, iters = expect
        client, server = (guest_out, our_out) if client_is_guest else (our_out, guest_out)
        bad = exit_problems(rc, gst)
        shown = {}
        for side, text in (('client', client), ('server', server)):
            lines = LAT_RE.findall(CLOCK_WARNING_RE.sub('', text))
            got = [(int(m[0]), int(m[1])) for m in lines]
            want = [] if test == 'read' and side == 'server' else [(size, iters)]
            if got != want:
                bad.append(f'{side} reported {got}, expected {want}')
            if lines:
                shown[side] = float(lines[0][4])  # t_typical
        if bad:
            return False, '; '.join(bad)
        return True, (f'{iters} x {size} bytes; t_typical ' +
                      ', '.join(f'{k} {v:.1f} us' for k, v in shown.items()))
    return check


def check_perftest_duration(client_is_guest):
    """-D: the client reports what it did in the time; the server prints the same line."""
    def check(rc, our_out, gst, guest_out, expect):
        size, _ = expect
        client, server = (guest_out, our_out) if client_is_guest else (our_out, guest_out)
        c, s_ = perftest_reports(client), perftest_reports(server)
        bad = exit_problems(rc, gst)
        if len(c) != 1 or c[0][0] != size or c[0][1] <= 0 or s_ != c:
            bad.append(f'client reported {c}, server {s_}: expected one line, size {size}, '
                       'the same iterations > 0')
        if bad:
            return False, '; '.join(bad)
        return True, f'{c[0][1]} x {size} bytes in the duration, both sides agree'
    return check


def check_perftest(client_is_guest, all_sizes, our_check=None):
    """our_check: a regex our side's output must hold (its own data check, e.g. atomics)."""
    def check(rc, our_out, gst, guest_out, expect):
        size, iters = expect
        client, server = (guest_out, our_out) if client_is_guest else (our_out, guest_out)
        c, s_ = perftest_reports(client), perftest_reports(server)
        bad = exit_problems(rc, gst)
        want = [(1 << i, iters) for i in range(1, 24)] if all_sizes else [(size, iters)]
        if c != want:
            bad.append(f'client reported {c[:4]}{"..." if len(c) > 4 else ""}, expected {want[:2]}...')
        # write/read: the server prints the client's (last) report; send: its own.
        if s_ != want[-1:]:
            bad.append(f'server reported {s_}, expected {want[-1:]}')
        m = re.search(our_check, our_out) if our_check else None
        if our_check and not m:
            bad.append(f'our side did not print {our_check!r}')
        if bad:
            return False, '; '.join(bad)
        total = sum(a * b for a, b in want)
        return True, (f'{len(want)} size(s), {total} bytes, both sides agree'
                      + (f'; {m.group(0).strip()}' if m else ''))
    return check


PATH_MTU = 4096  # GUEST_NETDEV_MTU gives rxe an active MTU of 4096; ours offers as much


def data_frames_needed(sizes, iters):
    """Data packets (request or READ response) the messages need at PATH_MTU, at least one
    each."""
    return sum(max(1, -(-size // PATH_MTU)) * iters for size in sizes)


def our_side_sends(test, guest_server):
    """Whether our side sends the data packets: the WRITE/SEND client, the READ server."""
    return guest_server if test != 'read' else not guest_server


def loss_runs(r: Runner, exe):
    """Loss on the wire both ways (the guest's netem on its RoCE NIC, our port's wire_drop
    fault at the same rate): WRITE, READ and SEND of 64 KiB, each side as server and client.
    Both sides keep perftest's retry settings (timeout 14, retry_cnt 7, rnr_retry 7; ours in
    roce_perftest's connect()). perftest checks the byte count, our side its own."""
    common = ['-x', '1', f'--ip={HOST_IP}']
    size, iters = 65536, 20
    for loss in (1, 10):
        for test in ('write', 'read', 'send'):
            args = [f'--test={test}', '-s', str(size), '-n', str(iters), *common]
            gcmd = f'ib_{test}_bw -d rxe0 -x 1 -F -s {size} -n {iters}'
            for guest_server in (True, False):
                name = f'ib_{test}_bw-guest_{"server" if guest_server else "client"}-loss{loss}'
                g = gcmd if guest_server else gcmd + ' -p @PORT@ 10.0.2.2'
                r.pair(name, g, exe, args, guest_server, (size, iters),
                       check_perftest(not guest_server, False), timeout=180, loss=loss,
                       data_frames=(data_frames_needed([size], iters),
                                    our_side_sends(test, guest_server)))



REF_MAC = '52:54:00:77:00:03'  # the reference's second guest, at HOST_IP (our side's address)


def reference_runs(vmlinuz, initrd, out, ours: Runner):
    """rxe to rxe in the same harness: two guests from the same initramfs, their RoCE NICs
    cabled to each other through QEMU's dgram netdev (two namespaces in one guest would not do:
    rxe sends through a UDP socket of the initial namespace and loops traffic between local
    addresses back without the NIC, so neither netem nor the wire would see it). Guest a
    (GUEST_IP) serves, guest b (HOST_IP) is the client, the TCP exchange over a's host port
    forward as in our runs; the loss runs' tests at 0, 1 and 10 % netem loss on both NICs.
    Prints each beside our runs' results (loss_runs, perftest_runs): the sender's frames per
    data frame and the client's MB/s."""
    size, iters = 65536, 20
    want = [(size, iters)]
    names = [(t, l) for l in (0, 1, 10) for t in ('write', 'read', 'send')]
    if not any(ours.only.search(f'reference-ib_{t}_bw-loss{l}') for t, l in names):
        return []
    ua, ub, fwd = free_udp_port(), free_udp_port(), free_tcp_port()
    ga = Guest(vmlinuz, initrd, ua, ub, {fwd: GUEST_TCP}, out / 'console-ref-a.log')
    gb = Guest(vmlinuz, initrd, ub, ua, {}, out / 'console-ref-b.log', REF_MAC, HOST_IP)
    results, rows = [], []
    try:
        for g in (ga, gb):
            g.boot()
            g.wait_active()
        for test, loss in names:
            name = f'reference-ib_{test}_bw-loss{loss}'
            if not ours.only.search(name):
                continue
            if loss:
                for g in (ga, gb):
                    g.sh(f'{TC} qdisc replace dev {g.roce_dev} root netem loss {loss}%')
            sent = [Runner(g, out, 0, 0, 0).rxe_sent() for g in (ga, gb)]
            gcmd = f'ib_{test}_bw -d rxe0 -x 1 -F -s {size} -n {iters}'
            t0 = time.monotonic()
            job = ga.start(gcmd)
            for _ in range(100):
                if ga.sh(f'netstat -ltn | grep -q ":{GUEST_TCP} "')[0] == 0:
                    break
                time.sleep(0.2)
            cst, cout = gb.sh(f'{gcmd} -p {fwd} 10.0.2.2', 240)
            sst, sout = ga.wait(job, 30)
            dt = time.monotonic() - t0
            delta = [Runner(g, out, 0, 0, 0).rxe_sent() - s0 for g, s0 in zip((ga, gb), sent)]
            if loss:
                for g in (ga, gb):
                    g.sh(f'{TC} qdisc del dev {g.roce_dev} root')
            (out / (name + '.log')).write_text(f'# a: {gcmd}\n{sout}\n# b:\n{cout}')
            ok = (cst == 0 and sst == 0 and perftest_reports(cout) == want and
                  perftest_reports(sout) == want)
            need = data_frames_needed([size], iters)
            sender = delta[0] if test == 'read' else delta[1]  # READ: a responds
            bw = client_bw(cout)
            detail = (f'frames sent: a {delta[0]}, b {delta[1]}, {need} data frames needed, '
                      f'sender {sender / need:.2f} per data frame; {bw} MB/s ({dt:.1f} s)')
            if not ok:
                detail += f'; exit {sst}/{cst}; a: {sout.strip()[-300:]}; b: {cout.strip()[-300:]}'
            print(f'{"PASS" if ok else "FAIL"} {name}: {detail}', flush=True)
            results.append((name, ok, detail))
            rows.append((test, loss, sender / need, bw))
    finally:
        ga.close()
        gb.close()
    # Ours beside rxe-to-rxe: our side as the sender of the data (WRITE/SEND client, READ
    # server), the same messages, loss and path MTU.
    print('\nours vs rxe-to-rxe (65536 B x 20, path MTU 4096; sender\'s frames per data frame, '
          'client\'s MB/s):')
    print(f'  {"test":6} {"loss":>5} {"ours fr/data":>13} {"rxe fr/data":>12} {"ours MB/s":>10} '
          f'{"rxe MB/s":>9}')
    for test, loss, rxe_ratio, rxe_bw in rows:
        role = 'client' if test == 'read' else 'server'
        key = f'ib_{test}_bw-guest_{role}-' + (f'loss{loss}' if loss else f's{size}')
        o = ours.frames.get(key)
        ratio = f'{o[0] / o[2]:.2f}' if o and o[0] is not None else '-'
        obw = f'{o[4]:.2f}' if o and o[4] is not None else '-'
        print(f'  {test:6} {loss:>4}% {ratio:>13} {rxe_ratio:>12.2f} {obw:>10} '
              f'{rxe_bw if rxe_bw is not None else "-":>9}')
    return results


def perftest_runs(r: Runner, exe):
    common = ['-x', '1', f'--ip={HOST_IP}']
    runs = [('write', 65536, 20, False), ('write', 4093, 20, False), ('write', 0, 5, True),
            ('read', 65536, 20, False), ('read', 1001, 20, False),
            ('send', 65536, 20, False), ('send', 1001, 20, False)]
    for test, size, iters, all_sizes in runs:
        sz = ['-a'] if all_sizes else ['-s', str(size)]
        args = [f'--test={test}', *sz, '-n', str(iters), *common]
        gcmd = f'ib_{test}_bw -d rxe0 -x 1 -F {" ".join(sz)} -n {iters}'
        tag = 'all' if all_sizes else f's{size}'
        for guest_server in (True, False):
            name = f'ib_{test}_bw-guest_{"server" if guest_server else "client"}-{tag}'
            g = gcmd if guest_server else gcmd + ' -p @PORT@ 10.0.2.2'
            sizes = [1 << i for i in range(1, 24)] if all_sizes else [size]
            r.pair(name, g, exe, args, guest_server, (size, iters),
                   check_perftest(not guest_server, all_sizes), timeout=180 if all_sizes else 60,
                   data_frames=(data_frames_needed(sizes, iters),
                                our_side_sends(test, guest_server)))
    # Atomics (ib_atomic_bw: 8-byte messages only). Our server checks the sum of its target
    # words (each FETCH_AND_ADD added 1 once), our client the values it fetched (in order).
    iters = 20
    for atype, our_check in (('FETCH_AND_ADD', r'atomic check: (target words sum to '
                              rf'{iters}, expected {iters}|{iters} fetch-and-adds fetched \d+ '
                              r'\.\. \d+ in order)'),
                             ('CMP_AND_SWAP', r'atomic check: (target words sum to 0, expected 0|'
                              rf'{iters} compare-and-swaps fetched \d+ each)')):
        args = ['--test=atomic', '-A', atype, '-n', str(iters), *common]
        gcmd = f'ib_atomic_bw -d rxe0 -x 1 -F -A {atype} -n {iters}'
        for guest_server in (True, False):
            name = f'ib_atomic_bw-guest_{"server" if guest_server else "client"}-{atype}'
            g = gcmd if guest_server else gcmd + ' -p @PORT@ 10.0.2.2'
            r.pair(name, g, exe, args, guest_server, (8, iters),
                   check_perftest(not guest_server, False, our_check))
    # Several QPs (-q 4: each QP moves -n messages, the reports count all), bidirectional (-b:
    # both sides run, each prints the sum) and a duration instead of a count (-D).
    for test, extra, iters, want_iters in (('write', '-q 4', 20, 80), ('read', '-q 4', 20, 80),
                                           ('send', '-q 4', 20, 80), ('write', '-b', 20, 20),
                                           ('read', '-b', 20, 20), ('write', '-D 2', 0, None)):
        size = 65536
        count = ['-n', str(iters)] if iters else []
        args = [f'--test={test}', '-s', str(size), *extra.split(), *count, *common]
        gcmd = f'ib_{test}_bw -d rxe0 -x 1 -F -s {size} {extra} {" ".join(count)}'.rstrip()
        tag = extra.replace(' ', '').lstrip('-')
        for guest_server in (True, False):
            name = f'ib_{test}_bw-guest_{"server" if guest_server else "client"}-{tag}'
            g = gcmd if guest_server else gcmd + ' -p @PORT@ 10.0.2.2'
            check = (check_perftest(not guest_server, False) if want_iters else
                     check_perftest_duration(not guest_server))
            r.pair(name, g, exe, args, guest_server, (size, want_iters), check)
    # Inline on our side (-I: our WRITEs and SENDs of 200 bytes carry the data in the WQE); the
    # guest's perftest needs nothing for it.
    for test in ('write', 'send'):
        size, iters = 200, 20
        args = [f'--test={test}', '-s', str(size), '-I', '256', '-n', str(iters), *common]
        gcmd = f'ib_{test}_bw -d rxe0 -x 1 -F -s {size} -n {iters}'
        for guest_server in (True, False):
            name = f'ib_{test}_bw-guest_{"server" if guest_server else "client"}-inline-s{size}'
            g = gcmd if guest_server else gcmd + ' -p @PORT@ 10.0.2.2'
            r.pair(name, g, exe, args, guest_server, (size, iters),
                   check_perftest(not guest_server, False))
    # Latency tests: one packet and several (path MTU 4096 by default, 9000 bytes = 3).
    iters = 100
    for test in ('write', 'read', 'send'):
        for size in (2, 9000):
            args = [f'--test={test}_lat', '-s', str(size), '-n', str(iters), *common]
            gcmd = f'ib_{test}_lat -d rxe0 -x 1 -F -s {size} -n {iters}'
            for guest_server in (True, False):
                name = f'ib_{test}_lat-guest_{"server" if guest_server else "client"}-s{size}'
                g = gcmd if guest_server else gcmd + ' -p @PORT@ 10.0.2.2'
                r.pair(name, g, exe, args, guest_server, (size, iters),
                       check_perftest_lat(test, not guest_server))



def cm_said(check, qps):
    """check, and our side said that the CM connected the test's QPs, with perftest's QP
    settings (ACK timeout 14, retry and RNR retry 7, whatever the guest's REQ or REP said), and
    that all of them and the exchange's were disconnected at the end (roce_perftest_cm.cpp)."""
    def wrapped(rc, our_out, gst, guest_out, expect):
        ok, detail = check(rc, our_out, gst, guest_out, expect)
        missing = [s for s in (f'rdma_cm: connected {qps} QP(s) to port',
                               '(ACK timeout 14, retry 7, RNR retry 7)',
                               f"rdma_cm: disconnected {qps} QP(s) and the exchange's")
                   if s not in our_out]
        if missing:
            return False, (detail + '; ' if not ok else '') + f'ours did not print {missing}'
        return ok, detail
    return wrapped


def perftest_cm_runs(r: Runner, exe):
    """perftest's rdma_cm mode (-R) against ours (roce_perftest -R): no TCP; the exchange goes as
    SENDs on an RC connection of the RDMA CM to port 18515, the CM connects the test's QPs
    (REQ/REP/RTU each; -q 2: two to the same port), the client disconnects them at the end
    (DREQ/DREP). ib_write_bw, ib_read_bw, ib_send_bw, ib_write_bw -q 2, -b and -D 2, and the
    latency tests, each side as server and as client."""
    iters = 20
    for test, size, qps in (('write', 65536, 1), ('read', 65536, 1), ('send', 4093, 1),
                            ('write', 4096, 2)):
        q = ['-q', str(qps)] if qps > 1 else []
        args = [f'--test={test}', '-R', '-s', str(size), '-n', str(iters), *q, '-x', '1',
                f'--ip={HOST_IP}']
        gcmd = f'ib_{test}_bw -d rxe0 -x 1 -F -R -s {size} -n {iters} {" ".join(q)}'.rstrip()
        tag = f's{size}' + (f'-q{qps}' if qps > 1 else '')
        want = (size, iters * qps)
        cm_pair(r, f'ib_{test}_bw-R-guest_server-{tag}', gcmd, exe, args + [GUEST_IP], True,
                want, cm_said(check_perftest(False, False), qps), timeout=90)
        cm_pair(r, f'ib_{test}_bw-R-guest_client-{tag}', f'{gcmd} {HOST_IP}', exe, args,
                False, want, cm_said(check_perftest(True, False), qps), timeout=90)
    # The latency tests (100 iterations of 2 and 9000 bytes: one packet and three; every side
    # that runs prints one REPORT_FMT_LAT line, as without -R), ib_write_bw -b (each side
    # prints the pair's sum) and -D 2 (one line, the same iterations on both sides) over the CM.
    iters = 100
    for test, size in ((t, s) for t in ('write', 'read', 'send') for s in (2, 9000)):
        args = [f'--test={test}_lat', '-R', '-s', str(size), '-n', str(iters), '-x', '1',
                f'--ip={HOST_IP}']
        gcmd = f'ib_{test}_lat -d rxe0 -x 1 -F -R -s {size} -n {iters}'
        cm_pair(r, f'ib_{test}_lat-R-guest_server-s{size}', gcmd, exe, args + [GUEST_IP], True,
                (size, iters), cm_said(check_perftest_lat(test, False), 1), timeout=90)
        cm_pair(r, f'ib_{test}_lat-R-guest_client-s{size}', f'{gcmd} {HOST_IP}', exe, args,
                False, (size, iters), cm_said(check_perftest_lat(test, True), 1), timeout=90)
    size = 65536
    for extra, count, want_iters in (('-b', 20, 20), ('-D 2', 0, None)):
        n = ['-n', str(count)] if count else []
        args = ['--test=write', '-R', '-s', str(size), *extra.split(), *n, '-x', '1',
                f'--ip={HOST_IP}']
        gcmd = f'ib_write_bw -d rxe0 -x 1 -F -R -s {size} {extra} {" ".join(n)}'.rstrip()
        tag = extra.replace(' ', '').lstrip('-')
        for guest_server in (True, False):
            check = cm_said(check_perftest(not guest_server, False) if want_iters else
                            check_perftest_duration(not guest_server), 1)
            name = f'ib_write_bw-R-guest_{"server" if guest_server else "client"}-{tag}'
            if guest_server:
                cm_pair(r, name, gcmd, exe, args + [GUEST_IP], True, (size, want_iters), check,
                        timeout=90)
            else:
                cm_pair(r, name, f'{gcmd} {HOST_IP}', exe, args, False, (size, want_iters),
                        check, timeout=90)


if __name__ == '__main__':
    sys.exit(main())
