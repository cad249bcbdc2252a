// Stage 3: a larger radix (PMPP §13.5). r bits per pass means 32/r (or 64/r) passes instead
// of 32 (64), each reading and writing every key once; but 2^r buckets per block, so the
// counts array grows as 2^r x blocks and each bucket's run in a tile gets shorter (less
// coalesced writes). The README measures r = 1, 2, 4, 8 (--bits).
#include <cstdint>

#include "local_sort.cuh"
#include "sort.hpp"

#include "local_sort_passes.inl"  // the passes of stages 2-4, shared by both tracks

namespace sort::WB_TRACK {

template <class K>
void sort_larger_radix(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                       std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg);
  // TODO(sort/3): run the stage-2 passes with the configured digit width, bits_for(3, cfg)
  // bits per pass and one key per thread (PMPP §13.5).
}

SORT_INSTANTIATE_DEVICE_STAGE(sort_larger_radix)

}  // namespace sort::WB_TRACK
