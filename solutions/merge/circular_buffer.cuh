// The circular-buffer helpers of stage 4 (PMPP §12.7, Figs. 12.17-12.20).
//
// A_S holds the current A tile in a circular buffer of tile_size slots starting at A_S_start
// (likewise B_S, B_S_start). The simplified model of Fig. 12.17B: callers use VIRTUAL indices
// 0, 1, 2, ... from the start of the tile, as if it were contiguous; only these two helpers
// turn a virtual index into a slot, wrapping past the end of the buffer.
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
// M10: all four elements are read through circular_slot, so B[j-1] is read with j - the book
// computes the slot of B[j-1] from `B_S_start + i - 1` in one of its four hand-written copies.
template <class K>
__host__ __device__ inline int co_rank_circular(int k, const K* A_S, int m, const K* B_S, int n, int A_S_start,
                                                int B_S_start, int tile_size) {
  int i = k < m ? k : m;
  int j = k - i;
  int i_low = k - n > 0 ? k - n : 0;
  int j_low = k - m > 0 ? k - m : 0;
  while (true) {
    if (i > 0 && j < n &&
        A_S[circular_slot(A_S_start, i - 1, tile_size)] > B_S[circular_slot(B_S_start, j, tile_size)]) {
      const int delta = (i - i_low + 1) / 2;
      j_low = j;
      i -= delta;
      j += delta;
    } else if (j > 0 && i < m &&
               B_S[circular_slot(B_S_start, j - 1, tile_size)] >= A_S[circular_slot(A_S_start, i, tile_size)]) {
      const int delta = (j - j_low + 1) / 2;  // M3: `>=` above, the stable tie rule
      i_low = i;
      i += delta;
      j -= delta;
    } else {
      return i;
    }
  }
}

// merge_sequential (Fig. 12.2) on circular buffers (Fig. 12.21): merges virtual indices
// [0, m) of the A tile and [0, n) of the B tile into C[0, m+n). Values are not in the
// buffers: A_val[i] is the value of virtual element i (it points into global memory).
template <class K>
__host__ __device__ inline void merge_sequential_circular(const K* A_S, int m, const K* B_S, int n, K* C,
                                                          int A_S_start, int B_S_start, int tile_size,
                                                          const value_t* A_val = nullptr,
                                                          const value_t* B_val = nullptr, value_t* C_val = nullptr) {
  int i = 0;
  int j = 0;
  int k = 0;
  while (i < m && j < n) {
    const K a = A_S[circular_slot(A_S_start, i, tile_size)];
    const K b = B_S[circular_slot(B_S_start, j, tile_size)];
    if (a <= b) {  // M1: ties take A first
      if (C_val != nullptr) C_val[k] = A_val[i];
      C[k++] = a;
      ++i;
    } else {
      if (C_val != nullptr) C_val[k] = B_val[j];
      C[k++] = b;
      ++j;
    }
  }
  for (; i < m; ++i, ++k) {  // M1: tails after the loop
    if (C_val != nullptr) C_val[k] = A_val[i];
    C[k] = A_S[circular_slot(A_S_start, i, tile_size)];
  }
  for (; j < n; ++j, ++k) {
    if (C_val != nullptr) C_val[k] = B_val[j];
    C[k] = B_S[circular_slot(B_S_start, j, tile_size)];
  }
}

}  // namespace merge::WB_TRACK
