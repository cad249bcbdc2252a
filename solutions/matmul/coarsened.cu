// Stage 3: thread coarsening (PMPP §6.3, Fig. 6.13), then the 2-D register tile it leads to.
//
// Stage 2 loads every element of a shared tile for one multiply-add per thread: the shared
// memory loads, not the arithmetic, set its pace. Coarsening gives a thread several outputs
// that share inputs, so one load feeds several multiply-adds:
//   coarse-4      the book's version: each thread computes COARSE_FACTOR outputs along a row
//                 of C, so the A element it loads into A_S serves COARSE_FACTOR tiles of B;
//   register-8x8  the same idea in both dimensions: each thread owns an 8 x 8 block of C in
//                 registers. At each k it reads 8 values of A's column k and 8 of B's row k
//                 from shared memory and adds their outer product, 64 multiply-adds for 16
//                 loads; the block's 128 x 128 tile makes each global load serve 128 outputs.
#include "wb/kernel.hpp"

#include "coarsened_shape.hpp"
#include "matmul.hpp"
#include "tile_grid.hpp"

namespace matmul::WB_TRACK {

// ---- coarse-4: PMPP's coarsened tiled kernel, with the boundary checks of stage 2 (MM1) ----
// A block of 16 x 16 threads computes 16 rows x (16 * COARSE_FACTOR) columns of C.
__global__ void matmul_coarse_kernel(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                                     std::int64_t K, std::int64_t tiles_n) {
  __shared__ float A_S[COARSE_TILE][COARSE_TILE];
  __shared__ float B_S[COARSE_TILE][COARSE_TILE];
  const tile_coord tile = tile_of_block(blockIdx.x, tiles_n);
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const std::int64_t row = tile.row * COARSE_TILE + ty;
  const std::int64_t col_start = tile.col * COARSE_TILE * COARSE_FACTOR + tx;

  float Cvalue[COARSE_FACTOR] = {};
  const std::int64_t phases = wb::ceil_div(K, COARSE_TILE);
  for (std::int64_t ph = 0; ph < phases; ++ph) {
    const std::int64_t a_col = ph * COARSE_TILE + tx;
    const std::int64_t b_row = ph * COARSE_TILE + ty;
    A_S[ty][tx] = row < M && a_col < K ? A[row * K + a_col] : 0.0f;  // loaded once ...
    for (int c = 0; c < COARSE_FACTOR; ++c) {  // ... used COARSE_FACTOR times
      const std::int64_t col = col_start + c * COARSE_TILE;
      B_S[ty][tx] = b_row < K && col < N ? B[b_row * N + col] : 0.0f;
      __syncthreads();  // A_S (first time round) and B_S are complete
      for (int k = 0; k < COARSE_TILE; ++k) Cvalue[c] += A_S[ty][k] * B_S[k][tx];
      __syncthreads();  // done with B_S (and, after the last c, with A_S) before they are overwritten
    }
  }
  for (int c = 0; c < COARSE_FACTOR; ++c) {
    const std::int64_t col = col_start + c * COARSE_TILE;
    if (row < M && col < N) C[row * N + col] = Cvalue[c];
  }
}

// ---- register-8x8: a 2-D register tile per thread ------------------------------------------
// (the shapes: coarsened_shape.hpp)
// Thread (ty, tx) owns rows ty + 16 i and columns tx + 16 j (i, j < 8) of the block's tile: a
// half-warp's 16 threads read 16 neighbouring floats of B_S (no bank conflict) and store 16
// neighbouring floats of C.
__global__ void matmul_register_tile_kernel(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                                            std::int64_t K, std::int64_t tiles_n) {
  __shared__ float A_S[REG_BM][REG_BK];
  __shared__ float B_S[REG_BK][REG_BN];
  constexpr int ROW_STEP = REG_BM / REG_TM;  // 16
  constexpr int COL_STEP = REG_BN / REG_TN;  // 16
  const tile_coord tile = tile_of_block(blockIdx.x, tiles_n);
  const int tid = static_cast<int>(threadIdx.x);
  const int ty = tid / COL_STEP;
  const int tx = tid % COL_STEP;
  const std::int64_t row0 = tile.row * REG_BM;
  const std::int64_t col0 = tile.col * REG_BN;

  float acc[REG_TM][REG_TN] = {};
  float a[REG_TM];
  float b[REG_TN];
  for (std::int64_t k0 = 0; k0 < K; k0 += REG_BK) {
    // The block loads the A slice (REG_BM x REG_BK) and the B slice (REG_BK x REG_BN), zero
    // outside the matrices (MM1 as in stage 2).
    for (int e = tid; e < REG_BM * REG_BK; e += REG_THREADS) {
      const int r = e / REG_BK, k = e % REG_BK;
      A_S[r][k] = row0 + r < M && k0 + k < K ? A[(row0 + r) * K + k0 + k] : 0.0f;
    }
    for (int e = tid; e < REG_BK * REG_BN; e += REG_THREADS) {
      const int k = e / REG_BN, c = e % REG_BN;
      B_S[k][c] = k0 + k < K && col0 + c < N ? B[(k0 + k) * N + col0 + c] : 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < REG_BK; ++k) {
      // 16 loads from shared memory, then the outer product: 64 multiply-adds in registers.
      for (int i = 0; i < REG_TM; ++i) a[i] = A_S[ty + ROW_STEP * i][k];
      for (int j = 0; j < REG_TN; ++j) b[j] = B_S[k][tx + COL_STEP * j];
      for (int i = 0; i < REG_TM; ++i)
        for (int j = 0; j < REG_TN; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < REG_TM; ++i) {
    const std::int64_t row = row0 + ty + ROW_STEP * i;
    for (int j = 0; j < REG_TN; ++j) {
      const std::int64_t col = col0 + tx + COL_STEP * j;
      if (row < M && col < N) C[row * N + col] = acc[i][j];
    }
  }
}

}  // namespace matmul::WB_TRACK

#include "coarsened_host.inl"  // the host side of stage 3, shared by both tracks
