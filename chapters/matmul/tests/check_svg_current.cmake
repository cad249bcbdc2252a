# A picture committed to the chapter's figures/ is what the executable draws now: runs PROGRAM
# with ARGS (a ;-list ending in --svg), writing SVG, and compares it with COMMITTED.
execute_process(COMMAND "${PROGRAM}" ${ARGS} "${SVG}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed (exit ${rc}): ${out}${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${SVG}" "${COMMITTED}" RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "${COMMITTED} is not what the executable draws now: regenerate it with\n  matmul ${ARGS} ${COMMITTED}")
endif()
message(STATUS "${COMMITTED} is current")
