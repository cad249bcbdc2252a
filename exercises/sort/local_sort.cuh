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
  // TODO(sort/2): split the tile's m keys stably by `bit`, zeros first (PMPP §13.4): each
  // thread's place among the ones and the zeros comes from a block-wide scan of its counts.
}

// One radix pass over a BITS-bit digit: block b loads its tile (blockDim.x * items keys),
// sorts it locally by the digit, and writes each bucket's run to offsets[d * blocks + b]
// onwards. Shared memory: local_sort_shared_bytes.
template <class K, int BITS>
__global__ void local_sort_scatter_kernel(const K* src_keys, const std::uint32_t* src_values, K* dst_keys,
                                          std::uint32_t* dst_values, const std::int64_t* offsets, std::int64_t n,
                                          int shift, int items, std::int64_t blocks) {
  // TODO(sort/2): sort the block's tile by the BITS-bit digit at `shift` in shared memory
  // (one stable split per bit), then write each digit's run of keys to consecutive addresses
  // from offsets[digit * blocks + block] (PMPP §13.4).
}

}  // namespace sort::WB_TRACK
