# The same patch gets the same reply (review seeds RapidCheck from the
# variant's name): two reviews with RC_PARAMS unset must print the same reply,
# paths aside. The negative control: a review with another RapidCheck seed
# must give a different reply for this patch (its counterexample is a random
# draw: seed 1 finds vzalloc(2027), the variant's own seed another call), so
# the comparison can tell replies apart. Three reviews: the control compares
# its draw with the first.
function(reply out_var dir env)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=RC_PARAMS ${env} ${TAGPROOF} review ${PATCH} --out ${dir}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_QUIET)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "review ${env}: exit status ${rc}, wanted 1 (a finding)\n${out}")
  endif()
  string(REPLACE "${dir}" "DIR" out "${out}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
reply(a ${OUT}/a "")
reply(b ${OUT}/b "")
if(NOT a STREQUAL b)
  message(FATAL_ERROR "two reviews of ${PATCH} gave different replies:\n--- first\n${a}\n--- second\n${b}")
endif()
reply(s1 ${OUT}/s1 "RC_PARAMS=seed=1")
if(s1 STREQUAL a)
  message(FATAL_ERROR "negative control: seed 1 gave the variant's own seed's reply; this comparison cannot tell draws apart")
endif()
