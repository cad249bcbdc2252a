// Stage 1's host side, shared by both tracks.
// Included by: solutions/sort/one_bit.cu and exercises/sort/one_bit.cu, at their end.
// Launches: one_bit_scatter_kernel (the track file's); digit_count_kernel
// (chapters/sort/block_helpers.cuh).
// Here: one pass per bit, one key per thread.
#include "radix_passes.hpp"

namespace sort::WB_TRACK {

template <class K>
void sort_one_bit(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                  std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg);
  const int block = cfg.block;
  radix_passes<K>(
      keys_in, keys_out, values_in, values_out, n, ws, block, 1, "sort_one_bit",
      [&](const K* keys, std::int64_t* counts, std::int64_t count, int shift, std::int64_t blocks) {
        wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(block)}, digit_count_kernel<K>, keys, counts, count,
                   shift, 1, 1, blocks);
      },
      [&](const K* sk, const std::uint32_t* sv, K* dk, std::uint32_t* dv, const std::int64_t* offsets,
          std::int64_t count, int shift, std::int64_t blocks) {
        wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(block), block * sizeof(int)},
                   one_bit_scatter_kernel<K>, sk, sv, dk, dv, offsets, count, shift, blocks);
      });
}

SORT_INSTANTIATE_DEVICE_STAGE(sort_one_bit)

}  // namespace sort::WB_TRACK
