// Block-level reduce: one value per thread combined over the threads of a block with an
// associative, commutative operation (a sum, a minimum, a maximum; or a struct of several
// values, combined field by field, to pay for the barriers once): CUB's BlockReduce with its
// warp-reductions algorithm. Each warp combines its lanes with a butterfly of shuffles, so that
// every lane holds the warp's result; the warps' results meet in shared memory, and every
// thread combines them. Two barriers: the second lets the caller reuse the shared results at
// once, for the next value.
//
// Used where a kernel sums up what its threads saw, then adds one value a block to global
// memory: the counting chapter's sample summary (a struct of counts, smallest and largest key).
#pragma once

#include "wb/device/warp_scan.cuh"  // warp_reduce
#include "wb/kernel.hpp"

namespace wb::device {

// Every thread of a block of Threads threads (whole warps, known at compile time) gets op over
// the block's x; every thread calls it, at the same point. warp_results: shared memory for
// Threads / 32 values of T.
template <int Threads, class T, class Op>
__device__ __forceinline__ T block_reduce(T x, Op op, T* warp_results) {
  static_assert(Threads > 0 && Threads % 32 == 0 && Threads <= 1024, "whole warps, at most 1024 threads");
  x = warp_reduce(x, op);
  if ((threadIdx.x & 31) == 0) warp_results[threadIdx.x / 32] = x;
  __syncthreads();
  T result = warp_results[0];
  for (int w = 1; w < Threads / 32; ++w) result = op(result, warp_results[w]);
  __syncthreads();  // warp_results may be written again at once
  return result;
}

}  // namespace wb::device
