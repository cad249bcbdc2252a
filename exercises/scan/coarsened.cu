// Stage 3: thread coarsening in one block (PMPP §11.5). Each thread scans `items`
// consecutive values on its own; only the B thread totals need a parallel scan
// (coarsened_block_scan.cuh). One block sweeps the input section by section with a carry.
#include <cstdint>

#include "coarsened_block_scan.cuh"
#include "scan.hpp"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

// blockDim.x threads, blockDim.x * items * sizeof(T) bytes of dynamic shared memory.
template <class T>
__global__ void coarsened_kernel(const T* in, T* out, std::int64_t n, int items, bool exclusive) {
  // TODO(scan/3): sweep the input in sections of blockDim.x * items: load_section,
  // block_scan_coarsened, store_section with the carry, then carry the section's total on.
}

}  // namespace scan::WB_TRACK

#include "coarsened_host.inl"  // the host side of stage 3, shared by both tracks
