# Runs `tagproof ARGS` (a ;-list), requires exit status WANT_STATUS and, if
# given, output matching WANT and not matching SHUN.
#
# KEEP=FILE: the run's output and exit status are kept in FILE.out and FILE.rc
# for other tests to read (a ctest fixture: one run that several tests check);
# KEPT=FILE: read them instead of running again (the fixture must have run).
# WANT_STATUS "any": a fixture's run, whose readers check the status.
if(KEPT)
  if(NOT EXISTS ${KEPT}.rc)
    message(FATAL_ERROR "${KEPT}.rc missing: the fixture that runs 'tagproof ${ARGS}' did not run")
  endif()
  file(READ ${KEPT}.out out)
  file(READ ${KEPT}.rc rc)
  string(STRIP "${rc}" rc)
  set(err "")
  set(ARGS "${ARGS} (its fixture's run, kept in ${KEPT}.out)")
else()
  execute_process(COMMAND ${TAGPROOF} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(KEEP)
    file(WRITE ${KEEP}.out "${out}${err}")
    file(WRITE ${KEEP}.rc.tmp "${rc}\n")  # last, and whole: it marks the run kept
    file(RENAME ${KEEP}.rc.tmp ${KEEP}.rc)
  endif()
endif()
if(WANT_STATUS STREQUAL "any")
  message("${out}${err}")
elseif(NOT rc EQUAL WANT_STATUS)
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
