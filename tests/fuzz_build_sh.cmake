# fuzz/build.sh as OSS-Fuzz invokes it (CXX, CXXFLAGS, LIB_FUZZING_ENGINE,
# OUT, WORK set): every target builds, each has its seed corpus zip and
# options file, and each runs 200 inputs.
file(REMOVE_RECURSE ${OUT} ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} -E env CXX=${CLANGXX} "CXXFLAGS=-fsanitize=address,fuzzer-no-link -g -O1"
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
