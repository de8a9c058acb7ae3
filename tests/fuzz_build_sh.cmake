# fuzz/build.sh as OSS-Fuzz invokes it (CXX, CXXFLAGS, LIB_FUZZING_ENGINE,
# OUT, WORK set): every target links into a fresh OUT, each has its seed
# corpus zip and options file, and each runs 200 inputs. CXXFLAGS and WORK are
# the main build's (cmake/fuzz.cmake: OSS-Fuzz's AddressSanitizer flags with
# UndefinedBehaviorSanitizer), so the objects the build compiled with the same
# command lines are up to date and only the targets are linked here; a fresh
# WORK (OSS-Fuzz's container, a clean build tree) compiles them all.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${CMAKE_COMMAND} -E env CXX=${CLANGXX} "CXXFLAGS=${CXXFLAGS}"
                        LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=${OUT} WORK=${WORK} JOBS=2 ${ROOT}/fuzz/build.sh
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz/build.sh failed (${rc}):\n${out}${err}")
endif()
foreach(t differential invariants boot gfp scenario ftrace variant_file patch family_walk)
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
