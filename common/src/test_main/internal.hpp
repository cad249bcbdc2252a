// The pieces of the shared test main (main.cpp), declared for one another; nothing here is for
// the tests themselves (they use wb/testing.hpp).
//
//   testing_api.cpp     wb::testing: the run's seed, the stage registry, GPU presence
//   listener.cpp        what one doctest run saw (the run record), a --wb-progress child's
//                       report lines to its parent
//   doctest_run.cpp     one doctest run, GPU-only cases skipped (and named) without a GPU
//   summary.cpp         the workbook's own lines: the seed, "N passed, N failed, N skipped"
//   stage_process.cpp   --wb-progress: one stage in a child process; crashes and hangs
//   failure_order.cpp   which failure a stage shows, failing cases named pitfalls first
//   progress.cpp        --wb-progress: the stages in order, for people or for wb (--wb-report)
//   crash_report.cpp    a plain run: a crashed case named, the cases after it run on (crash_report.hpp)
//   main.cpp            the command line
#pragma once

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "wb/testing.hpp"

namespace wb::testing {

// Bad input to the test binary: the message on stderr, exit status 2.
[[noreturn]] void usage_exit(const std::string& message);

// The stages registered by the chapter's tests (register_stages), in registration order.
std::vector<stage_info>& registry();

// The test suite of the running test case (the listener sets it).
std::string& current_suite();

}  // namespace wb::testing

namespace wb::test_main {

// GPU-only test cases are named "[gpu] ..." (WB_GPU_TEST_CASE).
inline constexpr const char* gpu_prefix = "[gpu]";

// What one doctest run saw: the listener records it (and, in a --wb-progress child, streams it
// to the parent through a pipe: report_line).
struct run_record {
  // Before the run: the test cases the user's own filters select (so that a GPU case the
  // user filtered out is not reported as skipped for want of a GPU).
  bool capture_selected = false;
  std::set<std::string> selected;
  bool gpu_excluded = false;

  int passed = 0;
  int failed = 0;
  std::vector<std::string> skipped_gpu;

  std::string current_case;
  std::vector<std::string> subcases;
  bool case_failure = false;  // the current test case has reported its first failure

  int report_fd = -1;  // --wb-progress child: the pipe to the parent
};
extern run_record g_record;

// One line to the parent: a kind letter and a payload without line breaks (nothing outside a
// --wb-progress child). The kinds: C case started, E case ended (1 passed, 0 failed), F the
// first failure of a case in one line, then W where, X the check, K a context each, P test
// case / subcase; S a GPU case skipped; D the run is done.
void report_line(char kind, const std::string& payload = {});

// One doctest run: of one suite (nullptr: what the arguments select), quietly (the wb_quiet
// reporter) or not. Without a GPU, GPU-only cases are left out and recorded as skipped.
struct doctest_result {
  int rc = 0;
  bool query_only = false;  // --help, --list-test-cases, ...: nothing ran
};
doctest_result run_doctest(const std::vector<std::string>& args, const char* suite, bool quiet);

// --help, --list-test-cases, ...: doctest answers and runs nothing.
bool is_query_flag(const std::string& arg);

// Where the workbook's own lines (seed, device, skipped cases, summary) go: stdout, unless a
// machine-readable doctest reporter (xml, junit) writes to stdout; then stderr, so its output
// stays parseable.
extern FILE* g_chatter;
// Does the command line pick a reporter other than the console one, writing to stdout?
bool machine_readable_stdout(const std::vector<std::string>& args);
void print_summary(int passed, int failed, int skipped);
void print_seed();

// --wb-progress: one stage's outcome.
enum class stage_status { pass, fail, crashed, hung, skipped, empty };

// The first failure of one test case.
struct case_failure {
  std::string message;  // in one line
  // in pieces (where, check, contexts: see listener.cpp), for --wb-report
  std::string where;
  std::string check;
  std::vector<std::string> contexts;
  std::string failed_case;  // test case / subcase
};

struct stage_result {
  stage_status status = stage_status::empty;
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  std::string message;  // the failure shown, or why it crashed / hung
  // The failure shown in pieces, for --wb-report: a named pitfall's when one failed, else the
  // first.
  std::string where;
  std::string check;
  std::vector<std::string> contexts;
  std::string failed_case;
  std::vector<std::string> failed_cases;  // every failing test case, named pitfalls first
  std::vector<std::string> output;        // the last lines the stage's code printed (kernel printf)
};

// Runs one stage's suite in a child process, killed when one test case runs timeout_s seconds.
stage_result run_stage(const std::vector<std::string>& args, const wb::testing::stage_info& stage, int timeout_s);

// Sets result's failure shown (a race's or a named pitfall's when one failed, else the first of
// `failures`) and result.failed_cases (`failing`, named pitfalls first).
void choose_failure_shown(stage_result& result, const std::vector<case_failure>& failures,
                          std::vector<std::string> failing);

// --wb-progress: every registered stage (or those of `only`), each in its own process.
int run_progress(const std::vector<std::string>& args, const std::string& expect, const std::string& program,
                 const std::vector<std::string>& only, bool machine);

}  // namespace wb::test_main
