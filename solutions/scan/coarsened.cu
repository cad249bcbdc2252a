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
  T* s = wb::dynamic_shared<T>();
  const int section = blockDim.x * items;
  T carry{};
  for (std::int64_t base = 0; base < n; base += section) {
    load_section(s, in, base, n, items);
    block_scan_coarsened(s, items);
    store_section(s, out, base, n, items, carry, exclusive);
    carry = plus(carry, s[section - 1]);
    __syncthreads();  // before the next section overwrites s
  }
}

}  // namespace scan::WB_TRACK

#include "coarsened_host.inl"  // the host side of stage 3, shared by both tracks
