// --wb-progress: every registered stage in natural order ("merge/2" before "merge/10"), each in
// its own process (stage_process.cpp); a line for people per stage with the first failure and
// the stage's hint, or with --wb-report the key<TAB>value blocks the `wb` program reads;
// --wb-expect=pass|fail, the exercise self-check.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "internal.hpp"
#include "wb/runtime.hpp"

namespace wb::test_main {
namespace {

// Natural order: "merge/2 x" before "merge/10 y".
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t ie = i;
      std::size_t je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      const std::string na = a.substr(i, ie - i);
      const std::string nb = b.substr(j, je - j);
      const auto ta = na.substr(std::min(na.find_first_not_of('0'), na.size()));
      const auto tb = nb.substr(std::min(nb.find_first_not_of('0'), nb.size()));
      if (ta.size() != tb.size()) return ta.size() < tb.size();
      if (ta != tb) return ta < tb;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

int stage_timeout_seconds() {
  const char* text = std::getenv("WB_STAGE_TIMEOUT");
  if (text == nullptr || *text == '\0') return 120;
  int value = 0;
  const char* end = text + std::strlen(text);
  const auto [ptr, ec] = std::from_chars(text, end, value);
  if (ec != std::errc{} || ptr != end || value < 1 || value > 86400) {
    wb::testing::usage_exit(fmt::format("WB_STAGE_TIMEOUT='{}' is not a number of seconds in 1..86400", text));
  }
  return value;
}

// A stage's short name: the suite's first word, "merge/2" of "merge/2 basic".
std::string stage_id(const char* suite) {
  const std::string text = suite;
  return text.substr(0, text.find(' '));
}

const char* status_word(stage_status status) {
  switch (status) {
    case stage_status::pass: return "pass";
    case stage_status::fail: return "fail";
    case stage_status::crashed: return "crashed";
    case stage_status::hung: return "hung";
    case stage_status::skipped: return "skipped";
    case stage_status::empty: return "empty";
  }
  return "?";
}

// --wb-report: what the `wb` program reads. One block per stage, each line "key<TAB>value"
// (values hold no tab or line break):
//   stage    <id> <status> <test cases passed> <failed> <skipped>   (tab-separated)
//   suite    merge/2 basic
//   message  the first failure in one line (or why the stage crashed or hung)
//   where    file:line of the failing check        (these four: the first failure in pieces;
//   check    the check and what it found             context repeats, outermost first: the
//   context  an INFO context, e.g. the sizes         INFO lines, then a CHECK_MESSAGE's text)
//   case     test case / subcase
//   failed   a failing test case (one line each; named pitfalls first: M7, SO1, race: ...)
//   output   a line the stage's code printed (the last 30, when it did not pass)
//   end
// The failure in pieces is a named pitfall's when one of those failed, else the first.
void print_machine_report(const wb::testing::stage_info& stage, const stage_result& r) {
  const auto field = [](const char* key, const std::string& value) {
    std::string clean = value;
    for (char& c : clean) {
      if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    }
    std::printf("%s\t%s\n", key, clean.c_str());
  };
  std::printf("stage\t%s\t%s\t%d\t%d\t%d\n", stage_id(stage.suite).c_str(), status_word(r.status), r.passed, r.failed,
              r.skipped);
  field("suite", stage.suite);
  if (!r.message.empty()) field("message", r.message);
  if (!r.where.empty()) field("where", r.where);
  if (!r.check.empty()) field("check", r.check);
  for (const auto& c : r.contexts) field("context", c);
  if (!r.failed_case.empty()) field("case", r.failed_case);
  for (const auto& c : r.failed_cases) field("failed", c);
  for (const auto& line : r.output) field("output", line);
  std::printf("end\n");
  std::fflush(stdout);
}

}  // namespace

int run_progress(const std::vector<std::string>& args, const std::string& expect, const std::string& program,
                 const std::vector<std::string>& only, bool machine) {
  std::vector<wb::testing::stage_info> stages = wb::testing::registry();
  std::stable_sort(stages.begin(), stages.end(),
                   [](const auto& a, const auto& b) { return natural_less(a.suite, b.suite); });
  if (!only.empty()) {
    for (const auto& name : only) {
      const bool known = std::any_of(stages.begin(), stages.end(),
                                     [&](const auto& s) { return stage_id(s.suite) == name || name == s.suite; });
      if (!known) {
        std::string names;
        for (const auto& s : stages) names += (names.empty() ? "" : ", ") + stage_id(s.suite);
        wb::testing::usage_exit(fmt::format("--wb-only: no stage '{}' here (stages: {})", name,
                                            names.empty() ? std::string("none") : names));
      }
    }
    std::erase_if(stages, [&](const auto& s) {
      return std::none_of(only.begin(), only.end(), [&](const auto& name) { return stage_id(s.suite) == name || name == s.suite; });
    });
  }
  const int timeout_s = stage_timeout_seconds();
  if (machine) {
    int rc = 0;
    for (const auto& stage : stages) {
      const stage_result r = run_stage(args, stage, timeout_s);
      print_machine_report(stage, r);
      const bool pass = r.status == stage_status::pass;
      const bool fail =
          r.status == stage_status::fail || r.status == stage_status::crashed || r.status == stage_status::hung;
      if ((expect == "pass" && !pass) || (expect == "fail" && !fail)) rc = 1;
    }
    return rc;
  }

  std::printf("%s: stage by stage (%s backend%s)\n", program.c_str(), wb::backend_name,
              wb::backend_is_cuda ? "" : ", kernels on the CPU emulator");
  if (stages.empty()) {
    std::printf("  no stages are registered in this test binary (wb::testing::register_stages)\n");
    if (!expect.empty()) std::printf("expectation '%s' not met: there are no stages to check\n", expect.c_str());
    print_summary(0, 0, 0);
    return expect.empty() ? 0 : 1;
  }

  int stages_passing = 0;
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  std::vector<std::string> broken;  // stages that break --wb-expect
  const std::string indent = "         ";
  for (const auto& stage : stages) {
    const stage_result r = run_stage(args, stage, timeout_s);
    passed += r.passed;
    failed += r.failed;
    skipped += r.skipped;
    const char* tag = "[FAIL]";
    switch (r.status) {
      case stage_status::pass: tag = "[pass]"; break;
      case stage_status::skipped: tag = "[skip]"; break;
      case stage_status::empty: tag = "[none]"; break;
      default: break;
    }
    std::string text = fmt::format("  {} {} — {} ({})\n", tag, stage.suite, stage.title, stage.section);
    switch (r.status) {
      case stage_status::pass:
        ++stages_passing;
        break;
      case stage_status::fail:
      case stage_status::crashed:
      case stage_status::hung:
        text += fmt::format("{}first failure ({} of {} test case{} failed): {}\n", indent, r.failed, r.passed + r.failed,
                            r.passed + r.failed == 1 ? "" : "s", r.message);
        text += fmt::format("{}hint: {}\n", indent, stage.hint);
        break;
      case stage_status::skipped:
        text += fmt::format("{}{} a GPU: nothing checked here\n", indent,
                            r.skipped == 1 ? std::string("its test case needs")
                                           : fmt::format("all {} of its test cases need", r.skipped));
        break;
      case stage_status::empty:
        text += fmt::format("{}no test case in suite \"{}\": nothing checked\n", indent, stage.suite);
        break;
    }
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);

    const bool ok_for_pass = r.status == stage_status::pass;
    const bool ok_for_fail =
        r.status == stage_status::fail || r.status == stage_status::crashed || r.status == stage_status::hung;
    if ((expect == "pass" && !ok_for_pass) || (expect == "fail" && !ok_for_fail)) {
      broken.push_back(fmt::format("{} ({})", stage.suite, tag));
    }
  }
  std::printf("%d of %zu stages pass\n", stages_passing, stages.size());
  int rc = 0;
  if (!expect.empty()) {
    if (broken.empty()) {
      std::printf("expectation met: every stage %s%s\n", expect == "pass" ? "passes" : "fails",
                  expect == "pass" ? "" : " (the shipped stubs are real exercises)");
    } else {
      std::printf("expectation broken: expected every stage to %s, but not:\n", expect.c_str());
      for (const auto& b : broken) std::printf("  %s\n", b.c_str());
      rc = 1;
    }
  }
  print_summary(passed, failed, skipped);
  return rc;
}

}  // namespace wb::test_main
