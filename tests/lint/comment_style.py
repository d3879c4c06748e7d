#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One comment style across the tree (doc/guides/gaudi_code.rst): C and C++ sources under
drivers/, app/, examples/ and tests/ comment with /* */ only. Fails naming each // comment
(outside string and character literals) with its file and line."""
import re
import subprocess
import sys

LITERAL = re.compile(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])+\'')


def line_comments(text):
    in_block = False
    for n, line in enumerate(text.split('\n'), 1):
        code = LITERAL.sub('""', line)
        i = 0
        while i < len(code):
            if in_block:
                j = code.find('*/', i)
                if j < 0:
                    break
                in_block, i = False, j + 2
            elif code.startswith('/*', i):
                in_block, i = True, i + 2
            elif code.startswith('//', i):
                yield n
                break
            else:
                i += 1


def main():
    root = sys.argv[1]
    files = subprocess.run(['git', '-C', root, 'ls-files', '*.c', '*.cpp', '*.h'],
                           capture_output=True, text=True, check=True).stdout.split()
    if not files:
        print('comment_style: no sources found under ' + root)
        return 1
    bad = []
    for f in files:
        if not f.startswith(('drivers/', 'app/', 'examples/', 'tests/')):
            continue
        with open(f'{root}/{f}', encoding='utf-8') as fh:
            bad += [f'{f}:{n}' for n in line_comments(fh.read())]
    for b in bad:
        print(f'{b}: // comment (the tree comments with /* */)')
    print(f'comment_style: {len(files)} files, {len(bad)} // comments')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
