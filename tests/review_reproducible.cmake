# The same patch gets the same reply (review seeds RapidCheck from the
# variant's name): two reviews with RC_PARAMS unset must print the same reply,
# paths aside. The negative control: a review with another RapidCheck seed
# must give a different reply for this patch (its counterexample is a random
# draw: seed 1 finds vzalloc(2027), the variant's own seed another call), so
# the comparison can tell replies apart. The first reply is the one
# cli.review_patch_vzalloc_untagged_prot wrote to KEPT (its fixture: the same
# patch, default options), when it is newer than the binary; so two reviews
# run here, the second and the control.
function(reply out_var dir env)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=RC_PARAMS ${env} ${TAGPROOF} review ${PATCH} --out ${dir}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_QUIET)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "review ${env}: exit status ${rc}, wanted 1 (a finding)\n${out}")
  endif()
  string(REPLACE "${dir}" "DIR" out "${out}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
file(GLOB kept_reply ${KEPT}/*.reply.txt)
list(LENGTH kept_reply kept_n)
if(kept_n EQUAL 1 AND NOT "${TAGPROOF}" IS_NEWER_THAN "${kept_reply}")
  file(READ ${kept_reply} a)
  string(REPLACE "${KEPT}" "DIR" a "${a}")
else()
  reply(a ${OUT}/a "")
endif()
reply(b ${OUT}/b "")
if(NOT a STREQUAL b)
  message(FATAL_ERROR "two reviews of ${PATCH} gave different replies:\n--- first\n${a}\n--- second\n${b}")
endif()
# (the control may read the kept corpus and proofs: they change no reply, and the comparison
# above has run both computations afresh)
reply(s1 ${OUT}/s1 "--unset=TAGPROOF_CORPUS_CACHE;--unset=TAGPROOF_PROOF_CACHE;RC_PARAMS=seed=1")
if(s1 STREQUAL a)
  message(FATAL_ERROR "negative control: seed 1 gave the variant's own seed's reply; this comparison cannot tell draws apart")
endif()
