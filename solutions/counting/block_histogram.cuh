// Block-level pieces of stage 6: where a block keeps its private counters in shared memory
// and how it adds them up. One struct per layout; stage6_privatized.cu picks one (cfg.variant)
// and runs the same device-wide loop over the input with it.
//
// PMPP §9.4 (privatization) gives each BLOCK its own copy of the histogram, so the atomics go
// to shared memory instead of global memory. The atomics are still there: threads of a warp
// whose items share a value queue on one counter (the one-hot input), and 32 random values
// land in random banks of shared memory, so a warp's access is split by bank conflicts. The
// layouts below go one step further and give every THREAD its own counters: no two threads
// ever touch one counter, so no input causes contention. Variant 0 also places them so that
// the 32 threads of a warp always hit 32 different banks, whatever their values; variants 1
// and 2 show what happens when two or four threads share a bank. The price is memory: a
// thread needs 256 counters, so they are narrow (8 or 16 bits, packed into 32-bit words) and
// are emptied into wide counters before they can overflow.
//
// A layout provides:
//   threads               block size it is laid out for
//   shared_bytes          dynamic shared memory it needs
//   drain_items           most items a thread may count between two drain() calls
//   init()                zero the counters (ends with a barrier)
//   count_word(w)         count the 4 items packed in w (one byte each)
//   count_byte(b)         count one item
//   drain(bins)           called by every thread of the block at the same point: make room
//   flush(bins)           at the end: add the block's counts into the 256 global bins
// bins[b] counts the items whose raw byte is b (histogram_table.cuh).
#pragma once

#include <cstdint>

#include "wb/kernel.hpp"

namespace counting::WB_TRACK::block_histogram {

// ---- Byte extraction ---------------------------------------------------------------------
// Byte k of w, placed in bits 8..15 (and also in bits 0..7 for byte_twice). One PRMT
// instruction each on the GPU; the cpu backend shifts and masks.
template <int k>
__device__ __forceinline__ std::uint32_t byte_at_8(std::uint32_t w) {
#if defined(WB_BACKEND_CUDA)
  return __byte_perm(w, 0u, 0x4404u | (k << 4));
#else
  return ((w >> (8 * k)) & 0xFFu) << 8;
#endif
}
template <int k>
__device__ __forceinline__ std::uint32_t byte_twice(std::uint32_t w) {
#if defined(WB_BACKEND_CUDA)
  return __byte_perm(w, 0u, 0x4400u | (k << 4) | k);
#else
  const std::uint32_t b = (w >> (8 * k)) & 0xFFu;
  return b | (b << 8);
#endif
}

__device__ __forceinline__ void add_to_bin(std::uint64_t* bins, int bin, std::uint64_t count) {
  if (count != 0) atomicAdd(reinterpret_cast<unsigned long long*>(&bins[bin]), static_cast<unsigned long long>(count));
}

// ---- Variant 0: 16-bit counters per thread, shared-memory atomics -------------------------
// 128 threads. Thread t's counters for bins 2p and 2p+1 are the low and high halves of word
//     p * 128 + t                 (byte address ((b & 0xFE) << 8) | (t << 2))
// so word p of all threads is one row of 128 words, and a warp's 32 threads always use 32
// consecutive words: 32 banks. One item costs PRMT + LOP3 (address), LOP + IMAD (1 or
// 1 << 16), and one shared atomicAdd: the atomic unit does the read-modify-write, so there
// is no load-to-store dependency in the thread's instruction stream. 64 KiB per block.
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
  template <int k>
  __device__ __forceinline__ void count_byte_of(std::uint32_t w) {
    const std::uint32_t b2 = byte_twice<k>(w);                 // b | b << 8
    const std::uint32_t address = (b2 & 0xFE00u) | column;     // row b >> 1, column t
    const std::uint32_t increment = (b2 & 1u) * 0xFFFFu + 1u;  // odd bin: high half
    atomicAdd(reinterpret_cast<unsigned int*>(base + address), increment);
  }
  __device__ __forceinline__ void count_word(std::uint32_t w) {
    count_byte_of<0>(w);
    count_byte_of<1>(w);
    count_byte_of<2>(w);
    count_byte_of<3>(w);
  }
  __device__ void count_byte(std::uint32_t b) { count_byte_of<0>(b); }

  // Thread p adds up row p (bins 2p, 2p+1) over the 128 columns, starting at its own column
  // so that the 8 threads of one 16-byte access phase read 8 different 16-byte bank groups.
  __device__ void flush(std::uint64_t* bins) {
    __syncthreads();
    const auto* row = reinterpret_cast<const uint4*>(base) + threadIdx.x * 32;
    std::uint32_t low = 0, high = 0;  // at most 128 x 65535 each: fits
    for (int s = 0; s < 32; ++s) {
      const uint4 q = row[(s + threadIdx.x) & 31];
      low += (q.x & 0xFFFFu) + (q.y & 0xFFFFu) + (q.z & 0xFFFFu) + (q.w & 0xFFFFu);
      high += (q.x >> 16) + (q.y >> 16) + (q.z >> 16) + (q.w >> 16);
    }
    add_to_bin(bins, 2 * static_cast<int>(threadIdx.x), low);
    add_to_bin(bins, 2 * static_cast<int>(threadIdx.x) + 1, high);
  }
  // Rare (every 65535 items a thread): flush everything and start again from zero.
  __device__ void drain(std::uint64_t* bins) {
    flush(bins);
    __syncthreads();
    init();
  }
};

// ---- Variant 1: 16-bit counters per thread, plain loads and stores -------------------------
// 128 threads. Thread t's counter for bin b is the 16-bit word at byte address
//     (b << 8) | (t << 1)
// One item: PRMT, LOP (address), load, add, store: cheap in instructions, but each item's
// store must land before the same thread's next load of a counter. The catch: banks are 32
// bits wide, and threads 2j and 2j+1 share one. When their bins are equal they touch the same
// word (no conflict); when they differ they touch two words of one bank: a 2-way conflict, on
// random data about half the time. (The H100 layout sweep in bench/counting/results/README.md
// shows it: one-hot input, where all bins are equal, runs faster than uniform input.)
struct thread16_plain {
  static constexpr int threads = 128;
  static constexpr int words = 256 * 64;
  static constexpr std::size_t shared_bytes = words * sizeof(std::uint32_t);
  static constexpr std::int64_t drain_items = 65535;

  unsigned char* base;
  std::uint32_t column;  // t << 1

  __device__ explicit thread16_plain(std::uint32_t* shared)
      : base(reinterpret_cast<unsigned char*>(shared)), column(threadIdx.x << 1) {}

  __device__ void init() {
    auto* w = reinterpret_cast<std::uint32_t*>(base);
    for (int i = static_cast<int>(threadIdx.x); i < words; i += threads) w[i] = 0;
    __syncthreads();
  }
  template <int k>
  __device__ __forceinline__ void count_byte_of(std::uint32_t w) {
    auto* counter = reinterpret_cast<std::uint16_t*>(base + (byte_at_8<k>(w) | column));
    *counter = static_cast<std::uint16_t>(*counter + 1);
  }
  __device__ __forceinline__ void count_word(std::uint32_t w) {
    count_byte_of<0>(w);
    count_byte_of<1>(w);
    count_byte_of<2>(w);
    count_byte_of<3>(w);
  }
  __device__ void count_byte(std::uint32_t b) { count_byte_of<0>(b); }

  // Row b is 256 bytes (64 words, 2 threads a word); thread t sums rows t and t + 128.
  __device__ void flush(std::uint64_t* bins) {
    __syncthreads();
    for (int r = static_cast<int>(threadIdx.x); r < 256; r += threads) {
      const auto* row = reinterpret_cast<const uint4*>(base) + r * 16;
      std::uint32_t sum = 0;
      for (int s = 0; s < 16; ++s) {
        const uint4 q = row[(s + threadIdx.x) & 15];
        sum += (q.x & 0xFFFFu) + (q.x >> 16) + (q.y & 0xFFFFu) + (q.y >> 16) + (q.z & 0xFFFFu) + (q.z >> 16) +
               (q.w & 0xFFFFu) + (q.w >> 16);
      }
      add_to_bin(bins, r, sum);
    }
  }
  __device__ void drain(std::uint64_t* bins) {
    flush(bins);
    __syncthreads();
    init();
  }
};

// ---- Variant 2: 8-bit counters per thread, plain loads and stores ---------------------------
// 256 threads. Thread t's counter for bin b is the byte at address
//     (b << 8) | t
// Twice as many threads fit in shared memory as with 16 bits, but a byte holds only 255:
// every 128 items the block stops (drain), and thread b moves the 128s of row b into its own
// wide counter `spilled`, so every byte is below 128 again. Four threads share a bank here,
// so random bins give up to 4-way conflicts (variant 1's lesson, twice over).
struct thread8_plain {
  static constexpr int threads = 256;
  static constexpr int words = 256 * 64;
  static constexpr std::size_t shared_bytes = words * sizeof(std::uint32_t);
  static constexpr std::int64_t drain_items = 128;

  unsigned char* base;
  std::uint32_t column;    // t
  std::uint64_t spilled;   // for bin t: the 128s drained from row t so far

  __device__ explicit thread8_plain(std::uint32_t* shared)
      : base(reinterpret_cast<unsigned char*>(shared)), column(threadIdx.x), spilled(0) {}

  __device__ void init() {
    auto* w = reinterpret_cast<std::uint32_t*>(base);
    for (int i = static_cast<int>(threadIdx.x); i < words; i += threads) w[i] = 0;
    __syncthreads();
  }
  template <int k>
  __device__ __forceinline__ void count_byte_of(std::uint32_t w) {
    unsigned char* counter = base + (byte_at_8<k>(w) | column);
    *counter = static_cast<unsigned char>(*counter + 1);
  }
  __device__ __forceinline__ void count_word(std::uint32_t w) {
    count_byte_of<0>(w);
    count_byte_of<1>(w);
    count_byte_of<2>(w);
    count_byte_of<3>(w);
  }
  __device__ void count_byte(std::uint32_t b) { count_byte_of<0>(b); }

  __device__ void drain(std::uint64_t*) {
    __syncthreads();  // every thread has finished counting
    auto* row = reinterpret_cast<uint4*>(base) + threadIdx.x * 16;
    for (int s = 0; s < 16; ++s) {
      const int i = (s + static_cast<int>(threadIdx.x)) & 15;
      uint4 q = row[i];
      const std::uint32_t hx = q.x & 0x80808080u, hy = q.y & 0x80808080u, hz = q.z & 0x80808080u,
                          hw = q.w & 0x80808080u;
      if ((hx | hy | hz | hw) != 0) {
        spilled += 128u * static_cast<unsigned>(__popc(hx) + __popc(hy) + __popc(hz) + __popc(hw));
        q.x ^= hx;
        q.y ^= hy;
        q.z ^= hz;
        q.w ^= hw;
        row[i] = q;
      }
    }
    __syncthreads();  // nobody counts into a row that is being drained
  }
  // Thread b adds up row b: 64 words of 4 bytes, summed two bytes at a time (16-bit lanes
  // hold 64 x 2 x 255 at most), plus what was drained before.
  __device__ void flush(std::uint64_t* bins) {
    __syncthreads();
    const auto* row = reinterpret_cast<const uint4*>(base) + threadIdx.x * 16;
    std::uint32_t pairs = 0;
    for (int s = 0; s < 16; ++s) {
      const uint4 q = row[(s + threadIdx.x) & 15];
      pairs += (q.x & 0x00FF00FFu) + ((q.x >> 8) & 0x00FF00FFu);
      pairs += (q.y & 0x00FF00FFu) + ((q.y >> 8) & 0x00FF00FFu);
      pairs += (q.z & 0x00FF00FFu) + ((q.z >> 8) & 0x00FF00FFu);
      pairs += (q.w & 0x00FF00FFu) + ((q.w >> 8) & 0x00FF00FFu);
    }
    add_to_bin(bins, static_cast<int>(threadIdx.x), spilled + (pairs & 0xFFFFu) + (pairs >> 16));
  }
};

// ---- Variant 3: one 32-bit histogram per warp, shared-memory atomics (PMPP §9.4 style) --------
// 256 threads, 8 warps x 256 counters. The textbook privatization, one level finer: few
// conflicts on random data, but on the one-hot input all 32 threads of a warp hit one
// counter and their atomics are serialised. Kept for comparison.
struct warp32_atomic {
  static constexpr int threads = 256;
  static constexpr int words = 8 * 256;
  static constexpr std::size_t shared_bytes = words * sizeof(std::uint32_t);
  static constexpr std::int64_t drain_items = std::int64_t{1} << 26;  // 32 threads x 2^26 < 2^32

  std::uint32_t* base;  // this warp's 256 counters

  __device__ explicit warp32_atomic(std::uint32_t* shared) : base(shared + (threadIdx.x >> 5) * 256) {}

  __device__ void init() {
    std::uint32_t* all = base - (threadIdx.x >> 5) * 256;
    for (int i = static_cast<int>(threadIdx.x); i < words; i += threads) all[i] = 0;
    __syncthreads();
  }
  template <int k>
  __device__ __forceinline__ void count_byte_of(std::uint32_t w) {
    atomicAdd(&base[(w >> (8 * k)) & 0xFFu], 1u);
  }
  __device__ __forceinline__ void count_word(std::uint32_t w) {
    count_byte_of<0>(w);
    count_byte_of<1>(w);
    count_byte_of<2>(w);
    count_byte_of<3>(w);
  }
  __device__ void count_byte(std::uint32_t b) { count_byte_of<0>(b); }

  __device__ void flush(std::uint64_t* bins) {
    __syncthreads();
    const std::uint32_t* all = base - (threadIdx.x >> 5) * 256;
    std::uint64_t sum = 0;
    for (int w = 0; w < 8; ++w) sum += all[w * 256 + threadIdx.x];
    add_to_bin(bins, static_cast<int>(threadIdx.x), sum);
  }
  __device__ void drain(std::uint64_t* bins) {
    flush(bins);
    __syncthreads();
    init();
  }
};

}  // namespace counting::WB_TRACK::block_histogram
