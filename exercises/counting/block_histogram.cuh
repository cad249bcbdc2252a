// Block-level piece of stage 6 (exercise): where a thread keeps its private counters.
//
// PMPP §9.4 gives each BLOCK a private histogram in shared memory. Go one step further: give
// every THREAD its own 256 counters, so no two threads ever touch the same counter (no
// atomics contention, whatever the input), and lay them out so the 32 threads of a warp
// always use 32 different banks. They must be narrow to fit: 16 bits, two to a 32-bit word.
//
// The layout to implement (128 threads a block, 64 KiB):
//   thread t's counters for bins 2p (low half) and 2p + 1 (high half) are word p * 128 + t,
//   i.e. byte address ((b & 0xFE) << 8) | (t << 2) for bin b.
// A warp's threads then always use 32 consecutive words: 32 banks. Count an item with one
// shared-memory atomicAdd on its word, of 1 (even bin) or 1 << 16 (odd bin): the atomic unit
// does the read-modify-write. A 16-bit counter holds 65535: flush before a thread counts more.
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
    // TODO(counting/6): the atomicAdd on this thread's word for bin b (see the layout above).
    (void)b;
  }
  // Count the 4 items packed in w, one byte each (byte k is (w >> 8k) & 0xFF).
  __device__ __forceinline__ void count_word(std::uint32_t w) {
    count_byte(w & 0xFFu);
    count_byte((w >> 8) & 0xFFu);
    count_byte((w >> 16) & 0xFFu);
    count_byte(w >> 24);
  }
  // Every thread of the block calls this at the end: add the block's counts to bins[0..255]
  // (one atomicAdd per bin and block). Wait for every thread first (__syncthreads): thread p
  // can then sum row p (words p*128 .. p*128+127: low halves for bin 2p, high for 2p+1).
  __device__ void flush(std::uint64_t* bins) {
    __syncthreads();
    // TODO(counting/6)
    (void)bins;
  }
  // Called by every thread at the same point, before any counter can pass 65535.
  __device__ void drain(std::uint64_t* bins) {
    flush(bins);
    __syncthreads();
    init();
  }
};

}  // namespace counting::WB_TRACK::block_histogram
