// --wb-progress: one stage's suite in a child process (so that a crash or a hang in one stage
// cannot hide the others): its report lines and output read through two pipes, killed when one
// test case runs past the limit, the outcome classified (pass, fail, crashed, hung, skipped,
// empty) with what the stage's code printed.
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "internal.hpp"

namespace wb::test_main {
namespace {

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

}  // namespace

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

  // A crash or a hang ends the case it happened in.
  if (case_open) failing.push_back(current_case);
  choose_failure_shown(result, failures, std::move(failing));

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

}  // namespace wb::test_main
