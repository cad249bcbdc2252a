// Stage 5, before the first pass: the histogram of every pass's digits from one read of the
// keys, and the plan (where each pass's buckets start, which passes sort, from which buffer
// into which). See onesweep.cu for the whole stage.
#pragma once

#include <cstdint>

#include "onesweep.hpp"
#include "sort.hpp"
#include "wb/device/grid_dependency.cuh"
#include "wb/device/min_max.hpp"
#include "wb/device/warp_scan.cuh"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

using namespace sort::onesweep;

// Every pass's digit of key, counted in the block's shared counts.
template <class U>
__device__ __forceinline__ void count_digits(unsigned* count, U key) {
  constexpr int passes = static_cast<int>(sizeof(U));
#pragma unroll
  for (int p = 0; p < passes; ++p) atomicAdd(&count[p * radix + digit_of(key, p * onesweep_bits, onesweep_bits)], 1u);
}

// The plain histogram of this block's chunks from `begin` on, `stride` keys apart: row k of the
// block's threads reads keys [k * histogram_block, (k + 1) * histogram_block) of each chunk.
template <class K>
__device__ __forceinline__ void count_chunks(const K* keys, std::int64_t n, std::int64_t begin, std::int64_t stride,
                                             unsigned* count) {
  using U = bits_of<K>;
  for (; begin < n; begin += stride) {
    U key[histogram_items];
#pragma unroll
    for (int k = 0; k < histogram_items; ++k) {  // all loads first, so they are in flight together
      const std::int64_t i = begin + k * histogram_block + threadIdx.x;
      key[k] = i < n ? key_bits<K>::to_bits(keys[i]) : U{0};
    }
#pragma unroll
    for (int k = 0; k < histogram_items; ++k) {
      if (begin + k * histogram_block + threadIdx.x < n) count_digits(count, key[k]);
    }
  }
}

// How many of a warp's keys (rows of 32 consecutive keys, `here` of them, the first at rows[0])
// are in order with their left neighbour: in the lane before, or for lane 0 in lane 31 of the
// row before; only the warp's first key needs one from memory (key 0 has none: it counts, so
// that all n count when the keys are sorted). *out_of_order: whether this thread found a key
// that is not.
template <class K, class U>
__device__ unsigned warp_rows_in_order(const U (&key)[histogram_items], const K* rows, std::int64_t first, int here,
                                       bool* out_of_order) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  U lane31_before = lane == 0 && first > 0 && here > 0 ? key_bits<K>::to_bits(rows[-1]) : U{0};
  unsigned in_order = 0;
#pragma unroll
  for (int k = 0; k < histogram_items; ++k) {
    // Lane l takes lane l - 1's key of this row; lane 0 takes lane 31's, kept for the next row.
    const U rotated = __shfl_sync(wb::device::full_warp, key[k], (lane + 31) % 32);
    const U before = lane == 0 ? lane31_before : rotated;
    lane31_before = rotated;
    if (k * 32 + lane < here) {
      in_order += before <= key[k] ? 1u : 0u;
      *out_of_order = *out_of_order || before > key[k];
    }
  }
  return in_order;
}

// 1. histogram[p * radix + d] += keys whose digit p is d (zero before): every pass's counts
// from one read of the keys. The same read counts into *in_order the keys in order with their
// left neighbour (key i - 1 <= key i, as key_bits orders them; key 0 counts): with all n of
// them, the plan copies the input instead of sorting it. Counting the keys in order, not the
// ones out of order, keeps the zero a memset leaves on the safe side ("not known to be
// sorted"), and lets a block stop counting at the first key out of order: the total can no
// longer reach n. So the kernel has two loops over the block's chunks of keys:
//  - while no key out of order has been seen, each warp reads rows of 32 consecutive keys,
//    one after the other, so nearly every key's left neighbour is in its warp, and the block
//    votes after each chunk;
//  - after that, the plain histogram: row k of the block's 256 threads reads keys
//    [k * 256, (k + 1) * 256) of the chunk.
// On random keys the first loop ends after one chunk, and the second runs as if there were no
// check. 4-byte keys are held to 32 registers a thread, so that histogram_blocks_per_sm blocks
// fit on an SM; 8-byte keys would spill there, and run faster at fewer blocks an SM.
template <class K>
__global__ void __launch_bounds__(histogram_block, sizeof(K) == 4 ? histogram_blocks_per_sm : 1)
    onesweep_histogram_kernel(const K* keys, std::int64_t n, unsigned long long* histogram,
                              unsigned long long* in_order) {
  using U = bits_of<K>;
  constexpr int passes = static_cast<int>(sizeof(U));
  constexpr int warp_keys = 32 * histogram_items;
  constexpr std::int64_t chunk = histogram_block * histogram_items;
  __shared__ unsigned count[passes * radix];
  __shared__ unsigned long long block_in_order;
  for (int i = static_cast<int>(threadIdx.x); i < passes * radix; i += histogram_block) count[i] = 0;
  if (threadIdx.x == 0) block_in_order = 0;
  __syncthreads();
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * chunk;
  unsigned thread_in_order = 0;  // at most n / histogram_block (n < 2^36): 32 bits hold it
  std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * chunk;
  bool all_in_order = true;  // the same in every thread of the block (a vote)
  for (; begin < n && all_in_order; begin += stride) {
    const std::int64_t first = begin + warp * warp_keys;  // the warp's rows: keys [first, first + warp_keys)
    const K* rows = keys + first;
    const int here = first < n ? static_cast<int>(n - first < warp_keys ? n - first : warp_keys) : 0;
    U key[histogram_items];
#pragma unroll
    for (int k = 0; k < histogram_items; ++k) {  // all loads first, so they are in flight together
      key[k] = k * 32 + lane < here ? key_bits<K>::to_bits(rows[k * 32 + lane]) : U{0};
    }
    bool out_of_order = false;
    thread_in_order += warp_rows_in_order<K>(key, rows, first, here, &out_of_order);
#pragma unroll
    for (int k = 0; k < histogram_items; ++k) {
      if (k * 32 + lane < here) count_digits(count, key[k]);
    }
    all_in_order = __syncthreads_or(out_of_order) == 0;
  }
  count_chunks(keys, n, begin, stride, count);
  thread_in_order = wb::device::warp_sum(thread_in_order);
  if (lane == 0 && thread_in_order != 0) {
    atomicAdd(&block_in_order, static_cast<unsigned long long>(thread_in_order));
  }
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < passes * radix; i += histogram_block) {
    if (count[i] != 0) atomicAdd(&histogram[i], static_cast<unsigned long long>(count[i]));
  }
  if (threadIdx.x == 0 && block_in_order != 0) atomicAdd(in_order, block_in_order);
}

// 2. One block of radix threads, one warp a pass (8 warps: the 8 passes of 64-bit keys): each
// pass's bucket starts (an exclusive sum of its counts) into base[p][0][d], and the plan: which
// passes sort (a digit position where some keys differ), from which buffer into which, so
// that the last sorting pass lands in the output, how many digit values each pass's keys take
// and how many keys its most frequent digit holds (a pass of few values, or of one dominant
// value, is ranked by match_any: onesweep_few_digits.cuh) and which pass sorts first
// (its keys arrive in input order: it takes match_any at fewer). Keys already in order
// (in_order: all n keys) sort in no pass: the last one copies them. A warp scans its pass
// with shuffles alone: the passes are scanned side by side, and the block meets at one
// barrier, where a scan of the whole block for each pass would wait at barriers pass after pass.
__global__ void __launch_bounds__(radix)
    onesweep_plan_kernel(const unsigned long long* histogram, const unsigned long long* in_order, int passes,
                         std::int64_t n, std::uint64_t* base, pass_plan* plan, const void* keys_in, void* keys_out,
                         void* other_keys, const std::uint32_t* values_in, std::uint32_t* values_out,
                         std::uint32_t* other_values) {
  static_assert(radix == 32 * max_passes, "one warp a pass");
  wb::device::wait_for_previous_grid();  // launched early (onesweep_host.inl): the histogram is complete
  constexpr int per_lane = radix / 32;  // lane l holds the pass's digits [l * per_lane, (l + 1) * per_lane)
  __shared__ int sorts[max_passes];
  __shared__ int digits[max_passes];
  __shared__ unsigned long long largest[max_passes];
  const int pass = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  if (pass < passes) {  // whole warps: the shuffles below have all their lanes
    const int first = pass * radix + lane * per_lane;
    unsigned long long count[per_lane];
#pragma unroll
    for (int k = 0; k < per_lane; ++k) count[k] = histogram[first + k];  // all loads first: one wait
    unsigned long long lane_total = 0;
    int nonzero = 0;
    unsigned long long most = 0;
#pragma unroll
    for (int k = 0; k < per_lane; ++k) {
      lane_total += count[k];
      nonzero += count[k] != 0 ? 1 : 0;
      most = wb::device::max_of(most, count[k]);
    }
    unsigned long long start = wb::device::warp_exclusive_from_inclusive(wb::device::warp_inclusive_scan(lane_total));
#pragma unroll
    for (int k = 0; k < per_lane; ++k) {
      base[(pass * 2) * radix + lane * per_lane + k] = start;
      start += count[k];
    }
    nonzero = wb::device::warp_sum(nonzero);  // the digit values this pass's keys take
    most = wb::device::warp_reduce(  // the pass's largest count
        most, [](unsigned long long x, unsigned long long y) { return wb::device::max_of(x, y); });
    if (lane == 0) {
      // A digit that holds every key (the most frequent holds n): the pass is skipped.
      sorts[pass] = most != static_cast<unsigned long long>(n) && *in_order != static_cast<unsigned long long>(n);
      digits[pass] = nonzero;
      largest[pass] = most;
    }
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  int sorting = 0;
  for (int p = 0; p < passes; ++p) sorting += sorts[p];
  const void* src = keys_in;
  const std::uint32_t* src_values = values_in;
  int run = 0;
  int digits_before = 0;  // the last sorting pass's digit values (0: none sorted yet)
  for (int p = 0; p < passes; ++p) {
    pass_plan here{pass_skip, 0, nullptr, nullptr, nullptr, nullptr, digits[p], 0, largest[p]};
    if (sorts[p]) {
      const bool into_output = (sorting - 1 - run) % 2 == 0;
      here = {pass_sort, run % 2, src, into_output ? keys_out : other_keys, src_values,
              values_in == nullptr ? nullptr : (into_output ? values_out : other_values), digits[p], digits_before,
              largest[p]};
      src = here.dst_keys;
      src_values = here.dst_values;
      digits_before = digits[p];
      ++run;
    } else if (sorting == 0 && p == passes - 1) {
      here = {pass_copy, 0, keys_in, keys_out, values_in, values_out, digits[p], 0, largest[p]};
    }
    plan[p] = here;
  }
}

}  // namespace sort::WB_TRACK
