#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Generate drivers/net/gaudi/base/gaudi_regmap_published.h: every published register of NIC
macro 0 (configuration addresses 0x5400000..0x547FFFF) as a table sorted by address.

Usage: gen-regmap.py --headers DIR --out FILE

DIR holds the public headers of HabanaAI/drivers.gpu.linux-nic.kernel
drivers/net/ethernet/intel/hbl_cn/gaudi2/asic_reg/ as text: the *_regs.h, the *_masks.h (optional)
and gaudi2_blocks_linux_driver.h, whole or as one or more excerpts named
gaudi2_blocks_linux_driver.h.part-<start>-<end> (the file is 2.4 MB; only its NIC macro 0 lines
are needed). DIR/SOURCE.txt, when present, names the commits the files were read at; its
"<40 hex digits>:" lines are copied into the generated header.

What is read:
  - gaudi2_blocks_linux_driver.h: "#define <BLOCK>_BASE 0x...ull" -> the block list (only
    blocks whose base is in NIC macro 0).
  - each *_regs.h: the block it describes (the "*   <BLOCK>" line of its banner comment) and its
    "#define <BLOCK>_<REG> 0x..." lines (absolute configuration addresses).
  - each *_masks.h: "#define <BLOCK>_<REG>_<FIELD>_SHIFT n" / "..._MASK 0x..." pairs; the
    register is the longest register name of the same block that prefixes the define.

Instance rule (the public tree has a regs header for some block instances only, e.g. TXE0 but
not TXE1, RXE0_AXUSER_AXUSER_CQ0/CQ1 but not CQ2..31): a block of the block list without its
own regs header takes the register layout of a block that has one and whose name differs only
in its decimal numbers (TXE1 <- TXE0, QPC1_AXUSER_RXWQE <- QPC0_AXUSER_RXWQE,
UMR1_3_COMPLETION_QUEUE_CI_0 <- UMR0_0_COMPLETION_QUEUE_CI_1, MAC_CH2_MAC_128 <- MAC_CH0_MAC_128).
Of several such templates the one with the largest numbers not above the block's own is taken
(MAC_GLOB_STAT_RX3 <- RX2, RX1 <- RX0; RXE1_AXUSER_AXUSER_CQ7 <- RXE0_AXUSER_AXUSER_CQ1), else
the smallest. Registers keep the template's offset from its block base and the template's
register part of the name verbatim, under the block's own name
(NIC0_TXE0_WQE_USER_CFG at 0x5452040 -> NIC0_TXE1_WQE_USER_CFG at 0x5453040). Blocks matched
by no header (NIC0_QM0, the *_SPECIAL blocks, MSTR_IF, ...) have no published registers and are
left out. Fields (masks) are emitted for the blocks that have their own *_masks.h only.

Checks (any failure exits non-zero, nothing written): every register of a header starts with
its block name and lies at or above the block base; addresses are 4-byte aligned, unique and
inside macro 0; names are unique.
"""
import argparse
import glob
import os
import re
import sys
import textwrap

NIC0_CFG_BASE = 0x5400000
MACRO_STRIDE = 0x80000

RE_BLOCK = re.compile(r'^#define\s+(\w+)_BASE\s+0x([0-9A-Fa-f]+)ull\s*$')
RE_BANNER = re.compile(r'^ \*\s+(\w+)\s*\n \*\s+\(Prototype: (\w+)\)', re.M)
RE_DEFINE = re.compile(r'^#define\s+(\w+)\s+0x([0-9A-Fa-f]+)\s*$')
RE_FIELD = re.compile(r'^#define\s+(\w+)_(SHIFT|MASK)\s+(0x[0-9A-Fa-f]+|\d+)\s*$')


def fail(msg):
    sys.stderr.write('gen-regmap: ' + msg + '\n')
    sys.exit(1)


def in_macro0(addr):
    return NIC0_CFG_BASE <= addr < NIC0_CFG_BASE + MACRO_STRIDE


def read_blocks(hdir):
    files = sorted(glob.glob(os.path.join(hdir, 'gaudi2_blocks_linux_driver.h*')))
    if not files:
        fail('no gaudi2_blocks_linux_driver.h[.part-*] in ' + hdir)
    blocks = {}
    for fn in files:
        with open(fn, encoding='utf-8') as f:
            for line in f:
                m = RE_BLOCK.match(line)
                if m and in_macro0(int(m.group(2), 16)):
                    blocks[m.group(1)] = int(m.group(2), 16)
    return blocks, [os.path.basename(f) for f in files]


def read_regs_headers(hdir, blocks):
    """{block: [(addr, name)]} for every *_regs.h describing a block of macro 0."""
    out = {}
    for fn in sorted(glob.glob(os.path.join(hdir, '*_regs.h'))):
        with open(fn, encoding='utf-8') as f:
            text = f.read()
        banner = RE_BANNER.search(text)
        if not banner:
            continue  # gaudi2_regs.h: includes only
        block = banner.group(1)
        regs = []
        for line in text.splitlines():
            m = RE_DEFINE.match(line)
            if m:
                regs.append((int(m.group(2), 16), m.group(1)))
        if not regs or not in_macro0(regs[0][0]):
            continue  # not a NIC macro 0 block (e.g. dcore0_sync_mngr_objs)
        if block not in blocks:
            fail(f'{os.path.basename(fn)}: block {block} not in the block list')
        for addr, name in regs:
            if not name.startswith(block + '_'):
                fail(f'{os.path.basename(fn)}: {name} outside block {block}')
            if addr < blocks[block]:
                fail(f'{os.path.basename(fn)}: {name} 0x{addr:X} below block base')
        out[block] = regs
    return out


def numbers(name):
    return tuple(int(n) for n in re.findall(r'\d+', name))


def shape(name):
    return re.sub(r'\d+', '#', name)


def pick_template(block, candidates):
    own = numbers(block)
    lower = [c for c in candidates if numbers(c) <= own]
    if lower:
        return max(lower, key=numbers)
    return min(candidates, key=numbers)


def expand(blocks, headers):
    """Registers of every block: its own header's, else a template's at its own base."""
    by_shape = {}
    for b in headers:
        by_shape.setdefault(shape(b), []).append(b)
    regs = []
    used = []
    for block, base in sorted(blocks.items(), key=lambda kv: (kv[1], kv[0])):
        if block in headers:
            src, rows = block, headers[block]
        elif shape(block) in by_shape:
            src = pick_template(block, by_shape[shape(block)])
            tbase = blocks[src]
            rows = [(base + a - tbase, block + n[len(src):]) for a, n in headers[src]]
        else:
            continue
        regs += rows
        used.append((base, max(a for a, _ in rows) + 4, block, src))
    return regs, used


def read_fields(hdir, headers):
    """[(reg, field, shift, mask)] from the *_masks.h of the blocks with their own regs header.

    The register part of "<REG>_<FIELD>_SHIFT" is the longest register name of a header that
    prefixes it, or the longest array name (a register name less its "_<n>" index: the masks
    headers describe an array such as GW_DATA_0..31 once, as GW_DATA)."""
    names = set()
    for rows in headers.values():
        for _, name in rows:
            names.add(name)
            names.add(re.sub(r'_\d+$', '', name))
    fields = []
    for fn in sorted(glob.glob(os.path.join(hdir, '*_masks.h'))):
        shift, mask = {}, {}
        with open(fn, encoding='utf-8') as f:
            for line in f:
                m = RE_FIELD.match(line)
                if m:
                    (shift if m.group(2) == 'SHIFT' else mask)[m.group(1)] = int(m.group(3), 0)
        for key in sorted(shift):
            if key not in mask:
                fail(f'{os.path.basename(fn)}: {key}_SHIFT without _MASK')
            reg = max((r for r in names if key.startswith(r + '_')), key=len, default=None)
            if reg is None:
                continue  # a block outside NIC macro 0 (arc_farm_kdma_ctx_axuser_masks.h)
            lsb, m = shift[key], mask[key]
            if m == 0 or m != (m >> lsb) << lsb or bin(m >> lsb).count('1') != (m >> lsb).bit_length():
                fail(f'{os.path.basename(fn)}: {key} mask 0x{m:X} not contiguous from bit {lsb}')
            fields.append((reg, key[len(reg) + 1:], lsb, m))
    return fields


def check(regs):
    regs.sort()
    for i, (addr, name) in enumerate(regs):
        if addr % 4:
            fail(f'{name} 0x{addr:X} not 4-byte aligned')
        if not in_macro0(addr):
            fail(f'{name} 0x{addr:X} outside NIC macro 0')
        if i and regs[i - 1][0] == addr:
            fail(f'0x{addr:X} is both {regs[i - 1][1]} and {name}')
    names = [n for _, n in regs]
    if len(set(names)) != len(names):
        fail('duplicate register names')


def commits(hdir):
    path = os.path.join(hdir, 'SOURCE.txt')
    if not os.path.exists(path):
        return []
    with open(path, encoding='utf-8') as f:
        return [l.split(':')[0] for l in f if re.match(r'^[0-9a-f]{40}:', l)]


def emit(out, args, regs, used, fields, block_files, hdir):
    cmd = 'buildtools/gen-regmap.py --headers ' + args.headers_label + ' --out ' + args.out
    expanded = sum(1 for u in used if u[2] != u[3])
    text = ('GENERATED FILE - do not edit. Made by ' + cmd + ' from the public headers of '
            'HabanaAI/drivers.gpu.linux-nic.kernel drivers/net/ethernet/intel/hbl_cn/gaudi2/asic_reg/ '
            '(the *_regs.h, *_masks.h and ' + ', '.join(block_files) + ')')
    cs = commits(hdir)
    text += (', read at commit' + ('s ' if len(cs) > 1 else ' ') + ' and '.join(cs) + '.') if cs else '.'
    text += (f' {len(regs)} registers of {len(used)} blocks of NIC macro 0 (configuration '
             f'addresses 0x5400000..0x547FFFF), {expanded} of these blocks laid out from an instance '
             f'that has a header (rule in buildtools/gen-regmap.py); {len(fields)} fields. '
             'Lookup API: gaudi_regmap.h.')
    lines = ['/* SPDX-License-Identifier: BSD-3-Clause']
    lines += [' * ' + l for l in textwrap.wrap(text, 96, break_long_words=False,
                                              break_on_hyphens=False)]
    lines += [
        ' */',
        '#pragma once',
        '',
        '#include <cstdint>',
        '',
        'namespace gaudi::hw::regmap {',
        '',
        'struct PublishedReg {',
        '\tuint32_t cfg_addr;',
        '\tconst char *name;',
        '};',
        '',
        'struct PublishedBlock {',
        '\tuint32_t base;',
        '\tuint32_t end; /* last published register + 4 */',
        '\tconst char *name;',
        '};',
        '',
        'struct PublishedField {',
        '\tconst char *reg; /* register, or array of registers, as the masks header names it */',
        '\tconst char *field;',
        '\tuint32_t shift;',
        '\tuint32_t mask;',
        '};',
        '',
        '// clang-format off',
        'inline constexpr PublishedBlock kPublishedBlocks[] = {',
    ]
    lines += [f'{{0x{b:X}, 0x{e:X}, "{n}"}},' for b, e, n, _ in used]
    lines += ['};', '', 'inline constexpr PublishedReg kPublishedRegs[] = {']
    lines += [f'{{0x{a:X}, "{n}"}},' for a, n in regs]
    lines += ['};']
    if fields:
        lines += ['', 'inline constexpr PublishedField kPublishedFields[] = {']
        lines += [f'{{"{r}", "{f}", {l}, 0x{m:X}}},' for r, f, l, m in fields]
        lines += ['};']
    lines += ['// clang-format on', '', '} // namespace gaudi::hw::regmap', '']
    with open(out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--headers', required=True, help='directory of the asic_reg headers')
    ap.add_argument('--out', required=True, help='generated header to write')
    ap.add_argument('--headers-label', default=None,
                    help='how to print --headers in the generated comment (default: as given)')
    args = ap.parse_args()
    args.headers_label = args.headers_label or args.headers
    blocks, block_files = read_blocks(args.headers)
    headers = read_regs_headers(args.headers, blocks)
    regs, used = expand(blocks, headers)
    check(regs)
    fields = read_fields(args.headers, headers)
    emit(args.out, args, regs, used, fields, block_files, args.headers)
    print(f'{args.out}: {len(regs)} registers, {len(used)} blocks, {len(fields)} fields')


if __name__ == '__main__':
    main()
