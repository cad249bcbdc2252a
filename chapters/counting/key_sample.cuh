// Stage 7's look before it counts, in both tracks: the stratified sample of hash_sample.hpp
// counted in a small hash table on the device (the track's hash_table.cuh insert), and its
// summary (keys seen, seen once, seen twice, the most times one key was seen, the smallest and
// largest key, the places where the key changes), read back to the host for the plan. The two-level count reads the sample's
// table again to list the hot keys.
#pragma once

#include <cstdint>

#include "hash_count_state.cuh"
#include "hash_sample.hpp"
#include "phase_clock.hpp"

namespace counting::WB_TRACK {

namespace {

// Counts the sampled keys in table t, and the sampled places whose next item holds another
// key (the runs of sorted or clustered input, hash_sample.hpp).
__global__ void sample_insert_kernel(const std::int64_t* in, std::int64_t n, ht::table_view<unsigned> t,
                                     table_state* state) {
  const std::int64_t samples = sample::sample_size(n);
  unsigned changes = 0;
  for (std::int64_t i = wb::global_thread_index(); i < samples; i += wb::grid_thread_count()) {
    const std::int64_t at = sample::position(i, n);
    const std::int64_t key = in[at];
    const unsigned long long u = ht::flip(key);
    if (u != ht::empty_key) ht::insert(t, u, 1u);  // INT64_MAX: one key more or less, no matter
    if (at + 1 < n && in[at + 1] != key) ++changes;
  }
  changes = __reduce_add_sync(0xffffffffu, changes);
  if ((threadIdx.x & 31) == 0 && changes > 0) atomicAdd(&state->sample_changes, static_cast<unsigned long long>(changes));
}

// Frequencies of frequencies: how many keys the sample saw at all, once, twice. Each thread
// reads a few slots, each warp adds its threads' sums (shuffles), each block its warps' (shared
// memory): six global atomics a block. (An atomic from every warp queued on the six words;
// 32 blocks instead left each thread reading its 16 slots one after another.)
constexpr int frequencies_slots_per_thread = 4;
__global__ void __launch_bounds__(block) sample_frequencies_kernel(ht::table_view<unsigned> t, table_state* state) {
  unsigned long long seen = 0, once = 0, twice = 0, smallest = ~0ull, largest = 0, most = 0;
  for (std::int64_t i = wb::global_thread_index(); i < static_cast<std::int64_t>(t.capacity);
       i += wb::grid_thread_count()) {
    const unsigned long long u = t.keys[i];
    if (u == ht::empty_key) continue;
    ++seen;
    once += t.counts[i] == 1u ? 1 : 0;
    twice += t.counts[i] == 2u ? 1 : 0;
    smallest = u < smallest ? u : smallest;
    largest = u > largest ? u : largest;
    most = t.counts[i] > most ? t.counts[i] : most;
  }
  for (int d = 16; d > 0; d >>= 1) {
    seen += __shfl_xor_sync(0xffffffffu, seen, d);
    once += __shfl_xor_sync(0xffffffffu, once, d);
    twice += __shfl_xor_sync(0xffffffffu, twice, d);
    const unsigned long long s = __shfl_xor_sync(0xffffffffu, smallest, d);
    const unsigned long long l = __shfl_xor_sync(0xffffffffu, largest, d);
    smallest = s < smallest ? s : smallest;
    largest = l > largest ? l : largest;
    const unsigned long long m = __shfl_xor_sync(0xffffffffu, most, d);
    most = m > most ? m : most;
  }
  constexpr int warps = block / 32;
  __shared__ unsigned long long warp_sums[6][warps];
  const int warp = static_cast<int>(threadIdx.x) / 32;
  if ((threadIdx.x & 31) == 0) {
    warp_sums[0][warp] = seen;
    warp_sums[1][warp] = once;
    warp_sums[2][warp] = twice;
    warp_sums[3][warp] = smallest;
    warp_sums[4][warp] = largest;
    warp_sums[5][warp] = most;
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  for (int w = 1; w < warps; ++w) {
    seen += warp_sums[0][w];
    once += warp_sums[1][w];
    twice += warp_sums[2][w];
    smallest = warp_sums[3][w] < smallest ? warp_sums[3][w] : smallest;
    largest = warp_sums[4][w] > largest ? warp_sums[4][w] : largest;
    most = warp_sums[5][w] > most ? warp_sums[5][w] : most;
  }
  if (seen > 0) {
    atomicAdd(&state->sample_seen, seen);
    atomicAdd(&state->sample_once, once);
    atomicAdd(&state->sample_twice, twice);
    atomicMin(&state->sample_min, smallest);
    atomicMax(&state->sample_max, largest);
    atomicMax(&state->sample_most, most);
  }
}

// The sample's table: half full at most. It sits at the front of the workspace, after the
// state, whether or not the sample is taken (the configuration may give the number of keys).
std::int64_t sample_slots(std::int64_t n) { return capacity_for(sample::sample_size(n), true); }

ht::table_view<unsigned> place_sample_table(arena& a, std::int64_t n) {
  const std::int64_t slots = sample_slots(n);
  return {a.take<unsigned long long>(slots), a.take<unsigned>(slots), static_cast<unsigned long long>(slots)};
}

// Counts the sample in table `t` and reads its summary back (the host's one wait before the
// plan).
sample_summary take_sample(const std::int64_t* in, std::int64_t n, ht::table_view<unsigned> t, table_state* state) {
  wb::launch({grid_for(static_cast<std::int64_t>(t.capacity)), block}, clear_table_kernel<unsigned>, t, state);
  wb::launch({grid_for(sample::sample_size(n)), block}, sample_insert_kernel, in, n, t, state);
  wb::launch({grid_for((static_cast<std::int64_t>(t.capacity) + frequencies_slots_per_thread - 1) /
                      frequencies_slots_per_thread),
              block},
             sample_frequencies_kernel, t, state);
  const table_state st = read_state(state);
  sample_summary s;
  s.samples = sample::sample_size(n);
  s.seen = static_cast<std::int64_t>(st.sample_seen);
  s.once = static_cast<std::int64_t>(st.sample_once);
  s.twice = static_cast<std::int64_t>(st.sample_twice);
  s.most = static_cast<std::int64_t>(st.sample_most);
  s.min = st.sample_min;
  s.max = st.sample_max;
  s.changes = static_cast<std::int64_t>(st.sample_changes);
  return s;
}

// The sample where the plan needs it: not where there is nothing to count, the configuration
// gives the number of keys (cfg.expected_distinct), or it asks for the sort.
sample_summary sample_for_plan(const std::int64_t* in, std::int64_t n, ht::table_view<unsigned> t, table_state* state,
                               const hash_count_config& cfg, phase_clock& clock) {
  sample_summary s;
  if (n == 0 || cfg.path == hash_path::sort) return s;
  if (cfg.expected_distinct == 0) s = take_sample(in, n, t, state);
  clock.mark("estimate");
  return s;
}

}  // namespace

}  // namespace counting::WB_TRACK
