# Issue 34: every search engine's "holds" held to the corpus, for every
# built-in variant (review.all's review.json, a fixture) and every variant
# file in tests/variants (reviewed here with default options): a cell a
# scenario breaks where the solver, the explorer or RapidCheck says "holds"
# fails unless tests/engine_gaps.tsv names it with the bound that misses it;
# the checker's negative controls run first.
execute_process(COMMAND ${PYTHON} ${SRC}/engines_vs_corpus.py --gaps ${SRC}/engine_gaps.tsv --controls
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the checker's negative controls failed")
endif()
if(NOT EXISTS ${ALL}/review.json)
  message(FATAL_ERROR "${ALL}/review.json missing: review.all (the fixture) did not run")
endif()
file(GLOB files ${SRC}/variants/*.variant)
set(jsons ${ALL}/review.json)
file(REMOVE_RECURSE ${OUT})
# KEPT_REVIEWS: NAME=DIR pairs, a file another test reviews with the same default options
# (its fixture): its review.json is read from DIR instead of reviewing the file again
foreach(k ${KEPT_REVIEWS})
  string(REGEX REPLACE "=.*" "" kn "${k}")
  string(REGEX REPLACE "^[^=]*=" "" kd "${k}")
  set(kept_${kn} ${kd})
endforeach()
foreach(f ${files})
  get_filename_component(n ${f} NAME_WE)
  if(kept_${n})
    if(NOT EXISTS ${kept_${n}}/review.json)
      message(FATAL_ERROR "${kept_${n}}/review.json missing: the test that reviews ${f} (a fixture) did not run")
    endif()
    message("${n}: the review of ${kept_${n}} read")
    list(APPEND jsons ${kept_${n}}/review.json)
    continue()
  endif()
  # exit 1 is an unrecorded finding (these files are reviewers' patches); 2 and 3 are not verdicts
  execute_process(COMMAND ${TAGPROOF} review --variant-file ${f} --out ${OUT}/${n} --quiet
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 AND NOT rc EQUAL 1)
    message(FATAL_ERROR "review --variant-file ${f} exited with ${rc}:\n${err}")
  endif()
  list(APPEND jsons ${OUT}/${n}/review.json)
endforeach()
execute_process(COMMAND ${PYTHON} ${SRC}/engines_vs_corpus.py --gaps ${SRC}/engine_gaps.tsv ${jsons}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the engines' cells disagree with the corpus (tests/engine_gaps.tsv lists the known gaps)")
endif()
