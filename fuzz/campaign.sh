#!/bin/bash
# fuzz/campaign.sh — a fuzzing campaign on one variant, then triage.
#
#   fuzz/campaign.sh --variant anjum-v4 [--time 10m] [--jobs 2] [--target invariants]
#                    [--out DIR] [--build DIR] [--triage-only]
#
# Runs build/fuzz/<target>_fuzz (default: invariants, TAGPROOF_VARIANT set to
# the variant) in libFuzzer's fork mode with --jobs workers for --time
# (s/m/h suffixes), crashes kept and the campaign going on (DIR/fuzz.log). Then:
#   - the corpus is merged and minimised into DIR/corpus.min;
#   - every crash is read (in one process, TAGPROOF_FUZZ_TRIAGE=1) for the
#     invariant it breaks, deduplicated by invariant and kernel entry point,
#     the first of each kind minimised by libFuzzer (-minimize_crash), its
#     scenario extracted, line-minimised and replayed in the model (`tagproof
#     report --minimise`), and written with its report to
#     DIR/findings/<invariant>-N.{litmus,txt}; a model/reference mismatch
#     (--target differential) with the target's report of both states.
# --triage-only: triage DIR's crashes again (after a fix, or a new triage)
# without fuzzing. Exit status: 0 nothing found, 1 findings (listed), 2 bad
# usage.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VARIANT="" TIME=10m JOBS=2 TARGET=invariants OUT="" BUILD="$ROOT/build" TRIAGE_ONLY=0
while [ $# -gt 0 ]; do
    case "$1" in
        --variant) VARIANT=$2; shift 2 ;;
        --time) TIME=$2; shift 2 ;;
        --jobs) JOBS=$2; shift 2 ;;
        --target) TARGET=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --build) BUILD=$2; shift 2 ;;
        --triage-only) TRIAGE_ONLY=1; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "campaign.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
    esac
done
[ -n "$VARIANT" ] || { echo "campaign.sh: --variant NAME is required" >&2; exit 2; }
case "$TIME" in
    *h) SECS=$(( ${TIME%h} * 3600 )) ;;
    *m) SECS=$(( ${TIME%m} * 60 )) ;;
    *s) SECS=${TIME%s} ;;
    *[!0-9]*|"") echo "campaign.sh: --time '$TIME': expected a number with s, m or h" >&2; exit 2 ;;
    *) SECS=$TIME ;;
esac
FUZZER="$BUILD/fuzz/${TARGET}_fuzz"
TAGPROOF="$BUILD/cli/tagproof"
[ -x "$FUZZER" ] || { echo "campaign.sh: $FUZZER is not built (clang and libclang-rt-14-dev, then cmake --build)" >&2; exit 2; }
[ -x "$TAGPROOF" ] || { echo "campaign.sh: $TAGPROOF is not built" >&2; exit 2; }
"$TAGPROOF" variants --mutants | grep -q "^$VARIANT " || { echo "campaign.sh: unknown variant '$VARIANT'" >&2; exit 2; }
OUT=${OUT:-campaign-$VARIANT-$TARGET}
mkdir -p "$OUT/corpus" "$OUT/crashes" "$OUT/findings"
cp -n "$ROOT/fuzz/corpus/$TARGET"/* "$OUT/corpus/" 2>/dev/null || true
cp -n "$ROOT/fuzz/corpus/differential"/* "$OUT/corpus/" 2>/dev/null || true
cp -n "$ROOT/fuzz/corpus/events"/* "$OUT/corpus/" 2>/dev/null || true  # the scenario corpus, encoded
DICT=()
[ -f "$ROOT/fuzz/dict/$TARGET.dict" ] && DICT=(-dict="$ROOT/fuzz/dict/$TARGET.dict")
export TAGPROOF_VARIANT="$VARIANT"
# Crashes unsymbolised: a finding is the target's abort(), whose stack no one
# reads, and each symbolised crash started llvm-symbolizer over the target's
# debug info (0.65 s a crash: 2.6 of a merge's 4 s, most of a minimisation).
# The report of a crash of the target itself (below) is symbolised.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}symbolize=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}symbolize=0"
# every fuzzer run but the campaign's keeps libFuzzer's own artifacts in
# DIR/scratch, not in the working directory
SCRATCH="$OUT/scratch/"
mkdir -p "$SCRATCH"

if [ "$TRIAGE_ONLY" = 0 ]; then
    echo "campaign: $TARGET on $VARIANT, $SECS s, $JOBS jobs, in $OUT"
    "$FUZZER" -fork="$JOBS" -ignore_crashes=1 -max_total_time="$SECS" -max_len=258 "${DICT[@]}" \
        -artifact_prefix="$OUT/crashes/" -print_final_stats=1 "$OUT/corpus" > "$OUT/fuzz.log" 2>&1
    grep -E "exec/s" "$OUT/fuzz.log" | tail -1
    grep -E "INFO: fuzzed for|stat::number_of_executed_units|stat::average_exec_per_sec" "$OUT/fuzz.log" | tail -3
    mkdir -p "$OUT/corpus.min"
    "$FUZZER" -merge=1 -artifact_prefix="$SCRATCH" "$OUT/corpus.min" "$OUT/corpus" > "$OUT/merge.log" 2>&1
    echo "corpus: $(ls "$OUT/corpus" | wc -l) inputs, $(ls "$OUT/corpus.min" | wc -l) after merge"
fi
rm -rf "$OUT/findings" && mkdir -p "$OUT/findings"

# triage. Every crash is read once to learn what it broke: crash-* files in
# batches of 200 in one process (TAGPROOF_FUZZ_TRIAGE=1: the target prints
# its finding and goes on; a crash of the target itself ends the process and
# the batch goes on after it); leak-* and timeout-* one process each, since
# what they show comes at exit. DIR/triage.tsv: file, invariant (or
# mismatch, or crash / leak / timeout of the target), entry.
crashes=()
for c in "$OUT"/crashes/crash-*; do
    [ -f "$c" ] && crashes+=("$c")
done
: > "$OUT/triage.tsv"
# the same bug: the same invariant broken at the same kernel entry point
# (the event the violation or the mismatch shows at); a crash of the target
# by its sanitizer or libFuzzer error line, numbers blanked
read_triage_log() {
    awk -F'\n' '
        function call(s) { sub(/^[a-z0-9_]+ = /, "", s); match(s, /^[a-z_]+/); return substr(s, RSTART, RLENGTH) }
        /^Running: / { file = substr($0, 10); inv = ""; entry = ""; err = ""; next }
        file == "" { next }
        /^violation of [a-z-]+: / && inv == "" { s = substr($0, 14); inv = substr(s, 1, index(s, ":") - 1); next }
        /^at event: / && entry == "" { entry = call(substr($0, 11)); next }
        /^mismatch of / && inv == "" { inv = "mismatch"; entry = call(substr($0, 13)); next }
        /ERROR: / && err == "" { err = $0; gsub(/0x[0-9a-f]+|[0-9]+/, "N", err) }
        /^Executed / { print file "\t" (inv == "" ? "not-reproduced" : inv) "\t" entry; file = ""; next }
        END { if (file != "") print file "\tcrash\t" err }
    ' "$1"
}
i=0
while [ "$i" -lt "${#crashes[@]}" ]; do
    TAGPROOF_FUZZ_TRIAGE=1 "$FUZZER" -runs=1 -artifact_prefix="$SCRATCH" "${crashes[@]:$i:200}" > "$OUT/triage.log" 2>&1
    read_triage_log "$OUT/triage.log" > "$OUT/triage.batch"
    n=$(wc -l < "$OUT/triage.batch")
    cat "$OUT/triage.batch" >> "$OUT/triage.tsv"
    if [ "$n" -eq 0 ]; then
        echo "campaign.sh: triage could not read ${crashes[$i]}" >&2
        n=1
    fi
    i=$((i + n))
done
for c in "$OUT"/crashes/leak-* "$OUT"/crashes/timeout-*; do
    [ -f "$c" ] || continue
    kind=leak
    case "$(basename "$c")" in timeout-*) kind=timeout ;; esac
    if "$FUZZER" -runs=1 -artifact_prefix="$SCRATCH" "$c" > "$OUT/triage.log" 2>&1; then
        printf '%s\tnot-reproduced\t\n' "$c" >> "$OUT/triage.tsv"
    else
        err=$(grep -m1 -E "ERROR: " "$OUT/triage.log" | sed -E 's/0x[0-9a-f]+|[0-9]+/N/g')
        printf '%s\t%s\t%s\n' "$c" "$kind" "$err" >> "$OUT/triage.tsv"
    fi
done
total=$(wc -l < "$OUT/triage.tsv")
echo "triage: $total crashes read, $(cut -f2,3 "$OUT/triage.tsv" | grep -v '^not-reproduced' | sort -u | wc -l) kinds"

# the kind of one input, "invariant|entry", read as the batches are read
kind_of() {
    TAGPROOF_FUZZ_TRIAGE=1 "$FUZZER" -runs=1 -artifact_prefix="$SCRATCH" "$1" > "$OUT/kind.log" 2>&1
    read_triage_log "$OUT/kind.log" | head -1 | cut -f2,3 | tr '\t' '|'
}

declare -A seen minimised
found=0
while IFS=$'\t' read -r crash inv entry; do
    [ "$inv" != not-reproduced ] || continue
    key="$inv|$entry"
    [ -z "${seen[$key]:-}" ] || continue
    seen[$key]=1
    stem="$OUT/findings/$inv-$((found + 1))"
    "$FUZZER" -minimize_crash=1 -runs=5000 -artifact_prefix="$SCRATCH" -exact_artifact_path="$stem.input" "$crash" \
        > "$stem.minimize.log" 2>&1
    [ -f "$stem.input" ] || cp "$crash" "$stem.input"
    # minimising can turn two kinds into one input: one finding, said once
    # (a crash of the target itself, or an input that no longer shows
    # anything, is never merged)
    mkey=$(kind_of "$stem.input")
    case "$mkey" in crash\|*|not-reproduced\|*|"") mkey="" ;; esac
    if [ -n "$mkey" ] && [ -n "${minimised[$mkey]:-}" ]; then
        echo "($key minimises to the same input kind as finding ${minimised[$mkey]}: not repeated)"
        rm -f "$stem.input" "$stem.minimize.log"
        continue
    fi
    found=$((found + 1))
    [ -z "$mkey" ] || minimised[$mkey]=$found
    log=$(cat "$OUT/kind.log")  # kind_of's run of the minimised input
    # the first scenario the target printed (libFuzzer may run an input twice)
    printf '%s\n' "$log" | awk '/^--- scenario ---$/ { on = 1; next } /^--- end ---$/ { if (on) exit } on' > "$stem.raw.litmus"
    if [ "$inv" = mismatch ] && [ -s "$stem.raw.litmus" ]; then
        # model and reference disagree: the report is the target's, both states and the trace
        cp "$stem.raw.litmus" "$stem.litmus"
        printf '%s\n' "$log" | awk '/^mismatch of / { on = 1 } /^--- scenario ---$/ { exit } on' > "$stem.txt"
        events=$(grep -vcE '^(#|name|variant|modes|config|boot|expect|$)|page_address\(' "$stem.litmus")
        echo "finding $found: mismatch at $entry, $events events, model vs reference: $stem.litmus, report $stem.txt"
    elif [ -s "$stem.raw.litmus" ]; then
        "$TAGPROOF" report --minimise --write-minimised "$stem.litmus" --source "fuzzing campaign ($TARGET, $VARIANT)" \
            "$stem.raw.litmus" > "$stem.txt"
        events=$(grep -vcE '^(#|name|variant|modes|config|boot|expect|$)|page_address\(' "$stem.litmus")
        if "$TAGPROOF" run "$stem.litmus" > "$stem.replay.log" 2>&1; then replay="replayed in the model"; else replay="NOT replayed"; fi
        echo "finding $found: $inv, $events events, $replay: $stem.litmus, report $stem.txt"
    else
        ASAN_OPTIONS="$ASAN_OPTIONS:symbolize=1" UBSAN_OPTIONS="$UBSAN_OPTIONS:symbolize=1" \
            "$FUZZER" -runs=1 -artifact_prefix="$SCRATCH" "$crash" 2>&1 | head -40 > "$stem.txt"
        echo "finding $found: $inv (no scenario: a crash in the target itself): $stem.txt"
    fi
done < "$OUT/triage.tsv"
if [ "$found" -eq 0 ]; then
    echo "no findings"
    exit 0
fi
exit 1
