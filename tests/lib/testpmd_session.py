# SPDX-License-Identifier: BSD-3-Clause
"""Drive stock dpdk-testpmd in interactive mode (-i) through a pipe.

Used by the end-to-end tests (tests/*.py, tests/app/) and the benchmarks (tests/lib/bench.py,
tests/app/bench_app.py). Python 3 standard library only.

testpmd's printf output is block-buffered on a pipe, so it runs under `stdbuf -oL`; each
command is then answered by its output followed by the next "testpmd> " prompt.
"""
import filecmp
import json
import os
import re
import select
import shutil
import socket
import subprocess
import time

TESTPMD = os.environ.get("DPDK_TESTPMD", "dpdk-testpmd")
# Debian's testpmd dlopen()s every driver in this directory at start-up.
PLUGIN_DIR = os.environ.get("DPDK_PLUGIN_DIR", "/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0")
PROMPT = b"testpmd> "
# testpmd prints port events ("Port 0: link state change event") from its interrupt thread,
# at any moment, even in the middle of the prompt: they are cut out before matching.
EVENT_LINE = re.compile(rb"\n?Port \d+: [A-Za-z_ ]+ event\n")
# The prompt with one stray newline allowed between any two of its characters (see
# TestPmd._read_until).
PROMPT_RE = re.compile(b"\n?".join(re.escape(bytes([c])) for c in PROMPT))
# PMD log lines, which another thread may print in the middle of testpmd's prompt ("testpmd>"
# and " " are two writes): dropped from what commands return, kept in the transcript.
PMD_LOG_LINE = re.compile(rb"gaudi: [^\n]*\n")


class TestPmdError(Exception):
    pass


# The plugins a plugin needs beside it (its DT_NEEDED, found through RUNPATH $ORIGIN): the
# emulated NIC's plugin is loaded with -d and brings the PMD core in (issue 23).
COMPANIONS = {"librte_net_gaudi_emu.so": ["librte_net_gaudi.so"]}


def plugin_files(pmd_path):
    """pmd_path and the plugins of its directory it needs (COMPANIONS), that exist."""
    d, name = os.path.split(pmd_path)
    return [pmd_path] + [os.path.join(d, c) for c in COMPANIONS.get(name, [])
                         if os.path.isfile(os.path.join(d, c))]


def pmd_load_args(pmd_path):
    """EAL arguments that load the PMD at pmd_path (the build's copy; the emulated NIC's
    plugin, librte_net_gaudi_emu.so, loads the core librte_net_gaudi.so beside it).

    If a copy of either is installed in the autoload directory, testpmd would load that one
    too: accept them only if each is byte-identical to ours (then no -d), else fail.
    """
    if not pmd_path:
        return []
    if not os.path.isfile(pmd_path):
        raise TestPmdError(f"PMD not found: {pmd_path} (build it first: meson compile -C build)")
    files = plugin_files(pmd_path)
    same = 0
    for f in files:
        installed = os.path.join(PLUGIN_DIR, os.path.basename(f))
        if not os.path.exists(installed):
            continue
        if not filecmp.cmp(installed, f, shallow=False):
            raise TestPmdError(
                f"{installed} is installed and differs from the build's {f}; testpmd "
                "autoloads it, so the build's PMD cannot be tested. Remove it or reinstall "
                "(meson install -C build).")
        same += 1
    if same == len(files):
        return []
    return ["-d", plugin_path(os.path.abspath(pmd_path))]


def plugin_path(pmd):
    """pmd, or a private copy of it when a directory above it is world-writable (a clone under
    /tmp): EAL refuses a -d plugin there. The copy, with the plugins it needs beside it
    (plugin_files), goes to a directory of the user's own
    (~/.cache/gaudi-dpdk-plugins/<size>-<mtime>[-...]/), reused while the build is unchanged."""
    d = os.path.dirname(pmd)
    while True:
        if os.stat(d).st_mode & 0o002:
            break
        if d == "/":
            return pmd
        d = os.path.dirname(d)
    files = plugin_files(pmd)
    stats = [os.stat(f) for f in files]
    base = os.path.join(os.path.expanduser("~"), ".cache", "gaudi-dpdk-plugins")
    cache = os.path.join(base, "-".join(f"{st.st_size}-{st.st_mtime_ns}" for st in stats))
    os.makedirs(cache, mode=0o755, exist_ok=True)
    for f in files:
        copy = os.path.join(cache, os.path.basename(f))
        if not os.path.exists(copy):
            tmp = copy + f".{os.getpid()}"
            shutil.copy2(f, tmp)
            os.replace(tmp, copy)
    for p in (base, cache):
        os.chmod(p, 0o755)
    return os.path.join(cache, os.path.basename(pmd))


def sanitizer_env(pmd_path):
    """Environment for testpmd. A PMD built with -Db_sanitize=address needs the ASan runtime
    loaded first (testpmd itself is not instrumented): preload the one the PMD links."""
    env = dict(os.environ)
    if not pmd_path:
        return env
    ldd = subprocess.run(["ldd", pmd_path], capture_output=True, text=True).stdout
    asan = [ln.split("=>")[1].split()[0] for ln in ldd.splitlines()
            if "libasan.so" in ln and "=>" in ln]
    if asan:
        env["LD_PRELOAD"] = ":".join(asan + [p for p in [env.get("LD_PRELOAD")] if p])
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    return env


def eal_args(prefix, cores="0,1", mem_mb=1024):
    """EAL options for a run without hugepages or shared files. DPDK 22.11 rejects
    --in-memory together with --no-huge, so --no-shconf and a private --file-prefix are used."""
    return ["-l", cores, "--no-huge", "-m", str(mem_mb), "--no-shconf",
            "--file-prefix", prefix, "--no-pci", "--log-level", "lib.eal:error"]


def eal_huge_args(prefix, cores="0,1"):
    """EAL options for a run on hugepages, nothing shared: --in-memory (no hugepage files,
    no shared configuration) and a private --file-prefix for the telemetry socket. IOVA as VA,
    as with a VFIO-bound device: as physical addresses, 2-MB pages rarely make the PMD's
    larger IOVA-contiguous zones (its firmware queues take 2.1 MB)."""
    return ["-l", cores, "--in-memory", "--iova-mode=va", "--file-prefix", prefix, "--no-pci",
            "--log-level", "lib.eal:error"]


def runtime_dir(prefix):
    """EAL's runtime directory of file prefix `prefix` (DPDK 22.11 eal_create_runtime_dir:
    /var/run for root, else $XDG_RUNTIME_DIR or /tmp)."""
    base = "/var/run" if os.getuid() == 0 else os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    return os.path.join(base, "dpdk", prefix)


def meminfo():
    """/proc/meminfo as {field: number} (kB for sizes, a count for HugePages_*)."""
    out = {}
    with open("/proc/meminfo") as f:
        for line in f:
            k, v = line.split(":", 1)
            out[k] = int(v.split()[0])
    return out


def telemetry(prefix, command):
    """The reply of a DPDK telemetry command (e.g. "/ethdev/list") from the process of EAL
    file prefix `prefix`, decoded: None for a command the process refused (bad parameters)."""
    path = os.path.join(runtime_dir(prefix), "dpdk_telemetry.v2")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as s:
            s.settimeout(5)
            s.connect(path)
            s.recv(16384)   # the greeting: version, pid, max_output_len
            s.send(command.encode())
            reply = json.loads(s.recv(16384))
    except (OSError, ValueError) as e:
        raise TestPmdError(f"telemetry {path} {command}: {e}")
    return reply.get(command.split(",", 1)[0])


_STAT = re.compile(r"\b([RT]X-[a-z]+):\s*(\d+)")


def parse_port_stats(text):
    """Parse `show port stats` output into {port: {"RX-packets": n, "RX-errors": n, ...}}."""
    stats = {}
    parts = re.split(r"#+ NIC statistics for port (\d+)\s+#+", text)
    for i in range(1, len(parts) - 1, 2):
        block = parts[i + 1].split("Throughput")[0]
        stats[int(parts[i])] = {k: int(v) for k, v in _STAT.findall(block)}
    return stats


def parse_fwd_stats(text):
    """Parse the "Forward statistics for port N" blocks printed by `stop` / at exit."""
    stats = {}
    parts = re.split(r"-+ Forward statistics for port (\d+)\s+-+", text)
    for i in range(1, len(parts) - 1, 2):
        block = re.split(r"-{20,}", parts[i + 1])[0]
        stats[int(parts[i])] = {k: int(v) for k, v in _STAT.findall(block)}
    return stats


class TestPmd:
    """One interactive testpmd process. Use as a context manager; the transcript of the whole
    session is kept in self.transcript (printed by callers on failure)."""

    def __init__(self, vdevs, pmd_path=None, app_args=(), cores="0,1", prefix=None,
                 start_timeout=60, extra_eal=(), eal=None, wrapper=()):
        """eal: EAL options replacing eal_args(prefix, cores), e.g. for hugepages and a shared
        configuration that secondary processes attach to (tests/capture_tools.py).
        wrapper: a command testpmd runs under, e.g. valgrind (tests/lib/bench.py)."""
        self.prefix = prefix or f"gaudi-{os.getpid()}-{time.monotonic_ns() % 100000}"
        base = list(eal) if eal is not None else eal_args(self.prefix, cores)
        cmd = ["stdbuf", "-oL"] + list(wrapper) + [TESTPMD] + base + list(extra_eal)
        cmd += pmd_load_args(pmd_path)
        for v in vdevs:
            cmd += ["--vdev", v]
        cmd += ["--", "-i"] + list(app_args)
        self.cmdline = cmd
        self.transcript = "$ " + " ".join(cmd) + "\n"
        self._buf = b""
        self.rc = None
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, env=sanitizer_env(pmd_path))
        try:
            self._read_until(PROMPT, start_timeout)
        except TestPmdError as e:
            self.close()
            raise TestPmdError(f"{e}; output:\n{self.transcript[-3000:]}") from None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _read_until(self, pattern, timeout):
        end = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        # The prompt may arrive split by another thread's event line, whose leading newline
        # then lands inside it ("testp" "\n" "md" "Port 1: ... event\n" "> ", seen in CI):
        # the event line is dropped below, and the prompt matched with a newline anywhere.
        want = PROMPT_RE if pattern == PROMPT else re.compile(re.escape(pattern))
        while (found := want.search(self._buf)) is None:
            left = end - time.monotonic()
            if left <= 0:
                raise TestPmdError(f"testpmd: no {pattern!r} within {timeout}s")
            ready, _, _ = select.select([fd], [], [], min(left, 0.5))
            if ready:
                data = os.read(fd, 1 << 16)
                if not data:
                    self.rc = self.proc.wait()
                    raise TestPmdError(f"testpmd exited (rc={self.rc}) before {pattern!r}")
                self._buf = PMD_LOG_LINE.sub(b"", EVENT_LINE.sub(b"", self._buf + data))
                self.transcript += data.decode(errors="replace")
        out = self._buf[:found.start()] + pattern
        self._buf = self._buf[found.end():]
        return out.decode(errors="replace")

    def cmd(self, line, timeout=60):
        """Run one testpmd command and return its output."""
        self.transcript += line + "\n"
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise TestPmdError(f"testpmd is gone (sending {line!r})")
        return self._read_until(PROMPT, timeout)

    def port_stats(self):
        return parse_port_stats(self.cmd("show port stats all"))

    def quit(self, timeout=120):
        """Send quit (stops forwarding, closes ports: pcap files are flushed) and wait.
        Returns the output after the command; raises if testpmd fails or hangs."""
        if self.rc is not None:
            return ""
        self.transcript += "quit\n"
        try:
            self.proc.stdin.write(b"quit\n")
        except BrokenPipeError:
            pass
        try:
            rest, _ = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise TestPmdError(f"testpmd did not exit within {timeout}s after quit")
        out = (self._buf + rest).decode(errors="replace")
        self._buf = b""
        self.transcript += out
        self.rc = self.proc.returncode
        self._cleanup_runtime_dir()
        if self.rc != 0:
            raise TestPmdError(f"testpmd exited with status {self.rc}")
        if "Bye..." not in out:
            raise TestPmdError("testpmd exited without 'Bye...'")
        return out

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.rc is None:
            self.rc = self.proc.returncode
        self._cleanup_runtime_dir()

    def _cleanup_runtime_dir(self):
        # --no-shconf and --in-memory still create a runtime directory per prefix.
        shutil.rmtree(runtime_dir(self.prefix), ignore_errors=True)


def wait_for(pmd, predicate, timeout, period=0.2, stall=5.0):
    """Poll `show port stats all` until predicate(stats) is true, the timeout expires, or the
    counters have not moved for `stall` seconds; return the last stats."""
    now = time.monotonic()
    end, last, moved = now + timeout, None, now
    while True:
        stats = pmd.port_stats()
        now = time.monotonic()
        if stats != last:
            last, moved = stats, now
        if predicate(stats) or now > end or now - moved > stall:
            return stats
        time.sleep(period)
