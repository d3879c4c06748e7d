# SPDX-License-Identifier: BSD-3-Clause
"""Minimal pcap / pcapng reader and pcap writer (Python 3 standard library only).

Reads records the way libpcap does (the device model reads its rx_pcap files with libpcap):
a record whose caplen exceeds the file's (or interface's) snapshot length is cut to it.
"""
import struct

LINKTYPE_ETHERNET = 1
MAX_SNAPLEN = 262144          # libpcap's limit for DLT_EN10MB


def _snap(snaplen):
    return snaplen if 0 < snaplen <= MAX_SNAPLEN else MAX_SNAPLEN


class PcapError(Exception):
    pass


def read_frames(path):
    """Return (linktypes, frames): the set of link types of the file's packets and the list of
    captured packet bytes (caplen bytes each) in file order."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 4:
        raise PcapError(f"{path}: too short")
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        return _read_pcap(data, "<")
    if magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        return _read_pcap(data, ">")
    if magic == b"\x0a\x0d\x0d\x0a":
        return _read_pcapng(data)
    raise PcapError(f"{path}: not a pcap or pcapng file")


def _read_pcap(data, e):
    if len(data) < 24:
        raise PcapError("truncated pcap header")
    snaplen, linktype = struct.unpack(e + "II", data[16:24])
    linktype &= 0x0FFFFFFF
    frames, off = [], 24
    while off + 16 <= len(data):
        caplen = struct.unpack(e + "I", data[off + 8:off + 12])[0]
        frames.append(data[off + 16:off + 16 + min(caplen, _snap(snaplen))])
        off += 16 + caplen
    return {linktype}, frames


def _read_pcapng(data):
    frames, linktypes, ifaces, off, e = [], set(), [], 0, "<"
    while off + 12 <= len(data):
        if data[off:off + 4] == b"\x0a\x0d\x0d\x0a":   # section header: byte order, new ifaces
            e = "<" if data[off + 8:off + 12] == b"\x4d\x3c\x2b\x1a" else ">"
            ifaces = []
        btype, blen = struct.unpack(e + "II", data[off:off + 8])
        if blen < 12 or off + blen > len(data):
            break
        body = data[off + 8:off + blen - 4]
        if btype == 1:                                   # interface description
            ifaces.append(struct.unpack(e + "HHI", body[:8])[::2])   # (linktype, snaplen)
        elif btype == 6:                                 # enhanced packet
            ifid, _, _, caplen = struct.unpack(e + "IIII", body[:16])
            lt, snaplen = ifaces[ifid] if ifid < len(ifaces) else (None, 0)
            linktypes.add(lt)
            frames.append(body[20:20 + min(caplen, _snap(snaplen))])
        elif btype == 3:                                 # simple packet
            origlen = struct.unpack(e + "I", body[:4])[0]
            lt, snaplen = ifaces[0] if ifaces else (None, 0)
            linktypes.add(lt)
            frames.append(body[4:4 + min(origlen, len(body) - 4, _snap(snaplen))])
        off += blen
    return linktypes, frames


def write_pcap(path, frames, linktype=LINKTYPE_ETHERNET, snaplen=65535):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, snaplen, linktype))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", i // 1000000, i % 1000000, len(fr), len(fr)))
            f.write(fr)
