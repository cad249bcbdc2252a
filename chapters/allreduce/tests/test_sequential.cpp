// Stage 0: the specification, against sums worked out by hand and an independent reference.
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "support.hpp"

using namespace allreduce;
using namespace allreduce::testing;

namespace {
template <class T>
std::vector<T> spec(const std::vector<std::vector<T>>& inputs) {
  return track::allreduce_sequential<T>(std::span<const std::vector<T>>(inputs));
}
}  // namespace

TEST_SUITE("allreduce/0 sequential") {
  TEST_CASE("the element-wise sum of every rank's vector") {
    CHECK(spec<std::int32_t>({{1, 2, 3}, {4, 5, 6}}) == std::vector<std::int32_t>{5, 7, 9});
    CHECK(spec<std::int64_t>({{1, -2}, {10, 20}, {100, 200}}) == std::vector<std::int64_t>{111, 218});
    CHECK(spec<float>({{0.5f, -1.0f}}) == std::vector<float>{0.5f, -1.0f});  // one rank: its own vector
    CHECK(spec<float>({{}, {}}).empty());                                     // empty vectors
    CHECK(spec<std::int32_t>({}).empty());                                    // no ranks at all
  }

  TEST_CASE("random vectors of every type, G = 2 to 5, against an independent reference") {
    const std::uint64_t seed = wb::testing::seed(1);
    for (int G = 2; G <= 5; ++G) {
      for (const std::int64_t n : {1, 17, 1000}) {
        const auto a = make_inputs<std::int32_t>(G, n, distribution::uniform, seed + G);
        CHECK(check_run(variant::through_host, a, {spec(a)}) == "");
        const auto b = make_inputs<std::int64_t>(G, n, distribution::extremes, seed + G);
        CHECK(check_run(variant::through_host, b, {spec(b)}) == "");
        const auto c = make_inputs<float>(G, n, distribution::uniform, seed + G);
        CHECK(check_run(variant::through_host, c, {spec(c)}) == "");
      }
    }
  }

  TEST_CASE("integers wrap around past their range, as two's complement") {
    constexpr auto max32 = std::numeric_limits<std::int32_t>::max();
    constexpr auto min32 = std::numeric_limits<std::int32_t>::min();
    CHECK(spec<std::int32_t>({{max32, min32, -1}, {1, -1, min32}}) == std::vector<std::int32_t>{min32, max32, max32});
    constexpr auto max64 = std::numeric_limits<std::int64_t>::max();
    CHECK(spec<std::int64_t>({{max64}, {max64}, {2}}) == std::vector<std::int64_t>{0});
  }

  TEST_CASE("floats add in rank order; NaN anywhere makes NaN") {
    // 1e8 + 1 - 1e8: in rank order (1e8 + 1) rounds to 1e8, so the sum is 0, not 1.
    CHECK(spec<float>({{1e8f}, {1.0f}, {-1e8f}}) == std::vector<float>{0.0f});
    CHECK(spec<float>({{-1e8f}, {1e8f}, {1.0f}}) == std::vector<float>{1.0f});
    const auto nan = spec<float>({{1.0f, 2.0f}, {std::numeric_limits<float>::quiet_NaN(), 3.0f}});
    REQUIRE(nan.size() == 2);
    CHECK(std::isnan(nan[0]));
    CHECK(nan[1] == 5.0f);
  }

  TEST_CASE("vectors of different lengths are refused") {
    CHECK_THROWS_AS(spec<std::int32_t>({{1, 2}, {3}}), std::invalid_argument);
  }
}
