// Checks that need a GPU: the library rows of the table (cublasSgemm, cublasGemmEx) against the
// exact product, K = 0 included; matrices past 2^31 elements (64-bit indices) in stages 4-6.
#include <fmt/format.h>

#include "test_support.hpp"

using namespace matmul;
using namespace matmul::testing;

TEST_SUITE("matmul/4 fp32-ceiling") {
#if defined(WB_HAVE_BASELINE)
  // The library row of the table is checked like a stage: K = 0 (cuBLAS refuses a leading
  // dimension of 0; the row must still print an all-zero C), odd shapes, small integers exact.
  WB_GPU_TEST_CASE("cublasSgemm, the table's library row, agrees with the exact product; K = 0 gives C = 0") {
    std::uint64_t seed = wb::testing::seed(58);
    for (const shape s : {shape{3, 2, 0}, shape{129, 257, 0}, shape{1, 1, 1}, shape{33, 31, 17}, shape{257, 130, 520}}) {
      const std::string what = fmt::format("M = {}, N = {}, K = {}", s.M, s.N, s.K);
      const inputs uniform = make_inputs(4, s.M, s.N, s.K, fill::uniform, fill::uniform, seed++);
      check_output(4, uniform, run_library(4, uniform), s.K == 0, what + ", uniform");
      const inputs small = make_inputs(4, s.M, s.N, s.K, fill::small_integers, fill::small_integers, seed++);
      check_output(4, small, run_library(4, small), true, what + ", small integers");
    }
  }
#endif
  WB_GPU_TEST_CASE("[large] M K past 2^31 elements: 64-bit indices, exact small-integer sums") {
    // A holds 32769 x 65544 > 2^31 elements: every index past 2^31 must be 64-bit.
    const std::string wrong =
        check_large<float>(32769, 64, 65544, [](const fp32_problem& p) { track::matmul_fp32_ceiling(p); });
    CHECK_MESSAGE(wrong.empty(), wrong);
  }
}

TEST_SUITE("matmul/5 wmma") {
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

TEST_SUITE("matmul/6 hopper") {
  WB_GPU_TEST_CASE("[large] M K past 2^31 elements: 64-bit indices, exact small-integer sums") {
    // A holds 32769 x 65544 > 2^31 elements: every index past 2^31 must be 64-bit.
    try {
      const std::string wrong = check_large<bf16>(32769, 64, 65544, [](const bf16_problem& p) {
        track::matmul_hopper(p, {});  // K and N multiples of 8: no workspace
      });
      CHECK_MESSAGE(wrong.empty(), wrong);
    } catch (const stage_unavailable& e) {
      CHECK(std::string(e.what()).find("sm_90") != std::string::npos);
    }
  }
}
