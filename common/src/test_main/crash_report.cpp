// A crash in a test case of a plain run: named, and the cases after it run on in a new process
// (crash_report.hpp says what and why).
#include "crash_report.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "internal.hpp"

extern char** environ;

namespace wb::test_main {

void crash_report_linked() {}

namespace {

constexpr int max_restarts = 50;
constexpr std::size_t max_environment = 4096;

// Everything the handler needs, made before any crash: it only formats into these buffers and
// calls execve.
struct crash_state {
  bool installed = false;
  bool may_restart = true;       // no reporter writing to a file, no other format on stdout
  std::vector<std::string> args;  // the command line, from /proc/self/cmdline
  std::vector<char*> argv;        // args, then the --dt-first argument, then nullptr
  long first = 1;                 // the first case this process runs (doctest's --first, at least 1)
  int restarts = 0;               // how many processes crashed before this one
  unsigned long long seed = 0;
  sigset_t mask;  // the signal mask of the run: the new process starts with it (not with the handler's)
  char* envp[max_environment + 3] = {};
  char first_arg[64] = {};
  char seed_env[64] = {};
  char carry_env[96] = {};
  // the test case running now
  char case_name[512] = {};
  bool case_open = false;
  bool case_crashed = false;  // doctest reported a crash in it (its test_case_end came after)
  long started = 0;           // cases started in this process
};
crash_state g_crash;

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV, a segmentation fault";
    case SIGBUS: return "SIGBUS, a bus error";
    case SIGFPE: return "SIGFPE, an arithmetic fault";
    case SIGILL: return "SIGILL, an illegal instruction";
    case SIGABRT: return "SIGABRT, an abort";
    default: return "a signal";
  }
}

void write_line(const char* text) {
  std::size_t left = std::strlen(text);
  while (left > 0) {
    const ssize_t n = ::write(STDERR_FILENO, text, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text += n;
    left -= static_cast<std::size_t>(n);
  }
}

// A doctest option's value as doctest reads it: the last argument "-[-][dt-]name=value".
bool option_value(const std::vector<std::string>& args, const char* name, const char* short_name, std::string* value) {
  for (auto it = args.rbegin(); it != args.rend() && std::next(it) != args.rend(); ++it) {
    std::string a = *it;
    if (a.empty() || a.front() != '-') continue;
    while (!a.empty() && a.front() == '-') a.erase(a.begin());
    if (a.rfind("dt-", 0) == 0) a = a.substr(3);
    const auto eq = a.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = a.substr(0, eq);
    if (key == name || key == short_name) {
      *value = a.substr(eq + 1);
      return true;
    }
  }
  return false;
}

void handle_crash(int sig) {
  crash_state& s = g_crash;
  const bool in_case = s.case_open || s.case_crashed;
  // doctest counted the case as failed when it reported the crash; a signal it does not
  // handle (SIGBUS) ended the case without that.
  const int failed = g_record.failed + (s.case_open && !s.case_crashed ? 1 : 0);
  const long next = s.first + s.started;
  std::snprintf(s.first_arg, sizeof s.first_arg, "--dt-first=%ld", next);
  const bool restart = in_case && s.may_restart && s.restarts < max_restarts && !s.argv.empty();
  std::fflush(stdout);
  std::cout.flush();
  if (!in_case) {
    write_line("crashed (");
    write_line(signal_name(sig));
    write_line(") outside any test case\n");
  } else {
    write_line("crashed: test case \"");
    write_line(s.case_name);
    write_line("\" (");
    write_line(signal_name(sig));
    write_line(restart ? "); the test cases after it run on in a new process ("
                       : "); the test cases after it did not run (run them with ");
    write_line(s.first_arg);
    write_line(restart ? ")\n" : ", or stage by stage with --wb-progress)\n");
  }
  if (restart) {
    std::snprintf(s.seed_env, sizeof s.seed_env, "WB_TEST_SEED=%llu", s.seed);
    std::snprintf(s.carry_env, sizeof s.carry_env, "WB_TEST_CARRY=%d,%d,%d", g_record.passed, failed, s.restarts + 1);
    std::size_t n = 0;
    for (char** e = environ; e != nullptr && *e != nullptr && n < max_environment; ++e) {
      if (std::strncmp(*e, "WB_TEST_SEED=", 13) == 0 || std::strncmp(*e, "WB_TEST_CARRY=", 14) == 0) continue;
      s.envp[n++] = *e;
    }
    s.envp[n++] = s.seed_env;
    s.envp[n++] = s.carry_env;
    s.envp[n] = nullptr;
    sigprocmask(SIG_SETMASK, &s.mask, nullptr);  // execve keeps the mask; the handler's blocks `sig`
    execve("/proc/self/exe", s.argv.data(), s.envp);
    write_line("(could not start the new process)\n");
  }
  // As before: the signal ends the process.
  signal(sig, SIG_DFL);
  raise(sig);
}

void install() {
  crash_state& s = g_crash;
  if (s.installed) return;
  s.installed = true;
  // The command line, as it was given.
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
  for (std::size_t at = 0; at < all.size();) {
    const std::size_t end = all.find('\0', at);
    s.args.push_back(all.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  std::string value;
  if (option_value(s.args, "first", "f", &value)) s.first = std::max(1L, std::strtol(value.c_str(), nullptr, 10));
  // A second process would write a second document, or overwrite the file.
  if (option_value(s.args, "out", "o", &value)) s.may_restart = false;
  if (option_value(s.args, "reporters", "r", &value) && value != "console") s.may_restart = false;
  for (auto& a : s.args) s.argv.push_back(a.data());
  if (!s.argv.empty()) {
    s.argv.push_back(s.first_arg);
    s.argv.push_back(nullptr);
  }
  s.seed = static_cast<unsigned long long>(wb::testing::run_seed());
  // The counts of the processes that crashed before this one.
  if (const char* carry = std::getenv("WB_TEST_CARRY")) {
    int passed = 0, failed = 0, restarts = 0;
    if (std::sscanf(carry, "%d,%d,%d", &passed, &failed, &restarts) == 3) {
      g_record.passed += passed;
      g_record.failed += failed;
      s.restarts = restarts;
    }
    unsetenv("WB_TEST_CARRY");  // not for the processes the tests start
  }
  // A stack of its own, so that a stack overflow outside doctest's handling is reported too.
  static std::vector<char> alternate(std::max<std::size_t>(65536, SIGSTKSZ));
  stack_t stack = {};
  stack.ss_sp = alternate.data();
  stack.ss_size = alternate.size();
  sigaltstack(&stack, nullptr);
  sigprocmask(SIG_BLOCK, nullptr, &s.mask);
  struct sigaction sa = {};
  sa.sa_handler = handle_crash;
  sa.sa_flags = SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

struct crash_listener : doctest::IReporter {
  explicit crash_listener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  // Called at the start of a run that runs cases (never for a listing); a --wb-progress child
  // reports its crash to its parent instead.
  void test_run_start() override {
    if (g_record.report_fd < 0) install();
  }
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData& tc) override {
    std::snprintf(g_crash.case_name, sizeof g_crash.case_name, "%s", tc.m_name);
    g_crash.case_open = true;
    g_crash.case_crashed = false;
    ++g_crash.started;
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override { g_crash.case_open = false; }
  void test_case_exception(const doctest::TestCaseException& e) override {
    if (e.is_crash) g_crash.case_crashed = true;
  }
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
DOCTEST_REGISTER_LISTENER("wb_crash_report", 2, crash_listener);

}  // namespace

}  // namespace wb::test_main
