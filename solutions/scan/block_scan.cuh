// Block-level piece of stage 6 (CUB's BlockScan layer): the warps' totals through shared
// memory, scanned by warp 0. Two barriers per tile, whatever the block size.
#pragma once

#include "scan.hpp"
#include "warp_scan.cuh"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

// Every thread of the block calls it with its warp's total (the same in every lane);
// blockDim.x is a multiple of 32. Returns the sum of the totals of the warps before this one
// and sets block_total to the sum of all of them.
template <class T>
__device__ __forceinline__ T block_exclusive_scan_of_warp_totals(T warp_total, T& block_total) {
  __shared__ T totals[32];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  const int warps = blockDim.x / 32;
  if (lane == 0) totals[warp] = warp_total;
  __syncthreads();
  if (warp == 0) {
    const T inclusive = warp_inclusive_scan(lane < warps ? totals[lane] : T{});
    totals[lane] = inclusive;  // each lane rewrites only the entry it read
  }
  __syncthreads();
  block_total = totals[warps - 1];
  return warp == 0 ? T{} : totals[warp - 1];
}

}  // namespace scan::WB_TRACK
