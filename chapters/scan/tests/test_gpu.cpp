// Checks that need a real GPU: more than 2^31 items (64-bit indices everywhere) and
// agreement with cub::DeviceScan on the same input.
#include <cstdint>
#include <vector>

#include "test_support.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline_cub.hpp"
#endif

using namespace scan;
using namespace scan::testing;

TEST_SUITE("scan/6 single-pass") {
  WB_GPU_TEST_CASE("[large] more than 2^31 items: stages 4, 5 and 6") {
    if (!wb::testing::gpu_present()) return;
    const std::size_t n = (std::size_t{1} << 31) + 4099;
    std::vector<std::int32_t> in(n);
    wb::gen::rng r(wb::testing::seed(91));
    for (auto& x : in) x = static_cast<std::int32_t>(r.next() % 2001) - 1000;
    const auto expected = reference_integer(in, false);
    for (const int stage : {4, 5, 6}) {
      CAPTURE(stage);
      const auto out = run_stage<std::int32_t>(stage, in, config{});
      WB_CHECK_EQUAL_SEQ(expected, out);
    }
  }

#if defined(WB_HAVE_BASELINE)
  WB_GPU_TEST_CASE("stage 6 agrees with cub::DeviceScan, inclusive and exclusive") {
    if (!wb::testing::gpu_present()) return;
    for (const bool exclusive : {false, true}) {
      for (const std::size_t n : {std::size_t{1}, std::size_t{4095}, std::size_t{1} << 24}) {
        const auto in = seeded_data<std::int32_t>(n, wb::testing::seed(93 + n));
        wb::device_buffer<std::int32_t> d_in(in), d_out(n);
        const std::size_t temp_bytes = baseline::cub_scan_temp_bytes<std::int32_t>(static_cast<std::int64_t>(n), exclusive);
        wb::device_buffer<unsigned char> temp(temp_bytes + 1);
        baseline::cub_scan<std::int32_t>(d_in.data(), d_out.data(), static_cast<std::int64_t>(n), exclusive, temp.data(),
                                         temp_bytes);
        WB_CHECK(cudaDeviceSynchronize());
        CAPTURE(n);
        CAPTURE(exclusive);
        WB_CHECK_EQUAL_SEQ(d_out.to_host(), run_stage<std::int32_t>(6, in, config{256, 0, exclusive}));
      }
    }
  }
#endif
}
