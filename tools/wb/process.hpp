// Running other programs from wb: the build, the exercise tests, git, the chapter executable.
#pragma once

#include <string>
#include <vector>

namespace wbtool {

struct process_result {
  int status = -1;     // the exit status; 128 + N when killed by signal N; -1 when it could not start
  std::string output;  // stdout and stderr together
};

// Runs argv[0] (found on PATH) with stdout and stderr captured; stdin is /dev/null.
process_result run_captured(const std::vector<std::string>& argv);

// Runs argv[0] (found on PATH) with wb's own stdin, stdout and stderr; returns its exit status
// (128 + N when killed by signal N; -1 when it could not start).
int run_inherited(const std::vector<std::string>& argv);

// Replaces wb with argv[0] (the chapter executable): its output and exit status are the user's.
[[noreturn]] void exec_program(const std::vector<std::string>& argv);

// A program's output without its trailing line breaks and spaces.
std::string trim(std::string s);

}  // namespace wbtool
