// Block-level merge pieces: one tile of a merge by a whole block, every global access
// coalesced (the merge chapter's stage 6).
//
// "Striped" order: item x of thread t is element x * BLOCK + t of the tile, so a warp's
// 32 threads touch 32 consecutive elements (one 128-byte line for 4-byte keys).
// "Blocked" order: item x of thread t is element t * ITEMS + x, what a per-thread merge
// produces. Shared memory turns one into the other; with ITEMS odd the blocked accesses
// (stride ITEMS words) hit 32 different banks.
//
// merge_tile is one whole tile: these loads and stores around the per-thread merge
// (thread_merge.cuh) and its co-ranks (co_rank_lower_bound.cuh). The merge chapter teaches it
// in its stage 6 (your exercises/merge/block_merge.cuh); the sort chapter's merge sort calls
// it for every tile of every merge pass.
#pragma once

#include "wb/device/co_rank_lower_bound.cuh"
#include "wb/device/min_max.hpp"
#include "wb/device/thread_merge.cuh"
#include "wb/kernel.hpp"

namespace wb::device {

// Loads the tile's inputs, A[0, A_length) then B[0, B_length), into AB_S[0, A_length +
// B_length), striped: every load is issued (ITEMS independent loads per thread in flight)
// before the first store to shared memory. The caller synchronises before reading AB_S.
template <int BLOCK, int ITEMS, class T>
__device__ __forceinline__ void load_tile_striped(const T* __restrict__ A, int A_length, const T* __restrict__ B,
                                                  int B_length, T* AB_S) {
  T item[ITEMS];
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) {
    const int idx = x * BLOCK + static_cast<int>(threadIdx.x);
    if (idx < A_length) {
      item[x] = A[idx];
    } else if (idx < A_length + B_length) {
      item[x] = B[idx - A_length];
    }
  }
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) {
    const int idx = x * BLOCK + static_cast<int>(threadIdx.x);
    if (idx < A_length + B_length) AB_S[idx] = item[x];
  }
}

// Stores this thread's blocked items (outputs threadIdx.x * ITEMS + x of the tile) to
// C[0, C_length): blocked into shared memory, then striped out of it, coalesced. Begins with
// a barrier (other threads may still be reading `staging`) and ends with one (so the caller
// may reuse it).
template <int BLOCK, int ITEMS, class T>
__device__ __forceinline__ void store_tile_blocked(const T (&item)[ITEMS], T* __restrict__ C, int C_length,
                                                   T* staging) {
  __syncthreads();
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) {
    const int idx = static_cast<int>(threadIdx.x) * ITEMS + x;
    if (idx < C_length) staging[idx] = item[x];
  }
  __syncthreads();
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) {
    const int idx = x * BLOCK + static_cast<int>(threadIdx.x);
    if (idx < C_length) C[idx] = staging[idx];
  }
  __syncthreads();
}

// What merge_tile stores for a merged key: the key itself (the merge chapter), or something
// of the same size made from it (the sort chapter's last pass turns bit patterns into keys).
struct same_key {
  template <class K>
  __device__ __forceinline__ K operator()(K key) const {
    return key;
  }
};

// One tile of a merge, by the whole block: C[0, A_length + B_length) = the stable merge of
// A[0, A_length) and B[0, B_length) (global memory: the inputs the partition pass found for
// this tile, at most BLOCK * ITEMS in all). With VALUES, C_val gets the values of A_val and
// B_val in the same order as their keys. Each key is stored as to_out(key). AB_S: shared
// memory for BLOCK * ITEMS keys, reused for the values. Called by every thread of the block.
template <int BLOCK, int ITEMS, bool VALUES, class K, class V, class Out, class ToOut = same_key>
__device__ __forceinline__ void merge_tile(const K* __restrict__ A, int A_length, const K* __restrict__ B,
                                           int B_length, Out* __restrict__ C, const V* __restrict__ A_val,
                                           const V* __restrict__ B_val, V* __restrict__ C_val, K* AB_S,
                                           ToOut to_out = {}) {
  static_assert(sizeof(Out) == sizeof(K) && sizeof(V) <= sizeof(K), "the staging reuses the keys' shared memory");
  const int C_length = A_length + B_length;

  // 1. The inputs, coalesced, into shared memory. With values, their loads are issued now
  // too (into registers, striped like the keys): they are in flight while the keys merge,
  // instead of being requested only once the keys are stored.
  V value_item[ITEMS];
  if constexpr (VALUES) {
#pragma unroll
    for (int x = 0; x < ITEMS; ++x) {
      const int idx = x * BLOCK + static_cast<int>(threadIdx.x);
      if (idx < A_length) {
        value_item[x] = A_val[idx];
      } else if (idx < C_length) {
        value_item[x] = B_val[idx - A_length];
      }
    }
  }
  load_tile_striped<BLOCK, ITEMS>(A, A_length, B, B_length, AB_S);
  __syncthreads();

  // 2. Each thread: co-rank its first output in shared memory, merge ITEMS in registers.
  const K* A_S = AB_S;
  const K* B_S = AB_S + A_length;
  const int c_curr = min_of(static_cast<int>(threadIdx.x) * ITEMS, C_length);
  const int a_curr = co_rank_lower_bound<K, int>(c_curr, A_S, A_length, B_S, B_length);
  K keys[ITEMS];
  int from[ITEMS];
  thread_merge<ITEMS>(A_S, A_length, B_S, B_length, a_curr, c_curr - a_curr, keys, from);

  // 3. The outputs, coalesced, through shared memory.
  Out out[ITEMS];
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) out[x] = to_out(keys[x]);
  store_tile_blocked<BLOCK, ITEMS>(out, C, C_length, reinterpret_cast<Out*>(AB_S));

  if constexpr (VALUES) {
    // The values follow their keys: the tile's values into shared memory in the same order
    // as the keys, each output's value picked by where its key came from, stored like the keys.
    V* AB_val_S = reinterpret_cast<V*>(AB_S);
#pragma unroll
    for (int x = 0; x < ITEMS; ++x) {
      const int idx = x * BLOCK + static_cast<int>(threadIdx.x);
      if (idx < C_length) AB_val_S[idx] = value_item[x];
    }
    __syncthreads();
    V vals[ITEMS];
#pragma unroll
    for (int x = 0; x < ITEMS; ++x) vals[x] = c_curr + x < C_length ? AB_val_S[from[x]] : V{};
    store_tile_blocked<BLOCK, ITEMS>(vals, C_val, C_length, AB_val_S);
  }
}

}  // namespace wb::device
