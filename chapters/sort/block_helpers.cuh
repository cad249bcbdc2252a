// Block-level pieces every radix stage uses, shared by both tracks (the scan chapter
// taught them): a block-wide exclusive sum and the per-block digit counts of step 1.
#pragma once

#include <cstdint>

#include "key_bits.hpp"
#include "wb/kernel.hpp"

namespace sort {

// Exclusive sum of one int per thread over the block (Kogge-Stone, PMPP §11.2); `scratch`
// holds blockDim.x ints of shared memory; `total` gets the block's sum. Every thread of the
// block must call it.
__device__ inline int block_exclusive_sum(int x, int* scratch, int& total) {
  const int t = threadIdx.x;
  scratch[t] = x;
  __syncthreads();
  for (int stride = 1; stride < static_cast<int>(blockDim.x); stride *= 2) {
    const int add = t >= stride ? scratch[t - stride] : 0;
    __syncthreads();
    scratch[t] += add;
    __syncthreads();
  }
  const int inclusive = scratch[t];
  total = scratch[blockDim.x - 1];
  __syncthreads();  // the scratch may be reused at once
  return inclusive - x;
}

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
