// The chapter's inputs and its reference: seeded generators for A and B, and the exact
// product in double precision with the sums of |terms| the error bound needs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "error_bound.hpp"
#include "matmul.hpp"

namespace matmul {

enum class fill {
  uniform,  // uniform in [-1, 1)
  small_integers,  // integers in [-2, 2]: every product and sum exact in fp32 (and bf16 for |C| <= 256)
  extremes,  // +-2^e, e uniform in [-60, 60]: products from 2^-120 to 2^120, no overflow
  zeros,
  identity,  // 1 on the diagonal, 0 elsewhere (any shape)
};

// A rows x cols matrix, row-major, from a seed and a salt (A and B of one seed differ).
std::vector<float> generate(std::int64_t rows, std::int64_t cols, fill f, std::uint64_t seed, std::uint64_t salt);
// The name of a fill, and back (std::nullopt style: false when unknown).
const char* fill_name(fill f);
bool parse_fill(const std::string& name, fill& out);

// fp32 -> bf16, element by element (round to nearest, ties to even).
std::vector<bf16> to_bf16(std::span<const float> values);
std::vector<float> to_float(std::span<const bf16> values);

// The exact product of the given (already rounded) inputs, in double precision: C[i][j] and
// abs_sum[i][j] = sum_k |A[i][k]| |B[k][j]|, each summed in k order.
struct reference_product {
  std::int64_t M = 0, N = 0, K = 0;
  std::vector<double> C;
  std::vector<double> abs_sum;
};
reference_product reference_host(std::span<const float> A, std::span<const float> B, std::int64_t M, std::int64_t N,
                                 std::int64_t K);

// The first element of `C` (M x N, row-major) that breaks the bound; "" when none does.
// `what` names the output in the message ("stage 4", "cublasSgemm").
std::string first_wrong(std::span<const float> C, const reference_product& ref, const error_model& model,
                        const std::string& what);
// How many elements break it.
std::int64_t count_wrong(std::span<const float> C, const reference_product& ref, const error_model& model);

}  // namespace matmul
