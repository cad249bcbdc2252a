// Stage 6, thread-level piece: co_rank (stage 1) as a lower-bound binary search.
//
// The same answer as co_rank - the i of the stable split of output rank k - found another
// way. For i in [max(0, k-n), min(k, m)] the test "B[k-1-i] < A[i]" (B's last element taken
// comes strictly before A's first element left) is false up to the answer and true from it
// on: the answer is the first i where it holds. A plain lower bound finds it in exactly
// ceil(log2(range + 1)) steps, each one comparison of two independent loads.
//
// Why stage 6 uses this instead of the book's search: the book's search moves i first to
// min(k, m) and then by halves, with two different tests of up to four dependent loads; it
// ends early when a probe lands on the answer (two steps for evenly interleaved inputs) but
// needs ~log2(k) steps otherwise, and how many depends on the data. A pass whose time is its
// slowest search (the partition pass is one wave of threads) wants the fixed, cheap steps.
#pragma once

#include <cstdint>

#include "index_math.hpp"

namespace merge::WB_TRACK {

// The search itself, over a range [low, high] already known to hold the answer (the whole
// range for co_rank_lower_bound below; the S positions under a grid point for stage 6's
// sampled partition pass, partition.cuh).
template <class K, class Index>
__host__ __device__ inline Index co_rank_lower_bound_within(Index k, const K* A, const K* B, Index low, Index high) {
  while (low < high) {
    const Index mid = low + (high - low) / 2;  // low <= mid < high: A[mid] and B[k-1-mid] exist
    if (B[k - 1 - mid] < A[mid]) {
      high = mid;  // the test holds at mid: the answer is mid or below
    } else {
      low = mid + 1;  // B[k-1-mid] >= A[mid]: on a tie A[mid] goes first, so i > mid (M3's rule)
    }
  }
  return low;
}

template <class K, class Index>
__host__ __device__ inline Index co_rank_lower_bound(Index k, const K* A, Index m, const K* B, Index n) {
  // The answer lies in [max(0, k-n), min(k, m)].
  return co_rank_lower_bound_within(k, A, B, max_of<Index>(0, k - n), min_of(k, m));
}

}  // namespace merge::WB_TRACK
