#!/bin/sh
# One-time set-up of a Debian 12 machine: build and test dependencies, a deb-src
# entry (for the DPDK driver-SDK headers). Tests that need hugepages reserve them themselves.
# qemu-system-x86 .. rdmacm-utils: the interop test's guest (tests/interop), which also downloads
# Debian's kernel package into its cache when it runs.
set -eu
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
srcs=/etc/apt/sources.list.d/debian.sources
if [ -f $srcs ] && ! grep -q 'deb-src' $srcs; then
    $SUDO sed -i 's/^Types: deb$/Types: deb deb-src/' $srcs
fi
if ! grep -rqs '^deb-src\|deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "deb-src http://deb.debian.org/debian bookworm main" | $SUDO tee /etc/apt/sources.list.d/gaudi-deb-src.list >/dev/null
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    build-essential g++ pkg-config meson ninja-build dpkg-dev python3-pyelftools \
    libdpdk-dev dpdk dpdk-dev libpcap-dev libgtest-dev zlib1g-dev libisal-dev \
    python3 python3-scapy python3-matplotlib tshark libclang-rt-14-dev clang libibverbs-dev iproute2 \
    qemu-system-x86 busybox-static cpio rdma-core ibverbs-providers ibverbs-utils perftest rdmacm-utils >/dev/null
