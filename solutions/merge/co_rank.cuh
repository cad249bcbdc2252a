// Stage 1: the co-rank function (PMPP §12.3-12.4, Fig. 12.5; walked through in Figs. 12.6-12.8).
//
// For an output rank k, co_rank returns the i such that C[0, k) is the merge of A[0, i) and
// B[0, j) with j = k - i. The pair (i, j) is found by binary search: the search keeps
// i + j == k and narrows [i_low, i] until
//     A[i-1] <= B[j]   (A[i-1] is not after B[j]: it belongs to the prefix)   and
//     B[j-1] <  A[i]   (B[j-1] is strictly before A[i]: on a tie A[i] would go first).
// The asymmetry (<= on one side, < on the other) is the stable tie rule of merge_sequential:
// on equal keys the element of A comes first. It makes the answer unique and monotone in k,
// so neighbouring threads' ranges fit together exactly.
#pragma once

#include <cstdint>

#include "index_math.hpp"

namespace merge::WB_TRACK {

template <class K>
__host__ __device__ inline std::int64_t co_rank(std::int64_t k, const K* A, std::int64_t m, const K* B,
                                                std::int64_t n) {
  std::int64_t i = min_of(k, m);              // the largest i can be
  std::int64_t j = k - i;
  std::int64_t i_low = max_of<std::int64_t>(0, k - n);  // at most n of the k come from B
  std::int64_t j_low = max_of<std::int64_t>(0, k - m);  // at most m of the k come from A
  while (true) {
    if (i > 0 && j < n && A[i - 1] > B[j]) {
      // i is too large: A[i-1] comes after B[j]. Move i down by half of [i_low, i].
      const std::int64_t delta = (i - i_low + 1) / 2;
      j_low = j;
      i -= delta;
      j += delta;
    } else if (j > 0 && i < m && B[j - 1] >= A[i]) {
      // M3: `>=`, not `>`: on a tie A[i] goes before B[j-1], so j is too large.
      const std::int64_t delta = (j - j_low + 1) / 2;
      i_low = i;
      i += delta;
      j -= delta;
    } else {
      return i;  // M2: return only when both tests pass, after the loop, not inside it
    }
  }
}

}  // namespace merge::WB_TRACK
