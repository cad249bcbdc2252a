// Checks that need a real GPU: large inputs, and agreement with CUB on the same input.
#include <cstdint>
#include <vector>

#include "test_support.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline_cub.hpp"
#endif

using namespace sort;
using namespace sort::testing;

TEST_SUITE("sort/5 onesweep") {
  WB_GPU_TEST_CASE("[large] 2^26 key-value pairs, stages 4-6") {
    if (!wb::testing::gpu_present()) return;
    const std::size_t n = (std::size_t{1} << 26) + 4099;
    const auto keys = seeded_keys<std::int32_t>(n, wb::testing::seed(91));
    for (const int stage : {4, 5, 6}) check_stage<std::int32_t>(stage, keys, config{}, "large int32");
  }

#if defined(WB_HAVE_BASELINE)
  WB_GPU_TEST_CASE("stages 5 and 6 agree with CUB's radix sort and merge sort") {
    if (!wb::testing::gpu_present()) return;
    for (const std::size_t n : {std::size_t{1}, std::size_t{4095}, std::size_t{1} << 22}) {
      const auto keys = wb::gen::uniform<std::uint32_t>(n, wb::testing::seed(93 + n));
      const auto values = positions(n);
      const auto ours5 = run_stage<std::uint32_t>(5, keys, values, config{});
      const auto ours6 = run_stage<std::uint32_t>(6, keys, values, config{});
      for (const bool merge : {false, true}) {
        wb::device_buffer<std::uint32_t> d_keys(keys), d_out(n), d_values(values), d_values_out(n);
        const auto fn = merge ? &baseline::cub_merge_sort<std::uint32_t> : &baseline::cub_radix_sort<std::uint32_t>;
        const auto n64 = static_cast<std::int64_t>(n);
        const std::size_t bytes = fn(d_keys.data(), d_out.data(), d_values.data(), d_values_out.data(), n64, nullptr, 0);
        wb::device_buffer<unsigned char> temp(bytes + 1);
        fn(d_keys.data(), d_out.data(), d_values.data(), d_values_out.data(), n64, temp.data(), bytes);
        WB_CHECK(cudaDeviceSynchronize());
        const auto& ours = merge ? ours6 : ours5;
        CHECK(d_out.to_host() == ours.keys);
        CHECK(d_values_out.to_host() == ours.values);
      }
    }
  }
#endif
}
