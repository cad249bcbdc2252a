// Thread-level merge piece: a sequential merge of a fixed number of outputs, in registers.
//
// The sequential merge (PMPP §12.2) with the output count fixed at compile time: the loop is
// fully unrolled, so the ITEMS outputs (and, for a key-value merge, where each came from)
// live in registers instead of being written one by one to memory.
//
// The merge chapter teaches it in its stage 6 (your exercises/merge/thread_merge.cuh); the
// sort chapter's merge sort uses it.
#pragma once

#include "wb/kernel.hpp"

namespace wb::device {

// Merges ITEMS outputs from A_S[i...] (A_length elements in all) and B_S[j...] (B_length),
// both in shared memory. keys[x] gets output x; from[x] its position in the tile's inputs
// (i for A_S[i], A_length + j for B_S[j]: the index into AB_S, where B_S follows A_S).
// Outputs past the end of both inputs are left unspecified (the caller does not store them).
template <int ITEMS, class K>
__device__ __forceinline__ void thread_merge(const K* A_S, int A_length, const K* B_S, int B_length, int i, int j,
                                             K (&keys)[ITEMS], int (&from)[ITEMS]) {
  K a = i < A_length ? A_S[i] : K{};  // the next candidate of each input, kept in a register
  K b = j < B_length ? B_S[j] : K{};
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) {
    // Stable: on equal keys A goes first (the merge chapter's defect M1); once B is used
    // up, A goes.
    const bool take_a = i < A_length && (j >= B_length || a <= b);
    keys[x] = take_a ? a : b;
    from[x] = take_a ? i : A_length + j;
    if (take_a) {
      ++i;
      if (i < A_length) a = A_S[i];
    } else {
      ++j;
      if (j < B_length) b = B_S[j];
    }
  }
}

}  // namespace wb::device
