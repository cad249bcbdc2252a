// Block level, shared memory (exercise): the log-step tree with the block size known at
// compile time, so every step is an `if constexpr` and the loop disappears (CUDA Handbook
// §12.2, listing 12-3; Harris, "Optimizing Parallel Reduction in CUDA", step 6).
#pragma once

#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

// Called by all kThreads threads of the block once partials[tid] holds each thread's sum;
// on return partials[0] must hold the block's sum. `partials` behaves like an S* (the R4
// regression test passes a view that counts accesses past kThreads).
template <int kThreads, class Partials>
__device__ __forceinline__ void block_sum_unrolled(Partials partials, int tid) {
  static_assert(kThreads >= 32 && kThreads <= 1024 && (kThreads & (kThreads - 1)) == 0,
                "block_sum_unrolled: kThreads must be a power of two from 32 to 1024");
  // TODO(stage 3): one step per offset 512, 256, 128, 64, each inside
  //   if constexpr (kThreads >= 2 * offset) { if (tid < offset) ...; __syncthreads(); }
  // then warp 0 alone for offsets 32 (if kThreads >= 64), 16, 8, 4, 2, 1, written out one by
  // one with a __syncwarp() after each (R3) and only lanes below the offset reading (R4).
  (void)partials;
  (void)tid;
}

}  // namespace reduction::WB_TRACK
