// Stage 7's checks: every path and every knob of its configuration against the independent
// reference (std::map counts), inputs whose sample lies, and the plan's decision table, which
// is host code and is checked here without a GPU. Both tracks run every check; where the
// solution has more to say (the path its note names), the exercise's expectation is its one
// global table.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "hash_count_plan.hpp"
#include "hash_sample.hpp"
#include "test_support.hpp"

namespace {

using namespace counting;
using namespace counting::testing;
using i64 = std::int64_t;

constexpr bool is_solution = track::id == track_id::solution;

constexpr hash_path all_paths[] = {hash_path::automatic, hash_path::shared_tables, hash_path::two_level,
                                   hash_path::sort, hash_path::global_table};

// Stage 7 names the path it took (counting::take_stage_note): the solution's note must contain
// `part`. (The exercise's one table is checked by the tables it writes.)
void expect_path(const std::string& part) {
  const std::string note = counting::take_stage_note();
  if constexpr (is_solution) {
    INFO("stage 7's note: " << note);
    CHECK(note.find(part) != std::string::npos);
  }
}

// The path the plan chooses on `data` (its sample summarized on the host, as the device does).
hash_plan plan_for(const std::vector<i64>& data, const hash_count_config& cfg = {}) {
  return track::plan_hash_count(static_cast<std::int64_t>(data.size()), sample::summarize(data), cfg);
}

std::vector<i64> sorted_copy(std::vector<i64> data) {
  std::sort(data.begin(), data.end());
  return data;
}

// `want` on the solution track; the exercise's core takes its one global table wherever there
// is something to count and the configuration does not ask for the sort.
hash_path expected(hash_path want) {
  if constexpr (is_solution) return want;
  return hash_path::global_table;
}

}  // namespace

TEST_SUITE("counting/7 hash table") {
  TEST_CASE("int64 inputs against std::map") { check_all<i64>(7, int64_inputs(70000, 80)); }
  TEST_CASE("right, whatever it is told: exact, too few distinct keys (a table fills: the sort counts), nothing") {
    const auto data = wb::gen::few_distinct<i64>(50'000, wb::testing::seed(81), 3000);
    for (std::int64_t hint : {3000, 10, 0}) {
      config cfg;
      cfg.hash.expected_distinct = hint;
      check_stage<i64>(7, data, "hint " + std::to_string(hint), cfg);
    }
  }
  TEST_CASE("every path forced: automatic, shared tables, two-level, sort, global table") {
    for (const hash_path path : all_paths) {
      config cfg;
      cfg.hash.path = path;
      INFO("path: " << path_name(path));
      // Sizes to 8193 (off the 8192-item tiles); the two-level count's own cases go further.
      check_all<i64>(7, int64_inputs(10000, 85 + static_cast<std::uint64_t>(path)), cfg);
      expect_path(path == hash_path::automatic ? "auto: " : "forced: ");
      cfg.hash.expected_distinct = 5;  // told too few keys: a table fills, the sort counts again
      check_stage<i64>(7, wb::gen::iota<i64>(30'000, wb::testing::seed(89), true), "told 5, all distinct", cfg);
      expect_path(path == hash_path::sort ? "sort" : "-> sort");
    }
  }
  TEST_CASE("two-level (forced): sizes off a scatter tile, a hot key that spills, INT64_MAX spilling") {
    config cfg;
    cfg.hash.path = hash_path::two_level;
    cfg.hash.expected_distinct = 9000;  // 2 buckets (planned for 4608 keys each), each with room for N/2 + N/16 + 1024 items
    for (std::size_t n : {8191, 8192, 8193, 3 * 8192 + 5}) {
      INFO("input: " << n << " items");
      check_stage<i64>(7, wb::gen::few_distinct<i64>(n, wb::testing::seed(86), 5000), "off a tile", cfg);
    }
    // 90% of the items are one key: its bucket gets far more than its room (N/8 + N/64 +
    // 1024), so most of them go to the spill table while the first ones are counted in the
    // bucket's table. That key then has two pairs, which must be added up (a plain write
    // would list it twice).
    const std::size_t n = 100'000;
    auto data = wb::gen::few_distinct<i64>(n, wb::testing::seed(87), 8000);
    std::mt19937_64 pick(wb::testing::seed(88));
    for (std::size_t i = 0; i < n; ++i)
      if (pick() % 10 != 0) data[i] = -42;
    check_stage<i64>(7, data, "a hot key", cfg);
    for (std::size_t i = 0; i < n; i += 2) data[i] = std::numeric_limits<i64>::max();
    check_stage<i64>(7, data, "INT64_MAX as the hot key", cfg);
    check_stage<i64>(7, std::vector<i64>(n, std::numeric_limits<i64>::max()), "every item INT64_MAX: no pair at all",
                     cfg);
    // 3000 keys of bucket 0 (a bucket's number is the top bit of the MurmurHash3
    // finaliser of the flipped key, as in hash_table.cuh) make up 90% of the items: thousands
    // of distinct keys spill, more than a scatter block's small spill table holds.
    auto fmix64 = [](std::uint64_t x) {
      x ^= x >> 33;
      x *= 0xff51afd7ed558ccdull;
      x ^= x >> 33;
      x *= 0xc4ceb9fe1a85ec53ull;
      return x ^ (x >> 33);
    };
    // `count` distinct keys whose hash has its top `bits` bits zero: bucket 0 of 2^bits.
    auto keys_of_bucket0 = [&](std::size_t count, int bits) {
      std::vector<i64> keys;
      for (std::uint64_t k = 0; keys.size() < count; ++k) {
        const auto key = static_cast<i64>(k * 0x9e3779b97f4a7c15ull);
        if (fmix64(static_cast<std::uint64_t>(key) ^ (1ull << 63)) >> (64 - bits) == 0) keys.push_back(key);
      }
      return keys;
    };
    const std::vector<i64> bucket0 = keys_of_bucket0(3000, 1);
    for (std::size_t i = 0; i < n; ++i)
      if (pick() % 10 != 0) data[i] = bucket0[pick() % bucket0.size()];
    check_stage<i64>(7, data, "3000 keys of one bucket spill", cfg);
    // Told 5000 keys there are 2 buckets and a spill table of 12512 slots (for N/16 keys):
    // bucket 0 (top bit) gets every item, 6000 keys first, then 20000 others, which spill.
    // Either the spill table or (where the scatter's blocks took places out of input order)
    // the bucket's table fills, and the sort counts again.
    const std::vector<i64> half0 = keys_of_bucket0(26000, 1);
    for (std::size_t i = 0; i < n; ++i) data[i] = i < 57000 ? half0[i % 6000] : half0[6000 + i % 20000];
    config spill_too_small;
    spill_too_small.hash.path = hash_path::two_level;
    spill_too_small.hash.expected_distinct = 5000;
    check_stage<i64>(7, data, "the spill table overflows", spill_too_small);
    expect_path("two-level, 2 buckets full -> sort");
  }
  TEST_CASE("two-level (forced), buckets by key range: evenly spread keys, extremes, keys outside the sample's range") {
    config cfg;
    cfg.hash.path = hash_path::two_level;
    // few_distinct spreads its values evenly over the whole int64 range, INT64_MIN and
    // INT64_MAX among them: buckets by value hold about as many keys each.
    const auto spread = wb::gen::few_distinct<i64>(100'000, wb::testing::seed(97), 40'000);
    check_stage<i64>(7, spread, "40000 evenly spread keys", cfg);
    expect_path("by key range");
    config by_hash = cfg;  // the same by hash
    by_hash.hash.key_ranges = false;
    check_stage<i64>(7, spread, "40000 evenly spread keys, buckets by hash", by_hash);
    {
      const std::string note = counting::take_stage_note();
      INFO("stage 7's note: " << note);
      CHECK(note.find("by key range") == std::string::npos);
      if constexpr (is_solution) CHECK(note.find("two-level") != std::string::npos);
    }
    // The sampled items spread over [-10^6, 10^6]; a few others lie outside it (below the
    // sample's min: bucket 0; above its max: the last bucket), INT64_MIN and INT64_MAX too.
    const std::int64_t n = 150'000;
    std::mt19937_64 pick(wb::testing::seed(98));
    std::vector<i64> data(static_cast<std::size_t>(n));
    for (auto& v : data) v = static_cast<i64>(pick() % 2'000'001) - 1'000'000;
    const i64 outside[] = {std::numeric_limits<i64>::min(), std::numeric_limits<i64>::min() + 1, -1'000'001,
                           1'000'001, std::numeric_limits<i64>::max() - 1, std::numeric_limits<i64>::max()};
    std::vector<bool> sampled(static_cast<std::size_t>(n));  // the sample's places keep their keys
    for (std::int64_t s = 0; s < sample::sample_size(n); ++s) sampled[static_cast<std::size_t>(sample::position(s, n))] = true;
    for (std::int64_t i = 0, k = 0; i < n && k < 600; ++i)
      if (!sampled[static_cast<std::size_t>(i)]) data[static_cast<std::size_t>(i)] = outside[k++ % 6];
    check_stage<i64>(7, data, "keys outside the sample's range", cfg);
    expect_path("by key range");
    // Evenly spread keys and 5 hot ones (each 3% of the items): buckets by key range, the hot
    // keys counted by the scatter and added into their buckets' tables.
    for (auto& v : data) {
      const auto r = pick() % 100;
      const auto k = r < 15 ? static_cast<i64>(r % 5) * 8000 + 1234 : static_cast<i64>(pick() % 40000);
      v = k * 230'584'300'921'369 - 4'611'686'018'427'387'904;
    }
    check_stage<i64>(7, data, "evenly spread keys and 5 hot ones", cfg);
    expect_path("by key range, 5 hot keys");
    // The sample spreads evenly, the other items are 30000 keys packed at one end: that bucket
    // takes far more than its room and spills; spilled pairs are not merged by key range, so
    // the sort counts, right.
    for (std::int64_t i = 0; i < n; ++i) data[static_cast<std::size_t>(i)] = static_cast<i64>(pick() % 30000) + 5'000'000;
    for (std::int64_t i = 0; i < sample::sample_size(n); ++i)
      data[static_cast<std::size_t>(sample::position(i, n))] = static_cast<i64>(i) * 122'000'000'000'000 - 4'000'000'000'000'000'000;
    check_stage<i64>(7, data, "sample spread, the rest packed in one bucket", cfg);
    expect_path("by key range full -> sort");
  }
  TEST_CASE("two-level (forced) with 2048 buckets (the scatter's shape for more than 1024)") {
    // So many buckets need millions of keys; the configuration forces them here.
    config cfg;
    cfg.hash.path = hash_path::two_level;
    cfg.hash.bucket_bits = 11;
    auto data = wb::gen::few_distinct<i64>(20'000, wb::testing::seed(96), 3000);
    data[7] = std::numeric_limits<i64>::max();
    data[8] = std::numeric_limits<i64>::min();
    check_stage<i64>(7, data, "2048 buckets", cfg);
    expect_path("2048 buckets");
  }
  TEST_CASE("two-level (forced): hot keys counted beside the buckets, INT64_MIN among them, more than the list holds") {
    config cfg;
    cfg.hash.path = hash_path::two_level;
    const std::size_t n = 100'000;
    std::mt19937_64 pick(wb::testing::seed(95));
    // 20% INT64_MIN, 60% over 300 keys (about 130 sample hits each: hot), 20% over 20000 keys
    // and INT64_MAX (never hot: it is counted on the side).
    std::vector<i64> data(n);
    for (auto& v : data) {
      const auto r = pick() % 100;
      v = r < 20 ? std::numeric_limits<i64>::min()
          : r < 80 ? static_cast<i64>(pick() % 300) * 1'000'003
          : r < 95 ? static_cast<i64>(pick() % 20000) - 5'000'000'000
                   : std::numeric_limits<i64>::max();
    }
    check_stage<i64>(7, data, "301 hot keys", cfg);
    expect_path("hot keys");
    // 70% over 700 keys (about 65 sample hits each: hot, but only max_hot = 512 are listed;
    // the rest go to their buckets), 30% over 20000 keys.
    for (auto& v : data)
      v = pick() % 10 < 7 ? static_cast<i64>(pick() % 700) * -77 : static_cast<i64>(pick() % 20000) + 1'000'000;
    check_stage<i64>(7, data, "700 hot keys, 512 listed", cfg);
    expect_path("512 hot keys");
  }
  TEST_CASE("INT64_MAX (the empty-slot pattern) counted on the side, among many keys") {
    auto data = wb::gen::uniform<i64>(20'000, wb::testing::seed(82));
    for (std::size_t i = 0; i < data.size(); i += 3) data[i] = std::numeric_limits<i64>::max();
    check_stage<i64>(7, data, "a third of the items are INT64_MAX");
  }
  TEST_CASE("a sample that says few distinct keys while the rest are all distinct: the shared tables fill, the sort counts") {
    const std::int64_t n = 150'000;
    // The sampled keys lie far apart (not two bytes of range: the plan would sort them).
    constexpr i64 apart = i64{1} << 40;
    auto data = wb::gen::iota<i64>(static_cast<std::size_t>(n), wb::testing::seed(92), true);  // all distinct
    for (std::int64_t i = 0; i < sample::sample_size(n); ++i)
      data[static_cast<std::size_t>(sample::position(i, n))] = i % 2 == 0 ? -7 : apart;
    check_stage<i64>(7, data, "sampled items -7 and 2^40, the others distinct");
    expect_path("auto: est. 2 distinct -> shared tables full -> sort");
    // Between the two: the sample sees 100 keys, the other items hold 40000 (three tables' worth).
    std::mt19937_64 pick(wb::testing::seed(93));
    for (auto& v : data) v = static_cast<i64>(pick() % 40000);
    for (std::int64_t i = 0; i < sample::sample_size(n); ++i)
      data[static_cast<std::size_t>(sample::position(i, n))] = 1'000'000 + static_cast<i64>(i % 100) * apart;
    check_stage<i64>(7, data, "sampled items 100 keys, the others 40000");
    expect_path("auto: est. 100 distinct -> shared tables full -> sort");
  }
  TEST_CASE("a sample that says all distinct while the rest is one key: counted without tables, right") {
    const std::int64_t n = 150'000;
    std::vector<i64> data(static_cast<std::size_t>(n), 5);
    for (std::int64_t i = 0; i < sample::sample_size(n); ++i)
      data[static_cast<std::size_t>(sample::position(i, n))] = 1000 + 3 * i;
    check_stage<i64>(7, data, "sampled items distinct, the others all 5");
    expect_path("auto: est. 2^17.2 distinct -> sort");
    config cfg;
    // Forced to the shared tables, 8 partitions: on the cpu backend (smaller tables) they hold
    // the 65537 keys only in part and the sort counts; on a GPU they hold them.
    cfg.hash.path = hash_path::shared_tables;
    check_stage<i64>(7, data, "sampled items distinct, the others all 5, shared tables", cfg);
    expect_path("forced: est. 2^17.2 distinct -> shared tables, 8 partitions");
  }
  TEST_CASE("every knob of the configuration, on the path it shapes: the same tables") {
    std::mt19937_64 pick(wb::testing::seed(99));
    std::vector<i64> skewed(60'000);  // 40% over 4 keys (hot in the sample), the rest over 3000
    for (auto& v : skewed) v = pick() % 10 < 4 ? static_cast<i64>(pick() % 4) * 1'000'000'007 : static_cast<i64>(pick() % 3000);
    skewed[11] = std::numeric_limits<i64>::max();
    const auto spread = wb::gen::few_distinct<i64>(60'000, wb::testing::seed(100), 9000);
    for (int aggregate = 0; aggregate <= 2; ++aggregate) {
      for (const hash_path path : {hash_path::shared_tables, hash_path::two_level, hash_path::global_table}) {
        config cfg;
        cfg.hash.path = path;
        cfg.hash.aggregate = aggregate;
        INFO("path " << path_name(path) << ", aggregate " << aggregate);
        check_stage<i64>(7, skewed, "40% over 4 keys", cfg);
        check_stage<i64>(7, spread, "9000 evenly spread keys", cfg);
      }
    }
    for (int bits = 0; bits <= 3; ++bits) {  // partitions of the shared tables, forced
      config cfg;
      cfg.hash.path = hash_path::shared_tables;
      cfg.hash.partition_bits = bits;
      check_stage<i64>(7, spread, "9000 evenly spread keys, 2^" + std::to_string(bits) + " partitions", cfg);
      // (one table holds 6144 keys on the cpu backend, 12288 on a GPU)
      expect_path(bits > 0 ? "shared tables, " + std::to_string(1 << bits) + " partitions"
                  : wb::backend_is_cuda ? "-> shared tables" : "-> shared tables full -> sort");
    }
    config no_hot;
    no_hot.hash.path = hash_path::two_level;
    no_hot.hash.hot_keys = false;
    check_stage<i64>(7, skewed, "40% over 4 keys, no hot keys", no_hot);
    {
      const std::string note = counting::take_stage_note();
      INFO("stage 7's note: " << note);
      CHECK(note.find("hot keys") == std::string::npos);
    }
    config small;
    small.hash.small_shared_tables = true;
    small.hash.phases = true;  // the steps' times on stderr: the count is the same
    check_stage<i64>(7, skewed, "small shared tables, phases printed", small);
  }
  TEST_CASE("the configuration's knobs are checked: out of range is refused, naming the knob") {
    config cfg;
    cfg.hash.aggregate = 3;
    CHECK_THROWS_WITH_AS(validate(cfg), doctest::Contains("hash.aggregate"), std::invalid_argument);
    cfg = {};
    cfg.hash.bucket_bits = 13;
    CHECK_THROWS_WITH_AS(validate(cfg), doctest::Contains("hash.bucket_bits"), std::invalid_argument);
    cfg = {};
    cfg.hash.partition_bits = 4;
    CHECK_THROWS_WITH_AS(validate(cfg), doctest::Contains("hash.partition_bits"), std::invalid_argument);
    cfg = {};
    cfg.hash.expected_distinct = -1;
    CHECK_THROWS_WITH_AS(validate(cfg), doctest::Contains("hash.expected_distinct"), std::invalid_argument);
    cfg = {};
    cfg.hash.aside_share = 1.5;
    CHECK_THROWS_WITH_AS(validate(cfg), doctest::Contains("hash.aside_share"), std::invalid_argument);
    cfg = {};
    cfg.hash.path = static_cast<hash_path>(9);
    CHECK_THROWS_WITH_AS(validate(cfg), doctest::Contains("hash.path"), std::invalid_argument);
    cfg = {};
    cfg.variant = 4;  // stage 6's counter layouts are 0 to 3
    CHECK_THROWS_WITH_AS(validate(cfg), doctest::Contains("variant"), std::invalid_argument);
  }
  TEST_CASE("the device's sample says what the host's summary of the same places says") {
    // The note names the estimate ("est. 2^15.3 distinct"); the host computes it from the
    // sampled places with a std::unordered_map (hash_sample.hpp): the same numbers.
    std::mt19937_64 pick(wb::testing::seed(101));
    std::vector<i64> data(150'000);
    for (auto& v : data) v = pick() % 4 == 0 ? -3 : static_cast<i64>(pick() % 50'000);
    data[5] = std::numeric_limits<i64>::max();
    const std::vector<named_input<i64>> inputs{
        {"a quarter -3, the rest over 50000 keys", data},
        {"zipf-like over 2^12", wb::gen::zipf<i64>(100'000, wb::testing::seed(102), 1 << 12)},
        {"all distinct", wb::gen::iota<i64>(90'000, wb::testing::seed(103), true)},
        {"3000 items, all sampled", wb::gen::few_distinct<i64>(3000, wb::testing::seed(104), 700)},
        {"half on 16 keys, half distinct", wb::gen::hot_and_tail<i64>(120'000, wb::testing::seed(115), 0.5, 16, 0)},
        {"evenly spread keys, sorted", sorted_copy(wb::gen::few_distinct<i64>(130'000, wb::testing::seed(116), 30'000))},
        {"all distinct, spread over 64 bits", wb::gen::hot_and_tail<i64>(110'000, wb::testing::seed(117), 0.0, 1, 0)}};
    for (const auto& in : inputs) {
      check_stage<i64>(7, in.data, in.name);
      const std::string note = counting::take_stage_note();
      const hash_plan host = plan_for(in.data);
      const std::string want = "est. " + short_number(host.distinct) + " distinct";
      INFO("input: " << in.name << "; stage 7's note: " << note << "; the host's estimate: " << want);
      CHECK(note.find(want) != std::string::npos);
      // The values each byte took: where the stage sorts, its note says whether the sort
      // leaves its few-digits kernel out, as the host's summary decides.
      if (is_solution && host.path == hash_path::sort) {
        CHECK((note.find("(no byte of few values)") != std::string::npos) == !host.few_digits_kernel);
      }
    }
  }
  TEST_CASE("the plan's decision table: the rows, in order") {
    // Summaries of inputs of 2^22 keys, sampled on the host as the device samples them.
    const std::size_t n = std::size_t{1} << 22;
    struct plan_case {
      const char* name;
      std::vector<i64> data;
      hash_path want;
    };
    const plan_case cases[] = {
        {"2^10 distinct keys: one shared table holds them", wb::gen::few_distinct<i64>(n, wb::testing::seed(105), 1 << 10),
         hash_path::shared_tables},
        {"2^16 distinct keys: the buckets", wb::gen::few_distinct<i64>(n, wb::testing::seed(106), 1 << 16),
         hash_path::two_level},
        {"zipf-like over 2^20: the buckets", wb::gen::zipf<i64>(n, wb::testing::seed(107), 1 << 20), hash_path::two_level}};
    for (const plan_case& c : cases) {
      const hash_plan p = plan_for(c.data);
      INFO(c.name << ": est. " << short_number(p.distinct) << " distinct, rule: " << p.rule);
      CHECK(p.path == expected(c.want));
      CHECK_FALSE(p.forced);
    }
    // Zipf-like keys are skewed: hot keys in the sample, more buckets.
    const hash_plan z = plan_for(cases[2].data);
    if constexpr (is_solution) {
      CHECK(z.skewed);
      CHECK(z.hot_sample_count > 0);
      CHECK(z.buckets.bucket_bits >= 6);
      CHECK_FALSE(plan_for(cases[1].data).skewed);
    }
    // Keys of a narrow range: zipf-like over 2^16 values (0 to 2^16 - 1: two bytes) sort in two
    // passes, and from 2^20 items to 2^22 the sort takes them (its hot keys not aside); at
    // 2^24 items, and over 2^20 values (three bytes), the buckets. Over 2^12 values, the sort
    // rather than the shared tables.
    for (const std::int64_t items : {std::int64_t{1} << 20, std::int64_t{1} << 22, std::int64_t{1} << 24}) {
      const auto narrow = wb::gen::zipf<i64>(static_cast<std::size_t>(items), wb::testing::seed(108), 1 << 16);
      const hash_plan p = plan_for(narrow);
      INFO("zipf-like over 2^16 values, " << items << " items: est. " << short_number(p.distinct)
                                          << " distinct, rule: " << p.rule);
      CHECK(p.path == expected(items <= (std::int64_t{1} << 22) ? hash_path::sort : hash_path::two_level));
      CHECK_FALSE(p.hot_keys_aside);
    }
    CHECK(plan_for(cases[2].data).path == expected(hash_path::two_level));  // 2^22 items, three bytes
    const auto narrow_few = wb::gen::zipf<i64>(std::size_t{1} << 20, wb::testing::seed(109), 1 << 12);
    CHECK(plan_for(narrow_few).path == expected(hash_path::sort));  // before the shared tables too
    // Every key new: 2^26 items, each sampled key seen once: more keys than the buckets hold.
    sample_summary all_new;
    all_new.samples = all_new.seen = all_new.once = 1 << 16;
    all_new.most = 1;
    all_new.changes = 1 << 16;  // (the last sampled place's next item holds another key too)
    all_new.min = 0;
    all_new.max = ~0ull;
    CHECK(track::plan_hash_count(std::int64_t{1} << 26, all_new, {}).path == expected(hash_path::sort));
    // The rows that need no sample: nothing to count, past 2^32 items, a forced path.
    const sample_summary none;
    CHECK(track::plan_hash_count(0, none, {}).path == hash_path::sort);
    CHECK(track::plan_hash_count(std::int64_t{1} << 33, none, {}).path == expected(hash_path::sort));
    hash_count_config forced;
    forced.path = hash_path::sort;
    CHECK(track::plan_hash_count(1000, none, forced).path == hash_path::sort);
    forced.path = hash_path::two_level;
    const hash_plan refused = track::plan_hash_count(0, none, forced);
    CHECK(refused.path == hash_path::sort);
    CHECK(refused.forced);
    forced.path = hash_path::shared_tables;
    CHECK(track::plan_hash_count(std::int64_t{1} << 33, none, forced).path == hash_path::global_table);
    forced.path = hash_path::global_table;
    forced.expected_distinct = 70'000;  // told: no sample, the tables are sized for twice the number told
    const hash_plan told = track::plan_hash_count(1'000'000, none, forced);
    CHECK(told.path == hash_path::global_table);
    CHECK(told.distinct == 70'000);
    CHECK(told.planned == 140'000);
  }
  TEST_CASE("the estimate on hot keys and a long tail, shuffled or sorted: as close as hash_sample.hpp says") {
    // Half the items on 16 keys and half distinct fooled Chao's estimator (no key seen twice in
    // the tail: f2 = 0) into N; sorted input fools both estimators (a stratified sample sees
    // each key of a sorted run once or twice). The bounds of hash_sample.hpp catch both: a tail
    // of distinct keys within its binomial error (about 1%), sorted keys within the runs'
    // Poisson error. Shuffled keys that the sample sees about once each stay within GEE's
    // factor (3 here; the guarantee is sqrt(N / 2^16) = 8). Sorted keys: the estimate is the
    // runs' upper bound, 2 standard errors above the runs seen; with runs of 32 items the
    // sample sees about 2^10 changes (error 1/32), so 5 errors each way is 1 + 7/32 above.
    const std::size_t n = std::size_t{1} << 22;
    struct estimate_case {
      std::string name;
      std::vector<i64> data;
      double ratio;  // the estimate within [truth / ratio, truth * ratio]
    };
    std::vector<estimate_case> cases;
    for (const double share : {0.1, 0.5, 0.9})
      cases.push_back({"hot share " + std::to_string(static_cast<int>(share * 100)) + "%, tail distinct",
                       wb::gen::hot_and_tail<i64>(n, wb::testing::seed(110), share, 16, 0), 1.05});
    cases.push_back({"hot share 50%, tail over 2^16 values", wb::gen::hot_and_tail<i64>(n, wb::testing::seed(111), 0.5, 16, 1 << 16), 3});
    cases.push_back({"2^18 evenly spread keys", wb::gen::few_distinct<i64>(n, wb::testing::seed(112), 1 << 18), 3});
    for (std::size_t k = 0, count = cases.size(); k < count; ++k)  // the same inputs, sorted
      cases.push_back({cases[k].name + ", sorted", sorted_copy(cases[k].data), 1.25});
    for (const auto& c : cases) {
      auto keys = sorted_copy(c.data);
      const double truth = static_cast<double>(std::unique(keys.begin(), keys.end()) - keys.begin());
      const double estimate = sample::estimate(static_cast<std::int64_t>(n), sample::summarize(c.data));
      INFO(c.name << ": " << truth << " distinct keys, estimated " << estimate);
      CHECK(estimate <= truth * c.ratio);
      CHECK(estimate >= truth / c.ratio);
    }
  }
  TEST_CASE("the plan on hot keys and a long tail: the path the measurements favour") {
    // 2^22 keys, 16 hot keys with a share of 10%, 50% or 90%, the rest distinct or drawn from
    // 2^10, 2^16 or 2^24 values, shuffled and sorted. A few thousand keys: one shared table;
    // distinct keys up to 3/8 of the items: the two-level count, hot keys counted in its
    // scatter; more: the sort, with the hot keys counted aside where they hold an eighth of the
    // items or more.
    const std::size_t n = std::size_t{1} << 22;
    struct tail_case {
      std::size_t values;  // 0: distinct
      hash_path at_10, at_50, at_90;
    };
    const tail_case tails[] = {
        {1 << 10, hash_path::shared_tables, hash_path::shared_tables, hash_path::shared_tables},
        {1 << 16, hash_path::two_level, hash_path::two_level, hash_path::two_level},
        {1 << 24, hash_path::sort, hash_path::sort, hash_path::two_level},
        {0, hash_path::sort, hash_path::sort, hash_path::two_level}};
    for (const tail_case& t : tails) {
      for (const double share : {0.1, 0.5, 0.9}) {
        auto data = wb::gen::hot_and_tail<i64>(n, wb::testing::seed(113), share, 16, t.values);
        const hash_path want = share < 0.3 ? t.at_10 : share < 0.7 ? t.at_50 : t.at_90;
        for (const bool sorted : {false, true}) {
          if (sorted) std::sort(data.begin(), data.end());
          const hash_plan p = plan_for(data);
          INFO("hot share " << share * 100 << "%, tail " << (t.values ? std::to_string(t.values) + " values" : "distinct")
                            << (sorted ? ", sorted" : "") << ": est. " << short_number(p.distinct) << " distinct, "
                            << path_name(p.path) << " (" << p.rule << ")");
          CHECK(p.path == expected(want));
          if (is_solution && p.path == hash_path::two_level) CHECK(p.hot_sample_count > 0);  // counted in the scatter
          if (is_solution && p.path == hash_path::sort) CHECK(p.hot_keys_aside == (share > 0.3));  // an eighth or more
        }
      }
    }
  }
  TEST_CASE("the plan counts hot keys aside where an eighth of the sample repeats, or the share given") {
    if (!is_solution) return;  // the exercise's plan sorts every key
    struct aside_case {
      std::size_t n;
      double share;   // of the items on 16 hot keys; the rest distinct
      double given;   // the configuration's aside_share (-1: the plan's)
      bool aside;
    };
    // Below 2^21 items the plan sorts every key, unless the configuration gives the share.
    const aside_case cases[] = {{std::size_t{1} << 21, 0.5, -1, true},    {std::size_t{1} << 21, 0.5, 1.0, false},
                                {std::size_t{1} << 22, 0.2, -1, true},    {std::size_t{1} << 22, 0.05, -1, false},
                                {std::size_t{1} << 22, 0.05, 0.0, true},  {(std::size_t{1} << 21) - 1, 0.5, -1, false},
                                {(std::size_t{1} << 21) - 1, 0.5, 0.125, true}};
    for (const aside_case& c : cases) {
      const auto data = wb::gen::hot_and_tail<i64>(c.n, wb::testing::seed(118), c.share, 16, 0);
      hash_count_config cfg;
      cfg.aside_share = c.given;
      const hash_plan p = plan_for(data, cfg);
      INFO(c.n << " items, " << c.share * 100 << "% hot, aside_share " << c.given << ": " << path_name(p.path) << " ("
               << p.rule << ")");
      REQUIRE(p.path == hash_path::sort);
      CHECK(p.hot_keys_aside == c.aside);
    }
  }
  TEST_CASE("the sort's few-digits kernel is left out only where every byte took more than 16 values in the sample") {
    if (!is_solution) return;  // the exercise's plan keeps the sort as it is
    // Distinct keys spread over all 64 bits; then byte 2 (the third pass's digit) replaced by
    // one of `values`: 16 values keep the kernel (that pass may be its), 17 leave it out. Keys
    // below 2^20 share their top bytes (one value: the pass may still take up to 16 in the
    // input), and no sample keeps it too.
    const auto spread = wb::gen::hot_and_tail<i64>(200'000, wb::testing::seed(131), 0.0, 1, 0);
    auto with_byte_2 = [&](unsigned values) {
      std::vector<i64> keys = spread;
      std::uint64_t k = 0;
      for (auto& v : keys) {
        const auto u = static_cast<std::uint64_t>(v) & ~(0xFFull << 16);
        v = static_cast<i64>(u | ((k++ * 7 % values) << 16));
      }
      return keys;
    };
    struct digits_case {
      const char* what;
      std::vector<i64> data;
      bool kernel;
    };
    const digits_case cases[] = {
        {"spread over 64 bits", spread, false},
        {"byte 2 of 17 values", with_byte_2(17), false},
        {"byte 2 of 16 values", with_byte_2(16), true},
        {"byte 2 of 3 values", with_byte_2(3), true},
        {"below 2^20", wb::gen::uniform<i64>(200'000, wb::testing::seed(132), 0, (1 << 20) - 1), true},
    };
    for (const digits_case& c : cases) {
      const sample_summary s = sample::summarize(c.data);
      const hash_plan p = plan_for(c.data);
      INFO(c.what << ": the fewest values a sampled byte took " << s.fewest_digit_values);
      CHECK(p.few_digits_kernel == c.kernel);
    }
    CHECK(track::plan_hash_count(1000, sample_summary{}, hash_count_config{}).few_digits_kernel);  // no sample
  }
  TEST_CASE("hot keys and a long tail, every path: the same tables, shuffled and sorted") {
    for (const std::size_t tail : {std::size_t{0}, std::size_t{3000}}) {
      auto data = wb::gen::hot_and_tail<i64>(70'000, wb::testing::seed(114), 0.6, 16, tail);
      for (const bool sorted : {false, true}) {
        if (sorted) std::sort(data.begin(), data.end());
        for (const hash_path path : all_paths) {
          config cfg;
          cfg.hash.path = path;
          check_stage<i64>(7, data, std::string("60% on 16 keys, tail ") + (tail ? "of 3000 values" : "distinct") +
                                        (sorted ? ", sorted" : "") + ", path " + path_name(path), cfg);
        }
      }
    }
  }
  TEST_CASE("the sort with hot keys aside: INT64_MIN hot, INT64_MAX in the tail, more hot keys than the list holds") {
    const std::size_t n = 100'000;
    config given;  // the plan's share, given: on fewer than 2^21 items the plan sorts every key
    given.hash.aside_share = 0.125;
    std::mt19937_64 pick(wb::testing::seed(117));
    // Half the items on 16 keys (INT64_MIN among them), the rest distinct but for INT64_MAX
    // (the empty slot's pattern: never hot, sorted with the tail).
    std::vector<i64> data(n);
    std::int64_t next = 1'000'000;
    for (auto& v : data) {
      const auto r = pick() % 100;
      v = r < 50 ? (r % 16 == 0 ? std::numeric_limits<i64>::min() : static_cast<i64>(r % 16) * 7'777'777)
          : r < 52 ? std::numeric_limits<i64>::max()
                   : (next += 13);
    }
    check_stage<i64>(7, data, "half on 16 keys, INT64_MIN and INT64_MAX among them", given);
    expect_path("-> sort, 16 hot keys aside");
    check_stage<i64>(7, sorted_copy(data), "the same, sorted", given);
    expect_path("-> sort, 16 hot keys aside");
    // 30% of the items on 600 keys (each seen about 30 times by the sample: hot), of which the
    // list holds 512: the other 88 are sorted with the tail.
    for (auto& v : data) v = pick() % 10 < 3 ? static_cast<i64>(pick() % 600) * -1'000'003 : (next += 7);
    check_stage<i64>(7, data, "30% on 600 keys, the rest distinct", given);
    expect_path("-> sort, 512 hot keys aside");
  }
  TEST_CASE("[gpu] 2^22 keys, 2^16 distinct, 2^20 all distinct, zipf-like over 2^10, every path (WB_LARGE=1)" *
            doctest::skip(!large_tests_enabled())) {
    const std::vector<named_input<i64>> inputs{
        {"few", wb::gen::few_distinct<i64>(std::size_t{1} << 22, wb::testing::seed(83), 1 << 16)},
        {"all distinct", wb::gen::iota<i64>(std::size_t{1} << 20, wb::testing::seed(84), true)},
        {"zipf", wb::gen::zipf<i64>(std::size_t{1} << 22, wb::testing::seed(94), 1 << 10)}};
    for (const auto& in : inputs) {
      const auto expected = reference_table<i64>(in.data);  // once per input: std::map on 2^22 keys takes seconds
      for (const hash_path path : all_paths) {
        config cfg;
        cfg.hash.path = path;
        INFO("input: " << in.name << ", path " << path_name(path));
        COUNTING_CHECK_TABLE(expected, run_stage<i64>(7, in.data, cfg));
      }
    }
  }
}
