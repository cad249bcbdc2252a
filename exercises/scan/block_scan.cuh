// Block-level piece of stage 6 (CUB's BlockScan layer): the warps' totals through shared
// memory, scanned by warp 0.
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
  // TODO(scan/6): one shared slot per warp, a barrier, warp 0 scans the slots
  // (warp_inclusive_scan), a barrier, each warp reads what it needs.
  block_total = T{};
  return T{};
}

}  // namespace scan::WB_TRACK
