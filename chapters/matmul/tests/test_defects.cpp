// The source defect and the pitfalls of the table in the README, each with its defective
// variant (defective_variants.hpp): the variant fails where the stage passes.
#include <fmt/format.h>

#include "wb/race_check.hpp"

#include "defective_variants.hpp"
#include "test_support.hpp"

using namespace matmul;
using namespace matmul::testing;

TEST_SUITE("matmul/1 naive") {
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

TEST_SUITE("matmul/2 tiled") {
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

  TEST_CASE("race: a missing barrier between tile phases is reported, and gives a wrong C under a fixed order") {
    const inputs in = make_inputs(2, 40, 36, 64, fill::uniform, fill::uniform, wb::testing::seed(73));
    for (const auto defect :
         {defective::tiled_defect::no_barrier_after_load, defective::tiled_defect::no_barrier_after_compute}) {
      const char* missing = defect == defective::tiled_defect::no_barrier_after_load ? "loads" : "products";
      const auto run = [&] {
        return run_defective(in, [&](const float* A, const float* B, float* C_) {
          defective::matmul_tiled(defect, A, B, C_, in.M, in.N, in.K);
        });
      };
      if (wb::testing::race_check_active()) {  // the race check names the two accesses
        std::string race;
        INFO(fmt::format("barrier missing after the {}", missing));
        CHECK(wb::testing::race_reported([&] { (void)run(); }, &race));
        CHECK(race.find("no __syncthreads()") != std::string::npos);
      }
      const wb::testing::race_check_paused unchecked;  // what the race does to C
      under_fixed_orders([&](const char* order) {
        const auto C = run();
        INFO(fmt::format("{} scheduling order, barrier missing after the {}", order, missing));
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
