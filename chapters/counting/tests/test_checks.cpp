// Every stage against the independent reference (std::map counts) on seeded inputs: empty,
// one item, all equal (D8), value 0 (D3), sizes just off every block/vector/tile/chunk
// boundary (D2, D10), the full int8 range, heavy contention, int64 keys with few and many
// distinct values, the extremes, the article's example. The defects' own regression checks
// are in test_defects.cpp.
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "stages.hpp"
#include "test_support.hpp"
#include "wb/device_buffer.hpp"

namespace {

using namespace counting;
using namespace counting::testing;
using i8 = std::int8_t;
using i64 = std::int64_t;

const bool registered = wb::testing::register_stages(std::span{counting::stages});

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
      INFO("input: chunks of " << chunk << " items");
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
    for (int variant = 0; variant <= 3; ++variant) {
      config cfg;
      cfg.variant = variant;
      INFO("input: counter layout " << variant << " (--variant)");
      check_all<i8>(6, int8_inputs(70000, 70 + static_cast<std::uint64_t>(variant)), cfg);
    }
  }
  TEST_CASE("inputs that start off a 16-byte boundary, and 1 or 2 blocks per SM") {
    const auto data = wb::gen::uniform<i8>(40'000, wb::testing::seed(75));
    wb::device_buffer<i8> d(data);
    for (int variant = 0; variant <= 3; ++variant) {
      for (std::size_t offset : {std::size_t{1}, std::size_t{7}, std::size_t{15}}) {
        for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{14}, std::size_t{15}, std::size_t{29},
                              std::size_t{33333}}) {
          config cfg;
          cfg.variant = variant;
          cfg.blocks_per_sm = 1 + static_cast<int>(offset % 2);
          std::span<const i8> part(data.data() + offset, n);
          stage_runner<track::id, i8> runner(6, input<i8>{part, d.data() + offset}, cfg);
          runner.run();
          const auto mismatch = table_mismatch(reference_table<i8>(part), runner.result());
          INFO("input: counter layout " << variant << " (--variant), " << n << " items from byte " << offset
               << " of the buffer, " << cfg.blocks_per_sm << " block(s) per SM");
          CHECK_MESSAGE(!mismatch.has_value(), (mismatch ? *mismatch : std::string()));
        }
      }
    }
  }
  TEST_CASE("the same table under every scheduling order, drains included (a missing barrier shows)") {
    // Two blocks, so every thread counts several rounds and the layouts drain mid-stream
    // (variant 2 every 128 items a thread); the cpu backend's orders change which thread runs
    // first between barriers.
    const auto data = wb::gen::few_distinct<i8>(150'001, wb::testing::seed(77), 37);
    for (const char* order : {"in-order", "reverse", "shuffle:7"}) {
      schedule_order_scope scope(order);
      for (int variant = 0; variant <= 3; ++variant) {
        config cfg;
        cfg.variant = variant;
        cfg.blocks = 2;
        INFO("input: counter layout " << variant << " (--variant)");
        check_stage<i8>(6, data, order, cfg);
      }
    }
  }
  TEST_CASE("narrow counters are drained before they overflow (one value, many items per thread)") {
    // One block: every thread counts far more than 255 items of one value (8-bit counters),
    // or more than 65535 (16-bit counters: 128 threads x 65536 items and then some).
    for (int variant = 0; variant <= 3; ++variant) {
      config cfg;
      cfg.variant = variant;
      cfg.blocks = 1;
      const std::size_t n = variant == 0 || variant == 1 ? 128 * 65536 + 128 * 300 + 3 : 700'001;
      std::vector<i8> data(n, static_cast<i8>(-7));
      data[n / 2] = 5;
      INFO("input: counter layout " << variant << " (--variant)");
      check_stage<i8>(6, data, "one value, n = " + std::to_string(n), cfg);
    }
  }
  TEST_CASE("[gpu] 2^24 items, uniform and one value, every layout (WB_LARGE=1)" * doctest::skip(!large_tests_enabled())) {
    const auto uniform = wb::gen::uniform<i8>(std::size_t{1} << 24, wb::testing::seed(76));
    const auto one = wb::gen::all_equal<i8>((std::size_t{1} << 24) + 5, 0);
    for (int variant = 0; variant <= 3; ++variant) {
      config cfg;
      cfg.variant = variant;
      INFO("input: counter layout " << variant << " (--variant)");
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

// Stage 7's checks are in test_hash_table.cpp.

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
