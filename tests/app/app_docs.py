#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every gaudi-testpmd example of README.md and doc/guides/gaudi_testpmd.rst runs as written
(issue 22: a fresh user's trial found the README's --stream example refused): each command is
taken from the text, run in a scratch directory with the files it names made first, and must
exit 0 (a run that ends with a report and every mbuf back). Only the time is cut, so that the
test stays short: --duration and --rfc2544-trial at most 0.5 s and 0.1 s, --packets at most
20000. Examples on real ports (-a 0000:...) need hardware and are only listed. The plot
commands are run too, with the interpreter they name.
"""
import os
import re
import shlex
import subprocess
import sys

from app_common import APP, PLOT, check, main, pcapfile, workdir

W = workdir()
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
README = os.path.join(ROOT, "README.md")
GUIDE = os.path.join(ROOT, "doc", "guides", "gaudi_testpmd.rst")
PROGS = ("$A", "gaudi-testpmd", "build/app/gaudi-testpmd/gaudi-testpmd")


def commands(path):
    """(command line, prompt input) of each example: shell lines ('$A ...', '$ gaudi-testpmd
    ...', with '\\' continuations) and inline ``gaudi-testpmd ...`` literals."""
    text = open(path).read()
    out = []
    lines = text.splitlines()
    i = 0
    code = False  # in a code block: a ``` fence (Markdown), an indented .. code-block:: (RST)
    while i < len(lines):
        raw = lines[i]
        if raw.startswith("```"):
            code = not code
        elif raw.startswith(".. code-block::"):
            code = True
        elif path.endswith(".rst") and raw.strip() and not raw.startswith(" "):
            code = False
        ln = raw.strip()
        if not code:
            i += 1
            continue
        if ln.startswith("$ "):
            ln = ln[2:]
        words = ln.split()
        if words and (words[0] in PROGS or (words[0].endswith("python3") and len(words) > 1 and
                                            words[1].endswith("gaudi-testpmd-plot.py"))):
            cmd = ""
            while True:
                part = re.sub(r"\s+#.*$", "", ln).rstrip()
                cmd += part.rstrip("\\") + " "
                if not part.endswith("\\"):
                    break
                i += 1
                ln = lines[i].strip()
            # A prompt session: the commands typed at it follow.
            typed = []
            while i + 1 < len(lines) and lines[i + 1].strip().startswith("gaudi-testpmd> "):
                i += 1
                typed.append(lines[i].strip()[len("gaudi-testpmd> "):])
            args = shlex.split(cmd)
            if not any(a.startswith("[") for a in args):  # not the syntax line
                out.append((args, typed))
        i += 1
    for m in re.finditer(r"``(gaudi-testpmd [^`]+)``", text):
        out.append((shlex.split(" ".join(m.group(1).split())), []))
    return out


def shorten(args):
    """The example with its time cut (see above), and an end when it has none."""
    out = []
    for a in args:
        k, _, v = a.partition("=")
        if k == "--duration":
            a = f"--duration={min(float(v), 0.5):g}"
        elif k == "--rfc2544-trial":
            a = f"--rfc2544-trial={min(float(v), 0.1):g}"
        elif k == "--packets":
            a = f"--packets={min(int(v), 20000)}"
        out.append(a)
    ends = ("--duration=", "--packets=", "--replay-", "--rfc2544=", "-i")
    if not any(a.startswith(ends) for a in out):
        out.append("--duration=0.5")
    return out


def make_inputs():
    """The files the examples read: a custom-protocol template (the guide's scapy frames,
    written here without scapy), a capture to replay, and run-main.sh's output directory."""
    frames = [bytes.fromhex("021da3000001") + bytes(6) + b"\x88\xb5" + bytes([i]) * (40 + i)
              for i in range(16)]
    for name in ("my-protocol.pcap", "proto.pcap"):
        pcapfile.write_pcap(os.path.join(W, name), frames)
    os.makedirs(os.path.join(W, "build", "gaudi-testpmd-out"), exist_ok=True)
    # trace.pcapng: a capture of a short run, pcapng as the app writes it.
    p = subprocess.run([APP, "--forward-mode=txonly", "--rate=10000", "--packets=100",
                        "--stats-period=0", "--capture=1:trace.pcapng:rx"], cwd=W,
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f"trace.pcapng: {p.stderr}")


def run_example(src, args, typed):
    if args[0].endswith("python3"):
        cmd = [args[0], PLOT] + args[2:]
    else:
        cmd = [APP] + shorten(args[1:])
    if any(a.startswith("0000:") for a in args):
        print(f"skip (real ports): {' '.join(args)}")
        return
    p = subprocess.run(cmd, cwd=W, input="".join(t + "\n" for t in typed), capture_output=True,
                       text=True, timeout=240)
    check(p.returncode == 0, f"{src}: {' '.join(args)}\n  ran as {' '.join(cmd)}\n  status "
          f"{p.returncode}\n{p.stdout[-3000:]}\n{p.stderr}")
    if not args[0].endswith("python3"):
        check("mbufs in use at exit: 0" in p.stdout, f"{src}: {' '.join(args)}: no report")


def test_examples_run_as_written():
    make_inputs()
    n = 0
    for path in (README, GUIDE):
        cmds = commands(path)
        check(len(cmds) >= 8, f"{path}: only {len(cmds)} examples found")
        for args, typed in cmds:
            run_example(os.path.basename(path), args, typed)
            n += 1
    print(f"{n} examples")


if __name__ == "__main__":
    sys.exit(main("app_docs", [test_examples_run_as_written]))
