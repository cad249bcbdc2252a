// Stage 6: merge sort (PMPP §13.7): each block sorts a tile, then merge passes double the
// sorted runs until one run holds every key.
//
//   level 0   block_sort_kernel: a tile of SORT_BLOCK * ITEMS keys per block. Each thread
//             sorts its ITEMS keys in registers (odd-even transposition: stable), then the
//             block merges runs of ITEMS, 2 ITEMS, ... in shared memory with the merge
//             chapter's pieces (co_rank_lower_bound, thread_merge): one read and one write of
//             every key in global memory, the rest on chip.
//   level l   one merge pass over runs of width = tile << (l-1): a partition kernel co-ranks
//             every output tile within its pair of runs (merge path, PMPP §12.3 and the merge
//             chapter's stage 6), then one block per output tile merges it through shared
//             memory (merge::solution::merge_tile). Every pair of runs of the level is merged
//             in the same two launches (a segmented merge): run widths are multiples of the
//             output tile, so no tile straddles two pairs.
//
// Keys travel as key_bits patterns (unsigned order = the chapter's order, floats included):
// level 0 converts them on load, the last level converts them back on store. Values follow
// their keys; ties keep the left run first at every level, so the sort is stable.
#include <cstdint>

#include "merge_pieces.cuh"
#include "sort.hpp"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

namespace merge_lib = merge::solution;

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
  // co_rank_lower_bound and thread_merge (merge_lib), and store the tile coalesced
  // (store_tile_blocked): as keys when LAST, else as bit patterns. Values follow their keys.
}

// ---------------------------------------------------------------------------------------
// Levels 1, 2, ...: merge passes
// ---------------------------------------------------------------------------------------

// The pair of runs that output position `c` of a merge pass over runs of `width` belongs to:
// A = [begin, begin + A_length), B = [begin + A_length, begin + A_length + B_length). The
// last pair may be short, or have no B at all (its A is then copied).
struct run_pair {
  std::int64_t begin;
  std::int64_t A_length;
  std::int64_t B_length;
};

__host__ __device__ inline run_pair pair_of(std::int64_t c, std::int64_t n, std::int64_t width) {
  // TODO(sort/6): the pair of runs of `width` keys that output position c falls in.
  return {};
}

// The partition pass of one level: for each output tile t, how many of its pair's A keys come
// before the tile's first output (the merge path's co-rank within the pair; B's share
// follows). One thread per tile, a lower-bound search of log2(width) steps.
template <class U>
__global__ void merge_partition_kernel(const U* __restrict__ src, std::int64_t n, std::int64_t width,
                                       std::int64_t tile, std::int64_t tiles, std::int64_t* __restrict__ partitions) {
  // TODO(sort/6): co-rank tile t's first output within its pair of runs (the merge
  // chapter's co_rank_lower_bound).
}

// Converts a bit pattern back to a key: what the last pass stores.
template <class K>
struct bits_to_key {
  __device__ __forceinline__ K operator()(bits_of<K> bits) const { return key_bits<K>::from_bits(bits); }
};

// One merge pass: block t merges output tile t (BLOCK * ITEMS outputs) of its pair of runs
// from src into dst_bits, or (LAST) into dst_keys as keys.
template <class K, int BLOCK, int ITEMS, bool VALUES, bool LAST>
__global__ void __launch_bounds__(BLOCK)
    merge_pass_kernel(const bits_of<K>* __restrict__ src, const std::uint32_t* __restrict__ src_values,
                      bits_of<K>* __restrict__ dst_bits, K* __restrict__ dst_keys,
                      std::uint32_t* __restrict__ dst_values, std::int64_t n, std::int64_t width,
                      const std::int64_t* __restrict__ partitions) {
  // TODO(sort/6): tile blockIdx.x's inputs in its pair of runs, from this tile's partition
  // and the next one's (or the pair's end), merged by the merge chapter's merge_tile
  // (bits_to_key<K> as the output conversion when LAST).
}

}  // namespace sort::WB_TRACK

#include "merge_sort_host.inl"  // the host side of stage 6, shared by both tracks
