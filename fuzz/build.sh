#!/bin/bash -eu
# fuzz/build.sh — builds every fuzz target the way OSS-Fuzz and
# ClusterFuzzLite do: from $CXX $CXXFLAGS $LIB_FUZZING_ENGINE into $OUT, with
# a seed corpus zip, a dictionary and an options file beside each target.
# The main build runs it too (cmake/fuzz.cmake: build/fuzz/, objects in
# build/fuzz-work/), so the library is compiled for fuzzing once.
#
# Incremental in $WORK: an object is compiled again only when its command
# line changed or a file it includes (clang's -MMD list) is newer than it; a
# target is linked again only when its link line changed or an input is
# newer. A fresh $WORK (OSS-Fuzz's container) compiles everything.
#
# Locally:
#   CXX=clang++ CXXFLAGS="-fsanitize=address,fuzzer-no-link -gline-tables-only -O1" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out WORK=/tmp/work fuzz/build.sh
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${CXX:?set CXX}" "${OUT:?set OUT}" "${LIB_FUZZING_ENGINE:?set LIB_FUZZING_ENGINE}"
CXXFLAGS=${CXXFLAGS:-}
WORK=${WORK:-$(mktemp -d)}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
mkdir -p "$OUT" "$WORK/obj"

# the libraries the targets use: core, kernel, spec, reference, differential,
# scenario, patch, and explore (Boost.Graph's headers) for family_walk_fuzz
DIRS="model/core model/kernel model/kernel/checks model/kernel/file model/spec model/reference differential scenario patch explore"
INC=""
for d in $DIRS; do INC="$INC -I$ROOT/$d"; done

# stale OBJ CMD: true when OBJ must be made again by CMD
stale() {
    local obj=$1 cmd=$2 dep
    [ -f "$obj" ] && [ -f "$obj.d" ] && [ -f "$obj.cmd" ] || return 0
    [ "$(cat "$obj.cmd")" = "$cmd" ] || return 0
    for dep in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$obj.d"); do
        [ "$dep" -nt "$obj" ] && return 0
    done
    return 1
}

OBJS=()
CMDS=()
compile() {  # SRC OBJ: queue SRC's compile when OBJ is stale
    local cmd="$CXX $CXXFLAGS -std=c++20 $INC -c $1 -o $2"
    if stale "$2" "$cmd"; then
        rm -f "$2"  # a failed compile leaves none: stale next time
        printf '%s' "$cmd" > "$2.cmd"
        CMDS+=("$cmd -MMD -MF $2.d")
    fi
}
for d in $DIRS; do
    for src in "$ROOT/$d"/*.cpp; do
        obj="$WORK/obj/$(echo "${src#$ROOT/}" | tr / _).o"
        OBJS+=("$obj")
        compile "$src" "$obj"
    done
done
TARGETS="differential invariants boot gfp scenario ftrace variant_file patch family_walk"
for t in $TARGETS; do compile "$ROOT/fuzz/${t}_fuzz.cpp" "$WORK/obj/fuzz_${t}_fuzz.cpp.o"; done
# compile in parallel; any failure stops the build
if [ ${#CMDS[@]} -gt 0 ]; then
    echo "build.sh: compiling ${#CMDS[@]} file(s)"
    printf '%s\n' "${CMDS[@]}" | xargs -P "$JOBS" -I{} sh -c '{}'
fi
LIB=$WORK/libtagproof_fuzz.a
newer_than() {  # FILE INPUT...: true when FILE is missing or an input is newer
    local f=$1 i
    shift
    [ -f "$f" ] || return 0
    for i in "$@"; do [ "$i" -nt "$f" ] && return 0; done
    return 1
}
# again also when the set of objects changed (a source removed leaves its
# object in the old archive)
if newer_than "$LIB" "${OBJS[@]}" || [ "$(cat "$LIB.objects" 2>/dev/null)" != "${OBJS[*]}" ]; then
    rm -f "$LIB"
    ar rcs "$LIB" "${OBJS[@]}"
    printf '%s' "${OBJS[*]}" > "$LIB.objects"
fi

zip_dir() {  # zip_dir OUTPUT.zip FILE...
    local zipfile=$1
    shift
    python3 -c 'import sys, zipfile, os
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for f in sys.argv[2:]: z.write(f, os.path.basename(f))' "$zipfile" "$@" 2>/dev/null || zip -jq "$zipfile" "$@"
}

# target: max_len, seed files
declare -A MAXLEN=([differential]=258 [invariants]=258 [boot]=256 [gfp]=256 [scenario]=4096 [ftrace]=4096
                   [variant_file]=4096 [patch]=16384 [family_walk]=75)
for t in $TARGETS; do
    obj=$WORK/obj/fuzz_${t}_fuzz.cpp.o
    link="$CXX $CXXFLAGS $obj $LIB $LIB_FUZZING_ENGINE -o $OUT/${t}_fuzz"
    if newer_than "$OUT/${t}_fuzz" "$obj" "$LIB" || [ "$(cat "$OUT/${t}_fuzz.link" 2>/dev/null)" != "$link" ]; then
        $link
        printf '%s' "$link" > "$OUT/${t}_fuzz.link"
    fi
    case $t in
        differential|invariants) seeds=("$ROOT"/fuzz/corpus/differential/* "$ROOT"/fuzz/corpus/events/*) ;;
        scenario) seeds=("$ROOT"/tests/scenarios/*/*.litmus) ;;
        ftrace) seeds=("$ROOT"/tests/traces/*.trace) ;;
        variant_file) seeds=("$ROOT"/variants/*.variant "$ROOT"/tests/variants/*.variant "$ROOT"/tests/variants/bad/*.variant) ;;
        patch) seeds=("$ROOT"/tests/patches/*.diff "$ROOT"/tests/patches/*.patch "$ROOT"/tests/patches/seeds/* "$ROOT"/tests/patches/bad/*) ;;
        family_walk) seeds=("$ROOT"/fuzz/corpus/walks/*) ;;
        *) seeds=("$ROOT"/fuzz/corpus/$t/*) ;;
    esac
    if newer_than "$OUT/${t}_fuzz_seed_corpus.zip" "${seeds[@]}"; then
        rm -f "$OUT/${t}_fuzz_seed_corpus.zip"
        zip_dir "$OUT/${t}_fuzz_seed_corpus.zip" "${seeds[@]}"
    fi
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
