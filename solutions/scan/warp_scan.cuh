// Warp-level pieces of stage 6: scans and sums across the 32 lanes of a warp with shuffles,
// no shared memory and no barrier (CUB's WarpScan layer). Every lane of the warp calls them.
#pragma once

#include "scan.hpp"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

inline constexpr unsigned full_warp = 0xffffffffu;

// Lane l gets x_0 + ... + x_l (Kogge-Stone on registers: 5 steps of shfl_up).
template <class T>
__device__ __forceinline__ T warp_inclusive_scan(T x) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const T y = __shfl_up_sync(full_warp, x, d);
    if (lane >= d) x = plus(y, x);
  }
  return x;
}

// Lane l gets x_0 + ... + x_{l-1} (0 for lane 0), from the inclusive scan: shifting by one
// lane instead of subtracting x keeps float results exact to the inclusive ones.
template <class T>
__device__ __forceinline__ T warp_exclusive_from_inclusive(T inclusive) {
  const T y = __shfl_up_sync(full_warp, inclusive, 1);
  return (threadIdx.x & 31) == 0 ? T{} : y;
}

// Every lane gets the sum of the 32 lanes' x (butterfly).
template <class T>
__device__ __forceinline__ T warp_sum(T x) {
#pragma unroll
  for (int m = 16; m >= 1; m /= 2) x = plus(x, __shfl_xor_sync(full_warp, x, m));
  return x;
}

}  // namespace scan::WB_TRACK
