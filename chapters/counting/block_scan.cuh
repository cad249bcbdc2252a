// Exclusive scan of one unsigned value per thread across a block of THREADS threads (a
// multiple of 32, at most 1024): the workbook's block scan (common/include/wb/device/
// block_scan.cuh) with its shared warp totals declared here. Every thread of the block must
// call it (it has barriers); the next call may follow at once. Used by stage 7's bucket
// scatter; new code calls wb::device::block_exclusive_sum directly.
#pragma once

#include "wb/device/block_scan.cuh"
#include "wb/kernel.hpp"

namespace counting::detail {

template <int THREADS>
__device__ __forceinline__ unsigned block_exclusive_scan(unsigned value, unsigned& total) {
  __shared__ unsigned warp_totals[THREADS / 32];
  return wb::device::block_exclusive_sum<THREADS>(value, warp_totals, total);
}

}  // namespace counting::detail
