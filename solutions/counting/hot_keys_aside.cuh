// Stage 7's sort with the hot keys counted aside: where almost every key of the tail is new (so
// the sort must count) but a few hot keys hold a large share of the items (log lines, user
// ids, web requests), only the tail is sorted. One pass counts the sample's hot keys in a
// shared-memory table of each block and copies every other key, once, to a buffer that also
// holds one copy of each hot key; the sort chapter's radix sort and the run-length encoding
// (distinct_table.hpp) count the buffer; each hot key's row then gets its count. With half the
// items on hot keys the sort reads and writes half the keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "bucket_scatter.cuh"
#include "distinct_table.hpp"
#include "hash_count_state.cuh"
#include "shared_hash_table.cuh"

namespace counting::WB_TRACK {

namespace {

constexpr int aside_threads = 256;
constexpr int aside_items = 16;  // keys a thread, per tile: 16 loads in flight

// The first `listed` places of `rest` get one copy of each listed hot key, and the count of
// kept keys starts after them.
__global__ void hot_copies_kernel(const unsigned long long* hot_keys, std::int64_t* rest, table_state* state) {
  const unsigned long long listed = state->hot < max_hot ? state->hot : max_hot;
  for (std::int64_t i = wb::global_thread_index(); i < static_cast<std::int64_t>(listed); i += wb::grid_thread_count())
    rest[i] = ht::unflip(ht::unmix(hot_keys[i]));
  if (wb::global_thread_index() == 0) state->distinct = listed;  // the keys in `rest` so far
}

// Every key of `in` not among the listed hot keys goes to rest[state->distinct++] (in any
// order: the sort follows); the hot ones are counted in hot_counts. Per tile, every thread
// loads its keys first; a warp's kept keys of one round go to neighbouring places (one
// ballot each), the tile's places are reserved with one atomicAdd.
__global__ void __launch_bounds__(aside_threads)
    hot_keys_aside_kernel(const std::int64_t* in, std::int64_t n, const unsigned long long* hot_keys,
                          unsigned long long* hot_counts, std::int64_t* rest, table_state* state) {
  constexpr int warps = aside_threads / 32;
  constexpr int tile = aside_threads * aside_items;
  __shared__ unsigned long long hot_set[hot_slots];  // hashes of the hot keys (hashed_empty_key: free)
  __shared__ unsigned hot_set_counts[hot_slots];
  __shared__ unsigned short hot_set_index[hot_slots];  // where the key is in hot_keys
  __shared__ unsigned kept_before[aside_items][warps];  // the round's and warp's first place in the tile
  static_assert(aside_items * warps % 32 == 0, "the scan gives each lane of a warp as many counts");
  __shared__ unsigned long long tile_base;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  const unsigned lanes_below = (1u << lane) - 1u;
  ht::shared_clear_hashed<hot_slots>(hot_set, hot_set_counts);
  const int hot = static_cast<int>(state->hot < max_hot ? state->hot : max_hot);
  __syncthreads();
  fill_hot_set<aside_threads>(hot_set, hot_set_index, hot_keys, hot);
  __syncthreads();
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * tile; base < n;
       base += static_cast<std::int64_t>(gridDim.x) * tile) {
    std::int64_t key[aside_items];
    unsigned kept = 0;  // bit k: key k is in the input and not hot
#pragma unroll
    for (int k = 0; k < aside_items; ++k) {
      const std::int64_t j = base + k * aside_threads + static_cast<int>(threadIdx.x);
      key[k] = j < n ? static_cast<std::int64_t>(__ldcs(reinterpret_cast<const long long*>(in) + j)) : 0;
      if (j < n) kept |= 1u << k;
    }
#pragma unroll
    for (int k = 0; k < aside_items; ++k) {
      const unsigned long long h = ht::mix(ht::flip(key[k]));
      if (((kept >> k) & 1u) == 0 || hot == 0 || h == ht::hashed_empty_key) continue;  // INT64_MAX: never hot
      unsigned slot;
      if (find_hot(hot_set, h, slot)) {
        atomicAdd(&hot_set_counts[slot], 1u);
        kept &= ~(1u << k);
      }
    }
    unsigned ballot[aside_items];
#pragma unroll
    for (int k = 0; k < aside_items; ++k) {
      ballot[k] = __ballot_sync(0xffffffffu, (kept >> k) & 1u);
      if (lane == 0) kept_before[k][warp] = static_cast<unsigned>(__popc(ballot[k]));
    }
    __syncthreads();
    if (warp == 0) {  // an exclusive scan of the 128 counts in round order: 4 a lane, then across the lanes
      constexpr int per_lane = aside_items * warps / 32;
      unsigned* counts = &kept_before[0][0];
      unsigned mine = 0;
      for (int q = 0; q < per_lane; ++q) mine += counts[lane * per_lane + q];
      unsigned inclusive = mine;
      for (int d = 1; d < 32; d <<= 1) {
        const unsigned up = __shfl_up_sync(0xffffffffu, inclusive, d);
        if (lane >= d) inclusive += up;
      }
      unsigned running = inclusive - mine;
      for (int q = 0; q < per_lane; ++q) {
        const unsigned c = counts[lane * per_lane + q];
        counts[lane * per_lane + q] = running;
        running += c;
      }
      if (lane == 31) tile_base = inclusive > 0 ? atomicAdd(&state->distinct, static_cast<unsigned long long>(inclusive)) : 0;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < aside_items; ++k) {
      if ((kept >> k) & 1u)
        rest[tile_base + kept_before[k][warp] + static_cast<unsigned>(__popc(ballot[k] & lanes_below))] = key[k];
    }
    __syncthreads();  // kept_before and tile_base are reused by the next tile
  }
  flush_hot_set<aside_threads>(hot_set_counts, hot_set_index, hot_counts);
}

// Each listed hot key's row in the sorted table (found by binary search; its one copy made it
// a row of count 1) gets the count of all its items, which the aside pass counted.
__global__ void hot_counts_kernel(const unsigned long long* hot_keys, const unsigned long long* hot_counts,
                                  device_table<std::int64_t> out, const table_state* state) {
  const unsigned long long listed = state->hot < max_hot ? state->hot : max_hot;
  const std::int64_t rows = *out.size;
  for (std::int64_t i = wb::global_thread_index(); i < static_cast<std::int64_t>(listed); i += wb::grid_thread_count()) {
    const std::int64_t key = ht::unflip(ht::unmix(hot_keys[i]));
    std::int64_t lo = 0, hi = rows;  // the first row whose value is not below key
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (out.values[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    // (a hot key comes from this input's sample: its items were counted aside, at least one)
    if (lo < rows && out.values[lo] == key) out.counts[lo] = hot_counts[i];
  }
}

struct aside_layout {
  std::int64_t* rest;              // the kept keys, after one copy of each hot key
  unsigned long long* hot_keys;    // hashes of the hot keys
  unsigned long long* hot_counts;  // and their counts
  void* scratch;                   // the sort's
};

aside_layout place_aside(arena& a, std::int64_t n) {
  aside_layout l{};
  l.rest = a.take<std::int64_t>(n + max_hot);
  l.hot_keys = a.take<unsigned long long>(max_hot);
  l.hot_counts = a.take<unsigned long long>(max_hot);
  l.scratch = a.rest();
  a.take<unsigned char>(static_cast<std::int64_t>(detail::sort_count_scratch_bytes(n + max_hot)));
  return l;
}

// The sort path with the hot keys aside: lists the sample's hot keys, counts them aside while
// it copies the rest, reads back how many keys the sort gets (the one wait), sorts and
// run-length encodes them into `out`, and gives the hot keys' rows their counts.
path_outcome count_with_hot_keys_aside(const std::int64_t* in, std::int64_t n, const hash_plan& plan, arena& a,
                                       ht::table_view<unsigned> sample_table, device_table<std::int64_t> out,
                                       table_state* state, const hash_count_config& cfg, phase_clock& clock) {
  const aside_layout l = place_aside(a, n);
  wb::launch({1, block}, clear_table_kernel<unsigned>, ht::table_view<unsigned>{nullptr, nullptr, 0}, state);
  wb::launch({grid_for(static_cast<std::int64_t>(sample_table.capacity)), block}, collect_hot_kernel, sample_table,
             plan.hot_sample_count, l.hot_keys, l.hot_counts, state);
  wb::launch({grid_for(max_hot), block}, hot_copies_kernel, static_cast<const unsigned long long*>(l.hot_keys), l.rest,
             state);
  clock.mark("hot_keys");
  const std::int64_t tiles = wb::ceil_div(n, static_cast<std::int64_t>(aside_threads * aside_items));
  const std::int64_t resident = static_cast<std::int64_t>(wb::multiprocessor_count()) * (2048 / aside_threads);
  wb::launch({static_cast<unsigned>(tiles < resident ? tiles : resident), aside_threads}, hot_keys_aside_kernel, in, n,
             static_cast<const unsigned long long*>(l.hot_keys), l.hot_counts, l.rest, state);
  clock.mark("aside");
  const table_state st = read_state(state);
  clock.mark("readback");
  const auto kept = static_cast<std::int64_t>(st.distinct);
  // (The kept keys hold one copy of each hot key: every value of the input, so the plan's word
  // on the values each byte takes holds for them too.)
  detail::sort_run_length_encode(l.rest, kept, out, l.scratch, detail::sort_count_scratch_bytes(n + max_hot), cfg.phases,
                                 false, plan.few_digits_kernel);
  clock.mark("sort");
  wb::launch({grid_for(max_hot), block}, hot_counts_kernel, static_cast<const unsigned long long*>(l.hot_keys),
             static_cast<const unsigned long long*>(l.hot_counts), out, static_cast<const table_state*>(state));
  const unsigned long long listed = st.hot < max_hot ? st.hot : max_hot;
  return {true, "sort, " + std::to_string(listed) + " hot keys aside" +
                    (plan.few_digits_kernel ? "" : " (no byte of few values)")};
}

// The bytes the path takes for n items.
std::size_t hot_keys_aside_bytes(std::int64_t n) {
  arena a(nullptr);
  place_aside(a, n);
  return a.used();
}

}  // namespace

}  // namespace counting::WB_TRACK
