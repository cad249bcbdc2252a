// The source defect and the pitfalls of the table in the README, each with its defective
// variant (defective_variants.hpp): the variant fails where the stage passes. Stage 2's missing
// barrier, a race, is in test_races.cpp.
#include <fmt/format.h>

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
      INFO("stage 2 itself (this track's tiled.cu) at this size: with MM1's fix it is right");
      CHECK(right(in, run_stage(2, in)));
    }
    // M = 33 alone (N and K multiples of 16): the printed grid never computes row 32
    const inputs rows = make_inputs(2, 33, 32, 48, fill::small_integers, fill::small_integers, wb::testing::seed(71));
    CHECK_FALSE(right(rows, run_defective(rows, [&](const float* A, const float* B, float* C_) {
                        defective::matmul_tiled(defective::tiled_defect::assumes_multiple_of_tile, A, B, C_, rows.M,
                                                rows.N, rows.K);
                      })));
    {
      INFO("stage 2 itself (this track's tiled.cu) at M = 33, N = 32, K = 48");
      CHECK(right(rows, run_stage(2, rows)));
    }
    // At multiples of 16 the printed kernel is right: the defect is exactly the boundary.
    const inputs even = make_inputs(2, 32, 48, 64, fill::small_integers, fill::small_integers, wb::testing::seed(72));
    CHECK(right(even, run_defective(even, [&](const float* A, const float* B, float* C_) {
                  defective::matmul_tiled(defective::tiled_defect::assumes_multiple_of_tile, A, B, C_, even.M, even.N,
                                          even.K);
                })));
  }
}

TEST_SUITE("matmul/2 tiled") {
  TEST_CASE("a fault at a byte of A, B or C names the matrix, its row and its column") {
    const inputs in{33, 33, 33, {}, {}};
    const auto matrices = problem_matrices(in, 4);
    // the store of thread (0, 33): column 33 lies past C's row and lands on C[1][0]
    const std::string inside = elements_named(
        "out-of-bounds access: thread 1 of block (2,0,0) writes 4 bytes at byte 132 of a 4356-byte device allocation",
        matrices);
    CHECK(inside == " [in the matrices' terms: that 4356-byte allocation is C (33 x 33 floats); the byte is C[1][0]]");
    const std::string past = elements_named(
        "thread 1 of block (8,0,0) writes 4 bytes at byte 4356 of a 4356-byte device allocation, past its end", matrices);
    CHECK(past.find("past C's last element C[32][32]: where C[33][0] would be") != std::string::npos);
    // a load: A or B, the same size
    const std::string read =
        elements_named("thread 3 reads 4 bytes at 8 bytes before the start of a 4356-byte device allocation", matrices);
    CHECK(read.find("A (33 x 33 floats) or B (33 x 33 floats)") != std::string::npos);
    CHECK(read.find("before A's first element: where A[-1][31] would be or before B's first element") !=
          std::string::npos);
    CHECK(elements_named("thread 3 reads 4 bytes at byte 0 of a 12-byte device allocation", matrices).empty());
    CHECK(elements_named("cudaErrorInvalidValue", matrices).empty());
  }
}
