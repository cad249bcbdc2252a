// Stage 1: the co-rank function (PMPP §12.3-12.4, Fig. 12.5; walked through in Figs. 12.6-12.8).
//
// For an output rank k, co_rank returns the i such that C[0, k) is the merge of A[0, i) and
// B[0, j) with j = k - i.
#pragma once

#include <cstdint>

#include "index_math.hpp"

namespace merge::WB_TRACK {

template <class K>
__host__ __device__ inline std::int64_t co_rank(std::int64_t k, const K* A, std::int64_t m, const K* B,
                                                std::int64_t n) {
  // TODO(merge/1): find i by binary search (PMPP §12.4, Fig. 12.5), keeping i + j == k and
  // narrowing the range until A[i-1] <= B[j] and B[j-1] < A[i] (on equal keys A goes first).
  return 0;
}

}  // namespace merge::WB_TRACK
