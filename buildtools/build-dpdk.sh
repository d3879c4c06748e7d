#!/bin/sh
# Build a minimal shared DPDK of a given version (the libraries and drivers this project and
# the stock dpdk-testpmd need, driver-SDK headers installed) into a cache outside the tree,
# and print the PKG_CONFIG_PATH that selects it:
#   export PKG_CONFIG_PATH=$(buildtools/build-dpdk.sh 24.11) && meson setup build-24.11
# Usage: build-dpdk.sh VERSION [--from TARBALL]
# Exit status: 0 built or cached, 77 no source of that version could be had (Debian has none or
# its download failed: give --from), 2 bad usage, 1 any other failure (wrong source, build).
#   VERSION   upstream version, e.g. 24.11 (newest 24.11.x Debian carries) or 24.11.8
#   TARBALL   a DPDK source tarball (fast.dpdk.org's dpdk-24.11.tar.xz, a git archive, ...)
#             used instead of Debian's source package
# Cache: $GAUDI_DPDK_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/gaudi-dpdk/<VERSION>.
# The source comes from Debian's source packages (bookworm, trixie, sid), fetched with a
# private apt state under the cache: the system's apt sources are not changed. The build runs
# with nice -n 19 and $DPDK_BUILD_JOBS (default 2) jobs. Progress goes to stderr; stdout is
# only the PKG_CONFIG_PATH.
set -eu
usage() { echo "usage: $0 VERSION [--from TARBALL]" >&2; exit 2; }
[ $# -ge 1 ] || usage
version=$1; shift
tarball=
while [ $# -gt 0 ]; do
    case $1 in
    --from) [ $# -ge 2 ] || usage; tarball=$(realpath "$2"); shift 2 ;;
    *) usage ;;
    esac
done
case $version in
[0-9][0-9].[0-9][0-9]|[0-9][0-9].[0-9][0-9].[0-9]*) ;;
*) echo "build-dpdk: VERSION '$version' is not like 24.11 or 24.11.8" >&2; exit 2 ;;
esac
log() { echo "build-dpdk: $*" >&2; }
top=${GAUDI_DPDK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gaudi-dpdk}
dir=$top/$version
prefix=$dir/install
jobs=${DPDK_BUILD_JOBS:-2}
# DPDK's build runs Python scripts that need pyelftools: Debian's python3, not a pyenv/venv one.
PATH=/usr/bin:$PATH

# Libraries beyond the mandatory ones (eal, ring, mempool, mbuf, net, ethdev, cmdline, ...):
# what the project includes (bpf, pcapng), what dpdk-testpmd uses when present, and what the
# multi-process tools of tests/capture_tools.py need (pdump; proc-info: security, eventdev and
# theirs). Drivers: the buses our PMD registers on, the ring mempool, net_ring (tests),
# net_null, and net_pcap (dpdk-pdump writes its captures through it).
libs=bpf,pcapng,metrics,bitratestats,latencystats,gro,gso,pdump,security,cryptodev,eventdev
libs=$libs,timer,dmadev,hash
apps=test-pmd,dumpcap,pdump,proc-info
drivers=bus/pci,bus/vdev,mempool/ring,net/ring,net/null,net/pcap
# What the cache was built with: another list rebuilds it.
config="libs=$libs drivers=$drivers apps=$apps"

pcpath() {
    # lib/<multiarch> on Debian, lib64 elsewhere: wherever meson put libdpdk.pc.
    pc=$(find "$prefix" -name libdpdk.pc -path '*/pkgconfig/*' 2>/dev/null | head -n 1)
    [ -n "$pc" ] && dirname "$pc"
}
if [ -f "$dir/.built" ] && [ "$(cat "$dir/.config" 2>/dev/null)" = "$config" ] && p=$(pcpath); then
    log "cached: $prefix ($(cat "$dir/.built"))"
    [ -z "$tarball" ] || log "--from $tarball not used: the cache is kept (remove $dir to rebuild)"
    echo "$p"
    exit 0
fi

mkdir -p "$dir"
src=$dir/src
rm -rf "$src"
if [ -n "$tarball" ]; then
    log "unpacking $tarball"
    mkdir -p "$src"
    tar -xf "$tarball" -C "$src" --strip-components=1
    origin=$(basename "$tarball")
else
    # A private apt state: deb-src lines for the suites that carry DPDK LTS releases.
    apt=$top/apt
    mkdir -p "$apt/lists/partial"
    for s in bookworm trixie sid; do
        echo "deb-src http://deb.debian.org/debian $s main"
    done >"$apt/sources.list"
    aptopts="-o Dir::Etc::SourceList=$apt/sources.list -o Dir::Etc::SourceParts=/nonexistent
        -o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt/cache -o APT::Sandbox::User=root"
    mkdir -p "$apt/cache/archives/partial"
    # shellcheck disable=SC2086
    nosrc="give a source tarball with --from TARBALL (https://fast.dpdk.org/rel/dpdk-$version.tar.xz)"
    if [ -z "$(find "$apt/lists" -name '*Sources*' -mmin -1440 2>/dev/null | head -n 1)" ]; then
        log "apt-get update (private state in $apt)"
        apt-get $aptopts -qq update >&2 || { log "apt-get update failed; $nosrc"; exit 77; }
    fi
    # The newest Debian version whose upstream part is VERSION or VERSION.x.
    # shellcheck disable=SC2086
    debver=$(apt-cache $aptopts showsrc dpdk 2>/dev/null | sed -n 's/^Version: //p' |
        while read -r v; do
            up=${v#*:}; up=${up%%-*}
            case $up in "$version"|"$version".*) echo "$v" ;; esac
        done | sort -V | tail -n 1)
    if [ -z "$debver" ]; then
        log "Debian has no source package of DPDK $version (versions: $(apt-cache $aptopts showsrc dpdk 2>/dev/null | sed -n 's/^Version: //p' | tr '\n' ' ')); $nosrc"
        exit 77
    fi
    log "fetching Debian source package dpdk=$debver"
    # shellcheck disable=SC2086
    (cd "$dir" && apt-get $aptopts -qq source --download-only --only-source "dpdk=$debver" >&2) ||
        { log "downloading Debian's dpdk=$debver failed; $nosrc"; exit 77; }
    up=${debver#*:}; up=${up%%-*}
    orig=$(ls "$dir"/dpdk_"$up".orig.tar.* | head -n 1)
    # The upstream tarball as released; Debian's packaging patches are not applied.
    mkdir -p "$src"
    tar -xf "$orig" -C "$src" --strip-components=1
    origin="Debian dpdk=$debver"
fi
srcver=$(cat "$src/VERSION")
case $srcver in
"$version"|"$version".*) ;;
*) log "source is DPDK $srcver, not $version"; exit 1 ;;
esac

opts="-Ddefault_library=shared -Denable_driver_sdk=true -Dplatform=generic
    -Dtests=false -Denable_docs=false -Dexamples=
    -Denable_apps=$apps -Denable_drivers=$drivers"
# enable_libs exists from DPDK 23.03 (22.11 only has disable_libs); enable_kmods went in 25.11.
if grep -q "'enable_libs'" "$src/meson_options.txt"; then
    opts="$opts -Denable_libs=$libs"
fi
if grep -q "'enable_kmods'" "$src/meson_options.txt"; then
    opts="$opts -Denable_kmods=false"
fi
rm -rf "$dir/build" "$prefix" "$dir/.built"
log "configuring DPDK $srcver ($origin) into $prefix"
start=$(date +%s)
# shellcheck disable=SC2086
meson setup "$dir/build" "$src" --prefix="$prefix" --buildtype=release $opts >"$dir/setup.log" 2>&1 || {
    tail -n 30 "$dir/setup.log" >&2; log "meson setup failed: $dir/setup.log"; exit 1; }
log "building with nice -n 19, $jobs jobs (log: $dir/build.log)"
nice -n 19 ninja -C "$dir/build" -j "$jobs" >"$dir/build.log" 2>&1 || {
    tail -n 30 "$dir/build.log" >&2; log "build failed: $dir/build.log"; exit 1; }
meson install -C "$dir/build" --quiet >"$dir/install.log" 2>&1 || {
    tail -n 30 "$dir/install.log" >&2; log "install failed: $dir/install.log"; exit 1; }
secs=$(($(date +%s) - start))
echo "$config" >"$dir/.config"
echo "DPDK $srcver from $origin, built in ${secs} s" >"$dir/.built"
log "DPDK $srcver built in ${secs} s"
pcpath
