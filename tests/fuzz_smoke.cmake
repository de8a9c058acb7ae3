# A fuzz target's smoke run: a few seconds from its seed corpus, copied to a
# scratch directory so the run never writes into the source tree. Any crash,
# sanitizer report or mismatch makes the fuzzer exit non-zero.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
# CORPUS: seed directories separated by commas; files only (a scenario
# directory's subdirectories are not seeds)
string(REPLACE "," ";" dirs "${CORPUS}")
set(seeds)
foreach(dir ${dirs})
  file(GLOB s LIST_DIRECTORIES false ${dir}/*)
  list(APPEND seeds ${s})
endforeach()
if(seeds)
  file(COPY ${seeds} DESTINATION ${WORK})
endif()
set(dict_arg)
if(DICT)
  set(dict_arg -dict=${DICT})
endif()
# PLANT: the target's negative control (TAGPROOF_FUZZ_PLANT=1, fuzz/fuzz_env.hpp):
# its oracle is broken on purpose, and the run must crash
set(env)
if(PLANT)
  set(env ${CMAKE_COMMAND} -E env TAGPROOF_FUZZ_PLANT=1)
endif()
file(MAKE_DIRECTORY ${WORK}-artifacts)
execute_process(COMMAND ${env} ${FUZZER} -max_total_time=${SECONDS} -max_len=${MAX_LEN} ${dict_arg} -print_final_stats=1
                        -artifact_prefix=${WORK}-artifacts/ ${WORK}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${err}")
message("${runs}")
if(PLANT)
  if(rc EQUAL 0 OR NOT err MATCHES "ERROR: libFuzzer: deadly signal")
    message(FATAL_ERROR "${FUZZER} with its oracle broken on purpose found nothing in ${SECONDS} s (exit ${rc})")
  endif()
  string(REGEX MATCH "Test unit written to [^\n]*" unit "${err}")
  message("caught: ${unit}")
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} exited with ${rc}:\n${err}")
endif()
