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

template <class K>
__global__ void merge_circular_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n, K* C,
                                      const value_t* A_val, const value_t* B_val, value_t* C_val, int tile_size) {
  K* A_S = wb::dynamic_shared<K>();
  K* B_S = A_S + tile_size;
  // TODO (stage 4, PMPP §12.7): the tiled kernel of stage 3 with A_S and B_S as circular buffers.
  //   Part 1: as in stage 3.
  //   Keep, besides A_consumed, A_loaded: how much of the block's A slice has been loaded (M9).
  //   The buffer then holds A_kept = A_loaded - A_consumed elements, starting at A_S_start.
  //   Part 2 (Fig. 12.16), per tile: A_new = min(tile_size - A_kept, A_length - A_loaded) new
  //     elements, from A[A_curr + A_loaded + i], into slot circular_slot(A_S_start, A_kept + i);
  //     A_loaded += A_new. The same for B (with B_length, M9). __syncthreads().
  //   Part 3 (Fig. 12.18): as in stage 3, with A_tile = A_kept + A_new, co_rank_circular and
  //     merge_sequential_circular (start each thread's merge at circular_slot(A_S_start, a_curr)).
  //   End of the tile: A_S_consumed = co_rank_circular(C_tile, ...); advance A_consumed,
  //     C_completed, B_consumed = C_completed - A_consumed; A_S_start moves by A_S_consumed
  //     (wrapping), B_S_start by C_tile - A_S_consumed; __syncthreads().
  // Delete the next line when you write the kernel.
  (void)A, (void)m, (void)B, (void)n, (void)C, (void)A_val, (void)B_val, (void)C_val, (void)B_S;
}

template <class K>
void merge_circular(const problem<K>& p, const config& requested) {
  const config cfg = resolve(4, requested, p.m + p.n, sizeof(K), p.has_values());
  if (p.m + p.n == 0) return;
  wb::launch({static_cast<unsigned>(cfg.grid), static_cast<unsigned>(cfg.block), shared_bytes(4, cfg, sizeof(K), false)},
             merge_circular_kernel<K>, p.A, p.m, p.B, p.n, p.C, p.A_val, p.B_val, p.C_val, cfg.tile);
}

template <class K>
int co_rank_circular_host(int k, const K* A_S, int m, const K* B_S, int n, int A_S_start, int B_S_start,
                          int tile_size) {
  return co_rank_circular(k, A_S, m, B_S, n, A_S_start, B_S_start, tile_size);
}

#define MERGE_INSTANTIATE(K)                                                                   \
  template void merge_circular<K>(const problem<K>&, const config&);                          \
  template int co_rank_circular_host<K>(int, const K*, int, const K*, int, int, int, int);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge::WB_TRACK
