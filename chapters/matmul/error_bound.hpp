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
// that skips non-finite values would pass a kernel that drops a row. A finite exact product
// beyond the output type's range overflows: rounded to fp32 (or bf16) it is an infinity, and
// so is a right kernel's C there. The infinity of the exact value's sign is right wherever the
// exact value, moved by the bound towards it, reaches the overflow threshold (the smallest
// magnitude that rounds to infinity); no other infinity, and no NaN, is.
#pragma once

#include <cmath>
#include <cstdint>

#include "wb/runtime.hpp"

namespace matmul {

// The smallest magnitudes that round to infinity (round to nearest, ties to even: the largest
// finite value's significand is odd, so halfway above it rounds up): fp32's largest finite
// value (2 - 2^-23) 2^127 plus half a unit in its last place, and bf16's (2 - 2^-7) 2^127 plus
// half of its.
inline constexpr double fp32_overflow = 0x1.ffffffp127;
inline constexpr double bf16_overflow = 0x1.ffp127;

struct error_model {
  double sum = 0;  // multiplies sum_k |A[i][k]| |B[k][j]|
  double output = 0;  // multiplies |C[i][j]| (the final rounding to the output type)
  double overflow = fp32_overflow;  // the output type's overflow threshold (above)
};

__host__ __device__ inline double gamma_k(std::int64_t K, double u) {
  const double ku = static_cast<double>(K) * u;
  return ku < 1 ? ku / (1 - ku) : INFINITY;
}

inline error_model fp32_error_model(std::int64_t K) {
  return {gamma_k(K, 0x1p-24) + gamma_k(K, 0x1p-53), 0, fp32_overflow};
}
inline error_model bf16_error_model(std::int64_t K) {
  return {(gamma_k(K, 0x1p-22) + gamma_k(K, 0x1p-53)) * (1 + 0x1p-8), 0x1p-8, bf16_overflow};
}
// Every sum exact (small integers, zeros, an identity): C is the exact product rounded once to
// the output type (for bf16 at most 2^-8 |C| away).
inline error_model exact_error_model(bool bf16_output) {
  return bf16_output ? error_model{0, 0x1p-8, bf16_overflow} : error_model{0, 0, fp32_overflow};
}

__host__ __device__ inline double error_bound(const error_model& m, double exact, double abs_sum) {
  return m.sum * abs_sum + m.output * std::fabs(exact);
}

// Is `got` a right value of an element whose exact value is `exact` (sum of |terms| abs_sum)?
__host__ __device__ inline bool element_ok(double got, double exact, double abs_sum, const error_model& m) {
  if (std::isnan(exact)) return std::isnan(got);
  if (std::isinf(exact)) return got == exact;
  if (std::isnan(got)) return false;
  const double bound = error_bound(m, exact, abs_sum);
  if (std::isinf(got)) {  // overflow: right only where the exact value within the bound rounds to it
    return (got > 0 ? exact + bound : bound - exact) >= m.overflow;
  }
  return std::fabs(got - exact) <= bound;
}

}  // namespace matmul
