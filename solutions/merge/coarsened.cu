// Stage 5: thread coarsening (PMPP §12.8), made measurable.
//
// Every kernel so far gives each thread several outputs, so that one binary search serves
// many of them (§12.8). Here the amount is the knob: a block produces exactly one tile of
// blockDim.x * items_per_thread outputs.
//   1. Two threads co-rank the tile's two ends in global memory (the block-level search).
//   2. The block loads exactly the A and B elements the tile needs (no more: the tile's
//      inputs are known, so nothing is loaded twice and no circular buffer is needed - the
//      "more precise tile loading" the book leaves as an exercise in §12.6).
//   3. Each thread co-ranks its items_per_thread outputs in shared memory and merges them.
// Few items per thread: many blocks, each paying two searches of ~log2(m+n) dependent global
// loads for few outputs. Many: long sequential merges, fewer threads to hide latency, and
// strided stores. The sweep (`merge --sweep`) measures where the balance lies.
#include "wb/kernel.hpp"

#include "co_rank.cuh"
#include "merge.hpp"
#include "sequential.cuh"

namespace merge::WB_TRACK {

template <class K>
__global__ void merge_coarsened_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n, K* C,
                                       const value_t* A_val, const value_t* B_val, value_t* C_val,
                                       int items_per_thread) {
  K* AB_S = wb::dynamic_shared<K>();  // the tile's A part, then its B part
  __shared__ std::int64_t tile_co_rank[2];

  // 1. The tile's output range and its co-ranks; threads 0 and 1 search at the same time.
  const std::int64_t tile_items = static_cast<std::int64_t>(blockDim.x) * items_per_thread;
  const std::int64_t C_curr = static_cast<std::int64_t>(blockIdx.x) * tile_items;  // M12
  const std::int64_t C_next = min_of(C_curr + tile_items, m + n);
  for (int end = threadIdx.x; end < 2; end += blockDim.x) {  // also right for blockDim.x == 1
    tile_co_rank[end] = co_rank(end == 0 ? C_curr : C_next, A, m, B, n);
  }
  __syncthreads();
  const std::int64_t A_curr = tile_co_rank[0];
  const std::int64_t B_curr = C_curr - A_curr;
  const int A_length = static_cast<int>(tile_co_rank[1] - A_curr);
  const int B_length = static_cast<int>((C_next - tile_co_rank[1]) - B_curr);
  const int C_length = A_length + B_length;

  // 2. Exactly the inputs of this tile, coalesced: A_S = AB_S[0, A_length), B_S after it.
  K* A_S = AB_S;
  K* B_S = AB_S + A_length;
  for (int i = threadIdx.x; i < A_length; i += blockDim.x) A_S[i] = A[A_curr + i];
  for (int i = threadIdx.x; i < B_length; i += blockDim.x) B_S[i] = B[B_curr + i];
  __syncthreads();

  // 3. This thread's items_per_thread outputs (fewer in the last tile).
  const int c_curr = min_of(static_cast<int>(threadIdx.x) * items_per_thread, C_length);
  const int c_next = min_of(c_curr + items_per_thread, C_length);
  const int a_curr = static_cast<int>(co_rank<K>(c_curr, A_S, A_length, B_S, B_length));
  const int a_next = static_cast<int>(co_rank<K>(c_next, A_S, A_length, B_S, B_length));
  const int b_curr = c_curr - a_curr;
  const int b_next = c_next - a_next;
  merge_sequential(A_S + a_curr, a_next - a_curr, B_S + b_curr, b_next - b_curr, C + C_curr + c_curr,
                   offset_or_null(A_val, A_curr + a_curr), offset_or_null(B_val, B_curr + b_curr),
                   offset_or_null(C_val, C_curr + c_curr));
}

}  // namespace merge::WB_TRACK

#include "coarsened_host.inl"  // the host side of stage 5, shared by both tracks
