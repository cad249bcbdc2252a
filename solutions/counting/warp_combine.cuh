// Warp-level pieces of stage 7: how the keys a warp holds reach a table (add_keys: each lane
// on its own, or the lanes with one key once for all), and how a warp's lanes claim places
// together (warp_claim). Every lane of the warp calls them.
#pragma once

#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

// How a thread's `items` keys (hashes or flipped keys; bit k of `valid`: key k is one) reach
// `add(key, count)` (`aggregate`):
//   0  one add per key. In shared memory this is the fastest, hot keys included: the table is
//      per block, so a hot key costs shared-memory adds on its SM (the block's table is the
//      pre-aggregation), and lanes adding to one shared address are no slower than lanes
//      adding to different ones (the README's measurements);
//   1  the lanes of a warp with the same key find each other (__match_any_sync, 64-bit) and
//      the lowest adds for all: for the global table, where 32 lanes adding to one L2 address
//      wait for each other (zipf-like keys);
//   2  the same on the low 32 bits (cheaper), then each lane checks its whole key against its
//      group's leader's, and the rare lane whose low word alone matched adds on its own.
// Every lane of the warp must call it (1 and 2 use warp-wide votes).
template <int aggregate, int items, class Add>
__device__ __forceinline__ void add_keys(const unsigned long long (&key)[items], unsigned valid, const Add& add) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const unsigned lanes_below = (1u << lane) - 1u;
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const bool mine = (valid >> k) & 1u;
    if constexpr (aggregate == 0) {
      if (mine) add(key[k], 1u);
    } else if constexpr (aggregate == 1) {
      const unsigned peers = __match_any_sync(0xffffffffu, key[k]) & __ballot_sync(0xffffffffu, mine);
      if (mine && (peers & lanes_below) == 0) add(key[k], static_cast<unsigned>(__popc(peers)));
    } else {
      const unsigned peers =
          __match_any_sync(0xffffffffu, static_cast<unsigned>(key[k])) & __ballot_sync(0xffffffffu, mine);
      const int leader = mine ? __ffs(static_cast<int>(peers)) - 1 : lane;
      const bool same = __shfl_sync(0xffffffffu, key[k], leader) == key[k];
      const unsigned strangers = __ballot_sync(0xffffffffu, mine && !same);
      if (mine && !same) {
        add(key[k], 1u);
      } else if (mine && lane == leader) {
        add(key[k], static_cast<unsigned>(__popc(peers & ~strangers)));
      }
    }
  }
}

// The place of this lane's item among those its warp claims at once from `counter` (a
// shared word): lane 0 adds the warp's claims with one atomic, each claiming lane takes the
// next place after the claiming lanes below it. Every lane of the warp calls it; the result
// means something only where `claims`.
__device__ __forceinline__ unsigned warp_claim(bool claims, unsigned* counter) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const unsigned ballot = __ballot_sync(0xffffffffu, claims);
  unsigned base = 0;
  if (lane == 0 && ballot != 0) base = atomicAdd(counter, static_cast<unsigned>(__popc(ballot)));
  base = __shfl_sync(0xffffffffu, base, 0);
  return base + static_cast<unsigned>(__popc(ballot & ((1u << lane) - 1u)));
}

}  // namespace

}  // namespace counting::WB_TRACK
