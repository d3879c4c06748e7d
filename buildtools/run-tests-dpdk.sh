#!/bin/sh
# Build the project against another DPDK release and run its suites (unit, contract, roce, app,
# e2e) there: the DPDK comes from buildtools/build-dpdk.sh (built once, then cached).
# Usage: buildtools/run-tests-dpdk.sh VERSION [--from TARBALL] [meson setup options...]
#   build dir: $BUILD_DIR or build-VERSION
# Exit status: 0 all passed, 1 a failure, 77 no source of that DPDK could be had (nothing ran).
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 VERSION [--from TARBALL] [meson options...]" >&2; exit 2; }
version=$1; shift
from=
if [ "${1:-}" = --from ]; then
    [ $# -ge 2 ] || { echo "$0: --from needs a tarball" >&2; exit 2; }
    from="--from $2"; shift 2
fi
b=${BUILD_DIR:-build-$version}
start=$(date +%s)
# shellcheck disable=SC2086
rc=0
pc=$(./buildtools/build-dpdk.sh "$version" $from) || rc=$?
if [ $rc -eq 77 ]; then
    echo "run-tests-dpdk: no source of DPDK $version here (see above); skipped" >&2
    exit 77
elif [ $rc -ne 0 ]; then
    echo "run-tests-dpdk: building DPDK $version failed (see above)" >&2
    exit 1
fi
echo "run-tests-dpdk: DPDK $version ready in $(($(date +%s) - start)) s: PKG_CONFIG_PATH=$pc"
export PKG_CONFIG_PATH="$pc"
# pkg_config_path as a meson option: a build dir set up before for another DPDK is switched
# (a reconfigure keeps the path it was set up with, whatever PKG_CONFIG_PATH says).
if [ -f "$b/build.ninja" ]; then
    meson setup --reconfigure "$b" -Dpkg_config_path="$pc" "$@" >/dev/null
else
    meson setup "$b" -Dpkg_config_path="$pc" "$@"
fi
found=$(sed -n "s/^ *DPDK *: *\([0-9.]*\) .*/\1/p" "$b/meson-logs/meson-log.txt" | tail -n 1)
case $found in
"$version"|"$version".*) ;;
*) echo "run-tests-dpdk: $b is set up for DPDK '$found', not $version" >&2; exit 1 ;;
esac
meson compile -C "$b"
status=0
meson test -C "$b" --print-errorlogs --suite unit --suite contract --suite roce --suite app \
    --suite e2e || status=1
echo "run-tests-dpdk: DPDK $version leg took $(($(date +%s) - start)) s"
exit $status
