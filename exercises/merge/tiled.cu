// Stage 3: the tiled merge kernel (PMPP §12.6, Figs. 12.10-12.14).
//
// Each block owns an equal slice of C and walks over it one tile of tile_size outputs at a
// time: the whole block loads the next tile_size elements of its A slice into A_S and of its
// B slice into B_S with coalesced loads, then each thread co-ranks and merges its share of the
// tile from shared memory.
#include "wb/kernel.hpp"

#include "co_rank.cuh"
#include "merge.hpp"
#include "output_ranges.cuh"
#include "sequential.cuh"

namespace merge::WB_TRACK {

template <class K>
__global__ void merge_tiled_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n, K* C, const value_t* A_val,
                                   const value_t* B_val, value_t* C_val, int tile_size) {
  K* A_S = wb::dynamic_shared<K>();  // tile_size elements of A
  K* B_S = A_S + tile_size;          // tile_size elements of B
  // TODO (stage 3, PMPP §12.6):
  //   Part 1 (Fig. 12.11): the block's output range C_curr..C_next (part_begin over gridDim.x
  //     blocks); thread 0 co-ranks both ends into a `__shared__ std::int64_t block_co_rank[2]`
  //     of their own (M8: not A_S[0], A_S[1], which the first tile load overwrites);
  //     __syncthreads(); every thread reads A_curr, A_next; B_curr = C_curr - A_curr, ...
  //   Part 2 (Fig. 12.12), per tile (total_iteration = ceil(C_length / tile_size), M5):
  //     A_tile = min(tile_size, A_length - A_consumed) elements into A_S, coalesced
  //     (for i = threadIdx.x; i < A_tile; i += blockDim.x); same for B; __syncthreads().
  //   Part 3 (Fig. 12.13): C_tile = min(tile_size, C_length - C_completed); this thread's
  //     share c_curr..c_next = part_begin(threadIdx.x, blockDim.x, C_tile) (M11: any block and
  //     tile size); co_rank inside the tile over the FILLED lengths A_tile, B_tile; merge into
  //     C + C_curr + C_completed + c_curr. Values: read them from global memory, where the
  //     keys came from (A_val + A_curr + A_consumed + a_curr).
  //   End of the tile: A_consumed += co_rank(C_tile, A_S, A_tile, B_S, B_tile) (M6: not
  //     tile_size); C_completed += C_tile; B_consumed = C_completed - A_consumed (M7);
  //     __syncthreads() before the next tile overwrites A_S and B_S (M7).
  // Delete the next line when you write the kernel.
  (void)A, (void)m, (void)B, (void)n, (void)C, (void)A_val, (void)B_val, (void)C_val, (void)B_S;
}

template <class K>
void merge_tiled(const problem<K>& p, const config& requested) {
  const config cfg = resolve(3, requested, p.m + p.n, sizeof(K), p.has_values());
  if (p.m + p.n == 0) return;
  wb::launch({static_cast<unsigned>(cfg.grid), static_cast<unsigned>(cfg.block), shared_bytes(3, cfg, sizeof(K), false)},
             merge_tiled_kernel<K>, p.A, p.m, p.B, p.n, p.C, p.A_val, p.B_val, p.C_val, cfg.tile);
}

#define MERGE_INSTANTIATE(K) template void merge_tiled<K>(const problem<K>&, const config&);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge::WB_TRACK
