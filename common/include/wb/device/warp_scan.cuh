// Warp-level scan and sum: the lanes of one warp combine their values through shuffles, with
// no shared memory and no barrier (CUB's WarpScan and WarpReduce). Every lane named in
// `lanes` calls them, at the same point.
//
// The scan chapter teaches these in its stage 6 (your exercises/scan/warp_scan.cuh writes the
// scans and the sum; warp_reduce is the sum's butterfly with any op); the block scan and the
// look-back of this layer are built on them.
#pragma once

#include <cstring>
#include <type_traits>

#include "wb/device/plus.hpp"
#include "wb/kernel.hpp"

namespace wb::device {

inline constexpr unsigned full_warp = 0xffffffffu;

// Lane l gets x_0 + ... + x_l: Kogge-Stone on registers (PMPP §11.2, with shuffles instead of
// shared memory), 5 steps of shfl_up. `lanes`: the lanes that take part, 0 to k-1 of the warp
// (k < 32 only in a block's partial last warp).
template <class T>
__device__ __forceinline__ T warp_inclusive_scan(T x, unsigned lanes = full_warp) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const T y = __shfl_up_sync(lanes, x, d);
    if (lane >= d) x = plus(y, x);
  }
  return x;
}

// Lane l gets x_0 + ... + x_{l-1} (0 for lane 0), from the inclusive scan: shifting by one
// lane instead of subtracting x keeps float results exact to the inclusive ones.
template <class T>
__device__ __forceinline__ T warp_exclusive_from_inclusive(T inclusive, unsigned lanes = full_warp) {
  const T y = __shfl_up_sync(lanes, inclusive, 1);
  return (threadIdx.x & 31) == 0 ? T{} : y;
}

// __shfl_xor_sync over a full warp for any trivially copyable T: a number as it is, anything
// else (a struct of several counts) word by word, as CUB shuffles any type.
template <class T>
__device__ __forceinline__ T shuffle_xor(T x, int lane_mask) {
  if constexpr (std::is_arithmetic_v<T>) {
    return __shfl_xor_sync(full_warp, x, lane_mask);
  } else {
    static_assert(std::is_trivially_copyable_v<T>, "shuffled as words: trivially copyable types only");
    constexpr int words = static_cast<int>((sizeof(T) + sizeof(unsigned) - 1) / sizeof(unsigned));
    unsigned w[words] = {};
    std::memcpy(w, &x, sizeof(T));
#pragma unroll
    for (int k = 0; k < words; ++k) w[k] = __shfl_xor_sync(full_warp, w[k], lane_mask);
    std::memcpy(&x, w, sizeof(T));
    return x;
  }
}

// Every lane of a full warp gets op over the 32 lanes' x (a butterfly of shfl_xor); op is
// associative and commutative (a sum, a minimum, a maximum, or one of each on the fields of a
// struct).
template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T x, Op op) {
#pragma unroll
  for (int m = 16; m >= 1; m /= 2) x = op(x, shuffle_xor(x, m));
  return x;
}

// Every lane of a full warp gets the sum of the 32 lanes' x.
template <class T>
__device__ __forceinline__ T warp_sum(T x) {
  return warp_reduce(x, [](T a, T b) { return plus(a, b); });
}

}  // namespace wb::device
