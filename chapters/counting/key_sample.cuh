// Stage 7's look before it counts, in both tracks: the stratified sample of hash_sample.hpp
// counted in a small hash table on the device (laid out as the track's hash_table.cuh lays out
// its tables), and its summary (keys seen, seen once, seen twice, the most times one key was
// seen, the smallest and largest key, the places where the key changes, the values each byte
// of the keys took), summed up as the keys go in and read back to the host for the plan: one
// kernel after the table is cleared. The two-level count reads the sample's table again to
// list the hot keys.
#pragma once

#include <cstdint>

#include "hash_count_state.cuh"
#include "hash_sample.hpp"
#include "phase_clock.hpp"
#include "wb/device/block_reduce.cuh"
#include "wb/device/min_max.hpp"

namespace counting::WB_TRACK {

namespace {

// Adds one sampled key u (u != empty_key) to the sample's table t and returns how many times
// the sample had seen it before (0: a new key). It takes the slot the track's insert
// (hash_table.cuh) would: the first one, from u's home slot on, that is empty or holds u. It
// reads the slots probe_window at a time, all loads in flight together: in a half-full table
// the longest run of taken slots (about 26 among 2^17) then costs four waits for memory
// instead of 26, and the kernel waits for its slowest thread.
constexpr int probe_window = 8;
__device__ __forceinline__ unsigned add_to_sample(ht::table_view<unsigned> t, unsigned long long u) {
  const unsigned long long capacity = t.capacity;  // at least 1024: a window never wraps twice
  auto wrap = [capacity](unsigned long long slot) { return slot < capacity ? slot : slot - capacity; };
  unsigned long long h = ht::home_slot(u, capacity);
  for (unsigned long long probed = 0; probed < capacity; probed += probe_window) {  // half full: ends early
    unsigned long long seen[probe_window];
#pragma unroll
    for (int k = 0; k < probe_window; ++k) seen[k] = t.keys[wrap(h + k)];  // keys only change from empty
#pragma unroll
    for (int k = 0; k < probe_window; ++k) {
      unsigned long long here = seen[k];
      if (here == ht::empty_key) {
        here = atomicCAS(&t.keys[wrap(h + k)], ht::empty_key, u);  // claim the slot...
        if (here == ht::empty_key) here = u;                        // ...we did
      }
      if (here == u) return atomicAdd(&t.counts[wrap(h + k)], 1u);
    }
    h = wrap(h + probe_window);
  }
  return 0;  // not reached: the table has twice the slots of the sample
}

// What one thread's adds change in the summary (table_state's sample_* fields), then one
// block's: combined over the block field by field in one block reduce (two barriers), then
// added to the state with one atomic a field. Counts of 32 bits: a block changes each by at
// most its number of adds.
struct summary_change {
  int seen = 0, once = 0, twice = 0, changes = 0;
  unsigned most = 0;
  unsigned long long smallest = ~0ull, largest = 0;
};

__device__ __forceinline__ summary_change combine(const summary_change& a, const summary_change& b) {
  using wb::device::max_of;
  using wb::device::min_of;
  return {a.seen + b.seen,       a.once + b.once,
          a.twice + b.twice,     a.changes + b.changes,
          max_of(a.most, b.most), min_of(a.smallest, b.smallest),
          max_of(a.largest, b.largest)};
}

// Counts the sampled keys in table t and sums up what the plan reads (table_state's sample_*
// fields). Each key's count before its own add says how the summary changes: 0 -> 1 is a new
// key seen once, 1 -> 2 moves a key from once to twice, 2 -> 3 out of twice; the largest count
// any add reaches is the most times one key was seen. Exact, whatever the order of the adds.
// Also the sampled places whose next item holds another key (the runs of sorted or clustered
// input, hash_sample.hpp), and the values each byte of the keys took (the sort's few-digits
// kernel: the plan). Each block adds its sums once (wb/device/block_reduce.cuh).
__global__ void __launch_bounds__(block) sample_insert_kernel(const std::int64_t* in, std::int64_t n,
                                                              ht::table_view<unsigned> t, table_state* state) {
  using u64 = unsigned long long;
  const std::int64_t samples = sample::sample_size(n);
  // The values each byte of the block's keys took (table_state::sample_digits), or-ed here
  // first, then into the state once a block.
  __shared__ unsigned digits[8][8];
  for (int w = static_cast<int>(threadIdx.x); w < 64; w += block) digits[w / 8][w % 8] = 0;
  __syncthreads();
  summary_change mine;
  for (std::int64_t i = wb::global_thread_index(); i < samples; i += wb::grid_thread_count()) {
    const std::int64_t at = sample::position(i, n);
    const std::int64_t key = in[at];
    const u64 u = ht::flip(key);
    if (u != ht::empty_key) {  // INT64_MAX: one key more or less, no matter
      const unsigned before = add_to_sample(t, u);
      mine.seen += before == 0 ? 1 : 0;
      mine.once += (before == 0 ? 1 : 0) - (before == 1 ? 1 : 0);
      mine.twice += (before == 1 ? 1 : 0) - (before == 2 ? 1 : 0);
      mine.most = wb::device::max_of(mine.most, before + 1);
      mine.smallest = wb::device::min_of(mine.smallest, u);
      mine.largest = wb::device::max_of(mine.largest, u);
#pragma unroll
      for (int b = 0; b < 8; ++b) {
        const unsigned v = static_cast<unsigned>(u >> (8 * b)) & 0xFFu;
        atomicOr(&digits[b][v / 32], 1u << (v % 32));
      }
    }
    if (at + 1 < n && in[at + 1] != key) ++mine.changes;
  }
  __shared__ summary_change warp_results[block / 32];
  const summary_change total = wb::device::block_reduce<block>(
      mine, [](const summary_change& x, const summary_change& y) { return combine(x, y); }, warp_results);
  if (threadIdx.x < 64) {  // (the block reduce's barriers: every or is in)
    // Only bits the state lacks: once the first blocks have set them, the others read and
    // skip (256 blocks or-ing the same 64 words queue on them, a microsecond).
    unsigned* state_bits = &state->sample_digits[threadIdx.x / 8][threadIdx.x % 8];
    const unsigned block_bits = digits[threadIdx.x / 8][threadIdx.x % 8];
    if ((block_bits & ~*static_cast<volatile unsigned*>(state_bits)) != 0) atomicOr(state_bits, block_bits);
  }
  if (threadIdx.x != 0) return;
  // A block's once or twice may be negative (its adds moved keys another block had seen): the
  // 64-bit words wrap, and the sums over every block come out right.
  const auto as_u64 = [](int x) { return static_cast<u64>(static_cast<long long>(x)); };
  if (total.seen != 0) atomicAdd(&state->sample_seen, as_u64(total.seen));
  if (total.once != 0) atomicAdd(&state->sample_once, as_u64(total.once));
  if (total.twice != 0) atomicAdd(&state->sample_twice, as_u64(total.twice));
  if (total.changes != 0) atomicAdd(&state->sample_changes, as_u64(total.changes));
  if (total.most != 0) {
    atomicMin(&state->sample_min, total.smallest);
    atomicMax(&state->sample_max, total.largest);
    atomicMax(&state->sample_most, static_cast<u64>(total.most));
  }
}

// The sample's table: half full at most. It sits at the front of the workspace, after the
// state, whether or not the sample is taken (the configuration may give the number of keys).
std::int64_t sample_slots(std::int64_t n) { return capacity_for(sample::sample_size(n), true); }

ht::table_view<unsigned> place_sample_table(arena& a, std::int64_t n) {
  const std::int64_t slots = sample_slots(n);
  return {a.take<unsigned long long>(slots), a.take<unsigned>(slots), static_cast<unsigned long long>(slots)};
}

// Counts the sample in table `t` and queues its summary's way back to the host (request_state).
host_state& start_sample(const std::int64_t* in, std::int64_t n, ht::table_view<unsigned> t, table_state* state) {
  wb::launch({grid_for(static_cast<std::int64_t>(t.capacity)), block}, clear_table_kernel<unsigned>, t, state);
  wb::launch({grid_for(sample::sample_size(n)), block}, sample_insert_kernel, in, n, t, state);
  return request_state(state);
}

// The host's one wait before the plan: the summary of the sample of n items.
sample_summary finish_sample(std::int64_t n, host_state& stored) {
  const table_state st = await_state(stored);
  sample_summary s;
  s.samples = sample::sample_size(n);
  s.seen = static_cast<std::int64_t>(st.sample_seen);
  s.once = static_cast<std::int64_t>(st.sample_once);
  s.twice = static_cast<std::int64_t>(st.sample_twice);
  s.most = static_cast<std::int64_t>(st.sample_most);
  s.min = st.sample_min;
  s.max = st.sample_max;
  s.changes = static_cast<std::int64_t>(st.sample_changes);
  if (s.seen > 0) {
    s.fewest_digit_values = 256;
    for (const auto& byte : st.sample_digits) {
      int values = 0;
      for (const unsigned word : byte) values += __builtin_popcount(word);
      s.fewest_digit_values = values < s.fewest_digit_values ? values : s.fewest_digit_values;
    }
  }
  return s;
}

struct nothing_to_queue {
  void operator()() const {}
};

// The sample, counted and read back, where the plan needs it: not where there is nothing to
// count, the configuration gives the number of keys (cfg.expected_distinct), or it asks for
// the sort (then the summary is empty, s.samples == 0). `while_waiting` runs after the sample
// is queued and before the host waits for its summary: the GPU may start more work meanwhile
// (the solution queues the sort's first kernel there).
template <class WhileWaiting = nothing_to_queue>
sample_summary sample_for_plan(const std::int64_t* in, std::int64_t n, ht::table_view<unsigned> t,
                               table_state* state, const hash_count_config& cfg, phase_clock& clock,
                               WhileWaiting while_waiting = {}) {
  if (n == 0 || cfg.path == hash_path::sort || cfg.expected_distinct != 0) return {};
  host_state& stored = start_sample(in, n, t, state);
  while_waiting();
  const sample_summary s = finish_sample(n, stored);
  clock.mark("estimate");
  return s;
}

}  // namespace

}  // namespace counting::WB_TRACK
