// What the matmul checks share: the inputs of a case, a runner that puts it on the device
// (outputs poisoned), runs one stage of this build's track and brings C back, the checks against
// the double-precision reference (error bound) and the exact product, the runner of the
// defective variants, and problems past 2^31 elements made and checked on the device.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "wb/testing.hpp"

#include "data.hpp"
#include "matmul.hpp"

namespace matmul::testing {

namespace track = matmul::WB_TRACK;

// The poison C is filled with before a stage runs: 0x7F7F7F7F is 3.39e38 as a float and 0x7F7F
// as a bf16, finite and far from every product in these checks, so an output nobody wrote
// fails the check whatever the exact value is (a NaN poison would pass where C should be NaN).
inline constexpr unsigned char output_poison = 0x7F;

// One case: the sizes and the values the stage multiplies (for stages 5-6 already rounded to
// bf16, so the reference multiplies the same numbers).
struct inputs {
  std::int64_t M = 0, N = 0, K = 0;
  std::vector<float> A, B;
};
inputs make_inputs(int stage, std::int64_t M, std::int64_t N, std::int64_t K, fill fa, fill fb, std::uint64_t seed);
// Rounds A and B to bf16 for stages 5-6 (after a test changed them).
void round_for_stage(int stage, inputs& in);

// Runs stage `stage` (0-6) of this build's track; C as floats (bf16 outputs widened exactly).
// A fault naming a byte of A, B or C (out of bounds, a race on global memory) says which matrix,
// row and column that byte is (elements_named).
std::vector<float> run_stage(int stage, const inputs& in, const config& cfg = {});

// A matrix on the device as a fault message meets it: a device allocation of `bytes`.
struct device_matrix {
  const char* name;  // "A", "B", "C"
  std::int64_t rows, cols;
  std::size_t element_bytes;  // 4 (float) or 2 (bf16)
  std::size_t bytes;  // the allocation (rows x cols elements, or more: run_defective's padding)
  bool written;  // the kernel stores into it (C); it only loads A and B
  std::string note;  // what follows the matrix in the allocation, if anything
};
// A, B and C of the case, of elements of element_bytes.
std::vector<device_matrix> problem_matrices(const inputs& in, std::size_t element_bytes);
// For a fault message naming "byte X of a Y-byte device allocation" (or "X bytes before the
// start of" one): which of `matrices` that allocation is (by its size and whether the access
// loads or stores) and which element the byte is, row and column, also past either end;
// "" when the message names no such byte or no matrix has that size.
std::string elements_named(const std::string& message, const std::vector<device_matrix>& matrices);

error_model model_for(int stage, std::int64_t K);
// The exact product rounded to the stage's output type (float, or bf16 widened to float).
float exact_output(int stage, double exact);

// The stage's C against the reference within the bound; and, when `exact`, equal to the exact
// product rounded once to the output type (small-integer inputs: every sum exact in fp32).
void check_case(int stage, const inputs& in, const config& cfg, bool exact, const std::string& what);
// The same check of a C computed elsewhere (the library), with stage `stage`'s types and bound.
void check_output(int stage, const inputs& in, const std::vector<float>& C, bool exact, const std::string& what);

#if defined(WB_HAVE_BASELINE)
// The library's C for the inputs of stage `stage`: cublasSgemm for stages 0-4 (fp32),
// cublasGemmEx with bf16 A, B, C for stages 5-6 (cuda backend only).
std::vector<float> run_library(int stage, const inputs& in);
#endif

struct shape {
  std::int64_t M, N, K;
};
// Every size of `sizes` as M (with N = K = other), as N and as K, plus the diagonal (s, s, s).
std::vector<shape> boundary_shapes(std::initializer_list<std::int64_t> sizes, std::int64_t other);
// For each shape: uniform inputs (the bound) and small integers (exact).
void check_shapes(int stage, const config& cfg, const std::vector<shape>& shapes, std::uint64_t seed);
// A NaN in one row of A and an infinity in another reach exactly their rows of C.
void check_nan_and_inf_rows(int stage, const config& cfg, std::uint64_t seed);
// Rows of A whose products overflow the output type: C's row is +infinity (the sums of
// 1.5 x 2^127 terms), another -infinity, the others finite and within the bound; exact.
void check_overflow_rows(int stage, const config& cfg);
// All-zero A, identity A (C = B's first rows), K = 0 (C = 0), extreme magnitudes, K past 2^16,
// M or N = 0.
void check_special_matrices(int stage, const config& cfg, std::uint64_t seed);
// K = 0 (no term: C is all zero, every element written) at shapes of one element, of one
// block's tile and of several blocks, odd and even.
void check_zero_k(int stage, const config& cfg, std::uint64_t seed);

// The defective variant's (defective_variants.hpp) C for the case (poisoned first), with A and B followed by a row of
// 1000s: a kernel that reads past a matrix reads those, not memory it does not own.
std::vector<float> run_defective(const inputs& in, const std::function<void(const float*, const float*, float*)>& run);
// Is C the product of the case's fp32 inputs within the bound?
bool right(const inputs& in, const std::vector<float>& C);
// Runs a check under each fixed cpu-emulator scheduling order (on a GPU once): wb/testing.hpp.
using wb::testing::under_fixed_orders;

// Problems past 2^31 elements (64-bit indices) for the [large] checks of stages 4-6
// (test_support_large.cu): runs `stage(problem)` on M x K times K x N small-integer matrices of
// T (float or bf16) made on the device from a hash of the index (every sum exact in fp32); ""
// when C is the product computed on the device in double precision and rounded once to T, else
// the first wrong element.
template <class T>
std::string check_large(std::int64_t M, std::int64_t N, std::int64_t K,
                        const std::function<void(const problem<T>&)>& stage);

}  // namespace matmul::testing
