# A patch reviewed as a developer would run it (`tagproof review PATCH`, default
# options): exit WANT_STATUS, the reply (prose flowed: blanks and line breaks
# read as one space) matches WANT, and every finding's Reproduce line, run
# as printed in the directory the reply names (OUT, where the reply is
# written, when it says "this report's directory"), PASSes (the violation shows
# again). BREAK=1 is the check's negative control: the variant file the
# Reproduce lines name is removed first, so they cannot run and this fails.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${TAGPROOF} review ${PATCH} --out ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL WANT_STATUS)
  message(FATAL_ERROR "review ${PATCH}: exit status ${rc}, wanted ${WANT_STATUS}\n${out}${err}")
endif()
string(REGEX REPLACE "[ \t\r\n]+" " " flowed "${out}")
if(NOT flowed MATCHES "${WANT}")
  message(FATAL_ERROR "review ${PATCH}: the reply does not match '${WANT}':\n${out}")
endif()
# "Reproduce (in DIR):" then the command on the next line, indented
string(REGEX MATCHALL "Reproduce \\(in [^)\n]+\\):\n +tagproof run [^\n]+" lines "${out}")
list(LENGTH lines n)
if(WANT_STATUS EQUAL 1 AND n EQUAL 0)
  message(FATAL_ERROR "review ${PATCH}: a finding, but no Reproduce line:\n${out}")
endif()
if(BREAK)
  file(GLOB variants ${OUT}/*.variant)
  file(REMOVE ${variants})
endif()
foreach(l ${lines})
  string(REGEX REPLACE "^Reproduce \\(in ([^)\n]+)\\):\n +tagproof run (.*)$" "\\1;\\2" parts "${l}")
  list(GET parts 0 dir)
  list(GET parts 1 args)
  if(dir STREQUAL "this report's directory")  # a directory too long for the line: the reply's own, OUT
    set(dir ${OUT})
  endif()
  separate_arguments(args UNIX_COMMAND "${args}")
  execute_process(COMMAND ${TAGPROOF} run ${args} WORKING_DIRECTORY ${dir} RESULT_VARIABLE rrc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rrc EQUAL 0 OR NOT o MATCHES " PASS\n")
    message(FATAL_ERROR "the Reproduce line 'tagproof run ${args}' (in ${dir}) does not reproduce its finding (exit ${rrc}):\n${o}${e}")
  endif()
endforeach()
message("${n} Reproduce line(s) run, each PASSes")
