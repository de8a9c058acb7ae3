#!/bin/sh
# A hunk that finds no place in the tree, merged 3-way from the blob its index
# line names (issue 31 item 2, as `git apply --3way`): a git checkout whose
# file changed between the hunk's two changed lines since the patch was
# written. The file is a made-up one (no kernel code in the project). Its
# control: the same tree without .git, where the hunk fails and says why.
# usage: three_way_apply.sh TAGPROOF OUT
set -eu
TAGPROOF=$1 OUT=$2
rm -rf "$OUT"
T=$OUT/tree
mkdir -p "$T/mm"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n' > "$T/Makefile"
i=1
while [ $i -le 24 ]; do
    printf 'static int step_%02d(void) { return %d; }\n' $i $i
    i=$((i + 1))
done > "$T/mm/page_alloc.c"
git -C "$T" init -q
git -C "$T" add -A
git -C "$T" -c user.email=t@example.org -c user.name=t commit -qm "the tree the patch was written on"
# the patch: steps 10 and 14 changed, with steps 11..13 between them
sed -i 's/return 10;/return 100;/; s/return 14;/return 140;/' "$T/mm/page_alloc.c"
{
    printf 'From: t <t@example.org>\nSubject: [PATCH] mm: two steps\n\n---\n'
    git -C "$T" diff
} > "$OUT/two-steps.patch"
git -C "$T" checkout -q -- mm/page_alloc.c
# since then, the tree changed step 12, between the patch's two changes
sed -i 's/return 12;/return 12 + 0;/' "$T/mm/page_alloc.c"
git -C "$T" -c user.email=t@example.org -c user.name=t commit -qam "step 12 changed since"
fail() { echo "FAIL: $*" >&2; exit 1; }
flat() { tr -s ' \n' '  ' < "$1"; }
"$TAGPROOF" review "$OUT/two-steps.patch" --tree "$T" --map-only --out "$OUT/r" > "$OUT/git.txt" 2>&1 || true
flat "$OUT/git.txt" | grep -q "1 of 1 hunks apply" || fail "the hunk did not apply on the git checkout: $OUT/git.txt"
flat "$OUT/git.txt" | grep -q "applied by a 3-way merge from blob [0-9a-f]* (its index line), as git apply --3way), in step_10, step_14" ||
    fail "the reply does not name the 3-way merge and the hunk's functions: $OUT/git.txt"
# the user's tree is only read
git -C "$T" diff --quiet || fail "the review changed the tree"
# control: the same tree without .git, where the hunk fails and says why
cp -r "$T" "$OUT/plain"
rm -rf "$OUT/plain/.git"
"$TAGPROOF" review "$OUT/two-steps.patch" --tree "$OUT/plain" --map-only --out "$OUT/r2" > "$OUT/plain.txt" 2>&1 || true
flat "$OUT/plain.txt" | grep -q "0 of 1 hunks apply" || fail "the control applied: $OUT/plain.txt"
flat "$OUT/plain.txt" | grep -q "no 3-way merge: the tree is not a git checkout" || fail "the control does not say why: $OUT/plain.txt"
echo "3-way merge from the index line's blob: applied; control without .git: failed, said why"
