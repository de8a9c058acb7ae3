# fuzz/build.sh as OSS-Fuzz invokes it (CXX, CXXFLAGS, LIB_FUZZING_ENGINE,
# OUT, WORK set): every target builds, each has its seed corpus zip and
# options file, and each runs 200 inputs. CXXFLAGS are OSS-Fuzz's own for an
# AddressSanitizer build (infra/base-images/base-builder: -O1
# -fno-omit-frame-pointer -gline-tables-only, the fuzzing-build define, ASan
# with use-after-scope, fuzzer-no-link): line tables, not full debug info,
# which also halves the compile.
file(REMOVE_RECURSE ${OUT} ${WORK})
set(OSS_FUZZ_CXXFLAGS "-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link")
execute_process(COMMAND ${CMAKE_COMMAND} -E env CXX=${CLANGXX} "CXXFLAGS=${OSS_FUZZ_CXXFLAGS}"
                        LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=${OUT} WORK=${WORK} JOBS=2 ${ROOT}/fuzz/build.sh
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz/build.sh failed (${rc}):\n${out}${err}")
endif()
foreach(t differential invariants boot gfp scenario ftrace)
  foreach(f ${t}_fuzz ${t}_fuzz_seed_corpus.zip ${t}_fuzz.options)
    if(NOT EXISTS ${OUT}/${f})
      message(FATAL_ERROR "build.sh did not produce ${f}")
    endif()
  endforeach()
  execute_process(COMMAND ${OUT}/${t}_fuzz -runs=200 RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${t}_fuzz from build.sh does not run (${rc}):\n${e}")
  endif()
endforeach()
message("${out}")
