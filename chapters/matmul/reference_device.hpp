// The reference product on the device, for matrices whose double-precision product the host
// would take too long to compute (the executable's 4096^3 and 8192^3 runs): a plain tiled
// kernel in double precision, and the element-by-element check of a stage's output against
// it. Namespace matmul_reference, apart from the stages' (a profile of matmul:: kernels does
// not include it). The host reference (data.hpp) checks this one on sampled elements.
#pragma once

#include <cstdint>

#include "error_bound.hpp"
#include "matmul.hpp"

namespace matmul_reference {

// C_exact[i][j] = sum_k A[i][k] B[k][j] and abs_sum[i][j] = sum_k |A[i][k] B[k][j]|, in double
// precision (T = float or bf16, widened exactly), summed in k order. Device pointers.
template <class T>
void product_device(const T* A, const T* B, std::int64_t M, std::int64_t N, std::int64_t K, double* C_exact,
                    double* abs_sum);

struct check_counts {
  long long wrong = 0;  // elements outside the bound
  long long first = -1;  // the first of them (row-major index), or -1
};
// Checks `count` elements of C (device) against C_exact, abs_sum (device) with `model`.
template <class T>
check_counts check_device(const T* C, const double* C_exact, const double* abs_sum, std::int64_t count,
                          const matmul::error_model& model);

}  // namespace matmul_reference
