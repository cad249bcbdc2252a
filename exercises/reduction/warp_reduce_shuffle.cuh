// Warp and block level, registers (exercise): sums built from warp shuffles, which move a
// value from one lane's register to another's without shared memory. Past the book: CUDA
// Programming Guide, "Warp Shuffle Functions" and "Warp Reduce Functions".
#pragma once

#include <cstdint>
#include <type_traits>

#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

inline constexpr unsigned kFullWarp = 0xffffffffu;

// The sum of v over the 32 lanes of a warp, in lane 0 (all 32 lanes must call it).
template <class S>
__device__ __forceinline__ S warp_sum_shuffle(S v) {
  // TODO(stage 4): for offset = 16, 8, 4, 2, 1: v += __shfl_down_sync(kFullWarp, v, offset).
  return v;
}

// Optional (stage 4): the same for a 64-bit integer with __reduce_add_sync, which only
// takes 32-bit integers. Split v into hi (top 32 bits), mid and lo (16 bits each), sum each
// part over the warp with __reduce_add_sync, and put the parts back together modulo 2^64:
// (sum_hi << 32) + (sum_mid << 16) + sum_lo. Then set kUseRedux to true.
inline constexpr bool kUseRedux = false;
__device__ __forceinline__ std::int64_t warp_sum_redux(std::int64_t v) {
  // TODO(stage 4, optional)
  return v;
}

// The warp's sum in lane 0.
template <class S>
__device__ __forceinline__ S warp_sum(S v) {
  if constexpr (kUseRedux && std::is_same_v<S, std::int64_t>) {
    return warp_sum_redux(v);
  } else {
    return warp_sum_shuffle(v);
  }
}

// The sum of v over the whole block, in thread 0 (all threads must call it; blockDim.x a
// multiple of 32, at most 1024). Calling it twice in a kernel needs a __syncthreads()
// between the calls.
template <class S>
__device__ __forceinline__ S block_sum(S v) {
  __shared__ S warp_sums[32];
  // TODO(stage 4): each warp sums its values with warp_sum; lane 0 of each warp stores the
  // warp's sum in warp_sums[warp]; one __syncthreads(); warp 0 loads warp_sums[lane] (0 for
  // lanes past blockDim.x / 32) and sums those with warp_sum. One barrier in all.
  (void)warp_sums;
  return v;
}

}  // namespace reduction::WB_TRACK
