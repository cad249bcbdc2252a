// Stage 3: thread coarsening and the 2-D register tile.
#include "helpers.hpp"
#include "variants.hpp"

using namespace matmul;
using namespace matmul::testing;

TEST_SUITE("matmul/3 coarsened") {
  TEST_CASE("register-8x8: sizes around the 128 x 128 x 8 tile, within the bound, exact on small integers") {
    check_shapes(3, {0}, boundary_shapes({1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 127, 128, 129}, 40),
                 wb::testing::seed(30));
    check_shapes(3, {0}, {{257, 130, 17}, {31, 255, 9}}, wb::testing::seed(31));
  }
  TEST_CASE("coarse-4: sizes around the 16 x 64 tile") {
    check_shapes(3, {1}, boundary_shapes({1, 15, 16, 17, 63, 64, 65}, 30), wb::testing::seed(32));
  }
  TEST_CASE("a NaN or infinity in A reaches exactly its row") {
    check_nan_and_inf_rows(3, {0}, wb::testing::seed(33));
    check_nan_and_inf_rows(3, {1}, wb::testing::seed(34));
  }
  TEST_CASE("zero, identity and extreme matrices; empty shapes") {
    check_special_matrices(3, {0}, wb::testing::seed(35));
    check_special_matrices(3, {1}, wb::testing::seed(36));
  }
  TEST_CASE("K = 0: every variant writes an all-zero C") {
    for (int v = 0; v < static_cast<int>(coarsened_variants.size()); ++v) {
      CAPTURE(coarsened_variants[static_cast<std::size_t>(v)].name);
      check_zero_k(3, {v}, wb::testing::seed(37));
    }
  }
}
