#include "reference_device.hpp"

#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"

namespace matmul_reference {

namespace {

constexpr int TILE = 16;

__device__ __forceinline__ double widen(float v) {
  return v;
}
__device__ __forceinline__ double widen(wb::bf16 v) {
  return wb::to_float(v);
}

template <class T>
__global__ void product_kernel(const T* A, const T* B, std::int64_t M, std::int64_t N, std::int64_t K,
                               std::int64_t tiles_n, double* C_exact, double* abs_sum) {
  __shared__ double A_S[TILE][TILE];
  __shared__ double B_S[TILE][TILE];
  const std::int64_t row = (blockIdx.x / tiles_n) * TILE + threadIdx.y;
  const std::int64_t col = (blockIdx.x % tiles_n) * TILE + threadIdx.x;
  double sum = 0, abs = 0;
  for (std::int64_t k0 = 0; k0 < K; k0 += TILE) {
    A_S[threadIdx.y][threadIdx.x] = row < M && k0 + threadIdx.x < K ? widen(A[row * K + k0 + threadIdx.x]) : 0.0;
    B_S[threadIdx.y][threadIdx.x] = k0 + threadIdx.y < K && col < N ? widen(B[(k0 + threadIdx.y) * N + col]) : 0.0;
    __syncthreads();
    for (int k = 0; k < TILE && k0 + k < K; ++k) {
      const double p = A_S[threadIdx.y][k] * B_S[k][threadIdx.x];  // exact: 24 + 24 bits < 53
      sum += p;
      abs += std::fabs(p);
    }
    __syncthreads();
  }
  if (row < M && col < N) {
    C_exact[row * N + col] = sum;
    abs_sum[row * N + col] = abs;
  }
}

template <class T>
__global__ void check_kernel(const T* C, const double* C_exact, const double* abs_sum, std::int64_t count,
                             matmul::error_model model, unsigned long long* wrong, long long* first) {
  for (std::int64_t e = wb::global_thread_index(); e < count; e += wb::grid_thread_count()) {
    if (!matmul::element_ok(widen(C[e]), C_exact[e], abs_sum[e], model)) {
      atomicAdd(wrong, 1ull);
      atomicMin(first, static_cast<long long>(e));
    }
  }
}

}  // namespace

template <class T>
void product_device(const T* A, const T* B, std::int64_t M, std::int64_t N, std::int64_t K, double* C_exact,
                    double* abs_sum) {
  if (M == 0 || N == 0) return;
  const std::int64_t tiles_n = wb::ceil_div(N, TILE);
  const std::int64_t blocks = wb::ceil_div(M, TILE) * tiles_n;
  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(TILE, TILE)}, product_kernel<T>, A, B, M, N, K, tiles_n,
             C_exact, abs_sum);
}

template <class T>
check_counts check_device(const T* C, const double* C_exact, const double* abs_sum, std::int64_t count,
                          const matmul::error_model& model) {
  check_counts out;
  if (count == 0) return out;
  wb::device_buffer<unsigned long long> wrong(std::vector<unsigned long long>{0});
  wb::device_buffer<long long> first(std::vector<long long>{0x7FFFFFFFFFFFFFFFll});
  const std::int64_t blocks = std::min<std::int64_t>(wb::ceil_div(count, 256), 4096);
  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(256)}, check_kernel<T>, C, C_exact, abs_sum, count, model,
             wrong.data(), first.data());
  out.wrong = static_cast<long long>(wrong.to_host()[0]);
  out.first = out.wrong > 0 ? first.to_host()[0] : -1;
  return out;
}

template void product_device<float>(const float*, const float*, std::int64_t, std::int64_t, std::int64_t, double*,
                                    double*);
template void product_device<wb::bf16>(const wb::bf16*, const wb::bf16*, std::int64_t, std::int64_t, std::int64_t,
                                       double*, double*);
template check_counts check_device<float>(const float*, const double*, const double*, std::int64_t,
                                          const matmul::error_model&);
template check_counts check_device<wb::bf16>(const wb::bf16*, const double*, const double*, std::int64_t,
                                             const matmul::error_model&);

}  // namespace matmul_reference
