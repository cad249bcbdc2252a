#include "defective_variants.hpp"

#include "wb/kernel.hpp"

namespace matmul::defective {

namespace {

constexpr int TILE_WIDTH = 16;

// Stage 2's kernel (tiled.cu) with the mutations.
template <tiled_defect defect>
__global__ void tiled_kernel(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N, std::int64_t K,
                             std::int64_t tiles_n) {
  __shared__ float A_S[TILE_WIDTH][TILE_WIDTH];
  __shared__ float B_S[TILE_WIDTH][TILE_WIDTH];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const std::int64_t row = (blockIdx.x / tiles_n) * TILE_WIDTH + ty;
  const std::int64_t col = (blockIdx.x % tiles_n) * TILE_WIDTH + tx;
  float Cvalue = 0.0f;
  if constexpr (defect == tiled_defect::assumes_multiple_of_tile) {
    // MM1, as printed: K / TILE_WIDTH phases (the last partial one is lost), no bounds checks
    // (the grid, also rounded down, keeps the threads inside the matrices).
    for (std::int64_t ph = 0; ph < K / TILE_WIDTH; ++ph) {
      A_S[ty][tx] = A[row * K + ph * TILE_WIDTH + tx];
      B_S[ty][tx] = B[(ph * TILE_WIDTH + ty) * N + col];
      __syncthreads();
      for (int k = 0; k < TILE_WIDTH; ++k) Cvalue += A_S[ty][k] * B_S[k][tx];
      __syncthreads();
    }
    C[row * N + col] = Cvalue;
  } else {
    for (std::int64_t ph = 0; ph < wb::ceil_div(K, TILE_WIDTH); ++ph) {
      const std::int64_t a_col = ph * TILE_WIDTH + tx, b_row = ph * TILE_WIDTH + ty;
      A_S[ty][tx] = row < M && a_col < K ? A[row * K + a_col] : 0.0f;
      B_S[ty][tx] = b_row < K && col < N ? B[b_row * N + col] : 0.0f;
      if constexpr (defect != tiled_defect::no_barrier_after_load) __syncthreads();
      for (int k = 0; k < TILE_WIDTH; ++k) Cvalue += A_S[ty][k] * B_S[k][tx];
      if constexpr (defect != tiled_defect::no_barrier_after_compute) __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = Cvalue;
  }
}

__global__ void naive_k_off_by_one_kernel(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                                          std::int64_t K, std::int64_t tiles_n) {
  const std::int64_t row = (blockIdx.x / tiles_n) * blockDim.y + threadIdx.y;
  const std::int64_t col = (blockIdx.x % tiles_n) * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (std::int64_t k = 0; k <= K; ++k) sum += A[row * K + k] * B[k * N + col];  // the defect: <=
  C[row * N + col] = sum;
}

}  // namespace

void matmul_tiled(tiled_defect defect, const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                  std::int64_t K) {
  const dim3 block(TILE_WIDTH, TILE_WIDTH);
  if (defect == tiled_defect::assumes_multiple_of_tile) {
    const std::int64_t tiles_n = N / TILE_WIDTH;  // as printed: Width / TILE_WIDTH blocks
    const std::int64_t blocks = (M / TILE_WIDTH) * tiles_n;
    if (blocks == 0) return;
    wb::launch({dim3(static_cast<unsigned>(blocks)), block}, tiled_kernel<tiled_defect::assumes_multiple_of_tile>, A, B,
               C, M, N, K, tiles_n);
    return;
  }
  const std::int64_t tiles_n = wb::ceil_div(N, TILE_WIDTH);
  const auto blocks = static_cast<unsigned>(wb::ceil_div(M, TILE_WIDTH) * tiles_n);
  if (defect == tiled_defect::no_barrier_after_load) {
    wb::launch({dim3(blocks), block}, tiled_kernel<tiled_defect::no_barrier_after_load>, A, B, C, M, N, K, tiles_n);
  } else {
    wb::launch({dim3(blocks), block}, tiled_kernel<tiled_defect::no_barrier_after_compute>, A, B, C, M, N, K, tiles_n);
  }
}

void matmul_naive_k_off_by_one(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                               std::int64_t K) {
  const std::int64_t tiles_n = wb::ceil_div(N, 32);
  const auto blocks = static_cast<unsigned>(wb::ceil_div(M, 8) * tiles_n);
  wb::launch({dim3(blocks), dim3(32, 8)}, naive_k_off_by_one_kernel, A, B, C, M, N, K, tiles_n);
}

}  // namespace matmul::defective
