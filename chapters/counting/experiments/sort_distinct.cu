// An experiment beside the chapter: how long does the last step of stage 7 take, the sort of the
// distinct (key, count) pairs, with the chapter's own radix sort (sort_pairs.cu) and with CUB's
// DeviceRadixSort::SortPairs (what a user would call instead), for 2^16 to 2^22 pairs whose keys
// vary in all 64 bits (the worst case: every pass runs). Both results are checked against a
// host sort; it prints both times.
//
// Build (cuda backend only): cmake --build build-gpu --target counting_sort_distinct
// Run: build-gpu/chapters/counting/counting_sort_distinct
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include <cub/device/device_radix_sort.cuh>

#include "sort_pairs.hpp"
#include "wb/check.hpp"
#include "wb/device_buffer.hpp"
#include "wb/timing.hpp"

namespace {

using u64 = std::uint64_t;

bool same(const std::vector<u64>& a, const wb::device_buffer<u64>& d) {
  std::vector<u64> h(a.size());
  if (!h.empty()) WB_CHECK(cudaMemcpy(h.data(), d.data(), h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
  return h == a;
}

void run(std::int64_t count) {
  std::mt19937_64 rng(1234 + static_cast<u64>(count));
  std::vector<u64> keys(static_cast<std::size_t>(count));
  std::vector<u64> values(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    keys[i] = rng();
    values[i] = i;
  }
  std::vector<std::pair<u64, u64>> pairs(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) pairs[i] = {keys[i], values[i]};
  std::stable_sort(pairs.begin(), pairs.end(), [](auto& x, auto& y) { return x.first < y.first; });
  std::vector<u64> want_keys(keys.size()), want_values(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    want_keys[i] = pairs[i].first;
    want_values[i] = pairs[i].second;
  }

  const auto n = static_cast<std::size_t>(count);
  wb::device_buffer<u64> k0(n), k1(n), v0(n), v1(n), in_keys(n), in_values(n);
  WB_CHECK(cudaMemcpy(in_keys.data(), keys.data(), n * sizeof(u64), cudaMemcpyHostToDevice));
  WB_CHECK(cudaMemcpy(in_values.data(), values.data(), n * sizeof(u64), cudaMemcpyHostToDevice));
  wb::device_buffer<unsigned char> scratch(counting::detail::sort_pairs_scratch_bytes(count));

  // The chapter's sort (it sorts in place, between two buffers: restore the input each run,
  // outside the timed region).
  int result = 0;
  auto own = [&] {
    u64* kb[2] = {k0.data(), k1.data()};
    u64* vb[2] = {v0.data(), v1.data()};
    result = counting::detail::sort_pairs(kb, vb, count, ~0ull, scratch.data());
  };
  std::vector<double> own_ms;
  for (int rep = 0; rep < 23; ++rep) {
    WB_CHECK(cudaMemcpy(k0.data(), in_keys.data(), n * sizeof(u64), cudaMemcpyDeviceToDevice));
    WB_CHECK(cudaMemcpy(v0.data(), in_values.data(), n * sizeof(u64), cudaMemcpyDeviceToDevice));
    const wb::timing t = wb::time_gpu(own, {0, 1, false});
    if (rep >= 3) own_ms.push_back(t.median_ms);
  }
  std::sort(own_ms.begin(), own_ms.end());
  const bool own_ok = same(want_keys, result == 0 ? k0 : k1) && same(want_values, result == 0 ? v0 : v1);

  // CUB: from the untouched input buffers into k1/v1.
  std::size_t temp_bytes = 0;
  WB_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, in_keys.data(), k1.data(), in_values.data(),
                                           v1.data(), count));
  wb::device_buffer<unsigned char> temp(temp_bytes);
  auto library = [&] {
    WB_CHECK(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, in_keys.data(), k1.data(), in_values.data(),
                                             v1.data(), count));
  };
  const wb::timing cub_t = wb::time_gpu(library, {3, 20, false});
  const bool cub_ok = same(want_keys, k1) && same(want_values, v1);

  std::printf("  2^%-2d pairs  own sort_pairs %8.4f ms (min %.4f) %s   CUB SortPairs %8.4f ms (min %.4f) %s\n",
              static_cast<int>(std::log2(static_cast<double>(count))), own_ms[own_ms.size() / 2], own_ms.front(),
              own_ok ? "ok" : "WRONG", cub_t.median_ms, cub_t.min_ms, cub_ok ? "ok" : "WRONG");
}

}  // namespace

int main() {
  std::printf("sort of distinct (key, value) pairs, u64 keys varying in all 64 bits, median of 20 runs\n");
  for (int log2 : {16, 18, 20, 22}) run(std::int64_t{1} << log2);
  return 0;
}
