// How far a computed output may be from the exact one (the README's "How right is right"), and
// the test of one element against it. Host code: the checks and the executable compare on the
// host, against a double-precision reference of the same inputs (K and V already rounded to
// bf16 where the stage reads bf16: the rounded values are the problem).
//
// A row of O is a weighted mean o = sum_j w_j v_j, w_j = p_j / sum_k p_k, p_j = exp(s_j - m),
// over the n keys the row sees. In fp32 (unit roundoff u = 2^-24), in any order, tiled or not:
//
//   * each score s_j = (q . k_j) scale is off by at most gamma_{d+3}(u) A, where A is the
//     largest sum_c |q_c k_jc| scale of the row (Higham §3.1: d products and sums, the scale's
//     own rounding, q scaled once);
//   * each weight p_j then meets the rounding of s_j - m (u |s_j - m| <= u R, R the row's
//     spread of scores max - min), its exp (at most 2 ulp, CUDA's expf: 4u), and each rescale
//     by exp(m - m') of the online softmax (the difference, whose sizes add up to at most R, the
//     exp, and one multiplication of each running sum: at most 6u a rescale, n + 1 rescales at
//     most, counting the combine of stage 6's splits). A max common to every weight cancels in
//     p / sum p. So each p_j carries a relative error exp(sigma) - 1 = rho with
//         sigma = gamma_{d+3}(u) A + 2 u R + (6 n + 10) u;
//   * weights p_j (1 + rho_j), |rho_j| <= rho, give normalised weights within 2 rho / (1 - rho)
//     of w_j (relatively), which moves o_c by at most 2 rho / (1 - rho) sum_j w_j |v_jc|;
//   * the two sums of n terms (and of the splits' partials) and the division add
//     (1 + rho) / (1 - rho) (2 gamma_{2n+2}(u) + u) sum_j w_j |v_jc|;
//   * a weight below fp32's smallest normal (2^-126) may be lost: n 2^-125 max_j |v_jc| more;
//   * the reference's own error in double: 4 gamma_{n+d+8}(2^-53) sum_j w_j |v_jc|.
//
// Stage 4 (tensor cores) adds three things (tensor_cores = true), with u_b = 2^-8 the unit
// roundoff of bf16:
//   * Q is rounded to bf16 as it is loaded: each score moves by at most u_b A more;
//   * P is rounded to bf16 for P V while the sum l adds the fp32 p: one more relative error u_b
//     on each weight of the numerator (covered by sigma, as the weights' other errors);
//   * the tensor cores' own fp32 sums need not round to nearest (the PTX ISA promises no
//     order and no rounding mode): 2u for each of their additions, in the score and in P V.
// So sigma = gamma_{d+3}(2u) A + u_b A + u_b + 2 u R + (6 n + 10) u, and the sums' term
// 2 gamma_{2n+2}(2u) + u. K and V are bf16 in memory: the rounded values are the problem.
//
// The bound is reached only by adversarial rounding (real errors grow like sqrt(n)); for
// uniform inputs in [-1, 1) at n = 4096, d = 128 it is about 4e-3 of sum w |v|, while the
// pitfalls of the chapter are off by 1e-2 to infinity (README, "How right is right").
// A NaN where the exact output is NaN must come out NaN; a finite one finite and within the bound.
#pragma once

#include <cmath>
#include <cstdint>

namespace attention {

inline double gamma_n(double n, double u) {
  const double nu = n * u;
  return nu < 1 ? nu / (1 - nu) : INFINITY;
}

// What the bound of one row needs from the exact computation.
struct row_stats {
  std::int64_t keys = 0;    // n, the keys the row sees
  double abs_score = 0;     // A = max_j scale sum_c |q_c k_jc|
  double score_range = 0;   // R = max_j s_j - min_j s_j
};

// The bound's factor of sum_j w_j |v_jc| (the same for every column of the row).
// tensor_cores: stage 4's bf16 Q and P and the tensor cores' sums (above).
inline double weighted_factor(const row_stats& r, std::int64_t dim, bool tensor_cores = false) {
  const double u = 0x1p-24, u_bf16 = 0x1p-8;
  const double u_sum = tensor_cores ? 2 * u : u;  // the additions of a product
  const auto n = static_cast<double>(r.keys);
  double sigma = gamma_n(static_cast<double>(dim) + 3, u_sum) * r.abs_score + 2 * u * r.score_range + (6 * n + 10) * u;
  if (tensor_cores) sigma += u_bf16 * r.abs_score + u_bf16;
  const double rho = std::expm1(sigma);
  if (!(rho < 1)) return INFINITY;
  return 2 * rho / (1 - rho) + (1 + rho) / (1 - rho) * (2 * gamma_n(2 * n + 2, u_sum) + u) +
         4 * gamma_n(n + static_cast<double>(dim) + 8, 0x1p-53);
}

// The bound of element c: weighted_abs = sum_j w_j |v_jc|, largest_abs = max_j |v_jc|.
inline double element_bound(double factor, double weighted_abs, double largest_abs, std::int64_t keys) {
  return factor * weighted_abs + static_cast<double>(keys) * 0x1p-125 * largest_abs;
}

inline bool element_ok(double got, double exact, double bound) {
  if (std::isnan(exact)) return std::isnan(got);
  if (std::isinf(exact)) return got == exact;
  if (!std::isfinite(got)) return false;
  return std::fabs(got - exact) <= bound;
}

}  // namespace attention
