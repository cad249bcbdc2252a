// The decoupled look-back (Merrill & Garland 2016, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back", §4): how a tile of a single-pass scan learns the sum of every tile
// before it without waiting for a chain. CUB calls these pieces ScanTileState and
// TilePrefixCallbackOp.
//
// Every tile publishes, as soon as it knows them,
//   its aggregate (status partial):            the sum of its own items,
//   its inclusive prefix (status inclusive):   the sum of every item up to its end.
// A tile finds its exclusive prefix by walking back over its predecessors, adding their
// aggregates until it meets an inclusive prefix. It waits only for predecessors that have
// published nothing yet, never for their own look-back. Tiles are numbered in the order their
// blocks start (an atomic counter), so every predecessor belongs to a block that is running.
//
// Two kinds of status, for the two uses in the workbook:
//   tile_status<T>        one value per tile (the scan chapter's stage 6), the look-back by
//                         one warp, 32 predecessors a round: tile_look_back;
//   tile_counter_status   many 30-bit counters per tile, one thread per counter (the sort
//                         chapter's onesweep: 256 digit counts per tile, Adinets & Merrill
//                         2022, §3): tile_counter_exclusive_prefix.
//
// The scan chapter teaches the first one in its stage 6 (your exercises/scan/tile_lookback.cuh
// writes it); the sort chapter's stage 5 uses the second.
#pragma once

#include <cstdint>

#include "wb/device/plus.hpp"
#include "wb/device/warp_scan.cuh"
#include "wb/kernel.hpp"
#include "wb/workspace.hpp"

namespace wb::device {

enum tile_state : unsigned { tile_invalid = 0, tile_partial = 1, tile_inclusive = 2 };

// ---------------------------------------------------------------------------------------
// One value per tile
// ---------------------------------------------------------------------------------------

template <class T, bool Packed = sizeof(T) == 4>
struct tile_status;

// 32-bit values: the status and the value in one 64-bit word, written and read as one
// access, so a reader never sees a status without its value; no fence is needed.
template <class T>
struct tile_status<T, true> {
  unsigned long long* words;  // one per tile, zero (invalid) before the launch

  // This layout's array for `tiles` tiles, carved from the workspace (all of it starts at zero).
  static tile_status carve(carver& pieces, std::int64_t tiles) { return {pieces.take<unsigned long long>(tiles)}; }

  __device__ __forceinline__ void publish(std::int64_t tile, tile_state state, T value) const {
    union { T v; unsigned bits; } u{value};
    static_cast<volatile unsigned long long*>(words)[tile] =
        (static_cast<unsigned long long>(state) << 32) | u.bits;
  }
  __device__ __forceinline__ void read(std::int64_t tile, unsigned& state, T& value) const {
    const unsigned long long w = static_cast<volatile unsigned long long*>(words)[tile];
    union { unsigned bits; T v; } u{static_cast<unsigned>(w & 0xffffffffu)};
    state = static_cast<unsigned>(w >> 32);
    value = u.v;
  }
};

#if defined(WB_BACKEND_CUDA)
// 64-bit values on the GPU: the status and the value side by side in one 16-byte word,
// written and read by one 16-byte access each (st/ld.global.cg.v2.u64: one transaction in
// L2, the same guarantee CUB's tile state relies on), so again no fence is needed.
template <class T>
struct tile_status<T, false> {
  ulonglong2* words;  // one per tile, zero (invalid) before the launch

  // This layout's array for `tiles` tiles, carved from the workspace (all of it starts at zero).
  static tile_status carve(carver& pieces, std::int64_t tiles) { return {pieces.take<ulonglong2>(tiles)}; }

  __device__ __forceinline__ void publish(std::int64_t tile, tile_state state, T value) const {
    union { T v; unsigned long long bits; } u{value};
    const unsigned long long s = state;
    asm volatile("st.global.cg.v2.u64 [%0], {%1, %2};" ::"l"(words + tile), "l"(s), "l"(u.bits) : "memory");
  }
  __device__ __forceinline__ void read(std::int64_t tile, unsigned& state, T& value) const {
    unsigned long long s, bits;
    asm volatile("ld.global.cg.v2.u64 {%0, %1}, [%2];" : "=l"(s), "=l"(bits) : "l"(words + tile) : "memory");
    union { unsigned long long b; T v; } u{bits};
    state = static_cast<unsigned>(s);
    value = u.v;
  }
};
#else
// 64-bit values on the cpu backend (no 16-byte atomic access there): a status word and two
// value arrays. The writer stores the value, fences, then stores the status; the reader loads
// the status, fences, then the value. An aggregate and an inclusive prefix live in separate
// arrays, so a value once announced never changes.
template <class T>
struct tile_status<T, false> {
  unsigned* states;  // one per tile, zero (invalid) before the launch
  T* aggregates;
  T* inclusives;

  // This layout's arrays for `tiles` tiles, carved from the workspace (all of it starts at zero).
  static tile_status carve(carver& pieces, std::int64_t tiles) {
    tile_status s;
    s.states = pieces.take<unsigned>(tiles);
    s.aggregates = pieces.take<T>(tiles);
    s.inclusives = pieces.take<T>(tiles);
    return s;
  }

  __device__ __forceinline__ void publish(std::int64_t tile, tile_state state, T value) const {
    static_cast<volatile T*>(state == tile_partial ? aggregates : inclusives)[tile] = value;
    __threadfence();
    static_cast<volatile unsigned*>(states)[tile] = state;
  }
  __device__ __forceinline__ void read(std::int64_t tile, unsigned& state, T& value) const {
    state = static_cast<volatile unsigned*>(states)[tile];
    if (state != tile_invalid) {
      __threadfence();
      value = static_cast<volatile T*>(state == tile_partial ? aggregates : inclusives)[tile];
    } else {
      value = T{};
    }
  }
};
#endif

// Called by every lane of one warp once the tile's aggregate has been published (status
// partial; tile 0 publishes nothing before). Looks back, publishes the inclusive prefix;
// returns the tile's exclusive prefix (the sum of all tiles before it; read it from lane 0).
template <class T>
__device__ T tile_look_back(const tile_status<T>& status, std::int64_t tile, T aggregate) {
  const int lane = threadIdx.x & 31;
  if (tile == 0) {
    if (lane == 0) status.publish(0, tile_inclusive, aggregate);
    return T{};
  }
  T exclusive{};
  // A window of 32 predecessors at a time; lane 31 looks at the nearest one.
  for (std::int64_t window_end = tile;; window_end -= 32) {
    const std::int64_t predecessor = window_end - 32 + lane;
    unsigned state;
    T value;
    do {
      if (predecessor < 0) {  // before tile 0: the identity, and nothing further to look at
        state = tile_inclusive;
        value = T{};
      } else {
        status.read(predecessor, state, value);
      }
    } while (__any_sync(full_warp, state == tile_invalid));
    // The nearest inclusive predecessor ends the walk: count it and every partial after it.
    const unsigned inclusive_lanes = __ballot_sync(full_warp, state == tile_inclusive);
    const int nearest_inclusive = inclusive_lanes == 0 ? -1 : 31 - __clz(static_cast<int>(inclusive_lanes));
    const T window = warp_sum(lane >= nearest_inclusive ? value : T{});
    exclusive = plus(window, exclusive);
    if (inclusive_lanes != 0) break;
  }
  if (lane == 0) status.publish(tile, tile_inclusive, plus(exclusive, aggregate));
  return exclusive;
}

// ---------------------------------------------------------------------------------------
// Many counters per tile, one thread per counter. A counter's state and count share one
// 32-bit word: 2 bits of state above 30 bits of count, one access each way, so no fence is
// needed; counts (and every prefix of them) must stay below 2^30.
// ---------------------------------------------------------------------------------------

struct tile_counter_status {
  static constexpr int count_bits = 30;
  static constexpr unsigned count_mask = (1u << count_bits) - 1u;

  unsigned* words;  // words[tile * counters + counter], zero (invalid) before the look-back starts
  int counters;     // counters per tile

  __device__ __forceinline__ void publish(std::int64_t tile, int counter, tile_state state, unsigned count) const {
    static_cast<volatile unsigned*>(words)[tile * counters + counter] = (static_cast<unsigned>(state) << count_bits) | count;
  }
  __device__ __forceinline__ unsigned load(std::int64_t tile, int counter) const {
    return static_cast<volatile unsigned*>(words)[tile * counters + counter];
  }
};

// Called by one thread for `counter` of `tile` after the tile has published its count
// (partial; tile 0: inclusive). Returns the sum of that counter over all earlier tiles, and
// (tile > 0) publishes the inclusive count. It reads Window predecessors at once, so their
// latencies overlap, and spins only on earlier tiles, which must be running or done.
template <int Window = 4>
__device__ unsigned tile_counter_exclusive_prefix(const tile_counter_status& status, std::int64_t tile, int counter,
                                                  unsigned count) {
  if (tile == 0) return 0;
  constexpr unsigned inclusive_before_first = static_cast<unsigned>(tile_inclusive) << tile_counter_status::count_bits;
  unsigned exclusive = 0;
  for (std::int64_t nearest = tile - 1;; nearest -= Window) {
    unsigned word[Window];
#pragma unroll
    for (int k = 0; k < Window; ++k) {  // before tile 0: an inclusive count of zero
      word[k] = nearest - k >= 0 ? status.load(nearest - k, counter) : inclusive_before_first;
    }
#pragma unroll
    for (int k = 0; k < Window; ++k) {
      while ((word[k] >> tile_counter_status::count_bits) == tile_invalid) word[k] = status.load(nearest - k, counter);
      exclusive += word[k] & tile_counter_status::count_mask;
      if ((word[k] >> tile_counter_status::count_bits) == tile_inclusive) {
        status.publish(tile, counter, tile_inclusive, exclusive + count);
        return exclusive;
      }
    }
  }
}

}  // namespace wb::device
