// An experiment beside the chapter (not built by CMake): stage-6 variants timed in one process
// with the solution's stage 6 and CUB, on int32, float, duplicate-heavy int32 and int64 keys.
// The README's stage-6 choices cite its output (results/stage6_variants.txt). Variants:
//   search: the book's co_rank (stage 1) or the lower bound (co_rank_lower_bound.cuh), in the
//           partition pass and in each thread's search;
//   store:  the tile leaves shared memory 4 or 8 bytes per store (striped), or 16 (full tiles).
// Build and run on a GPU, after building the chapter into build-gpu:
//   nvcc -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -DWB_BACKEND_CUDA=1 -DWB_TRACK=solution \
//     -Icommon/include -Ichapters/merge chapters/merge/experiments/stage6_variants.cu \
//     build-gpu/chapters/merge/libmerge_solution.a build-gpu/chapters/merge/libmerge_common.a \
//     build-gpu/common/libwb_common.a [-lfmt] -o stage6_variants && ./stage6_variants
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cub/device/device_merge.cuh>
#include "wb/kernel.hpp"
#include "wb/device_buffer.hpp"
#include "wb/timing.hpp"
#include "data.hpp"
#include "merge.hpp"
#include "../../../solutions/merge/block_merge.cuh"
#include "../../../solutions/merge/co_rank.cuh"
#include "../../../solutions/merge/co_rank_lower_bound.cuh"
#include "../../../solutions/merge/thread_merge.cuh"

namespace merge::solution {
template <class K, bool BOOK>
__global__ void partition_variant(const K* A, std::int64_t m, const K* B, std::int64_t n, std::int64_t tile, std::int64_t count, std::int64_t* out) {
  const std::int64_t t = wb::global_thread_index();
  if (t >= count) return;
  const std::int64_t k = min_of(t * tile, m + n);
  out[t] = BOOK ? co_rank(k, A, m, B, n) : co_rank_lower_bound(k, A, m, B, n);
}
template <class K, int BLOCK, int ITEMS, bool BOOK, bool VEC>
__global__ void __launch_bounds__(BLOCK) tile_variant(const K* __restrict__ A, std::int64_t m, const K* __restrict__ B,
                                                      std::int64_t n, K* __restrict__ C, const std::int64_t* __restrict__ partitions) {
  constexpr int tile_items = BLOCK * ITEMS;
  K* AB_S = wb::dynamic_shared<K>();
  const std::int64_t C_curr = static_cast<std::int64_t>(blockIdx.x) * tile_items;
  const std::int64_t C_next = min_of(C_curr + tile_items, m + n);
  const std::int64_t A_curr = partitions[blockIdx.x];
  const std::int64_t A_next = partitions[blockIdx.x + 1];
  const int A_length = static_cast<int>(A_next - A_curr);
  const int C_length = static_cast<int>(C_next - C_curr);
  const int B_length = C_length - A_length;
  load_tile_striped<BLOCK, ITEMS>(A + A_curr, A_length, B + (C_curr - A_curr), B_length, AB_S);
  __syncthreads();
  const int c_curr = min_of(static_cast<int>(threadIdx.x) * ITEMS, C_length);
  const int a_curr = BOOK ? static_cast<int>(co_rank<K>(c_curr, AB_S, A_length, AB_S + A_length, B_length))
                          : co_rank_lower_bound<K, int>(c_curr, AB_S, A_length, AB_S + A_length, B_length);
  K keys[ITEMS];
  int from[ITEMS];
  thread_merge<ITEMS>(AB_S, A_length, AB_S + A_length, B_length, a_curr, c_curr - a_curr, keys, from);
  __syncthreads();
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) { const int idx = threadIdx.x * ITEMS + x; if (idx < C_length) AB_S[idx] = keys[x]; }
  __syncthreads();
  constexpr int tile_bytes = tile_items * static_cast<int>(sizeof(K));
  if (VEC && tile_bytes % 16 == 0 && C_length == tile_items) {  // a full tile in 16-byte pieces
    const uint4* from_S = reinterpret_cast<const uint4*>(AB_S);
    uint4* to = reinterpret_cast<uint4*>(C + C_curr);
#pragma unroll
    for (int q = 0; q < (tile_bytes / 16 + BLOCK - 1) / BLOCK; ++q) {
      const int piece = q * BLOCK + static_cast<int>(threadIdx.x);
      if (piece < tile_bytes / 16) to[piece] = from_S[piece];
    }
  } else {
#pragma unroll
    for (int x = 0; x < ITEMS; ++x) { const int idx = x * BLOCK + threadIdx.x; if (idx < C_length) C[C_curr + idx] = AB_S[idx]; }
  }
}
}  // namespace merge::solution

template <class K>
void run_all(merge::distribution dist, const char* type) {
  const std::int64_t m = std::int64_t{1} << 27, n = m;
  auto A = merge::sorted_keys<K>(m, dist, 42, 0);
  auto B = merge::sorted_keys<K>(n, dist, 42, 1);
  std::vector<K> ref(m + n);
  std::merge(A.begin(), A.end(), B.begin(), B.end(), ref.begin());
  wb::device_buffer<K> dA(A), dB(B), dC(m + n);
  wb::device_buffer<std::int64_t> parts((m + n) / 64 + 2);
  wb::device_buffer<unsigned char> temp(1 << 24);
  const double gb = 2.0 * (m + n) * sizeof(K) / 1e9;
  std::printf("== %s %s\n", type, merge::to_string(dist).c_str());
  auto report = [&](const char* name, auto run) {
    dC.fill_bytes(0xA5);
    run();
    WB_CHECK(cudaDeviceSynchronize());
    const bool ok = dC.to_host() == ref;
    wb::timing_options o; o.reps = 30;
    const auto t = wb::time_gpu(run, o);
    std::printf("  %-44s %8.4f ms (min %.4f) %7.1f GB/s  %s\n", name, t.median_ms, t.min_ms, gb / (t.median_ms * 1e-3), ok ? "ok" : "(output not a merge)");
  };
  merge::problem<K> p{dA.data(), m, dB.data(), n, dC.data()};
  size_t cub_bytes = 0;
  cub::DeviceMerge::MergeKeys(nullptr, cub_bytes, dA.data(), m, dB.data(), n, dC.data());
  wb::device_buffer<unsigned char> cub_temp(cub_bytes);
  report("cub MergeKeys", [&] { cub::DeviceMerge::MergeKeys(cub_temp.data(), cub_bytes, dA.data(), m, dB.data(), n, dC.data()); });
  report("stage 6 default (solution)", [&] { merge::solution::merge_at_bandwidth(p, temp.data(), temp.size()); });
  constexpr int BLOCK = 512, ITEMS = sizeof(K) == 4 ? 15 : 7, TILE = BLOCK * ITEMS;
  const unsigned grid = static_cast<unsigned>((m + n + TILE - 1) / TILE);
#define V(BOOK, VEC)                                                                                              \
  report(BOOK ? "variant: book co_rank, 16-byte stores=" #VEC : "variant: lower bound, 16-byte stores=" #VEC, [&] {                                              \
    wb::launch({(grid + 1 + 255) / 256, 256}, merge::solution::partition_variant<K, BOOK>, dA.data(), m, dB.data(), n, \
               std::int64_t{TILE}, std::int64_t{grid} + 1, parts.data());                                        \
    wb::launch({grid, BLOCK, TILE * sizeof(K)}, merge::solution::tile_variant<K, BLOCK, ITEMS, BOOK, VEC>, dA.data(), m, \
               dB.data(), n, dC.data(), parts.data());                                                          \
  });
  V(true, false)
  V(true, true)
  V(false, false)
  V(false, true)
  report("partition pass only, lower bound", [&] {
    wb::launch({(grid + 1 + 255) / 256, 256}, merge::solution::partition_variant<K, false>, dA.data(), m, dB.data(), n, std::int64_t{TILE}, std::int64_t{grid} + 1, parts.data()); });
  report("partition pass only, book co_rank", [&] {
    wb::launch({(grid + 1 + 255) / 256, 256}, merge::solution::partition_variant<K, true>, dA.data(), m, dB.data(), n, std::int64_t{TILE}, std::int64_t{grid} + 1, parts.data()); });
}

int main() {
  run_all<std::int32_t>(merge::distribution::uniform, "int32");
  run_all<float>(merge::distribution::uniform, "float");
  run_all<std::int32_t>(merge::distribution::duplicates, "int32");
  run_all<std::int64_t>(merge::distribution::uniform, "int64");
  return 0;
}
