// An experiment beside the chapter: what shows how stage 6's choices were made. Stage-6
// variants are timed in one process with the solution's stage 6, CUB and a device-to-device
// copy of the same bytes. It compiles the solution's stage-6 kernels (its device headers:
// solutions/merge/block_merge.cuh, partition.cuh and the shared merge pieces), so every
// variant runs the solution's kernels, only with other template arguments:
//   partition pass alone, GROUP = 1, 2, 4, 8, 16, 32 threads per tile boundary searching
//           together (co_rank_cooperative below; GROUP = 1 is one co_rank_lower_bound per
//           thread), checked against the co-ranks computed on the host: more threads per
//           search make the pass slower, because it is bound by its scattered DRAM reads;
//   stage 6 with each GROUP (the partition pass, then merge_tile_kernel at the default shape);
//   stage 6 at other tile shapes (BLOCK x ITEMS);
//   fused: no partition pass; each block finds its own two co-ranks (co_rank_cooperative, one
//           warp) before loading its tile (slower: every block waits for its searches);
//   the sampled partition pass (solutions/merge/partition.cuh) with grids of step S = 512,
//           256, 128, alone and with the tile kernel (stage 6 uses S = 512).
// Every full variant's output is compared with a host merge.
//
// Build (cuda backend only): cmake --build build-cuda --target merge_stage6_variants
// Run: build-cuda/bench/merge/merge_stage6_variants [log2 of m = n, default 27] [sampled]
// ("sampled": only the copy, CUB, stage 6 and the sampled partition passes)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cub/device/device_merge.cuh>

#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"
#include "wb/timing.hpp"

#include "data.hpp"
#include "merge.hpp"

// The solution's stage-6 kernels (WB_TRACK=solution, solutions/merge/ on the include path);
// the stage itself (merge_at_bandwidth) is linked from the solution's library.
#include "block_merge.cuh"
#include "co_rank_lower_bound.cuh"
#include "partition.cuh"
#include "thread_merge.cuh"

namespace merge::solution {

// A co-operative search (it loses to GROUP 1, one search per thread). co_rank_lower_bound of output rank
// k, found by the GROUP lanes of this thread's group together: each step lane g tests
// p_g = low + (range * (g+1)) / (GROUP+1); a warp vote finds the first test that holds (f;
// GROUP if none), and the answer lies in [p_{f-1} + 1, p_f]. Called by all 32 lanes of the warp.
template <int GROUP, class K>
__device__ inline std::int64_t co_rank_cooperative(std::int64_t k, const K* A, std::int64_t m, const K* B,
                                                   std::int64_t n, bool active) {
  static_assert(GROUP >= 1 && GROUP <= 32 && (32 % GROUP) == 0, "GROUP lanes must tile a warp");
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int g = lane % GROUP;
  const int first_lane = lane - g;
  std::int64_t low = active ? max_of<std::int64_t>(0, k - n) : 0;
  std::int64_t high = active ? min_of(k, m) : 0;
  while (__any_sync(0xffffffffu, low < high)) {
    const std::int64_t range = high - low;
    const std::int64_t p = low + range * (g + 1) / (GROUP + 1);
    const bool holds = low < high && B[k - 1 - p] < A[p];
    const unsigned votes = __ballot_sync(0xffffffffu, holds);
    const unsigned group_votes = GROUP == 32 ? votes : (votes >> first_lane) & ((1u << GROUP) - 1u);
    if (low < high) {
      const int f = group_votes != 0 ? __ffs(static_cast<int>(group_votes)) - 1 : GROUP;
      if (f < GROUP) high = low + range * (f + 1) / (GROUP + 1);
      if (f > 0) low = low + range * f / (GROUP + 1) + 1;
    }
  }
  return low;
}

// The partition pass with GROUP threads per tile boundary (GROUP 1: the solution's kernel).
template <class K, int GROUP>
__global__ void group_partition_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n,
                                       std::int64_t tile_items, std::int64_t num_partitions, std::int64_t* partitions) {
  const std::int64_t t = wb::global_thread_index() / GROUP;
  const bool active = t < num_partitions;
  const std::int64_t k = active ? min_of(t * tile_items, m + n) : 0;
  const std::int64_t i = co_rank_cooperative<GROUP>(k, A, m, B, n, active);
  if (active && static_cast<int>(threadIdx.x) % GROUP == 0) partitions[t] = i;
}

// The fused variant: merge_tile_kernel (at_bandwidth.cu) with its two partitions found by the
// block itself: the GROUP lanes of groups 0 and 1 of warp 0 co-rank the tile's first and
// one-past-last output, the block waits for them.
template <class K, int BLOCK, int ITEMS, int GROUP>
__global__ void __launch_bounds__(BLOCK)
    fused_tile_kernel(const K* __restrict__ A, std::int64_t m, const K* __restrict__ B, std::int64_t n,
                      K* __restrict__ C) {
  static_assert(GROUP <= 16, "two groups in warp 0");
  constexpr int tile_items = BLOCK * ITEMS;
  K* AB_S = wb::dynamic_shared<K>();
  __shared__ std::int64_t bounds[2];
  const std::int64_t C_curr = static_cast<std::int64_t>(blockIdx.x) * tile_items;
  const std::int64_t C_next = min_of(C_curr + tile_items, m + n);
  if (threadIdx.x < 32) {
    const int which = static_cast<int>(threadIdx.x) / GROUP;  // 0: C_curr, 1: C_next, 2+: idle
    const std::int64_t i = co_rank_cooperative<GROUP>(which == 0 ? C_curr : C_next, A, m, B, n, which < 2);
    if (which < 2 && static_cast<int>(threadIdx.x) % GROUP == 0) bounds[which] = i;
  }
  __syncthreads();
  const std::int64_t A_curr = bounds[0];
  const std::int64_t B_curr = C_curr - A_curr;
  const int A_length = static_cast<int>(bounds[1] - A_curr);
  const int C_length = static_cast<int>(C_next - C_curr);
  const int B_length = C_length - A_length;
  load_tile_striped<BLOCK, ITEMS>(A + A_curr, A_length, B + B_curr, B_length, AB_S);
  __syncthreads();
  const int c_curr = min_of(static_cast<int>(threadIdx.x) * ITEMS, C_length);
  const int a_curr = co_rank_lower_bound<K, int>(c_curr, AB_S, A_length, AB_S + A_length, B_length);
  K keys[ITEMS];
  int from[ITEMS];
  thread_merge<ITEMS>(AB_S, A_length, AB_S + A_length, B_length, a_curr, c_curr - a_curr, keys, from);
  store_tile_blocked<BLOCK, ITEMS>(keys, C + C_curr, C_length, AB_S);
}

}  // namespace merge::solution

namespace {

using merge::value_t;
namespace sol = merge::solution;

struct dataset {
  const char* name;
  merge::distribution dist;
  bool values;
};

template <class K>
struct runner {
  std::int64_t m, n;
  bool values;
  std::vector<K> ref;
  std::vector<value_t> ref_val;
  wb::device_buffer<K> dA, dB, dC;
  wb::device_buffer<value_t> dA_val, dB_val, dC_val;
  wb::device_buffer<std::int64_t> parts;
  wb::device_buffer<K> A_s;  // the sampled pass's grid samples: A's, then B's
  double gb;

  void report(const std::string& name, const std::function<void()>& run, const std::function<bool()>& check) {
    dC.fill_bytes(0xA5);
    if (values) dC_val.fill_bytes(0xA5);
    run();
    WB_CHECK(cudaGetLastError());
    WB_CHECK(cudaDeviceSynchronize());
    const bool ok = check();
    wb::timing_options o;
    o.reps = 30;
    const auto t = wb::time_gpu(run, o);
    std::printf("  %-46s %8.4f ms (min %.4f) %7.1f GB/s  %s\n", name.c_str(), t.median_ms, t.min_ms,
                gb / (t.median_ms * 1e-3), ok ? "ok" : "WRONG");
    std::fflush(stdout);
  }
  bool merged_ok() { return dC.to_host() == ref && (!values || dC_val.to_host() == ref_val); }
};

template <class K, int BLOCK, int ITEMS, bool V>
void launch_tiles(runner<K>& r) {
  constexpr std::int64_t tile = std::int64_t{BLOCK} * ITEMS;
  const auto grid = static_cast<unsigned>(merge::ceil_div(r.m + r.n, tile));
  wb::launch({grid, BLOCK, static_cast<std::size_t>(tile * (V ? std::max(sizeof(K), sizeof(value_t)) : sizeof(K)))},
             sol::merge_tile_kernel<K, BLOCK, ITEMS, V>, r.dA.data(), r.m, r.dB.data(), r.n, r.dC.data(),
             r.dA_val.data(), r.dB_val.data(), r.dC_val.data(), r.parts.data());
}

template <class K, int GROUP>
void launch_partitions(runner<K>& r, std::int64_t tile) {
  if constexpr (GROUP == 1) {
    sol::merge_path_partitions(r.dA.data(), r.m, r.dB.data(), r.n, tile, r.parts.data());  // the solution's
  } else {
    const std::int64_t count = merge::ceil_div(r.m + r.n, tile) + 1;
    wb::launch({static_cast<unsigned>(merge::ceil_div(count * GROUP, 256)), 256}, sol::group_partition_kernel<K, GROUP>,
               r.dA.data(), r.m, r.dB.data(), r.n, tile, count, r.parts.data());
  }
}

// The solution's sampled partition pass (partition.cuh) with grid step S.
template <class K, int S>
void launch_coarse_fine(runner<K>& r, std::int64_t tile) {
  int log2_step = 0;
  while ((1 << log2_step) < S) ++log2_step;
  const std::int64_t count = merge::ceil_div(r.m + r.n, tile) + 1;
  const std::int64_t most = std::max(sol::a_samples(r.m, log2_step), sol::b_samples(r.n, log2_step));
  K* B_s = r.A_s.data() + sol::a_samples(r.m, log2_step);
  wb::launch({static_cast<unsigned>(std::max<std::int64_t>(1, merge::ceil_div(most, 256))), 256},
             sol::sample_grid_kernel<K>, r.dA.data(), r.m, r.dB.data(), r.n, log2_step, r.A_s.data(), B_s);
  wb::launch({static_cast<unsigned>(merge::ceil_div(count, 256)), 256}, sol::coarse_fine_partition_kernel<K>,
             r.dA.data(), r.m, r.dB.data(), r.n, static_cast<const K*>(r.A_s.data()), static_cast<const K*>(B_s),
             log2_step, tile, count, r.parts.data());
}

template <class K, bool V, int BLOCK, int ITEMS, int S>
void coarse_fine_variants(runner<K>& r, const std::vector<std::int64_t>& expected_parts) {
  constexpr std::int64_t tile = std::int64_t{BLOCK} * ITEMS;
  static_assert(tile % S == 0, "the grid step must divide the tile");
  const auto parts_ok = [&] {
    auto got = r.parts.to_host();
    got.resize(expected_parts.size());
    return got == expected_parts;
  };
  const std::string name = "sampled coarse-fine S=" + std::to_string(S);
  r.report("partition pass alone, " + name, [&] { launch_coarse_fine<K, S>(r, tile); }, parts_ok);
  r.report("stage 6, partition " + name, [&] {
    launch_coarse_fine<K, S>(r, tile);
    launch_tiles<K, BLOCK, ITEMS, V>(r);
  }, [&] { return r.merged_ok(); });
}

template <class K, int BLOCK, int ITEMS, bool V>
void shape_variant(runner<K>& r) {
  constexpr std::int64_t tile = std::int64_t{BLOCK} * ITEMS;
  r.report("shape " + std::to_string(BLOCK) + " x " + std::to_string(ITEMS) + ", group 1",
           [&] {
             launch_partitions<K, 1>(r, tile);
             launch_tiles<K, BLOCK, ITEMS, V>(r);
           },
           [&] { return r.merged_ok(); });
}

template <class K, bool V, int BLOCK, int ITEMS, int GROUP>
void group_variants(runner<K>& r, const std::vector<std::int64_t>& expected_parts) {
  constexpr std::int64_t tile = std::int64_t{BLOCK} * ITEMS;
  const auto parts_ok = [&] {  // compare only the partitions, not the whole (larger) buffer
    auto got = r.parts.to_host();
    got.resize(expected_parts.size());
    return got == expected_parts;
  };
  r.report("partition pass alone, group " + std::to_string(GROUP), [&] { launch_partitions<K, GROUP>(r, tile); },
           parts_ok);
  r.report("stage 6, partition group " + std::to_string(GROUP), [&] {
    launch_partitions<K, GROUP>(r, tile);
    launch_tiles<K, BLOCK, ITEMS, V>(r);
  }, [&] { return r.merged_ok(); });
}

template <class K, bool V, int BLOCK, int ITEMS>
void run_dataset(const dataset& d, int log2_size, bool only_sampled) {
  runner<K> r;
  r.m = r.n = std::int64_t{1} << log2_size;
  r.values = V;
  const auto A = merge::sorted_keys<K>(r.m, d.dist, 42, 0);
  const auto B = merge::sorted_keys<K>(r.n, d.dist, 42, 1);
  const auto A_val = merge::tag_values(r.m, 0);
  const auto B_val = merge::tag_values(r.n, r.m);
  // The reference, stable: on equal keys A's element first.
  r.ref.resize(static_cast<std::size_t>(r.m + r.n));
  if (V) r.ref_val.resize(r.ref.size());
  {
    std::size_t i = 0, j = 0, k = 0;
    while (i < A.size() || j < B.size()) {
      const bool take_a = j == B.size() || (i < A.size() && A[i] <= B[j]);
      if (V) r.ref_val[k] = take_a ? A_val[i] : B_val[j];
      r.ref[k++] = take_a ? A[i++] : B[j++];
    }
  }
  constexpr std::int64_t tile = std::int64_t{BLOCK} * ITEMS;
  std::vector<std::int64_t> expected_parts;
  for (std::int64_t k = 0;; k += tile) {
    expected_parts.push_back(sol::co_rank_lower_bound(std::min(k, r.m + r.n), A.data(), r.m, B.data(), r.n));
    if (k >= r.m + r.n) break;
  }
  r.dA = wb::device_buffer<K>(A);
  r.dB = wb::device_buffer<K>(B);
  r.dC = wb::device_buffer<K>(r.ref.size());
  if (V) {
    r.dA_val = wb::device_buffer<value_t>(A_val);
    r.dB_val = wb::device_buffer<value_t>(B_val);
    r.dC_val = wb::device_buffer<value_t>(r.ref.size());
  }
  r.parts = wb::device_buffer<std::int64_t>(static_cast<std::size_t>((r.m + r.n) / 64 + 2));
  r.A_s = wb::device_buffer<K>(static_cast<std::size_t>((r.m + r.n) / 64 + 2));
  const double bytes = 2.0 * static_cast<double>(r.m + r.n) * (sizeof(K) + (V ? sizeof(value_t) : 0));
  r.gb = bytes / 1e9;
  std::printf("== %s (%s keys%s), m = n = 2^%d, default shape %d x %d\n", d.name, sizeof(K) == 4 ? "int32" : "int64",
              V ? " + int32 values" : "", log2_size, BLOCK, ITEMS);
  const auto merged_ok = [&] { return r.merged_ok(); };

  // The ceiling: copying the same bytes (what every element read once and written once costs).
  r.report("copy of the same bytes (cudaMemcpyAsync)", [&] {
    WB_CHECK(cudaMemcpyAsync(r.dC.data(), r.dA.data(), static_cast<std::size_t>(r.m) * sizeof(K),
                             cudaMemcpyDeviceToDevice));
    WB_CHECK(cudaMemcpyAsync(r.dC.data() + r.m, r.dB.data(), static_cast<std::size_t>(r.n) * sizeof(K),
                             cudaMemcpyDeviceToDevice));
    if (V) {
      WB_CHECK(cudaMemcpyAsync(r.dC_val.data(), r.dA_val.data(), static_cast<std::size_t>(r.m) * sizeof(value_t),
                               cudaMemcpyDeviceToDevice));
      WB_CHECK(cudaMemcpyAsync(r.dC_val.data() + r.m, r.dB_val.data(), static_cast<std::size_t>(r.n) * sizeof(value_t),
                               cudaMemcpyDeviceToDevice));
    }
  }, [] { return true; });

  std::size_t cub_bytes = 0;
  if (V) {
    WB_CHECK(cub::DeviceMerge::MergePairs(nullptr, cub_bytes, r.dA.data(), r.dA_val.data(), r.m, r.dB.data(),
                                          r.dB_val.data(), r.n, r.dC.data(), r.dC_val.data()));
  } else {
    WB_CHECK(cub::DeviceMerge::MergeKeys(nullptr, cub_bytes, r.dA.data(), r.m, r.dB.data(), r.n, r.dC.data()));
  }
  wb::device_buffer<unsigned char> cub_temp(std::max<std::size_t>(cub_bytes, 1));
  const auto cub_run = [&] {
    if (V) {
      WB_CHECK(cub::DeviceMerge::MergePairs(cub_temp.data(), cub_bytes, r.dA.data(), r.dA_val.data(), r.m,
                                            r.dB.data(), r.dB_val.data(), r.n, r.dC.data(), r.dC_val.data()));
    } else {
      WB_CHECK(cub::DeviceMerge::MergeKeys(cub_temp.data(), cub_bytes, r.dA.data(), r.m, r.dB.data(), r.n,
                                           r.dC.data()));
    }
  };
  r.report(V ? "cub::DeviceMerge::MergePairs" : "cub::DeviceMerge::MergeKeys", cub_run, merged_ok);

  merge::problem<K> p{r.dA.data(), r.m, r.dB.data(), r.n, r.dC.data()};
  if (V) {
    p.A_val = r.dA_val.data();
    p.B_val = r.dB_val.data();
    p.C_val = r.dC_val.data();
  }
  wb::device_buffer<unsigned char> temp(sol::merge_at_bandwidth_temp_bytes<K>(r.m, r.n, {}, V));
  r.report("stage 6 as committed (solution)",
           [&] { sol::merge_at_bandwidth(p, temp.data(), temp.size()); }, merged_ok);
  r.report(V ? "cub::DeviceMerge::MergePairs (again)" : "cub::DeviceMerge::MergeKeys (again)", cub_run, merged_ok);

  group_variants<K, V, BLOCK, ITEMS, 1>(r, expected_parts);
  coarse_fine_variants<K, V, BLOCK, ITEMS, 512>(r, expected_parts);
  coarse_fine_variants<K, V, BLOCK, ITEMS, 256>(r, expected_parts);
  coarse_fine_variants<K, V, BLOCK, ITEMS, 128>(r, expected_parts);
  r.report(V ? "cub::DeviceMerge::MergePairs (after the sampled passes)" : "cub::DeviceMerge::MergeKeys (after the sampled passes)", cub_run,
           merged_ok);
  if (only_sampled) return;
  group_variants<K, V, BLOCK, ITEMS, 2>(r, expected_parts);
  group_variants<K, V, BLOCK, ITEMS, 4>(r, expected_parts);
  group_variants<K, V, BLOCK, ITEMS, 8>(r, expected_parts);
  group_variants<K, V, BLOCK, ITEMS, 16>(r, expected_parts);
  group_variants<K, V, BLOCK, ITEMS, 32>(r, expected_parts);

  if constexpr (!V) {
    const auto fused_grid = static_cast<unsigned>(merge::ceil_div(r.m + r.n, tile));
    r.report("fused: each block co-ranks its own tile, group 8", [&] {
      wb::launch({fused_grid, BLOCK, static_cast<std::size_t>(tile * sizeof(K))},
                 sol::fused_tile_kernel<K, BLOCK, ITEMS, 8>, r.dA.data(), r.m, r.dB.data(), r.n, r.dC.data());
    }, merged_ok);
    r.report("fused: each block co-ranks its own tile, group 16", [&] {
      wb::launch({fused_grid, BLOCK, static_cast<std::size_t>(tile * sizeof(K))},
                 sol::fused_tile_kernel<K, BLOCK, ITEMS, 16>, r.dA.data(), r.m, r.dB.data(), r.n, r.dC.data());
    }, merged_ok);
  }

  if constexpr (sizeof(K) == 4 && !V) {
    shape_variant<K, 512, 11, V>(r);
    shape_variant<K, 512, 15, V>(r);
    shape_variant<K, 512, 19, V>(r);
    shape_variant<K, 512, 23, V>(r);
    shape_variant<K, 256, 23, V>(r);
  } else {
    shape_variant<K, 512, 7, V>(r);
    shape_variant<K, 512, 9, V>(r);
    shape_variant<K, 512, 11, V>(r);
  }
  r.report(V ? "cub::DeviceMerge::MergePairs (last)" : "cub::DeviceMerge::MergeKeys (last)", cub_run, merged_ok);
}

}  // namespace

int main(int argc, char** argv) {
  const int log2_size = argc > 1 ? std::atoi(argv[1]) : 27;
  const bool only_sampled = argc > 2 && std::string(argv[2]) == "sampled";  // CUB, stage 6 and the sampled passes only
  if (log2_size < 1 || log2_size > 30) {
    std::fprintf(stderr, "error: log2 of m = n must be in 1..30\n");
    return 2;
  }
  run_dataset<std::int32_t, false, 512, 15>({"uniform", merge::distribution::uniform, false}, log2_size, only_sampled);
  run_dataset<std::int32_t, false, 512, 15>({"duplicates", merge::distribution::duplicates, false}, log2_size, only_sampled);
  run_dataset<std::int64_t, false, 512, 7>({"uniform", merge::distribution::uniform, false}, log2_size, only_sampled);
  run_dataset<std::int32_t, true, 512, 7>({"uniform, key-value", merge::distribution::uniform, true}, log2_size, only_sampled);
  return 0;
}
