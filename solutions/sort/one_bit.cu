// Stage 1: radix sort, one bit per pass (PMPP §13.3).
//
// Each pass splits the keys by one bit: every key whose bit is 0 goes before every key whose
// bit is 1, each group in input order (stable: the order earlier passes established). The
// count and the scan are the shared steps (radix_passes.hpp); this file is the scatter: each
// thread finds its key's place from the scanned bucket offsets and the number of keys before
// it in its block that share its bit.
#include <cstdint>

#include "block_helpers.cuh"
#include "sort.hpp"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

// One key per thread; block b covers keys [b * blockDim.x, (b + 1) * blockDim.x).
// offsets[d * blocks + b]: where block b's keys with bit d start in dst. Shared memory:
// blockDim.x ints.
template <class K>
__global__ void one_bit_scatter_kernel(const K* src_keys, const std::uint32_t* src_values, K* dst_keys,
                                       std::uint32_t* dst_values, const std::int64_t* offsets, std::int64_t n,
                                       int shift, std::int64_t blocks) {
  int* scratch = wb::dynamic_shared<int>();
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool valid = i < n;
  const K key = valid ? src_keys[i] : K{};
  const int bit = valid ? static_cast<int>(digit_of(key_bits<K>::to_bits(key), shift, 1)) : 0;
  // Ones before me in my block: an exclusive scan of the bits. Zeros before me: the valid
  // keys before me less those ones (SO3: an inclusive scan here counts the key itself).
  int ones_total = 0;
  const int ones_before = block_exclusive_sum(bit, scratch, ones_total);
  if (!valid) return;
  const int zeros_before = static_cast<int>(threadIdx.x) - ones_before;
  const std::int64_t dst = bit ? offsets[blocks + blockIdx.x] + ones_before : offsets[blockIdx.x] + zeros_before;
  dst_keys[dst] = key;
  if (dst_values != nullptr) dst_values[dst] = src_values[i];
}

}  // namespace sort::WB_TRACK

#include "one_bit_host.inl"  // the host side of stage 1, shared by both tracks
