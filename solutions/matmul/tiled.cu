// Stage 2: tiles in shared memory (PMPP §5.4, Fig. 5.9), with the boundary checks of §5.5
// (Fig. 5.13) for any M, N, K.
//
// A block of TILE_WIDTH x TILE_WIDTH threads computes one tile of C. It walks K one phase at a
// time: every thread loads one element of A and one of B into the shared tiles A_S and B_S,
// the block waits, every thread adds the TILE_WIDTH products its output needs from them, and
// the block waits again before the next phase overwrites the tiles. Each element loaded from
// global memory is now used TILE_WIDTH times: global traffic drops by that factor.
//
// MM1: the book's listing assumes the width is a multiple of TILE_WIDTH (Width / TILE_WIDTH
// phases, unguarded loads and store). For M, N, K that are not, the phase count is rounded up
// and a thread whose element lies outside A or B loads 0, which adds nothing to any sum; a
// thread outside C computes with the others (its loads feed their sums) but stores nothing.
#include "wb/kernel.hpp"

#include "matmul.hpp"
#include "tile_grid.hpp"

namespace matmul::WB_TRACK {

template <int TILE_WIDTH>
__global__ void matmul_tiled_kernel(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                                    std::int64_t K, std::int64_t tiles_n) {
  __shared__ float A_S[TILE_WIDTH][TILE_WIDTH];
  __shared__ float B_S[TILE_WIDTH][TILE_WIDTH];
  const tile_coord tile = tile_of_block(blockIdx.x, tiles_n);
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const std::int64_t row = tile.row * TILE_WIDTH + ty;
  const std::int64_t col = tile.col * TILE_WIDTH + tx;

  float Cvalue = 0.0f;
  const std::int64_t phases = wb::ceil_div(K, TILE_WIDTH);  // MM1: round up, the last phase is partial
  for (std::int64_t ph = 0; ph < phases; ++ph) {
    const std::int64_t a_col = ph * TILE_WIDTH + tx;  // this thread's element of A: (row, a_col)
    const std::int64_t b_row = ph * TILE_WIDTH + ty;  // and of B: (b_row, col)
    A_S[ty][tx] = row < M && a_col < K ? A[row * K + a_col] : 0.0f;  // MM1: zero outside A
    B_S[ty][tx] = b_row < K && col < N ? B[b_row * N + col] : 0.0f;  // MM1: zero outside B
    __syncthreads();  // the tiles are complete before anyone reads them
    for (int k = 0; k < TILE_WIDTH; ++k) Cvalue += A_S[ty][k] * B_S[k][tx];
    __syncthreads();  // everyone is done with the tiles before the next phase overwrites them
  }
  if (row < M && col < N) C[row * N + col] = Cvalue;  // MM1: no store outside C
}

}  // namespace matmul::WB_TRACK

#include "tiled_host.inl"  // the host side of stage 2, shared by both tracks
