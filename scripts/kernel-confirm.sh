#!/bin/sh
# A finding confirmed in the kernel (issue 32, `tagproof review --confirm`):
# the kernel of TREE built twice with KASAN HW_TAGS (the kernel oracle's
# configuration, kernel/kasan-hw-tags.config on allnoconfig) — once with the
# series' files as they were before it ("base") and once as it leaves them
# ("patched") — each with the confirmation's KUnit suite
# (mm/kasan/tagproof_confirm.c), and each booted under QEMU MTE once per boot
# line, running only that suite (kunit.filter_glob).
#
# usage: kernel-confirm.sh TREE WORK JOB [ROUND]
#   TREE  the kernel source tree the review read; only read, never built in
#   WORK  this tree's kernels: WORK/base and WORK/patched, each a copy of TREE
#         built in place. Made once (a copy and a full build, about 3 min on
#         2 cores); later runs put the job's files over them and rebuild
#         incrementally. WORK/patched starts as a copy of the built base, so
#         its first build is incremental too.
#   JOB   what the review wrote: JOB/base/ and JOB/patched/ (files to put
#         over the copy, by their path in the tree), JOB/boots (one boot line
#         per line; "-" for none). Console logs are written to
#         JOB/console-base-N.log and JOB/console-patched-N.log (N: the boot
#         line's number), build logs to JOB/build-{base,patched}.log.
#         JOB/filter, if there, is the KUnit suite glob to run ("-": every
#         suite); else only the confirmation's suite, tagproof_confirm.
#   ROUND  a later round (2, 3, ...) only boots the kernels built in round 1
#         again, into JOB/console-{base,patched}-N.rROUND.log: a case that
#         reads its neighbour sees a tag collision in about 1 boot in 15
#         (docs/kernel-oracle.md), so a difference is taken only when it
#         shows in every round.
#
# A file the previous job put over a copy and this one does not is put back
# from TREE (with a new time, so that make rebuilds what depends on it); one
# that did not exist in TREE is removed. WORK is locked for the whole run
# (flock), so two reviews take turns.
set -eu
TREE=$1 WORK=$2 JOB=$3 ROUND=${4:-1}
MAKE="make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-"
say() { echo "kernel-confirm: $*" >&2; }
fail() { echo "kernel-confirm: error: $*" >&2; exit 2; }

[ -f "$TREE/Makefile" ] || fail "$TREE: no Makefile: not a kernel source tree"
[ -f "$JOB/boots" ] || fail "$JOB/boots missing"
command -v aarch64-linux-gnu-gcc >/dev/null || fail "aarch64-linux-gnu-gcc missing: run scripts/setup-kernel.sh"
command -v qemu-system-aarch64 >/dev/null || fail "qemu-system-aarch64 missing: run scripts/setup-kernel.sh"
major=$(qemu-system-aarch64 --version | sed -n 's/^QEMU emulator version \([0-9]*\)\..*/\1/p')
[ "${major:-0}" -ge 8 ] || fail "QEMU $major keeps one MTE tag per page (docs/kernel-oracle.md): run scripts/setup-kernel.sh"
S=$(cd "$(dirname "$0")/.." && pwd)
FRAG="$S/kernel/kasan-hw-tags.config"
mkdir -p "$WORK"
TREE=$(cd "$TREE" && pwd) WORK=$(cd "$WORK" && pwd) JOB=$(cd "$JOB" && pwd)

exec 9> "$WORK/.lock"
flock 9

configured() {  # DIR: configured with the oracle's fragment
    # CONFIG_NET: the skb allocators a case calls (net/core/skbuff.c)
    for c in CONFIG_ARM64_MTE CONFIG_KASAN_HW_TAGS CONFIG_KASAN_KUNIT_TEST CONFIG_NET; do
        grep -q "^$c=y" "$1/.config" 2>/dev/null || return 1
    done
}

if [ "$ROUND" -eq 1 ]; then
# 1. The base copy: TREE without its .git, configured, the suite's object in
#    mm/kasan/Makefile.
if [ ! -f "$WORK/base/.tagproof-copied" ]; then
    say "copying $TREE into $WORK/base"
    rm -rf "$WORK/base"
    mkdir -p "$WORK/base"
    (cd "$TREE" && tar --exclude=./.git -cf - .) | (cd "$WORK/base" && tar -xf -)
    rm -rf "$WORK/patched"
    touch "$WORK/base/.tagproof-copied"
fi
if ! configured "$WORK/base"; then
    say "configuring $WORK/base (allnoconfig + $FRAG)"
    rm -rf "$WORK/patched"  # a copy of the base as it was built: made again from this one
    (cd "$WORK/base" && $MAKE allnoconfig && scripts/kconfig/merge_config.sh -m .config "$FRAG" &&
        $MAKE olddefconfig) > "$JOB/config.log" 2>&1 || fail "configuration failed: $JOB/config.log"
    configured "$WORK/base" || fail "$WORK/base/.config lacks the oracle's options: $JOB/config.log"
fi

# What a tree needs to build at all, put in the copy only (docs/kernel-oracle.md):
# Debian's 6.1.y backports mm/kasan/report.c's calls of
# hw_suppress_tag_checks_start/stop() without their definitions (mainline
# defines them in mm/kasan/kasan.h as setting and clearing PSTATE.TCO, which
# turns tag checks off on this CPU while a report prints).
build_fixes() {  # K
    r=$1/mm/kasan/report.c
    if grep -q "hw_suppress_tag_checks_start()" "$r" 2>/dev/null &&
        ! grep -rq "define hw_suppress_tag_checks_start" "$1/mm/kasan/kasan.h" "$r"; then
        say "build fix: hw_suppress_tag_checks_start/stop defined in $r"
        sed -i '/^static void report_suppress_start(void)/i\
/* tagproof build fix: the definitions this tree lacks */\
#define hw_suppress_tag_checks_start() asm volatile(ALTERNATIVE("nop", SET_PSTATE_TCO(1), ARM64_MTE))\
#define hw_suppress_tag_checks_stop() asm volatile(ALTERNATIVE("nop", SET_PSTATE_TCO(0), ARM64_MTE))\
' "$r"
    fi
}

# Puts JOB/SIDE's files over the copy K, and puts back what the previous job
# changed there and this one does not.
overlay() {  # SIDE K
    side=$JOB/$1 k=$2
    (cd "$side" && find . -type f | sed 's|^\./||' | sort) > "$k/.tagproof-overlay.new"
    if [ -f "$k/.tagproof-overlay" ]; then
        while IFS= read -r f; do
            [ -f "$side/$f" ] && continue
            if [ -f "$TREE/$f" ]; then
                cmp -s "$TREE/$f" "$k/$f" || cp "$TREE/$f" "$k/$f"
            else
                rm -f "$k/$f"
            fi
        done < "$k/.tagproof-overlay"
    fi
    while IFS= read -r f; do
        mkdir -p "$(dirname "$k/$f")"
        cmp -s "$side/$f" "$k/$f" 2>/dev/null || cp "$side/$f" "$k/$f"
    done < "$k/.tagproof-overlay.new"
    mv "$k/.tagproof-overlay.new" "$k/.tagproof-overlay"
    build_fixes "$k"
    # the suite's object, also when the series changes mm/kasan/Makefile
    grep -q tagproof_confirm "$k/mm/kasan/Makefile" ||
        printf '\n# tagproof review --confirm\nobj-$(CONFIG_KASAN_KUNIT_TEST) += tagproof_confirm.o\n' >> "$k/mm/kasan/Makefile"
}

build() {  # SIDE K
    start=$(date +%s)
    (cd "$2" && $MAKE -j2 Image) > "$JOB/build-$1.log" 2>&1 || {
        grep -E "error|Error" "$JOB/build-$1.log" | head -20 >&2
        fail "the $1 kernel did not build: $JOB/build-$1.log"
    }
    say "built the $1 kernel in $(( $(date +%s) - start )) s"
}

# 2. The base kernel, then the patched one from a copy of it.
overlay base "$WORK/base"
build base "$WORK/base"
if [ ! -f "$WORK/patched/.tagproof-copied" ]; then
    say "copying the built base into $WORK/patched"
    rm -rf "$WORK/patched"
    cp -a "$WORK/base" "$WORK/patched"
fi
overlay patched "$WORK/patched"
build patched "$WORK/patched"
fi

# 3. Each boot line, on each kernel: only the confirmation's suite runs
#    (or JOB/filter's).
FILTER=kunit.filter_glob=tagproof_confirm
if [ -f "$JOB/filter" ]; then
    f=$(cat "$JOB/filter")
    if [ "$f" = "-" ]; then FILTER=""; else FILTER="kunit.filter_glob=$f"; fi
fi
n=1
while IFS= read -r boot; do
    [ "$boot" = "-" ] && boot=""
    for side in base patched; do
        LOG="$JOB/console-$side-$n.log"
        [ "$ROUND" -eq 1 ] || LOG="$JOB/console-$side-$n.r$ROUND.log"
        say "boot $n ($side${boot:+, $boot}): $LOG"
        # an Oops ends the boot (oops=panic, panic=-1 with -no-reboot) rather than hang it;
        # earlycon (the DT's stdout-path, virt's PL011) shows one that comes before the
        # console does (a series whose first tagged area is ioremap()'s, in init_IRQ())
        timeout 300 qemu-system-aarch64 -machine virt,mte=on -cpu max -m 1G -nographic -no-reboot -net none \
            -kernel "$WORK/$side/arch/arm64/boot/Image" \
            -append "console=ttyAMA0 earlycon kunit_shutdown=poweroff oops=panic panic=-1 $FILTER $boot" \
            < /dev/null 2>&1 | tr -d '\r' > "$LOG" || true
    done
    n=$((n + 1))
done < "$JOB/boots"
