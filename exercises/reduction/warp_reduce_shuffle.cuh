// Warp and block level, registers: sums built from warp shuffles, which move a value from
// one lane's register to another's without shared memory. Past the book: CUDA Programming
// Guide, "Warp Shuffle Functions" and "Warp Reduce Functions".
#pragma once

#include <cstdint>
#include <type_traits>

#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

inline constexpr unsigned kFullWarp = 0xffffffffu;

// The sum of v over the 32 lanes of a warp, in lane 0 (all 32 lanes must call it).
template <class S>
__device__ __forceinline__ S warp_sum_shuffle(S v) {
  // TODO(reduction/4): the log-step tree of stage 2, with __shfl_down_sync moving the values
  // between the lanes' registers instead of shared memory.
  return v;
}

// The same for a 64-bit integer with __reduce_add_sync, the warp's one-instruction sum,
// which only takes 32-bit integers; the result in every lane.
__device__ __forceinline__ std::int64_t warp_sum_redux(std::int64_t v) {
  // TODO(reduction/4, optional): split v into pieces whose 32-lane sums fit 32 bits (or only
  // matter modulo 2^32), sum each with __reduce_add_sync and put them back together modulo
  // 2^64. Until then the shuffles sum 64-bit integers too.
  return warp_sum_shuffle(v);
}

// The warp's sum in lane 0: __reduce_add_sync where the type allows, shuffles otherwise.
template <class S>
__device__ __forceinline__ S warp_sum(S v) {
  if constexpr (std::is_same_v<S, std::int64_t>) {
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
  // TODO(reduction/4): each warp sums its own values with warp_sum, the warps' sums meet in
  // shared memory, and one warp sums those: one __syncthreads() in all.
  return v;
}

}  // namespace reduction::WB_TRACK
