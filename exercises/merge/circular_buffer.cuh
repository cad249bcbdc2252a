// The circular-buffer helpers of stage 4 (PMPP §12.7, Figs. 12.17-12.20).
//
// A_S holds the current A tile in a circular buffer of tile_size slots starting at A_S_start
// (likewise B_S, B_S_start). The simplified model of Fig. 12.17B: callers use VIRTUAL indices
// 0, 1, 2, ... from the start of the tile, as if it were contiguous; only these helpers turn a
// virtual index into a slot, wrapping past the end of the buffer.
#pragma once

#include <cstdint>

#include "merge.hpp"

namespace merge::WB_TRACK {

// The slot of virtual index `offset` (0 <= offset <= tile_size) of a tile starting at `start`
// (0 <= start < tile_size): one subtraction is enough to wrap.
__host__ __device__ inline int circular_slot(int start, int offset, int tile_size) {
  const int slot = start + offset;
  return slot >= tile_size ? slot - tile_size : slot;
}

// co_rank (Fig. 12.5) on circular buffers: the same search over virtual indices i and j.
template <class K>
__host__ __device__ inline int co_rank_circular(int k, const K* A_S, int m, const K* B_S, int n, int A_S_start,
                                                int B_S_start, int tile_size) {
  // TODO(merge/4): your co_rank (stage 1) over virtual indices, every element read through
  // circular_slot (PMPP §12.7, Fig. 12.19).
  return 0;
}

// merge_sequential (Fig. 12.2) on circular buffers (Fig. 12.21): merges virtual indices
// [0, m) of the A tile and [0, n) of the B tile into C[0, m+n). Values are not in the
// buffers: A_val[i] is the value of virtual element i (it points into global memory).
template <class K>
__host__ __device__ inline void merge_sequential_circular(const K* A_S, int m, const K* B_S, int n, K* C,
                                                          int A_S_start, int B_S_start, int tile_size,
                                                          const value_t* A_val = nullptr,
                                                          const value_t* B_val = nullptr, value_t* C_val = nullptr) {
  // TODO(merge/4): your merge_sequential (stage 0), every element read through circular_slot
  // (PMPP §12.7, Fig. 12.21).
}

}  // namespace merge::WB_TRACK
