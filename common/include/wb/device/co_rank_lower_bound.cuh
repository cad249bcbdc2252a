// Thread-level merge piece: the co-rank of an output position (PMPP §12.3) as a lower-bound
// binary search.
//
// co_rank(k) is the i of the stable split of output rank k: the first k outputs of the merge
// of A and B are A[0, i) and B[0, k - i). For i in [max(0, k-n), min(k, m)] the test
// "B[k-1-i] < A[i]" (B's last element taken comes strictly before A's first element left) is
// false up to the answer and true from it on: the answer is the first i where it holds. A
// plain lower bound finds it in exactly ceil(log2(range + 1)) steps, each one comparison of
// two independent loads, whatever the data: what a pass whose time is its slowest search wants.
//
// The merge chapter teaches it in its stage 6 (your exercises/merge/co_rank_lower_bound.cuh);
// the sort chapter's merge sort uses it.
#pragma once

#include "wb/device/min_max.hpp"
#include "wb/runtime.hpp"

namespace wb::device {

// The search itself, over a range [low, high] already known to hold the answer (the whole
// range for co_rank_lower_bound below; a narrower one after a coarse search on samples).
template <class K, class Index>
__host__ __device__ inline Index co_rank_lower_bound_within(Index k, const K* A, const K* B, Index low, Index high) {
  while (low < high) {
    const Index mid = low + (high - low) / 2;  // low <= mid < high: A[mid] and B[k-1-mid] exist
    if (B[k - 1 - mid] < A[mid]) {
      high = mid;  // the test holds at mid: the answer is mid or below
    } else {
      // B[k-1-mid] >= A[mid]: on a tie A[mid] goes first, so i > mid (stability; the merge
      // chapter's defect M3 is this test made strict)
      low = mid + 1;
    }
  }
  return low;
}

// co_rank(k) for A[0, m) and B[0, n).
template <class K, class Index>
__host__ __device__ inline Index co_rank_lower_bound(Index k, const K* A, Index m, const K* B, Index n) {
  // The answer lies in [max(0, k-n), min(k, m)].
  return co_rank_lower_bound_within(k, A, B, max_of<Index>(0, k - n), min_of(k, m));
}

}  // namespace wb::device
