// Stage 6, device-wide piece: the merge-path partition pass.
//
// Tile t of the output is C[t * tile_items, (t+1) * tile_items). Its inputs start at
// A[partitions[t]] and B[t * tile_items - partitions[t]]. One thread co-ranks one tile
// boundary, all at once, in a small kernel of its own: the merge kernel then starts with its
// inputs known, instead of each block waiting on two chains of ~log2(m+n) dependent global
// loads (what stage 5 does). The pass lasts as long as its slowest search, so it uses the
// lower-bound form of co_rank: the same answer in a fixed number of cheap steps.
#pragma once

#include <cstdint>

#include "wb/device/grid_dependency.cuh"
#include "wb/kernel.hpp"

#include "co_rank_lower_bound.cuh"
#include "index_math.hpp"

namespace merge::WB_TRACK {

template <class K>
__global__ void merge_path_partition_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n,
                                            std::int64_t tile_items, std::int64_t num_partitions,
                                            std::int64_t* partitions) {
  const std::int64_t t = wb::global_thread_index();
  if (t < num_partitions) partitions[t] = co_rank_lower_bound(min_of(t * tile_items, m + n), A, m, B, n);
}

// ---- The sampled partition pass (stage 6's default; timed by bench/merge/experiments/stage6_variants.cu) ----
// The pass above makes ~28 steps per search, each two loads from far-apart places in A and B:
// about 2M scattered DRAM reads at m = n = 2^27, 8% of stage 6's time. Because the tile size
// is a multiple of a power of two S (512 for every default shape), every tile boundary k is a
// multiple of S, and at every i = S*q the search's test B[k-1-i] < A[i] reads A[S*q] and
// B[S*(k/S - q) - 1], elements of two fixed grids of step S. So:
//   1. sample_grid_kernel copies the grids into two small arrays, A_s[q] = A[S*q] and
//      B_s[r] = B[S*(r+1) - 1] (2 MB for S = 512 and 2^27 int32 keys each: they stay in L2);
//   2. coarse_fine_partition_kernel finds the first grid point where the test holds, reading
//      only the samples, then the answer within the S positions below it in A and B (log2 S
//      steps, the last few inside one 32-byte sector).
// Same answer as co_rank_lower_bound; measured on an H100, the pass takes 0.051 ms instead of
// 0.064 ms (int32) and 0.073 instead of 0.124 (int64).

// Sample counts for a grid of step 2^log2_step.
__host__ __device__ inline std::int64_t a_samples(std::int64_t m, int log2_step) {
  return (m + (std::int64_t{1} << log2_step) - 1) >> log2_step;
}
__host__ __device__ inline std::int64_t b_samples(std::int64_t n, int log2_step) { return n >> log2_step; }

template <class K>
__global__ void sample_grid_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n, int log2_step, K* A_s,
                                   K* B_s) {
  wb::device::wait_for_previous_grid();  // launched early (at_bandwidth.cu): A and B may still be in flight
  const std::int64_t A_count = a_samples(m, log2_step);
  const std::int64_t B_count = b_samples(n, log2_step);
  for (std::int64_t q = wb::global_thread_index(); q < A_count || q < B_count; q += wb::grid_thread_count()) {
    if (q < A_count) A_s[q] = A[q << log2_step];
    if (q < B_count) B_s[q] = B[((q + 1) << log2_step) - 1];
  }
}

template <class K>
__global__ void coarse_fine_partition_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n, const K* A_s,
                                             const K* B_s, int log2_step, std::int64_t tile_items,
                                             std::int64_t num_partitions, std::int64_t* partitions) {
  wb::device::wait_for_previous_grid();  // launched early: the samples are the kernel ahead's
  const std::int64_t t = wb::global_thread_index();
  if (t >= num_partitions) return;
  const std::int64_t S = std::int64_t{1} << log2_step;
  const std::int64_t k = min_of(t * tile_items, m + n);
  if ((k & (S - 1)) != 0) {  // only the last boundary, m + n, can be off the grid
    partitions[t] = co_rank_lower_bound(k, A, m, B, n);
    return;
  }
  const std::int64_t lo = max_of<std::int64_t>(0, k - n);  // the answer lies in [lo, hi]
  const std::int64_t hi = min_of(k, m);
  // 1. Coarse: the first grid point i = S*q in [lo, hi) where the test holds (q = q_end if
  // none). There, B[k-1-i] is B[S*(k/S - q) - 1] = B_s[k/S - q - 1].
  const std::int64_t k_steps = k >> log2_step;
  const std::int64_t q_begin = (lo + S - 1) >> log2_step;
  const std::int64_t q_end = (hi + S - 1) >> log2_step;
  std::int64_t q_low = q_begin;
  std::int64_t q_high = q_end;
  while (q_low < q_high) {
    const std::int64_t q = q_low + (q_high - q_low) / 2;
    if (B_s[k_steps - q - 1] < A_s[q]) {
      q_high = q;
    } else {
      q_low = q + 1;
    }
  }
  // 2. Fine: the answer is after the last grid point where the test failed and at or before
  // the first where it held; a lower bound over those positions of A and B.
  const std::int64_t low = q_low > q_begin ? ((q_low - 1) << log2_step) + 1 : lo;
  const std::int64_t high = q_low < q_end ? q_low << log2_step : hi;
  partitions[t] = co_rank_lower_bound_within(k, A, B, low, high);
}

// log2 of the grid step for tiles of tile_items outputs: the largest power of two dividing
// tile_items, at most 512 (measured: 512 beat 256 and 128); 0 when below 32 (use the plain pass).
inline int sampled_partition_log2_step(std::int64_t tile_items) {
  int log2_step = 0;
  while (log2_step < 9 && tile_items % (std::int64_t{2} << log2_step) == 0) ++log2_step;
  return log2_step >= 5 ? log2_step : 0;
}

}  // namespace merge::WB_TRACK
