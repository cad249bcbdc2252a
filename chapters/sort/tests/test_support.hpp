// What the sort checks share: running a stage of the track under test on host data, an
// independent reference (std::stable_sort of (key pattern, position) pairs), the comparison.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "sort.hpp"
#include "stages.hpp"
#include "wb/check.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/runtime.hpp"
#include "wb/testing.hpp"

namespace sort::testing {

template <class K>
struct sorted {
  std::vector<K> keys;
  std::vector<std::uint32_t> values;  // empty: keys only
};

template <class K>
using device_fn = void (*)(const K*, K*, const std::uint32_t*, std::uint32_t*, std::int64_t, const workspace&,
                           const config&);

template <class K>
device_fn<K> track_stage(int stage) {
  wb::testing::expect_stage_in_reach(stage);
  namespace track = sort::WB_TRACK;
  const device_fn<K> fns[] = {nullptr,
                              &track::sort_one_bit<K>,
                              &track::sort_coalesced<K>,
                              &track::sort_larger_radix<K>,
                              &track::sort_coarsened<K>,
                              &track::sort_onesweep<K>,
                              &track::sort_merge<K>};
  return fns[stage];
}

// Runs a device sort on host data (values empty: keys only).
template <class K>
sorted<K> run_device(device_fn<K> fn, const std::vector<K>& keys, const std::vector<std::uint32_t>& values,
                     const config& cfg) {
  const auto n = static_cast<std::int64_t>(keys.size());
  wb::device_buffer<K> d_keys(keys);
  wb::device_buffer<K> d_out(keys.size());
  wb::device_buffer<std::uint32_t> d_values(values);
  wb::device_buffer<std::uint32_t> d_values_out(values.size());
  d_out.fill_bytes(0xA5);  // a key nobody writes is visible
  d_values_out.fill_bytes(0xA5);
  workspace_buffer<K> ws(n, cfg);
  const bool pairs = !values.empty();
  fn(d_keys.data(), d_out.data(), pairs ? d_values.data() : nullptr, pairs ? d_values_out.data() : nullptr, n,
     ws.view(), cfg);
  WB_CHECK(cudaDeviceSynchronize());
  return {d_out.to_host(), pairs ? d_values_out.to_host() : std::vector<std::uint32_t>{}};
}

// The track under test runs stage `stage`.
template <class K>
sorted<K> run_stage(int stage, const std::vector<K>& keys, const std::vector<std::uint32_t>& values,
                    const config& cfg) {
  wb::testing::expect_stage_in_reach(stage);
  if (stage == 0) {
    sorted<K> r{keys, values};
    sort::WB_TRACK::sort_sequential<K>(std::span<K>(r.keys), std::span<std::uint32_t>(r.values));
    return r;
  }
  return run_device<K>(track_stage<K>(stage), keys, values, cfg);
}

// Independent of stage 0: std::stable_sort of (pattern, position) pairs by pattern alone.
template <class K>
sorted<K> reference(const std::vector<K>& keys, const std::vector<std::uint32_t>& values) {
  std::vector<std::pair<bits_of<K>, std::size_t>> p(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) p[i] = {key_bits<K>::to_bits(keys[i]), i};
  std::stable_sort(p.begin(), p.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  sorted<K> r;
  for (const auto& [bits, i] : p) {
    r.keys.push_back(keys[i]);
    if (!values.empty()) r.values.push_back(values[i]);
  }
  return r;
}

// Empty when got is the stable sort of (keys, values), else the first difference.
template <class K>
std::string sort_error(const std::vector<K>& keys, const std::vector<std::uint32_t>& values, const sorted<K>& got) {
  const sorted<K> want = reference(keys, values);
  if (got.keys.size() != want.keys.size()) return "size " + std::to_string(got.keys.size());
  for (std::size_t i = 0; i < want.keys.size(); ++i) {
    if (std::memcmp(&got.keys[i], &want.keys[i], sizeof(K)) != 0) {
      return "key at index " + std::to_string(i) + ": expected " + std::to_string(want.keys[i]) + ", got " +
             std::to_string(got.keys[i]);
    }
    if (!values.empty() && got.values[i] != want.values[i]) {
      return "value at index " + std::to_string(i) + ": expected " + std::to_string(want.values[i]) + ", got " +
             std::to_string(got.values[i]) + " (not stable)";
    }
  }
  return {};
}

// Whether the keys are already in the order the sort puts them in (key_bits' order).
template <class K>
bool in_key_order(const std::vector<K>& keys) {
  return std::is_sorted(keys.begin(), keys.end(), [](K a, K b) { return key_less(a, b); });
}

inline std::vector<std::uint32_t> positions(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

// Seeded keys over the type's range (floats: +-1e30 with a sprinkle of zeros of both signs).
template <class K>
std::vector<K> seeded_keys(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_floating_point_v<K>) {
    auto v = wb::gen::uniform<K>(n, seed, K(-1e30), K(1e30));
    for (std::size_t i = 0; i < n; i += 7) v[i] = (i / 7) % 2 ? K(-0.0) : K(0.0);
    return v;
  } else {
    return wb::gen::uniform<K>(n, seed);
  }
}

// Checks stage `stage` on keys, keys only and with positions as values.
template <class K>
void check_stage(int stage, const std::vector<K>& keys, const config& cfg, const std::string& what) {
  for (const bool pairs : {false, true}) {
    const std::vector<std::uint32_t> values = pairs ? positions(keys.size()) : std::vector<std::uint32_t>{};
    const std::string why = sort_error(keys, values, run_stage<K>(stage, keys, values, cfg));
    INFO("stage " << stage << ", " << what << ", n " << keys.size() << ", block " << cfg.block << ", items "
                  << cfg.items_per_thread << ", bits " << cfg.bits << (pairs ? ", key-value" : ", keys only"));
    CHECK_MESSAGE(why.empty(), why);
    if (!why.empty()) return;
  }
}

}  // namespace sort::testing
