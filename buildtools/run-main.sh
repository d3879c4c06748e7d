#!/bin/sh
# Configure (or reconfigure) the build directory, build, and run the main job gaudi-testpmd.
# Usage: buildtools/run-main.sh [gaudi-testpmd options...]   (build dir: $BUILD_DIR or build)
set -eu
cd "$(dirname "$0")/.."
b=${BUILD_DIR:-build}
if [ -f "$b/build.ninja" ]; then
    meson setup --reconfigure "$b" >/dev/null
else
    meson setup "$b"
fi
meson compile -C "$b"
exec "$b/app/gaudi-testpmd/gaudi-testpmd" "$@"
