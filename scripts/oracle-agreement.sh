# Sourced by the kernel oracles (kernel-oracle.sh, kernel-oracle-tree.sh): one
# boot's console log set beside the model, and the cases that have differed in
# every boot so far kept in $still.
#
# A case that reads the neighbouring object or page (kmalloc_oob_left,
# kasan_memchr, kasan_memcmp, page_alloc_oob_right, ksize_unpoisons_memory's
# read at ksize(); tagproof's ports that read past a slot) passes only when
# the neighbour's random tag differs from the pointer's: about 1 boot in 15
# per case they collide (docs/kernel-oracle.md).
# So a case counts as differing only when it differs in every boot; a real
# disagreement shows in each of them.
#
# Needs: TAGPROOF, OUT, SCEN, and the extra arguments of `tagproof kernel
# compare` and `tagproof kernel scenarios` in COMPARE_ARGS and SCENARIO_ARGS.
# agree_boot LOG N: writes OUT/kunit-agreement-N.md and
# OUT/scenario-agreement-N.md (copied to OUT/*-agreement.md) and narrows $still.
still=""
agree_boot() {
    log=$1 n=$2
    rc=0
    # shellcheck disable=SC2086 # the argument lists are words
    "$TAGPROOF" kernel compare "$log" $COMPARE_ARGS --out "$OUT/kunit-agreement-$n.md" || rc=$?
    # shellcheck disable=SC2086
    "$TAGPROOF" kernel scenarios "$log" $SCEN $SCENARIO_ARGS --out "$OUT/scenario-agreement-$n.md" || rc=$((rc | $?))
    [ "$rc" -ge 2 ] && { echo "kernel oracle: error: tagproof could not read $log" >&2; exit 2; }
    grep -h "agree, " "$OUT/kunit-agreement-$n.md" "$OUT/scenario-agreement-$n.md" || true
    # what differed this boot (a case not run counts: the boot stopped before it)
    now=$(grep -h -E '\*\*disagree\*\*|\| not run \|' "$OUT/kunit-agreement-$n.md" "$OUT/scenario-agreement-$n.md" |
        cut -d'|' -f2 | tr -d ' ' | sort -u | tr '\n' ' ')
    if [ "$n" -eq 1 ]; then still=$now; else
        still=$(for c in $still; do case " $now " in *" $c "*) echo "$c";; esac; done | tr '\n' ' ')
    fi
    cp "$OUT/kunit-agreement-$n.md" "$OUT/kunit-agreement.md"
    cp "$OUT/scenario-agreement-$n.md" "$OUT/scenario-agreement.md"
}
# every_case_agreed: true when no case has differed in every boot so far
every_case_agreed() { [ -z "$(echo $still)" ]; }
