// Warp and block level, registers: sums built from warp shuffles, which move a value from
// one lane's register to another's without shared memory and without a race to reason
// about (the _sync variants name the lanes taking part). Past the book: CUDA Programming
// Guide, "Warp Shuffle Functions" and "Warp Reduce Functions".
#pragma once

#include <cstdint>
#include <type_traits>

#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

inline constexpr unsigned kFullWarp = 0xffffffffu;

// The sum of v over the 32 lanes of a warp, in lane 0 (all 32 lanes must call it).
// Each step adds the value `offset` lanes up: after offsets 16, 8, 4, 2, 1, lane 0 has
// added all 32 (a tree of depth 5, like the shared-memory tail, with no memory traffic).
template <class S>
__device__ __forceinline__ S warp_sum_shuffle(S v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(kFullWarp, v, offset);
  return v;
}

// The same for a 64-bit integer with __reduce_add_sync, the warp's one-instruction sum,
// which only takes 32-bit integers ("where the type allows"). Split each value into three
// parts whose 32-lane sums fit 32 bits or only matter modulo 2^32:
//   v = hi * 2^32 + mid * 2^16 + lo,  hi = top 32 bits, mid and lo = 16 bits each;
//   sum(lo), sum(mid) < 32 * 2^16: exact;  sum(hi) is taken modulo 2^32, which is all that
//   survives the final *2^32 modulo 2^64.
// So the result is the sum modulo 2^64: exact whenever the sum fits in int64. All lanes
// receive it.
__device__ __forceinline__ std::int64_t warp_sum_redux(std::int64_t v) {
  const auto bits = static_cast<std::uint64_t>(v);
  const unsigned lo = static_cast<unsigned>(bits & 0xffffu);
  const unsigned mid = static_cast<unsigned>((bits >> 16) & 0xffffu);
  const unsigned hi = static_cast<unsigned>(bits >> 32);
  const std::uint64_t sum_lo = __reduce_add_sync(kFullWarp, lo);
  const std::uint64_t sum_mid = __reduce_add_sync(kFullWarp, mid);
  const std::uint64_t sum_hi = __reduce_add_sync(kFullWarp, hi);
  return static_cast<std::int64_t>((sum_hi << 32) + (sum_mid << 16) + sum_lo);
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
// multiple of 32, at most 1024). One __syncthreads() in all: each warp sums its own values
// with shuffles, lane 0 of every warp leaves the warp's sum in shared memory, and warp 0
// sums those. Calling it twice in a kernel needs a __syncthreads() between the calls (the
// second would overwrite warp_sums while warp 0 may still read them).
template <class S>
__device__ __forceinline__ S block_sum(S v) {
  __shared__ S warp_sums[32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;

  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();

  if (warp == 0) {
    const int warps = static_cast<int>(blockDim.x) / 32;
    v = lane < warps ? warp_sums[lane] : S(0);
    v = warp_sum(v);
  }
  return v;
}

}  // namespace reduction::WB_TRACK
