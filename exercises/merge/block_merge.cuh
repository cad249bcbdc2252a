// Stage 6, block-level pieces: moving a tile between global memory and registers through
// shared memory so that every global access is coalesced.
//
// "Striped" order: item x of thread t is element x * BLOCK + t of the tile, so a warp's
// 32 threads touch 32 consecutive elements (one 128-byte line for 4-byte keys).
// "Blocked" order: item x of thread t is element t * ITEMS + x, what a per-thread merge
// produces. Shared memory turns one into the other; with ITEMS odd the blocked accesses
// (stride ITEMS words) hit 32 different banks.
//
// merge_tile (below) is one whole tile of stage 6: these loads and stores around the
// per-thread merge; merge_tile_kernel runs it, one block per tile. The sort chapter's merge
// sort calls the solution's merge_tile (common/include/wb/device/block_merge.cuh) for every
// tile of every merge pass.
#pragma once

#include <cstdint>

#include "co_rank_lower_bound.cuh"
#include "index_math.hpp"
#include "merge.hpp"
#include "thread_merge.cuh"
#include "wb/kernel.hpp"

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
  // TODO(merge/6): the tile's inputs into shared memory (load_tile_striped), each thread's
  // first output co-ranked there and ITEMS outputs merged in registers (thread_merge), stored
  // as to_out(key) through shared memory (store_tile_blocked); with VALUES the values follow.
}

// One block merges tile blockIdx.x: C[C_curr, C_curr + BLOCK * ITEMS).
template <class K, int BLOCK, int ITEMS, bool VALUES>
__global__ void __launch_bounds__(BLOCK)
    merge_tile_kernel(const K* __restrict__ A, std::int64_t m, const K* __restrict__ B, std::int64_t n,
                      K* __restrict__ C, const value_t* __restrict__ A_val, const value_t* __restrict__ B_val,
                      value_t* __restrict__ C_val, const std::int64_t* __restrict__ partitions) {
  // TODO(merge/6): merge tile blockIdx.x, whose inputs start at A[partitions[blockIdx.x]]:
  // find its input ranges from the partitions, then merge_tile (block_merge.cuh) loads them
  // into shared memory, merges each thread's ITEMS outputs in registers (thread_merge.cuh) and
  // stores them through shared memory; the values follow their keys.
}

}  // namespace merge::WB_TRACK
