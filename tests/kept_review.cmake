# The kept reviews (tests/review_control.cmake's KEPT) and their negative
# control, with a stand-in for tagproof that says it ran: a kept review newer
# than the binary and the corpus is read (the stand-in does not run); once
# the binary is rebuilt after it, the kept review is stale and the stand-in
# reviews afresh.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/kept/v)
set(fake ${WORK}/tagproof)
file(WRITE ${fake} "#!/bin/sh\necho 'a fresh review ran'\nexit 1\n")
file(CHMOD ${fake} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
execute_process(COMMAND sleep 1.1)  # file times in whole seconds on some filesystems
file(WRITE ${WORK}/kept/v.stdout "the kept review\n")
file(WRITE ${WORK}/kept/v.rc "1\n")
function(check want label)
  execute_process(COMMAND ${CMAKE_COMMAND} -DTAGPROOF=${fake} -DVARIANT=v -DWANT_STATUS=1 "-DWANT=${want}"
                          -DOUT=${WORK}/own -DKEPT=${WORK}/kept -P ${REVIEW_CONTROL}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${label}: review_control.cmake failed (${rc}):\n${out}${err}")
  endif()
  message("${label}: as wanted (${want})")
endfunction()
check("the kept review" "kept review newer than the binary")
execute_process(COMMAND sleep 1.1)
file(TOUCH ${fake})  # a rebuilt binary
check("a fresh review ran" "negative control: the binary rebuilt since")
