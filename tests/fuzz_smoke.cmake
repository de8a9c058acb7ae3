# A fuzz target's smoke run: a few seconds from its seed corpus, copied to a
# scratch directory so the run never writes into the source tree. Any crash,
# sanitizer report or mismatch makes the fuzzer exit non-zero.
#
# Hangs and blow-ups are failures too. libFuzzer's defaults would let one
# input run for 20 minutes (-timeout=1200) before calling it a hang, longer
# than ctest waits, so a hang would look like a slow test, not a finding:
# TIMEOUT (seconds an input may take; every seed and mutant of these parsers
# runs in milliseconds, the slowest event input well under a second even with
# ASan) makes libFuzzer stop the run with "ERROR: libFuzzer: timeout" and
# write the input. RSS_LIMIT_MB caps the process (and, as -malloc_limit_mb's
# default, any one allocation): a parser that believes a size or count of
# 2^64 and allocates for it, or recurses without end, is stopped with
# "ERROR: libFuzzer: out-of-memory" (or ASan's stack-overflow / allocation-
# size-too-big), again with the input written. Either exits non-zero.
if(NOT TIMEOUT)
  set(TIMEOUT 5)
endif()
if(NOT RSS_LIMIT_MB)
  set(RSS_LIMIT_MB 2048)
endif()
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
                        -timeout=${TIMEOUT} -rss_limit_mb=${RSS_LIMIT_MB}
                        -artifact_prefix=${WORK}-artifacts/ ${WORK}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${err}")
string(REGEX MATCH "stat::slowest_unit_time_sec: *[0-9]+" slowest "${err}")
string(REGEX MATCH "stat::peak_rss_mb: *[0-9]+" rss "${err}")
message("${runs}\n${slowest} (limit ${TIMEOUT})\n${rss} (limit ${RSS_LIMIT_MB})")
# a hang or a blow-up fails the run, planted or not, and says which
foreach(kind "timeout" "out-of-memory")
  if(err MATCHES "ERROR: libFuzzer: ${kind}")
    string(REGEX MATCH "Test unit written to [^\n]*" unit "${err}")
    message(FATAL_ERROR "${FUZZER}: an input ran into the ${kind} limit (-timeout=${TIMEOUT} s, "
                        "-rss_limit_mb=${RSS_LIMIT_MB}): ${unit}\n${err}")
  endif()
endforeach()
if(PLANT)
  if(rc EQUAL 0 OR NOT err MATCHES "ERROR: libFuzzer: deadly signal")
    message(FATAL_ERROR "${FUZZER} with its oracle broken on purpose found nothing in ${SECONDS} s (exit ${rc})")
  endif()
  string(REGEX MATCH "Test unit written to [^\n]*" unit "${err}")
  message("caught: ${unit}")
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} exited with ${rc}:\n${err}")
endif()
