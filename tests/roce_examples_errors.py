#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The RoCE examples' bad inputs: each gets one line "prog: OPTION VALUE: what is wrong" (or
names the unknown option / the stray argument) and exit status 1, never a silent default, never
the bare usage text, nor ethdev's "Invalid port_id" (--dpdk-port is checked against the ports
EAL found). Also: --pcap with --loop writes the pair's frames (port 0's) and a bad
--pcap path is named; a normal roce_bench run and roce_perftest -R with a bad address end without
ethdev's "already stopped" (a port stopped twice at exit).

roce_gen and roce_decode (no EAL) take the same form for their options and name a file that is
not a capture.

Environment: GAUDI_PMD, ROCE_PINGPONG, ROCE_PERFTEST, ROCE_RPING, ROCE_BENCH, ROCE_GEN,
ROCE_DECODE (set by meson).
"""
import os
import struct
import subprocess
import sys
import tempfile

EXE = {name: os.environ['ROCE_' + name.upper()]
       for name in ('pingpong', 'perftest', 'rping', 'bench', 'gen', 'decode')}

# (example, arguments, the start of the line it must print)
BAD = [
    ('pingpong', ['-T', 'xx'], 'roce_pingpong: -T xx: not a transport'),
    ('pingpong', ['--loop', '-n', '-1'], 'roce_pingpong: -n -1: not an unsigned number'),
    ('pingpong', ['--loop', '-n', '0'], 'roce_pingpong: -n 0: out of range (1..'),
    ('pingpong', ['-s', '-5'], 'roce_pingpong: -s -5: not an unsigned number'),
    ('pingpong', ['-s', '99999999999'], 'roce_pingpong: -s 99999999999: out of range (1..16777216)'),
    ('pingpong', ['-s', '4k'], 'roce_pingpong: -s 4k: not an unsigned number'),
    ('pingpong', ['-m', '100'], 'roce_pingpong: -m 100: not a path MTU'),
    ('pingpong', ['-p', '70000'], 'roce_pingpong: -p 70000: out of range (1..65535)'),
    ('pingpong', ['-r', '0'], 'roce_pingpong: -r 0: out of range'),
    ('pingpong', ['-g', '2'], 'roce_pingpong: -g 2: out of range (0..1)'),
    ('pingpong', ['--srq', '-q', '300'], 'roce_pingpong: -q 300: out of range (1..255)'),
    ('pingpong', ['--dpdk-port', 'x'], 'roce_pingpong: --dpdk-port x: not an unsigned number'),
    ('pingpong', ['--bogus'], "unrecognized option '--bogus'"),
    ('pingpong', ['--dpdk-port=9'], 'roce_pingpong: --dpdk-port 9: no such port (2 ports)'),
    ('pingpong', ['--loop', '--dpdk-port=1'],
     'roce_pingpong: --dpdk-port 1: not with --loop (it uses ports 0 and 1)'),
    ('pingpong', ['-q', '2'], 'roce_pingpong: -q: several QPs only with --srq'),
    ('pingpong', ['host1', 'host2'], 'roce_pingpong: host2: a second server host'),
    ('pingpong', ['--loop', '-n', '2', '--pcap=/nonexistent/dir/x.pcap'],
     'roce_pingpong: --pcap /nonexistent/dir/x.pcap:'),
    ('perftest', ['--test=write', '-s', '0'], 'roce_perftest: -s 0: out of range (1..8388608)'),
    ('perftest', ['--test=write', '-s', 'abc'], 'roce_perftest: -s abc: not an unsigned number'),
    ('perftest', ['--test=write', '-n', '2'], 'roce_perftest: -n 2: out of range (5..'),
    ('perftest', ['--test=write', '-x', '2'], 'roce_perftest: -x 2: out of range (0..1)'),
    ('perftest', ['--test=write', '-t', '0'], 'roce_perftest: -t 0: out of range (1..'),
    ('perftest', ['--test=write', '-t', '-1'], 'roce_perftest: -t -1: not an unsigned number'),
    ('perftest', ['--test=write', '-p', '70000'], 'roce_perftest: -p 70000: out of range (1..65535)'),
    ('perftest', ['--test=bogus'], 'roce_perftest: -T bogus: not a test'),
    ('perftest', ['--test=write', '-m', '300'], 'roce_perftest: -m 300: not a path MTU'),
    ('perftest', ['--test=write', 'a', 'b'], 'roce_perftest: b: a second server host'),
    ('perftest', ['-n', '10'], 'roce_perftest: --test: missing'),
    ('perftest', ['--test=write', '--dpdk-port=9'],
     'roce_perftest: --dpdk-port 9: no such port (2 ports)'),
    ('perftest', ['--test=write', '-R', '-x', '0'], "roce_perftest: -R: the RDMA CM's addresses"),
    ('perftest', ['--test=send', '-b'], 'roce_perftest: -b: bidirectional'),
    ('rping', ['-s', '-p', '99999'], 'roce_rping: -p 99999: out of range (1..65535)'),
    ('rping', ['-s', '-C', 'abc'], 'roce_rping: -C abc: not an unsigned number'),
    ('rping', ['-s', '-S', '10'], 'roce_rping: -S 10: out of range (26..65535)'),
    ('rping', ['-c', '-a', '1.2.3'], 'roce_rping: -a 1.2.3: not an IPv4 address'),
    ('rping', ['-s', 'extra'], 'roce_rping: extra: unexpected argument'),
    ('rping', [], 'roce_rping: -s (server), -c (client) or --loop is needed'),
    ('rping', ['--msg', '--ud', '--loop'], 'roce_rping: --msg and --ud: two exchanges'),
    ('rping', ['--loop', '--dpdk-port=5'],
     'roce_rping: --dpdk-port 5: not with --loop (it uses ports 0 and 1)'),
    ('rping', ['-c'], "roce_rping: -c: the server's address (-a) is needed"),
    ('rping', ['--loop', '-C', '2', '--pcap=/nonexistent/dir/x.pcap'],
     'roce_rping: --pcap /nonexistent/dir/x.pcap:'),
    ('bench', ['--mtu', '100'], 'roce_bench: --mtu 100: not a path MTU'),
    ('bench', ['--mtu', '5000'], 'roce_bench: --mtu 5000: not a path MTU'),
    ('bench', ['--mtu', 'abc'], 'roce_bench: --mtu abc: not a path MTU'),
    ('bench', ['--seconds', '-1'], 'roce_bench: --seconds -1: not a duration'),
    ('bench', ['--seconds', 'abc'], 'roce_bench: --seconds abc: not a duration'),
    ('bench', ['--bogus'], 'roce_bench: --bogus: unknown option'),
    ('bench', ['--mtu', '1024x'], 'roce_bench: --mtu 1024x: not a path MTU'),
    ('bench', ['--rxd', '100'], 'roce_bench: --rxd 100: not a power of two (64..32768)'),
    ('bench', ['--sizes', '0'], 'roce_bench: --sizes 0: not comma-separated byte counts'),
    ('bench', ['--mtu'], 'roce_bench: --mtu: a value is needed'),
]

# The tools without EAL: (tool, arguments, the start of the line it must print); OUT and TXT
# stand for a pcap to write and a text file (no capture) in a temporary folder.
BAD_TOOLS = [
    ('gen', ['--payload', 'abc', 'OUT'], 'roce_gen: --payload abc: not an unsigned number (0..8192)'),
    ('gen', ['--payload', '12x', 'OUT'], 'roce_gen: --payload 12x: not an unsigned number'),
    ('gen', ['--payload', '-1', 'OUT'], 'roce_gen: --payload -1: not an unsigned number'),
    ('gen', ['--payload', '100000', 'OUT'], 'roce_gen: --payload 100000: out of range (0..8192)'),
    ('gen', ['--payload'], 'roce_gen: --payload: a value is needed'),
    ('gen', ['--bogus', 'OUT'], 'roce_gen: --bogus: unknown option'),
    ('gen', ['--only-hex', '4', 'OUT'], 'roce_gen: --only-hex: unknown option'),
    ('gen', ['OUT', 'x.pcap'], 'roce_gen: x.pcap: a second output file'),
    ('decode', ['--bogus', 'TXT'], 'roce_decode: --bogus: unknown option'),
    ('decode', ['TXT', 'x.pcap'], 'roce_decode: x.pcap: a second file'),
    ('decode', ['TXT'], 'roce_decode: TXT: unknown file format'),
]


def run(name, args, prefix):
    """The example on the two ports of a net_gaudi_emu pair: (exit status, stdout + stderr)."""
    cmd = [EXE[name], '--no-huge', '-m', '256', '--no-shconf', '--no-pci', '--iova-mode=va',
           '-l', '0', '--file-prefix', f'{prefix}{os.getpid()}', '--log-level=lib.eal:warning',
           '-d', os.environ['GAUDI_PMD'], '--vdev', 'net_gaudi_emu0,ports=2,wire=pair', '--',
           *args]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=120)
    return p.returncode, p.stdout


def pcap_frames(path):
    """Frames in a libpcap file (microsecond format, little-endian as libpcap writes here)."""
    with open(path, 'rb') as f:
        data = f.read()
    if len(data) < 24 or struct.unpack_from('<I', data)[0] != 0xa1b2c3d4:
        return -1
    n, off = 0, 24
    while off + 16 <= len(data):
        caplen = struct.unpack_from('<I', data, off + 8)[0]
        off += 16 + caplen
        n += 1
    return n if off == len(data) else -1


def main():
    failed = []

    def check(ok, what, out=''):
        print(f'{"ok" if ok else "FAIL"} {what}' + ('' if ok else f'\n{out}'), flush=True)
        if not ok:
            failed.append(what)

    for name, args, said in BAD:
        rc, out = run(name, args, 'exerr')
        lines = [line for line in out.splitlines() if said in line]
        # One line says it; the usage text does not follow (it names no option).
        # ethdev's own complaint (a bad port reaching rte_eth_*) names no option.
        ok = (rc == 1 and len(lines) == 1 and 'Usage' not in out and 'usage:' not in out
              and 'Invalid port_id' not in out)
        check(ok, f'roce_{name} {" ".join(args)}: exit {rc}, {said!r}', out)

    with tempfile.TemporaryDirectory() as tmp:
        files = {'OUT': os.path.join(tmp, 'out.pcap'), 'TXT': os.path.join(tmp, 'not-a.pcap')}
        with open(files['TXT'], 'w') as f:
            f.write('not a capture\n' * 4)
        for name, args, said in BAD_TOOLS:
            args = [files.get(a, a) for a in args]
            for k, v in files.items():
                said = said.replace(k, v)
            p = subprocess.run([EXE[name], *args], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=60)
            lines = [line for line in p.stdout.splitlines() if said in line]
            # The bad value writes nothing: no output file is left behind.
            ok = (p.returncode == 1 and len(lines) == 1 and 'usage' not in p.stdout.lower()
                  and not os.path.exists(files['OUT']))
            check(ok, f'roce_{name} {" ".join(args)}: exit {p.returncode}, {said!r}', p.stdout)

        for name, args, banner in (('pingpong', ['--loop', '-n', '20'], 'iters in'),
                                   ('rping', ['--loop', '-C', '5'], 'pings of')):
            path = os.path.join(tmp, name + '.pcap')
            rc, out = run(name, args + ['--pcap=' + path], 'expcap')
            n = pcap_frames(path) if os.path.exists(path) else -1
            # Both ends' messages cross port 0: 20 pings and 20 pongs at least (5 for rping).
            least = 40 if name == 'pingpong' else 10
            check(rc == 0 and banner in out and n >= least,
                  f'roce_{name} --loop --pcap: exit {rc}, {n} frames (>= {least})', out)

    for name, args, want_rc in (('bench', ['--seconds', '0.02', '--sizes', '64',
                                           '--ud-sizes', '64'], 0),
                                ('perftest', ['--test=write', '-R', 'not-an-ip'], 1)):
        rc, out = run(name, args, 'exstop')
        check(rc == want_rc and 'already stopped' not in out,
              f'roce_{name} {" ".join(args)}: exit {rc}, no "already stopped"', out)

    print(f'{len(failed)} failed' if failed else 'all ok')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
