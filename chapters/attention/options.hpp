// The attention executable's command line (main.cpp) and the problem it builds from it
// (input.cpp): shared by main.cpp, attention_chapter.hpp and trace.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wb/arguments.hpp"

#include "attention.hpp"

namespace attention {

struct options {
  wb::common_options common;
  std::int64_t batch = -1, heads = -1, seq = -1, kv_seq = -1, dim = -1;  // -1: the default
  bool causal = false;
  std::string type;  // "fp32", "bf16", or "" (stages 0-3 fp32; stage 6 both)
  std::string q_list, k_list, v_list, q_file, k_file, v_file;
  bool q_given = false, k_given = false, v_given = false;  // as a list or a file
  bool q_from_file = false, k_from_file = false, v_from_file = false;
  std::int64_t chunk = 0;  // stage 6: keys per split (0: its plan)
  double peak_fp32 = 67;   // TFLOP/s, H100 and H200 SXM without tensor cores
  bool trace = false;
  std::string svg;  // --svg FILE (with --trace): the tiling and the online softmax as a picture
};

// Which stages run: the prefill stages (0-3, TFLOP/s) and the decoding stage (6, GB/s).
struct stage_selection {
  bool prefill = false, decode = false;
};
stage_selection select_stages(const options& opt);

// Q, K and V as floats (stage 6's bf16 rows round K and V), the shape, where they came from.
struct problem_input {
  dims d;
  std::vector<float> Q, K, V;
  std::string source;
};

// The user's Q, K, V (--q/--k/--v, --q-file/...) or generated ones (uniform in [-1, 1),
// --seed); sizes, the causal mask's kv_seq >= seq, --print and memory checked here, before any
// work (usage_error). A run of stage 6 alone defaults to decoding: seq 1 against a long cache.
problem_input make_input(const options& opt, const stage_selection& selected);

// FLOPs of one problem: 4 d per (query, key) pair a query sees (two multiply-adds, Q K^T and
// P V): 4 b h seq kv_seq d, about half of it with the causal mask.
double attention_flops(const dims& d);
// Bytes of K and V (what stage 6 must read).
double kv_bytes(const dims& d, std::size_t element_bytes);

}  // namespace attention
