// The block-level piece of stages 3-5: a section of blockDim.x * items values in shared
// memory, scanned by thread coarsening in three phases (PMPP §11.5).
#pragma once

#include <cstdint>

#include "scan.hpp"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

// s[0, blockDim.x * items) <- in[base, base + ...), 0 past n. Coalesced: a warp reads
// consecutive items; the phases below then work on each thread's consecutive run.
template <class T>
__device__ void load_section(T* s, const T* in, std::int64_t base, std::int64_t n, int items) {
  const int section = blockDim.x * items;
  for (int k = threadIdx.x; k < section; k += blockDim.x) s[k] = base + k < n ? in[base + k] : T{};
  __syncthreads();
}

// Scans s[0, blockDim.x * items) in place (inclusive). Thread t owns s[t*items, (t+1)*items).
// Ends with a barrier: every thread may read any s[k] afterwards.
template <class T>
__device__ void block_scan_coarsened(T* s, int items) {
  // TODO(scan/3): the three phases of PMPP §11.5: each thread scans its own run; a parallel
  // scan of the runs' last items (a barrier before it reads them: S3); each thread adds its
  // predecessor's total to its run. End with a barrier.
}

// out[base + k] <- carry + the scanned section (exclusive: shifted by one, carry first).
template <class T>
__device__ void store_section(const T* s, T* out, std::int64_t base, std::int64_t n, int items, T carry,
                              bool exclusive) {
  const int section = blockDim.x * items;
  for (int k = threadIdx.x; k < section && base + k < n; k += blockDim.x) {
    if (exclusive) out[base + k] = k == 0 ? carry : plus(carry, s[k - 1]);
    else out[base + k] = plus(carry, s[k]);
  }
}

}  // namespace scan::WB_TRACK
