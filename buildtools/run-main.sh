#!/bin/sh
# Configure (or reconfigure) the build directory, build, and run the main job gaudi-testpmd.
# Usage: buildtools/run-main.sh [gaudi-testpmd options...]   (build dir: $BUILD_DIR or build)
# Without options: 5 s of txonly traffic at 1 Mframe/s per port over two emulated Gaudi2
# ports (cabled to each other), live status every second, then the report, a capture of
# port 1 and a plot in $b/gaudi-testpmd-out/.
set -eu
cd "$(dirname "$0")/.."
b=${BUILD_DIR:-build}
if [ -f "$b/build.ninja" ]; then
    meson setup --reconfigure "$b" >/dev/null
else
    meson setup "$b"
fi
meson compile -C "$b" gaudi-testpmd  # only what the main job needs
app="$b/app/gaudi-testpmd/gaudi-testpmd"
if [ $# -gt 0 ]; then
    exec "$app" "$@"
fi
out="$b/gaudi-testpmd-out"
mkdir -p "$out"
"$app" --forward-mode=txonly --txpkts=128 --rate=1000000 --duration=5 \
    --json="$out/report.json" --capture=1:"$out/port1.pcapng" --capture-max=10000
# Debian's python3 has the matplotlib setup-debian.sh installs; a pyenv/venv one may not.
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
"$py" app/gaudi-testpmd/gaudi-testpmd-plot.py "$out/report.json" -o "$out/report.png"
