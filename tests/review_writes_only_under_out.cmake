# Issue 34 item 6: a review writes files only under --out (default
# reports/review, as its --help says): RapidCheck's shrunk counterexamples
# went to ./rapidcheck-failures. Without --out everything it writes is under
# reports/review; with --out, nothing is written where it runs.
set(dir ${OUT})
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir}/cwd)
# exit 1: the mutant's unrecorded findings (RapidCheck finds some of them)
execute_process(COMMAND ${TAGPROOF} review --variant mutant-match-all-tag --no-solver --no-explorer --quiet
                WORKING_DIRECTORY ${dir}/cwd RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "review exited ${rc}, wanted 1 (findings):\n${err}")
endif()
file(GLOB_RECURSE left RELATIVE ${dir}/cwd ${dir}/cwd/*)
list(FILTER left EXCLUDE REGEX "^reports/review/")
if(left)
  message(FATAL_ERROR "review without --out wrote outside reports/review: ${left}")
endif()
if(NOT EXISTS ${dir}/cwd/reports/review/review.json)
  message(FATAL_ERROR "review without --out wrote no reports/review/review.json")
endif()
file(REMOVE_RECURSE ${dir}/cwd)
file(MAKE_DIRECTORY ${dir}/cwd)
execute_process(COMMAND ${TAGPROOF} review --variant mutant-match-all-tag --no-solver --no-explorer --quiet --out ${dir}/out
                WORKING_DIRECTORY ${dir}/cwd RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
file(GLOB written ${dir}/out/rapidcheck-failures/*.litmus)
if(NOT written)
  message(FATAL_ERROR "the control: review --out wrote no RapidCheck counterexample under ${dir}/out (exit ${rc})")
endif()
file(GLOB_RECURSE left RELATIVE ${dir}/cwd ${dir}/cwd/*)
if(left)
  message(FATAL_ERROR "review --out wrote into its working directory too: ${left}")
endif()
