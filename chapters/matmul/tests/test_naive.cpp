// Stage 1: one thread per output, both thread mappings; a k loop off by one fails.
#include "defect_runner.hpp"
#include "defective.hpp"
#include "helpers.hpp"
#include "variants.hpp"

using namespace matmul;
using namespace matmul::testing;

TEST_SUITE("matmul/1 naive") {
  TEST_CASE("both mappings: sizes around the 32 x 8 block, within the bound, exact on small integers") {
    for (int v = 0; v < static_cast<int>(naive_variants.size()); ++v) {
      CAPTURE(naive_variants[static_cast<std::size_t>(v)].name);
      check_shapes(1, {v}, boundary_shapes({1, 7, 8, 9, 31, 32, 33, 65}, 20), wb::testing::seed(10 + v));
    }
  }
  TEST_CASE("a NaN or infinity in A reaches exactly its row") {
    check_nan_and_inf_rows(1, {0}, wb::testing::seed(13));
    check_nan_and_inf_rows(1, {1}, wb::testing::seed(14));
  }
  TEST_CASE("zero, identity and extreme matrices; empty shapes") {
    check_special_matrices(1, {}, wb::testing::seed(15));
  }
  TEST_CASE("K = 0: every variant writes an all-zero C") {
    for (int v = 0; v < static_cast<int>(naive_variants.size()); ++v) {
      CAPTURE(naive_variants[static_cast<std::size_t>(v)].name);
      check_zero_k(1, {v}, wb::testing::seed(16));
    }
  }
  TEST_CASE("an unknown variant is refused") {
    const inputs in = make_inputs(1, 2, 2, 2, fill::uniform, fill::uniform, 1);
    CHECK_THROWS_AS(run_stage(1, in, {static_cast<int>(naive_variants.size())}), std::invalid_argument);
  }

  TEST_CASE("a k loop off by one (k <= K) reads one term too many; the stage's loop is right") {
    for (const std::int64_t K : {1, 2, 31, 33}) {
      const inputs in = make_inputs(1, 9, 35, K, fill::small_integers, fill::small_integers, wb::testing::seed(74));
      const auto C = run_defective(in, [&](const float* A, const float* B, float* C_) {
        defective::matmul_naive_k_off_by_one(A, B, C_, in.M, in.N, in.K);
      });
      CAPTURE(K);
      CHECK_FALSE(right(in, C));
      CHECK(right(in, run_stage(1, in)));
    }
  }
}
