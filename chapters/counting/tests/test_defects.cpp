// One regression check per defect of the article that a stage of this chapter fixes
// (D1-D11, and D12-D13 found while writing the chapter; the README's defect table). Each check
// runs a deliberately defective variant (tests/defective*.{cpp,cu}, a small mutation of the
// stage) and shows it fails, then runs the stage on the same input and shows it passes.
// D5 (cudaDeviceSynchronize in device code) is a compile-time defect: its checks are the
// ctests counting_D5_defective_rejected and counting_D5_fixed_compiles
// (chapters/counting/CMakeLists.txt, cuda backend).
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "defective_variants.hpp"
#include "test_support.hpp"
#include "wb/device_buffer.hpp"
#include "wb/race_check.hpp"
#include "wb/timing.hpp"

namespace {

using namespace counting;
using namespace counting::testing;
using i8 = std::int8_t;
using u64 = std::uint64_t;

// The data with its last item set to a value that occurs nowhere else.
std::vector<i8> with_unique_last(std::vector<i8> data) {
  std::vector<bool> used(256, false);
  for (std::size_t i = 0; i + 1 < data.size(); ++i) used[static_cast<std::uint8_t>(data[i])] = true;
  const auto free = std::find(used.begin(), used.end(), false) - used.begin();
  data.back() = static_cast<i8>(static_cast<std::uint8_t>(free));
  return data;
}

bool tables_equal(const std::vector<entry<i8>>& expected, const std::vector<entry<i8>>& got) {
  return !table_mismatch(expected, got).has_value();
}

}  // namespace

TEST_SUITE("counting/0 sequential") {
  TEST_CASE("D1: the O(N^2) specification refuses N it would spend hours on") {
    // The defect is the algorithm's cost, which stage 0 keeps on purpose (it is the
    // specification). The regression is that nothing runs it blind: above the limit it
    // refuses at once, and the executable prints its estimated time instead.
    const std::vector<i8> big(static_cast<std::size_t>(max_quadratic_host_items) + 1, 1);
    const auto start = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH_AS(track::dist_count<i8>(big), doctest::Contains("D1"), stage_refused);
    const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(seconds < 1.0);  // the defective (unlimited) version would take ~2e10 comparisons here
    // The article's Table 1 order of magnitude: 10^6 items, every value distinct -> 10^12.
    CHECK(quadratic_comparisons(1e6, 1e6) == doctest::Approx(1e12).epsilon(0.01));
  }
}

TEST_SUITE("counting/1 openmp") {
  TEST_CASE("D2: N % threads items at the end were never counted") {
    // The last item holds a value of its own: only the dropped remainder could report it.
    const auto data = with_unique_last(wb::gen::few_distinct<i8>(3 * 333 + 2, wb::testing::seed(201), 20));
    const auto expected = reference_table<i8>(data);
    CHECK_FALSE(tables_equal(expected, defective::omp_dist_count_D2(data, 3)));
    INFO("input: " << data.size() << " int8 items");
    COUNTING_CHECK_TABLE(expected, track::omp_dist_count<i8>(data, 3));
  }
  TEST_CASE("D3: value 0 was never recorded (a zeroed table searched in full)") {
    auto data = wb::gen::few_distinct<i8>(1500, wb::testing::seed(202), 9);
    data[700] = 0;
    data[701] = 0;
    const auto expected = reference_table<i8>(data);
    CHECK_FALSE(tables_equal(expected, defective::omp_dist_count_D3(data, 4)));
    INFO("input: " << data.size() << " int8 items");
    COUNTING_CHECK_TABLE(expected, track::omp_dist_count<i8>(data, 4));
  }
  TEST_CASE("D4: a narrow loop index wraps (16 bits here, standing for the article's int at 2^31)") {
    const auto data = with_unique_last(wb::gen::few_distinct<i8>((1 << 16) + 4464, wb::testing::seed(203), 5));
    const auto expected = reference_table<i8>(data);
    CHECK_FALSE(tables_equal(expected, defective::omp_dist_count_D4(data, 2)));
    INFO("input: " << data.size() << " int8 items");
    COUNTING_CHECK_TABLE(expected, track::omp_dist_count<i8>(data, 2));
  }
}

TEST_SUITE("counting/3 direct port") {
  TEST_CASE("D12: 'counted already?' read from a table other threads are writing") {
    const auto data = wb::gen::few_distinct<i8>(500, wb::testing::seed(212), 6);
    const auto expected = reference_table<i8>(data);
    wb::device_buffer<i8> d(data);
#if defined(WB_BACKEND_CPU)
    {  // The defective variant is right only if lower threads happen to run first: the race
       // check reports the read of the table another thread writes, whatever the order.
      wb::device_buffer<i8> values(data.size());
      wb::device_buffer<u64> counts(data.size());
      wb::device_buffer<unsigned> rows(1);
      if (wb::testing::race_check_active()) {
        std::string race;
        CHECK(wb::testing::race_reported(
            [&] {
              defective::count_direct_port_D12(d.data(), static_cast<std::int64_t>(data.size()), values.data(),
                                               counts.data(), rows.data());
            },
            &race));
        CHECK(race.find("data race on shared memory") != std::string::npos);
      }
      const bool checked = wb::cpu::race_check();
      wb::cpu::set_race_check(false);  // unchecked, in reverse order: the same value reported by several threads
      {
        schedule_order_scope reverse("reverse");
        defective::count_direct_port_D12(d.data(), static_cast<std::int64_t>(data.size()), values.data(), counts.data(),
                                         rows.data());
      }
      wb::cpu::set_race_check(checked);
      CHECK(rows.to_host()[0] > expected.size());
    }
#endif
    for (const char* order : {"in-order", "reverse", "shuffle:3"}) {
      schedule_order_scope scope(order);
      check_stage<i8>(3, data, order);
    }
  }
}

TEST_SUITE("counting/4 dynamic parallelism") {
  TEST_CASE("D6: the shared counter zeroed by thread 0 while others add") {
    const auto data = wb::gen::few_distinct<i8>(2000, wb::testing::seed(206), 3);
    const i8 value = data[5];
    const auto expected = static_cast<u64>(std::count(data.begin(), data.end(), value));
    wb::device_buffer<i8> d(data);
    wb::device_buffer<u64> count(1);
#if defined(WB_BACKEND_CPU)
    {  // The race check reports thread 0's zeroing against the others' atomicAdd, whatever the
       // order; unchecked, with thread 0 last, it wipes what the others added.
      if (wb::testing::race_check_active()) {
        count.fill_bytes(0);
        std::string race;
        CHECK(wb::testing::race_reported(
            [&] { defective::count_if_D6(d.data(), static_cast<std::int64_t>(data.size()), value, count.data()); },
            &race));
        CHECK(race.find("data race on shared memory") != std::string::npos);
      }
      const bool checked = wb::cpu::race_check();
      wb::cpu::set_race_check(false);
      {
        schedule_order_scope reverse("reverse");
        count.fill_bytes(0);
        defective::count_if_D6(d.data(), static_cast<std::int64_t>(data.size()), value, count.data());
      }
      wb::cpu::set_race_check(checked);
      CHECK(count.to_host()[0] != expected);
    }
#endif
    for (const char* order : {"in-order", "reverse", "shuffle:11"}) {
      schedule_order_scope scope(order);
      count.fill_bytes(0);
      track::count_if_value<i8>(d.data(), static_cast<std::int64_t>(data.size()), value, count.data());
      INFO(data.size() << " int8 items, schedule order " << std::string(order));
      CHECK_MESSAGE(count.to_host()[0] == expected, "expected count " << expected << ", got " << count.to_host()[0]);
    }
  }
  TEST_CASE("D7: only the first blockDim.x items were compared") {
    const auto data = wb::gen::few_distinct<i8>(1000, wb::testing::seed(207), 3);
    const i8 value = data[0];
    const auto expected = static_cast<u64>(std::count(data.begin(), data.end(), value));
    wb::device_buffer<i8> d(data);
    wb::device_buffer<u64> count(1);
    count.fill_bytes(0);
    defective::count_if_D7(d.data(), static_cast<std::int64_t>(data.size()), value, count.data());
    CHECK(count.to_host()[0] != expected);
    count.fill_bytes(0);
    track::count_if_value<i8>(d.data(), static_cast<std::int64_t>(data.size()), value, count.data());
    INFO(data.size() << " int8 items");
    CHECK_MESSAGE(count.to_host()[0] == expected, "expected count " << expected << ", got " << count.to_host()[0]);
  }

  // Chunk tables of `data` as stage 4's parent and children leave them (see test_checks.cpp).
  struct chunk_tables {
    std::vector<i8> value;
    std::vector<u64> count;
  };
  chunk_tables tables_of(const std::vector<i8>& data, std::size_t chunk) {
    chunk_tables t{std::vector<i8>(data.size(), 0), std::vector<u64>(data.size(), 0)};
    for (std::size_t i = 0; i < data.size(); ++i) {
      const std::size_t begin = i / chunk * chunk;
      const std::size_t end = std::min(data.size(), begin + chunk);
      const auto b = data.begin() + static_cast<std::ptrdiff_t>(begin);
      if (std::find(b, data.begin() + static_cast<std::ptrdiff_t>(i), data[i]) != data.begin() + static_cast<std::ptrdiff_t>(i))
        continue;
      t.value[i] = data[i];
      t.count[i] = static_cast<u64>(std::count(b, data.begin() + static_cast<std::ptrdiff_t>(end), data[i]));
    }
    return t;
  }
  template <class Merge>
  std::vector<entry<i8>> merge_with(Merge merge, const std::vector<i8>& data, std::size_t chunk) {
    const chunk_tables t = tables_of(data, chunk);
    wb::device_buffer<i8> v(t.value);
    wb::device_buffer<u64> c(t.count);
    wb::device_buffer<u64> merged(data.size());
    table_buffers<i8> out(static_cast<std::int64_t>(data.size()));
    out.poison();
    // A defective merge may rank two entries alike, and two threads write one row: the cpu
    // backend's race check stops such a launch, and there is no table.
    const bool raced = wb::testing::race_reported([&] {
      merge(v.data(), c.data(), static_cast<std::int64_t>(data.size()), static_cast<std::int64_t>(chunk), merged.data(),
            out.view());
      WB_CHECK(cudaDeviceSynchronize());
    });
    if (raced) return {};
    return out.to_host();
  }

  TEST_CASE("D8: a value that fills its whole chunk was dropped") {
    std::vector<i8> data(400, 9);  // chunk 0 and chunk 1: only 9s
    for (std::size_t i = 200; i < data.size(); i += 2) data[i] = -3;
    const auto expected = reference_table<i8>(data);
    CHECK_FALSE(tables_equal(expected, merge_with(defective::merge_chunk_tables_D8, data, 100)));
    INFO("input: " << data.size() << " int8 items");
    COUNTING_CHECK_TABLE(expected, merge_with(track::merge_chunk_tables<i8>, data, 100));
  }
  TEST_CASE("D9: an entry's value was compared with another entry's count") {
    const auto data = wb::gen::few_distinct<i8>(600, wb::testing::seed(209), 8);
    const auto expected = reference_table<i8>(data);
    CHECK_FALSE(tables_equal(expected, merge_with(defective::merge_chunk_tables_D9, data, 50)));
    INFO("input: " << data.size() << " int8 items");
    COUNTING_CHECK_TABLE(expected, merge_with(track::merge_chunk_tables<i8>, data, 50));
  }
}

namespace {
// Every item of [0, n) lies in exactly one chunk.
template <class Bounds>
bool covers_exactly_once(Bounds bounds, std::int64_t n, std::int64_t chunk) {
  std::int64_t next = 0;
  for (std::int64_t c = 0; c < chunk_count(n, chunk); ++c) {
    const chunk_range r = bounds(c, chunk, n);
    if (r.begin != next || r.end < r.begin || r.end - r.begin > chunk) return false;
    next = r.end;
  }
  return next == n;
}
}  // namespace

TEST_SUITE("counting/8 pipeline") {
  TEST_CASE("D13: a last chunk that ends past the input was skipped (chunks.hpp, stages 4 and 8)") {
    CHECK_FALSE(covers_exactly_once(defective::chunk_bounds_D13, 1000, 300));
    for (std::int64_t n : {0, 1, 299, 300, 301, 1000, 1 << 20}) {
      for (std::int64_t chunk : {1, 7, 300, 1 << 16}) {
        INFO("input: " << n << " items in chunks of " << chunk);
        CHECK(covers_exactly_once(chunk_bounds, n, chunk));
      }
    }
  }
  TEST_CASE("D10: CHUNK - 1 items copied per chunk, and the tail after the last chunk lost") {
    const auto data = wb::gen::uniform<i8>(3 * 1000 + 17, wb::testing::seed(210));
    const auto expected = reference_table<i8>(data);
    pinned_buffer<i8> pinned(data);
    table_buffers<i8> out(1);
    wb::device_buffer<unsigned char> ws(256 * sizeof(u64) + 1000);
    defective::count_pipelined_D10(pinned.data(), static_cast<std::int64_t>(data.size()), out.view(), ws.data(), 1000);
    CHECK_FALSE(tables_equal(expected, out.to_host()));
    config cfg;
    cfg.chunk_items = 1000;
    check_stage<i8>(8, data, "3 chunks and 17 items", cfg);
  }
  TEST_CASE("[gpu] D11: chunks overlap their copies: within 1.2x of one bare copy, the article's loop not (WB_LARGE=1)" *
            doctest::skip(!large_tests_enabled())) {
    const std::size_t n = std::size_t{1} << 28;
    const auto data = wb::gen::uniform<i8>(n, wb::testing::seed(211));
    pinned_buffer<i8> pinned(data);
    wb::device_buffer<i8> target(n);
    config cfg;
    cfg.chunk_items = std::int64_t{1} << 24;
    table_buffers<i8> out(1);
    wb::device_buffer<unsigned char> ws(track::count_pipelined_workspace_bytes(cfg));
    wb::timing_options opt;
    opt.warmup = 1;
    opt.reps = 5;
    const double copy_ms = wb::time_gpu([&] {
      WB_CHECK(cudaMemcpyAsync(target.data(), pinned.data(), n, cudaMemcpyHostToDevice, 0));
    }, opt).median_ms;
    const double fixed_ms = wb::time_gpu([&] {
      track::count_pipelined(pinned.data(), static_cast<std::int64_t>(n), out.view(), {ws.data(), ws.size()}, cfg);
    }, opt).median_ms;
    const auto expected = reference_table<i8>(data);
    COUNTING_CHECK_TABLE(expected, out.to_host());
    const double article_ms = wb::time_gpu([&] {
      defective::count_pipelined_D11(pinned.data(), static_cast<std::int64_t>(n), out.view(), cfg.chunk_items);
    }, opt).median_ms;
    COUNTING_CHECK_TABLE(expected, out.to_host());
    MESSAGE("bare copy " << copy_ms << " ms, pipeline " << fixed_ms << " ms (" << fixed_ms / copy_ms
                         << "x), the article's loop " << article_ms << " ms (" << article_ms / copy_ms << "x)");
    CHECK(fixed_ms <= 1.2 * copy_ms);
    CHECK(article_ms > 1.2 * copy_ms);
  }
}
