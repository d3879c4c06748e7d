#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Builds tests/data/gaudi2_public_facts.tsv from cached excerpts of the public Gaudi2 sources.

The cache (default /work/cache/hbl_facts, outside the tree) holds excerpts of the public headers
and sources exactly as the search tool's read_file returned them, one file per excerpt, and a
MANIFEST.tsv naming each file's repository, path, commit and read_file id. This script only
extracts numbers from that text: #define values (evaluated when they are plain integer
expressions of other defines), SHIFT/MASK field pairs, the NIC_SET_BITS / NIC_GET_BITS and
data[] descriptor macros, enum values, struct data[] sizes, the QP error syndrome table, and a
fixed list of named facts from the C sources (each found by a regular expression that must match
exactly once). Nothing of the sources' text is copied into the output but names and numbers.

Output rows (tab separated): kind, name, value, source.
  define    NAME  integer (hex)                   an evaluated #define
  field     NAME  lsb,width                       a bit field (absolute bit in a descriptor)
  enum      NAME  integer                         an enumerator
  size      NAME  bytes                           sizeof a struct of u32/u64 data[]
  syndrome  CODE  text                            qp_syndromes[] entry
  fact      NAME  integer or list                 a value read from C code (see FACTS)

Usage: gen-gaudi2-h-facts.py [--cache DIR] [-o FILE]
Exit status is non-zero when a named fact is missing or ambiguous, so the table cannot silently
lose a row.
"""
import argparse
import ast
import glob
import os
import re
import sys

DEFAULT_CACHE = "/work/cache/hbl_facts"
DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                           "gaudi2_public_facts.tsv")

# Named facts from C code: (name, source, regex with one or more groups). Each regex must match
# exactly once in the source's excerpts; the groups, joined with ',', are the value.
HEX = r"(0x[0-9A-Fa-f]+|\d+)"
FACTS = [
    # gaudi2_cn_phy.c: reset values of 980D DOMAIN_RESET.
    ("phy.soft_reset.domain_reset", "gaudi2_cn_phy.c",
     r"static void soft_reset\(.*?REGISTER_980D, " + HEX),
    ("phy.logic_reset.domain_reset", "gaudi2_cn_phy.c",
     r"static void logic_reset\(.*?REGISTER_980D, " + HEX),
    ("phy.cpu_reset.domain_reset", "gaudi2_cn_phy.c",
     r"static void cpu_reset\(.*?REGISTER_980D, " + HEX),
    # fw_cmd: the response nibble.
    ("phy.fw_cmd.response", "gaudi2_cn_phy.c", r"val = \(res >> (\d+)\) & " + HEX + ";"),
    ("phy.fw_cmd.poll_usleep", "gaudi2_cn_phy.c",
     r"do \{\n\t\tusleep_range\((\d+), \d+\);\n\t\tres = NIC_PHY_RREG32"),
    # clock_init: raven (port & 1) 0 lane 0, and every other lane.
    ("phy.clock_init.raven0_lane0", "gaudi2_cn_phy.c",
     r"/\* raven 0 \*/\n\t\tif \(lane == 0\) \{\n\t\t\tfirst_val = " + HEX +
     r";\n\t\t\tsecond_val = " + HEX + ";"),
    ("phy.clock_init.raven1_lane0", "gaudi2_cn_phy.c",
     r"/\* raven 1 \*/\n\t\tif \(lane == 0\) \{\n\t\t\tfirst_val = " + HEX +
     r";\n\t\t\tsecond_val = " + HEX + ";"),
    ("phy.clock_init.raven0_lane1", "gaudi2_cn_phy.c",
     r"/\* raven 0 \*/\n.*?\} else \{ /\* lane 1 \*/\n\t\t\tfirst_val = " + HEX +
     r";\n\t\t\tsecond_val = " + HEX + ";"),
    # Mailbox commands: code, expected response.
    ("phy.get_fw_reg", "gaudi2_cn_phy.c",
     r"\tfw_cmd\(hdev, port, " + HEX + r", &fw_addr, " + HEX),
    ("phy.set_fw_reg", "gaudi2_cn_phy.c",
     r"return fw_cmd\(hdev, port, " + HEX + r", &fw_addr, " + HEX),
    ("phy.fw_start.cmd_pam4_nrz", "gaudi2_cn_phy.c",
     r"cmd = pam4 \? \(" + HEX + r" \| lane\) : \(" + HEX + r" \| lane\);"),
    ("phy.fw_start.speed_pam4_nrz", "gaudi2_cn_phy.c",
     r"static int fw_start\(.*?speed = pam4 \? " + HEX + " : " + HEX + ";"),
    ("phy.fw_start.response", "gaudi2_cn_phy.c",
     r"return fw_cmd\(hdev, port, cmd, &speed, " + HEX + ", &ignore\);"),
    ("phy.fw_start_tx.cmd_pam4_nrz", "gaudi2_cn_phy.c",
     r"cmd = do_lt \? \(0x[0-9A-F]+ \| lane\) : \(" + HEX + r" \| lane\);\n\telse\n"
     r"\t\tcmd = do_lt \? \(0x[0-9A-F]+ \| lane\) : \(" + HEX + r" \| lane\);"),
    ("phy.fw_start_tx.response", "gaudi2_cn_phy.c",
     r"rc = fw_cmd\(hdev, port, cmd, &speed, " + HEX + ", &ignore\);"),
    ("phy.fw_config_vcocap", "gaudi2_cn_phy.c",
     r"fw_cmd\(hdev, port, " + HEX + r" \| \(mode << (\d+)\) \| lane, &counter_value, " + HEX),
    ("phy.rv_debug", "gaudi2_cn_phy.c",
     r"cmd = " + HEX + r" \+ \(\(mode & 0xF\) << (\d+)\) \+ lane;\n\n\tfw_cmd\(hdev, port, cmd, "
     r"&index, " + HEX),
    ("phy.fw_tuning.pam4", "gaudi2_cn_phy.c",
     r"\(\(u16\)state\) != " + HEX + r" && \(\(u16\)state\) != " + HEX),
    ("phy.fw_tuning.nrz", "gaudi2_cn_phy.c", r"\} else \{\n\t\tif \(\(\(u16\)state\) != " + HEX),
    ("phy.fw_tuning.mode_pam4_nrz", "gaudi2_cn_phy.c", r"mode = pam4 \? (\d+) : (\d+);"),
    ("phy.fw_hash", "gaudi2_cn_phy.c",
     r"fw_cmd\(hdev, port, " + HEX + r", NULL, " + HEX + r", &res\);.*?\(res & " + HEX +
     r"\) << (\d+)"),
    ("phy.fw_crc", "gaudi2_cn_phy.c", r"fw_cmd\(hdev, port, " + HEX + r", NULL, " + HEX +
     r", &ignore\);\n\tchecksum_code"),
    ("phy.port_stop.silence", "gaudi2_cn_phy.c", r"REGISTER_9815, " + HEX + r" \| lane\);"),
    ("phy.lane_swapping_config.fw_reg", "gaudi2_cn_phy.c", r"get_fw_reg\(hdev, port, (\d+)\);"),
    ("phy.mcu_cal_enable_all.fw_reg", "gaudi2_cn_phy.c",
     r"set_fw_reg\(hdev, port, (\d+), NIC_PHY_FW_TIME_CONSTANT_RATIO\)"),
    ("phy.crc_old_fw", "gaudi2_cn_phy.c", r"is_old_phy_fw_loaded.*?== " + HEX + ";"),
    ("phy.crc_anlt_fw", "gaudi2_cn_phy.c", r"is_phy_fw_with_anlt_support.*?== " + HEX + ";"),
    ("phy.set_pll_tx.fracn", "gaudi2_cn_phy.c",
     r"case NIC_DR_50:\n\t\t/\* toggle FRACN LSB for better phase noise \*/\n"
     r"\t\tNIC_PHY_RMWREG32_LANE\(" + HEX + r", " + HEX + r", " + HEX + r"\);"),
    ("phy.fw_config.980f_pam4", "gaudi2_cn_phy.c",
     r"REGISTER_980F, 0x1, " + HEX + r"\);\n\t\tNIC_PHY_RMWREG32\(NIC0_SERDES0_REGISTER_980F, "
     r"0x1, " + HEX + r"\);"),
    ("phy.fw_config.980f_go", "gaudi2_cn_phy.c",
     r"\}\n\n\tNIC_PHY_RMWREG32\(NIC0_SERDES0_REGISTER_980F, 0x0, " + HEX + r"\);"),
    ("phy.fw_unload_all.halt", "gaudi2_cn_phy.c",
     r"static void fw_unload_all.*?REGISTER_9814, " + HEX + r"\);"),
    ("phy.fw_unload_all.pam4_cont", "gaudi2_cn_phy.c", r"REGISTER_0P11, " + HEX + r"\);\n\n"),
    ("phy.fw_unload_all.nrz_cont", "gaudi2_cn_phy.c", r"REGISTER_0N0C, " + HEX + r"\);\n\}"),
    ("phy.fw_unload_all.msleep", "gaudi2_cn_phy.c",
     r"cpu_reset\(hdev, port\);\n\t\}\n\n\tmsleep\((\d+)\);"),
    ("phy.fw_unload_all.toggle_usleep", "gaudi2_cn_phy.c",
     r"REGISTER_0P11, 0\);\n\tusleep_range\((\d+), \d+\);"),
    ("phy.fw_load.skip", "gaudi2_cn_phy.c", r"fw_data \+= " + HEX + ";\n\n\t/\* skip"),
    ("phy.fw_load.entry_length_ram_off", "gaudi2_cn_phy.c",
     r"entry_point = get_unaligned_be32\(fw_data \+ (\d+)\);\n\tlength = get_unaligned_be32\("
     r"fw_data \+ (\d+)\);\n\tram_addr = get_unaligned_be32\(fw_data \+ (\d+)\);"),
    ("phy.fw_load.header", "gaudi2_cn_phy.c", r"fw_data \+= (\d+);\n\n\tsections"),
    ("phy.fw_load.section_bytes", "gaudi2_cn_phy.c", r"DIV_ROUND_UP\(length, (\d+)\)"),
    ("phy.fw_load.section_words", "gaudi2_cn_phy.c", r"for \(j = 0; j < (\d+); j\+\+\)"),
    ("phy.fw_load.fw2_halt", "gaudi2_cn_phy.c", r"REGISTER_9814, " + HEX + r"\); /\* FW2 \*/"),
    ("phy.fw_load.fw2_poll_usleep", "gaudi2_cn_phy.c",
     r"usleep_range\((\d+), \d+\);\n\t\tstatus = NIC_PHY_RREG32\(NIC0_SERDES0_REGISTER_9814\)"),
    ("phy.fw_load.section_cmd", "gaudi2_cn_phy.c",
     r"REGISTER_9F0F, " + HEX + r"\); /\* FW0 \+ 15 \*/\n\n\t\tchecks"),
    ("phy.fw_load.section_poll_usleep", "gaudi2_cn_phy.c",
     r"usleep_range\((\d+), \d+\);\n\t\t\tstatus = NIC_PHY_RREG32\(NIC0_SERDES0_REGISTER_9F0F\)"),
    ("phy.fw_load.exec_cmd", "gaudi2_cn_phy.c",
     r"REGISTER_9F0F, " + HEX + r"\); /\* FW0 \+ 15 \*/\n\n\tmsleep"),
    ("phy.fw_load.exec_msleep", "gaudi2_cn_phy.c", r"/\* FW0 \+ 15 \*/\n\n\tmsleep\((\d+)\);"),
    ("phy.fw_load.sections_inclusive", "gaudi2_cn_phy.c", r"for \(i = 0; i (<=) sections; i\+\+\)"),
    ("phy.mac_lane_remap.macro0", "gaudi2_cn_phy.c",
     r"/\* MACRO 0 \*/\n\tNIC_MAC_LANE_MAP\(NIC_MAC_LANE_(\d), NIC_MAC_LANE_(\d), "
     r"NIC_MAC_LANE_(\d), "
     r"NIC_MAC_LANE_(\d)\),"),
    ("phy.mac_lane_remap.macro11", "gaudi2_cn_phy.c",
     r"/\* MACRO 11 \*/\n\tNIC_MAC_LANE_MAP\(NIC_MAC_LANE_(\d), NIC_MAC_LANE_(\d), "
     r"NIC_MAC_LANE_(\d), "
     r"NIC_MAC_LANE_(\d)\),"),
    ("phy.fw_parse_lane_map.bits", "gaudi2_cn_phy.c", r"\((0x[0-9a-f]) << \(_lane \* (\d+)\)\)"),
    # gaudi2_cn.c: the dummy doorbell and the scheduling-queue formula.
    ("cn.db_fifo_push_dummy", "gaudi2_cn.c",
     r"db_dummy\[0\] = (\d+);\n\tdb_dummy\[1\] = (NIC_MAX_QP_NUM);"),
    ("cn.txs_get_schedq_num", "gaudi2_cn.c",
     r"return prio_q_group \* (HBL_EN_PFC_PRIO_NUM) \+ (priority);"),
    # habanalabs gaudi2.c (virtual MSI-X doorbell monitors).
    ("sm.decrement_payload", "gaudi2.c",
     r"SOB_OBJ_VAL_MASK, " + HEX + r"\) \| /\* \"-1\" \*/\n\+\t\t\tFIELD_PREP\("
     r"DCORE0_SYNC_MNGR_OBJS_SOB_OBJ_SIGN_MASK, (\d+)\) \|\n\+\t\t\tFIELD_PREP\("
     r"DCORE0_SYNC_MNGR_OBJS_SOB_OBJ_INC_MASK, (\d+)\);"),
    ("sm.arm.sob_group_div", "gaudi2.c", r"sob_group = sob_id / (\d+);"),
    ("sm.arm.mask_bits", "gaudi2.c", r"mask = ~BIT\(sob_id & " + HEX + r"\);"),
    ("sm.arm.mode", "gaudi2.c", r"mode = (\d+); /\* comparison mode"),
    ("sm.arm.sod", "gaudi2.c", r"MON_ARM_SOD_MASK, (\d+)\);"),
    ("sm.config.wr_num", "gaudi2.c", r"MON_CONFIG_WR_NUM_MASK, (\d+)\);"),
    ("sm.increment_by_one", "gaudi2P.h",
     r"GAUDI2_SOB_INCREMENT_BY_ONE\t\(FIELD_PREP\(DCORE0_SYNC_MNGR_OBJS_SOB_OBJ_VAL_MASK, (\d+)\) "
     r"\| \\\n\t+FIELD_PREP\(DCORE0_SYNC_MNGR_OBJS_SOB_OBJ_INC_MASK, (\d+)\)\)"),
]


def load_manifest(cache):
    path = os.path.join(cache, "MANIFEST.tsv")
    sources = {}
    with open(path) as fp:
        lines = [l.rstrip("\n") for l in fp if not l.startswith("#")]
    header = lines[0].split("\t")
    for line in lines[1:]:
        if not line.strip():
            continue
        row = dict(zip(header, line.split("\t")))
        files = sorted(glob.glob(os.path.join(cache, row["files"])),
                       key=lambda p: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", p)])
        if not files:
            sys.exit("gen-gaudi2-h-facts: no cache file for " + row["files"])
        sources[row["source"]] = [open(f).read() for f in files]
    return sources


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def c_expr_value(expr, known):
    """Integer value of a C constant expression over known names, or None."""
    e = strip_comments(expr).strip()
    e = re.sub(r"\b(0x[0-9A-Fa-f]+|\d+)(?:ull|ULL|ul|UL|u|U)\b", r"\1", e)
    e = re.sub(r"\bBIT(?:_ULL)?\(", "(1 << ", e)
    e = re.sub(r"\bGENMASK(?:_ULL)?\((\w+), (\w+)\)",
               r"(((1 << (\1 + 1)) - 1) ^ ((1 << \2) - 1))", e)

    def sub(m):
        name = m.group(0)
        if re.fullmatch(r"0x[0-9A-Fa-f]+|\d+", name):
            return name
        if name in known:
            return str(known[name])
        raise KeyError(name)

    try:
        e = re.sub(r"\b[A-Za-z_]\w*\b|\b0x[0-9A-Fa-f]+\b|\b\d+\b", sub, e)
    except KeyError:
        return None
    if not re.fullmatch(r"[0-9xA-Fa-f\s()+\-*/<>|&^~]*", e) or not e:
        return None
    try:
        tree = ast.parse(e.replace("/", "//"), mode="eval")
    except SyntaxError:
        return None
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add, ast.Sub, ast.Mult,
               ast.FloorDiv, ast.LShift, ast.RShift, ast.BitOr, ast.BitAnd, ast.BitXor,
               ast.Invert, ast.USub)
    if not all(isinstance(n, allowed) for n in ast.walk(tree)):
        return None
    return eval(compile(tree, "<expr>", "eval"), {"__builtins__": {}})  # nosec: checked AST


def defines(text):
    """(name, expr) of object-like #defines, continuation lines joined."""
    text = re.sub(r"\\\n", " ", text)
    for m in re.finditer(r"^\+?#define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*(.*)$", text, re.M):
        yield m.group(1), m.group(2)


def enums(text, known):
    """(name, value) of enumerators, with C's implicit increments."""
    for body in re.findall(r"enum\s+\w+\s*\{(.*?)\};", text, re.S):
        nxt = 0
        for entry in strip_comments(body).split(","):
            entry = " ".join(entry.split())
            if not entry:
                continue
            name, _, expr = entry.partition("=")
            name = name.strip()
            if expr:
                v = c_expr_value(expr, known)
                if v is None:
                    nxt = None
                    continue
                nxt = v
            if nxt is None:
                continue
            known[name] = nxt
            yield name, nxt
            nxt += 1


def popcount_contiguous(mask):
    if mask == 0:
        return None
    lsb = (mask & -mask).bit_length() - 1
    width = bin(mask).count("1")
    if mask != ((1 << width) - 1) << lsb:
        return None
    return lsb, width


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", default=DEFAULT_CACHE)
    ap.add_argument("-o", "--out", default=DEFAULT_OUT)
    args = ap.parse_args()
    sources = load_manifest(args.cache)

    rows = []  # (kind, name, value, source)
    seen = {}

    def add(kind, name, value, src):
        key = (kind, name)
        if key in seen:
            if seen[key][0] != value:
                sys.exit("gen-gaudi2-h-facts: %s %s has two values: %s (%s), %s (%s)" %
                         (kind, name, seen[key][0], seen[key][1], value, src))
            return
        seen[key] = (value, src)
        rows.append((kind, name, value, src))

    # Defines, evaluated to a fixed point (a define may use one from another source).
    known = {}
    raw = [(n, e, src) for src, texts in sources.items() for t in texts for n, e in defines(t)]
    for _ in range(8):
        for n, e, _src in raw:
            if n not in known:
                v = c_expr_value(e, known)
                if v is not None:
                    known[n] = v
    # Enumerators feed expressions too (TS_RAW, SECURED, the reserved ids).
    enum_rows = []
    for _ in range(2):
        enum_rows = [(n, v, src) for src, texts in sources.items() for t in texts
                     for n, v in enums(t, known)]
    for n, e, src in raw:
        if n in known and not n.endswith(("_SHIFT", "_MASK")):
            add("define", n, hex(known[n]), src)
    for n, v, src in enum_rows:
        add("enum", n, str(v), src)

    # SHIFT/MASK pairs.
    for n, e, src in raw:
        if n.endswith("_MASK") and n in known:
            base = n[:-len("_MASK")]
            f = popcount_contiguous(known[n])
            if f is None or base + "_SHIFT" not in known:
                continue
            if known[base + "_SHIFT"] != f[0]:
                sys.exit("gen-gaudi2-h-facts: %s_SHIFT disagrees with its MASK" % base)
            add("field", base, "%d,%d" % f, src)

    for src, texts in sources.items():
        for t in texts:
            # NIC_SET_BITS / NIC_GET_BITS accessors (QPC, WQE).
            for m in re.finditer(r"#define (\w+)\(\w+(?:, val)?\)\s+NIC_(?:SET|GET)_BITS\(\w+, "
                                 r"(\d+), (?:\\\s*)?(?:val, )?(\d+)\)", t):
                add("field", m.group(1), "%s,%s" % (m.group(2), m.group(3)), src)
            # u32 data[] descriptor macros (CQE, EQE): absolute bit = 32 * index + shift.
            for m in re.finditer(r"#define (\w+)\(\w+\)\s+\(*\(\w+\)->data\[(\d+)\]"
                                 r"(?: >> (\d+)\))?(?: & (0x[0-9A-Fa-f]+|\d+))?\)*\n", t):
                idx, shift = int(m.group(2)), int(m.group(3) or 0)
                width = 32 - shift
                if m.group(4):
                    f = popcount_contiguous(int(m.group(4), 0))
                    if f is None or f[0] != 0:
                        continue
                    width = f[1]
                add("field", m.group(1), "%d,%d" % (32 * idx + shift, width), src)
            for m in re.finditer(r"#define (\w+)\s+GENMASK\((\d+), (\d+)\)", t):
                hi, lo = int(m.group(2)), int(m.group(3))
                add("field", m.group(1), "%d,%d" % (lo, hi - lo + 1), src)
            # Struct sizes.
            for m in re.finditer(r"struct (\w+) \{\n\t(u32|u64) data\[(\d+)\];\n\};", t):
                add("size", m.group(1), str(int(m.group(3)) * (4 if m.group(2) == "u32" else 8)),
                    src)
            # QP error syndromes.
            for m in re.finditer(r"\[(0x[0-9A-Fa-f]+)\]\s*=\s*\"([^\"]*)\"", t):
                add("syndrome", "0x%02X" % int(m.group(1), 16), m.group(2), src)

    # gaudi2_en.c req_qpc_init: the values the Ethernet driver writes (numbers or enumerators).
    for t in sources.get("gaudi2_en.c", []):
        for m in re.finditer(r"\tREQ_QPC_SET_(\w+)\(\*req_qpc, (\w+)\);", t):
            v = m.group(2)
            if v in known:
                v = hex(known[v])
            elif re.fullmatch(r"\d+", v):
                v = hex(int(v))
            else:
                continue
            add("fact", "en.req_qpc_init." + m.group(1), v, "gaudi2_en.c")

    # Named facts: exactly one match each.
    for name, src, rx in FACTS:
        text = "\n".join(sources.get(src, []))
        found = list(re.finditer(rx, text, re.S))
        if len(found) != 1:
            sys.exit("gen-gaudi2-h-facts: fact %s: %d matches in %s" % (name, len(found), src))
        vals = []
        for g in found[0].groups():
            if g in known:
                g = hex(known[g])
            elif re.fullmatch(r"0x[0-9A-Fa-f]+|\d+", g):
                g = hex(int(g, 0))
            vals.append(g)
        add("fact", name, ",".join(vals), src)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as fp:
        fp.write("# GENERATED by buildtools/gen-gaudi2-h-facts.py - do not edit.\n")
        fp.write("# Command: python3 buildtools/gen-gaudi2-h-facts.py --cache <excerpt cache> "
                 "-o tests/data/gaudi2_public_facts.tsv\n")
        fp.write("# Facts (names and numbers only) of the public Gaudi2 drivers; sources:\n")
        with open(os.path.join(args.cache, "MANIFEST.tsv")) as mf:
            for line in mf:
                if line.startswith("#") or line.startswith("files\t"):
                    continue
                c = line.rstrip("\n").split("\t")
                fp.write("#   %s = %s %s%s\n" % (c[1], c[2], c[3],
                                                ("@" + c[4][:12]) if c[4] else ""))
        fp.write("kind\tname\tvalue\tsource\n")
        for r in rows:
            fp.write("\t".join(r) + "\n")
    print("gen-gaudi2-h-facts: %d rows -> %s" % (len(rows), args.out))


if __name__ == "__main__":
    main()
