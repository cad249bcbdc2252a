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

// Dynamic shared memory: 2 * tile_size keys (wb::dynamic_shared<K>()), A_S then B_S.
template <class K>
__global__ void merge_tiled_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n, K* C, const value_t* A_val,
                                   const value_t* B_val, value_t* C_val, int tile_size) {
  // TODO(merge/3): the tiled merge of PMPP §12.6 (Figs. 12.11-12.13): the block's part of C and
  // its co-ranks; then, tile by tile, a coalesced load of A and B into shared memory and each
  // thread's share of the tile's outputs merged from there.
}

}  // namespace merge::WB_TRACK

#include "tiled_host.inl"  // the host side of stage 3, shared by both tracks
