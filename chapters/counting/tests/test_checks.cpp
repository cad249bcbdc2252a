// Every stage against the independent reference (std::map counts) on seeded inputs: empty,
// one item, all equal (D8), value 0 (D3), sizes just off every block/vector/tile/chunk
// boundary (D2, D10), the full int8 range, heavy contention, int64 keys with few and many
// distinct values, the extremes, the article's example. The defects' own regression checks
// are in test_defects.cpp.
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "hash_sample.hpp"
#include "stages.hpp"
#include "test_support.hpp"
#include "wb/device_buffer.hpp"

namespace {

using namespace counting;
using namespace counting::testing;
using i8 = std::int8_t;
using i64 = std::int64_t;

const bool registered = wb::testing::register_stages(std::span{counting::stages});

template <class T>
void check_all(int stage, const std::vector<named_input<T>>& inputs, const config& cfg = {}) {
  for (const auto& in : inputs) check_stage<T>(stage, in.data, in.name, cfg);
}

}  // namespace

TEST_SUITE("counting/0 sequential") {
  TEST_CASE("the article's example: first-seen order as printed, ascending order as returned") {
    const std::vector<i64> data{3, 1, 6, 2, 1, 3, 6};
    const auto first_seen = track::dist_count_first_seen<i64>(data);
    INFO("input: 3 1 6 2 1 3 6 (7 items)");
    COUNTING_CHECK_TABLE((std::vector<entry<i64>>{{3, 2}, {1, 2}, {6, 2}, {2, 1}}), first_seen);
    COUNTING_CHECK_TABLE((std::vector<entry<i64>>{{1, 2}, {2, 1}, {3, 2}, {6, 2}}), track::dist_count<i64>(data));
  }
  TEST_CASE("int8 and int64 inputs against std::map") {
    check_all<i8>(0, int8_inputs(3000, 10));
    check_all<i64>(0, int64_inputs(3000, 11));
  }
}

TEST_SUITE("counting/1 openmp") {
  TEST_CASE("int8 and int64 inputs against std::map") {
    check_all<i8>(1, int8_inputs(3000, 20));
    check_all<i64>(1, int64_inputs(3000, 21));
  }
  TEST_CASE("thread counts that do not divide N (D2)") {
    const auto data = wb::gen::uniform<i8>(1001, wb::testing::seed(22));
    for (int threads : {1, 2, 3, 7, 16}) {
      INFO("input: " << data.size() << " uniform int8 items, " << threads << " threads");
      COUNTING_CHECK_TABLE(reference_table<i8>(data), track::omp_dist_count<i8>(data, threads));
    }
  }
}

TEST_SUITE("counting/2 cpu") {
  TEST_CASE("int8 and int64 inputs against std::map") {
    check_all<i8>(2, int8_inputs(70000, 30));
    check_all<i64>(2, int64_inputs(70000, 31));
  }
  TEST_CASE("a million items") {
    check_stage<i8>(2, wb::gen::uniform<i8>(1'000'000, wb::testing::seed(32)), "uniform int8");
    check_stage<i64>(2, wb::gen::few_distinct<i64>(1'000'000, wb::testing::seed(33), 1000), "int64, 1000 distinct");
  }
}

TEST_SUITE("counting/3 direct port") {
  TEST_CASE("int8 and int64 inputs against std::map") {
    check_all<i8>(3, int8_inputs(2100, 40));
    check_all<i64>(3, int64_inputs(2100, 41));
  }
  TEST_CASE("block sizes (tiles of 32 to 1024 items)") {
    const auto data = wb::gen::few_distinct<i8>(1500, wb::testing::seed(42), 40);
    for (int block : {32, 96, 1024}) {
      config cfg;
      cfg.block = block;
      check_stage<i8>(3, data, "block " + std::to_string(block), cfg);
    }
  }
  TEST_CASE("the same table under every scheduling order (D12: race-free first occurrence)") {
    const auto data = wb::gen::few_distinct<i8>(700, wb::testing::seed(43), 9);
    for (const char* order : {"in-order", "reverse", "shuffle:5"}) {
      schedule_order_scope scope(order);
      check_stage<i8>(3, data, order);
    }
  }
}

TEST_SUITE("counting/4 dynamic parallelism") {
  // The building blocks run on every backend; the stage itself needs a GPU.
  TEST_CASE("count-if (the child grid) counts every item, any n and any order (D6, D7)") {
    const auto data = wb::gen::few_distinct<i8>(5000, wb::testing::seed(50), 4);
    wb::device_buffer<i8> d(data);
    wb::device_buffer<std::uint64_t> count(1);
    for (const char* order : {"in-order", "reverse", "shuffle:9"}) {
      schedule_order_scope scope(order);
      for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{127}, std::int64_t{129}, std::int64_t{5000}}) {
        const i8 value = data[0];
        count.fill_bytes(0);
        track::count_if_value<i8>(d.data(), n, value, count.data());
        const auto expected = static_cast<std::uint64_t>(std::count(data.begin(), data.begin() + n, value));
        INFO("count-if of value " << +value << " over the first " << n << " items, schedule order " << std::string(order));
        CHECK_MESSAGE(count.to_host()[0] == expected, "expected count " << expected << ", got " << count.to_host()[0]);
      }
    }
  }
  TEST_CASE("the merge of chunk tables against std::map (D8, D9)") {
    for (std::int64_t chunk : {1, 7, 64, 1000}) {
      const auto data = wb::gen::few_distinct<i8>(3000, wb::testing::seed(51 + static_cast<std::uint64_t>(chunk)), 12);
      // The chunk tables as the parent and children would leave them: slot i holds
      // (value, count in chunk) if item i is the first of its value in its chunk.
      std::vector<i8> slot_value(data.size(), 0);
      std::vector<std::uint64_t> slot_count(data.size(), 0);
      for (std::size_t i = 0; i < data.size(); ++i) {
        const std::size_t begin = i / static_cast<std::size_t>(chunk) * static_cast<std::size_t>(chunk);
        const std::size_t end = std::min(data.size(), begin + static_cast<std::size_t>(chunk));
        if (std::find(data.begin() + static_cast<std::ptrdiff_t>(begin), data.begin() + static_cast<std::ptrdiff_t>(i),
                      data[i]) != data.begin() + static_cast<std::ptrdiff_t>(i))
          continue;
        slot_value[i] = data[i];
        slot_count[i] = static_cast<std::uint64_t>(std::count(data.begin() + static_cast<std::ptrdiff_t>(begin),
                                                              data.begin() + static_cast<std::ptrdiff_t>(end), data[i]));
      }
      wb::device_buffer<i8> d_value(slot_value);
      wb::device_buffer<std::uint64_t> d_count(slot_count);
      wb::device_buffer<std::uint64_t> merged(data.size());
      table_buffers<i8> out(static_cast<std::int64_t>(data.size()));
      out.poison();
      track::merge_chunk_tables<i8>(d_value.data(), d_count.data(), static_cast<std::int64_t>(data.size()), chunk,
                                    merged.data(), out.view());
      WB_CHECK(cudaDeviceSynchronize());
      const auto mismatch = table_mismatch(reference_table<i8>(data), out.to_host());
      CAPTURE(chunk);
      CHECK_MESSAGE(!mismatch.has_value(), (mismatch ? *mismatch : std::string()));
    }
  }
#if defined(WB_BACKEND_CPU)
  TEST_CASE("on the cpu backend the stage says it is GPU-only") {
    const std::vector<i8> data{1, 2, 3};
    CHECK_THROWS_WITH_AS(run_stage<i8>(4, data), doctest::Contains("GPU-only"), stage_refused);
  }
#endif
  WB_GPU_TEST_CASE("stage 4: int8 and int64 inputs against std::map, short last chunk (D13)") {
    config cfg;
    cfg.dp_chunk = 1000;  // none of the sizes below is a multiple: the last chunk is short
    check_all<i8>(4, int8_inputs(20000, 52), cfg);
    check_all<i64>(4, int64_inputs(5000, 53), cfg);
    cfg.dp_chunk = 4096;
    check_stage<i8>(4, wb::gen::uniform<i8>(100'003, wb::testing::seed(54)), "100003 uniform, chunk 4096", cfg);
  }
}

TEST_SUITE("counting/5 global atomics") {
  TEST_CASE("int8 inputs against std::map") { check_all<i8>(5, int8_inputs(70000, 60)); }
  TEST_CASE("block sizes") {
    const auto data = wb::gen::uniform<i8>(9999, wb::testing::seed(61));
    for (int block : {32, 1024}) {
      config cfg;
      cfg.block = block;
      check_stage<i8>(5, data, "block " + std::to_string(block), cfg);
    }
  }
}

TEST_SUITE("counting/6 privatized") {
  TEST_CASE("every counter layout: int8 inputs against std::map") {
    for (int layout = 0; layout <= 3; ++layout) {
      config cfg;
      cfg.counter_layout = layout;
      CAPTURE(layout);
      check_all<i8>(6, int8_inputs(70000, 70 + static_cast<std::uint64_t>(layout)), cfg);
    }
  }
  TEST_CASE("inputs that start off a 16-byte boundary, and 1 or 2 blocks per SM") {
    const auto data = wb::gen::uniform<i8>(40'000, wb::testing::seed(75));
    wb::device_buffer<i8> d(data);
    for (int layout = 0; layout <= 3; ++layout) {
      for (std::size_t offset : {std::size_t{1}, std::size_t{7}, std::size_t{15}}) {
        for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{14}, std::size_t{15}, std::size_t{29},
                              std::size_t{33333}}) {
          config cfg;
          cfg.counter_layout = layout;
          cfg.blocks_per_sm = 1 + static_cast<int>(offset % 2);
          std::span<const i8> part(data.data() + offset, n);
          stage_runner<track::id, i8> runner(6, input<i8>{part, d.data() + offset}, cfg);
          runner.run();
          const auto mismatch = table_mismatch(reference_table<i8>(part), runner.result());
          CAPTURE(layout);
          CAPTURE(offset);
          CAPTURE(n);
          CHECK_MESSAGE(!mismatch.has_value(), (mismatch ? *mismatch : std::string()));
        }
      }
    }
  }
  TEST_CASE("the same table under every scheduling order, drains included (a missing barrier shows)") {
    // Two blocks, so every thread counts several rounds and the layouts drain mid-stream
    // (layout 2 every 128 items a thread); the cpu backend's orders change which thread runs
    // first between barriers.
    const auto data = wb::gen::few_distinct<i8>(150'001, wb::testing::seed(77), 37);
    for (const char* order : {"in-order", "reverse", "shuffle:7"}) {
      schedule_order_scope scope(order);
      for (int layout = 0; layout <= 3; ++layout) {
        config cfg;
        cfg.counter_layout = layout;
        cfg.blocks = 2;
        CAPTURE(layout);
        check_stage<i8>(6, data, order, cfg);
      }
    }
  }
  TEST_CASE("narrow counters are drained before they overflow (one value, many items per thread)") {
    // One block: every thread counts far more than 255 items of one value (8-bit counters),
    // or more than 65535 (16-bit counters: 128 threads x 65536 items and then some).
    for (int layout = 0; layout <= 3; ++layout) {
      config cfg;
      cfg.counter_layout = layout;
      cfg.blocks = 1;
      const std::size_t n = layout == 0 || layout == 1 ? 128 * 65536 + 128 * 300 + 3 : 700'001;
      std::vector<i8> data(n, static_cast<i8>(-7));
      data[n / 2] = 5;
      CAPTURE(layout);
      check_stage<i8>(6, data, "one value, n = " + std::to_string(n), cfg);
    }
  }
  TEST_CASE("[gpu] 2^24 items, uniform and one value, every layout (WB_LARGE=1)" * doctest::skip(!large_tests_enabled())) {
    const auto uniform = wb::gen::uniform<i8>(std::size_t{1} << 24, wb::testing::seed(76));
    const auto one = wb::gen::all_equal<i8>((std::size_t{1} << 24) + 5, 0);
    for (int layout = 0; layout <= 3; ++layout) {
      config cfg;
      cfg.counter_layout = layout;
      CAPTURE(layout);
      check_stage<i8>(6, uniform, "uniform", cfg);
      check_stage<i8>(6, one, "one value", cfg);
    }
  }
  TEST_CASE("[gpu] more than 2^31 items (64-bit indices, D4) (WB_LARGE=1)" * doctest::skip(!large_tests_enabled())) {
    // Filled on the device (a memset and a few patched bytes), so the host never holds it.
    const std::int64_t n = (std::int64_t{1} << 31) + 77;
    wb::device_buffer<i8> d(static_cast<std::size_t>(n));
    d.fill_bytes(3);
    const std::int64_t marks[] = {0, (std::int64_t{1} << 31) - 1, std::int64_t{1} << 31, n - 1};
    const i8 marked[] = {-128, 127, 0, -1};
    for (int k = 0; k < 4; ++k) WB_CHECK(cudaMemcpy(d.data() + marks[k], &marked[k], 1, cudaMemcpyHostToDevice));
    std::vector<entry<i8>> expected{{-128, 1}, {-1, 1}, {0, 1}, {3, static_cast<std::uint64_t>(n - 4)}, {127, 1}};
    for (int stage : {5, 6}) {
      table_buffers<i8> out(n);
      wb::device_buffer<unsigned char> ws(4096);
      const workspace w{ws.data(), ws.size()};
      out.poison();
      if (stage == 5) track::histogram_global_atomics(d.data(), n, out.view(), w);
      if (stage == 6) track::histogram_privatized(d.data(), n, out.view(), w);
      WB_CHECK(cudaDeviceSynchronize());
      INFO("stage " << stage << ", " << n << " int8 items (past 2^31)");
      COUNTING_CHECK_TABLE(expected, out.to_host());
    }
  }
}

// Stage 7 names the path it took (counting::take_stage_note): the solution's note must contain
// `part`. The exercise track says nothing (its one path is the global table).
static void expect_path(const std::string& part) {
  const std::string note = counting::take_stage_note();
  if constexpr (track::id == counting::track_id::solution) {
    INFO("stage 7's note: " << note);
    CHECK(note.find(part) != std::string::npos);
  }
}

TEST_SUITE("counting/7 hash table") {
  TEST_CASE("int64 inputs against std::map") { check_all<i64>(7, int64_inputs(70000, 80)); }
  TEST_CASE("right, whatever it is told: exact, too few distinct keys (a table fills: the sort counts), nothing") {
    const auto data = wb::gen::few_distinct<i64>(50'000, wb::testing::seed(81), 3000);
    for (std::int64_t hint : {3000, 10, 0}) {
      config cfg;
      cfg.expected_distinct = hint;
      check_stage<i64>(7, data, "hint " + std::to_string(hint), cfg);
    }
  }
  TEST_CASE("every path forced: automatic (0), shared tables (1), two-level (2), sort (3), global table (4)") {
    for (int variant = 0; variant <= 4; ++variant) {
      config cfg;
      cfg.variant = variant;
      CAPTURE(variant);
      check_all<i64>(7, int64_inputs(20000, 85 + static_cast<std::uint64_t>(variant)), cfg);
      expect_path(variant == 0 ? "auto: " : "forced: ");
      cfg.expected_distinct = 5;  // told too few keys: a table fills, the sort counts again
      check_stage<i64>(7, wb::gen::iota<i64>(30'000, wb::testing::seed(89), true), "told 5, all distinct", cfg);
      expect_path(variant == 3 ? "sort" : "-> sort");
    }
  }
  TEST_CASE("two-level (forced): sizes off a scatter tile, a hot key that spills, INT64_MAX spilling") {
    config cfg;
    cfg.variant = 2;
    cfg.expected_distinct = 9000;  // 2 buckets (planned for 4608 keys each), each with room for N/2 + N/16 + 1024 items
    for (std::size_t n : {8191, 8192, 8193, 3 * 8192 + 5}) {
      CAPTURE(n);
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
    spill_too_small.variant = 2;
    spill_too_small.expected_distinct = 5000;
    check_stage<i64>(7, data, "the spill table overflows", spill_too_small);
    expect_path("two-level, 2 buckets full -> sort");
  }
  TEST_CASE("two-level (forced), buckets by key range: evenly spread keys, extremes, keys outside the sample's range") {
    config cfg;
    cfg.variant = 2;
    // few_distinct spreads its values evenly over the whole int64 range, INT64_MIN and
    // INT64_MAX among them: buckets by value hold about as many keys each.
    const auto spread = wb::gen::few_distinct<i64>(100'000, wb::testing::seed(97), 40'000);
    check_stage<i64>(7, spread, "40000 evenly spread keys", cfg);
    expect_path("by key range");
    setenv("COUNTING_STAGE7_RANGE", "0", 1);  // the same by hash
    check_stage<i64>(7, spread, "40000 evenly spread keys, buckets by hash", cfg);
    unsetenv("COUNTING_STAGE7_RANGE");
    {
      const std::string note = counting::take_stage_note();
      CHECK(note.find("by key range") == std::string::npos);
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
    // So many buckets need millions of keys; COUNTING_STAGE7_BUCKET_BITS forces them here.
    config cfg;
    cfg.variant = 2;
    auto data = wb::gen::few_distinct<i64>(20'000, wb::testing::seed(96), 3000);
    data[7] = std::numeric_limits<i64>::max();
    data[8] = std::numeric_limits<i64>::min();
    setenv("COUNTING_STAGE7_BUCKET_BITS", "11", 1);
    check_stage<i64>(7, data, "2048 buckets", cfg);
    unsetenv("COUNTING_STAGE7_BUCKET_BITS");
    expect_path("2048 buckets");
  }
  TEST_CASE("two-level (forced): hot keys counted beside the buckets, INT64_MIN among them, more than the list holds") {
    config cfg;
    cfg.variant = 2;
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
    auto data = wb::gen::iota<i64>(static_cast<std::size_t>(n), wb::testing::seed(92), true);  // all distinct
    for (std::int64_t i = 0; i < sample::sample_size(n); ++i) data[static_cast<std::size_t>(sample::position(i, n))] = -7;
    check_stage<i64>(7, data, "sampled items all -7, the others distinct");
    expect_path("auto: est. 1 distinct -> shared tables full -> sort");
    // Between the two: the sample sees 100 keys, the other items hold 40000 (three tables' worth).
    std::mt19937_64 pick(wb::testing::seed(93));
    for (auto& v : data) v = static_cast<i64>(pick() % 40000);
    for (std::int64_t i = 0; i < sample::sample_size(n); ++i)
      data[static_cast<std::size_t>(sample::position(i, n))] = 1'000'000 + static_cast<i64>(i % 100);
    check_stage<i64>(7, data, "sampled items 100 keys, the others 40000");
    expect_path("auto: est. 100 distinct -> shared tables full -> sort");
  }
  TEST_CASE("a sample that says all distinct while the rest is one key: counted without tables, right") {
    const std::int64_t n = 150'000;
    std::vector<i64> data(static_cast<std::size_t>(n), 5);
    for (std::int64_t i = 0; i < sample::sample_size(n); ++i)
      data[static_cast<std::size_t>(sample::position(i, n))] = 1000 + 3 * i;
    check_stage<i64>(7, data, "sampled items distinct, the others all 5");
    expect_path("auto: est. 2^17.2 distinct -> two-level");
    config cfg;
    // Forced to the shared tables, 8 partitions: on the cpu backend (smaller tables) they hold
    // the 65537 keys only in part and the sort counts; on a GPU they hold them.
    cfg.variant = 1;
    check_stage<i64>(7, data, "sampled items distinct, the others all 5, shared tables", cfg);
    expect_path("forced: est. 2^17.2 distinct -> shared tables, 8 partitions");
  }
  TEST_CASE("[gpu] 2^22 keys, 2^16 distinct, 2^20 all distinct, zipf-like over 2^10, every path (WB_LARGE=1)" *
            doctest::skip(!large_tests_enabled())) {
    const std::vector<named_input<i64>> inputs{
        {"few", wb::gen::few_distinct<i64>(std::size_t{1} << 22, wb::testing::seed(83), 1 << 16)},
        {"all distinct", wb::gen::iota<i64>(std::size_t{1} << 20, wb::testing::seed(84), true)},
        {"zipf", wb::gen::zipf<i64>(std::size_t{1} << 22, wb::testing::seed(94), 1 << 10)}};
    for (const auto& in : inputs) {
      const auto expected = reference_table<i64>(in.data);  // once per input: std::map on 2^22 keys takes seconds
      for (int variant = 0; variant <= 4; ++variant) {
        config cfg;
        cfg.variant = variant;
        INFO("input: " << in.name << ", variant " << variant);
        COUNTING_CHECK_TABLE(expected, run_stage<i64>(7, in.data, cfg));
      }
    }
  }

}

TEST_SUITE("counting/8 pipeline") {
  TEST_CASE("int8 inputs against std::map, chunks of 1000 on 3 streams") {
    config cfg;
    cfg.chunk_items = 1000;
    cfg.streams = 3;
    check_all<i8>(8, int8_inputs(70000, 90), cfg);
  }
  TEST_CASE("chunk sizes and stream counts: 1 item, a chunk bigger than the input, sizes off a chunk (D10)") {
    const auto data = wb::gen::uniform<i8>(10'007, wb::testing::seed(91));
    for (std::int64_t chunk : {1, 16, 4096, 10'007, 1 << 20}) {
      for (int streams : {1, 2, 5}) {
        config cfg;
        cfg.chunk_items = chunk;
        cfg.streams = streams;
        check_stage<i8>(8, chunk == 1 ? std::vector<i8>(data.begin(), data.begin() + 300) : data,
                        "chunk " + std::to_string(chunk) + ", streams " + std::to_string(streams), cfg);
      }
    }
  }
  TEST_CASE("[gpu] 2^26 items in chunks of 2^22 on 4 streams (WB_LARGE=1)" * doctest::skip(!large_tests_enabled())) {
    config cfg;
    cfg.chunk_items = std::int64_t{1} << 22;
    check_stage<i8>(8, wb::gen::uniform<i8>((std::size_t{1} << 26) + 9, wb::testing::seed(92)), "uniform", cfg);
  }
}
