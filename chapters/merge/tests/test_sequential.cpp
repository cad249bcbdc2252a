// Stage 0: the sequential merge against std::merge; the M1 regression.
#include <climits>

#include "defective_variants.hpp"
#include "test_support.hpp"

using namespace merge;
using namespace merge::testing;

TEST_SUITE("merge/0 sequential") {
  TEST_CASE("matches std::merge on every distribution and degenerate size") {
    const auto sizes = boundary_sizes({2, 3, 64, 257, 1000}, wb::testing::seed(1));
    check_battery<std::int32_t>(0, {}, sizes, wb::testing::seed(2));
    check_battery<std::int64_t>(0, {}, sizes, wb::testing::seed(3));
    check_battery<float>(0, {}, sizes, wb::testing::seed(4));
  }

  TEST_CASE("is stable: equal keys keep A first and their input order") {
    // 1-4 distinct keys shared by A and B: every output position is a tie somewhere.
    wb::gen::rng rng(wb::testing::seed(5));
    for (int round = 0; round < 200; ++round) {
      const auto m = static_cast<std::int64_t>(rng.below(12));
      const auto n = static_cast<std::int64_t>(rng.below(12));
      const auto distinct = static_cast<std::int32_t>(1 + rng.below(4));
      std::vector<std::int32_t> A(m), B(n);
      for (auto& a : A) a = static_cast<std::int32_t>(rng.below(distinct));
      for (auto& b : B) b = static_cast<std::int32_t>(rng.below(distinct));
      std::sort(A.begin(), A.end());
      std::sort(B.begin(), B.end());
      check_case(0, A, B, true, {}, "round " + std::to_string(round));
    }
  }

  TEST_CASE("the book's example (Fig. 12.1) and INT_MIN/INT_MAX") {
    check_case<std::int32_t>(0, {1, 7, 8, 9, 10}, {7, 10, 10, 12}, true, {}, "Fig. 12.1");
    check_case<std::int32_t>(0, {INT_MIN, INT_MIN, 0, INT_MAX}, {INT_MIN, -1, INT_MAX, INT_MAX}, true, {}, "extremes");
    check_case<std::int64_t>(0, {LLONG_MIN, LLONG_MAX}, {LLONG_MIN, 0, LLONG_MAX}, true, {}, "int64 extremes");
    check_case<float>(0, {-0.0f, 0.0f, 1.5f}, {0.0f, -0.0f}, true, {}, "signed zeros are equal keys");
  }

  TEST_CASE("M1: the tail copy after the loop, ties to A (defective variants fail)") {
    // A = {1, 2, 2}, B = {2, 3}: after the first step (1 from A) the M1 loop copies A's
    // tail at once and B is never reached; the strict comparison takes B's 2 before A's.
    const std::vector<std::int32_t> A = {1, 2, 2};
    const std::vector<std::int32_t> B = {2, 3};
    const auto expected = reference(A, B, true);
    const auto A_val = tag_values(3, 0);
    const auto B_val = tag_values(2, 1'000'000'000);
    const auto run_defective = [&](defective::sequential_defect d) {
      merged<std::int32_t> out{std::vector<std::int32_t>(5, -1), std::vector<value_t>(5, -1)};
      defective::merge_sequential(d, A.data(), 3, B.data(), 2, out.C.data(), A_val.data(), B_val.data(), out.C_val.data());
      return out;
    };
    const auto copy = run_defective(defective::sequential_defect::none);
    CHECK(copy.C == expected.C);  // the unmutated copy is right: the mutation is the difference
    CHECK(copy.C_val == expected.C_val);
    const auto tail = run_defective(defective::sequential_defect::M1_tail_in_loop);
    CHECK_MESSAGE(tail.C != expected.C, "the M1 tail-in-loop variant should lose B's elements");
    const auto unstable = run_defective(defective::sequential_defect::M1_unstable);
    CHECK(unstable.C == expected.C);  // the keys are sorted either way...
    CHECK_MESSAGE(unstable.C_val != expected.C_val, "...but the M1 strict variant puts B's 2 before A's");
    // The fix: this track's merge_sequential.
    check_case(0, A, B, true, {}, "M1 example");
  }
}
