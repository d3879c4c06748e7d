#!/bin/sh
# Fetch the DPDK driver-SDK headers that Debian's libdpdk-dev does not install
# (ethdev_driver.h and friends) from the distribution's source package of
# exactly the installed DPDK version, and copy them into OUTDIR/include.
# Usage: get-dpdk-sdk.sh CACHE_DIR OUTDIR [DPDK_SRC_TREE [DPDK_VERSION]]
# With DPDK_SRC_TREE the headers are taken from that tree instead (other distros).
# DPDK_VERSION is the version the build found (pkg-config): without a tree, it must be the
# installed Debian package's, since its source package is what gets fetched.
set -eu
cache=$1; out=$2; src=${3:-}; want=${4:-}
headers="lib/ethdev/ethdev_driver.h lib/ethdev/ethdev_pci.h lib/ethdev/ethdev_vdev.h
drivers/bus/pci/bus_pci_driver.h drivers/bus/vdev/bus_vdev_driver.h
lib/eal/include/dev_driver.h lib/eal/include/bus_driver.h"

if [ -z "$src" ]; then
    debver=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null) || {
        echo "get-dpdk-sdk: libdpdk-dev is not installed (run buildtools/setup-debian.sh)" >&2; exit 1; }
    upver=${debver%%-*}
    if [ -n "$want" ] && [ "$want" != "$upver" ]; then
        echo "get-dpdk-sdk: the build uses DPDK $want, which has no driver-SDK headers installed, and the installed Debian package is $upver: build that DPDK with -Denable_driver_sdk=true (buildtools/build-dpdk.sh does) or give its source tree with -Ddpdk_src=" >&2
        exit 1
    fi
    src="$cache/dpdk-$upver"
    if [ ! -f "$src/lib/ethdev/ethdev_driver.h" ]; then
        mkdir -p "$cache"
        echo "get-dpdk-sdk: fetching Debian source package dpdk=$debver" >&2
        (cd "$cache" && apt-get source -qq --only-source "dpdk=$debver" >/dev/null) || {
            echo "get-dpdk-sdk: 'apt-get source dpdk=$debver' failed: a deb-src entry is needed (buildtools/setup-debian.sh adds it)" >&2
            exit 1; }
    fi
fi
mkdir -p "$out/include"
for h in $headers; do
    [ -f "$src/$h" ] || { echo "get-dpdk-sdk: $src/$h missing" >&2; exit 1; }
    cp "$src/$h" "$out/include/"
done
echo "$out/include"
