// How far a computed product may be from the exact one (the README's "How right is right"),
// and the test of one element against it. Host and device code: the checks run on the host,
// and on the device for matrices too large to copy back.
//
// Each element of C is a dot product of K terms. Added in floating point with unit roundoff u,
// in ANY order, with or without fused multiply-adds, its error is at most
//     gamma_K(u) * sum_k |A[i][k]| |B[k][j]|,   gamma_K(u) = K u / (1 - K u)
// (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §3.1). So:
//   fp32 stages (0-4): u = 2^-24 for the fp32 sums;
//   bf16 stages (5-6): the bf16 inputs are the problem (the reference multiplies the same
//     rounded values); their products are exact in fp32; the tensor cores add them in fp32
//     but in an order and with a rounding of their own (not IEEE round-to-nearest: they align
//     a block of products to the largest and truncate), which is covered by taking u = 2^-22
//     (two units of the last place more than round-to-nearest); C is then rounded once to
//     bf16, which adds 2^-8 |C| (bf16's unit roundoff) and 2^-8 of the sum's own error.
// The reference is itself a double-precision sum of the same products: gamma_K(2^-53) more.
// A NaN or infinity in the exact product must come out as the same NaN or infinity: a check
// that skips non-finite values would pass a kernel that drops a row.
#pragma once

#include <cmath>
#include <cstdint>

#include "wb/runtime.hpp"

namespace matmul {

struct error_model {
  double sum = 0;  // multiplies sum_k |A[i][k]| |B[k][j]|
  double output = 0;  // multiplies |C[i][j]| (the final rounding to the output type)
};

__host__ __device__ inline double gamma_k(std::int64_t K, double u) {
  const double ku = static_cast<double>(K) * u;
  return ku < 1 ? ku / (1 - ku) : INFINITY;
}

inline error_model fp32_error_model(std::int64_t K) {
  return {gamma_k(K, 0x1p-24) + gamma_k(K, 0x1p-53), 0};
}
inline error_model bf16_error_model(std::int64_t K) {
  return {(gamma_k(K, 0x1p-22) + gamma_k(K, 0x1p-53)) * (1 + 0x1p-8), 0x1p-8};
}

__host__ __device__ inline double error_bound(const error_model& m, double exact, double abs_sum) {
  return m.sum * abs_sum + m.output * std::fabs(exact);
}

// Is `got` a right value of an element whose exact value is `exact` (sum of |terms| abs_sum)?
__host__ __device__ inline bool element_ok(double got, double exact, double abs_sum, const error_model& m) {
  if (std::isnan(exact)) return std::isnan(got);
  if (std::isinf(exact)) return got == exact;
  if (!std::isfinite(got)) return false;
  return std::fabs(got - exact) <= error_bound(m, exact, abs_sum);
}

}  // namespace matmul
