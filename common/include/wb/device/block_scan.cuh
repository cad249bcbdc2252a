// Block-level scan: the exclusive sum of one count per thread over the threads of a block
// (CUB's BlockScan with its warp-scans algorithm). Each warp scans its values with shuffles
// (warp_scan.cuh); the warps' totals meet in shared memory; each thread adds up the totals
// of the warps before its own. One barrier (two when the shared totals are reused at once).
//
// Used where a block must place its items one after another: the sort chapter's splits by a
// bit (stages 1-4) and each tile's digit starts (stage 5), the counting chapter's runs and
// bucket scatter. Counts only (integers): the exclusive sum is the inclusive one minus x,
// exact for integers.
#pragma once

#include <type_traits>

#include "wb/device/warp_scan.cuh"
#include "wb/kernel.hpp"

namespace wb::device {

namespace detail {

template <int Threads, bool Reused, bool WantTotal, class T>
__device__ __forceinline__ T block_exclusive_sum(T x, T* warp_totals, T* total) {
  static_assert(std::is_integral_v<T>, "a block scan of counts: inclusive - x is exact only for integers");
  static_assert(Threads >= 0 && Threads % 32 == 0 && Threads <= 1024,
                "Threads: 0 (the whole block) or whole warps, at most 1024 threads");
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  const int warps = Threads > 0 ? Threads / 32 : (static_cast<int>(blockDim.x) + 31) / 32;
  unsigned lanes = full_warp;  // a partial last warp (the whole block, blockDim.x not a multiple of 32)
  bool last_of_warp = lane == 31;
  if constexpr (Threads == 0) {
    const int in_warp = static_cast<int>(blockDim.x) - warp * 32;
    if (in_warp < 32) {
      lanes = (1u << in_warp) - 1u;
      last_of_warp = lane == in_warp - 1;
    }
  }
  const T inclusive = warp_inclusive_scan(x, lanes);
  if (warp < warps && last_of_warp) warp_totals[warp] = inclusive;
  __syncthreads();
  T before = 0;
  if (warp < warps) {
    for (int w = 0; w < warp; ++w) before = plus(before, warp_totals[w]);
  }
  if constexpr (WantTotal) {
    T sum = 0;
    for (int w = 0; w < warps; ++w) sum = plus(sum, warp_totals[w]);
    *total = sum;
  }
  if constexpr (Reused) __syncthreads();  // warp_totals may be written again at once
  using U = std::make_unsigned_t<T>;  // wrapping, as plus: signed overflow is undefined
  return static_cast<T>(static_cast<U>(plus(before, inclusive)) - static_cast<U>(x));
}

}  // namespace detail

// The exclusive sum of x over the threads that take part: the first Threads threads of the
// block (whole warps, known at compile time; the block may have more threads: they call it
// too, at the same point, and get an unspecified result), or with Threads = 0 every thread of
// the block (any blockDim.x from 1 to 1024). warp_totals: shared memory for one T per warp
// that takes part. Reused = false leaves out the closing barrier, for a caller that
// synchronises before it calls again.
template <int Threads = 0, bool Reused = true, class T>
__device__ __forceinline__ T block_exclusive_sum(T x, T* warp_totals) {
  return detail::block_exclusive_sum<Threads, Reused, false>(x, warp_totals, static_cast<T*>(nullptr));
}

// The same, and `total` gets the sum over every thread that takes part (the same on all).
template <int Threads = 0, bool Reused = true, class T>
__device__ __forceinline__ T block_exclusive_sum(T x, T* warp_totals, T& total) {
  return detail::block_exclusive_sum<Threads, Reused, true>(x, warp_totals, &total);
}

}  // namespace wb::device
