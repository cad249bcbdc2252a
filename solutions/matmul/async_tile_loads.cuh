// Stage 5, block level: one BK-wide slice of A and of B copied from global into shared memory
// with cp.async, 16 bytes (8 bf16) per copy, without passing through registers; the copies
// complete while the warps compute on earlier slices (CUDA C++ Programming Guide,
// "Asynchronous Data Copies"; wb/async_copy.hpp).
//
// A copy is whole or nothing: a chunk inside the matrix is copied, a chunk outside it is
// zero-filled (source bytes 0; the source address must still be valid, so it points at the
// matrix's start). That needs rows whose length is a multiple of 8 bf16 (16-byte aligned
// chunks): for other K or N the slice is loaded element by element instead, 0 outside (MM1).
#pragma once

#include <cstdint>

#include "wb/async_copy.hpp"
#include "wb/bf16.hpp"
#include "wmma_shape.hpp"

namespace matmul::WB_TRACK {

// Chunk `c` of the slice rows x 8 * chunks_per_row, starting at (row0, col0) of a rows_total x
// cols_total row-major matrix, into dst (row-major, ld bf16 per row).
__device__ __forceinline__ void copy_chunk(wb::bf16* dst, int ld, const wb::bf16* src, std::int64_t rows_total,
                                           std::int64_t cols_total, std::int64_t row0, std::int64_t col0, int c,
                                           int chunks_per_row, bool async) {
  const int r = c / chunks_per_row, k = 8 * (c % chunks_per_row);
  const std::int64_t row = row0 + r, col = col0 + k;
  wb::bf16* to = dst + r * ld + k;
  if (async) {
    const bool inside = row < rows_total && col < cols_total;  // cols_total % 8 == 0: all 8 or none
    wb::cp_async_16(to, inside ? src + row * cols_total + col : src, inside ? 16 : 0);
  } else {
    for (int e = 0; e < 8; ++e) {
      to[e] = row < rows_total && col + e < cols_total ? src[row * cols_total + col + e] : wb::to_bf16(0.0f);
    }
  }
}

// The block starts copying slice k0 of A (rows row0..) and of B (columns col0..).
template <class S>
__device__ __forceinline__ void load_slice(wb::bf16* A_S, wb::bf16* B_S, const wb::bf16* A, const wb::bf16* B,
                                           std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t row0,
                                           std::int64_t col0, std::int64_t k0, int tid, bool async_a, bool async_b) {
#pragma unroll
  for (int l = 0; l < S::A_CHUNKS_PER_THREAD; ++l) {
    copy_chunk(A_S, S::LDA_S, A, M, K, row0, k0, tid + l * S::THREADS, S::BK / 8, async_a);
  }
#pragma unroll
  for (int l = 0; l < S::B_CHUNKS_PER_THREAD; ++l) {
    copy_chunk(B_S, S::LDB_S, B, K, N, k0, col0, tid + l * S::THREADS, S::BN / 8, async_b);
  }
}

}  // namespace matmul::WB_TRACK
