// The merge chapter's solved stage 6 (merge path, at bandwidth), used by stage 6 as a library,
// the way the radix stages use the scan chapter's solved scan: the merge sort's tiles are
// merged by merge::solution::merge_tile (solutions/merge/block_merge.cuh), its partitions and
// in-block merges use co_rank_lower_bound and thread_merge. One merge for the workbook.
// Also here: level_barrier, which both tracks' tile sort calls between its merge levels.
//
// Those headers put their code in namespace merge::WB_TRACK; both tracks of this chapter get
// the merge chapter's solution (merge::solution), whichever track includes them.
#pragma once

#include "wb/kernel.hpp"

#pragma push_macro("WB_TRACK")
#undef WB_TRACK
#define WB_TRACK solution
#include "../../solutions/merge/block_merge.cuh"
#include "../../solutions/merge/co_rank_lower_bound.cuh"
#include "../../solutions/merge/thread_merge.cuh"
#pragma pop_macro("WB_TRACK")

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
