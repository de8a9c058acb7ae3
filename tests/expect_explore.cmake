# `tagproof explore ARGS --check-bmc`: the explorer and the solver's BMC must
# agree on every invariant of the instance (no "DISAGREES", no "unknown"),
# the exit status must be WANT_STATUS and the output must match WANT.
execute_process(COMMAND ${TAGPROOF} explore ${ARGS} --check-bmc RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(out MATCHES "DISAGREES" OR out MATCHES "BMC on the same instance: unknown")
  message(FATAL_ERROR "the explorer and the solver disagree")
endif()
if(NOT rc EQUAL WANT_STATUS)
  message(FATAL_ERROR "exit status ${rc}, wanted ${WANT_STATUS}")
endif()
if(WANT AND NOT out MATCHES "${WANT}")
  message(FATAL_ERROR "the output does not match '${WANT}'")
endif()
