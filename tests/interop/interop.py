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

The guest: a small Linux with Soft-RoCE under QEMU TCG, built from Debian packages.

The kernel is Debian's linux-image package (apt-get download + dpkg-deb -x); the initramfs
holds busybox-static, the modules rxe needs, and the host's rdma-core tools with the
libraries ldd lists. Everything is cached in one directory (never in the source tree).

The guest has two NICs: eth0 (e1000) on QEMU's datagram netdev, the RoCE path, cabled to a
net_gaudi_emu port's `udp` wire; eth1 (e1000) on user networking, whose host port forwards
carry the TCP exchanges. It is driven through the serial console: /init runs each line it
reads there as a shell command and prints a marker with the exit status.
See ../shared/research/interop-feasibility.md for what was checked on these machines.
"""
import gzip
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

# tests/lib: plugin_path() (a private copy of the PMD when the build sits below a world-writable
# directory such as a clone in /tmp, where EAL refuses a -d plugin).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'lib'))
from testpmd_session import plugin_path  # noqa: E402

# Load order (interop-feasibility.md): without crc32_generic rxe fails to init its crc32.
# configfs .. rdma_ucm: the RDMA CM that librdmacm's tools (rping, ...) use. sch_netem: the
# guest's loss in the loss runs (tc qdisc ... netem loss N%).
MODULES = ['crc32_generic', 'ib_core', 'ib_uverbs', 'configfs', 'ib_cm', 'iw_cm', 'rdma_cm',
           'rdma_ucm', 'udp_tunnel', 'ip6_udp_tunnel', 'rdma_rxe', 'e1000', 'sch_netem']
TOOLS = ['ibv_rc_pingpong', 'ibv_ud_pingpong', 'ibv_srq_pingpong', 'ibv_devices', 'ibv_devinfo', 'rdma', 'ip',
         'ib_write_bw', 'ib_read_bw', 'ib_send_bw', 'ib_atomic_bw', 'ib_write_lat', 'ib_read_lat',
         'ib_send_lat', 'rping', 'rdma_server', 'rdma_client',
         'udaddy', 'tc']
PROVIDER_DIR = '/usr/lib/x86_64-linux-gnu/libibverbs'
# Busybox's own tc applet runs before PATH (as its ip): iproute2's, by its path, has netem.
TC = shutil.which('tc') or '/usr/sbin/tc'
DLOPENED = ['/lib/x86_64-linux-gnu/libgcc_s.so.1']  # see build_initramfs

GUEST_MAC = '52:54:00:77:00:02'
GUEST_IP = '192.168.77.2'
HOST_IP = '192.168.77.1'     # our side (the emulated Gaudi port)
GUEST_NETDEV_MTU = 4200       # rxe's active MTU is then 4096

INIT = r'''#!/bin/sh
export PATH=/usr/bin:/usr/sbin:/bin:/sbin
# Debian's busybox-static runs its own applets before PATH: iproute2's ip by function.
ip() { @IP@ "$@"; }
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /tmp /run
dmesg -n 1
# The RoCE NIC's MAC and address: the kernel command line's roce_mac= / roce_ip= (the
# reference's second guest), else the defaults.
roce_mac=@GUEST_MAC@; roce_ip=@GUEST_IP@
for a in $(cat /proc/cmdline); do
	case $a in roce_mac=*) roce_mac=${a#roce_mac=};; roce_ip=*) roce_ip=${a#roce_ip=};; esac
done
for m in @MODULES@; do insmod /lib/modules/$m.ko || echo "@@INIT-ERROR insmod $m"; done
ip link set lo up
for d in /sys/class/net/eth*; do
	n=${d##*/}
	if [ "$(cat $d/address)" = "$roce_mac" ]; then roce=$n; else mgmt=$n; fi
done
ip link set $roce mtu @MTU@ up
ip addr add $roce_ip/24 dev $roce
ip link set $mgmt up
ip addr add 10.0.2.15/24 dev $mgmt
ip route add default via 10.0.2.2
# Soft-RoCE on the RoCE NIC.
rdma link add rxe0 type rxe netdev $roce || echo "@@INIT-ERROR rdma link"
echo "@@ROCE-NETDEV $roce"
stty -echo
echo "@@READY"
while read -r line; do eval "$line"; done
poweroff -f
'''


class GuestError(Exception):
    pass


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def kernel_package():
    """The linux-image-<ver>-amd64 package linux-image-amd64 currently depends on."""
    out = run(['apt-cache', 'depends', 'linux-image-amd64']).stdout
    m = re.search(r'Depends: (linux-image-[0-9][^\s]*-amd64)\b', out)
    if not m:
        raise GuestError('apt-cache: linux-image-amd64 names no kernel package')
    return m.group(1)


def fetch_kernel(cache: Path):
    """Downloads and unpacks the kernel package once; returns (vmlinuz, modules dir)."""
    pkg = kernel_package()
    root = cache / pkg
    ver = pkg[len('linux-image-'):]
    vmlinuz = root / 'boot' / f'vmlinuz-{ver}'
    mods = root / 'lib' / 'modules' / ver / 'kernel'
    if vmlinuz.exists() and mods.exists():
        return vmlinuz, mods
    dl = cache / 'download'
    dl.mkdir(parents=True, exist_ok=True)
    for f in dl.glob(f'{pkg}_*.deb'):
        f.unlink()
    # Root's apt cannot drop to _apt in a directory _apt cannot write: harmless warning.
    run(['apt-get', 'download', pkg], cwd=dl)
    debs = list(dl.glob(f'{pkg}_*.deb'))
    if not debs:
        raise GuestError(f'apt-get download {pkg} produced no file')
    tmp = cache / (pkg + '.tmp')
    shutil.rmtree(tmp, ignore_errors=True)
    run(['dpkg-deb', '-x', str(debs[0]), str(tmp)])
    shutil.rmtree(root, ignore_errors=True)
    tmp.rename(root)
    debs[0].unlink()
    return vmlinuz, mods


def ldd_deps(path):
    out = run(['ldd', path]).stdout
    deps = []
    for line in out.splitlines():
        m = re.search(r'(/\S+) \(0x', line)
        if m:
            deps.append(m.group(1))
    return deps


def build_initramfs(cache: Path, mods: Path):
    """initramfs.cpio.gz under cache, rebuilt when its inputs' list changes."""
    tools = [shutil.which(t) for t in TOOLS]
    missing = [t for t, p in zip(TOOLS, tools) if p is None]
    if missing:
        raise GuestError('missing on this host (buildtools/setup-debian.sh): ' + ' '.join(missing))
    busybox = '/bin/busybox'
    providers = sorted(str(p) for p in Path(PROVIDER_DIR).glob('librxe-rdmav*.so'))
    if not os.path.exists(busybox) or not providers:
        raise GuestError('need busybox-static and ibverbs-providers (buildtools/setup-debian.sh)')
    ko = {}
    for m in MODULES:
        found = list(mods.rglob(m + '.ko')) + list(mods.rglob(m + '.ko.xz'))
        if not found:
            raise GuestError(f'kernel module {m} not in {mods}')
        ko[m] = found[0]
    key = '\n'.join([str(mods), busybox, *tools, *providers, *DLOPENED, INIT,
                     *(str(os.stat(p).st_mtime_ns) for p in tools + providers)])
    img = cache / 'initramfs.cpio.gz'
    stamp = cache / 'initramfs.key'
    if img.exists() and stamp.exists() and stamp.read_text() == key:
        return img
    root = cache / 'initramfs.root'
    shutil.rmtree(root, ignore_errors=True)
    for d in ['bin', 'sbin', 'usr/bin', 'usr/sbin', 'proc', 'sys', 'dev', 'tmp', 'etc/libibverbs.d',
              'lib/modules']:
        (root / d).mkdir(parents=True, exist_ok=True)
    shutil.copy2(busybox, root / 'bin' / 'busybox')
    for applet in run([busybox, '--list']).stdout.split():
        if applet != 'busybox':
            dst = root / 'bin' / applet
            if not dst.exists():
                dst.symlink_to('busybox')
    libs = set()
    for t in tools + providers:
        libs.update(ldd_deps(t))
    # glibc dlopen()s libgcc_s for pthread_exit/pthread_cancel (rping's threads end so); ldd
    # does not list it, and without it rping aborts at exit.
    libs.update(p for p in DLOPENED if os.path.exists(p))
    for p in tools:
        dst = root / p.lstrip('/')
        dst.parent.mkdir(parents=True, exist_ok=True)
        if dst.is_symlink() or dst.exists():
            dst.unlink()  # the iproute2 `ip` replaces busybox's
        shutil.copy2(p, dst)
    for p in sorted(libs) + providers:
        dst = root / p.lstrip('/')
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(os.path.realpath(p), dst)
    # /lib64/ld-linux-x86-64.so.2 and /lib/x86_64-linux-gnu are reached through /usr on
    # Debian 12 (merged /usr); ldd names the paths the loader asks for, copied as they are.
    shutil.copy2('/etc/libibverbs.d/rxe.driver', root / 'etc/libibverbs.d/rxe.driver')
    for m, p in ko.items():
        if p.suffix == '.xz':
            run(['sh', '-c', f'xz -dc "{p}" > "{root}/lib/modules/{m}.ko"'])
        else:
            shutil.copy2(p, root / 'lib/modules' / (m + '.ko'))
    init = (INIT.replace('@MODULES@', ' '.join(MODULES)).replace('@GUEST_MAC@', GUEST_MAC)
            .replace('@GUEST_IP@', GUEST_IP).replace('@MTU@', str(GUEST_NETDEV_MTU))
            .replace('@IP@', shutil.which('ip')))
    (root / 'init').write_text(init)
    (root / 'init').chmod(0o755)
    files = run(['find', '.', '-mindepth', '1'], cwd=root).stdout
    cpio = subprocess.run(['cpio', '-o', '-H', 'newc', '--quiet'], cwd=root, input=files.encode(),
                          check=True, capture_output=True).stdout
    tmp = cache / 'initramfs.cpio.gz.tmp'
    with gzip.open(tmp, 'wb', compresslevel=1) as f:
        f.write(cpio)
    tmp.rename(img)
    stamp.write_text(key)
    shutil.rmtree(root, ignore_errors=True)
    return img


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def free_tcp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


class Guest:
    """A booted guest. dgram_local/remote: QEMU's UDP ports (remote = our emu port's socket);
    fwd: {host TCP port: guest TCP port}."""

    def __init__(self, vmlinuz, initrd, dgram_local, dgram_remote, fwd, log_path,
                 mac=GUEST_MAC, ip=GUEST_IP):
        self.log = open(log_path, 'w', buffering=1)
        hostfwd = ','.join(f'hostfwd=tcp:127.0.0.1:{h}-:{g}' for h, g in fwd.items())
        cmd = ['qemu-system-x86_64', '-accel', 'tcg', '-m', '512', '-smp', '1',
               '-nodefaults', '-no-user-config', '-display', 'none', '-no-reboot',
               '-serial', 'stdio', '-kernel', str(vmlinuz), '-initrd', str(initrd),
               '-append', f'console=ttyS0 quiet panic=-1 net.ifnames=0 roce_mac={mac} roce_ip={ip}',
               '-netdev', f'dgram,id=n0,local.type=inet,local.host=127.0.0.1,'
                          f'local.port={dgram_local},remote.type=inet,remote.host=127.0.0.1,'
                          f'remote.port={dgram_remote}',
               '-device', f'e1000,netdev=n0,mac={mac}',
               '-netdev', f'user,id=n1,net=10.0.2.0/24{"," if hostfwd else ""}{hostfwd}',
               '-device', f'e1000,netdev=n1,mac=52:54:00:77:01:{mac[-2:]}']
        self.log.write('# ' + ' '.join(cmd) + '\n')
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.buf = ''
        self.cv = threading.Condition()
        self.seq = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            data = self.proc.stdout.read1(65536)
            if not data:
                break
            text = data.decode('utf-8', 'replace').replace('\r', '')
            self.log.write(text)
            with self.cv:
                self.buf += text
                self.cv.notify_all()
        with self.cv:
            self.cv.notify_all()

    def expect(self, pattern, timeout):
        """Waits for a regex in the console output after what was consumed; returns the match
        and consumes through it."""
        rx = re.compile(pattern, re.M)
        end = time.monotonic() + timeout
        with self.cv:
            while True:
                m = rx.search(self.buf)
                if m:
                    self.buf = self.buf[m.end():]
                    return m
                left = end - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    tail = self.buf[-2000:]
                    raise GuestError(f'guest: no {pattern!r} within {timeout} s '
                                     f'(qemu {"exited" if self.proc.poll() is not None else "running"});'
                                     f' console tail:\n{tail}')
                self.cv.wait(min(left, 1.0))

    def boot(self, timeout=180):
        m = self.expect(r'@@(ROCE-NETDEV \w+|INIT-ERROR[^\n]*)\n', timeout)  # whole lines
        if not m.group(1).startswith('ROCE-NETDEV'):
            raise GuestError('guest init failed: ' + m.group(1))
        self.roce_dev = m.group(1).split()[1]
        self.expect(r'@@READY', timeout)

    def sh(self, command, timeout=60):
        """Runs one shell line in the guest; returns (status, output)."""
        self.seq += 1
        n = self.seq
        line = f'echo "@@B{n}"; {{ {command} ; }} 2>&1; echo "@@E{n} $?"\n'
        self.proc.stdin.write(line.encode())
        self.proc.stdin.flush()
        self.expect(rf'^@@B{n}\n', timeout)
        m = self.expect(rf'^((?:.*\n)*?)@@E{n} (\d+)\n', timeout)
        return int(m.group(2)), m.group(1)

    def wait_active(self, timeout=30):
        """Waits for rxe0's port to be ACTIVE (the e1000 link comes up a while after `ip link
        set up` or an MTU change; rxe refuses or stalls address resolution until then)."""
        st, out = self.sh(f't=0; until grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state; do'
                          f' [ $t -ge {timeout * 10} ] && break; usleep 100000; t=$((t+1)); done;'
                          f' cat /sys/class/infiniband/rxe0/ports/1/state', timeout + 10)
        if 'ACTIVE' not in out:
            raise GuestError('rxe0 port not ACTIVE: ' + out)

    def start(self, command):
        """Starts a background job; returns its id for wait()."""
        self.seq += 1
        n = self.seq
        st, out = self.sh(f'( {command} ) > /tmp/job{n} 2>&1 & echo $! > /tmp/job{n}.pid')
        if st != 0:
            raise GuestError(f'cannot start {command}: {out}')
        return n

    def wait(self, job, timeout):
        """Waits for a background job; returns (status, output). Killed after timeout."""
        st, out = self.sh(
            f'p=$(cat /tmp/job{job}.pid); t=0; while kill -0 $p 2>/dev/null && [ $t -lt {timeout * 10} ];'
            f' do usleep 100000; t=$((t+1)); done; kill -0 $p 2>/dev/null && kill -9 $p;'
            f' wait $p; r=$?; cat /tmp/job{job}; exit_status=$r; (exit $r)', timeout + 30)
        return st, out

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b'poweroff -f\n')
                self.proc.stdin.flush()
                self.proc.wait(20)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.log.close()


# ---------------------------------------------------------------------------------------------
# Our side and the runs
# ---------------------------------------------------------------------------------------------

SKIP = 77
OUR_MAC = '02:1d:a3:00:00:00'   # net_gaudi_emu port 0 (gaudi_emu.cpp: 02:1d:a3 + port)
GUEST_TCP = 18515                 # the tools' default TCP port, forwarded from the host


class Ours:
    """Our side: an example on a net_gaudi_emu port cabled (wire=udp) to the guest's eth0."""

    def __init__(self, exe, args, udp_local, udp_remote, pcap, log_path, vdev_extra=''):
        pmd = plugin_path(os.path.abspath(os.environ['GAUDI_PMD']))
        eal = ['--no-huge', '-m', '512', '--no-shconf', '--no-pci', '--iova-mode=va',
               '-l', '1', '--log-level=lib.eal:warning', '-d', pmd, '--vdev',
               f'net_gaudi_emu0,ports=1,wire=udp,udp_local=0:127.0.0.1:{udp_local},'
               f'udp_remote=0:127.0.0.1:{udp_remote}{vdev_extra}']
        self.cmd = [exe, *eal, '--', f'--pcap={pcap}', *args]
        self.log_path = log_path
        self.out = open(log_path, 'w')
        self.out.write('# ' + ' '.join(self.cmd) + '\n')
        self.out.flush()
        self.proc = subprocess.Popen(self.cmd, stdout=self.out, stderr=subprocess.STDOUT)

    def wait(self, timeout):
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            rc = 'timeout'
        self.out.close()
        return rc, Path(self.log_path).read_text()


def tcp_listening(port):
    """True once a socket listens on TCP port (from /proc/net/tcp{,6}, without connecting:
    the tools accept one connection only)."""
    for f in ('/proc/net/tcp', '/proc/net/tcp6'):
        try:
            for line in Path(f).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == '0A' and int(fields[1].rsplit(':', 1)[1], 16) == port:
                    return True
        except OSError:
            pass
    return False


def capture_tx_frames(pcap):
    """Frames our port sent in a capture (--pcap, libpcap format): source MAC OUR_MAC."""
    mac = bytes.fromhex(OUR_MAC.replace(':', ''))
    data = Path(pcap).read_bytes()
    if len(data) < 24 or data[:4] not in (b'\xd4\xc3\xb2\xa1', b'\xa1\xb2\xc3\xd4'):
        return None
    order = '<' if data[:4] == b'\xd4\xc3\xb2\xa1' else '>'
    n, off = 0, 24
    while off + 16 <= len(data):
        caplen = struct.unpack_from(order + 'I', data, off + 8)[0]
        frame = data[off + 16:off + 16 + caplen]
        if frame[6:12] == mac:
            n += 1
        off += 16 + caplen
    return n


def bytes_reported(text):
    """The byte counts a pingpong prints ("N bytes in S seconds")."""
    return [int(x) for x in re.findall(r'^(\d+) bytes in ', text, re.M)]


class Runner:
    def __init__(self, guest, out_dir, udp_ours, udp_guest, host_fwd):
        self.g = guest
        self.out = out_dir
        self.udp_ours = udp_ours
        self.udp_guest = udp_guest
        self.host_fwd = host_fwd
        self.results = []
        # run name: (ours sent, rxe sent, data frames needed, ours sends, client's MB/s)
        self.frames = {}
        self.only = re.compile(os.environ.get('INTEROP_ONLY', '.'))

    def decode(self, pcap, name):
        dec = os.environ.get('ROCE_DECODE')
        txt = self.out / (name + '.decoded.txt')
        if dec and pcap.exists():
            r = subprocess.run([dec, str(pcap)], capture_output=True, text=True)
            txt.write_text(r.stdout + r.stderr)
            lines = r.stdout.splitlines()
            show = lines if len(lines) <= 40 else lines[:20] + [f'... ({len(lines) - 40} frames)'] + lines[-20:]
            return '\n'.join('      ' + x for x in show)
        return '      (no capture)'

    def record(self, name, ok, detail, pcap):
        self.results.append((name, ok, detail))
        print(f'{"PASS" if ok else "FAIL"} {name}: {detail}', flush=True)
        if ok and not os.environ.get('INTEROP_KEEP_PCAP'):
            pcap.unlink(missing_ok=True)
        else:
            print(f'    capture {pcap}, decoded:\n' + self.decode(pcap, name), flush=True)

    def link_downs(self):
        st, out = self.g.sh('cat /sys/class/infiniband/rxe0/ports/1/hw_counters/link_downed')
        return out.strip()

    def pair(self, name, *args, **kw):
        """One run (see once()). A run during which the guest's NIC was reset is done again,
        once: under TCG on a loaded machine the guest's e1000 may miss its TX watchdog (5 s)
        and reset itself, taking the link down for seconds; that says nothing about RoCE."""
        if not self.only.search(name):
            return
        self.g.wait_active()
        before = self.link_downs()
        ok, detail, pcap = self.once(name, *args, **kw)
        if not ok and self.link_downs() != before:
            print(f'RETRY {name}: the guest NIC was reset during the run (link_downed '
                  f'{before} -> {self.link_downs()})', flush=True)
            self.g.wait_active(60)
            ok, detail, pcap = self.once(name, *args, **kw)
            detail += ' (second attempt: the guest NIC was reset during the first)'
        self.record(name, ok, detail, pcap)

    def rxe_sent(self):
        st, out = self.g.sh('cat /sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts')
        return int(out.strip()) if st == 0 else 0

    def once(self, name, guest_cmd, our_exe, our_args, guest_is_server, expect_bytes, check,
             timeout=60, loss=0, data_frames=None):
        """One run: guest_cmd in the guest, our example on the host; check(our_out, guest_out)
        returns (ok, detail). loss: percent of the frames each side sends lost on the wire (the
        guest's netem, our port's wire_drop fault). data_frames: (frames the data needs, True
        if our side sends the data): the detail then says how many frames each side sent."""
        pcap = self.out / (name + '.pcap')
        log = self.out / (name + '.ours.log')
        vdev_extra = ''
        if loss:
            st, out = self.g.sh(f'{TC} qdisc replace dev {self.g.roce_dev} root netem loss {loss}%')
            if st != 0:
                return False, f'tc netem: {out.strip()}', pcap
            vdev_extra = f',fault_kinds=wire_drop,fault_rate={loss / 100},fault_seed=24'
        sent0 = self.rxe_sent()
        t0 = time.monotonic()
        try:
            ok, detail = self._once(name, guest_cmd, our_exe, our_args, guest_is_server,
                                    expect_bytes, check, timeout, pcap, log, vdev_extra)
        finally:
            if loss:
                self.g.sh(f'{TC} qdisc del dev {self.g.roce_dev} root')
        if data_frames:
            need, ours_send = data_frames
            m = re.search(r'^ transport: frames rx \d+ tx (\d+)', Path(log).read_text(), re.M)
            ours = int(m.group(1)) if m else None
            rxe = self.rxe_sent() - sent0
            sender = ours if ours_send else rxe
            ratio = f'{sender / need:.2f}' if sender is not None else '?'
            detail += (f'; frames sent: ours {ours}, rxe {rxe}, {need} data frames needed, '
                       f'sender {"ours" if ours_send else "rxe"} {ratio} per data frame')
            client = (Path(log).read_text() if guest_is_server else
                      (self.out / (name + '.guest.log')).read_text())
            self.frames[name] = (ours, rxe, need, ours_send, client_bw(client))
        detail += f' ({time.monotonic() - t0:.1f} s)'
        return ok, detail, pcap

    def _once(self, name, guest_cmd, our_exe, our_args, guest_is_server, expect_bytes, check,
              timeout, pcap, log, vdev_extra):
        if guest_is_server:
            job = self.g.start(guest_cmd)
            # Wait for the guest tool to listen before our client connects (no retry in them).
            for _ in range(100):
                st, o = self.g.sh(f'netstat -ltn | grep -q ":{GUEST_TCP} "')
                if st == 0:
                    break
                time.sleep(0.2)
            ours = Ours(our_exe, our_args + ['-p', str(self.host_fwd), '127.0.0.1'], self.udp_ours,
                        self.udp_guest, pcap, log, vdev_extra)
        else:
            port = free_tcp_port()
            ours = Ours(our_exe, our_args + ['-p', str(port)], self.udp_ours, self.udp_guest,
                        pcap, log, vdev_extra)
            for _ in range(200):
                if tcp_listening(port) or ours.proc.poll() is not None:
                    break
                time.sleep(0.05)
            try:
                job = self.g.start(guest_cmd.replace('@PORT@', str(port)))
            except GuestError:
                ours.wait(0)  # kills it
                raise
        rc, our_out = ours.wait(timeout)
        gst, guest_out = self.g.wait(job, 30 if rc != 'timeout' else 5)
        (self.out / (name + '.guest.log')).write_text(f'# {guest_cmd}\n{guest_out}')
        ok, detail = check(rc, our_out, gst, guest_out, expect_bytes)
        # The capture holds each frame we sent once (a frame the PMD did not take at first was
        # logged on every retry before, issue 24): as many as roce_perftest's transport counter.
        m = re.search(r'^ transport: frames rx \d+ tx (\d+)', our_out, re.M)
        if ok and m and pcap.exists():
            in_capture = capture_tx_frames(pcap)
            if in_capture != int(m.group(1)):
                ok, detail = False, (f'capture holds {in_capture} frames sent, the transport '
                                     f'counted {m.group(1)}')
        if ok and f'peer MAC {GUEST_MAC} (resolved' not in our_out:
            ok, detail = False, f'our side did not report resolving the guest to {GUEST_MAC}'
        if not ok:
            # What rxe saw (its counters that are not zero) and the kernel's last words.
            _, hw = self.g.sh('cd /sys/class/infiniband/rxe0/ports/1/hw_counters &&'
                              ' grep -v "^0$" * | tr "\\n" " "; echo; dmesg | tail -5')
            (self.out / (name + '.guest.log')).write_text(f'# {guest_cmd}\n{guest_out}\n# rxe\n{hw}')
            detail += '\n    rxe: ' + '\n    rxe: '.join(hw.strip().splitlines())
            detail += '\n    ours: ' + '\n    ours: '.join(our_out.strip().splitlines()[-8:])
            detail += '\n    guest: ' + '\n    guest: '.join(guest_out.strip().splitlines()[-8:])
        return ok, detail


def cm_pair(r, name, guest_cmd, our_exe, our_args, guest_is_server, expect, check, timeout=60):
    """A run of two RDMA CM tools: no TCP side channel, the client connects over RoCE (its REQ
    to the server's QP1). The server starts first; the client once the server listens (the guest's
    rping: a listening cm_id in `rdma res show cm_id`; ours: its 'listening' line)."""
    if not r.only.search(name):
        return
    r.g.wait_active()
    # As Runner.pair: a run during which the guest's NIC was reset (its e1000 TX watchdog under
    # TCG on a loaded machine; rxe's port is Down meanwhile) is done once more.
    before = r.link_downs()
    ok, detail, pcap = cm_once(r, name, guest_cmd, our_exe, our_args, guest_is_server, expect,
                               check, timeout)
    if not ok and r.link_downs() != before:
        print(f'RETRY {name}: the guest NIC was reset during the run (link_downed '
              f'{before} -> {r.link_downs()})', flush=True)
        r.g.wait_active(60)
        ok, detail, pcap = cm_once(r, name, guest_cmd, our_exe, our_args, guest_is_server,
                                   expect, check, timeout)
        detail += ' (second attempt: the guest NIC was reset during the first)'
    r.record(name, ok, detail, pcap)


def cm_once(r, name, guest_cmd, our_exe, our_args, guest_is_server, expect, check, timeout):
    """One run of cm_pair: (ok, detail, capture)."""
    pcap = r.out / (name + '.pcap')
    log = r.out / (name + '.ours.log')
    t0 = time.monotonic()
    if guest_is_server:
        job = r.g.start(guest_cmd)
        for _ in range(100):
            st, o = r.g.sh('rdma res show cm_id | grep -q LISTEN')
            if st == 0:
                break
            time.sleep(0.2)
        ours = Ours(our_exe, our_args, r.udp_ours, r.udp_guest, pcap, log)
    else:
        ours = Ours(our_exe, our_args, r.udp_ours, r.udp_guest, pcap, log)
        for _ in range(200):
            if 'listening' in Path(log).read_text() or ours.proc.poll() is not None:
                break
            time.sleep(0.05)
        job = r.g.start(guest_cmd)
    rc, our_out = ours.wait(timeout)
    gst, guest_out = r.g.wait(job, 30 if rc != 'timeout' else 5)
    (r.out / (name + '.guest.log')).write_text(f'# {guest_cmd}\n{guest_out}')
    ok, detail = check(rc, our_out, gst, guest_out, expect)
    detail += f' ({time.monotonic() - t0:.1f} s)'
    if not ok:
        _, hw = r.g.sh('cd /sys/class/infiniband/rxe0/ports/1/hw_counters &&'
                       ' grep -v "^0$" * | tr "\\n" " "; echo; dmesg | tail -5')
        detail += '\n    rxe: ' + '\n    rxe: '.join(hw.strip().splitlines())
        detail += '\n    ours: ' + '\n    ours: '.join(our_out.strip().splitlines()[-8:])
        detail += '\n    guest: ' + '\n    guest: '.join(guest_out.strip().splitlines()[-8:])
    return ok, detail, pcap


def exit_problems(rc, gst):
    """What the exit statuses say went wrong: ours (rc) and the guest's (gst), each if not 0."""
    return (([f'ours exited {rc}'] if rc != 0 else []) +
            ([f'guest exited {gst}'] if gst != 0 else []))


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




REPORT_RE = re.compile(r'^\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$', re.M)


# perftest's clock calibration may warn on stderr ("Correlation coefficient ...", one line)
# while its report sits in stdout's buffer; both go to one file, so the warning can land in
# the middle of a report line. Cut out with its own newline, it leaves the line whole.
CLOCK_WARNING_RE = re.compile(r'Correlation coefficient[^\n]*\n?')


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


def client_bw(text):
    """BW average [MB/sec] of the first report line perftest's format prints, or None."""
    m = REPORT_RE.search(CLOCK_WARNING_RE.sub('', text))
    return float(m.group(4)) if m else None


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
