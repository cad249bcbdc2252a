# wb_add_chapter(): the build of one chapter, the same shape for every chapter.
#
#   wb_add_chapter(<name>
#     COMMON   <chapter-local sources shared by everything: generators, stage table...>
#     MAIN     <sources of the chapter executable>
#     BASELINE <library baselines (CUB/Thrust): cuda backend only, linked into the executable
#              and the tests, which see WB_HAVE_BASELINE>
#     TESTS    <doctest sources; .cu files may hold deliberately defective kernel variants>)
#
# The two tracks are globbed from solutions/<name>/ and exercises/<name>/ (same file names,
# same interface). Each is compiled with WB_TRACK=solution or WB_TRACK=exercise, so its code
# lives in namespace <name>::solution or <name>::exercise and both can be linked into one
# executable (for --track and --compare).
#
# Targets:  <name>_solution, <name>_exercise      the two track libraries
#           <name>_baseline                        the library baseline (cuda backend)
#           <name>                                 the chapter executable (both tracks)
#           <name>_tests, <name>_exercise_tests    the doctest checks against each track
# Tests:    <name>_tests (label cpu or gpu, by backend), <name>_exercise_tests (exercises),
#           <name>_selfcheck (selfcheck: solutions pass, pristine stubs fail every stage).

# Compile .cu files as C++ for the cpu backend: the kernels include wb/kernel.hpp, which
# maps CUDA's built-ins onto the fiber emulator. With GCC they are also instrumented for the
# emulator's race check (common/cpu/race.cpp): -fsanitize=thread at compile time only (the
# emulator defines the entry points; no ThreadSanitizer runtime is linked), volatile accesses
# told apart, line tables so that a race names its lines.
set(WB_KERNEL_CPU_OPTIONS -xc++)
if(WB_BACKEND STREQUAL "cpu")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    list(APPEND WB_KERNEL_CPU_OPTIONS -fsanitize=thread --param=tsan-distinguish-volatile=1
         --param=tsan-instrument-func-entry-exit=0 -Wno-tsan -g1)
  else()
    message(STATUS "the cpu backend's race check needs GCC's instrumentation (compiler: ${CMAKE_CXX_COMPILER_ID}): "
                   "kernels run unchecked")
  endif()
endif()
function(wb_kernel_sources)
  foreach(src IN LISTS ARGN)
    if(src MATCHES "\\.cu$" AND WB_BACKEND STREQUAL "cpu")
      set_source_files_properties(${src} PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "${WB_KERNEL_CPU_OPTIONS}")
    endif()
  endforeach()
endfunction()

# The checks' plain C++ (the doctest cases, the references they compare with, the test main) and
# wb's are compiled at WB_CHECKS_OPTIMIZATION in an optimized build: at -O3 the optimizer takes
# about half of their compile time (doctest's expressions, inlined), and the checks spend their
# time in the kernels and the emulator, which keep the build type's level. Empty: the build
# type's level everywhere.
set(WB_CHECKS_OPTIMIZATION "-O1" CACHE STRING
    "Optimization flag (one) for the tests' and wb's plain C++ in optimized builds (empty: the build type's)")
function(wb_checks_sources)
  if(NOT WB_CHECKS_OPTIMIZATION)
    return()
  endif()
  foreach(src IN LISTS ARGN)
    if(src MATCHES "\\.cpp$")
      set_property(SOURCE ${src} APPEND PROPERTY COMPILE_OPTIONS
                   "$<$<NOT:$<CONFIG:Debug>>:${WB_CHECKS_OPTIMIZATION}>")
    endif()
  endforeach()
endfunction()

# Flags every workbook target gets.
function(wb_target_defaults target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  if(WB_BACKEND STREQUAL "cuda")
    target_compile_definitions(${target} PUBLIC WB_BACKEND_CUDA=1)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -lineinfo -Xcompiler=-Wall>)
    set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  else()
    target_compile_definitions(${target} PUBLIC WB_BACKEND_CPU=1)
    # `#pragma unroll` is nvcc's; the host compiler ignores it.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-unknown-pragmas>)
  endif()
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
endfunction()

# An exercise stub leaves parameters unused until the learner writes the stage.
function(wb_quiet_stub_parameters target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-unused-parameter>
                                           $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wno-unused-parameter>)
endfunction()

set(WB_CHAPTERS "" CACHE INTERNAL "chapters added so far")

function(wb_add_chapter name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "COMMON;MAIN;BASELINE;TESTS")
  set(chapter_dir "${PROJECT_SOURCE_DIR}/chapters/${name}")

  # Chapter-local code shared by both tracks, the executable and the tests.
  add_library(${name}_common STATIC ${ARG_COMMON})
  wb_kernel_sources(${ARG_COMMON})
  wb_target_defaults(${name}_common)
  target_include_directories(${name}_common PUBLIC "${chapter_dir}")
  target_link_libraries(${name}_common PUBLIC wb_common)

  foreach(track solution exercise)
    set(track_dir "${PROJECT_SOURCE_DIR}/${track}s/${name}")
    file(GLOB track_sources CONFIGURE_DEPENDS "${track_dir}/*.cu" "${track_dir}/*.cpp")
    if(NOT track_sources)
      message(FATAL_ERROR "chapter ${name}: no sources in ${track_dir}")
    endif()
    add_library(${name}_${track} STATIC ${track_sources})
    wb_kernel_sources(${track_sources})
    wb_target_defaults(${name}_${track})
    target_compile_definitions(${name}_${track} PRIVATE WB_TRACK=${track})
    target_include_directories(${name}_${track} PRIVATE "${track_dir}")
    if(track STREQUAL "exercise")
      # A stub's parameters wait for the learner's code (common/EXERCISES.md).
      wb_quiet_stub_parameters(${name}_${track})
    endif()
    target_link_libraries(${name}_${track} PUBLIC ${name}_common)
  endforeach()

  # The library baseline (CUB/Thrust), compiled once for the executable's report row and the
  # tests' agreement checks: cuda backend only, announced by WB_HAVE_BASELINE.
  if(WB_BACKEND STREQUAL "cuda" AND ARG_BASELINE)
    add_library(${name}_baseline STATIC ${ARG_BASELINE})
    wb_target_defaults(${name}_baseline)
    target_link_libraries(${name}_baseline PUBLIC ${name}_common)
    target_compile_definitions(${name}_baseline INTERFACE WB_HAVE_BASELINE=1)
  endif()

  # The chapter executable links both tracks: --track exercise, --compare.
  add_executable(${name} ${ARG_MAIN})
  wb_kernel_sources(${ARG_MAIN})
  wb_target_defaults(${name})
  target_link_libraries(${name} PRIVATE ${name}_solution ${name}_exercise wb_cli)
  if(TARGET ${name}_baseline)
    target_link_libraries(${name} PRIVATE ${name}_baseline)
  endif()

  # The same checks, once against each track.
  foreach(track solution exercise)
    if(track STREQUAL "solution")
      set(test_target ${name}_tests)
    else()
      set(test_target ${name}_exercise_tests)
    endif()
    add_executable(${test_target} ${ARG_TESTS})
    wb_kernel_sources(${ARG_TESTS})
    if(track STREQUAL "solution")  # the two test binaries share the sources
      wb_checks_sources(${ARG_TESTS})
    endif()
    wb_target_defaults(${test_target})
    target_compile_definitions(${test_target} PRIVATE WB_TRACK=${track})
    # A test may use a piece of the track directly (a device helper, with a kernel of its own).
    target_include_directories(${test_target} PRIVATE "${PROJECT_SOURCE_DIR}/${track}s/${name}")
    if(track STREQUAL "exercise")
      wb_quiet_stub_parameters(${test_target})  # the tests may include the track's headers
    endif()
    target_link_libraries(${test_target} PRIVATE ${name}_${track} wb_test_main)
    if(TARGET ${name}_baseline)
      target_link_libraries(${test_target} PRIVATE ${name}_baseline)
    endif()
  endforeach()

  add_test(NAME ${name}_tests COMMAND ${name}_tests)
  set_tests_properties(${name}_tests PROPERTIES LABELS "${WB_BACKEND};${name}")
  add_test(NAME ${name}_exercise_tests COMMAND ${name}_exercise_tests)
  set_tests_properties(${name}_exercise_tests PROPERTIES LABELS "exercises;${name}")
  add_test(NAME ${name}_selfcheck
    COMMAND ${CMAKE_COMMAND}
      -DSOLUTION=$<TARGET_FILE:${name}_tests>
      -DEXERCISE=$<TARGET_FILE:${name}_exercise_tests>
      -P "${PROJECT_SOURCE_DIR}/cmake/selfcheck.cmake")
  set_tests_properties(${name}_selfcheck PROPERTIES LABELS "selfcheck;${name}")

  set(WB_CHAPTERS ${WB_CHAPTERS} ${name} CACHE INTERNAL "chapters added so far")
endfunction()

# wb_add_usage_error_tests(<chapter> [EXPECT <regex>] "<flags>" ...): one ctest per bad command
# line, passing only if <chapter>'s executable exits with status 2 and an "error:" message on
# stderr (bad input must get a message, never a crash, a hang or a silent pass); with EXPECT,
# the message must also match <regex>.
function(wb_add_usage_error_tests chapter)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "EXPECT" "")
  set(expect "")
  if(DEFINED ARG_EXPECT)
    set(expect "-DEXPECT=${ARG_EXPECT}")
  endif()
  foreach(bad IN LISTS ARG_UNPARSED_ARGUMENTS)
    string(REGEX REPLACE "[^A-Za-z0-9]+" "_" name "${bad}")
    separate_arguments(args UNIX_COMMAND "${bad}")
    add_test(NAME ${chapter}_cli_rejects${name}
      COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${chapter}> "-DARGS=${args}" ${expect}
              -P "${PROJECT_SOURCE_DIR}/cmake/expect_usage_error.cmake")
    set_tests_properties(${chapter}_cli_rejects${name} PROPERTIES LABELS "${WB_BACKEND};${chapter}")
  endforeach()
endfunction()
