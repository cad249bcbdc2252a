// The one test main every test binary shares (see common/README.md, "Test binaries").
//
//   <tests>                      doctest as usual, GPU-only cases skipped and named when there
//                                is no GPU, then the line "N passed, N failed, N skipped"
//   <tests> --wb-progress        one line per stage, each stage in its own process
//   <tests> --wb-progress --wb-expect=pass|fail    the exercise self-check (exit 0 or 1)
//   <tests> --wb-progress --wb-only=merge/2        only the stages named (comma-separated)
//   <tests> --wb-progress --wb-report              for the `wb` program: key<TAB>value lines
//                                                  (see print_machine_report)
//
// Environment: WB_TEST_SEED=<n> repeats a run's data; WB_STAGE_TIMEOUT=<seconds> (default 120: one test case's limit)
// is how long one stage may run under --wb-progress before it is killed and reported hung.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/device_info.hpp"
#include "wb/generate.hpp"
#include "wb/runtime.hpp"
#include "wb/testing.hpp"

// ---------------------------------------------------------------------------------------
// wb::testing: seeds, stage registry, GPU presence
// ---------------------------------------------------------------------------------------
namespace wb::testing {
namespace {

[[noreturn]] void usage_exit(const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "error: %s\n", message.c_str());
  std::exit(2);
}

std::uint64_t choose_seed() {
  if (const char* text = std::getenv("WB_TEST_SEED"); text != nullptr && *text != '\0') {
    std::uint64_t value = 0;
    const char* end = text + std::strlen(text);
    const auto [ptr, ec] = std::from_chars(text, end, value);
    if (ec != std::errc{} || ptr != end) usage_exit(fmt::format("WB_TEST_SEED='{}' is not a non-negative integer", text));
    return value;
  }
  // Fresh data every run; 32 bits so the number is easy to copy.
  std::random_device device;
  const auto mixed = static_cast<std::uint64_t>(device()) ^
                     static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                     (static_cast<std::uint64_t>(getpid()) << 16);
  return wb::gen::rng(mixed).next() & 0xFFFFFFFFull;
}

std::vector<stage_info>& registry() {
  static std::vector<stage_info> stages;
  return stages;
}

}  // namespace

std::uint64_t run_seed() {
  static const std::uint64_t value = choose_seed();
  return value;
}

std::uint64_t seed(std::uint64_t salt) {
  return wb::gen::rng(run_seed() ^ (salt * 0x9E3779B97F4A7C15ull) ^ 0x5851F42D4C957F2Dull).next();
}

bool register_stages(const stage_info* stages, std::size_t count) {
  registry().insert(registry().end(), stages, stages + count);
  return true;
}

bool register_stages(std::span<const wb::stage> stages) {
  for (const auto& s : stages) registry().push_back({s.suite, s.title, s.section, s.hints[0]});
  return true;
}

std::string wb_command() {
  const char* command = std::getenv("WB_COMMAND");
  return command != nullptr && *command != '\0' ? command : "./wb";
}

bool gpu_present() {
  if constexpr (wb::backend_is_cuda) {
    return wb::gpu_available();
  } else {
    return false;
  }
}

// The test suite of the running test case (the listener below sets it).
static std::string& current_suite() {
  static std::string suite;
  return suite;
}

void expect_stage_in_reach(int stage) {
  // "chapter/N title": N is the stage this suite checks.
  const std::string& suite = current_suite();
  const auto slash = suite.find('/');
  if (slash == std::string::npos) return;
  std::size_t end = slash + 1;
  while (end < suite.size() && suite[end] >= '0' && suite[end] <= '9') ++end;
  if (end == slash + 1) return;
  const int at = std::stoi(suite.substr(slash + 1, end - slash - 1));
  if (stage > at) {
    throw std::logic_error(fmt::format(
        "test suite \"{}\" runs stage {}: a learner checking stage {} has not written stage {} yet (check it in "
        "that stage's suite)",
        suite, stage, at, stage));
  }
}

}  // namespace wb::testing

// ---------------------------------------------------------------------------------------
// What one doctest run saw: a listener records it (and, in a --wb-progress child, streams
// it to the parent through a pipe).
// ---------------------------------------------------------------------------------------
namespace {

constexpr const char* gpu_prefix = "[gpu]";

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
run_record g_record;

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

// One line to the parent: a kind letter and a payload without line breaks.
void report_line(char kind, const std::string& payload = {}) {
  if (g_record.report_fd < 0) return;
  std::string line(1, kind);
  line += ' ';
  for (char c : payload) line += (c == '\n' || c == '\r') ? ' ' : c;
  line += '\n';
  write_all(g_record.report_fd, line);
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

// ---------------------------------------------------------------------------------------
// One doctest run (optionally of one suite, quietly)
// ---------------------------------------------------------------------------------------
struct doctest_result {
  int rc = 0;
  bool query_only = false;  // --help, --list-test-cases, ...: nothing ran
};

doctest_result run_doctest(const std::vector<std::string>& args, const char* suite, bool quiet) {
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  const int argc = static_cast<int>(argv.size());

  g_record.gpu_excluded = !wb::testing::gpu_present();
  if (g_record.gpu_excluded) {
    // Which cases do the user's filters select? (A listing run, printed nowhere.)
    // (A flag, not setOption: doctest matches flags exactly, "-list-test-cases=true" is ignored.)
    std::ostream nowhere(nullptr);
    std::vector<const char*> query_argv = argv;
    query_argv.push_back("--list-test-cases");
    doctest::Context query(static_cast<int>(query_argv.size()), query_argv.data());
    if (suite != nullptr) query.addFilter("test-suite", suite);
    query.setOption("reporters", "wb_quiet");
    query.setCout(&nowhere);
    g_record.capture_selected = true;
    query.run();
    g_record.capture_selected = false;
  }

  doctest::Context context(argc, argv.data());
  if (suite != nullptr) context.addFilter("test-suite", suite);
  if (g_record.gpu_excluded) context.addFilter("test-case-exclude", "[gpu]*");
  if (quiet) context.setOption("reporters", "wb_quiet");
  doctest_result result;
  result.rc = context.run();
  result.query_only = context.shouldExit();
  return result;
}

bool is_query_flag(const std::string& arg) {
  std::string a = arg;
  while (!a.empty() && a.front() == '-') a.erase(a.begin());
  if (a.rfind("dt-", 0) == 0) a = a.substr(3);
  if (const auto eq = a.find('='); eq != std::string::npos) a = a.substr(0, eq);
  static const std::set<std::string> flags = {"h", "help", "?", "v", "version", "c", "count", "ltc",
                                              "list-test-cases", "lts", "list-test-suites", "lr",
                                              "list-reporters"};
  return flags.count(a) > 0;
}

// Where the workbook's own lines (seed, device, skipped cases, summary) go: stdout, unless a
// machine-readable doctest reporter (xml, junit) writes to stdout; then stderr, so its output
// stays parseable.
FILE* g_chatter = stdout;

void print_summary(int passed, int failed, int skipped) {
  std::fflush(stdout);
  std::cout.flush();
  std::fprintf(g_chatter, "%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  std::fflush(g_chatter);
}

void print_seed() {
  const auto s = wb::testing::run_seed();
  std::fprintf(g_chatter, "test seed: %llu (WB_TEST_SEED=%llu repeats this run)\n", static_cast<unsigned long long>(s),
               static_cast<unsigned long long>(s));
  std::fflush(g_chatter);
}

// Does the command line pick a reporter other than the console one, writing to stdout?
bool machine_readable_stdout(const std::vector<std::string>& args) {
  bool other_reporter = false;
  bool to_file = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string a = args[i];
    while (!a.empty() && a.front() == '-') a.erase(a.begin());
    if (a.rfind("dt-", 0) == 0) a = a.substr(3);
    const auto eq = a.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = a.substr(0, eq);
    const std::string value = a.substr(eq + 1);
    if ((name == "r" || name == "reporters") && value != "console") other_reporter = true;
    if (name == "o" || name == "out") to_file = true;
  }
  return other_reporter && !to_file;
}

// ---------------------------------------------------------------------------------------
// --wb-progress: each stage in its own process
// ---------------------------------------------------------------------------------------
enum class stage_status { pass, fail, crashed, hung, skipped, empty };

// The first failure of one test case.
struct case_failure {
  std::string message;  // in one line
  // in pieces (see failure_parts), for --wb-report
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
  // The failure shown in pieces (see failure_parts), for --wb-report: a named pitfall's when
  // one failed, else the first.
  std::string where;
  std::string check;
  std::vector<std::string> contexts;
  std::string failed_case;
  std::vector<std::string> failed_cases;  // every failing test case, named pitfalls first
  std::vector<std::string> output;        // the last lines the stage's code printed (kernel printf)
};

// A test case named after a pitfall: a defect id ("M7: ...", "SO1: ...", "R6 (new): ...") or
// a race the chapter teaches ("race: ..."). Its failure says what is wrong most directly.
bool names_a_pitfall(const std::string& name) {
  std::size_t i = name.rfind("[gpu] ", 0) == 0 ? 6 : 0;
  if (name.compare(i, 5, "race:") == 0) return true;
  const std::size_t letters = i;
  while (i < name.size() && std::isupper(static_cast<unsigned char>(name[i]))) ++i;
  if (i == letters || i - letters > 3) return false;
  const std::size_t digits = i;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  return i > digits && (i == name.size() || name[i] == ':' || name[i] == ' ');
}

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

std::string last_line(const std::string& output) {
  std::size_t end = output.size();
  while (end > 0 && (output[end - 1] == '\n' || output[end - 1] == '\r' || output[end - 1] == ' ')) --end;
  const std::size_t begin = output.rfind('\n', end == 0 ? 0 : end - 1);
  return output.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin == std::string::npos ? 0 : begin + 1));
}

stage_result could_not_run(const std::string& why) {
  stage_result r;
  r.status = stage_status::crashed;
  r.failed = 1;
  r.message = why;
  return r;
}

stage_result run_stage(const std::vector<std::string>& args, const wb::testing::stage_info& stage, int timeout_s) {
  int report_pipe[2];
  int output_pipe[2];
  if (pipe(report_pipe) != 0 || pipe(output_pipe) != 0) {
    return could_not_run(fmt::format("could not create a pipe: {}", std::strerror(errno)));
  }
  std::fflush(stdout);
  std::fflush(stderr);
  std::cout.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    return could_not_run(fmt::format("could not fork: {}", std::strerror(errno)));
  }
  if (pid == 0) {  // the child: run this stage's suite quietly, report through the pipe
    close(report_pipe[0]);
    close(output_pipe[0]);
    dup2(output_pipe[1], STDOUT_FILENO);
    dup2(output_pipe[1], STDERR_FILENO);
    close(output_pipe[1]);
    g_record.report_fd = report_pipe[1];
    run_doctest(args, stage.suite, true);
    report_line('D');
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(0);
  }
  close(report_pipe[1]);
  close(output_pipe[1]);

  stage_result result;
  std::string report_buffer;
  std::string output;  // the child's stdout/stderr, last few KiB (shown when it fails)
  std::string current_case;  // the last test case started
  bool case_open = false;    // ... and not finished: a hang or crash happened inside it
  bool done = false;
  bool hung = false;
  std::vector<case_failure> failures;  // the first failure of each failing case, in order
  std::vector<std::string> failing;    // the failing cases, in order

  auto handle_line = [&](const std::string& line) {
    if (line.empty()) return;
    const char kind = line[0];
    const std::string payload = line.size() > 2 ? line.substr(2) : std::string();
    switch (kind) {
      case 'D': done = true; break;
      case 'C': current_case = payload; case_open = true; break;
      case 'E':
        (payload == "1" ? result.passed : result.failed) += 1;
        if (payload != "1") failing.push_back(current_case);
        case_open = false;
        break;
      case 'F': failures.push_back({payload, {}, {}, {}, {}}); break;
      case 'W': if (!failures.empty()) failures.back().where = payload; break;
      case 'X': if (!failures.empty()) failures.back().check = payload; break;
      case 'K': if (!failures.empty()) failures.back().contexts.push_back(payload); break;
      case 'P': if (!failures.empty()) failures.back().failed_case = payload; break;
      case 'S': result.skipped += 1; break;
      default: break;
    }
  };

  // The limit is per test case: a stage of many long cases (counting/7 on the emulator takes
  // about two minutes in all) is not a hang; one case that runs past the limit is.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  pollfd fds[2] = {{report_pipe[0], POLLIN, 0}, {output_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      hung = true;
      kill(pid, SIGKILL);
      break;
    }
    const int ready = poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 250)));
    if (ready < 0 && errno != EINTR) break;
    for (auto& fd : fds) {
      if (fd.fd < 0 || (fd.revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      char buffer[4096];
      const ssize_t n = read(fd.fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        close(fd.fd);
        fd.fd = -1;
        --open_fds;
        continue;
      }
      if (fd.fd == report_pipe[0]) {
        report_buffer.append(buffer, static_cast<std::size_t>(n));
        std::size_t newline;
        while ((newline = report_buffer.find('\n')) != std::string::npos) {
          const char kind = report_buffer[0];
          handle_line(report_buffer.substr(0, newline));
          report_buffer.erase(0, newline + 1);
          if (kind == 'C') deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);  // a case starts
        }
      } else {
        output.append(buffer, static_cast<std::size_t>(n));
        if (output.size() > 8192) output.erase(0, output.size() - 4096);
      }
    }
  }
  for (auto& fd : fds) {
    if (fd.fd >= 0) close(fd.fd);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }

  // The failure to show: a named pitfall's, else the first. Every failing case is listed,
  // named pitfalls first (a crash or a hang ends the case it happened in). When the race check
  // stopped a launch, the stage's race: case comes first: every case that runs the stage fails
  // on the same race, and that case is the one that names it.
  if (case_open) failing.push_back(current_case);
  const bool raced = std::any_of(failures.begin(), failures.end(), [](const case_failure& f) {
    return f.message.find("data race on ") != std::string::npos || f.check.find("data race on ") != std::string::npos;
  });
  const auto rank = [raced](const std::string& name) {
    if (raced && name.rfind("race:", 0) == 0) return 0;
    return names_a_pitfall(name) ? 1 : 2;
  };
  const auto case_rank = [&rank](const case_failure& f) { return rank(f.failed_case.substr(0, f.failed_case.find(" / "))); };
  const auto shown = std::min_element(failures.begin(), failures.end(), [&case_rank](const case_failure& a, const case_failure& b) {
    return case_rank(a) < case_rank(b);
  });
  if (!failures.empty()) {
    const case_failure& f = *shown;
    result.message = f.message;
    result.where = f.where;
    result.check = f.check;
    result.contexts = f.contexts;
    result.failed_case = f.failed_case;
  }
  std::stable_sort(failing.begin(), failing.end(),
                   [&rank](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  result.failed_cases = failing;

  const std::string in_case = current_case.empty() ? "" : fmt::format(" in test case \"{}\"", current_case);
  const std::string output_tail = last_line(output).empty() ? "" : " — last output: " + last_line(output);
  // doctest reports a crash it catches (and ends the test case) before the process dies.
  const std::string earlier =
      result.message.empty() || result.message.rfind("crashed:", 0) == 0 ? "" : "; failure before it: " + result.message;
  if (hung) {
    result.status = stage_status::hung;
    if (case_open) result.failed += 1;
    result.message = fmt::format("hung: killed after {} s{} (WB_STAGE_TIMEOUT sets the limit){}", timeout_s, in_case,
                                 earlier);
  } else if (WIFSIGNALED(status)) {
    result.status = stage_status::crashed;
    if (case_open) result.failed += 1;
    const int sig = WTERMSIG(status);
    result.message = fmt::format("crashed (signal {}, {}){}{}{}", sig, strsignal(sig), in_case, earlier, output_tail);
  } else if (!done || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    result.status = stage_status::crashed;
    if (case_open) result.failed += 1;
    result.message = fmt::format("the test process exited with status {} before finishing{}{}",
                                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, in_case, output_tail);
  } else if (result.failed > 0) {
    result.status = stage_status::fail;
  } else if (result.passed > 0) {
    result.status = stage_status::pass;
  } else if (result.skipped > 0) {
    result.status = stage_status::skipped;
  } else {
    result.status = stage_status::empty;
  }
  // What the stage's code printed (a kernel's printf), the last lines, when it did not pass.
  if (result.status != stage_status::pass && result.status != stage_status::skipped) {
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      result.output.push_back(line);
    }
    if (result.output.size() > 30) result.output.erase(result.output.begin(), result.output.end() - 30);
  }
  return result;
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

void print_workbook_help() {
  std::printf(
      "\nworkbook options (besides doctest's):\n"
      "  --wb-progress              one line per stage: pass, or FAIL with the first failure and a hint;\n"
      "                             each stage runs in its own process\n"
      "  --wb-expect=pass|fail      with --wb-progress: exit 0 only if every stage passes / fails\n"
      "  --wb-only=ID[,ID...]       with --wb-progress: only these stages (merge/2 or the suite name)\n"
      "  --wb-report                with --wb-progress: key<TAB>value lines for the wb program\n"
      "environment:\n"
      "  WB_TEST_SEED=<n>           repeat a run's random data (the seed is printed at the start)\n"
      "  WB_STAGE_TIMEOUT=<s>       --wb-progress: kill a stage when one test case runs s seconds (default 120)\n"
      "  WB_SYNC_CHECK=1            synchronise after every launch (faults name the launch)\n"
      "  WB_CPU_ORDER=in-order|reverse|shuffle[:seed]   cpu backend: thread scheduling order\n");
}

}  // namespace

int main(int argc, char** argv) {
  bool progress = false;
  std::string expect;
  std::vector<std::string> only;  // --wb-only
  bool machine = false;           // --wb-report
  std::vector<std::string> args;
  bool query = false;
  bool help = false;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i > 0 && arg == "--wb-progress") {
      progress = true;
    } else if (i > 0 && arg.rfind("--wb-expect", 0) == 0) {
      if (arg.rfind("--wb-expect=", 0) == 0) {
        expect = arg.substr(std::strlen("--wb-expect="));
      } else if (arg == "--wb-expect" && i + 1 < argc) {
        expect = argv[++i];
      } else {
        wb::testing::usage_exit("--wb-expect needs a value: pass or fail");
      }
      if (expect != "pass" && expect != "fail") {
        wb::testing::usage_exit(fmt::format("--wb-expect must be pass or fail, not '{}'", expect));
      }
    } else if (i > 0 && arg.rfind("--wb-only", 0) == 0) {
      std::string list;
      if (arg.rfind("--wb-only=", 0) == 0) {
        list = arg.substr(std::strlen("--wb-only="));
      } else if (arg == "--wb-only" && i + 1 < argc) {
        list = argv[++i];
      } else {
        wb::testing::usage_exit("--wb-only needs a stage, e.g. --wb-only=merge/2");
      }
      std::stringstream names(list);
      for (std::string name; std::getline(names, name, ',');) {
        if (!name.empty()) only.push_back(name);
      }
      if (only.empty()) wb::testing::usage_exit("--wb-only needs a stage, e.g. --wb-only=merge/2");
    } else if (i > 0 && arg == "--wb-report") {
      machine = true;
    } else if (i > 0 && arg.rfind("--wb-", 0) == 0) {
      wb::testing::usage_exit(fmt::format(
          "unknown option '{}' (workbook options: --wb-progress, --wb-expect=pass|fail, --wb-only=ID, --wb-report)", arg));
    } else {
      if (i > 0 && is_query_flag(arg)) query = true;
      if (i > 0 && (arg == "-h" || arg == "--help" || arg == "-?" || arg == "--dt-help")) help = true;
      args.push_back(arg);
    }
  }
  if (!expect.empty() && !progress) wb::testing::usage_exit("--wb-expect only makes sense with --wb-progress");
  if (!only.empty() && !progress) wb::testing::usage_exit("--wb-only only makes sense with --wb-progress");
  if (machine && !progress) wb::testing::usage_exit("--wb-report only makes sense with --wb-progress");
  if (progress && args.size() > 1) {
    wb::testing::usage_exit(fmt::format("--wb-progress runs whole stages and takes no doctest options (got '{}')", args[1]));
  }

#if defined(WB_BACKEND_CPU)
  // Checks run with the emulator's race check (common/CPU-BACKEND.md) unless WB_CPU_RACECHECK
  // says otherwise: a race fails its test case, whatever the scheduling order.
  if (std::getenv("WB_CPU_RACECHECK") == nullptr) wb::cpu::set_race_check(true);
#endif

  std::string program = argc > 0 ? argv[0] : "tests";
  if (const auto slash = program.rfind('/'); slash != std::string::npos) program = program.substr(slash + 1);

  if (progress) {
    // The parent only forks and reads pipes: it must not touch CUDA (a CUDA context does not
    // survive fork), so no device query happens here.
    if (machine) {
      std::printf("seed\t%llu\n", static_cast<unsigned long long>(wb::testing::run_seed()));
    } else {
      print_seed();
    }
    return run_progress(args, expect, program, only, machine);
  }

  if (machine_readable_stdout(args)) g_chatter = stderr;
  if (!query) {
    print_seed();
    std::fprintf(g_chatter, "%s\n", wb::device_description().c_str());
    std::fflush(g_chatter);
  }
  const doctest_result result = run_doctest(args, nullptr, false);
  if (result.query_only || query) {
    if (help) print_workbook_help();
    return result.rc;
  }
  std::fflush(stdout);
  for (const auto& name : g_record.skipped_gpu) std::fprintf(g_chatter, "skipped (needs a GPU): %s\n", name.c_str());
  print_summary(g_record.passed, g_record.failed, static_cast<int>(g_record.skipped_gpu.size()));
  return (result.rc != 0 || g_record.failed > 0) ? 1 : 0;
}
