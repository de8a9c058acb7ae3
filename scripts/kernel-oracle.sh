#!/bin/sh
# The kernel oracle (issue 17): builds Debian's linux-source-6.12 for arm64
# with KASAN HW_TAGS, the kernel's KASAN KUnit suite and tagproof's own suite
# (the corpus written as KUnit C by `tagproof kernel kunit`), boots it in QEMU
# with MTE, and sets the kernel's results beside the model's:
#   OUT/kunit-agreement.md     the kernel's KASAN KUnit cases vs the ports
#   OUT/scenario-agreement.md  tagproof's scenarios, statement by statement
# The source is unpacked and built once in OUT (about 3 min on 2 cores); a
# later run rebuilds only what changed (the suite file) and boots again.
#
# A case that reads a neighbour can fail on a tag collision
# (scripts/oracle-agreement.sh). So the kernel is booted again, up to BOOTS
# times (default 3), until every case has agreed in some boot (a real
# disagreement shows in every boot; a collision in all three has odds of
# about 1 in 3000 per case); every boot's
# log and tables are kept (console-N.log, *-agreement-N.md).
#
# usage: kernel-oracle.sh TAGPROOF SOURCE_DIR OUT
set -eu
TAGPROOF=$1 S=$2 OUT=$3
BOOTS=${BOOTS:-3}
TAR=/usr/src/linux-source-6.12.tar.xz
MAKE="make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-"
say() { echo "kernel-oracle: $*"; }
fail() { echo "kernel-oracle: error: $*" >&2; exit 2; }

[ -r "$TAR" ] || fail "$TAR missing: run scripts/setup-kernel.sh"
command -v aarch64-linux-gnu-gcc >/dev/null || fail "aarch64-linux-gnu-gcc missing: run scripts/setup-kernel.sh"
command -v qemu-system-aarch64 >/dev/null || fail "qemu-system-aarch64 missing: run scripts/setup-kernel.sh"
major=$(qemu-system-aarch64 --version | sed -n 's/^QEMU emulator version \([0-9]*\)\..*/\1/p')
[ "${major:-0}" -ge 8 ] || fail "QEMU $major keeps one MTE tag per page (docs/kernel-oracle.md): run scripts/setup-kernel.sh"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
S=$(cd "$S" && pwd)

# 1. the source, unpacked once
if [ ! -f "$OUT/src/Makefile" ]; then
    say "unpacking $TAR"
    rm -rf "$OUT/src" "$OUT/linux-source-6.12"
    tar -xf "$TAR" -C "$OUT"
    mv "$OUT/linux-source-6.12" "$OUT/src"
fi
# 2. tagproof's suite, built beside kasan_test in mm/kasan/ (it uses mm/kasan/kasan.h)
SCEN="$S/tests/scenarios/kunit $S/tests/scenarios/eras $S/tests/scenarios/seeds"
"$TAGPROOF" kernel kunit --kernel-version 6.12 --exclude "$S/kernel/kunit-exclude.txt" --out "$OUT/tagproof_kunit.c" $SCEN > "$OUT/kunit-written.txt"
head -1 "$OUT/kunit-written.txt"
cmp -s "$OUT/tagproof_kunit.c" "$OUT/src/mm/kasan/tagproof_kunit.c" || cp "$OUT/tagproof_kunit.c" "$OUT/src/mm/kasan/"
grep -q tagproof_kunit "$OUT/src/mm/kasan/Makefile" ||
    printf '\n# tagproof kernel kunit\nobj-$(CONFIG_KASAN_KUNIT_TEST) += tagproof_kunit.o\n' >> "$OUT/src/mm/kasan/Makefile"
# 3. the configuration: allnoconfig and the fragment (kernel/kasan-hw-tags.config)
FRAG="$S/kernel/kasan-hw-tags.config"
if [ ! -f "$OUT/obj/.config" ] || [ "$FRAG" -nt "$OUT/obj/.config" ]; then
    say "configuring (allnoconfig + $FRAG)"
    mkdir -p "$OUT/obj"
    (cd "$OUT/src" && $MAKE O="$OUT/obj" allnoconfig > "$OUT/config.log" 2>&1 &&
        scripts/kconfig/merge_config.sh -m -O "$OUT/obj" "$OUT/obj/.config" "$FRAG" >> "$OUT/config.log" 2>&1 &&
        $MAKE O="$OUT/obj" olddefconfig >> "$OUT/config.log" 2>&1) || fail "configuration failed: $OUT/config.log"
    for c in CONFIG_ARM64_MTE CONFIG_KASAN_HW_TAGS CONFIG_KASAN_KUNIT_TEST CONFIG_NET; do
        grep -q "^$c=y" "$OUT/obj/.config" || fail "$c is not set in $OUT/obj/.config"
    done
fi
# 4. the build
say "building Image (log: $OUT/build.log)"
start=$(date +%s)
(cd "$OUT/src" && $MAKE O="$OUT/obj" -j2 Image > "$OUT/build.log" 2>&1) || {
    grep -E "error|Error" "$OUT/build.log" | head -20 >&2
    fail "the kernel build failed: $OUT/build.log"
}
say "built in $(( $(date +%s) - start )) s"
# 5. boot until every case has agreed in some boot: a real disagreement is in
#    every boot; a tag collision in about 1 of 14 per case that reads a neighbour
COMPARE_ARGS="" SCENARIO_ARGS="--exclude $S/kernel/kunit-exclude.txt"
. "$S/scripts/oracle-agreement.sh"
n=1
while :; do
    LOG="$OUT/console-$n.log"
    say "boot $n: $LOG"
    # an Oops ends the boot (oops=panic, panic=-1 with -no-reboot) rather than hang it;
    # a whole boot takes seconds
    timeout 300 qemu-system-aarch64 -machine virt,mte=on -cpu max -m 1G -nographic -no-reboot -net none \
        -kernel "$OUT/obj/arch/arm64/boot/Image" -append "console=ttyAMA0 kunit_shutdown=poweroff oops=panic panic=-1" \
        < /dev/null 2>&1 | tr -d '\r' > "$LOG" || true
    agree_boot "$LOG" "$n"
    if every_case_agreed; then
        say "every case agreed in some boot of $n"
        exit 0
    fi
    say "differing in every boot so far: $still"
    [ "$n" -ge "$BOOTS" ] && { say "after $BOOTS boots these still differ: $still"; exit 1; }
    n=$((n + 1))
done
