// Checks that need a real GPU (skipped and listed without one): inputs past 2^31 items, and
// agreement with cub::DeviceReduce::Sum. Their names carry [large] where they move gigabytes,
// so that compute-sanitizer runs can leave them out (--test-case-exclude='*[large]*').
#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_fill.hpp"
#include "test_support.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline_cub.hpp"
#endif

using namespace reduction;
using namespace reduction::testing;

namespace {

#if defined(WB_HAVE_BASELINE)
// CUB and every stage on the same input: integers equal to the exact sum (and so to each
// other), floating point each within the stated tolerance of the exact sum.
template <class T>
void check_against_cub(std::size_t n, std::uint64_t salt) {
  const std::vector<T> data = seeded_data<T>(n, wb::testing::seed(salt));
  const auto count = static_cast<std::int64_t>(n);
  wb::device_buffer<T> d_in(data);
  wb::device_buffer<sum_t<T>> d_out(1);
  const std::size_t temp_bytes = baseline::cub_sum_temp_bytes<T>(count);
  wb::device_buffer<unsigned char> temp(temp_bytes);
  d_out.fill_bytes(0xA5);
  baseline::cub_sum<T>(d_in.data(), count, d_out.data(), temp.data(), temp_bytes);
  WB_CHECK(cudaDeviceSynchronize());
  const sum_t<T> cub = d_out.to_host()[0];
  // CUB's order of summation is its own: give it the any-order depth bound (n).
  const std::string cub_mismatch = sum_mismatch(data, cub, count);
  CHECK_MESSAGE(cub_mismatch.empty(), "cub::DeviceReduce::Sum, " << type_name<T>() << ": " << cub_mismatch);
  const config cfg{};
  workspace_buffer<T> ws(count, cfg);
  for (int stage = 1; stage <= 5; ++stage) {
    d_out.fill_bytes(0xA5);
    device_stage<T>(stage)(d_in.data(), count, d_out.data(), ws.view(), cfg);
    WB_CHECK(cudaDeviceSynchronize());
    const sum_t<T> got = d_out.to_host()[0];
    const std::string mismatch = sum_mismatch(data, got, rounding_depth(count, cfg));
    CHECK_MESSAGE(mismatch.empty(), "stage " << stage << ", " << type_name<T>() << ": " << mismatch);
    if constexpr (std::is_integral_v<T>) {
      CHECK_MESSAGE(got == cub, "stage " << stage << ", " << type_name<T>() << ": " << got << " vs CUB " << cub);
    }
  }
}
#endif

}  // namespace

TEST_SUITE("reduction/gpu") {
  WB_GPU_TEST_CASE("[large] every stage sums 2^31 + 2^20 + 3 int32 items (64-bit indices)") {
    const std::int64_t n = (std::int64_t{1} << 31) + (std::int64_t{1} << 20) + 3;
    wb::device_buffer<std::int32_t> d_in(static_cast<std::size_t>(n));
    fill_mod_2003(d_in.data(), n);
    const std::int64_t expected = sum_mod_2003(n);
    wb::device_buffer<std::int64_t> d_out(1);
    for (const config cfg : {config{}, config{1024, 0}, config{256, 100}}) {
      workspace_buffer<std::int32_t> ws(n, cfg);
      for (int stage = 1; stage <= 5; ++stage) {
        CAPTURE(stage);
        CAPTURE(cfg.block);
        CAPTURE(cfg.blocks);
        d_out.fill_bytes(0xA5);
        device_stage<std::int32_t>(stage)(d_in.data(), n, d_out.data(), ws.view(), cfg);
        WB_CHECK(cudaDeviceSynchronize());
        CHECK(d_out.to_host()[0] == expected);
      }
    }
  }

#if defined(WB_HAVE_BASELINE)
  WB_GPU_TEST_CASE("every stage agrees with cub::DeviceReduce::Sum") {
    for (const std::size_t n : {std::size_t{1}, std::size_t{1000003}, (std::size_t{1} << 24) + 5}) {
      CAPTURE(n);
      check_against_cub<std::int32_t>(n, 201);
      check_against_cub<std::int64_t>(n, 202);
      check_against_cub<float>(n, 203);
      check_against_cub<double>(n, 204);
    }
    // INT_MAX repeated: CUB must accumulate in 64 bits too (R5) for the rows to compare.
    const std::vector<std::int32_t> big(1 << 20, INT_MAX);
    wb::device_buffer<std::int32_t> d_in(big);
    wb::device_buffer<std::int64_t> d_out(1);
    const std::size_t temp_bytes = baseline::cub_sum_temp_bytes<std::int32_t>(1 << 20);
    wb::device_buffer<unsigned char> temp(temp_bytes);
    baseline::cub_sum<std::int32_t>(d_in.data(), 1 << 20, d_out.data(), temp.data(), temp_bytes);
    WB_CHECK(cudaDeviceSynchronize());
    CHECK(d_out.to_host()[0] == (std::int64_t{1} << 20) * INT_MAX);
  }
#endif
}
