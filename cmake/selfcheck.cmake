# Proves the exercises are real: every stage's checks pass against the solution and fail
# against the stub as shipped. Run by ctest (label selfcheck) on a pristine checkout.
execute_process(COMMAND "${SOLUTION}" --wb-progress --wb-expect=pass RESULT_VARIABLE solution_rc)
execute_process(COMMAND "${EXERCISE}" --wb-progress --wb-expect=fail RESULT_VARIABLE exercise_rc)
if(NOT solution_rc EQUAL 0)
  message(FATAL_ERROR "selfcheck: a stage fails against the solution (exit ${solution_rc})")
endif()
if(NOT exercise_rc EQUAL 0)
  message(FATAL_ERROR "selfcheck: a shipped exercise stub passes its stage's checks, or none were run (exit ${exercise_rc})")
endif()
message(STATUS "selfcheck: every stage passes with the solution and fails with the stub")
