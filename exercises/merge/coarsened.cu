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
  // TODO (stage 5, PMPP §12.8): one exact tile of blockDim.x * items_per_thread outputs.
  //   1. C_curr = blockIdx.x * tile (64-bit, M12), C_next = min(C_curr + tile, m + n); two
  //      threads co-rank the two ends in global memory into a __shared__ std::int64_t[2];
  //      __syncthreads().
  //   2. Load exactly A[A_curr, A_next) into AB_S and B[B_curr, B_next) right after it,
  //      coalesced; __syncthreads().
  //   3. This thread's outputs c_curr = min(threadIdx.x * items_per_thread, C_length) and
  //      c_next = min(c_curr + items_per_thread, C_length): co-rank both in shared memory,
  //      merge_sequential into C + C_curr + c_curr (values from global memory).
  // Delete the next line when you write the kernel.
  (void)A, (void)m, (void)B, (void)n, (void)C, (void)A_val, (void)B_val, (void)C_val, (void)items_per_thread, (void)AB_S;
}

// Stage 5's block-level searches alone, for the sweep: one thread per tile boundary runs the
// co_rank that threads 0 and 1 of each block run before the block can load anything.
template <class K>
__global__ void tile_boundary_co_rank_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n,
                                             std::int64_t tile_items, std::int64_t count, std::int64_t* out) {
  const std::int64_t t = wb::global_thread_index();
  if (t < count) out[t] = co_rank(min_of(t * tile_items, m + n), A, m, B, n);
}

template <class K>
void merge_coarsened_searches(const K* A, std::int64_t m, const K* B, std::int64_t n, std::int64_t tile_items,
                              std::int64_t* out) {
  const std::int64_t count = ceil_div(m + n, tile_items) + 1;
  wb::launch({static_cast<unsigned>(ceil_div(count, 256)), 256}, tile_boundary_co_rank_kernel<K>, A, m, B, n, tile_items,
             count, out);
}

template <class K>
void merge_coarsened(const problem<K>& p, const config& requested) {
  const config cfg = resolve(5, requested, p.m + p.n, sizeof(K), p.has_values());
  if (p.m + p.n == 0) return;
  wb::launch({static_cast<unsigned>(cfg.grid), static_cast<unsigned>(cfg.block), shared_bytes(5, cfg, sizeof(K), false)},
             merge_coarsened_kernel<K>, p.A, p.m, p.B, p.n, p.C, p.A_val, p.B_val, p.C_val, cfg.items_per_thread);
}

#define MERGE_INSTANTIATE(K)                                                \
  template void merge_coarsened<K>(const problem<K>&, const config&);       \
  template void merge_coarsened_searches<K>(const K*, std::int64_t, const K*, std::int64_t, std::int64_t, std::int64_t*);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge::WB_TRACK
