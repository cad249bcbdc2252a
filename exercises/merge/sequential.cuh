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
  // TODO (stage 0, PMPP §12.2, Fig. 12.2): merge A and B into C.
  //   - i walks over A, j over B, k over C. While both have elements left, copy the smaller
  //     one; on a tie take A[i] (A[i] <= B[j]): that is what makes the merge stable.
  //   - When the loop ends one input is used up: copy the rest of the other one, AFTER the
  //     loop (M1: the printed code copies the tail inside it).
  //   - If C_val is not null, copy the value of every element you copy: C_val[k] = A_val[i].
  // Delete the next line when you write the merge.
  (void)A, (void)m, (void)B, (void)n, (void)C, (void)A_val, (void)B_val, (void)C_val;
}

}  // namespace merge::WB_TRACK
