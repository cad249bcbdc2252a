// Stage 6: a single-pass scan at the memory ceiling (Merrill & Garland 2016).
//
// What a scan must move is the input once and the output once, like a copy. This stage reads
// and writes each item exactly once and keeps the memory system busy all the time:
//   - a persistent grid: as many blocks as fit on the GPU at once, each taking tile after
//     tile from an atomic counter (S4: a tile a block looks back at belongs to a block that
//     is already running);
//   - the tiles arrive in a ring of shared-memory stages through bulk copies (bulk_copy.cuh):
//     while a block scans one tile, the next ones are already on their way;
//   - the scan itself in registers: each thread sums its 16-byte vectors, warp shuffles scan
//     the sums (warp_scan.cuh), the warp totals go through shared memory;
//   - the decoupled look-back (tile_lookback.cuh), with one twist that a persistent block
//     needs: a tile's aggregate is published one iteration early, in the iteration that
//     scans the tile before it, so that no tile's aggregate waits for its own block's
//     look-back (a chain from block to block, like the domino's, otherwise).
#include <cstdint>

#include "bulk_copy.cuh"
#include "scan.hpp"
#include "tile_lookback.cuh"
#include "warp_scan.cuh"
#include "wb/device/grid_dependency.cuh"
#include "wb/kernel.hpp"

// single_pass_host.inl zeroes the tile counter and states with a kernel and launches this one
// early behind it (wb::launch_config's early_start): its every thread waits for the kernel
// ahead to complete before it reads anything (wait_for_previous_grid).
#define SCAN_SINGLE_PASS_WAITS 1

namespace scan::WB_TRACK {

inline constexpr int max_single_pass_stages = 8;

// A thread's share of a tile: V vectors of 16 bytes; vector j of lane l holds the items at
// warp_base + (j*32 + l)*VEC, so each load of a warp covers 512 consecutive bytes (and reads
// shared memory without bank conflicts).
template <class T, int V>
struct thread_items {
  static constexpr int VEC = 16 / sizeof(T);
  T x[V][VEC];

  // From the tile's shared-memory stage.
  __device__ __forceinline__ void load_stage(const unsigned char* stage) {
    const uint4* warp_vectors = reinterpret_cast<const uint4*>(stage) + (threadIdx.x / 32) * (V * 32);
#pragma unroll
    for (int j = 0; j < V; ++j) {
      vector16<T> v;
      v.raw = warp_vectors[j * 32 + (threadIdx.x & 31)];
#pragma unroll
      for (int k = 0; k < VEC; ++k) x[j][k] = v.item[k];
    }
  }
  // Item by item from global memory (the last, partial tile, or a misaligned input); zeros
  // past the end.
  __device__ __forceinline__ void load_global(const T* in, std::int64_t warp_base, std::int64_t n) {
#pragma unroll
    for (int j = 0; j < V; ++j) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        const std::int64_t i = warp_base + (j * 32 + (threadIdx.x & 31)) * VEC + k;
        x[j][k] = i < n ? in[i] : T{};
      }
    }
  }
  __device__ __forceinline__ T sum() const {
    T s{};
#pragma unroll
    for (int j = 0; j < V; ++j) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) s = plus(s, x[j][k]);
    }
    return s;
  }
};

// Tiles of blockDim.x * V * (16 / sizeof(T)) items; `tiles` of them, the last one possibly
// partial. tile_counter and the tile states are zero before the launch. `aligned`: in and out
// are 16-byte aligned (full tiles then move by bulk copies and 16-byte stores; otherwise every
// tile goes item by item). `stages` (2 to max_single_pass_stages) shared-memory buffers of one
// tile each follow the static shared memory (the launch's dynamic shared memory).
template <class T, int V>
__global__ void __launch_bounds__(1024) single_pass_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles,
                                                           bool exclusive, bool aligned, int stages,
                                                           unsigned* tile_counter, tile_status<T> status) {
  wb::device::wait_for_previous_grid();  // launched early: the counter and states are zero, the input written
  constexpr int VEC = 16 / sizeof(T);
  __shared__ copy_barrier arrived[max_single_pass_stages];  // one per stage: its copy has landed
  __shared__ unsigned stage_tile[max_single_pass_stages];   // the tile each stage holds or awaits
  __shared__ T warp_totals[32];                             // this tile's, one per warp
  __shared__ T next_warp_sums[32];                          // the next tile's
  __shared__ T tile_prefix_shared;
  unsigned char* ring = wb::dynamic_shared<unsigned char>();

  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  const int warps = blockDim.x / 32;
  // One thread claims tiles and starts their copies: warp 1's lane 0, so that warp 0 can
  // look back meanwhile (lane 0 itself in a one-warp block).
  const bool producer = threadIdx.x == (warps > 1 ? 32u : 0u);
  const std::int64_t tile_items = static_cast<std::int64_t>(blockDim.x) * V * VEC;
  const unsigned tile_bytes = static_cast<unsigned>(tile_items * sizeof(T));
  auto stage_data = [&](int s) { return ring + static_cast<std::size_t>(s) * tile_bytes; };
  auto moves_in_bulk = [&](std::int64_t t) { return aligned && (t + 1) * tile_items <= n; };
  auto warp_base = [&](std::int64_t t) { return t * tile_items + static_cast<std::int64_t>(warp) * (V * 32 * VEC); };
  // Stage s's j-th tile completes phase j of its barrier; a tile that does not move in bulk
  // (the last, partial one) is read from global memory and needs no wait.
  auto claim_into = [&](int s) {
    const unsigned t = atomicAdd(tile_counter, 1u);
    stage_tile[s] = t;
    if (t < tiles && moves_in_bulk(t)) bulk_copy_to_shared(stage_data(s), in + t * tile_items, tile_bytes, &arrived[s]);
  };
  auto read_tile = [&](thread_items<T, V>& items, int s, std::int64_t t, int use) {
    if (moves_in_bulk(t)) {
      copy_barrier_wait(&arrived[s], static_cast<unsigned>(use));
      items.load_stage(stage_data(s));
    } else {
      items.load_global(in, warp_base(t), n);
    }
  };

  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) copy_barrier_init(&arrived[s]);
  }
  __syncthreads();
  if (producer) {
    for (int s = 0; s < stages; ++s) claim_into(s);
  }
  __syncthreads();
  if (stage_tile[0] >= tiles) return;  // more blocks than tiles

  // The first tile's aggregate, published before the loop (every later tile's is published
  // by the iteration before its own).
  {
    const std::int64_t first = stage_tile[0];
    thread_items<T, V> items;
    read_tile(items, 0, first, 0);
    const T sum = warp_sum(items.sum());
    if (lane == 0) next_warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
      const T aggregate = warp_sum(lane < warps ? next_warp_sums[lane] : T{});
      if (lane == 0 && first != 0) status.publish(first, tile_partial, aggregate);
    }
    __syncthreads();  // next_warp_sums is read before the loop rewrites it
  }

  for (int k = 0;; ++k) {
    const int s = k % stages;
    const std::int64_t tile = stage_tile[s];
    if (tile >= tiles) break;  // the same for every thread of the block
    const int next_s = (k + 1) % stages;
    const std::int64_t next_tile = stage_tile[next_s];

    // The next tile's sum (its copy has had a whole iteration to land).
    T next_sum{};
    if (next_tile < tiles) {
      thread_items<T, V> next_items;
      read_tile(next_items, next_s, next_tile, (k + 1) / stages);
      next_sum = next_items.sum();
    }
    next_sum = warp_sum(next_sum);

    // This tile in registers (its copy was waited for when it was the next tile); scan each
    // run of 32 vectors across the warp.
    thread_items<T, V> items;
    if (moves_in_bulk(tile)) items.load_stage(stage_data(s));
    else items.load_global(in, warp_base(tile), n);
    T lane_prefix[V];  // the lanes before this one, in run j
    T run_prefix[V];   // the runs before run j, in this warp
    T warp_total{};
#pragma unroll
    for (int j = 0; j < V; ++j) {
      T sum = items.x[j][0];
#pragma unroll
      for (int q = 1; q < VEC; ++q) sum = plus(sum, items.x[j][q]);
      const T inclusive = warp_inclusive_scan(sum);
      lane_prefix[j] = warp_exclusive_from_inclusive(inclusive);
      run_prefix[j] = warp_total;
      warp_total = plus(warp_total, __shfl_sync(full_warp, inclusive, 31));
    }
    if (lane == 0) {
      warp_totals[warp] = warp_total;
      next_warp_sums[warp] = next_sum;
    }
    __syncthreads();  // stage s is read (it may be refilled); the warp sums are visible

    if (producer) claim_into(s);
    T warp_prefix{};
    if (warp == 0) {
      // Publish the next tile's aggregate first, then look back for this one.
      const T next_aggregate = warp_sum(lane < warps ? next_warp_sums[lane] : T{});
      if (lane == 0 && next_tile < tiles) status.publish(next_tile, tile_partial, next_aggregate);
      const T aggregate = warp_sum(lane < warps ? warp_totals[lane] : T{});
      const T tile_prefix = tile_look_back(status, tile, aggregate);
      if (lane == 0) tile_prefix_shared = tile_prefix;
    } else {
      warp_prefix = warp_sum(lane < warp ? warp_totals[lane] : T{});
    }
    __syncthreads();  // the tile's prefix

    // Each item's output, then the stores.
    const T thread_prefix = plus(tile_prefix_shared, warp_prefix);
    const std::int64_t base = warp_base(tile);
    const bool vector_stores = moves_in_bulk(tile);
#pragma unroll
    for (int j = 0; j < V; ++j) {
      T running = plus(thread_prefix, plus(run_prefix[j], lane_prefix[j]));
      vector16<T> v;
#pragma unroll
      for (int q = 0; q < VEC; ++q) {
        if (exclusive) {
          v.item[q] = running;
          running = plus(running, items.x[j][q]);
        } else {
          running = plus(running, items.x[j][q]);
          v.item[q] = running;
        }
      }
      const std::int64_t first = base + (j * 32 + lane) * VEC;
      if (vector_stores) {
        // A streaming store (st.global.cs): the output is not read again, so it need not stay
        // in the caches (measured 1-5% faster on an H100 at every size).
        __stcs(reinterpret_cast<uint4*>(out + first), v.raw);
      } else {
#pragma unroll
        for (int q = 0; q < VEC; ++q) {
          if (first + q < n) out[first + q] = v.item[q];
        }
      }
    }
  }
}

}  // namespace scan::WB_TRACK

#include "single_pass_host.inl"  // the host side of stage 6, shared by both tracks
