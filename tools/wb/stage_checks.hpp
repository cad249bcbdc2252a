// Running a chapter's exercise tests for some of its stages and reading the verdicts: the
// test main's --wb-report lines (common/src/test_main/, print_machine_report).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "wb_chapters.hpp"

namespace wbtool {

struct check_result {
  std::string status;  // pass fail crashed hung skipped empty (the test main's words)
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  std::string message, where, check, failed_case;
  std::vector<std::string> contexts;
  std::vector<std::string> failed_cases;  // every failing test case, named pitfalls first
  std::vector<std::string> output;        // what the stage's code printed (its last lines)
  std::string seed;                       // the test seed of the run (WB_TEST_SEED repeats it)
};

// Runs the chapter's exercise tests for the given stages (one process each, in the test main)
// and reads its --wb-report lines, by stage id. Throws std::runtime_error when the tests
// could not run.
std::map<std::string, check_result> run_checks(const chapter_table& chapter, const std::vector<std::string>& ids);

}  // namespace wbtool
