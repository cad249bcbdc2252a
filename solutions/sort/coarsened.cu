// Stage 4: thread coarsening (PMPP §13.6). With one key per thread a block's tile is small,
// so every block has few keys per bucket: short runs, and one count per bucket per block to
// scan. Giving each thread C keys makes tiles C times larger: C times fewer blocks, C times
// fewer counts to scan, longer runs per bucket; the per-thread part of the local split is
// sequential work over the thread's own keys.
#include <cstdint>
#include <stdexcept>

#include "local_sort.cuh"
#include "sort.hpp"

#include "local_sort_passes.inl"  // the passes of stages 2-4, shared by both tracks

namespace sort::WB_TRACK {

template <class K>
void sort_coarsened(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                    std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg);
  const char* stage = "sort_coarsened";
  const int items = items_for(4, cfg);
  switch (bits_for(4, cfg)) {
    case 1: return local_sort_passes<K, 1>(keys_in, keys_out, values_in, values_out, n, ws, cfg.block, items, stage);
    case 2: return local_sort_passes<K, 2>(keys_in, keys_out, values_in, values_out, n, ws, cfg.block, items, stage);
    case 4: return local_sort_passes<K, 4>(keys_in, keys_out, values_in, values_out, n, ws, cfg.block, items, stage);
    case 8: return local_sort_passes<K, 8>(keys_in, keys_out, values_in, values_out, n, ws, cfg.block, items, stage);
  }
  throw std::invalid_argument("sort_coarsened: bits must be 1, 2, 4 or 8");
}

SORT_INSTANTIATE_DEVICE_STAGE(sort_coarsened)

}  // namespace sort::WB_TRACK
