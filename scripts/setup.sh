#!/bin/sh
# Installs what tagproof needs on Debian 12 (as root; sudo is used otherwise).
# Idempotent: does nothing when every package is already installed.
set -eu
PKGS="cmake ninja-build g++ make pkg-config libgtest-dev googletest libgmock-dev librapidcheck-dev \
libboost-graph-dev libz3-dev z3 libbenchmark-dev clang libclang-rt-14-dev graphviz"
missing=""
for p in $PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "setup: all packages present"
    exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "setup: installing$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
