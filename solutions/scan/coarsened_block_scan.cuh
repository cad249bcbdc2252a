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
  const int t = threadIdx.x;
  T* mine = s + t * items;
  // Phase 1: each thread scans its own run, sequentially (no barriers, n - B additions).
  T acc = mine[0];
  for (int k = 1; k < items; ++k) {
    acc = plus(acc, mine[k]);
    mine[k] = acc;
  }
  // S3: phase 2 reads the last item of other threads' runs: every run must be scanned first.
  __syncthreads();
  // Phase 2: Kogge-Stone over the runs' last items (read, barrier, write, barrier: S1).
  for (int stride = 1; stride < static_cast<int>(blockDim.x); stride *= 2) {
    T v = mine[items - 1];
    if (t >= stride) v = plus(s[(t - stride) * items + items - 1], v);
    __syncthreads();
    mine[items - 1] = v;
    __syncthreads();
  }
  // Phase 3: add the predecessor's total to every item of the run but the last (done).
  if (t > 0) {
    const T before = s[t * items - 1];
    for (int k = 0; k < items - 1; ++k) mine[k] = plus(before, mine[k]);
  }
  __syncthreads();
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
