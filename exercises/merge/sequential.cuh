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
  // TODO(merge/0): merge A and B into C as in PMPP §12.2 (Fig. 12.2): repeatedly copy the smaller
  // of the two front elements, equal keys taking A's first (stable), and carry the values along.
}

}  // namespace merge::WB_TRACK
