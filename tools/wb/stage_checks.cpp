// Running a chapter's exercise tests for some of its stages (see stage_checks.hpp).
#include "stage_checks.hpp"

#include <charconv>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "process.hpp"

namespace wbtool {
namespace {

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', from);
    out.push_back(line.substr(from, tab == std::string::npos ? std::string::npos : tab - from));
    if (tab == std::string::npos) return out;
    from = tab + 1;
  }
}

int to_int(const std::string& text) {
  int value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

}  // namespace

std::map<std::string, check_result> run_checks(const chapter_table& chapter, const std::vector<std::string>& ids) {
  std::map<std::string, check_result> results;
  if (ids.empty()) return results;
  std::string only;
  for (const auto& id : ids) only += (only.empty() ? "" : ",") + id;
  // A stage that hangs (an endless loop in a stub being written) is killed when one of its
  // test cases has run a minute, not the test main's two; WB_STAGE_TIMEOUT in the environment
  // still decides.
  setenv("WB_STAGE_TIMEOUT", "60", 0);
  const process_result r =
      run_captured({chapter.exercise_tests, "--wb-progress", "--wb-report", "--wb-only=" + only});
  std::istringstream lines(r.output);
  check_result* current = nullptr;
  std::string seed;
  for (std::string line; std::getline(lines, line);) {
    const auto f = split_tabs(line);
    if (f[0] == "seed" && f.size() >= 2) seed = f[1];
    if (f[0] == "stage" && f.size() >= 6) {
      current = &results[f[1]];
      current->seed = seed;
      current->status = f[2];
      current->passed = to_int(f[3]);
      current->failed = to_int(f[4]);
      current->skipped = to_int(f[5]);
    } else if (current != nullptr && (f.size() >= 2 || f[0] == "output")) {
      if (f.size() < 2) {
        current->output.emplace_back();
        continue;
      }
      if (f[0] == "message") current->message = f[1];
      if (f[0] == "where") current->where = f[1];
      if (f[0] == "check") current->check = f[1];
      if (f[0] == "context") current->contexts.push_back(f[1]);
      if (f[0] == "case") current->failed_case = f[1];
      if (f[0] == "failed") current->failed_cases.push_back(f[1]);
      if (f[0] == "output") current->output.push_back(f[1]);
    } else if (f[0] == "end") {
      current = nullptr;
    }
  }
  for (const auto& id : ids) {
    if (results.count(id) == 0) {
      throw std::runtime_error(fmt::format("the checks of {} did not run (exit status {}):\n{}", id, r.status,
                                           trim(r.output)));
    }
  }
  return results;
}

}  // namespace wbtool
