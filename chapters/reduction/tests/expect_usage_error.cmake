# Runs PROGRAM with ARGS (a ;-list) and passes only if it exits with status 2 and prints an
# "error:" line: bad input must get a message, never a crash, a hang or a silent pass.
execute_process(COMMAND ${PROGRAM} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 2 OR NOT "${out}${err}" MATCHES "error:")
  message(FATAL_ERROR "expected exit status 2 and an 'error:' line, got status '${rc}'\nstdout: ${out}\nstderr: ${err}")
endif()
message(STATUS "refused with status 2: ${err}")
