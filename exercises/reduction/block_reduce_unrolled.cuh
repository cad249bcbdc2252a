// Block level, shared memory: the log-step tree with the block size known at compile time,
// so every step is an `if constexpr` and the loop disappears (CUDA Handbook §12.2,
// listing 12-3; Harris, "Optimizing Parallel Reduction in CUDA", step 6).
#pragma once

#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

// Called by all kThreads threads of the block once partials[tid] holds each thread's sum;
// on return partials[0] must hold the block's sum. `partials` behaves like an S* (the R4
// regression test passes a view that counts accesses past kThreads).
template <int kThreads, class Partials>
__device__ __forceinline__ void block_sum_unrolled(Partials partials, int tid) {
  // R2 and R4 at compile time: the halving needs a power of two, the warp tail a whole warp.
  static_assert(kThreads >= 32 && kThreads <= 1024 && (kThreads & (kThreads - 1)) == 0,
                "block_sum_unrolled: kThreads must be a power of two from 32 to 1024");
  // TODO(reduction/3): listing 12-3. Stage 2's tree and warp tail, each step written out and
  // kept only when kThreads needs it (R3 and R4 as in stage 2).
}

}  // namespace reduction::WB_TRACK
