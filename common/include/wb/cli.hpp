// Command-line handling shared by the chapter executables (CLI11).
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace wb {

// Bad input from the user: printed as "error: <message>" and exit status 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct common_options {
  std::uint64_t seed = 42;
  int reps = 20;                      // timed repetitions (median reported)
  std::vector<std::string> stages;    // --stage a,b (ids or numbers); empty: all
  std::string track = "solution";     // --track solution|exercise
  bool compare = false;               // --compare: learner's stage vs the solution's
  bool print = false;                 // --print: each stage's output on one line
  std::string csv;                    // --csv FILE
  std::string json;                   // --json FILE
};

// Adds --seed --reps --stage --track --compare --print --csv --json.
void add_common_options(CLI::App& app, common_options& options);

// Runs a chapter's main body with uniform error handling:
//   CLI11 parse errors and wb::usage_error -> message, exit 2;
//   wb::cuda_error and other exceptions    -> message, exit 1.
int run_main(CLI::App& app, int argc, char** argv, const std::function<int()>& body);

// Refuses (wb::usage_error) a run that needs more device or host memory than there is.
void require_memory(std::uint64_t device_bytes, std::uint64_t host_bytes, const std::string& what);

// "1,3,5" -> {1,3,5}; a malformed or out-of-range number is a usage_error naming it.
template <class T>
std::vector<T> parse_list(const std::string& text, const std::string& what);
// Whitespace-separated numbers from a file; a missing file or bad number is a usage_error.
template <class T>
std::vector<T> read_numbers_file(const std::string& path);

// Does `stage` (e.g. "2", "basic", "2-basic") select the stage with this id and number?
bool stage_selected(const std::vector<std::string>& selection, int number, const std::string& id);

}  // namespace wb
