// Block-level piece of stage 6 (exercise): where a thread keeps its private counters.
//
// PMPP §9.4 gives each BLOCK a private histogram in shared memory. Go one step further: give
// every THREAD its own 256 counters, so no two threads ever touch the same counter (no
// contention, whatever the input), and lay them out so the 32 threads of a warp always use 32
// different banks. They must be narrow to fit: 16 bits, two to a 32-bit word, 128 threads a
// block, 64 KiB. A 16-bit counter holds 65535, so the block empties them into the 256 global
// bins (drain) before any thread counts more items than that.
//
// The solution (solutions/counting/block_histogram.cuh) has three more layouts to compare;
// cfg.variant picks among them there. This exercise has one, and ignores cfg.variant.
#pragma once

#include <cstdint>

#include "wb/kernel.hpp"

namespace counting::WB_TRACK::block_histogram {

__device__ __forceinline__ void add_to_bin(std::uint64_t* bins, int bin, std::uint64_t count) {
  if (count != 0) atomicAdd(reinterpret_cast<unsigned long long*>(&bins[bin]), static_cast<unsigned long long>(count));
}

struct thread16_atomic {
  static constexpr int threads = 128;
  static constexpr int words = 128 * 128;
  static constexpr std::size_t shared_bytes = words * sizeof(std::uint32_t);
  static constexpr std::int64_t drain_items = 65535;

  unsigned char* base;   // the block's counters
  std::uint32_t column;  // t << 2

  __device__ explicit thread16_atomic(std::uint32_t* shared)
      : base(reinterpret_cast<unsigned char*>(shared)), column(threadIdx.x << 2) {}

  __device__ void init() {
    auto* w = reinterpret_cast<std::uint32_t*>(base);
    for (int i = static_cast<int>(threadIdx.x); i < words; i += threads) w[i] = 0;
    __syncthreads();
  }
  // Count item b (0..255, the raw byte of the value).
  __device__ __forceinline__ void count_byte(std::uint32_t b) {
    // TODO(counting/6): add 1 to this thread's 16-bit counter for bin b, in a layout where a
    // warp's 32 threads always use 32 different banks.
  }
  // Count the 4 items packed in w, one byte each (byte k is (w >> 8k) & 0xFF).
  __device__ __forceinline__ void count_word(std::uint32_t w) {
    count_byte(w & 0xFFu);
    count_byte((w >> 8) & 0xFFu);
    count_byte((w >> 16) & 0xFFu);
    count_byte(w >> 24);
  }
  // Every thread of the block calls this at the end: add the block's counts to bins[0..255]
  // (one atomicAdd per bin and block, add_to_bin).
  __device__ void flush(std::uint64_t* bins) {
    __syncthreads();  // every thread's counts are in
    // TODO(counting/6): sum the 128 threads' counters of each bin into bins[bin].
  }
  // Called by every thread at the same point, before any counter can pass 65535.
  __device__ void drain(std::uint64_t* bins) {
    flush(bins);
    __syncthreads();
    init();
  }
};

}  // namespace counting::WB_TRACK::block_histogram
