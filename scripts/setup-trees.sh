#!/bin/sh
# Prepares the kernel trees a patch review reads (issue 31): Debian's
# linux-source-6.1 and linux-source-6.12 installed, each tarball unpacked once
# into the tree cache,
# ${TAGPROOF_TREES:-${XDG_CACHE_HOME:-$HOME/.cache}/tagproof/trees}/linux-source-X,
# and configured there for arm64 with the kernel oracle's fragment
# (kernel/kasan-hw-tags.config on allnoconfig) and `make prepare`, so that
# libclang reads its files with the kernel's own generated headers and
# CONFIG_ values. A tree is complete when its .tagproof-ready marker exists
# (an interrupted unpack or configuration is redone). Idempotent and cached: a
# second run does nothing. Not fatal when a package cannot be had: the review
# then says which era it fell back to. Timed on its own in
# reports/PERFORMANCE.md.
set -eu
S=$(cd "$(dirname "$0")/.." && pwd)
CACHE="${TAGPROOF_TREES:-${XDG_CACHE_HOME:-$HOME/.cache}/tagproof/trees}"
mkdir -p "$CACHE"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
for p in linux-source-6.1 linux-source-6.12; do
    dpkg -s "$p" >/dev/null 2>&1 ||
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$p" ||
        echo "setup-trees: $p could not be installed"
done
MAKE="make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-"
for tar in /usr/src/linux-source-*.tar.xz; do
    [ -e "$tar" ] || { echo "setup-trees: no linux-source tarball in /usr/src"; exit 0; }
    name=$(basename "$tar" .tar.xz)
    dest="$CACHE/$name"
    if [ -e "$dest/.tagproof-ready" ]; then
        echo "setup-trees: $dest ready"
        continue
    fi
    start=$(date +%s)
    rm -rf "$dest.partial" "$dest"
    mkdir -p "$dest.partial"
    tar -xJf "$tar" -C "$dest.partial"
    # The tarball holds one directory, linux-source-X.
    mv "$dest.partial/$name" "$dest"
    rmdir "$dest.partial"
    echo "setup-trees: unpacked $tar into $dest in $(( $(date +%s) - start )) s"
    if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
        start=$(date +%s)
        if (cd "$dest" && $MAKE allnoconfig && scripts/kconfig/merge_config.sh -m .config "$S/kernel/kasan-hw-tags.config" &&
            $MAKE olddefconfig && $MAKE -j2 prepare) > "$dest.configure.log" 2>&1; then
            echo "setup-trees: configured $dest (arm64, kasan-hw-tags) in $(( $(date +%s) - start )) s"
        else
            echo "setup-trees: configuring $dest failed ($dest.configure.log): its files are read without types"
        fi
    else
        echo "setup-trees: no aarch64-linux-gnu-gcc: $dest is read unconfigured (scripts/setup-kernel.sh installs it)"
    fi
    touch "$dest/.tagproof-ready"
done
