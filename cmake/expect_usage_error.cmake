# Runs PROGRAM with ARGS (a ;-list) and passes only if it exits with status 2 and says
# "error:" (bad input must never crash, hang or pass silently); with -DEXPECT=<regex>, the
# message must also match it.
execute_process(COMMAND ${PROGRAM} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got '${rc}'\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT err MATCHES "error:")
  message(FATAL_ERROR "exit status 2 but no 'error:' message on stderr\nstderr: ${err}")
endif()
if(DEFINED EXPECT AND NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "exit status 2, but the message does not say /${EXPECT}/\nstderr: ${err}")
endif()
message(STATUS "rejected with status 2: ${err}")
