# The corpus kept between processes (scenario/corpus_cache.hpp): a second
# review of the same variant reads both corpora (the variant's and its
# baseline's) from the cache, says so on stderr, and prints the very report
# the first printed. The control: with the cache off nothing is kept, and the
# report is the same again.
function(review out_var err_var dir cache)
  file(REMOVE_RECURSE ${dir})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env TAGPROOF_CORPUS_CACHE=${cache}
                          ${TAGPROOF} review --variant ${VARIANT} --no-solver --no-explorer --no-rapidcheck --no-families
                          --out ${dir}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "review (cache ${cache}): exit status ${rc}\n${out}${err}")
  endif()
  string(REPLACE "${dir}" "DIR" out "${out}")
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
endfunction()
file(REMOVE_RECURSE ${OUT}/cache)
review(a a_err ${OUT}/a ${OUT}/cache)
if(a_err MATCHES "corpus kept")
  message(FATAL_ERROR "the first review, into an empty cache, says it kept a corpus:\n${a_err}")
endif()
review(b b_err ${OUT}/b ${OUT}/cache)
string(REGEX MATCHALL "corpus kept from an earlier run" kept "${b_err}")
list(LENGTH kept n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "the second review kept ${n} corpora, wanted 2 (the variant's and its baseline's):\n${b_err}")
endif()
if(NOT a STREQUAL b)
  message(FATAL_ERROR "the review from the cache differs:\n--- run\n${a}\n--- kept\n${b}")
endif()
review(c c_err ${OUT}/c off)
if(c_err MATCHES "corpus kept" OR NOT a STREQUAL c)
  message(FATAL_ERROR "with the cache off: a corpus kept, or another report:\n${c_err}\n${c}")
endif()
