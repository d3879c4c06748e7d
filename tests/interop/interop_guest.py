# SPDX-License-Identifier: BSD-3-Clause
"""The interop test's guest (interop.py): a small Linux with Soft-RoCE under QEMU TCG, built
from Debian packages.

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
import socket
import subprocess
import threading
import time
from pathlib import Path

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
