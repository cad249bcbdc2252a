// Stage 4: thread coarsening (PMPP §13.6). With one key per thread a block's tile is small,
// so every block has few keys per bucket: short runs, and one count per bucket per block to
// scan. Giving each thread C keys makes tiles C times larger: C times fewer blocks, C times
// fewer counts to scan, longer runs per bucket; the per-thread part of the local split is
// sequential work over the thread's own keys.
#include <cstdint>

#include "local_sort.cuh"
#include "sort.hpp"

#include "local_sort_passes.inl"  // the passes of stages 2-4, shared by both tracks

namespace sort::WB_TRACK {

template <class K>
void sort_coarsened(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                    std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg);
  // TODO(sort/4): run the stage-2 passes with items_for(4, cfg) keys per thread and the
  // configured digit width (PMPP §13.6).
}

SORT_INSTANTIATE_DEVICE_STAGE(sort_coarsened)

}  // namespace sort::WB_TRACK
