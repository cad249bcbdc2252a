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

// Dynamic shared memory: blockDim.x * items_per_thread keys (wb::dynamic_shared<K>()).
template <class K>
__global__ void merge_coarsened_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n, K* C,
                                       const value_t* A_val, const value_t* B_val, value_t* C_val,
                                       int items_per_thread) {
  // TODO(merge/5): one block, one tile of blockDim.x * items_per_thread outputs (PMPP §12.8):
  // co-rank the tile's two ends, load exactly its inputs into shared memory, and let each thread
  // merge its items_per_thread outputs.
}

}  // namespace merge::WB_TRACK

#include "coarsened_host.inl"  // the host side of stage 5, shared by both tracks
