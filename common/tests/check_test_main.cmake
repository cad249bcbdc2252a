# Checks the shared test main (common/src/test_main/) on the demo binary:
#   cmake -DDEMO=<wb_progress_demo> -DBACKEND=cpu|cuda -P check_test_main.cmake
# Each step runs the demo and checks its exit code and output.

set(failures 0)
function(expect_run name expected_rc)
  cmake_parse_arguments(ARG "" "" "ARGS;ENVIRONMENT;CONTAINS;NOT_CONTAINS;LAST_LINE" ${ARGN})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ARG_ENVIRONMENT} "${DEMO}" ${ARG_ARGS}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  set(all "${out}${err}")
  set(problems "")
  if(NOT rc STREQUAL "${expected_rc}")
    string(APPEND problems "\n  exit code ${rc}, expected ${expected_rc}")
  endif()
  foreach(text IN LISTS ARG_CONTAINS)
    string(FIND "${all}" "${text}" at)
    if(at EQUAL -1)
      string(APPEND problems "\n  missing: ${text}")
    endif()
  endforeach()
  foreach(text IN LISTS ARG_NOT_CONTAINS)
    string(FIND "${all}" "${text}" at)
    if(NOT at EQUAL -1)
      string(APPEND problems "\n  unexpected: ${text}")
    endif()
  endforeach()
  if(ARG_LAST_LINE)
    string(STRIP "${out}" stripped)
    string(REGEX MATCH "[^\n]*$" last "${stripped}")
    if(NOT last MATCHES "${ARG_LAST_LINE}")
      string(APPEND problems "\n  last line '${last}' does not match '${ARG_LAST_LINE}'")
    endif()
  endif()
  if(problems)
    message("FAIL ${name}:${problems}\n--- output ---\n${all}--------------")
    math(EXPR f "${failures} + 1")
    set(failures ${f} PARENT_SCOPE)
  else()
    message("ok   ${name}")
  endif()
endfunction()

set(summary "^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$")

# Progress: one line per stage in natural order, each outcome reported as it should be.
if(BACKEND STREQUAL "cpu")
  set(gpu_stage "[skip] demo/5 gpu only")
else()
  set(gpu_stage "demo/5 gpu only")
endif()
expect_run("progress" 0
  ARGS --wb-progress
  ENVIRONMENT WB_STAGE_TIMEOUT=2 WB_TEST_SEED=7
  CONTAINS "test seed: 7 (WB_TEST_SEED=7 repeats this run)"
           "  [pass] demo/0 pass — passing stage (demo §0)"
           "  [FAIL] demo/1 fail — failing stage (demo §1)"
           "first failure (1 of 2 test cases failed): "
           "at index 3: expected 7, got 8"
           "test case \"demo/1: fails\""
           "hint: hint one"
           "  [FAIL] demo/2 stub — stub stage (demo §2)"
           "never written"
           "hint: hint two"
           "  [FAIL] demo/3 crash — crashing stage (demo §3)"
           "crashed (signal 6, Aborted) in test case \"demo/3: aborts\""
           "  [FAIL] demo/4 hang — hanging stage (demo §4)"
           "hung: killed after 2 s in test case \"demo/4: never returns\""
           "${gpu_stage}"
           "  [pass] demo/10 natural order"
  NOT_CONTAINS "hint: hint zero" "expectation"
  LAST_LINE "${summary}")

# Natural order: demo/5 is listed before demo/10 although registered after it.
execute_process(COMMAND ${CMAKE_COMMAND} -E env WB_DEMO=passing "${DEMO}" --wb-progress OUTPUT_VARIABLE out)
string(FIND "${out}" "demo/0 pass" at0)
string(FIND "${out}" "demo/10 natural order" at10)
if(at0 EQUAL -1 OR at10 EQUAL -1 OR at10 LESS at0)
  message("FAIL natural order:\n${out}")
  math(EXPR failures "${failures} + 1")
else()
  message("ok   natural order")
endif()

expect_run("expect pass on passing stages" 0
  ARGS --wb-progress --wb-expect=pass ENVIRONMENT WB_DEMO=passing
  CONTAINS "2 of 2 stages pass" "expectation met: every stage passes" LAST_LINE "^3 passed, 0 failed, 0 skipped$")
expect_run("expect fail on failing stages" 0
  ARGS --wb-progress --wb-expect=fail ENVIRONMENT WB_DEMO=failing
  CONTAINS "0 of 3 stages pass" "expectation met: every stage fails" LAST_LINE "${summary}")
expect_run("expect pass broken" 1
  ARGS --wb-progress --wb-expect=pass ENVIRONMENT WB_DEMO=failing
  CONTAINS "expectation broken: expected every stage to pass, but not:" "  demo/1 fail ([FAIL])" "  demo/2 stub ([FAIL])")
expect_run("expect fail broken" 1
  ARGS --wb-progress --wb-expect=fail ENVIRONMENT WB_DEMO=passing
  CONTAINS "expectation broken: expected every stage to fail" "  demo/0 pass ([pass])")
expect_run("expect with no stages" 1
  ARGS --wb-progress --wb-expect=fail ENVIRONMENT WB_DEMO=none
  CONTAINS "no stages are registered" LAST_LINE "^0 passed, 0 failed, 0 skipped$")

# Plain doctest run: failures counted, GPU cases named as skipped (without a GPU).
expect_run("plain run" 1
  ARGS "-ts=demo/0 pass,demo/1 fail,demo/2 stub,demo/5 gpu only"
  CONTAINS "test seed: " LAST_LINE "${summary}")
execute_process(COMMAND "${DEMO}" "-ts=demo/0 pass,demo/1 fail,demo/2 stub,demo/5 gpu only" OUTPUT_VARIABLE out)
string(FIND "${out}" "skipped (needs a GPU): [gpu] needs a GPU" skipped_at)
if(BACKEND STREQUAL "cpu" AND skipped_at EQUAL -1)
  message("FAIL cpu backend: the GPU case is not listed as skipped:\n${out}")
  math(EXPR failures "${failures} + 1")
elseif(NOT skipped_at EQUAL -1 AND NOT out MATCHES "\n3 passed, 2 failed, 1 skipped\n*$")
  message("FAIL counts with the GPU case skipped:\n${out}")
  math(EXPR failures "${failures} + 1")
elseif(skipped_at EQUAL -1 AND NOT out MATCHES "\n4 passed, 2 failed, 0 skipped\n*$")
  message("FAIL counts with the GPU case run:\n${out}")
  math(EXPR failures "${failures} + 1")
else()
  message("ok   plain run counts")
endif()
# A GPU case the user filtered out is not "skipped for want of a GPU".
expect_run("user filter is not a GPU skip" 0
  ARGS "-ts=demo/0*,demo/5*" "-tce=*needs*"
  NOT_CONTAINS "skipped (needs a GPU)" LAST_LINE "^2 passed, 0 failed, 0 skipped$")

# --wb-only runs the stages named; --wb-report writes key<TAB>value lines for the wb program.
string(ASCII 9 tab)
expect_run("only one stage, reported for wb" 0
  ARGS --wb-progress --wb-report --wb-only=demo/1,demo/0\ pass
  CONTAINS "seed${tab}"
           "stage${tab}demo/0${tab}pass${tab}2${tab}0${tab}0\nsuite${tab}demo/0 pass\nend\n"
           "stage${tab}demo/1${tab}fail${tab}1${tab}1${tab}0\nsuite${tab}demo/1 fail\n"
           "where${tab}common/tests/progress_demo.cpp:"
           "context${tab}at index 3: expected 7, got 8\n"
           "case${tab}demo/1: fails\nfailed${tab}demo/1: fails\nend\n"
  NOT_CONTAINS "demo/2" "demo/10" "test seed" "passed,")
expect_run("a named pitfall's failure first, every failing case, the code's output" 0
  ARGS --wb-progress --wb-report --wb-only=demo/6
  CONTAINS "stage${tab}demo/6${tab}fail${tab}1${tab}2${tab}0\n"
           "context${tab}input: A = [1, 3], B = [2]\n"
           "case${tab}X1: the named pitfall\n"
           "failed${tab}X1: the named pitfall\nfailed${tab}demo/6: an ordinary check\n"
           "output${tab}what the code printed\n")
expect_run("a stage slower in all than the limit, each case within it, is no hang" 0
  ARGS --wb-progress --wb-expect=pass ENVIRONMENT WB_DEMO=slow WB_STAGE_TIMEOUT=2
  CONTAINS "  [pass] demo/8 slow" "expectation met: every stage passes" NOT_CONTAINS "hung")
expect_run("a report of a crash and a hang" 0
  ARGS --wb-progress --wb-report --wb-only=demo/3,demo/4 ENVIRONMENT WB_STAGE_TIMEOUT=2
  CONTAINS "stage${tab}demo/3${tab}crashed${tab}0${tab}1${tab}0\nsuite${tab}demo/3 crash\nmessage${tab}crashed (signal 6"
           "stage${tab}demo/4${tab}hung${tab}0${tab}1${tab}0")
expect_run("--wb-only names an unknown stage" 2
  ARGS --wb-progress --wb-only=demo/7 CONTAINS "error: --wb-only: no stage 'demo/7' here (stages: demo/0, demo/1,")
expect_run("--wb-only without --wb-progress" 2 ARGS --wb-only=demo/1 CONTAINS "error: --wb-only only makes sense with --wb-progress")
expect_run("--wb-report without --wb-progress" 2 ARGS --wb-report CONTAINS "error: --wb-report only makes sense with --wb-progress")

# Bad input: exit code 2 and a message.
expect_run("--wb-expect without --wb-progress" 2 ARGS --wb-expect=pass CONTAINS "error: --wb-expect only makes sense with --wb-progress")
expect_run("bad --wb-expect" 2 ARGS --wb-progress --wb-expect=maybe CONTAINS "error: --wb-expect must be pass or fail")
expect_run("unknown --wb- option" 2 ARGS --wb-bogus CONTAINS "error: unknown option '--wb-bogus'")
expect_run("bad WB_TEST_SEED" 2 ENVIRONMENT WB_TEST_SEED=abc CONTAINS "error: WB_TEST_SEED='abc' is not a non-negative integer")
expect_run("bad WB_STAGE_TIMEOUT" 2 ARGS --wb-progress ENVIRONMENT WB_STAGE_TIMEOUT=0 CONTAINS "error: WB_STAGE_TIMEOUT='0'")
expect_run("doctest filters with --wb-progress" 2 ARGS --wb-progress -tc=x CONTAINS "error: --wb-progress runs whole stages")
expect_run("help" 0 ARGS --help CONTAINS "--wb-progress" "--wb-expect=pass|fail" "--wb-only=" "--wb-report" NOT_CONTAINS "passed,")

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} check(s) of the test main failed")
endif()
message(STATUS "the test main behaves as documented")
