// Stage 2: shared-memory tiles with the boundary checks; MM1 and the missing barrier as
// defective variants that fail where the stage passes.
#include <fmt/format.h>

#include "defect_runner.hpp"
#include "defective.hpp"
#include "helpers.hpp"
#include "variants.hpp"

using namespace matmul;
using namespace matmul::testing;

TEST_SUITE("matmul/2 tiled") {
  TEST_CASE("TILE_WIDTH 16: sizes around every tile boundary, within the bound, exact on small integers") {
    check_shapes(2, {0}, boundary_shapes({1, 15, 16, 17, 31, 32, 33, 47, 48, 49}, 23), wb::testing::seed(20));
  }
  TEST_CASE("TILE_WIDTH 32 and 8") {
    check_shapes(2, {1}, boundary_shapes({1, 31, 32, 33, 65}, 40), wb::testing::seed(21));
    check_shapes(2, {2}, boundary_shapes({1, 7, 8, 9, 17}, 12), wb::testing::seed(22));
  }
  TEST_CASE("a NaN or infinity in A reaches exactly its row") {
    check_nan_and_inf_rows(2, {}, wb::testing::seed(23));
  }
  TEST_CASE("zero, identity and extreme matrices; empty shapes") {
    check_special_matrices(2, {}, wb::testing::seed(24));
  }
  TEST_CASE("K = 0: every variant writes an all-zero C") {
    for (int v = 0; v < static_cast<int>(tiled_variants.size()); ++v) {
      CAPTURE(tiled_variants[static_cast<std::size_t>(v)].name);
      check_zero_k(2, {v}, wb::testing::seed(26));
    }
  }

  TEST_CASE("MM1: the printed kernel assumes M, N, K are multiples of TILE_WIDTH; at 33 it fails, the fix passes") {
    for (const std::int64_t size : {33, 47}) {
      const inputs in =
          make_inputs(2, size, size, size, fill::small_integers, fill::small_integers, wb::testing::seed(70));
      const auto C = run_defective(in, [&](const float* A, const float* B, float* C_) {
        defective::matmul_tiled(defective::tiled_defect::assumes_multiple_of_tile, A, B, C_, in.M, in.N, in.K);
      });
      CAPTURE(size);
      CHECK_MESSAGE(!right(in, C), "the MM1 variant must fail off a multiple of TILE_WIDTH");
      CHECK(right(in, run_stage(2, in)));
    }
    // M = 33 alone (N and K multiples of 16): the printed grid never computes row 32
    const inputs rows = make_inputs(2, 33, 32, 48, fill::small_integers, fill::small_integers, wb::testing::seed(71));
    CHECK_FALSE(right(rows, run_defective(rows, [&](const float* A, const float* B, float* C_) {
                        defective::matmul_tiled(defective::tiled_defect::assumes_multiple_of_tile, A, B, C_, rows.M,
                                                rows.N, rows.K);
                      })));
    CHECK(right(rows, run_stage(2, rows)));
    // At multiples of 16 the printed kernel is right: the defect is exactly the boundary.
    const inputs even = make_inputs(2, 32, 48, 64, fill::small_integers, fill::small_integers, wb::testing::seed(72));
    CHECK(right(even, run_defective(even, [&](const float* A, const float* B, float* C_) {
                  defective::matmul_tiled(defective::tiled_defect::assumes_multiple_of_tile, A, B, C_, even.M, even.N,
                                          even.K);
                })));
  }

  TEST_CASE("a missing barrier between tile phases gives a wrong C under a fixed scheduling order") {
    const inputs in = make_inputs(2, 40, 36, 64, fill::uniform, fill::uniform, wb::testing::seed(73));
    for (const auto defect :
         {defective::tiled_defect::no_barrier_after_load, defective::tiled_defect::no_barrier_after_compute}) {
      under_fixed_orders([&](const char* order) {
        const auto C = run_defective(in, [&](const float* A, const float* B, float* C_) {
          defective::matmul_tiled(defect, A, B, C_, in.M, in.N, in.K);
        });
        INFO(fmt::format("{} scheduling order, barrier missing after the {}", order,
                         defect == defective::tiled_defect::no_barrier_after_load ? "loads" : "products"));
#if defined(WB_BACKEND_CPU)
        CHECK_MESSAGE(!right(in, C), "the racy variant must fail");
#else
        (void)C;  // a GPU may or may not show the race on one run: racecheck does, every time
#endif
      });
    }
    under_fixed_orders([&](const char*) { CHECK(right(in, run_stage(2, in))); });
  }
}
