// Stage 4, warp and thread level: each thread's TM x TN outputs in registers, fed from the
// shared slices, and written to C at the end.
//
// Which outputs a thread owns (fp32_ceiling_shape.hpp): warp (warp_m, warp_n) covers a WM x WN
// tile of the block's; lane (lane_m, lane_n) of it owns (TM/4) x (TN/4) sub-tiles of 4 x 4,
// sub-tile (i, j) starting at row warp_m * WM + i * 16 + lane_m * 4 and column
// warp_n * WN + j * 32 + lane_n * 4. At every k of the slice a thread reads TM/4 float4s of
// A_S's row k and TN/4 float4s of B_S's row k, and adds their outer product: TM * TN
// multiply-adds for (TM + TN) / 4 shared-memory loads.
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
    const int warp = tid / 32, lane = tid % 32;
    const int warp_m = warp / S::WARPS_N, warp_n = warp % S::WARPS_N;
    const int lane_m = lane / S::LANES_N, lane_n = lane % S::LANES_N;
    row = warp_m * S::WM + lane_m * 4;
    col = warp_n * S::WN + lane_n * 4;
  }
};

// acc[i][j] += sum over the slice's k of A_S[k][row i] * B_S[k][column j], for the thread's
// TM rows and TN columns.
template <class S>
__device__ __forceinline__ void multiply_slice(float (&acc)[S::TM][S::TN], const float* A_S, const float* B_S,
                                               const thread_tile<S>& t) {
#pragma unroll
  for (int k = 0; k < S::BK; ++k) {
    float a[S::TM];
    float b[S::TN];
#pragma unroll
    for (int i = 0; i < S::TM / 4; ++i) {
      const float4 v = *reinterpret_cast<const float4*>(A_S + A_S_index<S>(k, t.row + i * S::SUB_M));
      a[4 * i + 0] = v.x;
      a[4 * i + 1] = v.y;
      a[4 * i + 2] = v.z;
      a[4 * i + 3] = v.w;
    }
#pragma unroll
    for (int j = 0; j < S::TN / 4; ++j) {
      const float4 v = *reinterpret_cast<const float4*>(B_S + k * S::BN + t.col + j * S::SUB_N);
      b[4 * j + 0] = v.x;
      b[4 * j + 1] = v.y;
      b[4 * j + 2] = v.z;
      b[4 * j + 3] = v.w;
    }
#pragma unroll
    for (int i = 0; i < S::TM; ++i)
#pragma unroll
      for (int j = 0; j < S::TN; ++j) acc[i][j] += a[i] * b[j];
  }
}

// Writes the thread's outputs to C (rows row0 + ..., columns col0 + ...): a float4 per
// sub-tile row where it lies inside C and `vector` (N a multiple of 4), else element by element.
template <class S>
__device__ __forceinline__ void store_tile(const float (&acc)[S::TM][S::TN], float* C, std::int64_t M, std::int64_t N,
                                           std::int64_t row0, std::int64_t col0, const thread_tile<S>& t, bool vector) {
#pragma unroll
  for (int i = 0; i < S::TM; ++i) {
    const std::int64_t row = row0 + t.row + (i / 4) * S::SUB_M + i % 4;
    if (row >= M) continue;
#pragma unroll
    for (int j = 0; j < S::TN / 4; ++j) {
      const std::int64_t col = col0 + t.col + j * S::SUB_N;
      float* out = C + row * N + col;
      if (vector && col + 3 < N) {
        *reinterpret_cast<float4*>(out) =
            make_float4(acc[i][4 * j + 0], acc[i][4 * j + 1], acc[i][4 * j + 2], acc[i][4 * j + 3]);
      } else {
        for (int c = 0; c < 4; ++c) {
          if (col + c < N) out[c] = acc[i][4 * j + c];
        }
      }
    }
  }
}

}  // namespace matmul::WB_TRACK
