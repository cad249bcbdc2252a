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
  __shared__ std::int64_t block_co_rank[2];  // M8, M12 (see stage 3)

  // ---- Part 1: as in stage 3 (Fig. 12.11).
  const std::int64_t C_curr = part_begin(blockIdx.x, gridDim.x, m + n);
  const std::int64_t C_next = part_begin(blockIdx.x + 1, gridDim.x, m + n);
  if (threadIdx.x == 0) {
    block_co_rank[0] = co_rank(C_curr, A, m, B, n);
    block_co_rank[1] = co_rank(C_next, A, m, B, n);
  }
  __syncthreads();
  const std::int64_t A_curr = block_co_rank[0];
  const std::int64_t B_curr = C_curr - A_curr;
  const std::int64_t C_length = C_next - C_curr;
  const std::int64_t A_length = block_co_rank[1] - A_curr;
  const std::int64_t B_length = (C_next - block_co_rank[1]) - B_curr;
  const std::int64_t total_iteration = ceil_div(C_length, tile_size);

  std::int64_t C_completed = 0;
  std::int64_t A_consumed = 0;  // elements of the block's A slice merged so far
  std::int64_t B_consumed = 0;
  // M9: how far each slice has been LOADED. The book refills from A_consumed, i.e. it reloads
  // elements that are still in the buffer; and it assumes the buffer was full, which fails
  // near the end of the slice. The buffer holds A_loaded - A_consumed elements, always.
  std::int64_t A_loaded = 0;
  std::int64_t B_loaded = 0;
  int A_S_start = 0;  // slot of the tile's first element
  int B_S_start = 0;

  for (std::int64_t counter = 0; counter < total_iteration; ++counter) {
    // ---- Part 2: top the buffers up (Fig. 12.16). The new elements go right after the ones
    // still there, i.e. at virtual index (A_loaded - A_consumed), wrapping around.
    const int A_kept = static_cast<int>(A_loaded - A_consumed);
    const int B_kept = static_cast<int>(B_loaded - B_consumed);
    const int A_new = static_cast<int>(min_of<std::int64_t>(tile_size - A_kept, A_length - A_loaded));
    const int B_new = static_cast<int>(min_of<std::int64_t>(tile_size - B_kept, B_length - B_loaded));  // M9: B_length
    for (int i = threadIdx.x; i < A_new; i += blockDim.x) {
      A_S[circular_slot(A_S_start, A_kept + i, tile_size)] = A[A_curr + A_loaded + i];
    }
    for (int i = threadIdx.x; i < B_new; i += blockDim.x) {
      B_S[circular_slot(B_S_start, B_kept + i, tile_size)] = B[B_curr + B_loaded + i];
    }
    A_loaded += A_new;
    B_loaded += B_new;
    __syncthreads();

    // ---- Part 3: as in stage 3, through the circular helpers (Fig. 12.18).
    const int A_tile = A_kept + A_new;  // elements in the buffer: min(tile_size, what is left)
    const int B_tile = B_kept + B_new;
    const int C_tile = static_cast<int>(min_of<std::int64_t>(tile_size, C_length - C_completed));
    const int c_curr = static_cast<int>(part_begin(threadIdx.x, blockDim.x, C_tile));  // M11
    const int c_next = static_cast<int>(part_begin(threadIdx.x + 1, blockDim.x, C_tile));
    const int a_curr = co_rank_circular(c_curr, A_S, A_tile, B_S, B_tile, A_S_start, B_S_start, tile_size);
    const int a_next = co_rank_circular(c_next, A_S, A_tile, B_S, B_tile, A_S_start, B_S_start, tile_size);
    const int b_curr = c_curr - a_curr;
    const int b_next = c_next - a_next;
    merge_sequential_circular(A_S, a_next - a_curr, B_S, b_next - b_curr, C + C_curr + C_completed + c_curr,
                              circular_slot(A_S_start, a_curr, tile_size), circular_slot(B_S_start, b_curr, tile_size),
                              tile_size, offset_or_null(A_val, A_curr + A_consumed + a_curr),
                              offset_or_null(B_val, B_curr + B_consumed + b_curr),
                              offset_or_null(C_val, C_curr + C_completed + c_curr));

    // What this tile consumed (M6: over the filled lengths), and where the tiles start now.
    const int A_S_consumed = co_rank_circular(C_tile, A_S, A_tile, B_S, B_tile, A_S_start, B_S_start, tile_size);
    const int B_S_consumed = C_tile - A_S_consumed;
    C_completed += C_tile;
    A_consumed += A_S_consumed;
    B_consumed = C_completed - A_consumed;
    A_S_start = circular_slot(A_S_start, A_S_consumed, tile_size);
    B_S_start = circular_slot(B_S_start, B_S_consumed, tile_size);
    __syncthreads();  // M7: all reads of this tile are done before the next refill
  }
}

}  // namespace merge::WB_TRACK

#include "circular_host.inl"  // the host side of stage 4, shared by both tracks
