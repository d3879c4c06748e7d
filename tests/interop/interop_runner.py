# SPDX-License-Identifier: BSD-3-Clause
"""Our side of the interop runs (interop.py): an example on a net_gaudi_emu port cabled to the
guest (Ours), the Runner that does one run, checks it and keeps its log and capture, and the
RDMA CM pair helpers."""
import os
import re
import struct
import subprocess
import sys
import time
from pathlib import Path


# tests/lib: plugin_path() (a private copy of the PMD when the build sits below a world-writable
# directory such as a clone in /tmp, where EAL refuses a -d plugin).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'lib'))
from testpmd_session import plugin_path  # noqa: E402

from interop_guest import GUEST_MAC, GuestError, TC, free_tcp_port  # noqa: E402


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



REPORT_RE = re.compile(r'^\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$', re.M)



# perftest's clock calibration may warn on stderr ("Correlation coefficient ...", one line)
# while its report sits in stdout's buffer; both go to one file, so the warning can land in
# the middle of a report line. Cut out with its own newline, it leaves the line whole.
CLOCK_WARNING_RE = re.compile(r'Correlation coefficient[^\n]*\n?')


def client_bw(text):
    """BW average [MB/sec] of the first report line perftest's format prints, or None."""
    m = REPORT_RE.search(CLOCK_WARNING_RE.sub('', text))
    return float(m.group(4)) if m else None
