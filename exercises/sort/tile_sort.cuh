// Stage 6, level 0: a block sorts its tile (each thread its keys in registers, then the
// block merges runs in shared memory). See merge_sort.cu for the whole stage.
#pragma once

#include <cstdint>

#include "merge_pieces.cuh"
#include "sort.hpp"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

// ---------------------------------------------------------------------------------------
// Level 0: sort a tile in a block
// ---------------------------------------------------------------------------------------

// A thread's ITEMS keys (and values) sorted in registers. Odd-even transposition: rounds of
// compare-exchanges of neighbours, alternately (0,1)(2,3)... and (1,2)(3,4)...; ITEMS rounds
// sort any input. Neighbours are exchanged only when strictly out of order, so equal keys
// keep their order (stable). Fully unrolled: every index is a compile-time constant.
template <int ITEMS, bool VALUES, class U>
__device__ __forceinline__ void thread_sort(U (&keys)[ITEMS], std::uint32_t (&values)[ITEMS]) {
  // TODO(sort/6): a stable sort of ITEMS keys (values with them) in registers: rounds of
  // compare-exchanges of neighbours, exchanging only keys strictly out of order.
}

// Block b sorts keys [b * tile, (b+1) * tile), tile = BLOCK * ITEMS (the last tile may be
// shorter), and writes them as bit patterns (dst_bits) or, when no merge pass follows
// (LAST), as keys (dst_keys).
template <class K, int BLOCK, int ITEMS, bool VALUES, bool LAST>
__global__ void __launch_bounds__(BLOCK)
    block_sort_kernel(const K* __restrict__ keys_in, const std::uint32_t* __restrict__ values_in,
                      bits_of<K>* __restrict__ dst_bits, K* __restrict__ dst_keys,
                      std::uint32_t* __restrict__ dst_values, std::int64_t n) {
  // TODO(sort/6): load the block's tile as key_bits patterns (slots past n: the largest
  // pattern), give each thread ITEMS consecutive keys and sort them (thread_sort), then merge
  // runs of ITEMS, 2 ITEMS, ... in shared memory (PMPP §13.7) with the merge chapter's
  // co_rank_lower_bound and thread_merge (wb::device), and store the tile coalesced
  // (store_tile_blocked): as keys when LAST, else as bit patterns. Values follow their keys.
}

}  // namespace sort::WB_TRACK
