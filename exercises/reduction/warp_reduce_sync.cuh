// Warp level, shared memory: the last 64 partials of a block summed by warp 0 alone, with
// no __syncthreads() (CUDA Handbook §12.2, the tail of listing 12-2).
#pragma once

#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

// Called by all 32 lanes of warp 0 (lane = threadIdx.x < 32) once partials[0 .. w) are
// final, w = min(block_threads, 64). On return partials[0] must hold their sum.
// `partials` behaves like an S* (the R4 regression test passes a view that counts every
// access past block_threads).
template <class Partials>
__device__ __forceinline__ void warp_tail_sum(Partials partials, int lane, int block_threads) {
  // TODO(reduction/2): the log-step tree inside one warp. The book trusts the lanes to run
  // in lock-step through a `volatile` pointer, which no GPU since Volta guarantees (R3), and
  // lets a 32-thread block read past its 32 partials (R4).
}

}  // namespace reduction::WB_TRACK
