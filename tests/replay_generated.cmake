# `tagproof replay` on a generated trace of EVENTS kmem events: it must finish,
# replay every event, hold every invariant and print its cost figures.
execute_process(COMMAND ${TAGPROOF} replay --generate ${EVENTS} --out ${FILE} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "generating the trace failed (${rc}):\n${out}${err}")
endif()
execute_process(COMMAND ${TAGPROOF} replay ${FILE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(REMOVE ${FILE})
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tagproof replay exited with ${rc}:\n${out}${err}")
endif()
foreach(want "events replayed   ${EVENTS} " "no-false-positive +held" "zeroing +held" "page-tag-consistency +held"
             "tag_instructions [1-9]" "time: .* events/s")
  if(NOT out MATCHES "${want}")
    message(FATAL_ERROR "the replay's output lacks '${want}'")
  endif()
endforeach()
