# SPDX-License-Identifier: BSD-3-Clause
"""Running the RoCE examples (examples/roce_*) as separate processes on net_gaudi_emu ports
cabled over the `udp` wire, for the tests that pair two of them (roce_examples_neigh.py,
roce_perftest_pair.py)."""
import os
import socket
import subprocess


def free_port(kind):
    """A free local port of kind (socket.SOCK_DGRAM or SOCK_STREAM)."""
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def start(exe, prefix, lcore, udp_local, udp_remote, args, stdout=subprocess.PIPE):
    """exe on lcore with one emulated port whose wire is udp_local <-> udp_remote; output to
    stdout (a pipe by default), stderr with it."""
    cmd = [exe, '--no-huge', '-m', '512', '--no-shconf', '--no-pci', '--iova-mode=va',
           '-l', str(lcore), '--file-prefix', prefix, '--log-level=lib.eal:warning', '-d',
           os.environ['GAUDI_PMD'], '--vdev',
           f'net_gaudi_emu0,ports=1,wire=udp,udp_local=0:127.0.0.1:{udp_local},'
           f'udp_remote=0:127.0.0.1:{udp_remote}', '--', *args]
    return subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.STDOUT, text=True)


def listening(port):
    """True once a socket listens on local TCP port (read from /proc/net/tcp, without
    connecting: the examples accept one connection only)."""
    for line in open('/proc/net/tcp').read().splitlines()[1:]:
        f = line.split()
        if f[3] == '0A' and int(f[1].rsplit(':', 1)[1], 16) == port:
            return True
    return False
