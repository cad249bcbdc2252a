// Stage 5: WMMA with a cp.async pipeline, every compiled variant.
#include <fmt/format.h>

#include "helpers.hpp"
#include "large.hpp"
#include "variants.hpp"

using namespace matmul;
using namespace matmul::testing;

TEST_SUITE("matmul/5 wmma") {
  TEST_CASE("256x128x32, 3 stages: sizes around fragments, warp tiles, blocks and slices") {
    // fragments 16, warp tile 64 x 64, block 256 x 128, slices of 32 in a 3-stage ring (K past 3
    // slices wraps the ring); K or N not a multiple of 8 takes the element-by-element loads.
    check_shapes(5, {0}, boundary_shapes({1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129}, 40),
                 wb::testing::seed(60));
    check_shapes(5, {0}, {{255, 129, 200}, {257, 256, 161}, {3, 5, 7}}, wb::testing::seed(61));
  }
  TEST_CASE("every other variant: pipeline depth and tile shapes") {
    for (int v = 1; v < static_cast<int>(wmma_variants.size()); ++v) {
      CAPTURE(wmma_variants[static_cast<std::size_t>(v)].name);
      check_shapes(5, {v}, {{129, 257, 100}, {65, 63, 33}, {1, 1, 1}, {128, 256, 96}},
                   wb::testing::seed(62 + static_cast<std::uint64_t>(v)));
    }
  }
  TEST_CASE("a NaN or infinity in A reaches exactly its row") {
    check_nan_and_inf_rows(5, {}, wb::testing::seed(66));
  }
  TEST_CASE("zero, identity and extreme matrices; empty shapes") {
    check_special_matrices(5, {}, wb::testing::seed(67));
  }
  TEST_CASE("K = 0: every variant writes an all-zero C") {
    for (int v = 0; v < static_cast<int>(wmma_variants.size()); ++v) {
      CAPTURE(wmma_variants[static_cast<std::size_t>(v)].name);
      check_zero_k(5, {v}, wb::testing::seed(68));
    }
  }
#if defined(WB_HAVE_BASELINE)
  // The library row of the table is checked like a stage: K = 0 (cuBLAS refuses a leading
  // dimension of 0; the row must still print an all-zero C), odd shapes, small integers exact.
  WB_GPU_TEST_CASE("cublasGemmEx (bf16), the table's library row, agrees with the exact product; K = 0 gives C = 0") {
    std::uint64_t seed = wb::testing::seed(69);
    for (const shape s : {shape{3, 2, 0}, shape{129, 257, 0}, shape{1, 1, 1}, shape{33, 31, 17}, shape{257, 130, 520}}) {
      const std::string what = fmt::format("M = {}, N = {}, K = {}", s.M, s.N, s.K);
      const inputs uniform = make_inputs(5, s.M, s.N, s.K, fill::uniform, fill::uniform, seed++);
      check_output(5, uniform, run_library(5, uniform), s.K == 0, what + ", uniform");
      const inputs small = make_inputs(5, s.M, s.N, s.K, fill::small_integers, fill::small_integers, seed++);
      check_output(5, small, run_library(5, small), true, what + ", small integers");
    }
  }
#endif
  WB_GPU_TEST_CASE("[large] M K past 2^31 elements: 64-bit indices, exact small-integer sums") {
    // A holds 32769 x 65544 > 2^31 elements: every index past 2^31 must be 64-bit.
    const std::string wrong = check_large<bf16>(32769, 64, 65544, [](const bf16_problem& p) { track::matmul_wmma(p); });
    CHECK_MESSAGE(wrong.empty(), wrong);
  }
}
