#!/bin/sh
# Installs what tagproof needs on Debian 12 (as root; sudo is used otherwise).
# Idempotent: does nothing when every package is already installed.
set -eu
PKGS="cmake ninja-build g++ make pkg-config libgtest-dev googletest libgmock-dev librapidcheck-dev \
libboost-graph-dev zlib1g-dev libz3-dev z3 libbenchmark-dev libjemalloc-dev clang libclang-rt-14-dev libclang-14-dev graphviz \
chromium fonts-dejavu-core python3"
# chromium, fonts-dejavu-core, python3: the HTML report looked at in headless
# Chromium (ctest review.html-screenshot, tests/html_check.py). The font is
# named because --no-install-recommends leaves out chromium's fonts-liberation,
# and a browser without a font draws the picture's boxes but none of its text.
missing=""
for p in $PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
# The kernel oracle's packages (ctest --preset kernel, issue 17): Debian's
# linux-source-6.12, the arm64 cross compiler, QEMU from bookworm-backports.
# Not needed by the default test run, so a failure there is said, not fatal.
kernel_oracle() {
    "$(dirname "$0")/setup-kernel.sh" ||
        echo "setup: the kernel oracle's packages were not installed (only ctest --preset kernel needs them)"
    # The kernel trees a patch review reads (issue 31): unpacked and configured once, cached.
    "$(dirname "$0")/setup-trees.sh" ||
        echo "setup: the kernel trees were not prepared (a review then uses the hand-written model)"
}
if [ -z "$missing" ]; then
    echo "setup: all packages present"
    kernel_oracle
    exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "setup: installing$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
kernel_oracle
