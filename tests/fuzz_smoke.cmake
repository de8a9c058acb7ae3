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
  file(GLOB s ${dir}/*)
  list(APPEND seeds ${s})
endforeach()
if(seeds)
  file(COPY ${seeds} DESTINATION ${WORK})
endif()
set(dict_arg)
if(DICT)
  set(dict_arg -dict=${DICT})
endif()
execute_process(COMMAND ${FUZZER} -max_total_time=${SECONDS} -max_len=${MAX_LEN} ${dict_arg} -print_final_stats=1 ${WORK}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${err}")
message("${runs}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} exited with ${rc}:\n${err}")
endif()
