// Exclusive scan of one unsigned value per thread across a block of THREADS threads (a
// multiple of 32, at most 1024): shuffles within each warp, then warp 0 scans the warps'
// sums. Every thread of the block must call it (it has barriers). Used by stage 7's bucket
// scatter.
#pragma once

#include "wb/kernel.hpp"

namespace counting::detail {

template <int THREADS>
__device__ unsigned block_exclusive_scan(unsigned value, unsigned& total) {
  static_assert(THREADS % 32 == 0 && THREADS <= 1024, "a block of whole warps, at most 1024 threads");
  constexpr int warps = THREADS / 32;
  __shared__ unsigned warp_sums[warps];
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  unsigned inclusive = value;
  for (int d = 1; d < 32; d <<= 1) {
    const unsigned up = __shfl_up_sync(0xffffffffu, inclusive, d);
    if (lane >= d) inclusive += up;
  }
  if (lane == 31) warp_sums[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    unsigned s = lane < warps ? warp_sums[lane] : 0u;
    for (int d = 1; d < 32; d <<= 1) {
      const unsigned up = __shfl_up_sync(0xffffffffu, s, d);
      if (lane >= d) s += up;
    }
    if (lane < warps) warp_sums[lane] = s;  // inclusive sums of the warps
  }
  __syncthreads();
  total = warp_sums[warps - 1];
  const unsigned before = warp == 0 ? 0u : warp_sums[warp - 1];
  __syncthreads();  // warp_sums is reused by the next call
  return before + inclusive - value;
}

}  // namespace counting::detail
