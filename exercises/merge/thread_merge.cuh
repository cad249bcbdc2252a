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
  // TODO (stage 6): merge_sequential for exactly ITEMS outputs, into registers.
  //   Keep the next candidate of each input in a register (a = A_S[i], b = B_S[j], when they
  //   exist). For x = 0 .. ITEMS-1 (with `#pragma unroll`: the loop must be unrolled so that
  //   keys[x] and from[x] stay in registers): take A when i < A_length and (j >= B_length or
  //   a <= b), else B; keys[x] = the key taken, from[x] = i or A_length + j; advance i or j and
  //   load the next candidate of that input only if there is one.
  // Delete the next line when you write the merge.
  (void)A_S, (void)A_length, (void)B_S, (void)B_length, (void)i, (void)j, (void)keys, (void)from;
}

}  // namespace merge::WB_TRACK
