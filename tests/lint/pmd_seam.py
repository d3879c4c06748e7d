#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The device model behind a seam (issue 23 part 2): what the two plugins hold and need.

1. librte_net_gaudi.so (the PMD core, base/, net_gaudi) holds no object of the model: no symbol
   of namespace gaudi::emu, none named gaudi_emu* (the vdev driver's too: gaudi_emu_driver);
   and it does not need libpcap (only the model's pcap wire does).
2. librte_net_gaudi_emu.so (net_gaudi_emu and the model) needs librte_net_gaudi.so (DT_NEEDED)
   and finds it beside itself (RUNPATH $ORIGIN), so `-d librte_net_gaudi_emu.so` loads both;
   it holds none of the core's own code (gaudi_port_create, the ethdev ops).
3. Only the backend files of the vdev driver (gaudi_vdev*) include emu/ headers among the PMD's
   files (drivers/net/gaudi/*.{h,cpp}): the core reaches the model through gaudi_backend.h and
   the Bar hooks of base/gaudi_bar.h; base/ never includes emu/.

Usage: pmd_seam.py <source root> <librte_net_gaudi.so> <librte_net_gaudi_emu.so>
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
VDEV = re.compile(r'^gaudi_vdev[a-z_]*\.(h|cpp)$')
failures = []


def fail(msg):
    failures.append(msg)
    print(f'FAIL: {msg}')


def symbols(so):
    """Every symbol of the object's symbol table (local ones too), demangled."""
    out = subprocess.run(['nm', '-C', so], check=True, capture_output=True, text=True).stdout
    names = []
    for line in out.splitlines():
        parts = line.split(None, 2) if line[:1] != ' ' else [''] + line.split(None, 1)
        if len(parts) == 3:
            names.append((parts[1], parts[2]))
    return names


def dynamic(so):
    """DT_NEEDED names and the RUNPATH of a shared object (objdump -p)."""
    out = subprocess.run(['objdump', '-p', so], check=True, capture_output=True,
                         text=True).stdout
    needed = re.findall(r'^\s*NEEDED\s+(\S+)', out, re.M)
    runpath = re.findall(r'^\s*(?:RUNPATH|RPATH)\s+(\S+)', out, re.M)
    return needed, runpath


def check_core(so):
    syms = symbols(so)
    emu = sorted({n for _, n in syms
                  if n.startswith(('gaudi::emu::', 'gaudi_emu')) or '::emu::' in n})
    if emu:
        fail(f'{so} holds {len(emu)} symbol(s) of the model, e.g. {", ".join(emu[:5])}')
    # The symbol table must be there for the check to mean anything (not a stripped build).
    if not any(n.startswith('gaudi_port_create') for _, n in syms):
        fail(f'{so}: no gaudi_port_create in its symbol table (stripped?): cannot check')
    needed, _ = dynamic(so)
    if any(n.startswith('libpcap') for n in needed):
        fail(f'{so} needs libpcap ({", ".join(needed)})')
    print(f'{os.path.basename(so)}: {len(syms)} symbols, none of the model; '
          f'needs {", ".join(n for n in needed if "gaudi" in n or "pcap" in n) or "no pcap"}')


def check_emu(so, core):
    needed, runpath = dynamic(so)
    if os.path.basename(core) not in needed:
        fail(f'{so} does not need {os.path.basename(core)}: NEEDED {", ".join(needed)}')
    if not any('$ORIGIN' in r.split(':') for r in runpath):
        fail(f'{so}: RUNPATH {runpath or "none"}, not $ORIGIN')
    own = [n for k, n in symbols(so) if k in 'TtDdBbRr' and
           n.startswith(('gaudi_port_create', 'gaudi_dev_start', 'gaudi_rx_burst',
                         'gaudi_tx_burst'))]
    if own:
        fail(f'{so} holds code of the core: {", ".join(own[:5])}')
    if not any(n.startswith('gaudi::emu::Device::') for _, n in symbols(so)):
        fail(f'{so}: no gaudi::emu::Device in it')
    print(f'{os.path.basename(so)}: NEEDED {", ".join(n for n in needed if "gaudi" in n)}, '
          f'RUNPATH {":".join(runpath)}')


def check_includes(root):
    pmd = os.path.join(root, 'drivers', 'net', 'gaudi')
    n = 0
    for d, allowed in ((pmd, VDEV), (os.path.join(pmd, 'base'), None)):
        for f in sorted(os.listdir(d)):
            if not f.endswith(('.h', '.cpp')):
                continue
            n += 1
            with open(os.path.join(d, f), encoding='utf-8') as fh:
                incs = INCLUDE.findall(fh.read())
            bad = [i for i in incs if i.startswith(('emu/', '../emu/')) or
                   os.path.basename(i).startswith('gaudi_emu')]
            if bad and not (allowed and allowed.match(f)):
                fail(f'{os.path.relpath(os.path.join(d, f), root)} includes the model: '
                     f'{", ".join(bad)}')
    print(f'{n} files of the PMD core and base/ checked for emu/ includes')


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    root, core, emu = sys.argv[1:]
    check_core(core)
    check_emu(emu, core)
    check_includes(root)
    if failures:
        print(f'{len(failures)} failure(s)')
        sys.exit(1)
    print('seam: ok')


if __name__ == '__main__':
    main()
