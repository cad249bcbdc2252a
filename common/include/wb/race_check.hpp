// Tests and the cpu backend's race check (common/CPU-BACKEND.md). The test binaries turn the
// check on: a launch whose threads race fails with "data race on ... memory: ..." naming both
// accesses. A test of a deliberately racy variant asks race_reported(); on the cuda backend
// (compute-sanitizer's racecheck finds races there) it runs the variant and returns false.
#pragma once

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#if defined(WB_BACKEND_CPU)
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <doctest/doctest.h>

#include "wb/runtime.hpp"

namespace wb::testing {

inline bool is_race_report(const std::exception& e) { return std::strstr(e.what(), "data race on ") != nullptr; }

// Runs f; true when it failed with a race report (the report in *message). Other failures
// propagate.
template <class F>
bool race_reported(F&& f, std::string* message = nullptr) {
  try {
    f();
  } catch (const std::exception& e) {
    if (!is_race_report(e)) throw;
    if (message != nullptr) *message = e.what();
    return true;
  }
  return false;
}

// Whether launches here are race-checked: the cpu backend, the check on, one host thread.
inline bool race_check_active() {
#if defined(WB_BACKEND_CPU)
  return wb::cpu::race_check() && wb::cpu::current_options().host_threads == 1;
#else
  return false;
#endif
}

// Turns the race check off for its scope and back to what it was after: for checks of the
// arithmetic on large inputs, where following every shared-memory access would take minutes
// and small inputs of the same kernel already face the check. No-op on the cuda backend.
class race_check_paused {
 public:
#if defined(WB_BACKEND_CPU)
  race_check_paused() : was_on_(wb::cpu::race_check()) { wb::cpu::set_race_check(false); }
  ~race_check_paused() { wb::cpu::set_race_check(was_on_); }
#else
  race_check_paused() = default;
#endif
  race_check_paused(const race_check_paused&) = delete;
  race_check_paused& operator=(const race_check_paused&) = delete;

 private:
#if defined(WB_BACKEND_CPU)
  bool was_on_;
#endif
};

// What a run of a stage did: "" when its output was right, else "wrong output: <what run()
// says>", "race reported: <the report>" or "failed: <error>". run() launches the stage and
// returns whether its output is right (a bool), or what is wrong with it ("" when right).
template <class Run>
std::string variant_outcome(Run&& run) {
  try {
    const auto result = run();
    if constexpr (std::is_same_v<std::decay_t<decltype(result)>, bool>) {
      return result ? std::string() : std::string("wrong output");
    } else {
      return std::string(result).empty() ? std::string() : "wrong output: " + std::string(result);
    }
  } catch (const std::exception& e) {
    return (is_race_report(e) ? "race reported: " : "failed: ") + std::string(e.what());
  }
}

#if defined(WB_BACKEND_CPU)
// Runs run() under a test mutation of the emulator (wb::cpu::set_mutation), in a child process:
// a racy variant keeps running until its threads' next barrier, and what it computes from the
// values it raced for (an index, say) may crash it or keep it waiting; a crash, or no end after
// 30 s, counts as caught too.
template <class Run>
std::string outcome_under(const wb::cpu::mutation& m, Run&& run) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) return "failed: could not fork";
  if (pid == 0) {
    const int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) {
      dup2(null_fd, STDOUT_FILENO);
      dup2(null_fd, STDERR_FILENO);
    }
    // A crash ends the child quietly: the test framework's handlers would report it as the
    // test binary's own crash (to wb's report, which the child shares).
    for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT}) std::signal(sig, SIG_DFL);
    alarm(30);
    wb::cpu::set_mutation(m);
    const std::string outcome = variant_outcome(run);
    _exit(outcome.empty() ? 0 : outcome.rfind("race reported", 0) == 0 ? 2 : outcome.rfind("wrong output", 0) == 0 ? 3 : 4);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return "failed: lost the child process";
  }
  if (WIFSIGNALED(status)) return std::string("failed: ") + (WTERMSIG(status) == SIGALRM ? "still running after 30 s" : "crashed");
  switch (WEXITSTATUS(status)) {
    case 0: return "";
    case 2: return "race reported";
    case 3: return "wrong output";
    default: return "failed: another launch error";
  }
}

// The racy variants a learner writes by leaving a barrier out: run() once to find the
// __syncthreads() and __syncwarp() calls the stage reaches, then once without each. Returns
// each call site with what its removal did ("race reported", "wrong output", ...; "" when
// nothing noticed: no two threads meet there on this input, so that barrier only guards a
// reuse the same thread makes, or a caller that is not there).
template <class Run>
std::vector<std::pair<std::string, std::string>> barrier_removals(Run&& run) {
  wb::cpu::clear_sync_sites();
  const std::string plain = variant_outcome(run);
  const std::vector<std::string> sites = wb::cpu::sync_sites();
  if (!plain.empty()) return {{"(the stage itself)", plain}};
  std::vector<std::pair<std::string, std::string>> outcomes;
  for (const auto& site : sites) {
    wb::cpu::mutation m;
    m.skip_sync = site;
    outcomes.emplace_back(site, outcome_under(m, run));
  }
  return outcomes;
}
#endif

// The track these tests run against is the solution (its racy variants are checked), or the
// learner's exercise (whose code the same inputs check).
#if defined(WB_TRACK)
#define WB_RACE_CHECK_STR2(x) #x
#define WB_RACE_CHECK_STR(x) WB_RACE_CHECK_STR2(x)
inline constexpr bool testing_solution = std::string_view(WB_RACE_CHECK_STR(WB_TRACK)) == "solution";
#undef WB_RACE_CHECK_STR
#undef WB_RACE_CHECK_STR2
#endif

// A stage whose lesson is a race (a barrier, an atomic, a flag): `run` launches this track's
// stage on an input that exercises the race and says whether its output is right. The stage
// must be right under the race check (a learner's racy version is reported here, by name);
// against the solution, the racy variants a learner writes are made from the solution's own
// code by the emulator, and each must be caught: every __syncthreads() or __syncwarp() left
// out in turn (barriers), atomics as plain read-modify-writes (atomics), __threadfence() left
// out (fences).
struct race_lesson {
  bool barriers = true;
  bool atomics = false;
  bool fences = false;
};

template <class Run>
void check_race_lesson(Run&& run, const race_lesson& lesson) {
  const std::string plain = variant_outcome(run);
  CHECK_MESSAGE(plain.empty(), plain);
  if (!plain.empty()) return;
#if defined(WB_BACKEND_CPU) && defined(WB_TRACK)
  if (!testing_solution || !race_check_active()) return;
  if (lesson.barriers) {
    // Every barrier whose absence lets two threads meet is caught; a barrier whose absence
    // nothing notices guards no meeting of two threads on this input (the same thread reuses
    // the memory, or a caller that is not there): named, not counted against the check.
    int caught = 0;
    std::string unnoticed;
    for (const auto& [site, outcome] : barrier_removals(run)) {
      if (outcome.empty()) {
        unnoticed += (unnoticed.empty() ? "" : ", ") + site;
      } else {
        ++caught;
      }
    }
    CHECK_MESSAGE(caught > 0, "no barrier of the solution is caught when left out");
    if (!unnoticed.empty()) MESSAGE("barriers no two threads needed on this input: " << unnoticed);
  }
  if (lesson.atomics) {
    wb::cpu::mutation m;
    m.plain_atomics = true;
    CHECK_MESSAGE(!outcome_under(m, run).empty(), "the solution with plain read-modify-writes for atomics passed");
  }
  if (lesson.fences) {
    wb::cpu::mutation m;
    m.no_fences = true;
    CHECK_MESSAGE(!outcome_under(m, run).empty(), "the solution without its __threadfence() passed");
  }
#endif
}

}  // namespace wb::testing
