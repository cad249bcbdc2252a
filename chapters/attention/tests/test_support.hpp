// What the attention checks share: the inputs of a case, an independent double-precision
// reference with the error bound of every element (written here, not the stage-0 code), a
// runner that puts a case on the device (O poisoned), runs one stage of this build's track and
// brings O back, the checks, and the runner of the defective variants.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "wb/testing.hpp"

#include "attention.hpp"
#include "launch_shapes.hpp"

namespace attention::testing {

namespace track = attention::WB_TRACK;

// 0x7F7F7F7F is 3.39e38 as a float: an output nobody wrote fails the bound whatever the exact
// value is (a NaN poison would pass where O should be NaN).
inline constexpr unsigned char output_poison = 0x7F;

enum class fill {
  uniform,  // Q, K, V uniform in [-1, 1)
  large,    // Q and K uniform in [-12, 12), and the last key of each head a copy of its first
            // query: scores far past 88.7, where exp overflows fp32 (AT1)
  equal,    // Q = 0: every score 0, uniform weights, O the mean of the value rows seen
};

// One case: the shape and the values the stage reads (K and V already rounded to bf16 when
// `half`: the rounded values are the problem, for the reference too). `tensor_cores`: the bound
// is stage 4's (bf16 Q and P, the tensor cores' sums; error_bound.hpp).
struct inputs {
  dims d;
  std::vector<float> Q, K, V;
  bool half = false;
  bool tensor_cores = false;
};
inputs make_inputs(const dims& d, std::uint64_t seed, fill f = fill::uniform, bool half = false);
// The inputs of a case for `stage`: stage 4's are bf16 K and V with its bound, the others' as
// make_inputs makes them.
inputs stage_inputs(int stage, const dims& d, std::uint64_t seed, fill f = fill::uniform);
// A d the stage takes near `dim`: stage 4 takes 16, 32, 64 and 128 (the next of them), the
// others any.
std::int64_t stage_dim(int stage, std::int64_t dim);
// "batch 1, heads 2, seq 33, kv_seq 65, d 16, causal"
std::string describe(const dims& d);

// The exact O of a case (double precision, every row) and the bound of every element.
struct exact_output {
  std::vector<double> O, bound;
};
exact_output exact(const inputs& in);

// Runs stage 0, 1, 2, 3, 4 or 6 of this build's track on the case; O as floats (stage 4 and
// stage 6 with `half` read K and V as bf16).
std::vector<float> run_stage(int stage, const inputs& in, const decode_config& cfg = {});

// "" when O is the exact output within the bound everywhere (NaN exactly where it is NaN);
// else the first wrong element, how many, and whether it still holds the poison.
std::string first_wrong(const inputs& in, const std::vector<float>& O);
bool right(const inputs& in, const std::vector<float>& O);

// The stage on the case, REQUIREd right (the case described in the failure).
void check_case(int stage, const inputs& in, const std::string& what, const decode_config& cfg = {});
// Every shape, uniform inputs; causal too where kv_seq >= seq. Small problems face the race
// check; larger ones (many shared-memory accesses) run with it paused.
void check_shapes(int stage, const std::vector<dims>& shapes, std::uint64_t seed, const decode_config& cfg = {});
// seq x kv_seq over every pair of `sizes` (kv_seq >= seq for the causal ones), at d.
std::vector<dims> pairs(std::initializer_list<std::int64_t> sizes, std::int64_t dim, std::int64_t heads = 1);

// Scores past 88.7 (fill::large): a stable softmax passes, at every d given.
void check_large_scores(int stage, std::uint64_t seed, const decode_config& cfg = {});
// Q = 0: uniform weights, O = the mean of the value rows each query sees.
void check_equal_scores(int stage, std::uint64_t seed, const decode_config& cfg = {});
// A NaN in V (key j, column c) reaches exactly the outputs (query, column c) whose query sees
// key j, with and without the causal mask. Stage 4 with the mask: the outputs whose query sees
// it, and may reach the others of a block that loads its tile (P V on the tensor cores
// multiplies a masked key's V by p = 0, and 0 * NaN is NaN); the blocks that skip its tile stay
// finite.
void check_nan_in_v(int stage, std::uint64_t seed, const decode_config& cfg = {});
// Batch or heads or seq 0 (nothing to do, nothing written); causal with kv_seq < seq refused.
void check_empty_and_refused(int stage);

// Problems past 2^31 elements (the [large] checks, on a GPU; test_support_large.cu): Q, K and V
// made on the device from a hash of the index (K and V in bf16 when `half`), the stage run, O
// checked at sampled rows (the first, the last, those around element 2^31 of Q and of K) against
// the reference of that row alone. "" when right, else the first wrong element.
std::string check_large(int stage, const dims& d, bool half = false);

// The defective variant's O (defective_variants.hpp) for the case, poisoned first.
std::vector<float> run_defective(const inputs& in, const std::function<void(const problem<float>&)>& run);
// The same for a variant that reads K and V as bf16 (stage 4's).
std::vector<float> run_defective_bf16(const inputs& in, const std::function<void(const problem<bf16>&)>& run);
// Runs a check under each fixed cpu-emulator scheduling order (on a GPU once): wb/testing.hpp.
using wb::testing::under_fixed_orders;

}  // namespace attention::testing
