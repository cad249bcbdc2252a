// An experiment beside the chapter: how stage 6's shapes were chosen and what each level of
// the merge sort costs. It compiles the solution's stage-6 source (#include of
// solutions/sort/merge_sort.cu), so every variant runs the solution's kernels with other
// template arguments (sort block, merge block, keys per thread), timed in one process with
// CUB's stable merge sort (which includes a copy of the input: it sorts in place) and
// checked against CUB's output (both stable, same order: identical keys and values).
//
// Build (cuda backend only): cmake --build build-gpu --target sort_merge_variants
// Run:   build-gpu/chapters/sort/sort_merge_variants [log2 n ...]   (default: 20 24 26 28)
//        SORT_VARIANTS_PAIRS=1: 32-bit values too (keys uint32)
// Output: one line per variant and size (median ms of 10 runs, ratio to CUB), then for the
// first variant at each size one line per level: the partition and merge kernels' times,
// from events around each launch of one run.
#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define SORT_MERGE_EXPERIMENT 1
#include "../../../solutions/sort/merge_sort.cu"  // the solution's stage 6, compiled here

#include "baseline_cub.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/timing.hpp"

namespace {

using namespace sort;
using K = std::uint32_t;

struct level_timer {
  std::vector<cudaEvent_t> events;
  std::vector<std::string> names;
  void operator()(const char* what, int level, std::int64_t width) {
    cudaEvent_t e;
    WB_CHECK(cudaEventCreate(&e));
    WB_CHECK(cudaEventRecord(e));
    events.push_back(e);
    names.push_back(std::string(what) + " level " + std::to_string(level) + " width " + std::to_string(width));
  }
};

template <class Shape, bool VALUES>
void run_variant(const char* name, const wb::device_buffer<K>& keys, const wb::device_buffer<std::uint32_t>& values,
                 wb::device_buffer<K>& out, wb::device_buffer<std::uint32_t>& out_values, const workspace& ws,
                 const std::vector<K>& want, const std::vector<std::uint32_t>& want_values, double cub_ms,
                 bool levels) {
  const auto n = static_cast<std::int64_t>(keys.size());
  auto fn = [&] {
    solution::merge_sort_shaped<K, Shape, VALUES>(keys.data(), out.data(), VALUES ? values.data() : nullptr,
                                                  VALUES ? out_values.data() : nullptr, n, ws);
  };
  out.fill_bytes(0xA5);
  const auto t = wb::time_gpu(fn, {2, 10, true});
  const bool ok = out.to_host() == want && (!VALUES || out_values.to_host() == want_values);
  std::printf("n 2^%d %s %-28s sort tile %6lld merge tile %5lld levels %2d  %8.3f ms (min %.3f)  vs CUB %.3fx  %s\n",
              static_cast<int>(std::log2(static_cast<double>(n))), VALUES ? "pairs" : "keys ", name,
              static_cast<long long>(Shape::sort_tile), static_cast<long long>(Shape::merge_tile),
              solution::merge_levels(n, Shape::sort_tile), t.median_ms, t.min_ms, cub_ms / t.median_ms,
              ok ? "ok" : "MISMATCH");
  if (!levels) return;
  level_timer timer;
  WB_CHECK(cudaDeviceSynchronize());
  timer("start", 0, 0);
  solution::merge_sort_shaped<K, Shape, VALUES>(keys.data(), out.data(), VALUES ? values.data() : nullptr,
                                                VALUES ? out_values.data() : nullptr, n, ws, std::ref(timer));
  WB_CHECK(cudaDeviceSynchronize());
  const double bytes = 2.0 * static_cast<double>(n) * (sizeof(K) + (VALUES ? 4 : 0));
  for (std::size_t i = 1; i < timer.events.size(); ++i) {
    float ms = 0;
    WB_CHECK(cudaEventElapsedTime(&ms, timer.events[i - 1], timer.events[i]));
    const bool is_partition = timer.names[i].rfind("partition", 0) == 0;
    std::printf("    %-40s %8.3f ms %s\n", timer.names[i].c_str(), ms,
                is_partition ? "" : (std::to_string(static_cast<int>(bytes / (ms * 1e6))) + " GB/s").c_str());
  }
  for (auto e : timer.events) WB_CHECK(cudaEventDestroy(e));
}

template <bool VALUES>
void run_size(int log2n) {
  const std::int64_t n = std::int64_t{1} << log2n;
  const auto host_keys = wb::gen::uniform<K>(static_cast<std::size_t>(n), 1234 + log2n);
  std::vector<std::uint32_t> host_values(VALUES ? n : 0);
  for (std::size_t i = 0; i < host_values.size(); ++i) host_values[i] = static_cast<std::uint32_t>(i);
  wb::device_buffer<K> keys(host_keys), out(static_cast<std::size_t>(n));
  wb::device_buffer<std::uint32_t> values(host_values), out_values(host_values.size());
  const config cfg{};
  workspace_buffer<K> ws(n, cfg);

  // CUB: the reference output and the time to beat.
  const std::size_t temp_bytes = baseline::cub_merge_sort<K>(keys.data(), out.data(), VALUES ? values.data() : nullptr,
                                                             VALUES ? out_values.data() : nullptr, n, nullptr, 0);
  wb::device_buffer<unsigned char> temp(temp_bytes + 1);
  const auto cub = wb::time_gpu(
      [&] {
        baseline::cub_merge_sort<K>(keys.data(), out.data(), VALUES ? values.data() : nullptr,
                                    VALUES ? out_values.data() : nullptr, n, temp.data(), temp_bytes);
      },
      {2, 10, true});
  const auto want = out.to_host();
  const auto want_values = VALUES ? out_values.to_host() : std::vector<std::uint32_t>{};
  std::printf("n 2^%d %s CUB StableSort%s (with its input copy) %8.3f ms\n", log2n, VALUES ? "pairs" : "keys ",
              VALUES ? "Pairs" : "Keys", cub.median_ms);
  const workspace w = ws.view();
  using solution::merge_shape;
  if constexpr (!VALUES) {
    run_variant<merge_shape<512, 256, 15>, false>("512/256 x15", keys, values, out, out_values, w, want, want_values, cub.median_ms, true);
    run_variant<merge_shape<512, 512, 15>, false>("512/512 x15", keys, values, out, out_values, w, want, want_values, cub.median_ms, false);
    run_variant<merge_shape<1024, 512, 15>, false>("1024/512 x15", keys, values, out, out_values, w, want, want_values, cub.median_ms, true);
    run_variant<merge_shape<1024, 256, 15>, false>("1024/256 x15", keys, values, out, out_values, w, want, want_values, cub.median_ms, false);
    run_variant<merge_shape<256, 256, 15>, false>("256/256 x15", keys, values, out, out_values, w, want, want_values, cub.median_ms, false);
    run_variant<merge_shape<1024, 512, 17>, false>("1024/512 x17", keys, values, out, out_values, w, want, want_values, cub.median_ms, true);
    run_variant<merge_shape<1024, 512, 13>, false>("1024/512 x13", keys, values, out, out_values, w, want, want_values, cub.median_ms, false);
    run_variant<merge_shape<512, 512, 17>, false>("512/512 x17", keys, values, out, out_values, w, want, want_values, cub.median_ms, false);
  } else {
    run_variant<merge_shape<512, 256, 11>, true>("512/256 x11", keys, values, out, out_values, w, want, want_values, cub.median_ms, true);
    run_variant<merge_shape<512, 512, 11>, true>("512/512 x11", keys, values, out, out_values, w, want, want_values, cub.median_ms, false);
    run_variant<merge_shape<1024, 512, 11>, true>("1024/512 x11", keys, values, out, out_values, w, want, want_values, cub.median_ms, true);
    run_variant<merge_shape<512, 512, 15>, true>("512/512 x15", keys, values, out, out_values, w, want, want_values, cub.median_ms, false);
    run_variant<merge_shape<1024, 512, 9>, true>("1024/512 x9", keys, values, out, out_values, w, want, want_values, cub.median_ms, false);
    run_variant<merge_shape<1024, 256, 11>, true>("1024/256 x11", keys, values, out, out_values, w, want, want_values, cub.median_ms, false);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {20, 24, 26, 28};
  const bool pairs = std::getenv("SORT_VARIANTS_PAIRS") != nullptr;
  for (const int s : sizes) {
    if (pairs) {
      run_size<true>(s);
    } else {
      run_size<false>(s);
    }
    std::fflush(stdout);
  }
  return 0;
}
