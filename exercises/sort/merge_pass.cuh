// Stage 6, levels 1, 2, ...: one merge pass (a partition kernel, then one block per output
// tile). See merge_sort.cu for the whole stage.
#pragma once

#include <cstdint>

#include "merge_pieces.cuh"
#include "sort.hpp"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

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
