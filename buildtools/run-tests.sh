#!/bin/sh
# Configure (or reconfigure) a build directory, build everything and run the test suite.
# Usage: buildtools/run-tests.sh [meson setup options...]   (build dir: $BUILD_DIR or build)
set -eu
cd "$(dirname "$0")/.."
b=${BUILD_DIR:-build}
if [ -f "$b/build.ninja" ]; then
    meson setup --reconfigure "$b" "$@" >/dev/null
else
    meson setup "$b" "$@"
fi
meson compile -C "$b"
meson test -C "$b" --print-errorlogs
