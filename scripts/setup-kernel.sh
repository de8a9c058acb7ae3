#!/bin/sh
# Installs what the kernel oracle (ctest --preset kernel, issue 17) needs on
# Debian 12, beyond scripts/setup.sh: the kernel source Debian packages
# (linux-source-6.12), the arm64 cross compiler and the kernel build's tools,
# and QEMU from bookworm-backports. Why backports: bookworm's QEMU 7.2 keeps
# one MTE tag per 4 KiB page instead of one per 16-byte granule (it drops the
# offset within the page when it finds the tag storage), so every HW_TAGS
# kernel reports false tag mismatches at boot (docs/kernel-oracle.md has the
# reproducer); bookworm-backports' QEMU 10 keeps a tag per granule.
# Idempotent: does nothing when everything is there.
set -eu
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
# (libssl-dev, libelf-dev, cpio: what a kernel build may ask for beyond allnoconfig)
PKGS="linux-source-6.12 gcc-aarch64-linux-gnu make bc flex bison xz-utils libssl-dev libelf-dev cpio"
missing=""
for p in $PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
qemu_ok() {
    command -v qemu-system-aarch64 >/dev/null 2>&1 || return 1
    major=$(qemu-system-aarch64 --version | sed -n 's/^QEMU emulator version \([0-9]*\)\..*/\1/p')
    [ -n "$major" ] && [ "$major" -ge 8 ]
}
if [ -z "$missing" ] && qemu_ok; then
    echo "setup-kernel: all packages present"
    exit 0
fi
if ! qemu_ok && [ ! -e /etc/apt/sources.list.d/bookworm-backports.sources ]; then
    echo "setup-kernel: adding bookworm-backports (for QEMU with per-granule MTE tags)"
    $SUDO sh -c 'cat > /etc/apt/sources.list.d/bookworm-backports.sources' <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
$SUDO apt-get update -qq
if [ -n "$missing" ]; then
    echo "setup-kernel: installing$missing"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
if ! qemu_ok; then
    echo "setup-kernel: installing qemu-system-arm from bookworm-backports"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends -t bookworm-backports \
        qemu-system-arm
fi
qemu-system-aarch64 --version | head -1
