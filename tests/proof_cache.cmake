# Proofs kept between processes (solver/proof_cache.hpp): a second review of
# the same variant answers its proved obligations from the kept proofs, says
# so on stderr, and prints the very report the first printed. The controls:
# the first review, into an empty cache, keeps proofs and reads none; with the
# cache off nothing is read, and the report is the same again.
function(review out_var err_var dir cache)
  file(REMOVE_RECURSE ${dir})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env TAGPROOF_PROOF_CACHE=${cache} TAGPROOF_CORPUS_CACHE=off
                          ${TAGPROOF} review --variant ${VARIANT} --no-explorer --no-rapidcheck --no-families
                          --out ${dir}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL ${STATUS})
    message(FATAL_ERROR "review (proof cache ${cache}): exit status ${rc}, wanted ${STATUS}\n${out}${err}")
  endif()
  string(REPLACE "${dir}" "DIR" out "${out}")
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
endfunction()
file(REMOVE_RECURSE ${OUT}/proofs)
review(a a_err ${OUT}/a ${OUT}/proofs)
if(a_err MATCHES "proofs kept")
  message(FATAL_ERROR "the first review, into an empty cache, says it read kept proofs:\n${a_err}")
endif()
file(GLOB_RECURSE kept ${OUT}/proofs/*.unsat)
list(LENGTH kept n_kept)
if(n_kept LESS 50)
  message(FATAL_ERROR "the first review kept ${n_kept} proofs; wanted its proved obligations (50 or more)")
endif()
review(b b_err ${OUT}/b ${OUT}/proofs)
if(NOT b_err MATCHES "solver: ([0-9]+) proofs kept from an earlier run")
  message(FATAL_ERROR "the second review read no kept proof:\n${b_err}")
endif()
if(NOT a STREQUAL b)
  message(FATAL_ERROR "the review from kept proofs differs:\n--- proved\n${a}\n--- kept\n${b}")
endif()
review(c c_err ${OUT}/c off)
if(c_err MATCHES "proofs kept" OR NOT a STREQUAL c)
  message(FATAL_ERROR "with the cache off: proofs read, or another report:\n${c_err}\n${c}")
endif()
