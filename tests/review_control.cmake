# A reviewer's control variant: `tagproof review --variant V` with default
# options must exit WANT_STATUS, print a verdict line matching WANT, and (if
# REPORT is given) write that report with text matching each of REPORT_WANT
# (a ;-list of regexes: the caller and the rule it is about).
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${TAGPROOF} review --variant ${VARIANT} --out ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL WANT_STATUS)
  message(FATAL_ERROR "tagproof review --variant ${VARIANT}: exit ${rc}, wanted ${WANT_STATUS}\n${out}${err}")
endif()
if(NOT out MATCHES "${WANT}")
  message(FATAL_ERROR "tagproof review --variant ${VARIANT}: output does not match '${WANT}':\n${out}")
endif()
if(REPORT)
  if(NOT EXISTS ${OUT}/${REPORT})
    message(FATAL_ERROR "no report ${OUT}/${REPORT}:\n${out}")
  endif()
  file(READ ${OUT}/${REPORT} text)
  string(REPLACE "\n" " " flat "${text}")
  string(REGEX REPLACE " +" " " flat "${flat}")
  foreach(w IN LISTS REPORT_WANT)
    if(NOT flat MATCHES "${w}")
      message(FATAL_ERROR "${REPORT} does not match '${w}':\n${text}")
    endif()
  endforeach()
endif()
message("${out}")
