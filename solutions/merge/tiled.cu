// Stage 3: the tiled merge kernel (PMPP §12.6, Figs. 12.10-12.14).
//
// Each block owns an equal slice of C (Part 1, Fig. 12.11). It walks over its slice one
// tile of tile_size outputs at a time: the whole block loads the next tile_size elements of
// its A slice into A_S and of its B slice into B_S with coalesced loads (Part 2, Fig. 12.12),
// then each thread co-ranks and merges its share of the tile from shared memory (Part 3,
// Fig. 12.13). A tile of outputs needs at most tile_size elements of A and of B, but uses
// only tile_size of the 2 * tile_size loaded: the rest is loaded again next time (§12.7
// fixes that).
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
  // M8, M12: the block's co-ranks get their own 64-bit shared variables. The book passes them
  // through A_S[0], A_S[1] (which also cannot hold a 64-bit index in a 32-bit key) and then
  // overwrites A_S with the first tile while other threads may still be reading them.
  __shared__ std::int64_t block_co_rank[2];

  // ---- Part 1: the block's output range and the input ranges that produce it (Fig. 12.11)
  const std::int64_t C_curr = part_begin(blockIdx.x, gridDim.x, m + n);  // M5, M12
  const std::int64_t C_next = part_begin(blockIdx.x + 1, gridDim.x, m + n);
  if (threadIdx.x == 0) {
    block_co_rank[0] = co_rank(C_curr, A, m, B, n);
    block_co_rank[1] = co_rank(C_next, A, m, B, n);
  }
  __syncthreads();
  const std::int64_t A_curr = block_co_rank[0];
  const std::int64_t A_next = block_co_rank[1];
  const std::int64_t B_curr = C_curr - A_curr;
  const std::int64_t B_next = C_next - A_next;

  const std::int64_t C_length = C_next - C_curr;
  const std::int64_t A_length = A_next - A_curr;
  const std::int64_t B_length = B_next - B_curr;
  const std::int64_t total_iteration = ceil_div(C_length, tile_size);  // M5: the last partial tile counts
  std::int64_t C_completed = 0;
  std::int64_t A_consumed = 0;
  std::int64_t B_consumed = 0;

  for (std::int64_t counter = 0; counter < total_iteration; ++counter) {
    // ---- Part 2: load the next tile of A and of B, coalesced (Fig. 12.12). Near the end of
    // the block's slice fewer than tile_size elements remain: only those are loaded.
    const int A_tile = static_cast<int>(min_of<std::int64_t>(tile_size, A_length - A_consumed));
    const int B_tile = static_cast<int>(min_of<std::int64_t>(tile_size, B_length - B_consumed));
    for (int i = threadIdx.x; i < A_tile; i += blockDim.x) A_S[i] = A[A_curr + A_consumed + i];
    for (int i = threadIdx.x; i < B_tile; i += blockDim.x) B_S[i] = B[B_curr + B_consumed + i];
    __syncthreads();

    // ---- Part 3: every thread merges its share of this tile's outputs (Fig. 12.13).
    const int C_tile = static_cast<int>(min_of<std::int64_t>(tile_size, C_length - C_completed));
    // M11: the share is ceil(C_tile / blockDim.x), so every output of the tile has a thread
    // whatever tile_size and blockDim.x are (the book's tile_size/blockDim.x drops the rest).
    const int c_curr = static_cast<int>(part_begin(threadIdx.x, blockDim.x, C_tile));
    const int c_next = static_cast<int>(part_begin(threadIdx.x + 1, blockDim.x, C_tile));
    // The co-ranks are searched among the elements actually in the tile (A_tile, B_tile).
    const int a_curr = static_cast<int>(co_rank<K>(c_curr, A_S, A_tile, B_S, B_tile));
    const int a_next = static_cast<int>(co_rank<K>(c_next, A_S, A_tile, B_S, B_tile));
    const int b_curr = c_curr - a_curr;
    const int b_next = c_next - a_next;
    // Values are not staged in shared memory: they are read where the keys came from.
    merge_sequential(A_S + a_curr, a_next - a_curr, B_S + b_curr, b_next - b_curr, C + C_curr + C_completed + c_curr,
                     offset_or_null(A_val, A_curr + A_consumed + a_curr),
                     offset_or_null(B_val, B_curr + B_consumed + b_curr),
                     offset_or_null(C_val, C_curr + C_completed + c_curr));

    // How much of A this tile used. M6: co-rank over the filled lengths A_tile and B_tile;
    // with tile_size for both, the search reads slots the last load never wrote.
    const int A_used = static_cast<int>(co_rank<K>(C_tile, A_S, A_tile, B_S, B_tile));
    C_completed += C_tile;
    A_consumed += A_used;
    B_consumed = C_completed - A_consumed;  // M7: derived from the totals, not a running difference
    // M7: every thread is done reading A_S and B_S before the next tile overwrites them.
    __syncthreads();
  }
}

}  // namespace merge::WB_TRACK

#include "tiled_host.inl"  // the host side of stage 3, shared by both tracks
