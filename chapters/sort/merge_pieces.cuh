// The merge pieces stage 6 builds on: the workbook's shared merge (the merge chapter's stage 6,
// common/include/wb/device/): merge_tile merges one output tile of a merge pass, whose
// partitions and in-block merges use co_rank_lower_bound and thread_merge. One merge for the
// workbook, as the radix stages scan with the workbook's block scan.
// Also here: level_barrier, which both tracks' tile sort calls between its merge levels.
#pragma once

#include "wb/device/block_merge.cuh"
#include "wb/device/co_rank_lower_bound.cuh"
#include "wb/device/thread_merge.cuh"
#include "wb/kernel.hpp"

namespace sort {

// Which barrier a level of stage 6's in-block merge needs (both tracks' block_sort_kernel): a
// pair of runs that lies within one warp's keys is only read and written by that warp.
__device__ __forceinline__ void level_barrier(int threads_per_pair) {
  if (threads_per_pair <= 32) {
    __syncwarp();
  } else {
    __syncthreads();
  }
}

}  // namespace sort
