// The matmul executable's command line (main.cpp), the problem it builds from it (input.cpp)
// and the stages it selects: shared by main.cpp and trace.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wb/arguments.hpp"

namespace matmul {

struct options {
  wb::common_options common;
  std::int64_t m = -1, n = -1, k = -1;  // -1: the backend's default
  std::string type;  // "fp32", "bf16", or "" for the stages of both
  std::string fill = "uniform";
  std::string variant;
  bool all_variants = false;
  std::string a_list, b_list, a_file, b_file;
  bool a_given = false, b_given = false, a_from_file = false, b_from_file = false;
  bool trace = false;
  std::string svg;
  bool no_library = false;  // leave out the cuBLAS rows (compute-sanitizer runs: not our kernels)
  double peak_fp32 = 67, peak_bf16 = 989;  // H100 SXM datasheet, dense
};

// A and B (as floats; the bf16 stages round them), the sizes, and where they came from.
struct problem_input {
  std::int64_t M = 0, N = 0, K = 0;
  std::vector<float> A, B;
  std::string source;
};

// Which of the two tables run: the fp32 stages (0-4) and the bf16 stages (5-6).
struct stage_selection {
  bool fp32 = false, bf16 = false;
  std::vector<int> numbers;  // the selected stages, in order
};

// --stage, --type and --variant together; a stage named with a type it does not take, or a
// variant no selected stage has, is a usage_error.
stage_selection select_stages(const options& opt, bool type_given);
// The matrices: the user's (--a/--b, --a-file/--b-file, with --m --n --k) or generated
// (--fill, --seed); sizes, --print and memory are checked here, before any work.
problem_input make_input(const options& opt);

}  // namespace matmul
