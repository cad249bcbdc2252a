// Stage 2: memory-coalesced radix sort (PMPP §13.4): one bit per pass, one key per thread,
// each block sorting its tile in shared memory before it writes (local_sort.cuh).
#include <cstdint>

#include "local_sort.cuh"
#include "sort.hpp"

#include "local_sort_passes.inl"  // the passes of stages 2-4, shared by both tracks

namespace sort::WB_TRACK {

template <class K>
void sort_coalesced(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                    std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg);
  local_sort_passes<K, 1>(keys_in, keys_out, values_in, values_out, n, ws, cfg.block, 1, "sort_coalesced");
}

SORT_INSTANTIATE_DEVICE_STAGE(sort_coalesced)

}  // namespace sort::WB_TRACK
