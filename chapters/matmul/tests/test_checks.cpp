// Every stage against the specification (a double-precision product of the same inputs, within
// the bound error_bound.hpp derives from K and the types; exact where the inputs are small
// integers): fresh seeded data, sizes around every tile, warp-tile and k-slice boundary, a NaN or
// an infinity in A, a product past the output type's range, zero, identity and extreme matrices,
// empty shapes, K = 0, every variant. Also the check itself on overflow, and --trace's marks.
// Stage 6 runs on an sm_90 GPU only; its layouts are checked on every machine in
// test_hopper_layout.cpp.
#include "test_support.hpp"
#include "tiling.hpp"
#include "variants.hpp"

#if defined(WB_BACKEND_CPU)
#include "fp32_warp_tile.cuh"
#endif

#include <cmath>
#include <limits>

#include "wb/device_buffer.hpp"

using namespace matmul;
using namespace matmul::testing;

TEST_SUITE("matmul/0 sequential") {
  TEST_CASE("the check: an infinity is right exactly where the exact product overflows the output type") {
    const double inf = std::numeric_limits<double>::infinity();
    const error_model fp32 = fp32_error_model(2), bf16 = bf16_error_model(2);
    // 6e38 overflows fp32 and bf16: C = +inf (of that sign) is right, a finite or NaN C is not
    CHECK(element_ok(inf, 6e38, 6e38, fp32));
    CHECK(element_ok(-inf, -6e38, 6e38, fp32));
    CHECK_FALSE(element_ok(-inf, 6e38, 6e38, fp32));
    CHECK_FALSE(element_ok(std::nan(""), 6e38, 6e38, fp32));
    CHECK_FALSE(element_ok(3.4e38, 6e38, 6e38, fp32));
    CHECK(element_ok(inf, 6e38, 6e38, bf16));
    // 3.399e38: past bf16's range (it rounds to infinity from 3.3962e38), inside fp32's (3.4028e38)
    CHECK(element_ok(inf, 3.399e38, 3.399e38, bf16));
    CHECK_FALSE(element_ok(inf, 3.399e38, 3.399e38, fp32));
    CHECK(element_ok(3.399e38, 3.399e38, 3.399e38, fp32));
    // the thresholds themselves round to infinity; just below them, to the largest finite value
    CHECK(static_cast<float>(fp32_overflow) == std::numeric_limits<float>::infinity());
    CHECK(static_cast<float>(std::nextafter(fp32_overflow, 0.0)) == std::numeric_limits<float>::max());
    CHECK(std::isinf(wb::to_float(wb::to_bf16(static_cast<float>(bf16_overflow)))));
    CHECK(std::isfinite(wb::to_float(wb::to_bf16(std::nextafter(static_cast<float>(bf16_overflow), 0.0f)))));
    // a finite product is held to the bound as before; the exact model too
    CHECK_FALSE(element_ok(inf, 1e38, 1e38, fp32));
    CHECK(element_ok(inf, 6e38, 6e38, exact_error_model(false)));
    CHECK_FALSE(element_ok(inf, 3e38, 3e38, exact_error_model(false)));
  }
}

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
  TEST_CASE("a product past fp32's range is an infinity of its sign") {
    check_overflow_rows(0, {});
  }
  TEST_CASE("K = 0: C is all zero") {
    check_zero_k(0, {}, wb::testing::seed(5));
  }
}

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
  TEST_CASE("a product past the output type's range is an infinity of its sign") {
    check_overflow_rows(1, {0});
    check_overflow_rows(1, {1});
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
}

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
  TEST_CASE("a product past the output type's range is an infinity of its sign") {
    check_overflow_rows(2, {});
  }
  TEST_CASE("K = 0: every variant writes an all-zero C") {
    for (int v = 0; v < static_cast<int>(tiled_variants.size()); ++v) {
      CAPTURE(tiled_variants[static_cast<std::size_t>(v)].name);
      check_zero_k(2, {v}, wb::testing::seed(26));
    }
  }
  TEST_CASE("--trace marks with !! the tile, warp and thread of every wrong output, and nothing else") {
    const tiling t = tiling_of(2, 0);  // 16 x 16 threads, thread r * 16 + c owns (r, c) of its tile
    const std::int64_t M = 20, N = 20;
    const std::string right_text = tiling_text(t, M, N, 24, true);
    CHECK(right_text.find("!!") == std::string::npos);
    std::vector<char> wrong(static_cast<std::size_t>(M * N), 0);
    wrong[3 * N + 17] = 1;  // C[3][17]: tile (0, 1), its element (3, 1): thread 49, warp 1, lane 17
    wrong[19 * N + 19] = 1;  // C[19][19]: tile (1, 1), element (3, 3): thread 51
    const std::string text = tiling_text(t, M, N, 24, true, wrong);
    std::vector<std::string> marked;
    for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
      end = text.find('\n', at);
      const std::string line = text.substr(at, end - at);
      if (line.rfind("!!", 0) == 0) marked.push_back(line);
    }
    INFO(text);
    REQUIRE(marked.size() == 6);  // two tiles, each with one warp and one thread
    CHECK(marked[0].rfind("!! tile (0, 1): C[0:16, 16:20]", 0) == 0);
    CHECK(marked[0].find("1 of its 64 outputs wrong") != std::string::npos);
    CHECK(marked[1].rfind("!!  warp 1:", 0) == 0);
    CHECK(marked[1].find("wrong: C[3][17]") != std::string::npos);
    CHECK(marked[2].rfind("!!    thread 49 (lane 17): rows 3 x columns 17 — wrong: C[3][17]", 0) == 0);
    CHECK(marked[3].rfind("!! tile (1, 1): C[16:20, 16:20]", 0) == 0);
    CHECK(marked[5].rfind("!!    thread 51 (lane 19): rows 19 x columns 19 — wrong: C[19][19]", 0) == 0);
    // the unmarked lines are the lines of the right trace
    CHECK(text.size() > right_text.size());
  }
}

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
  TEST_CASE("a product past fp32's range is an infinity of its sign") {
    check_overflow_rows(3, {0});
    check_overflow_rows(3, {1});
  }
  TEST_CASE("K = 0: every variant writes an all-zero C") {
    for (int v = 0; v < static_cast<int>(coarsened_variants.size()); ++v) {
      CAPTURE(coarsened_variants[static_cast<std::size_t>(v)].name);
      check_zero_k(3, {v}, wb::testing::seed(37));
    }
  }
}

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
  TEST_CASE("a product past the output type's range is an infinity of its sign") {
    check_overflow_rows(4, {});
  }
  TEST_CASE("K = 0: every variant writes an all-zero C") {
    for (int v = 0; v < static_cast<int>(fp32_ceiling_variants.size()); ++v) {
      CAPTURE(fp32_ceiling_variants[static_cast<std::size_t>(v)].name);
      check_zero_k(4, {v}, wb::testing::seed(57));
    }
  }
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
}

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
  TEST_CASE("a product past the output type's range is an infinity of its sign") {
    check_overflow_rows(5, {});
  }
  TEST_CASE("K = 0: every variant writes an all-zero C") {
    for (int v = 0; v < static_cast<int>(wmma_variants.size()); ++v) {
      CAPTURE(wmma_variants[static_cast<std::size_t>(v)].name);
      check_zero_k(5, {v}, wb::testing::seed(68));
    }
  }
}

TEST_SUITE("matmul/6 hopper") {
#if defined(WB_BACKEND_CPU)
  TEST_CASE("on the cpu backend the stage says it needs an sm_90 GPU") {
    const inputs in = make_inputs(6, 8, 8, 8, fill::uniform, fill::uniform, 1);
    CHECK_THROWS_WITH_AS(run_stage(6, in), doctest::Contains("needs an sm_90 GPU"), stage_unavailable);
  }
#endif
  WB_GPU_TEST_CASE("every variant: sizes around tiles, k-blocks and the padding the TMA needs") {
    for (int v = 0; v < static_cast<int>(hopper_variants.size()); ++v) {
      CAPTURE(hopper_variants[static_cast<std::size_t>(v)].name);
      try {
        // tiles from 64 x 64 to 128 x 256, k-blocks of 64 in a 3- to 8-stage ring (K up to 13
        // k-blocks wraps it several times); K or N no multiple of 8 goes through the padded
        // copies
        check_shapes(6, {v}, boundary_shapes({1, 8, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257}, 72),
                     wb::testing::seed(80 + static_cast<std::uint64_t>(v)));
        check_shapes(6, {v}, {{1000, 700, 824}, {300, 520, 33}, {64, 64, 3}}, wb::testing::seed(90));
      } catch (const stage_unavailable& e) {
        MESSAGE(e.what());  // not an sm_90 GPU: the stage says so instead of running
        CHECK(std::string(e.what()).find("sm_90") != std::string::npos);
        return;
      }
    }
  }
  WB_GPU_TEST_CASE("a NaN or infinity in A reaches exactly its row; zero, identity and extreme matrices") {
    try {
      check_nan_and_inf_rows(6, {}, wb::testing::seed(91));
      check_special_matrices(6, {}, wb::testing::seed(92));
      check_nan_and_inf_rows(6, {variant_index(6, "simple")}, wb::testing::seed(93));
    } catch (const stage_unavailable& e) {
      CHECK(std::string(e.what()).find("sm_90") != std::string::npos);
    }
  }
  WB_GPU_TEST_CASE("K = 0: every variant writes an all-zero C") {
    try {
      for (int v = 0; v < static_cast<int>(hopper_variants.size()); ++v) {
        CAPTURE(hopper_variants[static_cast<std::size_t>(v)].name);
        check_zero_k(6, {v}, wb::testing::seed(94));
      }
    } catch (const stage_unavailable& e) {
      CHECK(std::string(e.what()).find("sm_90") != std::string::npos);
    }
  }
}
