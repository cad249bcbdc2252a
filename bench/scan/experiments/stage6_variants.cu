// An experiment beside the chapter: variants of stage 6 timed in one process with the
// solution's stage 6, cub::DeviceScan and two copies of the same bytes (cudaMemcpy and a
// 16-byte-vector copy kernel). Every variant's output is compared with CUB's on the device.
// The table of bench/scan/NOTES.md, "What limits stage 6: the look-back", comes from it.
//
//   regs  a persistent grid (as many blocks as fit, tiles from the counter) that keeps two
//         tiles in registers: it issues the loads of its NEXT tile before it looks back for
//         the current one;
//   bulk  a persistent grid whose tiles arrive in shared memory through bulk asynchronous
//         copies (cp.async.bulk, completing on an mbarrier), a ring of S stages per block;
//   lead  bulk, and each tile's aggregate published one iteration early (the iteration that
//         scans the tile before it sums it from its stage): the design of stage 6. "k0" is
//         the stage's look-back (32 predecessors a round); "kK" reads K predecessors a lane,
//         a window of 32K tiles a round (slower).
// regs and bulk publish a tile's aggregate only when the block reaches the tile, after its
// previous look-back; they run at about 0.7x CUB, while without the look-back they move the
// bytes at 95-98% of the copy ("NOLOOKBACK": the tile prefix taken as 0, wrong output).
// Knobs (run time): block size, blocks per SM (0: as many as fit; -1: one block in all),
// stages, a __nanosleep backoff in the look-back's polling, streaming loads/stores (.cs), an L2
// evict-first hint on the bulk copies.
//
// --small: the variants for small inputs (run it from --log2n 12 up). lead with smaller tiles,
// its tile states zeroed five ways: a memset (as the stage); "zk", a zeroing kernel; "zk+pdl",
// that kernel with the scan launched as its programmatic dependent (griddepcontrol), the tiles
// claimed after the wait; "zk+pdl+first", as zk+pdl with each block's first tile blockIdx.x so
// that its copy starts before the wait (defect S4's indexing: right only while every block of
// the grid is running); "memset+zk+pdl", the counter zeroed by a memset before that kernel, so
// that the claims and copies come before the wait. Then the stage's design on one block, and
// "one": a single block scans the whole input in order, a running total from tile to tile, no
// tile states.
//
// Build (cuda backend only): cmake --build build-cuda --target scan_stage6_variants
// Run:   build-cuda/bench/scan/scan_stage6_variants [--log2n 28] [--n N] [--type int32|int64|float]
//                                                    [--exclusive] [--reps 20] [--filter A,B,...] [--quick]
//                                                    [--small]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <cub/device/device_scan.cuh>

#include "bulk_copy.cuh"
#include "scan.hpp"
#include "wb/device/decoupled_lookback.cuh"
#include "wb/device/warp_scan.cuh"
#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"
#include "wb/timing.hpp"

namespace scan::solution {
namespace experiment {

// The pieces of stage 6 the variants are built from: the workbook's warp scan and look-back.
using namespace wb::device;

template <class T>
constexpr int vec_items = 16 / sizeof(T);

// The warps' totals through shared memory, scanned by warp 0 (two barriers): returns the sum
// of the warps before this one and sets block_total.
template <class T>
__device__ __forceinline__ T block_exclusive_scan_of_warp_totals(T warp_total, T& block_total) {
  __shared__ T totals[32];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  const int warps = blockDim.x / 32;
  if (lane == 0) totals[warp] = warp_total;
  __syncthreads();
  if (warp == 0) {
    const T inclusive = warp_inclusive_scan(lane < warps ? totals[lane] : T{});
    totals[lane] = inclusive;
  }
  __syncthreads();
  block_total = totals[warps - 1];
  return warp == 0 ? T{} : totals[warp - 1];
}

// The look-back of tile_lookback.cuh with a __nanosleep between polls of a window that is
// not ready yet (backoff_ns 0: spin, as the stage does).
template <class T>
__device__ T lookback(const tile_status<T>& status, std::int64_t tile, T aggregate, int backoff_ns,
                      bool partial_published = false) {
  const int lane = threadIdx.x & 31;
  if (tile == 0) {
    if (lane == 0) status.publish(0, tile_inclusive, aggregate);
    return T{};
  }
  if (lane == 0 && !partial_published) status.publish(tile, tile_partial, aggregate);
  T exclusive{};
  for (std::int64_t window_end = tile;; window_end -= 32) {
    const std::int64_t predecessor = window_end - 32 + lane;
    unsigned state;
    T value;
    for (;;) {
      if (predecessor < 0) {
        state = tile_inclusive;
        value = T{};
      } else {
        status.read(predecessor, state, value);
      }
      if (!__any_sync(full_warp, state == tile_invalid)) break;
      if (backoff_ns > 0) __nanosleep(backoff_ns);
    }
    const unsigned inclusive_lanes = __ballot_sync(full_warp, state == tile_inclusive);
    const int nearest_inclusive = inclusive_lanes == 0 ? -1 : 31 - __clz(static_cast<int>(inclusive_lanes));
    const T window = warp_sum(lane >= nearest_inclusive ? value : T{});
    exclusive = plus(window, exclusive);
    if (inclusive_lanes != 0) break;
  }
  if (lane == 0) status.publish(tile, tile_inclusive, plus(exclusive, aggregate));
  return exclusive;
}

// The look-back with K predecessors a lane: a window of 32*K tiles a round (lane l looks at
// window_end - 32K + lK + q, q < K). The tile's partial is already published.
template <int K, class T>
__device__ T lookback_wide(const tile_status<T>& status, std::int64_t tile, T aggregate) {
  const int lane = threadIdx.x & 31;
  if (tile == 0) {
    if (lane == 0) status.publish(0, tile_inclusive, aggregate);
    return T{};
  }
  T exclusive{};
  for (std::int64_t window_end = tile;; window_end -= 32 * K) {
    unsigned state[K];
    T value[K];
    bool waiting;
    do {
      waiting = false;
#pragma unroll
      for (int q = 0; q < K; ++q) {
        const std::int64_t predecessor = window_end - 32 * K + lane * K + q;
        if (predecessor < 0) {
          state[q] = tile_inclusive;
          value[q] = T{};
        } else {
          status.read(predecessor, state[q], value[q]);
        }
        waiting = waiting || state[q] == tile_invalid;
      }
    } while (__any_sync(full_warp, waiting));
    int nearest_here = -1;  // this lane's nearest inclusive predecessor (highest q)
#pragma unroll
    for (int q = 0; q < K; ++q) {
      if (state[q] == tile_inclusive) nearest_here = q;
    }
    const unsigned inclusive_lanes = __ballot_sync(full_warp, nearest_here >= 0);
    const int nearest_lane = inclusive_lanes == 0 ? -1 : 31 - __clz(static_cast<int>(inclusive_lanes));
    T mine{};
#pragma unroll
    for (int q = 0; q < K; ++q) {
      if (lane > nearest_lane || (lane == nearest_lane && q >= nearest_here)) mine = plus(mine, value[q]);
    }
    exclusive = plus(warp_sum(mine), exclusive);
    if (inclusive_lanes != 0) break;
  }
  if (lane == 0) status.publish(tile, tile_inclusive, plus(exclusive, aggregate));
  return exclusive;
}

struct knobs {
  std::int64_t tiles;
  bool exclusive;
  int backoff_ns;
  bool streaming;     // ld/st .cs for the data (regs), st .cs (bulk)
  bool evict_first;   // bulk: L2 evict-first policy on the copies
  bool no_lookback;   // measure without the look-back (wrong output)
  int stages;         // bulk: ring depth
  int zeroing;        // lead: 0 memset, 1 a zeroing kernel, 2 that kernel and a programmatic
                      // dependent launch, 3 as 2 with the first tile's copy started before the wait,
                      // 4 the counter zeroed by a memset, the tile states by a zeroing kernel; the
                      // claims and copies start before the wait
};

// Thread-local part of a tile held in registers: vector j of lane l holds the items at
// warp_base + (j*32 + l)*VEC (the stage's layout).
template <class T, int V>
struct tile_regs {
  T x[V][vec_items<T>];
};

template <class T, int V>
__device__ __forceinline__ void load_global(tile_regs<T, V>& r, const T* in, std::int64_t warp_base, bool full,
                                            std::int64_t n, bool streaming) {
  constexpr int VEC = vec_items<T>;
  const int lane = threadIdx.x & 31;
  if (full) {
#pragma unroll
    for (int j = 0; j < V; ++j) {
      vector16<T> v;
      const uint4* p = reinterpret_cast<const uint4*>(in + warp_base + (j * 32 + lane) * VEC);
      v.raw = streaming ? __ldcs(p) : *p;
#pragma unroll
      for (int k = 0; k < VEC; ++k) r.x[j][k] = v.item[k];
    }
  } else {
#pragma unroll
    for (int j = 0; j < V; ++j) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        const std::int64_t i = warp_base + (j * 32 + lane) * VEC + k;
        r.x[j][k] = i < n ? in[i] : T{};
      }
    }
  }
}

// Local scan of the tile in registers (as the stage): per-run lane prefixes, run prefixes and
// the warp total; then the block scan of the warp totals.
template <class T, int V>
struct tile_scan_parts {
  T lane_prefix[V];
  T run_prefix[V];
  T warp_prefix;
  T tile_total;
};

template <class T, int V>
__device__ __forceinline__ void scan_local(const tile_regs<T, V>& r, tile_scan_parts<T, V>& s) {
  constexpr int VEC = vec_items<T>;
  T warp_total{};
#pragma unroll
  for (int j = 0; j < V; ++j) {
    T sum = r.x[j][0];
#pragma unroll
    for (int k = 1; k < VEC; ++k) sum = plus(sum, r.x[j][k]);
    const T inclusive = warp_inclusive_scan(sum);
    s.lane_prefix[j] = warp_exclusive_from_inclusive(inclusive);
    s.run_prefix[j] = warp_total;
    warp_total = plus(warp_total, __shfl_sync(full_warp, inclusive, 31));
  }
  s.warp_prefix = block_exclusive_scan_of_warp_totals(warp_total, s.tile_total);
}

template <class T, int V>
__device__ __forceinline__ void store_tile(const tile_regs<T, V>& r, const tile_scan_parts<T, V>& s, T tile_prefix,
                                           T* out, std::int64_t warp_base, bool full, std::int64_t n, bool exclusive,
                                           bool streaming) {
  constexpr int VEC = vec_items<T>;
  const int lane = threadIdx.x & 31;
  const T thread_prefix = plus(tile_prefix, s.warp_prefix);
#pragma unroll
  for (int j = 0; j < V; ++j) {
    T running = plus(thread_prefix, plus(s.run_prefix[j], s.lane_prefix[j]));
    vector16<T> v;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      if (exclusive) {
        v.item[k] = running;
        running = plus(running, r.x[j][k]);
      } else {
        running = plus(running, r.x[j][k]);
        v.item[k] = running;
      }
    }
    const std::int64_t first = warp_base + (j * 32 + lane) * VEC;
    if (full) {
      uint4* p = reinterpret_cast<uint4*>(out + first);
      if (streaming) __stcs(p, v.raw);
      else *p = v.raw;
    } else {
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        if (first + k < n) out[first + k] = v.item[k];
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// regs: persistent, two tiles in registers, the next tile's loads issued before the look-back.
// ---------------------------------------------------------------------------------------
template <class T, int V>
__device__ __forceinline__ bool regs_step(tile_regs<T, V>& cur, tile_regs<T, V>& next, std::int64_t& tile,
                                          unsigned* claimed, int& parity, T* prefix_shared, const T* in, T* out,
                                          std::int64_t n, unsigned* counter, const tile_status<T>& status,
                                          const knobs& kn) {
  constexpr int VEC = vec_items<T>;
  const int warp = threadIdx.x / 32;
  const std::int64_t tile_items = static_cast<std::int64_t>(blockDim.x) * V * VEC;
  // Claim the next tile early (warp 1's lane 0, so warp 0's look-back does not wait for it);
  // the barriers of the block scan make it visible to every thread.
  if (threadIdx.x == 32) claimed[parity ^ 1] = atomicAdd(counter, 1u);
  tile_scan_parts<T, V> parts;
  scan_local(cur, parts);
  const std::int64_t next_tile = claimed[parity ^ 1];
  if (next_tile < kn.tiles) {
    const std::int64_t base = next_tile * tile_items + static_cast<std::int64_t>(warp) * (V * 32 * VEC);
    load_global(next, in, base, (next_tile + 1) * tile_items <= n, n, kn.streaming);
  }
  if (warp == 0) {
    const T p = kn.no_lookback ? T{} : lookback(status, tile, parts.tile_total, kn.backoff_ns);
    if ((threadIdx.x & 31) == 0) *prefix_shared = p;
  }
  __syncthreads();
  const std::int64_t base = tile * tile_items + static_cast<std::int64_t>(warp) * (V * 32 * VEC);
  store_tile(cur, parts, *prefix_shared, out, base, (tile + 1) * tile_items <= n, n, kn.exclusive, kn.streaming);
  tile = next_tile;
  parity ^= 1;
  return next_tile < kn.tiles;
}

template <class T, int V>
__global__ void regs_kernel(const T* in, T* out, std::int64_t n, unsigned* counter, tile_status<T> status, knobs kn) {
  constexpr int VEC = vec_items<T>;
  __shared__ unsigned claimed[2];
  __shared__ T prefix_shared;
  if (threadIdx.x == 0) claimed[0] = atomicAdd(counter, 1u);
  __syncthreads();
  std::int64_t tile = claimed[0];
  if (tile >= kn.tiles) return;
  const int warp = threadIdx.x / 32;
  const std::int64_t tile_items = static_cast<std::int64_t>(blockDim.x) * V * VEC;
  tile_regs<T, V> a, b;
  load_global(a, in, tile * tile_items + static_cast<std::int64_t>(warp) * (V * 32 * VEC),
              (tile + 1) * tile_items <= n, n, kn.streaming);
  int parity = 0;
  for (;;) {
    if (!regs_step(a, b, tile, claimed, parity, &prefix_shared, in, out, n, counter, status, kn)) break;
    if (!regs_step(b, a, tile, claimed, parity, &prefix_shared, in, out, n, counter, status, kn)) break;
  }
}

// ---------------------------------------------------------------------------------------
// bulk: persistent, tiles in a ring of shared-memory stages filled by cp.async.bulk.
// ---------------------------------------------------------------------------------------
constexpr int max_stages = 8;

// The ring's copies and barriers are stage 6's (bulk_copy.cuh). The one addition here is the
// evict_first knob: the same bulk copy with an L2 hint that the input will not be read again.
__device__ __forceinline__ void bulk_copy_to_shared_evict_first(void* dst, const void* src, unsigned bytes,
                                                                scan::copy_barrier* bar) {
  const unsigned b = scan::detail::shared_address(bar);
  unsigned long long policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;" ::"r"(
          scan::detail::shared_address(dst)),
      "l"(src), "r"(bytes), "r"(b), "l"(policy)
      : "memory");
}
__device__ __forceinline__ void bulk_load(void* dst, const void* src, unsigned bytes, scan::copy_barrier* bar,
                                          bool evict_first) {
  if (evict_first) {
    bulk_copy_to_shared_evict_first(dst, src, bytes, bar);
  } else {
    scan::bulk_copy_to_shared(dst, src, bytes, bar);
  }
}

template <class T, int V>
__global__ void bulk_kernel(const T* in, T* out, std::int64_t n, unsigned* counter, tile_status<T> status, knobs kn) {
  constexpr int VEC = vec_items<T>;
  __shared__ scan::copy_barrier full_bar[max_stages];
  __shared__ unsigned tile_of_stage[max_stages];
  __shared__ T prefix_shared;
  unsigned char* ring = wb::dynamic_shared<unsigned char>();
  const int stages = kn.stages;
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  const std::int64_t tile_items = static_cast<std::int64_t>(blockDim.x) * V * VEC;
  const unsigned tile_bytes = static_cast<unsigned>(tile_items * sizeof(T));
  const bool producer = threadIdx.x == 32;  // warp 1's lane 0 claims tiles and issues the copies

  auto issue = [&](int s, std::int64_t t) {
    if (t < kn.tiles && (t + 1) * tile_items <= n) {  // a full tile: one bulk copy (the last partial one goes item by item)
      bulk_load(ring + static_cast<std::size_t>(s) * tile_bytes, in + t * tile_items, tile_bytes, &full_bar[s],
                kn.evict_first);
    }
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) scan::copy_barrier_init(&full_bar[s]);
  }
  __syncthreads();
  if (producer) {
    for (int s = 0; s < stages; ++s) {
      const unsigned t = atomicAdd(counter, 1u);
      tile_of_stage[s] = t;
      issue(s, t);
    }
  }
  __syncthreads();
  for (int k = 0;; ++k) {
    const int s = k % stages;
    const unsigned parity = (k / stages) & 1;
    const std::int64_t tile = tile_of_stage[s];
    if (tile >= kn.tiles) break;
    const bool full = (tile + 1) * tile_items <= n;
    const std::int64_t warp_base = tile * tile_items + static_cast<std::int64_t>(warp) * (V * 32 * VEC);
    tile_regs<T, V> r;
    if (full) {
      scan::copy_barrier_wait(&full_bar[s], parity);
      const uint4* stage = reinterpret_cast<const uint4*>(ring + static_cast<std::size_t>(s) * tile_bytes) +
                           warp * (V * 32);
#pragma unroll
      for (int j = 0; j < V; ++j) {
        vector16<T> v;
        v.raw = stage[j * 32 + lane];
#pragma unroll
        for (int q = 0; q < VEC; ++q) r.x[j][q] = v.item[q];
      }
    } else {
      load_global(r, in, warp_base, false, n, false);
    }
    unsigned next = 0;
    if (producer) next = atomicAdd(counter, 1u);
    tile_scan_parts<T, V> parts;
    scan_local(r, parts);  // its barriers: every thread has read stage s and tile_of_stage[s]
    if (producer) {
      tile_of_stage[s] = next;
      issue(s, next);
    }
    if (warp == 0) {
      const T p = kn.no_lookback ? T{} : lookback(status, tile, parts.tile_total, kn.backoff_ns);
      if (lane == 0) prefix_shared = p;
    }
    __syncthreads();
    store_tile(r, parts, prefix_shared, out, warp_base, full, n, kn.exclusive, kn.streaming);
  }
}

// bulk-lead: as bulk, but a tile's aggregate is published one iteration early: in the
// iteration that scans tile k the block also sums tile k+1 (already in its stage) and
// publishes it (partial) before it looks back for tile k. A tile's partial then never waits
// for its own block's look-back of the tile before it.
template <class T, int V>
__device__ __forceinline__ T thread_sum_of_tile(const unsigned char* stage, const T* in, std::int64_t tile,
                                                std::int64_t tile_items, bool full, std::int64_t n) {
  constexpr int VEC = vec_items<T>;
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  T sum{};
  if (full) {
    const uint4* p = reinterpret_cast<const uint4*>(stage) + warp * (V * 32);
#pragma unroll
    for (int j = 0; j < V; ++j) {
      vector16<T> v;
      v.raw = p[j * 32 + lane];
#pragma unroll
      for (int q = 0; q < VEC; ++q) sum = plus(sum, v.item[q]);
    }
  } else {
    const std::int64_t warp_base = tile * tile_items + static_cast<std::int64_t>(warp) * (V * 32 * VEC);
#pragma unroll
    for (int j = 0; j < V; ++j) {
#pragma unroll
      for (int q = 0; q < VEC; ++q) {
        const std::int64_t i = warp_base + (j * 32 + lane) * VEC + q;
        if (i < n) sum = plus(sum, in[i]);
      }
    }
  }
  return sum;
}

template <class T, int V, int K>
__global__ void bulk_lead_kernel(const T* in, T* out, std::int64_t n, unsigned* counter, tile_status<T> status,
                                 knobs kn) {
  constexpr int VEC = vec_items<T>;
  __shared__ scan::copy_barrier full_bar[max_stages];
  __shared__ unsigned tile_of_stage[max_stages];
  __shared__ T warp_totals[32];       // this tile's warp totals
  __shared__ T next_warp_sums[32];    // the next tile's warp sums
  __shared__ T first_warp_sums[32];   // the first tile's (prologue)
  __shared__ T prefix_shared;
  unsigned char* ring = wb::dynamic_shared<unsigned char>();
  const int stages = kn.stages;  // at least 2: the tile being scanned and the next one
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  const int warps = blockDim.x / 32;
  const std::int64_t tile_items = static_cast<std::int64_t>(blockDim.x) * V * VEC;
  const unsigned tile_bytes = static_cast<unsigned>(tile_items * sizeof(T));
  const bool producer = threadIdx.x == 32;
  auto stage_ptr = [&](int s) { return ring + static_cast<std::size_t>(s) * tile_bytes; };
  auto is_full = [&](std::int64_t t) { return (t + 1) * tile_items <= n; };
  auto issue = [&](int s, std::int64_t t) {
    if (t < kn.tiles && is_full(t)) {
      bulk_load(stage_ptr(s), in + t * tile_items, tile_bytes, &full_bar[s], kn.evict_first);
    }
  };
  // The k-th use of stage s (k counted per stage) completes phase k of its barrier.
  auto wait_stage = [&](int s, int use) {
    scan::copy_barrier_wait(&full_bar[s], static_cast<unsigned>(use));
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) scan::copy_barrier_init(&full_bar[s]);
  }
  __syncthreads();
  if (kn.zeroing == 3) {
    // The first tile is the block's own (blockIdx.x): its copy starts before the wait for the
    // zeroing kernel; the counter then hands out tiles from gridDim.x on.
    if (producer) {
      tile_of_stage[0] = blockIdx.x;
      issue(0, blockIdx.x);
    }
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (producer) {
      for (int s = 1; s < stages; ++s) {
        const unsigned t = gridDim.x + atomicAdd(counter, 1u);
        tile_of_stage[s] = t;
        issue(s, t);
      }
    }
  } else if (kn.zeroing == 4) {
    // The counter was zeroed by a memset before the zeroing kernel: the claims and copies go
    // ahead; the wait is for the tile states only.
    if (producer) {
      for (int s = 0; s < stages; ++s) {
        const unsigned t = atomicAdd(counter, 1u);
        tile_of_stage[s] = t;
        issue(s, t);
      }
    }
    asm volatile("griddepcontrol.wait;" ::: "memory");
  } else {
    asm volatile("griddepcontrol.wait;" ::: "memory");  // a no-op unless launched dependent
    if (producer) {
      for (int s = 0; s < stages; ++s) {
        const unsigned t = atomicAdd(counter, 1u);
        tile_of_stage[s] = t;
        issue(s, t);
      }
    }
  }
  __syncthreads();
  // Prologue: the first tile's aggregate, published.
  {
    const std::int64_t t0 = tile_of_stage[0];
    if (t0 >= kn.tiles) return;
    if (is_full(t0)) wait_stage(0, 0);
    const T sum = warp_sum(thread_sum_of_tile<T, V>(stage_ptr(0), in, t0, tile_items, is_full(t0), n));
    if (lane == 0) first_warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
      const T total = warp_sum(lane < warps ? first_warp_sums[lane] : T{});
      if (lane == 0 && t0 != 0 && !kn.no_lookback) status.publish(t0, tile_partial, total);
    }
  }
  for (int k = 0;; ++k) {
    const int s = k % stages;
    const std::int64_t tile = tile_of_stage[s];
    if (tile >= kn.tiles) break;
    const int s1 = (k + 1) % stages;
    const std::int64_t next_tile = tile_of_stage[s1];
    // (a) the next tile's sum (its data has had a whole iteration to arrive).
    T next_sum{};
    if (next_tile < kn.tiles) {
      const bool next_full = is_full(next_tile);
      if (next_full) wait_stage(s1, (k + 1) / stages);
      next_sum = thread_sum_of_tile<T, V>(stage_ptr(s1), in, next_tile, tile_items, next_full, n);
    }
    next_sum = warp_sum(next_sum);
    // (b) this tile (waited for in the previous iteration or the prologue): registers, warp scans.
    const bool full = is_full(tile);
    const std::int64_t warp_base = tile * tile_items + static_cast<std::int64_t>(warp) * (V * 32 * VEC);
    tile_regs<T, V> r;
    if (full) {
      const uint4* p = reinterpret_cast<const uint4*>(stage_ptr(s)) + warp * (V * 32);
#pragma unroll
      for (int j = 0; j < V; ++j) {
        vector16<T> v;
        v.raw = p[j * 32 + lane];
#pragma unroll
        for (int q = 0; q < VEC; ++q) r.x[j][q] = v.item[q];
      }
    } else {
      load_global(r, in, warp_base, false, n, false);
    }
    tile_scan_parts<T, V> parts;
    T warp_total{};
#pragma unroll
    for (int j = 0; j < V; ++j) {
      T sum = r.x[j][0];
#pragma unroll
      for (int q = 1; q < VEC; ++q) sum = plus(sum, r.x[j][q]);
      const T inclusive = warp_inclusive_scan(sum);
      parts.lane_prefix[j] = warp_exclusive_from_inclusive(inclusive);
      parts.run_prefix[j] = warp_total;
      warp_total = plus(warp_total, __shfl_sync(full_warp, inclusive, 31));
    }
    if (lane == 0) {
      warp_totals[warp] = warp_total;
      next_warp_sums[warp] = next_sum;
    }
    __syncthreads();  // (A) stage s is read: it can be refilled; the sums are visible
    if (producer) {
      const unsigned t = (kn.zeroing == 3 ? gridDim.x : 0u) + atomicAdd(counter, 1u);
      tile_of_stage[s] = t;
      issue(s, t);
    }
    if (warp == 0) {
      const T next_total = warp_sum(lane < warps ? next_warp_sums[lane] : T{});
      if (lane == 0 && next_tile < kn.tiles && !kn.no_lookback) status.publish(next_tile, tile_partial, next_total);
      const T total = warp_sum(lane < warps ? warp_totals[lane] : T{});
      const T p = kn.no_lookback ? T{}
                  : K == 0 ? lookback(status, tile, total, kn.backoff_ns, true)
                           : lookback_wide<(K > 0 ? K : 1)>(status, tile, total);
      if (lane == 0) prefix_shared = p;
      parts.warp_prefix = T{};
    } else {
      parts.warp_prefix = warp_sum(lane < warp ? warp_totals[lane] : T{});
    }
    __syncthreads();  // (B) the tile's prefix
    store_tile(r, parts, prefix_shared, out, warp_base, full, n, kn.exclusive, kn.streaming);
  }
}

// one: a single block scans every tile in order, a running total carried from tile to tile:
// no tile counter, no tile states, so no memset before it, one launch in all. The next tile's
// loads are issued before the current tile is scanned.
template <class T, int V>
__global__ void one_block_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles, bool exclusive,
                                 bool streaming) {
  constexpr int VEC = vec_items<T>;
  const std::int64_t tile_items = static_cast<std::int64_t>(blockDim.x) * V * VEC;
  const std::int64_t warp_offset = static_cast<std::int64_t>(threadIdx.x / 32) * (V * 32 * VEC);
  auto base = [&](std::int64_t t) { return t * tile_items + warp_offset; };
  auto full = [&](std::int64_t t) { return (t + 1) * tile_items <= n; };
  tile_regs<T, V> a, b;
  load_global(a, in, base(0), full(0), n, streaming);
  T carry{};
  for (std::int64_t t = 0; t < tiles; t += 2) {
    if (t + 1 < tiles) load_global(b, in, base(t + 1), full(t + 1), n, streaming);
    tile_scan_parts<T, V> p;
    scan_local(a, p);
    store_tile(a, p, carry, out, base(t), full(t), n, exclusive, streaming);
    carry = plus(carry, p.tile_total);
    __syncthreads();  // the warp totals are read before the next scan rewrites them
    if (t + 1 >= tiles) break;
    if (t + 2 < tiles) load_global(a, in, base(t + 2), full(t + 2), n, streaming);
    scan_local(b, p);
    store_tile(b, p, carry, out, base(t + 1), full(t + 1), n, exclusive, streaming);
    carry = plus(carry, p.tile_total);
    __syncthreads();
  }
}

// Zeroes the look-back's state; lets a dependent launch start at once (it waits for this
// grid's completion at its griddepcontrol.wait).
__global__ void zero_words(unsigned* words, std::int64_t count) {
  asm volatile("griddepcontrol.launch_dependents;");
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    words[i] = 0;
}

// A copy kernel: 16-byte vectors, grid-stride, four in flight per thread.
__global__ void copy_kernel(const uint4* in, uint4* out, std::int64_t vectors) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < vectors; i += 4 * stride) {
    const uint4 a = in[i], b = in[i + stride], c = in[i + 2 * stride], d = in[i + 3 * stride];
    out[i] = a;
    out[i + stride] = b;
    out[i + 2 * stride] = c;
    out[i + 3 * stride] = d;
  }
  for (; i < vectors; i += stride) out[i] = in[i];
}

template <class T>
__global__ void count_mismatches(const T* got, const T* want, std::int64_t n, unsigned long long* bad) {
  unsigned long long local = 0;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if constexpr (std::is_integral_v<T>) {
      local += got[i] != want[i];
    } else {
      const double g = got[i], w = want[i];
      local += !(fabs(g - w) <= 1e-3 * fabs(w) + 1e-3);  // NaN fails
    }
  }
  if (local) atomicAdd(bad, local);
}

template <class T>
__global__ void fill_random(T* x, std::int64_t n, unsigned seed) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    unsigned long long h = (static_cast<unsigned long long>(i) + seed) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    if constexpr (std::is_integral_v<T>) x[i] = static_cast<T>(h);
    else x[i] = static_cast<T>((h >> 40) * (1.0 / (1ull << 24)));  // [0, 1)
  }
}

}  // namespace experiment
}  // namespace scan::solution

namespace {

using namespace scan;
using namespace scan::solution;
using namespace scan::solution::experiment;

struct variant {
  std::string name;
  std::function<void()> run;
  bool checks = true;  // nolookback variants write wrong output on purpose
};

struct options {
  std::int64_t n = std::int64_t{1} << 28;
  std::string type = "int32";
  bool exclusive = false;
  int reps = 20;
  std::string filter;
  bool quick = false;
  bool small = false;  // the variants for small inputs
};

template <class T>
int run_all(const options& o) {
  const std::int64_t n = o.n;
  cudaDeviceProp prop{};
  WB_CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  wb::device_buffer<T> in(n), out(n), ref(n);
  experiment::fill_random<<<sms * 8, 256>>>(in.data(), n, 12345u);
  WB_CHECK(cudaGetLastError());
  // Workspace: counter (16 B) + status words for the smallest tiles (32 x 16 B per thread... generous).
  const std::size_t status_bytes = 16 + static_cast<std::size_t>(n / 32 + 64) * 16;
  wb::device_buffer<unsigned char> ws_bytes(status_bytes + 4096);
  wb::device_buffer<unsigned long long> bad(1);

  std::size_t cub_bytes = 0;
  if (o.exclusive) WB_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, cub_bytes, in.data(), ref.data(), n));
  else WB_CHECK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in.data(), ref.data(), n));
  wb::device_buffer<unsigned char> cub_temp(cub_bytes + 16);
  auto cub_run = [&](T* dst) {
    if (o.exclusive) WB_CHECK(cub::DeviceScan::ExclusiveSum(cub_temp.data(), cub_bytes, in.data(), dst, n));
    else WB_CHECK(cub::DeviceScan::InclusiveSum(cub_temp.data(), cub_bytes, in.data(), dst, n));
  };
  cub_run(ref.data());
  WB_CHECK(cudaDeviceSynchronize());

  // The solution's stage 6 with its own workspace (sized for the smallest tiles it runs here).
  const int stage_items = 128 / static_cast<int>(sizeof(T));
  workspace_buffer<T> stage_ws(n, config{256, stage_items, o.exclusive});
  auto stage6 = [&](int block, int items) {
    config cfg;
    cfg.block = block;
    cfg.items_per_thread = items;
    cfg.exclusive = o.exclusive;
    return variant{"stage6 b" + std::to_string(block) + " i" + std::to_string(items),
                   [&, cfg] { scan_single_pass<T>(in.data(), out.data(), n, stage_ws.view(), cfg); }};
  };

  auto zero_and_status = [&](std::int64_t tiles) {
    unsigned* counter = reinterpret_cast<unsigned*>(ws_bytes.data());
    WB_CHECK(cudaMemsetAsync(ws_bytes.data(), 0, 16 + static_cast<std::size_t>(tiles) * 16));
    carver pieces(workspace{ws_bytes.data(), ws_bytes.size()}, "experiment");
    pieces.take<unsigned>(4);
    return std::make_pair(counter, tile_status<T>::carve(pieces, tiles));
  };

  struct shape {
    int block, bps, stages, backoff;
    bool streaming, evict_first, no_lookback;
  };
  auto describe = [](const char* kind, int V, const shape& s) {
    std::string d = std::string(kind) + " v" + std::to_string(V) + " b" + std::to_string(s.block) + " bps" +
                    std::to_string(s.bps);
    if (std::string(kind) != "regs") d += " s" + std::to_string(s.stages);
    if (s.backoff) d += " sleep" + std::to_string(s.backoff);
    if (s.streaming) d += " cs";
    if (s.evict_first) d += " evict";
    if (s.no_lookback) d += " NOLOOKBACK";
    return d;
  };

  // The grid of a persistent kernel: blocks per SM (at most what fits) times the SMs, at most
  // one block per tile. Worked out when the variant is made, outside the timed runs.
  auto persistent_grid = [&](const void* kernel, int block, std::size_t smem, int bps, std::int64_t tiles) {
    if (smem > 0)
      WB_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    int occ = 0;
    WB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, block, smem));
    if (bps < 0 && occ > 0) return std::int64_t{1};  // bps -1: one block for the whole input
    const int per_sm = bps > 0 ? std::min(bps, occ) : occ;
    return std::min<std::int64_t>(tiles, static_cast<std::int64_t>(per_sm) * sms);
  };
  auto regs = [&]<int V>(std::integral_constant<int, V>, shape s) {
    const std::int64_t tile_items = static_cast<std::int64_t>(s.block) * V * vec_items<T>;
    const std::int64_t tiles = (n + tile_items - 1) / tile_items;
    const std::int64_t grid =
        persistent_grid(reinterpret_cast<const void*>(regs_kernel<T, V>), s.block, 0, s.bps, tiles);
    return variant{describe("regs", V, s) + " g" + std::to_string(grid),
                   [&, s, tiles, grid] {
                     auto [counter, status] = zero_and_status(tiles);
                     knobs kn{tiles, o.exclusive, s.backoff, s.streaming, false, s.no_lookback, 0, 0};
                     wb::launch({dim3(static_cast<unsigned>(grid)), dim3(s.block)}, regs_kernel<T, V>, in.data(),
                                out.data(), n, counter, status, kn);
                   },
                   !s.no_lookback};
  };
  auto bulk = [&]<int V>(std::integral_constant<int, V>, shape s) {
    const std::int64_t tile_items = static_cast<std::int64_t>(s.block) * V * vec_items<T>;
    const std::int64_t tiles = (n + tile_items - 1) / tile_items;
    const std::size_t smem = static_cast<std::size_t>(s.stages) * tile_items * sizeof(T);
    const std::int64_t grid =
        persistent_grid(reinterpret_cast<const void*>(bulk_kernel<T, V>), s.block, smem, s.bps, tiles);
    return variant{describe("bulk", V, s) + " g" + std::to_string(grid),
                   [&, s, tiles, grid, smem] {
                     if (grid == 0) throw std::runtime_error("does not fit on an SM");
                     auto [counter, status] = zero_and_status(tiles);
                     knobs kn{tiles, o.exclusive, s.backoff, s.streaming, s.evict_first, s.no_lookback, s.stages, 0};
                     wb::launch({dim3(static_cast<unsigned>(grid)), dim3(s.block), smem}, bulk_kernel<T, V>, in.data(),
                                out.data(), n, counter, status, kn);
                   },
                   !s.no_lookback};
  };
  auto bulk_lead = [&]<int V, int K>(std::integral_constant<int, V>, std::integral_constant<int, K>, shape s,
                                     int zeroing = 0) {
    const std::int64_t tile_items = static_cast<std::int64_t>(s.block) * V * vec_items<T>;
    const std::int64_t tiles = (n + tile_items - 1) / tile_items;
    const std::size_t smem = static_cast<std::size_t>(s.stages) * tile_items * sizeof(T);
    const std::int64_t grid =
        persistent_grid(reinterpret_cast<const void*>(bulk_lead_kernel<T, V, K>), s.block, smem, s.bps, tiles);
    static const char* zeroing_names[] = {"", " zk", " zk+pdl", " zk+pdl+first", " memset+zk+pdl"};
    return variant{describe("lead", V, s) + " k" + std::to_string(K) + " g" + std::to_string(grid) +
                       zeroing_names[zeroing],
                   [&, s, tiles, grid, smem, zeroing] {
                     if (grid == 0) throw std::runtime_error("does not fit on an SM");
                     unsigned* counter = reinterpret_cast<unsigned*>(ws_bytes.data());
                     const std::int64_t words = 4 + tiles * 4;
                     if (zeroing == 0) {
                       WB_CHECK(cudaMemsetAsync(ws_bytes.data(), 0, words * 4));
                     } else {
                       // Mode 4: the counter (the first 4 words) by a memset, the rest by the kernel.
                       const std::int64_t first = zeroing == 4 ? 4 : 0;
                       if (first > 0) WB_CHECK(cudaMemsetAsync(ws_bytes.data(), 0, first * 4));
                       wb::launch({dim3(static_cast<unsigned>(std::min<std::int64_t>(sms, (words + 255) / 256))),
                                   dim3(256)},
                                  zero_words, counter + first, words - first);
                     }
                     carver pieces(workspace{ws_bytes.data(), ws_bytes.size()}, "experiment");
                     pieces.take<unsigned>(4);
                     const auto status = tile_status<T>::carve(pieces, tiles);
                     knobs kn{tiles, o.exclusive, s.backoff, s.streaming, s.evict_first, s.no_lookback, s.stages,
                              zeroing};
                     if (zeroing >= 2) {
                       cudaLaunchConfig_t lc{};
                       lc.gridDim = dim3(static_cast<unsigned>(grid));
                       lc.blockDim = dim3(s.block);
                       lc.dynamicSmemBytes = smem;
                       lc.stream = 0;
                       cudaLaunchAttribute attr[1];
                       attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
                       attr[0].val.programmaticStreamSerializationAllowed = 1;
                       lc.attrs = attr;
                       lc.numAttrs = 1;
                       WB_CHECK(cudaLaunchKernelEx(&lc, bulk_lead_kernel<T, V, K>, static_cast<const T*>(in.data()),
                                                   out.data(), n, counter, status, kn));
                     } else {
                       wb::launch({dim3(static_cast<unsigned>(grid)), dim3(s.block), smem}, bulk_lead_kernel<T, V, K>,
                                  in.data(), out.data(), n, counter, status, kn);
                     }
                   },
                   !s.no_lookback};
  };
  auto one_block = [&]<int V>(std::integral_constant<int, V>, int block, bool streaming) {
    const std::int64_t tile_items = static_cast<std::int64_t>(block) * V * vec_items<T>;
    const std::int64_t tiles = (n + tile_items - 1) / tile_items;
    return variant{"one v" + std::to_string(V) + " b" + std::to_string(block) + (streaming ? " cs" : ""),
                   [&, block, tiles, streaming] {
                     wb::launch({dim3(1), dim3(block)}, one_block_kernel<T, V>, in.data(), out.data(), n, tiles,
                                o.exclusive, streaming);
                   }};
  };
  using I1 = std::integral_constant<int, 1>;
  using I2 = std::integral_constant<int, 2>;
  using I4 = std::integral_constant<int, 4>;
  using I8 = std::integral_constant<int, 8>;

  std::vector<variant> vs;
  vs.push_back({"memcpy", [&] {
                  WB_CHECK(cudaMemcpyAsync(out.data(), in.data(), n * sizeof(T), cudaMemcpyDeviceToDevice));
                }, false});
  vs.push_back({"copy kernel", [&] {
                  const std::int64_t vectors = n * static_cast<std::int64_t>(sizeof(T)) / 16;
                  wb::launch({dim3(sms * 8), dim3(256)}, copy_kernel, reinterpret_cast<const uint4*>(in.data()),
                             reinterpret_cast<uint4*>(out.data()), vectors);
                }, false});
  vs.push_back({"cub", [&] { cub_run(out.data()); }});
  vs.push_back(stage6(256, stage_items));
  vs.push_back(stage6(512, stage_items));
  vs.push_back(stage6(1024, stage_items / 2));
  auto plain = [](int block, int bps, int stages) { return shape{block, bps, stages, 0, false, false, false}; };
  using K0 = std::integral_constant<int, 0>;  // the stage's look-back (32 predecessors a round, a backoff knob)
  using K1 = std::integral_constant<int, 1>;
  using K2 = std::integral_constant<int, 2>;
  using K4 = std::integral_constant<int, 4>;
  if (o.small) {
    for (int z : {0, 1, 2, 3, 4}) {
      vs.push_back(bulk_lead(I8{}, K0{}, plain(256, 0, 2), z));
      vs.push_back(bulk_lead(I4{}, K0{}, plain(256, 0, 2), z));
      vs.push_back(bulk_lead(I2{}, K0{}, plain(256, 0, 2), z));
    }
    vs.push_back(bulk_lead(I8{}, K0{}, plain(512, -1, 3)));  // the stage's design on one block
    vs.push_back(one_block(I8{}, 512, false));
  } else if (o.quick) {
    vs.push_back(bulk_lead(I8{}, K0{}, plain(512, 0, 2)));
    vs.push_back(bulk_lead(I8{}, K4{}, plain(512, 0, 2)));
    vs.push_back(bulk_lead(I8{}, K4{}, plain(256, 0, 2)));
  } else {
    // Persistent without the lead (the aggregate published when the block reaches the tile).
    vs.push_back(regs(I8{}, plain(256, 0, 0)));
    vs.push_back(bulk(I8{}, plain(512, 0, 2)));
    // bulk-lead: tile bytes = block * V * 16; stages; blocks per SM (0: as many as fit); K.
    vs.push_back(bulk_lead(I8{}, K0{}, plain(512, 0, 2)));
    vs.push_back(bulk_lead(I8{}, K1{}, plain(512, 0, 2)));
    vs.push_back(bulk_lead(I8{}, K2{}, plain(512, 0, 2)));
    vs.push_back(bulk_lead(I8{}, K4{}, plain(512, 0, 2)));
    vs.push_back(bulk_lead(I8{}, K4{}, plain(512, 0, 3)));
    vs.push_back(bulk_lead(I8{}, K0{}, plain(256, 0, 2)));
    vs.push_back(bulk_lead(I8{}, K2{}, plain(256, 0, 2)));
    vs.push_back(bulk_lead(I8{}, K4{}, plain(256, 0, 2)));
    vs.push_back(bulk_lead(I8{}, K4{}, plain(256, 0, 3)));
    vs.push_back(bulk_lead(I8{}, K4{}, plain(256, 1, 2)));
    vs.push_back(bulk_lead(I8{}, K4{}, plain(256, 1, 4)));
    vs.push_back(bulk_lead(I8{}, K4{}, plain(256, 2, 2)));
    vs.push_back(bulk_lead(I8{}, K0{}, plain(128, 0, 2)));
    vs.push_back(bulk_lead(I8{}, K4{}, plain(128, 0, 2)));
    vs.push_back(bulk_lead(I4{}, K0{}, plain(1024, 0, 2)));
    vs.push_back(bulk_lead(I4{}, K4{}, plain(1024, 0, 2)));
    vs.push_back(bulk_lead(I4{}, K4{}, plain(512, 0, 2)));
    vs.push_back(bulk_lead(I4{}, K4{}, plain(256, 0, 2)));
    vs.push_back(bulk_lead(I4{}, K4{}, plain(256, 0, 3)));
    vs.push_back(bulk_lead(I8{}, K4{}, {512, 0, 2, 0, true, false, false}));
    vs.push_back(bulk_lead(I8{}, K4{}, {512, 0, 2, 0, false, false, true}));
  }

  const double bytes = 2.0 * static_cast<double>(n) * sizeof(T);
  double cub_ms = 0, memcpy_ms = 0;
  std::printf("%s scan of %lld %s (2 x %.0f MB), %s, %d SMs\n", o.exclusive ? "exclusive" : "inclusive",
              static_cast<long long>(n), o.type.c_str(), n * sizeof(T) / 1e6, prop.name, sms);
  std::printf("%-44s %10s %9s %8s %8s %s\n", "variant", "median_ms", "GB/s", "%copy", "vs_cub", "check");
  int failures = 0;
  for (const auto& v : vs) {
    if (!o.filter.empty() && v.name != "memcpy" && v.name != "cub") {
      bool match = false;  // --filter "a,b": names containing a or b
      for (std::size_t start = 0; start <= o.filter.size();) {
        const std::size_t comma = std::min(o.filter.find(',', start), o.filter.size());
        const std::string part = o.filter.substr(start, comma - start);
        if (!part.empty() && v.name.find(part) != std::string::npos) match = true;
        start = comma + 1;
      }
      if (!match) continue;
    }
    try {
      WB_CHECK(cudaMemset(out.data(), 0xA5, n * sizeof(T)));
      v.run();
      WB_CHECK(cudaDeviceSynchronize());
      std::string check = "-";
      if (v.checks) {
        WB_CHECK(cudaMemset(bad.data(), 0, sizeof(unsigned long long)));
        experiment::count_mismatches<T><<<sms * 4, 256>>>(out.data(), ref.data(), n, bad.data());
        WB_CHECK(cudaGetLastError());
        const auto b = bad.to_host()[0];
        check = b == 0 ? "ok" : "WRONG(" + std::to_string(b) + ")";
        if (b != 0) ++failures;
      }
      wb::timing_options to;
      to.reps = o.reps;
      const auto t = wb::time_gpu(v.run, to);
      if (v.name == "memcpy") memcpy_ms = t.median_ms;
      if (v.name == "cub") cub_ms = t.median_ms;
      std::printf("%-44s %10.4f %9.1f %7.1f%% %7.3fx %s\n", v.name.c_str(), t.median_ms, bytes / t.median_ms / 1e6,
                  memcpy_ms > 0 ? 100.0 * memcpy_ms / t.median_ms : 0.0, cub_ms > 0 ? cub_ms / t.median_ms : 0.0,
                  check.c_str());
      std::fflush(stdout);
    } catch (const std::exception& e) {
      std::printf("%-44s error: %s\n", v.name.c_str(), e.what());
      (void)cudaGetLastError();
    }
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--log2n") o.n = std::int64_t{1} << std::stoi(next());
    else if (a == "--n") o.n = std::stoll(next());
    else if (a == "--type") o.type = next();
    else if (a == "--exclusive") o.exclusive = true;
    else if (a == "--reps") o.reps = std::stoi(next());
    else if (a == "--filter") o.filter = next();
    else if (a == "--quick") o.quick = true;
    else if (a == "--small") o.small = true;
    else {
      std::fprintf(stderr, "error: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (o.n < 1) {
    std::fprintf(stderr, "error: n must be positive\n");
    return 2;
  }
  if (o.type == "int32") return run_all<std::int32_t>(o);
  if (o.type == "int64") return run_all<std::int64_t>(o);
  if (o.type == "float") return run_all<float>(o);
  std::fprintf(stderr, "error: --type int32|int64|float\n");
  return 2;
}
