#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""RoCE goodput, this tree against a reference commit, in one invocation: examples/roce_bench
(RC RDMA WRITE and UD SEND over a net_gaudi_emu pair, one thread polling both ends) built from
both, run alternately --repeat times each with the same arguments; prints per size the medians
of each and their ratios, with the machine (CPU model, CPUs) and the load average at the start
and the end. Figures, not a test: no assertion on speed.

The reference is exported with `git archive` into BUILD/goodput-ref/<commit>/src and built there
(roce_bench and the PMD only; kept for the next invocation). Its examples/roce_bench.cpp is
replaced by this tree's: the instrument is the same on both sides, the transport, framing and
PMD under it are the reference's. Two figures per size: Gbit/s of goodput over the wall-clock
window, and Gbit/s per CPU-second of the polling thread (CLOCK_THREAD_CPUTIME_ID), which leaves
out the time the thread waited for a CPU: the one to compare on a shared machine. Both builds
see the same load, interleaved run by run.

    tests/lib/roce_goodput.py --build build --ref main --repeat 5 [--seconds 0.5] \\
        [--eal=--force-max-simd-bitwidth=512] [--bench=--sizes=65536 --bench=--ud-sizes=] \\
        [--vdev-args=rx_copy_max=1024]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINE = re.compile(r'^(RC WRITE|UD SEND)\s+(\d+) B:.*?([\d.]+) Gbit/s.*?([\d.]+) Gbit/s per CPU')


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, **kw)


def build_ref(build, ref):
    commit = sh(['git', '-C', ROOT, 'rev-parse', ref], capture_output=True).stdout.strip()
    top = os.path.join(os.path.abspath(build), 'goodput-ref', commit[:12])
    src, bld = os.path.join(top, 'src'), os.path.join(top, 'build')
    if not os.path.isdir(src):
        os.makedirs(src)
        archive = subprocess.Popen(['git', '-C', ROOT, 'archive', commit],
                                   stdout=subprocess.PIPE)
        sh(['tar', '-x', '-C', src], stdin=archive.stdout)
        if archive.wait() != 0:
            sys.exit(f'--ref: git archive {commit} failed')
    # The same bench on both sides: this tree's roce_bench.cpp and the example code it shares
    # (examples/example_common.*, qp_pair.*), added to the reference's roce_bench target when it
    # predates them.
    for name in ('roce_bench.cpp', 'example_common.h', 'example_common.cpp', 'qp_pair.h',
                 'qp_pair.cpp'):
        with open(os.path.join(ROOT, 'examples', name), 'rb') as f:
            want = f.read()
        dst = os.path.join(src, 'examples', name)
        have = open(dst, 'rb').read() if os.path.exists(dst) else None
        if have != want:
            with open(dst, 'wb') as f:
                f.write(want)
    meson_examples = os.path.join(src, 'examples', 'meson.build')
    with open(meson_examples) as f:
        text = f.read()
    for lib in ('example_common', 'qp_pair'):
        if lib not in text:
            text = text.replace("executable('roce_bench', 'roce_bench.cpp',",
                                f"executable('roce_bench', 'roce_bench.cpp', '{lib}.cpp',")
    with open(meson_examples, 'w') as f:
        f.write(text)
    if not os.path.isdir(os.path.join(bld, 'meson-info')):
        sh(['meson', 'setup', bld, src], stdout=subprocess.DEVNULL)
    r = subprocess.run(['ninja', '-C', bld, 'examples/roce_bench',
                        os.path.relpath(plugin(bld), bld)], text=True, capture_output=True)
    if r.returncode != 0:
        sys.exit(f'--ref: building {commit[:12]} in {bld} failed:\n{r.stdout[-4000:]}{r.stderr}')
    return commit, bld


def plugin(bld):
    """The plugin with net_gaudi_emu: its own since the model moved behind the seam, before
    that the one PMD plugin."""
    gaudi = os.path.join(bld, 'drivers', 'net', 'gaudi')
    emu = os.path.join(gaudi, 'librte_net_gaudi_emu.so')
    targets = sh(['meson', 'introspect', '--targets', bld], capture_output=True).stdout
    return emu if 'librte_net_gaudi_emu.so' in targets else os.path.join(gaudi, 'librte_net_gaudi.so')


def run(bld, seconds, eal, bench, vdev_args):
    cmd = [os.path.join(bld, 'examples', 'roce_bench'), '--no-huge', '-m', '1024', '--no-pci',
           '--no-shconf', '-l', '1', '-d', plugin(bld),
           '--vdev', 'net_gaudi_emu0,ports=2,wire=pair,engine=inline' + vdev_args,
           '--log-level=lib.*:error'] + eal + ['--', '--seconds', str(seconds)] + bench
    out = sh(cmd, capture_output=True).stdout
    got = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            got[(m.group(1), int(m.group(2)))] = (float(m.group(3)), float(m.group(4)))
        if line.startswith('path MTU'):
            header = line
    return got, header


def machine():
    model = '?'
    with open('/proc/cpuinfo') as f:
        for line in f:
            if line.startswith('model name'):
                model = line.split(':', 1)[1].strip()
                break
    return f'{model}, {os.cpu_count()} CPUs'


def load():
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--build', default='build', help='this tree\'s build directory')
    ap.add_argument('--ref', default='main', help='reference commit (default: main)')
    ap.add_argument('--repeat', type=int, default=5, help='runs of each build (default 5)')
    ap.add_argument('--seconds', type=float, default=0.5, help='per size (default 0.5)')
    ap.add_argument('--eal', action='append', default=[],
                    help='extra EAL argument for both builds (repeatable)')
    ap.add_argument('--bench', action='append', default=[],
                    help='extra roce_bench argument for both builds (repeatable), e.g. '
                    '--bench=--sizes=65536; "--opt=value" is passed as two arguments')
    ap.add_argument('--vdev-args', default='',
                    help='extra devargs of the net_gaudi_emu vdev for both builds, e.g. '
                    'rx_copy_max=1024 (attach-mode RX: frames above 1024 B not copied)')
    a = ap.parse_args()
    vdev_args = ''.join(',' + d for d in a.vdev_args.split(',') if d)
    if a.repeat < 1 or a.seconds <= 0:
        sys.exit('--repeat: want 1 or more; --seconds: want more than 0')
    bench = []
    for b in a.bench:
        bench += b.split('=', 1) if b.startswith('--') and '=' in b else [b]
    commit, ref_bld = build_ref(a.build, a.ref)
    head = sh(['git', '-C', ROOT, 'rev-parse', '--short=12', 'HEAD'],
              capture_output=True).stdout.strip()
    dirty = sh(['git', '-C', ROOT, 'status', '--porcelain', '-uno'],
               capture_output=True).stdout.strip()
    start = load()
    runs = {'ref': [], 'new': []}
    headers = {}
    for _ in range(a.repeat):
        for name, bld in (('ref', ref_bld), ('new', os.path.abspath(a.build))):
            got, headers[name] = run(bld, a.seconds, a.eal, bench, vdev_args)
            runs[name].append(got)
    print(f'machine: {machine()}; load average {start} at the start, {load()} at the end')
    print(f'ref {commit[:12]} ({headers["ref"]})')
    print(f'new {head}{" + uncommitted changes" if dirty else ""} ({headers["new"]})')
    print(f'{a.repeat} alternate runs of each, {a.seconds} s per size; EAL extra: '
          f'{" ".join(a.eal) or "none"}; roce_bench extra: {" ".join(bench) or "none"}; '
          f'vdev extra: {vdev_args[1:] or "none"}')
    print('medians; wall = Gbit/s of goodput, cpu = Gbit/s per CPU-second of the thread')
    print(f'{"":9} {"size":>6} {"ref wall":>9} {"new wall":>9} {"ratio":>7} '
          f'{"ref cpu":>9} {"new cpu":>9} {"ratio":>7}')
    for key in runs['new'][0]:
        row = f'{key[0]:9} {key[1]:>6}'
        for i in (0, 1):
            ref = statistics.median(r.get(key, (0.0, 0.0))[i] for r in runs['ref'])
            new = statistics.median(r[key][i] for r in runs['new'])
            ratio = f'{new / ref:6.2f}x' if ref > 0 else '      -'
            row += f' {ref:9.3f} {new:9.3f} {ratio}'
        print(row)

if __name__ == '__main__':
    main()
