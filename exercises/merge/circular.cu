// Stage 4: the circular-buffer merge kernel (PMPP §12.7, Figs. 12.15-12.21).
//
// The tiled kernel (stage 3) reloads the whole tile every iteration although only the
// consumed part is new. Here A_S and B_S are circular buffers: the unconsumed elements stay
// where they are, the tile now starts at A_S_start / B_S_start, and each iteration loads only
// as many new elements as the last one consumed. Every input element is read from global
// memory once.
#include "wb/kernel.hpp"

#include "circular_buffer.cuh"
#include "co_rank.cuh"
#include "merge.hpp"
#include "output_ranges.cuh"

namespace merge::WB_TRACK {

// Dynamic shared memory: 2 * tile_size keys (wb::dynamic_shared<K>()), A_S then B_S.
template <class K>
__global__ void merge_circular_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n, K* C,
                                      const value_t* A_val, const value_t* B_val, value_t* C_val, int tile_size) {
  // TODO(merge/4): stage 3's kernel with A_S and B_S as circular buffers (PMPP §12.7, Figs.
  // 12.16-12.18): keep what a tile did not consume where it is, and load only what is new.
}

}  // namespace merge::WB_TRACK

#include "circular_host.inl"  // the host side of stage 4, shared by both tracks
