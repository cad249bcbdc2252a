// Stage 4, warp and thread level: each thread's TM x TN outputs in registers, fed from the
// shared slices, and written to C at the end.
//
// Which outputs a thread owns (fp32_ceiling_shape.hpp): warp (warp_m, warp_n) covers a WM x WN
// tile of the block's; lane (lane_m, lane_n) of it owns (TM/4) x (TN/4) sub-tiles of 4 x 4,
// sub-tile (i, j) starting at row warp_m * WM + i * 16 + lane_m * 4 and column
// warp_n * WN + j * 32 + lane_n * 4.
#pragma once

#include <cstdint>

#include "fp32_ceiling_shape.hpp"
#include "fp32_tile_loads.cuh"

namespace matmul::WB_TRACK {

template <class S>
struct thread_tile {
  int row;  // first row and column of the thread's first sub-tile, within the block tile
  int col;

  __device__ explicit thread_tile(int tid) {
    // TODO(matmul/4): the warp's place among WARPS_M x WARPS_N warps, the lane's among 4 x 8.
    row = 0;
    col = 0;
  }
};

// acc[i][j] += sum over the slice's k of A_S[k][row i] * B_S[k][column j], for the thread's
// TM rows and TN columns.
template <class S>
__device__ __forceinline__ void multiply_slice(float (&acc)[S::TM][S::TN], const float* A_S, const float* B_S,
                                               const thread_tile<S>& t) {
  // TODO(matmul/4): per k, TM / 4 float4s of A_S (rows t.row + i * SUB_M) and TN / 4 float4s of
  // B_S (columns t.col + j * SUB_N), then their outer product into acc.
}

// Writes the thread's outputs to C (rows row0 + ..., columns col0 + ...): a float4 per
// sub-tile row where it lies inside C and `vector` (N a multiple of 4), else element by element.
template <class S>
__device__ __forceinline__ void store_tile(const float (&acc)[S::TM][S::TN], float* C, std::int64_t M, std::int64_t N,
                                           std::int64_t row0, std::int64_t col0, const thread_tile<S>& t, bool vector) {
  // TODO(matmul/4): acc[i][j] belongs to row t.row + (i / 4) * SUB_M + i % 4 and column
  // t.col + (j / 4) * SUB_N + j % 4 of the block's tile.
}

}  // namespace matmul::WB_TRACK
