// Checks that need a real GPU (skipped and listed without one): problems of GPU size against
// the reference, and problems past 2^31 elements (64-bit indices), made on the device and
// checked at sampled rows (test_support_large.cu). Their names carry [large] where they move
// gigabytes, so that compute-sanitizer runs can leave them out.
#include "test_support.hpp"

using namespace attention;
using namespace attention::testing;

namespace {
// Stage 5 runs on compute capability 9.0 only (TMA, wgmma, setmaxnreg).
bool on_sm90() {
  int device = 0, major = 0, minor = 0;
  WB_CHECK(cudaGetDevice(&device));
  WB_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  WB_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return major == 9 && minor == 0;
}
}  // namespace

// Stage 5 cannot run on the cpu backend (no TMA or wgmma to emulate): its checks are these,
// on an sm_90 GPU. Tiles: 128 queries a block, 176 (d 128) or 192 (d 64) keys.
TEST_SUITE("attention/5 hopper") {
  WB_GPU_TEST_CASE("seq and kv_seq around every tile edge (64, 128, 176, 192), d 64 and 128, causal and not") {
    if (!on_sm90()) {
      MESSAGE("skipped: stage 5 needs an sm_90 GPU");
      return;
    }
    for (const std::int64_t dim : {64, 128}) {
      check_shapes(5, pairs({1, 63, 65, 127, 129, 175, 177, 191, 193, 300}, dim), wb::testing::seed(60 + dim));
    }
  }
  WB_GPU_TEST_CASE("several heads and sequences; long rows; kv_seq above and below seq") {
    if (!on_sm90()) {
      MESSAGE("skipped: stage 5 needs an sm_90 GPU");
      return;
    }
    check_shapes(5,
                 {{2, 3, 200, 257, 64, true}, {3, 2, 130, 1000, 128, false}, {1, 2, 1000, 300, 128, false},
                  {1, 2, 700, 1500, 128, true}, {2, 2, 1024, 1024, 64, true}},
                 wb::testing::seed(62));
  }
  WB_GPU_TEST_CASE("scores past 88.7; all-equal scores; a NaN in V (causal: maybe its whole column)") {
    if (!on_sm90()) {
      MESSAGE("skipped: stage 5 needs an sm_90 GPU");
      return;
    }
    check_large_scores(5, wb::testing::seed(63));
    check_equal_scores(5, wb::testing::seed(64));
    check_nan_in_v(5, wb::testing::seed(65));
  }
  WB_GPU_TEST_CASE("empty problems; causal with kv_seq < seq refused; d other than 64 and 128 refused") {
    if (!on_sm90()) {
      MESSAGE("skipped: stage 5 needs an sm_90 GPU");
      return;
    }
    check_empty_and_refused(5);
    for (const std::int64_t dim : {16, 32, 96, 256}) {
      CAPTURE(dim);
      CHECK_THROWS_AS(run_stage(5, stage_inputs(5, {1, 1, 4, 4, dim, false}, 1)), std::invalid_argument);
    }
  }
}

TEST_SUITE("attention/gpu") {
  // One head: the host reference (long double, every row) takes most of the time.
  WB_GPU_TEST_CASE("every stage at seq 1024, d 64 and 128, causal and not, against the reference") {
    for (const std::int64_t dim : {64, 128}) {
      for (const bool causal : {false, true}) {
        const dims d{1, 1, 1024, 1024, dim, causal};
        const inputs in = make_inputs(d, wb::testing::seed(90 + dim));
        for (const int stage : {1, 2, 3}) {
          CAPTURE(stage);
          check_case(stage, in, describe(d));
        }
        check_case(4, stage_inputs(4, d, wb::testing::seed(91 + dim)), describe(d) + ", stage 4 (bf16 K and V)");
        if (on_sm90()) {
          check_case(5, stage_inputs(5, d, wb::testing::seed(92 + dim)), describe(d) + ", stage 5 (bf16 K and V)");
        }
      }
    }
  }
  WB_GPU_TEST_CASE("stage 6 against caches of 8K and 33K keys, fp32 and bf16, the stage's plan") {
    for (const std::int64_t kv : {8192, 33000}) {
      for (const bool half : {false, true}) {
        const dims d{2, 4, 1, kv, 128, false};
        check_case(6, make_inputs(d, wb::testing::seed(95), fill::uniform, half), describe(d) + (half ? ", bf16" : ""));
        const dims c{1, 2, 16, kv, 64, true};
        check_case(6, make_inputs(c, wb::testing::seed(96), fill::uniform, half), describe(c) + (half ? ", bf16" : ""));
      }
    }
  }
  WB_GPU_TEST_CASE("[large] stages 1-3 with Q and O of 2^31 + 2^25 elements, S of 2^31 + 2^25 scores") {
    // 64 heads x 270336 queries x d 128, against 128 keys: the arithmetic is small, the indices
    // are not (Q, O and stage 1's S each hold more than 2^31 elements).
    const dims d{1, 64, 270336, 128, 128, false};
    for (const int stage : {1, 2, 3}) {
      CAPTURE(stage);
      const std::string wrong = check_large(stage, d);
      CHECK_MESSAGE(wrong.empty(), wrong);
    }
  }
  WB_GPU_TEST_CASE("[large] stage 4 with Q and O of 2^31 + 2^25 elements (bf16 K and V)") {
    const dims d{1, 64, 270336, 128, 128, false};
    const std::string wrong = check_large(4, d, true);
    CHECK_MESSAGE(wrong.empty(), wrong);
  }
  WB_GPU_TEST_CASE("[large] stage 6 with K and V of 2^31 + 2^25 elements each, fp32 and bf16") {
    const dims d{4, 32, 2, 135168, 128, true};
    const std::string wrong = check_large(6, d);
    CHECK_MESSAGE(wrong.empty(), wrong);
    const std::string wrong16 = check_large(6, d, true);
    CHECK_MESSAGE(wrong16.empty(), wrong16);
  }
}
