#!/bin/bash -eu
# fuzz/build.sh — builds every fuzz target the way OSS-Fuzz and
# ClusterFuzzLite do: from $CXX $CXXFLAGS $LIB_FUZZING_ENGINE into $OUT, with
# a seed corpus zip, a dictionary and an options file beside each target.
#
# Locally (what ctest's fuzz.build-sh test runs):
#   CXX=clang++ CXXFLAGS="-fsanitize=address,fuzzer-no-link -g -O1" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out WORK=/tmp/work fuzz/build.sh
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${CXX:?set CXX}" "${OUT:?set OUT}" "${LIB_FUZZING_ENGINE:?set LIB_FUZZING_ENGINE}"
CXXFLAGS=${CXXFLAGS:-}
WORK=${WORK:-$(mktemp -d)}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
mkdir -p "$OUT" "$WORK/obj"

# the libraries the targets use: core, kernel, spec, reference, differential, scenario
DIRS="model/core model/kernel model/kernel/checks model/kernel/file model/spec model/reference differential scenario patch"
INC=""
for d in $DIRS; do INC="$INC -I$ROOT/$d"; done
OBJS=()
CMDS=()
for d in $DIRS; do
    for src in "$ROOT/$d"/*.cpp; do
        obj="$WORK/obj/$(echo "${src#$ROOT/}" | tr / _).o"
        OBJS+=("$obj")
        CMDS+=("$CXX $CXXFLAGS -std=c++20 $INC -c $src -o $obj")
    done
done
# compile in parallel; any failure stops the build
printf '%s\n' "${CMDS[@]}" | xargs -P "$JOBS" -I{} sh -c '{}'
rm -f "$WORK/libtagproof_fuzz.a"
ar rcs "$WORK/libtagproof_fuzz.a" "${OBJS[@]}"

zip_dir() {  # zip_dir OUTPUT.zip FILE...
    local zipfile=$1
    shift
    python3 -c 'import sys, zipfile, os
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for f in sys.argv[2:]: z.write(f, os.path.basename(f))' "$zipfile" "$@" 2>/dev/null || zip -jq "$zipfile" "$@"
}

# target: max_len, seed files
declare -A MAXLEN=([differential]=258 [invariants]=258 [boot]=256 [gfp]=256 [scenario]=4096 [ftrace]=4096 [variant_file]=4096 [patch]=16384)
for t in differential invariants boot gfp scenario ftrace variant_file patch; do
    $CXX $CXXFLAGS -std=c++20 $INC "$ROOT/fuzz/${t}_fuzz.cpp" "$WORK/libtagproof_fuzz.a" $LIB_FUZZING_ENGINE \
        -o "$OUT/${t}_fuzz"
    case $t in
        differential|invariants) seeds=("$ROOT"/fuzz/corpus/differential/* "$ROOT"/fuzz/corpus/events/*) ;;
        scenario) seeds=("$ROOT"/tests/scenarios/*/*.litmus) ;;
        ftrace) seeds=("$ROOT"/tests/traces/*.trace) ;;
        variant_file) seeds=("$ROOT"/variants/*.variant "$ROOT"/tests/variants/*.variant "$ROOT"/tests/variants/bad/*.variant) ;;
        patch) seeds=("$ROOT"/tests/patches/*.diff "$ROOT"/tests/patches/*.patch "$ROOT"/tests/patches/seeds/* "$ROOT"/tests/patches/bad/*) ;;
        *) seeds=("$ROOT"/fuzz/corpus/$t/*) ;;
    esac
    rm -f "$OUT/${t}_fuzz_seed_corpus.zip"
    zip_dir "$OUT/${t}_fuzz_seed_corpus.zip" "${seeds[@]}"
    {
        echo "[libfuzzer]"
        echo "max_len = ${MAXLEN[$t]}"
        if [ -f "$ROOT/fuzz/dict/$t.dict" ]; then
            cp "$ROOT/fuzz/dict/$t.dict" "$OUT/${t}_fuzz.dict"
            echo "dict = ${t}_fuzz.dict"
        fi
    } > "$OUT/${t}_fuzz.options"
done
echo "built into $OUT: $(cd "$OUT" && ls *_fuzz | tr '\n' ' ')"
