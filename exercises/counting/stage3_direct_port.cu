// Stage 3 (exercise): the direct GPU port, O(N^2), with a race-free first-occurrence rule.
//
// One thread per item (the article's loop { 1 } becomes the grid). Two kernels:
//   count_duplicates_kernel: thread i walks the whole input in shared-memory tiles of
//     blockDim.x items (PMPP §5.4: every thread loads one item of the tile, __syncthreads(),
//     compare against the tile, __syncthreads()) and counts the items equal to in[i]. It
//     also notes whether an equal item sits at an index j < i: then i is not the first
//     occurrence (D12: decided from the input, which nobody writes). counts[i] = count if
//     first, else 0. Threads past the end still take part in every load and barrier (D6).
//   rank_and_write_kernel: for every i with counts[i] > 0, its rank = the number of j with
//     counts[j] > 0 and in[j] < in[i] (tiled the same way) is its row: write values[rank],
//     counts[rank], and atomicAdd 1 to *out.size.
// The host code below is complete.
#include <cstdio>

#include "counting.hpp"
#include "wb/exercise.hpp"
#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

constexpr int max_tile = 1024;

template <class T>
__global__ void count_duplicates_kernel(const T* in, std::int64_t n, std::uint64_t* counts) {
  __shared__ T tile[max_tile];
  // TODO(counting/3): see the comment at the top.
  (void)in, (void)n, (void)counts, (void)tile;
}

template <class T>
__global__ void rank_and_write_kernel(const T* in, std::int64_t n, const std::uint64_t* counts,
                                      device_table<T> out) {
  // TODO(counting/3): see the comment at the top.
  (void)in, (void)n, (void)counts, (void)out;
}

}  // namespace

template <class T>
std::size_t count_direct_port_workspace_bytes(std::int64_t n) {
  return static_cast<std::size_t>(n > 0 ? n : 1) * sizeof(std::uint64_t);
}

template <class T>
void count_direct_port(const T* in, std::int64_t n, device_table<T> out, workspace ws, const config& cfg) {
  validate(cfg);
  wb::not_implemented("counting/3 direct port");  // TODO(counting/3): delete once the kernels are written
  if (n > max_quadratic_device_items) throw stage_refused("D1: O(N^2) on the GPU: N is above the limit");
  if (ws.bytes < count_direct_port_workspace_bytes<T>(n)) throw std::invalid_argument("count_direct_port: workspace too small");
  WB_CHECK(cudaMemsetAsync(out.size, 0, sizeof(std::int64_t)));
  if (n == 0) return;
  auto* counts = static_cast<std::uint64_t*>(ws.data);
  const int block = cfg.block;
  const auto grid = static_cast<unsigned>(wb::ceil_div(n, block));
  wb::launch({grid, static_cast<unsigned>(block)}, count_duplicates_kernel<T>, in, n, counts);
  wb::launch({grid, static_cast<unsigned>(block)}, rank_and_write_kernel<T>, in, n, static_cast<const std::uint64_t*>(counts), out);
}

template std::size_t count_direct_port_workspace_bytes<std::int8_t>(std::int64_t);
template std::size_t count_direct_port_workspace_bytes<std::int64_t>(std::int64_t);
template void count_direct_port(const std::int8_t*, std::int64_t, device_table<std::int8_t>, workspace, const config&);
template void count_direct_port(const std::int64_t*, std::int64_t, device_table<std::int64_t>, workspace, const config&);

}  // namespace counting::WB_TRACK
