// Warp-level pieces of stage 6: scans and sums across the 32 lanes of a warp with shuffles,
// no shared memory and no barrier (CUB's WarpScan layer). Every lane of the warp calls them.
#pragma once

#include "scan.hpp"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

inline constexpr unsigned full_warp = 0xffffffffu;

// Lane l gets x_0 + ... + x_l.
template <class T>
__device__ __forceinline__ T warp_inclusive_scan(T x) {
  // TODO(scan/6): Kogge-Stone on registers: __shfl_up_sync at distances 1, 2, 4, 8, 16.
  return x;
}

// Lane l gets x_0 + ... + x_{l-1} (0 for lane 0), from the inclusive scan.
template <class T>
__device__ __forceinline__ T warp_exclusive_from_inclusive(T inclusive) {
  // TODO(scan/6): the inclusive value of the lane before (shift, don't subtract: floats).
  return inclusive;
}

// Every lane gets the sum of the 32 lanes' x.
template <class T>
__device__ __forceinline__ T warp_sum(T x) {
  // TODO(scan/6): a butterfly of __shfl_xor_sync.
  return x;
}

}  // namespace scan::WB_TRACK
