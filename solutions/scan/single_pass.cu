// Stage 6: a single-pass scan at the memory ceiling (Merrill & Garland 2016).
//
// What a scan must move is the input once and the output once, like a copy. This stage
// reads and writes each item exactly once and keeps as many loads in flight as its registers
// hold (the README measures how close that comes to a copy's speed):
//   - a tile index from an atomic counter (S4), so the tiles a block looks back at belong
//     to blocks that are already running;
//   - 16-byte loads and stores, several per thread (V vectors; by default 8: 32 int32 or
//     16 int64 items);
//     vector j of lane l covers the items at warp_base + (j*32 + l)*VEC, so each load
//     instruction of a warp reads 512 consecutive bytes;
//   - the scan itself in registers: each thread sums its vectors, warp shuffles scan the
//     sums (warp_scan.cuh), warp 0 scans the warp totals (block_scan.cuh);
//   - the decoupled look-back (tile_lookback.cuh) instead of the domino chain.
#include <cstdint>

#include "block_scan.cuh"
#include "scan.hpp"
#include "tile_lookback.cuh"
#include "warp_scan.cuh"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

// 16 bytes as a vector or as items.
template <class T>
union vector16 {
  uint4 raw;
  T item[16 / sizeof(T)];
};

// One tile of blockDim.x * V * (16 / sizeof(T)) items per block. tile_counter and the tile
// states are zero before the launch. `aligned`: in and out are 16-byte aligned (a full tile
// then moves as vectors; a misaligned input and the last tile go item by item).
template <class T, int V>
__global__ void __launch_bounds__(1024) single_pass_kernel(const T* in, T* out, std::int64_t n, bool exclusive,
                                                           bool aligned, unsigned* tile_counter,
                                                           tile_status<T> status) {
  constexpr int VEC = 16 / sizeof(T);
  __shared__ unsigned tile_shared;
  __shared__ T tile_prefix_shared;
  if (threadIdx.x == 0) tile_shared = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const std::int64_t tile = tile_shared;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / 32;
  const std::int64_t tile_items = static_cast<std::int64_t>(blockDim.x) * V * VEC;
  const std::int64_t tile_base = tile * tile_items;
  const std::int64_t warp_base = tile_base + static_cast<std::int64_t>(warp) * (V * 32 * VEC);
  const bool full_tile = aligned && tile_base + tile_items <= n;

  // Load: all V loads issued before any is used.
  T x[V][VEC];
  if (full_tile) {
#pragma unroll
    for (int j = 0; j < V; ++j) {
      vector16<T> v;
      v.raw = *reinterpret_cast<const uint4*>(in + warp_base + (j * 32 + lane) * VEC);
#pragma unroll
      for (int k = 0; k < VEC; ++k) x[j][k] = v.item[k];
    }
  } else {
#pragma unroll
    for (int j = 0; j < V; ++j) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        const std::int64_t i = warp_base + (j * 32 + lane) * VEC + k;
        x[j][k] = i < n ? in[i] : T{};
      }
    }
  }

  // Scan inside the warp: vector j of the 32 lanes is a run of 32 * VEC consecutive items.
  T lane_prefix[V];   // the lanes before this one, in run j
  T run_prefix[V];    // the runs before run j, in this warp
  T warp_total{};
#pragma unroll
  for (int j = 0; j < V; ++j) {
    T sum = x[j][0];
#pragma unroll
    for (int k = 1; k < VEC; ++k) sum = plus(sum, x[j][k]);
    const T inclusive = warp_inclusive_scan(sum);
    lane_prefix[j] = warp_exclusive_from_inclusive(inclusive);
    run_prefix[j] = warp_total;
    warp_total = plus(warp_total, __shfl_sync(full_warp, inclusive, 31));
  }

  // Scan across the warps, then across the tiles.
  T tile_total;
  const T warp_prefix = block_exclusive_scan_of_warp_totals(warp_total, tile_total);
  if (warp == 0) {
    const T tile_prefix = tile_exclusive_prefix(status, tile, tile_total);
    if (lane == 0) tile_prefix_shared = tile_prefix;
  }
  __syncthreads();
  const T thread_prefix = plus(tile_prefix_shared, warp_prefix);

  // Each item's output, then the stores.
#pragma unroll
  for (int j = 0; j < V; ++j) {
    T running = plus(thread_prefix, plus(run_prefix[j], lane_prefix[j]));
    vector16<T> v;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      if (exclusive) {
        v.item[k] = running;
        running = plus(running, x[j][k]);
      } else {
        running = plus(running, x[j][k]);
        v.item[k] = running;
      }
    }
    const std::int64_t first = warp_base + (j * 32 + lane) * VEC;
    if (full_tile) {
      *reinterpret_cast<uint4*>(out + first) = v.raw;
    } else {
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        if (first + k < n) out[first + k] = v.item[k];
      }
    }
  }
}

}  // namespace scan::WB_TRACK

#include "single_pass_host.inl"  // the host side of stage 6, shared by both tracks
