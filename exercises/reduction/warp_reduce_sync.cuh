// Warp level, shared memory (exercise): the last 64 partials of a block summed by warp 0
// alone, with no __syncthreads() (CUDA Handbook §12.2, the tail of listing 12-2).
#pragma once

#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

// Called by all 32 lanes of warp 0 (lane = threadIdx.x < 32) once partials[0 .. w) are
// final, w = min(block_threads, 64). On return partials[0] must hold their sum.
// `partials` behaves like an S* (the R4 regression test passes a view that counts every
// access past block_threads).
template <class Partials>
__device__ __forceinline__ void warp_tail_sum(Partials partials, int lane, int block_threads) {
  // TODO(stage 2): the same log-step tree, inside one warp: offsets 32 (only if
  // block_threads >= 64), 16, 8, 4, 2, 1.
  //  - R3: the book runs these steps with no synchronisation through a `volatile` pointer.
  //    Since Volta the lanes of a warp are scheduled independently: put a __syncwarp()
  //    after every step (it also orders the shared-memory accesses, so no volatile).
  //  - R4: the book lets every lane read partials[lane + offset]; with 32 threads that is
  //    partials[32..47], past the array. Let only the lanes below the offset take part.
  (void)partials;
  (void)lane;
  (void)block_threads;
}

}  // namespace reduction::WB_TRACK
