// Stage 4: hierarchical scan for any length (PMPP §11.6). Three launches: scan the sections
// and record each section's total; scan the totals; add each section's predecessor total.
#include <cstdint>

#include "coarsened_block_scan.cuh"
#include "scan.hpp"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

template <class T>
void scan_hierarchical(const T* in, T* out, std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg, sizeof(T));
  if (n == 0) return;
  carver pieces(ws, "scan_hierarchical");
  // TODO(scan/4): the three launches of PMPP §11.6, with sections of cfg.block *
  // items_for(4, cfg, sizeof(T)) items, the section sums taken from `pieces`, and the sums'
  // own scan done the same way (recursively) when they fill more than one section.
}

SCAN_INSTANTIATE_DEVICE_STAGE(scan_hierarchical)

}  // namespace scan::WB_TRACK
