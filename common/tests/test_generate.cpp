// wb/generate.hpp: exact, seeded, in range, and the shapes they promise.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include "wb/generate.hpp"
#include "wb/testing.hpp"

namespace gen = wb::gen;

#define WB_ALL_TYPES std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, \
                     std::int64_t, std::uint64_t, long long, unsigned long long, float, double
#define WB_INT_TYPES std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, \
                     std::int64_t, std::uint64_t, long long, unsigned long long

TEST_CASE("rng is SplitMix64 exactly (values from an independent implementation)") {
  gen::rng zero(0);
  CHECK(zero.next() == 0xE220A8397B1DCDAFull);  // SplitMix64's published first output for seed 0
  CHECK(gen::uniform<std::int32_t>(6, 42, -50, 50) == std::vector<std::int32_t>{24, -34, -22, -16, -47, 37});
  CHECK(gen::uniform<std::uint64_t>(3, 7) ==
        std::vector<std::uint64_t>{7191089600892374487ull, 309689372594955804ull, 16616101746815609346ull});
  CHECK(gen::uniform<std::int8_t>(8, 1) == std::vector<std::int8_t>{17, 62, 120, -15, -15, 67, 96, 5});
}

TEST_CASE_TEMPLATE("generators are deterministic per seed", T, WB_ALL_TYPES) {
  const std::uint64_t s = wb::testing::seed(1);
  const std::size_t n = 2000;
  CHECK(gen::uniform<T>(n, s) == gen::uniform<T>(n, s));
  CHECK(gen::uniform<T>(n, s) != gen::uniform<T>(n, s + 1));
  CHECK(gen::few_distinct<T>(n, s, 7) == gen::few_distinct<T>(n, s, 7));
  CHECK(gen::extremes<T>(n, s) == gen::extremes<T>(n, s));
  CHECK(gen::zipf<T>(n, s, 50) == gen::zipf<T>(n, s, 50));
  CHECK(gen::hot_and_tail<T>(n, s, 0.5, 3, 40) == gen::hot_and_tail<T>(n, s, 0.5, 3, 40));
  CHECK(gen::iota<T>(n, s, true) == gen::iota<T>(n, s, true));
  CHECK(gen::iota<T>(n, s, true) != gen::iota<T>(n, s + 1, true));
  CHECK(gen::uniform<T>(0, s).empty());
}

TEST_CASE_TEMPLATE("uniform stays in [lo, hi] and reaches both ends of a small range", T, WB_INT_TYPES) {
  const std::uint64_t s = wb::testing::seed(2);
  const T lo = std::numeric_limits<T>::is_signed ? T(-3) : T(5);
  const T hi = T(lo + 6);
  const auto values = gen::uniform<T>(5000, s, lo, hi);
  std::set<T> seen(values.begin(), values.end());
  CHECK(seen.size() == 7);
  CHECK(*seen.begin() == lo);
  CHECK(*seen.rbegin() == hi);
  CHECK(gen::uniform<T>(100, s, hi, hi) == std::vector<T>(100, hi));
  CHECK_THROWS_AS(gen::uniform<T>(1, s, hi, lo), std::invalid_argument);
}

TEST_CASE_TEMPLATE("uniform over the whole range of a small type hits the extremes", T, std::int8_t, std::uint8_t) {
  const auto values = gen::uniform<T>(20000, wb::testing::seed(3));
  std::set<T> seen(values.begin(), values.end());
  CHECK(seen.size() == 256);
}

TEST_CASE_TEMPLATE("floating-point uniform is in [lo, hi) and finite over the whole range", T, float, double) {
  const std::uint64_t s = wb::testing::seed(4);
  for (T v : gen::uniform<T>(5000, s, T(-2), T(3))) {
    REQUIRE(v >= T(-2));
    REQUIRE(v < T(3));
  }
  const auto wide = gen::uniform<T>(5000, s);
  CHECK(std::all_of(wide.begin(), wide.end(), [](T v) { return std::isfinite(v); }));
  CHECK(std::any_of(wide.begin(), wide.end(), [](T v) { return v < 0; }));
  CHECK(std::any_of(wide.begin(), wide.end(), [](T v) { return v > 0; }));
  CHECK_THROWS_AS(gen::uniform<T>(1, s, T(1), std::numeric_limits<T>::infinity()), std::invalid_argument);
}

TEST_CASE_TEMPLATE("few_distinct gives exactly that many values, spread over the range", T, WB_INT_TYPES) {
  const std::uint64_t s = wb::testing::seed(5);
  const auto values = gen::few_distinct<T>(4000, s, 5);
  std::set<T> seen(values.begin(), values.end());
  CHECK(seen.size() == 5);
  CHECK(*seen.begin() == std::numeric_limits<T>::lowest());
  CHECK(*seen.rbegin() == std::numeric_limits<T>::max());
  CHECK(gen::few_distinct<T>(50, s, 1) == std::vector<T>(50, T(0)));
  CHECK_THROWS_AS(gen::few_distinct<T>(10, s, 0), std::invalid_argument);
}

TEST_CASE("few_distinct on a tiny type caps at the values it has; floats are small exact integers") {
  const std::uint64_t s = wb::testing::seed(6);
  const auto bytes = gen::few_distinct<std::uint8_t>(50000, s, 100000);
  CHECK(std::set<std::uint8_t>(bytes.begin(), bytes.end()).size() == 256);
  const auto floats = gen::few_distinct<float>(4000, s, 9);
  std::set<float> seen(floats.begin(), floats.end());
  CHECK(seen == std::set<float>{-4, -3, -2, -1, 0, 1, 2, 3, 4});
}

TEST_CASE_TEMPLATE("extremes draws the type's edge values", T, WB_ALL_TYPES) {
  using lim = std::numeric_limits<T>;
  const auto values = gen::extremes<T>(3000, wb::testing::seed(7));
  std::set<T> seen(values.begin(), values.end());
  CHECK(seen.count(lim::lowest()) == 1);
  CHECK(seen.count(lim::max()) == 1);
  CHECK(seen.count(T(0)) == 1);
  CHECK(seen.count(T(1)) == 1);
  if constexpr (std::is_integral_v<T>) {
    CHECK(seen.count(T(lim::max() - 1)) == 1);
    CHECK(seen.count(T(lim::lowest() + 1)) == 1);
    // signed: lowest, lowest+1, -1, 0, 1, max-1, max; unsigned: 0, 1, max-1, max
    CHECK(seen.size() == (lim::is_signed ? 7u : 4u));
  } else {
    CHECK(seen.count(lim::denorm_min()) == 1);
    CHECK(std::all_of(values.begin(), values.end(), [](T v) { return std::isfinite(v); }));
  }
}

TEST_CASE("zipf: values below distinct, rank 0 most frequent, frequencies fall with rank") {
  const auto values = gen::zipf<std::int32_t>(200000, wb::testing::seed(8), 20, 1.1);
  std::map<std::int32_t, long> counts;
  for (auto v : values) counts[v] += 1;
  CHECK(counts.begin()->first >= 0);
  CHECK(counts.rbegin()->first < 20);
  CHECK(counts[0] > counts[1]);
  CHECK(counts[1] > counts[3]);
  CHECK(counts[3] > counts[19]);
  // P(0) / P(1) = 2^1.1 = 2.14: the counts are within a few percent of that.
  const double ratio = static_cast<double>(counts[0]) / static_cast<double>(counts[1]);
  CHECK(ratio > 2.0);
  CHECK(ratio < 2.3);
  CHECK_THROWS_AS(gen::zipf<std::int8_t>(10, 1, 200), std::invalid_argument);
  CHECK_THROWS_AS(gen::zipf<std::int32_t>(10, 1, 0), std::invalid_argument);
  CHECK(gen::zipf<std::int32_t>(100, 1, 1) == std::vector<std::int32_t>(100, 0));
}

TEST_CASE("hot_and_tail: the hot share on the hot keys, a tail of its values or of distinct ones, none shared") {
  const std::size_t n = 200000;
  for (const double share : {0.1, 0.5, 0.9}) {
    for (const std::size_t tail : {std::size_t{0}, std::size_t{1000}}) {
      const auto values = gen::hot_and_tail<std::int64_t>(n, wb::testing::seed(9), share, 16, tail);
      std::map<std::int64_t, long> counts;
      for (auto v : values) counts[v] += 1;
      // The 16 hot keys are the 16 most frequent; they hold the hot share of the items (binomial:
      // within 1% of n), each about share * n / 16 of them.
      std::vector<long> by_count;
      for (const auto& [v, c] : counts) by_count.push_back(c);
      std::sort(by_count.rbegin(), by_count.rend());
      long hot_items = 0;
      for (int k = 0; k < 16; ++k) hot_items += by_count[static_cast<std::size_t>(k)];
      INFO("hot share " << share << ", tail values " << tail);
      CHECK(std::abs(static_cast<double>(hot_items) / n - share) < 0.01);
      CHECK(static_cast<double>(by_count[15]) > 0.8 * share * n / 16);
      if (tail == 0) {
        // every tail item distinct: the distinct values are the hot keys plus the tail's items
        CHECK(counts.size() == 16 + (n - static_cast<std::size_t>(hot_items)));
        CHECK(by_count[16] == 1);
      } else {
        CHECK(counts.size() == 16 + tail);  // 1000 values, about 20 to 180 items each: all drawn
      }
      // spread: both halves of the int64 range hold values
      CHECK(counts.begin()->first < -(std::int64_t{1} << 60));
      CHECK(counts.rbegin()->first > (std::int64_t{1} << 60));
    }
  }
  const auto all_tail = gen::hot_and_tail<std::int32_t>(5000, 1, 0.0, 0, 0);
  CHECK(std::set<std::int32_t>(all_tail.begin(), all_tail.end()).size() == 5000);
  CHECK(gen::hot_and_tail<std::int8_t>(1000, 1, 0.5, 16, 200).size() == 1000);
  CHECK_THROWS_AS(gen::hot_and_tail<std::int8_t>(1000, 1, 0.5, 16, 0), std::invalid_argument);  // 1016 values
  CHECK_THROWS_AS(gen::hot_and_tail<std::int8_t>(10, 1, 0.5, 16, 250), std::invalid_argument);  // 266 values
  CHECK_THROWS_AS(gen::hot_and_tail<std::int64_t>(10, 1, 0.5, 0, 10), std::invalid_argument);
  CHECK_THROWS_AS(gen::hot_and_tail<std::int64_t>(10, 1, 1.5, 4, 10), std::invalid_argument);
}

TEST_CASE_TEMPLATE("iota counts up, and shuffled it is a permutation", T, WB_ALL_TYPES) {
  const std::size_t n = 100;
  const auto straight = gen::iota<T>(n, 1, false);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(straight[i] == static_cast<T>(i));
  auto shuffled = gen::iota<T>(n, wb::testing::seed(9), true);
  CHECK(shuffled != straight);
  std::sort(shuffled.begin(), shuffled.end());
  CHECK(shuffled == straight);
}

TEST_CASE("iota wraps modulo the type's range") {
  const auto bytes = gen::iota<std::uint8_t>(300, 1, false);
  CHECK(bytes[255] == 255);
  CHECK(bytes[256] == 0);
  CHECK(bytes[299] == 43);
  const auto signed_bytes = gen::iota<std::int8_t>(200, 1, false);
  CHECK(signed_bytes[127] == 127);
  CHECK(signed_bytes[128] == -128);
}

TEST_CASE_TEMPLATE("sorted pairs: sorted, disjoint or interleaved as promised", T, WB_ALL_TYPES) {
  const std::uint64_t s = wb::testing::seed(10);
  const auto sorted = gen::sorted_uniform<T>(1000, s);
  CHECK(std::is_sorted(sorted.begin(), sorted.end()));

  const auto disjoint = gen::disjoint_sorted<T>(300, 500, s);
  REQUIRE(disjoint.a.size() == 300);
  REQUIRE(disjoint.b.size() == 500);
  CHECK(std::is_sorted(disjoint.a.begin(), disjoint.a.end()));
  CHECK(std::is_sorted(disjoint.b.begin(), disjoint.b.end()));
  CHECK(disjoint.a.back() < disjoint.b.front());

  const auto inter = gen::interleaved_sorted<T>(60, 45, s);
  REQUIRE(inter.a.size() == 60);
  REQUIRE(inter.b.size() == 45);
  CHECK(std::is_sorted(inter.a.begin(), inter.a.end()));
  CHECK(std::is_sorted(inter.b.begin(), inter.b.end()));
  for (std::size_t i = 0; i < 45; ++i) {
    // a0 < b0 < a1 < b1 ... (non-strict only where a tiny type runs out of values)
    if constexpr (sizeof(T) == 1) {
      REQUIRE(inter.a[i] <= inter.b[i]);
      if (i + 1 < 60) REQUIRE(inter.b[i] <= inter.a[i + 1]);
    } else {
      REQUIRE(inter.a[i] < inter.b[i]);
      if (i + 1 < 60) REQUIRE(inter.b[i] < inter.a[i + 1]);
    }
  }
  const auto empty = gen::interleaved_sorted<T>(0, 5, s);
  CHECK(empty.a.empty());
  CHECK(empty.b.size() == 5);
}
