// An experiment beside the chapter: how stage 6's shapes were chosen and what each level of
// the merge sort costs. It compiles the solution's stage-6 kernels (its device headers,
// solutions/sort/tile_sort.cuh and merge_pass.cuh, and the host side merge_sort_host.inl), so
// every variant runs the solution's kernels with other template arguments (sort block, merge block, keys per thread), timed in one process with
// CUB's stable merge sort (which includes a copy of the input: it sorts in place) and
// checked against CUB's output (both stable, same order: identical keys and values).
//
// Three programs from this file (cuda backend only; built by bench/sort/CMakeLists.txt, run by hand):
//   sort_merge_variants        uint32 keys: shapes, keys only and key-value
//   sort_merge_variants_wide   int64 keys: shapes, keys only and key-value
//   sort_merge_sweep           stage 6 as shipped (sort_merge, default config) against CUB,
//                              every key type, keys only and key-value, n = 2^16 .. 2^28
// Run:   build-cuda/bench/sort/sort_merge_variants [log2 n ...]   (default: 20 24 26 28)
//        SORT_VARIANTS_PAIRS=1: with 32-bit values (the variants programs)
//        build-cuda/bench/sort/sort_merge_sweep [first last]      (default: 16 28)
// Output: one line per variant and size (median ms of 10 runs, ratio to CUB); with a level
// breakdown for some shapes: one line per level, the partition and merge kernels' times from
// events around each launch of one run (GB/s: every key and value read and written once).
#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#define SORT_MERGE_EXPERIMENT 1
// The solution's stage 6 (WB_TRACK=solution, solutions/sort/ on the include path): its kernels,
// then its host side.
#include "merge_pass.cuh"
#include "tile_sort.cuh"

#include "merge_sort_host.inl"

#include "baseline_cub.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/timing.hpp"

namespace merge_sort_experiment {  // named: the sweep program leaves some of it unused

using namespace sort;

template <class K>
const char* type_name() {
  if constexpr (std::is_same_v<K, std::uint32_t>) return "uint32";
  if constexpr (std::is_same_v<K, std::int32_t>) return "int32";
  if constexpr (std::is_same_v<K, float>) return "float";
  return "int64";
}

template <class K>
std::vector<K> keys_for(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_floating_point_v<K>) return wb::gen::uniform<K>(n, seed, K(-1e30), K(1e30));
  else return wb::gen::uniform<K>(n, seed);
}

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

template <class K, class Shape, bool VALUES>
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
  std::printf("%s n 2^%d %s %-14s sort tile %6lld merge tile %5lld levels %2d  %8.3f ms (min %.3f)  vs CUB %.3fx  %s\n",
              type_name<K>(), static_cast<int>(std::log2(static_cast<double>(n))), VALUES ? "pairs" : "keys ", name,
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

// The inputs, CUB's output (the reference) and CUB's time at one size.
template <class K, bool VALUES>
struct setup {
  std::int64_t n;
  wb::device_buffer<K> keys, out;
  wb::device_buffer<std::uint32_t> values, out_values;
  workspace_buffer<K> ws;
  std::vector<K> want;
  std::vector<std::uint32_t> want_values;
  double cub_ms = 0;

  explicit setup(int log2n)
      : n(std::int64_t{1} << log2n),
        keys(keys_for<K>(static_cast<std::size_t>(n), 1234 + log2n)),
        out(static_cast<std::size_t>(n)),
        values(VALUES ? static_cast<std::size_t>(n) : 0),
        out_values(VALUES ? static_cast<std::size_t>(n) : 0),
        ws(n, config{}) {
    if (VALUES) {
      std::vector<std::uint32_t> v(static_cast<std::size_t>(n));
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::uint32_t>(i);
      values = wb::device_buffer<std::uint32_t>(v);
    }
    const std::size_t temp_bytes = baseline::cub_merge_sort<K>(keys.data(), out.data(), VALUES ? values.data() : nullptr,
                                                               VALUES ? out_values.data() : nullptr, n, nullptr, 0);
    wb::device_buffer<unsigned char> temp(temp_bytes + 1);
    const auto cub = wb::time_gpu(
        [&] {
          baseline::cub_merge_sort<K>(keys.data(), out.data(), VALUES ? values.data() : nullptr,
                                      VALUES ? out_values.data() : nullptr, n, temp.data(), temp_bytes);
        },
        {2, 10, true});
    cub_ms = cub.median_ms;
    want = out.to_host();
    if (VALUES) want_values = out_values.to_host();
    std::printf("%s n 2^%d %s CUB StableSort%s (with its input copy) %8.3f ms\n", type_name<K>(), log2n,
                VALUES ? "pairs" : "keys ", VALUES ? "Pairs" : "Keys", cub_ms);
  }

  template <class Shape>
  void variant(const char* name, bool levels) {
    run_variant<K, Shape, VALUES>(name, keys, values, out, out_values, ws.view(), want, want_values, cub_ms, levels);
  }

  // Stage 6 as shipped.
  void shipped() {
    auto fn = [&] {
      solution::sort_merge<K>(keys.data(), out.data(), VALUES ? values.data() : nullptr,
                              VALUES ? out_values.data() : nullptr, n, ws.view(), config{});
    };
    out.fill_bytes(0xA5);
    const auto t = wb::time_gpu(fn, {2, 10, true});
    const bool ok = out.to_host() == want && (!VALUES || out_values.to_host() == want_values);
    const merge_tiles tiles = merge_tiles_for(config{}, sizeof(K), VALUES);
    std::printf("%s n 2^%d %s stage 6 (default) levels %2d  %8.3f ms  CUB %8.3f ms  vs CUB %.3fx  %s\n",
                type_name<K>(), static_cast<int>(std::log2(static_cast<double>(n))), VALUES ? "pairs" : "keys ",
                solution::merge_levels(n, tiles.sort_tile), t.median_ms, cub_ms, cub_ms / t.median_ms,
                ok ? "ok" : "MISMATCH");
  }
};

template <bool VALUES>
void run_size(int log2n) {
  using solution::merge_shape;
#if defined(SORT_VARIANTS_WIDE)
  setup<std::int64_t, VALUES> s(log2n);
  if constexpr (!VALUES) {
    s.template variant<merge_shape<1024, 512, 17>>("1024/512 x17", true);
    s.template variant<merge_shape<1024, 512, 9>>("1024/512 x9", false);
    s.template variant<merge_shape<1024, 512, 7>>("1024/512 x7", false);
    s.template variant<merge_shape<512, 512, 17>>("512/512 x17", false);
  } else {
    s.template variant<merge_shape<1024, 512, 9>>("1024/512 x9", true);
    s.template variant<merge_shape<1024, 512, 11>>("1024/512 x11", false);
    s.template variant<merge_shape<1024, 512, 5>>("1024/512 x5", false);
    s.template variant<merge_shape<512, 512, 9>>("512/512 x9", false);
  }
#else
  setup<std::uint32_t, VALUES> s(log2n);
  if constexpr (!VALUES) {
    s.template variant<merge_shape<1024, 512, 17>>("1024/512 x17", true);
    s.template variant<merge_shape<1024, 256, 33>>("1024/256 x33", false);
    s.template variant<merge_shape<512, 512, 17>>("512/512 x17", false);
  } else {
    s.template variant<merge_shape<1024, 512, 11>>("1024/512 x11", true);
    s.template variant<merge_shape<1024, 512, 9>>("1024/512 x9", false);
    s.template variant<merge_shape<1024, 256, 17>>("1024/256 x17", false);
    s.template variant<merge_shape<1024, 512, 17>>("1024/512 x17", false);
    s.template variant<merge_shape<512, 512, 11>>("512/512 x11", false);
    s.template variant<merge_shape<512, 256, 11>>("512/256 x11", false);
  }
#endif
}

template <class K>
void sweep_type(int first, int last) {
  for (int s = first; s <= last; s += 2) {
    {
      setup<K, false> keys_only(s);
      keys_only.shipped();
    }
    if (s <= 26) {
      setup<K, true> pairs(s);
      pairs.shipped();
    }
    std::fflush(stdout);
  }
}

}  // namespace merge_sort_experiment

int main(int argc, char** argv) {
  using namespace merge_sort_experiment;
#if defined(SORT_MERGE_SWEEP)
  const int first = argc > 1 ? std::atoi(argv[1]) : 16;
  const int last = argc > 2 ? std::atoi(argv[2]) : 28;
  sweep_type<std::uint32_t>(first, last);
  sweep_type<std::int64_t>(first, last < 27 ? last : 27);
  sweep_type<float>(first, last < 25 ? last : 25);
  sweep_type<std::int32_t>(first, last < 25 ? last : 25);
  return 0;
#else
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
#endif
}
