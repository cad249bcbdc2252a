// Stage 1: one thread per output (PMPP §3.4, Fig. 3.11).
//
// Thread (row, col) computes C[row][col] as the dot product of row `row` of A and column `col`
// of B, straight from global memory. Every element of A is read N times and every element of
// B M times: the kernel is bound by memory traffic, and by how well a warp's 32 reads coalesce.
// That depends only on which thread index walks which dimension of C:
//   x-column  threadIdx.x -> column: in one step of k, a warp reads ONE element of A (a
//             broadcast) and 32 NEIGHBOURS of a row of B (one 128-byte line); writes coalesce.
//   x-row     threadIdx.x -> row: a warp reads 32 elements of A that are K floats apart (32
//             lines for 32 floats) and one element of B; writes land N floats apart.
// Both compute the same C; the report shows what the mapping costs.
#include "wb/kernel.hpp"

#include "matmul.hpp"
#include "tile_grid.hpp"

namespace matmul::WB_TRACK {

// The block is 32 x 8 threads: 32 along threadIdx.x, 8 along threadIdx.y; its tile of C is
// 8 rows x 32 columns (x-column) or 32 rows x 8 columns (x-row).
template <bool column_in_x>
__global__ void matmul_naive_kernel(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                                    std::int64_t K, std::int64_t tiles_n) {
  const tile_coord tile = tile_of_block(blockIdx.x, tiles_n);
  const std::int64_t row = column_in_x ? tile.row * blockDim.y + threadIdx.y : tile.row * blockDim.x + threadIdx.x;
  const std::int64_t col = column_in_x ? tile.col * blockDim.x + threadIdx.x : tile.col * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;  // the last tiles reach past C: those threads have no output
  float sum = 0.0f;
  for (std::int64_t k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}

}  // namespace matmul::WB_TRACK

#include "naive_host.inl"  // the host side of stage 1, shared by both tracks
