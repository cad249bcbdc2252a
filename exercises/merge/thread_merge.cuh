// Stage 6, thread-level piece: a register-blocked sequential merge.
//
// merge_sequential (stage 0) with the output count fixed at compile time: the loop is fully
// unrolled, so the ITEMS outputs (and, for a key-value merge, where each came from) live in
// registers instead of being written one by one to global memory.
#pragma once

#include "index_math.hpp"

namespace merge::WB_TRACK {

// Merges ITEMS outputs from A_S[i...] (A_length elements in all) and B_S[j...] (B_length),
// both in shared memory. keys[x] gets output x; from[x] its position in the tile's inputs
// (i for A_S[i], A_length + j for B_S[j]: the index into AB_S, where B_S follows A_S).
// Outputs past the end of both inputs are left unspecified (the caller does not store them).
template <int ITEMS, class K>
__device__ __forceinline__ void thread_merge(const K* A_S, int A_length, const K* B_S, int B_length, int i, int j,
                                             K (&keys)[ITEMS], int (&from)[ITEMS]) {
  // TODO(merge/6): merge_sequential (stage 0) for exactly ITEMS outputs, kept in registers:
  // the loop has a fixed count, so it can be unrolled and keys[] and from[] never touch memory.
}

}  // namespace merge::WB_TRACK
