// wb check [stage]: rebuild what the stage needs, run its checks, a short verdict: PASS, or
// every failing test case (named pitfalls first), the first failure in pieces, what the code
// printed and a command that reruns the case.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "build.hpp"
#include "command_line.hpp"
#include "stage_checks.hpp"
#include "stage_states.hpp"
#include "verbs.hpp"

namespace wbtool {
namespace {

void print_where_to_look(const stage_ref& s) {
  std::string files;
  for (const auto& f : s.files()) files += (files.empty() ? "" : "  ") + f;
  if (!files.empty()) std::printf("  your files:  %s\n", files.c_str());
  std::printf("  stuck?       %s   (then --level 2, --level 3)\n", wb_command("hint " + s.id()).c_str());
}

// A doctest filter that selects one test case: its name up to the first character doctest's
// filters treat specially, then a wildcard.
std::string case_filter(const std::string& name) {
  const std::size_t cut = name.find_first_of(",*?[]\\");
  return cut == std::string::npos ? name : name.substr(0, cut) + "*";
}

// A context that describes the input, never what the check found: a CAPTURE ("chunk := 4") or
// an INFO that says so ("input: 1000 uniform int8 items").
bool is_input(const std::string& context) {
  return context.find(" := ") != std::string::npos || context.rfind("input: ", 0) == 0;
}

// The failure shown (a named pitfall's when one failed), every failing case, how to rerun it,
// and what the code printed.
void print_failure(const stage_ref& s, const check_result& r) {
  const int cases = r.passed + r.failed;
  if (r.status == "crashed" || r.status == "hung") {
    std::printf("  FAIL: %s\n", r.message.c_str());
  } else {
    std::printf("  FAIL: %d of %d test case%s fail%s:\n", r.failed, cases, cases == 1 ? "" : "s",
                r.failed == 1 ? "s" : "");
  }
  std::vector<std::string> names = r.failed_cases;
  if (names.empty() && !r.failed_case.empty()) names.push_back(r.failed_case.substr(0, r.failed_case.find(" / ")));
  for (const auto& name : names) std::printf("    - %s\n", name.c_str());
  // A race fails every launch of the kernel, so the other cases fail with it, whatever else
  // the code gets right: say so, or the list reads as a list of bugs.
  const bool race_first = !names.empty() && names.front().rfind("race:", 0) == 0 &&
                          std::any_of(r.contexts.begin(), r.contexts.end(), [](const std::string& c) {
                            return c.find("race reported") != std::string::npos;
                          });
  if (race_first && names.size() > 1) {
    std::printf("  (the race fails every launch of the kernel, so the cases after it fail with it: fix the race "
                "first)\n");
  }
  if (!r.failed_case.empty() && r.status != "hung") {
    std::printf("  %s:\n", names.size() > 1 ? "the first of them" : "what it found");
    std::printf("  test case:   %s\n", r.failed_case.c_str());
    // The contexts: the input (sizes, type, distribution; the values themselves when there are
    // few), then what the check found (the first mismatch: index, expected, got).
    // (A check that only says "is false" carries what it found in its message, the last context,
    // unless that context says it is the input.)
    const bool message_last =
        !r.contexts.empty() && !is_input(r.contexts.back()) &&
        (r.contexts.size() > 1 || (r.check.size() >= 8 && r.check.compare(r.check.size() - 8, 8, "is false") == 0));
    for (std::size_t i = 0; i < r.contexts.size(); ++i) {
      if (r.contexts[i].empty()) continue;
      const bool found = i + 1 == r.contexts.size() && message_last;
      const bool says_input = !found && r.contexts[i].rfind("input: ", 0) == 0;  // not "input: input: ..."
      std::printf("  %-12s %s\n", found ? "found:" : "input:", r.contexts[i].c_str() + (says_input ? 7 : 0));
    }
    // WB_CHECK_EQUAL_SEQ's own expression says nothing the mismatch above does not.
    if (!r.check.empty() && r.check.find("wb_mismatch_") == std::string::npos) {
      std::printf("  check:       %s\n", r.check.c_str());
    }
    if (!r.where.empty()) std::printf("  at:          %s\n", r.where.c_str());
  }
  if (!r.output.empty()) {
    std::printf("  your code printed (the last %zu line%s):\n", r.output.size(), r.output.size() == 1 ? "" : "s");
    for (const auto& line : r.output) std::printf("    | %s\n", line.c_str());
  }
  if (!names.empty() && !r.seed.empty()) {
    // The same data again: the seed of this run, and the one test case.
    std::printf("  rerun it:    WB_TEST_SEED=%s %s -tc=%s\n", r.seed.c_str(),
                path_from_here(s.chapter->exercise_tests).c_str(), shell_quote(case_filter(names.front())).c_str());
  }
}

}  // namespace

bool check_stage(const stage_ref& s, bool build_first) {
  std::printf("%s  %s  (%s)\n", s.id().c_str(), s.stage->title, s.stage->section);
  std::fflush(stdout);
  if (build_first && !build({fmt::format("{}_exercise_tests", s.chapter->name)})) {
    print_where_to_look(s);
    return false;
  }
  const check_result r = run_checks(*s.chapter, {s.id()}).at(s.id());
  const int cases = r.passed + r.failed;
  if (r.status == "pass") {
    std::printf("  PASS: all %d test case%s of the stage pass\n", cases, cases == 1 ? "" : "s");
    return true;
  }
  if (r.status == "skipped") {
    std::printf("  NOT CHECKED: every test case of this stage needs a GPU, and this build runs the %s backend\n",
                backend);
    return false;
  }
  if (r.status == "empty") {
    std::printf("  NOT CHECKED: the stage has no test cases\n");
    return false;
  }
  print_failure(s, r);
  print_where_to_look(s);
  return false;
}

int cmd_check(const std::string& text, bool build_first) {
  if (text.empty()) {  // the next stage to do, as `wb watch` starts with
    const auto next = next_stage();
    if (!next) {
      std::printf("every stage that can be checked here is done\n");
      return 0;
    }
    return check_stage(*next, build_first) ? 0 : 1;
  }
  const stage_ref s = find_stage(text);
  return check_stage(s, build_first) ? 0 : 1;
}

}  // namespace wbtool
