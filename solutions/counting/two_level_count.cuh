// Stage 7's two-level count, the host side: the plan of its buckets, their place in the
// workspace, and the launches. First the scatter (bucket_scatter.cuh) writes every key to one of
// 256 to 4096 buckets, counting the sample's hot keys on the way instead of moving them; then
// one block per bucket counts it in a shared-memory table (bucket_tables.cuh). Buckets are
// ranges of KEYS where the sample shows the keys spread evenly over their range (key_ranges.cuh:
// each block then sorts its bucket's pairs itself, and the buckets' pairs in bucket order are
// the table), else ranges of HASHES, and the pairs of all buckets are sorted at the end.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "bucket_scatter.cuh"
#include "bucket_tables.cuh"
#include "global_table.cuh"
#include "hash_count_plan.hpp"
#include "key_ranges.cuh"
#include "key_sample.cuh"

namespace counting::WB_TRACK {

namespace {

constexpr std::int64_t max_spill_keys = std::int64_t{1} << 19;  // the spill table holds N/16 keys, up to 2^19

// The most keys the buckets are planned for: 4096 buckets at 9/16 of their slots.
constexpr double most_bucket_keys = static_cast<double>(bucket_planned_keys << max_bucket_bits);

// Buckets for N below 2^32 (the tables' counts are 32-bit) and `planned` keys that 4096
// buckets hold at 9/16 of their slots (a bucket refuses keys past 3/4): as few buckets as
// hold them so, but at least one per 2^14 items (up to 256) where keys spread evenly, so that
// the bucket tables fill the GPU (256 blocks: an H100 runs 264 at once), and one per 2^16
// (up to 1024) for skewed keys, so that an estimate that is low (zipf-like keys: the sample
// barely sees the tail) still finds room. Fewer buckets make the scatter's runs longer (the
// README's measurements). `forced_bits` >= 0 takes 2^forced_bits buckets instead. The spill
// table (the keys of buckets that a hot key filled) holds N/16 keys, up to 2^19, half full.
std::optional<bucket_plan> plan_buckets(std::int64_t n, double planned, double seen, bool skewed, int forced_bits) {
  if (n <= 0 || n > max_narrow_count || planned > most_bucket_keys) return std::nullopt;
  bucket_plan p;
  const int least_bits = skewed ? 10 : 8;       // at least 1024 buckets (skewed keys) or 256,
  const int items_bits = skewed ? 16 : 14;       // one per 2^16 (or 2^14) items
  while (p.bucket_bits < least_bits && (std::int64_t{1} << (p.bucket_bits + items_bits)) < n) ++p.bucket_bits;
  // Each bucket is one block of the bucket-table kernel: from 2^18 items on, one bucket per
  // 2^12 items up to 256, so that a small input still gives every SM a block (at 2^20 items
  // the rule above gave 16 buckets, 16 busy SMs, 0.58x CUB; 256 buckets: 1.2-1.3x).
  if (n >= (std::int64_t{1} << 18))
    while (p.bucket_bits < 8 && (std::int64_t{1} << (p.bucket_bits + 12)) < n) ++p.bucket_bits;
  while (p.bucket_bits < max_bucket_bits && static_cast<double>(bucket_planned_keys << p.bucket_bits) < planned)
    ++p.bucket_bits;
  if (forced_bits >= 0) p.bucket_bits = forced_bits;
  const std::int64_t buckets = std::int64_t{1} << p.bucket_bits;
  const std::int64_t fair = wb::ceil_div(n, buckets);
  // Where every key has about as many items, a bucket's items vary as its number of keys
  // does: by 1/sqrt(keys a bucket) (2^14 keys in 512 buckets: 18%, and 1/8 of room made
  // buckets spill). The sample saw `seen` keys (fewer than there are): room for 4 standard
  // deviations of that, at least 1/8, at most the fair share again.
  const double keys_per_bucket = seen > 0 ? std::max(1.0, seen / static_cast<double>(buckets)) : 0;
  const double slack = keys_per_bucket > 0 ? std::clamp(4 / std::sqrt(keys_per_bucket), 0.125, 1.0) : 0.125;
  p.capacity = (fair + static_cast<std::int64_t>(std::ceil(slack * static_cast<double>(fair))) + 1024 + 31) / 32 * 32;
  const double spill_keys = static_cast<double>(std::min(n / 16, max_spill_keys));
  p.spill_capacity = capacity_for(static_cast<std::int64_t>(spill_keys), true);
  // A key has a pair in its bucket's table and, if it spilled, one in the spill table (a hot
  // key has its one pair). Buckets by key range give bucket b the places [b room, (b + 1)
  // room) for its pairs.
  p.room = std::min(p.capacity, static_cast<std::int64_t>(bucket_max_keys));
  p.max_pairs = buckets * p.room + std::min(p.spill_capacity, n) + max_hot;
  return p;
}

struct two_level_layout {
  unsigned long long* fill;      // keys sent to each bucket (past its capacity too)
  unsigned long long* bucketed;  // bucket b's hashes at [b * capacity, (b + 1) * capacity)
  unsigned long long* spill_keys;
  unsigned* spill_counts;
  unsigned long long* hot_keys;    // hashes of the hot keys
  unsigned long long* hot_counts;  // and their counts
  unsigned long long* slice_used;    // buckets by key range: pairs of each bucket
  unsigned long long* slice_places;  // and their places in the table
  unsigned long long* pair_keys;
  unsigned long long* pair_counts;
  void* scratch;
  std::size_t scratch_bytes;
};

two_level_layout place_two_level(arena& a, const bucket_plan& p) {
  two_level_layout l{};
  const std::int64_t buckets = std::int64_t{1} << p.bucket_bits;
  l.fill = a.take<unsigned long long>(buckets);
  l.bucketed = a.take<unsigned long long>(buckets * p.capacity);
  l.spill_keys = a.take<unsigned long long>(p.spill_capacity);
  l.spill_counts = a.take<unsigned>(p.spill_capacity);
  l.hot_keys = a.take<unsigned long long>(max_hot);
  l.hot_counts = a.take<unsigned long long>(max_hot);
  l.slice_used = a.take<unsigned long long>(buckets);
  l.slice_places = a.take<unsigned long long>(buckets);
  l.pair_keys = a.take<unsigned long long>(p.max_pairs);
  l.pair_counts = a.take<unsigned long long>(p.max_pairs);
  l.scratch_bytes = detail::distinct_table_scratch_bytes(p.max_pairs);
  l.scratch = a.rest();
  a.take<unsigned char>(static_cast<std::int64_t>(l.scratch_bytes));
  return l;
}

// Clears, lists the hot keys, checks the key ranges, scatters, counts the buckets; returns the
// state read back from the device, the one wait for it (two, where keys spilled: the spill
// table's pairs then go after the buckets'). `sample_table`: the sample's counts, whose keys
// seen `hot_sample_count` times or more are hot (0: none). candidate.mult != 0: buckets by key
// range if the device's check accepts them (state.range_mult != 0), and then the table is
// written to `out` here (unless the state says overflow or spilled: then the sort counts).
table_state run_two_level(const std::int64_t* in, std::int64_t n, const two_level_layout& l, const bucket_plan& p,
                          ht::table_view<unsigned> sample_table, unsigned hot_sample_count, range_map candidate,
                          int aggregate, device_table<std::int64_t> out, table_state* state, phase_clock& clock) {
  const int buckets = 1 << p.bucket_bits;
  const ht::table_view<unsigned> spill{l.spill_keys, l.spill_counts, static_cast<unsigned long long>(p.spill_capacity)};
  wb::launch({grid_for(p.spill_capacity), block}, clear_table_kernel<unsigned>, spill, state);
  WB_CHECK(cudaMemsetAsync(l.fill, 0, static_cast<std::size_t>(buckets) * sizeof(unsigned long long)));
  if (hot_sample_count > 0)
    wb::launch({grid_for(static_cast<std::int64_t>(sample_table.capacity)), block}, collect_hot_kernel, sample_table,
               hot_sample_count, l.hot_keys, l.hot_counts, state);
  clock.mark("clear");
  if (candidate.mult != 0) {  // (after the clear, which zeroes the state: by hash unless the check says so)
    WB_CHECK(cudaMemsetAsync(l.slice_used, 0, static_cast<std::size_t>(buckets) * sizeof(unsigned long long)));
    wb::launch({range_check_blocks, range_check_threads}, range_check_kernel, sample_table, hot_sample_count,
               candidate, static_cast<unsigned>(buckets), l.slice_used);
    wb::launch({1, range_check_threads}, range_most_kernel, static_cast<const unsigned long long*>(l.slice_used),
               static_cast<unsigned>(buckets), candidate, state);
  }
  clock.mark("range_check");
  const std::int64_t tiles = wb::ceil_div(n, static_cast<std::int64_t>(scatter_tile));
  // More than 1024 buckets: the scatter's per-bucket arrays (64 KB) leave room for one block an SM.
  const bool two_blocks_an_sm = p.bucket_bits <= two_blocks_bucket_bits;
  const std::int64_t resident = static_cast<std::int64_t>(wb::multiprocessor_count()) * (two_blocks_an_sm ? 2 : 1);
  wb::launch({static_cast<unsigned>(tiles < resident ? tiles : resident), scatter_threads,
              scatter_shared_bytes(two_blocks_an_sm ? two_blocks_bucket_bits : max_bucket_bits)},
             two_blocks_an_sm ? bucket_scatter_kernel<unsigned, two_blocks_bucket_bits>
                              : bucket_scatter_kernel<unsigned, max_bucket_bits>,
             in, n, p.bucket_bits, p.capacity, l.bucketed, l.fill, spill, static_cast<const unsigned long long*>(l.hot_keys),
             l.hot_counts, state);
  clock.mark("scatter");
  const std::size_t table_shared = bucket_slots * (sizeof(unsigned long long) + sizeof(unsigned));
  auto* table_kernel = bucket_table_kernel<0>;
  switch (aggregate) {
    case 1: table_kernel = bucket_table_kernel<1>; break;
    case 2: table_kernel = bucket_table_kernel<2>; break;
    default: break;
  }
  wb::launch({static_cast<unsigned>(buckets), table_threads, table_shared}, table_kernel,
             static_cast<const unsigned long long*>(l.bucketed), p.capacity,
             static_cast<const unsigned long long*>(l.fill), l.pair_keys, l.pair_counts,
             candidate.mult != 0 ? sorted_slices{l.slice_used, p.room, static_cast<unsigned>(buckets), l.hot_keys,
                                                 l.hot_counts}
                                 : sorted_slices{},
             state);
  if (candidate.mult != 0) {  // (they return at once where the check chose buckets by hash)
    wb::launch({1, slice_scan_threads}, slice_places_kernel, static_cast<const unsigned long long*>(l.slice_used),
               buckets, l.slice_places, static_cast<const table_state*>(state), out);
    wb::launch({static_cast<unsigned>(buckets), block}, copy_slices_kernel,
               static_cast<const unsigned long long*>(l.pair_keys), static_cast<const unsigned long long*>(l.pair_counts),
               p.room, static_cast<const unsigned long long*>(l.slice_used),
               static_cast<const unsigned long long*>(l.slice_places), out, static_cast<const table_state*>(state));
  }
  if (hot_sample_count > 0)  // (it returns at once by key range: they went into their buckets' tables)
    wb::launch({grid_for(max_hot), block}, append_hot_kernel, static_cast<const unsigned long long*>(l.hot_keys),
               static_cast<const unsigned long long*>(l.hot_counts), l.pair_keys, l.pair_counts, state);
  clock.mark("bucket_tables");
  table_state host = read_state(state);
  clock.mark("readback");
  if (host.range_mult != 0 && host.spilled > 0) host.overflow = 1;  // spilled pairs would need a merge: sort instead
  if (host.overflow == 0 && host.spilled > 0) {  // the spill table's pairs go after the buckets'
    wb::launch({grid_for(p.spill_capacity), block}, compact_kernel<unsigned>, spill, l.pair_keys, l.pair_counts,
               state);
    host = read_state(state);
    clock.mark("spill_compact");
  }
  return host;
}

// The two-level path: the buckets' pairs, sorted into `out` (buckets by hash: after the spill
// table's pairs and the hot keys' join them), unless a table filled.
path_outcome count_with_two_levels(const std::int64_t* in, std::int64_t n, const hash_plan& plan, arena& a,
                                   ht::table_view<unsigned> sample_table, const sample_summary& sample,
                                   device_table<std::int64_t> out, table_state* state, const hash_count_config& cfg,
                                   phase_clock& clock) {
  const bucket_plan& p = plan.buckets;
  const two_level_layout l = place_two_level(a, p);
  const int aggregate = cfg.aggregate < 0 ? 0 : cfg.aggregate;  // shared memory: one add a key is fastest
  const table_state st = run_two_level(in, n, l, p, sample_table, plan.hot_sample_count,
                                       range_candidate(sample, p.bucket_bits, cfg.key_ranges), aggregate, out, state,
                                       clock);
  const bool by_range = st.range_mult != 0;
  path_outcome r;
  r.what = "two-level, " + std::to_string(1 << p.bucket_bits) + " buckets";
  if (by_range) r.what += " by key range";
  if (st.hot > 0) r.what += ", " + std::to_string(std::min<unsigned long long>(st.hot, max_hot)) + " hot keys";
  if (st.overflow != 0) return r;
  if (!by_range)  // by key range the slices are the table already
    detail::write_distinct_table(l.pair_keys, l.pair_counts, static_cast<std::int64_t>(st.distinct), st.sentinel_count,
                                 st.spilled > 0, out, l.scratch, l.scratch_bytes, true, cfg.phases);
  r.counted = true;
  return r;
}

// The bytes the path takes at the most: the most buckets, each with the most room.
std::size_t two_level_bytes(std::int64_t n, const hash_count_config& cfg) {
  arena a(nullptr);
  const double most = std::min(static_cast<double>(n), most_bucket_keys);
  if (const std::optional<bucket_plan> p = plan_buckets(n, most, 1, true, cfg.bucket_bits)) place_two_level(a, *p);
  return a.used();
}

}  // namespace

}  // namespace counting::WB_TRACK
