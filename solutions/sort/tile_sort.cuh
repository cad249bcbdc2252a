// Stage 6, level 0: a block sorts its tile (each thread its keys in registers, then the
// block merges runs in shared memory). See merge_sort.cu for the whole stage.
#pragma once

#include <cstdint>

#include "merge_pieces.cuh"
#include "sort.hpp"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

// ---------------------------------------------------------------------------------------
// Level 0: sort a tile in a block
// ---------------------------------------------------------------------------------------

// A thread's ITEMS keys (and values) sorted in registers. Odd-even transposition: rounds of
// compare-exchanges of neighbours, alternately (0,1)(2,3)... and (1,2)(3,4)...; ITEMS rounds
// sort any input. With values, neighbours are exchanged only when strictly out of order, so
// equal keys keep their order (stable). Keys alone need no stability (equal bit patterns are
// the same key): a min and a max, no branch. Fully unrolled: every index is a constant.
template <int ITEMS, bool VALUES, class U>
__device__ __forceinline__ void thread_sort(U (&keys)[ITEMS], std::uint32_t (&values)[ITEMS]) {
#pragma unroll
  for (int round = 0; round < ITEMS; ++round) {
#pragma unroll
    for (int x = round & 1; x + 1 < ITEMS; x += 2) {
      if constexpr (VALUES) {
        const bool swap = keys[x + 1] < keys[x];
        const U k = keys[x];
        const std::uint32_t v = values[x];
        keys[x] = swap ? keys[x + 1] : k;
        keys[x + 1] = swap ? k : keys[x + 1];
        values[x] = swap ? values[x + 1] : v;
        values[x + 1] = swap ? v : values[x + 1];
      } else {
        const U low = keys[x + 1] < keys[x] ? keys[x + 1] : keys[x];
        const U high = keys[x + 1] < keys[x] ? keys[x] : keys[x + 1];
        keys[x] = low;
        keys[x + 1] = high;
      }
    }
  }
}

// Block b sorts keys [b * tile, (b+1) * tile), tile = BLOCK * ITEMS (the last tile may be
// shorter), and writes them as bit patterns (dst_bits) or, when no merge pass follows
// (LAST), as keys (dst_keys).
template <class K, int BLOCK, int ITEMS, bool VALUES, bool LAST>
__global__ void __launch_bounds__(BLOCK)
    block_sort_kernel(const K* __restrict__ keys_in, const std::uint32_t* __restrict__ values_in,
                      bits_of<K>* __restrict__ dst_bits, K* __restrict__ dst_keys,
                      std::uint32_t* __restrict__ dst_values, std::int64_t n) {
  using U = bits_of<K>;
  constexpr int tile = BLOCK * ITEMS;
  U* keys_S = wb::dynamic_shared<U>();
  auto* values_S = reinterpret_cast<std::uint32_t*>(keys_S + tile);  // VALUES only
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * tile;
  const int m = static_cast<int>(n - base < tile ? n - base : tile);
  const int t = static_cast<int>(threadIdx.x);

  // 1. Load striped (coalesced) as bit patterns. Slots past the end get the largest pattern:
  // they sort after every key (after equal ones too: they come last and the sort is stable)
  // and are never stored.
  U keys[ITEMS];
  std::uint32_t values[ITEMS];
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) {
    const int i = x * BLOCK + t;
    keys[x] = i < m ? key_bits<K>::to_bits(keys_in[base + i]) : ~U{0};
    if constexpr (VALUES) values[x] = i < m ? values_in[base + i] : 0u;
  }
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) {
    keys_S[x * BLOCK + t] = keys[x];
    if constexpr (VALUES) values_S[x * BLOCK + t] = values[x];
  }
  __syncthreads();

  // 2. Each thread takes ITEMS consecutive keys (blocked: ITEMS odd, so no bank conflicts)
  // and sorts them in registers: runs of ITEMS.
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) {
    keys[x] = keys_S[t * ITEMS + x];
    if constexpr (VALUES) values[x] = values_S[t * ITEMS + x];
  }
  thread_sort<ITEMS, VALUES>(keys, values);

  // 3. Merge levels in shared memory: runs of ITEMS * threads_per_run keys, pairs of them
  // merged by 2 * threads_per_run threads, each producing its ITEMS outputs in registers with
  // the merge chapter's co-rank and thread merge. One buffer: the outputs wait in registers
  // until every thread of the pair has read its inputs.
  int last_pair = 1;  // threads that shared the keys read last (step 2: each its own)
  for (int threads_per_run = 1; threads_per_run < BLOCK; threads_per_run *= 2) {
    const int threads_per_pair = 2 * threads_per_run;
    level_barrier(last_pair);  // the previous reads are done
#pragma unroll
    for (int x = 0; x < ITEMS; ++x) {
      keys_S[t * ITEMS + x] = keys[x];
      if constexpr (VALUES) values_S[t * ITEMS + x] = values[x];
    }
    level_barrier(threads_per_pair);
    const int width = threads_per_run * ITEMS;
    const int pair_begin = (t & ~(threads_per_pair - 1)) * ITEMS;
    const U* A_S = keys_S + pair_begin;
    const U* B_S = A_S + width;
    const int k = t * ITEMS - pair_begin;  // this thread's first output within the pair
    const int i = wb::device::co_rank_lower_bound<U, int>(k, A_S, width, B_S, width);
    int from[ITEMS];
    wb::device::thread_merge<ITEMS>(A_S, width, B_S, width, i, k - i, keys, from);
    if constexpr (VALUES) {
#pragma unroll
      for (int x = 0; x < ITEMS; ++x) values[x] = values_S[pair_begin + from[x]];
    }
    last_pair = threads_per_pair;
  }

  // 4. Store through shared memory, coalesced (the merge chapter's store_tile_blocked starts
  // with a barrier: every thread is done reading keys_S).
  if constexpr (LAST) {
    K out[ITEMS];
#pragma unroll
    for (int x = 0; x < ITEMS; ++x) out[x] = key_bits<K>::from_bits(keys[x]);
    wb::device::store_tile_blocked<BLOCK, ITEMS>(out, dst_keys + base, m, reinterpret_cast<K*>(keys_S));
  } else {
    wb::device::store_tile_blocked<BLOCK, ITEMS>(keys, dst_bits + base, m, keys_S);
  }
  if constexpr (VALUES) wb::device::store_tile_blocked<BLOCK, ITEMS>(values, dst_values + base, m, values_S);
}

}  // namespace sort::WB_TRACK
