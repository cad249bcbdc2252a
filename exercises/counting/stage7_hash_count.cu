// Stage 7 (exercise): wide keys (int64) on the GPU: a hash table instead of a sort of every item.
//
// The library way to count int64 keys is to sort all N of them (CUB radix sort: 8 passes over
// the data) and run-length encode the runs (the baseline). But only the DISTINCT keys need to
// be in order. So:
//   0. look first: a stratified sample of 2^16 items, counted in a small table, estimates the
//      number of distinct keys (key_sample.cuh, written for you; its table is laid out as
//      yours, home slot and linear probing);
//   1. insert: every item finds or claims its key's slot in one hash table with room for the
//      estimate (hash_table.cuh) and adds one to the slot's count: one pass over the items,
//      one atomic each, on a table small enough to stay in the L2 cache;
//   2. compact: the occupied slots are packed into (key, count) arrays;
//   3. sort only those pairs by key (distinct_table.hpp: the sort chapter's onesweep radix
//      sort) and write the table.
// An estimate can be wrong: if more distinct keys turn up than the table holds, the insert
// reports it and the stage counts by sorting every key instead: a wrong estimate costs time,
// never a wrong count. Yours: the insert in hash_table.cuh, and in global_table.cuh the pass
// over the items (insert_kernel) and the compaction of the occupied slots (compact_kernel).
// The sample, the plan below, the sizing and the sort are written for you. (The solution
// builds two more paths on this core, shared-memory tables per block and a two-level count,
// and its plan chooses among them; see the README.)
#include <algorithm>
#include <stdexcept>
#include <string>

#include "counting.hpp"
#include "distinct_table.hpp"
#include "global_table.cuh"
#include "hash_count_plan.hpp"
#include "key_sample.cuh"
#include "phase_clock.hpp"

namespace counting::WB_TRACK {

// The core's decision table: the sort where there is nothing to count or the configuration
// asks for it; else the one global table (this track's only table: a configuration that forces
// one of the solution's paths gets it too).
hash_plan plan_hash_count(std::int64_t n, const sample_summary& s, const hash_count_config& cfg) {
  hash_plan p = plan_sizes(n, s, cfg);
  const plan_row table[] = {
      {cfg.path == hash_path::sort, hash_path::sort, "forced by the configuration"},
      {n == 0, hash_path::sort, "nothing to count"},
      {true, hash_path::global_table, "one global table"},
  };
  choose_path(p, table, cfg);
  return p;
}

std::size_t count_hash_table_workspace_bytes(std::int64_t n, const config& cfg) {
  arena front(nullptr);  // the state and the sample's table, then the larger path
  front.take<table_state>(1);
  place_sample_table(front, n);
  return front.used() + std::max(global_table_bytes(n), detail::sort_count_scratch_bytes(n) + 256);
}

void count_hash_table(const std::int64_t* in, std::int64_t n, device_table<std::int64_t> out, workspace ws,
                      const config& cfg) {
  validate(cfg);
  if (ws.size < count_hash_table_workspace_bytes(n, cfg))
    throw std::invalid_argument("count_hash_table: workspace too small");
  const hash_count_config& knobs = cfg.hash;
  phase_clock clock(knobs.phases);
  clock.mark("start");
  arena front(ws.bytes);
  auto* state = front.take<table_state>(1);
  const ht::table_view<unsigned> sample_table = place_sample_table(front, n);
  const sample_summary sample = sample_for_plan(in, n, sample_table, state, knobs, clock);
  const hash_plan plan = plan_hash_count(n, sample, knobs);

  arena rest(front.rest());
  path_outcome done;
  if (plan.path == hash_path::global_table) done = count_with_global_table(in, n, plan, rest, out, state, knobs, clock);
  sort_unless_counted(in, n, out, plan, done, front.rest(), knobs, clock);
}

}  // namespace counting::WB_TRACK
