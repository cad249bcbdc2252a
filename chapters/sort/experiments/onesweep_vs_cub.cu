// Stage 5 against CUB's radix sort on the same device input, across sizes, key types and
// distributions: the input is generated on the device (so 2^28 and more keys start at once)
// and stage 5's output is checked against CUB's on the device. cuda backend only.
//
//   sort_onesweep_vs_cub --type uint32 --log2n 16,20,24,28 --pairs --dist 0,1,2
//
// --dist: 0 uniform bits, 1 sixteen distinct keys, 2 all equal, 3 sorted, 4 the low 31 bits
// only (64-bit keys: half the passes skipped), 5 only the top byte varies.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "baseline_cub.hpp"
#include "sort.hpp"
#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"
#include "wb/timing.hpp"
#include "wb/workspace.hpp"

namespace {

__host__ __device__ std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <class K>
__global__ void generate_kernel(K* keys, std::uint32_t* values, std::int64_t n, int dist, std::uint64_t seed) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    std::uint64_t r = mix(seed ^ static_cast<std::uint64_t>(i));
    if (dist == 1) r = mix(seed + (r & 15));
    if (dist == 2) r = 12345;
    if (dist == 3) r = static_cast<std::uint64_t>(i) << (sizeof(K) * 8 > 32 ? 20 : 0);
    if (dist == 4) r &= 0x7fffffffull;
    if (dist == 5) r = (r & 0xff) << (sizeof(K) * 8 - 8);
    if constexpr (sizeof(K) == 8) {
      keys[i] = static_cast<K>(r);
    } else {
      const auto b = static_cast<std::uint32_t>(r);
      K k;
      memcpy(&k, &b, 4);
      keys[i] = k;
    }
    if (values != nullptr) values[i] = static_cast<std::uint32_t>(i);
  }
}

// Counts positions where a and b differ (bit patterns; floats: +-0 equal, as CUB sorts them).
template <class K>
__global__ void mismatch_kernel(const K* a, const K* b, const std::uint32_t* va, const std::uint32_t* vb,
                                std::int64_t n, unsigned long long* bad) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    bool same = sort::key_bits<K>::to_bits(a[i]) == sort::key_bits<K>::to_bits(b[i]);
    bool zero = false;
    if constexpr (std::is_floating_point_v<K>) zero = a[i] == 0 && b[i] == 0;
    if (!same && !zero) atomicAdd(bad, 1ull);
    if (va != nullptr && !zero && va[i] != vb[i]) atomicAdd(bad, 1ull);
  }
}

template <class K>
int run(std::int64_t n, bool pairs, int dist, int reps, const std::string& type) {
  wb::device_buffer<K> keys(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n)), ref(static_cast<std::size_t>(n));
  wb::device_buffer<std::uint32_t> values(pairs ? n : 0), vout(pairs ? n : 0), vref(pairs ? n : 0);
  wb::launch({dim3(2048), dim3(256)}, generate_kernel<K>, keys.data(), pairs ? values.data() : nullptr, n, dist,
             std::uint64_t{0x5eed});
  const std::uint32_t* vin = pairs ? values.data() : nullptr;
  const std::size_t temp_bytes = sort::baseline::cub_radix_sort<K>(keys.data(), ref.data(), vin,
                                                                   pairs ? vref.data() : nullptr, n, nullptr, 0);
  wb::device_buffer<unsigned char> temp(temp_bytes + 16);
  auto cub = [&] {
    sort::baseline::cub_radix_sort<K>(keys.data(), ref.data(), vin, pairs ? vref.data() : nullptr, n, temp.data(),
                                      temp_bytes);
  };
  const auto cub_time = wb::time_gpu(std::ref(cub), {2, reps, true});
  const sort::config cfg{};
  wb::workspace_buffer ws(sort::onesweep_workspace_bytes(n, sizeof(K), cfg));
  out.fill_bytes(0xA5);
  if (pairs) vout.fill_bytes(0xA5);
  auto ours = [&] {
    sort::solution::sort_onesweep<K>(keys.data(), out.data(), vin, pairs ? vout.data() : nullptr, n, ws.view(), cfg);
  };
  ours();
  wb::device_buffer<unsigned long long> bad(1);
  bad.fill_bytes(0);
  wb::launch({dim3(2048), dim3(256)}, mismatch_kernel<K>, static_cast<const K*>(out.data()),
             static_cast<const K*>(ref.data()), pairs ? static_cast<const std::uint32_t*>(vout.data()) : nullptr,
             pairs ? static_cast<const std::uint32_t*>(vref.data()) : nullptr, n, bad.data());
  const auto mismatches = bad.to_host()[0];
  const auto t = wb::time_gpu(std::ref(ours), {2, reps, true});
  std::printf("%-6s dist%d n=%11lld %-5s stage 5 %9.4f ms (min %8.4f)  cub %9.4f ms  cub/ours %5.2f  %s (%llu)\n",
              type.c_str(), dist, static_cast<long long>(n), pairs ? "pairs" : "keys", t.median_ms, t.min_ms,
              cub_time.median_ms, cub_time.median_ms / t.median_ms, mismatches == 0 ? "ok" : "WRONG",
              static_cast<unsigned long long>(mismatches));
  std::fflush(stdout);
  return mismatches == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"stage 5 against CUB's radix sort, device-generated input"};
  std::string type = "uint32";
  std::vector<std::int64_t> ns;
  std::vector<int> log2ns;
  std::vector<int> dists{0};
  bool pairs = false;
  int reps = 10;
  app.add_option("--type", type);
  app.add_option("--n", ns)->delimiter(',');
  app.add_option("--log2n", log2ns)->delimiter(',');
  app.add_option("--dist", dists)->delimiter(',');
  app.add_flag("--pairs", pairs);
  app.add_option("--reps", reps);
  CLI11_PARSE(app, argc, argv);
  for (const int l : log2ns) ns.push_back(std::int64_t{1} << l);
  int failures = 0;
  for (const auto n : ns) {
    for (const int dist : dists) {
      if (type == "uint32") failures += run<std::uint32_t>(n, pairs, dist, reps, type);
      else if (type == "int32") failures += run<std::int32_t>(n, pairs, dist, reps, type);
      else if (type == "float") failures += run<float>(n, pairs, dist, reps, type);
      else failures += run<std::int64_t>(n, pairs, dist, reps, type);
    }
  }
  return failures == 0 ? 0 : 1;
}
