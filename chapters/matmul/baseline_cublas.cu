// The baseline: cuBLAS. Compiled on the cuda backend only; on the cpu backend this file is
// empty.
#include "baseline_cublas.hpp"

#if defined(WB_BACKEND_CUDA)

#include <stdexcept>
#include <string>

#include <cublas_v2.h>

#include "wb/check.hpp"

namespace matmul::baseline {

namespace {

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + " failed: " + cublasGetStatusName(status) + " (" +
                             cublasGetStatusString(status) + ")");
  }
}

// One handle for the process, on the default stream, default math mode (no TF32 for fp32).
cublasHandle_t handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t made = nullptr;
    check(cublasCreate(&made), "cublasCreate");
    check(cublasSetMathMode(made, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    return made;
  }();
  return h;
}

// K = 0: every sum is empty and C = 0 (BLAS: C = alpha A B + beta C with beta = 0). cuBLAS
// would refuse the call itself: the leading dimension of A (K) must be at least 1.
template <class T>
bool zero_k(const problem<T>& p) {
  if (p.K != 0) return false;
  WB_CHECK(cudaMemsetAsync(p.C, 0, static_cast<std::size_t>(p.M * p.N) * sizeof(T)));
  return true;
}

}  // namespace

void cublas_sgemm(const fp32_problem& p) {
  if (p.M == 0 || p.N == 0 || zero_k(p)) return;
  const float alpha = 1.0f, beta = 0.0f;
  // Column-major view: C^T (N x M) = B^T (N x K, leading dimension N) * A^T (K x M, leading K).
  check(cublasSgemm_64(handle(), CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &alpha, p.B, p.N, p.A, p.K, &beta, p.C, p.N),
        "cublasSgemm");
}

void cublas_gemm_bf16(const bf16_problem& p) {
  if (p.M == 0 || p.N == 0 || zero_k(p)) return;
  const float alpha = 1.0f, beta = 0.0f;
  check(cublasGemmEx_64(handle(), CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &alpha, p.B, CUDA_R_16BF, p.N, p.A,
                        CUDA_R_16BF, p.K, &beta, p.C, CUDA_R_16BF, p.N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
}

}  // namespace matmul::baseline

#endif  // WB_BACKEND_CUDA
