// Stage 1: one thread per output (PMPP §3.4, Fig. 3.11).
//
// Thread (row, col) computes C[row][col] as the dot product of row `row` of A and column `col`
// of B, straight from global memory. How well a warp's 32 reads coalesce depends only on which
// thread index walks which dimension of C:
//   x-column  threadIdx.x -> column of C;   x-row  threadIdx.x -> row of C (the pitfall).
#include "wb/kernel.hpp"

#include "matmul.hpp"
#include "tile_grid.hpp"

namespace matmul::WB_TRACK {

// The block is 32 x 8 threads: 32 along threadIdx.x, 8 along threadIdx.y; its tile of C is
// 8 rows x 32 columns (x-column) or 32 rows x 8 columns (x-row).
template <bool column_in_x>
__global__ void matmul_naive_kernel(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                                    std::int64_t K, std::int64_t tiles_n) {
  // TODO(matmul/1): one output per thread (PMPP §3.4, Fig. 3.11): find this thread's row and
  // column of C from its block's tile (tile_of_block) and its thread index, the x index walking
  // the columns when column_in_x and the rows otherwise; outside C do nothing.
}

}  // namespace matmul::WB_TRACK

#include "naive_host.inl"  // the host side of stage 1, shared by both tracks
