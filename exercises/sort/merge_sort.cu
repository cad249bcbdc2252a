// Stage 6: merge sort (PMPP §13.7): each block sorts a tile in shared memory, then merge
// passes double the sorted runs until one run holds every key.
//
// A merge here finds each key's place directly: a key at position i of its run goes to
// (i - run start) + (the number of keys of the sibling run that must come before it), one
// binary search in the sibling run (the co-rank idea of PMPP §12.3, per key). Stability: a
// key of the left run goes before equal keys of the right run, so a left key counts the right
// keys strictly less (lower bound) and a right key counts the left keys less or equal (upper
// bound). Each pass costs n binary searches of log2(run) reads; a merge-path partition (the
// merge chapter) would search once per tile instead.
#include <cstdint>

#include "sort.hpp"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

// Keys of run [begin, begin + length) that sort before `key`: strictly less (lower bound)
// or, with `or_equal`, less or equal (upper bound).
template <class U>
__device__ __forceinline__ std::int64_t rank_in_run(const U* run, std::int64_t length, U key, bool or_equal) {
  // TODO(sort/6): a binary search in the run (PMPP §12.3's co-rank, for one key).
  return 0;
}

// Where key `i` of a sequence of sorted runs of `width` goes once its run and the sibling run
// are merged (m keys in all).
template <class U>
__device__ __forceinline__ std::int64_t merged_position(const U* keys, std::int64_t m, std::int64_t i,
                                                        std::int64_t width) {
  // TODO(sort/6): the key's place in its merged pair of runs: its position in its run plus
  // its rank in the sibling run, ties going to the left run (stable).
  return 0;
}

// Block b sorts keys [b * tile, (b+1) * tile) (tile = blockDim.x * items, a power of two) in
// shared memory, runs of 1, 2, 4, ... merged level by level.
template <class K>
__global__ void block_merge_sort_kernel(const K* src_keys, const std::uint32_t* src_values, K* dst_keys,
                                        std::uint32_t* dst_values, std::int64_t n, int items) {
  // TODO(sort/6): sort the block's tile in shared memory by merging runs of 1, 2, 4, ... keys
  // (PMPP §13.7), then write it back.
}

// One merge pass over runs of `width` keys in global memory, one key per thread.
template <class K>
__global__ void merge_pass_kernel(const K* src_keys, const std::uint32_t* src_values, K* dst_keys,
                                  std::uint32_t* dst_values, std::int64_t n, std::int64_t width) {
  // TODO(sort/6): move one key (and value) to its place in its merged pair of runs of `width`.
}

}  // namespace sort::WB_TRACK

#include "merge_sort_host.inl"  // the host side of stage 6, shared by both tracks
