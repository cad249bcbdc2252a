// Checks that need a real GPU (skipped and listed without one): problems of GPU size against
// the reference, and problems past 2^31 elements (64-bit indices), made on the device and
// checked at sampled rows (test_support_large.cu). Their names carry [large] where they move
// gigabytes, so that compute-sanitizer runs can leave them out.
#include "test_support.hpp"

using namespace attention;
using namespace attention::testing;

TEST_SUITE("attention/gpu") {
  WB_GPU_TEST_CASE("every stage at seq 1024, d 64 and 128, causal and not, against the reference") {
    for (const std::int64_t dim : {64, 128}) {
      for (const bool causal : {false, true}) {
        const dims d{1, 2, 1024, 1024, dim, causal};
        const inputs in = make_inputs(d, wb::testing::seed(90 + dim));
        for (const int stage : {1, 2, 3}) {
          CAPTURE(stage);
          check_case(stage, in, describe(d));
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
  WB_GPU_TEST_CASE("[large] stage 6 with K and V of 2^31 + 2^25 elements each, fp32 and bf16") {
    const dims d{4, 32, 2, 135168, 128, true};
    const std::string wrong = check_large(6, d);
    CHECK_MESSAGE(wrong.empty(), wrong);
    const std::string wrong16 = check_large(6, d, true);
    CHECK_MESSAGE(wrong16.empty(), wrong16);
  }
}
