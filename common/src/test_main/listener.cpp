// What one doctest run saw: the wb_listener records it in g_record (passed, failed, GPU cases
// skipped, each test case's first failure in pieces) and, in a --wb-progress child, streams it
// to the parent (report_line); wb_quiet, the reporter of such a child, prints nothing.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include <fmt/format.h>

#include "internal.hpp"

namespace wb::test_main {

run_record g_record;

namespace {

std::string case_key(const doctest::TestCaseData& tc) {
  return fmt::format("{}:{}:{}", tc.m_file.c_str(), tc.m_line, tc.m_name);
}

void write_all(int fd, const std::string& text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}


// "chapters/merge/tests/test_merge.cpp" rather than the absolute path.
std::string short_path(const char* file) {
  std::string path = file != nullptr ? file : "?";
  std::size_t best = std::string::npos;
  for (const char* root : {"/chapters/", "/solutions/", "/exercises/", "/common/"}) {
    const auto at = path.rfind(root);
    if (at != std::string::npos && (best == std::string::npos || at > best)) best = at;
  }
  return best == std::string::npos ? path : path.substr(best + 1);
}

std::string contexts_text(bool stringified) {
  std::string out;
  if (stringified) {
    const int n = doctest::IReporter::get_num_stringified_contexts();
    const doctest::String* contexts = doctest::IReporter::get_stringified_contexts();
    for (int i = 0; i < n; ++i) out += std::string(" [") + contexts[i].c_str() + "]";
  } else {
    const int n = doctest::IReporter::get_num_active_contexts();
    const doctest::IContextScope* const* contexts = doctest::IReporter::get_active_contexts();
    for (int i = 0; i < n; ++i) {
      std::ostringstream text;
      contexts[i]->stringify(&text);
      out += " [" + text.str() + "]";
    }
  }
  return out;
}

std::string where_in_case() {
  std::string out = fmt::format(" (test case \"{}\"", g_record.current_case);
  for (const auto& subcase : g_record.subcases) out += fmt::format(" / subcase \"{}\"", subcase);
  return out + ")";
}

// The pieces of the first failure, for the `wb` program's verdict: the check and its
// location, what it found, the INFO contexts (sizes, first mismatch) and the test case.
struct failure_parts {
  std::string where;  // "chapters/merge/tests/test_checks.cpp:42", empty for an exception
  std::string check;  // "CHECK( x == y ) is false: 3 == 4", the FAIL message, or "threw ..."
  std::vector<std::string> contexts;
};

std::vector<std::string> context_list(bool stringified) {
  std::vector<std::string> out;
  if (stringified) {
    const int n = doctest::IReporter::get_num_stringified_contexts();
    const doctest::String* contexts = doctest::IReporter::get_stringified_contexts();
    for (int i = 0; i < n; ++i) out.emplace_back(contexts[i].c_str());
  } else {
    const int n = doctest::IReporter::get_num_active_contexts();
    const doctest::IContextScope* const* contexts = doctest::IReporter::get_active_contexts();
    for (int i = 0; i < n; ++i) {
      std::ostringstream text;
      contexts[i]->stringify(&text);
      out.push_back(text.str());
    }
  }
  return out;
}

std::string case_path() {
  std::string out = g_record.current_case;
  for (const auto& subcase : g_record.subcases) out += " / " + subcase;
  return out;
}

// The first failure of each test case goes to the parent (which picks the one to show).
void record_failure(const std::string& message, const failure_parts& parts) {
  if (g_record.case_failure) return;
  g_record.case_failure = true;
  report_line('F', message);
  report_line('W', parts.where);
  report_line('X', parts.check);
  for (const auto& c : parts.contexts) report_line('K', c);
  report_line('P', case_path());
}

struct wb_listener : doctest::IReporter {
  explicit wb_listener(const doctest::ContextOptions&) {}

  void report_query(const doctest::QueryData& query) override {
    if (!g_record.capture_selected || query.data == nullptr) return;
    for (unsigned i = 0; i < query.num_data; ++i) g_record.selected.insert(case_key(*query.data[i]));
  }
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData& tc) override {
    wb::testing::current_suite() = tc.m_test_suite != nullptr ? tc.m_test_suite : "";
    g_record.current_case = tc.m_name;
    g_record.subcases.clear();
    g_record.case_failure = false;
    report_line('C', tc.m_name);
  }
  void test_case_reenter(const doctest::TestCaseData&) override { g_record.subcases.clear(); }
  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    (stats.testCaseSuccess ? g_record.passed : g_record.failed) += 1;
    report_line('E', stats.testCaseSuccess ? "1" : "0");
  }
  void test_case_exception(const doctest::TestCaseException& e) override {
    const std::string what = fmt::format("{} {}", e.is_crash ? "crashed:" : "threw", e.error_string.c_str());
    record_failure(fmt::format("{}{}{}", what, contexts_text(true), where_in_case()), {"", what, context_list(true)});
  }
  void subcase_start(const doctest::SubcaseSignature& s) override { g_record.subcases.emplace_back(s.m_name.c_str()); }
  void subcase_end() override {
    if (!g_record.subcases.empty()) g_record.subcases.pop_back();
  }
  void log_assert(const doctest::AssertData& a) override {
    if (!a.m_failed || g_record.case_failure) return;
    using namespace doctest::assertType;
    std::string what;
    const bool throws_kind = (a.m_at & (is_throws | is_throws_as | is_throws_with)) != 0;
    if (a.m_threw && !throws_kind) {
      what = fmt::format("threw: {}", a.m_exception.c_str());
    } else if (throws_kind) {
      what = a.m_threw ? fmt::format("threw the wrong exception: {}", a.m_exception.c_str())
                       : std::string("did not throw");
    } else {
      const std::string decomp = a.m_decomp.c_str();
      what = decomp.empty() || decomp == a.m_expr || decomp == "false" || decomp == "true" ? "is false"
                                                                                            : "is false: " + decomp;
    }
    const std::string where = fmt::format("{}:{}", short_path(a.m_file), a.m_line);
    const std::string check = fmt::format("{}( {} ) {}", doctest::assertString(a.m_at), a.m_expr, what);
    record_failure(fmt::format("{}: {}{}{}", where, check, contexts_text(false), where_in_case()),
                   {where, check, context_list(false)});
  }
  void log_message(const doctest::MessageData& m) override {
    if ((m.m_severity & doctest::assertType::is_warn) != 0) return;  // MESSAGE/WARN: not failures
    const std::string where = fmt::format("{}:{}", short_path(m.m_file), m.m_line);
    record_failure(fmt::format("{}: {}{}{}", where, m.m_string.c_str(), contexts_text(false), where_in_case()),
                   {where, m.m_string.c_str(), context_list(false)});
  }
  void test_case_skipped(const doctest::TestCaseData& tc) override {
    // Called for every filtered-out case: count only GPU cases the user's filters select.
    if (!g_record.gpu_excluded || std::strncmp(tc.m_name, gpu_prefix, std::strlen(gpu_prefix)) != 0) return;
    if (g_record.selected.count(case_key(tc)) == 0) return;
    g_record.skipped_gpu.emplace_back(tc.m_name);
    report_line('S', tc.m_name);
  }
};
DOCTEST_REGISTER_LISTENER("wb_listener", 1, wb_listener);

// Prints nothing: the reporter of a --wb-progress child (the listener sees everything).
struct wb_quiet_reporter : doctest::IReporter {
  explicit wb_quiet_reporter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
DOCTEST_REGISTER_REPORTER("wb_quiet", 1, wb_quiet_reporter);

}  // namespace

void report_line(char kind, const std::string& payload) {
  if (g_record.report_fd < 0) return;
  std::string line(1, kind);
  line += ' ';
  for (char c : payload) line += (c == '\n' || c == '\r') ? ' ' : c;
  line += '\n';
  write_all(g_record.report_fd, line);
}

}  // namespace wb::test_main
