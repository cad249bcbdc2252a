// Warp level, shared memory: the last 64 partials of a block summed by warp 0 alone, with
// no __syncthreads() (CUDA Handbook §12.2, the tail of listing 12-2; fixed, R3 and R4).
#pragma once

#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

// Called by all 32 lanes of warp 0 (lane = threadIdx.x < 32) once partials[0 .. w) are
// final, w = min(block_threads, 64). On return partials[0] holds their sum.
// `partials` is the block's S* in shared memory; the R4 regression test passes a view that
// counts every read past block_threads instead.
//
// R3: the book lets the warp run the steps with no synchronisation at all, through a
// `volatile` pointer, trusting the 32 lanes to execute each instruction together. Since
// Volta (compute capability 7.0) lanes are scheduled independently and may be at different
// steps, so a lane can read a partial before its neighbour has added into it: a data race
// (the cpu backend shows a wrong sum under WB_CPU_ORDER=reverse; racecheck flags it).
// __syncwarp() after each step orders the steps, and is a memory fence for the warp, so the
// compiler rereads shared memory without `volatile`.
// R4: the book lets all 32 lanes add `wsSum[tid + offset]`; in a 32-thread block lanes 16..31
// then read partials[32 .. 47], past the array. Only the lanes below the offset read here;
// they read [offset, 2*offset) and write [0, offset), which cannot overlap within a step.
template <class Partials>
__device__ __forceinline__ void warp_tail_sum(Partials partials, int lane, int block_threads) {
  for (int offset = block_threads >= 64 ? 32 : 16; offset > 0; offset >>= 1) {
    if (lane < offset) partials[lane] += partials[lane + offset];
    __syncwarp();
  }
}

}  // namespace reduction::WB_TRACK
