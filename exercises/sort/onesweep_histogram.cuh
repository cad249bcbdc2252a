// Stage 5, before the first pass: the histogram of every pass's digits from one read of the
// keys, and the plan (where each pass's buckets start, which passes sort, from which buffer
// into which). See onesweep.cu for the whole stage.
#pragma once

#include <cstdint>

#include "onesweep.hpp"
#include "sort.hpp"
#include "wb/device/block_scan.cuh"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

using namespace sort::onesweep;

// 1. histogram[p * radix + d] += keys whose digit p is d (zero before): every pass's counts
// from one read of the keys. Launched with 256 threads a block, and fewer blocks than there are
// keys to go round (onesweep.hpp, histogram_blocks_for: 4 chunks of 2048 keys a block at least).
// *in_order (zero before) may count the keys in order with their left neighbour, key i - 1 <=
// key i on key_bits' pattern (key 0 counts): a plan that finds all n of them can copy instead
// of sorting.
template <class K>
__global__ void onesweep_histogram_kernel(const K* keys, std::int64_t n, unsigned long long* histogram,
                                          unsigned long long* in_order) {
  // TODO(sort/5): a shared count per (pass, digit); a grid-stride loop over the keys adds
  // every pass's digit of each key (on key_bits' pattern); then add the block's counts to
  // histogram with global atomics. Optional: count the keys in order into *in_order (left at
  // zero, it only means that every input goes through the passes).
}

// 2. One block of radix threads (8 warps: one a pass, if you like): each pass's bucket starts
// (an exclusive sum of its counts) into base[p][0][d], and the plan: which passes sort (a
// digit position where some keys differ), from which buffer into which, so that the last
// sorting pass lands in the output.
__global__ void onesweep_plan_kernel(const unsigned long long* histogram, const unsigned long long* in_order,
                                     int passes, std::int64_t n, std::uint64_t* base, pass_plan* plan,
                                     const void* keys_in, void* keys_out, void* other_keys,
                                     const std::uint32_t* values_in, std::uint32_t* values_out,
                                     std::uint32_t* other_values) {
  // TODO(sort/5): scan each pass's counts into base[(p * 2) * radix + d] (the block's threads
  // one a digit, pass after pass; or warp p alone over pass p, 8 digits a lane, with shuffles);
  // a pass whose one digit holds all n keys is skipped. Thread 0 writes plan[p]: sorting passes
  // alternate between other_keys and keys_out so that the last one writes keys_out (the first
  // reads keys_in); with no sorting pass at all, the last pass copies keys_in to keys_out. (If
  // your histogram counts the keys in order: *in_order == n means no pass sorts.)
}

}  // namespace sort::WB_TRACK
