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
#include "device_input.cuh"
#include "sort.hpp"
#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"
#include "wb/timing.hpp"
#include "wb/workspace.hpp"

namespace {

template <class K>
int run(std::int64_t n, bool pairs, int dist, int reps, const std::string& type) {
  wb::device_buffer<K> keys(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n)), ref(static_cast<std::size_t>(n));
  wb::device_buffer<std::uint32_t> values(pairs ? n : 0), vout(pairs ? n : 0), vref(pairs ? n : 0);
  sort_experiment::generate(keys.data(), pairs ? values.data() : nullptr, n, dist, 0x5eed);
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
  const auto mismatches = sort_experiment::mismatches<K>(out.data(), ref.data(), pairs ? vout.data() : nullptr,
                                                        pairs ? vref.data() : nullptr, n);
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
