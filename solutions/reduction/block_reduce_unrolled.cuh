// Block level, shared memory: the log-step tree with the block size known at compile time,
// so every step is an `if constexpr` and the loop disappears (CUDA Handbook §12.2,
// listing 12-3; Harris' "Optimizing Parallel Reduction in CUDA", step 6).
#pragma once

#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

// Called by all kThreads threads of the block once partials[tid] holds each thread's sum;
// on return partials[0] holds the block's sum. `partials` is the block's S* in shared
// memory (the R4 regression test passes a view that counts reads past kThreads instead).
template <int kThreads, class Partials>
__device__ __forceinline__ void block_sum_unrolled(Partials partials, int tid) {
  // R2 and R4 at compile time: the halving needs a power of two, the warp tail a whole warp.
  static_assert(kThreads >= 32 && kThreads <= 1024 && (kThreads & (kThreads - 1)) == 0,
                "block_sum_unrolled: kThreads must be a power of two from 32 to 1024");

  // The steps above one warp: each one block-wide, each followed by a barrier.
  if constexpr (kThreads >= 1024) {
    if (tid < 512) partials[tid] += partials[tid + 512];
    __syncthreads();
  }
  if constexpr (kThreads >= 512) {
    if (tid < 256) partials[tid] += partials[tid + 256];
    __syncthreads();
  }
  if constexpr (kThreads >= 256) {
    if (tid < 128) partials[tid] += partials[tid + 128];
    __syncthreads();
  }
  if constexpr (kThreads >= 128) {
    if (tid < 64) partials[tid] += partials[tid + 64];
    __syncthreads();
  }

  // The warp-synchronous tail, unrolled. R3: a __syncwarp() after every step (the printed
  // version has none, through a volatile pointer). R4: only lanes below the offset read, so
  // kThreads == 32 never touches partials[32..47] (the printed listing reads them, and its
  // switch in listing 12-4 even dispatches 1..16 threads).
  if (tid < 32) {
    if constexpr (kThreads >= 64) {
      partials[tid] += partials[tid + 32];
      __syncwarp();
    }
    if (tid < 16) partials[tid] += partials[tid + 16];
    __syncwarp();
    if (tid < 8) partials[tid] += partials[tid + 8];
    __syncwarp();
    if (tid < 4) partials[tid] += partials[tid + 4];
    __syncwarp();
    if (tid < 2) partials[tid] += partials[tid + 2];
    __syncwarp();
    if (tid < 1) partials[tid] += partials[tid + 1];
  }
}

}  // namespace reduction::WB_TRACK
