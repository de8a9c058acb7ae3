# Runs `tagproof ARGS` (a ;-list), requires exit status WANT_STATUS and, if
# given, output matching WANT and not matching SHUN.
execute_process(COMMAND ${TAGPROOF} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL WANT_STATUS)
  message(FATAL_ERROR "tagproof ${ARGS}: exit status ${rc}, wanted ${WANT_STATUS}\n${out}${err}")
endif()
# FLOW: the reply is prose wrapped at 72 columns, so runs of blanks and line
# breaks are matched as one space.
set(seen "${out}${err}")
if(FLOW)
  string(REGEX REPLACE "[ \t\r\n]+" " " seen "${seen}")
endif()
if(WANT AND NOT "${seen}" MATCHES "${WANT}")
  message(FATAL_ERROR "tagproof ${ARGS}: output does not match '${WANT}':\n${out}${err}")
endif()
if(SHUN AND "${seen}" MATCHES "${SHUN}")
  message(FATAL_ERROR "tagproof ${ARGS}: output matches '${SHUN}', which it must not:\n${out}${err}")
endif()
