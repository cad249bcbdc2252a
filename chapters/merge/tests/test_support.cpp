// Helpers shared by the merge checks (see test_support.hpp), and the stage registration.
#include "test_support.hpp"

#include <set>

#include "wb/generate.hpp"

#include "stages.hpp"

namespace merge::testing {

std::vector<std::pair<std::int64_t, std::int64_t>> boundary_sizes(const std::vector<std::int64_t>& boundaries,
                                                                  std::uint64_t seed) {
  std::set<std::pair<std::int64_t, std::int64_t>> sizes = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 13}, {13, 0}, {1, 40}, {40, 1}};
  wb::gen::rng rng(seed);
  for (const std::int64_t b : boundaries) {
    for (const std::int64_t total : {b - 1, b, b + 1}) {
      if (total < 0) continue;
      const auto a = static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(total) + 1));
      sizes.insert({a, total - a});         // a random split
      sizes.insert({total / 2, total - total / 2});  // an even split
    }
  }
  return {sizes.begin(), sizes.end()};
}

namespace {

const bool registered = wb::testing::register_stages(std::span{merge::stages});

}  // namespace
}  // namespace merge::testing
