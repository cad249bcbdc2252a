// Stage 7's one global table, the core every path builds on: one pass over the items, every
// key added into one hash table in global memory (hash_table.cuh) that stays in the L2 cache,
// then the occupied slots packed into (key, count) pairs for the sort of the distinct keys
// (distinct_table.hpp). The shared tables add their blocks' tables into such a table, and the
// two-level count packs its spill table the same way.
#pragma once

#include <cstdint>

#include "hash_count_state.cuh"
#include "warp_combine.cuh"

namespace counting::WB_TRACK {

namespace {

// One pass over the items, one global atomic per key a thread adds (add_keys: with
// `aggregate` 1 or 2 the lanes holding one key add once for all), in a table that stays in
// L2. Every thread loads its tile_items keys first, then adds them. The input is read with
// evict-first loads (__ldcs): it is read once and must not push the table out of L2. A full
// table sets state->overflow (the stage then counts by sorting); INT64_MAX, whose flipped
// pattern marks an empty slot, is counted in state->sentinel_count.
template <int aggregate, class Count>
__global__ void insert_kernel(const std::int64_t* in, std::int64_t n, ht::table_view<Count> t, table_state* state) {
  const std::int64_t tile = static_cast<std::int64_t>(blockDim.x) * tile_items;
  auto add = [&](unsigned long long u, unsigned count) {
    if (u == ht::empty_key) {
      atomicAdd(&state->sentinel_count, static_cast<unsigned long long>(count));
    } else if (!ht::insert(t, u, static_cast<Count>(count))) {
      state->overflow = 1;
    }
  };
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * tile; base < n;
       base += static_cast<std::int64_t>(gridDim.x) * tile) {
    unsigned long long u[tile_items];
    unsigned valid = 0;
#pragma unroll
    for (int k = 0; k < tile_items; ++k) {
      const std::int64_t j = base + k * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
      u[k] = j < n ? ht::flip(__ldcs(reinterpret_cast<const long long*>(in) + j)) : 0;
      if (j < n) valid |= 1u << k;
    }
    add_keys<aggregate>(u, valid, add);
  }
}

// Packs the occupied slots into keys/counts (in no particular order: the sort comes next).
// One atomicAdd per block reserves the block's places; a ballot and popc per warp and a
// small scan over the warps give each thread its place within them.
template <class Count>
__global__ void compact_kernel(ht::table_view<Count> t, unsigned long long* keys, unsigned long long* counts,
                               table_state* state) {
  __shared__ unsigned warp_counts[block / 32];
  __shared__ unsigned long long block_base;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  const auto capacity = static_cast<std::int64_t>(t.capacity);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * block;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * block; base < capacity; base += stride) {
    const std::int64_t i = base + threadIdx.x;
    const unsigned long long key = i < capacity ? t.keys[i] : ht::empty_key;
    const bool occupied = key != ht::empty_key;
    const unsigned ballot = __ballot_sync(0xffffffffu, occupied);
    if (lane == 0) warp_counts[warp] = static_cast<unsigned>(__popc(ballot));
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned total = 0;
      for (int w = 0; w < block / 32; ++w) total += warp_counts[w];
      block_base = atomicAdd(&state->distinct, static_cast<unsigned long long>(total));
    }
    __syncthreads();
    if (occupied) {
      unsigned long long place = block_base + static_cast<unsigned>(__popc(ballot & ((1u << lane) - 1u)));
      for (int w = 0; w < warp; ++w) place += warp_counts[w];
      keys[place] = key;
      counts[place] = t.counts[i];
    }
    __syncthreads();  // warp_counts and block_base are reused next round
  }
}

}  // namespace

}  // namespace counting::WB_TRACK

#include "global_table_host.inl"  // the host side of the global table, shared by both tracks
