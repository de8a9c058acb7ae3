# The same patch gets the same reply (review seeds RapidCheck from the
# variant's name): two reviews with RC_PARAMS unset must print the same reply,
# paths aside. The negative control: two different RC_PARAMS seeds must give
# different replies for this patch (its counterexample is a random draw: seed
# 1 finds vzalloc(2027), seed 2 vmalloc_huge(65536, GFP_KERNEL|__GFP_ZERO)), so the
# comparison can tell replies apart.
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
reply(s2 ${OUT}/s2 "RC_PARAMS=seed=2")
if(s1 STREQUAL s2)
  message(FATAL_ERROR "negative control: seeds 1 and 2 gave the same reply; this comparison cannot tell draws apart")
endif()
