// Stage 7's one global table (exercise), the core the solution's other paths build on: one
// pass over the items, every key added into one hash table in global memory (hash_table.cuh)
// that stays in the L2 cache, then the occupied slots packed into (key, count) pairs for the
// sort of the distinct keys (distinct_table.hpp). The clearing, the sizing, the launches and
// the sort are written for you (global_table_host.inl); the two kernels are yours.
#pragma once

#include <cstdint>

#include "hash_count_state.cuh"

namespace counting::WB_TRACK {

namespace {

// Step 1, one pass over the items into table t (launched on a grid of enough blocks of
// `block` threads for n / tile_items threads: a thread has several items).
template <int aggregate, class Count>
__global__ void insert_kernel(const std::int64_t* in, std::int64_t n, ht::table_view<Count> t, table_state* state) {
  // TODO(counting/7, open addressing with atomics): every item adds one to its key's count
  // with ht::insert on the flipped key (ht::flip). INT64_MAX flips to ht::empty_key, the
  // pattern of a free slot: count it in state->sentinel_count instead. A full table (insert
  // returns false) sets state->overflow: the stage then counts by sorting. Read the input with
  // evict-first loads (__ldcs): it streams past once and must not push the table out of L2.
  // (`aggregate` 1 or 2: the lanes of a warp holding one key may add once for all.)
}

// Step 2: packs the occupied slots into keys/counts, in any order (the sort comes next).
template <class Count>
__global__ void compact_kernel(ht::table_view<Count> t, unsigned long long* keys, unsigned long long* counts,
                               table_state* state) {
  // TODO(counting/7, stream compaction): each occupied slot (t.keys[i] != ht::empty_key) takes
  // the next free place in keys/counts; state->distinct counts the places taken.
}

}  // namespace

}  // namespace counting::WB_TRACK

#include "global_table_host.inl"  // the host side of the global table, shared by both tracks
