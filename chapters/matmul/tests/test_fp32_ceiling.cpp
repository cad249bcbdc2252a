// Stage 4: the fp32 ceiling, every compiled variant.
#include <fmt/format.h>

#include "helpers.hpp"
#include "large.hpp"
#include "tiling.hpp"
#include "variants.hpp"

#if defined(WB_BACKEND_CPU)
#include "fp32_warp_tile.cuh"
#endif

#include "wb/device_buffer.hpp"

using namespace matmul;
using namespace matmul::testing;

TEST_SUITE("matmul/4 fp32-ceiling") {
  TEST_CASE("128x256x8: sizes around the block, warp and sub-tile boundaries and the k-slice") {
    // block tile 128 x 256, warp tile 32 x 128, 4 x 4 sub-tiles 16 and 32 apart, k-slices of 8;
    // K and N not multiples of 4 take the element-by-element loads and stores.
    check_shapes(4, {0},
                 boundary_shapes({1, 3, 4, 5, 7, 8, 9, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257}, 36),
                 wb::testing::seed(40));
    check_shapes(4, {0}, {{257, 255, 24}, {129, 513, 70}, {256, 256, 16}}, wb::testing::seed(41));
  }
  TEST_CASE("every other variant: shared-memory layouts, buffering, tile shapes") {
    for (int v = 1; v < static_cast<int>(fp32_ceiling_variants.size()); ++v) {
      CAPTURE(fp32_ceiling_variants[static_cast<std::size_t>(v)].name);
      check_shapes(4, {v}, {{129, 130, 17}, {257, 65, 33}, {33, 257, 8}, {1, 1, 1}, {64, 64, 64}, {130, 259, 40}},
                   wb::testing::seed(42 + static_cast<std::uint64_t>(v)));
    }
  }
  TEST_CASE("matrices that start off a 16-byte boundary take the element-by-element path") {
    const inputs in = make_inputs(4, 70, 68, 36, fill::small_integers, fill::small_integers, wb::testing::seed(50));
    const reference_product ref = reference_host(in.A, in.B, in.M, in.N, in.K);
    std::vector<float> A1(in.A.size() + 1), B1(in.B.size() + 1);
    std::copy(in.A.begin(), in.A.end(), A1.begin() + 1);
    std::copy(in.B.begin(), in.B.end(), B1.begin() + 1);
    wb::device_buffer<float> A(A1), B(B1), C(static_cast<std::size_t>(in.M * in.N) + 1);
    C.fill_bytes(output_poison);
    track::matmul_fp32_ceiling({A.data() + 1, B.data() + 1, C.data() + 1, in.M, in.N, in.K});
    const std::vector<float> out = C.to_host();
    for (std::size_t e = 0; e < ref.C.size(); ++e) REQUIRE(out[e + 1] == static_cast<float>(ref.C[e]));
  }
  TEST_CASE("a NaN or infinity in A reaches exactly its row") {
    check_nan_and_inf_rows(4, {}, wb::testing::seed(55));
  }
  TEST_CASE("zero, identity and extreme matrices; empty shapes") {
    check_special_matrices(4, {}, wb::testing::seed(56));
  }
  TEST_CASE("K = 0: every variant writes an all-zero C") {
    for (int v = 0; v < static_cast<int>(fp32_ceiling_variants.size()); ++v) {
      CAPTURE(fp32_ceiling_variants[static_cast<std::size_t>(v)].name);
      check_zero_k(4, {v}, wb::testing::seed(57));
    }
  }
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
#if defined(WB_BACKEND_CPU)
  TEST_CASE("--trace's map of who computes what is the kernel's own thread_tile") {
    // thread_tile is device code: on the cpu backend the host can call it.
    const auto check = [](auto shape, int variant) {
      using S = decltype(shape);
      const tiling t = tiling_of(4, variant);
      REQUIRE(t.block_rows == S::BM);
      REQUIRE(t.block_cols == S::BN);
      REQUIRE(t.threads == S::THREADS);
      for (int tid = 0; tid < S::THREADS; ++tid) {
        const track::thread_tile<S> mine(tid);
        for (int i = 0; i < S::TM; ++i) {
          for (int j = 0; j < S::TN; ++j) {
            const int r = mine.row + (i / 4) * S::SUB_M + i % 4, c = mine.col + (j / 4) * S::SUB_N + j % 4;
            CAPTURE(variant);
            CAPTURE(tid);
            REQUIRE(owner_thread(t, r, c) == tid);
          }
        }
      }
    };
    check(fp32_128x256{}, 0);
    check(fp32_128x128{}, variant_index(4, "128x128"));
  }
#endif
  WB_GPU_TEST_CASE("[large] M K past 2^31 elements: 64-bit indices, exact small-integer sums") {
    // A holds 32769 x 65544 > 2^31 elements: every index past 2^31 must be 64-bit.
    const std::string wrong =
        check_large<float>(32769, 64, 65544, [](const fp32_problem& p) { track::matmul_fp32_ceiling(p); });
    CHECK_MESSAGE(wrong.empty(), wrong);
  }
}
