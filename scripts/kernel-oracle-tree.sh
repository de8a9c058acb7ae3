#!/bin/sh
# The kernel oracle on any configured tree (issue 32 item 2): Debian's 6.1.y
# as well as 6.12.y, each compared with the model's era for that exact tree
# (the lifted era, `tagproof lift --write`), not the releases that bracket it.
# The kernel is built by scripts/kernel-confirm.sh in its cached copy of the
# tree (with the build fixes the tree needs), with tagproof's corpus as a
# KUnit suite beside the kernel's own KASAN suite; booted under QEMU MTE until
# every case has agreed in some boot, at most BOOTS boots (default 4): a tag
# collision fails a case that reads a neighbour about 1 boot in 15
# (scripts/oracle-agreement.sh). kernel-confirm.sh boots one kernel twice (as
# its base and as its patched copy, the same tree here); a later round boots
# them again without a build.
#   OUT/TREE-ERA.variant        the lifted era
#   OUT/kunit-agreement.md      the kernel's KASAN KUnit cases vs the ports
#   OUT/scenario-agreement.md   tagproof's scenarios, statement by statement
# usage: kernel-oracle-tree.sh TAGPROOF SOURCE_DIR TREE OUT
set -eu
TAGPROOF=$1 S=$2 TREE=$3 OUT=$4
say() { echo "kernel-oracle-tree: $*"; }
fail() { echo "kernel-oracle-tree: error: $*" >&2; exit 2; }
[ -f "$TREE/Makefile" ] || fail "$TREE: no Makefile: not a kernel source tree (scripts/setup-trees.sh)"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd) S=$(cd "$S" && pwd) TREE=$(cd "$TREE" && pwd)
version=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$TREE/Makefile" | paste -sd.)
# 1. the tree's era: its modelled functions and GFP constants, lifted
"$TAGPROOF" lift --tree "$TREE" --write "$OUT/tree.variant" > "$OUT/lift.txt" || [ $? -eq 1 ]
ERA=$(sed -n 's/^name //p' "$OUT/tree.variant" | head -1)
BASE=$(sed -n 's/^base //p' "$OUT/tree.variant" | head -1)
[ -n "$ERA" ] && [ -n "$BASE" ] || fail "tagproof lift wrote no variant ($OUT/lift.txt)"
say "$TREE is $version; the model's era for it: $ERA (over $BASE)"
# 2. the corpus as a KUnit suite for this release, in the file the confirm copies build
JOB=$OUT/job
rm -rf "$JOB"
mkdir -p "$JOB/base/mm/kasan" "$JOB/patched/mm/kasan"
SCEN="$S/tests/scenarios/kunit $S/tests/scenarios/eras $S/tests/scenarios/seeds"
# the files about the hand release the lifted era sits on (a file about another
# release says what that release does, which the tree need not)
"$TAGPROOF" kernel kunit --era "$BASE" --exclude "$S/kernel/kunit-exclude.txt" \
    --out "$JOB/base/mm/kasan/tagproof_confirm.c" $SCEN > "$OUT/kunit-written.txt"
head -1 "$OUT/kunit-written.txt"
cp "$JOB/base/mm/kasan/tagproof_confirm.c" "$JOB/patched/mm/kasan/"
echo - > "$JOB/boots"
echo - > "$JOB/filter"   # every suite: the kernel's KASAN suite and tagproof's
# 3. built and booted (the patched copy is the same tree here: two boots of one kernel)
KERNELS=${TAGPROOF_KERNELS:-${XDG_CACHE_HOME:-$HOME/.cache}/tagproof/kernels}/$(basename "$TREE")
sh "$S/scripts/kernel-confirm.sh" "$TREE" "$KERNELS" "$JOB"
# 4. the kernel beside the model's era for this tree, boot by boot
COMPARE_ARGS="--variant-file $OUT/tree.variant --variant $ERA"
SCENARIO_ARGS="--variant-file $OUT/tree.variant --variant $ERA --era $BASE --exclude $S/kernel/kunit-exclude.txt"
. "$S/scripts/oracle-agreement.sh"
BOOTS=${BOOTS:-4}
n=0 round=1
while :; do
    for side in base patched; do
        LOG=$JOB/console-$side-1.log
        [ "$round" -eq 1 ] || LOG=$JOB/console-$side-1.r$round.log
        n=$((n + 1))
        say "boot $n: $LOG"
        agree_boot "$LOG" "$n"
        if every_case_agreed; then
            say "every case agreed in some boot of $n"
            exit 0
        fi
        say "differing in every boot so far: $still"
        [ "$n" -ge "$BOOTS" ] && { say "after $n boots these still differ: $still"; exit 1; }
    done
    round=$((round + 1))
    sh "$S/scripts/kernel-confirm.sh" "$TREE" "$KERNELS" "$JOB" "$round"
done
