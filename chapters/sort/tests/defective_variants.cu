// The defective variants of defective_variants.hpp: stage 1's count and scatter, with the
// defect switched in where it occurs.
#include "defective_variants.hpp"

#include "block_helpers.cuh"
#include "radix_passes.hpp"
#include "wb/kernel.hpp"

namespace sort::defective {

namespace {

template <class K>
__device__ unsigned bit_of(K key, int shift, defect d) {
  if (d == defect::unflipped_sign) {
    // SO2: the raw bits of a signed key: negative keys (sign bit 1) sort after positive ones.
    return static_cast<unsigned>((static_cast<bits_of<K>>(key) >> shift) & 1u);
  }
  return digit_of(key_bits<K>::to_bits(key), shift, 1);
}

template <class K>
__global__ void count_kernel(const K* keys, std::int64_t* counts, std::int64_t n, int shift, std::int64_t blocks,
                             defect d) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int valid = i < n ? 1 : 0;
  const int ones = __syncthreads_count(valid && bit_of(keys[valid ? i : 0], shift, d));
  const int present = __syncthreads_count(valid);
  if (threadIdx.x == 0) {
    counts[blockIdx.x] = present - ones;
    counts[blocks + blockIdx.x] = ones;
  }
}

template <class K>
__global__ void scatter_kernel(const K* src_keys, const std::uint32_t* src_values, K* dst_keys,
                               std::uint32_t* dst_values, const std::int64_t* offsets, std::int64_t n, int shift,
                               std::int64_t blocks, defect d) {
  int* scratch = wb::dynamic_shared<int>();
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool valid = i < n;
  const K key = valid ? src_keys[i] : K{};
  const int bit = valid ? static_cast<int>(bit_of(key, shift, d)) : 0;
  int ones_total = 0;
  int ones_before = block_exclusive_sum(bit, scratch, ones_total);
  if (!valid) return;
  const int zeros_before = static_cast<int>(threadIdx.x) - ones_before;
  if (d == defect::inclusive_rank) ones_before += bit;  // SO3: counts the key itself
  if (d == defect::unstable_scatter) ones_before = ones_total - 1 - ones_before;  // SO1
  const std::int64_t dst = bit ? offsets[blocks + blockIdx.x] + ones_before : offsets[blockIdx.x] + zeros_before;
  if (dst < 0 || dst >= n) return;  // a defective rank may point outside: drop the key
  dst_keys[dst] = key;
  if (dst_values != nullptr) dst_values[dst] = src_values[i];
}

}  // namespace

template <class K>
void sort_one_bit(defect d, const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                  std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg);
  const int block = cfg.block;
  radix_passes<K>(
      keys_in, keys_out, values_in, values_out, n, ws, block, 1, "defective sort_one_bit",
      [&](const K* keys, std::int64_t* counts, std::int64_t count, int shift, std::int64_t blocks) {
        wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(block)}, count_kernel<K>, keys, counts, count, shift,
                   blocks, d);
      },
      [&](const K* sk, const std::uint32_t* sv, K* dk, std::uint32_t* dv, const std::int64_t* offsets,
          std::int64_t count, int shift, std::int64_t blocks) {
        wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(block), block * sizeof(int)}, scatter_kernel<K>, sk, sv,
                   dk, dv, offsets, count, shift, blocks, d);
      });
}

template void sort_one_bit<std::int32_t>(defect, const std::int32_t*, std::int32_t*, const std::uint32_t*,
                                         std::uint32_t*, std::int64_t, const workspace&, const config&);
template void sort_one_bit<std::uint32_t>(defect, const std::uint32_t*, std::uint32_t*, const std::uint32_t*,
                                          std::uint32_t*, std::int64_t, const workspace&, const config&);

}  // namespace sort::defective
