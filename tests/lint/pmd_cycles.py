#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Layering check of the Gaudi2 PMD core (issue 23).

1. No cycle among the PMD's files (drivers/net/gaudi/*.{h,cpp}, not base/ emu/ roce/, which
   have their own layers). A file pair X.h + X.cpp is one module; X depends on Y when one of X's
   files includes Y.h, or when X.cpp's object uses (nm: U) a symbol Y.cpp's object defines
   (nm: T/D/B/R; weak symbols are inline functions of a header, covered by its include). Any
   strongly connected set of two or more modules fails, with the edges that close it.
2. No source file (C, C++, Python) over 900 lines anywhere in the tree: drivers/ app/ examples/
   tests/ buildtools/, generated tables (a "GENERATED FILE" line at the top) excepted. Tests
   count too: a test file that grows past the limit is split by topic, its fixture in a header
   (tests/test_emu.h and its siblings) or a module beside it (tests/interop/).

Usage: pmd_cycles.py <source root> <directory of the PMD's objects>...
(the core's, librte_net_gaudi.so.p, and the emulated NIC's, librte_net_gaudi_emu.so.p: the vdev
driver's files are modules of drivers/net/gaudi/ too)
"""
import os
import re
import subprocess
import sys

MAX_LINES = 900
# Files over the limit whose split is still pending (none today). Each is reported; one that is
# no longer over the limit fails the check until it is taken off this list, so the list only
# shrinks.
PENDING = {
}
SRC_EXT = ('.c', '.cc', '.cpp', '.h', '.hpp', '.py')
# Every top-level directory that holds sources (a build directory is never among them).
SIZE_DIRS = ('drivers', 'app', 'examples', 'tests', 'buildtools')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def modules(pmd_dir):
    mods = {}
    for f in sorted(os.listdir(pmd_dir)):
        stem, ext = os.path.splitext(f)
        if ext in ('.h', '.cpp') and os.path.isfile(os.path.join(pmd_dir, f)):
            mods.setdefault(stem, []).append(f)
    return mods


def include_edges(pmd_dir, mods):
    edges = {}
    for m, files in mods.items():
        for f in files:
            with open(os.path.join(pmd_dir, f), encoding='utf-8') as fh:
                for inc in INCLUDE.findall(fh.read()):
                    stem = os.path.splitext(inc)[0]
                    if '/' not in inc and stem in mods and stem != m:
                        edges.setdefault((m, stem), f'{f} includes {inc}')
    return edges


def nm(obj):
    out = subprocess.run(['nm', '-C', obj], check=True, capture_output=True, text=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split(None, 2) if line[:1] != ' ' else [''] + line.split(None, 1)
        if len(parts) < 3:
            continue
        kind, name = parts[1], parts[2]
        if kind in 'TDBR':
            defined.add(name)
        elif kind == 'U':
            used.add(name)
    return defined, used


def call_edges(obj_dirs, mods):
    objs = {}
    for obj_dir in obj_dirs:
        for f in os.listdir(obj_dir):
            if f.endswith('.cpp.o'):
                stem = f[:-len('.cpp.o')]
                if stem in mods:
                    objs[stem] = nm(os.path.join(obj_dir, f))
    missing = [m for m, files in mods.items() if m + '.cpp' in files and m not in objs]
    if missing:
        sys.exit(f'pmd_cycles: no object for {", ".join(missing)} in {" ".join(obj_dirs)}')
    owner = {}
    for m, (defined, _) in objs.items():
        for s in defined:
            owner[s] = m
    edges = {}
    for m, (_, used) in objs.items():
        for s in sorted(used):
            o = owner.get(s)
            if o is not None and o != m:
                edges.setdefault((m, o), f'{m}.cpp calls {s}')
    return edges


def sccs(nodes, adj):
    """Tarjan's strongly connected components, iterative."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(adj.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(adj.get(w, ()))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def check_cycles(root, obj_dirs):
    pmd_dir = os.path.join(root, 'drivers', 'net', 'gaudi')
    mods = modules(pmd_dir)
    edges = include_edges(pmd_dir, mods)
    for k, why in call_edges(obj_dirs, mods).items():
        edges.setdefault(k, why)
    adj = {}
    for (a, b) in edges:
        adj.setdefault(a, set()).add(b)
    bad = [c for c in sccs(sorted(mods), {k: sorted(v) for k, v in adj.items()}) if len(c) > 1]
    for comp in bad:
        print(f'cycle among {len(comp)} modules: {" ".join(comp)}')
        for (a, b), why in sorted(edges.items()):
            if a in comp and b in comp:
                print(f'  {a} -> {b}: {why}')
    print(f'{len(mods)} modules, {len(edges)} dependencies, {len(bad)} cycle(s)')
    return not bad


def check_sizes(root):
    ok = True
    count = 0
    for top in SIZE_DIRS:
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [x for x in dirs if not x.startswith('.')]
            for f in files:
                if not f.endswith(SRC_EXT):
                    continue
                p = os.path.join(d, f)
                with open(p, encoding='utf-8', errors='replace') as fh:
                    text = fh.read()
                if 'GENERATED FILE' in text[:400]:
                    continue
                count += 1
                n = text.count('\n')
                rel = os.path.relpath(p, root)
                if rel in PENDING:
                    if n > MAX_LINES:
                        print(f'{rel}: {n} lines, pending: {PENDING[rel]}')
                    else:
                        print(f'{rel}: {n} lines now: take it off PENDING')
                        ok = False
                elif n > MAX_LINES:
                    print(f'{rel}: {n} lines (at most {MAX_LINES})')
                    ok = False
    print(f'{count} source files checked for size')
    return ok


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    root, obj_dirs = sys.argv[1], sys.argv[2:]
    cycles_ok = check_cycles(root, obj_dirs)
    sizes_ok = check_sizes(root)
    sys.exit(0 if cycles_ok and sizes_ok else 1)


if __name__ == '__main__':
    main()
