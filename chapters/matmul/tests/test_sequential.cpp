// Stage 0: the specification, against the double-precision reference and by hand.
#include "helpers.hpp"

using namespace matmul;
using namespace matmul::testing;

TEST_SUITE("matmul/0 sequential") {
  TEST_CASE("a 2 x 2 product by hand") {
    inputs in{2, 2, 2, {1, 2, 3, 4}, {5, 6, 7, 8}};
    WB_CHECK_EQUAL_SEQ((std::vector<float>{19, 22, 43, 50}), run_stage(0, in));
    inputs wide{1, 3, 2, {1, -1}, {1, 2, 3, 4, 5, 6}};  // (1 x 2) (2 x 3)
    WB_CHECK_EQUAL_SEQ((std::vector<float>{-3, -3, -3}), run_stage(0, wide));
  }
  TEST_CASE("sizes 0, 1, 31-33 and odd shapes: within the bound, exact on small integers") {
    check_shapes(0, {}, boundary_shapes({0, 1, 2, 31, 32, 33}, 19), wb::testing::seed(1));
    check_shapes(0, {}, {{3, 70, 5}, {70, 3, 1}, {1, 1, 300}}, wb::testing::seed(2));
  }
  TEST_CASE("a NaN or infinity in A reaches exactly its row") {
    check_nan_and_inf_rows(0, {}, wb::testing::seed(3));
  }
  TEST_CASE("zero, identity and extreme matrices; empty shapes") {
    check_special_matrices(0, {}, wb::testing::seed(4));
  }
  TEST_CASE("K = 0: C is all zero") {
    check_zero_k(0, {}, wb::testing::seed(5));
  }
}
