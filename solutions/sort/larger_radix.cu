// Stage 3: a larger radix (PMPP §13.5). r bits per pass means 32/r (or 64/r) passes instead
// of 32 (64), each reading and writing every key once; but 2^r buckets per block, so the
// counts array grows as 2^r x blocks and each bucket's run in a tile gets shorter (less
// coalesced writes). The README measures r = 1, 2, 4, 8 (--bits).
#include <cstdint>
#include <stdexcept>

#include "local_sort.cuh"
#include "sort.hpp"

#include "local_sort_passes.inl"  // the passes of stages 2-4, shared by both tracks

namespace sort::WB_TRACK {

template <class K>
void sort_larger_radix(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                       std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg);
  const char* stage = "sort_larger_radix";
  // The digit width is a template parameter: the local sort's split loop unrolls over it.
  switch (bits_for(3, cfg)) {
    case 1: return local_sort_passes<K, 1>(keys_in, keys_out, values_in, values_out, n, ws, cfg.block, 1, stage);
    case 2: return local_sort_passes<K, 2>(keys_in, keys_out, values_in, values_out, n, ws, cfg.block, 1, stage);
    case 4: return local_sort_passes<K, 4>(keys_in, keys_out, values_in, values_out, n, ws, cfg.block, 1, stage);
    case 8: return local_sort_passes<K, 8>(keys_in, keys_out, values_in, values_out, n, ws, cfg.block, 1, stage);
  }
  throw std::invalid_argument("sort_larger_radix: bits must be 1, 2, 4 or 8");
}

SORT_INSTANTIATE_DEVICE_STAGE(sort_larger_radix)

}  // namespace sort::WB_TRACK
