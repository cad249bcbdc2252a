// Checks that need a real GPU: large inputs, and agreement with CUB on the same input.
#include <cstdint>
#include <numeric>
#include <vector>

#include "test_support.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline_cub.hpp"
#endif

using namespace sort;
using namespace sort::testing;

TEST_SUITE("sort/5 onesweep") {
  WB_GPU_TEST_CASE("[large] stage 5 past 2^31 keys (64-bit indices, several look-back portions)") {
    if (!wb::testing::gpu_present()) return;
    // key i = i * p mod n with p a prime above n: a permutation of 0 .. n-1, so the sorted keys
    // are 0, 1, ..., n-1, and the value (the input position) at k is the i with i * p = k mod n.
    const std::int64_t n = (std::int64_t{1} << 31) + 1000;
    const std::uint64_t p = 2654435761u;
    std::vector<std::uint32_t> keys(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) keys[i] = static_cast<std::uint32_t>(static_cast<std::uint64_t>(i) * p % n);
    const auto values = positions(keys.size());
    const config cfg{};
    wb::device_buffer<std::uint32_t> d_keys(keys), d_out(keys.size()), d_values(values), d_values_out(keys.size());
    {
      wb::workspace_buffer ws(onesweep_workspace_bytes(n, sizeof(std::uint32_t), cfg));
      sort::WB_TRACK::sort_onesweep<std::uint32_t>(d_keys.data(), d_out.data(), d_values.data(), d_values_out.data(),
                                                   n, ws.view(), cfg);
      WB_CHECK(cudaDeviceSynchronize());
    }
    const auto out = d_out.to_host();
    const auto out_values = d_values_out.to_host();
    std::int64_t wrong = 0, first = -1;
    for (std::int64_t k = 0; k < n; ++k) {
      const bool ok = out[k] == static_cast<std::uint32_t>(k) &&
                      static_cast<std::uint64_t>(out_values[k]) * p % n == static_cast<std::uint64_t>(k);
      if (!ok && wrong++ == 0) first = k;
    }
    INFO("n " << n << ", first wrong index " << first);
    CHECK(wrong == 0);
  }
}

TEST_SUITE("sort/6 merge") {
  // These cases run stage 6 too: they belong to its suite (a learner on stage 5 has not
  // written it yet).
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

  // Past 2^31 keys every index of stage 6 (tiles, run pairs, partitions) must be 64-bit. A
  // host reference sort of 2^31 keys takes minutes, so the output is checked in one pass:
  // keys in order, equal keys with increasing values (the values are the input positions:
  // stable), and the same multiset (sums of keys and of values, which a lost or doubled
  // record changes).
  WB_GPU_TEST_CASE("[large] 2^31 + 4099 key-value pairs (64-bit indices)") {
    if (!wb::testing::gpu_present()) return;
    const std::size_t n = (std::size_t{1} << 31) + 4099;
    // Keys from a small range: many equal keys, so stability is tested everywhere.
    std::vector<std::uint32_t> keys(n);
    std::uint64_t x = wb::testing::seed(99);
    for (auto& k : keys) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      k = static_cast<std::uint32_t>(x >> 44);  // 20 bits
    }
    const std::uint64_t key_sum = std::accumulate(keys.begin(), keys.end(), std::uint64_t{0});
    wb::device_buffer<std::uint32_t> d_keys(keys);
    keys = {};
    std::vector<std::uint32_t> values = positions(n);
    wb::device_buffer<std::uint32_t> d_values(values);
    values = {};
    wb::device_buffer<std::uint32_t> d_out(n), d_values_out(n);
    {
      workspace_buffer<std::uint32_t> ws(static_cast<std::int64_t>(n), config{});
      sort::WB_TRACK::sort_merge<std::uint32_t>(d_keys.data(), d_out.data(), d_values.data(), d_values_out.data(),
                                               static_cast<std::int64_t>(n), ws.view(), config{});
      WB_CHECK(cudaDeviceSynchronize());
    }
    const auto out = d_out.to_host();
    const auto out_values = d_values_out.to_host();
    std::uint64_t out_key_sum = 0, out_value_sum = 0;
    std::size_t first_bad = n;
    for (std::size_t i = 0; i < n; ++i) {
      out_key_sum += out[i];
      out_value_sum += out_values[i];
      if (i > 0 && first_bad == n &&
          (out[i] < out[i - 1] || (out[i] == out[i - 1] && out_values[i] <= out_values[i - 1]))) {
        first_bad = i;
      }
    }
    CHECK_MESSAGE(first_bad == n, "out of order or unstable at index " << first_bad);
    CHECK(out_key_sum == key_sum);
    CHECK(out_value_sum == std::uint64_t{n} * (n - 1) / 2);
  }
}
