#!/bin/sh
# The kernel oracle on any configured tree (issue 32 item 2): Debian's 6.1.y
# as well as 6.12.y, each compared with the model's era for that exact tree
# (the lifted era, `tagproof lift --write`), not the releases that bracket it.
# The kernel is built by scripts/kernel-confirm.sh in its cached copy of the
# tree (with the build fixes the tree needs), with tagproof's corpus as a
# KUnit suite beside the kernel's own KASAN suite; booted once under QEMU MTE.
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
# 3. built and booted (the patched copy is the same tree here)
sh "$S/scripts/kernel-confirm.sh" "$TREE" "${TAGPROOF_KERNELS:-${XDG_CACHE_HOME:-$HOME/.cache}/tagproof/kernels}/$(basename "$TREE")" "$JOB"
LOG=$JOB/console-base-1.log
# 4. the kernel beside the model's era for this tree
rc=0
"$TAGPROOF" kernel compare "$LOG" --variant-file "$OUT/tree.variant" --variant "$ERA" --out "$OUT/kunit-agreement.md" || rc=$?
"$TAGPROOF" kernel scenarios "$LOG" $SCEN --variant-file "$OUT/tree.variant" --variant "$ERA" --era "$BASE" \
    --exclude "$S/kernel/kunit-exclude.txt" --out "$OUT/scenario-agreement.md" || rc=$((rc | $?))
grep -h "agree, " "$OUT/kunit-agreement.md" "$OUT/scenario-agreement.md" || true
exit $rc
