// Stage 7: wide keys (int64) on the GPU: count by hashing where keys repeat, by sorting where
// they do not, and let a sample of the input choose.
//
// The library way to count int64 keys is to sort all N of them (radix sort: 8 passes over the
// data) and run-length encode the runs (the baseline, CUB). A hash table needs one pass over
// the items, but each item pays an atomic add on a table of D slots (D: the number of
// DISTINCT keys); where that table lives decides the cost. The core is the exercise's design:
//   one global table (global_table.cuh on hash_table.cuh): every key added into one table in
//      global memory that stays in L2, its occupied slots packed, only the distinct keys
//      sorted (distinct_table.hpp). It stays as a path the configuration can force.
// On it the solution builds three paths, one header each, and a plan that chooses:
//   shared tables (shared_tables.cuh; D up to ~10 thousand): every block counts its share of
//      the items in a table in its own SHARED memory and adds that table into a global table;
//   two-level (two_level_count.cuh; D up to ~19 million): a scatter writes every key to one
//      of 256 to 4096 buckets (bucket_scatter.cuh, hot keys counted on the way), then one
//      block per bucket counts it in a shared-memory table (bucket_tables.cuh); buckets by key
//      range (key_ranges.cuh) make each bucket's sorted pairs a slice of the finished table;
//   sort (distinct_table.hpp): the sort chapter's radix sort of all keys and run-length
//      encoding: no table helps when almost every key is new, and few items of a narrow key
//      range sort in two short passes (the sort skips a pass whose digit all keys share).
//      Where a few hot keys hold a large share of the items, they are counted aside and only
//      the rest is sorted (hot_keys_aside.cuh).
// A stratified sample of 2^16 items (key_sample.cuh) estimates D; plan_hash_count below turns
// the estimate into a path. An estimate can be wrong: a table that fills sets a flag, and the
// stage counts again by sorting, from the start: a wrong estimate costs time, never a count.
// The host reads back one small record after the sample and one after the hash count; while it
// waits for the sample of at most 2^22 items, the sort's first kernel already runs.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "counting.hpp"
#include "distinct_table.hpp"
#include "global_table.cuh"
#include "hash_count_plan.hpp"
#include "hot_keys_aside.cuh"
#include "key_sample.cuh"
#include "phase_clock.hpp"
#include "shared_tables.cuh"
#include "two_level_count.cuh"

namespace counting::WB_TRACK {

// The two-level count's bucket tables cost, per DISTINCT key, about what a radix sort costs
// for two or three keys: past about 3/8 of the items distinct, sorting every key costs less
// (the README's measurements: a quarter of the items distinct still wins, half loses).
constexpr double most_two_level_share = 3.0 / 8.0;

// Counting the hot keys aside costs a pass over the items (read every key, write the tail)
// and a few launches and a read-back; it saves sorting the hot share. The README's
// measurements: a fifth of the items hot pays, a tenth does not; the row sits between. Not
// on fewer than 2^21 items (unless the configuration gives the share): at 2^20 the pass and
// its read-back cost more than the hot share's sort, and the sort of every key also goes on
// from the histogram started during the sample (below).
constexpr double least_aside_share = 1.0 / 8.0;
constexpr std::int64_t least_aside_items = std::int64_t{1} << 21;

// The sort skips every pass whose digit all keys share (the sort chapter's stage 5): keys whose
// smallest and largest values share their top six bytes sort in two passes of eight. The
// README's measurements (zipf-like keys over 2^12 and 2^16 values): two passes beat the shared
// tables and the two-level count at 2^20 items and the two-level count at 2^22 (where the
// shared tables are a tenth faster); from 2^24 items on the tables win.
constexpr int most_narrow_sort_passes = 2;
constexpr std::int64_t most_narrow_sort_items = std::int64_t{1} << 22;

// Up to 2^22 items the host starts the sort's first kernel (its histogram: one read of the
// keys) while it waits for the sample: most such inputs are sorted (the README's mixtures), and
// where the plan sorts, the sort goes on from there. Where it does not, the GPU ran one short
// kernel more, mostly while it would have waited for the host's next launch anyway (9 µs at
// 2^20 int64 keys; the README's measurements).
constexpr std::int64_t most_started_sort_items = std::int64_t{1} << 22;

// The sorting passes (of 8) that keys between the flipped values lo and hi need: the bytes
// below the highest one in which the two differ, and that one.
constexpr int sort_passes_between(unsigned long long lo, unsigned long long hi) {
  int passes = 0;
  for (unsigned long long differ = lo ^ hi; differ != 0; differ >>= 8) ++passes;
  return passes;
}
static_assert(sort_passes_between(5, 5) == 0 && sort_passes_between(0, 0xFFFF) == 2 &&
              sort_passes_between(0, 0x10000) == 3 && sort_passes_between(0, ~0ull) == 8);

// The decision table: the first row whose condition holds chooses the path. The one global
// table is never chosen: the two-level count beat it wherever the shared tables do not fit.
hash_plan plan_hash_count(std::int64_t n, const sample_summary& s, const hash_count_config& cfg) {
  hash_plan p = plan_sizes(n, s, cfg);
  const double expected = std::min(p.distinct, static_cast<double>(n));
  // Skewed keys (the sample saw some key as often as a hot one; or no sample): the estimate is
  // likely low, and the two-level count takes more buckets.
  const bool sampled = s.samples > 0;
  const unsigned hot = sampled && s.seen > 0 ? sample::hot_sample_count(s.samples, s.seen) : 0;
  p.skewed = !sampled || (hot > 0 && static_cast<std::int64_t>(hot) <= s.most);
  p.hot_sample_count = cfg.hot_keys ? hot : 0;

  const int partitions_needed = partition_bits_for(shared_tables_shape(cfg), p.planned);  // 4: none hold them
  p.partition_bits = cfg.partition_bits >= 0 ? cfg.partition_bits : std::min(partitions_needed, max_partition_bits);
  std::optional<bucket_plan> buckets = plan_buckets(n, expected, static_cast<double>(s.seen), p.skewed, cfg.bucket_bits);
  if (!buckets && cfg.path == hash_path::two_level)  // forced: room for the most keys the buckets hold
    buckets = plan_buckets(n, std::min(static_cast<double>(n), most_bucket_keys), static_cast<double>(s.seen), true,
                           cfg.bucket_bits);
  if (buckets) p.buckets = *buckets;

  // Few items whose sampled keys span two bytes at most: the sort runs two short passes.
  const bool narrow_sort = sampled && s.seen > 0 && sort_passes_between(s.min, s.max) <= most_narrow_sort_passes &&
                           n <= most_narrow_sort_items;

  const hash_path forced = cfg.path;
  const plan_row table[] = {
      {forced == hash_path::two_level && !buckets, hash_path::sort, "two-level refused: N is 0 or past 2^32"},
      {forced == hash_path::shared_tables && n > max_narrow_count, hash_path::global_table,
       "shared tables past 2^32 items: the global table, with 64-bit counts"},
      {forced != hash_path::automatic, forced, "forced by the configuration"},
      {n == 0, hash_path::sort, "nothing to count"},
      {n > max_narrow_count, hash_path::sort, "past 2^32 items: the tables count in 32 bits"},
      {narrow_sort, hash_path::sort, "at most 2^22 items whose keys span two bytes: two passes of the sort"},
      {partitions_needed == 0, hash_path::shared_tables, "one block's shared table holds the planned keys"},
      {buckets.has_value() && expected <= most_two_level_share * static_cast<double>(n), hash_path::two_level,
       "4096 buckets hold the estimate, at most 3/8 of the items"},
      {true, hash_path::sort, "more distinct keys than the buckets hold or than 3/8 of the items"},
  };
  choose_path(p, table, cfg);
  // The sort, where the sample's keys seen three times or more (hot keys, where the tail's
  // keys are mostly new) hold a share of its items: those keys are counted aside, and only
  // the others are sorted (not before two short passes: the pass aside would cost as much).
  const std::int64_t repeated_items = s.samples - s.once - 2 * s.twice;
  const double aside_share = cfg.aside_share >= 0 ? cfg.aside_share : least_aside_share;
  const bool enough_items = cfg.aside_share >= 0 || n >= least_aside_items;
  p.hot_keys_aside = p.path == hash_path::sort && !p.forced && !narrow_sort && enough_items &&
                     p.hot_sample_count > 0 &&
                     static_cast<double>(repeated_items) >= aside_share * static_cast<double>(s.samples);
  // The sort chapter's few-digits kernel sorts a pass whose digit takes at most 16 values; the
  // sort launches it beside every pass from 2^22 keys on, and where a pass is not its, it costs
  // a short wave (at 2^22 items 2 µs a pass, 17 µs a sort). A byte that took more than 16
  // values in the sample takes more in the input too: where every byte did, no pass is the
  // kernel's, and the sort leaves it out.
  p.few_digits_kernel = s.fewest_digit_values <= detail::few_digit_values;
  return p;
}

std::size_t count_hash_table_workspace_bytes(std::int64_t n, const config& cfg) {
  arena front(nullptr);  // the state and the sample's table, then the largest path
  front.take<table_state>(1);
  place_sample_table(front, n);
  const std::size_t sort_bytes = detail::sort_count_scratch_bytes(n) + 256;
  return front.used() + std::max({shared_tables_bytes(cfg.hash), two_level_bytes(n, cfg.hash), global_table_bytes(n),
                                  hot_keys_aside_bytes(n), sort_bytes});
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
  // Up to most_started_sort_items the sort's first kernel (its histogram) is queued while the
  // host waits for the sample: where the plan sorts, the sort goes on from there.
  bool sort_started = false;
  const sample_summary sample = sample_for_plan(in, n, sample_table, state, knobs, clock, [&] {
    sort_started = knobs.path == hash_path::automatic && n <= most_started_sort_items;
    if (sort_started) detail::start_sort_run_length_encode(in, n, front.rest(), detail::sort_count_scratch_bytes(n));
  });
  const hash_plan plan = plan_hash_count(n, sample, knobs);

  arena rest(front.rest());
  path_outcome done;
  switch (plan.path) {
    case hash_path::shared_tables:
      done = count_with_shared_tables(in, n, plan, rest, out, state, knobs, clock);
      break;
    case hash_path::two_level:
      done = count_with_two_levels(in, n, plan, rest, sample_table, sample, out, state, knobs, clock);
      break;
    case hash_path::global_table:
      done = count_with_global_table(in, n, plan, rest, out, state, knobs, clock);
      break;
    case hash_path::sort:
      if (plan.hot_keys_aside) done = count_with_hot_keys_aside(in, n, plan, rest, sample_table, out, state, knobs, clock);
      break;
    default:
      break;
  }
  // (The histogram started above stands only where nothing wrote that scratch since: the sort
  // path without the hot keys aside.)
  const bool histogram_stands = sort_started && plan.path == hash_path::sort && !plan.hot_keys_aside;
  sort_unless_counted(in, n, out, plan, done, front.rest(), knobs, clock, histogram_stands);
}

}  // namespace counting::WB_TRACK
