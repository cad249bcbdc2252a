// Stage 6, device-wide piece: the merge-path partition pass.
//
// Tile t of the output is C[t * tile_items, (t+1) * tile_items). Its inputs start at
// A[partitions[t]] and B[t * tile_items - partitions[t]]. One thread co-ranks one tile
// boundary, all at once, in a small kernel of its own: the merge kernel then starts with its
// inputs known, instead of each block waiting on two chains of ~log2(m+n) dependent global
// loads (what stage 5 does). The pass lasts as long as its slowest search, so it uses the
// lower-bound form of co_rank: the same answer in a fixed number of cheap steps.
#pragma once

#include <cstdint>

#include "wb/kernel.hpp"

#include "co_rank_lower_bound.cuh"
#include "index_math.hpp"

namespace merge::WB_TRACK {

template <class K>
__global__ void merge_path_partition_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n,
                                            std::int64_t tile_items, std::int64_t num_partitions,
                                            std::int64_t* partitions) {
  // TODO(merge/6): one thread per tile boundary t < num_partitions: partitions[t] is the
  // co-rank of output rank t * tile_items (the last boundary is m + n).
}

}  // namespace merge::WB_TRACK
