// wb/testing.hpp: seeds, first_mismatch, the GPU skip.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "wb/testing.hpp"

TEST_CASE("seeds: one per run, mixed with the salt, repeatable") {
  CHECK(wb::testing::run_seed() == wb::testing::run_seed());
  CHECK(wb::testing::seed(1) == wb::testing::seed(1));
  CHECK(wb::testing::seed(1) != wb::testing::seed(2));
  CHECK(wb::testing::seed(0) != wb::testing::run_seed());
}

TEST_CASE("first_mismatch finds the first differing index, or a size mismatch") {
  using wb::testing::first_mismatch;
  CHECK_FALSE(first_mismatch(std::vector<int>{1, 2, 3}, std::vector<int>{1, 2, 3}).has_value());
  CHECK_FALSE(first_mismatch(std::vector<int>{}, std::vector<int>{}).has_value());
  CHECK(first_mismatch(std::vector<int>{1, 2, 3, 4}, std::vector<int>{1, 2, 5, 6}) ==
        std::string("at index 2: expected 3, got 5"));
  CHECK(first_mismatch(std::vector<int>{1, 2}, std::vector<int>{1, 2, 3}) ==
        std::string("size mismatch: expected 2 elements, got 3"));
  // int8 values print as numbers, not characters.
  CHECK(first_mismatch(std::vector<std::int8_t>{65}, std::vector<std::int8_t>{-3}) ==
        std::string("at index 0: expected 65, got -3"));
  CHECK(first_mismatch(std::vector<double>{0.5}, std::vector<double>{0.25}) ==
        std::string("at index 0: expected 0.5, got 0.25"));
  // Neighbouring floats are told apart.
  CHECK(first_mismatch(std::vector<float>{1.0f}, std::vector<float>{1.00000012f}) ==
        std::string("at index 0: expected 1, got 1.00000012"));
  CHECK(first_mismatch(std::vector<std::uint8_t>{255}, std::vector<std::uint8_t>{0}) ==
        std::string("at index 0: expected 255, got 0"));
}

TEST_CASE("WB_CHECK_EQUAL_SEQ passes on equal sequences") {
  const std::vector<long long> a = {1, -2, 3};
  WB_CHECK_EQUAL_SEQ(a, a);
}

// Listed as "skipped (needs a GPU)" without one: proves the skip path on every cpu run.
WB_GPU_TEST_CASE("GPU test cases run only where there is a GPU") {
  CHECK(wb::testing::gpu_present());
}

// A stage's checks may run the track's stages up to it only: a learner checking stage 3 has
// stubs from stage 4 on. A chapter's run_stage calls expect_stage_in_reach.
TEST_SUITE("demo/3 a stage's suite") {
  TEST_CASE("a chapter/N suite may run stages 0..N, not N + 1") {
    CHECK_NOTHROW(wb::testing::expect_stage_in_reach(0));
    CHECK_NOTHROW(wb::testing::expect_stage_in_reach(3));
    CHECK_THROWS_WITH_AS(wb::testing::expect_stage_in_reach(4),
                         doctest::Contains("test suite \"demo/3 a stage's suite\" runs stage 4"), std::logic_error);
  }
}
TEST_SUITE("demo/gpu") {
  TEST_CASE("a suite without a stage number may run any stage") {
    CHECK_NOTHROW(wb::testing::expect_stage_in_reach(6));
  }
}
TEST_CASE("outside any suite, any stage") { CHECK_NOTHROW(wb::testing::expect_stage_in_reach(9)); }
