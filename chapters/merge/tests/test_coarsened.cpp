// Stage 5: thread coarsening (exact tiles of blockDim.x * items_per_thread outputs).
#include "test_support.hpp"

using namespace merge;
using namespace merge::testing;

TEST_SUITE("merge/5 coarsened") {
  TEST_CASE("matches std::merge: every distribution, sizes around tile boundaries") {
    const std::uint64_t seed = wb::testing::seed(51);
    check_battery<std::int32_t>(5, {}, boundary_sizes({1024, 2048, 4096}, seed), seed + 1);  // 128 x 8
    check_battery<std::int64_t>(5, {33, 0, 3, 0}, boundary_sizes({99, 198, 500}, seed + 2), seed + 3);
    check_battery<float>(5, {7, 0, 16, 0}, boundary_sizes({112, 224, 300}, seed + 4), seed + 5);
  }

  TEST_CASE("one item per thread, one thread per block, long per-thread merges") {
    const std::uint64_t seed = wb::testing::seed(52);
    const auto A = sorted_keys<std::int32_t>(333, distribution::duplicates, seed, 0);
    const auto B = sorted_keys<std::int32_t>(300, distribution::duplicates, seed, 1);
    check_case(5, A, B, true, {64, 0, 1, 0}, "64 x 1");
    check_case(5, A, B, true, {1, 0, 1, 0}, "1 x 1: a block per output");
    check_case(5, A, B, true, {1, 0, 5, 0}, "1 x 5");
    check_case(5, A, B, true, {8, 0, 100, 0}, "8 x 100: one tile");
  }

  TEST_CASE("rejects what it cannot run (M11)") {
    const std::vector<std::int32_t> A = {1, 2, 3};
    CHECK_THROWS_AS(run_stage(5, A, A, false, {1025, 0, 1, 0}), std::invalid_argument);
    CHECK_THROWS_AS(run_stage(5, A, A, false, {1024, 0, 4096, 0}), std::invalid_argument);  // 16 MiB of shared memory
    CHECK_THROWS_AS(run_stage(5, A, A, false, {128, 0, 5000, 0}), std::invalid_argument);
  }
}
