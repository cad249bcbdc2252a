// Stage 6, device-wide piece: the merge-path partition pass.
//
// Tile t of the output is C[t * tile_items, (t+1) * tile_items). Its inputs start at
// A[partitions[t]] and B[t * tile_items - partitions[t]]. The pass co-ranks every tile boundary
// once, all at once, in a small kernel of its own: the merge kernel then starts with its inputs
// known, instead of each block waiting on two chains of ~log2(m+n) dependent global loads (what
// stage 5 does).
//
// The pass lasts as long as its slowest search, and a search is a chain of dependent loads from
// global memory: its length, not the work, sets the time. So GROUP threads (consecutive lanes of
// one warp) search one boundary together: each step they test GROUP positions at once and one
// warp vote (__ballot_sync) says where the answer lies, cutting the range GROUP+1 ways instead
// of two. GROUP == 1 is co_rank_lower_bound itself.
#pragma once

#include <cstdint>

#include "wb/kernel.hpp"

#include "co_rank_lower_bound.cuh"
#include "index_math.hpp"

namespace merge::WB_TRACK {

// The GROUP threads used by the stage-6 partition pass (merge_path_partitions) for one tile
// boundary. Start with 1 (one thread, one co_rank_lower_bound per boundary); the solution uses
// more once co_rank_cooperative works.
inline constexpr int partition_group = 8;

// co_rank_lower_bound of output rank k, found by the GROUP lanes of this thread's group
// together; every lane returns the answer. Called by all 32 lanes of the warp; a lane whose
// group has nothing to search passes active = false.
template <int GROUP, class K>
__device__ inline std::int64_t co_rank_cooperative(std::int64_t k, const K* A, std::int64_t m, const K* B,
                                                   std::int64_t n, bool active) {
  // TODO (stage 6, after the book): the lower bound of co_rank_lower_bound.cuh, GROUP probes a step.
  //   low = max(0, k - n), high = min(k, m) (both 0 when !active); g = lane % GROUP.
  //   while (__any_sync(0xffffffff, low < high)):   // the whole warp steps together
  //     p = low + (high - low) * (g + 1) / (GROUP + 1);
  //     holds = low < high && B[k-1-p] < A[p];      // false before the answer, true from it on
  //     votes = __ballot_sync(0xffffffff, holds), shifted to this group's GROUP bits;
  //     f = the first group lane whose test holds (__ffs), GROUP if none;
  //     the answer now lies in [p_{f-1} + 1, p_f] (low or high unchanged at the ends).
  //   return low.
  // Delete the next line when you write it.
  (void)A, (void)m, (void)B, (void)n, (void)active;
  (void)k;
  return -1;  // never a co-rank: the partitions stay wrong until this is written
}

// GROUP threads per tile boundary: boundary t is searched by threads [t * GROUP, (t+1) * GROUP)
// of the grid.
template <class K, int GROUP>
__global__ void merge_path_partition_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n,
                                            std::int64_t tile_items, std::int64_t num_partitions,
                                            std::int64_t* partitions) {
  // TODO (stage 6): t = wb::global_thread_index() / GROUP (64-bit). Group t of the first
  // num_partitions co-ranks output rank k = min(t * tile_items, m + n) and its lane 0 writes
  // partitions[t]: with GROUP == 1 by co_rank_lower_bound, otherwise by co_rank_cooperative<GROUP>
  // (every thread of the grid must call it: the votes need whole warps; those past
  // num_partitions pass active = false).
  // Delete the next line when you write the kernel.
  (void)A, (void)m, (void)B, (void)n, (void)tile_items, (void)num_partitions, (void)partitions;
}

}  // namespace merge::WB_TRACK
