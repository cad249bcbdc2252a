// The library a user would pick instead of this chapter's kernels: cuBLAS (cuda backend only:
// built when WB_HAVE_BASELINE is defined). Row-major C = A B is the column-major product
// C^T = B^T A^T, so cuBLAS is called with the operands swapped and nothing transposed.
#pragma once

#include "matmul.hpp"

namespace matmul::baseline {

// cublasSgemm with the default math mode (fp32 products and sums; no TF32): for stages 1-4.
void cublas_sgemm(const fp32_problem& device);
// cublasGemmEx with bf16 A, B and C and fp32 computation (CUBLAS_COMPUTE_32F): for stages 5-6.
void cublas_gemm_bf16(const bf16_problem& device);

}  // namespace matmul::baseline
