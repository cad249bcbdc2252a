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
  // TODO (stage 6): for x = 0 .. ITEMS-1 (unrolled), element idx = x * BLOCK + threadIdx.x of
  // the tile is A[idx] if idx < A_length, else B[idx - A_length] if idx < A_length + B_length.
  // Load all ITEMS into a register array first, then store them to AB_S[idx]: the loads are
  // then all in flight at once.
  // Delete the next line when you write the load.
  (void)A, (void)A_length, (void)B, (void)B_length, (void)AB_S;
}

// Stores this thread's blocked items (outputs threadIdx.x * ITEMS + x of the tile) to
// C[0, C_length): blocked into shared memory, then striped out of it, coalesced. Begins with
// a barrier (other threads may still be reading `staging`) and ends with one (so the caller
// may reuse it).
template <int BLOCK, int ITEMS, class T>
__device__ __forceinline__ void store_tile_blocked(const T (&item)[ITEMS], T* __restrict__ C, int C_length,
                                                   T* staging) {
  // TODO (stage 6): __syncthreads(); staging[threadIdx.x * ITEMS + x] = item[x] (the
  // blocked order, for idx < C_length); __syncthreads(); C[idx] = staging[idx] for
  // idx = x * BLOCK + threadIdx.x < C_length (striped: coalesced); __syncthreads().
  // Keep the three barriers: every thread calls this function, so they are not divergent.
  __syncthreads();
  __syncthreads();
  __syncthreads();
  // Delete the next line when you write the store.
  (void)item, (void)C, (void)C_length, (void)staging;
}

}  // namespace merge::WB_TRACK
