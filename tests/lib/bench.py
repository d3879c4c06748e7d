#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Datapath benchmark: stock dpdk-testpmd io forwarding over two ports of each backend, 64- and
1500-byte frames, 1 (and optionally 2) forwarding cores. Figures, not a test: no assertion on
speed; each figure is printed with the ratio to net_memif measured in the same invocation and
the machine it ran on (CPU model, CPUs, load average at start and end).

Traffic: `start tx_first 8` puts 8 bursts of 32 frames per port on the loop; after 1 s of
warm-up `clear fwd stats all`, then after the window `show fwd stats all`:
- Mpps: RX packets of both ports in the window / window = frames forwarded per second;
- cyc/frame: testpmd's --record-core-cycles figure, TSC cycles spent in the forwarding
  lcores' bursts (rx_burst + tx_burst + testpmd's loop; with engine=inline also the model's
  work) / frames forwarded. With engine=thread the model runs on its own thread outside this
  count: the closest software picture of silicon, where the NIC does the model's work.
- tsc/frame: TSC Hz x forwarding cores / Mpps, i.e. all cycles of the forwarding cores
  (including empty polls) per frame.
- cpu/frame: the forwarding lcore threads' own CPU time in the window (/proc schedstat) x TSC
  Hz / frames: what the two above would be if nothing else ran on the machine; the figure to
  compare builds with on a shared machine (the others count time the thread was preempted).
- model/frame: with engine=thread, the model thread's ("gaudi-emu") CPU time in the window x
  TSC Hz / frames, its idle polling included (profile=1 or not); with engine=inline and the
  devarg profile=1, see below.

Backends: net_gaudi_emu (wire=pair, engine inline and thread), net_memif (server and client in
the same process), net_ring (each port a ring looped onto itself; only mbuf pointers move, an
upper bound for the testpmd loop) and net_null (RX returns fresh mbufs, TX frees them).

Cores: every backend here has one queue per port (the Gaudi PMD has one RX and one TX queue
per port), so 2 forwarding cores means one stream per port (port 0 -> 1 on one core, 1 -> 0 on
the other); with `--cores 2` the main lcore shares CPU 0 with the first forwarding lcore (it
only waits on its prompt) -- on a 2-CPU machine the thread engine's model then has no CPU of
its own.

CPUs (rtt): before each run the bench times a cache line's round trip between CPUs 0 and 1
(tests/perf/line_rtt, TSC cycles): the forwarding lcore's CPU and, on a 2-CPU machine, the
thread engine's. With engine=thread every CQE, WQE and copied frame crosses between them; on a
virtual machine the host may place the two vCPUs near each other (about 150 cycles seen) or far
apart (about 1000) from one minute to the next, and the thread engine's figures follow.

Instructions (--instructions): each point runs twice under valgrind's callgrind, which counts
the instructions every thread of testpmd executes, forwarding for the window and then until it
forwarded twice the first run's frames (frames, not seconds: on a busy machine a longer window
could forward fewer); the difference of the counts over the difference of the frames forwarded
leaves start-up and exit out. Printed per forwarded frame, with the ratio to memif. A count does not
depend on what else the machine runs, so builds can be compared on a busy machine; it weighs a
vector instruction like a scalar one and knows nothing of cache misses, so it complements the cycle
figures, it does not replace them. With engine=thread the model's thread is counted too (and
its idle polling): use engine=inline for the PMD's and the model's work per frame. valgrind is
a development tool, not installed by the project's set-up scripts.

Devargs: a gaudi backend's name may carry driver devargs after a colon, appended to its vdev
string, e.g. `--backends gaudi-inline,gaudi-inline:rx_copy_max=1024,memif` measures the copy
and the attach (rx_copy_max) RX paths in one invocation; several are separated by colons
(`gaudi-inline:rx_copy_max=0:profile=1`; a colon inside a value, as in fw_mac=00:1d:.., stays).

The PMD's own cycles: with the devarg profile=1 (`gaudi-inline:profile=1`) the model counts the
TSC cycles the driver's threads (the forwarding one, and the rare interrupt, alarm and stats
reads) spend in it (telemetry /gaudi_emu/profile, read at both ends of the window):
model/frame. With engine=inline the rest of cyc/frame, rest/frame, is the
PMD's rx_burst, tx_burst and completions with testpmd's io loop around them (`ring` bounds
that loop from above). Compare its cyc/frame with plain gaudi-inline's for the count's own
cost (two TSC reads and two counter updates per register access).

Memory: EAL runs with --no-huge unless --huge is given (--in-memory --iova-mode=va on the
machine's hugepages). Without hugepages every mbuf takes a 4-KB page of its own (a mempool's
IOVA-contiguous objects do not cross pages), so all mbuf headers share one L1 set: see
gaudi_perf.rst.

Usage: tests/lib/bench.py [--pmd build/drivers/net/gaudi/librte_net_gaudi_emu.so] [--seconds 5]
       [--backends gaudi-inline,memif] [--sizes 64,1500] [--cores 1,2] [--repeat N]
       [--base-pmd OTHER]   (before/after: adds gaudi-*@base rows; OTHER a build directory
                             or its plugin: librte_net_gaudi_emu.so, or in a build from
                             before the model's own plugin librte_net_gaudi.so)
       [--huge] [--line-rtt build/tests/line_rtt]
       [--instructions]   (instructions per frame under callgrind instead of rates)
Also `meson test -C build --benchmark` (the `datapath` benchmark, short windows).
"""
import argparse
import os
import platform
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_session import (TestPmd, TestPmdError, eal_args, eal_huge_args,  # noqa: E402
                             meminfo, telemetry)

SOCK = "/run/gaudi-bench.sock"
BACKENDS = {
    "gaudi-inline": ["net_gaudi_emu0,ports=2,wire=pair,engine=inline"],
    "gaudi-thread": ["net_gaudi_emu0,ports=2,wire=pair,engine=thread"],
    "memif": [f"net_memif0,role=server,socket={SOCK}", f"net_memif1,role=client,socket={SOCK}"],
    "ring": ["net_ring0", "net_ring1"],
    "null": ["net_null0", "net_null1"],
}
# The default rows: every backend, and the inline engine again with the model's profile count
# (model/frame, rest/frame: the PMD's own cycles).
DEFAULT = ["gaudi-inline", "gaudi-inline:profile=1", "gaudi-thread", "memif", "ring", "null"]
REF = "memif"
HUGE = [False]   # --huge: EAL on hugepages instead of --no-huge
BASE_PMD = [None]   # --base-pmd: a build to compare with (before/after in one invocation)
_CYC = re.compile(r"CPU cycles/packet=([\d.]+) \(.*?\) at (\d+) MHz")


def emu_plugin(path):
    """The plugin with net_gaudi_emu of the build at `path` (a build directory, its
    drivers/net/gaudi, or either plugin there): librte_net_gaudi_emu.so, which loads the core
    librte_net_gaudi.so beside it, or in a build from before the model had a plugin of its own
    (issue 23) the one librte_net_gaudi.so. None when neither exists."""
    emu, core = "librte_net_gaudi_emu.so", "librte_net_gaudi.so"
    if os.path.isdir(path):
        sub = os.path.join(path, "drivers", "net", "gaudi")
        d = sub if os.path.isdir(sub) else path
    else:
        d, name = os.path.split(path)
        if name not in (emu, core):   # some other file: taken as it is
            return path if os.path.isfile(path) else None
    for f in (os.path.join(d, emu), os.path.join(d, core)):
        if os.path.isfile(f):
            return f
    return None


def vdevs_of(name, size):
    """The vdev strings of backend `name` ("<backend>[:<devargs>]", see the module's text)."""
    base, _, extra = name.partition(":")
    if extra and not base.startswith("gaudi"):
        raise TestPmdError(f"{name}: devargs only for the gaudi backends")
    vdevs = BACKENDS[base]
    if base == "null":
        vdevs = [f"{v},size={size}" for v in vdevs]
    # Several devargs: gaudi-inline:rx_copy_max=0:profile=1. A colon starts the next one only
    # before "<key>=", so values with colons (fw_mac=00:1d:.., udp_local=0:IP:PORT) pass.
    extra = ",".join(re.split(r":(?=[a-z_0-9]+=)", extra))
    return [f"{v},{extra}" for v in vdevs] if extra else vdevs


def model_tsc(prefix):
    """TSC cycles the forwarding threads spent in the model so far (telemetry
    /gaudi_emu/profile of port 0, devarg profile=1), or None without the devarg."""
    reply = telemetry(prefix, "/gaudi_emu/profile,0")
    return reply["tsc_cycles"] if reply and reply.get("profile") else None


def machine():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        cpu = next(ln.split(":", 1)[1].strip() for ln in out.splitlines()
                   if ln.startswith("Model name"))
    except (OSError, StopIteration):
        cpu = platform.machine()
    return cpu, os.cpu_count()


def line_rtt(tool):
    """TSC cycles of a cache line's round trip between CPUs 0 and 1 (tests/perf/line_rtt), or
    None without the tool or a second CPU."""
    if not tool or not os.path.exists(tool) or not {0, 1} <= os.sched_getaffinity(0):
        return None
    try:
        out = subprocess.run([tool, "0", "1"], capture_output=True, text=True, timeout=30)
        if out.returncode == 0:
            return int(out.stdout)
        print(f"line_rtt: {out.stderr.strip() or f'exit {out.returncode}'}", file=sys.stderr)
    except (OSError, ValueError, subprocess.TimeoutExpired) as e:
        print(f"line_rtt: {e}", file=sys.stderr)
    return None


def hugepages_free():
    """MB of free hugepages of the default size (free less those reserved for mappings not
    yet touched), 0 when none."""
    mi = meminfo()
    free = mi.get("HugePages_Free", 0) - mi.get("HugePages_Rsvd", 0)
    return max(free, 0) * mi.get("Hugepagesize", 0) // 1024


def loadavg():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def worker_ns(pid, names=("rte-worker", "lcore-worker")):
    """CPU time (ns, /proc/.../schedstat) of each forwarding lcore thread of process pid (or
    of the threads whose name starts with one of `names`): time the thread ran, whatever else
    the machine ran meanwhile."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            comm = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
            if comm.startswith(names):
                out[comm] = int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
        except OSError:
            pass
    return out


def measure(name, size, seconds, pmd, cores, bursts=8):
    """(Mpps, busy cycles per frame, TSC MHz, CPU cycles per frame, model cycles per frame
    (profile=1) or None, model thread's CPU cycles per frame (engine=thread) or None) after
    `start tx_first <bursts>`."""
    if name.endswith("@base"):   # the same backend with the --base-pmd build
        name, pmd = name[:-len("@base")], BASE_PMD[0]
    vdevs = vdevs_of(name, size)
    if name == "memif" and os.path.exists(SOCK):
        os.unlink(SOCK)
    prefix = f"bench-{os.getpid()}"
    eal = eal_args(prefix)
    if HUGE[0]:   # hugepages: EAL's memory as DPDK applications run it
        eal = eal_huge_args(prefix)
    profiled = "profile=1" in name
    if cores == 2:   # lcore 0 (main) and 1 on CPU 0, lcore 2 on CPU 1 (see the module's text)
        i = eal.index("-l")
        eal[i:i + 2] = ["--lcores", "0@0,1@0,2@1"]
    with TestPmd(vdevs, pmd_path=pmd if name.startswith("gaudi") else None, eal=eal,
                 prefix=prefix,
                 app_args=["--forward-mode=io", f"--nb-cores={cores}", "--burst=32",
                           f"--txpkts={size}", "--record-core-cycles"]) as tp:
        if name == "memif":   # the control channel connects asynchronously
            for _ in range(50):
                if tp.cmd("show port info 1").count("Link status: up"):
                    break
                time.sleep(0.1)
        tp.cmd(f"start tx_first {bursts}")
        time.sleep(1)
        tp.cmd("clear fwd stats all")
        m0 = model_tsc(prefix) if profiled else None
        e0 = worker_ns(tp.proc.pid, ("gaudi-emu",))   # the thread engine's model
        t0, ns0 = time.monotonic(), worker_ns(tp.proc.pid)
        time.sleep(seconds)
        out = tp.cmd("show fwd stats all")
        t1, ns1 = time.monotonic(), worker_ns(tp.proc.pid)
        e1 = worker_ns(tp.proc.pid, ("gaudi-emu",))
        m1 = model_tsc(prefix) if profiled else None
        tp.cmd("stop")
        tp.quit()
    m = re.search(r"Accumulated forward statistics.*?RX-packets:\s*(\d+)", out, re.S)
    c = _CYC.search(out)
    if not m:
        raise TestPmdError(f"no forward statistics in: {out[-500:]}")
    frames = int(m.group(1))
    if frames == 0:   # e.g. a bad devarg, or a --base-pmd build that does not know one
        why = [ln for ln in tp.transcript.splitlines() if "devarg" in ln][:1]
        raise TestPmdError(f"{name}: no frame forwarded in the window"
                           + (f" ({why[0].strip()})" if why else ""))
    mpps = frames / (t1 - t0) / 1e6
    mhz = int(c.group(2)) if c else None
    run_ns = sum(ns1[k] - ns0.get(k, 0) for k in ns1)
    cpu = run_ns * mhz / 1e3 / frames if mhz and frames and run_ns else None
    model = (m1 - m0) / frames if m0 is not None and m1 is not None and frames else None
    # With engine=thread: the model thread's CPU time per frame (its idle polling included).
    eng_ns = sum(e1[k] - e0.get(k, 0) for k in e1)
    engine = eng_ns * mhz / 1e3 / frames if mhz and frames and e1 else None
    return mpps, float(c.group(1)) if c else None, mhz, cpu, model, engine


def run_ir(name, size, seconds, pmd, bursts=8, until=None):
    """(instructions, frames) of one testpmd process under callgrind, start to exit, that
    forwarded for about `seconds` (valgrind's pace), or until it forwarded `until` frames."""
    vdevs = vdevs_of(name, size)
    if name == "memif" and os.path.exists(SOCK):
        os.unlink(SOCK)
    out_file = f"/tmp/bench-callgrind-{os.getpid()}.out"
    wrapper = ["valgrind", "-q", "--tool=callgrind", f"--callgrind-out-file={out_file}",
               "--dump-line=no", "--dump-instr=no"]
    prefix = f"bench-{os.getpid()}"
    with TestPmd(vdevs, pmd_path=pmd if name.startswith("gaudi") else None, prefix=prefix,
                 eal=eal_args(prefix), wrapper=wrapper, start_timeout=300,
                 app_args=["--forward-mode=io", "--nb-cores=1", "--burst=32",
                           f"--txpkts={size}", "--total-num-mbufs=16384"]) as tp:
        if name == "memif":
            for _ in range(100):
                if tp.cmd("show port info 1", timeout=120).count("Link status: up"):
                    break
                time.sleep(0.2)
        tp.cmd(f"start tx_first {bursts}", timeout=120)
        if until is None:
            time.sleep(seconds)
        else:   # a busy machine slows valgrind down: count frames, not seconds
            end = time.monotonic() + 30 * seconds + 300
            while time.monotonic() < end:
                time.sleep(max(0.5, seconds / 10))
                st = tp.cmd("show fwd stats all", timeout=120)
                m = re.search(r"Accumulated forward statistics.*?RX-packets:\s*(\d+)", st, re.S)
                if m and int(m.group(1)) >= until:
                    break
        out = tp.cmd("stop", timeout=120)   # prints what was forwarded since the start
        try:
            tp.quit()
        except TestPmdError as e:   # the profile is written even if exit fails under valgrind
            print(f"{name} {size}B: at exit: {str(e).splitlines()[0]}", file=sys.stderr)
    m = re.search(r"Accumulated forward statistics.*?RX-packets:\s*(\d+)", out, re.S)
    try:
        with open(out_file) as f:
            total = next(int(ln.split()[1]) for ln in f
                         if ln.startswith(("summary:", "totals:")))
        os.unlink(out_file)
    except (OSError, StopIteration):
        raise TestPmdError(f"no callgrind profile in {out_file}") from None
    if not m:
        raise TestPmdError(f"no forward statistics in: {out[-500:]}")
    return total, int(m.group(1))


def measure_ir(name, size, seconds, pmd):
    """Instructions per forwarded frame: two runs, forwarding for `seconds` and for twice as
    long; the difference of their counts over the difference of their frames leaves out
    start-up and exit (see the module's text)."""
    if name.endswith("@base"):
        name, pmd = name[:-len("@base")], BASE_PMD[0]
    i1, f1 = run_ir(name, size, seconds, pmd)
    i2, f2 = run_ir(name, size, 2 * seconds, pmd, until=2 * f1)
    if f2 <= f1:
        raise TestPmdError(f"{name}: no more frames in the longer run ({f1}, {f2})")
    return (i2 - i1) / (f2 - f1)


def main_ir(args, names, sizes):
    cpu, ncpu = machine()
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    res = {}
    for size in sizes:
        for name in names:
            try:
                res[name, size] = measure_ir(name, size, args.seconds, args.pmd)
            except (TestPmdError, subprocess.CalledProcessError) as e:
                print(f"{name} {size}B: {str(e).splitlines()[0]}", file=sys.stderr)
                res[name, size] = None
            print(f"  {name:13} {size:5}B {res[name, size]}", file=sys.stderr)
    print(f"# {date}; {cpu}; {ncpu} CPUs; instructions counted by callgrind")
    print(f"# testpmd io, --burst=32, 1 forwarding core, a run of {args.seconds:g}s and one "
          f"to twice its frames under valgrind; instructions of all testpmd threads, "
          f"difference / difference of frames forwarded; load {loadavg()}")
    width = max([18] + [len(n) for n in names])
    print(f"{'backend':{width}} {'size':>5} {'instr/frame':>12} {'vs ' + REF:>9}")
    for size in sizes:
        ref = res.get((REF, size))
        for name in names:
            r = res[name, size]
            ratio = f"{r / ref:.2f}" if r and ref else "n/a"
            print(f"{name:{width}} {size:5} {'n/a' if r is None else f'{r:.0f}':>12} {ratio:>9}")
    return 0 if all(v is not None for v in res.values()) else 1


def main():
    ap = argparse.ArgumentParser(description="testpmd io-forwarding Mpps per backend")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--pmd", default=os.path.join(here, "..", "..", "build", "drivers", "net",
                                                  "gaudi", "librte_net_gaudi_emu.so"))
    ap.add_argument("--line-rtt", default=os.path.join(here, "..", "..", "build", "tests",
                                                       "line_rtt"),
                    help="the build's tests/perf/line_rtt (the rtt column)")
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--backends", default=",".join(DEFAULT))
    ap.add_argument("--sizes", default="64,1500",
                    help="frame sizes (testpmd --txpkts); a Gaudi port pads frames below 187 "
                         "bytes to 187 (hardware), so its loop forwards 187-byte frames for 64")
    ap.add_argument("--cores", default="1", help="forwarding cores, e.g. 1,2")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs per point; the one with the fewest CPU cycles per frame is kept")
    ap.add_argument("--base-pmd", help="another build of the PMD (e.g. before a change), its "
                    "directory or plugin: its gaudi backends run too, named <backend>@base")
    ap.add_argument("--huge", action="store_true",
                    help="run EAL on hugepages (--in-memory) instead of --no-huge")
    ap.add_argument("--instructions", action="store_true",
                    help="instructions per frame under callgrind (see the module's text)")
    args = ap.parse_args()
    names = args.backends.split(",")
    for n in names:
        if n.partition(":")[0] not in BACKENDS:
            ap.error(f"--backends: {n}: not one of {', '.join(BACKENDS)} (with :devargs)")
    def ints(text, what, lo, hi):
        try:
            v = [int(x) for x in text.split(",")]
        except ValueError:
            ap.error(f"{what}: {text}: not a comma-separated list of integers")
        for x in v:
            if not lo <= x <= hi:
                ap.error(f"{what}: {x}: not in {lo}..{hi}")
        return list(dict.fromkeys(v))   # each once, in order
    # testpmd's tx_first frames: 64 bytes up to an MTU-1500 frame without FCS (testpmd sends
    # its default frames instead of sizes it refuses).
    sizes = ints(args.sizes, "--sizes", 64, 1514)
    # One queue per port: two streams at most (the module's text).
    cores_l = ints(args.cores, "--cores", 1, 2)
    if not 0.5 <= args.seconds <= 3600:   # shorter windows are mostly start-up noise
        ap.error(f"--seconds: {args.seconds}: not in 0.5..3600")
    if args.repeat < 1:
        ap.error(f"--repeat: {args.repeat}: at least 1")
    if args.instructions and args.backends == ",".join(DEFAULT):   # the inline rows only
        names = [n for n in names if not n.startswith("gaudi-thread")]
    if args.instructions and any(n.startswith("gaudi-thread") for n in names):
        ap.error("--instructions: engine=inline only (the thread engine's idle polling would "
                 "be counted)")
    if args.huge and args.instructions:   # valgrind cannot reserve EAL's hugepage VA space
        ap.error("--huge: not with --instructions (callgrind runs with --no-huge)")
    if args.huge and hugepages_free() < 512:   # testpmd's default pool: about 400 MB
        ap.error(f"--huge: {hugepages_free()} MB of free hugepages, 512 needed; reserve "
                 f"some first, e.g. echo 256 > /proc/sys/vm/nr_hugepages (2-MB pages)")
    if args.line_rtt != ap.get_default("line_rtt") and not os.access(args.line_rtt, os.X_OK):
        ap.error(f"--line-rtt: {args.line_rtt}: not an executable (build/tests/line_rtt)")
    HUGE[0] = args.huge
    for opt in ("pmd", "base_pmd"):   # a build directory, or either layout's plugin
        path = getattr(args, opt)
        if path is not None and any(n.startswith("gaudi") for n in names):
            plugin = emu_plugin(path)
            if plugin is None:
                ap.error(f"--{opt.replace('_', '-')}: {path}: no librte_net_gaudi_emu.so "
                         f"(nor, in a build from before the model's own plugin, "
                         f"librte_net_gaudi.so) there; build it first")
            setattr(args, opt, plugin)
    if args.base_pmd:
        BASE_PMD[0] = args.base_pmd
        names = [x for n in names for x in ([n, n + "@base"] if n.startswith("gaudi") else [n])]
    if args.instructions:
        return main_ir(args, names, sizes)
    cpu, ncpu = machine()
    load0 = loadavg()
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    res = {}
    for cores in cores_l:
        for size in sizes:
            for name in names:
                best = None
                for _ in range(args.repeat):
                    rtt = line_rtt(args.line_rtt)
                    try:
                        r = measure(name, size, args.seconds, args.pmd, cores) + (rtt,)
                    except TestPmdError as e:
                        print(f"{name} {size}B: {str(e).splitlines()[0]}", file=sys.stderr)
                        continue
                    if best is None or (r[3] or 0, -r[0]) < (best[3] or 0, -best[0]):
                        best = r
                res[name, size, cores] = best
                print(f"  {name:13} {size:5}B {cores} core(s) "
                      f"{'n/a' if best is None else f'{best[0]:.3f} Mpps'}  "
                      f"load {loadavg()}", file=sys.stderr)
    load1 = loadavg()
    print(f"# {date}; {cpu}; {ncpu} CPUs; load average {load0} (start), {load1} (end)")
    print(f"# testpmd io, --burst=32, {args.seconds:g}s window, best of {args.repeat}, "
          f"{'hugepages (--huge)' if args.huge else '--no-huge'}; "
          f"cyc/frame: --record-core-cycles; tsc/frame: TSC Hz x cores / rate; "
          f"cpu/frame: forwarding threads' CPU time x TSC Hz / frames; "
          f"model/frame: with profile=1 TSC cycles in the model / frames, with engine=thread "
          f"the model thread's CPU time x TSC Hz / frames; rest/frame: cyc/frame - "
          f"model/frame (profile=1); rtt: TSC cycles of a cache line's round trip between "
          f"CPUs 0 and 1 just before the run (tests/perf/line_rtt)")
    width = max([18] + [len(n) for n in names])
    print(f"{'backend':{width}} {'size':>5} {'cores':>5} {'Mpps':>8} {'vs ' + REF:>9} "
          f"{'cyc/frame':>10} {'tsc/frame':>10} {'cpu/frame':>10} {'model/frame':>12} "
          f"{'rest/frame':>11} {'rtt':>5}")
    for cores in cores_l:
        for size in sizes:
            ref = res.get((REF, size, cores))
            for name in names:
                r = res[name, size, cores]
                if r is None:
                    print(f"{name:{width}} {size:5} {cores:5} {'n/a':>8}")
                    continue
                mpps, cyc, mhz, cpu, model, engine, rtt = r
                ratio = f"{mpps / ref[0]:.2f}" if ref else "n/a"
                tsc = f"{mhz * cores / mpps:.0f}" if mhz and mpps else "n/a"
                if engine is not None:   # engine=thread: the model thread's, no rest/frame
                    model, rest = engine, ""
                else:
                    rest = f"{cyc - model:.0f}" if model is not None and cyc is not None else ""
                print(f"{name:{width}} {size:5} {cores:5} {mpps:8.3f} {ratio:>9} "
                      f"{'n/a' if cyc is None else f'{cyc:.0f}':>10} {tsc:>10} "
                      f"{'n/a' if cpu is None else f'{cpu:.0f}':>10} "
                      f"{'' if model is None else f'{model:.0f}':>12} {rest:>11} "
                      f"{'n/a' if rtt is None else rtt:>5}")
    return 0 if all(v is not None for v in res.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
