#!/bin/sh
# Builds the bare-metal MTE probe and runs it under each QEMU named (default:
# qemu-system-aarch64 on the PATH). Usage: ./run-probe.sh [QEMU...]
# Expected: QEMU 7.2 "RESULT: FAIL (5 failures)" (one tag per page), QEMU 10.0.2 "RESULT: PASS".
set -eu
cd "$(dirname "$0")"
aarch64-linux-gnu-gcc -O1 -ffreestanding -nostdlib -nostartfiles -mgeneral-regs-only \
    -march=armv8.5-a+memtag -static -T link.ld -Wl,--build-id=none -Wl,--no-warn-rwx-segments \
    -o /tmp/mte-probe.elf start.S main.c
[ $# -gt 0 ] || set -- qemu-system-aarch64
for q in "$@"; do
    echo "##### $($q --version | head -1)"
    timeout 30 "$q" -M virt,mte=on -cpu max -m 256M -nographic -no-reboot -net none -kernel /tmp/mte-probe.elf 2>&1 |
        tr -d '\r' || true
done
