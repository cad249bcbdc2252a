// Block-level pieces every radix stage uses, shared by both tracks: a block-wide exclusive
// sum (the scan chapter taught it) and the per-block digit counts of step 1.
#pragma once

#include <cstdint>

#include "key_bits.hpp"
#include "wb/device/block_scan.cuh"
#include "wb/kernel.hpp"

namespace sort {

// The exclusive sum of one count per thread over the block: the workbook's block scan
// (common/include/wb/device/block_scan.cuh), block_exclusive_sum(x, scratch, total) with
// `scratch` shared memory for one int per warp and `total` the block's sum. Every thread of
// the block calls it; the scratch may be reused as soon as it returns.
using wb::device::block_exclusive_sum;

// Step 1 of a radix pass: block b counts the keys of its tile (blockDim.x * items keys) per
// value of the `bits`-bit digit at `shift` and writes counts[digit * blocks + b] (digit-major:
// the scan of this array orders buckets first by digit, then by block).
template <class K>
__global__ void digit_count_kernel(const K* keys, std::int64_t* counts, std::int64_t n, int shift, int bits,
                                   int items, std::int64_t blocks) {
  __shared__ int count[256];
  const int buckets = 1 << bits;
  for (int d = threadIdx.x; d < buckets; d += blockDim.x) count[d] = 0;
  __syncthreads();
  const std::int64_t tile = static_cast<std::int64_t>(blockDim.x) * items;
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * tile;
  const std::int64_t end = base + tile < n ? base + tile : n;
  for (std::int64_t i = base + threadIdx.x; i < end; i += blockDim.x) {
    atomicAdd(&count[digit_of(key_bits<K>::to_bits(keys[i]), shift, bits)], 1);
  }
  __syncthreads();
  for (int d = threadIdx.x; d < buckets; d += blockDim.x) counts[d * blocks + blockIdx.x] = count[d];
}

}  // namespace sort
