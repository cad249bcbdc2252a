// The host side of stages 2-4 (included by both tracks' coalesced.cu, larger_radix.cu and
// coarsened.cu after local_sort.cuh): the radix passes with the local-sort kernel, BITS bits
// per pass, `items` keys per thread.
#include <cstddef>

#include "radix_passes.hpp"

namespace sort::WB_TRACK {

template <class K, int BITS>
void local_sort_passes(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                       std::int64_t n, const workspace& ws, int block, int items, const char* stage) {
  const std::int64_t tile = static_cast<std::int64_t>(block) * items;
  const std::size_t shared =
      2 * static_cast<std::size_t>(tile) * (sizeof(bits_of<K>) + 4) + static_cast<std::size_t>(block) * 4 + 256 * 4;
  radix_passes<K>(
      keys_in, keys_out, values_in, values_out, n, ws, tile, BITS, stage,
      [&](const K* keys, std::int64_t* counts, std::int64_t count, int shift, std::int64_t blocks) {
        wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(block)}, digit_count_kernel<K>, keys, counts, count,
                   shift, BITS, items, blocks);
      },
      [&](const K* sk, const std::uint32_t* sv, K* dk, std::uint32_t* dv, const std::int64_t* offsets,
          std::int64_t count, int shift, std::int64_t blocks) {
        wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(block), shared}, local_sort_scatter_kernel<K, BITS>, sk,
                   sv, dk, dv, offsets, count, shift, items, blocks);
      });
}

}  // namespace sort::WB_TRACK
