#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end: the PMD's ethdev features through stock dpdk-testpmd's interactive commands.

One testpmd process on net_gaudi_emu (ports=2, wire=pair) checks the output of:
  show port info 0            speed capability, link, MTU range, MAC filter count, FW version
  show port xstats 0          MAC counters by size bucket after `start tx_first` / `stop`
  show port 0 module_eeprom   SFF-8636 identifier 0x11 (QSFP28)
  show port 0 fec_capa / fec_mode, set port 0 fec_mode ... (round trip)
  port config mtu 0 ...       on a started port (within the slot size) and out of range
  show port 0 rxq 0 desc 0 status / txq
  port stop 0 / port start 0  link down/up seen on the peer (LSC event printed)
  set link-down/up port 0
  port 0 rxq 0 stop/start     deferred queue control
  show port 0 rx_offload capabilities, show fwd stats
Environment: GAUDI_PMD (the built librte_net_gaudi_emu.so; it loads librte_net_gaudi.so).
"""
import re
import sys
import time

from e2e_common import Fail, check, run_checks
from testpmd_session import TestPmd, TestPmdError, parse_fwd_stats


def xstats(tp, port):
    out = tp.cmd(f"show port xstats {port}")
    return {k: int(v) for k, v in re.findall(r"^(\w+):\s+(\d+)\s*$", out, re.M)}


def link_status(tp, port, want=None, timeout=2.0):
    """Link status of a port. With LSC interrupts on, ethdev reports the link the interrupt
    handler last stored (it re-arms within 1 ms): when `want` is given, wait for it."""
    end = time.monotonic() + timeout
    while True:
        out = tp.cmd(f"show port info {port}")
        m = re.search(r"Link status:\s+(\w+)", out)
        st = m.group(1) if m else None
        if want is None or st == want or time.monotonic() > end:
            return st
        time.sleep(0.05)


def run(pmd):
    vdev = "net_gaudi_emu0,ports=2,wire=pair"
    with TestPmd([vdev], pmd_path=pmd, app_args=["--forward-mode=rxonly", "--burst=32"]) as tp:
        try:
            info = tp.cmd("show port info 0")
            check("100 Gbps" in info, "speed capability 100G not shown")
            check(re.search(r"Link status:\s+up", info), "link not up after start")
            check(re.search(r"Maximum number of MAC addresses:\s+16", info),
                  "16 MAC addresses not offered")
            check(re.search(r"Maximum configurable length of RX packet:\s+8192", info),
                  "max rx packet length (MTU 8166 + 26) not shown")
            check(re.search(r"Firmware-version:\s+emu-0\.2\.0", info), "firmware version")

            # Traffic: rxonly + tx_first 1 sends one burst of 32 64-byte frames per port.
            tp.cmd("start tx_first 1")
            time.sleep(0.5)
            fwd = parse_fwd_stats(tp.cmd("stop"))
            check(fwd.get(1, {}).get("RX-packets") == 32, f"port 1 forward stats: {fwd}")
            x0, x1 = xstats(tp, 0), xstats(tp, 1)
            # testpmd's 64-byte frames leave padded to 187 bytes (TX_PAD), 191 with FCS:
            # RMON bucket 128..255.
            check(x0.get("mac_tx_size_128_to_255_packets") == 32, f"port 0 tx bucket: {x0}")
            check(x1.get("mac_rx_size_128_to_255_packets") == 32, f"port 1 rx bucket: {x1}")
            check(x1.get("mac_rx_octets") == 32 * (187 + 4), "mac_rx_octets counts FCS")
            check(x1.get("rx_good_packets") == 32, "rx_good_packets")
            check(x1.get("rx_fec_uncorrected_codewords") == 0, "FEC counter")
            names = re.findall(r"^(\w+):", tp.cmd("show port xstats 0"), re.M)
            check(len(names) == len(set(names)), "duplicate xstats names")

            out = tp.cmd("show port 0 module_eeprom")
            if "not supported" not in out.lower() and "bad arguments" not in out.lower():
                check(re.search(r"^\s*0+:\s*11\b", out, re.M) or re.search(r"\b0x11\b", out),
                      f"module EEPROM does not start with 0x11: {out[:300]}")

            out = tp.cmd("show port 0 fec capabilities")
            check(re.search(r"100 Gbps\s*:\s*off rs", out), f"fec capabilities: {out}")
            check(re.search(r"\brs\b", tp.cmd("show port 0 fec_mode"), re.I), "default FEC RS")
            tp.cmd("set port 0 fec_mode off")
            check(re.search(r"\boff\b", tp.cmd("show port 0 fec_mode"), re.I), "FEC off not applied")
            check(link_status(tp, 1, "down") == "down", "FEC mismatch must take the pair link down")
            tp.cmd("set port 0 fec_mode rs")
            check(re.search(r"\brs\b", tp.cmd("show port 0 fec_mode"), re.I), "FEC rs not applied")
            check(link_status(tp, 1, "up") == "up", "pair link back with matching FEC")

            tp.cmd("port config mtu 0 2000")
            check(re.search(r"MTU:\s+2000", tp.cmd("show port info 0")), "MTU 2000 on a started port")
            out = tp.cmd("port config mtu 0 9000")
            check(re.search(r"MTU:\s+2000", tp.cmd("show port info 0")), f"MTU 9000 refused: {out}")

            out = tp.cmd("show port 0 rxq 0 desc 0 status")
            check("Desc status = AVAILABLE" in out, f"rx desc status: {out}")
            out = tp.cmd("show port 0 txq 0 desc 0 status")
            check("Desc status = DONE" in out, f"tx desc status: {out}")

            out = tp.cmd("port stop 0")
            time.sleep(0.3)
            out += tp.cmd("show port info 1")
            check(re.search(r"Port 1: link state change event", tp.transcript),
                  "no LSC event on port 1 when port 0 stopped")
            check(re.search(r"Link status:\s+down", out), "port 1 link not down after peer stop")
            tp.cmd("port start 0")
            time.sleep(0.3)
            check(link_status(tp, 1, "up") == "up", "port 1 link not up after peer start")

            tp.cmd("set link-down port 0")
            check(link_status(tp, 0, "down") == "down", "set link-down")
            tp.cmd("set link-up port 0")
            check(link_status(tp, 0, "up") == "up", "set link-up")

            out = tp.cmd("port 1 rxq 0 stop")
            out += tp.cmd("port 1 rxq 0 start")
            check("Function not implemented" not in out and "error" not in out.lower(),
                  f"queue stop/start: {out}")

            tp.cmd("clear port xstats all")
            tp.cmd("start tx_first 1")
            time.sleep(0.5)
            fwd = parse_fwd_stats(tp.cmd("stop"))
            check(fwd.get(1, {}).get("RX-packets") == 32, f"after restart: {fwd}")
            out = tp.cmd("show fwd stats all")
            check("Forward statistics for port 1" in out or "RX-packets" in out, "show fwd stats")
            out = tp.cmd("show port 0 rx_offload capabilities")
            check("SCATTER" in out, f"scatter not offered: {out}")
            out = tp.cmd("show port 0 flow_ctrl")
            check(re.search(r"Rx pause:\s*off", out, re.I), f"flow control default: {out}")
        except (Fail, TestPmdError):
            print(tp.transcript[-6000:])
            raise
        tp.quit()


def main():
    return run_checks("testpmd_features", run)


if __name__ == "__main__":
    sys.exit(main())
