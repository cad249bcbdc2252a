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
// of two: ceil(log_{GROUP+1}(range+1)) steps instead of ceil(log2(range+1)) (~27 for 2^27).
// The price is GROUP times more loads per step. GROUP == 1 is co_rank_lower_bound itself.
#pragma once

#include <cstdint>

#include "wb/kernel.hpp"

#include "co_rank_lower_bound.cuh"
#include "index_math.hpp"

namespace merge::WB_TRACK {

// The GROUP threads used by the stage-6 partition pass (merge_path_partitions) for one tile boundary.
inline constexpr int partition_group = 8;

// co_rank_lower_bound of output rank k, found by the GROUP lanes of this thread's group
// together; every lane gets the answer. Called by all 32 lanes of the warp (the vote needs
// them all); a lane whose group has nothing to search passes active = false.
//
// The test of co_rank_lower_bound, P(i) = "B[k-1-i] < A[i]", is false up to the answer and true
// from it on. Each step, lane g of the group tests p_g = low + (range * (g+1)) / (GROUP+1), so
// low <= p_0 <= ... <= p_{GROUP-1} < high; the first lane whose test holds (f; GROUP if none)
// brackets the answer in [p_{f-1} + 1, p_f].
template <int GROUP, class K>
__device__ inline std::int64_t co_rank_cooperative(std::int64_t k, const K* A, std::int64_t m, const K* B,
                                                   std::int64_t n, bool active) {
  static_assert(GROUP >= 1 && GROUP <= 32 && (32 % GROUP) == 0, "GROUP lanes must tile a warp");
  const int lane = static_cast<int>(threadIdx.x) % 32;  // blockDim.x is a multiple of 32
  const int g = lane % GROUP;                           // this lane's place in its group
  const int first_lane = lane - g;
  std::int64_t low = active ? max_of<std::int64_t>(0, k - n) : 0;  // the answer lies in [low, high]
  std::int64_t high = active ? min_of(k, m) : 0;
  // The whole warp steps together until every group's range is one position wide.
  while (__any_sync(0xffffffffu, low < high)) {
    const std::int64_t range = high - low;
    const std::int64_t p = low + range * (g + 1) / (GROUP + 1);
    const bool holds = low < high && B[k - 1 - p] < A[p];  // on a tie A[p] goes first: false (M3)
    const unsigned votes = __ballot_sync(0xffffffffu, holds);
    const unsigned group_votes = GROUP == 32 ? votes : (votes >> first_lane) & ((1u << GROUP) - 1u);
    if (low < high) {
      const int f = group_votes != 0 ? __ffs(static_cast<int>(group_votes)) - 1 : GROUP;  // first test that holds
      const std::int64_t p_f = low + range * (f + 1) / (GROUP + 1);
      const std::int64_t p_before = low + range * f / (GROUP + 1);  // p_{f-1} when f > 0
      if (f < GROUP) high = p_f;
      if (f > 0) low = p_before + 1;
    }
  }
  return low;
}

// GROUP threads per tile boundary: boundary t is searched by threads [t * GROUP, (t+1) * GROUP)
// of the grid. Every thread stays to the end (the votes need whole warps).
template <class K, int GROUP>
__global__ void merge_path_partition_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n,
                                            std::int64_t tile_items, std::int64_t num_partitions,
                                            std::int64_t* partitions) {
  const std::int64_t t = wb::global_thread_index() / GROUP;
  const bool active = t < num_partitions;
  const std::int64_t k = active ? min_of(t * tile_items, m + n) : 0;
  if constexpr (GROUP == 1) {
    if (active) partitions[t] = co_rank_lower_bound(k, A, m, B, n);
  } else {
    const std::int64_t i = co_rank_cooperative<GROUP>(k, A, m, B, n, active);
    if (active && static_cast<int>(threadIdx.x) % GROUP == 0) partitions[t] = i;
  }
}

}  // namespace merge::WB_TRACK
