// Stage 2's kernel: memory-coalesced radix sort (PMPP §13.4), used by stages 2-4.
//
// Stage 1's scatter writes each key on its own: neighbouring threads of a block write to
// two buckets far apart, so a warp's stores scatter over memory. Here a block first sorts
// its tile by the pass's digit in shared memory (one stable split per bit of the digit);
// then the keys of one bucket sit side by side and go to consecutive addresses of the
// output, in coalesced runs.
#pragma once

#include <cstdint>

#include "block_helpers.cuh"
#include "sort.hpp"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

// Stable split of the tile's first m keys by one bit, from (in_keys, in_values) to
// (out_keys, out_values), all in shared memory: keys with the bit clear first, then those
// with it set, each group in its input order. Thread t owns keys [t * items, (t+1) * items)
// (consecutive, so thread order is key order); `scratch` holds blockDim.x ints. Values move
// only when out_values is not nullptr.
template <class U>
__device__ void block_split_by_bit(const U* in_keys, const std::uint32_t* in_values, U* out_keys,
                                   std::uint32_t* out_values, int m, int items, int bit, int* scratch) {
  const int first = static_cast<int>(threadIdx.x) * items;
  int ones = 0;
  for (int j = 0; j < items; ++j) {
    const int i = first + j;
    if (i < m) ones += static_cast<int>((in_keys[i] >> bit) & 1u);
  }
  int ones_total = 0;
  int ones_before = block_exclusive_sum(ones, scratch, ones_total);
  const int zeros_total = m - ones_total;
  int zeros_before = (first < m ? first : m) - ones_before;
  for (int j = 0; j < items; ++j) {
    const int i = first + j;
    if (i >= m) break;
    // A key keeps its rank among the keys of its group: stability (SO1).
    const int pos = ((in_keys[i] >> bit) & 1u) ? zeros_total + ones_before++ : zeros_before++;
    out_keys[pos] = in_keys[i];
    if (out_values != nullptr) out_values[pos] = in_values[i];
  }
  __syncthreads();
}

// One radix pass over a BITS-bit digit: block b loads its tile (blockDim.x * items keys),
// sorts it locally by the digit, and writes each bucket's run to offsets[d * blocks + b]
// onwards. Shared memory: local_sort_shared_bytes.
template <class K, int BITS>
__global__ void local_sort_scatter_kernel(const K* src_keys, const std::uint32_t* src_values, K* dst_keys,
                                          std::uint32_t* dst_values, const std::int64_t* offsets, std::int64_t n,
                                          int shift, int items, std::int64_t blocks) {
  using U = bits_of<K>;
  const int tile = static_cast<int>(blockDim.x) * items;
  U* keys = wb::dynamic_shared<U>();
  U* keys_other = keys + tile;
  auto* values = reinterpret_cast<std::uint32_t*>(keys_other + tile);
  std::uint32_t* values_other = values + tile;
  int* scratch = reinterpret_cast<int*>(values_other + tile);
  int* bucket_start = scratch + blockDim.x;
  const bool with_values = dst_values != nullptr;

  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * tile;
  const int m = static_cast<int>(n - base < tile ? n - base : tile);
  for (int i = threadIdx.x; i < m; i += blockDim.x) {  // coalesced loads
    keys[i] = key_bits<K>::to_bits(src_keys[base + i]);
    if (with_values) values[i] = src_values[base + i];
  }
  __syncthreads();
  for (int b = 0; b < BITS; ++b) {  // least significant bit of the digit first
    block_split_by_bit<U>(keys, values, keys_other, with_values ? values_other : nullptr, m, items, shift + b,
                          scratch);
    U* k = keys; keys = keys_other; keys_other = k;
    std::uint32_t* v = values; values = values_other; values_other = v;
  }
  // Where each digit's run starts in the sorted tile.
  for (int i = threadIdx.x; i < m; i += blockDim.x) {
    const unsigned d = digit_of(keys[i], shift, BITS);
    if (i == 0 || digit_of(keys[i - 1], shift, BITS) != d) bucket_start[d] = i;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < m; i += blockDim.x) {  // consecutive threads, consecutive addresses
    const unsigned d = digit_of(keys[i], shift, BITS);
    const std::int64_t dst = offsets[d * blocks + blockIdx.x] + (i - bucket_start[d]);
    dst_keys[dst] = key_bits<K>::from_bits(keys[i]);
    if (with_values) dst_values[dst] = values[i];
  }
}

}  // namespace sort::WB_TRACK
