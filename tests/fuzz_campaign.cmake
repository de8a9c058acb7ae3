# fuzz/campaign.sh for SECONDS on VARIANT (FUZZ_TARGET: invariants unless given):
# exit WANT_STATUS. With findings (WANT_STATUS 1), each must come with a
# scenario of at most 8 events that the model replays (a mismatch: that
# model and reference disagree on), and a report.
if(NOT FUZZ_TARGET)
  set(FUZZ_TARGET invariants)
endif()
# One fork worker: ctest runs another test beside each campaign on the two
# cores, and two workers made three busy processes there (a third of the
# fuzz label's CPU). Both planted campaigns find their defect within the
# first seconds with one (21 and 20 crashes in 10 s, 2026-12-06).
if(NOT JOBS)
  set(JOBS 1)
endif()
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${ROOT}/fuzz/campaign.sh --variant ${VARIANT} --target ${FUZZ_TARGET} --time ${SECONDS} --jobs ${JOBS}
                        --out ${OUT} --build ${BUILD}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL WANT_STATUS)
  message(FATAL_ERROR "campaign.sh exited with ${rc}, wanted ${WANT_STATUS}")
endif()
if(WANT_STATUS EQUAL 1)
  string(REGEX MATCHALL "finding [0-9]+: [a-z_ -]+, [0-9]+ events, [^:]*:" findings "${out}")
  if(NOT findings)
    message(FATAL_ERROR "no triaged finding in the output")
  endif()
  # every finding is one of those: a crash of the target itself is a failure
  string(REGEX MATCHALL "\nfinding [0-9]+:" all_findings "\n${out}")  # lines that start so
  list(LENGTH findings n_triaged)
  list(LENGTH all_findings n_all)
  if(NOT n_triaged EQUAL n_all)
    message(FATAL_ERROR "${n_all} findings, only ${n_triaged} triaged to a scenario")
  endif()
  foreach(f ${findings})
    string(REGEX REPLACE ".*, ([0-9]+) events, ([^:]*):" "\\1;\\2" parts "${f}")
    list(GET parts 0 events)
    list(GET parts 1 replay)
    if(FUZZ_TARGET STREQUAL "differential")
      set(want_replay "model vs reference")
    else()
      set(want_replay "replayed in the model")
    endif()
    if(events GREATER 8 OR NOT replay STREQUAL want_replay)
      message(FATAL_ERROR "finding not triaged well: ${f}")
    endif()
  endforeach()
  file(GLOB reports ${OUT}/findings/*.txt)
  if(NOT reports)
    message(FATAL_ERROR "no report written")
  endif()
endif()
