// Stage 5, before the first pass: the histogram of every pass's digits from one read of the
// keys, and the plan (where each pass's buckets start, which passes sort, from which buffer
// into which). See onesweep.cu for the whole stage.
#pragma once

#include <cstdint>

#include "onesweep.hpp"
#include "sort.hpp"
#include "wb/device/warp_scan.cuh"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

using namespace sort::onesweep;

// 1. histogram[p * radix + d] += keys whose digit p is d (zero before): every pass's counts
// from one read of the keys.
template <class K>
__global__ void __launch_bounds__(histogram_block)
    onesweep_histogram_kernel(const K* keys, std::int64_t n, unsigned long long* histogram) {
  using U = bits_of<K>;
  constexpr int passes = static_cast<int>(sizeof(U));
  __shared__ unsigned count[passes * radix];
  for (int i = static_cast<int>(threadIdx.x); i < passes * radix; i += histogram_block) count[i] = 0;
  __syncthreads();
  constexpr std::int64_t chunk = histogram_block * histogram_items;
  for (std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * chunk; begin < n;
       begin += static_cast<std::int64_t>(gridDim.x) * chunk) {
    U key[histogram_items];
#pragma unroll
    for (int k = 0; k < histogram_items; ++k) {  // all loads first, so they are in flight together
      const std::int64_t i = begin + k * histogram_block + threadIdx.x;
      key[k] = i < n ? key_bits<K>::to_bits(keys[i]) : U{0};
    }
#pragma unroll
    for (int k = 0; k < histogram_items; ++k) {
      if (begin + k * histogram_block + threadIdx.x < n) {
#pragma unroll
        for (int p = 0; p < passes; ++p) atomicAdd(&count[p * radix + digit_of(key[k], p * onesweep_bits, onesweep_bits)], 1u);
      }
    }
  }
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < passes * radix; i += histogram_block) {
    if (count[i] != 0) atomicAdd(&histogram[i], static_cast<unsigned long long>(count[i]));
  }
}

// 2. One block of radix threads, one warp a pass (8 warps: the 8 passes of 64-bit keys): each
// pass's bucket starts (an exclusive sum of its counts) into base[p][0][d], and the plan: which
// passes sort (a digit position where some keys differ), from which buffer into which, so
// that the last sorting pass lands in the output, and how many digit values each pass's keys
// take (a pass of few is ranked by match_any: onesweep_few_digits.cuh). A warp scans its pass
// with shuffles alone: the passes are scanned side by side, and the block meets at one
// barrier, where a scan of the whole block for each pass would wait at barriers pass after pass.
__global__ void __launch_bounds__(radix)
    onesweep_plan_kernel(const unsigned long long* histogram, int passes, std::int64_t n, std::uint64_t* base,
                         pass_plan* plan, const void* keys_in, void* keys_out, void* other_keys,
                         const std::uint32_t* values_in, std::uint32_t* values_out, std::uint32_t* other_values) {
  static_assert(radix == 32 * max_passes, "one warp a pass");
  constexpr int per_lane = radix / 32;  // lane l holds the pass's digits [l * per_lane, (l + 1) * per_lane)
  __shared__ int sorts[max_passes];
  __shared__ int digits[max_passes];
  const int pass = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  if (pass < passes) {  // whole warps: the shuffles below have all their lanes
    const int first = pass * radix + lane * per_lane;
    unsigned long long count[per_lane];
#pragma unroll
    for (int k = 0; k < per_lane; ++k) count[k] = histogram[first + k];  // all loads first: one wait
    unsigned long long lane_total = 0;
    int nonzero = 0;
    bool one_bucket = false;
#pragma unroll
    for (int k = 0; k < per_lane; ++k) {
      lane_total += count[k];
      nonzero += count[k] != 0 ? 1 : 0;
      one_bucket = one_bucket || count[k] == static_cast<unsigned long long>(n);
    }
    unsigned long long start = wb::device::warp_exclusive_from_inclusive(wb::device::warp_inclusive_scan(lane_total));
#pragma unroll
    for (int k = 0; k < per_lane; ++k) {
      base[(pass * 2) * radix + lane * per_lane + k] = start;
      start += count[k];
    }
    nonzero = wb::device::warp_sum(nonzero);  // the digit values this pass's keys take
    one_bucket = __any_sync(wb::device::full_warp, one_bucket) != 0;
    if (lane == 0) {
      sorts[pass] = !one_bucket;
      digits[pass] = nonzero;
    }
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  int sorting = 0;
  for (int p = 0; p < passes; ++p) sorting += sorts[p];
  const void* src = keys_in;
  const std::uint32_t* src_values = values_in;
  int run = 0;
  for (int p = 0; p < passes; ++p) {
    pass_plan here{pass_skip, 0, nullptr, nullptr, nullptr, nullptr, digits[p]};
    if (sorts[p]) {
      const bool into_output = (sorting - 1 - run) % 2 == 0;
      here = {pass_sort, run % 2, src, into_output ? keys_out : other_keys, src_values,
              values_in == nullptr ? nullptr : (into_output ? values_out : other_values), digits[p]};
      src = here.dst_keys;
      src_values = here.dst_values;
      ++run;
    } else if (sorting == 0 && p == passes - 1) {
      here = {pass_copy, 0, keys_in, keys_out, values_in, values_out, digits[p]};
    }
    plan[p] = here;
  }
}

}  // namespace sort::WB_TRACK
