// Stage 6, thread-level piece: co_rank (stage 1) as a lower-bound binary search.
//
// The same answer as co_rank - the i of the stable split of output rank k - found another
// way. For i in [max(0, k-n), min(k, m)] the test "B[k-1-i] < A[i]" (B's last element taken
// comes strictly before A's first element left) is false up to the answer and true from it
// on: the answer is the first i where it holds.
#pragma once

#include <cstdint>

#include "index_math.hpp"

namespace merge::WB_TRACK {

template <class K, class Index>
__host__ __device__ inline Index co_rank_lower_bound(Index k, const K* A, Index m, const K* B, Index n) {
  // TODO(merge/6): the first i in [max(0, k-n), min(k, m)] where B[k-1-i] < A[i], by a plain
  // lower-bound binary search: a fixed number of steps, whatever the data.
  return 0;
}

}  // namespace merge::WB_TRACK
