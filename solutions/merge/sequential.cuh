// Stage 0: the sequential merge, the specification every other stage is checked against
// (PMPP §12.2, Fig. 12.2). Host and device: the kernels of stages 2-5 call it on their slice.
#pragma once

#include <cstdint>

#include "index_math.hpp"
#include "merge.hpp"

namespace merge::WB_TRACK {

// C[0, m+n) = stable merge of sorted A[0, m) and sorted B[0, n). Values (optional: null for a
// keys-only merge) travel with their keys; A_val[i] belongs to A[i], and so on.
template <class K>
__host__ __device__ inline void merge_sequential(const K* A, std::int64_t m, const K* B, std::int64_t n, K* C,
                                                 const value_t* A_val = nullptr, const value_t* B_val = nullptr,
                                                 value_t* C_val = nullptr) {
  std::int64_t i = 0;  // next element of A
  std::int64_t j = 0;  // next element of B
  std::int64_t k = 0;  // next slot of C
  while (i < m && j < n) {
    if (A[i] <= B[j]) {  // M1: `<=`, so on equal keys A's element goes first (stable)
      if (C_val != nullptr) C_val[k] = A_val[i];
      C[k++] = A[i++];
    } else {
      if (C_val != nullptr) C_val[k] = B_val[j];
      C[k++] = B[j++];
    }
  }
  // M1: the tails are copied once the loop is over, not inside it. One of them is empty.
  for (; i < m; ++i, ++k) {
    if (C_val != nullptr) C_val[k] = A_val[i];
    C[k] = A[i];
  }
  for (; j < n; ++j, ++k) {
    if (C_val != nullptr) C_val[k] = B_val[j];
    C[k] = B[j];
  }
}

}  // namespace merge::WB_TRACK
