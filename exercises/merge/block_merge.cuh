// Stage 6, block-level pieces: moving a tile between global memory and registers through
// shared memory so that every global access is coalesced.
//
// "Striped" order: item x of thread t is element x * BLOCK + t of the tile, so a warp's
// 32 threads touch 32 consecutive elements (one 128-byte line for 4-byte keys).
// "Blocked" order: item x of thread t is element t * ITEMS + x, what a per-thread merge
// produces. Shared memory turns one into the other; with ITEMS odd the blocked accesses
// (stride ITEMS words) hit 32 different banks.
#pragma once

#include <cstdint>

namespace merge::WB_TRACK {

// Loads the tile's inputs, A[0, A_length) then B[0, B_length), into AB_S[0, A_length +
// B_length), striped: every load is issued (ITEMS independent loads per thread in flight)
// before the first store to shared memory. The caller synchronises before reading AB_S.
template <int BLOCK, int ITEMS, class T>
__device__ __forceinline__ void load_tile_striped(const T* __restrict__ A, int A_length, const T* __restrict__ B,
                                                  int B_length, T* AB_S) {
  // TODO(merge/6): the striped load: this thread's ITEMS elements of the tile, all loads
  // issued before the first store to shared memory.
}

// Stores this thread's blocked items (outputs threadIdx.x * ITEMS + x of the tile) to
// C[0, C_length): blocked into shared memory, then striped out of it, coalesced. Begins with
// a barrier (other threads may still be reading `staging`) and ends with one (so the caller
// may reuse it).
template <int BLOCK, int ITEMS, class T>
__device__ __forceinline__ void store_tile_blocked(const T (&item)[ITEMS], T* __restrict__ C, int C_length,
                                                   T* staging) {
  // TODO(merge/6): blocked into shared memory, striped out of it to C (coalesced), with the
  // barriers the comment above describes.
}

}  // namespace merge::WB_TRACK
