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
  std::int64_t lo = 0, hi = length;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    const bool before = or_equal ? !(key < run[mid]) : run[mid] < key;
    if (before) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Where key `i` of a sequence of sorted runs of `width` goes once its run and the sibling run
// are merged (m keys in all).
template <class U>
__device__ __forceinline__ std::int64_t merged_position(const U* keys, std::int64_t m, std::int64_t i,
                                                        std::int64_t width) {
  const std::int64_t run = i / width;
  const std::int64_t start = run * width;
  const std::int64_t sibling = (run ^ 1) * width;
  const std::int64_t pair_start = (run & ~std::int64_t{1}) * width;
  if (sibling >= m) return i;  // no sibling: the run stays where it is
  const std::int64_t sibling_length = sibling + width < m ? width : m - sibling;
  const bool left = (run & 1) == 0;
  return pair_start + (i - start) + rank_in_run(keys + sibling, sibling_length, keys[i], !left);
}

// Block b sorts keys [b * tile, (b+1) * tile) (tile = blockDim.x * items, a power of two) in
// shared memory, runs of 1, 2, 4, ... merged level by level.
template <class K>
__global__ void block_merge_sort_kernel(const K* src_keys, const std::uint32_t* src_values, K* dst_keys,
                                        std::uint32_t* dst_values, std::int64_t n, int items) {
  using U = bits_of<K>;
  const int tile = static_cast<int>(blockDim.x) * items;
  U* keys = wb::dynamic_shared<U>();
  U* keys_other = keys + tile;
  auto* values = reinterpret_cast<std::uint32_t*>(keys_other + tile);
  std::uint32_t* values_other = values + tile;
  const bool with_values = dst_values != nullptr;
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * tile;
  const int m = static_cast<int>(n - base < tile ? n - base : tile);
  for (int i = threadIdx.x; i < m; i += blockDim.x) {
    keys[i] = key_bits<K>::to_bits(src_keys[base + i]);
    if (with_values) values[i] = src_values[base + i];
  }
  __syncthreads();
  for (int width = 1; width < m; width *= 2) {
    for (int i = threadIdx.x; i < m; i += blockDim.x) {
      const auto to = merged_position<U>(keys, m, i, width);
      keys_other[to] = keys[i];
      if (with_values) values_other[to] = values[i];
    }
    __syncthreads();
    U* k = keys; keys = keys_other; keys_other = k;
    std::uint32_t* v = values; values = values_other; values_other = v;
  }
  for (int i = threadIdx.x; i < m; i += blockDim.x) {
    dst_keys[base + i] = key_bits<K>::from_bits(keys[i]);
    if (with_values) dst_values[base + i] = values[i];
  }
}

// One merge pass over runs of `width` keys in global memory, one key per thread.
template <class K>
__global__ void merge_pass_kernel(const K* src_keys, const std::uint32_t* src_values, K* dst_keys,
                                  std::uint32_t* dst_values, std::int64_t n, std::int64_t width) {
  const std::int64_t i = wb::global_thread_index();
  if (i >= n) return;
  // The runs are searched as bit patterns: src_keys reinterpreted would not order floats.
  const std::int64_t run = i / width;
  const std::int64_t start = run * width;
  const std::int64_t sibling = (run ^ 1) * width;
  const std::int64_t pair_start = (run & ~std::int64_t{1}) * width;
  std::int64_t to = i;
  if (sibling < n) {
    const std::int64_t sibling_length = sibling + width < n ? width : n - sibling;
    const bool left = (run & 1) == 0;
    const auto key = key_bits<K>::to_bits(src_keys[i]);
    std::int64_t lo = 0, hi = sibling_length;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      const auto other = key_bits<K>::to_bits(src_keys[sibling + mid]);
      const bool before = left ? other < key : !(key < other);
      if (before) lo = mid + 1;
      else hi = mid;
    }
    to = pair_start + (i - start) + lo;
  }
  dst_keys[to] = src_keys[i];
  if (dst_values != nullptr) dst_values[to] = src_values[i];
}

}  // namespace sort::WB_TRACK

#include "merge_sort_host.inl"  // the host side of stage 6, shared by both tracks
