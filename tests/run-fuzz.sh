#!/bin/sh
# Build tests/fuzz_roce_parse.cpp with clang++ -fsanitize=fuzzer,address,undefined and run it
# for a bounded time, seeded with the frames of the shared RoCE captures.
#   run-fuzz.sh FUZZ_SRC ROCE_DIR OUT_DIR [SECONDS] [SHARED_DATA]
# Exit 77 (meson: skipped) when clang++ or libFuzzer is missing; non-zero on a finding.
set -eu
src=$1; roce=$2; out=$3; secs=${4:-20}; shared=${5:-}
CXX=${FUZZ_CXX:-clang++}
if ! command -v "$CXX" >/dev/null 2>&1; then
    echo "SKIP: $CXX not found (apt install clang libclang-rt-14-dev)"; exit 77
fi
mkdir -p "$out/corpus" "$out/artifacts"
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long){return 0;}' \
    | "$CXX" -x c++ -fsanitize=fuzzer - -o "$out/probe" >/dev/null 2>&1; then
    echo "SKIP: $CXX cannot link -fsanitize=fuzzer (libclang-rt-dev missing?)"; exit 77
fi
"$CXX" -std=c++20 -g -O1 -fno-exceptions -Wall -Wextra -Werror -Wno-missing-field-initializers \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -DALLOW_EXPERIMENTAL_API -I"$roce" $(pkg-config --cflags libdpdk | sed 's/-I/-isystem /g') \
    "$src" "$roce/roce_framing.cpp" "$roce/roce_icrc.cpp" $(pkg-config --libs libdpdk) -o "$out/fuzz_roce_parse"
# Seeds: one file per frame of the shared captures (classic pcap, little-endian).
if [ -n "$shared" ] && [ -d "$shared/pcap/roce" ] && command -v python3 >/dev/null; then
    python3 - "$shared/pcap/roce" "$out/corpus" <<'PY'
import os, struct, sys
src, dst = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    b = open(os.path.join(src, name), 'rb').read()
    if b[:4] != b'\xd4\xc3\xb2\xa1':
        continue
    off, i = 24, 0
    while off + 16 <= len(b) and i < 64:
        incl = struct.unpack_from('<I', b, off + 8)[0]
        open(os.path.join(dst, f'{name}-{i}'), 'wb').write(b[off + 16:off + 16 + incl])
        off += 16 + incl; i += 1
PY
fi
exec "$out/fuzz_roce_parse" -max_total_time="$secs" -max_len=2048 -timeout=10 \
    -artifact_prefix="$out/artifacts/" -print_final_stats=1 "$out/corpus"
